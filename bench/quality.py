"""Detection quality of several configurations on one labelled corpus, side by side.

    python -m bench.corpus.generate --out /tmp/q3k --docs 3000 --seed 1
    python -m bench.quality --corpus /tmp/q3k [--variants default,seed,plain] [--json out.json]

Every variant runs the very pipeline of ``paperless-dedupe evaluate`` (features, LSH
candidates, scoring, grouping); a few variants swap one idea out (module switches
below) to show what each idea buys.  Prints a Markdown table for docs/quality.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paperless_dedupe_hook import config, engine, rebuild, sources
from paperless_dedupe_hook.commands import evaluate as evaluation
from paperless_dedupe_hook.core import discriminative, extract, ocr_slips, revision, scoring, short
from paperless_dedupe_hook.rebuild import analyse

# name -> (description, config overrides, module switches)
VARIANTS: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "default": ("our defaults", {}, {}),
    "plain": (
        "plain shingle Jaccard >= 0.7 (word 3-grams, no fuzzy, no penalty)",
        {"detection.jaccard_weight": 100, "detection.fuzzy_weight": 0, "detection.discriminative_penalty_strength": 0,
         "detection.similarity_threshold": 0.7, "detection.containment": False, "detection.ngram_size": 3},
        {},
    ),
    "seed": (
        "seed defaults (256 perm, 32 bands, word 3-grams, 60/40, penalty 70, 0.75; first-N fuzzy, kind-level D)",
        {"detection.num_bands": 32, "detection.ngram_size": 3, "detection.containment": False},
        {"fuzzy": "first", "disc": "kind"},
    ),
    "ngram3": ("our defaults with word 3-grams", {"detection.ngram_size": 3}, {}),
    "ngram2": ("our defaults with word 2-grams", {"detection.ngram_size": 2}, {}),
    "ngram1": ("our defaults with single words", {"detection.ngram_size": 1}, {}),
    "char5": ("our defaults with character 5-grams", {"detection.shingle": "char", "detection.ngram_size": 5}, {}),
    "no_containment": ("our defaults without containment", {"detection.containment": False}, {}),
    "ratio_containment": ("containment as J / size ratio instead of the overlap coefficient", {}, {"cmode": "ratio"}),
    "kind_level_d": ("discriminative score without slots (conflicts per kind)", {}, {"disc": "kind"}),
    "first_n_fuzzy": ("fuzzy ratio on the first N characters instead of head and tail", {}, {"fuzzy": "first"}),
    "union_find": ("plain union-find groups (chains allowed)", {}, {"groups": "union_find"}),
    # issue 12: template text is no evidence; each column takes one idea out, `before_12` all three
    "no_order": ("our defaults without the order factor on the shingle similarity", {}, {"ordered": False}),
    "fading_conflicts": ("our defaults with conflicts weighed down for values common in the archive", {},
                         {"fade": True}),
    "fading_unlabelled": ("our defaults with conflicts outside a common slot weighed down for common values "
                          "(slot conflicts keep their weight)", {}, {"fade_unlabelled": True}),
    "no_moved_slots": ("slot values a scan read out of line (each also a value of the other) conflict", {},
                       {"moved": False}),
    "no_street_echoes": ("a street one document reads twice (OCR slip, lost first word) conflicts", {},
                         {"echoes": False}),
    "all_keys": ("our defaults with every band key of up to 2,000 documents making candidates (as before)", {}, {"keys": 2000}),
    "before_12": ("before issue 12: all three of the above", {}, {"ordered": False, "fade": True, "keys": 2000}),
    "no_ocr_slips": ("conflicts an OCR confusion explains weigh as much as any (issue 13)", {}, {"slips": False}),
    "no_short": ("short documents never compared (before issue 13)", {}, {"short": False}),
    "no_revision": ("no revision verdict: version dates conflict like any date (before issue 13)", {}, {"revision": False}),
}


@contextlib.contextmanager
def switched(switches: dict[str, Any]) -> Iterator[None]:
    saved = (scoring.CONTAINMENT_MODE, scoring.fuzzy_similarity, discriminative.slot_similarity)
    saved_12 = (scoring.ORDERED, discriminative.CONFLICTS_FADE, rebuild.COMMON_KEY_DOCS, rebuild.RARE_KEY_DOCS)
    saved_13 = (ocr_slips.MAX_SLIPS, short.MIN_TEXT_RATIO, revision._is_version_label)
    saved_12a = (discriminative.SLOT_CONFLICTS_FADE, discriminative._moved, discriminative._street_echoes)
    try:
        scoring.ORDERED = switches.get("ordered", scoring.ORDERED)
        discriminative.CONFLICTS_FADE = switches.get("fade", discriminative.CONFLICTS_FADE)
        discriminative.SLOT_CONFLICTS_FADE = switches.get("fade", discriminative.SLOT_CONFLICTS_FADE)
        if switches.get("fade_unlabelled"):
            discriminative.CONFLICTS_FADE = True
        if switches.get("moved") is False:
            discriminative._moved = lambda *_: False  # type: ignore[assignment]
        if switches.get("echoes") is False:
            discriminative._street_echoes = lambda *_: frozenset()  # type: ignore[assignment]
        if "keys" in switches:  # every key shared by at most this many documents makes candidates
            rebuild.COMMON_KEY_DOCS = rebuild.RARE_KEY_DOCS = switches["keys"]
        if switches.get("slips") is False:
            ocr_slips.MAX_SLIPS = 0
        if switches.get("short") is False:
            short.MIN_TEXT_RATIO = 2.0  # the rule never holds
        if switches.get("revision") is False:  # no label is a version label (the lookups are cached)
            revision._is_version_label = lambda _label: False  # type: ignore[assignment]
            revision._cached_version_dates.cache_clear()
        if "cmode" in switches:
            scoring.CONTAINMENT_MODE = switches["cmode"]
        if switches.get("fuzzy") == "first":
            def first_n(a: Any, b: Any, *, cutoff: float = 0.0) -> float:
                return float(scoring.ratio(a.head, b.head)) / 100.0
            scoring.fuzzy_similarity = first_n  # type: ignore[assignment]
        if switches.get("disc") == "kind":
            def kind_level(a: Any, b: Any, weight: Any = None) -> float:
                plain_a = [t for t in a if not t.startswith(extract.SLOT_MARK)]
                plain_b = [t for t in b if not t.startswith(extract.SLOT_MARK)]
                return discriminative.discriminative_similarity(plain_a, plain_b, weight)
            discriminative.slot_similarity = kind_level  # type: ignore[assignment]
        yield
    finally:
        discriminative.SLOT_CONFLICTS_FADE, discriminative._moved, discriminative._street_echoes = saved_12a  # type: ignore[assignment]
        ocr_slips.MAX_SLIPS, short.MIN_TEXT_RATIO, revision._is_version_label = saved_13  # type: ignore[assignment]
        revision._cached_version_dates.cache_clear()
        scoring.CONTAINMENT_MODE, scoring.fuzzy_similarity, discriminative.slot_similarity = saved  # type: ignore[assignment]
        scoring.ORDERED, discriminative.CONFLICTS_FADE, rebuild.COMMON_KEY_DOCS, rebuild.RARE_KEY_DOCS = saved_12


def run_variant(name: str, corpus: Path, workers: int | None) -> dict[str, Any]:
    description, overrides, switches = VARIANTS[name]
    cfg = config.load(config_path=None, env={"HOME": "/nonexistent"}, overrides=overrides)
    settings = engine.settings_from_config(cfg)
    docs = sources.read_jsonl(corpus / "docs.jsonl")
    truth = evaluation.read_truth(corpus / "pairs.jsonl")
    started = time.perf_counter()
    with switched(switches):
        analysis = analyse(docs, settings, workers=workers)
        if switches.get("groups") == "union_find":
            from paperless_dedupe_hook.core import cluster

            analysis.groups = cluster.union_find_groups((p.a, p.b, p.score) for p in analysis.matches)
        result = evaluation.evaluate(docs, truth, analysis, settings)
    result["seconds"] = round(time.perf_counter() - started, 1)
    result["variant"], result["description"] = name, description
    return result


def table(results: list[dict[str, Any]]) -> str:
    kinds = sorted(results[0]["recall_by_kind"])
    negatives = sorted(results[0]["false_positive_rate_by_kind"])
    head = ["figure"] + [r["variant"] for r in results]
    rows = [
        ["pair precision"] + [f"{r['pairs']['precision']:.3f}" for r in results],
        ["pair recall"] + [f"{r['pairs']['recall']:.3f}" for r in results],
        ["pair F1"] + [f"{r['pairs']['f1']:.3f}" for r in results],
        ["group precision"] + [f"{r['groups']['precision']:.3f}" for r in results],
        ["group recall"] + [f"{r['groups']['recall']:.3f}" for r in results],
        ["group F1"] + [f"{r['groups']['f1']:.3f}" for r in results],
        ["largest group"] + [str(r["groups"]["largest"]) for r in results],
        ["smallest min_pairwise_sim"] + [f"{r['groups']['min_pairwise_sim']:.3f}" for r in results],
        ["LSH candidate recall"] + [f"{r['candidate_recall']:.3f}" for r in results],
        ["LSH candidates"] + [str(r["candidates"]) for r in results],
        ["LSH candidates per document"] + [f"{r['candidates'] / max(1, r['documents']):.1f}" for r in results],
    ]
    rows += [[f"recall: {k}"] + [f"{r['recall_by_kind'][k]['rate']:.3f}" for r in results] for k in kinds]
    rows += [[f"FP rate: {k}"] + [f"{r['false_positive_rate_by_kind'][k]['rate']:.3f}" for r in results] for k in negatives]
    rows.append(["unlabelled false positives"] + [
        str(sum(1 for f in r["false_positives"] if f["kind"] == "unlabelled")) for r in results])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", required=True, type=Path)
    parser.add_argument("--variants", default="default,seed,plain")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = [run_variant(name, args.corpus, args.workers) for name in args.variants.split(",")]
    print(table(results))
    for r in results:
        print(f"- `{r['variant']}`: {r['description']} ({r['seconds']} s)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
