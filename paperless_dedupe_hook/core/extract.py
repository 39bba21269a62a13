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
First, a block of labels that OCR read apart from its values (the labels, then the values, in
one order) is read label by label again (:mod:`._columns`), control characters become blanks,
hyphenation at line ends is undone, and OCR look-alike
letters are folded inside numbers (``3l.0l.2024``, ``1.234,S6``, ``INV-2O26-1047``).  Lines with
a print, scan, fax or mail-room stamp (Gedruckt am, Druckdatum, Ausdruck vom, Printed, Fax,
Scan, Eingang, Received ...), ISO timestamps (``2024-01-31T14:35``) and page numbers yield
nothing, so a copy that only adds them has the same tokens.  Labels and month names tolerate
``rn``/``m``, ``l``/``1``/``I``, ``o``/``0`` and lost umlauts.

How two token sets are compared is in :mod:`.discriminative`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import _columns, _numbers, _places, placement
from . import _patterns as P
from ._scan import SLOT_MARK, Scan
from ._triggers import ID_LABELS_BY_KEY, TRIGGERS, prepare_and_digits, trigger_words
from .languages import fold_word
from .text import fold_ocr, normalize

__all__ = ["DIGIT_LED", "KINDS", "SLOT_MARK", "extract_features", "extract_placed", "extract_tokens", "token_kind"]

KINDS = ("date", "amount", "iban", "id", "ref", "route", "street")


def token_kind(token: str) -> str:
    """The kind of a ``kind:value`` token (``"date"``, ``"id"`` ...); ``""`` if it has none."""
    kind, sep, _ = token.partition(":")
    return kind if sep else ""


def extract_tokens(text: str, languages: Sequence[str] = (), hint: Sequence[str] = ()) -> frozenset[str]:
    """Canonical ``kind:value`` tokens of ``text`` (see the module docstring for the kinds).

    ``languages``: the codes the text may be in (empty: every language of core.languages);
    ``hint``: the languages it is likely in (``PAPERLESS_OCR_LANGUAGE``)."""
    return frozenset(_scan(text, languages, hint).tokens)


def extract_features(text: str, languages: Sequence[str] = (), hint: Sequence[str] = ()) -> frozenset[str]:
    """The tokens plus their slots: ``@<label words>=kind:value`` for each token, where the
    label words are the two words before the value ("invoice date", "grundmiete monatlich")."""
    scan = _scan(text, languages, hint)
    return frozenset(scan.tokens | scan.slots)


def extract_placed(text: str, languages: Sequence[str] = (), hint: Sequence[str] = ()) -> tuple[frozenset[str], bytes]:
    """:func:`extract_features` and where in the text each token stands
    (:func:`.placement.pack`: a first and a last place per token)."""
    scan = _scan(text, languages, hint)
    tokens = frozenset(scan.tokens | scan.slots)
    return tokens, placement.pack(tokens, scan.places, scan.text)


def _scan(text: str, languages: Sequence[str] = (), hint: Sequence[str] = ()) -> Scan:
    scan = Scan(*prepare_and_digits(_columns.rejoin(text)), allowed=tuple(languages), hint=tuple(hint))
    if scan.text.strip():
        for step in (_words, _numbers.ibans, _ids, _number_first_ids, _places.services, _numbers.dates,
                     _numbers.amounts, _places.streets, _places.routes, _numbers.refs):
            step(scan)
    return scan


#: The patterns that :meth:`Scan.finditer` scans in the digit regions only: each match has
#: an ASCII digit on its first line and crosses at most two line breaks (see
#: :func:`._triggers.digit_regions`; tests/test_extract_prefilters.py checks the claim).
DIGIT_LED = (P.IBAN, P.IBAN_LABELLED, P.ISO_TIMESTAMP, P.DATE_ISO, P.DATE_ISO_SPLIT_YEAR, P.DATE_DOT, P.DATE_DMY_TEXT, P.YEAR, P.DATE_SLASH,
             P.MONTH_YEAR_NUM, P.AMOUNT_CUR_BEFORE, P.AMOUNT_CUR_AFTER, P.AMOUNT_BARE, P.AMOUNT_BLANK_BEFORE,
             P.AMOUNT_BLANK_AFTER, P.AMOUNT_BLANK_BARE, P.STREET, P.STREET_JOINED, P.STREET_NUMBER_WRAPPED, P.REF,
             _places.SERVICE)


def _words(scan: Scan) -> None:
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
    for pos in starts.get("stampopen", ()):
        if P.STAMP_OPENER.match(t, pos) and not t[scan.line(pos)[0] : pos].strip(" \t>*-–|"):
            scan.block(*scan.line(pos))
    for m in scan.finditer(P.ISO_TIMESTAMP):
        scan.block(*scan.line(m.start()))
    for pos in starts.get("page", ()):
        if page := P.PAGE.match(t, pos):
            scan.block(page.start(), page.end())
    scan.phone_lines = [scan.line(pos) for pos in starts.get("phone", ()) if P.PHONE.match(t, pos)]


_DASHES = frozenset("-–—|·•*")


def _stamp_position(text: str, line: tuple[int, int], pos: int) -> bool:
    """A stamp word makes a stamp line when it opens the line (after at most two words,
    e.g. "Kopie - gedruckt am", "PROJET v2 – version du"; a dash is no word) or the line is short; "we have not yet received payment of
    invoice ..." is a sentence, not a mail-room stamp."""
    before = [w for w in text[line[0] : pos].split() if not all(c in _DASHES for c in w)]
    return len(before) <= 2 or len(text[line[0] : line[1]].split()) <= 8


def _ids(scan: Scan) -> None:
    for pos, key in zip(scan.starts.get("id", ()), scan.id_keys, strict=True):
        # The labels one by one, those that a word with this key can open (the alternation of
        # all of them in one pattern finds the same match: tests/test_extract_prefilters.py).
        for label in ID_LABELS_BY_KEY.get(key, ()):
            if (m := P.id_pattern(label).match(scan.text, pos)) is not None:
                break
        else:
            continue
        group = "az" if m["az"] is not None else "v"
        _take_id(scan, m, group, label)


def _take_id(scan: Scan, m: re.Match[str], group: str, label: str, slot: str | None = None) -> None:
    value = P.ID_JUNK.sub("", m[group]).upper()
    if 3 <= len(value) <= 40 and any(c.isdigit() for c in value) and not P.is_date(m[group]):
        scan.take(m.start(group), m.end(group), f"id:{label}:{value}", slot)


#: Words after a number word that are read as its label's stem (at most).
_STEM_WORDS = 5


def _number_first_ids(scan: Scan) -> None:
    """``N° de facture : 2024-118``, ``Numéro de client 48213``, ``Número de póliza KJ89956964``,
    ``Codice fiscale RSSMRA80A01H501U``: a number word, connectors, a stem the languages name
    (looked up, one to five words) and the value.  The slot is named ``no <stem>``, so that
    ``N° de facture`` and ``Date de facture`` name two slots."""
    t = scan.text
    for pos in scan.starts.get("numfirst", ()):
        head = P.NUMBER_WORD.match(t, pos)
        if head is None or fold_word(head.group()) not in P.NUMBER_FIRST_WORDS:
            continue
        words: list[tuple[str, int]] = []  # (folded word, end) of the stem's words
        end = head.end()
        while len(words) < _STEM_WORDS + 2 and (w := P.LABEL_WORD.match(t, end)) is not None:
            end = w.end()
            folded = fold_word(w["w"]).rstrip("'’")
            if not words and folded in P.NUMBER_FIRST_CONNECTORS:
                continue  # "de", "de la", "d'"
            words.append((folded, end))
        for k in range(min(_STEM_WORDS, len(words)), 0, -1):
            stem = " ".join(w for w, _ in words[:k])
            label = P.NUMBER_FIRST_STEMS.get(stem)
            if label is not None and (m := P.ID_VALUE.match(t, words[k - 1][1])) is not None:
                group = "az" if m["az"] is not None else "v"
                _take_id(scan, m, group, label, "no " + fold_ocr(normalize(stem)))
                break
