"""The rebuild's process pools give exactly what one process gives."""

from array import array
from pathlib import Path

import pytest

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
    for part, feats, df, _settings in jobs:  # each job carries only what its pairs need
        assert set(feats) == {i for p in part for i in p}
        assert set(df) == set().union(*(f.tokens for f in feats.values()))
    parallel = rebuild.score_pairs(pairs, by_id, one.document_frequency, settings, workers=2)
    assert parallel == rebuild.score_pairs(pairs, by_id, one.document_frequency, settings, workers=1)
    assert [(p.a, p.b) for p in parallel] == pairs


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
