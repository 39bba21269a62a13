"""Tests for :mod:`paperless_dedupe_hook.core.extract`: typed tokens and the discriminative similarity."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core.discriminative import discriminative_similarity, slot_similarity
from paperless_dedupe_hook.core.extract import KINDS, extract_features, extract_tokens, token_kind

INVOICE_1 = (
    "ACME Office Supplies Ltd.\n42 Harbour Road, Bristol BS1 4QA\nVAT No. GB 123 4567 89\n\nINVOICE\n\n"
    "Invoice number: INV-2026-1047\nInvoice date: 2026-10-31\n"
    "Customer: Northwind Consulting GmbH, Customer No. 55012\n\n"
    "Item                         Qty   Unit price   Amount\n"
    "A4 copy paper, 80 g (box)      4       24.90     99.60\n"
    "Toner cartridge TN-2420        2       61.50    123.00\n"
    "Desk organiser, black          1       18.75     18.75\n\n"
    "Subtotal                                        241.35\n"
    "VAT 20 %                                         48.27\n"
    "Total due                                       289.62 GBP\n\n"
    "Payment terms: 14 days net. Please quote INV-2026-1047 with your payment.\n"
    "Bank: Lloyds Bank, IBAN GB29 NWBK 6016 1331 9268 19\n"
)
RESCAN_1 = (
    INVOICE_1.replace("ACME Office Supplies", "ACME 0ffice Suppl1es")
    .replace("Invoice number", "lnvoice number")
    .replace("Toner cartridge", "Toner cartrldge")
    .replace("Total due", "Tota1 due")
    .replace("Payment terms", "Payrnent terms")
)
INVOICE_3 = (
    INVOICE_1.split("Invoice number")[0]
    + "Invoice number: INV-2026-1163\nInvoice date: 2026-11-30\n"
    "Customer: Northwind Consulting GmbH, Customer No. 55012\n\n"
    "Item                         Qty   Unit price   Amount\n"
    "A4 copy paper, 80 g (box)      6       24.90    149.40\n"
    "Ballpoint pens, blue (50)      1       12.40     12.40\n\n"
    "Subtotal 161.80\nVAT 20 % 32.36\nTotal due 194.16 GBP\n\n"
    "Payment terms: 14 days net. Please quote INV-2026-1163 with your payment.\n"
    "Bank: Lloyds Bank, IBAN GB29 NWBK 6016 1331 9268 19\n"
)

TICKET_OUT = (
    "DB Online-Ticket\nAuftragsnummer: 123456789012\nHinfahrt: München Hbf -> Berlin Hbf\n"
    "Fahrtantritt am 12.03.2024, ab 08:15\nICE 1006, Wagen 21, Platz 55\nPreis: 89,90 €\nZahlungsart: Kreditkarte\n"
)
TICKET_RETURN = (
    TICKET_OUT.replace("Hinfahrt: München Hbf -> Berlin Hbf", "Rückfahrt: Berlin Hbf -> München Hbf")
    .replace("12.03.2024, ab 08:15", "15.03.2024, ab 17:45")
    .replace("ICE 1006, Wagen 21, Platz 55", "ICE 1009, Wagen 23, Platz 12")
)
BOARDING_OUT = "Boarding pass\nBooking ref: XK7Q2B\nOut: BSK - LON\nFlight FR 1234 on 02 May 2024\nSeat 14C\n"
BOARDING_RETURN = "Boarding pass\nBooking ref: XK7Q2B\nRet: LON - BSK\nFlight FR 1235 on 09 May 2024\nSeat 3A\n"

PAYSLIP = (
    "Gehaltsabrechnung {month} 2024\nPersonalnummer 4711\nSteuerklasse 1\nBruttogehalt 4.200,00 €\n"
    "Lohnsteuer 712,33 €\nKrankenversicherung 341,25 €\nRentenversicherung 390,60 €\n"
    "Auszahlungsbetrag 2.654,82 €\nÜberweisung am {paid} auf IBAN DE89 3704 0044 0532 0130 00\n"
)
STATEMENT = (
    "Kontoauszug Nr. {number}/2024\nIBAN DE89 3704 0044 0532 0130 00\nAlter Saldo {old} EUR\n{rows}\n"
    "Neuer Saldo {new} EUR\n"
)
REMINDER = (
    "Zahlungserinnerung\nDatum: {date}\nKundennummer: 55012\n"
    "Unsere Rechnung Nr. RE-2024-0815 vom 31.01.2024 über 1.234,56 € ist noch offen.\n"
    "Mahngebühr: {fee} €\nGesamt: {total} €\n"
)
CONTRACT = (
    "Mietvertrag\nVertragsnummer: MV-2024-117\nzwischen Max Mustermann und Erika Musterfrau\n"
    "§1 Mietbeginn ist der 01.04.2024.\n§2 Die Miete beträgt 1.200,00 € monatlich.\n"
    "§3 Die Kaution beträgt 3.600,00 €.\nDie Kündigungsfrist beträgt drei Monate.\n"
)


def tokens_of(kind: str, text: str) -> set[str]:
    return {t for t in extract_tokens(text) if token_kind(t) == kind}


# --- extraction tables -------------------------------------------------------------------------

EXAMPLES = [
    # dates, German
    pytest.param("Datum: 31.01.2024", {"date:2024-01-31"}, id="de-dot"),
    pytest.param("am 31.1.24 erhalten", {"date:2024-01-31"}, id="de-dot-short"),
    pytest.param("München, 31. Januar 2024", {"date:2024-01-31"}, id="de-long"),
    pytest.param("31. Jan. 2024", {"date:2024-01-31"}, id="de-abbrev"),
    pytest.param("15. März 2024", {"date:2024-03-15"}, id="de-maerz"),
    pytest.param("15. Maerz 2024", {"date:2024-03-15"}, id="de-maerz-ae"),
    pytest.param("15. Marz 2024", {"date:2024-03-15"}, id="de-marz-lost-umlaut"),
    pytest.param("3. Jänner 2024", {"date:2024-01-03"}, id="at-jaenner"),
    pytest.param("1. Dez. 2023", {"date:2023-12-01"}, id="de-dez"),
    pytest.param("Stand: Oktober 2024", {"date:2024-10"}, id="de-month-year"),
    pytest.param("Abrechnungszeitraum 01/2024", {"date:2024-01"}, id="numeric-month-year"),
    pytest.param("Die Rechnung vom 02/03/2024 ist fällig", {"date:2024-03-02"}, id="de-slash-day-first"),
    # dates, English and ISO
    pytest.param("Invoice date: 2026-10-31", {"date:2026-10-31"}, id="iso"),
    pytest.param("Jan 31, 2024", {"date:2024-01-31"}, id="en-mdy-short"),
    pytest.param("January 31st 2024", {"date:2024-01-31"}, id="en-mdy-ordinal"),
    pytest.param("31 January 2024", {"date:2024-01-31"}, id="en-dmy"),
    pytest.param("the 31st of January 2024", {"date:2024-01-31"}, id="en-of"),
    pytest.param("Date: 01/31/2024", {"date:2024-01-31"}, id="us-slash-unambiguous"),
    pytest.param("Please pay the invoice of 02/03/2024 to us", {"date:2024-02-03"}, id="en-slash-month-first"),
    pytest.param("31/01/2024 and 02/03/2024 for the total", {"date:2024-01-31", "date:2024-03-02"},
                 id="slash-convention-from-document"),
    pytest.param("Due by Sep 6, 2017 at the latest", {"date:2017-09-06"}, id="en-sep"),
    pytest.param("dated Aug\n3, 2017", {"date:2017-08-03"}, id="date-across-line-break"),
    # amounts
    pytest.param("Summe 1.234,56 €", {"amount:123456"}, id="de-euro-sign"),
    pytest.param("Betrag 1.234,56 EUR", {"amount:123456"}, id="de-eur-code"),
    pytest.param("EUR 1,234.56", {"amount:123456"}, id="en-eur-before"),
    pytest.param("Total $1,234.56", {"amount:123456"}, id="usd"),
    pytest.param("€ 12,50", {"amount:1250"}, id="euro-before"),
    pytest.param("GBP 289.62", {"amount:28962"}, id="gbp-before"),
    pytest.param("£289.62", {"amount:28962"}, id="pound-sign"),
    pytest.param("1234.56 EUR", {"amount:123456"}, id="no-grouping"),
    pytest.param("Preis: 12,- €", {"amount:1200"}, id="comma-dash"),
    pytest.param("Gesamt 99,90", {"amount:9990"}, id="keyword-no-currency"),
    pytest.param("Total 1,234.56", {"amount:123456"}, id="en-keyword-no-currency"),
    pytest.param("MwSt 19 % 12,34", {"amount:1234"}, id="percent-is-not-an-amount"),
    pytest.param("Spende 500 €", {"amount:50000"}, id="integer-with-currency"),
    # IBAN
    pytest.param("IBAN: DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX", {"iban:DE89370400440532013000"}, id="iban-de"),
    pytest.param("IBAN DE89370400440532013000", {"iban:DE89370400440532013000"}, id="iban-compact"),
    pytest.param("IBAN GB29 NWBK 6016 1331 9268 19", {"iban:GB29NWBK60161331926819"}, id="iban-gb"),
    # labelled identifiers
    pytest.param("Rechnungsnummer: RE-2024-12345", {"id:invoice:RE202412345"}, id="rechnungsnummer"),
    pytest.param("Rechnungs-Nr.: 4711", {"id:invoice:4711"}, id="rechnungs-nr"),
    pytest.param("Rechnung Nr. 2024/0815", {"id:invoice:20240815"}, id="rechnung-nr"),
    pytest.param("Invoice No. INV-2026-1047", {"id:invoice:INV20261047"}, id="invoice-no"),
    pytest.param("Inv. # 88812", {"id:invoice:88812"}, id="inv-hash"),
    pytest.param("Kundennummer 55012", {"id:customer:55012"}, id="kundennummer"),
    pytest.param("Kunden-Nr.: KD-778", {"id:customer:KD778"}, id="kunden-nr"),
    pytest.param("Customer ID: C-99812", {"id:customer:C99812"}, id="customer-id"),
    pytest.param("Account No. 12345678", {"id:account:12345678"}, id="account-no"),
    pytest.param("Bestellnummer: B1234567", {"id:order:B1234567"}, id="bestellnummer"),
    pytest.param("Auftragsnummer 1234567890", {"id:order:1234567890"}, id="auftragsnummer"),
    pytest.param("Order No. ORD-1234567", {"id:order:ORD1234567"}, id="order-no"),
    pytest.param("Vertragsnummer: VN 123-456789", {"id:contract:VN123456789"}, id="vertragsnummer"),
    pytest.param("Contract No. C12345678", {"id:contract:C12345678"}, id="contract-no"),
    pytest.param("Versicherungsschein-Nr. 12.345.678901", {"id:policy:12345678901"}, id="versicherungsschein"),
    pytest.param("Policy No. AB123456789", {"id:policy:AB123456789"}, id="policy-no"),
    pytest.param("Aktenzeichen: 12 O 345/24", {"id:case:12O34524"}, id="aktenzeichen-court"),
    pytest.param("Unser Zeichen: AB/1234", {"id:case:AB1234"}, id="unser-zeichen"),
    pytest.param("Ihr Zeichen: XY-77", {"id:case:XY77"}, id="ihr-zeichen"),
    pytest.param("Our ref. AB/1234/24", {"id:case:AB123424"}, id="our-ref"),
    pytest.param("Reference: AB12-34567", {"id:case:AB1234567"}, id="reference"),
    pytest.param("Booking ref: XK7Q2B", {"id:booking:XK7Q2B"}, id="booking-ref"),
    pytest.param("Buchungsnummer: 998877", {"id:booking:998877"}, id="buchungsnummer"),
    pytest.param("Ticket No. 123456789", {"id:ticket:123456789"}, id="ticket-no"),
    pytest.param("Tracking No. 123456789012", {"id:tracking:123456789012"}, id="tracking-no"),
    pytest.param("Steuernummer 143/123/45678", {"id:tax:14312345678"}, id="steuernummer"),
    pytest.param("USt-IdNr.: DE123456789", {"id:tax:DE123456789"}, id="ust-idnr"),
    pytest.param("VAT No. GB 123 4567 89", {"id:tax:GB123456789"}, id="vat-no-spaced"),
    pytest.param("Tax ID 12345678901", {"id:tax:12345678901"}, id="tax-id"),
    pytest.param("Personalnummer 4711", {"id:personnel:4711"}, id="personalnummer"),
    pytest.param("Lieferschein-Nr. 12345678", {"id:delivery:12345678"}, id="lieferschein"),
    pytest.param("Rechnungs-\nnummer: 12345", {"id:invoice:12345"}, id="label-hyphenated-across-lines"),
    pytest.param("Invoice number:\nINV-2026-1047", {"id:invoice:INV20261047"}, id="value-on-next-line"),
    # long references
    pytest.param("Please quote INV-2026-1047", {"ref:20261047"}, id="unlabelled-code"),
    pytest.param("Vorgang 7781-4455 erfasst", {"ref:77814455"}, id="dash-groups"),
    pytest.param("Zahlungsreferenz 143/123/45678", {"ref:14312345678"}, id="slash-groups"),
    pytest.param("Beleg 123456789", {"ref:123456789"}, id="digit-run"),
    # routes
    pytest.param("Out: BSK - LON", {"route:BSK>LON"}, id="out"),
    pytest.param("Ret: LON - BSK", {"route:LON>BSK"}, id="ret"),
    pytest.param("Hinfahrt: München Hbf -> Berlin Hbf", {"route:MUNCHENHBF>BERLINHBF"}, id="hinfahrt"),
    pytest.param("Von: Hamburg Nach: Köln", {"route:HAMBURG>KOLN"}, id="von-nach"),
    pytest.param("Von: Hamburg\nNach: Köln", {"route:HAMBURG>KOLN"}, id="von-nach-two-lines"),
    pytest.param("Fahrt von München nach Berlin", {"route:MUNCHEN>BERLIN"}, id="von-nach-prose"),
    pytest.param("Von: Frankfurt a.M.\nNach: Berlin", {"route:FRANKFURTAM>BERLIN"}, id="von-nach-abbreviated-place"),
    pytest.param("Your trip from Munich to Berlin", {"route:MUNICH>BERLIN"}, id="from-to"),
    pytest.param("Berlin → Hamburg", {"route:BERLIN>HAMBURG"}, id="arrow"),
    pytest.param("Flight FRA-JFK", {"route:FRA>JFK"}, id="airport-codes"),
    pytest.param("Oksana Beck, Am Stadtgraben 128, 86150 Augsburg", {"street:amstadtgraben128"}, id="street-de"),
    pytest.param("Frau Groß\nGartenstraße 54a\n66111 Saarbrücken", {"street:gartenstrasse54a"}, id="street-de-block"),
    pytest.param("Friedrich-Ebert-Str. 5 · 10115 Berlin", {"street:frledrlchebertstrasse5"}, id="street-de-abbreviated"),
    pytest.param("Petra Ziegler, Schulstrabe 5, 48143, Münster", {"street:schulstrasse5"}, id="street-de-ocr-eszett"),
    pytest.param("Tenant: John Smith, 12 High Street", {"street:hlghstreet12"}, id="street-en"),
    pytest.param("Charles Campbell, 195 York Stret, EC1A 1BB London", {"street:yorkstret195"}, id="street-en-postcode"),
]


@pytest.mark.parametrize(("text", "expected"), EXAMPLES)
def test_extracts_expected_tokens(text: str, expected: set[str]) -> None:
    assert extract_tokens(text) == expected


NOTHING = [
    pytest.param("Gedruckt am 12.03.2024 14:35", id="print-stamp-de"),
    pytest.param("Druckdatum: 2024-03-12 14:35:10", id="druckdatum"),
    pytest.param("Ausdruck vom 12.3.2024 - Seite 1", id="ausdruck-vom"),
    pytest.param("Printed: Mar 3, 2024 2:35 PM", id="printed"),
    pytest.param("Printed on 12/03/2024 at 14:35 by 4711", id="printed-on"),
    pytest.param("12.03.24 14:35  FAX +49 30 1234567  S. 001/003", id="fax-header"),
    pytest.param("Scan 2024-03-12 14:35 | Canon iR-ADV C5535 | S. 1/2", id="scan-header"),
    pytest.param("2024-03-12T14:35  RICOH MP C3004  #123456", id="iso-timestamp"),
    pytest.param("Eingang 12.03.2024", id="eingang"),
    pytest.param("RECEIVED 2024-03-12", id="received"),
    pytest.param("12.03.24, 14:35   about:blank   1/1", id="browser-print"),
    pytest.param("Seite 2 von 3", id="page-de"),
    pytest.param("Page 2 of 3", id="page-en"),
    pytest.param("Tel. +49 30 1234567", id="phone-de"),
    pytest.param("please call us on 0161 203 4314", id="phone-uk"),
    pytest.param("contact Ms Taylor on +1 (617) 555 0199", id="phone-us"),
    pytest.param("open from Monday to Friday", id="weekday-range"),
    pytest.param("VAT 20 %", id="percentage"),
    pytest.param("A4 copy paper, 80 g (box)", id="product-line"),
    pytest.param("KOPIE", id="copy-stamp"),
    pytest.param("Version 2.10 vom Hersteller", id="version"),
    pytest.param("Die Frist beträgt 14 Tage, 10115 Berlin ist zuständig", id="number-before-postcode-no-street"),
    pytest.param("Wir liefern 3 Paletten an Lager 12", id="quantities"),
    # issue 12: a sentence that ends on its "von ..." and a next one that opens with "Nach ..."
    pytest.param("Abweichungen wurden von\nPetra Lange dokumentiert. Nach Einschätzung der Projektleitung",
                 id="von-nach-two-sentences"),
    pytest.param("Die Kosten wurden von Herrn Koch geprüft, nach Rücksprache mit der Leitung", id="von-herrn-nach"),
    pytest.param("", id="empty"),
]


@pytest.mark.parametrize("text", NOTHING)
def test_extracts_nothing(text: str) -> None:
    assert extract_tokens(text) == frozenset()


OCR_VARIANTS = [
    pytest.param("Datum: 31.01.2024", "Datum: 3l.0l.2024", id="date-l-for-1"),
    pytest.param("Datum: 10.10.2024", "Datum: 1O.1O.2O24", id="date-O-for-0"),
    pytest.param("Betrag: 1.234,56 €", "Betrag: 1.234,S6 €", id="amount-S-for-5"),
    pytest.param("Betrag: 1.234,56 €", "Betrag: 1,234,56 €", id="amount-separator-confused"),
    pytest.param("Total 289.62 GBP", "Tota1 289.62 GBP", id="keyword-garbled"),
    pytest.param("Gesamt 18,75 €", "Gesamt 1B,75 €", id="amount-B-for-8"),
    pytest.param("Invoice No. INV-2026-1047", "lnvoice No. INV-2O26-1047", id="invoice-l-and-O"),
    pytest.param("Invoice No. INV-2026-1047", "1nvoice N0. INV-2026-1O47", id="invoice-1-for-I"),
    pytest.param("Rechnungsnummer: RE-2024-12345", "Rechnungsnumrner: RE-2024-12345", id="rn-for-m"),
    pytest.param("Rechnungsnummer: RE-2024-12345", "Rechnungs-\nnummer: RE-2024-12345", id="split-label"),
    pytest.param("Kundennummer: 55012", "Kundennurnmer: 55012", id="kunden-rn"),
    pytest.param("Policy No. GB369472057", "Policy No. GB3b9472057", id="b-for-6-after-letters"),
    pytest.param("15. März 2024", "15. Marz 2024", id="lost-umlaut"),
    pytest.param("Juli 2024", "Ju1i 2024", id="month-1-for-l"),
    pytest.param("IBAN DE89 3704 0044 0532 0130 00", "IBAN DE89 37O4 OO44 O532 Ol30 00", id="iban-O-for-0"),
    pytest.param("Rückfahrt: Berlin Hbf -> München Hbf", "Ruckfahrt: Berlin Hbf -> Munchen Hbf", id="route-umlauts"),
    pytest.param("Von: Düsseldorf Nach: Köln", "Von: Duesseldorf Nach: Koeln", id="route-ue-spelling"),
]


@pytest.mark.parametrize(("clean", "garbled"), OCR_VARIANTS)
def test_ocr_garbled_variant_gives_same_tokens(clean: str, garbled: str) -> None:
    assert extract_tokens(clean)
    assert extract_tokens(garbled) == extract_tokens(clean)


def test_invoice_1_tokens() -> None:
    assert extract_tokens(INVOICE_1) == {
        "id:tax:GB123456789", "id:invoice:INV20261047", "id:customer:55012", "date:2026-10-31",
        "amount:9960", "amount:2490", "amount:6150", "amount:12300", "amount:1875", "amount:24135",
        "amount:4827", "amount:28962", "ref:20261047", "iban:GB29NWBK60161331926819",
        "street:harbourroad42",
    }


def test_rescan_extracts_the_same_tokens() -> None:
    assert extract_tokens(RESCAN_1) == extract_tokens(INVOICE_1)


def test_tokens_come_from_the_whole_text() -> None:
    filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 2000
    assert extract_tokens(filler + "Rechnungsnummer: RE-2024-9") == {"id:invoice:RE20249"}


def test_stamp_line_does_not_swallow_the_next_line() -> None:
    assert extract_tokens("Gedruckt am 12.03.2024\nRechnungsdatum 31.01.2024") == {"date:2024-01-31"}


@pytest.mark.parametrize(
    ("token", "kind"),
    [
        pytest.param("date:2024-01-31", "date", id="date"),
        pytest.param("id:invoice:RE1", "id", id="id"),
        pytest.param("route:A>B", "route", id="route"),
        pytest.param("nocolon", "", id="no-kind"),
        pytest.param("", "", id="empty"),
    ],
)
def test_token_kind(token: str, kind: str) -> None:
    assert token_kind(token) == kind


# --- discriminative similarity: duplicates stay high -------------------------------------------


def d(a: str, b: str) -> float:
    return discriminative_similarity(extract_tokens(a), extract_tokens(b))


def test_invoice_and_its_rescan_are_duplicates() -> None:
    assert d(INVOICE_1, RESCAN_1) >= 0.9


DUPLICATES = [
    pytest.param(INVOICE_1 + "Gedruckt am 12.03.2027 14:35\n", id="print-stamp-line"),
    pytest.param("Druckdatum: 2027-03-12 14:35:10\n" + INVOICE_1, id="print-date-on-top"),
    pytest.param("KOPIE\n" + INVOICE_1, id="kopie-stamp"),
    pytest.param("Fax cover sheet\nTo: Accounts\nDate: 05/11/2026\nPages: 2\n\n" + INVOICE_1, id="fax-cover"),
    pytest.param("Cover sheet\nDate: 05/11/2026\nRe: overdue 250.00 GBP\n\n" + INVOICE_1, id="cover-with-values"),
    pytest.param("\n".join(INVOICE_1.split("\n")[:16]), id="missing-last-third"),
    pytest.param(INVOICE_1.replace("\n", "\r\n"), id="crlf"),
    pytest.param(INVOICE_1.replace("   ", "\t"), id="tabs"),
]


@pytest.mark.parametrize("copy", DUPLICATES)
def test_copies_of_invoice_1_have_no_conflict(copy: str) -> None:
    assert d(INVOICE_1, copy) == 1.0
    assert d(copy, INVOICE_1) == 1.0


def test_copy_missing_last_third_of_its_tokens() -> None:
    ordered = sorted(extract_tokens(INVOICE_1), key=INVOICE_1.find)
    kept = ordered[: 2 * len(ordered) // 3]
    assert discriminative_similarity(ordered, kept) == 1.0


def test_contract_draft_with_words_changed() -> None:
    draft = CONTRACT.replace("drei Monate", "sechs Monate").replace("monatlich", "pro Monat")
    assert d(CONTRACT, draft) == 1.0


def test_single_ocr_slip_in_an_amount_only_lowers_a_little() -> None:
    slipped = INVOICE_1.replace("241.35", "241.36")
    assert 0.75 <= d(INVOICE_1, slipped) < 1.0


@pytest.mark.parametrize(
    ("a", "b"),
    [
        pytest.param("Datum 17.01.2024, Betrag 1.234,56 €", "Datum 11.01.2024, Betrag 1.234,56 €", id="date-1-7"),
        pytest.param("Datum 30.10.2024, Betrag 1.234,56 €", "Datum 3.10.2024, Betrag 1.234,56 €", id="day-lost-digit"),
        pytest.param("Betrag 1.936,56 € und 12,00 €", "Betrag 1.9 36,56 € und 12,00 €", id="amount-split"),
        pytest.param("Order No. ORD-1956379 am 01.02.2024", "Order N. ORD-1956379 am 01.02.2024", id="label-lost"),
        pytest.param("Kundennummer 55012, Datum 01.02.2024", "Kundennummer S5012, Datum 01.02.2024",
                     id="id-look-alike"),
        pytest.param("Kundennummer 302091, Datum 01.02.2024", "Kundennummer 802091, Datum 01.02.2024",
                     id="long-id-3-8"),
        pytest.param("IBAN GB58 ABBY 9513 2326 5435 27", "IBAN GB58 ABBY 9513 2326 54 35 27", id="iban-cut"),
        pytest.param("Tracking No. 123456789012", "Tracking No. 1234567890122", id="doubled-digit"),
    ],
)
def test_ocr_slips_are_not_conflicts(a: str, b: str) -> None:
    assert d(a, b) == 1.0


# --- discriminative similarity: template series stay low ---------------------------------------


def test_next_months_invoice_is_not_a_duplicate() -> None:
    assert d(INVOICE_1, INVOICE_3) <= 0.4


SERIES = [
    pytest.param(TICKET_OUT, TICKET_RETURN, id="train-outbound-vs-return"),
    pytest.param(BOARDING_OUT, BOARDING_RETURN, id="flight-outbound-vs-return"),
    pytest.param(PAYSLIP.format(month="Januar", paid="31.01.2024"), PAYSLIP.format(month="Februar", paid="29.02.2024"),
                 id="payslips"),
    pytest.param(
        STATEMENT.format(number=1, old="1.000,00", new="2.739,82",
                         rows="02.01. Miete 850,00-\n05.01. Gehalt 2.654,82+\n15.01. Strom 65,00-"),
        STATEMENT.format(number=2, old="2.739,82", new="4.424,14",
                         rows="01.02. Miete 850,00-\n05.02. Gehalt 2.654,82+\n20.02. Versicherung 120,50-"),
        id="bank-statements",
    ),
    pytest.param(REMINDER.format(date="15.02.2024", fee="5,00", total="1.239,56"),
                 REMINDER.format(date="01.03.2024", fee="10,00", total="1.244,56"), id="payment-reminders"),
    pytest.param("Rechnung Nr. RE-2024-1047\nDatum 31.01.2024\nSumme 120,00 €",
                 "Rechnung Nr. RE-2024-1048\nDatum 31.01.2024\nSumme 120,00 €", id="sequential-invoice-numbers"),
    pytest.param("Kundennummer 10203\nSumme 120,00 €", "Kundennummer 10208\nSumme 120,00 €",
                 id="short-customer-numbers-3-8"),
    pytest.param("Receipt\nDate: 2024-05-04\nTotal 12.50 GBP\nThank you",
                 "Receipt\nDate: 2024-06-04\nTotal 12.50 GBP\nThank you", id="only-the-date-differs"),
]


@pytest.mark.parametrize(("a", "b"), SERIES)
def test_template_series_score_low(a: str, b: str) -> None:
    assert d(a, b) <= 0.4
    assert d(b, a) <= 0.4


def test_route_direction_matters() -> None:
    assert extract_tokens("Out: BSK - LON") != extract_tokens("Out: LON - BSK")
    assert discriminative_similarity({"route:BSK>LON"}, {"route:LON>BSK"}) == 0.0


# --- discriminative similarity: the rule itself ------------------------------------------------


def test_nothing_to_compare_is_one() -> None:
    assert discriminative_similarity([], []) == 1.0
    assert discriminative_similarity({"date:2024-01-31"}, set()) == 1.0
    assert discriminative_similarity({"date:2024-01-31"}, {"amount:100"}) == 1.0


def test_conflicts_are_per_kind_and_need_both_sides() -> None:
    base = {"id:invoice:RE1001", "amount:12000", "iban:DE89370400440532013000"}
    assert discriminative_similarity(base, base | {"date:2024-01-31"}) == 1.0
    low = discriminative_similarity(base | {"date:2024-01-31"}, base | {"date:2024-02-29"})
    assert 0.0 < low <= 0.4


def test_strong_conflict_outweighs_weak_one() -> None:
    base = {"id:customer:55012", "amount:12000", "amount:5000"}
    weak = discriminative_similarity(base | {"amount:100"}, base | {"amount:200"})
    strong = discriminative_similarity(base | {"date:2024-01-31"}, base | {"date:2024-02-29"})
    assert strong < weak < 1.0


@pytest.mark.parametrize(
    ("a", "b", "conflict"),
    [
        pytest.param("street:gartenstrasse72", "street:gartenstasse72", False, id="ocr-slip-in-name"),
        pytest.param("street:rlversldewalk729", "street:rlversldewalk129", False, id="ocr-slip-in-number"),
        pytest.param("street:parkallee42a", "street:parkallee420", False, id="house-number-suffix-misread"),
        pytest.param("street:churchlane116", "street:churchlane73", True, id="same-street-other-house"),
        pytest.param("street:lesslngstrasse91", "street:wlesenstrasse97", True, id="similar-names-other-street"),
        pytest.param("street:amstadtgraben128", "street:lndustrlestrasse33", True, id="other-street"),
    ],
)
def test_street_addresses(a: str, b: str, conflict: bool) -> None:
    base = {"street:dorfstrasse60", "amount:79400"}
    similarity = discriminative_similarity(base | {a}, base | {b})
    assert similarity < 0.5 if conflict else similarity == 1.0


def test_another_tenant_on_one_form_is_a_strong_conflict() -> None:
    form = "Vermieter\nHausverwaltung Dietrich GmbH, Dorfstraße 60, 99084 Erfurt\nMieter\n{tenant}\n" \
           "Die Grundmiete beträgt monatlich {rent} €.\n"
    a = extract_features(form.format(tenant="Frank Busch, Industriestraße 33, 10115 Berlin", rent="794,00"))
    b = extract_features(form.format(tenant="Oksana Beck, Am Stadtgraben 128, 86150 Augsburg", rent="794,00"))
    rescan = extract_features(form.format(tenant="Frank Busch, lndustriestrabe 33, 10115 Berlin", rent="794,00"))
    assert slot_similarity(a, b) < 0.5
    assert slot_similarity(a, rescan) == 1.0


def test_revised_draft_keeps_most_of_its_similarity() -> None:
    # Two drafts of one contract: the same parties, a new "Stand" date and a changed sum in a
    # clause, neither under a label both drafts share.
    parties = {"street:dorfstrasse60", "street:amstadtgraben128"}
    v1 = parties | {"date:2018-12-07", "amount:29499"}
    v2 = parties | {"date:2018-12-24", "amount:298602"}
    assert slot_similarity(v1, v2) > 0.65
    labelled_v1 = v1 | {"@grundmiete monatlich=amount:29499"}
    labelled_v2 = v2 | {"@grundmiete monatlich=amount:298602"}
    assert slot_similarity(labelled_v1, labelled_v2) < slot_similarity(v1, v2)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Zum Stichtag 17.02.2022 waren 20 Vorgänge offen.", id="one-line"),
        pytest.param("Risiken ergeben sich. Zum\nStichtag 17.02.2022 waren 20 Vorgänge offen.", id="wrapped-after-zum"),
    ],
)
def test_slot_label_survives_another_line_wrap(text: str) -> None:
    assert "@zum stlchtag=date:2022-02-17" in extract_features(text)


def test_label_above_a_value_that_opens_its_line_is_kept() -> None:
    assert "@total due=amount:28962" in extract_features("Subtotal 241.35\nTotal due\n289.62 GBP\n")


@pytest.mark.parametrize(
    ("value_a", "value_b", "conflict"),
    [
        pytest.param("date:2017-07-12", "date:2017-07", False, id="day-lost-by-ocr"),
        pytest.param("date:2017-07-12", "date:2017-08", True, id="another-month"),
        pytest.param("date:2017-07-12", "date:2017-07-19", True, id="another-day"),
    ],
)
def test_labelled_month_against_full_date(value_a: str, value_b: str, conflict: bool) -> None:
    shared = {"id:invoice:RE1001", "amount:12000"}
    a = shared | {value_a, "@rescheduled on=" + value_a}
    b = shared | {value_b, "@rescheduled on=" + value_b}
    assert (slot_similarity(a, b) < 1.0) == conflict


def test_month_agrees_with_a_full_date_of_that_month() -> None:
    assert discriminative_similarity({"date:2024-01"}, {"date:2024-01-31"}) == 1.0
    assert discriminative_similarity({"date:2024-01"}, {"date:2024-02"}) < 0.5


def test_weight_lowers_agreement_never_a_conflict() -> None:
    """Issue 12: a value common in the archive agreeing says little, two values in one
    place still say "another document" (the month of the 120th payslip of a series)."""
    a = {"id:invoice:RE1001", "date:2024-01-31", "amount:12000"}
    b = {"id:invoice:RE1001", "date:2024-02-29", "amount:12000"}
    plain = discriminative_similarity(a, b)
    common_dates = discriminative_similarity(a, b, weight=lambda t: 0.0 if t.startswith("date:") else 1.0)
    common_id = discriminative_similarity(a, b, weight=lambda t: 0.0 if t.startswith("id:") else 1.0)
    assert plain < 0.5
    assert common_dates == plain
    assert common_id < plain


def test_weight_lowers_agreement_of_common_tokens() -> None:
    a = {"id:customer:55012", "iban:DE89370400440532013000", "date:2024-01-31"}
    b = {"id:customer:55012", "iban:DE89370400440532013000", "date:2024-02-29"}
    idf = {"id:customer:55012": 0.1, "iban:DE89370400440532013000": 0.1}
    assert discriminative_similarity(a, b, weight=lambda t: idf.get(t, 1.0)) < discriminative_similarity(a, b)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -1.0])
def test_weight_garbage_counts_as_zero(bad: float) -> None:
    a, b = {"date:2024-01-31", "amount:100", "id:invoice:RE7"}, {"date:2024-02-29", "amount:100", "id:invoice:RE7"}
    value = discriminative_similarity(a, b, weight=lambda t: bad if t.startswith("amount") else 1.0)
    assert value == discriminative_similarity(a, b, weight=lambda t: 0.0 if t.startswith("amount") else 1.0)
    assert value < discriminative_similarity(a, b)
    # a conflicting value's weight is not used at all
    assert discriminative_similarity(a, b, weight=lambda t: bad if t.startswith("date") else 1.0) == \
        discriminative_similarity(a, b)


def test_unknown_kinds_and_plain_strings_are_accepted() -> None:
    assert 0.0 <= discriminative_similarity({"custom:x", "plain"}, {"custom:y", "plain"}) < 1.0


# --- properties --------------------------------------------------------------------------------

FRAGMENTS = [
    "Rechnungsnummer: ", "Invoice No. ", "Kundennummer ", "IBAN DE89 3704 0044 0532 0130 00", "31.01.2024",
    "31. Januar 2024", "Jan 31, 2024", "01/02/2024", "1.234,56 €", "EUR 1,234.56", "$12.50", "Out: BSK - LON",
    "Von: A Nach: B", "Berlin → Hamburg", "FRA-JFK", "Gedruckt am 12.03.2024", "Seite 1 von 2", "Tel. 030 123",
    "\n", " ", "-", "/", ".", ",", "\x00", "\x0c", "\r\n", "\u202e", "\u200b", "İ", "ß", "一二三", "مرحبا ٣٤٥",
    "3l.0l.2O24", "|", "!", "INV-2O26-1047", "\u0130nvoice No. 1", "Σ", "Ⅻ", "²", "١٢",
]
documents = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=12)), max_size=30).map("".join)
token_sets = st.frozensets(
    st.one_of(
        st.sampled_from(["date:2024-01-31", "date:2024-01-13", "date:2024-01", "date:2024-07-31", "amount:12345",
                         "amount:1234500", "amount:2345", "ref:123456789", "ref:1234567", "id:invoice:RE2024",
                         "id:customer:55012", "id:customer:55017", "iban:DE89370400440532013000",
                         "iban:DE8937040044053201", "route:A>B", "route:B>A"]),
        st.text(max_size=10),
    ),
    max_size=12,
)


@given(documents)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_extraction_never_raises_and_is_deterministic(text: str) -> None:
    tokens = extract_tokens(text)
    assert isinstance(tokens, frozenset)
    assert tokens == extract_tokens(text)
    assert all(token_kind(t) in KINDS for t in tokens)


@given(st.text())
def test_extraction_of_arbitrary_unicode_never_raises(text: str) -> None:
    extract_tokens(text)


@given(documents, documents)
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_similarity_of_documents_is_symmetric_and_bounded(x: str, y: str) -> None:
    a, b = extract_tokens(x), extract_tokens(y)
    value = discriminative_similarity(a, b)
    assert 0.0 <= value <= 1.0
    assert value == discriminative_similarity(b, a)
    assert discriminative_similarity(a, a) == 1.0


@given(token_sets, token_sets)
def test_similarity_of_token_sets_is_symmetric_bounded_deterministic(a: frozenset[str], b: frozenset[str]) -> None:
    value = discriminative_similarity(a, b)
    assert 0.0 <= value <= 1.0
    assert value == discriminative_similarity(b, a)
    assert value == discriminative_similarity(list(a), list(b))
    assert discriminative_similarity(a, a) == 1.0


@given(token_sets, st.data())
def test_a_subset_never_conflicts(a: frozenset[str], data: st.DataObject) -> None:
    subset = data.draw(st.sets(st.sampled_from(sorted(a))) if a else st.just(set()))
    assert discriminative_similarity(a, subset) == 1.0


@given(token_sets, token_sets, st.floats(min_value=0.0, max_value=5.0))
def test_weighted_similarity_is_symmetric_and_bounded(a: frozenset[str], b: frozenset[str], scale: float) -> None:
    def weight(token: str) -> float:
        return scale * (1 + len(token) % 3)

    value = discriminative_similarity(a, b, weight)
    assert 0.0 <= value <= 1.0
    assert value == discriminative_similarity(b, a, weight)


# --- size --------------------------------------------------------------------------------------


def test_200_kb_of_text_completes() -> None:
    rng = random.Random(7)
    parts = [INVOICE_1, INVOICE_3, TICKET_OUT, PAYSLIP.format(month="Mai", paid="31.05.2024"), CONTRACT]
    words = "Lorem ipsum dolor sit amet 1.234,56 € am 31.01.2024 Ref 143/123/45678 → Berlin lnvoice".split()
    chunks: list[str] = []
    while sum(map(len, chunks)) < 200_000:
        chunks.append(rng.choice(parts) if rng.random() < 0.2 else " ".join(rng.choices(words, k=40)) + "\n")
    text = "".join(chunks)
    tokens = extract_tokens(text)
    assert "id:invoice:INV20261047" in tokens
    assert 0.0 <= discriminative_similarity(tokens, extract_tokens(text[: len(text) // 2])) <= 1.0


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("1" * 200_000, id="digits"),
        pytest.param("l" * 200_000, id="letters"),
        pytest.param("Rechnungsnummer: " + "A1" * 100_000, id="endless-value"),
        pytest.param("1.234,56 € " * 18_000, id="amounts"),
        pytest.param("Out: " + "ABC " * 50_000, id="endless-place"),
        pytest.param(("a " * 50_000) + "->" + ("b " * 50_000), id="one-long-arrow-line"),
    ],
)
def test_pathological_200_kb_inputs_complete(text: str) -> None:
    assert isinstance(extract_tokens(text), frozenset)
