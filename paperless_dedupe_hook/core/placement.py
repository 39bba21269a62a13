"""Where in a document its values stand, and the values of a head the other lacks, pure.

A copy sent behind a cover sheet (a fax header, a covering letter) carries the cover's own
values: its date, the sender's reference, a fax number, the amounts the letter names.  They
stand on a head of the text that the other document does not have, and against the other's
values (the original's, or those of another copy's own cover) they read as conflicts: a copy
behind its own cover scored like another letter (``cover_sheet`` recall 0.86 at 20,000
documents, docs/quality.md).

Each token keeps its first and last place as a share of the document's words, one byte each
(:func:`pack`, aligned with the sorted tokens), in memory and in the index.  Without the texts,
a side's head can reach at most to the first value both documents carry that stands at one
place of it (:func:`head_bound`); its values before that which the other lacks are what
:func:`trimmed` leaves out, the widest cut, which the hook's bound before it fetches a text and
the score's first check use alike.  With the texts (:func:`without_head`) the cut ends where
the text both share begins, and only where that makes a head of its own: long enough, a fair
part of what the side does not share, not as dense in values as a template's block, and not a
letter that opens with the other's letterhead.  The documents of a template series differ in
values scattered under one letterhead, which the other has too, so their values all count.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import lru_cache

from rapidfuzz.distance import Indel

from . import minhash
from ._scan import SLOT_MARK

__all__ = ["HEAD_SHARE", "MAX_HEAD_SHARE", "MAX_HEAD_VALUES", "MIN_HEAD_WORDS", "MIN_OWN_SHARE", "head_bound", "own_share",
           "pack", "trimmed", "without_head"]

#: Places are kept in this many steps of a document's length (one byte).
_STEPS = 256
#: A side whose own share of shingles (:func:`own_share`) is under this has no head of its own
#: to speak of (a re-scan's OCR slips leave 5-15 % of its shingles unshared, scattered).
MIN_OWN_SHARE = 0.08
#: Of a side's own share, at least this much must be a head: the words before the texts
#: first run together (a cover sheet is all head; a series' own words are scattered).
HEAD_SHARE = 0.5
#: Where two texts "run together": this many words in a row, in order, on both sides.  A
#: letterhead and its address are one such run, so a letter whose head is its letterhead,
#: followed by a body of its own, has no head of its own: it begins with the other's words.
RUN_WORDS = 6
#: Two texts whose first common run starts within this many words (numbers not counted) of
#: both open alike (a scanner's stamp lines before the letterhead are 5-10 such words).
OPENING_WORDS = 20
#: The text two documents share runs on: of this many words from its first run, at least
#: BODY_MATCHED are the other's in order (a heavy re-scan keeps 70-90 % of its words).
BODY_WORDS = 60
BODY_MATCHED = 0.6
#: A block before the shared text with this share of its words the other's (in order) is the
#: counterpart of the other's own head: a template's block of values shares its labels (about
#: half its words), one cover letter's prose another's a phrase or common words (a fifth).
COUNTERPART_MATCHED = 0.4
#: A head of fewer words is a scanner's stamp line or a template's block of values (a
#: ticket's order number, traveller, price, route and train: 36 words on realistic seed 7),
#: not a cover (61-460 words there; a cover of fewer words has no more than a fax number).
MIN_HEAD_WORDS = 50
#: Values a head may carry per word: a cover sheet is a letter, 0.01-0.07 of its words are
#: values it has of its own (realistic seed 7), a template's block of values 0.14 and more.
MAX_HEAD_VALUES = 0.08

# Documents whose places were laid out last (as discriminative's caches).
_LAID_OUT_DOCUMENTS = 4096
#: A head of its own is at most this share of a document (a cover letter up to 40 % of its copy).
MAX_HEAD_SHARE = 0.5


def pack(tokens: Collection[str], places: Mapping[str, tuple[int, int]], text: str) -> bytes:
    """Two bytes per token of ``tokens`` in sorted order: the first and the last place where it
    was read (character offsets in ``places``), in :data:`_STEPS` of the text's words.  A token
    without a place gets (0, 255): it is never taken for one of a head."""
    # Words are counted between the places only (a blank-split of each stretch, in C): a
    # regex walk over every word cost half a millisecond a document, 14 % of an extraction.
    word_at: dict[int, int] = {}
    words = previous = 0
    for pos in sorted({pos for place in places.values() for pos in place}):
        words += len(text[previous:pos].split())
        word_at[pos] = words
        previous = pos
    words = max(1, words + len(text[previous:].split()))
    out = bytearray()
    for token in sorted(tokens):
        place = places.get(token)
        if place is None:
            out += b"\x00\xff"
            continue
        out += bytes(min(_STEPS - 1, word_at[pos] * _STEPS // words) for pos in place)
    return bytes(out)


def own_share(jaccard: float, size: int, other_size: int) -> float:
    """The share (0-1) of one side's ``size`` shingles that the other side's lack, given
    their Jaccard estimate: ``1 - |A ∩ B| / |A|`` (:func:`.minhash.shared_shingles`)."""
    if size <= 0:
        return 0.0
    return min(1.0, max(0.0, 1.0 - minhash.shared_shingles(jaccard, size, other_size) / size))


@lru_cache(maxsize=_LAID_OUT_DOCUMENTS)
def _laid_out(tokens: frozenset[str], places: bytes) -> tuple[tuple[tuple[int, str], ...], tuple[tuple[int, str], ...]]:
    """A document's marks with their place (each plain value, not a date, read at one place
    only) and its tokens with their last place, computed once per document: what
    :func:`head_bound` and :func:`trimmed` walk (sorting a hundred tokens for every pair cost
    a fifth of a rebuild's scoring)."""
    # Not sorted by place: the walks below take a minimum and a filter, which need no order.
    # The hook meets each of its hundred candidates once, so it pays this once per candidate:
    # sorting by place made it 41 us for a payslip of 36 tokens, this 23 (and zips over the
    # byte strings, not indexing them, made it 2.5x faster before).
    order = sorted(tokens)
    firsts, lasts = places[0::2], places[1::2]
    # (a list comprehension with slices, not a generator with startswith: 9 us, not 17, for 36 tokens)
    marks = [(first, t) for first, last, t in zip(firsts, lasts, order, strict=True)
             if first == last and t[:1] != SLOT_MARK and t[:5] != "date:"]
    return tuple(marks), tuple(zip(lasts, order, strict=True))


def head_bound(tokens: frozenset[str], places: bytes, other: Collection[str]) -> float:
    """How far (a share of the document's words) a head of its own can reach at most: to the
    first value both documents carry that stands at one place of this one, and not past
    :data:`MAX_HEAD_SHARE`.  Dates are no such mark: two copies sent on one day behind their
    own covers share the cover's date, and a letter's date repeated on its cover stands twice."""
    if len(places) != 2 * len(tokens):
        return 0.0
    bound = int(MAX_HEAD_SHARE * _STEPS)
    for first, t in _laid_out(tokens, places)[0]:
        if first < bound and t in other:
            bound = first
    return bound / _STEPS


def trimmed(tokens: frozenset[str], places: bytes, cut_share: float, other: Collection[str]) -> frozenset[str]:
    """``tokens`` less those that stand wholly within the first ``cut_share`` of the document and
    that ``other`` lacks; ``tokens`` itself when that leaves out none (or the places are unknown)."""
    if cut_share <= 0.0 or len(places) != 2 * len(tokens):
        return tokens
    cut = int(cut_share * _STEPS)
    drop = [t for last, t in _laid_out(tokens, places)[1] if last < cut and t not in other]
    return tokens.difference(drop) if drop else tokens


def without_head(tokens: frozenset[str], places: bytes, other: frozenset[str], words: list[str],
                 other_words: list[str], bound: float, share: float, word_count: int) -> frozenset[str]:
    """:func:`trimmed` up to the head the texts show: the words of this text (``words``, its
    head sample, of ``word_count`` in all) before the text it shares with the other
    (``other_words``) begins (:func:`_body_start`), at most ``bound`` (:func:`head_bound`).
    ``tokens`` itself where that is no head of its own: the two open alike, or it is under
    :data:`MIN_HEAD_WORDS` words or :data:`HEAD_SHARE` of the own ``share`` of shingles, or as
    dense in values as a template's block of values (:data:`MAX_HEAD_VALUES`)."""
    if share < MIN_OWN_SHARE or not words or not other_words or word_count <= 0:
        return tokens
    head = _body_start(words, other_words)
    # No body within the sample (a long text's head sample is its first 2,500 characters): the
    # head reaches past it, as far as the bound.
    past = head == len(words)
    if head < MIN_HEAD_WORDS or not past and head < HEAD_SHARE * share * word_count:
        return tokens
    kept = trimmed(tokens, places, bound if past else min(bound, head / word_count), other)
    values = sum(1 for t in tokens.difference(kept) if not t.startswith(SLOT_MARK))
    return tokens if values > MAX_HEAD_VALUES * head else kept


def _body_start(words: list[str], other_words: list[str]) -> int:
    """Where the text the two share begins in ``words`` (:func:`_runs_together`), less a block
    just before it that stands for the other's own head: where the other text too opens with
    words before the shared text, and as many words before it here are the other's at
    :data:`COUNTERPART_MATCHED` (a template's block of values: its labels), this text's head
    ends where that block begins (behind a cover, the other's cover shares a few common words)."""
    start, matched = _runs_together(words, other_words)
    if start <= 0 or start == len(words):
        return start
    other_start, _ = _runs_together(other_words, words)
    if 0 < other_start <= start:
        block = matched[start - other_start : start]
        if sum(block) >= COUNTERPART_MATCHED * len(block):
            return start - other_start
    return start


def _runs_together(words: list[str], other_words: list[str]) -> tuple[int, bytearray]:
    """(where the shared text begins, which words the other has in order): the first run of
    :data:`RUN_WORDS` words in order on both sides from which the next :data:`BODY_WORDS`
    words are the other's at :data:`BODY_MATCHED` or more (two covers may share a phrase; the
    body they share runs on); 0 where both texts open with one run (within
    :data:`OPENING_WORDS` words but numbers: a letterhead, its address): a letter that begins as the other
    does has no head of its own; ``len(words)`` where there is none in the sample."""
    matched = bytearray(len(words))
    runs = []
    for op in Indel.opcodes(words, other_words):
        if op.tag == "equal":
            matched[op.src_start : op.src_end] = b"\x01" * (op.src_end - op.src_start)
            if op.src_end - op.src_start >= RUN_WORDS:
                runs.append((op.src_start, op.dest_start))
    if runs and _words_before(words, runs[0][0]) < OPENING_WORDS > _words_before(other_words, runs[0][1]):
        return 0, matched
    for start, _ in runs:
        stretch = matched[start : start + BODY_WORDS]
        if sum(stretch) >= BODY_MATCHED * len(stretch):
            return start, matched
    return len(words), matched


def _words_before(words: list[str], start: int) -> int:
    """The words before ``start`` that are not numbers: a scanner's or printer's stamp lines
    (``Druckdatum: 2025-07-19 15:52:40``, ``Scan 2025-02-12 08:42 | Brother ADS-2700W | S. 1/2``)
    are mostly numbers, 7 words of 20 there."""
    return sum(1 for w in words[:start] if not w.isdigit())
