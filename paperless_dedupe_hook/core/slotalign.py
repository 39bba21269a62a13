"""Labels that OCR read differently, and slots that hold values of several kinds, pure.

:func:`discriminative.slot_conflicts` compares a labelled value ("Gesamtbetrag 1.361,67")
only under the same label in the other document, and never in a slot with several values
(a table column).  A scan of the next bill of a series breaks both:

* the label is read with a slip (``gelelsete abschlage`` against ``gelelstete abschlage``)
  or with a word of the line before (``eur gesamtbetrag`` against ``gesamtbetrag``): the two
  amounts differ under one label, yet they are compared only as plain amounts (0.12 of a
  labelled conflict);
* the flight line ``Flight XB2282 FCO - FRA`` files an id and a route under one label, so the
  slot has two values and the next ticket's flight number never conflicts.

:func:`aligned` rewrites the second document's slot tokens: a label it alone has takes the
first document's label that is one label read twice (rapidfuzz ratio >= :data:`LABEL_RATIO`
without blanks, or one ends with the other of :data:`MIN_SUFFIX` characters or more), when
exactly one label of the first is; and every slot becomes one slot per kind (on both sides),
so that a slot of values of several kinds compares each kind alone.  D of the rewritten tokens can only be lower (more slots compared);
:mod:`.scoring` takes it only for a pair that could still reach the threshold, since the
rewrite costs a few hundred label comparisons.  Plain tokens are left as they are.
"""

from __future__ import annotations

from collections.abc import Collection

from rapidfuzz.fuzz import ratio
from rapidfuzz.process import extract

from .extract import SLOT_MARK, token_kind

__all__ = ["LABEL_RATIO", "aligned"]

#: Two labels without blanks this alike (rapidfuzz ratio, 0-100) are one label read twice.
LABEL_RATIO = 88.0
#: A label that ends with the other is the other with a word of the line before, from this length.
MIN_SUFFIX = 8
# A label short enough to be a word ("date", "nr") is matched only exactly: one slip makes another.
_MIN_FUZZY_LABEL = 6


def _slots(tokens: Collection[str]) -> dict[str, list[tuple[str, str]]]:
    """label without blanks -> [(label as read, value token)]."""
    out: dict[str, list[tuple[str, str]]] = {}
    for item in tokens:
        if item.startswith(SLOT_MARK):
            label, _, token = item[1:].partition("=")
            if label:
                out.setdefault(label.replace(" ", ""), []).append((label, token))
    return out


def _one_label_read_twice(x: str, y: str) -> bool:
    if min(len(x), len(y)) >= MIN_SUFFIX and (x.endswith(y) or y.endswith(x)):
        return True
    return min(len(x), len(y)) >= _MIN_FUZZY_LABEL and ratio(x, y) >= LABEL_RATIO


def _renames(slots_a: dict[str, list[tuple[str, str]]], slots_b: dict[str, list[tuple[str, str]]]) -> dict[str, str]:
    """label of b -> the label of a it is read twice as (only where exactly one of a's is)."""
    only_a = sorted(slots_a.keys() - slots_b.keys())
    if not only_a:
        return {}
    out = {}
    for key in sorted(slots_b.keys() - slots_a.keys()):
        near = [m for m, _, _ in extract(key, only_a, scorer=ratio, score_cutoff=LABEL_RATIO - 20.0, limit=None)]
        near += [k for k in only_a if k not in near and min(len(k), len(key)) >= MIN_SUFFIX
                 and (k.endswith(key) or key.endswith(k))]
        hits = [k for k in near if _one_label_read_twice(key, k)]
        if len(hits) == 1:
            out[key] = hits[0]
    return out


def _rewrite(slots: dict[str, list[tuple[str, str]]], renames: dict[str, str]) -> list[str]:
    """Slot tokens again, a renamed label as the other document reads it, a mixed slot per kind."""
    # Every slot per kind, on both sides alike: a slot mixed on one side only ("Flight" with the
    # id and the route here, the id alone there) still meets its other half.
    return [f"{SLOT_MARK}{renames.get(key, read)}~{token_kind(token)}={token}"
            for key, items in slots.items() for read, token in items]


def aligned(a: Collection[str], b: Collection[str]) -> tuple[frozenset[str], frozenset[str]] | None:
    """Both token sets with b's OCR-read labels renamed to a's and mixed slots split by kind;
    None when that changes nothing."""
    slots_a, slots_b = _slots(a), _slots(b)
    renames = _renames(slots_a, slots_b)
    mixed = any(len({token_kind(t) for _, t in items}) > 1 for s in (slots_a, slots_b) for items in s.values())
    if not renames and not mixed:
        return None
    plain_a = [t for t in a if not t.startswith(SLOT_MARK)]
    plain_b = [t for t in b if not t.startswith(SLOT_MARK)]
    as_read = {key: slots_a[target][0][0] for key, target in renames.items()}  # a's label as a reads it
    return frozenset(plain_a + _rewrite(slots_a, {})), frozenset(plain_b + _rewrite(slots_b, as_read))
