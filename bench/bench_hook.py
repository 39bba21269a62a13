"""Cold hook latency with N documents indexed, against the import floor and the naive design.

    python -m bench.bench_hook --sizes 10000,100000
    python -m bench.bench_hook --realistic DIR --index PATH   # a realistic archive: bench/hook_realistic.py

For each N it needs an index of the first N synthetic documents; it takes a copy of
``<data>/index-<N>.sqlite3`` (left by ``bench.bench_rebuild``) or builds one with
``rebuild-index --from-jsonl``.  Then, in sequence, each run a fresh process timed
from fork to reaped exit:

* **hook**: ``paperless-dedupe-hook`` with ``DOCUMENT_ID`` of a new document (not in
  the index, no duplicate in it: the usual consume) that a fake Paperless serves on
  loopback from this process (``tests.fake_paperless``, answering at once).  The hook
  fetches it, signs it, looks it up, scores the candidates and inserts it.  Every run
  checks another new document.
* **hook, duplicate found**: the same with a near-duplicate twin of an indexed
  document, so that the hook also annotates (tag, note, link field: the extra requests).
* **floor**: a process that imports what the hook must import (the modules ``hook.run``
  loads: numpy, sqlite3, httpx, rapidfuzz and ours) and exits.
* **naive**: a process that imports datasketch, unpickles a ``MinHashLSH`` holding the
  same N signatures (same bands and rows), signs the document with
  ``datasketch.MinHash`` and queries; it reads the text from a local file, so it is
  spared the HTTP round trips the hook makes.
* **Redis hook** and **Redis floor**: the same hook with ``index.backend = "redis"``,
  against a private ``redis-server`` (free loopback port, no persistence, in a temp
  directory, stopped at the end) that ``rebuild-index --from-jsonl`` filled with the
  same N documents, and a second fake Paperless holding the same documents (so that
  one backend's annotations do not change what the other's hook finds).  Its floor
  also imports ``paperless_dedupe_hook.index.redis`` and the ``redis`` client
  package, which the Redis hook must import.  Interleaved with the SQLite runs (the
  order of the two alternating), each Redis run with the same new document as the
  SQLite run beside it (new to both indexes).  ``INFO memory`` of the server gives
  the memory the N documents take.  Without ``redis-server`` (or the ``redis``
  package) the Redis row is skipped with a log line.

``python -X importtime`` of one real hook run lists what it imported (and asserts
that neither SciPy nor datasketch is among it).
"""

from __future__ import annotations

import argparse
import os
import pickle
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench import _common
from bench._common import DEFAULT_DATA, REPO, cli, log, machine, median, run, save, time_once, write_config
from bench.synthetic import Generator, ensure_corpus

FLOOR_IMPORTS = (
    "import paperless_dedupe_hook.hook, paperless_dedupe_hook.config, paperless_dedupe_hook.paperless.annotate, "
    "paperless_dedupe_hook.paperless.client, paperless_dedupe_hook.engine, paperless_dedupe_hook.core.features, "
    "paperless_dedupe_hook.indexfile"
)
# The Redis hook also loads the Redis store and the redis client package.
REDIS_FLOOR_IMPORTS = FLOOR_IMPORTS + ", paperless_dedupe_hook.index.redis, redis"

NAIVE_SCRIPT = r'''
import pickle, sys
from datasketch import MinHash
from paperless_dedupe_hook.core import text
lsh_path, doc_path = sys.argv[1], sys.argv[2]
with open(lsh_path, "rb") as fh:
    lsh = pickle.load(fh)
content = open(doc_path, encoding="utf-8").read()
m = MinHash(num_perm=256, seed=1)
m.update_batch(list(text.shingles(text.shingle_words(text.normalize(content)), kind=sys.argv[3], size=int(sys.argv[4]))))
found = lsh.query(m)
print(len(found))
'''


def _current_format(index: Path) -> bool:
    """Whether an index left by an earlier run has this version's format (else the
    hook would only log "run rebuild-index" and the benchmark time that)."""
    from paperless_dedupe_hook.core import minhash
    from paperless_dedupe_hook.index.sqlite import SCHEMA_VERSION

    try:
        conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        conn.close()
    except sqlite3.Error:
        return False
    return meta.get("schema_version") == str(SCHEMA_VERSION) and meta.get("hash_scheme") == minhash.HASH_SCHEME


def ensure_index(data: Path, n: int) -> Path:
    index = data / f"index-{n}.sqlite3"
    if index.exists() and _current_format(index):
        return index
    for stale in (index, index.with_name(index.name + "-wal"), index.with_name(index.name + "-shm")):
        stale.unlink(missing_ok=True)
    corpus = ensure_corpus(data, n)
    cfg = write_config(data / f"cfg-build-{n}.toml", index=index)
    log(f"  building {index.name} (rebuild-index --from-jsonl, {n:,} documents)")
    r = run([cli("paperless-dedupe"), "--config", str(cfg), "-q", "rebuild-index", "--from-jsonl", str(corpus)],
            sample_rss=False, timeout=3600)
    if r.returncode != 0:
        raise RuntimeError(f"rebuild-index failed: {r.stderr[-2000:]}")
    return index


def naive_pickle(data: Path, n: int, index: Path) -> Path:
    """A pickled ``MinHashLSH`` of the same N documents, with the index's bands and rows.

    Signed from the corpus with datasketch's full 32-bit values (the index keeps only
    16 of them), so it is what a plain datasketch design would hold.
    """
    from itertools import islice

    from datasketch import MinHash, MinHashLSH

    from paperless_dedupe_hook import sources
    from paperless_dedupe_hook.core import minhash, text

    corpus = ensure_corpus(data, n)
    path = data / f"naive-lsh-{n}.pickle"
    if path.exists() and path.stat().st_mtime >= corpus.stat().st_mtime:
        return path
    conn = sqlite3.connect(str(index))
    meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    conn.close()
    bands, rows, num_perm = int(meta["bands"]), int(meta["rows"]), int(meta["num_permutations"])
    size, min_words = int(meta["ngram_size"]), int(meta["min_words"])
    lsh = MinHashLSH(num_perm=num_perm, params=(bands, rows))
    started = time.perf_counter()
    template = MinHash(num_perm=num_perm, seed=1)
    with lsh.insertion_session() as session:
        for doc in islice(sources.iter_jsonl(corpus), n):
            words = text.shingle_words(text.normalize(doc.content))
            if len(words) < min_words:
                continue
            m = template.copy()
            sig = minhash.signature(text.shingles(words, kind=meta["shingle"], size=size), num_permutations=num_perm, seed=1)
            m.hashvalues = sig.astype(template.hashvalues.dtype)
            session.insert(doc.id, m, check_duplication=False)
    tmp = path.with_name(path.name + ".part")
    with tmp.open("wb") as fh:
        pickle.dump(lsh, fh, protocol=pickle.HIGHEST_PROTOCOL)
    tmp.replace(path)
    log(f"  pickled MinHashLSH of {n:,} signatures ({bands} bands x {rows} rows): "
        f"{path.stat().st_size / 1e6:.0f} MB in {time.perf_counter() - started:.1f} s")
    return path


def redis_unavailable() -> str | None:
    """Why the Redis row cannot run here, or None."""
    if shutil.which("redis-server") is None:
        return "redis-server is not installed (apt-get install redis-server)"
    try:
        import redis  # noqa: F401
    except ImportError:
        return "the Python package 'redis' is not installed (pip install 'paperless-dedupe-hook[redis]')"
    return None


def redis_memory(url: str) -> dict[str, int]:
    import redis

    client = redis.Redis.from_url(url)
    try:
        info = client.info("memory")
    finally:
        client.close()
    return {k: int(info[k]) for k in ("used_memory", "used_memory_dataset", "used_memory_rss") if k in info}


def load_redis(url: str, corpus: Path, n: int, work: Path) -> float:
    """The first N documents into Redis with the product's own rebuild; its wall seconds."""
    import redis

    from paperless_dedupe_hook.index.redis import NAMESPACE

    cfg = write_config(work / "config-redis-build.toml", index=work / "unused-by-redis.sqlite3", redis_url=url)
    log(f"  loading {n:,} documents into redis-server (rebuild-index --from-jsonl, index.backend = redis)")
    r = run([cli("paperless-dedupe"), "--config", str(cfg), "-q", "rebuild-index", "--from-jsonl", str(corpus)],
            sample_rss=False, timeout=3600)
    if r.returncode != 0:
        raise RuntimeError(f"rebuild-index into Redis failed: {r.stderr[-2000:]}")
    client = redis.Redis.from_url(url)
    try:
        current = client.get(f"{NAMESPACE}:current")
        count = client.hlen(f"{NAMESPACE}:gen:{current.decode()}:docs") if current else 0
    finally:
        client.close()
    if count != n:
        raise RuntimeError(f"the Redis index holds {count} documents after the rebuild, not {n}")
    return r.wall


def import_report(env: dict[str, str]) -> dict[str, Any]:
    """``-X importtime`` of one hook run: the slowest imports, and whether SciPy came in."""
    proc = subprocess.run([sys.executable, "-X", "importtime", cli("paperless-dedupe-hook")], env=env, cwd=REPO,
                          capture_output=True, text=True, check=False)
    rows = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cumulative, name = line[len("import time:"):].split("|")
        depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
        rows.append((int(cumulative), depth, name.strip()))
    modules = {name for _, _, name in rows}
    top_level = [(c, n) for c, depth, n in rows if depth == 0]
    top_level.sort(reverse=True)
    return {
        "modules": len(modules),
        "total_import_ms": sum(c for c, _ in top_level) / 1e3,
        "slowest_top_level": [{"module": n, "ms": c / 1e3} for c, n in top_level[:12]],
        "scipy_imported": any(m == "scipy" or m.startswith("scipy.") for m in modules),
        "datasketch_imported": any(m == "datasketch" or m.startswith("datasketch.") for m in modules),
        "click_or_rich_imported": any(m.split(".")[0] in ("click", "rich") for m in modules),
        "redis_imported": any(m == "redis" or m.startswith("redis.") for m in modules),
    }


def bench_size(data: Path, n: int, *, repeat: int, naive_repeat: int, with_redis: bool = True) -> dict[str, Any]:
    sys.path.insert(0, str(REPO))
    from tests.fake_paperless import FakePaperless
    from tests.redis_server import running_redis

    source = ensure_index(data, n)
    work = Path(tempfile.mkdtemp(prefix=f"hook-{n}-", dir=data))
    index = work / "index.sqlite3"
    shutil.copyfile(source, index)
    gen = Generator()
    # New documents: ids after the indexed ones; unique ones and twins of indexed documents.
    unique, twins = [], []
    i = n + 1
    while len(unique) < repeat + 2 or len(twins) < max(3, repeat // 3) + 1:
        original = gen.original_of(i)
        if original is None:
            unique.append(gen.doc(i))
        elif original <= n:  # a copy of an indexed document
            twins.append(gen.doc(i))
        i += 1
    skip_redis = None if with_redis else "left out (--no-redis)"
    skip_redis = skip_redis or redis_unavailable()
    if skip_redis:
        log(f"  Redis row skipped: {skip_redis}")
    # One fake Paperless per backend, with the same documents: the duplicate runs annotate
    # (tag, note, link field), and one backend's writes must not change what the other finds.
    fake = FakePaperless(token="bench-token")
    fake_r = FakePaperless(token="bench-token") if not skip_redis else None
    originals = sorted({o for t in twins if (o := gen.original_of(int(str(t["id"])))) is not None})
    for doc in unique + twins + [gen.doc(o) for o in originals]:
        fake.add_document(doc)
        if fake_r is not None:
            fake_r.add_document(doc)
    lsh = naive_pickle(data, n, source)  # before the timed runs: building it is not timed
    doc_file = work / "doc.txt"
    doc_file.write_text(str(unique[0]["content"]), encoding="utf-8")
    naive_file = work / "naive.py"
    naive_file.write_text(NAIVE_SCRIPT, encoding="utf-8")
    meta = dict(sqlite3.connect(str(source)).execute("SELECT key, value FROM meta").fetchall())
    naive_argv = [sys.executable, str(naive_file), str(lsh), str(doc_file), meta["shingle"], meta["ngram_size"]]
    floor_argv = [sys.executable, "-c", FLOOR_IMPORTS]
    redis_floor_argv = [sys.executable, "-c", REDIS_FLOOR_IMPORTS]
    hook_argv = [cli("paperless-dedupe-hook")]
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_DEDUPE_", "DOCUMENT_"))}
    base_env.pop("PAPERLESS_REDIS", None)
    redis_info: dict[str, Any] = {"skipped": skip_redis} if skip_redis else {}
    with ExitStack() as stack:
        fake.start()
        stack.callback(fake.stop)
        cfg = write_config(work / "config.toml", index=index, url=fake.url, token=fake.token)
        env_sqlite = dict(base_env, PAPERLESS_DEDUPE_CONFIG=str(cfg))
        env_redis: dict[str, str] | None = None
        url = ""
        if fake_r is not None:
            url = stack.enter_context(running_redis(work / "redis"))
            empty = redis_memory(url)
            load_s = load_redis(url, ensure_corpus(data, n), n, work)
            loaded = redis_memory(url)
            redis_info |= {
                "load_wall_s": load_s,
                "used_memory_empty_bytes": empty["used_memory"],
                "used_memory_bytes": loaded["used_memory"],
                "used_memory_dataset_bytes": loaded.get("used_memory_dataset", 0),
                "used_memory_rss_bytes": loaded.get("used_memory_rss", 0),
                "used_memory_per_document_bytes": (loaded["used_memory"] - empty["used_memory"]) / n,
            }
            log(f"  Redis: {n:,} documents in {load_s:.1f} s; used_memory {loaded['used_memory'] / 1e6:,.1f} MB "
                f"(empty server {empty['used_memory'] / 1e6:.1f} MB)")
            fake_r.start()
            stack.callback(fake_r.stop)
            cfg_r = write_config(work / "config-redis.toml", index=work / "unused-by-redis.sqlite3", url=fake_r.url,
                                 token=fake_r.token, redis_url=url)
            env_redis = dict(base_env, PAPERLESS_DEDUPE_CONFIG=str(cfg_r))

        def env_for(doc: dict[str, Any], env: dict[str, str]) -> dict[str, str]:
            return dict(env, DOCUMENT_ID=str(doc["id"]))

        for doc in unique[-2:]:  # warm the page cache and the fakes
            time_once(hook_argv, env=env_for(doc, env_sqlite))
            if env_redis is not None:
                time_once(hook_argv, env=env_for(doc, env_redis))
        time_once(floor_argv)
        imports = import_report(env_for(unique[-1], env_sqlite))
        if env_redis is not None:
            time_once(redis_floor_argv)
            redis_info["imports"] = import_report(env_for(unique[-1], env_redis))
        # Interleaved, so that a change in the machine's load hits all alike.
        floor: list[tuple[float, float]] = []
        hook: list[tuple[float, float]] = []
        naive: list[tuple[float, float]] = []
        rfloor: list[tuple[float, float]] = []
        rhook: list[tuple[float, float]] = []
        hook_lines, rhook_lines = [], []

        def sqlite_pair(doc: dict[str, Any]) -> None:
            wall, cpu, _ = time_once(floor_argv)
            floor.append((wall, cpu))
            wall, cpu, out = time_once(hook_argv, env=env_for(doc, env_sqlite))
            hook.append((wall, cpu))
            hook_lines.append(out.strip())

        def redis_pair(doc: dict[str, Any]) -> None:
            assert env_redis is not None
            wall, cpu, _ = time_once(redis_floor_argv)
            rfloor.append((wall, cpu))
            wall, cpu, out = time_once(hook_argv, env=env_for(doc, env_redis))
            rhook.append((wall, cpu))
            rhook_lines.append(out.strip())

        time_once(naive_argv)  # warm: the pickle into the page cache
        for k, doc in enumerate(unique[:repeat]):
            # Each backend checks the same new document; which goes first alternates.
            pairs = [sqlite_pair] if env_redis is None else [sqlite_pair, redis_pair][:: 1 if k % 2 == 0 else -1]
            for timed in pairs:
                timed(doc)
            if k < naive_repeat:
                wall, cpu, _ = time_once(naive_argv)
                naive.append((wall, cpu))
        dup: list[tuple[float, float]] = []
        rdup: list[tuple[float, float]] = []
        dup_lines, rdup_lines = [], []
        for k, doc in enumerate(twins[: max(3, repeat // 3)]):
            envs = [(env_sqlite, dup, dup_lines)]
            if env_redis is not None:
                envs = [(env_sqlite, dup, dup_lines), (env_redis, rdup, rdup_lines)][:: 1 if k % 2 == 0 else -1]
            for env, runs, lines in envs:
                wall, cpu, out = time_once(hook_argv, env=env_for(doc, env))
                runs.append((wall, cpu))
                lines.append(out.strip())
        requests = len(fake.requests)
        if fake_r is not None:
            redis_info["used_memory_after_runs_bytes"] = redis_memory(url)["used_memory"]
            redis_info["requests_to_fake"] = len(fake_r.requests)

    def med(runs: list[tuple[float, float]], which: int = 0) -> float:
        return median([r[which] for r in runs])

    if rhook:
        redis_info |= {
            "hook_runs": len(rhook),
            "hook_median_s": med(rhook),
            "hook_min_s": min(r[0] for r in rhook),
            "hook_max_s": max(r[0] for r in rhook),
            "hook_duplicate_median_s": med(rdup),
            "floor_median_s": med(rfloor),
            "floor_min_s": min(r[0] for r in rfloor),
            "floor_max_s": max(r[0] for r in rfloor),
            "hook_cpu_median_s": med(rhook, 1),
            "floor_cpu_median_s": med(rfloor, 1),
            "hook_vs_floor": med(rhook) / med(rfloor),
            "hook_vs_floor_cpu": med(rhook, 1) / med(rfloor, 1),
            "hook_vs_sqlite_hook": med(rhook) / med(hook),
            "floor_note": "the Redis floor also imports paperless_dedupe_hook.index.redis and the redis package",
            "cpu_note": "CPU time of the hook process only: redis-server's own work is not counted",
            "hook_output_example": rhook_lines[0],
            "hook_duplicate_output_example": rdup_lines[0],
        }
    result = {
        "documents_indexed": n,
        "hook_runs": len(hook),
        "hook_median_s": med(hook),
        "hook_min_s": min(r[0] for r in hook),
        "hook_max_s": max(r[0] for r in hook),
        "hook_duplicate_median_s": med(dup),
        "floor_median_s": med(floor),
        "naive_median_s": med(naive),
        "hook_cpu_median_s": med(hook, 1),
        "floor_cpu_median_s": med(floor, 1),
        "naive_cpu_median_s": med(naive, 1),
        "naive_pickle_mb": lsh.stat().st_size / 1e6,
        "hook_vs_floor": med(hook) / med(floor),
        "naive_vs_hook": med(naive) / med(hook),
        "hook_vs_floor_cpu": med(hook, 1) / med(floor, 1),
        "naive_vs_hook_cpu": med(naive, 1) / med(hook, 1),
        "requests_to_fake": requests,
        "hook_output_example": hook_lines[0],
        "hook_duplicate_output_example": dup_lines[0],
        "imports": imports,
        "redis": redis_info,
        "load_average": os.getloadavg(),
    }
    shutil.rmtree(work, ignore_errors=True)
    return result


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_hook", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--repeat", type=int, default=15, help="hook and floor runs per size")
    parser.add_argument("--naive-repeat", type=int, default=5)
    parser.add_argument("--no-redis", action="store_true", help="leave out the Redis index backend row")
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    parser.add_argument("--out", default=None)
    parser.add_argument("--realistic", metavar="DIR", help="a realistic archive (bench.corpus.realistic): the hook "
                        "for new members of its largest series instead (bench/hook_realistic.py); needs --index")
    parser.add_argument("--index", metavar="PATH", help="with --realistic: the index of all of DIR/docs.jsonl")
    parser.add_argument("--compare-tree", metavar="TREE", help="with --realistic: also time this source tree's hook")
    parser.add_argument("--compare-index", metavar="PATH", help="with --compare-tree: the index that tree's hook "
                        "reads (built by its own rebuild-index), when it cannot open this tree's")
    parser.add_argument("--family", metavar="KIND", help="with --realistic: the largest series of this kind")
    parser.add_argument("--instructions", type=int, default=3, metavar="N",
                        help="with --realistic: also count instructions of N runs each under valgrind (0: none)")
    args = parser.parse_args(argv)
    data = Path(args.data)
    results: dict[str, Any] = {"machine": machine(), "runs": {}}
    if args.realistic:
        from bench import hook_realistic

        return hook_realistic.main(args, results, data, floor_imports=FLOOR_IMPORTS, error=parser.error)
    _common.compile_bytecode()  # as pip install does: no run compiles our modules from source
    for n in [int(s) for s in args.sizes.split(",") if s]:
        log(f"hook: {n:,} documents indexed")
        r = bench_size(data, n, repeat=args.repeat, naive_repeat=args.naive_repeat, with_redis=not args.no_redis)
        results["runs"][str(n)] = r
        log(f"  hook median {r['hook_median_s'] * 1e3:.0f} ms (duplicate found: {r['hook_duplicate_median_s'] * 1e3:.0f} ms), "
            f"floor {r['floor_median_s'] * 1e3:.0f} ms -> {r['hook_vs_floor']:.2f}x floor; "
            f"naive {r['naive_median_s'] * 1e3:.0f} ms -> {r['naive_vs_hook']:.1f}x slower than the hook; "
            f"CPU time: hook {r['hook_cpu_median_s'] * 1e3:.0f} ms, floor {r['floor_cpu_median_s'] * 1e3:.0f} ms, "
            f"naive {r['naive_cpu_median_s'] * 1e3:.0f} ms; "
            f"SciPy imported: {r['imports']['scipy_imported']}")
        rr = r["redis"]
        if "hook_median_s" in rr:
            log(f"  Redis hook median {rr['hook_median_s'] * 1e3:.0f} ms (min {rr['hook_min_s'] * 1e3:.0f}, "
                f"max {rr['hook_max_s'] * 1e3:.0f}; duplicate found: {rr['hook_duplicate_median_s'] * 1e3:.0f} ms), "
                f"floor with redis imported {rr['floor_median_s'] * 1e3:.0f} ms -> {rr['hook_vs_floor']:.2f}x floor; "
                f"{rr['hook_vs_sqlite_hook']:.2f}x the SQLite hook; CPU time: hook {rr['hook_cpu_median_s'] * 1e3:.0f} ms, "
                f"floor {rr['floor_cpu_median_s'] * 1e3:.0f} ms; Redis used_memory "
                f"{rr['used_memory_bytes'] / 1e6:,.1f} MB for {n:,} documents")
        else:
            log(f"  Redis hook: skipped ({rr.get('skipped')})")
    save(results, Path(args.out) if args.out else data / "results-hook.json")
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
