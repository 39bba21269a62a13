"""Quality of the picture path (issue 26) on the labelled corpus of bench.corpus.pictures.

    python -m bench.picture_quality --docs 600 --seed 1 [--corpus DIR] [--cache DIR] [--lookup hook|rebuild]
                                    [--workers N] [--json]

Every document's thumbnail is decoded (pictures.gray_from_image_bytes) and signed
(core.picture.picture_signature).  Candidates are found through the index's real lookup:
``--lookup hook`` (the default) consumes the documents in id order as the hook does, each
one's candidates from ``SqlitePictures.picture_candidates`` on an SQLite index holding the
documents before it (a key shared by more than PICTURE_BUCKET_MAX pictures makes none; at most
PICTURE_CANDIDATES_MAX candidates of the PICTURE_CANDIDATE_POOL whose shared keys weigh most,
chosen by core.picture.choose_candidates as the hook does), then stored with
``put_picture``; ``--lookup rebuild`` takes every pair sharing a key of at most
PICTURE_BUCKET_MAX pictures, as ``picturepairs.picture_matches`` (rebuild-index) does.  Each
candidate is measured (picture_measures) and judged (judge_pictures).  Printed: precision and
recall overall and per duplicate kind, the false-positive rate on the hard negatives (pairs
inside one family: fills of one form, receipts of one shop, ...), blank pairs found, how many
blank pages got a signature, candidates per document, signature bytes, ms per document for the
signature and per compare.  ``--corpus DIR`` reads a corpus written by
``python -m bench.corpus.pictures`` instead of rendering one in memory; ``--cache DIR`` keeps
the signatures and the measures of each pair there, keyed by a hash of the code that makes
them, so that a run after a change of the decision only (judge_pictures) costs seconds.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import itertools
import json
import pickle
import sqlite3
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from paperless_dedupe_hook.core import _picture_align, _picture_page, _picture_residue
from paperless_dedupe_hook.core import picture as picture_module
from paperless_dedupe_hook.core.picture import (
    PICTURE_VERSION,
    PictureMatch,
    PictureSignature,
    choose_candidates,
    judge_pictures,
    picture_band_keys,
    picture_measures,
    picture_signature,
)
from paperless_dedupe_hook.index._sqlite_pictures import (
    PICTURE_BUCKET_MAX,
    PICTURE_CANDIDATES_BY_KEYS,
    PICTURE_CANDIDATES_MAX,
    SqlitePictures,
)
from paperless_dedupe_hook.index._sqlite_schema import _m5_pictures
from paperless_dedupe_hook.pictures import gray_from_image_bytes

from .corpus import pictures as corpus

Judge = Callable[[dict[str, float]], PictureMatch]


def load(docs: int, seed: int, directory: Path | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[int, bytes]]:
    if directory is not None:
        rows = [json.loads(line) for line in (directory / "docs.jsonl").read_text().splitlines()]
        pairs = [json.loads(line) for line in (directory / "pairs.jsonl").read_text().splitlines()]
        thumbs = {int(r["id"]): (directory / r["thumbnail"]).read_bytes() for r in rows}
        return rows, pairs, thumbs
    documents, labelled = corpus.plan(docs, seed)
    rows = [{"id": d.id, "kind": d.kind, "capture": d.capture, "group": d.group} for d in documents]
    thumbs = {d.id: corpus.render_thumbnail(d) for d in documents}
    return rows, [{"a": p.a, "b": p.b, "dup": p.dup, "kind": p.kind} for p in labelled], thumbs


def _code_hash(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


#: The constants of core.picture a signature depends on (the others are the compare's).
#: (The lookup keys are not: they are taken from the signature in hook_candidates, uncached.)
_SIGNATURE_CONSTANTS = ("PICTURE_VERSION", "GRID", "WORK_WIDTH", "MIN_STROKE_SHARE", "RELATIVE_INK", "RULE_LENGTH",
                        "SPREAD")


def _signature_code() -> str:
    """What a signature depends on: the modules that make it."""
    from paperless_dedupe_hook import pictures

    m = picture_module
    constants = repr([getattr(m, name, None) for name in _SIGNATURE_CONSTANTS])
    return _code_hash(inspect.getsource(pictures), inspect.getsource(_picture_page), constants,
                      *(inspect.getsource(f) for f in (m.picture_signature, m._working_gray, m._neighbours, m.PictureSignature)))


def _measure_code(signature_code: str) -> str:
    """What a pair's measures depend on: the signatures, the alignment, picture_measures and the
    functions and constants it calls on."""
    m = picture_module
    constants = repr([getattr(m, name) for name in ("RESIDUE_EXPLAINED", "RESIDUE_MIN_FINE", "RESIDUE_OUTLINES",
                                                        "SPARSE_CELLS", "SPARSE_MIN_LAYOUT")])
    return _code_hash(signature_code, inspect.getsource(_picture_align), inspect.getsource(_picture_residue), constants,
                      *(inspect.getsource(f) for f in (picture_measures, m._aligned_measures, m._near_miss, m._scales,
                                                       m._density, m._correlation)))


class _Cache:
    """A pickled dict in ``directory`` named by ``kind`` and a code hash (nothing kept without a directory)."""

    def __init__(self, directory: Path | None, kind: str, code: str) -> None:
        self.path = None if directory is None else directory / f"{kind}-{code}.pickle"
        self.data: dict[Any, Any] = {}
        if self.path is not None and self.path.exists():
            self.data = pickle.loads(self.path.read_bytes())
        self.dirty = False

    def save(self) -> None:
        if self.path is not None and self.dirty:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_bytes(pickle.dumps(self.data))
            tmp.replace(self.path)


def _sign(data: bytes) -> bytes | None:
    sig = picture_signature(gray_from_image_bytes(data))
    return None if sig is None else sig.data


def _measure(job: tuple[bytes, bytes, float]) -> dict[str, float]:
    a, b, floor = job
    return picture_measures(PictureSignature(a), PictureSignature(b), min_layout=floor)


def _map(fn: Callable[[Any], Any], jobs: list[Any], workers: int) -> list[Any]:
    if workers <= 1 or len(jobs) < 50:
        return [fn(job) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(fn, jobs, chunksize=32))


def signatures_of(thumbs: dict[int, bytes], cache_dir: Path | None = None, workers: int = 1
                  ) -> tuple[dict[int, PictureSignature], float]:
    """{doc id: signature} of the signed pages, and ms per document (0 when all came from the cache)."""
    cache = _Cache(cache_dir, "signatures", _signature_code())
    todo = [d for d in sorted(thumbs) if hashlib.sha256(thumbs[d]).hexdigest() not in cache.data]
    t0 = time.perf_counter()
    for doc_id, data in zip(todo, _map(_sign, [thumbs[d] for d in todo], workers), strict=True):
        cache.data[hashlib.sha256(thumbs[doc_id]).hexdigest()] = data
        cache.dirty = True
    ms = (time.perf_counter() - t0) * 1000 / len(todo) if todo else 0.0
    cache.save()
    out = {}
    for doc_id, data in thumbs.items():
        raw = cache.data[hashlib.sha256(data).hexdigest()]
        if raw is not None:
            out[doc_id] = PictureSignature(raw)
    return out, ms


def hook_candidates(signatures: dict[int, PictureSignature]) -> set[tuple[int, int]]:
    """The pairs the hook compares: documents consumed in id order, each looked up in an SQLite
    index of those before it (SqlitePictures.picture_candidates), then stored."""
    index = SqlitePictures()
    index.conn = sqlite3.connect(":memory:")
    _m5_pictures(index.conn)
    out: set[tuple[int, int]] = set()
    for doc_id in sorted(signatures):
        keys = picture_band_keys(signatures[doc_id])
        pool = index.picture_candidates(keys, exclude=doc_id, version=PICTURE_VERSION)
        for other in choose_candidates(signatures[doc_id], pool, keep=PICTURE_CANDIDATES_MAX,
                                       by_keys=PICTURE_CANDIDATES_BY_KEYS):
            out.add((min(doc_id, other), max(doc_id, other)))
        index.put_picture(doc_id, version=PICTURE_VERSION, signature=signatures[doc_id].data, keys=keys)
    return out


def rebuild_candidates(signatures: dict[int, PictureSignature]) -> set[tuple[int, int]]:
    """The pairs a rebuild compares (picturepairs.picture_matches): every pair sharing a key
    that at most PICTURE_BUCKET_MAX pictures have."""
    buckets: dict[bytes, list[int]] = defaultdict(list)
    for doc_id in sorted(signatures):
        for key in dict.fromkeys(picture_band_keys(signatures[doc_id])):
            buckets[key].append(doc_id)
    return {(x, y) for members in buckets.values() if 1 < len(members) <= PICTURE_BUCKET_MAX
            for x, y in itertools.combinations(members, 2)}


def measures_of(signatures: dict[int, PictureSignature], candidates: set[tuple[int, int]], *,
                cache_dir: Path | None = None, workers: int = 1, floor: float | None = None
                ) -> tuple[dict[tuple[int, int], dict[str, float]], float]:
    """picture_measures of every candidate pair (aligned when the layouts reach ``floor``), and
    ms per pair measured (0 when all came from the cache)."""
    floor = picture_module.MIN_LAYOUT_CORRELATION if floor is None else floor
    cache = _Cache(cache_dir, f"measures-{floor:g}", _measure_code(_signature_code()))
    digest = {d: hashlib.sha256(s.data).hexdigest()[:24] for d, s in signatures.items()}
    todo = sorted(p for p in candidates if (digest[p[0]], digest[p[1]]) not in cache.data)
    t0 = time.perf_counter()
    jobs = [(signatures[x].data, signatures[y].data, floor) for x, y in todo]
    for (x, y), m in zip(todo, _map(_measure, jobs, workers), strict=True):
        cache.data[(digest[x], digest[y])] = m
        cache.dirty = True
    ms = (time.perf_counter() - t0) * 1000 / len(todo) if todo else 0.0
    cache.save()
    return {p: cache.data[(digest[p[0]], digest[p[1]])] for p in candidates}, ms


def evaluate(rows: list[dict[str, Any]], pairs: list[dict[str, Any]], thumbs: dict[int, bytes], *,
             lookup: str = "hook", cache_dir: Path | None = None, workers: int = 1,
             judge: Judge = judge_pictures) -> dict[str, Any]:
    kind_of = {int(r["id"]): str(r["kind"]) for r in rows}
    signatures, sign_ms = signatures_of(thumbs, cache_dir, workers)
    candidates = (hook_candidates if lookup == "hook" else rebuild_candidates)(signatures)
    measures, compare_ms = measures_of(signatures, candidates, cache_dir=cache_dir, workers=workers)
    found: dict[tuple[int, int], float] = {}
    for key, m in measures.items():
        match = judge(m)
        if match.is_duplicate:
            found[key] = match.score
    return score(kind_of, pairs, signatures, thumbs, candidates, found) | {
        "lookup": lookup, "signature_ms_per_document": sign_ms, "compare_ms": compare_ms}


def score(kind_of: dict[int, str], pairs: list[dict[str, Any]], signatures: dict[int, PictureSignature],
          thumbs: dict[int, bytes], candidates: set[tuple[int, int]], found: dict[tuple[int, int], float]
          ) -> dict[str, Any]:
    label = {(min(p["a"], p["b"]), max(p["a"], p["b"])): p for p in pairs}
    dup_pairs = [key for key, p in label.items() if p["dup"]]
    true_found = [key for key in found if key in label and label[key]["dup"]]
    per_kind: dict[str, dict[str, float]] = {}
    for kind in sorted({label[k]["kind"] for k in dup_pairs}):
        keys = [k for k in dup_pairs if label[k]["kind"] == kind]
        hit = sum(1 for k in keys if k in found)
        cand = sum(1 for k in keys if k in candidates)
        per_kind[kind] = {"pairs": len(keys), "found": hit, "recall": hit / len(keys), "candidate_recall": cand / len(keys)}
    negatives: dict[str, dict[str, float]] = {}
    for kind in sorted({p["kind"] for p in label.values() if not p["dup"]}):
        keys = [k for k, p in label.items() if not p["dup"] and p["kind"] == kind]
        fp = sum(1 for k in keys if k in found)
        negatives[kind] = {"pairs": len(keys), "false_positives": fp, "fp_rate": fp / len(keys)}
    blank_pairs = sum(1 for (x, y) in found if kind_of[x] == "blank" and kind_of[y] == "blank")
    blank_docs = [d for d, k in kind_of.items() if k == "blank"]
    sig_bytes = {len(s.data) for s in signatures.values()}
    precision = len(true_found) / len(found) if found else 1.0
    # Non-blank pages that got no signature: they can never be found.
    unsigned = Counter(kind_of[d] for d in thumbs if d not in signatures and kind_of[d] != "blank")
    wrong = Counter(f"{kind_of[x]}/{label[(x, y)]['kind'] if (x, y) in label else 'unrelated'}"
                    for (x, y) in found if (x, y) not in label or not label[(x, y)]["dup"])
    return {
        "documents": len(thumbs), "signed": len(signatures), "duplicate_pairs": len(dup_pairs),
        "found": len(found), "true_found": len(true_found), "precision": precision,
        "recall": len(true_found) / max(1, len(dup_pairs)),
        "per_kind": per_kind, "negatives": negatives, "blank_pairs_found": blank_pairs,
        "blank_pages_signed": sum(1 for d in blank_docs if d in signatures), "blank_pages": len(blank_docs),
        "unsigned_non_blank": dict(unsigned), "false_positives_by_kind": dict(wrong),
        "candidates_per_document": 2 * len(candidates) / max(1, len(signatures)),
        "signature_bytes": sorted(sig_bytes), "keys_per_document": len(picture_band_keys(next(iter(signatures.values()))))
        if signatures else 0,
    }


def report(result: dict[str, Any]) -> str:
    lines = [
        f"documents {result['documents']} (signed {result['signed']}), duplicate pairs {result['duplicate_pairs']}, "
        f"found {result['found']} (lookup: {result['lookup']})",
        f"precision {result['precision']:.3f}  recall {result['recall']:.3f}",
    ]
    for kind, row in result["per_kind"].items():
        lines.append(f"  {kind:10s} {int(row['pairs']):4d} pairs  recall {row['recall']:.3f}  "
                     f"(candidates {row['candidate_recall']:.3f})")
    for kind, row in result["negatives"].items():
        lines.append(f"  not-dup {kind:13s} {int(row['pairs']):5d} pairs  false positives {int(row['false_positives'])} "
                     f"({row['fp_rate']:.2%})")
    lines += [
        f"blank pairs found {result['blank_pairs_found']}; blank pages with a signature "
        f"{result['blank_pages_signed']} of {result['blank_pages']}; non-blank pages without one {result['unsigned_non_blank']}",
        f"false positives by page/pair kind {result['false_positives_by_kind']}",
        f"candidates per document {result['candidates_per_document']:.1f}; keys per document {result['keys_per_document']}; "
        f"signature bytes {result['signature_bytes']}",
        f"signature {result['signature_ms_per_document']:.2f} ms per document (decode included); "
        f"compare {result['compare_ms']:.3f} ms per candidate pair (0: from the cache)",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpus", type=Path, default=None, help="a directory written by bench.corpus.pictures")
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep signatures and pair measures here (keyed by the code that makes them)")
    parser.add_argument("--lookup", choices=("hook", "rebuild"), default="hook",
                        help="candidates as the hook finds them (capped, in id order) or as a rebuild does")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = evaluate(*load(args.docs, args.seed, args.corpus), lookup=args.lookup, cache_dir=args.cache,
                      workers=args.workers)
    result.update({"seed": args.seed})
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
