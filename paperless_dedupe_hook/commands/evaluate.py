"""Scoring a detection run against labelled pairs, and the audit lines.

Pure: the analysis and the truth come in, figures and records go out.  Pairs not
listed in the truth file are non-duplicates (PRODUCT.md).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from .._errors import UsageError
from ..core import cluster, text
from ..core.scoring import PairScore, combine, score, token_weigher
from ..engine import Settings
from ..rebuild import Analysis, Document

# A group whose weakest pair lies this far under the threshold is reported.
OVER_GROUP_MARGIN = 0.2


@dataclass(frozen=True)
class Truth:
    dup: dict[tuple[int, int], str]  # pair -> duplicate kind
    negative: dict[tuple[int, int], str]  # labelled hard negatives -> kind


def read_truth(path: Path) -> Truth:
    dup: dict[tuple[int, int], str] = {}
    negative: dict[tuple[int, int], str] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise UsageError(f"cannot read {path} ({exc.strerror}): check the path given to --truth/--pairs") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            a, b, is_dup = int(obj["a"]), int(obj["b"]), obj["dup"]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            raise UsageError(f"{path}:{number}: expected {{\"a\": id, \"b\": id, \"dup\": true|false, \"kind\": ...}}") from None
        pair = (min(a, b), max(a, b))
        (dup if is_dup else negative)[pair] = str(obj.get("kind") or ("duplicate" if is_dup else "negative"))
    return Truth(dup, negative)


def _prf(predicted: set[tuple[int, int]], truth: Mapping[tuple[int, int], str]) -> dict[str, float]:
    hits = len(predicted & truth.keys())
    precision = hits / len(predicted) if predicted else 1.0
    recall = hits / len(truth) if truth else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4)}


def _by_kind(pairs: Mapping[tuple[int, int], str], hit: set[tuple[int, int]]) -> dict[str, dict[str, float]]:
    totals: Counter[str] = Counter(pairs.values())
    hits: Counter[str] = Counter(kind for pair, kind in pairs.items() if pair in hit)
    return {k: {"pairs": totals[k], "rate": round(hits[k] / totals[k], 4)} for k in sorted(totals)}


def _verdicts(pairs: Mapping[tuple[int, int], str], reported: Mapping[tuple[int, int], PairScore]) -> dict[str, dict[str, int]]:
    """Per labelled kind: how many of its reported pairs got each verdict (duplicate, revision)."""
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for pair, kind in pairs.items():
        if pair in reported:
            out[kind][reported[pair].verdict] += 1
    return {k: dict(sorted(v.items())) for k, v in sorted(out.items())}


def implied_pairs(groups: Iterable[cluster.Group]) -> set[tuple[int, int]]:
    return {(a, b) for g in groups for a, b in combinations(g.members, 2)}


def evaluate(
    docs: Sequence[Document], truth: Truth, analysis: Analysis, settings: Settings
) -> dict[str, Any]:
    predicted = {(p.a, p.b) for p in analysis.matches}
    scored = {(p.a, p.b): p for p in analysis.scored}
    by_id = {f.doc_id: f for f in analysis.features}
    weight = token_weigher(analysis.document_frequency)

    def pair_score(a: int, b: int) -> PairScore | None:
        """The full figures (audit lines explain misses with them, not with bounds)."""
        if (a, b) in scored and scored[(a, b)].exact:
            return scored[(a, b)]
        fa, fb = by_id.get(a), by_id.get(b)
        if fa is None or fb is None or not fa.comparable or not fb.comparable:
            return None
        return score(fa, fb, settings.scoring, weight=weight, exact=True)

    threshold = settings.scoring.similarity_threshold
    contents = {d.id: d.content for d in docs}
    missed = []
    for (a, b), kind in sorted(truth.dup.items()):
        if (a, b) in predicted:
            continue
        ps = pair_score(a, b)
        candidate = (a, b) in analysis.candidates
        if ps is None:
            stage = "not_comparable"
        elif not candidate:
            stage = "not_candidate"
        elif by_id[a].short or by_id[b].short:
            stage = "short_rule"  # one is under min_words: compared by core.short's rule, or not at all
        elif ps.verdict == "revision" and not settings.scoring.report_revisions:
            stage = "revision_not_reported"
        elif combine(ps.similarity, ps.fuzzy, 1.0, settings.scoring) >= threshold:
            stage = "penalty"
        else:
            stage = "under_threshold"
        missed.append({
            "a": a, "b": b, "kind": kind, "true_sim": round(true_jaccard(contents.get(a, ""), contents.get(b, ""), settings), 4),
            "candidate": candidate, "score": round(ps.score, 4) if ps else None, "stage": stage,
        })
    false_positives = [
        {"a": a, "b": b, "kind": truth.negative.get((a, b), "unlabelled"), "score": round(scored[(a, b)].score, 4)}
        for a, b in sorted(predicted - truth.dup.keys())
    ]
    group_pairs = implied_pairs(analysis.groups)
    over_groups, weakest = [], 1.0
    for group in analysis.groups:
        sims: dict[tuple[int, int], float] = {}
        for a, b in combinations(group.members, 2):
            ps = pair_score(a, b)
            sims[(a, b)] = ps.score if ps else 0.0
        low = cluster.min_pairwise(group, sims)
        weakest = min(weakest, low)
        if low < threshold - OVER_GROUP_MARGIN:
            over_groups.append({"cluster": f"G-{group.primary}", "docs": len(group.members), "min_pairwise_sim": round(low, 4)})
    candidate_hits = len(analysis.candidates & truth.dup.keys())
    return {
        "documents": len(docs),
        "truth_pairs": len(truth.dup),
        "predicted_pairs": len(predicted),
        "candidates": len(analysis.candidates),
        "pairs": _prf(predicted, truth.dup),
        "groups": {
            **_prf(group_pairs, truth.dup),
            "count": len(analysis.groups),
            "largest": max((len(g.members) for g in analysis.groups), default=0),
            "min_pairwise_sim": round(weakest, 4),
        },
        "candidate_recall": round(candidate_hits / len(truth.dup), 4) if truth.dup else 1.0,
        "recall_by_kind": _by_kind(truth.dup, predicted),
        "false_positive_rate_by_kind": _by_kind(truth.negative, predicted),
        "verdicts_by_kind": _verdicts({**truth.negative, **truth.dup}, {(p.a, p.b): p for p in analysis.matches}),
        "missed_pairs": missed,
        "false_positives": false_positives,
        "over_groups": over_groups,
        "config": settings.describe(),
    }


def true_jaccard(a: str, b: str, settings: Settings) -> float:
    f = settings.features
    sa = text.shingles(text.shingle_words(text.normalize(a)), kind=f.shingle, size=f.ngram_size)
    sb = text.shingles(text.shingle_words(text.normalize(b)), kind=f.shingle, size=f.ngram_size)
    union = len(sa | sb)
    return len(sa & sb) / union if union else 0.0


def audit_lines(result: Mapping[str, Any]) -> list[str]:
    lines = []
    for m in result["missed_pairs"]:
        score_text = "n/a" if m["score"] is None else f"{m['score']:.3f}"
        lines.append(
            f"[ERROR] missed_pair {m['a']}/{m['b']} true_sim={m['true_sim']:.2f} "
            f"candidate={'true' if m['candidate'] else 'false'} score={score_text} stage={m['stage']} kind={m['kind']}"
        )
    for g in result["over_groups"]:
        lines.append(f"[ERROR] over_group cluster={g['cluster']}: {g['docs']} docs, min_pairwise_sim={g['min_pairwise_sim']:.2f}")
    return lines


def summary_lines(result: Mapping[str, Any]) -> list[str]:
    p, g = result["pairs"], result["groups"]
    lines = [
        f"documents {result['documents']}, labelled duplicate pairs {result['truth_pairs']}, "
        f"reported pairs {result['predicted_pairs']}, LSH candidates {result['candidates']}",
        f"pairs:  precision {p['precision']:.4f}  recall {p['recall']:.4f}  F1 {p['f1']:.4f}",
        f"groups: precision {g['precision']:.4f}  recall {g['recall']:.4f}  F1 {g['f1']:.4f}  "
        f"({g['count']} groups, largest {g['largest']}, min_pairwise_sim {g['min_pairwise_sim']:.3f})",
        f"LSH candidate recall {result['candidate_recall']:.4f}",
        "recall by duplicate kind:",
    ]
    verdicts = result.get("verdicts_by_kind", {})

    def shown(kind: str) -> str:
        counts = verdicts.get(kind, {})
        return ("  verdicts: " + ", ".join(f"{v} {n}" for v, n in counts.items())) if counts else ""

    lines += [f"  {k:<18} {v['rate']:.4f}  ({v['pairs']} pairs){shown(k)}" for k, v in result["recall_by_kind"].items()]
    lines.append("false-positive rate by hard-negative kind:")
    lines += [f"  {k:<18} {v['rate']:.4f}  ({v['pairs']} pairs){shown(k)}"
              for k, v in result["false_positive_rate_by_kind"].items()]
    stages: dict[str, int] = defaultdict(int)
    for m in result["missed_pairs"]:
        stages[m["stage"]] += 1
    if stages:
        lines.append("missed pairs by stage: " + ", ".join(f"{k} {v}" for k, v in sorted(stages.items())))
    return lines
