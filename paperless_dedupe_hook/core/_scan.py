"""The state of one extraction (:class:`Scan`) and the slot label of a value (:func:`context`).

:mod:`.extract` runs its steps (:mod:`._numbers`, :mod:`._places` and its own) over one Scan:
the prepared text, the characters already claimed, the tokens found, where trigger words start,
and the languages the text is in (detected once, when a step first asks).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ._triggers import digit_regions, digit_regions_at, lower
from .languages.detect import Detected, detect
from .text import fold_ocr, normalize

__all__ = ["SLOT_MARK", "Scan", "context"]

SLOT_MARK = "@"

#: Detection reads this many characters of a text (the letter head and its first paragraphs say
#: which language it is in; the rest seldom changes the answer and would cost 5 % of an extraction).
_DETECT_CHARS = 4_000


class Scan:
    """The prepared text, the characters already claimed, the tokens found, where trigger words start."""

    __slots__ = ("text", "low", "mask", "tokens", "slots", "places", "starts", "id_keys", "phone_lines", "regions",
                 "allowed", "hint", "_detected")

    def __init__(self, text: str, digits: list[int] | None = None, *, allowed: tuple[str, ...] = (),
                 hint: tuple[str, ...] = ()) -> None:
        self.text = text
        # Lower-cased once for every step; same length: prepare() maps U+0130, the one
        # character whose lower case is longer.
        self.low = lower(text)
        self.mask = bytearray(len(text))
        self.tokens: set[str] = set()
        self.slots: set[str] = set()
        # Where each token and slot was read, first and last (character offsets): core.placement.
        self.places: dict[str, tuple[int, int]] = {}
        self.starts: dict[str, list[int]] = {}
        self.id_keys: list[str] = []  # the trigger key of each of starts["id"]
        self.phone_lines: list[tuple[int, int]] = []
        # (from the digits prepare() found, when given: the same regions without a regex walk)
        self.regions = digit_regions(text) if digits is None else digit_regions_at(text, digits)
        self.allowed = allowed
        self.hint = hint
        self._detected: Detected | None = None

    def detected(self) -> Detected:
        """The languages of the text (core.languages.detect), computed once."""
        if self._detected is None:
            # (blank-separated words: a word with punctuation on it is not counted, in any language alike;
            # a regex for letter runs costs three times as much)
            self._detected = detect(self.low[:_DETECT_CHARS].split(), self.allowed, self.hint)
        return self._detected

    def take(self, start: int, end: int, token: str | None, label: str | None = None,
             skip: frozenset[str] = frozenset()) -> None:
        """Claim ``[start, end)`` for ``token`` unless a character of it is claimed; the slot
        is named by ``label`` when given, else by the words before ``start``."""
        if token is not None and 1 not in self.mask[start:end]:
            self.block(start, end)
            self.tokens.add(token)
            slot = SLOT_MARK + (context(self.text, start, skip) if label is None else label) + "=" + token
            self.slots.add(slot)
            for read in (token, slot):
                first, last = self.places.get(read, (start, start))
                self.places[read] = (min(first, start), max(last, start))

    def block(self, start: int, end: int) -> None:
        self.mask[start:end] = b"\x01" * (end - start)

    def line(self, pos: int) -> tuple[int, int]:
        start = self.text.rfind("\n", 0, pos) + 1
        end = self.text.find("\n", pos)
        return start, len(self.text) if end < 0 else end

    def finditer(self, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        """``pattern.finditer(text)`` for a pattern of :data:`.extract.DIGIT_LED`: the same matches,
        but the regex engine only walks the :func:`._triggers.digit_regions`."""
        for start, end in self.regions:
            yield from pattern.finditer(self.text, start, end)


def _label_words(segment: str) -> list[str]:
    # A label word has two letters or more; digits inside it are OCR slips ("Tota1"),
    # while a word of digits alone (a quantity, a line number) is not part of a label.
    return list(_label_words_cached(segment[-80:]))


@lru_cache(maxsize=4096)
def _label_words_cached(segment: str) -> tuple[str, ...]:
    # (a word of letters alone, the common case, needs no count)
    return tuple(w for w in normalize(segment).split() if len(w) >= 2 and (w.isalpha() or sum(map(str.isalpha, w)) >= 2))


def context(text: str, start: int, skip: frozenset[str] = frozenset()) -> str:
    """The two words before a value, on its line (or the label above when the value opens
    its line), lower-case, accent-free and OCR-folded so that "Tota1 due" and "Total due"
    name one slot.  Words of ``skip`` right before the value are left out ("mes de marzo de
    2024": the slot is "... mes", not "mes de", which every month-year of the text shares)."""
    line_start = text.rfind("\n", 0, start) + 1
    words = _label_words(text[line_start:start])
    while skip and words and words[-1] in skip:
        words.pop()
    if not words and line_start > 0:
        words = _label_words(_label_above(text, line_start))
        if not words and line_start > 1 and text[line_start - 2].isalpha():
            # prose wrapped right before its value ("... risulta che la fattura\n1121/2023 del"):
            # the words ending the line above, as where the line was not wrapped
            above = text[text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1]
            if len(above.split()) > _PROSE_WORDS and not any(map(str.isdigit, above)):  # not an address
                words = _label_words(above)[-2:]
    elif len(words) == 1 and line_start > 1 and text[line_start - 2].isalpha():
        # prose wrapped before its value's label ("... Zum\nStichtag 17.02."): the word ending the line above
        words = _label_words(text[text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1])[-1:] + words
    return fold_ocr(" ".join(words[-2:]))


def _lines_above(text: str, line_start: int) -> Iterator[str]:
    end = line_start - 1
    while end >= 0:
        begin = text.rfind("\n", 0, end) + 1
        yield text[begin:end]
        end = begin - 1


def _label_above(text: str, line_start: int) -> str:
    """The label of a value that opens its line.  A two-column table read column by column
    stacks n labels above n values ("Bill date:\nBalance\n25.11.2022\n97,95"): the k-th
    value belongs to the k-th label.  Otherwise the line above is the label."""
    above = _lines_above(text, line_start)
    values = 0
    line = next(above, "")
    # Bounded walks: a column of thousands of amounts must not cost O(n^2).
    while _value_line(line) and values < _MAX_STACK:
        values += 1
        line = next(above, "")
    labels: list[str] = []
    while _label_line(line) and len(labels) < _MAX_STACK:
        labels.append(line)
        line = next(above, "")
    labels.reverse()
    if values < len(labels):
        return labels[values]
    return ""


_MAX_STACK = 24
_PROSE_WORDS = 5  # a line above of more words is running text, not a label (_label_line)


def _value_line(line: str) -> bool:
    return any(map(str.isdigit, line)) and 0 < len(line.split()) <= 5


def _label_line(line: str) -> bool:
    stripped = line.strip()
    return (bool(stripped) and not any(map(str.isdigit, stripped)) and len(stripped.split()) <= 5
            and not stripped.endswith(".") and len(_label_words(stripped)) > 0)
