"""Normalization, OCR folding, shingles and samples (pure, property-tested)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import features, text


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param("Müller Straße", "muller strasse", id="umlaut-and-eszett"),
        pytest.param("1.234,56 €", "1 234 56 eur", id="euro"),
        pytest.param("Ver-\n  trag", "vertrag", id="hyphenation"),
        pytest.param("ÄÖÜ äöü", "aou aou", id="capital-umlauts"),
        pytest.param("ﬁnal", "final", id="ligature"),
        pytest.param("a\x00b\x07c", "a b c", id="control-chars"),
        pytest.param("東京 שלום", "東京 שלום", id="cjk-and-hebrew-kept"),
        pytest.param("", "", id="empty"),
        pytest.param("  \n\t ", "", id="whitespace"),
    ],
)
def test_normalize(raw: str, expected: str) -> None:
    assert text.normalize(raw) == expected


_MAIL = "Von: Anna <a@x.de>\nAn: Ben <b@y.de>\nBetreff: Termin\n\nSehr geehrter Herr Ben,\nder Termin steht.\n"
_SIGNATURE = "-- \nAnna Muster\nMuster GmbH\nTel. +49 30 1234\n\nDiese E-Mail enthält vertrauliche Informationen.\n"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param(_MAIL + _SIGNATURE, "sehr geehrter herr ben der termin steht", id="mail-signature-dropped"),
        pytest.param(_MAIL + _SIGNATURE.replace("-- ", "--"), "sehr geehrter herr ben der termin steht",
                     id="delimiter-without-blank"),
        pytest.param("Rechnung\n-- \nPos 1\n", "rechnung pos 1", id="no-mail-header-kept"),
        pytest.param(_MAIL + "-- \n" + "Zeile\n" * 30, "sehr geehrter herr ben der termin steht" + " zeile" * 30,
                     id="long-tail-is-no-signature"),
        pytest.param(_MAIL + "a -- b\n", "sehr geehrter herr ben der termin steht a b", id="dashes-inside-a-line"),
    ],
)
def test_mail_signature(raw: str, expected: str) -> None:
    assert text.normalize(raw) == expected


def test_mail_signature_gives_no_tokens() -> None:
    body = _MAIL + "Der Betrag von 1.419,98 € wird gutgeschrieben. " + "Weitere Worte folgen hier. " * 5 + "\n"
    signature = "-- \nAnna Muster\nMuster GmbH\nSonnenhang 52 | 87435 Kempten\n"
    tokens = features.compute(1, body + signature, features.FeatureParams()).tokens
    assert "amount:141998" in tokens
    assert not any(t.startswith("street:") for t in tokens)


def test_lost_umlaut_and_ocr_confusions_fold_together() -> None:
    clean = text.shingle_words(text.normalize("Invoice Total Payment Müller"))
    noisy = text.shingle_words(text.normalize("lnvoice Tota1 Payrnent Muller"))
    assert clean == noisy


def test_word_and_char_shingles() -> None:
    words = ["the", "quick", "brown", "fox"]
    assert text.shingles(words, kind="word", size=3) == {b"the quick brown", b"quick brown fox"}
    assert text.shingles(["ab", "cd"], kind="char", size=3) == {b"abc", b"bcd"}
    assert text.shingles(["rech", "nung"], kind="char", size=4) == text.shingles(["rechnung"], kind="char", size=4)
    assert text.shingles(["one"], kind="word", size=3) == {b"one"}
    assert text.shingles([], kind="word", size=3) == set()
    with pytest.raises(ValueError, match="unknown shingle kind"):
        text.shingles(words, kind="line", size=3)


def test_fuzzy_samples_head_and_tail() -> None:
    assert text.fuzzy_samples("abc", 10) == ("abc", "abc")
    head, tail = text.fuzzy_samples("a" * 50 + "b" * 50, 20)
    assert head == "a" * 10 and tail == "b" * 10


@given(st.text())
def test_normalize_is_idempotent_and_clean(raw: str) -> None:
    once = text.normalize(raw)
    assert text.normalize(once) == once
    assert "  " not in once
    assert once == once.strip()
    assert all(ch.isalnum() or ch == " " for ch in once)


@given(st.lists(st.text(alphabet="abcxyz", min_size=1, max_size=6), max_size=30), st.integers(1, 5))
def test_word_shingle_count_bound(words: list[str], size: int) -> None:
    result = text.shingles(words, kind="word", size=size)
    assert len(result) <= max(1, len(words) - size + 1) if words else result == set()


def _reference_normalize(value: str) -> str:
    """normalize() as first written (regex substitution and split): the faster code
    must give the same text, or NORMALIZER_VERSION would have to change."""
    import re
    import unicodedata

    if not value:
        return ""
    value = text._CONTROL.sub(" ", value)
    if ":" in value:
        value = text._MAIL_HEADER.sub(" ", value)
    if "-" in value:
        value = re.sub(r"(\w)-[ \t]*\r?\n[ \t]*(\w)", r"\1\2", value)
    value = unicodedata.normalize("NFKC", value)
    for symbol, word in text._SYMBOLS:
        value = value.replace(symbol, word)
    value = value.casefold()
    if not value.isascii():
        value = text._COMBINING.sub("", unicodedata.normalize("NFKD", value))
    if value.isascii():
        return " ".join(re.split(r"[^0-9a-z]+", value)).strip()
    return " ".join("".join(ch if ch.isalnum() else " " for ch in value).split())


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1Z-- \t\r\n\n.:,€ßüÉ_ﬁ")), max_size=60))
def test_normalize_equals_the_reference(value: str) -> None:
    assert text.normalize(value) == _reference_normalize(value)


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("Ver-\ntrag", id="break"),
        pytest.param("a-\nb-\nc", id="chained-breaks"),
        pytest.param("a-\n\nb", id="blank-line-kept"),
        pytest.param("Ver- \r\n  trag und Miet-\tvertrag", id="blanks-around"),
        pytest.param("-\nstart", id="nothing-before"),
        pytest.param("x_-\n_y", id="underscore-is-a-word-char"),
    ],
)
def test_hyphenation_cases_equal_the_reference(value: str) -> None:
    assert text.normalize(value) == _reference_normalize(value)
