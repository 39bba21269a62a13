"""Which documents are compared by their first page's picture, pure.

A document takes the picture path when its text cannot decide: fewer than
``detection.min_words`` real words, whether the OCR found nothing (a photo, a drawing,
a handwritten note), a few words (a stamp) or only junk (the strokes of a sketch read
as ``l1 |i ~ ee .,``).  A document with enough real words is never paired by picture:
its text decides.

A real word is a run of two or more letters with a vowel that is not one letter
repeated (``ii``, ``lll``): what OCR makes of lines, hatching and specks fails that,
any word of the six languages passes.  Letters of other scripts (Arabic, Hebrew, Greek,
Cyrillic, Hangul, CJK: no Latin vowels, and CJK no blanks) count too, a run of them as
one word per two letters: OCR for the Latin languages never makes them out of strokes.
Digits are not words here (a drawing's specks read as ``1`` and ``.``).
"""

from __future__ import annotations

import re

__all__ = ["real_words", "takes_picture_path"]

_LETTERS = re.compile(r"[^\W\d_]{2,}")
_VOWELS = frozenset("aeiouyäöüàáâãåæèéêëìíîïòóôõøœùúûÿ")
_TRIPLE = re.compile(r"(.)\1\1")
# Past Latin Extended-B: letters of scripts that Latin-language OCR does not produce.
_LATIN_END = 0x024F


def _words_in(run: str) -> int:
    folded = run.casefold()
    if len(set(folded)) < 2 or _TRIPLE.search(folded) is not None:
        return 0
    if any(ord(ch) > _LATIN_END for ch in folded if ch not in _VOWELS):
        return max(1, len(folded) // 2)
    return 0 if _VOWELS.isdisjoint(folded) else 1


def real_words(content: str, *, enough: int | None = None) -> int:
    """How many real words ``content`` holds; counting stops at ``enough`` (a long text
    costs its first few lines, not all of it)."""
    found = 0
    for match in _LETTERS.finditer(content):
        found += _words_in(match.group())
        if enough is not None and found >= enough:
            break
    return found


def takes_picture_path(content: str, min_words: int) -> bool:
    """Whether a document of this text is compared by its picture: under ``min_words``
    real words."""
    return real_words(content, enough=min_words) < min_words
