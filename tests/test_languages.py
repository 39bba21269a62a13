"""Languages as data (core/languages): what extraction reads in French, Dutch, Spanish and Italian
besides German and English, value by value, and how a document's language is told.

Each case is a short letter in its language (a few of its frequent words around the value, as
real letters have), the value, and the token it must give.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import _patterns as P
from paperless_dedupe_hook.core import languages
from paperless_dedupe_hook.core.extract import SLOT_MARK, extract_features, extract_tokens
from paperless_dedupe_hook.core.languages.detect import detect

CORE = Path(__file__).resolve().parent.parent / "paperless_dedupe_hook" / "core"

# A little running text per language: what language detection reads.
PROSE = {
    "fr": "Madame, Monsieur,\nnous vous prions de trouver ci-joint votre facture pour le mois.\n",
    "nl": "Geachte heer,\nhierbij ontvangt u de factuur voor de maand. Wij verzoeken u het bedrag te voldoen.\n",
    "es": "Estimado señor:\nle enviamos la factura del mes. Por favor, abone el importe en su cuenta.\n",
    "it": "Gentile cliente,\ncon la presente le inviamo la fattura del mese. La preghiamo di pagare l'importo.\n",
    "de": "Sehr geehrte Damen und Herren,\nanbei erhalten Sie die Rechnung für den Monat. Bitte zahlen Sie den Betrag.\n",
    "en": "Dear customer,\nplease find your invoice for the month. We thank you for your payment.\n",
}


def _letter(lang: str, line: str) -> str:
    return f"{PROSE[lang]}\n{line}\n\n{PROSE[lang]}"


def _plain(tokens: frozenset[str]) -> set[str]:
    return {t for t in tokens if not t.startswith(SLOT_MARK)}


VALUES = [
    # dates in words and month + year
    ("fr", "Paris, le 5 mars 2024", "date:2024-03-05"),
    ("fr", "Date : 1er août 2024", "date:2024-08-01"),
    ("fr", "Période : mars 2024", "date:2024-03"),
    ("fr", "Échéance : 12 févr. 2025", "date:2025-02-12"),
    ("fr", "Le 3 décembre 2023", "date:2023-12-03"),
    ("nl", "Amsterdam, 5 maart 2024", "date:2024-03-05"),
    ("nl", "Periode: maart 2024", "date:2024-03"),
    ("nl", "Datum: 17 okt. 2023", "date:2023-10-17"),
    ("es", "Madrid, 5 de marzo de 2024", "date:2024-03-05"),
    ("es", "Periodo: marzo de 2024", "date:2024-03"),
    ("es", "Fecha: 1º de mayo de 2024", "date:2024-05-01"),
    ("it", "Roma, 5 marzo 2024", "date:2024-03-05"),
    ("it", "Periodo: marzo 2024", "date:2024-03"),
    ("it", "Data: 1° giugno 2024", "date:2024-06-01"),
    ("it", "Scadenza: 21 dic. 2024", "date:2024-12-21"),
    # numeric dates: day first in these languages
    ("fr", "Date de la facture : 05/03/2024", "date:2024-03-05"),
    ("es", "Fecha: 05/03/2024", "date:2024-03-05"),
    ("it", "Data: 05/03/2024", "date:2024-03-05"),
    ("nl", "Datum: 05-03-2024", "date:2024-03-05"),
    ("en", "Date: 05/03/2024", "date:2024-05-03"),  # English: month first, as before
    # amounts in local formats
    ("fr", "Total TTC : 1 234,56 €", "amount:123456"),
    ("fr", "Total TTC : 1\u202f234\u202f567,89 EUR", "amount:123456789"),
    ("de", "Gesamtbetrag: 1'234.50 CHF", "amount:123450"),
    ("es", "Importe total: 1.234,56 €", "amount:123456"),
    # labelled identifiers, number words first or after
    ("fr", "N° de facture : FA-2024-118", "id:invoice:FA2024118"),
    ("fr", "Numéro de client : 48213", "id:customer:48213"),
    ("fr", "Numéro de police : KJ89956964", "id:policy:KJ89956964"),
    ("fr", "N° de sécurité sociale : 1 85 05 78 006 084 36", "id:social:185057800608436"),
    ("es", "Número de factura: 2024/118", "id:invoice:2024118"),
    ("es", "Nº de póliza: KJ89956964", "id:policy:KJ89956964"),
    ("it", "Fattura n. 118/2024", "id:invoice:1182024"),
    ("it", "Codice cliente: 48213", "id:customer:48213"),
    ("it", "Codice fiscale: RSSMRA80A01H501U", "id:tax:RSSMRA80A01H501U"),
    ("nl", "Factuurnummer: 2024-118", "id:invoice:2024118"),
    ("nl", "Klantnummer: 48213", "id:customer:48213"),
    ("nl", "Polisnummer: KJ89956964", "id:policy:KJ89956964"),
    # street addresses
    ("fr", "12 rue de la République\n75001 Paris", "street:republlque12"),
    ("fr", "Société Martin, 3 bis avenue Foch", "street:foch3bis"),
    ("es", "Calle Mayor, 12\n28013 Madrid", "street:mayor12"),
    ("es", "C/ del Prado 44, 28014 Madrid", "street:prado44"),
    ("it", "Via Roma 12\n00184 Roma", "street:roma12"),
    ("it", "Piazza Garibaldi, 3\n20121 Milano", "street:garlbaldl3"),
    ("nl", "Kerkstraat 12, 1015 CJ Amsterdam", "street:kerkstraat12"),
    ("de", "Anschrift der Mietwohnung: Schulstr. 2, 3011 Bern", "street:schulstrasse2"),
    ("en", "Flat 2, 148 Maple Ave, Leeds", "street:mapleavenue148"),
]


@pytest.mark.parametrize("lang,line,token", [pytest.param(*v, id=f"{v[0]}-{v[2]}") for v in VALUES])
def test_each_language_reads_its_values(lang: str, line: str, token: str) -> None:
    assert token in extract_tokens(_letter(lang, line)), extract_tokens(_letter(lang, line))


def test_a_blank_between_a_quantity_and_a_price_joins_them_only_where_the_language_groups_so() -> None:
    # German and English group thousands by "." or ","; "2 234,56 €" is two numbers there.
    german = _plain(extract_features(_letter("de", "Menge 2 234,56 €")))
    assert "amount:23456" in german and "amount:223456" not in german
    assert "amount:223456" in _plain(extract_features(_letter("fr", "Quantité 2 234,56 €")))


def test_number_first_label_and_date_label_name_two_slots() -> None:
    # "N° de facture" and "Date de facture": the words before both values are "de facture".
    features = extract_features(_letter("fr", "N° de facture : FA-2024-118\nDate de facture : 05/03/2024"))
    slots = {t.split("=", 1)[0] for t in features if t.startswith(SLOT_MARK)}
    invoice = next(t.split("=", 1)[0] for t in features if t.endswith("=id:invoice:FA2024118"))
    date = next(t.split("=", 1)[0] for t in features if t.endswith("=date:2024-03-05"))
    assert invoice != date and {invoice, date} <= slots


@pytest.mark.parametrize("lang,line", [
    pytest.param("es", "Recibo de salarios mes de marzo de 2024\nFecha de vencimiento: mes de abril de 2024", id="es"),
    pytest.param("it", "Busta paga mese di marzo 2024\nScadenza: mese di aprile 2024", id="it"),
])
def test_month_year_slots_are_named_by_their_label_not_by_the_connector(lang: str, line: str) -> None:
    # "mes de marzo", "mes de abril": two labels, not one slot "mes de" holding both months
    # (a slot with two values never conflicts, so a series of payslips would not be told apart).
    features = extract_features(_letter(lang, line))
    labels = [t.split("=", 1)[0] for t in features if t.startswith(SLOT_MARK) and "=date:2024-0" in t]
    assert len(labels) == 2 and len(set(labels)) == 2, labels


def test_weekday_is_no_part_of_a_date_slot() -> None:
    a = extract_features(_letter("fr", "Date : mardi 5 mars 2024"))
    b = extract_features(_letter("fr", "Date : vendredi 8 mars 2024"))
    label = {t.split("=", 1)[0] for t in a if t.endswith("=date:2024-03-05")}
    assert label == {t.split("=", 1)[0] for t in b if t.endswith("=date:2024-03-08")}


@pytest.mark.parametrize("lang,stamp", [
    pytest.param("fr", "Reçu le 05/03/2024", id="fr-received"),
    pytest.param("fr", "PROJET v2 – version du 5 mars 2024", id="fr-draft"),
    pytest.param("nl", "Gescand 05-03-2024 10:31", id="nl-scan"),
    pytest.param("nl", "CONCEPT v2 – versie van dinsdag 5 maart 2024", id="nl-draft"),
    pytest.param("es", "Impreso el 05/03/2024 a las 10:31", id="es-print"),
    pytest.param("it", "Pervenuto il 05/03/2024", id="it-received"),
])
def test_stamp_lines_yield_nothing(lang: str, stamp: str) -> None:
    assert not {t for t in extract_tokens(_letter(lang, stamp)) if t.startswith("date:")}


def test_a_stamp_word_of_prose_stamps_only_the_line_it_opens() -> None:
    # "reçu le" in a sentence is the letter's content, not a mail-room stamp.
    text = _letter("fr", "Nous avons reçu le 5 mars 2024 votre courrier.")
    assert "date:2024-03-05" in extract_tokens(text)


def test_mixed_letter_reads_both_languages() -> None:
    # A Belgian or Swiss letter: Dutch text, a French address block.
    text = _letter("nl", "Rue de la Loi 16\n1000 Bruxelles\nFactuurnummer: 2024-118\nDatum: 5 maart 2024")
    tokens = extract_tokens(text)
    assert {"street:lol16", "id:invoice:2024118", "date:2024-03-05"} <= tokens


def test_detection_counts_frequent_words_and_takes_hints_and_limits() -> None:
    words = PROSE["fr"].lower().split()
    assert [lang.code for lang in detect(words).languages][:1] == ["fr"]
    assert [lang.code for lang in detect(words, allowed=("de", "en")).languages] == []
    assert [lang.code for lang in detect([], hint=("it",)).languages] == ["it"]
    assert [lang.code for lang in detect([], allowed=("nl",)).languages] == ["nl"]
    # a hint wins a tie
    tie = ["la", "y"]  # "la" is frequent in fr, es and it; "y" only in es
    assert detect(tie, hint=("es",)).languages[0].code == "es"


def test_allowed_languages_decide_the_numeric_date_order() -> None:
    text = "Invoice date: 05/03/2024\nThe total amount is due. Thank you for your order.\n"
    assert "date:2024-05-03" in extract_tokens(text)
    assert "date:2024-03-05" in extract_tokens(text, languages=("fr", "de"))


@pytest.mark.parametrize("value,codes", [
    pytest.param("deu+eng", ("de", "en"), id="deu+eng"),
    pytest.param("fra", ("fr",), id="fra"),
    pytest.param("nld+spa+ita", ("nl", "es", "it"), id="three"),
    pytest.param("chi_sim+eng", ("en",), id="unknown-left-out"),
    pytest.param("", (), id="unset"),
])
def test_ocr_language_codes_name_languages(value: str, codes: tuple[str, ...]) -> None:
    assert languages.codes_of_ocr(value) == codes


def test_every_month_word_folds_to_one_month_across_languages() -> None:
    numbers = languages.month_numbers()  # raises when two languages fold one word onto two months
    for lang in languages.LANGUAGES:
        assert len(lang.months) == 12, lang.code
        for month, names in enumerate(lang.months, start=1):
            assert all(numbers[languages.fold_word(n)] == month for n in names), lang.code


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([(i + 1, n) for i, names in enumerate(P.MONTHS) for n in names]),
       st.integers(1, 28), st.integers(1990, 2030), st.sampled_from(["", ".", "er", "º"]),
       st.sampled_from([str.lower, str.upper, str.capitalize]))
def test_any_month_word_of_any_language_is_read_in_a_date(month_name: tuple[int, str], day: int, year: int,
                                                           ordinal: str, case: object) -> None:
    month, name = month_name
    assert callable(case)
    text = f"Datum {day}{ordinal} {case(name)} {year}"
    assert f"date:{year}-{month:02d}-{day:02d}" in extract_tokens(text), text
    assert f"date:{year}-{month:02d}" in extract_tokens(f"Periode {case(name)} {year}")


def test_the_extractor_names_no_language() -> None:
    # Adding a language is adding a data module: the code that uses the data holds no language's
    # code and no word list of its own for dates, labels or stamps.
    codes = {lang.code for lang in languages.LANGUAGES} | {c for lang in languages.LANGUAGES for c in lang.ocr_codes}
    for name in ("extract.py", "_numbers.py", "_places.py", "_scan.py", "_patterns.py", "_month_words.py", "_route_patterns.py", "_triggers.py",
                 "revision.py", "subject.py",
                 "languages/__init__.py", "languages/detect.py"):
        tree = ast.parse((CORE / name).read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, ast.Module | ast.FunctionDef | ast.ClassDef) and ast.get_docstring(n) is not None}
        docs |= {id(n.slice) for n in ast.walk(tree) if isinstance(n, ast.Subscript)}  # m["en"]: a regex group
        literals = {n.value for n in ast.walk(tree)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs}
        named = {lit for lit in literals if lit in codes}
        if name == "languages/__init__.py":
            named -= {"de", "en", "fr", "nl", "es", "it"}  # the registry lists its modules, by file name
        assert not named, (name, named)
        assert not re.search(r"\b(?:januar|janvier|enero|gennaio|januari)\b", " ".join(literals), re.I), name


def test_the_config_key_and_the_ocr_hint_reach_extraction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from paperless_dedupe_hook import config
    from paperless_dedupe_hook.core.features import compute
    from paperless_dedupe_hook.engine import settings_from_config

    text = ("Invoice date: 05/03/2024\n" + "The total amount is due. Thank you for your order and your payment. " * 4)
    path = tmp_path / "config.toml"
    path.write_text('[detection]\nlanguages = ["fr", "de"]\n')
    monkeypatch.setenv("PAPERLESS_OCR_LANGUAGE", "fra+deu")
    params = settings_from_config(config.load(config_path=str(path), env={"HOME": str(tmp_path)})).features
    assert params.languages == ("fr", "de") and set(params.language_hint) == {"fr", "de"}
    assert "date:2024-03-05" in compute(1, text, params).tokens  # no English allowed: day first
    path.write_text("")
    monkeypatch.delenv("PAPERLESS_OCR_LANGUAGE")
    params = settings_from_config(config.load(config_path=str(path), env={"HOME": str(tmp_path)})).features
    assert params.languages == () and params.language_hint == ()
    assert "date:2024-05-03" in compute(1, text, params).tokens
