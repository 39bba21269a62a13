"""Whole-library analysis: features for every document, LSH candidates, scores,
groups.  Pure apart from the optional process pool: documents in, results out.

The index file is written by ``indexfile.write_fresh``; this module never touches
disk, so ``evaluate`` and ``tune`` run the very same code on a labelled corpus.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import combinations

from . import cluster
from .engine import Settings, is_derived_pair
from .features import Features, compute
from .scoring import PairScore, score, token_weigher

# A band bucket this large is boilerplate (many empty-ish or identical pages), not a
# set of candidates worth O(n^2) scoring; its pairs still meet in other bands.
MAX_BUCKET = 2000
# Below this many documents a process pool costs more than it saves.
PARALLEL_FROM = 400


@dataclass(frozen=True)
class Document:
    id: int
    content: str
    title: str = ""
    modified: str | None = None


@dataclass
class Analysis:
    features: list[Features]
    candidates: set[tuple[int, int]]
    scored: list[PairScore]
    matches: list[PairScore]
    groups: list[cluster.Group]
    modified: dict[int, str | None] = field(default_factory=dict)
    document_frequency: Counter[str] = field(default_factory=Counter)

    @property
    def documents(self) -> int:
        return len(self.features)


def _features_chunk(args: tuple[Sequence[Document], Settings]) -> list[Features]:
    docs, settings = args
    return [compute(d.id, d.content, settings.features, title=d.title) for d in docs]


def compute_all(
    docs: Sequence[Document], settings: Settings, *, workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Features]:
    workers = workers or os.cpu_count() or 1
    chunk = 200
    batches = [docs[i : i + chunk] for i in range(0, len(docs), chunk)]
    out: list[Features] = []
    if workers <= 1 or len(docs) < PARALLEL_FROM:
        for batch in batches:
            out.extend(_features_chunk((batch, settings)))
            if progress:
                progress(len(out))
        return out
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for result in pool.map(_features_chunk, [(b, settings) for b in batches]):
            out.extend(result)
            if progress:
                progress(len(out))
    return out


def candidate_pairs(features: Iterable[Features], settings: Settings) -> set[tuple[int, int]]:
    buckets: dict[int, list[int]] = {}
    for f in features:
        for key in settings.band_keys(f):
            buckets.setdefault(key, []).append(f.doc_id)
    pairs: set[tuple[int, int]] = set()
    for ids in buckets.values():
        if 1 < len(ids) <= MAX_BUCKET:
            pairs.update((a, b) if a < b else (b, a) for a, b in combinations(ids, 2))
    return pairs


def _score_chunk(
    args: tuple[list[tuple[int, int]], dict[int, Features], dict[str, int], Settings],
) -> list[PairScore]:
    pairs, by_id, df, settings = args
    weight = token_weigher(df)
    return [score(by_id[a], by_id[b], settings.scoring, weight=weight) for a, b in pairs]


def score_pairs(
    pairs: Sequence[tuple[int, int]], by_id: dict[int, Features], df: Counter[str], settings: Settings,
    *, workers: int | None = None,
) -> list[PairScore]:
    workers = workers or os.cpu_count() or 1
    if workers <= 1 or len(pairs) < 20_000:
        return _score_chunk((list(pairs), by_id, dict(df), settings))
    # Each worker gets only the documents its pairs need.
    size = (len(pairs) + workers - 1) // workers
    jobs = []
    for start in range(0, len(pairs), size):
        part = list(pairs[start : start + size])
        needed = {i for p in part for i in p}
        jobs.append((part, {i: by_id[i] for i in needed}, dict(df), settings))
    out: list[PairScore] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for result in pool.map(_score_chunk, jobs):
            out.extend(result)
    return out


def analyse(
    docs: Sequence[Document],
    settings: Settings,
    *,
    dismissed: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset(),
    workers: int | None = None,
    features: list[Features] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Analysis:
    feats = features if features is not None else compute_all(docs, settings, workers=workers, progress=progress)
    by_id = {f.doc_id: f for f in feats}
    df: Counter[str] = Counter()
    for f in feats:
        df.update(f.tokens)
    candidates = candidate_pairs(feats, settings)
    eligible = sorted(
        p
        for p in candidates
        if p not in dismissed
        and not (settings.ignore_derived and is_derived_pair(by_id[p[0]].title, by_id[p[1]].title))
    )
    scored = score_pairs(eligible, by_id, df, settings, workers=workers)
    threshold = settings.scoring.similarity_threshold
    matches = sorted((p for p in scored if p.score >= threshold), key=lambda p: (p.a, p.b))
    groups = cluster.groups((p.a, p.b, p.score) for p in matches)
    return Analysis(
        features=feats,
        candidates=candidates,
        scored=scored,
        matches=matches,
        groups=groups,
        modified={d.id: d.modified for d in docs},
        document_frequency=df,
    )


def report(analysis: Analysis, settings: Settings) -> dict[str, object]:
    """The ``--report`` JSON of PRODUCT.md."""
    return {
        "config": settings.describe(),
        "documents": analysis.documents,
        "candidates": len(analysis.candidates),
        "pairs": [p.as_dict() for p in analysis.matches],
        "groups": [
            {"primary": g.primary, "members": list(g.members), "confidence": g.confidence} for g in analysis.groups
        ],
    }
