"""Whether two texts share their words in the same order, pure.

A copy is the other text in order: a re-scan word by word (OCR slips aside), a copy
missing its last page is the other's head, one with a cover sheet the other's tail.
Documents assembled from one library of sentences or clauses (the manuals of several
makers for one kind of device, contracts on one form) share most of their shingles,
so their Jaccard and containment look like a copy's, but each takes its own selection
in its own order: between two shared sentences one has a sentence the other lacks,
and the shared ones come in another order.

``ordered_overlap`` is the longest common subsequence of the two fuzzy samples' words
over the shorter sample's words, the better of head and tail (as the fuzzy score):
near 1 for a copy, about the share of words the two have in one order for an
assembly.  The word sequences are compared with rapidfuzz's bit-parallel Indel
distance (LCS = (m + n - Indel) / 2), a fraction of a millisecond per pair.
"""

from __future__ import annotations

from rapidfuzz.distance import Indel

from .features import Features

#: Whether runs of words that a scan read elsewhere count as in order (below); off only to
#: measure it (bench/quality.py).
MOVED_RUNS = True
#: A heavy scan reads a box, a side column or a stamp out of reading order, or a skewed page
#: runs of lines: the run is the other text's, in order, at another place.  Up to this many
#: such runs of at least MIN_RUN_WORDS words count as in order (two or three lines: a library's
#: sentence is shorter, and two of them moved together are 11-17 words on seed 7).  An assembly of one library's
#: sentences differs in tens of places (each sentence of its own selection and order), so two
#: runs move its share by a few hundredths; a re-scan with two runs of lines moved is in order.
MOVED_RUN_LIMIT = 2
MIN_RUN_WORDS = 15
# Blocks (on each side) among which the moved runs are looked for: the largest ones.
_RUN_CANDIDATES = 6


def _moved_runs(wx: list[str], wy: list[str]) -> int:
    """Words in up to MOVED_RUN_LIMIT runs that the alignment left out on both sides and that
    are (mostly) one run of the other: their longest common subsequence, the largest first."""
    ops = Indel.opcodes(wx, wy)
    gone = sorted(((o.src_start, o.src_end) for o in ops if o.tag == "delete" and o.src_end - o.src_start >= MIN_RUN_WORDS),
                  key=lambda r: (r[0] - r[1], r[0]))[:_RUN_CANDIDATES]
    new = sorted(((o.dest_start, o.dest_end) for o in ops if o.tag == "insert" and o.dest_end - o.dest_start >= MIN_RUN_WORDS),
                 key=lambda r: (r[0] - r[1], r[0]))[:_RUN_CANDIDATES]
    found = []
    for s, e in gone:
        for t, u in new:
            run = (e - s + u - t - Indel.distance(wx[s:e], wy[t:u])) // 2
            if run >= MIN_RUN_WORDS:
                found.append((run, s, t))
    added, used_x, used_y = 0, set(), set()
    for run, s, t in sorted(found, key=lambda f: (-f[0], f[1], f[2])):
        if s not in used_x and t not in used_y:
            added += run
            used_x.add(s)
            used_y.add(t)
            if len(used_x) == MOVED_RUN_LIMIT:
                break
    return added


def _lcs_share(x: str, y: str) -> float:
    wx, wy = x.split(), y.split()
    if not wx or not wy:
        return 0.0
    common = (len(wx) + len(wy) - Indel.distance(wx, wy)) // 2
    shorter = min(len(wx), len(wy))
    if MOVED_RUNS and ORDER_NONE * shorter < common < ORDER_COPY * shorter:  # only where the factor is < 1
        common += _moved_runs(wx, wy)
    return min(1.0, common / shorter)


def ordered_overlap(a: Features, b: Features) -> float:
    """Share (0-1) of the shorter sample's words that the other has in the same order;
    the better of the heads and the tails.  Both need their samples."""
    (a_head, a_tail), (b_head, b_tail) = a.samples(), b.samples()
    head = _lcs_share(a_head, b_head)
    if a_tail == a_head and b_tail == b_head:
        return head
    return max(head, _lcs_share(a_tail, b_tail))


#: Ordered overlap at or under which the shared shingles count for nothing, and from
#: which they count fully; linear between.  Measured on the realistic corpus
#: (docs/quality.md, seed 7 at 3,000 documents): manuals of several makers from one
#: sentence library 0.40-0.70 (95 % under 0.58); duplicates of every kind 0.66-1.0
#: (5 % under 0.79-0.90 depending on the kind; re-scans 0.85).
ORDER_NONE = 0.45
ORDER_COPY = 0.75


#: Where the two documents share no value at all (no date, amount, id ... in common, none that
#: differs), the text alone decides, and a copy is the other text in order from this share on.
#: Manuals of several makers from one sentence library carry no value once their paragraph
#: numbers are no amounts: realistic 5k seed 7, 0.67-0.79 on 11 such pairs (9 over the
#: threshold with ORDER_COPY), the duplicates without any value 0.85-1.0 (docs/quality.md, issue 25).
ORDER_COPY_TEXT_ONLY = 0.85


def order_factor(overlap: float, *, text_only: bool = False) -> float:
    """How much of the shingle similarity a pair with this ordered overlap keeps (0-1);
    ``text_only``: the pair has no value to tell it by (:data:`ORDER_COPY_TEXT_ONLY`)."""
    copy_at = ORDER_COPY_TEXT_ONLY if text_only else ORDER_COPY
    return min(1.0, max(0.0, (overlap - ORDER_NONE) / (copy_at - ORDER_NONE)))
