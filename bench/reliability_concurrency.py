"""The long variant of tests/test_reliability_concurrency.py: W hook processes at
once on one index, each walking its N documents (default 8 x 500 = 4000).

Run from the repository root::

    python bench/reliability_concurrency.py                 # 8 x 500, real hook.main() in 8 processes
    python bench/reliability_concurrency.py --spawn         # one console-script process per document
    python bench/reliability_concurrency.py --workers 16 --per-worker 100 --triples 20 --json

The documents live in the fake Paperless of tests/fake_paperless.py (in this
process, over loopback HTTP): near-duplicate pairs (and triples) with OCR-like edits
among unrelated texts, ids shuffled so that each pair straddles the workers.  Prints
what was written concurrently, what the index holds (lost and doubled entries), how
every pair was annotated, and the hook latencies.  Exit status 1 when anything is
wrong (a lost or doubled entry, a missing or repeated annotation, a failed hook, a
"database is locked").
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.reliability_support import (  # noqa: E402
    annotation_state,
    check_annotations,
    corpus,
    index_health,
    new_fake,
    offline_pairs,
    run_concurrent_hooks,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--per-worker", type=int, default=500)
    parser.add_argument("--pair-share", type=float, default=0.25, help="share of documents that are in pairs")
    parser.add_argument("--triples", type=int, default=10)
    parser.add_argument("--spawn", action="store_true", help="one paperless-dedupe-hook process per document")
    parser.add_argument("--seed", type=int, default=20260801)
    parser.add_argument("--keep", action="store_true", help="keep the index directory")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    total = args.workers * args.per_worker
    pairs = int(total * args.pair_share / 2)
    lib = corpus(args.seed, documents=total, pairs=pairs, triples=args.triples, short=max(1, total // 100))
    truth_gap = len(offline_pairs(lib) ^ lib.pairs)  # pairs the detection itself sees differently
    fake = new_fake()
    tmp = Path(tempfile.mkdtemp(prefix="dedupe-bench-"))
    try:
        fake.add_documents(lib.docs)
        ids = [d["id"] for d in lib.docs]
        random.Random(args.seed + 1).shuffle(ids)
        batches = [ids[i * args.per_worker : (i + 1) * args.per_worker] for i in range(args.workers)]
        started = time.monotonic()
        results = run_concurrent_hooks(tmp, fake.url, batches, mode="spawn" if args.spawn else "inprocess",
                                       timeout=24 * 3600)
        wall = time.monotonic() - started

        index = tmp / "index.sqlite3"
        health = index_health(index)
        conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
        doubled = conn.execute("SELECT count(*) FROM (SELECT id FROM documents GROUP BY id HAVING count(*) > 1)").fetchone()[0]
        conn.close()
        indexed = set(health["documents"])
        state = annotation_state(fake)
        problems = check_annotations(fake, lib)
        times = [t for r in results for t in r.times]
        codes = [c for r in results for c in r.codes]
        stderr = "".join(r.stderr for r in results)
        expected_notes = {b for _a, b in lib.pairs}
        counts = {
            "workers": args.workers,
            "documents_per_worker": args.per_worker,
            "mode": "spawn" if args.spawn else "inprocess",
            "documents_written_concurrently": len(codes),
            "documents_indexed": len(indexed),
            "entries_lost": len(set(ids) - indexed),
            "entries_doubled": doubled,
            "hooks_exit_nonzero": sum(1 for c in codes if c != 0),
            "workers_failed": sum(1 for r in results if r.returncode != 0),
            "stderr_lines": len(stderr.splitlines()),
            "database_is_locked": stderr.count("database is locked"),
            "duplicate_pairs_expected": len(lib.pairs),
            "pairs_offline_detection_disagrees": truth_gap,
            "documents_to_annotate": len(expected_notes),
            "documents_annotated": sum(1 for d in expected_notes if state[d]["notes"]),
            "documents_with_two_notes_in_a_pair": sum(1 for g in lib.groups if len(g) == 2
                                                      for d in g[1:] if len(state[d]["notes"]) > 1),
            "annotation_problems": len(problems),
            "tags_created": len([t for t in fake.tags.values() if t["name"] == "possible-duplicate"]),
            "delete_requests": len(fake.requests_for("DELETE")),
            "requests": len(fake.requests),
            "wall_seconds": round(wall, 2),
            "hooks_per_second": round(len(codes) / wall, 1) if wall else None,
            "hook_seconds_p50": round(statistics.median(times), 3) if times else None,
            "hook_seconds_p95": round(statistics.quantiles(times, n=20)[-1], 3) if len(times) > 20 else None,
            "hook_seconds_max": round(max(times), 3) if times else None,
        }
        if args.json:
            print(json.dumps(counts | {"problems": problems[:20]}, indent=2))
        else:
            for key, value in counts.items():
                print(f"{key:<38} {value}")
            for line in problems[:20]:
                print("problem:", line)
            for line in stderr.splitlines()[:10]:
                print("stderr:", line)
        bad = (counts["entries_lost"] or counts["entries_doubled"] or counts["hooks_exit_nonzero"]
               or counts["workers_failed"] or counts["database_is_locked"] or problems or counts["delete_requests"]
               or counts["tags_created"] != 1)
        return 1 if bad else 0
    finally:
        fake.stop()
        if args.keep:
            print(f"index kept in {tmp}", file=sys.stderr)
        else:
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
