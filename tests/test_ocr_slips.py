"""Conflicts an OCR confusion explains (core.ocr_slips)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import ocr_slips
from paperless_dedupe_hook.core.discriminative import slot_similarity
from paperless_dedupe_hook.core.extract import SLOT_MARK, extract_features, token_kind

LETTER = """Stadtwerke Nord GmbH
Kundennummer: {customer}
Rechnungsnummer: {invoice}
Rechnungsdatum: {date}
Gesamtbetrag: {amount} EUR
Vielen Dank für Ihre Zahlung. Bitte überweisen Sie den Betrag bis zum 30.01.2025.
"""


def _tokens(customer: str = "4471120", invoice: str = "RE-2025-10388", date: str = "18.01.2025",
            amount: str = "1.486,50") -> frozenset[str]:
    return extract_features(LETTER.format(customer=customer, invoice=invoice, date=date, amount=amount))


# (1/7 and 3/8 in a date or an amount are set aside by core.discriminative already)
@pytest.mark.parametrize("other", [
    pytest.param({"date": "16.01.2025"}, id="date-6-for-8"),
    pytest.param({"amount": "1.456,50"}, id="amount-5-for-8"),
    pytest.param({"amount": "1.436,80"}, id="two-slips-in-one-value"),
])
def test_a_scan_with_confusable_digits_is_explained(other: dict[str, str]) -> None:
    clean, scan = _tokens(), _tokens(**other)
    slips = ocr_slips.explained(clean, scan)
    assert slips
    assert slot_similarity(clean, scan, conflict_weight=ocr_slips.conflict_weigher(slips)) > slot_similarity(clean, scan)


@pytest.mark.parametrize("other", [
    pytest.param({"date": "18.02.2025", "invoice": "RE-2025-10412", "amount": "1.502,10"}, id="next-invoice"),
    pytest.param({"date": "13.01.2025", "amount": "1.436,50", "customer": "4477120"}, id="three-slips"),
    pytest.param({"date": "13.01.2025", "amount": "2.011,00"}, id="one-slip-one-real-difference"),
    # two payslips of one series, March and August: each value a slip apart, both together not
    pytest.param({"date": "16.01.2025", "amount": "1.466,50"}, id="two-values-each-a-slip"),
])
def test_a_series_keeps_its_conflicts(other: dict[str, str]) -> None:
    assert ocr_slips.explained(_tokens(), _tokens(**other)) == frozenset()


def test_the_same_text_has_nothing_to_explain() -> None:
    assert ocr_slips.explained(_tokens(), _tokens()) == frozenset()
    assert ocr_slips.conflict_weigher(frozenset()) is None


def _explained_reference(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    """``explained`` as it was before its early stop per namespace: kept as the reference the
    product is checked against."""
    plain_a = {t for t in a if not t.startswith(SLOT_MARK) and token_kind(t) in ocr_slips._KINDS}
    plain_b = {t for t in b if not t.startswith(SLOT_MARK) and token_kind(t) in ocr_slips._KINDS}
    only_a, only_b = sorted(plain_a - plain_b), sorted(plain_b - plain_a)
    if not only_a or not only_b:
        return frozenset()
    used: set[str] = set()
    out: set[str] = set()
    slips = 0
    left_a = []
    for ta in only_a:
        best = None
        for tb in only_b:
            if tb in used or ocr_slips._space(ta) != ocr_slips._space(tb):
                continue
            n = ocr_slips._slips(ocr_slips._value(ta), ocr_slips._value(tb))
            if n is not None and n > 0 and (best is None or n < best[0]):
                best = (n, tb)
        if best is None:
            left_a.append(ta)
            continue
        slips += best[0]
        if slips > ocr_slips.MAX_SLIPS:
            return frozenset()
        used.add(best[1])
        out.update((ta, best[1]))
    if slips == 0:
        return frozenset()
    kinds_left_b = {ocr_slips._space(tb) for tb in only_b if tb not in used}
    if any(ocr_slips._space(ta) in kinds_left_b for ta in left_a):
        return frozenset()
    if len(out) > 2 * ocr_slips.MAX_VALUES:
        return frozenset()
    return frozenset(out)


# Values of a few shapes and of digits that OCR confuses; b holds a's values with some characters
# swapped (a slip when the two are confusable, a conflict when not), so explained pairs, clean
# conflicts and namespaces with several values on each side all come up.
_SPACES = ["date:", "amount:", "ref:", "id:invoice:", "iban:", "word:"]
_VALUE = st.builds(lambda space, digits: space + digits, st.sampled_from(_SPACES),
                   st.text(alphabet="0135789OSB", min_size=3, max_size=4))


@st.composite
def _pair(draw: st.DrawFn) -> tuple[frozenset[str], frozenset[str]]:
    common = draw(st.frozensets(_VALUE, max_size=3))
    a, b = set(common), set(common)
    for value in draw(st.lists(_VALUE, min_size=1, max_size=4)):
        changed = list(value)
        for _ in range(draw(st.integers(0, 2))):
            at = draw(st.integers(len(value) - 3, len(value) - 1))
            changed[at] = draw(st.sampled_from("0135789OSB"))
        a.add(value)
        b.add("".join(changed))
    a |= draw(st.frozensets(_VALUE, max_size=2))
    b |= draw(st.frozensets(_VALUE, max_size=2))
    return frozenset(a), frozenset(b)


@settings(max_examples=600, deadline=None)
@given(pair=_pair())
def test_explained_is_the_reference(pair: tuple[frozenset[str], frozenset[str]]) -> None:
    a, b = pair
    assert ocr_slips.explained(a, b) == _explained_reference(a, b)
    assert ocr_slips.explained(set(a), list(b)) == _explained_reference(a, b)  # not frozensets: no cache
