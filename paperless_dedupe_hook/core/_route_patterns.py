"""Compiled patterns and lookup tables for routes and places (see :mod:`._places`), built from the
languages' data (core/languages: ``route_words``, ``route_from``, ``route_to``, ``route_range``,
``not_places``, ``not_codes``), as :mod:`._patterns` builds the others.

A route is read in five forms: a label and two places (``Hinfahrt: Berlin - München``, ``Trajet :
Paris à Lyon``), a start word and an end word of one language (``from Leeds to York``, ``de Madrid a
Sevilla``; a language whose words are also a form's labels more loosely: ``Von: Berlin Hbf\\nNach:
München Hbf``), two places around an arrow, and two airport codes (``BSK - LON``).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from . import _regex
from . import languages as L
from ._patterns import ID_JUNK, MONTHS, _alt


def _either_case(words: tuple[str, ...]) -> str:
    """An alternation of lower-case ``words`` whose first letter may be a capital ("von", "Von")."""
    alts = [f"[{w[0]}{w[0].upper()}]{re.escape(w[1:])}" for w in sorted(words, key=lambda w: (-len(w), w))]
    return "|".join(alts) or "(?!)"


def _plain(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w))) or "(?!)"


_PLACE = r"[^\W\d_][\w.'()/-]*(?:[ \t]+[^\W\d_][\w.'()/-]*){0,3}"
_PLACE3 = r"[^\W\d_][\w.'()/-]*(?:[ \t]+[^\W\d_][\w.'()/-]*){0,2}"
ARROWS: Final = ("->", "→", "⟶", "=>", "⇒", "➔", "➝", "➙")
_ARROW = r"(?:-+>|→|⟶|=+>|⇒|➔|➝|➙)"

#: The labels of a route (trigger words of the family "route").
ROUTE_WORDS: Final = L.merged("route_words")
#: What stands between a labelled route's places besides a hyphen or an arrow: every language's end
#: and range words ("nach", "to", "bis", "à", "naar" ...), in any case.
_BETWEEN = _plain(tuple(dict.fromkeys((*L.merged("route_to"), *L.merged("route_range")))))
ROUTE_LABELLED: Final = _regex.compile(
    rf"(?<!\w)(?:{_alt(ROUTE_WORDS)})[ \t]*:[ \t]*\n?[ \t]*(?P<a>{_PLACE})"
    rf"(?:[ \t]+-[ \t]+|[ \t]*{_ARROW}[ \t]*|[ \t]+(?i:{_BETWEEN})[ \t]+)(?P<b>{_PLACE})"
)

_FORM_LANGUAGES = tuple(lang for lang in L.LANGUAGES if lang.route_form_labels)
_PROSE_LANGUAGES = tuple(lang for lang in L.LANGUAGES if not lang.route_form_labels)
#: The start words of languages whose route words are also a form's labels (trigger family "fromtoform")
#: and of the others (family "fromto").
FORM_FROM_WORDS: Final = tuple(dict.fromkeys(w for lang in _FORM_LANGUAGES for w in lang.route_from))
FROM_WORDS: Final = tuple(dict.fromkeys(w for lang in _PROSE_LANGUAGES for w in lang.route_from))
#: (start word, end word) of one language, lower case: which words make a journey together.
ROUTE_PAIRS: Final = frozenset((f, t.lower()) for lang in L.LANGUAGES for f in lang.route_from for t in lang.route_to)
#: "Von: Berlin Hbf\nNach: München Hbf", "von Köln über Kassel nach Berlin" (groups ``w`` and ``t``: the two words).
ROUTE_FORM: Final = _regex.compile(
    rf"(?<!\w)(?P<w>{_either_case(FORM_FROM_WORDS)})[ \t]*:?[ \t]*(?=[A-ZÄÖÜ])(?P<a>{_PLACE3})[ \t,]*\n?[ \t]*"
    rf"(?<!\w)(?P<t>{_either_case(tuple(w for lang in _FORM_LANGUAGES for w in lang.route_to))})[ \t]*:?[ \t]*"
    rf"(?=[A-ZÄÖÜ])(?P<b>{_PLACE3})"
)
_CAPITALISED = r"[A-Z][\w.'-]*(?:[ \t]+[A-Z][\w.'-]*){0,2}"
#: "from Leeds to York", "van Amsterdam naar Utrecht", "da Roma a Milano": blanks only, every word of a
#: place capitalised, the end word in lower case.
ROUTE_FROM_TO: Final = _regex.compile(
    rf"(?<!\w)(?P<w>{_either_case(FROM_WORDS)})[ \t]+(?P<a>{_CAPITALISED})[ \t]+"
    rf"(?P<t>{_plain(tuple(w for lang in _PROSE_LANGUAGES for w in lang.route_to))})[ \t]+(?P<b>{_CAPITALISED})"
)
ROUTE_ARROW: Final = _regex.compile(rf"(?P<a>{_PLACE3})[ \t]*{_ARROW}[ \t]*(?P<b>{_PLACE3})")
ROUTE_CODES: Final = _regex.compile(r"(?P<a>[A-Z](?<![\w-][A-Z])[A-Z]{2})[ \t]?-[ \t]?(?P<b>[A-Z]{3})(?![\w-])")
#: Three-letter upper-case pairs that are not airport/station codes: currencies and file types here,
#: abbreviations of words in the languages' ``not_codes``.
NOT_CODES: Final = frozenset({
    "EUR", "USD", "GBP", "CHF", "JPY", "PDF", "XML", "CSV", "ZIP", "ABC", "XYZ", "USB", "LAN", "WAN", "ISO", "DIN",
    *L.merged("not_codes"),
})
#: First words that make ``from X to Y`` a period or a range rather than a journey.
NOT_PLACES: Final = frozenset({
    *L.merged("weekdays"), *L.merged("not_places"),
    *(n.rstrip(".") for names in MONTHS for n in names),
})


def place_key(text: str) -> str:
    """``München Hbf`` -> ``MUNCHENHBF``: no accents, blanks or punctuation; ``ue`` equals ``ü``."""
    text = unicodedata.normalize("NFKD", text.replace("ß", "ss"))
    text = ID_JUNK.sub("", "".join(c for c in text if not unicodedata.combining(c))).upper()
    return text.replace("AE", "A").replace("OE", "O").replace("UE", "U")
