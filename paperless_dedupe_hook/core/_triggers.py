"""Where in a text the patterns of :mod:`._patterns` can start: trigger words and digit regions.

A word (a maximal run of letters in the lower-cased text) is keyed by its first four letters
(all of them when it is shorter); :data:`TRIGGERS` maps a key to the pattern families (``id``,
``month``, ``stamp`` ...) a word with that key can start.  :func:`trigger_words` finds just the
words whose key is in the table.  In a process that extracts many documents (a rebuild) it does
so in one regex pass, :func:`trigger_word_regex`: the keys are spelled as a trie, so the regex
engine rejects most of the ~1,000 words of a page after a letter or two, where a Python loop over
every word costs twice as much.  Compiling that regex, though, costs ~10 ms, ten times what the
loop costs for one document: the hook, which extracts one, loops (same words, same keys).

Also here: :func:`prepare`, the text the patterns run on (it visits every word with a digit,
and :func:`digit_regions_at` makes the digit regions from those), and a faster ``str.lower``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from itertools import count
from typing import Final

from . import _regex, languages
from . import _trigger_tables as _tables
from ._patterns import (
    _CONTROL,
    _PAGE_WORDS,
    _PHONE_WORDS,
    _STAMP_OPENERS,
    _STAMP_WORDS,
    DEHYPHEN,
    DIGIT_WORD,
    FOLD_CHARS,
    FOLD_TABLE,
    ID_LABELS,
    ID_STEMS,
    ID_SUFFIXES,
    ID_WORDS,
    NUMBER_SEPARATORS,
    ODD_CHARS,
    REPLACE,
    WORD,
)
from ._route_patterns import FORM_FROM_WORDS, FROM_WORDS, ROUTE_WORDS

__all__ = ["DIGIT_CLUSTER", "ID_LABELS_BY_KEY", "REACH", "TRIGGERS", "digit_regions", "digit_regions_at", "lower", "prepare",
           "prepare_and_digits", "trigger_word_regex", "trigger_words"]

_KEY_VARIANTS = {"i": "il1|!", "l": "il1|!", "o": "o0", "m": ("m", "rn")}


def _spellings(word: str) -> set[str]:
    """Lower-case spellings of ``word``'s first letters as OCR may deliver them."""
    base = {word, word.replace("ä", "a").replace("ö", "o").replace("ü", "u"),
            word.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")}
    out: set[str] = set()
    for w in base:
        partial = [""]
        for ch in w[:4]:
            partial = [p + v for p in partial for v in _KEY_VARIANTS.get(ch, ch)]
        out.update(p + w[4:] for p in partial)
    return out


def _triggers() -> dict[str, frozenset[str]]:
    families: dict[str, list[str]] = {
        "id": [w for words in (*ID_STEMS.values(), *ID_WORDS.values()) for w in words],
        # Month names are no trigger words: a date's month word is looked up (_month_words).
        "numfirst": list(languages.merged("number_first_words")),
        "streettype": list(languages.merged("street_types_before")),
        "stamp": list(_STAMP_WORDS),
        "stampopen": list(_STAMP_OPENERS),
        "phone": list(_PHONE_WORDS),
        "page": list(_PAGE_WORDS),
        "route": list(ROUTE_WORDS),
        "fromtoform": list(FORM_FROM_WORDS),
        "fromto": list(FROM_WORDS),
    }
    table: dict[str, set[str]] = {}
    for family, literals in families.items():
        for literal in literals:
            for key in _keys_of(re.split(r"[^\wäöüß]", literal)[0]):
                table.setdefault(key, set()).add(family)
    for prefix, family in (("fax", "stamp"), ("fax", "phone"), ("tel", "phone")):
        for ch in "abcdefghijklmnopqrstuvwxyzäöüß":
            table.setdefault(prefix + ch, set()).add(family)
    return {k: frozenset(v) for k, v in table.items()}


def _keys_of(word: str) -> set[str]:
    """The keys of the words OCR may make of ``word``'s first letters."""
    keys = set()
    for spelling in _spellings(word):
        keys.add(_key_at(spelling, 0))
        if spelling[:1] in "il1|!o0":  # the WORD match starts after a leading 1, |, ! or 0
            keys.add(_key_at(spelling, 1))
    keys.discard("")
    return keys


_LETTERS = _regex.compile(r"[^\W\d_]*")


def _key_at(spelling: str, pos: int) -> str:
    letters = _LETTERS.match(spelling, pos)
    return letters.group()[:4] if letters else ""


#: trigger key -> pattern families a word with that key can start (built by :func:`_triggers`,
#: kept in :mod:`._trigger_tables`: building it at every hook's start cost ~3 ms).
TRIGGERS: Final[dict[str, frozenset[str]]] = _tables.triggers()


def _openings(literal: str) -> list[str]:
    """The letters a label can open a word with: up to each blank, "-" or "." (a word ends
    there when it is in the text) and past it (``_patterns.tolerant`` lets each be left out:
    "UstId", "KdNr", "OurRef")."""
    parts = re.split(r"[ .-]", literal)
    return [re.split(r"[^\wäöüß]", "".join(parts[: k + 1]))[0] for k in range(len(parts))]


_KEY_SOURCE = 5


def _id_labels_by_key(triggers: dict[str, frozenset[str]]) -> dict[str, tuple[str, ...]]:
    """trigger key -> the labels of ``_patterns.id_pattern`` that a word with this key can
    open, in ID_LABELS order: a stem with its number word joined on or apart ("Kd-Nr.",
    "KdNr"), or a label word.  A label is tried only where it can match."""
    keys: dict[str, set[str]] = {}
    for label in ID_LABELS:
        literals = list(ID_WORDS.get(label, ()))
        for stem in ID_STEMS[label]:
            # A key is made of a word's first four characters (five after a leading 1, | or 0):
            # the number word joined on matters only after a stem shorter than that.
            short = len(_openings(stem)[-1]) < _KEY_SOURCE
            literals += [f"{stem}-{suffix}" for suffix in ID_SUFFIXES] if short else [stem]
        openings = {opening[:_KEY_SOURCE] for literal in literals for opening in _openings(literal)}
        for key in set().union(*map(_keys_of, openings)):
            keys.setdefault(key, set()).add(label)
    return {key: tuple(label for label in ID_LABELS if label in labels)
            for key, labels in keys.items() if "id" in triggers.get(key, ())}


#: trigger key of a word that can open a labelled identifier -> the labels to try there, in order
#: (built by :func:`_id_labels_by_key`, kept in :mod:`._trigger_tables` as TRIGGERS is).
ID_LABELS_BY_KEY: Final[dict[str, tuple[str, ...]]] = _tables.id_labels_by_key()


def table_source() -> str:
    """The source of :mod:`._trigger_tables` for the tables the literals of :mod:`._patterns`
    make now (tests/test_extract_prefilters.py compares it with the file)."""
    table = _triggers()
    families: dict[tuple[str, ...], list[str]] = {}
    for key, found in table.items():
        families.setdefault(tuple(sorted(found)), []).append(key)
    labels: dict[tuple[str, ...], list[str]] = {}
    for key, tried in _id_labels_by_key(table).items():
        labels.setdefault(tried, []).append(key)

    def rows(groups: dict[tuple[str, ...], list[str]]) -> str:
        return "".join(f"    {names!r}: {' '.join(sorted(keys))!r},\n" for names, keys in sorted(groups.items()))

    return (
        '"""Generated by ``_triggers.table_source()`` from the literals of ``_patterns``: do not edit.\n\n'
        "The trigger keys of each set of pattern families, and of each list of identifier labels\n"
        '(see ``_triggers.TRIGGERS`` and ``_triggers.ID_LABELS_BY_KEY``).\n"""\n\n'
        "from __future__ import annotations\n\n"
        f"_FAMILIES: dict[tuple[str, ...], str] = {{\n{rows(families)}}}\n"
        f"_LABELS: dict[tuple[str, ...], str] = {{\n{rows(labels)}}}\n\n\n"
        "def triggers() -> dict[str, frozenset[str]]:\n"
        "    return {key: frozenset(names) for names, keys in _FAMILIES.items() for key in keys.split()}\n\n\n"
        "def id_labels_by_key() -> dict[str, tuple[str, ...]]:\n"
        "    return {key: names for names, keys in _LABELS.items() for key in keys.split()}\n"
    )


_Node = dict[str, "_Node"]


def trie(keys: Iterable[str], *, whole_words_under: int = 0) -> str:
    """Regex source that matches exactly the keys, as a trie: the engine reads each letter once
    where an alternation would try every key.  A key shorter than ``whole_words_under`` letters
    must end its word (no letter follows); a longer one may start a word."""
    tree: _Node = {}
    for key in keys:
        node = tree
        for ch in key:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: _Node, depth: int) -> str:
        alts = [re.escape(ch) + emit(sub, depth + 1) for ch, sub in sorted(node.items()) if ch]
        if "" in node:
            alts.append(r"(?![^\W\d_])" if depth < whole_words_under else "")
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"

    return emit(tree, 0)


@cache
def trigger_word_regex() -> re.Pattern[str]:
    """The key (group 1) of each word after the first whose key is in :data:`TRIGGERS`, as
    ``WORD.finditer`` would find it: a word starts after a non-letter.  The first class (no
    ASCII or Latin-1 letter) is a bitmap the regex engine can skip with; the look-behind then
    tells the other non-letters from the rarer letters of other scripts.  (The word at the
    very start of a text: match it against a blank and the text's first letters.)"""
    # a key of four letters is the start of a word, a shorter key a whole word
    return _regex.compile(r"[^a-zß-öø-ÿ](?<=[\W\d_])(" + trie(TRIGGERS, whole_words_under=4) + ")")


# A key is at most four letters, and a shorter one looks at one letter more: the first word's
# key is in the text's first five characters.
_KEY_REACH = 5
# Documents extracted by one process before it compiles trigger_word_regex (the loop over the
# words costs ~0.2 ms more per page than the regex, the regex ~10 ms once).
LOOP_DOCUMENTS = 32
_extracted = count()


def trigger_words(low: str) -> list[tuple[int, str]]:
    """``(start, key)`` of each word of the lower-cased ``low`` whose key is in :data:`TRIGGERS`,
    in order.  Loops over the words for a process's first :data:`LOOP_DOCUMENTS` texts, then
    uses :func:`trigger_word_regex` (tests/test_extract_prefilters.py holds the two equal)."""
    if next(_extracted) < LOOP_DOCUMENTS:
        return [(m.start(), m.group(1)) for m in WORD.finditer(low) if m.group(1) in TRIGGERS]
    rx = trigger_word_regex()
    hits = [(m.start(1), m.group(1)) for m in rx.finditer(low)]
    if first := rx.match(" " + low[:_KEY_REACH]):
        hits.insert(0, (0, first.group(1)))
    return hits


# --- digit regions ---------------------------------------------------------------------------

#: From a line's first digit to the end of the ``REACH``-th line after the last line with a
#: digit that follows within ``REACH`` lines: one region (see :func:`digit_regions`).
DIGIT_CLUSTER: Final = _regex.compile(r"[0-9][^\n]*(?:\n(?:[^\n0-9]*\n){0,2}[^\n0-9]*[0-9][^\n]*)*(?:\n[^\n]*){0,3}\n?")
#: How many lines after its first line a match of a :data:`.extract._DIGIT_LED` pattern can
#: reach, look-aheads included, plus one line to spare (DATE_DMY_TEXT has two optional line breaks).
REACH: Final = 3  # the {0,2} and {0,3} above


def digit_regions(text: str) -> list[tuple[int, int]]:
    """The parts of ``text`` where the patterns that need a digit can match (most of a letter
    has no digit): ``(start, end)`` from each line with a digit to the end of the ``REACH``-th
    line after it (its line break included), merged where they overlap.

    A pattern of :data:`.extract._DIGIT_LED` has an ASCII digit on the line its match starts on
    and crosses at most two line breaks, so every match of it in ``text`` starts in a region and
    ends (with its look-aheads) before the region's end.  Scanning the regions one by one with
    ``finditer(text, start, end)`` therefore gives exactly the matches of one scan of the whole
    text (look-behinds see the text before ``start``), and saves the regex engine the walk over
    the rest: of the 8,400 characters of a synthetic letter ~300 are in regions (of a 3,700-character
    invoice, though, ~3,300)."""
    return [(text.rfind("\n", 0, m.start()) + 1, m.end()) for m in DIGIT_CLUSTER.finditer(text)]


def digit_regions_at(text: str, digits: Iterable[int]) -> list[tuple[int, int]]:
    """:func:`digit_regions` from where the digits are (ascending positions, at least one on
    each line with an ASCII digit; :func:`prepare_and_digits` has them): no regex
    walk over the text, a few ``str.find`` per line with a digit.

    A region runs from the start of its first digit line to just after the ``REACH + 1``-th line
    break from its last digit line on (or the text's end); a digit before that line break is on
    one of the ``REACH`` lines after the last digit line and extends the region, as
    :data:`DIGIT_CLUSTER`'s loop does (tests/test_extract_prefilters.py compares the two)."""
    regions: list[tuple[int, int]] = []
    n = len(text)
    start = line_end = reach_end = -1  # the open region; its last digit line's end; where it reaches
    for pos in digits:
        if pos < line_end:
            continue  # on the last digit line
        if pos >= reach_end >= 0:
            regions.append((start, reach_end + 1 if reach_end < n else n))
            start = -1
        if start < 0:
            start = text.rfind("\n", 0, pos) + 1
        line_end = reach_end = text.find("\n", pos)
        for _ in range(REACH):
            if reach_end < 0:
                break
            reach_end = text.find("\n", reach_end + 1)
        if line_end < 0:
            line_end = n
        if reach_end < 0:
            reach_end = n
    if start >= 0:
        regions.append((start, reach_end + 1 if reach_end < n else n))
    return regions


# --- text preparation ------------------------------------------------------------------------

_ODD_LATIN1 = bytes(c for c in sorted(_CONTROL) if c < 256)


def prepare(text: str) -> str:
    """Blanks for control characters, hyphenation undone, look-alike letters in numbers folded.

    The result has one character per character of the text after the first two steps, so
    positions found in it can be used for line look-ups.
    """
    return prepare_and_digits(text)[0]


def prepare_and_digits(text: str) -> tuple[str, list[int]]:
    """:func:`prepare`'s text, and where in it each word with an ASCII digit starts its digits
    (folding makes digits only in such words: every line with a digit has one)."""
    t = text.replace("\r\n", "\n")
    if _has_odd_chars(t):
        t = ODD_CHARS.sub(lambda m: REPLACE[m.group()], t)
    t = DEHYPHEN.sub("", t)
    pieces: list[str] = []
    last = 0
    digits: list[int] = []
    for m in DIGIT_WORD.finditer(t):
        start, end = m.start(), m.end()
        digits.append(start)
        while start > 0 and (t[start - 1].isalnum() or t[start - 1] in "_|!"):
            start -= 1
        word = t[start:end]
        if word.isdigit() or not all(c in FOLD_CHARS for c in t[m.start() : end]):
            continue
        folded = _fold(word, t, start, end)
        if folded != word:
            pieces.extend((t[last:start], folded))
            last = end
    pieces.append(t[last:])
    return "".join(pieces), digits


def _has_odd_chars(text: str) -> bool:
    """Whether ODD_CHARS matches; for a Latin-1 text (most) bytes.translate says so 5x faster."""
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        return ODD_CHARS.search(text) is not None
    return len(raw.translate(None, _ODD_LATIN1)) != len(raw)


_D_BETWEEN_DIGITS = _regex.compile(r"(?<=[0-9])D(?=[0-9])")


def _fold(word: str, text: str, start: int, end: int) -> str:
    """From the first digit on, fold look-alike letters if digits are at least half (``2O26``,
    ``GB3b94``); a prefix of ``O``/``l``/``I`` before digits (``O532``), any one-letter prefix inside
    a number (``1.234,S6``, ``l2.50``); ``GB29``, ``B1234567``, ``AB12`` stay."""
    first = next(i for i, c in enumerate(word) if c.isdigit())
    head, rest = word[:first], word[first:]
    if 2 * sum(c.isdigit() for c in rest) >= len(rest):
        rest = rest.translate(FOLD_TABLE)
        if "D" in rest:  # 2D20 is 2020, but 3D (printing) and 2D (codes) stay
            rest = _D_BETWEEN_DIGITS.sub("0", rest)
    if head and all(c in "OoIl|!" for c in head) and rest.isdigit():
        head = head.translate(FOLD_TABLE)  # O532, Ol30: letters OCR makes of 0 and 1 rarely start a code
    elif len(head) == 1 and head in FOLD_CHARS:
        before = start >= 2 and text[start - 1] in NUMBER_SEPARATORS and text[start - 2].isdigit()
        after = text[end : end + 1] in (".", ",") and text[end + 1 : end + 2].isdigit()
        if before or after or _iso_year(head, rest, text, end):
            head = head.translate(FOLD_TABLE)
    return head + rest


#: What follows an ISO date's year: its month and the first digit of its day.
_ISO_MONTH_DAY = _regex.compile(r"[-/.][0-9]{1,2}[-/.][0-9]")


def _iso_year(head: str, rest: str, text: str, end: int) -> bool:
    """Whether ``head + rest`` is an ISO date's year with its first digit misread (``Z020-05-29``):
    a year of this century or the last once folded, a month and day after it (``B737-800`` stays)."""
    return (len(rest) == 3 and rest.isdigit() and (head.translate(FOLD_TABLE) + rest[:1]) in ("19", "20")
            and _ISO_MONTH_DAY.match(text, end) is not None)


# str.lower of a Latin-1 text, byte by byte (each Latin-1 character's lower case is one
# Latin-1 character): 3x faster than str.lower on a text with umlauts.
_LATIN1_LOWER = bytes(ord(chr(b).lower()) for b in range(256))


def lower(text: str) -> str:
    """``text.lower()``."""
    if text.isascii():
        return text.lower()
    try:
        return text.encode("latin-1").translate(_LATIN1_LOWER).decode("latin-1")
    except UnicodeEncodeError:
        return text.lower()
