"""Pair scoring: the seed's formula, the containment correction, and the fuzzy
short-cut (bounded scores) that must never change a verdict."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import features, scoring

PARAMS = features.FeatureParams(num_permutations=64, seed=1, ngram_size=2, min_words=5)
VOCAB = ("rechnung miete vertrag kunde betrag zahlung frist monat jahr konto bank invoice due amount "
         "customer contract tenant landlord clause notice period payment total date signed").split()


def _doc(rng: random.Random, words: int) -> list[str]:
    return [rng.choice(VOCAB) for _ in range(words)]


def _variant(rng: random.Random, base: list[str], changed: float) -> list[str]:
    return [rng.choice(VOCAB) if rng.random() < changed else w for w in base]


def _feats(doc_id: int, words: list[str], extra: str = "") -> features.Features:
    return features.compute(doc_id, " ".join(words) + extra, PARAMS)


def test_combine_is_the_seed_formula() -> None:
    p = scoring.ScoreParams(jaccard_weight=60, fuzzy_weight=40, penalty_strength=70)
    assert scoring.combine(0.8, 0.9, 0.5, p) == pytest.approx((0.6 * 0.8 + 0.4 * 0.9) * (1 - 0.7 * 0.5))
    assert scoring.combine(1.0, 1.0, 1.0, p) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("jaccard", "sizes", "containment", "expected"),
    [
        pytest.param(0.5, (100, 100), True, 0.5 * 200 / 1.5 / 100, id="equal-sizes-overlap"),
        pytest.param(0.5, (100, 50), True, 1.0, id="half-size-subset"),
        pytest.param(0.3, (100, 40), True, 0.3, id="excerpt-below-min-ratio"),
        pytest.param(0.5, (100, 50), False, 0.5, id="switched-off"),
        pytest.param(0.5, (0, 50), True, 0.5, id="empty-side"),
    ],
)
def test_corrected_similarity(jaccard: float, sizes: tuple[int, int], containment: bool, expected: float) -> None:
    assert scoring.corrected_similarity(jaccard, *sizes, containment=containment) == pytest.approx(min(1.0, expected))


def test_fuzzy_needed_edges() -> None:
    p = scoring.ScoreParams(similarity_threshold=0.75, jaccard_weight=60, fuzzy_weight=40, penalty_strength=70)
    assert scoring.fuzzy_needed(1.0, 1.0, p) == pytest.approx(0.375)  # 0.6 + 0.4 F >= 0.75
    assert scoring.fuzzy_needed(0.0, 1.0, p) is None  # 0.4 at most
    assert scoring.fuzzy_needed(1.0, 0.0, p) is None  # penalty factor 0.3 caps the score at 0.3
    full = scoring.ScoreParams(similarity_threshold=0.5, jaccard_weight=60, fuzzy_weight=40, penalty_strength=100)
    assert scoring.fuzzy_needed(1.0, 0.0, full) is None  # factor 0: nothing reaches 0.5
    only_j = scoring.ScoreParams(similarity_threshold=0.5, jaccard_weight=100, fuzzy_weight=0, penalty_strength=0)
    assert scoring.fuzzy_needed(0.6, 1.0, only_j) == 0.0
    assert scoring.fuzzy_needed(0.4, 1.0, only_j) is None


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    changed=st.floats(0.0, 0.6),
    threshold=st.floats(0.3, 0.95),
    jaccard_weight=st.sampled_from([0, 30, 60, 100]),
    strength=st.sampled_from([0, 50, 70, 100]),
    tail=st.sampled_from(["", " Betrag 1.234,56 EUR Rechnung 2024-01-31", " Invoice No. 88812"]),
)
def test_bounded_scores_give_the_same_verdicts(
    seed: int, changed: float, threshold: float, jaccard_weight: int, strength: int, tail: str
) -> None:
    rng = random.Random(seed)
    base = _doc(rng, rng.randint(20, 400))
    a, b = _feats(1, base), _feats(2, _variant(rng, base, changed), tail)
    p = scoring.ScoreParams(similarity_threshold=threshold, jaccard_weight=jaccard_weight,
                            fuzzy_weight=100 - jaccard_weight, penalty_strength=strength)
    exact = scoring.score(a, b, p, exact=True)
    bounded = scoring.score(a, b, p)
    assert exact.exact
    assert (bounded.score >= threshold) == (exact.score >= threshold)
    assert bounded.score <= exact.score + 1e-9  # a bound from below, never above
    if exact.score >= threshold:
        assert bounded == exact  # a match gets exactly its figures
    elif not bounded.exact:
        assert bounded.fuzzy <= exact.fuzzy


def test_far_pair_skips_fuzzy_and_says_so() -> None:
    rng = random.Random(5)
    a, b = _feats(1, _doc(rng, 200)), _feats(2, _doc(rng, 200))
    bounded = scoring.score(a, b, scoring.ScoreParams())
    assert not bounded.exact and bounded.fuzzy == 0.0
    assert scoring.score(a, b, scoring.ScoreParams(), exact=True).fuzzy > 0.0
