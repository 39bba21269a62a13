"""Extraction steps for places: street addresses, routes and the service of a ticket (see :mod:`.extract`).

Streets in the German and English forms are read in every document (``_patterns.STREET``);
the forms of other languages where the document is in one of them: a type before the name with
the house number before (``12 rue de la République``) or after it (``Calle Mayor, 12``, ``Via
Roma 12``), or a name joined with its type (``Kerkstraat 12``); the types and endings are the
languages' data, looked up word by word.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from . import _patterns as P
from . import _regex, languages
from . import _route_patterns as R
from ._scan import Scan
from ._triggers import trie
from .languages import fold_word

__all__ = ["SERVICE", "route_codes", "routes", "service_matches", "services", "streets"]


def _words(words: tuple[str, ...]) -> str:
    """An alternation of ``words`` (longest first); a trailing ``.`` is optional."""
    alts = [re.escape(w.rstrip(".")) + (r"\.?" if w.endswith(".") else "") for w in sorted(words, key=lambda w: (-len(w), w))]
    return "|".join(alts) or "(?!)"


_SERVICE_WORDS = languages.merged("service_words")
_TRAIN_CODES = languages.merged("train_codes")
# The number words of an identifier's label (plain, and those that need their dot: "volo n. AZ 123").
_NUMBER = "|".join((_words(languages.merged("id_suffixes")),
                    *(re.escape(w) for w in languages.merged("id_suffixes_dotted"))))

# "Flight XB 606", "Flug LH 2034", "vol AF 1234", "ICE 1234", "Zug RE 5", "TGV 6201": which service a
# ticket is for (the languages' service_words, number words and train_codes).
SERVICE = _regex.compile(
    rf"(?i:\b(?:{_words(_SERVICE_WORDS)})\b[ \t]*(?:{_NUMBER})?[ \t]*:?[ \t]*)"
    r"(?P<code>[A-Z]{2,3}|[A-Z][0-9]|[0-9][A-Z])[ \t]?(?P<num>[0-9]{1,4})\b"
    rf"|\b(?P<train>{_words(_TRAIN_CODES)})[ \t](?P<tnum>[0-9]{{1,5}})\b"
)


# Cheap tests that tell whether SERVICE can match at all (it is slow to scan: an
# alternation under (?i) at every position), most documents being no tickets.
# (searched in the lower-cased text: a (?i) alternation is as slow as SERVICE itself)
_SERVICE_WORD = _regex.compile(rf"(?:{_words(tuple(w.lower() for w in _SERVICE_WORDS))})\b")  # no leading \b: it hides the first letters from the fast scan
_TRAIN_QUICK = _regex.compile(rf"(?:{_words(_TRAIN_CODES)})[ \t][0-9]")



#: The letters a service word starts with, in both cases: tests/test_extract_prefilters.py checks that
#: no other character matches one under (?i), as SERVICE reads them.
SERVICE_FIRST_LETTERS: Final = "".join(sorted({c for w in _SERVICE_WORDS for c in (w[0].lower(), w[0].upper())}))
#: Where a match of SERVICE can start (a superset): a word start at a service word's first letter
#: before the rest of a service word and a word's end ("vol", not "voll": four times fewer
#: candidates), or at a train code's first letter before its rest, a blank and a digit.  Unlike
#: SERVICE it opens with a character class, which the regex engine skips to.
_SERVICE_START = _regex.compile(
    "[" + re.escape("".join(sorted(set(SERVICE_FIRST_LETTERS) | {code[0] for code in _TRAIN_CODES}))) + "](?<!\\w.)"
    rf"(?:(?i:{trie({w[1:].lower() for w in _SERVICE_WORDS})})\b"
    rf"|{trie({code[1:] for code in _TRAIN_CODES})}[ \t][0-9])"
)


def service_matches(scan: Scan) -> list[re.Match[str]]:
    """``list(scan.finditer(SERVICE))``: SERVICE tried only where :data:`_SERVICE_START`
    matches (a scan with SERVICE itself tries an alternation under (?i) at every position)."""
    t, out = scan.text, []
    for start, end in scan.regions:
        pos = start
        while (cand := _SERVICE_START.search(t, pos, end)) is not None:
            if (m := SERVICE.match(t, cand.start(), end)) is None:
                pos = cand.start() + 1
            else:
                out.append(m)
                pos = m.end()
    return out


def services(scan: Scan) -> None:
    matches = service_matches(scan)
    if not matches or not _service_words(scan):
        return
    for m in matches:
        if m["code"]:
            scan.take(m.start("code"), m.end("num"), f"id:flight:{m['code']}{m['num']}")
        else:
            scan.take(m.start("train"), m.end("tnum"), f"id:flight:{m['train'].upper()}{m['tnum']}")


def _service_words(scan: Scan) -> bool:
    return _SERVICE_WORD.search(scan.low) is not None or _TRAIN_QUICK.search(scan.text) is not None


# --- streets -------------------------------------------------------------------------------------


def streets(scan: Scan) -> None:
    # Type words are trigger words (starts["streettype"]); the forms of other languages are
    # read where the text is in a language that has them (core.languages).
    detected = scan.detected()
    if scan.starts.get("streettype"):
        # first: "Via Roma 12, 00184 Roma" is not the German "Roma 12" before a postcode
        _typed_streets(scan, frozenset(map(fold_word, detected.union("street_types_before"))))
    for m in scan.finditer(P.STREET):
        name, number = (m["s"], m["n"]) if m["s"] else (m["e"], m["en"])
        scan.take(m.start(), m.end(), "street:" + P.street_key(name) + number)
    endings = tuple(fold_word(w) for lang in detected.languages if not lang.street_suffixes_need_postcode
                    for w in lang.street_suffixes)
    t = scan.text
    for m in scan.finditer(P.STREET_NUMBER_WRAPPED):
        line_start = t.rfind("\n", 0, m.start() - 1) + 1
        named = P.STREET_NAME_AT_LINE_END.search(t, max(line_start, m.start() - STREET_NAME_REACH), m.start())
        if named is not None and fold_word(named["s"]).endswith(_ALL_ENDINGS):
            scan.take(m.start("n"), m.end(), "street:" + P.street_key(named["s"]) + m["n"])
    for m in scan.finditer(P.STREET_JOINED):
        name = fold_word(m["s"])
        # an ending of a language the text is not in: where a postcode follows ("Kerkstraat 12, 1015 CJ")
        if name.endswith(endings or ("\0",)) or (name.endswith(_ALL_ENDINGS) and P.POSTCODE_AFTER.match(m.string, m.end())):
            scan.take(m.start(), m.end(), "street:" + P.street_key(m["s"]) + m["n"])


#: How far back the name of a street wrapped before its house number is looked for (characters).
STREET_NAME_REACH = 40
#: Every language's street types: one of a language the text is not in ("Rue de la Loi 16" in
#: a Dutch letter from Brussels) counts where it is capitalised and a postcode follows the number.
_ALL_TYPES = frozenset(map(fold_word, languages.merged("street_types_before")))
_ALL_ENDINGS = tuple(map(fold_word, languages.merged("street_suffixes")))
_SMALL = frozenset(fold_word(w).rstrip("'’") for w in languages.merged("small_words"))


def _typed_streets(scan: Scan, types: frozenset[str]) -> None:
    t = scan.text
    for pos in scan.starts["streettype"]:
        word = P.STREET_TYPE_WORD.match(t, pos)
        if word is None:
            continue
        folded = fold_word(word.group())
        if folded not in types:
            if folded in _ALL_TYPES and word.group()[0].isupper():
                named = P.STREET_NAME_NUMBER.match(t, word.end())
                if named is not None and P.POSTCODE_AFTER.match(t, named.end()):
                    _take_street(scan, word, named["name"], named["n"], word.start(), named.end())
            continue
        before = P.STREET_NUMBER_BEFORE.search(t, max(0, word.start() - 12), word.start())
        if before is not None and _opens_address(t, before.start()):
            named = P.STREET_NAME.match(t, word.end())
            if named is not None and _take_street(scan, word, named["name"], before["n"], before.start(), named.end()):
                continue
        if (named := P.STREET_NAME_NUMBER.match(t, word.end())) is not None:
            _take_street(scan, word, named["name"], named["n"], word.start(), named.end())


def _opens_address(text: str, pos: int) -> bool:
    """Whether a house number at ``pos`` can open an address: first on its line or after a word,
    a comma or a colon ("Société X, 12 rue ...", "Adresse du logement 8 chemin ..."), not the
    second number of a sum or a range; a date it would end is claimed already (see _take_street)."""
    before = text[text.rfind("\n", 0, pos) + 1 : pos].rstrip()
    return not before or not before[-1].isdigit()


def _take_street(scan: Scan, word: re.Match[str], name: str, number: str, start: int, end: int) -> bool:
    if not any(w[:1].isupper() for w in name.split()) or len(name) > P.STREET_MAX_NAME:
        return False
    # The name's own words, without the type and the small words ("rue de la République" ->
    # "République"): two streets of one type differ in little else, and names 85 % alike are
    # taken for one name read twice (core.discriminative).
    own = " ".join(w for w in name.split() if fold_word(w).rstrip("'’") not in _SMALL) or name
    key = "street:" + P.street_key(own) + number.replace(" ", "").lower()
    if 1 in scan.mask[start:end]:
        return False
    scan.take(start, end, key)
    return True


# --- routes --------------------------------------------------------------------------------------


def _route(scan: Scan, m: re.Match[str] | None, check_words: bool = True) -> None:
    if m is None or (check_words and {m["a"].split()[0].lower().rstrip("."),
                                      m["b"].split()[0].lower().rstrip(".")} & R.NOT_PLACES):
        return
    a, b = R.place_key(m["a"]), R.place_key(m["b"])
    if a and b and a != b and len(a) <= 60 and len(b) <= 60:
        scan.take(m.start("a"), m.end("b"), f"route:{a}>{b}")


def _sentence_break(m: re.Match[str]) -> bool:
    """"... wurden von Petra Lange dokumentiert. Nach Einschätzung der Projektleitung ...":
    the place ends a sentence and the end word, capitalised (no colon: not a form's label), opens the next one."""
    between = m.string[m.end("a"):m.start("b")]
    return m["a"].endswith(".") and m["t"][0].isupper() and ":" not in between


def _journey(m: re.Match[str] | None) -> re.Match[str] | None:
    """The match, if its start and end words are of one language ("from X naar Y" is no journey)."""
    return m if m is not None and (m["w"].lower(), m["t"].lower()) in R.ROUTE_PAIRS else None


def routes(scan: Scan) -> None:
    t, starts = scan.text, scan.starts
    for pos in starts.get("route", ()):
        _route(scan, R.ROUTE_LABELLED.match(t, pos), check_words=False)
    for pos in starts.get("fromtoform", ()):
        m = _journey(R.ROUTE_FORM.match(t, pos))
        _route(scan, None if m is None or _sentence_break(m) else m)
    lines: set[tuple[int, int]] = set()
    for arrow in R.ARROWS:
        pos = t.find(arrow)
        while pos >= 0:
            lines.add(scan.line(pos))
            pos = t.find(arrow, pos + 1)
    for start, end in sorted(lines):
        for m in R.ROUTE_ARROW.finditer(t, start, end):
            _route(scan, m)
    for pos in starts.get("fromto", ()):  # "de", "da", "van": many in prose, most with no capital after them
        if (m := R.ROUTE_FROM_TO.match(t, pos)) is not None:
            _route(scan, _journey(m))
    for m in route_codes(t):
        if m["a"] not in R.NOT_CODES and m["b"] not in R.NOT_CODES and m["a"] != m["b"]:
            scan.take(m.start(), m.end(), f"route:{m['a']}>{m['b']}")


#: The first "-" of a line, to the line's end.
_HYPHEN_LINE = _regex.compile(r"-[^\n]*")


def route_codes(t: str) -> Iterator[re.Match[str]]:
    """``R.ROUTE_CODES.finditer(t)``.  A code pair has its "-" on its one line: only the lines
    with a hyphen are scanned (few; the "[A-Z]" the pattern opens with is on every line), up
    to and with their line break, which its look-ahead may read."""
    for hyphen in _HYPHEN_LINE.finditer(t):
        yield from R.ROUTE_CODES.finditer(t, t.rfind("\n", 0, hyphen.start()) + 1, hyphen.end() + 1)
