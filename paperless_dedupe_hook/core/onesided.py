"""Values each document has and the other has none of the kind of, pure.

Letters of one insurer to its customers share a long letterhead and legal footer (J 0.55-0.70,
containment 0.7-0.86, F near 0.9) and differ in a short body: one names a date and a policy
number, the other an amount and a reference.  Their values never meet as a conflict, since
each kind is on one side only, so D stays 1 and the pair passes the threshold; what they do
share are the letterhead's values (the insurer's IBAN, street, register number), which every
letter of the family carries and which the token weight (an IDF) counts for little.

A copy does not look like that: a re-scan has the other's values, a cover sheet or a lost page
adds or drops values on one side only, a draft changes values within a kind.  So when *both*
documents carry values of kinds the other has none of, the smaller of the two sides' conflict
weights counts against the pair's agreement M (the token-weighted weights of the values both
carry)::

    factor = M² / (M² + ONE_SIDED_SHARE * reach * min(U_a, U_b))        (1 when either U is 0)

and D is multiplied by it (1 where M is 0: two documents that share no value share no
letterhead's either, as an e-mail without the letterhead and the scan of the letter, whose
contract number it carries and the scan lost).  M enters squared: the letterhead's values weigh under 1.5 together
(M 0.64-1.38 on those false pairs), while a re-scan whose heavy OCR read one value as another
kind (a ref as a street) still agrees on its others (M 3.7-6.8 on two such series re-scans,
which M alone cost 10-17 % of D).  ``reach`` is 1 at a shingle similarity (containment) of
:data:`FULL_AT` or under and 0 from :data:`NONE_FROM`, linear between: two bodies behind one
letterhead share the letterhead, not the text, while a re-scan whose OCR read a value as
another kind, or a draft that traded a fee clause for a date clause, still shares nearly all
of it (containment 0.88-0.99 on the duplicates this would otherwise lose).  Measured on the realistic archive (seed 7, 20,000 documents): 52 of
the 73 ``insurer_letters`` false pairs have both sides one-sided, with M 0.64-1.38 and
min(U) 1.0-2.5; of 1,886 duplicates 40 have, 35 of them with M 2-9.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from functools import lru_cache

from ._pairing import weights
from .extract import SLOT_MARK, token_kind

__all__ = ["ONE_SIDED_SHARE", "agreement", "factor", "own_kinds"]

#: How much the smaller side's one-sided conflict weight counts against the agreement.
ONE_SIDED_SHARE = 0.5
#: Shingle similarity at or under which the factor counts fully, and from which not at all.
FULL_AT, NONE_FROM = 0.75, 0.90
#: A value on each side with the same digits (this many or more) is one value read as two kinds.
MIN_SHARED_DIGITS = 5
# Documents whose plain tokens and kinds were prepared last (as discriminative's caches).
_PREPARED_DOCUMENTS = 4096


@lru_cache(maxsize=_PREPARED_DOCUMENTS)
def _values(tokens: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """(plain value tokens, their kinds) of a document's token set."""
    plain = frozenset(t for t in tokens if not t.startswith(SLOT_MARK) and token_kind(t))
    return plain, frozenset(token_kind(t) for t in plain)


def _prepared(tokens: Collection[str]) -> tuple[frozenset[str], frozenset[str]]:
    return _values(tokens if isinstance(tokens, frozenset) else frozenset(tokens))


def _digits(token: str) -> str:
    """The digits of a value of five or more of them, else "" (too short to be one value read twice)."""
    found = "".join(c for c in token.partition(":")[2] if c.isdigit())
    return found if len(found) >= MIN_SHARED_DIGITS else ""


def factor(a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None = None,
           *, similarity: float = 0.0) -> float:
    """What D keeps (0-1] of a pair whose documents both carry values of kinds the other lacks;
    ``similarity`` is the pair's shingle similarity (containment-corrected J)."""
    reach = min(1.0, max(0.0, (NONE_FROM - similarity) / (NONE_FROM - FULL_AT)))
    if reach <= 0.0:
        return 1.0
    (plain_a, kinds_a), (plain_b, kinds_b) = _prepared(a), _prepared(b)
    if kinds_a <= kinds_b or kinds_b <= kinds_a:
        return 1.0  # one side has no kind of its own: a page lost or added, not two bodies
    own_a = [t for t in plain_a if token_kind(t) not in kinds_b]
    own_b = [t for t in plain_b if token_kind(t) not in kinds_a]
    # one number read as two kinds ("CMD350489" an id here, "350489" a ref there): one value
    digits_a, digits_b = {_digits(t) for t in own_a} - {""}, {_digits(t) for t in own_b} - {""}
    only_a = math.fsum(weights(t)[1] for t in own_a if _digits(t) not in digits_b)
    only_b = math.fsum(weights(t)[1] for t in own_b if _digits(t) not in digits_a)
    one_sided = min(only_a, only_b)
    if one_sided <= 0.0:
        return 1.0
    agree = agreement(a, b, weight)
    if agree <= 0.0:  # no value in common, so no letterhead's either: not two bodies behind one
        return 1.0
    return agree * agree / (agree * agree + ONE_SIDED_SHARE * reach * one_sided)


def own_kinds(a: Collection[str], b: Collection[str]) -> tuple[list[str], list[str]]:
    """(values of ``a``, values of ``b``) of kinds the other document has none of (for check -v)."""
    (plain_a, kinds_a), (plain_b, kinds_b) = _prepared(a), _prepared(b)
    return (sorted(t for t in plain_a if token_kind(t) not in kinds_b),
            sorted(t for t in plain_b if token_kind(t) not in kinds_a))


def agreement(a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None = None) -> float:
    """M: the token-weighted agreement weights of the values both documents carry."""
    (plain_a, _), (plain_b, _) = _prepared(a), _prepared(b)
    agree = 0.0
    for t in sorted(plain_a & plain_b):  # sorted: the same terms in one order, exactly symmetric
        x = 1.0 if weight is None else float(weight(t))
        agree += (x if math.isfinite(x) and x > 0.0 else 0.0) * weights(t)[0]
    return agree
