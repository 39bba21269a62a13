"""``rebuild-index``: from JSONL at several sizes, from the (fake) Paperless API, and
``--incremental`` after 1 % of the documents changed.

    python -m bench.bench_rebuild --sizes 10000,100000 --api-size 100000

* ``--from-jsonl`` at each size: wall time, peak memory of the process tree (PSS,
  sampled every 50 ms, so pages that forked workers share count once) and of the
  largest single process (``getrusage``), index file size and what fills it; the
  growth from the smallest to the largest size.
* From the API: a fake Paperless (``tests.fake_paperless``) in this process serves
  the ``--api-size`` corpus on loopback; ``rebuild-index`` fetches and indexes it:
  documents/s and requests made.
* ``--incremental``: then 1 % of the documents change in the fake (new text,
  ``modified`` bumped) and ``rebuild-index --incremental`` runs; its time against the
  full API rebuild's.

Each leaves ``<data>/index-<N>.sqlite3`` behind for ``bench.bench_hook``.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from bench._common import DEFAULT_DATA, REPO, cli, log, machine, run, save, write_config
from bench.synthetic import Generator, ensure_corpus


def index_breakdown(path: Path) -> dict[str, Any]:
    """Bytes per table (SQLite's dbstat, when compiled in) and per documents column."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out: dict[str, Any] = {"file_bytes": path.stat().st_size}
    try:
        out["tables_bytes"] = dict(conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"))
    except sqlite3.Error:
        out["tables_bytes"] = None
    n = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    out["documents"] = n
    out["avg_column_bytes"] = {
        col: conn.execute(f"SELECT avg(length({col})) FROM documents").fetchone()[0]  # noqa: S608 - fixed names
        for col in ("signature", "tokens", "fingerprint", "title", "modified")
    }
    out["band_rows_per_document"] = conn.execute("SELECT count(*) FROM bands").fetchone()[0] / max(1, n)
    out["bytes_per_document"] = out["file_bytes"] / max(1, n)
    conn.close()
    return out


def rebuild_jsonl(data: Path, n: int) -> dict[str, Any]:
    corpus = ensure_corpus(data, n)
    index = data / f"index-{n}.sqlite3"
    for stale in (index, index.with_name(index.name + "-wal"), index.with_name(index.name + "-shm")):
        stale.unlink(missing_ok=True)
    cfg = write_config(data / f"cfg-jsonl-{n}.toml", index=index)
    argv = [cli("paperless-dedupe"), "--config", str(cfg), "-q", "rebuild-index", "--from-jsonl", str(corpus), "--json"]
    # Two runs: the timed one without the memory sampler, whose reads of /proc/*/smaps_rollup
    # every 50 ms take a share of the two cores (measured: ~5 % of a 100k rebuild's wall time),
    # then one for the peak memory.
    r = run(argv, timeout=3600, sample_rss=False)
    if r.returncode != 0:
        raise RuntimeError(f"rebuild-index --from-jsonl failed ({r.returncode}): {r.stderr[-2000:]}")
    summary = json.loads(r.stdout)
    sampled = run(argv, timeout=3600)
    if sampled.returncode != 0:
        raise RuntimeError(f"rebuild-index --from-jsonl failed ({sampled.returncode}): {sampled.stderr[-2000:]}")
    return {
        "documents": n,
        "wall_s": r.wall,
        "cpu_s": r.cpu,
        "load_average_at_end": r.load,
        "docs_per_s": n / r.wall,
        "wall_s_while_sampling_memory": sampled.wall,
        "tree_peak_pss_mb": sampled.tree_peak_rss / 1e6,
        "largest_process_rss_mb": sampled.max_rss / 1e6,
        "candidates": summary["candidates"],
        "pairs": summary["pairs"],
        "groups": len(summary["groups"]),
        "index": index_breakdown(index),
    }


def _changed_text(content: str, rng: random.Random) -> str:
    words = content.split(" ")
    for _ in range(max(1, len(words) // 20)):  # 5 % of the words replaced: a real edit
        words[rng.randrange(len(words))] = rng.choice(("geändert", "amended", "Nachtrag", "revised"))
    return " ".join(words)


def rebuild_api(data: Path, n: int, *, change_share: float = 0.01) -> dict[str, Any]:
    sys.path.insert(0, str(REPO))
    from tests.fake_paperless import FakePaperless

    corpus = ensure_corpus(data, n)
    index = data / f"index-api-{n}.sqlite3"
    for stale in (index, index.with_name(index.name + "-wal"), index.with_name(index.name + "-shm")):
        stale.unlink(missing_ok=True)
    fake = FakePaperless(token="bench-token")
    started = time.perf_counter()
    fake.load_jsonl(corpus)
    log(f"  fake Paperless holds {len(fake.documents):,} documents (loaded in {time.perf_counter() - started:.1f} s)")
    fake.start()
    try:
        cfg = write_config(data / f"cfg-api-{n}.toml", index=index, url=fake.url, token=fake.token)
        argv = [cli("paperless-dedupe"), "--config", str(cfg), "-q", "rebuild-index", "--json"]
        fake.clear_log()
        full = run(argv, timeout=3600)
        if full.returncode != 0:
            raise RuntimeError(f"rebuild-index (API) failed ({full.returncode}): {full.stderr[-2000:]}")
        full_requests = len(fake.requests)
        full_summary = json.loads(full.stdout)

        rng = random.Random(11)
        changed = rng.sample(sorted(fake.documents), int(n * change_share))
        with fake.lock:
            for doc_id in changed:
                record = fake.documents[doc_id]
                record["content"] = _changed_text(record["content"], rng)
                fake._bump(record)  # noqa: SLF001 - the fake's own way to move ``modified``
        fake.clear_log()
        inc = run([*argv[:-1], "--incremental", "--json"], timeout=3600)
        if inc.returncode != 0:
            raise RuntimeError(f"rebuild-index --incremental failed ({inc.returncode}): {inc.stderr[-2000:]}")
        inc_requests = len(fake.requests)
        inc_summary = json.loads(inc.stdout)
    finally:
        fake.stop()
    size = index.stat().st_size
    return {
        "documents": n,
        "full": {
            "wall_s": full.wall,
            "cpu_s": full.cpu,
            "load_average_at_end": full.load,
            "docs_per_s": n / full.wall,
            "requests": full_requests,
            "tree_peak_pss_mb": full.tree_peak_rss / 1e6,
            "largest_process_rss_mb": full.max_rss / 1e6,
            "pairs": full_summary["pairs"],
        },
        "incremental": {
            "changed": len(changed),
            "wall_s": inc.wall,
            "cpu_s": inc.cpu,
            "load_average_at_end": inc.load,
            "requests": inc_requests,
            "tree_peak_pss_mb": inc.tree_peak_rss / 1e6,
            "pairs": inc_summary["pairs"],
            "documents_after": inc_summary["documents"],
        },
        "incremental_vs_full": inc.wall / full.wall,
        "incremental_vs_full_cpu": inc.cpu / full.cpu if full.cpu else None,
        "index_bytes": size,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_rebuild", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="--from-jsonl sizes")
    parser.add_argument("--api-size", type=int, default=None, help="API and --incremental size (default: the largest)")
    parser.add_argument("--skip-api", action="store_true")
    parser.add_argument("--api-only", action="store_true",
                        help="only the API and --incremental run; keep the --from-jsonl results already saved")
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    data = Path(args.data)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    out = Path(args.out) if args.out else data / "results-rebuild.json"
    results: dict[str, Any] = {"machine": machine(), "jsonl": {}}
    if args.api_only and out.exists():
        results = json.loads(out.read_text(encoding="utf-8")) | {"machine": machine()}
    Generator()  # fail early on a broken generator
    for n in [] if args.api_only else sizes:
        log(f"rebuild-index --from-jsonl: {n:,} documents")
        r = rebuild_jsonl(data, n)
        results["jsonl"][str(n)] = r
        log(f"  {r['wall_s']:.1f} s wall ({r['docs_per_s']:,.0f} docs/s; {r['cpu_s']:.0f} CPU s; "
            f"load average {r['load_average_at_end']:.1f}), peak {r['tree_peak_pss_mb']:,.0f} MB "
            f"(PSS, process tree; largest process {r['largest_process_rss_mb']:,.0f} MB RSS), "
            f"index {r['index']['file_bytes'] / 1e6:,.0f} MB, {r['pairs']} pairs")
        save(results, out)  # after each step: a long run stopped keeps what it measured
    if len(sizes) > 1 and not args.api_only:
        lo, hi = results["jsonl"][str(sizes[0])], results["jsonl"][str(sizes[-1])]
        results["growth"] = {"from": sizes[0], "to": sizes[-1], "documents_ratio": sizes[-1] / sizes[0],
                             "wall_ratio": hi["wall_s"] / lo["wall_s"],
                             "cpu_ratio": hi["cpu_s"] / lo["cpu_s"] if lo["cpu_s"] else None}
        log(f"  growth {sizes[0]:,} -> {sizes[-1]:,}: {results['growth']['wall_ratio']:.1f}x the time")
    if not args.skip_api:
        n = args.api_size or max(sizes)
        log(f"rebuild-index from the API (fake Paperless on loopback), then --incremental: {n:,} documents")
        api = rebuild_api(data, n)
        results["api"] = api
        log(f"  full: {api['full']['wall_s']:.1f} s ({api['full']['docs_per_s']:,.0f} docs/s fetched and indexed, "
            f"{api['full']['requests']} requests); incremental after {api['incremental']['changed']} changes: "
            f"{api['incremental']['wall_s']:.1f} s ({api['incremental']['requests']} requests) = "
            f"{api['incremental_vs_full'] * 100:.1f} % of the full rebuild")
    save(results, out)
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
