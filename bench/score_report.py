"""Pairwise quality of a ``rebuild-index --report`` run against labelled pairs.

    paperless-dedupe rebuild-index --from-jsonl DIR/docs.jsonl --report DIR/report.json
    python -m bench.score_report DIR/report.json DIR/pairs.jsonl

``paperless-dedupe evaluate`` runs the whole analysis again and audits every miss (it
re-scores them exactly), which at 100k documents costs as much as a second rebuild.  The
reported pairs of one timed rebuild give the same pairwise precision, recall and F1, recall
per duplicate kind and false-positive rate per hard-negative kind (``evaluate``'s own
functions), so the large archive needs one run for both its cost and its quality.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from paperless_dedupe_hook.commands.evaluate import _by_kind, _prf, read_truth


def scores(report: dict[str, object], truth_path: Path) -> dict[str, object]:
    truth = read_truth(truth_path)
    pairs = report["pairs"]
    assert isinstance(pairs, list)
    predicted = {(min(int(p["a"]), int(p["b"])), max(int(p["a"]), int(p["b"]))) for p in pairs}
    return {
        "documents": report["documents"],
        "candidates": report["candidates"],
        "candidates_per_document": round(int(str(report["candidates"])) / max(1, int(str(report["documents"]))), 2),
        "truth_pairs": len(truth.dup),
        "predicted_pairs": len(predicted),
        "pairs": _prf(predicted, truth.dup),
        "recall_by_kind": _by_kind(truth.dup, predicted),
        "false_positive_rate_by_kind": _by_kind(truth.negative, predicted),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.score_report", description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, help="the JSON of rebuild-index --report")
    parser.add_argument("truth", type=Path, help="pairs.jsonl of the labelled corpus")
    args = parser.parse_args(argv)
    result = scores(json.loads(args.report.read_text(encoding="utf-8")), args.truth)
    p = result["pairs"]
    assert isinstance(p, dict)
    print(f"documents {result['documents']}, LSH candidates {result['candidates']} "
          f"({result['candidates_per_document']} per document), labelled duplicate pairs {result['truth_pairs']}, "
          f"reported pairs {result['predicted_pairs']}")
    print(f"pairs:  precision {p['precision']:.4f}  recall {p['recall']:.4f}  F1 {p['f1']:.4f}")
    for title, key in (("recall by duplicate kind:", "recall_by_kind"),
                       ("false-positive rate by hard-negative kind:", "false_positive_rate_by_kind")):
        print(title)
        table = result[key]
        assert isinstance(table, dict)
        for kind, v in table.items():
            print(f"  {kind:<18} {v['rate']:.4f}  ({v['pairs']} pairs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
