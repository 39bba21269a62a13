"""Detection quality per language on a multilingual corpus (issue 23).

    python -m bench.corpus.multilingual --docs 3000 --seed 1 --out /tmp/ml3k
    python -m bench.multilingual --corpus /tmp/ml3k [--json] [--workers N]

Runs the very pipeline of ``paperless-dedupe evaluate`` (defaults, no config file) and splits its
pairs by language: a language's figures count the pairs whose two documents are both of that
language; pairs with a mixed document (``fr+de``) or two languages are ``mixed``; ``de+en`` is the
control (German and English pairs together).  Per language: pairwise precision, recall and F1, and
the false-positive rate of every hard-negative kind, also split by what the family varies in.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from paperless_dedupe_hook import config, engine, sources
from paperless_dedupe_hook.commands import evaluate as evaluation
from paperless_dedupe_hook.rebuild import analyse

CONTROL = ("de", "en")
MIN_PAIRS_SHOWN = 1


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def bucket(lang_a: str, lang_b: str) -> str:
    return lang_a if lang_a == lang_b and "+" not in lang_a else "mixed"


def prf(predicted: int, hits: int, truth: int) -> dict[str, float]:
    precision = hits / predicted if predicted else 1.0
    recall = hits / truth if truth else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4),
            "predicted": predicted, "truth": truth}


def per_language(docs: list[dict[str, Any]], pairs: list[dict[str, Any]], predicted: set[tuple[int, int]]) -> dict[str, Any]:
    lang = {int(d["id"]): str(d.get("lang", "?")) for d in docs}
    dup = {(min(p["a"], p["b"]), max(p["a"], p["b"])): p for p in pairs if p["dup"]}
    neg = {(min(p["a"], p["b"]), max(p["a"], p["b"])): p for p in pairs if not p["dup"]}

    def group_of(pair: tuple[int, int]) -> str:
        return bucket(lang.get(pair[0], "?"), lang.get(pair[1], "?"))

    pred_n: Counter[str] = Counter(group_of(p) for p in predicted)
    hits: Counter[str] = Counter(group_of(p) for p in predicted if p in dup)
    truth_n: Counter[str] = Counter(group_of(p) for p in dup)
    fp_unlabelled: Counter[str] = Counter(group_of(p) for p in predicted if p not in dup and p not in neg)
    kinds: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    varies: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    recall_kind: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for pair, p in neg.items():
        g = group_of(pair)
        for table, key in ((kinds, p["kind"]), (varies, p.get("varies", "?"))):
            table[g][key][0] += 1
            table[g][key][1] += pair in predicted
    for pair, p in dup.items():
        cell = recall_kind[group_of(pair)][p["kind"]]
        cell[0] += 1
        cell[1] += pair in predicted
    groups = sorted(set(truth_n) | set(pred_n) | set(kinds), key=lambda g: (g == "mixed", g))

    def rates(table: dict[str, list[int]]) -> dict[str, dict[str, float]]:
        return {k: {"pairs": n, "rate": round(hit / n, 4)} for k, (n, hit) in sorted(table.items()) if n >= MIN_PAIRS_SHOWN}

    out: dict[str, Any] = {}
    for g in groups:
        fp = rates(kinds[g])
        worst = max(fp.items(), key=lambda kv: kv[1]["rate"], default=(None, {"rate": 0.0}))
        out[g] = {**prf(pred_n[g], hits[g], truth_n[g]), "unlabelled_false_positives": fp_unlabelled[g],
                  "false_positive_rate_by_kind": fp, "false_positive_rate_by_varies": rates(varies[g]),
                  "recall_by_kind": rates(recall_kind[g]), "worst_kind": worst[0], "worst_rate": worst[1]["rate"]}
    control = [g for g in CONTROL if g in out]
    if control:
        out["de+en"] = {
            **prf(sum(pred_n[g] for g in control), sum(hits[g] for g in control), sum(truth_n[g] for g in control)),
            "worst_rate": max(out[g]["worst_rate"] for g in control),
            "worst_kind": max(control, key=lambda g: out[g]["worst_rate"]) + ":" + str(
                out[max(control, key=lambda g: out[g]["worst_rate"])]["worst_kind"]),
        }
    return out


def run(corpus: Path, workers: int | None = None) -> dict[str, Any]:
    cfg = config.load(config_path=None, env={"HOME": "/nonexistent"}, overrides={})
    settings = engine.settings_from_config(cfg)
    documents = sources.read_jsonl(corpus / "docs.jsonl")
    truth = evaluation.read_truth(corpus / "pairs.jsonl")
    started = time.perf_counter()
    analysis = analyse(documents, settings, workers=workers)
    overall = evaluation.evaluate(documents, truth, analysis, settings)
    predicted = {(min(p.a, p.b), max(p.a, p.b)) for p in analysis.matches}
    result = per_language(read_jsonl(corpus / "docs.jsonl"), read_jsonl(corpus / "pairs.jsonl"), predicted)
    return {"corpus": str(corpus), "seconds": round(time.perf_counter() - started, 1),
            "overall": {k: overall[k] for k in ("documents", "truth_pairs", "predicted_pairs", "pairs")},
            "languages": result}


def table(result: dict[str, Any]) -> str:
    langs = result["languages"]
    lines = ["| language | precision | recall | F1 | reported pairs | duplicate pairs | worst false-positive rate |",
             "|---|---|---|---|---|---|---|"]
    for g, r in langs.items():
        lines.append(f"| {g} | {r['precision']:.3f} | {r['recall']:.3f} | {r['f1']:.3f} | {r['predicted']} | {r['truth']} | "
                     f"{r['worst_kind']} {r['worst_rate']:.3f} |")
    kinds = sorted({k for g, r in langs.items() for k in r.get("false_positive_rate_by_kind", {})})
    shown = [g for g in langs if "false_positive_rate_by_kind" in langs[g]]
    lines += ["", "False-positive rate per hard-negative kind (pairs in brackets):", "",
              "| kind | " + " | ".join(shown) + " |", "|---|" + "---|" * len(shown)]
    for k in kinds:
        cells = []
        for g in shown:
            c = langs[g]["false_positive_rate_by_kind"].get(k)
            cells.append(f"{c['rate']:.3f} ({c['pairs']})" if c else "-")
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    varies = sorted({k for g in shown for k in langs[g]["false_positive_rate_by_varies"]})
    lines += ["", "False-positive rate per varying value:", "", "| varies | " + " | ".join(shown) + " |",
              "|---|" + "---|" * len(shown)]
    for k in varies:
        cells = []
        for g in shown:
            c = langs[g]["false_positive_rate_by_varies"].get(k)
            cells.append(f"{c['rate']:.3f} ({c['pairs']})" if c else "-")
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", required=True, type=Path, help="a directory written by bench.corpus.multilingual")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON instead of tables")
    args = parser.parse_args(argv)
    if not (args.corpus / "docs.jsonl").is_file():
        parser.error(f"{args.corpus}/docs.jsonl not found: generate it with python -m bench.corpus.multilingual --out DIR")
    result = run(args.corpus, args.workers)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        o = result["overall"]["pairs"]
        print(f"{result['corpus']}: {result['overall']['documents']} documents, overall P {o['precision']:.3f} "
              f"R {o['recall']:.3f} F1 {o['f1']:.3f} ({result['seconds']} s)\n")
        print(table(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
