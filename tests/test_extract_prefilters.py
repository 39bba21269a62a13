"""The shortcuts of :mod:`paperless_dedupe_hook.core.extract` find what the plain scans find.

Extraction skips work with cheap tests (a regex of trigger words instead of a loop over all
words, ...).  Each test here states one shortcut as "fast == slow" over generated texts
built from the characters and words that matter to it.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import _patterns as P
from paperless_dedupe_hook.core import _route_patterns as R
from paperless_dedupe_hook.core import _triggers, languages
from paperless_dedupe_hook.core._places import SERVICE as _SERVICE
from paperless_dedupe_hook.core._places import SERVICE_FIRST_LETTERS as _SERVICE_FIRST_LETTERS
from paperless_dedupe_hook.core._places import route_codes as _route_codes
from paperless_dedupe_hook.core._places import service_matches as _service_matches
from paperless_dedupe_hook.core._scan import Scan as _Scan
from paperless_dedupe_hook.core._triggers import ID_LABELS_BY_KEY, TRIGGERS, digit_regions, prepare_and_digits
from paperless_dedupe_hook.core.extract import DIGIT_LED as _DIGIT_LED
from paperless_dedupe_hook.core.extract import _words

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
    """``trigger_words`` once the process has extracted enough documents to compile the regex."""
    _triggers._extracted = itertools.count(_triggers.LOOP_DOCUMENTS)
    return _triggers.trigger_words(low)


@given(texts)
@FAST
def test_trigger_word_regex_finds_the_words_whose_key_is_a_trigger(text: str) -> None:
    try:
        assert _fast_trigger_words(text) == _slow_trigger_words(text)
        low = text.lower()
        assert _fast_trigger_words(low) == _slow_trigger_words(low)
    finally:
        _triggers._extracted = itertools.count()


def test_a_process_compiles_the_trigger_regex_only_after_many_documents() -> None:
    """The hook extracts one document: the ~10 ms compile would cost more than the loop saves."""
    _triggers.trigger_word_regex.cache_clear()
    _triggers._extracted = itertools.count()
    looped = [_triggers.trigger_words("rechnung 1 re") for _ in range(_triggers.LOOP_DOCUMENTS)]
    assert _triggers.trigger_word_regex.cache_info().currsize == 0
    assert _triggers.trigger_words("rechnung 1 re") == looped[0] == [(0, "rech"), (11, "re")]
    assert _triggers.trigger_word_regex.cache_info().currsize == 1


def test_trigger_word_regex_on_examples() -> None:
    low = "rechnungsnummer: 1; re 5 rex ab-ab\nbill²von über jän. 1nvoice ü"
    assert _fast_trigger_words(low) == _slow_trigger_words(low)
    _triggers._extracted = itertools.count()
    assert [key for _, key in _slow_trigger_words(low)] == ["rech", "re", "ab", "ab", "bill", "nvoi"]  # "²" is a letter to \w


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

# STREET as it was before its look-ahead for names without a prefix (same matches, slower), with
# what issue 25 changed on purpose: specks after the house number, three letters at least in a
# name without a prefix.
_OLD_STREET = re.compile(
    r"(?=[A-ZÄÖÜ0-9])(?:"
    r"(?<![\w-])(?P<s>(?:(?:Am|Im|Zum|Zur|An[ \t]de[mnr]|Auf[ \t]de[mnr]|In[ \t]de[mnr]|Unter[ \t]den)[ \t]+"
    r"|(?=[A-ZÄÖÜ][^\W\d_]{2}))"
    r"[A-ZÄÖÜ][\w.-]*[^\W\d_]\.?)[ \t]+(?P<n>[0-9]{1,4}[a-z]?)"
    r"(?=(?:[ \t]*[,·|])?(?:[ \t]+[^\w\s]{1,4})?[ \t]*\n?[ \t]*(?:D-)?[0-9]{5},?[ \t]+[A-ZÄÖÜ])"
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

_SERVICE_WORDS = list(languages.merged("service_words"))
_TRAIN_CODES = list(languages.merged("train_codes"))
_SERVICE_PIECES = st.one_of(
    st.sampled_from(["Flight", "FLIGHT", "flıght", "Flug", "fLUG", "Zug", "Bezug", "zug", "Train", "TRAİN", "ICE", "IC",
                     "EC", "RE", "RB", "TGV", "EN", "NJ", "XICE", "no", "Nr.", "number", "Nummer", ":", "_", "-"]),
    # every language's service words (as written, capitalised, upper case) and train codes (and their tails)
    st.sampled_from([v for w in _SERVICE_WORDS for v in (w, w.capitalize(), w.upper(), "x" + w)]),
    st.sampled_from([v for c in _TRAIN_CODES for v in (c, c[1:], c.lower())]),
    st.sampled_from(list(languages.merged("id_suffixes")) + list(languages.merged("id_suffixes_dotted"))),
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


@pytest.mark.parametrize("letter", sorted({c.lower() for c in _SERVICE_FIRST_LETTERS}))
def test_service_start_case_folding_assumption(letter: str) -> None:
    # _SERVICE_START spells a service word's first letter in both cases: no other character may match
    # it under (?i), as SERVICE reads it (not so for "i", "k" or "s": "ı", "K" and "ſ" match them too;
    # a language with a service word that starts so needs those in _places._SERVICE_START)
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
    expected = [(m.span(), m.groupdict()) for m in R.ROUTE_CODES.finditer(text)]
    assert [(m.span(), m.groupdict()) for m in _route_codes(text)] == expected


@pytest.mark.parametrize("number,names", [pytest.param(i + 1, names, id=names[0]) for i, names in enumerate(P.MONTHS)])
def test_every_month_word_of_every_language_passes_the_look_ahead_and_is_looked_up(number: int, names: tuple[str, ...]) -> None:
    # DATE_DMY_TEXT's look-ahead names the letters a month word (or a connector) can start with:
    # a month whose first letter it lacked would never be read, in any spelling OCR makes of it.
    for name in names:
        for spelling in {name, name.upper(), name.capitalize(), name.replace("m", "rn"), name.replace("o", "0")}:
            m = P.DATE_DMY_TEXT.search(f"am 5 {spelling} 2024")
            assert m is not None and P.month_of(m) == number, spelling


# --- labelled identifiers, one label at a time --------------------------------------------------

_WHOLE_ID = re.compile(P.ID_SOURCE)  # all labels in one alternation, as extraction used them before
_LABEL_LITERALS = sorted({w for words in (*P.ID_STEMS.values(), *P.ID_WORDS.values(), P.ID_SUFFIXES) for w in words})


def _ocr(word: str) -> st.SearchStrategy[str]:
    """``word`` as OCR may deliver it: in any case, with m as rn, l or i as 1 or |, o as 0, no umlauts."""
    variants = [word, word.upper(), word.capitalize(), word.replace("m", "rn"), word.replace("l", "1"),
                word.replace("i", "|"), word.replace("o", "0"), word.replace("ü", "ue").replace("ä", "a"),
                word.replace(" ", "").replace("-", "").replace(".", "")]
    return st.sampled_from(variants)


_ID_PIECES = st.one_of(
    st.sampled_from(_LABEL_LITERALS).flatmap(_ocr),
    st.sampled_from([" ", "", "-", ".", ":", "#", "/", "\n", ": ", " Nr. ", "No.", "nummer"]),
    st.sampled_from(["12345", "A1-77", "2024/11", "3 O 123/24", "DE123", "x9", "0815"]),
    st.sampled_from(["a", "ab", "und", "the", "é", "_", "1"]),
)
id_texts = st.lists(_ID_PIECES, max_size=30).map("".join)


def _id_matches(text: str, one_label_at_a_time: bool) -> list[tuple[object, ...]]:
    scan = _Scan(*prepare_and_digits(text))
    _words(scan)
    out: list[tuple[object, ...]] = []
    for pos, key in zip(scan.starts.get("id", ()), scan.id_keys, strict=True):
        if one_label_at_a_time:
            found = next(((m, label) for label in ID_LABELS_BY_KEY.get(key, ())
                          if (m := P.id_pattern(label).match(scan.text, pos)) is not None), None)
        else:
            m = _WHOLE_ID.match(scan.text, pos)
            found = None if m is None else (m, next(n for n in P.ID_LABELS if m["L_" + n] is not None))
        if found is not None:
            out.append((pos, found[0].span(), found[0]["az"], found[0]["v"], found[1]))
    return out


@given(id_texts)
@FAST
def test_labels_tried_one_by_one_where_their_words_start_find_what_the_alternation_finds(text: str) -> None:
    assert _id_matches(text, True) == _id_matches(text, False)


def test_labels_one_by_one_on_examples() -> None:
    text = "KdNr 12345, Kd.-Nr.: 7, UstId DE123456789, Rechnungsnummer 2024/11, Our Ref. A1-77, Az. 3 O 123/24"
    found = _id_matches(text, True)
    assert found == _id_matches(text, False)
    # ("KdNr" opens no trigger word: "kdnr" is no key, either way)
    assert [f[-1] for f in found] == ["customer", "tax", "invoice", "case", "case", "case"]


def test_the_label_table_equals_its_plain_construction() -> None:
    """ID_LABELS_BY_KEY looks at each literal's first five characters and joins the number word
    on only after short stems; built from every stem with every number word it is the same."""
    keys: dict[str, set[str]] = {}
    for label in P.ID_LABELS:
        literals = [f"{s}-{x}" for s in P.ID_STEMS[label] for x in P.ID_SUFFIXES] + list(P.ID_WORDS.get(label, ()))
        for literal in literals:
            for opening in _triggers._openings(literal):
                for key in _triggers._keys_of(opening):
                    keys.setdefault(key, set()).add(label)
    plain = {k: tuple(x for x in P.ID_LABELS if x in v) for k, v in keys.items() if "id" in TRIGGERS.get(k, ())}
    assert plain == ID_LABELS_BY_KEY
    assert {k for k, v in TRIGGERS.items() if "id" in v} == set(ID_LABELS_BY_KEY)


def test_the_kept_trigger_tables_are_the_ones_the_literals_make() -> None:
    """core/_trigger_tables.py holds TRIGGERS and ID_LABELS_BY_KEY so that no process builds
    them at its start; a changed literal in _patterns must be followed by the file."""
    from paperless_dedupe_hook.core import _trigger_tables, _triggers

    kept = Path(_trigger_tables.__file__).read_text(encoding="utf-8")
    assert kept == _triggers.table_source(), (
        "core/_trigger_tables.py is stale: python -c \"from paperless_dedupe_hook.core._triggers import "
        "table_source; print(table_source(), end='')\" > paperless_dedupe_hook/core/_trigger_tables.py")
    assert TRIGGERS == _triggers._triggers()
    assert ID_LABELS_BY_KEY == _triggers._id_labels_by_key(_triggers._triggers())
