"""Text preparation: normalization, OCR-confusion folding, shingles, samples.

Pure functions, values in and values out.  ``NORMALIZER_VERSION`` goes into the
index's meta table: change it whenever the output of ``normalize`` or ``shingles``
changes for some input, so that an old index is rejected instead of silently
compared with signatures of a different text representation.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from . import _regex

NORMALIZER_VERSION = "4"

SHINGLE_KINDS = ("word", "char")

# Currency signs carry meaning for humans but are one character wide; spell them so
# that "€ 12,50" and "12,50 EUR" share shingles.
_SYMBOLS = (("€", " eur "), ("$", " usd "), ("£", " gbp "), ("§", " par "), ("%", " pct "))
# A word broken at a line end by hyphenation ("Ver-\ntrag") is one word again.  The
# pattern opens with the hyphen, so that the regex engine can skip to hyphens; the
# letter before it is checked in _join_hyphenated.
_HYPHEN_BREAK = _regex.compile(r"-[ \t]*\r?\n[ \t]*(?=\w)")
_WORD_CHAR = _regex.compile(r"\w")
# ASCII punctuation and blanks to spaces (str.translate has a fast path for ASCII).
_ASCII_BLANKS = str.maketrans({chr(c): " " for c in range(128) if not chr(c).isdigit() and not "a" <= chr(c) <= "z"})
_COMBINING = _regex.compile(r"[\u0300-\u036f]")
_NON_ASCII_NON_ALNUM = _regex.compile(r"[^\x00-\x7f\w]")
_ASCII_NON_ALNUM = str.maketrans({chr(c): " " for c in range(128) if not chr(c).isalnum()})


def _latin1_word_char(byte: int) -> str:
    """What _fold_and_blank makes of the Latin-1 character ``byte``."""
    text = _COMBINING.sub("", unicodedata.normalize("NFKD", chr(byte).casefold()))
    return "".join(ch if ch.isalnum() else " " for ch in text)


# _fold_and_blank of a Latin-1 text, byte by byte: case folding, NFKD and the blanks work
# character by character, and NFKD's reordering of combining marks has nothing to reorder
# (a Latin-1 character decomposes to one base and at most one mark, which is dropped).  Five
# characters do not map to one Latin-1 character: "ß" (to "ss", replaced before), "µ" (to
# Greek "μ") and "¼", "½", "¾" (to "1 4" ...; NFKC leaves none of these four).
_LATIN1_WORD_CHARS = bytes(
    ord(ch) if len(ch := _latin1_word_char(b)) == 1 and ord(ch) < 256 else b for b in range(256)
)
_LATIN1_NOT_ONE_TO_ONE = tuple(
    bytes([b]) for b in range(256) if b != 0xDF and (len(ch := _latin1_word_char(b)) != 1 or ord(ch) > 255)
)
# Transport header lines of a mail ("From: ...", "Betreff: ...") belong to the delivery,
# not to the letter: the same letter scanned from paper has none of them.
_MAIL_HEADER_NAMES = r"[ \t>]*(?:from|to|cc|bcc|sent|subject|reply-to|von|an|gesendet|betreff|kopie|antwort an)[ \t]*:"
_MAIL_HEADER = _regex.compile(r"^" + _MAIL_HEADER_NAMES + ".*$", re.IGNORECASE | re.MULTILINE)
# The same after a line break: "^" under MULTILINE makes the regex engine try every position
# of the text, a leading "\n" lets it skip to line breaks (a third of the time).
_MAIL_HEADER_AFTER_BREAK = _regex.compile(r"\n(?i:" + _MAIL_HEADER_NAMES + ")")
# A mail signature opens with the "-- " line (RFC 3676) and holds the sender's contact block
# and legal disclaimer, which the same letter on paper does not have.  Only in a text that
# has mail header lines, and only when a short tail follows (a stray "--" in a scanned page
# is not a signature).
_SIG_DELIMITER = _regex.compile(r"^--[ \t]?\r?$", re.MULTILINE)
MAX_SIGNATURE_LINES = 20
_CONTROL = _regex.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# The same characters as bytes: in UTF-8 a byte below 0x80 is that ASCII character and no part
# of another, and bytes.translate tells whether there is one 3x faster than the regex's scan.
_CONTROL_BYTES = bytes(c for c in range(128) if _CONTROL.match(chr(c)))

# OCR confuses glyphs that look alike.  Folding both sides onto one representative
# costs almost nothing in precision (all documents are folded alike) and keeps a
# re-scan's "lnvoice Tota1 Payrnent" in the same shingles as "Invoice Total Payment".
_OCR_CHARS = str.maketrans({"1": "l", "i": "l", "j": "l", "0": "o", "5": "s", "8": "b", "6": "b"})
_OCR_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"), ("ii", "u"))


def normalize(text: str) -> str:
    """Lower-case, accent-free, punctuation-free text with single spaces.

    Umlauts lose their dots (``Müller`` and the OCR's ``Muller`` agree), ``ß``
    becomes ``ss`` and compatibility forms (ligatures, full-width digits) their
    plain letters.  Scripts without Latin letters (CJK, Arabic, Hebrew) are kept
    as letters, not dropped, so such documents still have words.
    """
    if not text:
        return ""
    raw = text.encode("utf-8", "surrogatepass")
    if len(raw.translate(None, _CONTROL_BYTES)) != len(raw):
        text = _CONTROL.sub(" ", text)
    if ":" in text:
        if "\n--" in text:
            text = strip_signature(text)
        text = _strip_mail_headers(text)
    if "-\n" in text or "-\r" in text or "- " in text or "-\t" in text:
        text = _join_hyphenated(text)
    text = unicodedata.normalize("NFKC", text)
    # str.replace per symbol is ~10x faster than str.translate with a dict on
    # non-ASCII text, and most documents hold none or one of these symbols.
    for symbol, word in _SYMBOLS:
        if symbol in text:
            text = text.replace(symbol, word)
    try:
        latin1 = text.encode("latin-1")
    except UnicodeEncodeError:
        return _fold_and_blank(text)
    # All of the text is Latin-1 (most documents): _fold_and_blank character by character,
    # as one byte table (see _LATIN1_WORD_CHARS).
    if b"\xdf" in latin1:
        latin1 = latin1.replace(b"\xdf", b"ss")
    if any(byte in latin1 for byte in _LATIN1_NOT_ONE_TO_ONE):
        return _fold_and_blank(text)
    return " ".join(latin1.translate(_LATIN1_WORD_CHARS).decode("latin-1").split())


def _fold_and_blank(text: str) -> str:
    """The second half of :func:`normalize`: case folded, accents off, a blank for each
    character that is not a letter or digit, single blanks between the words."""
    text = text.casefold()
    if not text.isascii():
        text = _COMBINING.sub("", unicodedata.normalize("NFKD", text))
        if not text.isascii():
            # What is left of other scripts: a blank for each character that is not alnum
            # (exactly the ones \w does not match, "_" being ASCII), then the ASCII ones by
            # table; upper-case ASCII letters stay (NFKD makes "H" of "ℌ"), as ch.isalnum() says.
            text = _NON_ASCII_NON_ALNUM.sub(" ", text)
            return " ".join(text.translate(_ASCII_NON_ALNUM).split())
    # (upper-case ASCII letters, which only NFKD can make here, become blanks: as always)
    return " ".join(text.translate(_ASCII_BLANKS).split())


def _strip_mail_headers(text: str) -> str:
    """``_MAIL_HEADER.sub(" ", text)``, from the first line that can match on."""
    if _MAIL_HEADER.match(text) is not None:
        return _MAIL_HEADER.sub(" ", text)
    first = _MAIL_HEADER_AFTER_BREAK.search(text)
    if first is None:
        return text
    start = first.start() + 1  # a line start: "^" matches there in the slice as in the text
    return text[:start] + _MAIL_HEADER.sub(" ", text[start:])


def _join_hyphenated(text: str) -> str:
    r"""Remove each hyphen-line-break between two word characters, as
    ``re.sub(r"(\w)-[ 	]*
?
[ 	]*(\w)", r"")`` does: a word character that
    ended one such break does not start the next ("a-
b-
c" gives "ab-
c")."""
    pieces: list[str] = []
    last = 0  # end of the text copied so far
    taken = -1  # the word character that ended the previous joined break
    for m in _HYPHEN_BREAK.finditer(text):
        before = m.start() - 1
        if before < 0 or before == taken or not _WORD_CHAR.match(text, before):
            continue
        pieces.append(text[last : m.start()])
        last = taken = m.end()
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


def strip_signature(text: str) -> str:
    """``text`` without the signature after its last "-- " line, when it is a mail's."""
    if "\n--" not in text:
        return text
    delimiters = list(_SIG_DELIMITER.finditer(text))
    if not delimiters or text.count("\n", delimiters[-1].end()) > MAX_SIGNATURE_LINES:
        return text
    last = delimiters[-1]
    head = text[: last.start()]
    headers = _MAIL_HEADER.finditer(head)
    if next(headers, None) is None or next(headers, None) is None:
        return text
    return head


def fold_ocr(normalized: str) -> str:
    """Map look-alike glyphs onto one representative (applied to both sides).

    Works on a whole normalized text at once: its words are separated by single
    spaces, so no replaced pair can span two words.
    """
    for pair, single in _OCR_PAIRS:
        normalized = normalized.replace(pair, single)
    return normalized.translate(_OCR_CHARS)


def shingle_words(normalized: str, *, fold: bool = True) -> list[str]:
    """The words that shingles are built from: OCR-folded unless ``fold`` is off."""
    return (fold_ocr(normalized) if fold else normalized).split()


def word_count(text: str) -> int:
    """How many words ``normalize(text)`` has (the ``min_words`` filter uses it)."""
    return len(normalize(text).split())


def shingles(words: Sequence[str], *, kind: str, size: int) -> set[bytes]:
    """The shingle set of a document, as UTF-8 bytes ready for hashing.

    ``kind="word"``: overlapping ``size``-word n-grams (the seed's default, size 3).
    ``kind="char"``: overlapping ``size``-character n-grams of the text with all
    spaces removed, so split and merged words ("Rech nung", "derVertrag") give the
    same shingles.  Texts shorter than one shingle give one shingle of all they have,
    empty text gives the empty set.
    """
    if size < 1:
        raise ValueError(f"shingle size must be >= 1, got {size}")
    seq = words
    if not seq:
        return set()
    if kind == "word":
        if len(seq) <= size:
            return {" ".join(seq).encode()}
        # map/zip instead of a comprehension over slices: the same n-grams, 30 % faster
        # (the shifted copies differ in length on purpose: zip stops at the last n-gram).
        return set(map(str.encode, map(" ".join, zip(*(seq[k:] for k in range(size)), strict=False))))
    if kind == "char":
        joined = "".join(seq)
        if len(joined) <= size:
            return {joined.encode()}
        if joined.isascii():  # one byte per character: slice the encoded text once
            raw = joined.encode()
            return {raw[i : i + size] for i in range(len(raw) - size + 1)}
        return {joined[i : i + size].encode() for i in range(len(joined) - size + 1)}
    raise ValueError(f"unknown shingle kind {kind!r}; use one of {', '.join(SHINGLE_KINDS)}")


def fuzzy_samples(normalized: str, size_chars: int) -> tuple[str, str]:
    """Head and tail of the text that the fuzzy score compares, together at most
    ``size_chars`` characters; a text that fits is its own head and tail.

    Comparing heads and tails separately (and keeping the better) lets a copy with a
    cover sheet (same tail) or missing its last page (same head) score like a copy,
    where one ratio over the first N characters would see two different texts.
    """
    if size_chars <= 0:
        return "", ""
    if len(normalized) <= size_chars:
        return normalized, normalized
    half = size_chars // 2
    return normalized[:half], normalized[len(normalized) - half :]
