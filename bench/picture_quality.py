"""Quality of the picture path (issue 26) on the labelled corpus of bench.corpus.pictures.

    python -m bench.picture_quality --docs 600 --seed 1 [--corpus DIR] [--json]

Every document's thumbnail is decoded (pictures.gray_from_image_bytes) and signed
(core.picture.picture_signature); candidates are the pairs that share a band key, as the
index finds them; each candidate is compared (compare_pictures).  Printed: precision and
recall overall and per duplicate kind, the false-positive rate on the hard negatives (pairs
inside one family: fills of one form, receipts of one shop, ...), blank pairs found, how
many blank pages got a signature, candidates per document, signature bytes, ms per document
for the signature and per compare.  ``--corpus DIR`` reads a corpus written by
``python -m bench.corpus.pictures`` instead of rendering one in memory.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from paperless_dedupe_hook.core.picture import (
    PictureSignature,
    compare_pictures,
    picture_band_keys,
    picture_signature,
)
from paperless_dedupe_hook.pictures import gray_from_image_bytes

from .corpus import pictures as corpus


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


def evaluate(rows: list[dict[str, Any]], pairs: list[dict[str, Any]], thumbs: dict[int, bytes]) -> dict[str, Any]:
    kind_of = {int(r["id"]): str(r["kind"]) for r in rows}
    signatures: dict[int, PictureSignature] = {}
    t0 = time.perf_counter()
    for doc_id, data in thumbs.items():
        sig = picture_signature(gray_from_image_bytes(data))
        if sig is not None:
            signatures[doc_id] = sig
    sign_ms = (time.perf_counter() - t0) * 1000 / max(1, len(thumbs))
    buckets: dict[bytes, list[int]] = defaultdict(list)
    for doc_id, sig in signatures.items():
        for key in picture_band_keys(sig):
            buckets[key].append(doc_id)
    candidates: set[tuple[int, int]] = set()
    for members in buckets.values():
        for x, y in itertools.combinations(sorted(set(members)), 2):
            candidates.add((x, y))
    t0 = time.perf_counter()
    found: dict[tuple[int, int], float] = {}
    for x, y in candidates:
        match = compare_pictures(signatures[x], signatures[y])
        if match.is_duplicate:
            found[(x, y)] = match.score
    compare_ms = (time.perf_counter() - t0) * 1000 / max(1, len(candidates))
    label = {(min(p["a"], p["b"]), max(p["a"], p["b"])): p for p in pairs}
    dup_pairs = [key for key, p in label.items() if p["dup"]]
    true_found = [key for key in found if key in label and label[key]["dup"]]
    per_kind: dict[str, dict[str, float]] = {}
    for kind in sorted({label[k]["kind"] for k in dup_pairs}):
        keys = [k for k in dup_pairs if label[k]["kind"] == kind]
        hit = sum(1 for k in keys if k in found)
        cand = sum(1 for k in keys if k in candidates)
        per_kind[kind] = {"pairs": len(keys), "recall": hit / len(keys), "candidate_recall": cand / len(keys)}
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
        "found": len(found), "precision": precision, "recall": len(true_found) / max(1, len(dup_pairs)),
        "per_kind": per_kind, "negatives": negatives, "blank_pairs_found": blank_pairs,
        "blank_pages_signed": sum(1 for d in blank_docs if d in signatures), "blank_pages": len(blank_docs),
        "unsigned_non_blank": dict(unsigned), "false_positives_by_kind": dict(wrong),
        "candidates_per_document": 2 * len(candidates) / max(1, len(signatures)),
        "signature_bytes": sorted(sig_bytes), "keys_per_document": len(picture_band_keys(next(iter(signatures.values()))))
        if signatures else 0,
        "signature_ms_per_document": sign_ms, "compare_ms": compare_ms,
    }


def report(result: dict[str, Any]) -> str:
    lines = [
        f"documents {result['documents']} (signed {result['signed']}), duplicate pairs {result['duplicate_pairs']}, "
        f"found {result['found']}",
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
        f"compare {result['compare_ms']:.3f} ms per candidate pair",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpus", type=Path, default=None, help="a directory written by bench.corpus.pictures")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = evaluate(*load(args.docs, args.seed, args.corpus))
    result.update({"seed": args.seed})
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
