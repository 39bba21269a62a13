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
from functools import cache
from typing import Final

from . import _regex
from . import languages as L
from ._month_words import month_number
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
FOLD_CHARS: Final = frozenset("0123456789OoIl|!ZzASsbBgD")  # D: only between digits (_triggers._fold)
FOLD_TABLE: Final = str.maketrans("OoIl|!ZzASsbBg", "00111122455689")
NUMBER_SEPARATORS: Final = frozenset(".,:/-")

#: A letter run (searched in the lower-cased text); group 1 is its trigger key, the first four letters.
WORD: Final = _regex.compile(r"([^\W\d_]{1,4})[^\W\d_]*")


# --- print, scan and fax stamps; page numbers; phone lines -------------------------------------

#: Words of every language (core/languages): a stamp in any of them is a stamp.
_STAMP_WORDS = L.merged("stamp_words")
#: Every token on a line with one of these words is ignored (``fax``, ``scan``, ``eingang`` as prefixes).
STAMP: Final = _regex.compile(
    "(?:" + _alt(_STAMP_WORDS) + r")(?:(?<=[xXnNgG])[\w]*)?(?!\w)"
)
_STAMP_OPENERS = L.merged("stamp_openers")
#: The same for words that make a stamp only where they open their line (see extract._words).
STAMP_OPENER: Final = _regex.compile("(?:" + _alt(_STAMP_OPENERS) + r")(?!\w)")
_PHONE_WORDS = L.merged("phone_words")
#: References on a line with one of these words are phone numbers.
PHONE: Final = _regex.compile("(?:" + _alt(_PHONE_WORDS) + r")\w{0,8}(?!\w)")
_PAGE_WORDS = L.merged("page_words")
_PAGE_OF = "|".join(re.escape(w) for w in L.merged("page_of"))
#: ``Seite 2 von 3``, ``Page 2 of 3``, ``S. 001/003``: ignored.  Not right after a number: the
#: ``S372`` of ``8004 S372 93`` is an IBAN's group that OCR read with an S for its 5.
PAGE: Final = _regex.compile(
    r"(?<![0-9][ \t])(?<![0-9A-Za-z])(?:" + _alt(_PAGE_WORDS) + r")[ \t]*[0-9]{1,4}(?:[ \t]*(?:" + _PAGE_OF + r"|/)[ \t]*[0-9]{1,4})?(?!\w)"
)

# --- IBAN --------------------------------------------------------------------------------------

IBAN: Final = _regex.compile(
    r"[A-Z](?<![A-Za-z0-9][A-Z])[A-Z][0-9]{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?(?![A-Za-z0-9])"
)
#: An IBAN after its label that OCR damaged past :data:`IBAN`: a look-alike letter in a group
#: ("000o", "S372"), a group of three or five ("00000"), a mangled label ("lBAN").  Every group
#: holds a digit, so the words after an IBAN are not read into it; pairing folds the letters.
IBAN_LABELLED: Final = _regex.compile(
    r"(?<![\w])[Il1|][Bb8][Aa][NnM][ \t]*:?[ \t]*"
    r"(?P<v>[A-Z]{2}[0-9OoIlSB]{2}(?:[ ](?=[A-Za-z]{0,3}[0-9])[A-Za-z0-9]{3,5}){2,8}(?:[ ](?=[A-Za-z]?[0-9])[A-Za-z0-9]{1,3})?)"
    r"(?![A-Za-z0-9])"
)

# --- labelled identifiers ----------------------------------------------------------------------

#: label -> stems that need a number word after them ("Kunden" + "nummer", "Customer" + "No.",
#: "facture" + "n°"), of every language.
ID_STEMS: Final[dict[str, tuple[str, ...]]] = L.merged_labels("id_stems")
#: label -> labels complete on their own ("Aktenzeichen", "Unser Zeichen", "Booking ref", "Kenmerk").
ID_WORDS: Final[dict[str, tuple[str, ...]]] = L.merged_labels("id_words")
#: Labels whose value is the same on every document of a series (customer, contract, tax id ...).
STATIC_ID_LABELS: Final = frozenset(
    {"customer", "account", "contract", "policy", "tax", "personnel", "member", "register", "social"}
)

#: The number words after a stem ("Kunden" + "nummer").
_PLAIN_SUFFIXES = L.merged("id_suffixes")
_DOTTED_SUFFIXES = L.merged("id_suffixes_dotted")  # "Fattura n. 12": the dot is needed, "n" alone is no number word
ID_SUFFIXES: Final = _PLAIN_SUFFIXES + _DOTTED_SUFFIXES
_SUFFIX = _alt(_PLAIN_SUFFIXES) + "".join("|" + tolerant(w.rstrip(".")) + r"\." for w in _DOTTED_SUFFIXES)
_CONNECT = r"[ \t]*[./-]?[ \t]*[./-]?[ \t]*"
ID_LABELS: Final = tuple(label for label in L.LABELS if label in ID_STEMS or label in ID_WORDS)
#: label -> regex source of its part of a label: a stem and a number word, or a label word.
ID_LABEL_SOURCES: Final[dict[str, str]] = {}
for _name in ID_LABELS:
    _parts = [f"(?:{_alt(ID_STEMS[_name])}){_CONNECT}(?:{_SUFFIX})"] if _name in ID_STEMS else []
    if _name in ID_WORDS:
        _parts.append(_alt(ID_WORDS[_name]))
    _src = "|".join(_parts)
    ID_LABEL_SOURCES[_name] = _src
_ID_HEAD = r"(?<![^\W_])(?:"
#: ``[:#.] value`` after a label; the value needs a digit in its first word (after an optional 1-4 letter prefix).
#: OCR's specks between them (``Steuernummer° 711/...``, ``Kundennummer; 123``) are separators too.
_ID_VALUE = (
    r"(?![^\W\d_])[ \t:#.;°~*]*\n?[ \t:#.;°~*]*"
    r"(?:(?P<az>[0-9]{1,3}[ \t]+[A-Za-z]{1,4}[ \t]+[0-9]{1,6}/[0-9]{2,4})"
    r"|(?=[A-Za-z]{0,4}[ ]?[A-Za-z0-9/.-]*[0-9])"
    r"(?P<v>[A-Za-z0-9](?:[A-Za-z0-9]|[-/.](?=[A-Za-z0-9])|[ ](?=[0-9]{2,}(?![0-9]*[.,:][0-9])))*))"
)
_ID_TAIL = ")" + _ID_VALUE
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

# --- number-first labels: "N° de facture", "Numéro de client", "Número de póliza", "Codice fiscale" ----

#: What follows a label: its value (as in :func:`id_pattern`).
ID_VALUE: Final = _regex.compile(_ID_VALUE)
#: Folded number words that open such a label (``n°``, ``numéro``, ``codice`` ...: languages' number_first_words).
NUMBER_FIRST_WORDS: Final = frozenset(L.fold_word(w) for w in L.merged("number_first_words"))
NUMBER_FIRST_CONNECTORS: Final = frozenset(
    L.fold_word(w).rstrip("'") for c in L.merged("number_first_connectors") for w in c.replace("'", "' ").split())
#: Folded stem (one to three words) -> label.
NUMBER_FIRST_STEMS: Final = L.number_first_stems()
#: The number word at a trigger position: letters and an optional ``.``, ``°`` or ``º``.
NUMBER_WORD: Final = _regex.compile(r"[^\W\d_]{1,7}[.°º]?")
#: One more word of the label after it (an elided article stays on its word: ``d'``, ``l'``).
LABEL_WORD: Final = _regex.compile(r"[ \t]*(?P<w>[^\W\d_]+(?:['’](?=[^\W\d_]))?)")

# --- dates -------------------------------------------------------------------------------------

#: The month names of every language, January first.
MONTHS: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(dict.fromkeys(name for lang in L.LANGUAGES for name in lang.months[i])) for i in range(12)
)
#: A word that may be a month: letters, OCR's ``0``/``1``/``|``/``!`` for ``o``/``l``, an optional dot.
_MON = r"(?P<mon>0?[^\W\d_](?:[^\W\d_]|[01|!](?![0-9]))*)(?![^\W\d_])\.?"
_MONTH_INITIALS = "".join(sorted({c for names in MONTHS for n in names for c in (n[0], n[0].upper())} | set("rR0")))
_ORDINALS = sorted({o for o in L.merged("ordinals")} | {o.upper() for o in L.merged("ordinals")}, key=lambda o: (-len(o), o))
_ORD = "(?:" + "|".join(re.escape(o) for o in _ORDINALS) + ")?"
_CONN = "(?:(?:" + "|".join(re.escape(c) for c in sorted(L.merged("date_connectors"), key=lambda c: (-len(c), c))) + r")[ \t]+)?"
_BLANK = r"(?:[ \t]+\n?|\n)[ \t]*"  # at least one blank, at most one line break
_DAY = r"(?P<d>[0-9](?<![0-9.,][0-9])[0-9]?)"
#: ``2024-01-31T14:35``: a machine timestamp (scanner, printer, export); its line is a stamp line.
ISO_TIMESTAMP: Final = _regex.compile(r"(?:19|20)[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}")
DATE_ISO: Final = _regex.compile(
    r"(?P<y>(?:19|20)[0-9]{2})(?<![0-9.,/-]....)[-/.](?P<m>[0-9]{1,2})[-/.](?P<d>[0-9]{1,2})(?![0-9])"
)
#: An ISO date whose year OCR split after its century, ``20 23-01-17`` (else read as 23 January 2017).
DATE_ISO_SPLIT_YEAR: Final = _regex.compile(
    r"(?P<c>19|20)(?<![0-9.,/-]..)[ ](?P<yy>[0-9]{2})-(?P<m>[0-9]{1,2})-(?P<d>[0-9]{1,2})(?![0-9])"
)
DATE_DOT: Final = _regex.compile(
    _DAY + r"[ \t]?[.,][ \t]?(?P<m>[0-9]{1,2})[ \t]?[.,][ \t]?(?P<y>[0-9]{4}|[0-9]{2})(?![0-9]|[.,][0-9])"
)
DATE_SLASH: Final = _regex.compile(
    r"(?P<a>[0-9](?<![0-9./-][0-9])[0-9]?)(?P<s>[/-])(?P<b>[0-9]{1,2})(?P=s)(?P<y>[0-9]{4}|[0-9]{2})"
    r"(?![0-9]|[./-][0-9])"
)
#: ``31. Januar 2024``, ``5 mars 2024``, ``1er août 2024``, ``5 de marzo de 2024``, ``31st of May '24``: the
#: month word (group ``mon``) is looked up (core._month_words).  The look-ahead asks for a letter that can
#: start a month word (or a connector), which only makes a failure come sooner.
DATE_DMY_TEXT: Final = _regex.compile(
    _DAY + _ORD + r"\.?(?=[ \t.-]*\n?[ \t-]*" + _CONN + "[" + _MONTH_INITIALS + r"])[ \t-]*\n?[ \t-]*" + _CONN
    + _MON + r"[ \t,-]*\n?[ \t,-]*" + _CONN + r"(?P<y>[0-9]{4}|'[0-9]{2})(?![0-9])"
)
#: A year that may end a month-first date (``January 31st, 2024``, ``März 2024``, ``marzo de 2024``).
#: (only after a blank, which MONTH_BEFORE_YEAR needs: most years are in numeric dates)
YEAR: Final = _regex.compile(r"(?:19|20)[0-9]{2}(?<=[ \t\n]....)(?![0-9])")
#: What stands before such a year (searched in the text before it, up to the year).
MONTH_BEFORE_YEAR: Final = _regex.compile(
    rf"(?<![^\W\d_]){_MON}{_BLANK}(?:(?P<d>[0-9]{{1,2}}){_ORD}[,.]{{0,2}}{_BLANK})?{_CONN}\Z"
)
#: How far before a year a month-first date can start.
MONTH_REACH: Final = 40
MONTH_YEAR_NUM: Final = _regex.compile(
    r"(?P<m>[0-9](?<![0-9./-][0-9])[0-9]?)[/.](?P<y>(?:19|20)[0-9]{2})(?![0-9]|[./-][0-9])"
)

# --- amounts -----------------------------------------------------------------------------------

_NUM_REST = r"(?:[0-9]{0,2}(?:[.,'][0-9]{3})+(?:[.,][0-9]{1,2})?|[0-9]{0,11}(?:[.,][0-9]{1,2})?)"
_CODES = ("EUR", "EURO", "Euro", "USD", "GBP", "CHF")
_CUR = "€|\\$|£|" + "|".join(f"{c}(?<![A-Za-z]{c})" for c in _CODES)
# Not an amount where more digits follow a doubled separator: OCR's "1.215,,22" is not 1.215.
AMOUNT_CUR_BEFORE: Final = _regex.compile(
    rf"(?:{_CUR})[ \t]{{0,2}}(?P<n>[0-9]{_NUM_REST})(?:[.,]-{{1,2}})?(?![0-9]|[.,]{{1,2}}[0-9])"
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
#: ``1 234,56 €``, ``EUR 12 345.00``, a bare ``1 234,56``: thousands grouped by a blank, read in
#: a document whose language groups so (a blank between a quantity and a price elsewhere).
_NUM_BLANK = r"[0-9]{0,2}(?:[ ][0-9]{3})+(?:[.,][0-9]{1,2})?"
AMOUNT_BLANK_AFTER: Final = _regex.compile(
    rf"(?P<n>[0-9](?<![\w.,][0-9]){_NUM_BLANK})(?:[.,]-{{1,2}})?[ \t]{{0,2}}"
    r"(?:€|\$|£|(?:" + "|".join(_CODES) + r")(?![A-Za-z]))"
)
AMOUNT_BLANK_BEFORE: Final = _regex.compile(
    rf"(?:{_CUR})[ \t]{{0,2}}(?P<n>[0-9]{_NUM_BLANK})(?:[.,]-{{1,2}})?(?![0-9]|[.,]{{1,2}}[0-9])"
)
AMOUNT_BLANK_BARE: Final = _regex.compile(
    r"(?P<n>[0-9](?<![\w.,][0-9])[0-9]{0,2}(?:[ ][0-9]{3})+[.,][0-9]{2})"
    r"(?![\w]|[.,][0-9])(?![ \t]*(?:%|[uU][hH][rR](?!\w)|h(?!\w)))"
)
#: A paragraph's number (``4.10``, ``12.3``), and the capital that opens its sentence or title
#: (see _numbers._numbered_paragraph; "87.56 per incident", wrapped from the line before, is an amount).
PARAGRAPH_NUMBER: Final = _regex.compile(r"[0-9]{1,2}\.[0-9]{1,2}")
WORD_AFTER: Final = _regex.compile(r"[ \t]+[A-ZÀ-ÖØ-Þ]")
#: Lower-case substrings that make a document financial (bare two-decimal numbers become amounts).
FINANCIAL_WORDS: Final = ("€", "$", "£", "eur", "usd", "gbp", "chf", *L.merged("financial_words"))

# --- street addresses -------------------------------------------------------------------------

_STREET_PREFIX = "(?:" + "|".join(re.escape(p).replace(r"\ ", r"[ \t]") for p in L.merged("street_prefixes")) + r")[ \t]+"
_STREET_TYPES = L.merged("street_types_after")
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
    # (a name of three letters or more: "No. 34250088" is a register number, no "No." street
    # before the postcode 50088, while "Gartenstraße 5466111" is one that lost its blank)
    rf"(?<![\w-])(?P<s>(?:{_STREET_PREFIX}[A-ZÄÖÜ]|[A-ZÄÖÜ](?=[\w.-]*+[ \t]+[0-9])(?=[^\W\d_]{{2}}))[\w.-]*[^\W\d_]\.?)"
    r"[ \t]+(?P<n>[0-9]{1,4}[a-z]?)"
    # (OCR's specks after the number, "112a ~-;", are no part of it)
    r"(?=(?:[ \t]*[,·|])?(?:[ \t]+[^\w\s]{1,4})?[ \t]*\n?[ \t]*(?:D-)?[0-9]{5},?[ \t]+[A-ZÄÖÜ])"
    rf"|(?<![\w.,-])(?P<en>[0-9]{{1,4}}[a-z]?)[ \t]+(?P<e>(?:[A-Z][\w'-]*[ \t]+){{1,3}}(?:{_alt(_STREET_TYPES)})(?!\w)"
    rf"|[A-Z][\w'-]*(?:[ \t]+[A-Z][\w'-]*){{0,2}}(?=[ \t]*,[ \t]*{_POSTCODE_EN}[ \t,]+[A-Z])))"
)


#: A word that may be a street type written before the name (``rue``, ``Calle``, ``Via``; looked up
#: among the types of the document's languages), in the digit regions.
STREET_TYPE_WORD: Final = _regex.compile(r"[^\W\d_](?<![\w.'’-].)[^\W\d_]*[./]?")
#: ``12 rue``, ``12, avenue``, ``3 bis boulevard``: the house number before a type (searched up to the type).
STREET_NUMBER_BEFORE: Final = _regex.compile(r"(?<![\w.,/-])(?P<n>[0-9]{1,4}(?:[ \t]?(?:bis|ter)|[a-zA-Z])?)[ \t]*,?[ \t]+\Z")
#: The name after a type when the number came first: up to six words, to a comma, digit or line end.
STREET_NAME: Final = _regex.compile(r"[ \t]+(?P<name>[^\W\d_][\w'’.-]*(?:[ \t]+[^\W\d_][\w'’.-]*){0,5})")
#: The name after a type and the house number after it: ``Via Roma 12``, ``Calle Mayor, 12``.
STREET_NAME_NUMBER: Final = _regex.compile(
    r"[ \t]+(?P<name>[^\W\d_][\w'’.-]*?(?:[ \t]+[^\W\d_][\w'’.-]*?){0,5})[ \t]*,?[ \t]*(?P<n>[0-9]{1,4}[a-zA-Z]?)"
    r"(?![\w]|[.,/:][0-9])"
)
#: A name joined with its type and the house number: ``Kerkstraat 12``, ``Schulstr. 2`` (the ending is looked up).
STREET_JOINED: Final = _regex.compile(
    r"(?P<s>[A-Z](?<![\w'-][A-Z])(?=[\w'-]*+\.?[ \t]+[0-9])[\w'-]*[^\W\d_]\.?)[ \t]+(?P<n>[0-9]{1,4}[a-zA-Z]?)(?![\w]|[.,/:][0-9])"
)
#: A house number opening its line before a postcode and a town, the street's name ending the
#: line before: prose wrapped between them ("... Friedrichstraße\n133, 10117 Berlin").
STREET_NUMBER_WRAPPED: Final = _regex.compile(
    r"(?<=\n)[ \t]*(?P<n>[0-9]{1,4}[a-z]?)(?=[ \t]*,?[ \t]*(?:D-)?[0-9]{5},?[ \t]+[A-ZÄÖÜ])"
)
#: The name at the end of the line before such a number: one capitalised word.
STREET_NAME_AT_LINE_END: Final = _regex.compile(r"(?<![\w-])(?P<s>[A-ZÄÖÜ][\w-]*[^\W\d_]\.?)[ \t]*\n\Z")
STREET_MAX_NAME = 60
#: A postcode and a town after a house number: ``, 1000 Bruxelles``, ``\n28013 Madrid``, ``, 1015 CJ Amsterdam``,
#: ``, CB2 1TN Cambridge``.
POSTCODE_AFTER: Final = _regex.compile(
    r"[ \t]*[,\n][ \t]*(?:(?:[A-Z]{1,2}-)?[0-9]{4,5}(?:[ \t]?[A-Z]{2})?|" + _POSTCODE_EN + r"),?[ \t]+[A-ZÀ-Ý]")

# --- long reference numbers --------------------------------------------------------------------

REF: Final = _regex.compile(
    r"[0-9](?<![\w/.,+][0-9])(?<![0-9]-[0-9])[0-9]*(?:(?:[-/]|[ ](?=[0-9]{3}))[0-9]+)*(?![\w]|[.,/-][0-9])"
)

# --- value parsers --------------------------------------------------------------------------------


def is_date(raw: str) -> bool:
    return any(rx.fullmatch(raw) for rx in (DATE_DOT, DATE_ISO, DATE_SLASH))


def month_of(m: re.Match[str]) -> int | None:
    """The month of a match's ``mon`` group (None: the word is no month name, even as OCR damaged it)."""
    return month_number(m["mon"])


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


#: Folded abbreviation -> folded street type, for the last word of a name ("maple ave").
_STREET_ABBREVIATIONS: Final = {fold_ocr(normalize(k)): fold_ocr(normalize(v))
                                for k, v in L.street_type_abbreviations().items()}


def street_key(name: str) -> str:
    """``Friedrich-Ebert-Str.`` -> ``frledrlchebertstrasse``, ``Maple Ave`` -> ``mapleavenue``:
    normalized, OCR-folded, no blanks, an abbreviated type at the end written out."""
    words = fold_ocr(normalize(name)).split()
    if len(words) > 1 and words[-1] in _STREET_ABBREVIATIONS:
        words[-1] = _STREET_ABBREVIATIONS[words[-1]]
    return _STREET_SUFFIX.sub("strasse", "".join(words))

