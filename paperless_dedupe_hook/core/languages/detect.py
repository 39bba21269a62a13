"""Which languages a document is written in: counts of each language's frequent words.

Cheap (one set lookup per word), and good enough for what it decides: the conventions of a
language (day/month order, thousands grouped by a blank, its street patterns) apply to a
document in which that language has at least a third of the best language's count.  The
choice can be narrowed (``detection.languages``: only these are considered) and hinted
(``PAPERLESS_OCR_LANGUAGE``: a hinted language wins a tie and counts from a single word).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final

from . import LANGUAGES, Language

__all__ = ["Detected", "count_words", "detect"]

#: A language applies from this share of the best language's count.
SHARE: Final = 1 / 3


class Detected:
    """The languages a document is in (most frequent first) and its frequent-word counts."""

    __slots__ = ("counts", "languages")

    def __init__(self, languages: tuple[Language, ...], counts: dict[str, int]) -> None:
        self.languages = languages
        self.counts = counts

    def uses(self, predicate: str) -> bool:
        """Whether one of the document's languages has the boolean convention ``predicate``."""
        return any(getattr(lang, predicate) for lang in self.languages)

    def union(self, field: str) -> tuple[str, ...]:
        return tuple(w for lang in self.languages for w in getattr(lang, field))


@lru_cache(maxsize=64)
def _candidates(allowed: tuple[str, ...]) -> tuple[Language, ...]:
    return tuple(lang for lang in LANGUAGES if not allowed or lang.code in allowed)


@lru_cache(maxsize=64)
def _word_table(allowed: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Frequent word -> the codes of the languages it is frequent in (one lookup per word)."""
    table: dict[str, list[str]] = {}
    for lang in _candidates(allowed):
        for word in lang.frequent_words:
            table.setdefault(word, []).append(lang.code)
    return {word: tuple(codes) for word, codes in table.items()}


def count_words(words: Iterable[str], allowed: tuple[str, ...] = ()) -> dict[str, int]:
    """Per language code: how many of ``words`` (lower case) are its frequent words."""
    counts = dict.fromkeys((lang.code for lang in _candidates(allowed)), 0)
    table = _word_table(allowed)
    seen = Counter(words)  # (counted in C; then one lookup per distinct frequent word)
    for word in seen.keys() & table.keys():
        for code in table[word]:
            counts[code] += seen[word]
    return counts


def detect(words: Iterable[str], allowed: Sequence[str] = (), hint: Sequence[str] = ()) -> Detected:
    """The languages of a text given its lower-case words."""
    allowed_t = tuple(allowed)
    counts = count_words(words, allowed_t)
    candidates = _candidates(allowed_t)
    score = {lang.code: counts[lang.code] + (0.5 if lang.code in hint else 0.0) for lang in candidates}
    best = max(score.values(), default=0.0)
    if best < 1:
        # Nothing to tell by: the hinted languages, else (one language allowed) that one.
        chosen = tuple(lang for lang in candidates if lang.code in hint) or (candidates if len(candidates) == 1 else ())
        return Detected(chosen, counts)
    order = sorted(candidates, key=lambda lang: -score[lang.code])
    return Detected(tuple(lang for lang in order if score[lang.code] >= max(1.0, best * SHARE)), counts)
