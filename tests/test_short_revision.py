"""Short documents (core.short) and revisions (core.revision), through scoring.score."""

from __future__ import annotations

import pytest

from paperless_dedupe_hook.core import revision, short
from paperless_dedupe_hook.core.extract import extract_features
from paperless_dedupe_hook.core.features import FeatureParams, compute
from paperless_dedupe_hook.core.scoring import ScoreParams, may_reach, score

PARAMS = FeatureParams(num_permutations=128, seed=1, ngram_size=2, min_words=20)
SCORING = ScoreParams()

CARD = "Garantiekarte\nModell KX-4410\nSeriennummer SN48213377DE\nKaufdatum 13.06.2024\nMediaMarkt Köln"


@pytest.mark.parametrize(("first", "second"), [
    pytest.param(CARD, "Garantiekarte\nModel1 KX-4410\nSeriennumrner SN4821 3377DE\nKaufdatum 13.06.2O24\nMediaMarkt Koln",
                 id="card-scanned"),
    pytest.param("Parcel left with neighbour at no. 439. 13/06/2024",
                 "Parce1 left with neighbour at no. 439. 13/06/2024", id="parcel-note"),
    pytest.param("PAID 16 MAY 2020", "PAlD 16 MAY 2020", id="stamp"),
])
def test_two_readings_of_one_short_note_are_duplicates(first: str, second: str) -> None:
    a, b = compute(1, first, PARAMS), compute(2, second, PARAMS)
    assert a.short and b.short
    assert may_reach(a, b, SCORING)
    pair = score(a, b, SCORING, exact=True)
    assert pair.score >= SCORING.similarity_threshold, pair


@pytest.mark.parametrize(("first", "second"), [
    pytest.param(CARD, CARD.replace("SN48213377DE", "SN48213378DE"), id="next-serial"),
    pytest.param("Parcel left with neighbour at no. 439. 13/06/2024",
                 "Parcel left with neighbour at no. 441. 13/06/2024", id="other-house"),
    pytest.param("PAID 16 MAY 2020", "PAID 18 MAY 2020", id="other-day"),
    pytest.param("Schlüssel liegt im Briefkasten. Anna Beck", "Schlüssel liegt im Briefkasten. Jonas Krüger",
                 id="other-name"),
])
def test_a_short_template_series_is_not(first: str, second: str) -> None:
    a, b = compute(1, first, PARAMS), compute(2, second, PARAMS)
    pair = score(a, b, SCORING, exact=True)
    assert pair.score < SCORING.similarity_threshold, pair


def test_short_documents_are_never_compared_with_long_ones() -> None:
    long_text = " ".join(["Garantiekarte Modell KX-4410 Seriennummer SN48213377DE"] * 6)
    a, b = compute(1, CARD, PARAMS), compute(2, long_text, PARAMS)
    assert a.short and not b.short
    assert not may_reach(a, b, SCORING)
    assert score(a, b, SCORING, exact=True).score == 0.0


@pytest.mark.parametrize("text", ["", "Signature", "i l i l ' ; i l i", "a b c d"])
def test_too_little_text_is_not_compared(text: str) -> None:
    feats = compute(1, text, PARAMS)
    assert not feats.comparable and not feats.short


def test_digits_read_look_alikes_inside_numbers() -> None:
    assert short.digits("kaufdatum 13 06 2o24 sn4821 3377de") == "13062024" + "48213377"


POLICY = """Muster Versicherung AG
Allgemeine Versicherungsbedingungen
{version}
§ 1 Gegenstand
Der Versicherer trägt die Gefahr für die im Versicherungsschein bezeichneten Sachen. {clause}
§ 2 Beitrag
Der Jahresbeitrag beträgt 312,00 EUR und ist am 01.01. eines jeden Jahres fällig. Die Versicherung
beginnt mit dem im Versicherungsschein angegebenen Zeitpunkt und verlängert sich um ein Jahr.
§ 3 Kündigung
Der Vertrag kann mit einer Frist von drei Monaten zum Ablauf des Versicherungsjahres gekündigt werden.
Die Kündigung bedarf der Textform. Gerichtsstand ist der Sitz des Versicherers in Köln.
"""


def _policy(version: str, clause: str = "Mitversichert sind Schäden durch Sturm und Hagel.") -> str:
    return POLICY.format(version=version, clause=clause)


def test_a_new_version_date_makes_a_revision_not_a_conflict() -> None:
    old = compute(1, _policy("Stand: 01.03.2023"), PARAMS)
    new = compute(2, _policy("Stand: 15.09.2024", "Mitversichert sind Schäden durch Sturm, Hagel und Starkregen."),
                  PARAMS)
    pair = score(old, new, SCORING, exact=True)
    assert pair.verdict == "revision" and pair.newer == 2
    assert pair.discriminative == 1.0
    assert SCORING.reports(pair)
    assert pair.as_dict()["verdict"] == "revision"
    assert not ScoreParams(report_revisions=False).reports(pair)


def test_a_copy_with_the_same_version_date_is_a_duplicate() -> None:
    a = compute(1, _policy("Last updated: 12 March 2024"), PARAMS)
    b = compute(2, _policy("Last updated: 12 March 2024"), PARAMS)
    pair = score(a, b, SCORING, exact=True)
    assert pair.verdict == "duplicate" and pair.newer is None
    assert pair.as_dict()["verdict"] == "duplicate"


def test_document_dates_are_no_version_dates() -> None:
    january = extract_features("Rechnung\nRechnungsdatum: 31.01.2024\nLeistungszeitraum Januar 2024\nBetrag 31,20 EUR")
    february = extract_features("Rechnung\nRechnungsdatum: 29.02.2024\nLeistungszeitraum Februar 2024\nBetrag 31,20 EUR")
    assert revision.version_dates(january) == frozenset()
    assert not revision.versions(january, february).differ


@pytest.mark.parametrize(("line", "date"), [
    pytest.param("Last updated: 12 March 2024", "date:2024-03-12", id="last-updated"),
    pytest.param("Effective date: 01.03.2024", "date:2024-03-01", id="effective"),
    pytest.param("gültig ab 1. Januar 2025", "date:2025-01-01", id="gueltig-ab"),
    pytest.param("Zuletzt aktualisiert am 01.03.2024", "date:2024-03-01", id="aktualisiert"),
    pytest.param("Stand März 2024", "date:2024-03", id="stand-month"),
])
def test_version_lines(line: str, date: str) -> None:
    assert revision.version_dates(extract_features(f"Bedingungen\n{line}\nText folgt hier.")) == {date}


def test_one_ocr_slip_in_the_version_date_is_no_revision() -> None:
    a = extract_features("Bedingungen\nStand: 18.01.2025\nText")
    b = extract_features("Bedingungen\nStand: 13.01.2025\nText")
    assert not revision.versions(a, b).differ
