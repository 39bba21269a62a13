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

#: A band key that more documents than this share produces no candidates.  96 was measured in
#: issue 25's eighth round (a series re-scan and its original that met only in keys 49-96
#: documents of the series share): 4 and 2 more duplicates on the realistic 20k corpora of seeds
#: 21 and 137, for 34 % more candidate pairs and a 20k rebuild of 1.27x the CPU; not taken.
COMMON_KEY_DOCS = 48
#: A key that at most this many documents share makes its documents candidates at once;
#: a pair meeting only in keys shared by more (up to ``COMMON_KEY_DOCS``) must meet in
#: ``SHARED_KEYS_NEEDED`` of them.  Two documents that use one stock phrase meet in one
#: such key; copies meet in several, or in a key only they have.
RARE_KEY_DOCS = 4
SHARED_KEYS_NEEDED = 2
# Measured on the realistic corpus, seed 7 (docs/quality.md): candidates per document
# 13.9 at 3,000 documents and 12.5 at 10,000 (every key: 21.0 and 42.9); candidate
# recall 0.996 and 0.997 (every key: 0.996, 0.999).


def bucket_role(size: int) -> str:
    """What a key that ``size`` documents share (the asking one included) is worth:
    ``"rare"`` (its documents are candidates), ``"shared"`` (they are when they meet in
    ``SHARED_KEYS_NEEDED`` such keys) or ``"none"`` (template text, or no other document)."""
    if size < 2 or size > COMMON_KEY_DOCS:
        return "none"
    return "rare" if size <= RARE_KEY_DOCS else "shared"


def chosen(meetings: dict[int, list[int]]) -> list[int]:
    """The candidates among documents that meet the asking one: ``meetings`` maps each
    to the sizes of the keys it shares with it (only keys that are evidence at all)."""
    return sorted(doc for doc, sizes in meetings.items()
                  if any(n <= RARE_KEY_DOCS for n in sizes) or len(sizes) >= SHARED_KEYS_NEEDED)
