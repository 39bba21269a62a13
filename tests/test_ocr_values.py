"""Values that OCR damaged the way issue 25's missed pairs show: read as the same value, or not
read at all, never read as another value; and the graded agreement bonus."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperless_dedupe_hook.core import _pairing, discriminative, order, scoring, short
from paperless_dedupe_hook.core.extract import SLOT_MARK, extract_features, extract_tokens


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param("Gesamtbetrag € 1.215,,22", set(), id="doubled-decimal-comma-is-no-amount"),
    pytest.param("Gesamtbetrag € 1.215,22", {"amount:121522"}, id="plain-amount"),
    pytest.param("Renate Meier\nWiesenstrasse 112a ~-;\n10115 Berlin", {"street:wlesenstrasse112a"},
                 id="specks-after-the-house-number"),
    pytest.param("bei der Schlichtungsstelle e.V., Friedrichstraße\n133, 10117 Berlin, beantragt",
                 {"street:frledrlchstrasse133"}, id="street-wrapped-before-its-number"),
    pytest.param("Bank · IBAN: DE94 1007 000o 8004 S372 93 · BIC", {"iban:DE94100700008004S37293"},
                 id="iban-with-look-alikes-after-its-label"),
    pytest.param("lBAN DE94 1007 0000 8004 5372 93", {"iban:DE94100700008004537293"}, id="label-read-lban"),
    pytest.param("IBAN: DE94 1007 0000 8004 and more 1234 text", {"iban:DE94100700008004"},
                 id="words-after-an-iban-stay-out"),
    pytest.param("Steuernummer° 711/921/48091", {"id:tax:71192148091"}, id="speck-after-a-label"),
    pytest.param("Ihr Benutzerkonto vom 2D20-03-19.", {"date:2020-03-19"}, id="d-read-for-0-in-a-year"),
    pytest.param("3D-Drucker und 2D-Codes", set(), id="3d-stays-a-word"),
    pytest.param("Ihr Schreiben vom 20 23-01-17 teilen", {"date:2023-01-17"}, id="year-split-after-its-century"),
    pytest.param("Preise in EUR\n4.10 Wählen Sie im Menü\n4.11 Die Temperatur", set(), id="paragraph-numbers"),
    pytest.param("a fee of EUR\n87.56 per incident", {"amount:8756"}, id="amount-wrapped-to-a-line-start"),
    pytest.param("Registered in England and Wales\nNo. 34250088 Directors", {"ref:34250088"},
                 id="register-number-is-no-street"),
    pytest.param("Gartenstraße 5466111 Saarbrücken", {"street:gartenstrasse54"}, id="number-glued-to-postcode"),
    pytest.param("Rechnung S. 2 von 3 Datum 12.03.2024", {"date:2024-03-12"}, id="page-number-still-dropped"),
])
def test_damaged_values_are_read_or_left_out(text: str, expected: set[str]) -> None:
    assert set(extract_tokens(text)) == expected


@pytest.mark.parametrize(("x", "y"), [
    pytest.param("amount:464401", "amount:464400", id="cents-lost"),
    pytest.param("amount:4547", "amount:4544700", id="comma-read-as-a-digit"),
    pytest.param("amount:117748", "amount:117744800", id="comma-read-as-a-digit-long"),
    pytest.param("iban:DE86430609677095897624", "iban:DE364306096770958976Z4", id="iban-3-8-and-z-2"),
])
def test_one_value_read_twice_does_not_conflict(x: str, y: str) -> None:
    other = "date:2024-01-01"
    assert discriminative.discriminative_similarity([x, other], [y, other]) == 1.0


@pytest.mark.parametrize(("x", "y"), [
    pytest.param("amount:27071", "amount:27100", id="another-amount"),
    pytest.param("amount:4547", "amount:4548", id="another-amount-same-length"),
    pytest.param("iban:DE32200400008009005768", "iban:DE32200400008109005768", id="iban-0-1-is-no-ocr-slip"),
])
def test_different_values_still_conflict(x: str, y: str) -> None:
    other = "date:2024-01-01"
    assert discriminative.discriminative_similarity([x, other], [y, other]) < 1.0
    assert not _pairing.one_value(x, y)


def test_an_address_both_carry_does_not_conflict_in_a_slot() -> None:
    # the lines between "between" and the contractor's address were lost on one side
    a = extract_features("between\nFalcon Removals Ltd\n122 Manor Road, WA 98101 Seattle\n(the \"Contractor\")\n"
                         "and\nPriya Garcia\n79 Chapel Street, IL 60601 Chicago")
    b = extract_features("between\n(the \"Contractor\")\nand\nPriya Garcia\n79 Chapel Street, IL 60601 Chicago")
    assert discriminative.conflicting_slots(a, b) == []
    # two tenants of one form: each has an address the other lacks
    c = extract_features("between\nPriya Garcia\n12 High Street, IL 60601 Chicago")
    assert discriminative.conflicting_slots(b, c) != []


def test_slot_conflict_of_a_moved_street_needs_the_value_on_the_other_side() -> None:
    a = {SLOT_MARK + "between=street:manorroad122", "street:manorroad122", "street:chapelstreet79"}
    b = {SLOT_MARK + "between=street:chapelstreet79", "street:chapelstreet79"}
    c = {SLOT_MARK + "between=street:highstreet12", "street:highstreet12"}
    assert discriminative.conflicting_slots(a, b) == []
    assert discriminative.conflicting_slots(a, c) == [("between", "street:manorroad122", "street:highstreet12")]


@pytest.mark.parametrize(("agreement", "bonus"), [
    pytest.param(0.0, 1.0, id="nothing-agrees"),
    pytest.param(1.4, 1.0, id="a-letterhead-only"),
    pytest.param(1.5, 1.06, id="a-date-and-an-amount"),
    pytest.param(3.0, 1.12, id="three-dates"),
    pytest.param(5.0, 1.2, id="five"),
    pytest.param(40.0, 1.2, id="capped"),
])
def test_agreement_bonus_grows_with_what_agrees(agreement: float, bonus: float) -> None:
    assert scoring.agreement_bonus(agreement) == pytest.approx(bonus)


@given(st.floats(0.0, 100.0), st.floats(0.0, 100.0))
def test_agreement_bonus_is_monotone_and_bounded(x: float, y: float) -> None:
    low, high = sorted((x, y))
    assert 1.0 <= scoring.agreement_bonus(low) <= scoring.agreement_bonus(high) <= scoring.MAX_AGREEMENT_BONUS


@pytest.mark.parametrize(("a", "b", "agree"), [
    pytest.param("abholung am 14 02 2024 1614302685154802122024", "abholung am 14 02 2024 16143026851548302122024", True,
                 id="one-digit-more-in-a-long-number"),
    pytest.param("paket bei nr 439 abgegeben", "paket bei nr 4391 abgegeben", False, id="too-few-digits-to-tell"),
    pytest.param("abholung 1614302685154802122024", "abholung 1614302685154802122025", False,
                 id="one-digit-other-is-another-note"),
])
def test_short_notes_one_digit_more(a: str, b: str, agree: bool) -> None:
    assert short.digits_agree(a, b) is agree


def test_a_pair_without_values_needs_its_words_in_order() -> None:
    assert order.order_factor(0.80) == 1.0
    assert order.order_factor(0.80, text_only=True) < 0.9
    assert order.order_factor(order.ORDER_COPY_TEXT_ONLY, text_only=True) == 1.0
    assert order.order_factor(0.45, text_only=True) == 0.0
