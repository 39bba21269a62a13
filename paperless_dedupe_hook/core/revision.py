"""Revised versions: the verdict ``revision`` of a pair, pure.

Terms and conditions, a privacy policy, a price list are re-issued with a new version date
("Stand: 01.03.2024", "gültig ab 1. Januar 2025", "Zuletzt aktualisiert am ...", "Last updated:
12 March 2024", "Effective date: ...", "Version 4.0 - effective from ...") and a few clauses
changed.  To the discriminative score the new date is a conflict like the next invoice's date,
and it took such pairs under the threshold.  But a version date is no document date: two
versions of one text are what a user wants linked, as a revision, not as a copy.

A *version date* is a date in a slot (:mod:`.extract`) whose label holds a version word
(the languages' ``version_words``, :data:`VERSION_WORDS`), or a word that OCR's damage to one
gives (:func:`_is_version_word`).  A pair whose version dates differ (and not by one OCR slip) is a
revision: its D is taken without the version dates (the slots and the plain date tokens they
hold), so that only the clauses and values that changed count, and its verdict is
``revision``, with the later version date telling which document is the newer one.  An
invoice, payslip or statement series has dates under labels such as "Rechnungsdatum",
"Abrechnungszeitraum", "Kontostand per": no version word, so nothing changes for it, and its
other values (numbers, amounts, periods) still conflict where a version date would be set aside.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache
from typing import Final

from rapidfuzz.distance import Levenshtein

from . import languages as L
from ._pairing import fold_letter_pairs
from .extract import SLOT_MARK
from .text import fold_ocr, normalize

__all__ = ["VERSION_WORDS", "Versions", "version_dates", "versions", "without_version_dates"]

#: Words of a label that make its date a version date (before normalisation and OCR folding).
VERSION_WORDS: Final = L.merged("version_words")
_WORDS = frozenset(fold_ocr(normalize(w)) for w in VERSION_WORDS)
#: A label word this long may be a version word with one letter lost, gained or misread
#: (``revlsed`` read as ``relsed``); a shorter one must be one (``stand``, not ``stadt``).  A word
#: that lost its head (``effectlve`` read as ``ctlve``) is not taken: tails of version words
#: are words of their own (``arbeitet`` of ``überarbeitet``, ``dated`` of ``updated``).
_FUZZY_CHARS: Final = 6
_DIGIT_SLIPS = frozenset(frozenset(p) for p in ("17", "38", "56", "68", "08", "09", "35"))
# OCR's letter pairs for one letter that the labels' folding (``text.fold_ocr``) leaves (``lc``
# for ``k``: ``alctuallslert``), folded as street names fold them.
_FOLDED: Final = frozenset(fold_letter_pairs(w) for w in _WORDS)
_LONG: Final = tuple(w for w in _FOLDED if len(w) >= _FUZZY_CHARS)


@lru_cache(maxsize=4096)
def _is_version_word(word: str) -> bool:
    """A label word (normalised, OCR-folded) that is a version word, or one that OCR damaged."""
    word = fold_letter_pairs(word)
    if word in _FOLDED:
        return True
    return len(word) >= _FUZZY_CHARS and any(Levenshtein.distance(word, w, score_cutoff=1) <= 1 for w in _LONG)


def _is_version_label(label: str) -> bool:
    return any(_is_version_word(word) for word in label.split())


def version_dates(tokens: Collection[str]) -> frozenset[str]:
    """The ``date:`` tokens a document holds under a version label."""
    if isinstance(tokens, frozenset):  # a document's token set: it meets ~25 others in a rebuild
        return _cached_version_dates(tokens)
    return _version_dates(tokens)


@lru_cache(maxsize=4096)
def _cached_version_dates(tokens: frozenset[str]) -> frozenset[str]:
    return _version_dates(tokens)


def _version_dates(tokens: Collection[str]) -> frozenset[str]:
    out = set()
    for item in tokens:
        if item.startswith(SLOT_MARK):
            label, _, token = item[1:].partition("=")
            if token.startswith("date:") and _is_version_label(label):
                out.add(token)
    return frozenset(out)


def without_version_dates(tokens: Collection[str], dates: Collection[str]) -> list[str]:
    """``tokens`` less the version-date slots and the plain tokens of those dates."""
    drop = set(dates)
    out = []
    for item in tokens:
        if item.startswith(SLOT_MARK):
            label, _, token = item[1:].partition("=")
            if token in drop and _is_version_label(label):
                continue
        elif item in drop:
            continue
        out.append(item)
    return out


def _one_slip(x: str, y: str) -> bool:
    """One value read twice: one confusable digit apart, or one a month the other covers."""
    if len(x) != len(y):
        return x.startswith(y) or y.startswith(x)
    diff = [(p, q) for p, q in zip(x, y, strict=True) if p != q]
    return len(diff) == 1 and frozenset(diff[0]) in _DIGIT_SLIPS


class Versions:
    """The version dates of a pair: ``differ`` when the pair is a revision; ``newer_side`` 0 or 1."""

    __slots__ = ("a", "b")

    def __init__(self, a: frozenset[str], b: frozenset[str]) -> None:
        self.a, self.b = a, b

    @property
    def differ(self) -> bool:
        if not self.a or not self.b or self.a & self.b:
            return False
        return not any(_one_slip(x, y) for x in self.a for y in self.b)

    @property
    def newer_side(self) -> int:
        return 0 if max(self.a) > max(self.b) else 1


def versions(a: Collection[str], b: Collection[str]) -> Versions:
    return Versions(version_dates(a), version_dates(b))
