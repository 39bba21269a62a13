"""Shared helpers of the reliability tests (``tests/test_reliability_*.py``) and of
``bench/reliability_concurrency.py``.

* ``CANARY``: the API token every reliability test uses.  Every output these tests
  produce (subprocess stdout/stderr, captured stdout/stderr, reports, the index
  file itself) goes through :func:`record`, and ``canary_guard`` (session scope,
  imported by each reliability module) fails the run if the token shows up in any
  of them.
* :func:`corpus`: a seeded library of near-duplicate pairs (and a few triples)
  among unrelated texts, with OCR-like edits in the twins.
* :func:`index_health`: opens an index file read-only and checks that it is
  internally consistent (integrity, bands and token counts match the documents).
* :data:`WORKER`: the driver one concurrent "hook process" runs: the real
  ``hook.main()`` for each of its ``DOCUMENT_ID``\\ s, or (``spawn``) the real
  console script once per document.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

try:
    from tests.fake_paperless import FakePaperless
except ImportError:  # run from tests/ itself
    from fake_paperless import FakePaperless  # type: ignore[no-redef]

CANARY = "canary7d3f0e1bTOKENc0ffee5ecret42a9b8c7d6"
HOOK = shutil.which("paperless-dedupe-hook") or str(Path(sys.executable).parent / "paperless-dedupe-hook")
CLI = shutil.which("paperless-dedupe") or str(Path(sys.executable).parent / "paperless-dedupe")
ROOT = Path(__file__).resolve().parent.parent

# -- the canary -----------------------------------------------------------------

_OUTPUTS: list[tuple[str, str]] = []
_OUTPUTS_LOCK = threading.Lock()


def record(label: str, text: str | bytes | None) -> None:
    """Remember an output for the end-of-session canary check (and check it now)."""
    if text is None:
        return
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    with _OUTPUTS_LOCK:
        _OUTPUTS.append((label, text))
    assert CANARY not in text, f"the API token leaked into {label}"


def record_file(path: Path) -> None:
    """Remember a file's bytes (a report, a config file shown, the index itself)."""
    if path.exists() and path.is_file():
        record(str(path), path.read_bytes())


def outputs() -> list[tuple[str, str]]:
    with _OUTPUTS_LOCK:
        return list(_OUTPUTS)


@pytest.fixture(scope="session", autouse=True)
def canary_guard() -> Iterator[None]:
    """Session scope: after the last test, grep everything recorded for the token."""
    yield
    leaked = [label for label, text in outputs() if CANARY in text]
    assert not leaked, f"the API token appeared in: {leaked[:10]}"


def run(cmd: Sequence[str], *, env: dict[str, str], label: str = "", timeout: float = 120,
        cwd: str | Path = "/", input: str | None = None) -> subprocess.CompletedProcess[str]:
    """``subprocess.run`` (never a shell) whose outputs are recorded for the canary check."""
    out = subprocess.run(list(cmd), env=env, cwd=str(cwd), capture_output=True, text=True, timeout=timeout,
                         input=input, errors="replace")
    name = label or " ".join(Path(cmd[0]).name if i == 0 else str(c) for i, c in enumerate(cmd))
    record(f"{name} stdout", out.stdout)
    record(f"{name} stderr", out.stderr)
    return out


def run_parallel(jobs: Sequence[tuple[Sequence[str], dict[str, str], str]], *, timeout: float = 120,
                 workers: int = 4) -> list[subprocess.CompletedProcess[str]]:
    """Several independent runs at once (``(cmd, env, label)`` each), results in order."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run, cmd, env=env, label=label, timeout=timeout) for cmd, env, label in jobs]
        return [f.result() for f in futures]


def base_env(tmp_path: Path, *, url: str | None = None, token: str | None = CANARY, **extra: str) -> dict[str, str]:
    """The environment of a hook or CLI run: no inherited PAPERLESS_*/DOCUMENT_*."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_", "DOCUMENT_"))}
    env.update({
        "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data"),
        "PAPERLESS_DEDUPE_INDEX": str(tmp_path / "index.sqlite3"),
        "PYTHONPATH": str(ROOT),
    })
    if url is not None:
        env["PAPERLESS_DEDUPE_URL"] = url
    if token is not None:
        env["PAPERLESS_DEDUPE_TOKEN"] = token
    env.update(extra)
    return env


def run_hook(tmp_path: Path, fake: FakePaperless | None, doc_id: object, *, url: str | None = None,
             **extra: str) -> subprocess.CompletedProcess[str]:
    """The real console script as Paperless runs it: DOCUMENT_* in the environment, cwd /."""
    env = base_env(tmp_path, url=url or (fake.url if fake is not None else None), **extra)
    if doc_id is not None:
        env["DOCUMENT_ID"] = str(doc_id)
    env.update({"DOCUMENT_TYPE": "None", "DOCUMENT_CORRESPONDENT": "None", "DOCUMENT_OWNER": "None", "TASK_ID": "t"})
    return run([HOOK], env=env, label=f"hook DOCUMENT_ID={doc_id!r}")


def run_cli(tmp_path: Path, fake: FakePaperless | None, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = base_env(tmp_path, url=fake.url if fake is not None else None, **extra)
    return run([CLI, *args], env=env, label="paperless-dedupe " + " ".join(args))


def new_fake(**kw: Any) -> FakePaperless:
    kw.setdefault("token", CANARY)
    return FakePaperless(**kw).start()


def assert_nothing_deleted(fake: FakePaperless) -> None:
    deletes = fake.requests_for("DELETE")
    assert not deletes, f"a DELETE reached Paperless: {[r.path for r in deletes]}"
    assert not fake.trash, f"documents were moved to the trash: {sorted(fake.trash)}"
    assert not [r for r in fake.requests if r.method == "POST" and isinstance(r.json, dict)
                and r.json.get("method") == "delete"], "a bulk_edit delete reached Paperless"


# -- a seeded corpus --------------------------------------------------------------

_ONSETS = ("b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z",
           "br", "st", "tr", "pl", "gr", "sch", "kl")
_VOWELS = ("a", "e", "i", "o", "u", "au", "ei", "ie", "oa")
_OCR = (("m", "rn"), ("l", "1"), ("o", "0"), ("w", "vv"), ("e", "c"), ("d", "cl"), ("i", "l"))


def vocabulary(rng: random.Random, size: int = 4000) -> list[str]:
    found: set[str] = set()
    while len(found) < size:
        found.add("".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(rng.randint(2, 4))))
    return sorted(found)


def prose(rng: random.Random, vocab: Sequence[str], words: int) -> str:
    ws = [rng.choice(vocab) for _ in range(words)]
    return "\n".join(" ".join(ws[i : i + 10]).capitalize() + "." for i in range(0, words, 10))


def ocr_twin(rng: random.Random, vocab: Sequence[str], base: str, *, light: bool = False) -> str:
    """A re-scan: a few glyph confusions, one word misread, one word lost (``light``:
    only the glyph confusions, so that two re-scans of one page stay alike too)."""
    ws = base.split(" ")
    for _ in range(2 if light else 4):
        i = rng.randrange(len(ws))
        old, new = rng.choice(_OCR)
        ws[i] = ws[i].replace(old, new, 1)
    if not light:
        ws[rng.randrange(len(ws))] = rng.choice(vocab)
        del ws[rng.randrange(len(ws))]
    return " ".join(ws)


@dataclass
class Corpus:
    docs: list[dict[str, Any]]
    groups: list[list[int]]  # each a sorted list of ids that are near-duplicates of each other
    short: list[int] = field(default_factory=list)  # below min_words: compared only by core.short's rule

    @property
    def pairs(self) -> set[tuple[int, int]]:
        return {(a, b) for g in self.groups for i, a in enumerate(g) for b in g[i + 1 :]}

    def older(self, doc_id: int) -> set[int]:
        """The older partners the note/link of ``doc_id`` must name."""
        return {a for a, b in self.pairs if b == doc_id}

    def partners(self, doc_id: int) -> set[int]:
        return {x for a, b in self.pairs if doc_id in (a, b) for x in (a, b) if x != doc_id}

    def write_jsonl(self, path: Path, ids: Sequence[int] | None = None) -> Path:
        keep = None if ids is None else set(ids)
        with path.open("w", encoding="utf-8") as fh:
            for d in self.docs:
                if keep is None or d["id"] in keep:
                    fh.write(json.dumps(d, ensure_ascii=False) + "\n")
        return path


def corpus(seed: int, *, documents: int = 400, pairs: int = 50, triples: int = 0, short: int = 0,
           words: int = 80) -> Corpus:
    """``documents`` documents with random ids 1..documents: ``pairs`` twin pairs, ``triples``
    groups of three, ``short`` documents under min_words, the rest unrelated prose."""
    rng = random.Random(seed)
    vocab = vocabulary(rng)
    texts: list[tuple[str, int]] = []  # (content, group number or -1)
    group_of: list[int] = []
    n_groups = 0
    for size, count in ((2, pairs), (3, triples)):
        for _ in range(count):
            base = prose(rng, vocab, words + rng.randint(-10, 10))
            texts.append((base, n_groups))
            for _ in range(size - 1):
                texts.append((ocr_twin(rng, vocab, base, light=size > 2), n_groups))
            n_groups += 1
    for _ in range(short):
        texts.append((" ".join(rng.choice(vocab) for _ in range(rng.randint(0, 12))), -2))
    while len(texts) < documents:
        texts.append((prose(rng, vocab, rng.randint(40, 140)), -1))
    ids = list(range(1, len(texts) + 1))
    rng.shuffle(ids)
    docs, members, short_ids = [], [[] for _ in range(n_groups)], []
    for doc_id, (content, group) in zip(ids, texts, strict=True):
        docs.append({"id": doc_id, "title": f"Document {doc_id} {vocab[doc_id % len(vocab)]}", "content": content})
        if group >= 0:
            members[group].append(doc_id)
        elif group == -2:
            short_ids.append(doc_id)
        group_of.append(group)
    docs.sort(key=lambda d: d["id"])
    return Corpus(docs=docs, groups=[sorted(m) for m in members], short=sorted(short_ids))


def offline_pairs(lib: Corpus) -> set[tuple[int, int]]:
    """The pairs the detection itself finds in ``lib`` (default configuration, no
    Paperless, no index): the tests' ground truth must agree with it, or a failure
    would blame concurrency for a scoring change."""
    from paperless_dedupe_hook import config as config_mod
    from paperless_dedupe_hook.engine import settings_from_config
    from paperless_dedupe_hook.rebuild import Document, analyse

    settings = settings_from_config(config_mod.load(config_path=None, env={"PAPERLESS_DEDUPE_CONFIG": "/dev/null"}))
    docs = [Document(d["id"], d["content"], d["title"]) for d in lib.docs]
    return {(p.a, p.b) for p in analyse(docs, settings, workers=1).matches}


# -- the index, read from outside -------------------------------------------------

def index_health(path: Path, *, allow_missing: bool = False) -> dict[str, Any]:
    """Open ``path`` read-only and check it: raises AssertionError when inconsistent.

    Returns ``{"documents": [ids], "annotations": {...}, "dismissed": {...}, "meta": {...}}``.
    ``allow_missing``: a file that does not exist yet, or holds no tables yet (a
    process was killed while creating it), counts as an empty index.
    """
    empty: dict[str, Any] = {"documents": [], "annotations": {}, "dismissed": set(), "meta": {}}
    if allow_missing and not path.exists():
        return empty
    journal = path.with_name(path.name + "-journal")
    if journal.exists() and journal.stat().st_size > 0:
        # A hot rollback journal: a run killed inside a write outside WAL mode (the swap
        # leaves the new file in DELETE mode; the next opener's switch to WAL is a write).
        # A read-only connection cannot roll it back, which made this check flaky; the
        # product's next read-write open does, so do just that first.
        recover = sqlite3.connect(path, timeout=30)
        try:
            recover.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            recover.close()
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if allow_missing and not tables:
            return empty
        ids = [r[0] for r in conn.execute("SELECT id FROM documents ORDER BY id")]
        assert len(ids) == len(set(ids))
        banded = {r[0] for r in conn.execute("SELECT DISTINCT doc_id FROM bands")}
        assert banded <= set(ids), f"bands of documents not in the index: {sorted(banded - set(ids))[:10]}"
        unbanded = [r[0] for r in conn.execute("SELECT id FROM documents WHERE signature IS NOT NULL")
                    if r[0] not in banded]
        assert not unbanded, f"comparable documents without bands: {unbanded[:10]}"
        expected: Counter[str] = Counter()
        for (tokens,) in conn.execute("SELECT tokens FROM documents"):
            expected.update(t for t in tokens.split("\n") if t)
        stored = dict(conn.execute("SELECT token, df FROM token_df").fetchall())
        assert stored == dict(expected), "token_df disagrees with the documents' tokens"
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        annotations: dict[int, set[int]] = {}
        for doc_id, match_id in conn.execute("SELECT doc_id, match_id FROM annotations"):
            annotations.setdefault(doc_id, set()).add(match_id)
        dismissed = {(a, b) for a, b in conn.execute("SELECT a, b FROM dismissed")}
        return {"documents": ids, "annotations": annotations, "dismissed": dismissed, "meta": meta}
    finally:
        conn.close()


# -- what landed in Paperless ----------------------------------------------------

NOTE_HEADER = "Possible duplicate (paperless-dedupe-hook):"


def our_tag(fake: FakePaperless) -> int | None:
    return next((t["id"] for t in fake.tags.values() if t["name"] == "possible-duplicate"), None)


def our_field(fake: FakePaperless) -> int | None:
    return next((f["id"] for f in fake.custom_fields.values() if f["name"] == "Possible duplicates"), None)


def annotation_state(fake: FakePaperless) -> dict[int, dict[str, Any]]:
    """Per document: our tag?, the ids each of our notes names, the link field value."""
    import re

    tag, fid = our_tag(fake), our_field(fake)
    out: dict[int, dict[str, Any]] = {}
    with fake.lock:
        for doc_id, rec in fake.documents.items():
            notes = [sorted({int(x) for x in re.findall(r"#(\d+)\b", n["note"])})
                     for n in rec["notes"] if n["note"].startswith(NOTE_HEADER)]
            links = next((list(i["value"] or []) for i in rec["custom_fields"] if i["field"] == fid), [])
            out[doc_id] = {"tagged": tag in rec["tags"], "notes": notes, "links": links,
                           "all_notes": len(rec["notes"]), "tags": list(rec["tags"])}
    return out


def check_annotations(fake: FakePaperless, expected: Corpus) -> list[str]:
    """Problems (empty when fine): every true pair annotated on its newer document,
    named exactly once, nothing else tagged, links = partners (Paperless adds reverse links)."""
    state = annotation_state(fake)
    problems = []
    for doc_id, st in sorted(state.items()):
        older = expected.older(doc_id)
        named = [x for note in st["notes"] for x in note]
        if sorted(named) != sorted(older):
            problems.append(f"#{doc_id}: notes name {sorted(named)}, expected {sorted(older)}")
        if st["tagged"] != bool(older):
            problems.append(f"#{doc_id}: tagged={st['tagged']}, expected {bool(older)}")
        if sorted(set(st["links"])) != sorted(expected.partners(doc_id)) or len(st["links"]) != len(set(st["links"])):
            problems.append(f"#{doc_id}: links {st['links']}, expected {sorted(expected.partners(doc_id))}")
    return problems


# -- one concurrent "hook process" -----------------------------------------------

WORKER = r'''
import json, os, subprocess, sys, time
ids = [int(x) for x in sys.argv[1].split(",")]
go_file, result_file, mode, hook = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
from paperless_dedupe_hook import hook as hook_mod  # imported before the start signal
open(result_file + ".ready", "w").close()
while not os.path.exists(go_file):
    time.sleep(0.002)
codes, errors, times, spans = [], [], [], []
for doc_id in ids:
    t0 = time.monotonic()
    wall0 = time.time()
    if mode == "spawn":
        env = dict(os.environ, DOCUMENT_ID=str(doc_id))
        out = subprocess.run([hook], env=env, capture_output=True, text=True, timeout=300)
        codes.append(out.returncode)
        sys.stdout.write(out.stdout)
        sys.stderr.write(out.stderr)
    else:
        os.environ["DOCUMENT_ID"] = str(doc_id)
        codes.append(hook_mod.main())
    times.append(time.monotonic() - t0)
    spans.append((wall0, time.time()))
sys.stdout.flush(); sys.stderr.flush()
with open(result_file, "w") as fh:
    json.dump({"codes": codes, "times": times, "spans": spans}, fh)
'''


@dataclass
class WorkerResult:
    ids: list[int]
    returncode: int
    stdout: str
    stderr: str
    codes: list[int]
    times: list[float]
    spans: list[tuple[float, float]] = field(default_factory=list)  # wall-clock (start, end) per document


def run_concurrent_hooks(tmp_path: Path, fake_url: str, batches: Sequence[Sequence[int]], *,
                         mode: str = "inprocess", extra_env: dict[str, str] | None = None,
                         timeout: float = 600) -> list[WorkerResult]:
    """Start one worker process per batch, all released at the same instant."""
    import time

    env = base_env(tmp_path, url=fake_url, **(extra_env or {}))
    env.update({"DOCUMENT_TYPE": "None", "DOCUMENT_CORRESPONDENT": "None", "TASK_ID": "t"})
    go = tmp_path / "workers-go"
    procs = []
    for n, batch in enumerate(batches):
        result_file = tmp_path / f"worker-{n}.json"
        cmd = [sys.executable, "-c", WORKER, ",".join(map(str, batch)), str(go), str(result_file), mode, HOOK]
        procs.append((batch, result_file, subprocess.Popen(cmd, env=env, cwd="/", stdout=subprocess.PIPE,
                                                            stderr=subprocess.PIPE, text=True, errors="replace")))
    deadline = time.monotonic() + 120
    while not all(Path(f"{rf}.ready").exists() or p.poll() is not None for _b, rf, p in procs):
        assert time.monotonic() < deadline, "workers did not start"
        time.sleep(0.01)
    go.touch()  # all released at once
    results = []
    for batch, result_file, proc in procs:
        stdout, stderr = proc.communicate(timeout=timeout)
        record(f"worker {batch[:3]}... stdout", stdout)
        record(f"worker {batch[:3]}... stderr", stderr)
        data = json.loads(result_file.read_text()) if result_file.exists() else {"codes": [], "times": []}
        results.append(WorkerResult(list(batch), proc.returncode, stdout, stderr, data["codes"], data["times"],
                                    [tuple(s) for s in data.get("spans", [])]))
    return results


def hook_in_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp: Path, url: str, doc_id: object,
    label: str, **env: str,
) -> tuple[int, str, str, float]:
    """Run ``hook.main()`` in this process (so tests can patch its clock or its client),
    with the environment Paperless gives it: (exit code, stdout, stderr, seconds).
    ``doc_id`` None leaves DOCUMENT_ID unset."""
    import time

    from paperless_dedupe_hook import hook

    with monkeypatch.context() as m:
        for key in [k for k in os.environ if k.startswith(("PAPERLESS_", "DOCUMENT_"))]:
            m.delenv(key)
        m.setenv("XDG_CONFIG_HOME", str(tmp / "cfg"))
        m.setenv("PAPERLESS_DEDUPE_URL", url)
        m.setenv("PAPERLESS_DEDUPE_TOKEN", CANARY)
        m.setenv("PAPERLESS_DEDUPE_INDEX", str(tmp / "index.sqlite3"))
        if doc_id is not None:
            m.setenv("DOCUMENT_ID", str(doc_id))
        for key, value in env.items():
            m.setenv(key, value)
        capsys.readouterr()
        started = time.monotonic()
        code = hook.main()
        elapsed = time.monotonic() - started
        out, err = capsys.readouterr()
    record(f"{label} {doc_id!r} stdout", out)
    record(f"{label} {doc_id!r} stderr", err)
    return code, out, err, elapsed
