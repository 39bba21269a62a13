"""The pairing of unmatched values (core._pairing) against the variant-bucket pairing it
replaced, written out here as the reference: same pairs, in the same order, for any tokens."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import _pairing, discriminative
from paperless_dedupe_hook.core.extract import SLOT_MARK, token_kind

_MIN_FUZZY = {"id": 4, "ref": 6, "route": 6, "iban": 6, "date": 10, "amount": 3, "street": 5}
_LOOK_ALIKE = frozenset(frozenset(p) for p in ("O0", "D0", "Q0", "I1", "L1", "S5", "B8", "B6", "Z2", "G6", "G9", "A4", "T7", "EF", "CE"))
_DIGIT = frozenset(frozenset(p) for p in ("17", "38"))
_CONFUSABLE = _LOOK_ALIKE | _DIGIT | {frozenset(p) for p in ("56", "68", "08")}


def _variants(value: str, neutral: bool) -> Iterable[tuple[str, int, str]]:
    for i in range(len(value)):
        yield "s", i, value[:i] + "\0" + value[i + 1 :]
        if not neutral or value.isdigit():
            yield "d", -1, value[:i] + value[i + 1 :]
    yield "d", -1, value


def _near(x: str, y: str, neutral: bool) -> bool:
    if len(x) == len(y):
        diff = [(p, q) for p, q in zip(x, y, strict=True) if p != q]
        table = _DIGIT if neutral else _CONFUSABLE if len(x) >= 6 else _LOOK_ALIKE
        return len(diff) == 1 and frozenset(diff[0]) in table
    return abs(len(x) - len(y)) == 1 and ((x + y).isdigit() if neutral else min(len(x), len(y)) >= 5)


def _id_key(token: str) -> str | None:
    if token_kind(token) not in ("id", "ref"):
        return None
    value = _pairing.split(token)[1]
    digits = "".join(c for c in value if c.isdigit())
    return digits if len(digits) >= 6 else value


def reference_pairing(only_a: list[str], only_b: list[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The pairing as it was before issue 12's speed-up: every one-edit variant of every value in a bucket."""
    matched: list[tuple[str, str]] = []
    neutral: list[tuple[str, str]] = []
    used: set[str] = set()
    by_key: dict[str, list[str]] = {}
    for tb in only_b:
        if (key := _id_key(tb)) is not None:
            by_key.setdefault(key, []).append(tb)
    buckets: dict[tuple[str, str, int, str], list[str]] = {}
    for tb in only_b:
        space, value = _pairing.split(tb)
        kind = token_kind(tb)
        if len(value) >= _MIN_FUZZY.get(kind, 1000):
            for variant in _variants(value, kind in ("date", "amount")):
                buckets.setdefault((space, *variant), []).append(tb)
    left: list[str] = []
    for ta in only_a:
        space, value = _pairing.split(ta)
        kind = token_kind(ta)
        is_neutral = kind in ("date", "amount")
        key = _id_key(ta)
        hit = next((tb for tb in by_key.get(key, ()) if tb not in used), None) if key is not None else None
        if hit is None and len(value) >= _MIN_FUZZY.get(kind, 1000):
            probes = [(space, *v) for v in _variants(value, is_neutral)]
            hit = next((tb for probe in probes for tb in buckets.get(probe, ())
                        if tb not in used and _near(value, _pairing.split(tb)[1], is_neutral)), None)
        if hit is not None and kind == "date" and sum(x.startswith("date:") for x, _ in neutral) >= _pairing.MAX_NEUTRAL_DATES:
            hit = None  # one date pair set aside per pair of documents
        if hit is None:
            left.append(ta)
        else:
            used.add(hit)
            (neutral if is_neutral else matched).append((ta, hit))
    by_space: dict[str, list[str]] = {}
    for tb in only_b:
        if tb not in used:
            by_space.setdefault(_pairing.split(tb)[0], []).append(tb)
    for ta in left:
        space, value = _pairing.split(ta)
        candidates = by_space.get(space, [])
        dates = sum(x.startswith("date:") for x, _ in neutral)
        if len(candidates) <= 64 and not (token_kind(ta) == "date" and dates >= _pairing.MAX_NEUTRAL_DATES):
            hit = next((tb for tb in candidates
                        if tb not in used and _pairing._compatible(token_kind(ta), value, _pairing.split(tb)[1])), None)
            if hit is not None:
                used.add(hit)
                neutral.append((ta, hit))
    return matched, neutral


# Values from a small alphabet, so that one-slip neighbours, fragments and shared id keys are common.
_value = st.text(alphabet="0178385OIS.,-", min_size=2, max_size=12)
_space = st.sampled_from(["date:", "amount:", "id:invoice:", "id:customer:", "ref:", "iban:", "route:", "street:"])
_token = st.builds(lambda space, value: space + value, _space, _value)
_side = st.lists(_token, max_size=30, unique=True)


@settings(max_examples=600, deadline=None)
@given(_side, _side)
def test_pairing_is_the_variant_bucket_pairing(a: list[str], b: list[str]) -> None:
    only_a = sorted(set(a) - set(b))
    only_b = sorted(set(b) - set(a))
    assert _pairing.pair_unmatched(only_a, only_b) == reference_pairing(only_a, only_b)


@settings(max_examples=600, deadline=None)
@given(_token, _token)
def test_one_value_is_the_pairing_of_two_values(ta: str, tb: str) -> None:
    if ta != tb:
        matched, neutral = reference_pairing([ta], [tb])
        assert _pairing.one_value(ta, tb) == bool(matched or neutral)


@pytest.mark.parametrize(("a", "b", "expected"), [
    pytest.param(["date:2024-01-17"], ["date:2024-01-71"], ([], []), id="transposition-is-two-edits"),
    pytest.param(["id:invoice:RE2024O0173"], ["id:invoice:RE202400173"], ([("id:invoice:RE2024O0173", "id:invoice:RE202400173")], []),
                 id="look-alike-agrees"),
    pytest.param(["date:2024-01-17"], ["date:2024-01-11"], ([], [("date:2024-01-17", "date:2024-01-11")]), id="date-slip-neutral"),
    pytest.param(["date:2024-01-17"], ["date:2024-01-16"], ([], []), id="next-day-conflicts"),
    pytest.param(["id:invoice:123456"], ["ref:123456"], ([("id:invoice:123456", "ref:123456")], []), id="label-lost"),
])
def test_pairing_examples(a: list[str], b: list[str], expected: tuple[list[tuple[str, str]], list[tuple[str, str]]]) -> None:
    assert _pairing.pair_unmatched(a, b) == expected == reference_pairing(a, b)


@pytest.mark.parametrize(("x", "y", "one_street"), [
    pytest.param("yorkstreet226", "yorlcstreet226", True, id="k-read-as-lc"),
    pytest.param("yoorkstreet226", "yorksfreet226", True, id="doubled-letter-and-t-read-as-f"),
    pytest.param("elchendorffstrasse97", "elchendorffsfrabe97", True, id="eszett-read-as-b"),
    pytest.param("llncolnroad107", "lmcolnroad107", True, id="two-slips-after-the-first-letter"),
    pytest.param("sanluan101", "desanluan101", True, id="lost-first-word"),
    pytest.param("deelmar109", "mar109", True, id="short-name-lost-first-word-same-house"),
    pytest.param("deelmar109", "mar108", False, id="short-name-another-house"),
    pytest.param("harbourvlew60", "harbourvlew61", True, id="house-number-slip"),
    pytest.param("yorkterrace4", "oakterrace4", False, id="another-street-of-a-form"),
    pytest.param("oakterrace4", "parkterrace4", False, id="another-first-word"),
    pytest.param("parkstrasse2a", "marktstrasse2a", False, id="joined-name-another-word"),
    pytest.param("harbourvlew60", "harbourvlew86", False, id="house-number-two-edits"),
])
def test_one_street_read_twice(x: str, y: str, one_street: bool) -> None:
    # Streets 85 % alike were one street; a form's streets ("York Terrace", "Oak Terrace") are too.
    assert _pairing._compatible("street", x, y) is one_street
    assert _pairing._compatible("street", y, x) is one_street


def test_a_second_date_set_aside_conflicts() -> None:
    # 18/08 and 15/05: a ticket series ten days apart twice, not a re-scan that lost two digits.
    a = ["date:2022-07-18", "date:2022-08-15"]
    b = ["date:2022-07-08", "date:2022-08-05"]
    assert _pairing.pair_unmatched(a, b) == ([], [("date:2022-07-18", "date:2022-07-08")]) == reference_pairing(a, b)
    # A slip and a lost digit, or two slips (a month in words, agosto/marzo read as 08/03): one set aside.
    a, b = ["date:2022-07-17", "date:2022-08-15"], ["date:2022-07-11", "date:2022-08-05"]
    assert _pairing.pair_unmatched(a, b) == ([], [("date:2022-07-17", "date:2022-07-11")]) == reference_pairing(a, b)
    a, b = ["date:2018-08-09", "date:2018-08-26"], ["date:2018-03-09", "date:2018-03-26"]
    assert _pairing.pair_unmatched(a, b) == ([], [("date:2018-08-09", "date:2018-03-09")]) == reference_pairing(a, b)
    # Amounts are not limited: a damaged table slips in many of them.
    a, b = ["amount:123417", "amount:8817"], ["amount:123411", "amount:8811"]
    assert len(_pairing.pair_unmatched(a, b)[1]) == 2
    slots_a = frozenset({f"{SLOT_MARK}datum=date:2022-07-18", f"{SLOT_MARK}echeance=date:2022-08-15"})
    slots_b = frozenset({f"{SLOT_MARK}datum=date:2022-07-08", f"{SLOT_MARK}echeance=date:2022-08-05"})
    assert discriminative.slot_conflicts(slots_a, slots_b) == _pairing.WEIGHTS["date"][1]
    one = frozenset({f"{SLOT_MARK}datum=date:2022-07-18"}), frozenset({f"{SLOT_MARK}datum=date:2022-07-08"})
    assert discriminative.slot_conflicts(*one) == 0.0


def test_several_partners_take_the_first_variant() -> None:
    # Two partners one slip away: the one whose slip comes first in the value wins, as in the buckets.
    a = ["id:invoice:O1234567"]
    b = ["id:invoice:012345G7", "id:invoice:01234567"]
    assert _pairing.pair_unmatched(a, b) == reference_pairing(a, b)
    assert _pairing.pair_unmatched(a, b)[0] == [("id:invoice:O1234567", "id:invoice:01234567")]


# Documents as token sets with labelled slots, some labels shared, values often one slip apart.
_label = st.sampled_from(["rechnungsdatum", "invoice no", "betrag", "stand", "kundennummer"])
_slot = st.builds(lambda label, token: f"{SLOT_MARK}{label}={token}", _label, _token)
_document = st.builds(lambda plain, slots: frozenset(plain + slots), st.lists(_token, max_size=25),
                      st.lists(_slot, max_size=6))


def _idf_like(token: str) -> float:
    return 1.0 / (1.0 + len(token) % 4)  # any positive weight: the bound does not assume one under 1


@settings(max_examples=400, deadline=None)
@given(_document, _document, st.sampled_from([None, _idf_like]))
def test_the_bound_is_never_under_d(a: frozenset[str], b: frozenset[str], weight: Callable[[str], float] | None) -> None:
    bound = discriminative.slot_similarity_bound(a, b, weight)
    assert 0.0 <= discriminative.slot_similarity(a, b, weight) <= bound <= 1.0


def test_the_bound_tells_a_series_from_a_copy() -> None:
    # Two months of one payslip: the labelled month and net pay differ, so the bound alone
    # keeps the pair out of reach; a rescan of one of them has no slot conflict (bound 1).
    march = frozenset({"id:personnel:48213", "amount:3120,00", "date:2024-03-31", "iban:DE44500105175407324931",
                       f"{SLOT_MARK}abrechnungsmonat=date:2024-03", f"{SLOT_MARK}auszahlung=amount:2120,11"})
    april = frozenset({"id:personnel:48213", "amount:3120,00", "date:2024-04-30", "iban:DE44500105175407324931",
                       f"{SLOT_MARK}abrechnungsmonat=date:2024-04", f"{SLOT_MARK}auszahlung=amount:2089,40"})
    series = discriminative.slot_similarity_bound(march, april)
    assert discriminative.slot_similarity(march, april) <= series < 0.6
    assert discriminative.slot_similarity_bound(march, march | {"date:2024-05-02"}) == 1.0


def test_an_id_against_another_bare_number_in_one_slot_conflicts() -> None:
    # A series member's contract number, and a re-scan of its sibling whose label was not read as one.
    member = frozenset({f"{SLOT_MARK}overeenkomstnummer=id:contract:290890206", "id:contract:290890206"})
    sibling = frozenset({f"{SLOT_MARK}overeenkomstnummer=ref:731900595", "ref:731900595"})
    assert discriminative.slot_conflicts(member, sibling) == _pairing.WEIGHTS["ref"][1]
    # The same number, label lost: one value.  A scan that shifted values by a line: moved.
    copy = frozenset({f"{SLOT_MARK}overeenkomstnummer=ref:290890206", "ref:290890206"})
    assert discriminative.slot_conflicts(member, copy) == 0.0
    shifted = frozenset({f"{SLOT_MARK}overeenkomstnummer=ref:48213377", "ref:290890206"})
    member_with = member | {f"{SLOT_MARK}klantnummer=id:customer:48213377"}
    assert discriminative.slot_conflicts(member_with, shifted) == 0.0

    # Two ids under one label that a scan shifted: the other document has the number, under another label.
    a = frozenset({f"{SLOT_MARK}customer reference=id:case:83609214", "id:case:83609214", "id:contract:C50665546"})
    b = frozenset({f"{SLOT_MARK}customer reference=id:case:C50665546", "id:case:C50665546"})
    assert discriminative.slot_conflicts(a, b) == 0.0
    other = frozenset({f"{SLOT_MARK}customer reference=id:case:C50665547", "id:case:C50665547"})
    assert discriminative.slot_conflicts(a, other) > 0.0


@pytest.mark.parametrize(("ta", "tb"), [
    pytest.param("id:tax:B1104236593", "id:tax:61104236593", id="b-read-for-6"),
    pytest.param("id:customer:G0843", "id:customer:90843", id="g-read-for-9"),
    pytest.param("iban:DF11038531492026148663", "iban:DE11038531492026148663", id="e-read-as-f"),
    pytest.param("iban:DE32200400008009005768", "iban:DE3220040000B09", id="iban-cut-short-with-a-look-alike"),
    pytest.param("iban:GB94HBUK96155589844205", "iban:GB94HBUK9615589", id="iban-cut-short-with-a-dropped-digit"),
    pytest.param("route:MUNCHENHBF>DRESDENHBF", "route:MUNEHENHBF>DRESDENHBF", id="c-read-as-e"),
])
def test_ocr_look_alikes_are_one_value(ta: str, tb: str) -> None:
    assert _pairing.one_value(ta, tb) and _pairing.one_value(tb, ta)


def test_two_ibans_of_one_bank_are_two() -> None:
    assert not _pairing.one_value("iban:DE32200400008009005768", "iban:DE32200400008109005768")
