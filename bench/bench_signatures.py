"""Signature throughput: ours against datasketch, on the same documents, values equal.

    python -m bench.bench_signatures --sizes 10000,100000,1000000

For each size N:

* the datasketch comparison, on one core in this process, on the first
  ``--sample`` documents (2,000 by default; datasketch's per-shingle ``update`` needs
  minutes for more): the same shingle sets go through ``minhash.signature`` (ours),
  ``datasketch.MinHash.update`` once per shingle, ``MinHash.update_batch`` and
  ``MinHash.bulk``; every signature is asserted equal value by value, and the ratios
  come from this one run;
* ours on all N documents on every core (a process pool; each worker makes its
  documents, shingles them and signs them, timing the signing alone), streaming, so
  1M documents need no more memory than 10k.

Documents are the synthetic corpus's (``bench.synthetic``): about 1,000 words, so
about 1,000 distinct shingles of the default kind and size (``detection.shingle``,
``detection.ngram_size``), 256 permutations, seed 1.  The sample uses the
full text path (``normalize`` -> words -> shingles); the N-document run takes the
generator's words directly, which costs the same shingling and signing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from bench._common import DEFAULT_DATA, log, machine, save
from bench.synthetic import Generator
from paperless_dedupe_hook.core import minhash, text

NUM_PERM = 256
SEED = 1
# CPU seconds of this process: the machine may be shared, and a single-core rate
# should not count the time another process held the core.  Wall time is kept for
# the all-cores run.
_clock = time.process_time


def _defaults() -> tuple[str, int]:
    """The shingle kind and size the product uses by default (config.py)."""
    from paperless_dedupe_hook.config import KEYS

    values = {k.name: k.default for k in KEYS}
    return str(values["detection.shingle"]), int(values["detection.ngram_size"])


SHINGLE_KIND, NGRAM = _defaults()


def _shingles(words: list[str]) -> set[bytes]:
    return text.shingles(words, kind=SHINGLE_KIND, size=NGRAM)


def compare_with_datasketch(sample: int, *, words: int = 1000, seed: int = 7) -> dict[str, Any]:
    """One core, the same ``sample`` documents through ours and three datasketch paths."""
    from datasketch import MinHash

    gen = Generator(seed=seed, words=words)
    contents = [str(gen.doc(i)["content"]) for i in range(1, sample + 1)]
    t0 = _clock()
    sets = [_shingles(text.shingle_words(text.normalize(c))) for c in contents]
    prepare = _clock() - t0
    lists = [list(s) for s in sets]  # one fixed order for every contender
    shingle_count = sum(map(len, lists))

    minhash.signature(lists[0], num_permutations=NUM_PERM, seed=SEED)  # warm the permutation cache
    t0 = _clock()
    ours = [minhash.signature(s, num_permutations=NUM_PERM, seed=SEED) for s in lists]
    t_ours = _clock() - t0

    template = MinHash(num_perm=NUM_PERM, seed=SEED)
    t0 = _clock()
    per_shingle = []
    for s in lists:
        m = template.copy()
        for sh in s:
            m.update(sh)
        per_shingle.append(m.hashvalues)
    t_update = _clock() - t0

    t0 = _clock()
    batch = []
    for s in lists:
        m = template.copy()
        m.update_batch(s)
        batch.append(m.hashvalues)
    t_batch = _clock() - t0

    t0 = _clock()
    bulk = [m.hashvalues for m in MinHash.bulk(lists, num_perm=NUM_PERM, seed=SEED)]
    t_bulk = _clock() - t0

    for i, (a, b, c, d) in enumerate(zip(ours, per_shingle, batch, bulk, strict=True)):
        if not (np.array_equal(a, b) and np.array_equal(a, c) and np.array_equal(a, d)):
            raise AssertionError(f"document {i + 1}: our signature differs from datasketch's")

    # The numpy path (what runs where the C kernel was not built), same documents.
    minhash.signature_numpy(lists[0], num_permutations=NUM_PERM, seed=SEED)
    t0 = _clock()
    numpy_sigs = [minhash.signature_numpy(s, num_permutations=NUM_PERM, seed=SEED) for s in lists]
    t_numpy = _clock() - t0
    for i, (a, n) in enumerate(zip(ours, numpy_sigs, strict=True)):
        if not np.array_equal(a, n):
            raise AssertionError(f"document {i + 1}: the numpy path's signature differs")

    t0 = _clock()
    for c in contents:  # the whole text path the rebuild and the hook run
        minhash.signature(_shingles(text.shingle_words(text.normalize(c))), num_permutations=NUM_PERM, seed=SEED)
    t_text = _clock() - t0

    def rate(seconds: float) -> float:
        return sample / seconds

    return {
        "documents": sample,
        "shingles_per_document": shingle_count / sample,
        "values_equal": True,
        "ours_docs_per_s": rate(t_ours),
        "datasketch_update_docs_per_s": rate(t_update),
        "datasketch_update_batch_docs_per_s": rate(t_batch),
        "datasketch_bulk_docs_per_s": rate(t_bulk),
        "ours_vs_bulk": t_bulk / t_ours,
        "ours_vs_update": t_update / t_ours,
        "ours_vs_update_batch": t_batch / t_ours,
        "ours_text_to_signature_docs_per_s": rate(t_text),
        "kernel": minhash.KERNEL,
        "numpy_path_docs_per_s": rate(t_numpy),
        "numpy_path_vs_bulk": t_bulk / t_numpy,
        "normalize_and_shingle_ms_per_doc": prepare / sample * 1e3,
    }


def _worker(job: tuple[int, int, int, int]) -> tuple[int, float, float, int]:
    start, count, seed, words = job
    gen = _worker_gen(seed, words)
    sign = prep = 0.0
    check = 0
    for i in range(start, start + count):
        t0 = _clock()
        shingles = _shingles(gen.words(i))
        t1 = _clock()
        sig = minhash.signature(shingles, num_permutations=NUM_PERM, seed=SEED)
        t2 = _clock()
        prep += t1 - t0
        sign += t2 - t1
        check ^= int(sig[0])
    return count, prep, sign, check


_GEN: dict[tuple[int, int], Generator] = {}


def _worker_gen(seed: int, words: int) -> Generator:
    if (seed, words) not in _GEN:
        _GEN[(seed, words)] = Generator(seed=seed, words=words)
    return _GEN[(seed, words)]


def all_cores(n: int, *, workers: int, words: int = 1000, seed: int = 7, chunk: int = 1000) -> dict[str, Any]:
    jobs = [(s, min(chunk, n - s + 1), seed, words) for s in range(1, n + 1, chunk)]
    done = 0
    sign = prep = 0.0
    started = time.perf_counter()
    last = started
    with ProcessPoolExecutor(max_workers=workers) as pool:
        list(pool.map(_worker_gen, [seed] * workers, [words] * workers))  # build the vocabularies first
        started = time.perf_counter()
        for count, p, s, _check in pool.map(_worker, jobs):
            done += count
            prep += p
            sign += s
            if time.perf_counter() - last > 30:
                last = time.perf_counter()
                log(f"    {done:,}/{n:,} documents, {done / (last - started):,.0f} docs/s")
    wall = time.perf_counter() - started
    return {
        "documents": n,
        "workers": workers,
        "wall_s": wall,
        "wall_docs_per_s": n / wall,
        "signature_docs_per_s_per_core": n / sign,
        "shingling_docs_per_s_per_core": n / prep,
        "signature_cpu_s": sign,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_signatures", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--sample", type=int, default=2000, help="documents for the datasketch comparison")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=str(DEFAULT_DATA / "results-signatures.json"))
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    results: dict[str, Any] = {"machine": machine(), "num_permutations": NUM_PERM, "shingle": SHINGLE_KIND,
                               "ngram_size": NGRAM, "runs": {}}
    log(f"signatures: datasketch comparison on {args.sample:,} documents (one core)")
    cmp = compare_with_datasketch(args.sample)
    results["comparison"] = cmp
    save(results, Path(args.out))
    log(f"  ours {cmp['ours_docs_per_s']:,.0f} docs/s; datasketch update {cmp['datasketch_update_docs_per_s']:,.0f}, "
        f"update_batch {cmp['datasketch_update_batch_docs_per_s']:,.0f}, bulk {cmp['datasketch_bulk_docs_per_s']:,.0f} "
        f"-> {cmp['ours_vs_bulk']:.2f}x bulk, {cmp['ours_vs_update']:.1f}x update; values equal")
    log(f"  ours = kernel {cmp['kernel']}; the numpy path (no C kernel): {cmp['numpy_path_docs_per_s']:,.0f} docs/s = "
        f"{cmp['numpy_path_vs_bulk']:.2f}x bulk, values equal")
    for n in sizes:
        log(f"signatures: ours on {n:,} documents, {args.workers} workers")
        r = all_cores(n, workers=args.workers)
        r["load_average_after"] = os.getloadavg()
        results["runs"][str(n)] = r
        log(f"  {r['wall_docs_per_s']:,.0f} docs/s on {args.workers} cores (wall {r['wall_s']:.1f} s, "
            f"shingling included); signing alone {r['signature_docs_per_s_per_core']:,.0f} docs/s per core")
        save(results, Path(args.out))  # after each size: a long run stopped keeps what it measured
    save(results, Path(args.out))
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
