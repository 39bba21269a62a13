"""Which documents are compared by their first page's picture, pure.

A document takes the picture path when its text cannot decide: fewer than
``detection.min_words`` real words, whether the OCR found nothing (a photo, a drawing,
a handwritten note), a few words (a stamp) or only junk (the strokes of a sketch read
as ``l1 |i ~ ee .,``).  A document with enough real words is never paired by picture:
its text decides.

A real word is a run of two or more letters with a vowel that is not one letter
repeated (``ii``, ``lll``): what OCR makes of lines, hatching and specks fails that,
any word of the six languages passes.  Digits are not words here (a drawing's specks
read as ``1`` and ``.``).
"""

from __future__ import annotations

import re

__all__ = ["real_words", "takes_picture_path"]

_LETTERS = re.compile(r"[^\W\d_]{2,}")
_VOWELS = frozenset("aeiouyäöüàáâãåæèéêëìíîïòóôõøœùúûÿ")
_TRIPLE = re.compile(r"(.)\1\1")


def _is_word(run: str) -> bool:
    folded = run.casefold()
    return (not _VOWELS.isdisjoint(folded) and len(set(folded)) > 1 and _TRIPLE.search(folded) is None)


def real_words(content: str, *, enough: int | None = None) -> int:
    """How many real words ``content`` holds; counting stops at ``enough`` (a long text
    costs its first few lines, not all of it)."""
    found = 0
    for match in _LETTERS.finditer(content):
        if _is_word(match.group()):
            found += 1
            if enough is not None and found >= enough:
                break
    return found


def takes_picture_path(content: str, min_words: int) -> bool:
    """Whether a document of this text is compared by its picture: under ``min_words``
    real words."""
    return real_words(content, enough=min_words) < min_words
