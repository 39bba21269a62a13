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

Similarity.  A token on one side only is *no* evidence of a different document (a missing page
drops tokens, a cover sheet adds some); two different values where each side has its own is.
Tokens on both sides *agree*.  The rest are paired where they are plausibly one value read
twice: an id with and without its label, one OCR-confusable substitution (letter/digit look-
alikes from 4 characters, 1/7, 3/8, 5/6, 6/8, 0/8 from 6) or one dropped or doubled character
(from 5) in an id, ref, route or IBAN; such pairs agree.  Dates and amounts must match exactly,
but pairs that OCR makes of one value are set aside as *neutral* (neither agreement nor
conflict): dates or amounts one ``1``/``7`` or ``3``/``8`` slip apart, a day that lost a digit,
an amount and a leading or trailing piece of it, an id or ref inside a longer one, IBANs sharing
14 characters, a month covered by a full date on the other side, streets whose names are 85 %
alike (rapidfuzz ratio) with house numbers one edit apart.  Sequential numbers (``...1047``
vs ``...1048``) still conflict.  What stays unmatched on *both* sides of one class conflicts:
``C(class) = min(w(unmatched_a), w(unmatched_b))``.

    D = M / (M + C_weak + C_strong * (1 + M / 2)),  1.0 when there is no conflict

``M`` sums agreement weights, ``C_strong`` the conflicts of dates, months, ids, routes, IBANs, streets,
``C_weak`` those of amounts and refs.  Agreement is cheap and conflict expensive, since a series
agrees on its static values: route 1/4, id 1.5/4 (0.5/4 for customer, account, contract, policy,
tax, register ... numbers that recur on every document of a series), date 1/2.5, IBAN 0.5/3,
street 0.5/3, amount 0.5/1, ref 0.75/1.5.  A strong conflict is what a rescan never shows and a series always
does, and the more two texts agree elsewhere the more it says, hence the ``1 + M/2`` factor: one
date conflict caps D at 0.44.  OCR damage that slips through mostly hits amounts, which only
lower D in proportion.  ``weight(token)`` multiplies both weights (an IDF normalised to mean 1
lets a customer number printed on every invoice count for less).  D is in [0, 1],
deterministic and exactly symmetric (canonical side order, :func:`math.fsum`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from functools import lru_cache

from rapidfuzz.distance import Levenshtein
from rapidfuzz.fuzz import ratio

from . import _patterns as P
from .text import fold_ocr, normalize

__all__ = ["KINDS", "discriminative_similarity", "extract_tokens", "token_kind"]

KINDS = ("date", "amount", "iban", "id", "ref", "route", "street")

#: kind -> (agreement weight, conflict weight); ids of a STATIC_ID_LABELS label agree for 0.5.
_WEIGHTS = {"route": (1.0, 4.0), "id": (1.5, 4.0), "iban": (0.5, 3.0), "date": (1.0, 2.5),
            "amount": (0.5, 1.0), "ref": (0.75, 1.5), "street": (0.5, 3.0)}
_STATIC_ID_WEIGHTS = (0.5, 4.0)
_OTHER_WEIGHTS = (0.5, 1.0)  # a kind this module does not know (a caller's own token)
_STRONG = frozenset({"date", "month", "id", "route", "iban", "street"})
_STRONG_SCALE = 2.0  # one strong conflict of weight 3 caps D at 1 / (1 + 3 / 2) = 0.4

_LOOK_ALIKE = frozenset(frozenset(p) for p in ("O0", "D0", "Q0", "I1", "L1", "S5", "B8", "Z2", "G6", "A4", "T7"))
_DIGIT_CONFUSABLE = frozenset(frozenset(p) for p in ("17", "38"))
_CONFUSABLE = _LOOK_ALIKE | _DIGIT_CONFUSABLE | {frozenset(p) for p in ("56", "68", "08")}
_NEUTRAL_KINDS = frozenset({"date", "amount"})
_MIN_FUZZY = {"id": 4, "ref": 6, "route": 6, "iban": 6, "date": 10, "amount": 3, "street": 5}
_STREET_RATIO = 85  # rapidfuzz ratio of two street names that are one name read twice
_HOUSE = re.compile(r"[0-9][0-9a-z]*$")
_MAX_SCAN = 64  # candidates per token for the fragment check (bounds the cost on huge documents)


def token_kind(token: str) -> str:
    """The kind of a ``kind:value`` token (``"date"``, ``"id"`` ...); ``""`` if it has none."""
    kind, sep, _ = token.partition(":")
    return kind if sep else ""


# --- extraction --------------------------------------------------------------------------------


class _Scan:
    """The prepared text, the characters already claimed, the tokens found, where trigger words start."""

    __slots__ = ("text", "mask", "tokens", "slots", "starts", "phone_lines")

    def __init__(self, text: str) -> None:
        self.text = text
        self.mask = bytearray(len(text))
        self.tokens: set[str] = set()
        self.slots: set[str] = set()
        self.starts: dict[str, list[int]] = {}
        self.phone_lines: list[tuple[int, int]] = []

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


def extract_tokens(text: str) -> frozenset[str]:
    """Canonical ``kind:value`` tokens of ``text`` (see the module docstring for the kinds)."""
    return frozenset(_scan(text).tokens)


def extract_features(text: str) -> frozenset[str]:
    """The tokens plus their slots: ``@<label words>=kind:value`` for each token, where the
    label words are the two words before the value ("invoice date", "grundmiete monatlich")."""
    scan = _scan(text)
    return frozenset(scan.tokens | scan.slots)


def _scan(text: str) -> _Scan:
    scan = _Scan(P.prepare(text))
    if scan.text.strip():
        for step in (_words, _ibans, _ids, _services, _dates, _amounts, _streets, _routes, _refs):
            step(scan)
    return scan


# "Flight XB 606", "Flug LH 2034", "ICE 1234", "Zug RE 5": which service a ticket is for.
_SERVICE = re.compile(
    r"(?i:\b(?:flight|flug|zug|train)\b[ \t]*(?:no\.?|nr\.?|number|nummer)?[ \t]*:?[ \t]*)"
    r"(?P<code>[A-Z]{2,3}|[A-Z][0-9]|[0-9][A-Z])[ \t]?(?P<num>[0-9]{1,4})\b"
    r"|\b(?P<train>ICE|IC|EC|RE|RB|TGV|EN|NJ)[ \t](?P<tnum>[0-9]{1,5})\b"
)


# Cheap tests that tell whether _SERVICE can match at all (it is slow to scan: an
# alternation under (?i) at every position), most documents being no tickets.
# (searched in the lower-cased text: a (?i) alternation is as slow as _SERVICE itself)
_SERVICE_WORD = re.compile(r"(?:flight|flug|zug|train)\b")  # no leading \\b: it hides the first letters from the fast scan
_TRAIN_QUICK = re.compile(r"(?:ICE|IC|EC|RE|RB|TGV|EN|NJ)[ \t][0-9]")


def _services(scan: _Scan) -> None:
    if _SERVICE_WORD.search(scan.text.lower()) is None and _TRAIN_QUICK.search(scan.text) is None:
        return
    for m in _SERVICE.finditer(scan.text):
        if m["code"]:
            scan.take(m.start("code"), m.end("num"), f"id:flight:{m['code']}{m['num']}")
        else:
            scan.take(m.start("train"), m.end("tnum"), f"id:flight:{m['train']}{m['tnum']}")


SLOT_MARK = "@"


def _label_words(segment: str) -> list[str]:
    # A label word has two letters or more; digits inside it are OCR slips ("Tota1"),
    # while a word of digits alone (a quantity, a line number) is not part of a label.
    return list(_label_words_cached(segment[-80:]))


@lru_cache(maxsize=4096)
def _label_words_cached(segment: str) -> tuple[str, ...]:
    return tuple(w for w in normalize(segment).split() if sum(c.isalpha() for c in w) >= 2)


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
    return any(c.isdigit() for c in line) and 0 < len(line.split()) <= 5


def _label_line(line: str) -> bool:
    stripped = line.strip()
    return (bool(stripped) and not any(c.isdigit() for c in stripped) and len(stripped.split()) <= 5
            and not stripped.endswith(".") and len(_label_words(stripped)) > 0)


def _words(scan: _Scan) -> None:
    """Find trigger words; drop stamp lines and page numbers; note phone lines."""
    t, starts, get = scan.text, scan.starts, P.TRIGGERS.get
    low = t.lower()  # same length: the one character whose lower case is longer (U+0130) was mapped
    for m in P.WORD.finditer(low):
        families = get(m.group(1))
        if families:
            start = m.start()
            if start and low[start - 1] in "01|!":  # 1nvoice, 0ktober
                start -= 1
            for family in families:
                starts.setdefault(family, []).append(start)
    for pos in starts.get("stamp", ()):
        if P.STAMP.match(t, pos) and _stamp_position(t, scan.line(pos), pos):
            scan.block(*scan.line(pos))
    for m in P.ISO_TIMESTAMP.finditer(t):
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
    for m in P.IBAN.finditer(scan.text):
        value = m.group().replace(" ", "")
        if 15 <= len(value) <= 34:
            scan.take(m.start(), m.end(), "iban:" + value)


def _ids(scan: _Scan) -> None:
    for pos in scan.starts.get("id", ()):
        if (m := P.ID.match(scan.text, pos)) is None:
            continue
        group = "az" if m["az"] is not None else "v"
        value = P.ID_JUNK.sub("", m[group]).upper()
        if 3 <= len(value) <= 40 and any(c.isdigit() for c in value) and not P.is_date(m[group]):
            label = next(name for name in P.ID_LABELS if m["L_" + name] is not None)
            scan.take(m.start(group), m.end(group), f"id:{label}:{value}")


def _streets(scan: _Scan) -> None:
    for m in P.STREET.finditer(scan.text):
        name, number = (m["s"], m["n"]) if m["s"] else (m["e"], m["en"])
        scan.take(m.start(), m.end(), "street:" + P.street_key(name) + number)


def _dates(scan: _Scan) -> None:
    t = scan.text
    for m in (*P.DATE_ISO.finditer(t), *P.DATE_DOT.finditer(t)):
        scan.take(m.start(), m.end(), P.date_token(int(m["y"]), int(m["m"]), int(m["d"])))
    for m in P.DATE_DMY_TEXT.finditer(t):
        scan.take(m.start(), m.end(), P.date_token(int(m["y"].lstrip("'")), P.month_of(m), int(m["d"])))
    for pos in scan.starts.get("month", ()):
        if hit := P.MONTH_TEXT.match(t, pos):
            day = int(hit["d"]) if hit["d"] else None
            scan.take(hit.start(), hit.end(), P.date_token(int(hit["y"]), P.month_of(hit), day))
    slashed = [m for m in P.DATE_SLASH.finditer(t) if 1 not in scan.mask[m.start() : m.end()]]
    us: bool | None = None
    for m in slashed:
        a, b = int(m["a"]), int(m["b"])
        if a > 12 or b > 12:
            month, day = (b, a) if a > 12 else (a, b)
        else:
            us = _us_dates(scan, slashed) if us is None else us
            month, day = (a, b) if us else (b, a)
        scan.take(m.start(), m.end(), P.date_token(int(m["y"]), month, day))
    for m in P.MONTH_YEAR_NUM.finditer(t):
        scan.take(m.start(), m.end(), P.date_token(int(m["y"]), int(m["m"]), None))


def _us_dates(scan: _Scan, slashed: list[re.Match[str]]) -> bool:
    """Whether ``a/b/yyyy`` means month/day: the document's unambiguous dates decide, else its language."""
    month_first = sum(int(m["b"]) > 12 for m in slashed)
    day_first = sum(int(m["a"]) > 12 for m in slashed)
    if month_first != day_first:
        return month_first > day_first
    words = [m.group() for m in P.WORD.finditer(scan.text.lower()) if not scan.mask[m.start()]]
    return sum(w in P.ENGLISH_WORDS for w in words) > sum(w in P.GERMAN_WORDS for w in words)


def _amounts(scan: _Scan) -> None:
    t = scan.text
    matches = [*P.AMOUNT_CUR_BEFORE.finditer(t), *P.AMOUNT_CUR_AFTER.finditer(t)]
    low = t.lower()
    if any(word in low for word in P.FINANCIAL_WORDS):
        matches.extend(P.AMOUNT_BARE.finditer(t))
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


def _routes(scan: _Scan) -> None:
    t, starts = scan.text, scan.starts
    for pos in starts.get("route", ()):
        _route(scan, P.ROUTE_LABELLED.match(t, pos), check_words=False)
    for pos in starts.get("von", ()):
        _route(scan, P.ROUTE_VON_NACH.match(t, pos))
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
    for m in P.ROUTE_CODES.finditer(t):
        if m["a"] not in P.NOT_CODES and m["b"] not in P.NOT_CODES and m["a"] != m["b"]:
            scan.take(m.start(), m.end(), f"route:{m['a']}>{m['b']}")


def _refs(scan: _Scan) -> None:
    t = scan.text
    for start, end in scan.phone_lines:
        scan.block(start, end)
    for m in P.REF.finditer(t):
        raw = m.group()
        if " " in raw and (raw[0] == "0" or t[max(0, m.start() - 3) : m.start()].rstrip()[-1:] in ("+", ")")):
            continue  # 0161 203 4314, (617) 555 0199: a phone number
        digits = "".join(c for c in raw if c.isdigit())
        if 6 <= len(digits) <= 30:
            scan.take(m.start(), m.end(), "ref:" + digits)


# --- similarity --------------------------------------------------------------------------------


def _weights(token: str) -> tuple[float, float]:
    """(agreement weight, conflict weight) of a token."""
    kind = token_kind(token)
    if kind == "id" and token.split(":", 2)[1] in P.STATIC_ID_LABELS:
        return _STATIC_ID_WEIGHTS
    return _WEIGHTS.get(kind, _OTHER_WEIGHTS)


def _split(token: str) -> tuple[str, str]:
    """(namespace, value): ``id:invoice:X`` -> (``id:invoice:``, ``X``)."""
    cut = token.find(":", 3) + 1 if token.startswith("id:") else token.find(":") + 1
    return token[:cut], token[cut:]


def _id_key(token: str) -> str | None:
    """The number an id and a ref share when one side lost the label (digits if >= 6 of them)."""
    if token_kind(token) not in ("id", "ref"):
        return None
    value = _split(token)[1]
    digits = "".join(c for c in value if c.isdigit())
    return digits if len(digits) >= 6 else value


def _variants(value: str, neutral: bool) -> Iterable[tuple[str, int, str]]:
    """Keys shared by values one substitution or one deletion apart."""
    for i in range(len(value)):
        yield "s", i, value[:i] + "\0" + value[i + 1 :]
        if not neutral or value.isdigit():
            yield "d", -1, value[:i] + value[i + 1 :]
    yield "d", -1, value


def _near(x: str, y: str, neutral: bool) -> bool:
    """One confusable substitution, or one dropped/doubled character, apart."""
    if len(x) == len(y):
        diff = [(p, q) for p, q in zip(x, y, strict=True) if p != q]
        table = _DIGIT_CONFUSABLE if neutral else _CONFUSABLE if len(x) >= 6 else _LOOK_ALIKE
        return len(diff) == 1 and frozenset(diff[0]) in table
    return abs(len(x) - len(y)) == 1 and ((x + y).isdigit() if neutral else min(len(x), len(y)) >= 5)


def _compatible(kind: str, x: str, y: str) -> bool:
    """A value and a fragment of it (a number split by a stray blank, a day that lost a digit)."""
    short, long = sorted((x, y), key=lambda v: (len(v), v))
    if kind == "amount":  # 1.936,56 read as 9 36,56; 24,74 read as 24,741 (thousands)
        return len(short) >= 3 and (long.endswith(short) or long.startswith(short))
    if kind == "date":
        if len(x) != 10 or len(y) != 10 or x[:8] != y[:8]:
            return False
        dx, dy = x[8:].lstrip("0"), y[8:].lstrip("0")
        return (len(dx) == 1 and dx in dy) or (len(dy) == 1 and dy in dx)
    if kind == "iban":
        return x[:14] == y[:14]
    if kind == "street":  # one address read twice, with OCR slips in the name or the number
        (nx, hx), (ny, hy) = _house(x), _house(y)
        return ratio(nx, ny) >= _STREET_RATIO and Levenshtein.distance(hx, hy) <= 1
    return kind in ("id", "ref") and len(short) >= 6 and short in long


def _house(street: str) -> tuple[str, str]:
    """(street name, house number) of a street token's value."""
    m = _HOUSE.search(street)
    return (street[: m.start()], m.group()) if m else (street, "")


def _pair(only_a: list[str], only_b: list[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Among unmatched tokens: pairs that agree (an id read with and without its label, one OCR slip
    in a long value) and neutral pairs (dates and amounts one OCR slip apart, fragments)."""
    matched: list[tuple[str, str]] = []
    neutral: list[tuple[str, str]] = []
    used: set[str] = set()
    by_key: dict[str, list[str]] = {}
    for tb in only_b:
        if (key := _id_key(tb)) is not None:
            by_key.setdefault(key, []).append(tb)
    buckets: dict[tuple[str, str, int, str], list[str]] = {}
    for tb in only_b:
        space, value = _split(tb)
        kind = token_kind(tb)
        if len(value) >= _MIN_FUZZY.get(kind, 1000):
            for variant in _variants(value, kind in _NEUTRAL_KINDS):
                buckets.setdefault((space, *variant), []).append(tb)
    left: list[str] = []
    for ta in only_a:
        space, value = _split(ta)
        kind = token_kind(ta)
        is_neutral = kind in _NEUTRAL_KINDS
        key = _id_key(ta)
        hit = next((tb for tb in by_key.get(key, ()) if tb not in used), None) if key is not None else None
        if hit is None and len(value) >= _MIN_FUZZY.get(kind, 1000):
            probes = [(space, *v) for v in _variants(value, is_neutral)]
            hit = next((tb for probe in probes for tb in buckets.get(probe, ())
                        if tb not in used and _near(value, _split(tb)[1], is_neutral)), None)
        if hit is None:
            left.append(ta)
        else:
            used.add(hit)
            (neutral if is_neutral else matched).append((ta, hit))
    by_space: dict[str, list[str]] = {}
    for tb in only_b:
        if tb not in used:
            by_space.setdefault(_split(tb)[0], []).append(tb)
    for ta in left:
        space, value = _split(ta)
        candidates = by_space.get(space, [])
        if len(candidates) <= _MAX_SCAN:
            hit = next((tb for tb in candidates
                        if tb not in used and _compatible(token_kind(ta), value, _split(tb)[1])), None)
            if hit is not None:
                used.add(hit)
                neutral.append((ta, hit))
    return matched, neutral


def _evidence(
    a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None
) -> tuple[float, dict[str, float]]:
    """(agreement weight, conflict weight per conflict class) of two token sets."""
    sa, sb = sorted(set(a)), sorted(set(b))
    if sb < sa:  # a canonical order makes the greedy pairing, hence D, exactly symmetric
        sa, sb = sb, sa
    cache: dict[str, float] = {}

    def w(token: str, which: int) -> float:
        if token not in cache:
            x = 1.0 if weight is None else float(weight(token))
            cache[token] = x if math.isfinite(x) and x > 0.0 else 0.0
        return cache[token] * _weights(token)[which]

    set_a, set_b = set(sa), set(sb)
    agree = [w(t, 0) for t in sa if t in set_b]
    only_a = [t for t in sa if t not in set_b]
    only_b = [t for t in sb if t not in set_a]
    matched, neutral = _pair(only_a, only_b)
    agree.extend((w(ta, 0) + w(tb, 0)) / 2.0 for ta, tb in matched)
    gone = {t for pair in (*matched, *neutral) for t in pair}
    sides: tuple[dict[str, list[float]], dict[str, list[float]]] = ({}, {})
    for tokens, other, side in ((only_a, sb, sides[0]), (only_b, sa, sides[1])):
        months = {t[:12] for t in other if t.startswith("date:") and len(t) == 15}
        for t in tokens:
            if t not in gone and t not in months:  # date:2024-01 agrees with date:2024-01-31
                kind = token_kind(t)
                side.setdefault("month" if kind == "date" and len(t) == 12 else kind, []).append(w(t, 1))
    conflicts = {k: min(math.fsum(sides[0][k]), math.fsum(sides[1][k])) for k in sides[0].keys() & sides[1].keys()}
    return math.fsum(agree), {k: v for k, v in sorted(conflicts.items()) if v > 0.0}


def discriminative_similarity(
    a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None = None
) -> float:
    """How far two token sets agree where both have values: 1.0 = no conflict, near 0 = a series.

    ``weight(token)`` (default 1.0; negative or non-finite counts as 0) multiplies the kind
    weights; it should be about 1 for an ordinary token (an IDF normalised to mean 1).  See the
    module docstring for the rule.
    """
    agree, conflicts = _evidence(a, b, weight)
    strong = math.fsum(v for k, v in conflicts.items() if k in _STRONG)
    weak = math.fsum(v for k, v in conflicts.items() if k not in _STRONG)
    if strong + weak <= 0.0:
        return 1.0
    return min(1.0, max(0.0, agree / (agree + weak + strong * (1.0 + agree / _STRONG_SCALE))))


def _slot_map(items: Collection[str]) -> dict[str, set[str]]:
    slots: dict[str, set[str]] = {}
    for item in items:
        if item.startswith(SLOT_MARK):
            label, _, token = item[1:].partition("=")
            if label:
                slots.setdefault(label, set()).add(token)
    return slots


def slot_conflicts(a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None = None) -> float:
    """Weight of the slots that hold one value in each document, and a different one.

    "Invoice date: 31.10." here and "Invoice date: 30.11." there is a conflict; a date that
    one document has in a sentence the other lacks is not (a draft gained a clause, a copy
    lost a page).  Slots with several values (table columns, transaction lists) never
    conflict: their values are compared as plain tokens.  Values that are plausibly one
    value read twice by OCR do not conflict either.
    """
    slots_a, slots_b = _slot_map(a), _slot_map(b)
    total: list[float] = []
    for label in sorted(slots_a.keys() & slots_b.keys()):
        va, vb = slots_a[label], slots_b[label]
        if len(va) != 1 or len(vb) != 1 or va == vb:
            continue
        (ta,), (tb,) = va, vb
        month_of_date = ta.startswith("date:") and min(len(ta), len(tb)) == 12 and ta[:12] == tb[:12]
        if token_kind(ta) != token_kind(tb) or month_of_date:
            continue  # date:2024-01 against date:2024-01-31: a day that OCR lost, as in _evidence
        matched, neutral = _pair([ta], [tb])
        if matched or neutral:
            continue
        wa = 1.0 if weight is None else float(weight(ta))
        wb = 1.0 if weight is None else float(weight(tb))
        factor = min(wa, wb)
        if math.isfinite(factor) and factor > 0.0:
            total.append(factor * _weights(ta)[1])
    return math.fsum(total)


#: A value that differs in the same labelled slot ("Miete monatlich 1.672,00" here,
#: "1.504,00" there) is the clearest sign of two documents of one form.
SLOT_CONFLICT_FACTOR = 1.0
#: How much a value that differs without a common label (kind-level conflict) counts
#: against one that differs in the same labelled slot.
UNLABELLED_CONFLICT_SHARE = 0.12


def slot_similarity(
    a: Collection[str], b: Collection[str], weight: Callable[[str], float] | None = None
) -> float:
    """``D`` from slots: agreement of the plain tokens against conflicting slots and, at a
    lower share, values of one kind that differ outside a common slot; a reversed route
    (a return ticket names it under another label) and another street address (two
    contracts on one form for two tenants) count as strongly as in
    :func:`discriminative_similarity`."""
    plain_a = [t for t in a if not t.startswith(SLOT_MARK)]
    plain_b = [t for t in b if not t.startswith(SLOT_MARK)]
    agree, conflicts = _evidence(plain_a, plain_b, weight)
    strong = conflicts.get("route", 0.0) + conflicts.get("street", 0.0)
    unlabelled = math.fsum(v for k, v in conflicts.items() if k not in ("route", "street"))
    weak = SLOT_CONFLICT_FACTOR * slot_conflicts(a, b, weight) + UNLABELLED_CONFLICT_SHARE * unlabelled
    if strong + weak <= 0.0:
        return 1.0
    return min(1.0, max(0.0, agree / (agree + weak + strong * (1.0 + agree / _STRONG_SCALE))))
