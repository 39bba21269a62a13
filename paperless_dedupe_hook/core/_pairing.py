"""Pairing the values two documents do not share, pure: which are one value read twice.

:mod:`.discriminative` counts a value on both sides as agreement and asks this module about
the rest: an id with and without its label, one OCR-confusable substitution or one dropped or
doubled character in a long value (these *agree*), and dates or amounts one digit slip apart or
a value and a fragment of it (these are *neutral*).  See that module's docstring for the rules.

This is the dearest step of scoring a pair (a rebuild of a large library pairs the values of a
few million candidate pairs), so the per-token parts are cached, and the "one slip apart" test
runs rapidfuzz's Hamming and Indel distances (C) on the values of one namespace whose lengths
differ by at most one, instead of building every one-edit variant of every value.  The pairing
is the one the variant buckets gave: for each unmatched value of the first side in order, the
first unused partner in the order of its variants, then of the second side.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from rapidfuzz.distance import Hamming, Indel, Levenshtein
from rapidfuzz.fuzz import ratio

from . import _patterns as P
from .extract import token_kind

#: kind -> (agreement weight, conflict weight); ids of a STATIC_ID_LABELS label agree for 0.5.
WEIGHTS = {"route": (1.0, 4.0), "id": (1.5, 4.0), "iban": (0.5, 3.0), "date": (1.0, 2.5),
           "amount": (0.5, 1.0), "ref": (0.75, 1.5), "street": (0.5, 3.0)}
STATIC_ID_WEIGHTS = (0.5, 4.0)
OTHER_WEIGHTS = (0.5, 1.0)  # a kind this module does not know (a caller's own token)

_LOOK_ALIKE = frozenset(frozenset(p) for p in ("O0", "D0", "Q0", "I1", "L1", "S5", "B8", "B6", "Z2", "G6", "G9", "A4", "T7", "EF", "CE"))
_DIGIT_CONFUSABLE = frozenset(frozenset(p) for p in ("17", "38"))
_CONFUSABLE = _LOOK_ALIKE | _DIGIT_CONFUSABLE | {frozenset(p) for p in ("56", "68", "08")}
#: The digit a look-alike letter stands for inside a number (an IBAN's check digits and account).
_DIGIT_OF = str.maketrans("ODQILSBZGAT", "00011582647")
_NEUTRAL_KINDS = frozenset({"date", "amount"})
_MIN_FUZZY = {"id": 4, "ref": 6, "route": 6, "iban": 6, "date": 10, "amount": 3, "street": 5}
_STREET_RATIO = 85  # rapidfuzz ratio of two street names that are one name read twice
#: Edits two street names may differ by once OCR's look-alikes are folded (:func:`_fold_street`):
#: one, or two where the names begin alike.  A ratio alone took two streets of one form,
#: ``yorkterrace``/``oakterrace`` or ``parkstrasse``/``marktstrasse``, for one name read twice
#: (85 % alike, as ``yorkstreet``/``yorlcstreet`` is); another street of a form differs in its
#: own first word, which begins the name.
_STREET_EDITS = 1
#: OCR's misreadings within a word that a street token's own folding (``text.fold_ocr``:
#: ``rn``/``m``, ``cl``/``d``, ``i``/``1``/``l``, ``0``/``o`` ...) leaves, folded onto one
#: spelling before two street names are compared: letter pairs (``lc``/``k``, ``ß`` read as
#: ``B``) first, then letters.  Not ``in`` read as ``m`` (``maln``/``mam`` for ``Main``): once ``i``
#: is ``l`` it would fold a capital ``I`` read as ``l`` too (``lndustriestrasse``), one realistic
#: 20k seed (139) lost a re-scan so.
_OCR_LETTER_PAIRS = (("lc", "k"), ("ri", "n"), ("ss", "b"))
_OCR_LETTERS = str.maketrans("aefuyhq", "octnvbg")
#: Date pairs set aside as neutral per pair of documents (one OCR slip apart, or a day that
#: lost a digit): two such pairs are a series, not OCR, whose dates differ alike twice (days
#: ten apart, ``18``/``08`` and ``15``/``05``; a month in words, ``9 agosto``/``9 marzo`` and
#: ``26 agosto``/``26 marzo``, read as ``08``/``03``, a 3/8 slip).
MAX_NEUTRAL_DATES = 1
_HOUSE = re.compile(r"[0-9][0-9a-z]*$")
_MAX_SCAN = 64  # candidates per token for the fragment check (bounds the cost on huge documents)
# Tokens whose parts are cached: a scoring job meets each document's tokens in ~25 pairs,
# and the tokens of a template family (its customer number, its dates) in many more.
_CACHED_TOKENS = 1 << 16


def split(token: str) -> tuple[str, str]:
    """(namespace, value): ``id:invoice:X`` -> (``id:invoice:``, ``X``)."""
    cut = token.find(":", 3) + 1 if token.startswith("id:") else token.find(":") + 1
    return token[:cut], token[cut:]


@lru_cache(maxsize=_CACHED_TOKENS)
def weights(token: str) -> tuple[float, float]:
    """(agreement weight, conflict weight) of a token."""
    kind = token_kind(token)
    if kind == "id" and token.split(":", 2)[1] in P.STATIC_ID_LABELS:
        return STATIC_ID_WEIGHTS
    return WEIGHTS.get(kind, OTHER_WEIGHTS)


def _id_key(kind: str, value: str) -> str | None:
    """The number an id and a ref share when one side lost the label (digits if >= 6 of them)."""
    if kind not in ("id", "ref"):
        return None
    digits = "".join(c for c in value if c.isdigit())
    return digits if len(digits) >= 6 else value


@lru_cache(maxsize=_CACHED_TOKENS)
def _parts(token: str) -> tuple[str, str, str, bool, str | None]:
    """(namespace, value, kind, whether long enough for the one-slip test, id key)."""
    space, value = split(token)
    kind = token_kind(token)
    return space, value, kind, len(value) >= _MIN_FUZZY.get(kind, 1000), _id_key(kind, value)


def number_key(token: str) -> str | None:
    """The key an id and a ref share when they are one number (None for other kinds)."""
    return _parts(token)[4]


def variants(value: str, neutral: bool) -> Iterable[tuple[str, int, str]]:
    """Keys shared by values one substitution or one deletion apart, in the order that
    decides between two partners of one value."""
    for i in range(len(value)):
        yield "s", i, value[:i] + "\0" + value[i + 1 :]
        if not neutral or value.isdigit():
            yield "d", -1, value[:i] + value[i + 1 :]
    yield "d", -1, value


def near(x: str, y: str, neutral: bool) -> bool:
    """One confusable substitution, or one dropped/doubled character, apart (values of one namespace).

    Dates and amounts (``neutral``) allow only the digit slips 1/7, 3/8 and a dropped digit
    of an all-digit value; other values the look-alikes (O/0, I/1, S/5 ...) from 4 characters,
    also 1/7, 3/8, 5/6, 6/8, 0/8 from 6, and a dropped or doubled character from 5."""
    if len(x) == len(y):
        if Hamming.distance(x, y, score_cutoff=1) != 1:
            return False
        at = next(i for i, (p, q) in enumerate(zip(x, y, strict=True)) if p != q)
        table = _DIGIT_CONFUSABLE if neutral else _CONFUSABLE if len(x) >= 6 else _LOOK_ALIKE
        return frozenset((x[at], y[at])) in table
    if abs(len(x) - len(y)) != 1 or Indel.distance(x, y, score_cutoff=1) != 1:
        return False
    if neutral:  # a dropped digit of a number, never of a formatted date or amount
        return (x + y).isdigit()
    return min(len(x), len(y)) >= 5


def _first_variant(x: str, y: str, neutral: bool) -> int:
    """Where among ``x``'s variants the first one ``y`` shares comes (``near`` holds)."""
    keys = set(variants(y, neutral))
    return next(k for k, v in enumerate(variants(x, neutral)) if v in keys)


def _compatible(kind: str, x: str, y: str) -> bool:
    """A value and a fragment of it (a number split by a stray blank, a day that lost a digit)."""
    short, long = (x, y) if (len(x), x) <= (len(y), y) else (y, x)
    if kind == "amount":  # 1.936,56 read as 9 36,56; 24,74 read as 24,741 (thousands)
        return len(short) >= 3 and (long.endswith(short) or long.startswith(short) or _cents_lost(short, long))
    if kind == "date":
        if len(x) != 10 or len(y) != 10 or x[:8] != y[:8]:
            return False
        dx, dy = x[8:].lstrip("0"), y[8:].lstrip("0")
        return (len(dx) == 1 and dx in dy) or (len(dy) == 1 and dy in dx)
    if kind == "iban":  # one IBAN cut short, a digit of it dropped or read as a look-alike letter
        fx, fy = x[:2] + x[2:].translate(_DIGIT_OF), y[:2] + y[2:].translate(_DIGIT_OF)
        short_f, long_f = (fx, fy) if len(fx) <= len(fy) else (fy, fx)
        if fx[:14] == fy[:14]:
            return True
        if len(fx) == len(fy) >= 15 and near(fx, fy, False):
            return True  # one digit OCR confuses (3/8, 1/7 ...) once the letters are folded:
            # two valid IBANs differ in two places at least (the check digits see to it)
        return len(short_f) >= 14 and Indel.distance(short_f, long_f[: len(short_f) + 1], score_cutoff=1) <= 1
    if kind == "street":  # one address read twice, with OCR slips in the name or the number
        (nx, hx), (ny, hy) = _house(x), _house(y)
        if Levenshtein.distance(hx, hy) > 1:
            return False
        fold_short, fold_long = sorted((_fold_street(nx), _fold_street(ny)), key=len)
        # "Calle de San Juan" read as "San Juan", "Calle del Mar 109" as "Mar 109": a name that
        # lost its first word is one name (at the very same house number, or 85 % alike)
        lost_first_word = len(fold_short) >= 3 and fold_long.endswith(fold_short)
        if lost_first_word and hx == hy:
            return True
        if ratio(nx, ny) < _STREET_RATIO and ratio(fold_letter_pairs(nx), fold_letter_pairs(ny)) < _STREET_RATIO:
            # alike as read, or once OCR's letter pairs are one letter (klrchstrabel, klrchstrasse);
            # not once single look-alikes are folded too: york and park, green and queen come near
            return False
        edits = _STREET_EDITS + (fold_short[:1] == fold_long[:1])
        return (Levenshtein.distance(fold_short, fold_long, score_cutoff=edits) <= edits
                or (lost_first_word and len(fold_short) >= 5))
    return kind in ("id", "ref") and len(short) >= 6 and short in long


def _cents_lost(short: str, long: str) -> bool:
    """Two amounts (in cents) of which OCR lost one's cents: ``4.644,0l`` read as 4644.00 beside
    4644.01, or the separator with them, ``45,47`` read as ``45447`` beside 45.47 (one digit
    slipped in where the comma was)."""
    if len(short) == len(long):
        return short[:-2] == long[:-2] and len(short) >= 4 and "00" in (short[-2:], long[-2:])
    return (len(short) >= 4 and long.endswith("00") and len(long) == len(short) + 3
            and Indel.distance(long[:-2], short, score_cutoff=1) == 1)


@lru_cache(maxsize=_CACHED_TOKENS)
def _fold_street(name: str) -> str:
    """A street name with OCR's look-alikes folded onto one spelling (``yorlc`` -> ``york``)."""
    return fold_letter_pairs(name).translate(_OCR_LETTERS)


def fold_letter_pairs(name: str) -> str:
    """A street name with OCR's letter pairs for one letter folded onto it (``lc`` -> ``k``)."""
    for pair, one in _OCR_LETTER_PAIRS:
        name = name.replace(pair, one)
    return name


def both_dates(ta: str, tb: str) -> bool:
    """Whether two values are dates (one pair of them set aside counts to MAX_NEUTRAL_DATES)."""
    return ta.startswith("date:") and tb.startswith("date:")


def _house(street: str) -> tuple[str, str]:
    """(street name, house number) of a street token's value."""
    m = _HOUSE.search(street)
    return (street[: m.start()], m.group()) if m else (street, "")


def pair_unmatched(
    only_a: Sequence[str], only_b: Sequence[str],
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(agreeing pairs, neutral pairs) among values found on one side only: an id read with and
    without its label, one OCR slip in a long value (agree); dates and amounts one OCR slip apart,
    a value and a fragment of it (neutral).  Each value is paired at most once."""
    matched: list[tuple[str, str]] = []
    neutral: list[tuple[str, str]] = []
    used: set[str] = set()
    by_key: dict[str, list[str]] = {}
    by_length: dict[tuple[str, int], list[int]] = {}  # (namespace, value length) -> positions in only_b
    for j, tb in enumerate(only_b):
        space, value, _kind, fuzzy, key = _parts(tb)
        if key is not None:
            by_key.setdefault(key, []).append(tb)
        if fuzzy:
            by_length.setdefault((space, len(value)), []).append(j)
    left: list[str] = []
    neutral_dates = MAX_NEUTRAL_DATES
    for ta in only_a:
        space, value, kind, fuzzy, key = _parts(ta)
        is_neutral = kind in _NEUTRAL_KINDS
        hit = next((tb for tb in by_key.get(key, ()) if tb not in used), None) if key is not None else None
        if hit is None and fuzzy:
            size = len(value)
            near_ones = [j for length in (size - 1, size, size + 1) for j in by_length.get((space, length), ())
                         if only_b[j] not in used and near(value, _parts(only_b[j])[1], is_neutral)]
            if len(near_ones) == 1:
                hit = only_b[near_ones[0]]
            elif near_ones:  # the partner the first of this value's variants finds
                rank = {j: _first_variant(value, _parts(only_b[j])[1], is_neutral) for j in near_ones}
                hit = only_b[min(near_ones, key=lambda j: (rank[j], j))]
        if hit is not None and kind == "date":
            if neutral_dates <= 0:
                hit = None
            else:
                neutral_dates -= 1
        if hit is None:
            left.append(ta)
        else:
            used.add(hit)
            (neutral if is_neutral else matched).append((ta, hit))
    by_space: dict[str, list[str]] = {}
    for tb in only_b:
        if tb not in used:
            by_space.setdefault(_parts(tb)[0], []).append(tb)
    for ta in left:
        space, value, kind, _fuzzy, _key = _parts(ta)
        candidates = by_space.get(space, [])
        if len(candidates) <= _MAX_SCAN and (kind != "date" or neutral_dates > 0):
            hit = next((tb for tb in candidates if tb not in used and _compatible(kind, value, _parts(tb)[1])), None)
            if hit is not None:
                used.add(hit)
                neutral.append((ta, hit))
                neutral_dates -= kind == "date"
    return matched, neutral


def one_value(ta: str, tb: str) -> bool:
    """Whether :func:`pair_unmatched` pairs ``ta`` and ``tb`` alone (agreeing or neutral): the
    question a labelled slot asks of its two values, in a fraction of the time."""
    space_a, value_a, kind_a, fuzzy_a, key_a = _parts(ta)
    space_b, value_b, _kind_b, fuzzy_b, key_b = _parts(tb)
    if key_a is not None and key_a == key_b:
        return True
    if space_a != space_b:
        return False
    if fuzzy_a and fuzzy_b and abs(len(value_a) - len(value_b)) <= 1 and near(value_a, value_b, kind_a in _NEUTRAL_KINDS):
        return True
    return _compatible(kind_a, value_a, value_b)
