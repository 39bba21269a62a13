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


def _lcs_share(x: str, y: str) -> float:
    wx, wy = x.split(), y.split()
    if not wx or not wy:
        return 0.0
    common = (len(wx) + len(wy) - Indel.distance(wx, wy)) / 2
    return common / min(len(wx), len(wy))


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


def order_factor(overlap: float) -> float:
    """How much of the shingle similarity a pair with this ordered overlap keeps (0-1)."""
    return min(1.0, max(0.0, (overlap - ORDER_NONE) / (ORDER_COPY - ORDER_NONE)))
