"""Languages of the multilingual corpus, as data: one module per language, each defining ``LANG``.

The generator (:mod:`bench.corpus.multilingual`) and the probe (:mod:`bench.language_probe`) only
read :class:`Lang` fields; they never name a language.  Adding a language to the corpus means
adding one module here with a ``LANG`` that fills every field (tests/test_corpus_multilingual.py
checks that every module has every text key of :data:`TEXT_KEYS` and every label of :data:`LABEL_KEYS`).

Templates use ``{slot}`` placeholders:

dates     ``{day}`` (``day_one`` for the first of a month), ``{month}``, ``{mon}`` (abbreviated),
          ``{weekday}``, ``{year}``, ``{dd}``, ``{mm}``, ``{d}``, ``{m}``, ``{yyyy}``, ``{yy}``
amounts   ``{n}``: the number written with the template's own separators
streets   ``{name}`` and ``{n}`` (house number)
stamps    ``{date}`` (numeric, local order) and ``{time}``
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from functools import lru_cache

# Every label a document may carry (the generator and the probe use these keys).
LABEL_KEYS = (
    "invoice_no", "invoice_date", "customer_no", "contract_no", "policy_no", "order_no", "booking_ref",
    "reference", "tax_no", "social_no", "employee_no", "due_date", "period", "date", "total", "meter_no",
)

# Every text a document kind uses (see the French module for what each one is).
TEXT_KEYS = (
    "dear", "dear_named", "regards", "regards_short", "place_date", "subject", "page",
    "invoice", "invoice_intro", "invoice_pay", "invoice_terms", "col_item", "col_qty", "col_price", "col_amount",
    "subtotal", "vat", "total_due",
    "payslip", "gross_pay", "net_pay", "payslip_note", "employer_cost",
    "statement", "opening", "closing", "statement_text",
    "utility", "schedule", "meter_old", "meter_new", "consumption", "unit_price", "standing", "advance", "utility_text",
    "insurer", "insurer_body", "insurer_risk", "insurer_footer",
    "reminder", "reminder_body", "reminder_more",
    "tenancy", "receipt", "rent", "charges", "tenancy_body", "premises",
    "letter", "letter_body",
    "ticket", "departure", "arrival", "coach", "seat", "passenger", "train", "ticket_terms",
    "mail_from", "mail_to", "mail_sent", "mail_disclaimer",
    "fax", "fax_pages", "confidential", "draft", "contract", "article",
)


@dataclass(frozen=True)
class Lang:
    code: str  # ISO 639-1, what the corpus records carry
    name: str
    months: tuple[str, ...]  # January first
    months_abbr: tuple[str, ...]
    weekdays: tuple[str, ...]  # Monday first
    day_one: str  # the first of a month in a date in words ("1er" in French, "1" elsewhere)
    date_words: tuple[str, ...]  # dates written in words
    month_year: tuple[str, ...]
    date_numeric: tuple[str, ...]  # in the local day/month order
    amounts: tuple[tuple[str, str, str], ...]  # (thousands separator, decimal separator, template)
    labels: dict[str, tuple[str, ...]]  # LABEL_KEYS -> the ways documents write the label
    id_shapes: dict[str, str]  # label key -> value shape (bench.corpus.fmt.fill_ref: {y} {n5} {AB} ...)
    streets: tuple[str, ...]
    street_names: tuple[str, ...]
    places: tuple[tuple[str, str], ...]  # (postcode, town)
    first_names: tuple[str, ...]
    last_names: tuple[str, ...]
    org_cores: tuple[str, ...]
    org_forms: tuple[str, ...]  # "{core} SARL", "{last} & Fils"
    org_kinds: dict[str, tuple[str, ...]]  # correspondent kind -> name templates ({core} {last} {city})
    phones: tuple[str, ...]  # {n2} {n3} {n4}: that many digits
    stamps: tuple[str, ...]  # print / scan / receipt stamp lines
    scan_headers: tuple[str, ...]  # what a scanner writes above a page
    text: dict[str, str]  # TEXT_KEYS -> text (with slots)
    items: tuple[str, ...]  # invoice line items
    pay_rows: tuple[str, ...]  # payslip: payments (first: base salary)
    deduction_rows: tuple[str, ...]  # payslip: deductions
    tx_words: tuple[str, ...]  # bank statement: kinds of booking
    doc_titles: tuple[str, ...]  # titles of background documents
    notes: tuple[str, ...]  # short notes ({name} {date} {amount} {num} {weekday})
    tesseract: str  # tesseract's name of the language (real OCR of re-scans, bench.corpus.ml_ocr)
    iban_country: str  # country code of the IBANs of the language's banks
    grammar: dict[str, tuple[str, ...]] = field(default_factory=dict)  # subjects verbs objects tails legal
    routes: tuple[str, ...] = ()  # a journey between two towns ({a} {b}): labelled, in words (the probe reads them)
    route_prose: tuple[str, ...] = ()  # prose with the short words of routes that names no journey ({last}: a name)


@lru_cache(maxsize=1)
def all_languages() -> dict[str, Lang]:
    """Every language module of this package, by code, in module-name order."""
    out: dict[str, Lang] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        lang = importlib.import_module(f"{__name__}.{info.name}").LANG
        out[lang.code] = lang
    return out


def get(code: str) -> Lang:
    langs = all_languages()
    if code not in langs:
        raise KeyError(f"no language module for {code!r}: one of {', '.join(langs)}")
    return langs[code]
