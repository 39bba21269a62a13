"""Compiled regular expressions, lookup tables and value parsers for :mod:`paperless_dedupe_hook.core.extract`.

Everything is built once at import, and compiled through :func:`._regex.compile` (a hook loads
the programs an earlier process recorded instead of compiling them again).  Speed matters (a
20,000-word document should take well under 100 ms), so:

* patterns scanned over the whole text start with a character class (a digit, an upper-case
  letter or a literal), which lets the regex engine skip every position that cannot start a
  match; word-boundary look-behinds therefore come *after* the first character;
* patterns that start with a word (labels, month names, stamp keywords) are never scanned over
  the whole text: :mod:`._triggers` finds the words that can start one once (its ``TRIGGERS``
  say which pattern families a word can start), and only those patterns are tried there with
  ``pattern.match(text, pos)``.

Word patterns go through :func:`tolerant`, which spells out upper and lower case and forgives
OCR confusions: ``m`` read as ``rn``, ``i``/``l`` as ``1``/``|``/``!``, ``o`` as ``0``, lost
umlauts (``ü`` as ``u`` or ``ue``) and ``ß`` as ``ss`` or ``B``.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from functools import cache
from typing import Final

from . import _regex
from .text import fold_ocr, normalize


def tolerant(literal: str) -> str:
    """Regex source for the lower-case ``literal``, either case, forgiving OCR confusions.

    A space stands for optional blanks (one line break included), ``-`` for an optional
    hyphen, slash or blank, ``.`` for an optional dot.
    """
    out: list[str] = []
    for ch in literal:
        if ch == " ":
            out.append(r"[ \t]*\n?[ \t]*")
        elif ch == "-":
            out.append(r"[ \t]*[-/]?[ \t]*")
        elif ch == ".":
            out.append(r"\.?")
        elif ch == "m":
            out.append("(?:[mM]|rn|RN)")
        elif ch in "il":
            out.append("[iIlL1|!]")
        elif ch == "o":
            out.append("[oO0]")
        elif ch in "äöü":
            base = {"ä": "a", "ö": "o", "ü": "u"}[ch]
            out.append(f"(?:[{ch}{ch.upper()}]|[{base}{base.upper()}][eE]?)")
        elif ch == "ß":
            out.append("(?:ß|ss|SS|B)")
        elif ch.isalpha():
            out.append(f"[{ch}{ch.upper()}]")
        else:
            out.append(re.escape(ch))
    return "".join(out)


def _alt(words: tuple[str, ...] | list[str]) -> str:
    """Tolerant alternation, longest literal first (so ``reference`` wins over ``ref``)."""
    return "|".join(tolerant(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


# --- text preparation --------------------------------------------------------------------------

_CONTROL: dict[int, str | None] = {c: " " for c in (*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F)}
_CONTROL.update({0x0C: "\n", 0x0D: "\n", 0x85: "\n", 0x2028: "\n", 0x2029: "\n"})
_CONTROL.update({c: " " for c in (0xA0, 0x2007, 0x2009, 0x200A, 0x202F, 0x3000)})
_CONTROL.update({c: "-" for c in (0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2212)})
_CONTROL.update({c: None for c in (0xAD, 0x200B, 0x200C, 0x200D, 0xFEFF)})
_CONTROL.update({0x2019: "'", 0x2018: "'", 0x130: "I"})
#: Replacement of odd characters (a regex finds the rare ones faster than ``str.translate`` copies all).
REPLACE: Final = {chr(c): r or "" for c, r in _CONTROL.items()}
ODD_CHARS: Final = _regex.compile("[" + "".join(re.escape(chr(c)) for c in sorted(_CONTROL)) + "]")

#: ``Rechnungs-\nnummer`` -> ``Rechnungsnummer`` (hyphenation at a line end, between letters).
DEHYPHEN: Final = _regex.compile(r"-(?<=[^\W\d_]-)[ \t]*\n[ \t]*(?=[^\W\d_])")

#: A digit and the rest of its word; :func:`._triggers.prepare` walks back to the word start.
DIGIT_WORD: Final = _regex.compile(r"[0-9][\w|!]*")
FOLD_CHARS: Final = frozenset("0123456789OoIl|!ZzASsbBg")
FOLD_TABLE: Final = str.maketrans("OoIl|!ZzASsbBg", "00111122455689")
NUMBER_SEPARATORS: Final = frozenset(".,:/-")

#: A letter run (searched in the lower-cased text); group 1 is its trigger key, the first four letters.
WORD: Final = _regex.compile(r"([^\W\d_]{1,4})[^\W\d_]*")


# --- print, scan and fax stamps; page numbers; phone lines -------------------------------------

_STAMP_WORDS = ("gedruckt", "ausgedruckt", "druckdatum", "druckzeit", "ausdruck", "printed", "print date",
                "print time", "fax", "telefax", "gefaxt", "faxed", "scan", "scanned", "gescannt", "scandatum",
                "eingang", "eingangsdatum", "eingangsstempel", "eingegangen", "received", "empfangen",
                "abgerufen", "heruntergeladen", "downloaded", "about:blank", "kopie für ihre unterlagen",
                "copy for your records", "zweitschrift", "duplikat",
                # version stamps of drafts: a new draft date is not a different contract
                "entwurf", "draft", "revision", "fassung")
#: Every token on a line with one of these words is ignored (``fax``, ``scan``, ``eingang`` as prefixes).
STAMP: Final = _regex.compile(
    "(?:" + _alt(_STAMP_WORDS) + r")(?:(?<=[xXnNgG])[\w]*)?(?!\w)"
)
_PHONE_WORDS = ("tel", "telefon", "phone", "fon", "mobil", "mobile", "handy", "hotline", "fax", "telefax")
#: References on a line with one of these words are phone numbers.
PHONE: Final = _regex.compile("(?:" + _alt(_PHONE_WORDS) + r")\w{0,8}(?!\w)")
_PAGE_WORDS = ("seite", "page", "blatt", "s.")
#: ``Seite 2 von 3``, ``Page 2 of 3``, ``S. 001/003``: ignored.
PAGE: Final = _regex.compile(
    "(?:" + _alt(_PAGE_WORDS) + r")[ \t]*[0-9]{1,4}(?:[ \t]*(?:von|of|/)[ \t]*[0-9]{1,4})?(?!\w)"
)

ENGLISH_WORDS: Final = frozenset(
    "the and of to for with from your you we our is are this that please thank invoice date total amount "
    "due dear regards".split()
)
GERMAN_WORDS: Final = frozenset(
    "der die das den dem des und ein eine mit für von zu ist sind nicht wir ihr ihre sie bitte rechnung "
    "datum summe betrag vom sehr geehrte grüßen".split()
)

# --- IBAN --------------------------------------------------------------------------------------

IBAN: Final = _regex.compile(
    r"[A-Z](?<![A-Za-z0-9][A-Z])[A-Z][0-9]{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?(?![A-Za-z0-9])"
)

# --- labelled identifiers ----------------------------------------------------------------------

#: label -> stems that need a number word after them ("Kunden" + "nummer", "Customer" + "No.").
ID_STEMS: Final[dict[str, tuple[str, ...]]] = {
    "invoice": ("rechnungs", "rechnung", "re", "rg", "invoice", "inv", "beleg", "bill", "faktura"),
    "customer": ("kunden", "kd", "customer", "cust", "client", "mandanten"),
    "account": ("konto", "account", "acct", "vertragskonto"),
    "order": ("bestell", "bestellungs", "auftrags", "auftrag", "order", "po", "purchase order"),
    "contract": ("vertrags", "vertrag", "contract", "agreement"),
    "policy": ("versicherungsschein", "versicherungs", "police", "policen", "policy", "versicherten"),
    "booking": ("buchungs", "booking", "reservierungs", "reservation", "confirmation", "bestätigungs"),
    "ticket": ("ticket", "fahrschein", "fahrkarten"),
    "tracking": ("sendungs", "tracking", "paket", "shipment"),
    "tax": ("steuer", "ust-id", "ust", "vat", "tax", "umsatzsteuer-id", "st", "steuerident", "uid"),
    "personnel": ("personal", "pers", "employee", "mitarbeiter"),
    "member": ("mitglieds", "member", "membership"),
    "flight": ("flug", "flight"),
    "delivery": ("lieferschein", "liefer", "lieferungs", "delivery note", "delivery", "dispatch note"),
    "register": ("registration", "company", "registered in england and wales", "handelsregister", "register"),
    "statement": ("kontoauszug", "auszug", "statement", "abrechnungs", "abrechnung"),
    "case": ("vorgangs", "vorgang", "case", "claim", "schadens", "akten", "referenz", "reference",
             "ref", "transaktions", "transaction", "kassenzeichen"),
}
#: label -> labels complete on their own ("Aktenzeichen", "Unser Zeichen", "Booking ref").
ID_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "case": ("aktenzeichen", "az.", "unser zeichen", "ihr zeichen", "unser az.", "ihr az.",
             "geschäftszeichen", "reference", "referenz", "ref.", "our ref.", "your ref.",
             "case reference", "kassenzeichen"),
    "booking": ("booking ref.", "booking reference", "buchungsreferenz", "buchungscode", "booking code", "pnr"),
    "tax": ("ust-idnr.", "ust-id", "ustid", "steuer-id", "vat reg.", "vat registration", "tin", "uid"),
    "register": ("hrb", "hra", "vr", "company registration"),
}
#: Labels whose value is the same on every document of a series (customer, contract, tax id ...).
STATIC_ID_LABELS: Final = frozenset(
    {"customer", "account", "contract", "policy", "tax", "personnel", "member", "register"}
)

#: The number words after a stem ("Kunden" + "nummer").
ID_SUFFIXES: Final = ("nummer", "nr.", "no.", "number", "num.", "n°", "nº", "№", "#", "id", "code", "kennung")
_SUFFIX = _alt(ID_SUFFIXES)
_CONNECT = r"[ \t]*[./-]?[ \t]*[./-]?[ \t]*"
ID_LABELS: Final = tuple(ID_STEMS)
#: label -> regex source of its part of a label: a stem and a number word, or a label word.
ID_LABEL_SOURCES: Final[dict[str, str]] = {}
for _name in ID_LABELS:
    _src = f"(?:{_alt(ID_STEMS[_name])}){_CONNECT}(?:{_SUFFIX})"
    if _name in ID_WORDS:
        _src = f"{_src}|{_alt(ID_WORDS[_name])}"
    ID_LABEL_SOURCES[_name] = _src
_ID_HEAD = r"(?<![^\W_])(?:"
#: ``label [:#.] value``; the value needs a digit in its first word (after an optional 1-4 letter prefix).
_ID_TAIL = (
    r")(?![^\W\d_])[ \t:#.]*\n?[ \t:#.]*"
    r"(?:(?P<az>[0-9]{1,3}[ \t]+[A-Za-z]{1,4}[ \t]+[0-9]{1,6}/[0-9]{2,4})"
    r"|(?=[A-Za-z]{0,4}[ ]?[A-Za-z0-9/.-]*[0-9])"
    r"(?P<v>[A-Za-z0-9](?:[A-Za-z0-9]|[-/.](?=[A-Za-z0-9])|[ ](?=[0-9]{2,}(?![0-9]*[.,:][0-9])))*))"
)
#: All labels in one pattern, each in a group ``L_<label>``, in ID_LABELS order: what
#: :func:`id_pattern` tries one label at a time (tests compare the two).
ID_SOURCE: Final = _ID_HEAD + "|".join(f"(?P<L_{n}>{src})" for n, src in ID_LABEL_SOURCES.items()) + _ID_TAIL


@cache
def id_pattern(label: str) -> re.Pattern[str]:
    """``label [:#.] value`` for one label of ID_LABELS.  Trying the labels one by one in
    ID_LABELS order finds what the alternation of all of them (ID_SOURCE) finds; compiled the
    first time a text has a word that can open this label: the hook's one document needs a
    few of the 17 labels, and all of them in one pattern take ~30 ms to compile."""
    return _regex.compile(_ID_HEAD + ID_LABEL_SOURCES[label] + _ID_TAIL)


ID_JUNK: Final = _regex.compile(r"[^A-Za-z0-9]")

# --- dates -------------------------------------------------------------------------------------

MONTHS: Final[tuple[tuple[str, ...], ...]] = (
    ("januar", "january", "jänner", "jan.", "jän."),
    ("februar", "february", "feber", "febr.", "feb."),
    ("märz", "march", "mär.", "mrz.", "mar."),
    ("april", "apr."),
    ("mai", "may"),
    ("juni", "june", "jun."),
    ("juli", "july", "jul."),
    ("august", "aug."),
    ("september", "sept.", "sep."),
    ("oktober", "october", "okt.", "oct."),
    ("november", "nov."),
    ("dezember", "december", "dez.", "dec."),
)
_MONTH = "(?:" + "|".join(f"(?P<m{i + 1}>{_alt(names)})" for i, names in enumerate(MONTHS)) + r")(?![^\W\d_])\.?"
_ORD = r"(?:st|nd|rd|th|ST|ND|RD|TH)?"
_BLANK = r"(?:[ \t]+\n?|\n)[ \t]*"  # at least one blank, at most one line break
_DAY = r"(?P<d>[0-9](?<![0-9.,][0-9])[0-9]?)"
#: ``2024-01-31T14:35``: a machine timestamp (scanner, printer, export); its line is a stamp line.
ISO_TIMESTAMP: Final = _regex.compile(r"(?:19|20)[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}")
DATE_ISO: Final = _regex.compile(
    r"(?P<y>(?:19|20)[0-9]{2})(?<![0-9.,/-]....)[-/.](?P<m>[0-9]{1,2})[-/.](?P<d>[0-9]{1,2})(?![0-9])"
)
DATE_DOT: Final = _regex.compile(
    _DAY + r"[ \t]?[.,][ \t]?(?P<m>[0-9]{1,2})[ \t]?[.,][ \t]?(?P<y>[0-9]{4}|[0-9]{2})(?![0-9]|[.,][0-9])"
)
DATE_SLASH: Final = _regex.compile(
    r"(?P<a>[0-9](?<![0-9./-][0-9])[0-9]?)(?P<s>[/-])(?P<b>[0-9]{1,2})(?P=s)(?P<y>[0-9]{4}|[0-9]{2})"
    r"(?![0-9]|[./-][0-9])"
)
#: The look-ahead asks for a letter that can start a month (or "of"): j, f, m, r (``rn`` for
#: ``m``), a, s, o, n, d; any letter would do, the tighter class only fails sooner (20 %).
DATE_DMY_TEXT: Final = _regex.compile(
    _DAY + _ORD + r"\.?(?=[ \t.-]*\n?[ \t-]*(?:of[ \t]+)?[jJfFmMrRaAsSoOnNdD])[ \t-]*\n?[ \t-]*(?:of[ \t]+)?"
    + _MONTH + r"[ \t,-]*\n?[ \t,-]*(?P<y>[0-9]{4}|'[0-9]{2})(?![0-9])"
)
#: ``January 31st, 2024`` and ``Januar 2024`` (no day); tried only where a month word starts.
MONTH_TEXT: Final = _regex.compile(
    rf"{_MONTH}{_BLANK}(?:(?P<d>[0-9]{{1,2}}){_ORD}[,.]{{0,2}}{_BLANK})?(?P<y>(?:19|20)[0-9]{{2}})(?![0-9])"
)
MONTH_YEAR_NUM: Final = _regex.compile(
    r"(?P<m>[0-9](?<![0-9./-][0-9])[0-9]?)[/.](?P<y>(?:19|20)[0-9]{2})(?![0-9]|[./-][0-9])"
)

# --- amounts -----------------------------------------------------------------------------------

_NUM_REST = r"(?:[0-9]{0,2}(?:[.,'][0-9]{3})+(?:[.,][0-9]{1,2})?|[0-9]{0,11}(?:[.,][0-9]{1,2})?)"
_CODES = ("EUR", "EURO", "Euro", "USD", "GBP", "CHF")
_CUR = "€|\\$|£|" + "|".join(f"{c}(?<![A-Za-z]{c})" for c in _CODES)
AMOUNT_CUR_BEFORE: Final = _regex.compile(
    rf"(?:{_CUR})[ \t]{{0,2}}(?P<n>[0-9]{_NUM_REST})(?:[.,]-{{1,2}})?(?![0-9]|[.,][0-9])"
)
AMOUNT_CUR_AFTER: Final = _regex.compile(
    rf"(?P<n>[0-9](?<![\w.,][0-9]){_NUM_REST})(?:[.,]-{{1,2}})?[ \t]{{0,2}}"
    r"(?:€|\$|£|(?:" + "|".join(_CODES) + r")(?![A-Za-z]))"
)
#: A bare ``1.234,56`` / ``1,234.56`` / ``99.60`` (two decimals) in a document that talks money.
AMOUNT_BARE: Final = _regex.compile(
    r"(?P<n>[0-9](?<![\w.,][0-9])(?:[0-9]{0,2}(?:[.,'][0-9]{3})+[.,][0-9]{2}|[0-9]{0,8}[.,][0-9]{2}))"
    r"(?![\w]|[.,][0-9])(?![ \t]*(?:%|[uU][hH][rR](?!\w)|h(?!\w)))"
)
#: Lower-case substrings that make a document financial (bare two-decimal numbers become amounts).
FINANCIAL_WORDS: Final = ("€", "$", "£", "eur", "usd", "gbp", "chf", "betrag", "summe", "gesamt", "total",
                          "amount", "netto", "brutto", "mwst", "vat", "saldo", "balance", "kontostand",
                          "preis", "price")

# --- routes ------------------------------------------------------------------------------------

_PLACE = r"[^\W\d_][\w.'()/-]*(?:[ \t]+[^\W\d_][\w.'()/-]*){0,3}"
_PLACE3 = r"[^\W\d_][\w.'()/-]*(?:[ \t]+[^\W\d_][\w.'()/-]*){0,2}"
ARROWS: Final = ("->", "→", "⟶", "=>", "⇒", "➔", "➝", "➙")
_ARROW = r"(?:-+>|→|⟶|=+>|⇒|➔|➝|➙)"
_ROUTE_WORDS = ("out", "outbound", "ret", "return", "inbound", "hinfahrt", "hinflug", "hinreise", "hinweg",
                "rückfahrt", "rückflug", "rückreise", "rückweg", "strecke", "route", "verbindung", "relation",
                "flug", "flight", "fahrt", "trip", "journey", "hin", "rück")
ROUTE_LABELLED: Final = _regex.compile(
    rf"(?<!\w)(?:{_alt(_ROUTE_WORDS)})[ \t]*:[ \t]*\n?[ \t]*(?P<a>{_PLACE})"
    rf"(?:[ \t]+-[ \t]+|[ \t]*{_ARROW}[ \t]*|[ \t]+(?i:nach|to|bis)[ \t]+)(?P<b>{_PLACE})"
)
ROUTE_VON_NACH: Final = _regex.compile(
    rf"(?<!\w)[Vv]on[ \t]*:?[ \t]*(?=[A-ZÄÖÜ])(?P<a>{_PLACE3})[ \t,]*\n?[ \t]*(?<!\w)[Nn]ach[ \t]*:?[ \t]*"
    rf"(?=[A-ZÄÖÜ])(?P<b>{_PLACE3})"
)
ROUTE_FROM_TO: Final = _regex.compile(
    r"(?<!\w)[Ff]rom[ \t]+(?P<a>[A-Z][\w.'-]*(?:[ \t]+[A-Z][\w.'-]*){0,2})[ \t]+to[ \t]+"
    r"(?P<b>[A-Z][\w.'-]*(?:[ \t]+[A-Z][\w.'-]*){0,2})"
)
ROUTE_ARROW: Final = _regex.compile(rf"(?P<a>{_PLACE3})[ \t]*{_ARROW}[ \t]*(?P<b>{_PLACE3})")
ROUTE_CODES: Final = _regex.compile(r"(?P<a>[A-Z](?<![\w-][A-Z])[A-Z]{2})[ \t]?-[ \t]?(?P<b>[A-Z]{3})(?![\w-])")
#: Three-letter upper-case pairs that are not airport/station codes.
NOT_CODES: Final = frozenset({
    "EUR", "USD", "GBP", "CHF", "JPY", "VAT", "PDF", "XML", "CSV", "ZIP", "TAX", "NET", "ABC", "XYZ",
    "CEO", "CFO", "CTO", "USB", "LAN", "WAN", "SMS", "FAQ", "ISO", "DIN", "KFZ", "PKW", "LKW", "BGB", "HGB",
})
#: First words that make ``from X to Y`` a period or a range rather than a journey.
NOT_PLACES: Final = frozenset({
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "montag", "dienstag",
    "mittwoch", "donnerstag", "freitag", "samstag", "sonntag", "page", "seite", "mr", "mrs", "ms", "dr",
    "the", "this", "that", "we", "you", "i", "der", "die", "das", "den", "dem", "ihnen", "uns",
    "herr", "herrn", "frau",  # "von Herrn Koch geprüft. Nach ...": a person, not a place
    *(n.rstrip(".") for names in MONTHS for n in names),
})

# --- street addresses -------------------------------------------------------------------------

_STREET_PREFIX = r"(?:Am|Im|Zum|Zur|An[ \t]de[mnr]|Auf[ \t]de[mnr]|In[ \t]de[mnr]|Unter[ \t]den)[ \t]+"
_STREET_TYPES = ("street", "st.", "road", "rd.", "lane", "avenue", "ave.", "drive", "way", "close", "court",
                 "place", "square", "walk", "view", "hill", "terrace", "crescent", "gardens", "grove", "row",
                 "boulevard", "parkway", "mews")
_POSTCODE_EN = (r"(?:[A-Z]{1,2}[0-9][A-Z0-9]?[ \t]?[0-9][A-Z]{2}|[A-Z]{2}[ \t]?[0-9]{5}(?:-[0-9]{4})?"
                r"|[0-9]{4}[ \t]?[A-Z]{2}|[A-Z][0-9]{2}[ \t]?[A-Z0-9]{4})")
#: "Gartenstraße 54, 66111 Saarbrücken", "Am Stadtgraben 128\n86150 Augsburg" (a German street
#: and house number before a postcode and a town); "12 High Street", "7 Castle Hill", "195 York
#: Stret, EC1A 1BB London" (a house number and a street type, or a British, US, Dutch or Irish
#: postcode after it).
STREET: Final = _regex.compile(
    # The leading look-ahead names the first character of every match: with it the regex
    # engine skips to candidates (0.6 -> 0.24 ms on a 1,000-word letter), same matches.
    r"(?=[A-ZÄÖÜ0-9])(?:"
    # A name without a prefix is one word, so the word must be followed by blanks and a digit:
    # the possessive look-ahead says so at once, where backtracking through the word letter by
    # letter (every capitalised German noun) cost a third of the scan.
    rf"(?<![\w-])(?P<s>(?:{_STREET_PREFIX}[A-ZÄÖÜ]|[A-ZÄÖÜ](?=[\w.-]*+[ \t]+[0-9]))[\w.-]*[^\W\d_]\.?)"
    r"[ \t]+(?P<n>[0-9]{1,4}[a-z]?)"
    r"(?=(?:[ \t]*[,·|])?[ \t]*\n?[ \t]*(?:D-)?[0-9]{5},?[ \t]+[A-ZÄÖÜ])"
    rf"|(?<![\w.,-])(?P<en>[0-9]{{1,4}}[a-z]?)[ \t]+(?P<e>(?:[A-Z][\w'-]*[ \t]+){{1,3}}(?:{_alt(_STREET_TYPES)})(?!\w)"
    rf"|[A-Z][\w'-]*(?:[ \t]+[A-Z][\w'-]*){{0,2}}(?=[ \t]*,[ \t]*{_POSTCODE_EN}[ \t,]+[A-Z])))"
)


# --- long reference numbers --------------------------------------------------------------------

REF: Final = _regex.compile(
    r"[0-9](?<![\w/.,+][0-9])(?<![0-9]-[0-9])[0-9]*(?:(?:[-/]|[ ](?=[0-9]{3}))[0-9]+)*(?![\w]|[.,/-][0-9])"
)

# --- value parsers --------------------------------------------------------------------------------


def is_date(raw: str) -> bool:
    return any(rx.fullmatch(raw) for rx in (DATE_DOT, DATE_ISO, DATE_SLASH))


def month_of(m: re.Match[str]) -> int:
    """The month number of a match of a pattern with the month groups ``m1`` .. ``m12``."""
    return next(i for i in range(1, 13) if m[f"m{i}"] is not None)


def date_token(year: int, month: int, day: int | None) -> str | None:
    """``date:YYYY-MM-DD`` (``date:YYYY-MM`` without a day), or None for an impossible date."""
    if year < 100:
        year += 2000 if year < 70 else 1900
    if not 1900 <= year <= 2099 or not 1 <= month <= 12:
        return None
    if day is None:
        return f"date:{year:04d}-{month:02d}"
    try:
        dt.date(year, month, day)
    except ValueError:
        return None
    return f"date:{year:04d}-{month:02d}-{day:02d}"


def cents(number: str) -> int:
    """``1.234,56`` / ``1,234.56`` / ``1.234`` / ``12,5`` -> cents; a last group of three is thousands."""
    number = number.replace("'", "")
    cut = max(number.rfind("."), number.rfind(","))
    whole, frac = number, ""
    if cut >= 0 and len(number) - cut - 1 != 3:
        whole, frac = number[:cut], number[cut + 1 :]
    digits = "".join(c for c in whole if c.isdigit())
    return int(digits or "0") * 100 + int((frac + "00")[:2])


# "straße", "strasse", "str.", OCR's "strabe" (ß read as B) and "strase": one spelling.
_STREET_SUFFIX = _regex.compile(r"str(?:abe|ase)?$")


def street_key(name: str) -> str:
    """``Friedrich-Ebert-Str.`` -> ``frledrlchebertstrasse``: normalized, OCR-folded, no blanks."""
    return _STREET_SUFFIX.sub("strasse", fold_ocr(normalize(name)).replace(" ", ""))


def place_key(text: str) -> str:
    """``München Hbf`` -> ``MUNCHENHBF``: no accents, blanks or punctuation; ``ue`` equals ``ü``."""
    text = unicodedata.normalize("NFKD", text.replace("ß", "ss"))
    text = ID_JUNK.sub("", "".join(c for c in text if not unicodedata.combining(c))).upper()
    return text.replace("AE", "A").replace("OE", "O").replace("UE", "U")
