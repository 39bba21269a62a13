"""Drafts of one contract: sums changed in its clauses and no other value, pure.

A contract negotiated over drafts ("DRAFT v1", "ENTWURF v3 – Stand ...") keeps its parties,
dates and numbers from one draft to the next and changes a few clauses: a liability cap, a fee,
a deposit.  To the discriminative score those sums conflict like the next invoice's amounts, and
two drafts whose sums changed fell under the threshold (issue 25: contract drafts 0.87 at
100,000 documents, 0.925 on our realistic 20k corpus of seed 21).  A template series never
differs in its amounts alone: the next invoice, payslip, statement or bill has another date,
period or number too, and two contracts of one clause library have other parties and dates.

So where amounts are the only values that conflict (in slots and outside them), both documents
carry the very same dates (not one that the discriminative score sets aside as an OCR slip, the
bill of 2023 against the one of 2028; not a date one side has and the other not, a bill whose
date OCR made unreadable: ``28. Junni 2018``) and the pair agrees on values of other kinds with
at least :data:`MIN_OTHER_AGREEMENT`, the amounts' conflicts weigh :data:`AMOUNT_WEIGHT`
(:func:`weigher`).  With any date as the only other evidence, payslips whose month was not read
took this rule for drafts (36 false pairs on the realistic 20k corpus of seed 21 at an agreement
of 0.5).  The slot bound of a pair
(``scoring._discriminative``) takes the lowered weight only where its labelled conflicts are all
amounts (:func:`slots_only_amounts`), so a series' pairs are still cut by their bound.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection

from ._pairing import weights
from .discriminative import _evidence, _plain, conflicting_slots
from .extract import token_kind

__all__ = ["AMOUNT_WEIGHT", "MIN_OTHER_AGREEMENT", "lowered", "slots_only_amounts", "weigher"]

#: How much a changed sum weighs in a pair whose only conflicts are sums.
AMOUNT_WEIGHT = 0.3
#: What the pair must agree on besides amounts (a rare date 1, an id 1.5; token-weighted): the
#: contract's own dates or numbers, not only a date the library holds often.  Measured at 2.0
#: and 1.0 (realistic 20k seed 21, random-word 20k seed 127): 1.0 found three drafts more and
#: no false pair more; 0.5 with a weaker date test took 36 payslips (above).
MIN_OTHER_AGREEMENT = 1.0


def lowered(conflict_weight: Callable[[str], float] | None) -> Callable[[str], float]:
    """``conflict_weight`` (1 where None) with amounts at AMOUNT_WEIGHT of it."""

    def weigh(token: str) -> float:
        base = 1.0 if conflict_weight is None else conflict_weight(token)
        return base * AMOUNT_WEIGHT if token.startswith("amount:") else base

    return weigh


def slots_only_amounts(a: Collection[str], b: Collection[str], conflict_weight: Callable[[str], float] | None) -> bool:
    """Whether the pair's labelled conflicts (those ``conflict_weight`` keeps) are all amounts, and there is one."""
    return _slot_kinds(a, b, conflict_weight) == {"amount"}


def _slot_kinds(a: Collection[str], b: Collection[str], conflict_weight: Callable[[str], float] | None) -> set[str]:
    kinds: set[str] = set()
    for _label, ta, tb in conflicting_slots(a, b):
        if conflict_weight is None or min(conflict_weight(ta), conflict_weight(tb)) > 0.0:
            kinds.update((token_kind(ta), token_kind(tb)))
    return kinds


def weigher(
    a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None,
    conflict_weight: Callable[[str], float] | None,
) -> Callable[[str], float] | None:
    """:func:`lowered` ``conflict_weight`` for a pair whose only conflicts are amounts and whose other
    values agree with at least MIN_OTHER_AGREEMENT; None for any other pair."""
    plain_a, plain_b = _plain(a), _plain(b)
    dates = _dates(plain_a)
    if not dates or dates != _dates(plain_b):
        return None  # a date differs (if only by what may be an OCR slip, 2023/2028), or one went unread
    _agree, conflicts = _evidence(plain_a, plain_b, weight, conflict_weight)
    if (set(conflicts) | _slot_kinds(a, b, conflict_weight)) != {"amount"}:
        return None
    if _other_agreement(a, b, weight) < MIN_OTHER_AGREEMENT:
        return None
    return lowered(conflict_weight)


def _dates(tokens: frozenset[str]) -> frozenset[str]:
    return frozenset(t for t in tokens if t.startswith("date:"))


def _other_agreement(a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None) -> float:
    """The token-weighted agreement of the values both carry that are no amounts."""
    total = 0.0
    for token in sorted(_plain(a) & _plain(b)):  # sorted: one order of terms, exactly symmetric
        if token_kind(token) == "amount":
            continue
        x = 1.0 if weight is None else float(weight(token))
        total += (x if math.isfinite(x) and x > 0.0 else 0.0) * weights(token)[0]
    return total
