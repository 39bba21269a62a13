"""The rebuild's process pools give exactly what one process gives."""

from array import array
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from paperless_dedupe_hook import config, engine, rebuild, sources

SAMPLE = Path(__file__).parent.parent / "bench/corpus/sample/docs.jsonl"


@pytest.fixture(scope="module")
def analysis() -> tuple[engine.Settings, rebuild.Analysis]:
    settings = engine.settings_from_config(config.load(config_path=None, env={"HOME": "/nonexistent"}))
    return settings, rebuild.analyse(sources.iter_jsonl(SAMPLE), settings, workers=1)


def test_scoring_in_small_jobs_on_two_workers_equals_one_process(
    analysis: tuple[engine.Settings, rebuild.Analysis], monkeypatch: pytest.MonkeyPatch
) -> None:
    settings, one = analysis
    pairs = sorted(one.candidates)
    assert len(pairs) > 20  # enough for several jobs of 7
    monkeypatch.setattr(rebuild, "PARALLEL_SCORING_FROM", 0)
    monkeypatch.setattr(rebuild, "SCORE_JOB_PAIRS", 7)
    by_id = {f.doc_id: f for f in one.features}
    jobs = list(rebuild._score_jobs(pairs, by_id, one.document_frequency, settings))
    assert len(jobs) == (len(pairs) + 6) // 7
    for part, feats, df, _settings, _reached_only in jobs:  # each job carries only what its pairs need
        assert set(feats) == {i for p in part for i in p}
        assert set(df) == set().union(*(f.tokens for f in feats.values()))
    parallel = rebuild.score_pairs(pairs, by_id, one.document_frequency, settings, workers=2)
    assert parallel == rebuild.score_pairs(pairs, by_id, one.document_frequency, settings, workers=1)
    assert [(p.a, p.b) for p in parallel] == pairs
    # Keeping only the scores within reach: the same scores, in the same order, on either path.
    reached = [p for p in parallel if p.exact or p.score >= settings.scoring.similarity_threshold]
    assert 0 < len(reached) < len(pairs)
    for workers in (1, 2):
        assert rebuild.score_pairs(pairs, by_id, one.document_frequency, settings, workers=workers,
                                   reached_only=True) == reached


def test_features_on_two_workers_equal_one_process(
    analysis: tuple[engine.Settings, rebuild.Analysis], monkeypatch: pytest.MonkeyPatch
) -> None:
    settings, one = analysis
    monkeypatch.setattr(rebuild, "PARALLEL_FROM", 0)
    keys: dict[int, array[int]] = {}
    two = rebuild.compute_all(sources.iter_jsonl(SAMPLE), settings, workers=2, band_keys=keys)
    assert [f.doc_id for f in two] == [f.doc_id for f in one.features]
    for a, b in zip(two, one.features, strict=True):
        assert (a.fingerprint, a.sample, a.tokens, a.shingle_count) == (b.fingerprint, b.sample, b.tokens, b.shingle_count)
        assert (a.signature is None and b.signature is None) or (a.signature == b.signature).all()
        # The workers' band keys are the ones the hook computes, and the ones the analysis kept.
        assert list(keys[a.doc_id]) == settings.band_keys(b) == list(one.keys_of(b))
    assert len(keys) == len(two) and sum(map(len, keys.values())) == settings.banding.bands * sum(f.comparable for f in two)


def test_bounds_counted_for_all_pairs_at_once_equal_score(analysis: tuple[engine.Settings, rebuild.Analysis]) -> None:
    from paperless_dedupe_hook.core.scoring import score, token_weigher

    settings, one = analysis
    by_id = {f.doc_id: f for f in one.features}
    comparable = sorted(f.doc_id for f in one.features if f.comparable)
    # Every candidate pair, and many pairs that are no candidates (most end below reach).
    pairs = sorted(one.candidates | {(a, b) for a in comparable[:30] for b in comparable if a < b})
    bounds = rebuild._out_of_reach(pairs, by_id, settings)
    assert any(b is None for b in bounds) and sum(b is not None for b in bounds) > len(pairs) // 2
    weight = token_weigher(one.document_frequency)
    expected = [score(by_id[a], by_id[b], settings.scoring, weight=weight) for a, b in pairs]
    assert rebuild.score_pairs(pairs, by_id, one.document_frequency, settings, workers=1) == expected
    assert rebuild._out_of_reach([], by_id, settings) == []


@hypothesis_settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)).filter(lambda p: p[0] < p[1]), unique=True, max_size=80))
def test_local_order_puts_each_connected_component_together(pairs: list[tuple[int, int]]) -> None:
    order = rebuild.local_order(pairs).tolist()
    assert sorted(order) == list(range(len(pairs)))  # a permutation: no pair lost or scored twice
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for a, b in pairs:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    runs = [root(pairs[k][0]) for k in order]
    starts = [r for k, r in enumerate(runs) if k == 0 or runs[k - 1] != r]
    assert len(starts) == len(set(starts))  # every component in one run
