"""Short notes as real re-scans damage them (issue 25): digits read as look-alike letters,
a scanner's stamp, a moved line; and the template series that must stay apart."""

from __future__ import annotations

import pytest

from paperless_dedupe_hook.core import scoring, short
from paperless_dedupe_hook.core.features import FeatureParams, compute

PARAMS = FeatureParams()


def _score(x: str, y: str) -> scoring.PairScore:
    a, b = compute(1, x, PARAMS), compute(2, y, PARAMS)
    assert a.short and b.short
    return scoring.score(a, b, scoring.ScoreParams(), exact=True)


@pytest.mark.parametrize(("scan", "original"), [
    pytest.param("Receipt: €12.23 received on 15/02/Z018. Signed M. Weber",
                 "Receipt: €12.23 received on 15/02/2018. Signed M. Weber", id="Z-for-2"),
    pytest.param("Parkschein Zone B gültig bis 12.04.202l 18:00 Uhr", "Parkschein Zone B gültig bis 12.04.2021 18:00 Uhr",
                 id="l-for-1"),
    pytest.param("Reinigung Abholung ab 13/0b/2024 Auftrag 4471", "Reinigung Abholung ab 13/06/2024 Auftrag 4471",
                 id="b-for-6"),
    pytest.param("Water meter 1b913 m3 read on 12/27/2023.", "Water meter 16913 m3 read on 12/27/2023.", id="b-inside"),
    pytest.param("Gescannt 24.08.2021 16:56\nParkschein Zone B gültig bis 12.04.2021 18:00 Uhr",
                 "Parkschein Zone B gültig bis 12.04.2021 18:00 Uhr", id="scanner-stamp"),
    pytest.param("COPY\nDry Cleaners\nTicket No. 4412\nReady 12.03.2024\nTotal 12,50 EUR",
                 "Dry Cleaners\nTicket No. 4412\nReady 12.03.2024\nTotal 12,50 EUR\nCOPY", id="moved-copy-line"),
    pytest.param("Wasserzähler Stand 6339A m³ abgelesen31.03.2017", "Wasserzähler Stand 63394 m³ abgelesen 31.03.2017",
                 id="A-for-4-and-merged-number"),
    pytest.param("33471 m³ am 08.03.2020 abgelesen.", "Wasserzähler 33471 m³ am 08.03.2020 abgelesen.",
                 id="first-word-lost"),
    pytest.param("QuiUung\nBetrag 62,19 € bar erhalten.\n27.10.2018, Ayşe",
                 "Quittung\nBetrag 62,19 € bar erhalten.\n27.10.2018, Ayşe Friedrich", id="last-word-lost-and-letters-misread"),
    pytest.param("Paket beim Nacharn Sendung 400234.", "Paket beim Nachbarn abgegeben, Sendung 400234.",
                 id="word-lost-between-two-others"),
])
def test_a_re_scanned_note_is_its_original(scan: str, original: str) -> None:
    pair = _score(scan, original)
    assert pair.score >= 0.9, pair


@pytest.mark.parametrize(("one", "other"), [
    pytest.param("Parcel left with your neighbour at no. 439, Elm Street", "Parcel left with your neighbour at no. 441, Elm Street",
                 id="another-house"),
    pytest.param("Water meter 18913 m3 read on 12/27/2023.", "Water meter 16913 m3 read on 12/27/2023.",
                 id="a-digit-is-no-letter"),
    pytest.param("Gescannt 24.08.2021 16:56\nParkschein Zone B gültig bis 12.04.2021 18:00 Uhr",
                 "Parkschein Zone B gültig bis 13.04.2021 18:00 Uhr", id="stamp-aside-the-day-differs"),
    pytest.param("Quittung\nBetrag 62,19 € bar erhalten.\n27.10.2018, Ayşe Friedrich",
                 "Quittung\nBetrag 62,19 € bar erhalten.\n27.10.2018, Jonas Schmidt", id="another-name-same-digits"),
    pytest.param("Parkhaus City-Galerie bezahlt 12,50 € am 03.05.2022", "Parkhaus Kaufhof bezahlt 12,50 € am 03.05.2022",
                 id="another-garage-same-digits"),
    pytest.param("Bitte Herrn Weber zurückrufen", "Bitte zurückrufen", id="a-note-without-digits-keeps-the-plain-ratio"),
    pytest.param("33471 m³ am 08.03.2020 abgelesen.", "Wasserzähler 33477 m³ am 08.03.2020 abgelesen.",
                 id="word-lost-and-a-digit-differs"),
])
def test_the_next_note_of_a_series_stays_another_note(one: str, other: str) -> None:
    assert _score(one, other).score < 0.75


def test_a_stamp_does_not_make_a_note_long() -> None:
    note = "Dry Cleaners\nTicket No. 4549103\nReady 2019-07-18\nTotal $16.17\nCOPY"
    stamped = note + "\nScanned 25/09/2019 12:03"
    assert compute(1, stamped, PARAMS).word_count >= PARAMS.min_words
    assert compute(1, stamped, PARAMS).short
    assert _score(stamped, note).score >= 0.9
    # Twenty words of a letter with the word "scan" in it stay a long document.
    letter = "Bitte scannen Sie den Beleg und senden Sie ihn uns mit der Rechnung bis zum Monatsende an die Buchhaltung zurück"
    assert not compute(2, letter, PARAMS).short


def test_digits_agree_ignores_only_look_alike_letters() -> None:
    assert short.digits_agree("faellig 15 02 z018", "faellig 15 02 2018")
    assert not short.digits_agree("faellig 15 02 2016", "faellig 15 02 2018")
    assert short.without_stamps("gescannt am 24 08 2021 um 16 56 parkschein") == "parkschein"
