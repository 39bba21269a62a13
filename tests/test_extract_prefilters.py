"""The shortcuts of :mod:`paperless_dedupe_hook.core.extract` find what the plain scans find.

Extraction skips work with cheap tests (a regex of trigger words instead of a loop over all
words, ...).  Each test here states one shortcut as "fast == slow" over generated texts
built from the characters and words that matter to it.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import _patterns as P
from paperless_dedupe_hook.core._triggers import TRIGGER_WORD, TRIGGER_WORD_AT_START, TRIGGERS, digit_regions
from paperless_dedupe_hook.core.extract import (
    _DIGIT_LED,
    _SERVICE,
    _route_codes,
    _Scan,
    _service_matches,
)

FAST = settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)

# Pieces near the edges of the shortcuts: trigger keys and their prefixes, letters of other
# scripts, non-letters that count as \w (digits, "_", "²"), blanks and punctuation.
_KEYS = sorted(TRIGGERS)
_PIECES = st.one_of(
    st.sampled_from(_KEYS),
    st.sampled_from([k[:-1] for k in _KEYS if len(k) > 1]),
    st.sampled_from(list("abcdefghijklmnopqrstuvwxyzäöüßéçøÿÞœſıπж中") + ["ǅ", "²", "½", "_", "0", "1", "|", "!"]),
    st.sampled_from([" ", "\n", "\t", "-", ".", ":", "/", "÷", "×", "'", "(", "€", "\u00a0", "\u2028"]),
    st.text(max_size=3),
)
texts = st.lists(_PIECES, max_size=40).map("".join)


def _slow_trigger_words(low: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group(1)) for m in P.WORD.finditer(low) if m.group(1) in TRIGGERS]


def _fast_trigger_words(low: str) -> list[tuple[int, str]]:
    hits = [(m.start(1), m.group(1)) for m in TRIGGER_WORD.finditer(low)]
    if first := TRIGGER_WORD_AT_START.match(low):
        hits.insert(0, (0, first.group()))
    return hits


@given(texts)
@FAST
def test_trigger_word_regex_finds_the_words_whose_key_is_a_trigger(text: str) -> None:
    assert _fast_trigger_words(text) == _slow_trigger_words(text)
    low = text.lower()
    assert _fast_trigger_words(low) == _slow_trigger_words(low)


def test_trigger_word_regex_on_examples() -> None:
    low = "rechnungsnummer: 1; re 5 rex ab-ab\nbill²von über jän. 1nvoice ü"
    assert _fast_trigger_words(low) == _slow_trigger_words(low)
    assert [key for _, key in _fast_trigger_words(low)] == ["rech", "re", "ab", "ab", "bill", "jän", "nvoi"]  # "²" is a letter to \w


# --- digit regions --------------------------------------------------------------------------

_DIGIT_PIECES = st.one_of(
    st.sampled_from(["\n", "\n\n", "\n\n\n", " \n "]),  # its own branch: line breaks are what matters here
    st.sampled_from([" ", "\t", ".", ",", "/", "-", ":", "'", "€", "$", "EUR", "Jan", "Mai ", "of ",
                     "Str. ", "Road", "High ", "Am ", "D-", "IBAN ", "DE", "GB29 ", "T", "Flug ", "ICE ", "Nr. "]),
    st.integers(0, 99999).map(str),
    st.sampled_from(["12.03.2024", "2024-01-31T14:35", "31.\nJanuar\n2024", "1.234,56", "Gartenstraße 54,\n66111 Berlin",
                     "12 High Street", "195 York Rd, EC1A 1BB London", "143/123/45678", "5 -\n\n\n6", "٣", "²"]),
    st.text(alphabet="abcXYZ", max_size=4),
)
digit_texts = st.lists(_DIGIT_PIECES, max_size=60).map("".join)


@given(digit_texts)
@FAST
def test_digit_led_patterns_find_in_the_digit_regions_what_they_find_in_the_text(text: str) -> None:
    scan = _Scan(text)
    for pattern in _DIGIT_LED:
        whole = [(m.span(), m.groupdict()) for m in pattern.finditer(text)]
        assert [(m.span(), m.groupdict()) for m in scan.finditer(pattern)] == whole, pattern.pattern[:40]


@given(digit_texts)
@FAST
def test_digit_regions_cover_each_digit_line_and_three_more(text: str) -> None:
    regions = digit_regions(text)
    assert all(a[1] <= b[0] for a, b in zip(regions, regions[1:], strict=False))
    lines = text.split("\n")
    pos = 0
    for i, line in enumerate(lines):
        if any(c in "0123456789" for c in line):
            reach_end = sum(len(x) + 1 for x in lines[: i + 4])
            assert any(s <= pos and min(reach_end, len(text)) <= e for s, e in regions)
        pos += len(line) + 1


# --- street pattern --------------------------------------------------------------------------

# STREET as it was before its look-ahead for names without a prefix (same matches, slower).
_OLD_STREET = re.compile(
    r"(?=[A-ZÄÖÜ0-9])(?:"
    r"(?<![\w-])(?P<s>(?:(?:Am|Im|Zum|Zur|An[ \t]de[mnr]|Auf[ \t]de[mnr]|In[ \t]de[mnr]|Unter[ \t]den)[ \t]+)?"
    r"[A-ZÄÖÜ][\w.-]*[^\W\d_]\.?)[ \t]+(?P<n>[0-9]{1,4}[a-z]?)"
    r"(?=(?:[ \t]*[,·|])?[ \t]*\n?[ \t]*(?:D-)?[0-9]{5},?[ \t]+[A-ZÄÖÜ])"
    rf"|(?<![\w.,-])(?P<en>[0-9]{{1,4}}[a-z]?)[ \t]+(?P<e>(?:[A-Z][\w'-]*[ \t]+){{1,3}}(?:{P._alt(P._STREET_TYPES)})(?!\w)"
    rf"|[A-Z][\w'-]*(?:[ \t]+[A-Z][\w'-]*){{0,2}}(?=[ \t]*,[ \t]*{P._POSTCODE_EN}[ \t,]+[A-Z])))"
)
_STREET_PIECES = st.one_of(
    st.sampled_from([" ", "  ", "\t", "\n", ", ", ",", ".", "-", "·", "|", "'", "D-", "Str.", "str.", "straße", "Am ",
                     "An den ", "Auf dem ", "In der ", "Unter den ", "Zur ", "Im ", "Road", "Street", "Hill", "St.",
                     "Rd.", "EC1A 1BB", "NY 10001", "1234 AB", "D02 X285"]),
    st.sampled_from(["Garten", "Alte", "Post", "York", "High", "Ä", "Ö", "Übel", "A", "B", "x", "é", "_", "ß"]),
    st.integers(0, 999999).map(str),
    st.sampled_from(["a", "b", "12a", "54", "66111", "86150", "8"]),
)
_BLANKS = st.sampled_from(["", " ", "  ", "\t", " \n", "\n"])
# Near-addresses: each part may be missing, doubled or odd, so that most of them almost match.
_ADDRESS = st.tuples(
    st.sampled_from(["", "Am ", "An den ", "Unter  den ", "Zur", "12 ", "7  "]),
    st.sampled_from(["Gartenstraße", "Alte Post", "York", "High", "Übel-Weg", "Str.", "A", "x", "Castle", "3B"]),
    _BLANKS, st.sampled_from(["54", "12a", "1234", "12345", "", "Street", "Rd"]),
    st.sampled_from(["", ",", " ·", "|", ", "]), _BLANKS, st.sampled_from(["D-", "", "0"]),
    st.sampled_from(["66111", "8615", "EC1A 1BB", "NY 10001", ""]), st.sampled_from(["", ","]), _BLANKS,
    st.sampled_from(["Saarbrücken", "London", "a", "Ö"]),
).map("".join)
street_texts = st.lists(st.one_of(_STREET_PIECES, _ADDRESS), max_size=12).map("".join)


def _street_matches(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], dict[str, str | None]]]:
    return [(m.span(), m.groupdict()) for m in pattern.finditer(text)]


@given(street_texts)
@FAST
def test_street_pattern_finds_what_it_found_before_its_lookahead(text: str) -> None:
    assert _street_matches(P.STREET, text) == _street_matches(_OLD_STREET, text)


def test_street_pattern_examples() -> None:
    text = ("Gartenstraße 54, 66111 Saarbrücken\nAm Stadtgraben 128\n86150 Augsburg\n12 High Street\n"
            "195 York Rd, EC1A 1BB London\nFriedrich-Ebert-Str. 7 · 10115 Berlin\nUnter den Linden 5, 10117 Berlin")
    assert _street_matches(P.STREET, text) == _street_matches(_OLD_STREET, text)
    assert len(_street_matches(P.STREET, text)) == 6


# --- service numbers ---------------------------------------------------------------------------

_SERVICE_PIECES = st.one_of(
    st.sampled_from(["Flight", "FLIGHT", "flıght", "Flug", "fLUG", "Zug", "Bezug", "zug", "Train", "TRAİN", "ICE", "IC",
                     "EC", "RE", "RB", "TGV", "EN", "NJ", "XICE", "no", "Nr.", "number", "Nummer", ":", "_", "-"]),
    st.sampled_from([" ", "  ", "\t", "\n", ""]),
    st.sampled_from(["LH", "XB", "A3", "4U", "FR", "L", "x"]),
    st.integers(0, 123456).map(str),
)
service_texts = st.lists(_SERVICE_PIECES, max_size=30).map("".join)


@given(service_texts)
@FAST
def test_service_start_finds_every_service_match(text: str) -> None:
    scan = _Scan(text)
    expected = [(m.span(), m.groupdict()) for m in scan.finditer(_SERVICE)]
    assert [(m.span(), m.groupdict()) for m in _service_matches(scan)] == expected


def test_service_start_case_folding_assumption() -> None:
    # _SERVICE_START spells the first letters f/F, z/Z, t/T: no other character matches them under (?i)
    for letter in "fzt":
        folded = re.compile(f"(?i:{letter})")
        assert [c for c in map(chr, range(0x110000)) if folded.fullmatch(c)] == [letter.upper(), letter]


# --- route codes -------------------------------------------------------------------------------

_CODE_PIECES = st.one_of(
    st.sampled_from(["FRA", "JFK", "LON", "BSK", "EUR", "AB", "ABCD", "x", "é", "_", "1"]),
    st.sampled_from([" ", "\t", "-", " - ", "--", "\n", "-\n", ""]),
)


@given(st.lists(_CODE_PIECES, max_size=30).map("".join))
@FAST
def test_route_codes_in_hyphen_lines_are_the_route_codes_of_the_text(text: str) -> None:
    expected = [(m.span(), m.groupdict()) for m in P.ROUTE_CODES.finditer(text)]
    assert [(m.span(), m.groupdict()) for m in _route_codes(text)] == expected


def test_month_lookahead_class_holds_every_first_letter_of_a_month() -> None:
    # DATE_DMY_TEXT's look-ahead names the letters a month (or "of") can start with: each letter
    # that the tolerant spelling of a month's first letter can start with ("rn" for "m").
    starts = {name[0] for names in P.MONTHS for name in names} | {"o"}
    first = {c for c in map(chr, range(0x3000)) for s in starts for n in "nN" if re.match(P.tolerant(s), c + n)}
    assert {c for c in first if c.isalpha()} == set("jJfFmMrRaAsSoOnNdD")
