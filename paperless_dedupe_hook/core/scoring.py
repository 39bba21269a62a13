"""Scoring a candidate pair, pure.

The seed's formula::

    final = (jaccard_weight*J + fuzzy_weight*F) / 100 * (1 - strength/100 * (1 - D))

J is estimated from the MinHash signatures.  With ``containment`` on, J is
replaced by the overlap coefficient ``|A & B| / min(|A|, |B|)`` (derived from J and
the two shingle-set sizes by :func:`minhash.containment`) when the smaller set holds
at least half as many shingles as the larger: a copy missing its last page, or one
with a cover sheet, is all of it the other text although its Jaccard is lower.  For
two documents of equal size the overlap is ``2J / (1 + J)``; below the half-size
ratio the pair is an excerpt, not a copy, and J itself counts.

That similarity is then scaled by :func:`order.order_factor` of the share of words
the fuzzy samples have in one order (:mod:`.order`): a library's sentences in another
selection and order share shingles, not a text.

F is rapidfuzz's ``ratio`` (0-1) of the fuzzy samples; heads and tails are
compared separately and the better one counts.  D is the discriminative
similarity of the extracted tokens (dates, amounts, identifiers, references,
routes), with tokens that recur across many documents weighing less.

Three rules of issue 13 sit on top: a pair with a short document (under min_words) is
scored by :mod:`.short` alone (0 against a long one); in a pair whose texts agree, values
that an OCR confusion explains weigh less in D (:mod:`.ocr_slips`); and two versions of one
text with different version dates get D without those dates and the verdict ``revision``
(:mod:`.revision`), which ``ScoreParams.report_revisions`` may keep out of the report.  And
the values of a head that one side has and the other lacks (a cover sheet, :mod:`.cover`) are
left out of D where that raises it, and two letters with different subject lines (:mod:`.subject`)
have D at most ``subject.MAX_D``.

F and D are the dear parts (rapidfuzz on up to 2 x 5,000 characters; the slot
comparison), and most LSH candidates of a large library are far from the
threshold: unless asked for ``exact`` scores, a pair that cannot reach the
threshold even with F = D = 1 skips both, one that cannot with F = 1 and an upper
bound of D (its slot conflicts: a template series) skips D and F, one that cannot
with F = 1 and its D skips F, and the others ask rapidfuzz only for an F that can still make the
threshold (``score_cutoff``).  Every pair at or above the threshold gets exactly
the score it would get otherwise; pairs below it get a lower bound and
``exact=False``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rapidfuzz.fuzz import ratio

from . import cover, discriminative, minhash, ocr_slips, onesided, order, revision, short, slotalign, subject
from .features import Features

# Below this size ratio a "copy" would be missing more than half of the other
# document: that is an excerpt, not a duplicate, so containment stops helping.
MIN_CONTAINMENT_RATIO = 0.5
# Tokens seen in at most this many documents count fully; more common ones less.
RARE_TOKEN_DF = 3
CONTAINMENT_MODE = "overlap"
# Whether the shingle similarity is scaled by how far the shared words come in one
# order (core/order.py); off only to measure what it buys (bench/quality.py).
ORDERED = True
# Whether D is lowered for two documents that each carry values of kinds the other has none of
# (two bodies behind one letterhead, core/onesided.py); off only to measure it (bench/quality.py).
ONE_SIDED = True
# Whether the values of a head that one side has and the other lacks (a cover sheet) are left
# out of D (core/cover.py); off only to measure what it buys (tests/test_cover_heads.py).
COVER_HEADS = True
# Whether two letters with different subject lines are told apart (core/subject.py); off only to measure it.
SUBJECTS = True
# Whether a pair that could reach the threshold has its slots compared across labels that OCR
# read differently and per kind in mixed slots (core/slotalign.py); off only to measure it.
ALIGN_SLOTS = True
#: A pair whose values all agree (D = 1) and that carries several of them has its score
#: raised by AGREEMENT_BONUS_PER_VALUE for each unit of token-weighted agreement (a rare date
#: 1, an id 1.5, an amount 0.5), from AGREEING_VALUES on and up to AGREEMENT_BONUS_VALUES of
#: them: x1.06 for a date and an amount, x1.12 for three dates, x1.20 at most.  A heavy re-scan
#: loses shingles and fuzzy to OCR, not its values, and the more values agree the less its
#: text needs to; a template series always conflicts somewhere, letters behind one letterhead
#: share the letterhead's values only (agreement under 1.5), assemblies of one library none.
#: Measured against one step of x1.06 from 3 (docs/quality.md, issue 25): 0.04 a value is the
#: most that added no false pair on the realistic corpus at 5,000 documents (0.05 added one).
AGREEMENT_BONUS_PER_VALUE = 0.04
AGREEING_VALUES = 1.5
AGREEMENT_BONUS_VALUES = 5.0
MAX_AGREEMENT_BONUS = 1.0 + AGREEMENT_BONUS_PER_VALUE * AGREEMENT_BONUS_VALUES


@dataclass(frozen=True, kw_only=True)
class ScoreParams:
    similarity_threshold: float = 0.75
    jaccard_weight: float = 60
    fuzzy_weight: float = 40
    penalty_strength: float = 70
    containment: bool = True
    report_revisions: bool = True  # detection.report_revisions: report revision pairs (core.revision)

    def __post_init__(self) -> None:
        if not 0.0 <= self.similarity_threshold <= 1.0:
            raise ValueError(f"similarity_threshold must be within 0-1, got {self.similarity_threshold}")
        if abs(self.jaccard_weight + self.fuzzy_weight - 100) > 1e-9:
            raise ValueError("jaccard_weight + fuzzy_weight must be 100")
        if not 0 <= self.penalty_strength <= 100:
            raise ValueError(f"penalty_strength must be within 0-100, got {self.penalty_strength}")

    def reports(self, pair: PairScore) -> bool:
        """Whether a scored pair is reported: at or above the threshold, and not a revision
        when revisions are not to be reported."""
        return pair.score >= self.similarity_threshold and (self.report_revisions or pair.verdict != "revision")


@dataclass(frozen=True, slots=True)  # slots: a rebuild holds one per candidate within reach
class PairScore:
    a: int
    b: int
    score: float
    jaccard: float
    fuzzy: float
    discriminative: float
    similarity: float  # J after the containment correction and the order factor (what the score used)
    # False: the pair cannot reach the threshold, and fuzzy (so the score) is only a
    # lower bound; score(..., exact=True) gives the full figures.
    exact: bool = True
    # "duplicate", or "revision": two versions of one text with different version dates
    # (core.revision); ``newer`` is then the id of the one with the later version date.
    verdict: str = "duplicate"
    newer: int | None = None

    def as_dict(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {
            "a": self.a,
            "b": self.b,
            "score": round(self.score, 4),
            "jaccard": round(self.jaccard, 4),
            "fuzzy": round(self.fuzzy, 4),
            "discriminative": round(self.discriminative, 4),
            "containment": round(self.similarity, 4),
            "verdict": self.verdict,
        }
        if self.newer is not None:
            out["newer"] = self.newer
        return out


def combine(similarity: float, fuzzy: float, discriminative: float, params: ScoreParams, bonus: float = 1.0) -> float:
    base = (params.jaccard_weight * similarity + params.fuzzy_weight * fuzzy) / 100.0
    return min(1.0, base * (1.0 - params.penalty_strength / 100.0 * (1.0 - discriminative)) * bonus)


def corrected_similarity(jaccard: float, size_a: int, size_b: int, *, containment: bool) -> float:
    if not containment or size_a <= 0 or size_b <= 0:
        return jaccard
    size_ratio = min(size_a, size_b) / max(size_a, size_b)
    if size_ratio < MIN_CONTAINMENT_RATIO:
        return jaccard
    if CONTAINMENT_MODE == "overlap":
        return minhash.containment(jaccard, size_a, size_b)
    return min(1.0, jaccard / size_ratio)


def fuzzy_similarity(a: Features, b: Features, *, cutoff: float = 0.0) -> float:
    """The better of the head and tail ratios (0-1); 0 where both are below ``cutoff``."""
    score_cutoff = max(0.0, cutoff * 100.0 - 1e-6)  # rounding must not drop a pair at the limit
    (a_head, a_tail), (b_head, b_tail) = a.samples(), b.samples()
    head = ratio(a_head, b_head, score_cutoff=score_cutoff)
    if a_tail == a_head and b_tail == b_head:
        return head / 100.0
    return max(head, ratio(a_tail, b_tail, score_cutoff=max(score_cutoff, head))) / 100.0


def fuzzy_needed(similarity: float, discriminative: float, params: ScoreParams, bonus: float = 1.0) -> float | None:
    """The least F with which the pair reaches the threshold, or None if no F in 0-1 does."""
    factor = (1.0 - params.penalty_strength / 100.0 * (1.0 - discriminative)) * bonus
    if factor <= 0.0:
        return None if params.similarity_threshold > 0 else 0.0
    if params.fuzzy_weight <= 0:
        return 0.0 if combine(similarity, 0.0, discriminative, params, bonus) >= params.similarity_threshold else None
    needed = (100.0 * params.similarity_threshold / factor - params.jaccard_weight * similarity) / params.fuzzy_weight
    return None if needed > 1.0 + 1e-9 else max(0.0, needed)


def token_weigher(document_frequency: Mapping[str, int]) -> Callable[[str], float]:
    """Weight 1 for rare tokens, falling with the log of how many documents share it."""

    def weight(token: str) -> float:
        df = document_frequency.get(token, 1)
        return 1.0 if df <= RARE_TOKEN_DF else 1.0 / (1.0 + math.log(df / RARE_TOKEN_DF))

    return weight


def out_of_reach(a: Features, b: Features, jaccard: float, params: ScoreParams) -> PairScore | None:
    """What :func:`score` returns for a pair that cannot reach the threshold even with
    F = D = 1 (a lower bound, ``exact=False``), given its Jaccard estimate; None for a
    pair that could.  A rebuild counts the signature agreements of all its candidate
    pairs at once and sends only the others to :func:`score`."""
    low, high = (a.doc_id, b.doc_id) if a.doc_id < b.doc_id else (b.doc_id, a.doc_id)
    if a.short or b.short:  # short documents: core.short's rule, and only among themselves
        return None if a.short and b.short else PairScore(low, high, 0.0, jaccard, 0.0, 0.0, jaccard, False)
    similarity = corrected_similarity(jaccard, a.shingle_count, b.shingle_count, containment=params.containment)
    if _within_reach(a, b, similarity, params):
        return None
    if ORDERED:  # the order factor (not computed here) may be 0: the lower bound takes it so
        similarity = 0.0
    return PairScore(low, high, combine(similarity, 0.0, 0.0, params), jaccard, 0.0, 0.0, similarity, False)


def may_reach(a: Features, b: Features, params: ScoreParams, *, weight: Callable[[str], float] | None = None) -> bool:
    """Whether the pair could reach the threshold with some F: False means its score
    is known to fall short without the texts (the hook fetches only the others)."""
    if a.signature is None or b.signature is None:
        return False
    if a.short or b.short:
        return a.short and b.short
    jaccard = minhash.jaccard(a.signature, b.signature)
    similarity = corrected_similarity(jaccard, a.shingle_count, b.shingle_count, containment=params.containment)
    if not _within_reach(a, b, similarity, params):
        return False
    # Without the texts no head can be told from scattered words: the widest way of leaving
    # heads' values out is tried (both sides' as far as their bounds), as the score does
    # before it aligns the texts, so that the bound holds for the score's choice.
    widest = cover.widest(a, b, jaccard) if COVER_HEADS else None
    for x, y in (a, b), *((widest,) if widest is not None else ()):
        found = _discriminative(x, y, weight, similarity, reach=params)
        if found is not None and fuzzy_needed(similarity, found[0], params, _bonus(x, y, found[0], weight)) is not None:
            return True
    return False


def _discriminative(
    a: Features, b: Features, weight: Callable[[str], float] | None, similarity: float,
    *, reach: ScoreParams | None = None, params: ScoreParams | None = None,
) -> tuple[float, str, int | None] | None:
    """(D, verdict, newer id): in a pair whose texts agree, values whose differences OCR
    explains weigh less (core.ocr_slips); D without the version dates for two versions of one text.

    With ``reach``: None when even an upper bound of D keeps the pair under that threshold
    with F = 1 (a template series' slot conflicts tell it; most candidates of a large library)."""
    slips = ocr_slips.pair_weigher(a.tokens, b.tokens, similarity, weight)
    versions = revision.versions(a.tokens, b.tokens)
    if reach is not None and not versions.differ:
        upper = discriminative.slot_similarity_bound(a.tokens, b.tokens, weight, conflict_weight=slips)
        if fuzzy_needed(similarity, upper, reach) is None:
            return None
    disc = discriminative.slot_similarity(a.tokens, b.tokens, weight, conflict_weight=slips)
    if versions.differ:
        disc = max(disc, discriminative.slot_similarity(revision.without_version_dates(a.tokens, versions.a),
                                                        revision.without_version_dates(b.tokens, versions.b), weight,
                                                        conflict_weight=slips))
    sided = one_sided_factor(a, b, weight, similarity, disc, params or reach)
    if versions.differ:
        return disc * sided, "revision", (a, b)[versions.newer_side].doc_id
    settings = params or reach
    if ALIGN_SLOTS and settings is not None and fuzzy_needed(
            similarity, disc * sided, settings, _bonus(a, b, disc * sided, weight)) is not None:
        disc = min(disc, _aligned_discriminative(a, b, weight, slips))  # within reach: worth the label comparisons
    return disc * sided, "duplicate", None


def one_sided_factor(
    a: Features, b: Features, weight: Callable[[str], float] | None, similarity: float, disc: float,
    settings: ScoreParams | None,
) -> float:
    """What core.onesided leaves of D (``disc``, before it) for a pair that could still reach
    the threshold; 1 for one that cannot even without it (the factor only lowers D)."""
    if not ONE_SIDED:
        return 1.0
    if settings is not None and fuzzy_needed(similarity, disc, settings, bonus_bound(a, b) if disc >= 1.0 else 1.0) is None:
        return 1.0
    return onesided.factor(a.tokens, b.tokens, weight, similarity=similarity)


def agreement_bonus(agreement: float) -> float:
    """The factor of a pair without any conflict whose values agree with this weight."""
    if agreement < AGREEING_VALUES:
        return 1.0
    return 1.0 + AGREEMENT_BONUS_PER_VALUE * min(agreement, AGREEMENT_BONUS_VALUES)


def _bonus(a: Features, b: Features, disc: float, weight: Callable[[str], float] | None) -> float:
    """:func:`agreement_bonus` for a pair without any conflict, else 1."""
    if disc < 1.0:
        return 1.0
    return agreement_bonus(onesided.agreement(a.tokens, b.tokens, weight))


def text_only(a: Features, b: Features, disc: float) -> bool:
    """Whether only the text can tell the pair: no value in common and none that differs."""
    return disc >= 1.0 and onesided.agreement(a.tokens, b.tokens) <= 0.0


def bonus_bound(a: Features, b: Features) -> float:
    """The most :func:`_bonus` can give the pair: its agreement with every token at weight 1
    (:func:`token_weigher` weighs none more)."""
    return agreement_bonus(onesided.agreement(a.tokens, b.tokens))


def _within_reach(a: Features, b: Features, similarity: float, params: ScoreParams) -> bool:
    """Whether the pair could reach the threshold with F = D = 1 and its bonus: the common
    values are counted only for a pair that needs more than no bonus."""
    if fuzzy_needed(similarity, 1.0, params) is not None:
        return True
    if fuzzy_needed(similarity, 1.0, params, MAX_AGREEMENT_BONUS) is None:
        return False
    return fuzzy_needed(similarity, 1.0, params, bonus_bound(a, b)) is not None


def _aligned_discriminative(
    a: Features, b: Features, weight: Callable[[str], float] | None, slips: Callable[[str], float] | None,
) -> float:
    """D with b's OCR-read labels taken as a's and mixed slots split by kind (core.slotalign)."""
    low, high = (a, b) if a.doc_id < b.doc_id else (b, a)  # the rewrite is one-sided: one order for both calls
    rewritten = slotalign.aligned(low.tokens, high.tokens)
    if rewritten is None:
        return 1.0
    return discriminative.slot_similarity(rewritten[0], rewritten[1], weight, conflict_weight=slips)


def score(
    a: Features,
    b: Features,
    params: ScoreParams,
    *,
    weight: Callable[[str], float] | None = None,
    exact: bool = False,
) -> PairScore:
    """The pair's score; with ``exact`` False (the default) F is computed only as far
    as the threshold needs it (see the module docstring)."""
    if a.signature is None or b.signature is None:
        raise ValueError(f"documents {a.doc_id} and {b.doc_id} must both have signatures to be scored")
    low, high = (a, b) if a.doc_id < b.doc_id else (b, a)
    jaccard = minhash.jaccard(a.signature, b.signature)
    if not exact and (bound := out_of_reach(a, b, jaccard, params)) is not None:
        return bound
    if a.short or b.short:
        return _short(low, high, jaccard)
    similarity = corrected_similarity(jaccard, a.shingle_count, b.shingle_count, containment=params.containment)
    found = _discriminative(a, b, weight, similarity, reach=None if exact else params, params=params)
    if found is None or found[0] < 1.0:  # the rest of the score counts the values of the text both share
        a, b, found = _heads_left_out(a, b, jaccard, similarity, found, weight, params, exact=exact)
    if found is None:  # out of reach by D's bound: F, D and the order factor are at least 0
        return PairScore(low.doc_id, high.doc_id, 0.0, jaccard, 0.0, 0.0, 0.0, False)
    disc, verdict, newer = found
    bonus = _bonus(a, b, disc, weight)
    if SUBJECTS and disc > subject.MAX_D and (exact or fuzzy_needed(similarity, disc, params, bonus) is not None) \
            and subject.differ(a, b) is not None:
        disc, bonus = subject.MAX_D, 1.0  # another letter (a conflict: no agreement bonus)
    if ORDERED and (exact or fuzzy_needed(similarity, disc, params, bonus) is not None):
        # shared shingles out of order are a library's sentences, not a copy (core/order.py)
        similarity *= order.order_factor(order.ordered_overlap(a, b), text_only=text_only(a, b, disc))
    elif ORDERED:
        similarity = 0.0  # out of reach even unscaled; the factor, not computed, is at least 0
    if exact:
        fuzzy, complete = fuzzy_similarity(a, b), True
    elif (needed := fuzzy_needed(similarity, disc, params, bonus)) is None:
        fuzzy, complete = 0.0, False
    else:
        fuzzy = fuzzy_similarity(a, b, cutoff=needed)
        complete = fuzzy >= needed or params.fuzzy_weight <= 0
    final = combine(similarity, fuzzy, disc, params, bonus)
    return PairScore(low.doc_id, high.doc_id, final, jaccard, fuzzy, disc, similarity, complete, verdict, newer)


def _heads_left_out(
    a: Features, b: Features, jaccard: float, similarity: float, found: tuple[float, str, int | None] | None,
    weight: Callable[[str], float] | None, params: ScoreParams, *, exact: bool,
) -> tuple[Features, Features, tuple[float, str, int | None] | None]:
    """The pair less the values of the heads of their own the texts show (core.cover), and its D,
    where that D is the higher; else the pair and ``found`` as they are."""
    if not COVER_HEADS:
        return a, b, found
    if not exact:
        # The texts are aligned only for a pair that the widest cut (both sides' values as far
        # as their bounds, core.cover) could lift over the threshold: a template series' pair
        # keeps its conflicts further on, and most within reach are such pairs.
        widest = cover.widest(a, b, jaccard)
        if widest is None:
            return a, b, found
        x, y = widest
        bound = _discriminative(x, y, weight, similarity, reach=params, params=params)
        if bound is None or fuzzy_needed(similarity, bound[0], params, _bonus(x, y, bound[0], weight)) is None:
            return a, b, found
    if (heads := cover.shown(a, b, jaccard)) is not None:
        x, y = heads
        alt = _discriminative(x, y, weight, similarity, reach=None if exact else params, params=params)
        if alt is not None and (found is None or alt[0] > found[0]):
            return x, y, alt
    return a, b, found


def _short(low: Features, high: Features, jaccard: float) -> PairScore:
    """A pair with a short document (core.short): its rule where both are short, else 0."""
    if not (low.short and high.short):
        return PairScore(low.doc_id, high.doc_id, 0.0, jaccard, 0.0, 0.0, jaccard)
    final, similar, holds = short.short_score(low.head, high.head, low.tokens, high.tokens)
    return PairScore(low.doc_id, high.doc_id, final, jaccard, similar, 1.0 if holds else 0.0, jaccard)
