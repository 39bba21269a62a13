"""Every benchmark in sequence, then one summary against the targets.

    python -m bench.run_all --sizes 10000,100000 [--signature-sizes 10000,100000,1000000]

Runs, one after the other (never two at once: the figures are for the whole
machine): signatures (``bench.bench_signatures``), ``rebuild-index`` from JSONL at
each size, from the fake Paperless API and ``--incremental`` at the largest size
(``bench.bench_rebuild``), and the cold hook with each size indexed
(``bench.bench_hook``, reusing the indexes the rebuild left; with ``redis-server``
installed, also with ``index.backend = "redis"``, shown beside SQLite's).  Corpora and indexes
go to ``--data`` (default ``$PDBENCH_DATA`` or /tmp/pdbench, about 1 GB per 100k
documents); the results to ``<data>/results-all.json``; the summary, a Markdown
table, to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from bench import bench_hook, bench_rebuild, bench_signatures
from bench._common import DEFAULT_DATA, log, machine, save


def _row(what: str, figure: str, target: str, met: bool | None) -> str:
    verdict = "n/a" if met is None else ("met" if met else "**missed**")
    return f"| {what} | {figure} | {target} | {verdict} |"


def summary(res: dict[str, Any]) -> list[str]:
    rows = ["| what | measured | target | |", "| --- | --- | --- | --- |"]
    sig = res.get("signatures")
    if sig:
        c = sig["comparison"]
        rows.append(_row("signatures, one core (CPU time), ours", f"{c['ours_docs_per_s']:,.0f} docs/s",
                         ">= 3,000 docs/s", c["ours_docs_per_s"] >= 3000))
        rows.append(_row("ours vs `datasketch.MinHash.bulk` (same docs)",
                         f"{c['ours_vs_bulk']:.2f}x ({c['datasketch_bulk_docs_per_s']:,.0f} docs/s)", ">= 2x",
                         c["ours_vs_bulk"] >= 2))
        rows.append(_row("ours vs `MinHash.update` per shingle",
                         f"{c['ours_vs_update']:.1f}x ({c['datasketch_update_docs_per_s']:,.0f} docs/s)", "-", None))
        rows.append(_row("signature values equal to datasketch", f"{c['documents']:,} documents, all equal",
                         "equal", c["values_equal"]))
        for n, r in sig["runs"].items():
            rows.append(_row(f"signatures, {int(n):,} docs, {r['workers']} cores (shingling included)",
                             f"{r['wall_docs_per_s']:,.0f} docs/s ({r['wall_s']:.0f} s)", "-", None))
    reb = res.get("rebuild")
    if reb:
        sizes = sorted(reb["jsonl"], key=int)
        for n in sizes:
            r = reb["jsonl"][n]
            big = int(n) >= 100_000
            rows.append(_row(f"`rebuild-index --from-jsonl`, {int(n):,} docs, wall",
                             f"{r['wall_s']:.1f} s", "<= 90 s at 100k" if big else "-",
                             r["wall_s"] <= 90 if big else None))
            rows.append(_row(f"  peak memory, {int(n):,} docs (PSS of the process tree / largest process RSS)",
                             f"{r['tree_peak_pss_mb']:,.0f} MB / {r['largest_process_rss_mb']:,.0f} MB",
                             "<= 1.5 GB at 100k" if big else "-", r["tree_peak_pss_mb"] <= 1500 if big else None))
            rows.append(_row(f"  index file, {int(n):,} docs", f"{r['index']['file_bytes'] / 1e6:,.0f} MB "
                             f"({r['index']['bytes_per_document']:,.0f} B/doc)", "<= 250 MB at 100k" if big else "-",
                             r["index"]["file_bytes"] <= 250e6 if big else None))
        if "growth" in reb:
            g = reb["growth"]
            # CPU time is the cost; wall time also moves with whatever else the machine runs.
            cpu = g.get("cpu_ratio")
            rows.append(_row(f"  growth {g['from']:,} -> {g['to']:,} docs (CPU time; wall time)",
                             f"{cpu:.1f}x; {g['wall_ratio']:.1f}x" if cpu else f"-; {g['wall_ratio']:.1f}x",
                             f"<= {12 * g['documents_ratio'] / 10:.0f}x",
                             (cpu if cpu else g["wall_ratio"]) <= 1.2 * g["documents_ratio"]))
        api = reb.get("api")
        if api:
            rows.append(_row(f"`rebuild-index` from the API, {api['documents']:,} docs",
                             f"{api['full']['wall_s']:.1f} s, {api['full']['docs_per_s']:,.0f} docs/s, "
                             f"{api['full']['requests']} requests", "-", None))
            rows.append(_row(f"`--incremental` after {api['incremental']['changed']:,} changes",
                             f"{api['incremental']['wall_s']:.1f} s = {api['incremental_vs_full'] * 100:.1f} % of full "
                             f"({api['incremental']['requests']} requests)", "<= 10 %", api["incremental_vs_full"] <= 0.10))
    hook = res.get("hook")
    if hook:
        for n, r in sorted(hook["runs"].items(), key=lambda kv: int(kv[0])):
            big = int(n) >= 100_000
            rows.append(_row(f"hook, {int(n):,} indexed: median (no duplicate / duplicate annotated)",
                             f"{r['hook_median_s'] * 1e3:.0f} ms / {r['hook_duplicate_median_s'] * 1e3:.0f} ms",
                             "<= 0.3 s" if big else "-", r["hook_median_s"] <= 0.3 if big else None))
            rows.append(_row(f"  hook vs import floor ({r['floor_median_s'] * 1e3:.0f} ms)", f"{r['hook_vs_floor']:.2f}x",
                             "<= 1.5x" if big else "-", r["hook_vs_floor"] <= 1.5 if big else None))
            rows.append(_row(f"  pickled `MinHashLSH` ({r['naive_pickle_mb']:,.0f} MB) vs hook",
                             f"{r['naive_median_s'] * 1e3:,.0f} ms = {r['naive_vs_hook']:.1f}x slower",
                             ">= 20x" if big else "-", r["naive_vs_hook"] >= 20 if big else None))
            rows.append(_row("  hook imports SciPy / datasketch", f"{r['imports']['scipy_imported']} / "
                             f"{r['imports']['datasketch_imported']}", "no", not r["imports"]["scipy_imported"]))
            rows.extend(_redis_rows(int(n), r))
    return rows


def _redis_rows(n: int, r: dict[str, Any]) -> list[str]:
    """The hook with ``index.backend = "redis"``, beside SQLite's (results without it: no rows)."""
    rr = r.get("redis")
    if not rr:
        return []
    if "hook_median_s" not in rr:
        return [_row(f"hook, Redis backend, {n:,} indexed", f"skipped: {rr.get('skipped', '?')}", "-", None)]
    return [
        _row(f"hook, Redis backend, {n:,} indexed: median (no duplicate / duplicate annotated)",
             f"{rr['hook_median_s'] * 1e3:.0f} ms / {rr['hook_duplicate_median_s'] * 1e3:.0f} ms "
             f"(min {rr['hook_min_s'] * 1e3:.0f}, max {rr['hook_max_s'] * 1e3:.0f}) = "
             f"{rr['hook_vs_sqlite_hook']:.2f}x the SQLite hook", "-", None),
        _row(f"  Redis hook vs import floor with `redis` ({rr['floor_median_s'] * 1e3:.0f} ms)",
             f"{rr['hook_vs_floor']:.2f}x (CPU time: {rr['hook_vs_floor_cpu']:.2f}x)", "-", None),
        _row(f"  Redis memory, {n:,} docs (`INFO memory` used_memory)",
             f"{rr['used_memory_bytes'] / 1e6:,.1f} MB ({rr['used_memory_per_document_bytes']:,.0f} B/doc "
             "above the empty server)", "-", None),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run_all", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="rebuild and hook sizes")
    parser.add_argument("--signature-sizes", default=None,
                        help="signature run sizes (default: --sizes plus 1,000,000)")
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    parser.add_argument("--repeat", type=int, default=15, help="hook runs per size")
    parser.add_argument("--skip", default="", help="comma list of signatures,rebuild,hook to leave out")
    parser.add_argument("--api-only", action="store_true",
                        help="rebuild: only the API and --incremental run, keeping the saved --from-jsonl results")
    args = parser.parse_args(argv)
    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    sig_sizes = args.signature_sizes or f"{args.sizes},1000000"
    res: dict[str, Any] = {"machine": machine(), "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    started = time.perf_counter()
    if "signatures" not in skip:
        res["signatures"] = bench_signatures.main(["--sizes", sig_sizes, "--out", str(data / "results-signatures.json")])
    if "rebuild" not in skip:
        res["rebuild"] = bench_rebuild.main(["--sizes", args.sizes, "--data", str(data),
                                             *(["--api-only"] if args.api_only else [])])
    if "hook" not in skip:
        res["hook"] = bench_hook.main(["--sizes", args.sizes, "--data", str(data), "--repeat", str(args.repeat)])
    for part in sorted(skip):  # a part left out: its last results, when there are some, for the summary
        earlier = data / f"results-{part}.json"
        if part in ("signatures", "rebuild", "hook") and earlier.exists():
            res[part] = json.loads(earlier.read_text(encoding="utf-8"))
            log(f"  {part}: left out, summary from {earlier} ({time.ctime(earlier.stat().st_mtime)})")
    res["seconds"] = time.perf_counter() - started
    res["load_average_at_end"] = __import__("os").getloadavg()
    save(res, data / "results-all.json")
    log(f"all benchmarks: {res['seconds'] / 60:.1f} min; results in {data / 'results-all.json'}")
    print("\n".join(summary(res)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
