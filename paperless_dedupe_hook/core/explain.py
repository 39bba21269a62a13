"""The verdict on a pair in words, pure: what a reviewer wants to know first.

"same text; 3 words read differently by OCR", "the newer copy lacks the last page
(41 words at the end)", "a newer version: “Last updated 2026-11-02” and 4 other
passages changed".  Built from what is already known about the pair: its scores
(``PairScore`` or a ``--report`` pair dict) and, when both texts are at hand, their
:func:`textdiff.diff_texts`.  Without texts the wording rests on the scores alone and
says less.  A pair whose ``verdict`` is ``"revision"`` (a newer version of the same
document) is worded as one, whoever decided it; one whose ``verdict`` is ``"picture"``
(too little text: only the first pages' pictures were compared) says so and nothing
about the texts.

The older document of a pair is ``a`` (lower id), the newer ``b``: "the newer copy"
is always ``b``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .textdiff import Change, TextDiff

# Scores at or above these count as "the same" when no texts are at hand.
SAME_TEXT = 0.97
NEARLY_SAME = 0.90
# Below this the discriminative comparison found dates, amounts or numbers that differ.
SAME_FIGURES = 0.99
# Overlap (containment) this far above Jaccard: one text holds much more than the other.
PART_OF = 0.08
# A quoted changed passage is cut to this many words.
QUOTE_WORDS = 6
# A block missing or added at the start or end is called a page from this many words.
PAGE_WORDS = 25
# Share of changed words up to which texts are "nearly" / "mostly" the same.
NEARLY_SHARE, MOSTLY_SHARE = 0.10, 0.30
# The verdict on a pair found by picture (paperless-dedupe-hook's own words: see README).
PICTURE_SENTENCE = "same first-page picture; only the pictures were compared (too little text to compare)"


@dataclass(frozen=True)
class PairFacts:
    score: float
    jaccard: float
    fuzzy: float
    discriminative: float
    containment: float
    verdict: str = "duplicate"
    # For a revision: whether ``b`` (the higher id, the document a note is written on)
    # carries the later version date; the one consumed last is not always the newer.
    b_is_newer: bool = True


def facts(pair: Mapping[str, Any] | Any) -> PairFacts:
    """The numbers of a pair, from a ``--report`` dict or a ``PairScore``-like object
    (``containment`` is ``similarity`` there; a missing ``verdict`` is "duplicate")."""
    def get(name: str, *alts: str) -> Any:
        for key in (name, *alts):
            value = pair.get(key) if isinstance(pair, Mapping) else getattr(pair, key, None)
            if value is not None:
                return value
        return None

    def num(name: str, *alts: str) -> float:
        value = get(name, *alts)
        try:
            return float(value)
        except (TypeError, ValueError):
            return 0.0

    jaccard = num("jaccard")
    containment = num("containment", "similarity") or jaccard
    newer, a, b = get("newer"), get("a", "doc_a"), get("b", "doc_b")
    b_is_newer = newer is None or a is None or b is None or int(newer) == max(int(a), int(b))
    return PairFacts(num("score"), jaccard, num("fuzzy"), num("discriminative"), containment,
                     str(get("verdict") or "duplicate"), b_is_newer)


def _words(n: int) -> str:
    return f"{n} word{'s' if n != 1 else ''}"


def _quote(passage: str) -> str:
    words = passage.split()
    cut = " ".join(words[:QUOTE_WORDS]).rstrip(".,;:") + (" …" if len(words) > QUOTE_WORDS else "")
    return f"“{cut}”"


def _ocr_clause(diff: TextDiff) -> str:
    n = diff.ocr_words
    return f"{_words(n)} read differently by OCR" if n else ""


def _with(base: str, *clauses: str) -> str:
    return "; ".join([base, *(c for c in clauses if c)])


def _revision(diff: TextDiff | None, *, b_is_newer: bool = True) -> str:
    # A user keeps both versions but must know it is not a copy, and which one is current.
    base = "a newer version of it, not a copy" if b_is_newer else "an older version of it (an earlier version date), not a copy"
    if diff is None or not diff.changes:
        return base
    first = diff.changes[0]
    quoted = _quote(first.new_text or first.old_text)
    others = len(diff.changes) - 1
    if not others:
        return f"{base}: {quoted} changed"
    return f"{base}: {quoted} and {others} other passage{'s' if others != 1 else ''} changed"


def _page(c: Change, truncated: bool) -> str | None:
    """The wording of a block only one text has, at the start or the end of both."""
    # A cover sheet may replace a word or two where it joins the letter ("Von:" of its own header).
    only_old = c.old_words > 0 and c.new_words <= max(c.old_words // 20, 2 if c.old_words >= PAGE_WORDS else 0)
    only_new = c.new_words > 0 and c.old_words <= max(c.new_words // 20, 2 if c.new_words >= PAGE_WORDS else 0)
    n = c.old_words if only_old else c.new_words
    if c.at_end and not c.at_start and not truncated:  # a cut text has no known end
        if only_old:
            return (f"the newer copy lacks the last page ({_words(n)} at the end)" if n >= PAGE_WORDS
                    else f"the newer copy lacks the last {_words(n)}")
        if only_new:
            return (f"the newer copy has an extra last page ({_words(n)} at the end)" if n >= PAGE_WORDS
                    else f"the newer copy has {_words(n)} more at the end")
    if c.at_start and not c.at_end:
        if only_new:
            return (f"the newer copy has an extra first page ({_words(n)} at the start, e.g. a cover sheet)"
                    if n >= PAGE_WORDS else f"the newer copy has {_words(n)} more at the start")
        if only_old:
            return (f"the newer copy lacks the first page ({_words(n)} at the start)" if n >= PAGE_WORDS
                    else f"the newer copy lacks the first {_words(n)}")
    return None


def _edge(diff: TextDiff) -> str | None:
    """The wording for texts that differ by a block at the start or the end: alone, or
    a whole page of it with a few differences elsewhere (OCR noise of the other pages)."""
    if len(diff.changes) == 1:
        return _page(diff.changes[0], diff.truncated)
    biggest = max(diff.changes, key=lambda c: max(c.old_words, c.new_words))
    size = max(biggest.old_words, biggest.new_words)
    if size < PAGE_WORDS or size < 0.5 * diff.changed_words:
        return None
    page = _page(biggest, diff.truncated)
    if page is None:
        return None
    rest = [c for c in diff.changes if c is not biggest]
    others = sum(max(c.old_words, c.new_words) for c in rest)
    return (f"{page}; {others} other word{'s' if others != 1 else ''} differ{'s' if others == 1 else ''} in "
            f"{len(rest)} place{'s' if len(rest) != 1 else ''}")


def _from_diff(f: PairFacts, diff: TextDiff) -> str:
    ocr = _ocr_clause(diff)
    if not diff.changes:
        if diff.truncated:  # only the start of a very long text was compared
            return _with(f"same text in the first {min(diff.old_words, diff.new_words):,} words compared", ocr)
        return _with("same text", ocr)
    edge = _edge(diff)
    if edge is not None:
        return _with(edge, ocr)
    changed = diff.changed_words
    places = len(diff.changes)
    figures = any(ch.isdigit() for c in diff.changes for ch in c.old_text + c.new_text)
    longer = max(diff.old_words, diff.new_words, 1)
    share = changed / longer
    base = ("nearly the same text" if share <= NEARLY_SHARE else "mostly the same text" if share <= MOSTLY_SHARE
            else "much of the text is the same")
    where = f"{_words(changed)} differ{'s' if changed == 1 else ''} in {places} place{'s' if places != 1 else ''}"
    return _with(f"{base}: {where}", "numbers or dates among them" if figures else "", ocr)


def _from_scores(f: PairFacts) -> str:
    figures = "some dates, amounts or numbers differ" if f.discriminative < SAME_FIGURES else ""
    if f.containment - f.jaccard >= PART_OF:
        return _with("one copy holds only part of the other's text (a page missing or added)", figures)
    if f.jaccard >= SAME_TEXT and f.fuzzy >= SAME_TEXT:
        return _with("same text", figures)
    if f.jaccard >= SAME_TEXT and f.fuzzy >= NEARLY_SAME:
        return _with("same text, read differently by OCR in places", figures)
    if f.jaccard >= NEARLY_SAME or f.fuzzy >= NEARLY_SAME:
        return _with("nearly the same text", figures)
    return _with("much of the text is the same", figures)


def verdict_sentence(pair: Mapping[str, Any] | Any, diff: TextDiff | None = None) -> str:
    """One sentence (no final period) on how the newer document ``b`` differs from ``a``."""
    f = facts(pair)
    if f.verdict == "picture":
        return PICTURE_SENTENCE
    if f.verdict == "revision":
        return _revision(diff, b_is_newer=f.b_is_newer)
    if diff is not None:
        return _from_diff(f, diff)
    return _from_scores(f)
