"""Concurrency: 8 hook processes at once on one index (issue item 1).

400 documents in a fake Paperless (50 near-duplicate pairs, 3 triples, a few short
ones, the rest unrelated prose), ids shuffled so that pairs straddle the workers;
8 processes start at the same instant, each running the real ``hook.main()`` for
its 50 ``DOCUMENT_ID``s in random order.  The long variant (8 x 500, optionally
one process per document) is ``bench/reliability_concurrency.py``.
"""

from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

from paperless_dedupe_hook.core.features import FeatureParams, compute
from tests.reliability_support import (
    annotation_state,
    assert_nothing_deleted,
    canary_guard,  # noqa: F401 - session fixture: the token never appears in any output
    check_annotations,
    corpus,
    index_health,
    new_fake,
    offline_pairs,
    record_file,
    run_concurrent_hooks,
)

WORKERS = 8
PER_WORKER = 50


def test_eight_hooks_at_once_index_each_document_once_and_annotate_each_pair_once(tmp_path: Path) -> None:
    lib = corpus(20260801, documents=WORKERS * PER_WORKER, pairs=50, triples=3, short=6)
    assert offline_pairs(lib) == lib.pairs, "the corpus no longer matches what the detection finds (scoring changed?)"
    fake = new_fake()
    try:
        fake.add_documents(lib.docs)
        rng = random.Random(5)
        ids = [d["id"] for d in lib.docs]
        rng.shuffle(ids)
        batches = [ids[i * PER_WORKER : (i + 1) * PER_WORKER] for i in range(WORKERS)]
        results = run_concurrent_hooks(tmp_path, fake.url, batches)

        # They really ran at once: some moment had all eight workers inside their loops.
        assert max(r.spans[0][0] for r in results) < min(r.spans[-1][1] for r in results)
        for r in results:
            assert r.returncode == 0, r.stderr[-2000:]
            assert r.codes == [0] * PER_WORKER, r.stderr[-2000:]
            assert "database is locked" not in r.stderr
            assert r.stderr == "", r.stderr[-2000:]  # no document failed for any reason

        index = tmp_path / "index.sqlite3"
        health = index_health(index)
        assert health["documents"] == sorted(ids)  # every document exactly once, none lost
        conn = sqlite3.connect(index)
        try:
            dupes = conn.execute("SELECT id, count(*) FROM documents GROUP BY id HAVING count(*) > 1").fetchall()
            comparable = conn.execute("SELECT count(*) FROM documents WHERE signature IS NOT NULL").fetchone()[0]
        finally:
            conn.close()
        assert dupes == []
        # A short document is compared (core.short) unless it has too little text even for that.
        texts = {d["id"]: d["content"] for d in lib.docs}
        uncompared = [i for i in lib.short if not compute(i, texts[i], FeatureParams(num_permutations=16)).comparable]
        assert comparable == len(ids) - len(uncompared)

        problems = check_annotations(fake, lib)
        assert not problems, "\n".join(problems[:20])
        state = annotation_state(fake)
        pair_members = {b for g in lib.groups if len(g) == 2 for b in g[1:]}
        assert all(len(state[b]["notes"]) == 1 for b in pair_members)  # no document of a pair got two notes
        # The ledger in the index agrees with what landed in Paperless.
        for doc_id in {b for _a, b in lib.pairs}:
            assert health["annotations"].get(doc_id) == lib.older(doc_id), doc_id
        assert len([t for t in fake.tags.values() if t["name"] == "possible-duplicate"]) == 1
        assert len([f for f in fake.custom_fields.values() if f["name"] == "Possible duplicates"]) == 1
        assert_nothing_deleted(fake)
        assert not [r for r in fake.requests if r.method in ("PATCH", "PUT")]
        record_file(index)
    finally:
        fake.stop()


def _hold_first_until(fake: Any, path_regex: str, until_regex: str, until_method: str) -> threading.Event:
    """Hold the first POST to ``path_regex`` until a request ``until_method until_regex``
    of the other hook has arrived: the second hook then surely runs while the first
    one's write is pending, on any machine.  The returned event is set once it did."""
    arrived = threading.Event()

    def hold(_request: object) -> None:
        arrived.wait(120)

    fake.inject("call", path_regex=path_regex, method="POST", times=1, fn=hold)
    fake.inject("call", path_regex=until_regex, method=until_method, times=1, fn=lambda _request: arrived.set())
    return arrived


def _wait_for(predicate: object, timeout: float = 20.0) -> None:
    import time

    end = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_two_hooks_annotating_one_document_at_once_keep_every_link(tmp_path: Path) -> None:
    """A triple a < b < c: the hooks of a and b both annotate c.  Paperless replaces the
    whole link list and its reverse links, so two interleaved read-merge-writes would
    drop one link.  Hook a's first write is held back until hook b has started."""
    import subprocess

    from tests.reliability_support import HOOK, base_env, record

    lib = corpus(11, documents=12, pairs=0, triples=1)
    a, b, c = lib.groups[0]
    fake = new_fake()
    try:
        fake.add_documents(lib.docs)
        env = base_env(tmp_path, url=fake.url)
        assert subprocess.run([HOOK], env={**env, "DOCUMENT_ID": str(c)}, capture_output=True).returncode == 0
        # Until hook b asks for its document's root: its first request.
        raced = _hold_first_until(fake, r"/api/documents/bulk_edit/", rf"/api/documents/{b}/root/$", "GET")
        slow = subprocess.Popen([HOOK], env={**env, "DOCUMENT_ID": str(a)}, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        _wait_for(lambda: any(r.fault == "call" and r.path.endswith("bulk_edit/") for r in fake.requests))
        # (hook a's request is held now; the other "call" fault waits for hook b)
        fast = subprocess.run([HOOK], env={**env, "DOCUMENT_ID": str(b)}, capture_output=True, text=True, timeout=120)
        out, err = slow.communicate(timeout=120)
        # The race happened: hook b started while hook a's write was held.
        assert raced.is_set()
        writes_to_c = [r for r in fake.requests if r.method == "POST" and r.path.endswith("bulk_edit/")
                       and isinstance(r.json, dict) and c in r.json.get("documents", [])
                       and r.json.get("method") == "modify_custom_fields"]
        assert len(writes_to_c) >= 2, "both hooks must have written c's links"
        for label, text in (("slow stdout", out), ("slow stderr", err), ("fast stdout", fast.stdout),
                            ("fast stderr", fast.stderr)):
            record(label, text)
        assert slow.returncode == 0 and fast.returncode == 0
        assert err == "" and fast.stderr == "", err + fast.stderr
        problems = check_annotations(fake, lib)
        assert not problems, "\n".join(problems)
        assert_nothing_deleted(fake)
    finally:
        fake.stop()


def test_two_hooks_creating_our_tag_at_once_both_succeed(tmp_path: Path) -> None:
    """Neither tag nor field exists; two hooks find none and both create them: the
    loser's POST answers 400 'already exists' and must fall back to the winner's."""
    import subprocess

    from tests.reliability_support import HOOK, base_env, record

    lib = corpus(12, documents=10, pairs=2)
    (a1, b1), (a2, b2) = lib.groups
    fake = new_fake()
    try:
        fake.add_documents(lib.docs)
        env = base_env(tmp_path, url=fake.url)
        for older in (a1, a2):
            assert subprocess.run([HOOK], env={**env, "DOCUMENT_ID": str(older)}, capture_output=True).returncode == 0
        # Until hook b2, which found no tag either, tries to create it too.
        raced = _hold_first_until(fake, r"/api/tags/$", r"/api/tags/$", "POST")
        slow = subprocess.Popen([HOOK], env={**env, "DOCUMENT_ID": str(b1)}, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        _wait_for(lambda: any(r.fault == "call" and r.path.endswith("/api/tags/") for r in fake.requests))
        fast = subprocess.run([HOOK], env={**env, "DOCUMENT_ID": str(b2)}, capture_output=True, text=True, timeout=120)
        out, err = slow.communicate(timeout=120)
        # The race happened: both hooks found no tag and both tried to create it; the
        # held one lost with 400 "already exists".
        assert raced.is_set()
        creates = [r.status for r in fake.requests if r.method == "POST" and r.path.endswith("/api/tags/")]
        assert sorted(creates) == [201, 400], creates
        for label, text in (("slow stdout", out), ("slow stderr", err), ("fast stdout", fast.stdout),
                            ("fast stderr", fast.stderr)):
            record(label, text)
        assert err == "" and fast.stderr == "", err + fast.stderr
        assert not check_annotations(fake, lib)
        assert len([t for t in fake.tags.values() if t["name"] == "possible-duplicate"]) == 1
    finally:
        fake.stop()
