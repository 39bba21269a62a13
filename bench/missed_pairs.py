"""Why labelled duplicates are missed: the score components of every labelled pair under
the threshold (or of hard negatives over it), from the very features of ``evaluate``.

    python -m bench.missed_pairs --corpus /tmp/r3k [--kinds rescan,missing_page] [--negatives] [--tokens]

One line per pair: score, J (MinHash), the containment-corrected similarity, the ordered
overlap and its factor, the similarity the score used, F, D, and what D is made of:
agreement M, slot conflicts, conflicts per kind outside slots (``core/discriminative.py``).
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from paperless_dedupe_hook import config, engine, rebuild, sources
from paperless_dedupe_hook.commands import evaluate as evaluation
from paperless_dedupe_hook.core import discriminative, extract, holdback, ocr_slips, order, scoring


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", required=True, type=Path)
    parser.add_argument("--kinds", default="", help="comma-separated kinds (default: all)")
    parser.add_argument("--negatives", action="store_true", help="hard negatives at or over the threshold")
    parser.add_argument("--tokens", action="store_true", help="also the tokens only one side has")
    parser.add_argument("--why", action="store_true", help="also what held each back, as check -v says it (core/holdback.py)")
    args = parser.parse_args()
    settings = engine.settings_from_config(config.load(config_path=None, env={"HOME": "/nonexistent"}))
    params = settings.scoring
    feats = {f.doc_id: f for f in rebuild.compute_all(sources.read_jsonl(args.corpus / "docs.jsonl"), settings)}
    df: Counter[str] = Counter()
    for f in feats.values():
        df.update(f.tokens)
    weight = scoring.token_weigher(df)
    truth = evaluation.read_truth(args.corpus / "pairs.jsonl")
    pairs = truth.negative if args.negatives else truth.dup
    kinds = set(filter(None, args.kinds.split(",")))
    for (a, b), kind in sorted(pairs.items(), key=lambda item: (item[1], item[0])):
        fa, fb = feats.get(a), feats.get(b)
        if (kinds and kind not in kinds) or fa is None or fb is None or not (fa.comparable and fb.comparable):
            continue
        ps = scoring.score(fa, fb, params, weight=weight, exact=True)
        if params.reports(ps) != args.negatives:
            continue
        corrected = scoring.corrected_similarity(ps.jaccard, fa.shingle_count, fb.shingle_count, containment=params.containment)
        overlap = order.ordered_overlap(fa, fb) if not (fa.short or fb.short) else 0.0
        slips = (ocr_slips.conflict_weigher(ocr_slips.explained(fa.tokens, fb.tokens))
                 if corrected >= ocr_slips.MIN_SIMILARITY else None)
        plain_a = [t for t in fa.tokens if not t.startswith(extract.SLOT_MARK)]
        plain_b = [t for t in fb.tokens if not t.startswith(extract.SLOT_MARK)]
        agree, conflicts = discriminative._evidence(plain_a, plain_b, weight, slips)
        slot = discriminative.slot_conflicts(fa.tokens, fb.tokens, weight, conflict_weight=slips)
        print(f"{kind:16} {a}/{b} score={ps.score:.3f} J={ps.jaccard:.3f} contained={corrected:.3f} "
              f"ordered={overlap:.3f} factor={order.order_factor(overlap, text_only=scoring.text_only(fa, fb, ps.discriminative)):.2f} similarity={ps.similarity:.3f} "
              f"F={ps.fuzzy:.3f} D={ps.discriminative:.3f} M={agree:.2f} slot_conflicts={slot:.2f} "
              f"other_conflicts={ {k: round(v, 2) for k, v in conflicts.items()} } verdict={ps.verdict}")
        if args.why:
            for reason in holdback.explain_pair(fa, fb, params, weight=weight).reasons:
                print("    -", reason)
        if args.tokens:
            print("    only", a, sorted(fa.tokens - fb.tokens))
            print("    only", b, sorted(fb.tokens - fa.tokens))


if __name__ == "__main__":
    main()
