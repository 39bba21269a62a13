"""The discriminative similarity D of two token sets (from :mod:`.extract`), pure.

Similarity.  A token on one side only is *no* evidence of a different document (a missing page
drops tokens, a cover sheet adds some); two different values where each side has its own is.
Tokens on both sides *agree*.  The rest are paired where they are plausibly one value read
twice: an id with and without its label, one OCR-confusable substitution (letter/digit look-
alikes from 4 characters, 1/7, 3/8, 5/6, 6/8, 0/8 from 6) or one dropped or doubled character
(from 5) in an id, ref, route or IBAN; such pairs agree.  Dates and amounts must match exactly,
but pairs that OCR makes of one value are set aside as *neutral* (neither agreement nor
conflict): dates or amounts one ``1``/``7`` or ``3``/``8`` slip apart, a day that lost a digit
(one date pair per pair of documents: a second is a series), an amount and a leading or
trailing piece of it, an id or ref inside a longer one, IBANs sharing 14 characters, a month
covered by a full date on the other side, streets whose names are 85 % alike (rapidfuzz
ratio) and one edit apart once OCR's look-alikes are folded (two where they begin alike), with
house numbers one edit apart.  Sequential numbers (``...1047`` vs ``...1048``) still conflict.
What stays unmatched on *both* sides of one class conflicts:
``C(class) = min(w(unmatched_a), w(unmatched_b))``.

    D = M / (M + C_weak + C_strong * (1 + M / 2)),  1.0 when there is no conflict

``M`` sums agreement weights, ``C_strong`` the conflicts of dates, months, ids, routes, IBANs, streets,
``C_weak`` those of amounts and refs.  Agreement is cheap and conflict expensive, since a series
agrees on its static values: route 1/4, id 1.5/4 (0.5/4 for customer, account, contract, policy,
tax, register ... numbers that recur on every document of a series), date 1/2.5, IBAN 0.5/3,
street 0.5/3, amount 0.5/1, ref 0.75/1.5.  A strong conflict is what a rescan never shows and a series always
does, and the more two texts agree elsewhere the more it says, hence the ``1 + M/2`` factor: one
date conflict caps D at 0.44.  OCR damage that slips through mostly hits amounts, which only
lower D in proportion.  ``weight(token)`` multiplies the agreement weights (an IDF normalised
to mean 1 lets a customer number printed on every invoice count for less), not the conflict
weights (``CONFLICTS_FADE``).  D is in [0, 1],
deterministic and exactly symmetric (canonical side order, :func:`math.fsum`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection
from functools import lru_cache

from ._pairing import MAX_NEUTRAL_DATES, both_dates, number_key, one_value, pair_unmatched, split
from ._pairing import weights as _weights
from .extract import SLOT_MARK, token_kind

__all__ = ["conflicting_slots", "discriminative_similarity", "slot_conflicts", "slot_similarity"]

_NUMBER_KINDS = frozenset({"id", "ref"})
_STRONG = frozenset({"date", "month", "id", "route", "iban", "street"})
_STRONG_SCALE = 2.0  # one strong conflict of weight 3 caps D at 1 / (1 + 3 / 2) = 0.4
_HOUSE = re.compile(r"[0-9][0-9a-z]*$")
#: Whether ``weight`` also lowers the conflicts of values outside a common slot (kind-level:
#: a date here, another date there).  It does not: fading them gained three re-scans and
#: a copy missing a page on one realistic corpus and cost 10 series false positives on the
#: other (docs/quality.md, issue 12, variant ``fading_unlabelled``).
CONFLICTS_FADE = False
#: Whether ``weight`` lowers the conflicts of one labelled slot.  It does not: a value common
#: in the archive (a date that a hundred other letters carry) agreeing says little, but two
#: different values in one slot say "another document" however common each is; with fading
#: slot conflicts the month of the 120th payslip weighed a third of the 3rd's (issue 12).
SLOT_CONFLICTS_FADE = False


def _evidence(
    a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None,
    conflict_weight: Callable[[str], float] | None = None,
) -> tuple[float, dict[str, float]]:
    """(agreement weight, conflict weight per conflict class) of two token sets.

    ``conflict_weight(token)`` multiplies a conflicting value's weight whether or not
    conflicts fade (core.ocr_slips lowers the values an OCR confusion explains)."""
    return _sorted_evidence(_unique_sorted(a), _unique_sorted(b), weight, conflict_weight)


# Documents whose token sets were prepared last (sorted plain tokens, slots): a document
# meets ~25 others in a rebuild, and its neighbours in the candidate list come together.
_PREPARED_DOCUMENTS = 4096


def _unique_sorted(tokens: Collection[str]) -> tuple[tuple[str, ...], frozenset[str]]:
    if isinstance(tokens, frozenset):
        return _sorted_set(tokens)
    unique = frozenset(tokens)
    return tuple(sorted(unique)), unique


@lru_cache(maxsize=_PREPARED_DOCUMENTS)
def _sorted_set(tokens: frozenset[str]) -> tuple[tuple[str, ...], frozenset[str]]:
    return tuple(sorted(tokens)), tokens


@lru_cache(maxsize=_PREPARED_DOCUMENTS)
def _plain_tokens(tokens: frozenset[str]) -> frozenset[str]:
    return frozenset(t for t in tokens if not t.startswith(SLOT_MARK))


def _plain(tokens: Collection[str]) -> frozenset[str]:
    """The tokens that are not slots (``SLOT_MARK``label=token)."""
    if isinstance(tokens, frozenset):
        return _plain_tokens(tokens)
    return frozenset(t for t in tokens if not t.startswith(SLOT_MARK))


def _sorted_evidence(
    side_a: tuple[tuple[str, ...], frozenset[str]], side_b: tuple[tuple[str, ...], frozenset[str]],
    weight: Callable[[str], float] | None, conflict_weight: Callable[[str], float] | None,
) -> tuple[float, dict[str, float]]:
    """:func:`_evidence` of two (sorted tokens, their set)."""
    (sa, set_a), (sb, set_b) = side_a, side_b
    if sb < sa:  # a canonical order makes the greedy pairing, hence D, exactly symmetric
        sa, sb, set_a, set_b = sb, sa, set_b, set_a
    cache: dict[str, float] = {}

    def w(token: str, which: int) -> float:
        if which:
            return _conflict_share(token, weight if CONFLICTS_FADE else None, conflict_weight) * _weights(token)[1]
        if token not in cache:
            x = 1.0 if weight is None else float(weight(token))
            cache[token] = x if math.isfinite(x) and x > 0.0 else 0.0
        return cache[token] * _weights(token)[which]

    agree = [w(t, 0) for t in sa if t in set_b]
    only_a = [t for t in sa if t not in set_b]
    only_b = [t for t in sb if t not in set_a]
    matched, neutral = pair_unmatched(only_a, only_b)
    agree.extend((w(ta, 0) + w(tb, 0)) / 2.0 for ta, tb in matched)
    gone = {t for pair in (*matched, *neutral) for t in pair}
    sides: tuple[dict[str, list[float]], dict[str, list[float]]] = ({}, {})
    for tokens, other, side in ((only_a, sb, sides[0]), (only_b, sa, sides[1])):
        months = {t[:12] for t in other if t.startswith("date:") and len(t) == 15}
        for t in tokens:
            if t not in gone and t not in months:  # date:2024-01 agrees with date:2024-01-31
                kind = token_kind(t)
                side.setdefault("month" if kind == "date" and len(t) == 12 else kind, []).append(w(t, 1))
    conflicts = {k: min(math.fsum(sides[0][k]), math.fsum(sides[1][k])) for k in sides[0].keys() & sides[1].keys()}
    return math.fsum(agree), {k: v for k, v in sorted(conflicts.items()) if v > 0.0}


def discriminative_similarity(
    a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None = None
) -> float:
    """How far two token sets agree where both have values: 1.0 = no conflict, near 0 = a series.

    ``weight(token)`` (default 1.0; negative or non-finite counts as 0) multiplies the kind's
    agreement weight; it should be about 1 for an ordinary token (an IDF normalised to mean 1).  See the
    module docstring for the rule.
    """
    agree, conflicts = _evidence(a, b, weight)
    strong = math.fsum(v for k, v in conflicts.items() if k in _STRONG)
    weak = math.fsum(v for k, v in conflicts.items() if k not in _STRONG)
    if strong + weak <= 0.0:
        return 1.0
    return min(1.0, max(0.0, agree / (agree + weak + strong * (1.0 + agree / _STRONG_SCALE))))


def _conflict_share(token: str, *weights: Callable[[str], float] | None) -> float:
    """The product of the weights given for a conflicting value (a bad weight counts as 0)."""
    share = 1.0
    for weigh in weights:
        if weigh is not None:
            x = float(weigh(token))
            share *= x if math.isfinite(x) and x > 0.0 else 0.0
    return share


def _slot_map(items: Collection[str]) -> dict[str, set[str]]:
    """label -> values of a document's slots (read only: cached for a document's token set)."""
    if isinstance(items, frozenset):
        return _cached_slot_map(items)
    return _make_slot_map(items)


@lru_cache(maxsize=_PREPARED_DOCUMENTS)
def _cached_slot_map(items: frozenset[str]) -> dict[str, set[str]]:
    return _make_slot_map(items)


def _make_slot_map(items: Collection[str]) -> dict[str, set[str]]:
    slots: dict[str, set[str]] = {}
    for item in items:
        if item.startswith(SLOT_MARK):
            label, _, token = item[1:].partition("=")
            if label:  # without blanks: OCR merges "Bill date" into "Billdate"
                slots.setdefault(label.replace(" ", ""), set()).add(token)
    return slots


def _street_echoes(a: Collection[str], b: Collection[str]) -> frozenset[str]:
    """Street values that one document reads twice: an OCR slip of an address both carry
    ("Am Markt 39" in the letterhead, "Am Mart 39" in the footer), or an address that lost
    its first word to a stray mark ("Am~ Markt 39" read as "Markt 39").  They are set aside,
    not counted against the pair: a street conflict is strong, and a re-scan shows these."""
    streets_a = {t for t in a if t.startswith("street:")}
    streets_b = {t for t in b if t.startswith("street:")}
    if not streets_a or not streets_b or streets_a == streets_b:
        return frozenset()
    common = streets_a & streets_b
    aside = set()
    for token in sorted(streets_a ^ streets_b):
        other = streets_b - streets_a if token in streets_a else streets_a - streets_b
        if any(one_value(token, u) for u in common) or any(_lost_first_word(token, u) for u in other):
            aside.add(token)
    return frozenset(aside)


def _lost_first_word(ta: str, tb: str) -> bool:
    """One street name is the other's without its first word(s), at one house number."""
    (nx, hx), (ny, hy) = _name_and_house(split(ta)[1]), _name_and_house(split(tb)[1])
    short, long = sorted((nx, ny), key=len)
    return bool(hx) and hx == hy and len(short) >= 5 and len(long) > len(short) and long.endswith(short)


def _name_and_house(street: str) -> tuple[str, str]:
    """(street name, house number) of a street token's value: ``ammarkt39`` -> (``ammarkt``, ``39``)."""
    m = _HOUSE.search(street)
    return (street[: m.start()], m.group()) if m else (street, "")


def _one_number(ta: str, tb: str) -> bool:
    """An id and a bare number in one slot: the label read with its number on one document and,
    on the other, a number the labels of its language were not found for (a re-scan that read
    a table's labels and values apart, a label in a second language)."""
    return {token_kind(ta), token_kind(tb)} == _NUMBER_KINDS


def _moved(ta: str, tb: str, a: Collection[str], b: Collection[str]) -> bool:
    """Whether two values of one slot are each also a value of the other document: a scan
    that read a table's labels and values out of line ("Basic pay 306,23" here, "Basic pay
    6.124,64" there, both amounts on both payslips) has moved them, not changed them.  The
    next payslip of a series has another net pay, which the first does not carry at all.
    Ids and bare numbers (:func:`_one_number` too) have moved where either number is one of
    the other document's, under any label: such a scan shifts values by a line, and a value
    it lost is read on neither side."""
    if token_kind(ta) in _NUMBER_KINDS:  # (the slot's two values are of one kind, or _one_number)
        return number_key(ta) in _number_keys(b) or number_key(tb) in _number_keys(a)
    if token_kind(ta) == "street":
        # an address both carry, taken for another slot's where the lines between were lost
        # ("between / Falcon Ltd / 122 Manor Road ... Priya Garcia / 79 Chapel Street"); two
        # tenants of one form each have an address the other lacks
        return ta in b or tb in a
    return ta in b and tb in a


def _number_keys(tokens: Collection[str]) -> frozenset[str | None]:
    """The number keys of a document's ids and refs, slots' values included."""
    if isinstance(tokens, frozenset):
        return _cached_number_keys(tokens)
    return _make_number_keys(tokens)


@lru_cache(maxsize=_PREPARED_DOCUMENTS)
def _cached_number_keys(tokens: frozenset[str]) -> frozenset[str | None]:
    return _make_number_keys(tokens)


def _make_number_keys(tokens: Collection[str]) -> frozenset[str | None]:
    return frozenset(number_key(t.partition("=")[2] if t.startswith(SLOT_MARK) else t) for t in tokens)


def conflicting_slots(a: Collection[str], b: Collection[str]) -> list[tuple[str, str, str]]:
    """(label, value here, value there) of the slots that hold one value in each document, and
    a different one, in label order: :func:`slot_conflicts`' rules.

    Two dates one OCR slip or one lost digit apart are set aside once (``MAX_NEUTRAL_DATES``),
    and not at all where another date slot conflicts: a copy that misread one date reads the
    others right, so beside a date that differs, a near date differs too."""
    slots_a, slots_b = _slot_map(a), _slot_map(b)
    out: list[tuple[str, str, str]] = []
    near_dates: list[tuple[str, str, str]] = []
    for label in sorted(slots_a.keys() & slots_b.keys()):
        va, vb = slots_a[label], slots_b[label]
        if len(va) != 1 or len(vb) != 1 or va == vb:
            continue
        (ta,), (tb,) = va, vb
        month_of_date = ta.startswith("date:") and min(len(ta), len(tb)) == 12 and ta[:12] == tb[:12]
        if (token_kind(ta) != token_kind(tb) and not _one_number(ta, tb)) or month_of_date:
            continue  # date:2024-01 against date:2024-01-31: a day that OCR lost, as in _evidence
        if _moved(ta, tb, a, b):
            continue
        if one_value(ta, tb):
            if both_dates(ta, tb):
                near_dates.append((label, ta, tb))
            continue
        out.append((label, ta, tb))
    if near_dates:
        dated = any(ta.startswith("date:") for _, ta, _tb in out)
        out.extend(near_dates[0 if dated else MAX_NEUTRAL_DATES :])
        out.sort()
    return out


def slot_conflicts(
    a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None = None,
    *, conflict_weight: Callable[[str], float] | None = None,
) -> float:
    """Weight of the slots that hold one value in each document, and a different one.

    "Invoice date: 31.10." here and "Invoice date: 30.11." there is a conflict; a date that
    one document has in a sentence the other lacks is not (a draft gained a clause, a copy
    lost a page).  Slots with several values (table columns, transaction lists) never
    conflict: their values are compared as plain tokens.  Values that are plausibly one
    value read twice by OCR do not conflict either, but dates so only once
    (:func:`conflicting_slots`).
    """
    total: list[float] = []
    fade = weight if SLOT_CONFLICTS_FADE else None
    for _label, ta, tb in conflicting_slots(a, b):
        factor = min(_conflict_share(ta, fade, conflict_weight), _conflict_share(tb, fade, conflict_weight))
        if factor > 0.0:
            total.append(factor * min(_weights(ta)[1], _weights(tb)[1]))
    return math.fsum(total)


#: A value that differs in the same labelled slot ("Miete monatlich 1.672,00" here,
#: "1.504,00" there) is the clearest sign of two documents of one form.
SLOT_CONFLICT_FACTOR = 1.0
#: How much a value that differs without a common label (kind-level conflict) counts
#: against one that differs in the same labelled slot.
UNLABELLED_CONFLICT_SHARE = 0.12


def slot_similarity(
    a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None = None,
    *, conflict_weight: Callable[[str], float] | None = None,
) -> float:
    """``D`` from slots: agreement of the plain tokens against conflicting slots and, at a
    lower share, values of one kind that differ outside a common slot; a reversed route
    (a return ticket names it under another label) and another street address (two
    contracts on one form for two tenants) count as strongly as in
    :func:`discriminative_similarity`."""
    plain_a, plain_b = _plain(a), _plain(b)
    if aside := _street_echoes(plain_a, plain_b):
        plain_a, plain_b = plain_a - aside, plain_b - aside
    agree, conflicts = _evidence(plain_a, plain_b, weight, conflict_weight)
    strong = conflicts.get("route", 0.0) + conflicts.get("street", 0.0)
    unlabelled = math.fsum(v for k, v in conflicts.items() if k not in ("route", "street"))
    weak = SLOT_CONFLICT_FACTOR * slot_conflicts(a, b, weight, conflict_weight=conflict_weight) + UNLABELLED_CONFLICT_SHARE * unlabelled
    if strong + weak <= 0.0:
        return 1.0
    return min(1.0, max(0.0, agree / (agree + weak + strong * (1.0 + agree / _STRONG_SCALE))))


def slot_similarity_bound(
    a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None = None,
    *, conflict_weight: Callable[[str], float] | None = None,
) -> float:
    """An upper bound of :func:`slot_similarity` for the price of :func:`slot_conflicts`.

    The two documents of a template series agree on their letterhead and conflict in their
    labelled slots (number, date, amount); to tell that such a pair cannot reach the
    threshold, the slot conflicts and a bound of the agreement suffice, without pairing the
    values that differ.  Every value agrees at most once, with one value of the other side,
    so the agreement is at most half the two documents' agreement weights added up.
    """
    weak = SLOT_CONFLICT_FACTOR * slot_conflicts(a, b, weight, conflict_weight=conflict_weight)
    if weak <= 0.0:
        return 1.0
    most = (_agreement_weight(_plain(a), weight) + _agreement_weight(_plain(b), weight)) / 2.0
    most *= 1.0 + 1e-9  # fsum in slot_similarity, plain sums here: never a hair under it
    return min(1.0, most / (most + weak))


def _agreement_weight(tokens: frozenset[str], weight: Callable[[str], float] | None) -> float:
    """What a document's plain tokens would weigh if every one of them agreed."""
    return _cached_agreement_weight(tokens, weight)


@lru_cache(maxsize=_PREPARED_DOCUMENTS)
def _cached_agreement_weight(tokens: frozenset[str], weight: Callable[[str], float] | None) -> float:
    total = 0.0
    for token in tokens:
        x = 1.0 if weight is None else float(weight(token))
        total += (x if math.isfinite(x) and x > 0.0 else 0.0) * _weights(token)[0]
    return total
