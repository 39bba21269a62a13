"""Typed tokens from OCR text, and a conflict-based "discriminative similarity" of two token sets.

Documents of one template (monthly invoices, statements, payslips, outbound and return tickets,
payment reminders) share most words; a few values tell them apart.  :func:`extract_tokens` pulls
them from the *whole* text as canonical ``kind:value`` strings:

``date:2024-01-31``  ``31.01.2024``, ``31.1.24``, ``2024-01-31``, ``31. Januar 2024``, ``31 Jan. 2024``,
    ``January 31st, 2024``, ``01/31/2024``.  ``a/b/yyyy`` with both parts <= 12 is month first when
    the document's unambiguous slashed dates say so, else when it has more English than German
    function words.  Month and year alone (``März 2024``, ``01/2024``) give ``date:2024-03``.
``amount:123456``  cents, unsigned: a number next to a currency (``1.234,56 €``, ``EUR 1,234.56``,
    ``$1,234.56``, ``12,- €``); in a text that mentions money (a currency, Betrag, Summe, Total,
    MwSt, VAT, Saldo ...) also any bare number with two decimals.  A last group of three digits
    is thousands; a single decimal digit (mostly a lost digit) and zero give no token.
``iban:DE89370400440532013000``  country, check digits, 11-30 more characters (shape only).
``id:<label>:<VALUE>``  the value after a label (Rechnungsnummer, Invoice No., Kunden-Nr.,
    Aktenzeichen, Booking ref ...; labels in ``_patterns.ID_STEMS``), upper case, no separators.
``ref:<digits>``  any other run of >= 6 digits, also groups joined by ``-``, ``/`` or a blank
    before >= 3 digits (``143/123/45678``, ``INV-2026-1047`` -> ``ref:20261047``); not on phone
    or fax lines, not after ``+`` or ``)``, not blank-separated groups starting with ``0``.
``route:<FROM>><TO>``  ``Out: BSK - LON``, ``Hinfahrt: München Hbf -> Berlin Hbf``, ``Von: X
    Nach: Y``, ``from X to Y``, ``X → Y``, ``FRA-JFK``; places without accents or blanks.
``street:<name><number>``  ``Gartenstraße 54, 66111 Saarbrücken`` (a house number before a postcode),
    ``12 High Street``, ``195 York Rd, EC1A 1BB London``; names accent-free, OCR-folded, ``str.`` = ``straße``.

Kinds claim text in the order iban, id, date, amount, street, route, ref; no character is used twice.
First, control characters become blanks, hyphenation at line ends is undone, and OCR look-alike
letters are folded inside numbers (``3l.0l.2024``, ``1.234,S6``, ``INV-2O26-1047``).  Lines with
a print, scan, fax or mail-room stamp (Gedruckt am, Druckdatum, Ausdruck vom, Printed, Fax,
Scan, Eingang, Received ...), ISO timestamps (``2024-01-31T14:35``) and page numbers yield
nothing, so a copy that only adds them has the same tokens.  Labels and month names tolerate
``rn``/``m``, ``l``/``1``/``I``, ``o``/``0`` and lost umlauts.

How two token sets are compared is in :mod:`.discriminative`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from . import _patterns as P
from . import _regex
from ._triggers import (
    ID_LABELS_BY_KEY,
    TRIGGERS,
    digit_regions,
    digit_regions_at,
    lower,
    prepare_and_digits,
    trigger_words,
)
from .text import fold_ocr, normalize

__all__ = ["KINDS", "SLOT_MARK", "extract_features", "extract_tokens", "token_kind"]

KINDS = ("date", "amount", "iban", "id", "ref", "route", "street")

def token_kind(token: str) -> str:
    """The kind of a ``kind:value`` token (``"date"``, ``"id"`` ...); ``""`` if it has none."""
    kind, sep, _ = token.partition(":")
    return kind if sep else ""


# --- extraction --------------------------------------------------------------------------------


class _Scan:
    """The prepared text, the characters already claimed, the tokens found, where trigger words start."""

    __slots__ = ("text", "low", "mask", "tokens", "slots", "starts", "id_keys", "phone_lines", "regions")

    def __init__(self, text: str, digits: list[int] | None = None) -> None:
        self.text = text
        # Lower-cased once for every step; same length: prepare() maps U+0130, the one
        # character whose lower case is longer.
        self.low = lower(text)
        self.mask = bytearray(len(text))
        self.tokens: set[str] = set()
        self.slots: set[str] = set()
        self.starts: dict[str, list[int]] = {}
        self.id_keys: list[str] = []  # the trigger key of each of starts["id"]
        self.phone_lines: list[tuple[int, int]] = []
        # (from the digits prepare() found, when given: the same regions without a regex walk)
        self.regions = digit_regions(text) if digits is None else digit_regions_at(text, digits)

    def take(self, start: int, end: int, token: str | None) -> None:
        if token is not None and 1 not in self.mask[start:end]:
            self.block(start, end)
            self.tokens.add(token)
            self.slots.add(SLOT_MARK + _context(self.text, start) + "=" + token)

    def block(self, start: int, end: int) -> None:
        self.mask[start:end] = b"\x01" * (end - start)

    def line(self, pos: int) -> tuple[int, int]:
        start = self.text.rfind("\n", 0, pos) + 1
        end = self.text.find("\n", pos)
        return start, len(self.text) if end < 0 else end

    def finditer(self, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        """``pattern.finditer(text)`` for a pattern of :data:`_DIGIT_LED`: the same matches,
        but the regex engine only walks the :func:`._triggers.digit_regions`."""
        for start, end in self.regions:
            yield from pattern.finditer(self.text, start, end)


def extract_tokens(text: str) -> frozenset[str]:
    """Canonical ``kind:value`` tokens of ``text`` (see the module docstring for the kinds)."""
    return frozenset(_scan(text).tokens)


def extract_features(text: str) -> frozenset[str]:
    """The tokens plus their slots: ``@<label words>=kind:value`` for each token, where the
    label words are the two words before the value ("invoice date", "grundmiete monatlich")."""
    scan = _scan(text)
    return frozenset(scan.tokens | scan.slots)


def _scan(text: str) -> _Scan:
    scan = _Scan(*prepare_and_digits(text))
    if scan.text.strip():
        for step in (_words, _ibans, _ids, _services, _dates, _amounts, _streets, _routes, _refs):
            step(scan)
    return scan


# "Flight XB 606", "Flug LH 2034", "ICE 1234", "Zug RE 5": which service a ticket is for.
_SERVICE = _regex.compile(
    r"(?i:\b(?:flight|flug|zug|train)\b[ \t]*(?:no\.?|nr\.?|number|nummer)?[ \t]*:?[ \t]*)"
    r"(?P<code>[A-Z]{2,3}|[A-Z][0-9]|[0-9][A-Z])[ \t]?(?P<num>[0-9]{1,4})\b"
    r"|\b(?P<train>ICE|IC|EC|RE|RB|TGV|EN|NJ)[ \t](?P<tnum>[0-9]{1,5})\b"
)


# Cheap tests that tell whether _SERVICE can match at all (it is slow to scan: an
# alternation under (?i) at every position), most documents being no tickets.
# (searched in the lower-cased text: a (?i) alternation is as slow as _SERVICE itself)
_SERVICE_WORD = _regex.compile(r"(?:flight|flug|zug|train)\b")  # no leading \\b: it hides the first letters from the fast scan
_TRAIN_QUICK = _regex.compile(r"(?:ICE|IC|EC|RE|RB|TGV|EN|NJ)[ \t][0-9]")

#: The patterns that :meth:`_Scan.finditer` scans in the digit regions only: each match has
#: an ASCII digit on its first line and crosses at most two line breaks (see
#: :func:`._triggers.digit_regions`; tests/test_extract_prefilters.py checks the claim).
_DIGIT_LED = (P.IBAN, P.ISO_TIMESTAMP, P.DATE_ISO, P.DATE_DOT, P.DATE_DMY_TEXT, P.DATE_SLASH, P.MONTH_YEAR_NUM,
              P.AMOUNT_CUR_BEFORE, P.AMOUNT_CUR_AFTER, P.AMOUNT_BARE, P.STREET, P.REF, _SERVICE)


#: Where a match of _SERVICE can start (a superset): a word start at f, z or t before the rest of
#: flight, flug, zug or train (under (?i), as in _SERVICE: only f/F, z/Z, t/T match those first
#: letters), or at I, E, R, T or N before a train code's rest, a blank and a digit.  Unlike
#: _SERVICE it opens with a character class, which the regex engine skips to.
_SERVICE_START = _regex.compile(r"[fFzZtTIERN](?<!\w.)(?:(?i:light|lug|ug|rain)|(?:CE|C|E|B|GV|N|J)[ \t][0-9])")


def _service_matches(scan: _Scan) -> list[re.Match[str]]:
    """``list(scan.finditer(_SERVICE))``: _SERVICE tried only where :data:`_SERVICE_START`
    matches (a scan with _SERVICE itself tries an alternation under (?i) at every position)."""
    t, out = scan.text, []
    for start, end in scan.regions:
        pos = start
        while (cand := _SERVICE_START.search(t, pos, end)) is not None:
            if (m := _SERVICE.match(t, cand.start(), end)) is None:
                pos = cand.start() + 1
            else:
                out.append(m)
                pos = m.end()
    return out


def _services(scan: _Scan) -> None:
    matches = _service_matches(scan)
    if not matches or not _service_words(scan):
        return
    for m in matches:
        if m["code"]:
            scan.take(m.start("code"), m.end("num"), f"id:flight:{m['code']}{m['num']}")
        else:
            scan.take(m.start("train"), m.end("tnum"), f"id:flight:{m['train']}{m['tnum']}")


def _service_words(scan: _Scan) -> bool:
    return _SERVICE_WORD.search(scan.low) is not None or _TRAIN_QUICK.search(scan.text) is not None


SLOT_MARK = "@"


def _label_words(segment: str) -> list[str]:
    # A label word has two letters or more; digits inside it are OCR slips ("Tota1"),
    # while a word of digits alone (a quantity, a line number) is not part of a label.
    return list(_label_words_cached(segment[-80:]))


@lru_cache(maxsize=4096)
def _label_words_cached(segment: str) -> tuple[str, ...]:
    # (a word of letters alone, the common case, needs no count)
    return tuple(w for w in normalize(segment).split() if len(w) >= 2 and (w.isalpha() or sum(map(str.isalpha, w)) >= 2))


def _context(text: str, start: int) -> str:
    """The two words before a value, on its line (or the label above when the value opens
    its line), lower-case, accent-free and OCR-folded so that "Tota1 due" and "Total due"
    name one slot."""
    line_start = text.rfind("\n", 0, start) + 1
    words = _label_words(text[line_start:start])
    if not words and line_start > 0:
        words = _label_words(_label_above(text, line_start))
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


def _value_line(line: str) -> bool:
    return any(map(str.isdigit, line)) and 0 < len(line.split()) <= 5


def _label_line(line: str) -> bool:
    stripped = line.strip()
    return (bool(stripped) and not any(map(str.isdigit, stripped)) and len(stripped.split()) <= 5
            and not stripped.endswith(".") and len(_label_words(stripped)) > 0)


def _words(scan: _Scan) -> None:
    """Find trigger words; drop stamp lines and page numbers; note phone lines."""
    t, starts, low = scan.text, scan.starts, scan.low
    # Only the words that can start a pattern.
    for start, key in trigger_words(low):
        if start and low[start - 1] in "01|!":  # 1nvoice, 0ktober
            start -= 1
        for family in TRIGGERS[key]:
            starts.setdefault(family, []).append(start)
            if family == "id":
                scan.id_keys.append(key)
    for pos in starts.get("stamp", ()):
        if P.STAMP.match(t, pos) and _stamp_position(t, scan.line(pos), pos):
            scan.block(*scan.line(pos))
    for m in scan.finditer(P.ISO_TIMESTAMP):
        scan.block(*scan.line(m.start()))
    for pos in starts.get("page", ()):
        if page := P.PAGE.match(t, pos):
            scan.block(page.start(), page.end())
    scan.phone_lines = [scan.line(pos) for pos in starts.get("phone", ()) if P.PHONE.match(t, pos)]


def _stamp_position(text: str, line: tuple[int, int], pos: int) -> bool:
    """A stamp word makes a stamp line when it opens the line (after at most two words,
    e.g. "Kopie - gedruckt am") or the line is short; "we have not yet received payment of
    invoice ..." is a sentence, not a mail-room stamp."""
    before = text[line[0] : pos].split()
    return len(before) <= 2 or len(text[line[0] : line[1]].split()) <= 8


def _ibans(scan: _Scan) -> None:
    for m in scan.finditer(P.IBAN):
        value = m.group().replace(" ", "")
        if 15 <= len(value) <= 34:
            scan.take(m.start(), m.end(), "iban:" + value)


def _ids(scan: _Scan) -> None:
    for pos, key in zip(scan.starts.get("id", ()), scan.id_keys, strict=True):
        # The labels one by one, those that a word with this key can open (the alternation of
        # all of them in one pattern finds the same match: tests/test_extract_prefilters.py).
        for label in ID_LABELS_BY_KEY.get(key, ()):
            if (m := P.id_pattern(label).match(scan.text, pos)) is not None:
                break
        else:
            continue
        group = "az" if m["az"] is not None else "v"
        value = P.ID_JUNK.sub("", m[group]).upper()
        if 3 <= len(value) <= 40 and any(c.isdigit() for c in value) and not P.is_date(m[group]):
            scan.take(m.start(group), m.end(group), f"id:{label}:{value}")


def _streets(scan: _Scan) -> None:
    for m in scan.finditer(P.STREET):
        name, number = (m["s"], m["n"]) if m["s"] else (m["e"], m["en"])
        scan.take(m.start(), m.end(), "street:" + P.street_key(name) + number)


def _dates(scan: _Scan) -> None:
    t = scan.text
    for m in (*scan.finditer(P.DATE_ISO), *scan.finditer(P.DATE_DOT)):
        scan.take(m.start(), m.end(), P.date_token(int(m["y"]), int(m["m"]), int(m["d"])))
    for m in scan.finditer(P.DATE_DMY_TEXT):
        scan.take(m.start(), m.end(), P.date_token(int(m["y"].lstrip("'")), P.month_of(m), int(m["d"])))
    for pos in scan.starts.get("month", ()):
        if hit := P.MONTH_TEXT.match(t, pos):
            day = int(hit["d"]) if hit["d"] else None
            scan.take(hit.start(), hit.end(), P.date_token(int(hit["y"]), P.month_of(hit), day))
    slashed = [m for m in scan.finditer(P.DATE_SLASH) if 1 not in scan.mask[m.start() : m.end()]]
    us: bool | None = None
    for m in slashed:
        a, b = int(m["a"]), int(m["b"])
        if a > 12 or b > 12:
            month, day = (b, a) if a > 12 else (a, b)
        else:
            us = _us_dates(scan, slashed) if us is None else us
            month, day = (a, b) if us else (b, a)
        scan.take(m.start(), m.end(), P.date_token(int(m["y"]), month, day))
    for m in scan.finditer(P.MONTH_YEAR_NUM):
        scan.take(m.start(), m.end(), P.date_token(int(m["y"]), int(m["m"]), None))


def _us_dates(scan: _Scan, slashed: list[re.Match[str]]) -> bool:
    """Whether ``a/b/yyyy`` means month/day: the document's unambiguous dates decide, else its language."""
    month_first = sum(int(m["b"]) > 12 for m in slashed)
    day_first = sum(int(m["a"]) > 12 for m in slashed)
    if month_first != day_first:
        return month_first > day_first
    words = [m.group() for m in P.WORD.finditer(scan.low) if not scan.mask[m.start()]]
    return sum(w in P.ENGLISH_WORDS for w in words) > sum(w in P.GERMAN_WORDS for w in words)


def _amounts(scan: _Scan) -> None:
    matches = [*scan.finditer(P.AMOUNT_CUR_BEFORE), *scan.finditer(P.AMOUNT_CUR_AFTER)]
    if any(word in scan.low for word in P.FINANCIAL_WORDS):
        matches.extend(scan.finditer(P.AMOUNT_BARE))
    for m in matches:
        number = m["n"]
        if len(number) - max(number.rfind("."), number.rfind(",")) != 2:  # one decimal: mostly a lost digit
            value = P.cents(number)
            scan.take(m.start(), m.end(), f"amount:{value}" if value else None)


def _route(scan: _Scan, m: re.Match[str] | None, check_words: bool = True) -> None:
    if m is None or (check_words and {m["a"].split()[0].lower().rstrip("."),
                                      m["b"].split()[0].lower().rstrip(".")} & P.NOT_PLACES):
        return
    a, b = P.place_key(m["a"]), P.place_key(m["b"])
    if a and b and a != b and len(a) <= 60 and len(b) <= 60:
        scan.take(m.start("a"), m.end("b"), f"route:{a}>{b}")


def _sentence_break(m: re.Match[str]) -> bool:
    """"... wurden von Petra Lange dokumentiert. Nach Einschätzung der Projektleitung ...":
    the place ends a sentence and "Nach" (no colon: not a form's label) opens the next one."""
    between = m.string[m.end("a"):m.start("b")]
    return m["a"].endswith(".") and "Nach" in between and ":" not in between


def _routes(scan: _Scan) -> None:
    t, starts = scan.text, scan.starts
    for pos in starts.get("route", ()):
        _route(scan, P.ROUTE_LABELLED.match(t, pos), check_words=False)
    for pos in starts.get("von", ()):
        m = P.ROUTE_VON_NACH.match(t, pos)
        _route(scan, None if m is None or _sentence_break(m) else m)
    lines: set[tuple[int, int]] = set()
    for arrow in P.ARROWS:
        pos = t.find(arrow)
        while pos >= 0:
            lines.add(scan.line(pos))
            pos = t.find(arrow, pos + 1)
    for start, end in sorted(lines):
        for m in P.ROUTE_ARROW.finditer(t, start, end):
            _route(scan, m)
    for pos in starts.get("from", ()):
        _route(scan, P.ROUTE_FROM_TO.match(t, pos))
    for m in _route_codes(t):
        if m["a"] not in P.NOT_CODES and m["b"] not in P.NOT_CODES and m["a"] != m["b"]:
            scan.take(m.start(), m.end(), f"route:{m['a']}>{m['b']}")


#: The first "-" of a line, to the line's end.
_HYPHEN_LINE = _regex.compile(r"-[^\n]*")


def _route_codes(t: str) -> Iterator[re.Match[str]]:
    """``P.ROUTE_CODES.finditer(t)``.  A code pair has its "-" on its one line: only the lines
    with a hyphen are scanned (few; the "[A-Z]" the pattern opens with is on every line), up
    to and with their line break, which its look-ahead may read."""
    for hyphen in _HYPHEN_LINE.finditer(t):
        yield from P.ROUTE_CODES.finditer(t, t.rfind("\n", 0, hyphen.start()) + 1, hyphen.end() + 1)


def _refs(scan: _Scan) -> None:
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
