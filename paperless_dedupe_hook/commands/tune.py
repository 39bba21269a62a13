"""``paperless-dedupe tune``: the seed guide's band tuning as a command.

Lists the (bands, rows) splits with their S-curve midpoint and the candidate
probability at T-0.1 and T+0.1, picks the best, and with labelled pairs measures
what each split's LSH stage alone catches (candidate recall and precision).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from .. import config
from .._errors import UsageError
from ..config import Config
from ..core import banding, minhash


def measure(
    docs_path: Path, pairs_path: Path, settings: Any, splits: list[banding.Banding], *, audit: tuple[int, int] | None = None,
) -> tuple[dict[tuple[int, int], dict[str, float]], list[str]]:
    """Candidate recall and precision of each split on labelled pairs, and the
    ``missed_pair`` lines of the ``audit`` split (the labelled pairs its LSH stage loses)."""
    from ..rebuild import compute_all
    from ..sources import read_jsonl
    from .evaluate import read_truth, true_jaccard

    docs = read_jsonl(docs_path)
    truth = read_truth(pairs_path)
    feats = [f for f in compute_all(docs, settings) if f.signature is not None]
    out = {}
    lines: list[str] = []
    contents = {d.id: d.content for d in docs}
    for split in splits:
        buckets: dict[int, list[int]] = {}
        for f in feats:
            assert f.signature is not None
            for key in minhash.band_keys(f.signature, bands=split.bands, rows=split.rows):
                buckets.setdefault(key, []).append(f.doc_id)
        candidates: set[tuple[int, int]] = set()
        for ids in buckets.values():
            if 1 < len(ids) <= 2000:
                candidates.update((min(a, b), max(a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :])
        hits = len(candidates & truth.dup.keys())
        if audit == (split.bands, split.rows):
            for a, b in sorted(truth.dup.keys() - candidates):
                sim = true_jaccard(contents.get(a, ""), contents.get(b, ""), settings)
                lines.append(f"[ERROR] missed_pair {a}/{b} true_sim={sim:.2f} candidate=false score=n/a "
                             f"stage=not_candidate kind={truth.dup[(a, b)]}")
        out[(split.bands, split.rows)] = {
            "candidates": len(candidates),
            "candidate_recall": round(hits / len(truth.dup), 4) if truth.dup else 1.0,
            "candidate_precision": round(hits / len(candidates), 4) if candidates else 1.0,
        }
    return out, lines


def tune_command(args: argparse.Namespace, cfg: Config) -> int:
    from ..engine import settings_from_config

    settings = settings_from_config(cfg)
    num_perm = args.num_permutations or settings.features.num_permutations
    target = args.threshold if args.threshold is not None else settings.lsh_target
    if not 0.0 < target < 1.0:
        raise UsageError(f"--threshold {target} is outside 0-1: give the Jaccard level the S-curve should centre on")
    if num_perm < 4:
        raise UsageError(f"--num-permutations {num_perm} is too small: use at least 4")
    best = banding.choose(num_perm, target, divisors_only=args.divisors_only)
    splits = [banding.describe(b, r, target) for b, r in (
        banding.divisor_splits(num_perm) if args.divisors_only else banding.all_splits(num_perm))]
    splits = [s for s in splits if s.rows <= 32]
    measured: dict[tuple[int, int], dict[str, float]] = {}
    audit_lines: list[str] = []
    if args.pairs or args.docs:
        if not (args.pairs and args.docs):
            raise UsageError("--pairs and --docs go together: labelled pairs need their documents")
        if num_perm != settings.features.num_permutations:
            raise UsageError("--num-permutations with --pairs: set detection.num_permutations instead, signatures depend on it")
        near = sorted(splits, key=lambda s: abs(s.midpoint - target))[:8]
        if all((s.bands, s.rows) != (best.bands, best.rows) for s in near):
            near.append(best)
        measured, audit_lines = measure(Path(args.docs), Path(args.pairs), settings, near,
                                        audit=(best.bands, best.rows))
    print(banding.config_line(num_perm, best, target))
    warning = banding.midpoint_warning(best, target)
    if warning:
        print(f"[WARN] {warning}")
    if not banding.steep_enough(best):
        print(f"[WARN] the S-curve is shallow at {target:g} (P(+0.1) - P(-0.1) = {best.steepness:.2f}): "
              "raise detection.num_permutations")
    rows = []
    for s in splits:
        extra = measured.get((s.bands, s.rows), {})
        rows.append({"bands": s.bands, "rows": s.rows, "used": s.bands * s.rows, "midpoint": round(s.midpoint, 4),
                     "p_below": round(s.p_below, 4), "p_above": round(s.p_above, 4), **extra})
    if not args.json:
        for line in audit_lines:
            print(line)
    if args.json:
        print(json.dumps({"num_permutations": num_perm, "target_threshold": target, "missed_pairs": audit_lines,
                          "best": {"bands": best.bands, "rows": best.rows, "midpoint": round(best.midpoint, 4)},
                          "splits": rows}, indent=2))
    else:
        print(f"{'bands':>5} {'rows':>4} {'used':>4} {'midpoint':>8} {'P(T-0.1)':>8} {'P(T+0.1)':>8}"
              + ("  cand.recall  cand.precision  candidates" if measured else ""))
        for r in rows:
            mark = " <- chosen" if (r["bands"], r["rows"]) == (best.bands, best.rows) else ""
            line = f"{r['bands']:>5} {r['rows']:>4} {r['used']:>4} {r['midpoint']:>8.3f} {r['p_below']:>8.3f} {r['p_above']:>8.3f}"
            if "candidate_recall" in r:
                line += f"  {r['candidate_recall']:>11.4f}  {r['candidate_precision']:>14.4f}  {r['candidates']:>10}"
            print(line + mark)
    if args.write:
        if cfg.path is None:
            raise UsageError("--write needs a config file: create one with 'paperless-dedupe config init'")
        updates: dict[str, Any] = {"detection.num_bands": best.bands}
        if num_perm != settings.features.num_permutations:
            updates["detection.num_permutations"] = num_perm
        config.set_keys(cfg.path, updates)
        print(f"wrote detection.num_bands = {best.bands} to {cfg.path}; run 'paperless-dedupe rebuild-index' to apply")
    return 0
