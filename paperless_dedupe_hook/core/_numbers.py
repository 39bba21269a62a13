"""Extraction steps for numbers: IBANs, dates, amounts and long references (see :mod:`.extract`).

The conventions of a language apply where the document is in it (:meth:`._scan.Scan.detected`):
``a/b/yyyy`` with both parts <= 12 is month first only in a month-first language (English),
thousands grouped by a blank (``1 234,56 €``) are read only in a language that groups so.
Month words in any language are looked up (``_month_words``, as OCR damaged them too), not spelled out.
"""

from __future__ import annotations

import re

from . import _month_words as MW
from . import _patterns as P
from ._scan import Scan
from .languages import LANGUAGES, merged
from .languages.detect import count_words
from .text import normalize

__all__ = ["amounts", "dates", "ibans", "refs"]

_MONTH_FIRST = frozenset(lang.code for lang in LANGUAGES if not lang.day_first)
#: Words left out of a date's slot label when they stand right before it, normalized as label
#: words are: weekdays ("Datum: Dienstag, 5. März" and "Datum: Freitag, 8. März" name one slot)
#: and, before a month word that opens the date, connectors ("mes de marzo de 2024": the slot is
#: "... mes", not "mes de", which every month of the text would share; the words that join a
#: number word to its label are these: "N° de facture", "mese di").
_SKIP = frozenset(normalize(w) for w in merged("weekdays"))
_SKIP_MONTH_FIRST = _SKIP | frozenset(normalize(w) for w in merged("number_first_connectors") if " " not in w and "'" not in w)


def ibans(scan: Scan) -> None:
    for m in scan.finditer(P.IBAN):
        value = m.group().replace(" ", "")
        if 15 <= len(value) <= 34:
            scan.take(m.start(), m.end(), "iban:" + value)
    for m in scan.finditer(P.IBAN_LABELLED):
        value = m["v"].replace(" ", "").upper()
        if 15 <= len(value) <= 34:
            scan.take(m.start("v"), m.end("v"), "iban:" + value)


def dates(scan: Scan) -> None:
    t = scan.text
    for m in (*scan.finditer(P.DATE_ISO), *scan.finditer(P.DATE_DOT)):
        scan.take(m.start(), m.end(), P.date_token(int(m["y"]), int(m["m"]), int(m["d"])), skip=_SKIP)
    for m in scan.finditer(P.DATE_ISO_SPLIT_YEAR):
        scan.take(m.start(), m.end(), P.date_token(int(m["c"] + m["yy"]), int(m["m"]), int(m["d"])), skip=_SKIP)
    for m in _worded(scan, P.DATE_DMY_TEXT):
        month = P.month_of(m)
        if month is not None:
            scan.take(m.start(), m.end(), P.date_token(int(m["y"].lstrip("'")), month, int(m["d"])), skip=_SKIP)
    for year in scan.finditer(P.YEAR):
        if scan.mask[year.start()]:
            continue
        hit = P.MONTH_BEFORE_YEAR.search(t, max(0, year.start() - P.MONTH_REACH), year.start())
        month = None if hit is None else P.month_of(hit)
        if hit is not None and month is not None:
            day = int(hit["d"]) if hit["d"] else None
            scan.take(hit.start(), year.end(), P.date_token(int(year.group()), month, day), skip=_SKIP_MONTH_FIRST)
    for year in scan.finditer(MW.GLUED_YEAR):  # "August2013": OCR lost the blank
        if scan.mask[year.start()]:
            continue
        word = MW.WORD_BEFORE.search(t, max(0, year.start() - MW.WORD_REACH), year.start())
        month = None if word is None else MW.month_number(word["mon"])
        if word is not None and month is not None:
            scan.take(word.start(), year.end(), P.date_token(int(year.group()), month, None), skip=_SKIP_MONTH_FIRST)
    slashed = [m for m in scan.finditer(P.DATE_SLASH) if 1 not in scan.mask[m.start() : m.end()]]
    month_first: bool | None = None
    for m in slashed:
        a, b = int(m["a"]), int(m["b"])
        if a > 12 or b > 12:
            month, day = (b, a) if a > 12 else (a, b)
        else:
            month_first = _month_first(scan, slashed) if month_first is None else month_first
            month, day = (a, b) if month_first else (b, a)
        scan.take(m.start(), m.end(), P.date_token(int(m["y"]), month, day), skip=_SKIP)
    for m in scan.finditer(P.MONTH_YEAR_NUM):
        scan.take(m.start(), m.end(), P.date_token(int(m["y"]), int(m["m"]), None), skip=_SKIP)


def _worded(scan: Scan, pattern: re.Pattern[str]) -> list[re.Match[str]]:
    """The matches of a pattern with a ``mon`` group whose word is a month name: where the word
    is none, the search goes on from the next character (a month alternation in the pattern
    would have failed there and tried the next position, as this does)."""
    out: list[re.Match[str]] = []
    t = scan.text
    for start, end in scan.regions:
        pos = start
        while (m := pattern.search(t, pos, end)) is not None:
            if P.month_of(m) is None:
                pos = m.start() + 1
            else:
                out.append(m)
                pos = m.end()
    return out


def _month_first(scan: Scan, slashed: list[re.Match[str]]) -> bool:
    """Whether ``a/b/yyyy`` means month/day: the document's unambiguous dates decide, else its
    language (the frequent words of the text not claimed by a value): month first when a
    month-first language has more of them than every day-first one."""
    month_first = sum(int(m["b"]) > 12 for m in slashed)
    day_first = sum(int(m["a"]) > 12 for m in slashed)
    if month_first != day_first:
        return month_first > day_first
    words = [m.group() for m in P.WORD.finditer(scan.low) if not scan.mask[m.start()]]
    counts = count_words(words, scan.allowed)
    first = max((n for code, n in counts.items() if code in _MONTH_FIRST), default=-1)
    return first > max((n for code, n in counts.items() if code not in _MONTH_FIRST), default=0)


def amounts(scan: Scan) -> None:
    financial = any(word in scan.low for word in P.FINANCIAL_WORDS)
    matches: list[re.Match[str]] = []
    if scan.detected().uses("blank_thousands"):
        # first: "1 234,56 €" would otherwise be read as "234,56 €"
        matches += [*scan.finditer(P.AMOUNT_BLANK_BEFORE), *scan.finditer(P.AMOUNT_BLANK_AFTER)]
        if financial:
            matches += scan.finditer(P.AMOUNT_BLANK_BARE)
    matches += [*scan.finditer(P.AMOUNT_CUR_BEFORE), *scan.finditer(P.AMOUNT_CUR_AFTER)]
    if financial:
        matches.extend(m for m in scan.finditer(P.AMOUNT_BARE) if not _numbered_paragraph(scan.text, m))
    for m in matches:
        number = m["n"]
        if len(number) - max(number.rfind("."), number.rfind(",")) != 2:  # one decimal: mostly a lost digit
            value = P.cents(number)
            scan.take(m.start(), m.end(), f"amount:{value}" if value else None)


def _numbered_paragraph(text: str, m: re.Match[str]) -> bool:
    """``4.10 Wählen Sie ...``: a paragraph's number opening its line, not an amount (a manual
    numbers dozens of them, and every manual of one library alike)."""
    line_start = text.rfind("\n", 0, m.start()) + 1
    return (not text[line_start : m.start()].strip() and P.PARAGRAPH_NUMBER.fullmatch(m["n"]) is not None
            and P.WORD_AFTER.match(text, m.end()) is not None)


def refs(scan: Scan) -> None:
    t = scan.text
    for start, end in scan.phone_lines:
        scan.block(start, end)
    for m in scan.finditer(P.REF):
        raw = m.group()
        if " " in raw and (raw[0] == "0" or t[max(0, m.start() - 3) : m.start()].rstrip()[-1:] in ("+", ")")):
            continue  # 0161 203 4314, (617) 555 0199: a phone number
        digits = "".join(filter(str.isdigit, raw))
        if 6 <= len(digits) <= 30:
            scan.take(m.start(), m.end(), "ref:" + digits)
