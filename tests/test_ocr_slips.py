"""Conflicts an OCR confusion explains (core.ocr_slips)."""

from __future__ import annotations

import pytest

from paperless_dedupe_hook.core import ocr_slips
from paperless_dedupe_hook.core.discriminative import slot_similarity
from paperless_dedupe_hook.core.extract import extract_features

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
    pytest.param({"date": "16.01.2025", "amount": "1.466,50"}, id="two-slips"),
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
])
def test_a_series_keeps_its_conflicts(other: dict[str, str]) -> None:
    assert ocr_slips.explained(_tokens(), _tokens(**other)) == frozenset()


def test_the_same_text_has_nothing_to_explain() -> None:
    assert ocr_slips.explained(_tokens(), _tokens()) == frozenset()
    assert ocr_slips.conflict_weigher(frozenset()) is None
