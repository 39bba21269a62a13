"""Short documents (under ``detection.min_words`` words), compared by a stricter rule, pure.

A note, a stamp, a warranty card has too few words for shingles and too few values for the
discriminative score: two of them from one template ("Parcel left at no. 439", "... at no.
441") differ in one value and agree on every word else.  So a short document is compared only
with another short one, and a pair is a duplicate when

* their OCR-folded texts (blanks removed, so that a word split or merged by OCR costs
  nothing) are nearly equal: rapidfuzz ratio >= :data:`MIN_TEXT_RATIO`, and
* their digits are the same sequence (every number, date, amount, serial and house number in
  the same order; look-alike letters inside a number read as digits, blanks and punctuation
  between digits ignored), and
* their identifiers (``id:``, ``iban:`` tokens) are the same where both have any.

The score is the text ratio when the rule holds, and the ratio times :data:`FAILED_FACTOR`
(always under any sensible threshold) when it does not.  The candidates come from the same LSH
index as long documents, from a signature of character 3-grams (:func:`shingle_set`): a short
document has a few dozen of them, enough for MinHash, where it has only a handful of words.
"""

from __future__ import annotations

from collections.abc import Collection

from rapidfuzz.fuzz import ratio

from . import _regex
from .extract import token_kind
from .text import fold_ocr, shingles

__all__ = ["MIN_TEXT_RATIO", "SHORT_MARK", "comparable_short", "digits", "is_short", "shingle_set", "short_score"]

#: The token that marks a short document's features (stored with its tokens, so that the index
#: needs no column of its own).  It has no ``kind:`` and never reaches the discriminative score.
SHORT_MARK = "~short"
#: Below this many words (or 8 characters) a text is not compared at all: an empty page, a lone word.
MIN_SHORT_WORDS = 2
MIN_SHORT_CHARS = 8
#: Chosen on the corpus of bench.corpus.real (docs/quality.md): OCR of a short note keeps 0.9+.
MIN_TEXT_RATIO = 0.90
FAILED_FACTOR = 0.3
CHAR_NGRAM = 3

_LOOK_ALIKE_IN_NUMBER = _regex.compile(r"(?<=[0-9])[olisbzg](?=[0-9])")
_DIGIT_OF = str.maketrans({"o": "0", "l": "1", "i": "1", "s": "5", "b": "8", "z": "2", "g": "6"})
_NOT_DIGIT = _regex.compile(r"[^0-9]+")


def is_short(tokens: Collection[str]) -> bool:
    return SHORT_MARK in tokens


def comparable_short(normalized: str, word_count: int) -> bool:
    """Whether a text under min_words has enough of itself to be compared: two words of three
    characters or more ("call me back", "paid 16 may 2020"; not OCR junk of lone letters)."""
    if word_count < MIN_SHORT_WORDS or len(normalized.replace(" ", "")) < MIN_SHORT_CHARS:
        return False
    return sum(1 for word in normalized.split() if len(word) >= 3) >= MIN_SHORT_WORDS


def shingle_set(folded: str) -> set[bytes]:
    """Character 3-grams of the OCR-folded text without blanks."""
    return shingles([folded.replace(" ", "")], kind="char", size=CHAR_NGRAM)


def digits(normalized: str) -> str:
    """Every digit of the text's numbers in order, look-alike letters between digits read as
    digits.  A word of letters with one stray digit ("model1", "parce1": an OCR ``l``) is no number."""
    folded = _LOOK_ALIKE_IN_NUMBER.sub(lambda m: m.group().translate(_DIGIT_OF), normalized)
    out = []
    for word in folded.split():
        found = _NOT_DIGIT.sub("", word)
        if found and (len(found) >= 3 or 2 * len(found) >= len(word)):
            out.append(found)
    return "".join(out)


def _identifiers(tokens: Collection[str]) -> set[str]:
    return {t for t in tokens if token_kind(t) in ("id", "iban")}


def short_score(text_a: str, text_b: str, tokens_a: Collection[str], tokens_b: Collection[str]) -> tuple[float, float, bool]:
    """(score, text ratio, whether the rule holds) of two short documents' normalized texts."""
    folded_a, folded_b = fold_ocr(text_a).replace(" ", ""), fold_ocr(text_b).replace(" ", "")
    similar = ratio(folded_a, folded_b) / 100.0
    ids_a, ids_b = _identifiers(tokens_a), _identifiers(tokens_b)
    holds = (similar >= MIN_TEXT_RATIO and digits(text_a) == digits(text_b)
             and (not ids_a or not ids_b or ids_a == ids_b))
    return (similar if holds else similar * FAILED_FACTOR), similar, holds
