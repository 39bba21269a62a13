"""The shortcuts of :func:`paperless_dedupe_hook.core.text.normalize` give the plain version's text.

normalize() skips work with cheap tests (control characters found in the UTF-8 bytes, mail
headers searched after line breaks, a Latin-1 text folded by one byte table); each test
here states one shortcut as "fast == plain" over generated texts built from the characters
that matter to it.  A changed output would need a new NORMALIZER_VERSION.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import features, minhash, text
from tests.tooling import missing

FAST = settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)


def _plain_normalize(value: str) -> str:
    """normalize() before the shortcuts (NORMALIZER_VERSION 4), step by step."""
    if not value:
        return ""
    value = text._CONTROL.sub(" ", value)
    if ":" in value:
        if "\n--" in value:
            value = text.strip_signature(value)
        value = text._MAIL_HEADER.sub(" ", value)
    if "-\n" in value or "-\r" in value or "- " in value or "-\t" in value:
        value = text._join_hyphenated(value)
    value = unicodedata.normalize("NFKC", value)
    for symbol, word in text._SYMBOLS:
        value = value.replace(symbol, word)
    value = value.casefold()
    if not value.isascii():
        value = text._COMBINING.sub("", unicodedata.normalize("NFKD", value))
    if value.isascii():
        return " ".join(value.translate(text._ASCII_BLANKS).split())
    return " ".join("".join(ch if ch.isalnum() else " " for ch in value).split())


_LATIN1 = [chr(c) for c in range(256)]


def test_every_latin1_pair_as_the_plain_version() -> None:
    # Characters interact only with their neighbour (a decomposed mark after its base), so
    # all pairs of Latin-1 characters cover the byte table, upper case and "ß" included.
    bad = [a + b for a in _LATIN1 for b in _LATIN1 if text.normalize(a + b) != _plain_normalize(a + b)]
    assert bad == []


def test_non_alnum_outside_ascii_is_what_backslash_w_does_not_match() -> None:
    # _NON_ASCII_NON_ALNUM relies on \w being str.isalnum() or "_" for every code point.
    bad = [c for c in range(0x80, 0x110000)
           if (text._NON_ASCII_NON_ALNUM.match(chr(c)) is None) != chr(c).isalnum()]
    assert bad == []


_PIECES = st.one_of(
    st.sampled_from(_LATIN1),
    st.sampled_from(["€", "ℌ", "ﬁ", "İ", "ı", "ſ", "K", "中", "Ж", "ΣΑΣ", "ς", "\u0301", "\u0308", "\u05b0", "\u2013",
                     "\u2044", "\u00ad", "\u200b", "\ud800", "\U0001f600", "①", "٣", "Ⅻ", "ǅ", "ŉ", "ẞ"]),
    st.sampled_from(["\n", "\r\n", "\n-- \n", "\n--\n", "-\n", " :", ":", "> ", "\t", "From: a\n", "to:", "Betreff: x",
                     "ANTWORT AN :", "reply-to:", "\nCC:", "Von:\n", "sent", "\x0b", "\x0c", "\x00", "\x7f", "\x1f"]),
    st.text(max_size=3),
)
texts = st.lists(_PIECES, max_size=50).map("".join)


@given(texts)
@FAST
def test_normalize_as_the_plain_version(value: str) -> None:
    assert text.normalize(value) == _plain_normalize(value)
    upper = value.upper()
    assert text.normalize(upper) == _plain_normalize(upper)


_HEADER_PIECES = st.one_of(
    st.sampled_from(["\n", "\r\n", " ", "\t", ">", ":", "x", "From", "to", "TO", "cc", "Antwort an", "reply-to",
                     "betreff", "ſubject", "Kopie", "an", "\u212a", "\x0b"]),
    st.text(alphabet=" \t\n:>abcdefnorstu", max_size=4),
)


@given(st.lists(_HEADER_PIECES, max_size=40).map("".join))
@FAST
def test_mail_headers_from_the_first_candidate_line(value: str) -> None:
    assert text._strip_mail_headers(value) == text._MAIL_HEADER.sub(" ", value)


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("From: a\nTo: b\nhallo", id="header-first-line"),
        pytest.param("hallo\n> Von: a\nBetreff: b\n", id="header-after-break"),
        pytest.param("x\n\u212aopie: a", id="kelvin-sign-k-under-ignorecase"),
        pytest.param("Straße ½ µ ¼ ß", id="latin1-not-one-to-one"),
        pytest.param("ℌ €", id="upper-case-ascii-made-by-nfkd"),
        pytest.param("ℌ 中", id="upper-case-ascii-kept-beside-other-scripts"),
        pytest.param("a\x0bFrom: b", id="control-before-header"),
        pytest.param("\ud800 a", id="lone-surrogate"),
    ],
)
def test_shortcut_edges_as_the_plain_version(value: str) -> None:
    assert text.normalize(value) == _plain_normalize(value)


# --- features.compute: the folded text handed to the C kernel as one string --------------------


@given(texts, st.integers(1, 4))
@FAST
def test_signature_of_the_folded_text_as_of_its_words(value: str, size: int) -> None:
    params = features.FeatureParams(ngram_size=size, num_permutations=16)
    words = text.shingle_words(text.normalize(value))
    folded = text.fold_ocr(text.normalize(value))
    full, count = minhash.word_ngram_signature(folded, size=size, num_permutations=16, seed=params.seed)
    grams = text.shingles(words, kind="word", size=size)
    expected, expected_count = minhash.signature_numpy(grams, num_permutations=16, seed=params.seed), len(grams)
    assert (full.tolist(), count) == (expected.tolist(), expected_count)
    assert (folded.count(" ") + 1 if folded else 0) == len(words)


def test_compute_without_the_c_kernel_as_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    content = "Rechnung Nr. 12345 vom 01.02.2024\n" + " ".join(f"wort{i % 37} rn vv" for i in range(60))
    params = features.FeatureParams(ngram_size=2)
    if minhash._kernel is None:
        missing("the C signature kernel is not built: nothing to compare numpy with")
    assert minhash.KERNEL.startswith("c-")
    with_kernel = features.compute(1, content, params)
    monkeypatch.setattr(minhash, "_kernel", None)
    without = features.compute(1, content, params)
    assert with_kernel.signature is not None and without.signature is not None
    assert with_kernel.signature.tolist() == without.signature.tolist()
    assert (with_kernel.word_count, with_kernel.shingle_count) == (without.word_count, without.shingle_count)
