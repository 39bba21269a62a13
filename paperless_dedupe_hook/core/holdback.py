"""What held a candidate pair under the threshold, pure: the near miss explained.

``check N -v`` shows the candidates that scored under the threshold, so that a user can
see why a document they take for a duplicate was not reported.  For each: its exact scores
(J, containment, ordered overlap, F, D and the penalty factor it gave) and the reasons, in
the order they cost the pair:

* **conflicts** (the penalty): the values that differ, with the slot label they differ
  under (``date 2024-03-05 ≠ 2024-04-05 (“invoice date”)``), as
  :func:`discriminative.slot_similarity` counts them: slot conflicts, then values of one
  kind that differ outside a common slot, routes and streets;
* **another letter**: the two letters' subject lines differ (:mod:`.subject`), which caps D;
* **words out of order** (:mod:`.order`): the order factor scaled the shingle similarity down;
* **too little text in common**: containment and fuzzy together stay under the threshold
  even with D = 1 and the words in order;
* for short documents (:mod:`.short`) which part of the short rule failed: the text ratio,
  the digits, the identifiers; a short document against a long one is not compared.

The figures come from :func:`scoring.score` with ``exact=True``; the value pairs listed
are recomputed here with the same pairing rules (:mod:`._pairing`), so that a listed
conflict is one the score counted.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from . import minhash, ocr_slips, onesided, order, revision, scoring, short, slotalign, subject
from ._pairing import pair_unmatched

# The same plain-token view and street echoes as D uses (private there: D's own rules, read here).
from .discriminative import _plain as plain_tokens
from .discriminative import _street_echoes as street_echoes
from .discriminative import conflicting_slots
from .extract import SLOT_MARK, token_kind
from .features import Features

__all__ = ["Conflict", "Holdback", "compared", "explain_pair", "value_text"]

#: Values of one kind listed per side of an unlabelled conflict; more are counted.
LISTED_VALUES = 3


@dataclass(frozen=True)
class Conflict:
    """Two values of one kind that differ: one each side (``values_a``/``values_b`` hold more
    for an unlabelled conflict of several values), under ``label`` when both carry it."""

    kind: str
    values_a: tuple[str, ...]
    values_b: tuple[str, ...]
    label: str = ""
    ocr_slip: bool = False  # the values differ in confusable characters only (core.ocr_slips: weigh less)

    def text(self) -> str:
        a, b = (_listed(vs, self.kind) for vs in (self.values_a, self.values_b))
        where = f" (“{self.label}”)" if self.label else ""
        slip = ", an OCR slip: weighs less" if self.ocr_slip else ""
        return f"{self.kind} {a} ≠ {b}{where}{slip}"

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "label": self.label, "a": [value_text(v, self.kind) for v in self.values_a],
                "b": [value_text(v, self.kind) for v in self.values_b], "ocr_slip": self.ocr_slip}


@dataclass(frozen=True)
class Holdback:
    """A scored pair and what kept it from the threshold (``reasons``: sentences, the main one first)."""

    pair: scoring.PairScore
    containment: float  # the shingle similarity before the order factor (J after containment)
    ordered_overlap: float
    order_factor: float
    penalty_factor: float  # what D left of the base score: 1 - strength * (1 - D)
    base: float  # the score without the penalty
    reasons: tuple[str, ...]
    conflicts: tuple[Conflict, ...] = field(default=())
    short: bool = False
    one_sided_factor: float = 1.0  # core.onesided: what D kept for values of kinds the other has none of
    own_values: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # those values, each side
    bonus: float = 1.0  # scoring.agreement_bonus when every value agrees and several do

    def as_dict(self) -> dict[str, object]:
        p = self.pair
        return {"score": round(p.score, 4), "jaccard": round(p.jaccard, 4), "containment": round(self.containment, 4),
                "ordered_overlap": round(self.ordered_overlap, 4), "order_factor": round(self.order_factor, 4),
                "fuzzy": round(p.fuzzy, 4), "discriminative": round(p.discriminative, 4),
                "penalty_factor": round(self.penalty_factor, 4), "score_without_penalty": round(self.base, 4),
                "verdict": p.verdict, "short": self.short, "reasons": list(self.reasons),
                "conflicts": [c.as_dict() for c in self.conflicts], "one_sided_factor": round(self.one_sided_factor, 4), "agreement_bonus": self.bonus,
                "own_values": [[f"{token_kind(t)} {value_text(t)}" for t in side] for side in self.own_values]}


def value_text(token: str, kind: str = "") -> str:
    """A token's value as a user reads it: ``amount:28962`` -> ``289.62``, ``route:a>b`` -> ``a → b``."""
    kind = kind or token_kind(token)
    value = token.split(":", 2)[-1] if token.startswith("id:") else token.partition(":")[2]
    if kind == "amount" and value.lstrip("-").isdigit():
        cents = int(value)
        return f"{'-' if cents < 0 else ''}{abs(cents) // 100}.{abs(cents) % 100:02d}"
    if kind == "route":
        return value.replace(">", " → ")
    return value


def _token_of(item: str) -> str:
    """The value token of a slot (``@label=token``) or plain token."""
    return item[1:].partition("=")[2] if item.startswith(SLOT_MARK) else item


def _listed(values: tuple[str, ...], kind: str) -> str:
    shown = [value_text(v, kind) for v in values[:LISTED_VALUES]]
    more = len(values) - LISTED_VALUES
    return ", ".join(shown) + (f" (+{more})" if more > 0 else "")


def _labelled_slots(tokens: Collection[str]) -> dict[str, tuple[str, set[str]]]:
    """label without blanks -> (label as read, values): as discriminative._slot_map keys them."""
    slots: dict[str, tuple[str, set[str]]] = {}
    for item in tokens:
        if item.startswith(SLOT_MARK):
            label, _, token = item[1:].partition("=")
            if label:
                slots.setdefault(label.replace(" ", ""), (label, set()))[1].add(token)
    return slots


def _slot_conflicts(a: Collection[str], b: Collection[str], slipped: frozenset[str]) -> list[Conflict]:
    """The slots holding one different value each, by discriminative.slot_conflicts' rules."""
    labels = _labelled_slots(a)
    return [Conflict(token_kind(ta), (ta,), (tb,), labels[key][0].partition("~")[0].strip(),
                     ta in slipped and tb in slipped)
            for key, ta, tb in conflicting_slots(a, b)]


def _unlabelled_conflicts(a: frozenset[str], b: frozenset[str], slipped: frozenset[str]) -> list[Conflict]:
    """Values of one kind on both sides that no pairing rule matches (discriminative._evidence)."""
    only_a, only_b = sorted(a - b), sorted(b - a)
    matched, neutral = pair_unmatched(only_a, only_b)
    gone = {t for pair in (*matched, *neutral) for t in pair}
    sides: tuple[dict[str, list[str]], dict[str, list[str]]] = ({}, {})
    for tokens, other, side in ((only_a, b, sides[0]), (only_b, a, sides[1])):
        months = {t[:12] for t in other if t.startswith("date:") and len(t) == 15}
        for t in tokens:
            if t not in gone and t not in months:
                kind = token_kind(t)
                side.setdefault("month" if kind == "date" and len(t) == 12 else kind, []).append(t)
    return [Conflict("date" if kind == "month" else kind, tuple(sides[0][kind]), tuple(sides[1][kind]), "",
                     all(t in slipped for t in (*sides[0][kind], *sides[1][kind])))
            for kind in sorted(sides[0].keys() & sides[1].keys())]


def conflicts(
    a: Collection[str], b: Collection[str], similarity: float = 1.0, *, weight: Callable[[str], float] | None = None,
) -> list[Conflict]:
    """Every conflict of two token sets that lowers D, labelled ones first; a revision's
    version dates are left out when they differ (core.revision takes D without them).
    ``similarity`` (the pair's shingle similarity) decides whether OCR slips weigh less; with
    the library's token ``weight``, a series' own value misread (core.ocr_slips) is none."""
    versions = revision.versions(a, b)
    if versions.differ:
        a, b = (revision.without_version_dates(a, versions.a), revision.without_version_dates(b, versions.b))
    slipped = ocr_slips.explained(a, b) if similarity >= ocr_slips.MIN_SIMILARITY else frozenset()
    if weight is not None and (misread := ocr_slips.misread_static(a, b, weight)):
        a = [t for t in a if _token_of(t) not in misread]
        b = [t for t in b if _token_of(t) not in misread]
    plain_a, plain_b = plain_tokens(a), plain_tokens(b)
    if aside := street_echoes(plain_a, plain_b):
        plain_a, plain_b = plain_a - aside, plain_b - aside
    # the slots as D compares them for a pair within reach: OCR-read labels as one, mixed slots per kind
    rewritten = slotalign.aligned(a, b) if scoring.ALIGN_SLOTS else None
    labelled = _slot_conflicts(*(rewritten or (a, b)), slipped)
    seen = {(c.kind, c.values_a[0]) for c in labelled} | {(c.kind, c.values_b[0]) for c in labelled}
    rest = []
    for c in _unlabelled_conflicts(plain_a, plain_b, slipped):
        # a slot conflict's values show up among the kind's unlabelled ones too: list them once
        va = tuple(v for v in c.values_a if (c.kind, v) not in seen)
        vb = tuple(v for v in c.values_b if (c.kind, v) not in seen)
        if va and vb:
            rest.append(Conflict(c.kind, va, vb, "", c.ocr_slip))
    return labelled + rest


def _short_reasons(a: Features, b: Features) -> tuple[str, ...]:
    if not (a.short and b.short):
        long, brief = (b, a) if a.short else (a, b)
        return (f"#{brief.doc_id} is a short document ({brief.word_count} words): compared with short ones only, "
                f"not with #{long.doc_id} ({long.word_count} words)",)
    found = short.compare(a.head, b.head, a.tokens, b.tokens)
    reasons = []
    if found.text_ratio < short.MIN_TEXT_RATIO:
        reasons.append(f"short texts differ: ratio {found.text_ratio:.2f} < {short.MIN_TEXT_RATIO:.2f}")
    if not found.digits_agree:
        da, db = short.digits(short.without_stamps(a.head)), short.digits(short.without_stamps(b.head))
        reasons.append(f"short texts' digits differ: {da or '(none)'} ≠ {db or '(none)'}")
    ids_a = sorted(t for t in a.tokens if token_kind(t) in ("id", "iban"))
    ids_b = sorted(t for t in b.tokens if token_kind(t) in ("id", "iban"))
    if ids_a and ids_b and ids_a != ids_b:
        reasons.append(f"identifiers differ: {', '.join(map(value_text, ids_a))} ≠ {', '.join(map(value_text, ids_b))}")
    return tuple(reasons) or ("short rule holds but the text ratio is under the threshold",)


def compared(a: Features, b: Features, params: scoring.ScoreParams, *, weight: Callable[[str], float] | None = None,
             ) -> tuple[Features, Features]:
    """The pair as an exact :func:`.scoring.score` compares its values: less the values of a head of
    its own (a cover sheet, core.cover) where leaving them out raised D.  Both need samples."""
    if a.signature is None or b.signature is None or a.short or b.short:
        return a, b
    jaccard = minhash.jaccard(a.signature, b.signature)
    similarity = scoring.corrected_similarity(jaccard, a.shingle_count, b.shingle_count, containment=params.containment)
    found = scoring._discriminative(a, b, weight, similarity, params=params)  # noqa: SLF001 - the score's own D
    if found is not None and found[0] >= 1.0:
        return a, b
    x, y, _ = scoring._heads_left_out(a, b, jaccard, similarity, found, weight, params, exact=True)  # noqa: SLF001 - the score's own rule
    return x, y


def explain_pair(
    a: Features, b: Features, params: scoring.ScoreParams, *, weight: Callable[[str], float] | None = None,
) -> Holdback:
    """The exact scores of a pair and why it is (or would be) under ``params``' threshold.
    Both documents need their samples."""
    pair = scoring.score(a, b, params, weight=weight, exact=True)
    full_a, full_b = a, b
    a, b = compared(a, b, params, weight=weight)  # without a cover's own values, as the score
    if a.short or b.short:
        return Holdback(pair, pair.jaccard, 1.0, 1.0, 1.0, pair.score, _short_reasons(a, b), short=True)
    containment = scoring.corrected_similarity(pair.jaccard, a.shingle_count, b.shingle_count,
                                               containment=params.containment)
    overlap = order.ordered_overlap(a, b) if scoring.ORDERED else 1.0
    text_only = scoring.text_only(a, b, pair.discriminative)
    factor = order.order_factor(overlap, text_only=text_only) if scoring.ORDERED else 1.0
    penalty = 1.0 - params.penalty_strength / 100.0 * (1.0 - pair.discriminative)
    base = scoring.combine(pair.similarity, pair.fuzzy, 1.0, params)
    in_order = scoring.combine(containment, pair.fuzzy, 1.0, params)
    found = conflicts(a.tokens, b.tokens, containment, weight=weight) if pair.discriminative < 1.0 else []
    threshold = params.similarity_threshold
    bonus = scoring._bonus(a, b, pair.discriminative, weight)  # noqa: SLF001 - the score's own rule
    reasons = []
    if pair.score >= threshold and not params.reports(pair):
        reasons.append("a newer version (a revision), and detection.report_revisions is false")
    left_out = [sum(1 for t in full.tokens - less.tokens if not t.startswith(SLOT_MARK))
                for full, less in ((full_a, a), (full_b, b))]
    if any(left_out):
        reasons.append(f"values of a head only one side has (a cover sheet) not compared: {left_out[0]} of "
                       f"#{a.doc_id}, {left_out[1]} of #{b.doc_id}")
    # the factor as the score took it (applied only to a pair within reach without it); D before it is D over it
    sided = onesided.factor(a.tokens, b.tokens, weight, similarity=containment) if scoring.ONE_SIDED else 1.0
    before = min(1.0, pair.discriminative / sided) if sided > 0.0 else 1.0  # D before the factor (0: nothing agrees)
    if sided < 1.0 and scoring.one_sided_factor(a, b, weight, containment, before, params) == 1.0:
        sided = 1.0
    own: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    if pair.discriminative < 1.0:
        parts = [c.text() for c in found]
        letters = subject.differ(full_a, full_b) if scoring.SUBJECTS else None
        if letters is not None and pair.discriminative <= subject.MAX_D:
            parts.insert(0, f"another letter: the subject lines differ (“{letters[0]}” ≠ “{letters[1]}”, "
                            f"D at most {subject.MAX_D:.2f})")
        if sided < 1.0:
            own_a, own_b = onesided.own_kinds(a.tokens, b.tokens)
            own = (tuple(own_a), tuple(own_b))
            shown = [", ".join(f"{token_kind(t)} {value_text(t)}" for t in side[:LISTED_VALUES])
                     + (f" (+{len(side) - LISTED_VALUES})" if len(side) > LISTED_VALUES else "") for side in own]
            parts.append(f"values of kinds the other has none of on both sides (D x{sided:.2f}): "
                         f"{shown[0]} | {shown[1]}")
        listed = "; ".join(parts) or "values that differ"
        lead = "conflicts" if base >= threshold else "conflicts as well"
        reasons.append(f"{lead} (D {pair.discriminative:.2f}, score x{penalty:.2f}): {listed}")
    if base < threshold:
        if factor < 1.0 and (in_order >= threshold or containment >= threshold):
            # the shingles alone look like a copy's; the words come in another order (fuzzy suffers too)
            reasons.insert(0, f"words out of order: ordered overlap {overlap:.2f} keeps {factor:.2f} of the "
                              f"shingle similarity {containment:.2f} (a copy has "
                              f"{order.ORDER_COPY_TEXT_ONLY if text_only else order.ORDER_COPY:.2f} or more"
                              f"{', with no value to tell it by' if text_only else ''}), "
                              f"fuzzy {pair.fuzzy:.2f}")
        else:
            size = min(a.shingle_count, b.shingle_count) / max(1, a.shingle_count, b.shingle_count)
            part = (f"; one text is under {scoring.MIN_CONTAINMENT_RATIO:.0%} of the other's size, so containment "
                    "does not count" if params.containment and size < scoring.MIN_CONTAINMENT_RATIO else "")
            order_part = f", ordered overlap {overlap:.2f}" if factor < 1.0 else ""
            reasons.insert(0, f"too little text in common: jaccard {pair.jaccard:.2f}, containment "
                              f"{containment:.2f}{order_part}, fuzzy {pair.fuzzy:.2f} give {base:.2f} even "
                              f"without a penalty{part}")
    return Holdback(pair, containment, overlap, factor, penalty, base, tuple(reasons), tuple(found),
                    one_sided_factor=sided, own_values=own, bonus=bonus)
