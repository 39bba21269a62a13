"""Crash safety (issue item 2): SIGKILL at chosen and at random points of
``rebuild-index`` and of a hook's index write; truncated and corrupt index files.

After every kill the index must open, pass ``PRAGMA integrity_check``, agree with
itself (bands and token counts match the documents) and hold either the old content
or the complete new one, with the user's dismissals; the interrupted command must
simply be run again, with no clean-up by hand.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.reliability_support import (
    CLI,
    ROOT,
    assert_nothing_deleted,
    base_env,
    canary_guard,  # noqa: F401 - session fixture: the token never appears in any output
    check_annotations,
    corpus,
    index_health,
    new_fake,
    offline_pairs,
    record,
    run,
    run_concurrent_hooks,
    run_hook,
    run_parallel,
)

# Runs a console command with one function replaced by "call it (or not), then
# SIGKILL myself": a crash at an exact point, as a power cut or the OOM killer would.
KILLER = r'''
import os, signal, sys, importlib
target, when, nth, match = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
argv = sys.argv[5:]
module, _, qualname = target.partition(":")
owner = importlib.import_module(module)
parts = qualname.split(".")
for part in parts[:-1]:
    owner = getattr(owner, part)
original = getattr(owner, parts[-1])
calls = [0]
def wrapper(*args, **kwargs):
    if match and match not in repr(args):
        return original(*args, **kwargs)
    calls[0] += 1
    if calls[0] < nth:
        return original(*args, **kwargs)
    if when == "after":
        original(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGKILL)
setattr(owner, parts[-1], wrapper)
if argv[0] == "hook":
    from paperless_dedupe_hook.hook import main
    sys.exit(main())
from paperless_dedupe_hook.commands.cli import main
sys.exit(main(argv))
'''


def killed_run(tmp_path: Path, env: dict[str, str], target: str, when: str, argv: list[str], *, nth: int = 1,
               match: str = "") -> subprocess.CompletedProcess[str]:
    out = run([sys.executable, "-c", KILLER, target, when, str(nth), match, *argv], env=env,
              label=f"killed at {target} {when} #{nth}: {' '.join(argv)}", cwd=ROOT)
    return out


def _ids(path: Path) -> list[int]:
    return index_health(path)["documents"]


@pytest.fixture(scope="module")
def two_libraries(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int], Path, list[int]]:
    """Two offline libraries: A (180 documents) and B (260, overlapping ids)."""
    base = tmp_path_factory.mktemp("libs")
    a = corpus(101, documents=180, pairs=15)
    b = corpus(202, documents=260, pairs=20)
    return (a.write_jsonl(base / "a.jsonl"), [d["id"] for d in a.docs],
            b.write_jsonl(base / "b.jsonl"), [d["id"] for d in b.docs])


def _assert_old_or_new(index: Path, old: list[int], new: list[int], dismissed: tuple[int, int]) -> list[int]:
    health = index_health(index)  # opens, integrity ok, bands and token_df consistent
    assert health["documents"] in (old, new), "the index is neither the old nor the complete new one"
    assert dismissed in health["dismissed"], "the user's dismissal was lost"
    return health["documents"]


# The steps of a rebuild, in order: writing the new file, storing results, taking
# over the user's state under the exclusive lock, removing the old log, the rename.
REBUILD_KILL_POINTS = [
    pytest.param("paperless_dedupe_hook.core.minhash:to_bytes", "after", 40, "", id="mid-writing-new-file"),
    pytest.param("numpy:lexsort", "after", 1, "", id="documents-written-bands-not"),
    pytest.param("paperless_dedupe_hook.index.sqlite:SqliteIndex.store_results", "before", 1, "", id="before-results"),
    pytest.param("paperless_dedupe_hook.index.sqlite:SqliteIndex.copy_user_state_from", "before", 1, "", id="before-user-state"),
    pytest.param("paperless_dedupe_hook.index.sqlite:SqliteIndex.copy_user_state_from", "after", 1, "", id="after-user-state"),
    pytest.param("pathlib:Path.unlink", "after", 1, "index.sqlite3-wal", id="after-removing-old-wal"),
    # (the index's rename, not the holder file's: its arguments name the new file)
    pytest.param("os:replace", "before", 1, "index.sqlite3.rebuild", id="before-rename"),
    pytest.param("os:replace", "after", 1, "index.sqlite3.rebuild", id="after-rename"),
]


def test_rebuild_killed_at_every_step_leaves_old_or_new_index(
    tmp_path: Path, two_libraries: tuple[Path, list[int], Path, list[int]]
) -> None:
    a_file, a_ids, b_file, b_ids = two_libraries
    env = base_env(tmp_path)
    index = tmp_path / "index.sqlite3"
    assert run([CLI, "rebuild-index", "--from-jsonl", str(a_file)], env=env).returncode == 0
    dismissed = (a_ids[0], a_ids[1])
    assert run([CLI, "dismiss", str(dismissed[0]), str(dismissed[1])], env=env).returncode == 0
    current, sources = a_ids, {tuple(a_ids): (b_file, b_ids), tuple(b_ids): (a_file, a_ids)}
    outcomes = []
    for point in REBUILD_KILL_POINTS:
        target, when, nth, match = point.values
        src, target_ids = sources[tuple(current)]
        out = killed_run(tmp_path, env, target, when, ["rebuild-index", "--from-jsonl", str(src)], nth=nth, match=match)
        assert out.returncode == -signal.SIGKILL, f"{point.id}: not killed: {out.stderr[-500:]}"
        current = _assert_old_or_new(index, current, target_ids, dismissed)
        outcomes.append((point.id, "new" if current == target_ids else "old"))
    # The kill points before the rename keep the old index, the one after it has the new.
    assert [o for _p, o in outcomes] == ["old", "old", "old", "old", "old", "old", "old", "new"], outcomes
    # Re-run without any clean-up: leftovers of the interrupted runs are simply overwritten.
    src, target_ids = sources[tuple(current)]
    again = run([CLI, "rebuild-index", "--from-jsonl", str(src)], env=env)
    assert again.returncode == 0, again.stderr
    assert _assert_old_or_new(index, current, target_ids, dismissed) == target_ids
    assert not list(tmp_path.glob("index.sqlite3.rebuild*"))
    status = run([CLI, "status", "--json"], env=env)
    assert status.returncode == 0 and json.loads(status.stdout)["documents"] == len(target_ids)


# Runs a console command and SIGKILLs it inside SQLite itself: every connection gets a
# progress handler, called every STEP virtual-machine instructions, that kills the
# process at the LIMIT-th call.  The same data and SQLite build execute the same
# instructions, so a kill point is exact and repeatable, and it lands in the middle of
# statements and transactions (also in the next opener's switch back to WAL), which a
# kill between Python calls never does.  LIMIT 0 kills nothing and prints the count.
SQLITE_KILLER = r'''
import atexit, os, signal, sqlite3, sys
limit, step = int(sys.argv[1]), int(sys.argv[2])
count = [0]
real = sqlite3.connect
def tick():
    count[0] += 1
    if count[0] == limit:
        os.kill(os.getpid(), signal.SIGKILL)
    return 0
def connect(*args, **kwargs):
    conn = real(*args, **kwargs)
    conn.set_progress_handler(tick, step)
    return conn
sqlite3.connect = connect
if limit == 0:
    atexit.register(lambda: print(f"sqlite-progress-calls {count[0]}", file=sys.stderr))
from paperless_dedupe_hook.commands.cli import main
sys.exit(main(sys.argv[3:]))
'''
SQLITE_STEP = 1000


def _sqlite_killed_run(env: dict[str, str], limit: int, source: Path) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-c", SQLITE_KILLER, str(limit), str(SQLITE_STEP), "rebuild-index", "--from-jsonl",
                str(source)], env=env, label=f"killed inside SQLite at call {limit}", cwd=ROOT)


def test_rebuild_killed_at_random_moments(tmp_path: Path, two_libraries: tuple[Path, list[int], Path, list[int]]) -> None:
    """Killed at seeded random points inside SQLite's work (deterministic: counted in
    SQLite instructions, not wall time).  Each run first measures how many progress
    calls a whole rebuild in each direction makes, then kills at points drawn from it."""
    a_file, a_ids, b_file, b_ids = two_libraries
    env = base_env(tmp_path)
    index = tmp_path / "index.sqlite3"
    assert run([CLI, "rebuild-index", "--from-jsonl", str(a_file)], env=env).returncode == 0
    dismissed = (a_ids[2], a_ids[3])
    assert run([CLI, "dismiss", str(dismissed[0]), str(dismissed[1])], env=env).returncode == 0
    sources = {tuple(a_ids): (b_file, b_ids), tuple(b_ids): (a_file, a_ids)}
    calls: dict[tuple[int, ...], int] = {}
    current = a_ids
    for _direction in range(2):  # A -> B, then B -> A: the number of calls of each
        src, target_ids = sources[tuple(current)]
        measured = _sqlite_killed_run(env, 0, src)
        assert measured.returncode == 0, measured.stderr[-1000:]
        calls[tuple(current)] = int(measured.stderr.rsplit("sqlite-progress-calls ", 1)[1].split()[0])
        current = _assert_old_or_new(index, current, target_ids, dismissed)
        assert current == target_ids
    assert min(calls.values()) > 50, calls  # enough points to choose from
    rng = random.Random(4242)
    outcomes = []
    for _round in range(8):
        src, target_ids = sources[tuple(current)]
        # Below the whole count (a leftover of the last kill may save a few calls).
        limit = rng.randint(1, int(calls[tuple(current)] * 0.97))
        out = _sqlite_killed_run(env, limit, src)
        assert out.returncode == -signal.SIGKILL, f"call {limit}: not killed: {out.stderr[-500:]}"
        current = _assert_old_or_new(index, current, target_ids, dismissed)
        outcomes.append((limit, "new" if current == target_ids else "old"))
    print(f"sqlite kill points: calls per rebuild {sorted(calls.values())}, kills {outcomes}")  # same every run
    src, target_ids = sources[tuple(current)]
    assert run([CLI, "rebuild-index", "--from-jsonl", str(src)], env=env).returncode == 0
    assert _assert_old_or_new(index, current, target_ids, dismissed) == target_ids


HOOK_KILL_POINTS = [
    # inside BEGIN IMMEDIATE, the document written but not committed
    pytest.param("paperless_dedupe_hook.index.sqlite:SqliteIndex.put", "after", 1, id="index-write-uncommitted"),
    # committed, nothing written to Paperless yet
    pytest.param("paperless_dedupe_hook.paperless.annotate:Annotator._annotate", "before", 1, id="before-annotating"),
    # the link written, note and tag not
    pytest.param("paperless_dedupe_hook.paperless.client:PaperlessClient.add_note", "before", 1, id="after-link-before-note"),
    # link and note written, tag and ledger not
    pytest.param("paperless_dedupe_hook.paperless.client:PaperlessClient.add_note", "after", 1, id="after-note-before-tag"),
    # everything in Paperless, the ledger not
    pytest.param("paperless_dedupe_hook.index.sqlite:SqliteIndex.record_annotation", "before", 1, id="before-ledger"),
]


def test_hook_killed_at_every_step_then_rerun_annotates_exactly_once(tmp_path: Path) -> None:
    lib = corpus(303, documents=2 * len(HOOK_KILL_POINTS) + 2, pairs=len(HOOK_KILL_POINTS) + 1)
    fake = new_fake()
    try:
        fake.add_documents(lib.docs)
        env = base_env(tmp_path, url=fake.url)
        index = tmp_path / "index.sqlite3"
        first = run_concurrent_hooks(tmp_path, fake.url, [[g[0] for g in lib.groups]])  # the older ones
        assert first[0].codes == [0] * len(lib.groups)
        for group, point in zip(lib.groups, HOOK_KILL_POINTS, strict=False):
            older, newer = group
            target, when, nth = point.values
            out = killed_run(tmp_path, {**env, "DOCUMENT_ID": str(newer)}, target, when, ["hook"], nth=nth)
            assert out.returncode == -signal.SIGKILL, f"{point.id}: not killed: {out.stdout} {out.stderr}"
            health = index_health(index)
            assert older in health["documents"]
            assert (newer in health["documents"]) == (point.id != "index-write-uncommitted"), point.id
            again = run_hook(tmp_path, fake, newer)  # Paperless would not re-run it; a user or rebuild would
            assert again.returncode == 0 and again.stderr == "", again.stderr
            assert newer in index_health(index)["documents"]
        # the last pair runs undisturbed; every pair ends annotated exactly once
        assert run_hook(tmp_path, fake, lib.groups[-1][1]).returncode == 0
        problems = check_annotations(fake, lib)
        assert not problems, "\n".join(problems)
        assert index_health(index)["annotations"] == {b: {a} for a, b in lib.pairs}
        assert_nothing_deleted(fake)
    finally:
        fake.stop()


def test_hooks_killed_at_random_moments_then_rerun(tmp_path: Path) -> None:
    """4 concurrent hook processes over 120 documents, SIGKILLed at random moments
    (seeded) and restarted on what they had left, three rounds; then the rest."""
    from tests.reliability_support import HOOK, WORKER

    lib = corpus(404, documents=120, pairs=15, triples=2)
    assert offline_pairs(lib) == lib.pairs, "the corpus no longer matches what the detection finds (scoring changed?)"
    fake = new_fake()
    try:
        fake.add_documents(lib.docs)
        env = base_env(tmp_path, url=fake.url)
        index = tmp_path / "index.sqlite3"
        rng = random.Random(99)
        ids = [d["id"] for d in lib.docs]
        rng.shuffle(ids)
        batches = [ids[i::4] for i in range(4)]
        kills = 0
        done: set[int] = set()
        for round_no in range(3):
            go = tmp_path / f"go-{round_no}"
            procs = []
            for n, batch in enumerate(batches):
                result = tmp_path / f"r{round_no}-{n}.json"
                procs.append((result, subprocess.Popen(
                    [sys.executable, "-c", WORKER, ",".join(map(str, batch)), str(go), str(result), "inprocess", HOOK],
                    env=env, cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
            deadline = time.monotonic() + 60
            while not all(Path(f"{r}.ready").exists() for r, _p in procs):
                assert time.monotonic() < deadline
                time.sleep(0.01)
            seen = len(fake.requests_for("GET", r"^/api/documents/\d+/$"))
            go.touch()
            # Kill after a random amount of progress (documents fetched), not of wall time:
            # a busy machine must not make the kills come too early or too late.
            target = seen + rng.randint(3, 14)
            while len(fake.requests_for("GET", r"^/api/documents/\d+/$")) < target:
                assert time.monotonic() < deadline + 120, "the hooks made no progress"
                if all(p.poll() is not None for _r, p in procs):
                    break
                time.sleep(0.005)
            time.sleep(rng.uniform(0.0, 0.15))
            for _result, proc in procs:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGKILL)
                    kills += 1
                stdout, stderr = proc.communicate(timeout=60)
                record("killed worker stdout", stdout)
                record("killed worker stderr", stderr)
                assert "database is locked" not in stderr
            health = index_health(index, allow_missing=True)  # consistent after every round of kills
            done = set(health["documents"])
            batches = [[i for i in batch if i not in done] for batch in batches]
        assert kills >= 8, kills
        assert done and len(done) < len(ids), "the kills came too early or too late to interrupt anything"
        # The rest, and once more the documents of each pair: a hook killed after its
        # index write but before annotating left its pair unannotated (as a hook that
        # lost Paperless would); running it again must complete it, and never twice.
        rest = [i for i in ids if i not in done] + sorted({x for pair in lib.pairs for x in pair})
        results = run_concurrent_hooks(tmp_path, fake.url, [rest])
        assert results[0].codes == [0] * len(rest) and results[0].stderr == "", results[0].stderr[-2000:]
        health = index_health(index)
        assert health["documents"] == sorted(ids)
        problems = check_annotations(fake, lib)
        assert not problems, "\n".join(problems)
        assert_nothing_deleted(fake)
    finally:
        fake.stop()


def _corruptions(good: bytes, index: Path) -> dict[str, bytes]:
    import sqlite3

    rng = random.Random(7)
    pages = bytearray(good)
    for _ in range(300):
        i = rng.randrange(4096, len(pages))
        pages[i] = rng.randrange(256)
    conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
    try:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name='dismissed'").fetchone()[0]
    finally:
        conn.close()
    user = bytearray(good)
    user[(root - 1) * page_size : root * page_size] = bytes([0xA5]) * page_size
    header = bytearray(good)
    header[:16] = b"not-sqlite-at-al"
    return {
        "truncated-half": good[: len(good) // 2],
        "not-sqlite-at-all": b"this is not an index\n" * 200,
        "bad-header": bytes(header),
        "damaged-pages": bytes(pages),
        "damaged-user-state": bytes(user),
    }


def test_corrupt_index_hook_exits_0_says_rebuild_and_rebuild_repairs(tmp_path: Path) -> None:
    """Five kinds of damage, each in its own index file, checked side by side: the
    hook exits 0 with one line naming the file and 'rebuild-index' (strict: exit 5),
    ``status`` exits 5 where the damage shows on opening, and a plain
    ``rebuild-index`` replaces the file, no clean-up needed."""
    from tests.reliability_support import HOOK

    lib = corpus(505, documents=80, pairs=6)
    src = lib.write_jsonl(tmp_path / "docs.jsonl")
    fake = new_fake()
    try:
        fake.add_documents(lib.docs)
        good_index = tmp_path / "good.sqlite3"
        env = base_env(tmp_path, url=fake.url, PAPERLESS_DEDUPE_INDEX=str(good_index))
        assert run([CLI, "rebuild-index", "--from-jsonl", str(src)], env=env).returncode == 0
        assert run([CLI, "dismiss", "1", "2"], env=env).returncode == 0
        assert (1, 2) in index_health(good_index)["dismissed"]
        newer = lib.groups[0][1]
        kinds = _corruptions(good_index.read_bytes(), good_index)
        envs = {}
        for name, data in kinds.items():
            path = tmp_path / f"{name}.sqlite3"
            path.write_bytes(data)
            envs[name] = {**env, "PAPERLESS_DEDUPE_INDEX": str(path), "DOCUMENT_ID": str(newer)}
        hooks = run_parallel([([HOOK], envs[n], f"hook on {n}") for n in kinds])
        strict = run_parallel([([HOOK], {**envs[n], "PAPERLESS_DEDUPE_HOOK_STRICT": "true"}, f"strict hook on {n}")
                               for n in ("truncated-half", "damaged-pages")])
        status = run_parallel([([CLI, "status"], envs[n], f"status on {n}") for n in kinds])
        assert [s.returncode for s in strict] == [5, 5], [s.stderr for s in strict]  # strict: the index error's code
        for name, hook, stat in zip(kinds, hooks, status, strict=True):
            index = envs[name]["PAPERLESS_DEDUPE_INDEX"]
            assert hook.returncode == 0, name
            lines = hook.stderr.strip().splitlines()
            assert len(lines) == 1 and "rebuild-index" in lines[0] and index in lines[0], (name, hook.stderr)
            assert "Traceback" not in hook.stderr and "internal error" not in hook.stderr, name
            if name.startswith("damaged-"):  # damage deep inside shows only when those pages are read
                assert stat.returncode in (0, 5), (name, stat.stderr)
            else:
                assert stat.returncode == 5 and "rebuild-index" in stat.stderr, (name, stat.stderr)
            assert "Traceback" not in stat.stderr
        rebuilt = run_parallel([([CLI, "rebuild-index", "--from-jsonl", str(src)], envs[n], f"rebuild {n}")
                                for n in kinds])
        for name, out in zip(kinds, rebuilt, strict=True):
            assert out.returncode == 0 and "Traceback" not in out.stderr, (name, out.stderr)
            health = index_health(Path(envs[name]["PAPERLESS_DEDUPE_INDEX"]))
            assert health["documents"] == [d["id"] for d in lib.docs], name
            # (dismissals live in the index: an unreadable file takes them with it, see docs/reliability.md)
        after = run_parallel([([HOOK], envs[n], f"hook after rebuilding {n}") for n in ("bad-header", "damaged-pages")])
        assert all(a.returncode == 0 and a.stderr == "" for a in after), [a.stderr for a in after]
        assert_nothing_deleted(fake)
    finally:
        fake.stop()
