"""Conflicts that an OCR confusion explains, pure.

Tesseract reads "18. Januar 2025" as "13. Januar 2025", 5.486,00 as 5.436,00, a customer
number's 0 as D or O, an IBAN's 5 as S or 6.  Extraction folds look-alike *letters* inside
numbers, and :mod:`.discriminative` sets aside dates and amounts one 1/7 or 3/8 apart; what is
left conflicts like the next month's invoice.  Here a pair's conflicts are *explained* when

* every value that differs (date, amount, id, ref, IBAN; one on each side of one kind) pairs
  with a value of the same kind and length on the other side that differs from it only in
  confusable characters (:data:`CONFUSABLE`: 3/8, 1/7, 5/6, 6/8, 0/8, 0/9, 5/8, 2/7, 1/4 and
  the look-alike letters O, D, Q, S, B, Z, G, I, l against digits), and
* all such differences of the pair together are at most :data:`MAX_SLIPS` characters, in at
  most :data:`MAX_VALUES` value (one on each side).

One unexplained conflict, three slips, or two values that each differ by a slip, and nothing is
explained: the next invoice of a series differs in its date, its number and its amount (months
01/02, numbers ...47/...48 are no OCR confusion), so a series keeps every conflict.  Two values
are a series too: payslips of March and August, whose months ``03``/``08`` and ``02``/``07`` the
text writes as words, were taken for two slips of one scan; with the rule off no duplicate of
our 3k corpora changed its verdict, at realistic 20k one in 1,901 (docs/quality.md, issue 23).  The caller lowers the weight of explained
values (:func:`conflict_weigher`), and does so only for a pair whose texts otherwise agree.

A series also carries values that never change from one member to the next: the personnel
number of every payslip, the customer number of every invoice, the register number in the
footer, the IBAN of every statement.  Across the library such a value is frequent (it has the
series' document frequency), and a re-scan of one member that misreads it (``89077`` read as
``89017``, ``92368`` as ``9238``) carries a variant no other document has.  Such a pair --
one value frequent in the library, the other rare and one OCR misreading of it
(:func:`misread_static`) -- is the series' own value read twice, whatever else differs: it
tells nothing about which member the document is, and weighs nothing (:func:`pair_weigher`).
Two members of one series both carry the frequent value; two series of one template (two
customers) differ in it by more than one misreading, or each carry their own frequent value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from functools import lru_cache

from rapidfuzz.distance import Levenshtein

from .extract import SLOT_MARK, token_kind

__all__ = ["CONFUSABLE", "MAX_SLIPS", "MAX_VALUES", "MIN_SIMILARITY", "SLIP_WEIGHT", "conflict_weigher", "explained",
           "misread_static", "pair_weigher"]

CONFUSABLE = frozenset(frozenset(p) for p in (
    "38", "17", "56", "68", "08", "09", "58", "27", "14",
    "O0", "D0", "Q0", "S5", "S8", "B8", "Z2", "G6", "I1", "L1", "T7", "A4",
))
MAX_SLIPS = 2
#: How many values (one on each side) slips may explain.
MAX_VALUES = 1
#: How much an explained conflict weighs against a clean one.
SLIP_WEIGHT = 0.2
#: The texts must otherwise agree: the pair's shingle similarity (J, containment-corrected) at
#: least this.  Letters of one insurer with the same letterhead and footer and other bodies stay
#: under it; a scan and its original, or two scans, are over it.
MIN_SIMILARITY = 0.85
_KINDS = frozenset({"date", "amount", "id", "ref", "iban"})
#: The kinds a series carries unchanged in every member (dates and amounts change, or recur by chance).
_STATIC_PREFIXES = ("id:", "ref:", "iban:")
#: The shortest value whose misreading is told (four digits: a personnel number).
_STATIC_MIN_CHARS = 4
#: Values this long may hold two misreadings (an IBAN: a confusable digit and a lost one).
_STATIC_TWO_SLIPS_CHARS = 10


def _plain(tokens: Collection[str]) -> frozenset[str]:
    """The values of the kinds OCR can misread (no slot marks)."""
    return _cached_plain(tokens if isinstance(tokens, frozenset) else frozenset(tokens))


# A document is compared with each of its candidates: its values are picked out once.
@lru_cache(maxsize=4096)
def _cached_plain(tokens: frozenset[str]) -> frozenset[str]:
    return frozenset(t for t in tokens if not t.startswith(SLOT_MARK) and token_kind(t) in _KINDS)


def _value(token: str) -> str:
    cut = token.find(":", 3) + 1 if token.startswith("id:") else token.find(":") + 1
    return token[cut:]


def _space(token: str) -> str:
    cut = token.find(":", 3) + 1 if token.startswith("id:") else token.find(":") + 1
    return token[:cut]


def _slips(x: str, y: str) -> int | None:
    """Confusable characters between two values of one length, None if any other difference."""
    if len(x) != len(y):
        return None
    n = 0
    for p, q in zip(x, y, strict=True):
        if p != q:
            if frozenset((p.upper(), q.upper())) not in CONFUSABLE:
                return None
            n += 1
    return n


def explained(a: Collection[str], b: Collection[str]) -> frozenset[str]:
    """The values of a pair whose differences OCR explains (both sides' tokens), or the empty
    set when any conflict is not explained or there are more than MAX_SLIPS slips."""
    plain_a, plain_b = _plain(a), _plain(b)
    only_a, only_b = sorted(plain_a - plain_b), sorted(plain_b - plain_a)
    if not only_a or not only_b:
        return frozenset()
    # Per namespace, every value of its smaller side must be explained (or one left over
    # conflicts): more such values than MAX_VALUES (each at least one slip, and MAX_VALUES <=
    # MAX_SLIPS) and nothing is explained.  The pairs of a template series, with a dozen new
    # dates and amounts, and two payslips differing in two months stop here.
    spaces_b = Counter(map(_space, only_b))
    if sum(min(n, spaces_b[s]) for s, n in Counter(map(_space, only_a)).items() if s in spaces_b) > MAX_VALUES:
        return frozenset()
    used: set[str] = set()
    out: set[str] = set()
    slips = 0
    left_a = []
    # Slips keep the length: only values of one namespace and one length can be one value.
    by_shape: dict[tuple[str, int], list[str]] = {}
    for tb in only_b:
        by_shape.setdefault((_space(tb), len(_value(tb))), []).append(tb)
    for ta in only_a:
        best = None
        value = _value(ta)
        for tb in by_shape.get((_space(ta), len(value)), ()):
            if tb in used:
                continue
            n = _slips(value, _value(tb))
            if n is not None and n > 0 and (best is None or n < best[0]):
                best = (n, tb)
        if best is None:
            left_a.append(ta)
            continue
        slips += best[0]
        if slips > MAX_SLIPS:
            return frozenset()  # more slips than a readable scan makes
        used.add(best[1])
        out.update((ta, best[1]))
    if slips == 0:
        return frozenset()
    kinds_left_b = {_space(tb) for tb in only_b if tb not in used}
    if any(_space(ta) in kinds_left_b for ta in left_a):
        return frozenset()  # a conflict no OCR slip explains: a different document
    return frozenset(out)


def misread_static(a: Collection[str], b: Collection[str], weight: Callable[[str], float]) -> frozenset[str]:
    """Both tokens of every pair of an id, ref or IBAN that the library holds often (``weight`` under 1:
    in more documents than ``scoring.RARE_TOKEN_DF``) on one side and a rare one (weight 1) of one
    namespace on the other that one OCR misreading of it gives (:func:`_misreading`)."""
    static_a, static_b = _static(a), _static(b)
    only_a, only_b = static_a - static_b, static_b - static_a
    if not only_a or not only_b:
        return frozenset()
    out: set[str] = set()
    for side, other in ((only_a, only_b), (only_b, only_a)):
        frequent = [t for t in side if weight(t) < 1.0]
        if not frequent:
            continue
        rare = [t for t in other if weight(t) >= 1.0]
        for t in frequent:
            for u in rare:
                if _space(t) == _space(u) and _misreading(_value(t), _value(u)):
                    out.update((t, u))
    return frozenset(out)


def _static(tokens: Collection[str]) -> frozenset[str]:
    """The ids, refs and IBANs of a document (no slot marks): a pair needs only these."""
    return _cached_static(tokens if isinstance(tokens, frozenset) else frozenset(tokens))


# The hook asks this of each of ~100 candidates before it fetches a text: a document's own are
# picked out once, by their prefix (a statement has hundreds of values, ids a few of them; asking
# each token's kind, as the rest of this module does, took 2.5 % more of the hook's instructions
# in one bench run, docs/benchmarks.md).
@lru_cache(maxsize=4096)
def _cached_static(tokens: frozenset[str]) -> frozenset[str]:
    return frozenset(t for t in tokens if t.startswith(_STATIC_PREFIXES))  # slots begin with SLOT_MARK


def _misreading(x: str, y: str) -> bool:
    """Whether OCR reading ``x`` could give ``y``: confusable substitutions and dropped or doubled
    characters, one of them (two in a value of ``_STATIC_TWO_SLIPS_CHARS``)."""
    if min(len(x), len(y)) < _STATIC_MIN_CHARS:
        return False
    most = 2 if min(len(x), len(y)) >= _STATIC_TWO_SLIPS_CHARS else 1
    if Levenshtein.distance(x, y, score_cutoff=most) > most:
        return False
    return all(op.tag != "replace" or frozenset((x[op.src_pos].upper(), y[op.dest_pos].upper())) in CONFUSABLE
               for op in Levenshtein.editops(x, y))


def pair_weigher(
    a: Collection[str], b: Collection[str], similarity: float, weight: Callable[[str], float] | None,
) -> Callable[[str], float] | None:
    """The conflict weight of a pair (``similarity``: its shingle similarity): 0 for a series'
    value misread (:func:`misread_static`, with the library's token ``weight``), SLIP_WEIGHT for the
    values :func:`explained` explains where the texts agree, 1 for every other; None for all 1."""
    slips = explained(a, b) if similarity >= MIN_SIMILARITY else frozenset()
    misread = misread_static(a, b, weight) if weight is not None else frozenset()
    if not misread:
        return conflict_weigher(slips)

    def lowered(token: str) -> float:
        return 0.0 if token in misread else SLIP_WEIGHT if token in slips else 1.0

    return lowered


def conflict_weigher(slips: frozenset[str]) -> Callable[[str], float] | None:
    """The conflict weight of :func:`discriminative.slot_similarity`: SLIP_WEIGHT for the
    explained values, 1 for every other; None when nothing is explained."""
    if not slips:
        return None

    def lowered(token: str) -> float:
        return SLIP_WEIGHT if token in slips else 1.0

    return lowered
