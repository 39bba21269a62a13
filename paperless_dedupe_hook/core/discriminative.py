"""The discriminative similarity D of two token sets (from :mod:`.extract`), pure.

Similarity.  A token on one side only is *no* evidence of a different document (a missing page
drops tokens, a cover sheet adds some); two different values where each side has its own is.
Tokens on both sides *agree*.  The rest are paired where they are plausibly one value read
twice: an id with and without its label, one OCR-confusable substitution (letter/digit look-
alikes from 4 characters, 1/7, 3/8, 5/6, 6/8, 0/8 from 6) or one dropped or doubled character
(from 5) in an id, ref, route or IBAN; such pairs agree.  Dates and amounts must match exactly,
but pairs that OCR makes of one value are set aside as *neutral* (neither agreement nor
conflict): dates or amounts one ``1``/``7`` or ``3``/``8`` slip apart, a day that lost a digit,
an amount and a leading or trailing piece of it, an id or ref inside a longer one, IBANs sharing
14 characters, a month covered by a full date on the other side, streets whose names are 85 %
alike (rapidfuzz ratio) with house numbers one edit apart.  Sequential numbers (``...1047``
vs ``...1048``) still conflict.  What stays unmatched on *both* sides of one class conflicts:
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
from collections.abc import Callable, Collection, Iterable

from rapidfuzz.distance import Levenshtein
from rapidfuzz.fuzz import ratio

from . import _patterns as P
from .extract import SLOT_MARK, token_kind

__all__ = ["discriminative_similarity", "slot_conflicts", "slot_similarity"]

#: kind -> (agreement weight, conflict weight); ids of a STATIC_ID_LABELS label agree for 0.5.
_WEIGHTS = {"route": (1.0, 4.0), "id": (1.5, 4.0), "iban": (0.5, 3.0), "date": (1.0, 2.5),
            "amount": (0.5, 1.0), "ref": (0.75, 1.5), "street": (0.5, 3.0)}
_STATIC_ID_WEIGHTS = (0.5, 4.0)
_OTHER_WEIGHTS = (0.5, 1.0)  # a kind this module does not know (a caller's own token)
_STRONG = frozenset({"date", "month", "id", "route", "iban", "street"})
_STRONG_SCALE = 2.0  # one strong conflict of weight 3 caps D at 1 / (1 + 3 / 2) = 0.4

_LOOK_ALIKE = frozenset(frozenset(p) for p in ("O0", "D0", "Q0", "I1", "L1", "S5", "B8", "Z2", "G6", "A4", "T7"))
_DIGIT_CONFUSABLE = frozenset(frozenset(p) for p in ("17", "38"))
_CONFUSABLE = _LOOK_ALIKE | _DIGIT_CONFUSABLE | {frozenset(p) for p in ("56", "68", "08")}
_NEUTRAL_KINDS = frozenset({"date", "amount"})
_MIN_FUZZY = {"id": 4, "ref": 6, "route": 6, "iban": 6, "date": 10, "amount": 3, "street": 5}
_STREET_RATIO = 85  # rapidfuzz ratio of two street names that are one name read twice
_HOUSE = re.compile(r"[0-9][0-9a-z]*$")
_MAX_SCAN = 64  # candidates per token for the fragment check (bounds the cost on huge documents)
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


def _weights(token: str) -> tuple[float, float]:
    """(agreement weight, conflict weight) of a token."""
    kind = token_kind(token)
    if kind == "id" and token.split(":", 2)[1] in P.STATIC_ID_LABELS:
        return _STATIC_ID_WEIGHTS
    return _WEIGHTS.get(kind, _OTHER_WEIGHTS)


def _split(token: str) -> tuple[str, str]:
    """(namespace, value): ``id:invoice:X`` -> (``id:invoice:``, ``X``)."""
    cut = token.find(":", 3) + 1 if token.startswith("id:") else token.find(":") + 1
    return token[:cut], token[cut:]


def _id_key(token: str) -> str | None:
    """The number an id and a ref share when one side lost the label (digits if >= 6 of them)."""
    if token_kind(token) not in ("id", "ref"):
        return None
    value = _split(token)[1]
    digits = "".join(c for c in value if c.isdigit())
    return digits if len(digits) >= 6 else value


def _variants(value: str, neutral: bool) -> Iterable[tuple[str, int, str]]:
    """Keys shared by values one substitution or one deletion apart."""
    for i in range(len(value)):
        yield "s", i, value[:i] + "\0" + value[i + 1 :]
        if not neutral or value.isdigit():
            yield "d", -1, value[:i] + value[i + 1 :]
    yield "d", -1, value


def _near(x: str, y: str, neutral: bool) -> bool:
    """One confusable substitution, or one dropped/doubled character, apart."""
    if len(x) == len(y):
        diff = [(p, q) for p, q in zip(x, y, strict=True) if p != q]
        table = _DIGIT_CONFUSABLE if neutral else _CONFUSABLE if len(x) >= 6 else _LOOK_ALIKE
        return len(diff) == 1 and frozenset(diff[0]) in table
    return abs(len(x) - len(y)) == 1 and ((x + y).isdigit() if neutral else min(len(x), len(y)) >= 5)


def _compatible(kind: str, x: str, y: str) -> bool:
    """A value and a fragment of it (a number split by a stray blank, a day that lost a digit)."""
    short, long = sorted((x, y), key=lambda v: (len(v), v))
    if kind == "amount":  # 1.936,56 read as 9 36,56; 24,74 read as 24,741 (thousands)
        return len(short) >= 3 and (long.endswith(short) or long.startswith(short))
    if kind == "date":
        if len(x) != 10 or len(y) != 10 or x[:8] != y[:8]:
            return False
        dx, dy = x[8:].lstrip("0"), y[8:].lstrip("0")
        return (len(dx) == 1 and dx in dy) or (len(dy) == 1 and dy in dx)
    if kind == "iban":
        return x[:14] == y[:14]
    if kind == "street":  # one address read twice, with OCR slips in the name or the number
        (nx, hx), (ny, hy) = _house(x), _house(y)
        return ratio(nx, ny) >= _STREET_RATIO and Levenshtein.distance(hx, hy) <= 1
    return kind in ("id", "ref") and len(short) >= 6 and short in long


def _house(street: str) -> tuple[str, str]:
    """(street name, house number) of a street token's value."""
    m = _HOUSE.search(street)
    return (street[: m.start()], m.group()) if m else (street, "")


def _pair(only_a: list[str], only_b: list[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Among unmatched tokens: pairs that agree (an id read with and without its label, one OCR slip
    in a long value) and neutral pairs (dates and amounts one OCR slip apart, fragments)."""
    matched: list[tuple[str, str]] = []
    neutral: list[tuple[str, str]] = []
    used: set[str] = set()
    by_key: dict[str, list[str]] = {}
    for tb in only_b:
        if (key := _id_key(tb)) is not None:
            by_key.setdefault(key, []).append(tb)
    buckets: dict[tuple[str, str, int, str], list[str]] = {}
    for tb in only_b:
        space, value = _split(tb)
        kind = token_kind(tb)
        if len(value) >= _MIN_FUZZY.get(kind, 1000):
            for variant in _variants(value, kind in _NEUTRAL_KINDS):
                buckets.setdefault((space, *variant), []).append(tb)
    left: list[str] = []
    for ta in only_a:
        space, value = _split(ta)
        kind = token_kind(ta)
        is_neutral = kind in _NEUTRAL_KINDS
        key = _id_key(ta)
        hit = next((tb for tb in by_key.get(key, ()) if tb not in used), None) if key is not None else None
        if hit is None and len(value) >= _MIN_FUZZY.get(kind, 1000):
            probes = [(space, *v) for v in _variants(value, is_neutral)]
            hit = next((tb for probe in probes for tb in buckets.get(probe, ())
                        if tb not in used and _near(value, _split(tb)[1], is_neutral)), None)
        if hit is None:
            left.append(ta)
        else:
            used.add(hit)
            (neutral if is_neutral else matched).append((ta, hit))
    by_space: dict[str, list[str]] = {}
    for tb in only_b:
        if tb not in used:
            by_space.setdefault(_split(tb)[0], []).append(tb)
    for ta in left:
        space, value = _split(ta)
        candidates = by_space.get(space, [])
        if len(candidates) <= _MAX_SCAN:
            hit = next((tb for tb in candidates
                        if tb not in used and _compatible(token_kind(ta), value, _split(tb)[1])), None)
            if hit is not None:
                used.add(hit)
                neutral.append((ta, hit))
    return matched, neutral


def _evidence(
    a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None,
    conflict_weight: Callable[[str], float] | None = None,
) -> tuple[float, dict[str, float]]:
    """(agreement weight, conflict weight per conflict class) of two token sets.

    ``conflict_weight(token)`` multiplies a conflicting value's weight whether or not
    conflicts fade (core.ocr_slips lowers the values an OCR confusion explains)."""
    sa, sb = sorted(set(a)), sorted(set(b))
    if sb < sa:  # a canonical order makes the greedy pairing, hence D, exactly symmetric
        sa, sb = sb, sa
    cache: dict[str, float] = {}

    def w(token: str, which: int) -> float:
        if which:
            return _conflict_share(token, weight if CONFLICTS_FADE else None, conflict_weight) * _weights(token)[1]
        if token not in cache:
            x = 1.0 if weight is None else float(weight(token))
            cache[token] = x if math.isfinite(x) and x > 0.0 else 0.0
        return cache[token] * _weights(token)[which]

    set_a, set_b = set(sa), set(sb)
    agree = [w(t, 0) for t in sa if t in set_b]
    only_a = [t for t in sa if t not in set_b]
    only_b = [t for t in sb if t not in set_a]
    matched, neutral = _pair(only_a, only_b)
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
        value = _split(token)[1]
        other = streets_b - streets_a if token in streets_a else streets_a - streets_b
        if any(_compatible("street", value, _split(u)[1]) for u in common) or \
                any(_lost_first_word(value, _split(u)[1]) for u in other):
            aside.add(token)
    return frozenset(aside)


def _lost_first_word(x: str, y: str) -> bool:
    """One street name is the other's without its first word(s), at one house number."""
    (nx, hx), (ny, hy) = _house(x), _house(y)
    short, long = sorted((nx, ny), key=len)
    return bool(hx) and hx == hy and len(short) >= 5 and len(long) > len(short) and long.endswith(short)


def _moved(ta: str, tb: str, a: Collection[str], b: Collection[str]) -> bool:
    """Whether two values of one slot are each also a value of the other document: a scan
    that read a table's labels and values out of line ("Basic pay 306,23" here, "Basic pay
    6.124,64" there, both amounts on both payslips) has moved them, not changed them.  The
    next payslip of a series has another net pay, which the first does not carry at all."""
    return ta in b and tb in a


def slot_conflicts(
    a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None = None,
    *, conflict_weight: Callable[[str], float] | None = None,
) -> float:
    """Weight of the slots that hold one value in each document, and a different one.

    "Invoice date: 31.10." here and "Invoice date: 30.11." there is a conflict; a date that
    one document has in a sentence the other lacks is not (a draft gained a clause, a copy
    lost a page).  Slots with several values (table columns, transaction lists) never
    conflict: their values are compared as plain tokens.  Values that are plausibly one
    value read twice by OCR do not conflict either.
    """
    slots_a, slots_b = _slot_map(a), _slot_map(b)
    total: list[float] = []
    for label in sorted(slots_a.keys() & slots_b.keys()):
        va, vb = slots_a[label], slots_b[label]
        if len(va) != 1 or len(vb) != 1 or va == vb:
            continue
        (ta,), (tb,) = va, vb
        month_of_date = ta.startswith("date:") and min(len(ta), len(tb)) == 12 and ta[:12] == tb[:12]
        if token_kind(ta) != token_kind(tb) or month_of_date:
            continue  # date:2024-01 against date:2024-01-31: a day that OCR lost, as in _evidence
        if _moved(ta, tb, a, b):
            continue
        matched, neutral = _pair([ta], [tb])
        if matched or neutral:
            continue
        fade = weight if SLOT_CONFLICTS_FADE else None
        factor = min(_conflict_share(ta, fade, conflict_weight), _conflict_share(tb, fade, conflict_weight))
        if factor > 0.0:
            total.append(factor * _weights(ta)[1])
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
    plain_a = [t for t in a if not t.startswith(SLOT_MARK)]
    plain_b = [t for t in b if not t.startswith(SLOT_MARK)]
    if aside := _street_echoes(plain_a, plain_b):
        plain_a = [t for t in plain_a if t not in aside]
        plain_b = [t for t in plain_b if t not in aside]
    agree, conflicts = _evidence(plain_a, plain_b, weight, conflict_weight)
    strong = conflicts.get("route", 0.0) + conflicts.get("street", 0.0)
    unlabelled = math.fsum(v for k, v in conflicts.items() if k not in ("route", "street"))
    weak = SLOT_CONFLICT_FACTOR * slot_conflicts(a, b, weight, conflict_weight=conflict_weight) + UNLABELLED_CONFLICT_SHARE * unlabelled
    if strong + weak <= 0.0:
        return 1.0
    return min(1.0, max(0.0, agree / (agree + weak + strong * (1.0 + agree / _STRONG_SCALE))))
