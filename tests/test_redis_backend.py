"""The Redis index backend against a real ``redis-server`` on loopback.

The behaviours shared with SQLite run against both backends (``cfg`` is
parametrised), so the two are held to the same contract; the rest is what only a
shared, networked index has: the atomic generation switch, writers in several
processes, a writer killed mid-run, the lock, and passwords kept out of messages.
``.ci/run`` installs ``redis-server``; without it these tests skip and say why.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from paperless_dedupe_hook import config
from paperless_dedupe_hook._errors import IndexMismatchError, IndexStoreError
from paperless_dedupe_hook.config import Config
from paperless_dedupe_hook.core.commonkeys import COMMON_KEY_DOCS
from paperless_dedupe_hook.core.features import Features, compute, with_text
from paperless_dedupe_hook.engine import Settings, find_matches, settings_from_config
from paperless_dedupe_hook.indexfile import change_mark_configured, open_configured, write_fresh_configured
from paperless_dedupe_hook.rebuild import Document, analyse, candidate_pairs
from tests.fake_paperless import FakePaperless
from tests.redis_server import free_port, running_redis
from tests.template_family import member
from tests.test_hook_e2e import CLI, our_tag_id, run_hook, writes
from tests.tooling import missing

try:
    import redis
except ImportError:
    missing("the Python package 'redis' is not installed (pip install -e '.[test]')")

NS = "paperless-dedupe"
WORDS = ("account amount balance contract customer delivery invoice item order payment period "
         "quantity reference service shipment statement supplier tax total transfer unit value").split()


# -- the server ---------------------------------------------------------------
@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if shutil.which("redis-server") is None:
        missing("redis-server is not installed: apt-get install redis-server (.ci/run installs it)")
    try:
        with running_redis(tmp_path_factory.mktemp("redis")) as url:
            yield url
    except RuntimeError as exc:  # it never answered PING
        pytest.fail(str(exc))


@pytest.fixture
def redis_url(redis_server: str) -> Iterator[str]:
    client = redis.Redis.from_url(redis_server)
    client.flushdb()
    yield redis_server
    client.close()


@pytest.fixture
def rclient(redis_url: str) -> Iterator[Any]:
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


# -- configurations and documents ----------------------------------------------
def load_cfg(tmp_path: Path, redis_url: str | None, **overrides: Any) -> Config:
    path = tmp_path / "config.toml"
    path.write_text("")
    env = {"HOME": str(tmp_path), "PAPERLESS_DEDUPE_INDEX": str(tmp_path / "index.sqlite3")}
    if redis_url is not None:
        env |= {"PAPERLESS_DEDUPE_INDEX_BACKEND": "redis", "PAPERLESS_DEDUPE_INDEX_REDIS_URL": redis_url}
    return config.load(config_path=str(path), env=env, overrides=overrides or None)


@pytest.fixture(params=["sqlite", "redis"])
def cfg(request: pytest.FixtureRequest, tmp_path: Path) -> Config:
    url = request.getfixturevalue("redis_url") if request.param == "redis" else None
    return load_cfg(tmp_path, url)


@pytest.fixture
def rcfg(tmp_path: Path, redis_url: str) -> Config:
    return load_cfg(tmp_path, redis_url)


def text(i: int, *, changed: int = 0) -> str:
    rng = random.Random(i)
    words = [rng.choice(WORDS) for _ in range(80)]
    for k in range(changed):
        words[7 * k + 3] = "amended"
    return (f"Invoice INV-2026-{i:04d} of {1 + i % 28:02d}.03.2024, customer number K-{i * 7919 % 100000:05d}, "
            f"total {i * 13 % 1000},{i % 100:02d} EUR. " + " ".join(words))


def feats_of(i: int, settings: Settings, **kw: int) -> Features:
    return compute(i, text(i, **kw), settings.features, title=f"Document {i}")


def put_all(index: Any, settings: Settings, feats: list[Features]) -> None:
    with index.write():
        for f in feats:
            index.put(f, modified=f"2026-01-{f.doc_id % 28 + 1:02d}T00:00:00Z", keys=settings.band_keys(f))


# -- the same behaviours as SQLite ------------------------------------------------
def test_round_trip_of_features(cfg: Config) -> None:
    settings = settings_from_config(cfg)
    feats = [feats_of(i, settings) for i in (1, 2, 3)] + [compute(4, "too short", settings.features, title="x")]
    with open_configured(cfg, settings, create=True) as index:
        assert index.backend == cfg["index.backend"]
        put_all(index, settings, feats)
    with open_configured(cfg, settings) as index:
        assert index.count() == 4
        assert index.modified_of() == {f.doc_id: f"2026-01-{f.doc_id % 28 + 1:02d}T00:00:00Z" for f in feats}
        assert index.fingerprint(2) == feats[1].fingerprint and index.fingerprint(99) is None
        got = {f.doc_id: f for f in index.features([3, 1, 2, 4, 99], settings.features.num_permutations)}
    assert sorted(got) == [1, 2, 3, 4]
    for f in feats:
        g = got[f.doc_id]
        assert (g.fingerprint, g.word_count, g.shingle_count, g.tokens, g.title, g.places) == (
            f.fingerprint, f.word_count, f.shingle_count, f.tokens, f.title, f.places)
        assert g.sample is None  # the index keeps no text; with_text adds the samples back
        assert with_text(g, text(f.doc_id) if f.doc_id != 4 else "too short", settings.features).sample == f.sample
        if f.signature is None:
            assert g.signature is None
        else:
            assert g.signature is not None and (g.signature == f.signature).all()


def test_none_modified_and_replace_and_remove_keep_df_consistent(cfg: Config) -> None:
    settings = settings_from_config(cfg)
    a, b = feats_of(1, settings), feats_of(2, settings)
    with open_configured(cfg, settings, create=True) as index:
        with index.write():
            index.put(a, modified=None, keys=settings.band_keys(a))
            index.put(b, modified="2026-02-01", keys=settings.band_keys(b))
        assert index.modified_of() == {1: None, 2: "2026-02-01"}
        every = set(a.tokens) | set(b.tokens)
        assert index.document_frequency(every) == dict(Counter([*a.tokens, *b.tokens]))
        a2 = feats_of(3, settings)  # document 1 gets another text: its old tokens and bands go
        a2 = dataclasses.replace(a2, doc_id=1)
        with index.write():
            index.put(a2, modified="2026-03-01", keys=settings.band_keys(a2))
        assert index.count() == 2
        assert index.document_frequency(every | a2.tokens) == dict(Counter([*a2.tokens, *b.tokens]))
        assert 1 not in index.candidates(settings.band_keys(a))
        assert index.candidates(settings.band_keys(a2)) == [1]
        with index.write():
            index.remove(2)
            index.remove(42)  # not indexed: nothing happens
        assert index.count() == 1 and index.fingerprint(2) is None
        assert index.document_frequency(b.tokens - a2.tokens) == {}
        assert index.candidates(settings.band_keys(b)) == []


def test_candidates_by_band(cfg: Config) -> None:
    settings = settings_from_config(cfg)
    base, near, other = feats_of(10, settings), feats_of(10, settings, changed=1), feats_of(11, settings)
    near = dataclasses.replace(near, doc_id=12)
    with open_configured(cfg, settings, create=True) as index:
        put_all(index, settings, [base, near, other])
        keys = settings.band_keys(base)
        assert 12 in index.candidates(keys, exclude=10)
        assert 10 not in index.candidates(keys, exclude=10)
        assert 10 in index.candidates(keys)
        assert index.candidates([]) == []
        fetched: list[list[int]] = []

        def texts(ids: Sequence[int]) -> dict[int, str]:
            fetched.append(sorted(ids))
            return {12: text(10, changed=1), 11: text(11)}

        with pytest.raises(ValueError, match="text source"):
            find_matches(index, base, settings)
        matches, n = find_matches(index, base, settings, texts=texts, dismissed=index.dismissed_pairs())
        assert fetched == [[12]]  # only the candidate that can still reach the threshold
        gone, _ = find_matches(index, base, settings, texts=lambda ids: {}, dismissed=index.dismissed_pairs())
    assert n >= 1 and [(m.a, m.b) for m in matches] == [(10, 12)]
    assert gone == []  # deleted in Paperless since it was indexed: passed over


def test_compat_mismatch_names_the_key_and_the_fix(cfg: Config, tmp_path: Path) -> None:
    settings = settings_from_config(cfg)
    with open_configured(cfg, settings, create=True) as index:
        put_all(index, settings, [feats_of(1, settings)])
    url = cfg["index.redis_url"] if cfg["index.backend"] == "redis" else None
    other = load_cfg(tmp_path, url, **{"detection.num_permutations": 128})
    with pytest.raises(IndexMismatchError) as err:
        with open_configured(other, settings_from_config(other)):
            pass
    # Named as the user wrote it (drift.py), not only as the derived value stored in the index.
    assert "detection.num_permutations changed from 256 to 128 since the index was built" in str(err.value)
    assert "run 'paperless-dedupe rebuild-index'" in str(err.value)


def test_missing_index_says_rebuild(cfg: Config) -> None:
    with pytest.raises(IndexStoreError, match="run 'paperless-dedupe rebuild-index' to build it"):
        with open_configured(cfg, settings_from_config(cfg)):
            pass


def test_dismissals_and_annotations(cfg: Config) -> None:
    settings = settings_from_config(cfg)
    with open_configured(cfg, settings, create=True) as index:
        with index.write():
            index.dismiss(9, 3, "dismissed by hand", "2026-01-01T00:00:00+00:00")
            index.dismiss(3, 9, "again", "2026-01-02T00:00:00+00:00")
            index.dismiss(4, 5, "tag removed", "2026-01-02T00:00:00+00:00")
        assert index.dismissed_pairs() == {(3, 9), (4, 5)}
        assert index.annotated(2) == set()
        index.record_annotation(2, [1, 7], "2026-01-01T00:00:00+00:00")
        index.record_annotation(2, [1], "2026-01-05T00:00:00+00:00")
        index.record_annotation(3, [], "2026-01-05T00:00:00+00:00")
        assert index.annotated(2) == {1, 7} and index.annotated(3) == set()


def test_results_round_trip(cfg: Config) -> None:
    settings = settings_from_config(cfg)
    pairs = [{"a": 1, "b": 2, "score": 0.8, "jaccard": 0.9, "fuzzy": 0.7, "discriminative": 1.0},
             {"a": 3, "b": 4, "score": 0.95, "jaccard": 0.9, "fuzzy": 0.99, "discriminative": 1.0}]
    groups = [{"primary": 1, "members": [1, 2], "confidence": 0.8}, {"primary": 3, "members": [3, 4], "confidence": 0.95}]
    with open_configured(cfg, settings, create=True) as index:
        assert index.results() == ([], [])
        with index.write():
            index.store_results(pairs, groups)
            index.set_meta({"last_rebuild": "2026-01-01T00:00:00+00:00", "documents_read": 4})
        got_pairs, got_groups = index.results()
        assert got_pairs == [pairs[1], pairs[0]]  # best first
        assert got_groups == [groups[1], groups[0]]
        meta = index.meta()
        assert meta["last_rebuild"] == "2026-01-01T00:00:00+00:00" and meta["documents_read"] == "4"
        assert meta["num_permutations"] == "256"
        with index.write():
            index.store_results(pairs[:1], groups[:1])  # a new run replaces, never merges
        assert index.results() == ([pairs[0]], [groups[0]])


def test_full_rebuild_replaces_documents_and_keeps_user_state(cfg: Config) -> None:
    settings = settings_from_config(cfg)
    with open_configured(cfg, settings, create=True) as index:
        put_all(index, settings, [feats_of(i, settings) for i in (1, 2, 3)])
        with index.write():
            index.dismiss(1, 2, "dismissed by hand", "2026-01-01T00:00:00+00:00")
        index.record_annotation(3, [1], "2026-01-01T00:00:00+00:00")
    docs = [Document(id=i, content=text(i), title=f"Document {i}") for i in (5, 6)]
    docs.append(Document(id=7, content=text(5, changed=1), title="Document 7"))
    write_fresh_configured(cfg, analyse(docs, settings, workers=1), settings, run_kind="full")
    with open_configured(cfg, settings) as index:
        assert sorted(index.modified_of()) == [5, 6, 7]
        assert index.dismissed_pairs() == {(1, 2)} and index.annotated(3) == {1}
        pairs, groups = index.results()
        assert [(p["a"], p["b"]) for p in pairs] == [(5, 7)] and groups[0]["members"] == [5, 7]
        assert index.meta()["last_rebuild_kind"] == "full"


def test_full_rebuild_keeps_what_hooks_did_while_it_ran(cfg: Config) -> None:
    """Marked before the rebuild reads its documents; meanwhile a hook indexes 4 and 8
    and an incremental removes 2: the new index holds the rebuild's documents and those
    changes, with consistent bands and token counts."""
    settings = settings_from_config(cfg)
    with open_configured(cfg, settings, create=True) as index:
        put_all(index, settings, [feats_of(i, settings) for i in (1, 2, 3)])
    since = change_mark_configured(cfg)
    assert since is not None
    with open_configured(cfg, settings) as index:  # what hooks and an incremental did meanwhile
        put_all(index, settings, [feats_of(4, settings), feats_of(8, settings, changed=2)])
        with index.write():
            index.remove(2)
    docs = [Document(id=i, content=text(i), title=f"Document {i}") for i in (1, 2, 3)]
    carried = write_fresh_configured(cfg, analyse(docs, settings, workers=1), settings, run_kind="full", since=since)
    assert carried == 3
    expected = {1: feats_of(1, settings), 3: feats_of(3, settings), 4: feats_of(4, settings),
                8: feats_of(8, settings, changed=2)}
    with open_configured(cfg, settings) as index:
        assert sorted(index.modified_of()) == [1, 3, 4, 8]
        back = {f.doc_id: f for f in index.features(expected, settings.features.num_permutations)}
        tokens: Counter[str] = Counter()
        for doc_id, f in expected.items():
            assert back[doc_id].fingerprint == f.fingerprint and back[doc_id].tokens == f.tokens
            tokens.update(f.tokens)
            for key in settings.band_keys(f):
                assert doc_id in index.candidates([key])
        assert index.document_frequency(tokens) == dict(tokens)
        assert index.document_frequency(feats_of(2, settings).tokens - set(tokens)) == {}
        assert not set(index.candidates(settings.band_keys(feats_of(2, settings)))) & {2}
    # A second rebuild marked after all that carries nothing.
    since = change_mark_configured(cfg)
    assert write_fresh_configured(cfg, analyse(docs, settings, workers=1), settings, since=since) == 0


# -- Redis only --------------------------------------------------------------------
def test_rebuild_switch_is_atomic_and_old_generation_readable_until_then(rcfg: Config, rclient: Any) -> None:
    from paperless_dedupe_hook.index.redis import RedisIndex

    settings = settings_from_config(rcfg)
    url = rcfg["index.redis_url"]
    old = [feats_of(i, settings) for i in (1, 2)]
    with open_configured(rcfg, settings, create=True) as index:
        put_all(index, settings, old)
        old_gen = index.generation  # type: ignore[union-attr]
    reader = RedisIndex(url, compat=settings.compat())  # opened before the rebuild
    fresh = RedisIndex.build(url, compat=settings.compat())
    new = [feats_of(i, settings) for i in (3, 4, 5)]
    fresh.load((f, None, settings.band_keys(f)) for f in new)
    fresh.set_meta({"last_rebuild": "now"})
    # Built but not switched: every reader, old or new, still sees the old generation.
    with RedisIndex(url, compat=settings.compat()) as late:
        assert late.generation == old_gen and sorted(late.modified_of()) == [1, 2]
    assert sorted(reader.modified_of()) == [1, 2]
    assert rclient.get(f"{NS}:current").decode() == old_gen
    fresh.switch(grace_seconds=60)
    fresh.close()
    with RedisIndex(url, compat=settings.compat()) as late:
        assert late.generation != old_gen and sorted(late.modified_of()) == [3, 4, 5]
        assert late.count() == 3 and late.meta()["last_rebuild"] == "now"
    # A reader that opened before the switch keeps its consistent view for the grace period ...
    assert sorted(reader.modified_of()) == [1, 2]
    assert 0 < rclient.ttl(f"{NS}:gen:{old_gen}:meta") <= 60
    # ... and a writer follows the pointer to the live generation under the lock.
    with reader.write():
        reader.put(old[0], modified=None, keys=settings.band_keys(old[0]))
    assert sorted(reader.modified_of()) == [1, 3, 4, 5]
    reader.close()
    assert old_gen.encode() not in rclient.smembers(f"{NS}:generations")


def test_switch_with_no_grace_deletes_the_old_generation(rcfg: Config, rclient: Any) -> None:
    settings = settings_from_config(rcfg)
    with open_configured(rcfg, settings, create=True) as index:
        put_all(index, settings, [feats_of(i, settings) for i in (1, 2)])
        old_gen = index.generation  # type: ignore[union-attr]
    analysis = analyse([Document(id=9, content=text(9))], settings, workers=1)
    write_fresh_configured(rcfg, analysis, settings, grace_seconds=0)
    assert list(rclient.scan_iter(match=f"{NS}:gen:{old_gen}:*")) == []
    current = rclient.get(f"{NS}:current").decode()
    assert rclient.smembers(f"{NS}:generations") == {current.encode()}


def test_an_unswitched_build_is_discarded(rcfg: Config, rclient: Any) -> None:
    from paperless_dedupe_hook.index.redis import RedisIndex

    settings = settings_from_config(rcfg)
    url = rcfg["index.redis_url"]
    with open_configured(rcfg, settings, create=True) as index:
        put_all(index, settings, [feats_of(1, settings)])
        live = index.generation  # type: ignore[union-attr]
    with RedisIndex.build(url, compat=settings.compat()) as fresh:  # closed without switch: a failed rebuild
        fresh.load([(feats_of(2, settings), None, settings.band_keys(feats_of(2, settings)))])
        dead = fresh.generation
    assert list(rclient.scan_iter(match=f"{NS}:gen:{dead}:*")) == []
    # A build that died hard (no close) leaves keys; the next build collects them.
    crashed = RedisIndex.build(url, compat=settings.compat())
    crashed.load([(feats_of(3, settings), None, settings.band_keys(feats_of(3, settings)))])
    rclient.delete(f"{NS}:building:{crashed.generation}")  # its marker expired
    crashed._building = False  # what a SIGKILL leaves behind
    crashed.close()
    assert list(rclient.scan_iter(match=f"{NS}:gen:{crashed.generation}:*"))
    write_fresh_configured(rcfg, analyse([Document(id=4, content=text(4))], settings, workers=1), settings,
                           grace_seconds=0)
    assert list(rclient.scan_iter(match=f"{NS}:gen:{crashed.generation}:*")) == []
    assert list(rclient.scan_iter(match=f"{NS}:gen:{live}:*")) == []


_WRITER = """
import sys
from paperless_dedupe_hook import config
from paperless_dedupe_hook.engine import settings_from_config
from paperless_dedupe_hook.indexfile import open_configured
from tests.test_redis_backend import feats_of
cfg_path, url, first, count, forever = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
cfg = config.load(config_path=cfg_path, env={"PAPERLESS_DEDUPE_INDEX_BACKEND": "redis",
                                              "PAPERLESS_DEDUPE_INDEX_REDIS_URL": url})
settings = settings_from_config(cfg)
feats = [feats_of(i, settings) for i in range(first, first + count)]
print("ready", flush=True)
with open_configured(cfg, settings, create=True) as index:
    while True:
        for f in feats:
            with index.write():  # the hook's check-then-insert
                index.fingerprint(f.doc_id)
                index.put(f, modified=str(f.doc_id), keys=settings.band_keys(f))
        if not forever:
            break
"""


def _writers(tmp_path: Path, url: str, ranges: list[tuple[int, int]], *, forever: bool = False) -> list[subprocess.Popen[str]]:
    cfg_path = tmp_path / "config.toml"
    cfg_path.write_text("")
    root = str(Path(__file__).resolve().parent.parent)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_", "DOCUMENT_"))}
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return [subprocess.Popen([sys.executable, "-c", _WRITER, str(cfg_path), url, str(first), str(count),
                              "1" if forever else "0"], env=env, cwd=root, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for first, count in ranges]


def _assert_consistent(rcfg: Config, rclient: Any, settings: Settings, expected_ids: set[int]) -> None:
    with open_configured(rcfg, settings) as index:
        gen = index.generation  # type: ignore[union-attr]
        assert index.count() == len(expected_ids)
        assert set(index.modified_of()) == expected_ids
        feats = index.features(expected_ids, settings.features.num_permutations)
        assert sorted(f.doc_id for f in feats) == sorted(expected_ids)
        want = Counter(t for f in feats for t in f.tokens)
        assert index.document_frequency(want) == dict(want)
        assert rclient.hlen(f"{NS}:gen:{gen}:df") == len(want)  # no stale or zero counts
        for f in feats:
            assert f.fingerprint == feats_of(f.doc_id, settings).fingerprint
            assert f.doc_id in index.candidates(settings.band_keys(f))  # found under its own keys
        members: Counter[int] = Counter()
        for key in rclient.scan_iter(match=f"{NS}:gen:{gen}:band:*"):
            members.update(int(m) for m in rclient.smembers(key))
        bands = settings.banding.bands
        assert all(members[i] <= bands for i in expected_ids) and set(members) == expected_ids


def test_concurrent_writers_in_four_processes(rcfg: Config, rclient: Any, tmp_path: Path) -> None:
    url = rcfg["index.redis_url"]
    procs = _writers(tmp_path, url, [(1 + 50 * n, 50) for n in range(4)])
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    settings = settings_from_config(rcfg)
    _assert_consistent(rcfg, rclient, settings, set(range(1, 201)))
    assert rclient.get(f"{NS}:lock") is None  # every writer released its lock


def test_a_killed_writer_leaves_no_half_document(rcfg: Config, rclient: Any, tmp_path: Path) -> None:
    url = rcfg["index.redis_url"]
    settings = settings_from_config(rcfg)
    with open_configured(rcfg, settings, create=True):
        pass
    (proc,) = _writers(tmp_path, url, [(1, 40)], forever=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    rclient.delete(f"{NS}:lock")  # a real successor would wait LOCK_TTL_MS for it to expire
    with open_configured(rcfg, settings) as index:
        present = set(index.modified_of())
    assert present  # it got somewhere before dying
    _assert_consistent(rcfg, rclient, settings, present)


def test_writers_wait_for_the_lock_and_a_dead_holder_expires(rcfg: Config, rclient: Any) -> None:
    from paperless_dedupe_hook.index.redis import RedisIndex

    settings = settings_from_config(rcfg)
    url = rcfg["index.redis_url"]
    with open_configured(rcfg, settings, create=True):
        pass
    rclient.set(f"{NS}:lock", b"someone-else", px=60_000)
    with RedisIndex(url, compat=settings.compat(), lock_timeout=0.3) as index:
        started = time.monotonic()
        with pytest.raises(IndexStoreError, match="stayed locked for 0.3 s"):
            with index.write():
                pass
        assert time.monotonic() - started >= 0.3
        assert rclient.get(f"{NS}:lock") == b"someone-else"  # not ours: never released by us
        rclient.set(f"{NS}:lock", b"dead-holder", px=300)  # a holder killed with 0.3 s left
        index.lock_timeout = 5.0
        with index.write():
            token = rclient.get(f"{NS}:lock")
            assert token not in (None, b"dead-holder")
            index.dismiss(1, 2, "x", "t")
        assert rclient.get(f"{NS}:lock") is None
        # Losing the lock (paused past its TTL, taken over) makes the next write fail, not corrupt.
        with pytest.raises(IndexStoreError, match="lost the write lock"):
            with index.write():
                rclient.set(f"{NS}:lock", b"usurper")
                index.set_meta({"x": 1})
        assert "x" not in index.meta() and rclient.get(f"{NS}:lock") == b"usurper"


def test_urls_are_shown_without_password() -> None:
    from paperless_dedupe_hook.index.redis import mask_url

    assert mask_url("redis://:s3cret@redis:6379/0") == "redis://:***@redis:6379/0"
    assert mask_url("redis://paperless:s3cret@redis:6379/1") == "redis://paperless:***@redis:6379/1"
    assert mask_url("rediss://s3cret@host") == "rediss://***@host"
    assert mask_url("redis://host:6379/0?password=s3cret&db=2") == "redis://host:6379/0?password=***&db=2"
    assert mask_url("redis://redis:6379") == "redis://redis:6379"
    assert mask_url("unix:///run/redis.sock?db=1") == "unix:///run/redis.sock?db=1"


def test_unreachable_redis_is_an_index_error_without_the_password(tmp_path: Path) -> None:
    url = f"redis://:s3cret@127.0.0.1:{free_port()}/0"
    cfg = load_cfg(tmp_path, url)
    with pytest.raises(IndexStoreError) as err:
        with open_configured(cfg, settings_from_config(cfg), create=True):
            pass
    message = str(err.value)
    assert "s3cret" not in message and "redis://:***@127.0.0.1" in message
    assert "index.redis_url" in message and "PAPERLESS_REDIS" in message
    assert err.value.exit_code == 5


def test_hook_import_does_not_import_redis() -> None:
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import paperless_dedupe_hook.hook"],
                         capture_output=True, text=True, timeout=60, check=True)
    imported = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines() if "|" in line}
    assert not {m for m in imported if m == "redis" or m.startswith("redis.")}
    # Nor does the SQLite path of the index code.
    probe = ("import sys\nfrom paperless_dedupe_hook import indexfile\nfrom paperless_dedupe_hook.commands import maintenance\nfrom paperless_dedupe_hook.index import redis as store_redis\n"
             "assert 'redis' not in sys.modules, 'redis imported'")
    subprocess.run([sys.executable, "-c", probe], check=True, timeout=60)


# -- end to end: the console scripts against the fake Paperless -------------------
@pytest.fixture
def library(fake_paperless: FakePaperless) -> FakePaperless:
    fake_paperless.seed_sample()
    return fake_paperless


def _redis_env(url: str) -> dict[str, str]:
    return {"PAPERLESS_DEDUPE_INDEX_BACKEND": "redis", "PAPERLESS_DEDUPE_INDEX_REDIS_URL": url}


def test_hook_e2e_rescan_annotated_next_invoice_not(library: FakePaperless, tmp_path: Path, redis_url: str,
                                                    rclient: Any) -> None:
    extra = _redis_env(redis_url)
    first = run_hook(library, tmp_path, 1, **extra)
    assert first.returncode == 0, first.stderr
    assert first.stderr == ""
    second = run_hook(library, tmp_path, 2, **extra)
    assert second.returncode == 0 and "#1" in second.stdout, second.stderr
    tag = our_tag_id(library)
    doc2 = library.document(2)
    assert tag in doc2["tags"] and len(doc2["notes"]) == 1 and "#1" in doc2["notes"][0]["note"]
    assert tag not in library.document(1)["tags"] and library.document(1)["notes"] == []
    before = len(writes(library))
    third = run_hook(library, tmp_path, 3, **extra)
    assert third.returncode == 0 and "no duplicates" in third.stdout, third.stderr
    assert tag not in library.document(3)["tags"] and len(writes(library)) == before
    assert not (tmp_path / "index.sqlite3").exists()  # everything went to Redis
    gen = rclient.get(f"{NS}:current").decode()
    assert rclient.hlen(f"{NS}:gen:{gen}:docs") == 3
    assert rclient.hkeys(f"{NS}:user:annotations:2") == [b"1"]


def test_hook_e2e_redis_lock_held_queues_the_document(library: FakePaperless, tmp_path: Path, redis_url: str,
                                                      rclient: Any) -> None:
    """Another run holds the Redis write lock past the hook's deadline: the hook queues
    its document on this host and says so; the next hook checks it and annotates it."""
    extra = _redis_env(redis_url)
    assert run_hook(library, tmp_path, 1, **extra).returncode == 0
    rclient.set(f"{NS}:lock", b"someone-else", px=120_000)
    try:
        held = run_hook(library, tmp_path, 2, PAPERLESS_DEDUPE_HOOK_TIMEOUT_SECONDS="10", **extra)
    finally:
        rclient.delete(f"{NS}:lock")
    assert held.returncode == 0
    assert "document 2 not checked: index redis://127.0.0.1" in held.stderr, held.stderr
    assert "is held by another paperless-dedupe run (it holds the Redis write lock): queued in " in held.stderr
    third = run_hook(library, tmp_path, 3, **extra)
    assert third.returncode == 0 and third.stderr == "", third.stderr
    assert "queued document 2 checked: 1 possible duplicate(s)" in third.stdout, third.stdout
    doc2 = library.document(2)
    assert our_tag_id(library) in doc2["tags"] and "#1" in doc2["notes"][0]["note"]
    assert (tmp_path / "index.sqlite3.pending").read_text() == ""


def test_hook_e2e_second_run_changes_nothing_with_paperless_redis(library: FakePaperless, tmp_path: Path,
                                                                  redis_url: str) -> None:
    extra = {"PAPERLESS_DEDUPE_INDEX_BACKEND": "redis", "PAPERLESS_REDIS": redis_url}
    for doc_id in (1, 2):
        out = run_hook(library, tmp_path, doc_id, **extra)
        assert out.returncode == 0 and out.stderr == "", out.stderr
    before = len(writes(library))
    again = run_hook(library, tmp_path, 2, **extra)
    assert again.returncode == 0, again.stderr
    assert len(writes(library)) == before
    assert len(library.document(2)["notes"]) == 1


def test_hook_e2e_redis_down_exits_zero_without_password(library: FakePaperless, tmp_path: Path) -> None:
    url = f"redis://:s3cret@127.0.0.1:{free_port()}/0"
    out = run_hook(library, tmp_path, 2, **_redis_env(url))
    assert out.returncode == 0
    assert len(out.stderr.strip().splitlines()) == 1 and "Redis" in out.stderr
    assert "s3cret" not in out.stderr + out.stdout


def test_cli_rebuild_status_and_dismiss_on_redis(library: FakePaperless, tmp_path: Path, redis_url: str) -> None:
    from tests.test_hook_e2e import _env

    pw_url = redis_url  # the test server has no password; status must still show the URL
    env = _env(library, tmp_path, **_redis_env(pw_url))
    out = subprocess.run([CLI, "rebuild-index", "--json"], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["index_path"].startswith(redis_url)
    status = subprocess.run([CLI, "status", "--json"], env=env, capture_output=True, text=True, timeout=60)
    assert status.returncode == 0, status.stderr
    data = json.loads(status.stdout)
    assert data["backend"] == "redis" and data["redis_url"] == redis_url and data["documents"] == 6
    assert data["last_rebuild"] and "index_bytes" not in data
    dismiss = subprocess.run([CLI, "dismiss", "1", "2"], env=env, capture_output=True, text=True, timeout=60)
    assert dismiss.returncode == 0, dismiss.stderr
    check = subprocess.run([CLI, "check", "2", "--json"], env=env, capture_output=True, text=True, timeout=60)
    assert check.returncode == 0 and json.loads(check.stdout)["matches"] == [], check.stderr
    again = subprocess.run([CLI, "rebuild-index", "--json"], env=env, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and json.loads(again.stdout)["pairs"] == 0, again.stderr


def test_cli_doctor_and_report_html_on_redis(library: FakePaperless, tmp_path: Path, redis_url: str) -> None:
    from tests.test_hook_e2e import _env

    env = _env(library, tmp_path, **_redis_env(redis_url))
    before = subprocess.run([CLI, "doctor"], env=env, capture_output=True, text=True, timeout=60)
    assert f"index {redis_url} (paperless-dedupe): not built yet" in before.stdout, before.stdout
    assert before.returncode == 0, before.stdout
    assert subprocess.run([CLI, "rebuild-index"], env=env, capture_output=True, text=True, timeout=60).returncode == 0
    after = subprocess.run([CLI, "doctor"], env=env, capture_output=True, text=True, timeout=60)
    assert after.returncode == 0 and "reachable, matches the config, 6 documents" in after.stdout, after.stdout
    page = tmp_path / "report.html"
    made = subprocess.run([CLI, "report", "--html", str(page)], env=env, capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    assert "ACME invoice INV-2026-1047" in page.read_text(encoding="utf-8")
    down = _env(library, tmp_path, **_redis_env(f"redis://:s3cret@127.0.0.1:{free_port()}/0"))
    failed = subprocess.run([CLI, "doctor"], env=down, capture_output=True, text=True, timeout=60)
    assert failed.returncode != 0 and "s3cret" not in failed.stdout + failed.stderr
    assert "redis://:***@127.0.0.1" in failed.stdout


def test_annotation_locks_exclude_across_clients(rcfg: Config, rclient: Any) -> None:
    from paperless_dedupe_hook.index.redis import RedisIndex

    settings = settings_from_config(rcfg)
    url = rcfg["index.redis_url"]
    with open_configured(rcfg, settings, create=True):
        pass
    with RedisIndex(url, compat=settings.compat()) as one, RedisIndex(url, compat=settings.compat()) as two:
        with one.annotation_lock([2, 1]):
            assert rclient.exists(f"{NS}:annotate:1", f"{NS}:annotate:2") == 2
            with pytest.raises(IndexStoreError, match="document 2 stayed locked by another paperless-dedupe run"):
                with two.annotation_lock([3, 2], timeout_seconds=0.1):
                    pass
            assert not rclient.exists(f"{NS}:annotate:3")  # what it had taken is given back
            with two.annotation_lock([3]):  # other documents are free
                pass
        assert not rclient.keys(f"{NS}:annotate:*")
        with two.annotation_lock([1, 2, 3]):
            pass


def test_a_template_family_gives_the_candidates_a_rebuild_gives(cfg: Config) -> None:
    """Keys that a whole template family shares are no evidence (core/commonkeys.py):
    the index answers the hook with exactly the pairs a rebuild finds."""
    settings = settings_from_config(cfg)
    size = COMMON_KEY_DOCS + 12
    feats = [compute(i, member(i), settings.features) for i in range(1, size + 1)]
    copy = compute(size + 1, member(5), settings.features)  # new: a second copy of member 5

    def partners(pairs: set[tuple[int, int]], doc_id: int) -> list[int]:
        return sorted(a if b == doc_id else b for a, b in pairs if doc_id in (a, b))

    with open_configured(cfg, settings, create=True) as index:
        put_all(index, settings, feats)
        assert index.candidates(settings.band_keys(copy), exclude=copy.doc_id) == partners(
            candidate_pairs([*feats, copy], settings), copy.doc_id) != []
        indexed = candidate_pairs(feats, settings)
        for f in feats[:6]:
            assert index.candidates(settings.band_keys(f), exclude=f.doc_id) == partners(indexed, f.doc_id)


def test_pairs_a_hook_found_stay_in_the_results_until_the_next_rebuild(cfg: Config) -> None:
    # issue 27: status and the report show what hooks found since the last rebuild, on both backends
    settings = settings_from_config(cfg)
    rebuilt = {"a": 1, "b": 2, "score": 0.9, "verdict": "duplicate"}
    with open_configured(cfg, settings, create=True) as index:
        with index.write():
            index.store_results([rebuilt], [{"primary": 1, "members": [1, 2], "confidence": 0.9}])
            index.add_found_pairs([{"a": 2, "b": 5, "score": 0.8, "verdict": "duplicate"},
                                   {**rebuilt, "score": 0.5}], "2026-12-02T08:00:00+00:00")
        pairs, groups = index.results()
        assert [(p["a"], p["b"], p["score"], p.get("found_by")) for p in pairs] == [
            (1, 2, 0.9, None), (2, 5, 0.8, "hook")]  # the rebuild's own pair is kept as it was
        assert pairs[1]["found_at"] == "2026-12-02T08:00:00+00:00" and len(groups) == 1
        with index.write():
            index.store_results([rebuilt], [])  # the next rebuild: its results replace the hooks' pairs
        assert [(p["a"], p["b"]) for p in index.results()[0]] == [(1, 2)]
