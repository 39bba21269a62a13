"""A month word, as written or as OCR damaged it, to its month (1-12), pure.

Every language's month names and abbreviations are looked up by their folded key
(``languages.fold_word``: ``Ju1i``, ``JULI`` and ``juli`` meet).  A scan damages month words in
ways folding does not undo: a letter lost or doubled (``Septmber``, ``Auguust``), ``u`` read as
``n`` (``Febrnar``, ``Jannar``), ``e`` as ``c``, ``y`` as ``v``.  A payslip whose month OCR read as
``Febrnar 2020`` then carries no date at all, so it meets every other payslip of its series
without the one value that tells them apart (18 of the 97 false pairs of a 20,000-document
realistic archive, seed 109, were one such payslip).

So a word that is no month key is read as a month when it is that month's key with the
look-alikes above on one letter and doubled letters single (``Jnne``, ``Auguust``), or its key
of six or more letters with one letter lost or one more (``Septmber``, ``Okober``, ``Augustl``),
or its five-letter key less one letter inside it (``Apil``), and only one month is so near.
Other edits are not read: OCR's substitutions are the look-alikes, and one free edit makes
months of words (``junior`` is Spanish ``junio`` with a letter more, ``match`` is ``march``
with one other, ``Marc`` is ``march`` less its last).

OCR also glues a month word to its year (``August2013``): :data:`GLUED_YEAR` finds such a
year and :data:`WORD_BEFORE` the word it is glued to.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from rapidfuzz.distance import Levenshtein

from . import _regex
from . import languages as L

__all__ = ["GLUED_YEAR", "MONTH_NUMBERS", "WORD_BEFORE", "WORD_REACH", "month_number"]

#: Folded month word -> month: a date's month word is looked up, not spelled out in the patterns.
MONTH_NUMBERS: Final = L.month_numbers()
#: Letters of a key that may have lost one or gained one (shorter keys are matched only by :func:`_plain`).
MIN_EDITED_KEY_LETTERS: Final = 6
#: Letters of a key that may have lost one inside it (not its first or last: ``Marc``, ``arch``).
MIN_INSIDE_KEY_LETTERS: Final = 5
#: A year glued to the letters before it (digit-led, for extraction's digit regions), and the
#: word it is glued to, searched in the WORD_REACH characters before the year.
GLUED_YEAR: Final = _regex.compile(r"(?:19|20)[0-9]{2}(?<=[^\W\d_]....)(?![0-9])")
WORD_BEFORE: Final = _regex.compile(r"(?<![^\W\d_])(?P<mon>[^\W\d_]{3,12})\Z")
WORD_REACH: Final = 13
#: OCR's look-alikes within a word that folding keeps apart (it must not: ``nun`` is no ``unu``).
_LOOK_ALIKES: Final = str.maketrans("uey", "ncv")


def _plain(folded: str) -> str:
    """A folded word with the look-alikes on one letter and doubled letters single."""
    word = folded.translate(_LOOK_ALIKES).replace("rn", "m")
    return "".join(c for i, c in enumerate(word) if i == 0 or c != word[i - 1])


def _plain_months() -> dict[str, int]:
    """Plain key (:func:`_plain`) -> month, for keys only one month has."""
    found: dict[str, set[int]] = {}
    for key, month in MONTH_NUMBERS.items():
        found.setdefault(_plain(key), set()).add(month)
    return {key: next(iter(months)) for key, months in found.items() if len(months) == 1}


_PLAIN_MONTHS: Final = _plain_months()
_EDITED_KEYS: Final = tuple((key, month) for key, month in MONTH_NUMBERS.items() if len(key) >= MIN_EDITED_KEY_LETTERS)
_INSIDE_KEYS: Final = tuple((key, month) for key, month in MONTH_NUMBERS.items()
                            if MIN_INSIDE_KEY_LETTERS <= len(key) < MIN_EDITED_KEY_LETTERS)


def month_number(word: str) -> int | None:
    """The month of a month word (None: it is none, or it is as near to two months)."""
    folded = L.fold_word(word)
    month = MONTH_NUMBERS.get(folded)
    return month if month is not None else _near_month(folded)


@lru_cache(maxsize=1024)  # the same damaged words recur over a series' documents
def _near_month(folded: str) -> int | None:
    if len(folded) < 4:  # a damaged abbreviation is too near other words (``ang``, ``dee``)
        return None
    month = _PLAIN_MONTHS.get(_plain(folded))
    if month is not None:
        return month
    near = {m for key, m in _EDITED_KEYS
            if abs(len(key) - len(folded)) == 1 and Levenshtein.distance(folded, key, score_cutoff=1) <= 1}
    near |= {m for key, m in _INSIDE_KEYS
             if len(key) == len(folded) + 1 and folded[0] == key[0] and folded[-1] == key[-1]
             and Levenshtein.distance(folded, key, score_cutoff=1) <= 1}
    return next(iter(near)) if len(near) == 1 else None
