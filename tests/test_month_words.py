"""Month words as OCR damaged them (core._month_words) and ISO years with a misread first
digit (core._triggers): read as the month or year they were, and never as another."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import _patterns as P
from paperless_dedupe_hook.core._month_words import MIN_EDITED_KEY_LETTERS, MONTH_NUMBERS, month_number
from paperless_dedupe_hook.core.extract import extract_tokens
from paperless_dedupe_hook.core.languages import fold_word

_NAMES = [(i + 1, n) for i, names in enumerate(P.MONTHS) for n in names]


@pytest.mark.parametrize("word,month", [
    pytest.param("Febrnar", 2, id="u-read-as-n"),
    pytest.param("Jannar", 1, id="two-u-read-as-n"),
    pytest.param("Septmber", 9, id="lost-letter"),
    pytest.param("Okober", 10, id="lost-letter-de"),
    pytest.param("Auguust", 8, id="doubled-letter"),
    pytest.param("Juune", 6, id="doubled-in-a-four-letter-name"),
    pytest.param("Jnne", 6, id="u-as-n-in-a-four-letter-name"),
    pytest.param("Deember", 12, id="lost-letter-de-december"),
    pytest.param("Januarv", 1, id="y-as-v"),
    pytest.param("Märrz", 3, id="doubled-r-with-umlaut"),
    pytest.param("Scptember", 9, id="e-as-c"),
    pytest.param("Augustl", 8, id="a-letter-more"),
    pytest.param("Apil", 4, id="a-five-letter-name-less-a-letter-inside"),
])
def test_a_damaged_month_word_is_read_as_its_month(word: str, month: int) -> None:
    assert month_number(word) == month


@pytest.mark.parametrize("word", [
    pytest.param("junior", id="junio-with-a-letter-more"),
    pytest.param("Match", id="march-with-another-letter"),
    pytest.param("Marc", id="march-less-its-last-letter"),
    pytest.param("arch", id="march-less-its-first-letter"),
    pytest.param("Mainz", id="a-city"),
    pytest.param("Entry", id="near-enero"),
    pytest.param("Bonn", id="two-edits"),
    pytest.param("line", id="near-june"),
    pytest.param("Depot", id="near-sept"),
    pytest.param("ang", id="a-damaged-abbreviation"),
    pytest.param("Jnli", id="juli-or-juni"),
])
def test_a_word_that_is_not_near_one_month_only_is_no_month(word: str) -> None:
    assert month_number(word) is None


def test_a_payslips_damaged_month_gives_it_its_date() -> None:
    # the payslip whose "Februar" OCR read as "Febrnar" had no date and met its whole series
    assert "date:2020-02" in extract_tokens("Abrechnung der Brutto/Netto-Bezüge für Febrnar 2020\nPersonalnummer 98934")
    assert "date:2021-09-03" in extract_tokens("Date: Septmber 3, 2021")
    assert "date:2013-08" in extract_tokens("Abrechnung der Brutto/Netto-Bezüge für August2013\nBezeichnung")
    assert not {t for t in extract_tokens("Modell XR2013 und Serie ABC2020") if t.startswith("date:")}
    assert not {t for t in extract_tokens("Our junior 2020 team and the Match 2024 final") if t.startswith("date:")}


def _damaged(name: str, kind: str, i: int) -> str:
    if kind == "more":
        return name[:i] + "x" + name[i:]
    if kind == "doubled":
        return name[: i + 1] + name[i:]
    if kind == "lost":
        return name[:i] + name[i + 1:]
    swaps = {"u": "n", "n": "u", "e": "c", "c": "e", "y": "v"}
    return name[:i] + swaps.get(name[i], name[i]) + name[i + 1:]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_NAMES), st.sampled_from(["doubled", "lost", "more", "look-alike"]), st.integers(0, 20))
def test_damage_to_a_month_word_never_makes_another_month(month_name: tuple[int, str], kind: str, at: int) -> None:
    month, name = month_name
    i = at % len(name)
    word = _damaged(name, kind, i)
    assume(fold_word(word) not in MONTH_NUMBERS)  # damage that spells another month's word ("Jui" is "Jul")
    assert month_number(word) in (month, None), (name, word)
    key, damaged = fold_word(name), fold_word(word)
    if kind in ("lost", "more") and len(key) >= MIN_EDITED_KEY_LETTERS and abs(len(damaged) - len(key)) == 1:
        assert month_number(word) == month, (name, word)  # (folding may join letters: "noember" is "nomber")


@pytest.mark.parametrize("text,token", [
    pytest.param("Date: Z020-05-29\n", "date:2020-05-29", id="Z-for-2"),
    pytest.param("Datum: l998-12-01\n", "date:1998-12-01", id="l-for-1"),
    pytest.param("Date: Z021/03/07\n", "date:2021-03-07", id="slashes"),
])
def test_an_iso_year_with_its_first_digit_misread_is_read(text: str, token: str) -> None:
    assert token in extract_tokens(text)


@pytest.mark.parametrize("text", [
    pytest.param("Aircraft B737-800 on stand 4\n", id="an-aircraft-type"),
    pytest.param("Code Z020-05 only\n", id="no-day"),
    pytest.param("Part S020-05-29\n", id="folds-to-5020"),
])
def test_a_letter_before_digits_that_is_no_iso_year_stays(text: str) -> None:
    assert not {t for t in extract_tokens(text) if t.startswith("date:")}
