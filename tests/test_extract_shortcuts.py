"""More shortcuts of the extraction: each one against the plain code it replaces.

(:mod:`tests.test_extract_prefilters` has the earlier ones, in the same style.)
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import _patterns as P
from paperless_dedupe_hook.core import _triggers as T
from paperless_dedupe_hook.core._scan import Scan as _Scan
from paperless_dedupe_hook.core._triggers import digit_regions, digit_regions_at

FAST = settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)

# Digits, letters that prepare() folds into digits, line breaks (all the ways), odd characters.
_PIECES = st.one_of(
    st.sampled_from(["\n", "\n\n", "\n\n\n", "\n\n\n\n", "\r\n", "\r", " \n ", "\x0c", "\x85", "\u2028", "-\n"]),
    st.sampled_from([" ", "\t", ".", ",", "/", "-", ":", "'", "€", "O", "l", "I", "S", "B", "|", "!", "Z", "g", "é",
                     "\u00a0", "\u00ad", "\u0130", "\u2013", "\x00", "\x7f", "Jan", "Nr. ", "٣", "²", "ß"]),
    st.integers(0, 99999).map(str),
    st.sampled_from(["2O26", "l2.50", "1.234,S6", "O532", "GB3b94", "31.0l.2024", "INV-2O26-1047"]),
    st.text(alphabet="abcXYZ", max_size=4),
)
texts = st.lists(_PIECES, max_size=60).map("".join)


@given(texts)
@FAST
def test_prepare_and_its_digit_regions_as_the_plain_ones(text: str) -> None:
    prepared, digits = T.prepare_and_digits(text)
    assert prepared == T.prepare(text)
    assert digits == sorted(digits)
    assert digit_regions_at(prepared, digits) == digit_regions(prepared)
    assert T._has_odd_chars(text) == (P.ODD_CHARS.search(text) is not None)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("1", id="one-digit"),
        pytest.param("1\na\nb\nc\nd\n2", id="digit-after-four-lines"),
        pytest.param("1\na\nb\nc\n2", id="digit-on-the-third-line-after"),
        pytest.param("1\na\nb\nc\n", id="ends-after-the-reach"),
        pytest.param("a\n\n1\n\n\n", id="ends-within-the-reach"),
        pytest.param("x 2O26 y\n\nO 3", id="folded"),
    ],
)
def test_digit_regions_at_edges(text: str) -> None:
    prepared, digits = T.prepare_and_digits(text)
    assert digit_regions_at(prepared, digits) == digit_regions(prepared)


def test_odd_characters_found_as_the_regex_finds_them() -> None:
    # prepare() runs ODD_CHARS.sub only where _has_odd_chars says (the Latin-1 bytes, or the regex).
    for c in map(chr, range(0x3100)):
        assert T._has_odd_chars("ab" + c) == (P.ODD_CHARS.search(c) is not None), hex(ord(c))
        assert T._has_odd_chars("€" + c) == (P.ODD_CHARS.search(c) is not None), hex(ord(c))


def test_latin1_lower_case_as_str_lower() -> None:
    every = "".join(map(chr, range(256)))
    assert T.lower(every) == every.lower()
    assert T.lower(every + "İΣ") == (every + "İΣ").lower()


@given(texts)
@FAST
def test_scan_with_digits_as_without(text: str) -> None:
    prepared, digits = T.prepare_and_digits(text)
    assert _Scan(prepared, digits).regions == _Scan(prepared).regions
