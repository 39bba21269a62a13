"""The hook for a new member of a template series, on a realistic archive (issue 12).

    python -m bench.bench_hook --realistic DIR --index PATH [--repeat 15] [--compare-tree TREE] [--family KIND]

``DIR`` is an archive of ``python -m bench.corpus.realistic`` and ``PATH`` the index of all
of its documents (``paperless-dedupe rebuild-index --from-jsonl DIR/docs.jsonl``, default
settings; the benchmark never writes to it).  The largest template family of the archive
(``doc_meta.jsonl``: its ``series``; with ``--family KIND`` the largest of that kind) gives the
documents the hook checks: its newest members that have no duplicate are taken out of a copy
of the index, so each is a *new* member of a series of ~120 whose other members are indexed.
A fake Paperless (``tests.fake_paperless``) in this process serves every document of the
archive on loopback, so the hook fetches the texts of its candidates as it would from
Paperless.  The package is byte-compiled first, as ``pip install`` does (with
PYTHONDONTWRITEBYTECODE set, each run would compile our modules from source again).

Interleaved, each a fresh process timed from fork to reaped exit, a floor before each hook
(a hook writes the index and checkpoints it as it closes), which hook goes first alternating:

* **hook**: ``paperless-dedupe-hook`` with ``DOCUMENT_ID`` of the round's held-out member (every
  round another one); afterwards the document is taken out of the index again (untimed, by the
  index's own ``remove``), so every round starts from the same documents;
* **third-party floor**: ``python -c "import httpx, numpy, rapidfuzz, sqlite3"``;
* **old floor**: those and the package's own modules that ``hook.run`` loads (``FLOOR_IMPORTS``
  of ``bench_hook``), the floor of the earlier benchmark;
* with ``--compare-tree TREE``, the hook of another source tree (``git archive main | tar -x
  -C TREE``, the built C kernel copied in) on the same document, and this tree's hook the same
  way (``python -P -c`` with ``PYTHONPATH``; each run checks which tree it imported): before
  and after a change in one run.  ``--compare-index PATH``: the index that tree's hook reads
  (built by that tree's ``rebuild-index``; needed when this tree's index has a newer schema
  than that tree opens): its held-out members are taken out by that tree's own code, and a
  pristine copy is put back after each of its runs (untimed).

Reported: median, min and max of each, the hook's ratio to each floor, and the HTTP requests of
each hook run as the fake logged them, by method and path (ids replaced by ``{id}``), with the
requests for candidate texts (a document list filtered by ``id__in``) counted apart.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench._common import REPO, cli, compile_bytecode, log, median, save, time_once, write_config

THIRD_PARTY_FLOOR = "import httpx, numpy, rapidfuzz, sqlite3"
# The hook's console script for the tree given as its argument and put first on PYTHONPATH (run
# with -P: "python -c" would otherwise put the working directory, this tree, before it).
HOOK_FROM_TREE = (
    "import sys; tree = sys.argv.pop(1); import paperless_dedupe_hook as p; "
    "assert p.__file__.startswith(tree), f'{p.__file__} is not from {tree}'; "
    "from paperless_dedupe_hook.hook import main; sys.exit(main())"
)


def largest_family(meta_path: Path, kind: str | None = None) -> tuple[str, list[int], list[int]]:
    """(kind, all member ids, members without a duplicate) of the archive's largest series
    (of that kind)."""
    members: dict[int, list[int]] = {}
    single: dict[int, list[int]] = {}
    kinds: dict[int, str] = {}
    with meta_path.open(encoding="utf-8") as fh:
        for line in fh:
            m = json.loads(line)
            series = m.get("series")
            if series is None:
                continue
            members.setdefault(series, []).append(m["id"])
            kinds.setdefault(series, m["role"])
            if m.get("group") is None and m["role"] == kinds[series]:
                single.setdefault(series, []).append(m["id"])
    series = [s for s in members if kind is None or kinds[s] == kind]
    if not series:
        raise SystemExit(f"{meta_path} has no series of kind {kind!r}: kinds are {sorted(set(kinds.values()))}")
    best = max(series, key=lambda s: (len(single.get(s, [])), -s))
    return kinds[best], sorted(members[best]), sorted(single.get(best, []))


def _path_key(path: str) -> str:
    return re.sub(r"/\d+(?=/)", "/{id}", path)


def _requests_of(fake: Any) -> dict[str, Any]:
    """What one hook run asked the fake for: requests by method and path, and the
    candidate-text requests (document lists filtered by id__in) with their ids."""
    by_path = Counter(f"{r.method} {_path_key(r.path)}" for r in fake.requests)
    texts = [r for r in fake.requests if r.method == "GET" and r.path.endswith("/api/documents/") and r.param("id__in")]
    return {
        "total": len(fake.requests),
        "by_path": dict(sorted(by_path.items())),
        "candidate_text_requests": len(texts),
        "candidate_texts_fetched": sum(len((r.param("id__in") or "").split(",")) for r in texts),
    }


def instructions_of(argv: list[str], *, env: dict[str, str] | None) -> int:
    """Instructions one run executes (valgrind's cachegrind, ``I refs``): the same on a
    loaded machine as on an idle one, where wall and CPU times are not."""
    proc = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *argv],
                          env=env, cwd=REPO, capture_output=True, text=True, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    if proc.returncode != 0 or found is None or "WARNING" in proc.stderr:
        raise RuntimeError(f"valgrind {argv[-1][:60]} failed ({proc.returncode}): {proc.stderr[-800:]}")
    return int(found.group(1).replace(",", ""))


def _stats(runs: list[tuple[float, float]]) -> dict[str, float]:
    walls = [w for w, _ in runs]
    return {"median_s": median(walls), "min_s": min(walls), "max_s": max(walls),
            "cpu_median_s": median([c for _, c in runs]), "runs": len(runs)}


def bench_realistic(corpus: Path, index_path: Path, *, repeat: int, compare_tree: Path | None = None,
                    work_root: Path | None = None, floor_imports: str, kind: str | None = None,
                    instructions: int = 0, compare_index: Path | None = None) -> dict[str, Any]:
    sys.path.insert(0, str(REPO))
    from paperless_dedupe_hook.index.sqlite import SqliteIndex
    from tests.fake_paperless import FakePaperless

    kind, family, single = largest_family(corpus / "doc_meta.jsonl", kind)
    warm = 2
    if len(single) < repeat + warm:
        raise SystemExit(f"the largest family of {corpus} has {len(single)} members without a duplicate: "
                         f"fewer than --repeat {repeat} + {warm} warm-up runs")
    held_out = single[-(repeat + warm):]  # the newest members: next month's statement, payslip ...
    if work_root is not None:
        work_root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="hook-realistic-", dir=work_root))
    index = work / "index.sqlite3"
    shutil.copyfile(index_path, index)
    with SqliteIndex(index) as idx:
        indexed_before = idx.count()
        missing = [i for i in held_out if idx.fingerprint(i) is None]
        if missing:
            raise SystemExit(f"{index_path} does not hold documents {missing[:5]} of {corpus}: "
                             "build it with 'paperless-dedupe rebuild-index --from-jsonl DIR/docs.jsonl'")
        with idx.write():
            for doc_id in held_out:
                idx.remove(doc_id)
        indexed = idx.count()
    log(f"  largest family: {kind}, {len(family)} documents ({len(single)} without a duplicate); "
        f"{len(held_out)} of them taken out of the index: {indexed:,} of {indexed_before:,} documents indexed")

    before_index = work / "index-before.sqlite3"
    pristine = work / "index-before-pristine.sqlite3"
    if compare_index is not None and compare_tree is not None:
        shutil.copyfile(compare_index, pristine)
        taken = ("import sys; from paperless_dedupe_hook.index.sqlite import SqliteIndex\n"
                 "with SqliteIndex(__import__('pathlib').Path(sys.argv[1])) as idx, idx.write():\n"
                 "    [idx.remove(int(i)) for i in sys.argv[2:]]\n")
        subprocess.run([sys.executable, "-P", "-c", taken, str(pristine), *map(str, held_out)], check=True,
                       env=dict(os.environ, PYTHONPATH=str(compare_tree.resolve())))
        import sqlite3

        conn = sqlite3.connect(pristine)  # one file to copy back: no -wal beside it
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.close()
        shutil.copyfile(pristine, before_index)

    def restore(doc_id: int, name: str = "hook") -> None:
        if name == "hook_before" and compare_index is not None:
            for suffix in ("-wal", "-shm"):
                before_index.with_name(before_index.name + suffix).unlink(missing_ok=True)
            shutil.copyfile(pristine, before_index)
            return
        with SqliteIndex(index) as idx, idx.write():
            idx.remove(doc_id)
            if idx.count() != indexed:
                raise RuntimeError(f"the index holds {idx.count()} documents after removing {doc_id}, not {indexed}")

    fake = FakePaperless(token="bench-token")
    loaded = fake.load_jsonl(corpus / "docs.jsonl")
    log(f"  fake Paperless holds {len(loaded):,} documents")
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_DEDUPE_", "DOCUMENT_"))}
    base_env.pop("PAPERLESS_REDIS", None)
    argv: dict[str, list[str]] = {
        "third_party_floor": [sys.executable, "-c", THIRD_PARTY_FLOOR],
        "old_floor": [sys.executable, "-c", floor_imports],
    }
    trees: dict[str, str] = {}
    if compare_tree is not None:
        # Both trees' hooks the same way: python -c, the tree first on PYTHONPATH.
        trees = {"hook_before": str(compare_tree.resolve()), "hook": str(REPO)}
        for name, tree in trees.items():
            argv[name] = [sys.executable, "-P", "-c", HOOK_FROM_TREE, tree]
    else:
        argv["hook"] = [cli("paperless-dedupe-hook")]
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in argv}
    requests: dict[str, list[dict[str, Any]]] = {name: [] for name in argv if name.startswith("hook")}
    outputs: dict[str, list[str]] = {name: [] for name in requests}
    with fake:
        # (a hook under valgrind takes ~30 s: the time limit must not cut it short)
        cfg = write_config(work / "config.toml", index=index, url=fake.url, token=fake.token,
                           extra="[hook]\ntimeout_seconds = 900\n")
        env = dict(base_env, PAPERLESS_DEDUPE_CONFIG=str(cfg))
        before_cfg = write_config(work / "config-before.toml", index=before_index, url=fake.url, token=fake.token,
                                  extra="[hook]\ntimeout_seconds = 900\n")

        def hook_env(name: str, doc_id: int) -> dict[str, str]:
            extra = {"PYTHONPATH": trees[name]} if name in trees else {}
            if name == "hook_before" and compare_index is not None:
                extra["PAPERLESS_DEDUPE_CONFIG"] = str(before_cfg)
            return dict(env, DOCUMENT_ID=str(doc_id), **extra)

        def timed(name: str, doc_id: int, record: bool = True) -> None:
            if not name.startswith("hook"):
                wall, cpu, _ = time_once(argv[name])
            else:
                fake.clear_log()
                wall, cpu, out = time_once(argv[name], env=hook_env(name, doc_id))
                restore(doc_id, name)
                if record:
                    requests[name].append(_requests_of(fake))
                    outputs[name].append(out.strip())
            if record:
                results[name].append((wall, cpu))

        for doc_id in held_out[:warm]:  # the page cache, the fake's first answers
            for name in argv:
                timed(name, doc_id, record=False)
        for k, doc_id in enumerate(held_out[warm:]):
            # A floor between two hooks (the one before writes the index and checkpoints it);
            # which hook goes first alternates.
            hooks = [name for name in argv if name.startswith("hook")][:: 1 if k % 2 == 0 else -1]
            for name in ["third_party_floor", hooks[0], "old_floor", *hooks[1:]]:
                timed(name, doc_id)
        counted: dict[str, list[int]] = {name: [] for name in argv}
        for doc_id in held_out[warm : warm + instructions]:
            for name in argv:
                env_k = hook_env(name, doc_id) if name.startswith("hook") else None
                counted[name].append(instructions_of(argv[name], env=env_k))
                if name.startswith("hook"):
                    restore(doc_id, name)
    shutil.rmtree(work, ignore_errors=True)
    third, old = median([w for w, _ in results["third_party_floor"]]), median([w for w, _ in results["old_floor"]])
    out: dict[str, Any] = {
        "corpus": str(corpus), "index": str(index_path), "family_kind": kind, "family_size": len(family),
        "documents_indexed": indexed, "held_out": held_out[warm:],
        "runs": {name: _stats(r) for name, r in results.items()},
        "load_average": os.getloadavg(),
    }
    if instructions:
        out["instructions"] = {name: median([float(v) for v in c]) for name, c in counted.items()}
        out["instruction_runs"] = instructions
    for name in requests:
        hook = median([w for w, _ in results[name]])
        per_run = requests[name]
        out[name] = {
            "vs_third_party_floor": hook / third, "vs_old_floor": hook / old,
            "cpu_vs_third_party_floor": out["runs"][name]["cpu_median_s"] / out["runs"]["third_party_floor"]["cpu_median_s"],
            "requests_per_run": per_run,
            "max_candidate_text_requests": max(r["candidate_text_requests"] for r in per_run),
            "output_examples": outputs[name][:3],
        }
    return out


def report(r: dict[str, Any], say: Callable[[str], None] = log) -> None:
    runs = r["runs"]

    def ms(name: str) -> str:
        s = runs[name]
        return (f"median {s['median_s'] * 1e3:.0f} ms (min {s['min_s'] * 1e3:.0f}, max {s['max_s'] * 1e3:.0f}; "
                f"CPU {s['cpu_median_s'] * 1e3:.0f} ms)")

    say(f"  {r['family_kind']} family of {r['family_size']}, {r['documents_indexed']:,} documents indexed, "
        f"{runs['third_party_floor']['runs']} rounds, load average {', '.join(f'{x:.2f}' for x in r['load_average'])}")
    if "instructions" in r:
        ins = r["instructions"]
        say(f"  instructions (valgrind, median of {r['instruction_runs']} runs each): "
            + ", ".join(f"{name} {v / 1e6:,.0f} M = {v / ins['third_party_floor']:.2f}x" for name, v in ins.items()))
    say(f"  third-party floor: {ms('third_party_floor')}")
    say(f"  old floor (also our modules): {ms('old_floor')}")
    for name in ("hook_before", "hook"):
        if name not in r:
            continue
        h = r[name]
        paths = Counter[str]()
        for run in h["requests_per_run"]:
            paths.update(run["by_path"])
        n = len(h["requests_per_run"])
        per_path = ", ".join(f"{p} {c / n:g}" for p, c in sorted(paths.items()))
        say(f"  {name}: {ms(name)} = {h['vs_third_party_floor']:.2f}x the third-party floor, "
            f"{h['vs_old_floor']:.2f}x the old floor (CPU {h['cpu_vs_third_party_floor']:.2f}x)")
        say(f"    requests per run: {per_path}; candidate-text requests at most {h['max_candidate_text_requests']} "
            f"per run, texts fetched per run: {sorted(run['candidate_texts_fetched'] for run in h['requests_per_run'])}")
        say(f"    e.g. {h['output_examples'][0]}")



def main(args: Any, results: dict[str, Any], data: Path, *, floor_imports: str,
         error: Callable[[str], None]) -> dict[str, Any]:
    """``bench_hook --realistic DIR --index PATH [--compare-tree TREE]``."""
    if not args.index:
        error("--realistic needs --index PATH (rebuild-index --from-jsonl DIR/docs.jsonl)")
    compare = Path(args.compare_tree) if args.compare_tree else None
    for tree in (REPO, *([compare] if compare else [])):
        compile_bytecode(tree)
    log(f"hook, realistic archive {args.realistic}, index {args.index}")
    r = bench_realistic(Path(args.realistic), Path(args.index), repeat=args.repeat, compare_tree=compare,
                        work_root=data, floor_imports=floor_imports, kind=args.family,
                        instructions=args.instructions if shutil.which("valgrind") else 0,
                        compare_index=Path(args.compare_index) if getattr(args, "compare_index", None) else None)
    report(r)
    results["realistic"] = r
    save(results, Path(args.out) if args.out else data / "results-hook-realistic.json")
    return results
