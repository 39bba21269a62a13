"""core.slotalign: labels OCR read differently and mixed slots, compared as D compares slots."""

from __future__ import annotations

import pytest

from paperless_dedupe_hook.core import discriminative, slotalign

NEXT_BILL = (
    frozenset({"@eur gesamtbetrag=amount:143886", "@gelelstete abschlage=amount:148625", "amount:143886", "amount:148625",
               "@zahlernummer=ref:73702337", "ref:73702337"}),
    frozenset({"@gesamtbetrag=amount:136167", "@gelelsete abschlage=amount:135919", "amount:136167", "amount:135919",
               "@zahlernummer=ref:73702337", "ref:73702337"}),
)
NEXT_FLIGHT = (
    frozenset({"@fllght=id:flight:XB2282", "@fllght=route:FCO>FRA", "id:flight:XB2282", "route:FCO>FRA",
               "@booking=ref:736540281", "ref:736540281"}),
    frozenset({"@fllght=id:flight:XB2300", "@fllght=route:FCO>FRA", "id:flight:XB2300", "route:FCO>FRA",
               "@booking=ref:736540281", "ref:736540281"}),
)


@pytest.mark.parametrize("pair", [pytest.param(NEXT_BILL, id="labels-read-twice"),
                                  pytest.param(NEXT_FLIGHT, id="id-and-route-in-one-slot")])
def test_the_next_document_of_a_series_conflicts_in_its_slots(pair: tuple[frozenset[str], frozenset[str]]) -> None:
    a, b = pair
    rewritten = slotalign.aligned(a, b)
    assert rewritten is not None
    assert discriminative.slot_similarity(*rewritten) < discriminative.slot_similarity(a, b) - 0.2


def test_a_rescan_with_a_label_read_twice_keeps_its_d() -> None:
    a = frozenset({"@eur gesamtbetrag=amount:143886", "amount:143886", "@datum=date:2024-03-01", "date:2024-03-01"})
    b = frozenset({"@gesamtbetrag=amount:143886", "amount:143886", "@datum=date:2024-03-01", "date:2024-03-01"})
    rewritten = slotalign.aligned(a, b)
    assert rewritten is not None and "@eur gesamtbetrag~amount=amount:143886" in rewritten[1]
    assert discriminative.slot_similarity(*rewritten) == 1.0


def test_short_labels_and_two_near_labels_are_not_renamed() -> None:
    # "date" and "data": one slip makes another word; two of a's labels near one of b's: which?
    a = frozenset({"@date=date:2024-03-01", "@gesamtbetrag netto=amount:100", "@gesamtbetrag brutto=amount:119"})
    b = frozenset({"@data=date:2024-04-01", "@gesamtbetrag=amount:200"})
    assert slotalign.aligned(a, b) is None


def test_a_slot_mixed_on_one_side_only_meets_its_other_half() -> None:
    a = frozenset({"@fllght=id:flight:XB2282", "@fllght=route:FCO>FRA", "id:flight:XB2282", "route:FCO>FRA"})
    b = frozenset({"@fllght=id:flight:XB2300", "id:flight:XB2300", "route:FCO>FRA"})
    rewritten = slotalign.aligned(a, b)
    assert rewritten is not None
    assert discriminative.slot_conflicts(*rewritten) > 0 == discriminative.slot_conflicts(a, b)
