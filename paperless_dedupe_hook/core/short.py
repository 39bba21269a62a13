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

Real re-scans of short notes (issue 25) break "the same digits in order" and the text ratio in
three ways that the rule now tolerates, none of which a template series shows:

* **a digit read as its look-alike letter** (``15/02/Z018``, ``12.04.202l``, ``13/0b/2024``): in a
  number whose letters are all look-alikes (o, d, q, l, i, z, s, b, g, t, a) and no more than its
  digits, a letter agrees with each digit it may stand for (``b`` with 6 and 8); a digit against
  another digit still differs, so the next card of a series stays another card;
* **a scanner's stamp** (``Gescannt 24.08.2021 16:56``, ``Scanned on ...``, ``CamScanner ...``) is
  left out of both texts before they are compared;
* **a digit more or less** in a text of many digits (a speck read as a digit, a digit lost):
  from :data:`MIN_DIGITS_FOR_A_SLIP` digits on;
* **a moved line** (the ``COPY`` line on top instead of at the bottom): the text ratio is the
  better of the ratio and the ratio of the words sorted, and the numbers may come in another order
  when they are the same numbers.
* **a lost word** (``Wasserzähler`` at a line's start, a name at its end, ``abgegeben`` between
  two numbers): where both texts carry :data:`MIN_DIGITS_FOR_A_LOST_WORD` digits or more, the
  text ratio is also the share of the shorter text found in the longer in order
  (:func:`kept_share`), when the longer has at most :data:`MAX_LOST_CHARS` letters more than that
  (one word the capture lost) and the shorter at most :data:`MAX_MISREAD_CHARS` (misread letters).  The digits must still agree, so the next card of a series, which
  differs in a number, stays another card; a note without numbers keeps the plain ratio.

The score is the text ratio when the rule holds, and the ratio times :data:`FAILED_FACTOR`
(always under any sensible threshold) when it does not.  The candidates come from the same LSH
index as long documents, from a signature of character 3-grams (:func:`shingle_set`): a short
document has a few dozen of them, enough for MinHash, where it has only a handful of words.
"""

from __future__ import annotations

from collections.abc import Collection

from rapidfuzz.distance import Indel
from rapidfuzz.fuzz import ratio, token_sort_ratio

from . import _regex
from .extract import token_kind
from .text import fold_ocr, shingles

__all__ = ["MIN_TEXT_RATIO", "SHORT_MARK", "ShortComparison", "compare", "comparable_short", "digits", "digits_agree",
           "is_short", "kept_share", "shingle_set", "short_score", "without_stamps"]

#: The token that marks a short document's features (stored with its tokens, so that the index
#: needs no column of its own).  It has no ``kind:`` and never reaches the discriminative score.
SHORT_MARK = "~short"
#: Below this many words (or 8 characters) a text is not compared at all: an empty page, a lone word.
MIN_SHORT_WORDS = 2
MIN_SHORT_CHARS = 8
#: Chosen on the corpus of bench.corpus.real (docs/quality.md): OCR of a short note keeps 0.9+.
MIN_TEXT_RATIO = 0.90
FAILED_FACTOR = 0.3
#: From this many digits in all, one digit more on one side is one text read twice (a date, a
#: time and a serial make 20 and more; "no. 439" against "no. 4391" are too few to tell).
MIN_DIGITS_FOR_A_SLIP = 12
CHAR_NGRAM = 3
#: Letters a re-scan of a note may have lost (one word: ``wasserzahler``, ``friedrich``), and the
#: digits both texts need for the loss to be forgiven (a date, or an amount and a number: what ties
#: two notes to one event where their words cannot).
MAX_LOST_CHARS = 14
MIN_DIGITS_FOR_A_LOST_WORD = 6
#: Characters of the shorter text the longer may lack all the same (misread letters: ``QuiUung``).
#: A count, not a share: a note of one template with another name or shop in it lacks the
#: other's name, four letters or more, however long the note.
MAX_MISREAD_CHARS = 3

_LOOK_ALIKE_IN_NUMBER = _regex.compile(r"(?<=[0-9])[olisbzg](?=[0-9])")
_DIGIT_OF = str.maketrans({"o": "0", "l": "1", "i": "1", "s": "5", "b": "8", "z": "2", "g": "6"})
_NOT_DIGIT = _regex.compile(r"[^0-9]+")
# A word and a number of two digits or more read as one word ("abgelesen31"), not "model1".
_MERGED_NUMBER = _regex.compile(r"[a-z]{3,}[0-9]{2,}|[0-9]{2,}[a-z]{3,}")


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


# The digits a look-alike letter inside a number may stand for (tesseract's confusions).
_LETTER_DIGITS = {"o": "0", "d": "0", "q": "0", "l": "1", "i": "1", "z": "2", "s": "5", "b": "68", "g": "69",
                  "t": "7", "a": "4"}
_FOLD_WORD = str.maketrans({k: v[0] for k, v in _LETTER_DIGITS.items()})
# A scanner's or scanning app's stamp line in a normalized text (punctuation is gone): the word,
# "am"/"on"/"um", a date of three numbers and a time of two.
_STAMP = _regex.compile(r"\b(?:eingescannt|gescannt|scanned|camscanner|scan)(?: am| on)?(?: [0-9]{1,4}){3}"
                        r"(?: um)?(?: [0-9]{1,2} [0-9]{2})?\b")


def without_stamps(normalized: str) -> str:
    """The text less the scanner stamps it carries (``gescannt 24 08 2021 16 56``)."""
    if "scan" not in normalized:
        return normalized
    return " ".join(_STAMP.sub(" ", normalized).split())


def _numbers(normalized: str) -> list[str]:
    """The numbers of a text in order, as read: look-alike letters inside a number kept as letters
    where the word is a number misread (its letters all look-alikes, no more than its digits)."""
    out = []
    for word in normalized.split():
        letters = [c for c in word if not c.isdigit()]
        if len(letters) == len(word):
            continue
        if letters and len(letters) <= len(word) - len(letters) and all(c in _LETTER_DIGITS for c in letters):
            out.append(word)  # "z018", "202l", "0b", "1b913": a number with a digit read as a letter
            continue
        found = _NOT_DIGIT.sub("", _LOOK_ALIKE_IN_NUMBER.sub(lambda m: m.group().translate(_DIGIT_OF), word))
        # "m3" (a unit, or "m?" read as one) is no number: one digit next to letters
        if len(found) >= 3 or (len(found) == len(word) or 2 <= len(found) and 2 * len(found) >= len(word)) \
                or _MERGED_NUMBER.fullmatch(word):
            out.append(found)  # "abgelesen31": a number OCR joined to the word before it
    return out


def digits(normalized: str) -> str:
    """Every digit of the text's numbers in order, look-alike letters in a number read as digits
    (``b`` as 6).  A word of letters with one stray digit ("model1", "parce1": an OCR ``l``) is no number."""
    return "".join(_numbers(normalized)).translate(_FOLD_WORD)


def _same_number(x: str, y: str) -> bool:
    if len(x) != len(y):
        return False
    for p, q in zip(x, y, strict=True):
        if p == q:
            continue
        dp, dq = _LETTER_DIGITS.get(p, p), _LETTER_DIGITS.get(q, q)
        if not (p in _LETTER_DIGITS or q in _LETTER_DIGITS) or not set(dp) & set(dq):
            return False  # two digits that differ: another value, however alike they look
    return True


def digits_agree(text_a: str, text_b: str) -> bool:
    """Whether two normalized short texts carry the same digits: in order, or the same numbers
    in another order (a line moved), a look-alike letter agreeing with the digits it may stand for."""
    a, b = _numbers(text_a), _numbers(text_b)
    joined_a, joined_b = "".join(a), "".join(b)
    if _same_number(joined_a, joined_b):
        return True
    if min(len(joined_a), len(joined_b)) >= MIN_DIGITS_FOR_A_SLIP and _one_digit_more(joined_a, joined_b):
        return True
    if len(a) != len(b):
        return False
    key = lambda n: n.translate(_FOLD_WORD)  # noqa: E731 - a sort key
    return all(_same_number(x, y) for x, y in zip(sorted(a, key=key), sorted(b, key=key), strict=True))


def _one_digit_more(x: str, y: str) -> bool:
    """One digit more on one side, a speck read as a digit or a digit lost (look-alike letters
    folded): a series numbers its cards on, it never inserts a digit into one."""
    fx, fy = x.translate(_FOLD_WORD), y.translate(_FOLD_WORD)
    return abs(len(fx) - len(fy)) == 1 and Indel.distance(fx, fy, score_cutoff=1) == 1


def kept_share(fold_a: str, fold_b: str) -> float:
    """The share of the shorter text (blanks removed) that the longer holds in order, where the
    longer has at most ``MAX_LOST_CHARS`` characters more than what they share and the shorter at
    most ``MAX_MISREAD_CHARS``; else 0."""
    a, b = fold_a.replace(" ", ""), fold_b.replace(" ", "")
    if not a or not b:
        return 0.0
    kept = (len(a) + len(b) - Indel.distance(a, b)) // 2  # the longest common subsequence
    if max(len(a), len(b)) - kept > MAX_LOST_CHARS or min(len(a), len(b)) - kept > MAX_MISREAD_CHARS:
        return 0.0
    return kept / min(len(a), len(b))


def _identifiers(tokens: Collection[str]) -> set[str]:
    return {t for t in tokens if token_kind(t) in ("id", "iban")}


class ShortComparison:
    """The parts of the short rule for one pair: the text ratio, whether the digits and the
    identifiers agree."""

    __slots__ = ("digits_agree", "ids_agree", "text_ratio")

    def __init__(self, text_ratio: float, digits_agree: bool, ids_agree: bool) -> None:
        self.text_ratio, self.digits_agree, self.ids_agree = text_ratio, digits_agree, ids_agree

    @property
    def holds(self) -> bool:
        return self.text_ratio >= MIN_TEXT_RATIO and self.digits_agree and self.ids_agree


def compare(text_a: str, text_b: str, tokens_a: Collection[str], tokens_b: Collection[str]) -> ShortComparison:
    """The short rule's parts for two short documents' normalized texts (stamps left out)."""
    text_a, text_b = without_stamps(text_a), without_stamps(text_b)
    fold_a, fold_b = fold_ocr(text_a), fold_ocr(text_b)
    similar = ratio(fold_a.replace(" ", ""), fold_b.replace(" ", "")) / 100.0
    if similar < MIN_TEXT_RATIO:  # a moved line: the same words in another order
        similar = max(similar, token_sort_ratio(fold_a, fold_b) / 100.0)
    agree = digits_agree(text_a, text_b)
    # a lost word is forgiven only where the numbers tie the two (the rule needs them to agree anyway)
    if similar < MIN_TEXT_RATIO and agree and min(len(digits(text_a)), len(digits(text_b))) >= MIN_DIGITS_FOR_A_LOST_WORD:
        similar = max(similar, kept_share(fold_a, fold_b), kept_share(" ".join(sorted(fold_a.split())),
                                                                      " ".join(sorted(fold_b.split()))))
    ids_a, ids_b = _identifiers(tokens_a), _identifiers(tokens_b)
    return ShortComparison(similar, agree, not ids_a or not ids_b or ids_a == ids_b)


def short_score(text_a: str, text_b: str, tokens_a: Collection[str], tokens_b: Collection[str]) -> tuple[float, float, bool]:
    """(score, text ratio, whether the rule holds) of two short documents' normalized texts."""
    found = compare(text_a, text_b, tokens_a, tokens_b)
    holds = found.holds
    return (found.text_ratio if holds else found.text_ratio * FAILED_FACTOR), found.text_ratio, holds
