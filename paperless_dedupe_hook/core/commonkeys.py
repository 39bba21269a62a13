"""Which LSH band keys are evidence of duplication, pure.

A band key is four MinHash values of a document.  Two copies of one document share
many keys that no third document has.  A key that very many documents share comes
from text they all carry: a letterhead, a legal footer, the sentences of a form or
of a manual library.  Every pair of those documents would become a candidate, so a
template family of n documents costs n^2/2 candidates, and a privacy notice printed
by every insurer costs the square of the whole archive's letters, while none of
them says "these two are copies".  Such keys produce no candidates: a duplicate
pair still meets in the keys its own text makes (the month, the amounts, the body
of the letter), which only the two copies share.  The rebuild and the hook apply the
same limit (the rebuild to its bucket sizes, the index to its per-key row counts,
which the bands table holds already: no extra storage), so both find the same pairs.
"""

from __future__ import annotations

#: A band key that more documents than this share produces no candidates.  Measured on
#: the realistic corpus (docs/quality.md): no true pair of seed 7 or 8 at 3k-20k meets
#: only in keys this common, and the candidates per document stay flat with size.
COMMON_KEY_DOCS = 48


def evidence_bucket(size: int, limit: int = COMMON_KEY_DOCS) -> bool:
    """Whether documents sharing one key in a bucket of ``size`` become candidates."""
    return 1 < size <= limit
