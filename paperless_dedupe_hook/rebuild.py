"""Whole-library analysis: features for every document, LSH candidates, scores,
groups.  Pure apart from the optional process pool: documents in, results out.

The index file is written by ``indexfile.write_fresh``; this module never touches
disk, so ``evaluate`` and ``tune`` run the very same code on a labelled corpus.
"""

from __future__ import annotations

import gc
import os
from array import array
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import chain, combinations, islice, repeat
from typing import TYPE_CHECKING

import numpy as np

from .core import cluster, minhash
from .core.commonkeys import COMMON_KEY_DOCS, RARE_KEY_DOCS, SHARED_KEYS_NEEDED
from .core.features import Features, compute
from .core.scoring import PairScore, out_of_reach, score, token_weigher
from .engine import Settings, is_derived_pair

if TYPE_CHECKING:
    from .core.picture import PictureSignature

# Below this many documents a process pool costs more than it saves.
PARALLEL_FROM = 400
# Scoring: pairs per job, and below how many pairs one process scores them all.
SCORE_JOB_PAIRS = 5_000
PARALLEL_SCORING_FROM = 20_000


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
    # The scores of the candidates that came within reach of the threshold (exact figures;
    # the reported pairs among them): the others' lower bounds are not kept.
    scored: list[PairScore]
    matches: list[PairScore]
    groups: list[cluster.Group]
    modified: dict[int, str | None] = field(default_factory=dict)
    document_frequency: Counter[str] = field(default_factory=Counter)
    # Each document's band keys, computed once by the feature workers: the candidates
    # and the index file both need them (64 four-byte keys each: about 35 MB at 100k).
    band_keys: dict[int, array[int]] = field(default_factory=dict)
    # The first-page pictures of documents with too little text (picturepairs.add_pictures).
    pictures: dict[int, PictureSignature] = field(default_factory=dict)

    def keys_of(self, feats: Features) -> array[int]:
        return self.band_keys[feats.doc_id]

    @property
    def documents(self) -> int:
        return len(self.features)


def _features_chunk(args: tuple[Sequence[Document], Settings]) -> list[tuple[Features, array[int]]]:
    docs, settings = args
    out = []
    for d in docs:
        feats = compute(d.id, d.content, settings.features, title=d.title)
        out.append((feats, array("i", settings.band_keys(feats))))
    return out


def _batches(docs: Iterable[Document], size: int, modified: dict[int, str | None] | None) -> Iterator[list[Document]]:
    batch: list[Document] = []
    for d in docs:
        if modified is not None:
            modified[d.id] = d.modified
        batch.append(d)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def compute_all(
    docs: Iterable[Document], settings: Settings, *, workers: int | None = None,
    progress: Callable[[int], None] | None = None, modified: dict[int, str | None] | None = None,
    band_keys: dict[int, array[int]] | None = None,
) -> list[Features]:
    """Features of every document, in order.  ``docs`` may be read as it goes (a
    JSONL file, the API): at most two batches per worker are held at once, so memory
    grows with the features, not with the library's text.  ``modified``, when given,
    is filled with each document's ``modified``; ``band_keys`` with its band keys."""
    workers = workers or os.cpu_count() or 1
    chunk = 200
    batches = _batches(docs, chunk, modified)
    head = list(islice(batches, PARALLEL_FROM // chunk + 1))  # enough to tell a small library
    out: list[Features] = []

    def take(done: list[tuple[Features, array[int]]]) -> None:
        for feats, keys in done:
            out.append(feats)
            if band_keys is not None:
                band_keys[feats.doc_id] = keys
        if progress:
            progress(len(out))

    if workers <= 1 or sum(map(len, head)) < PARALLEL_FROM:
        for batch in chain(head, batches):
            take(_features_chunk((batch, settings)))
        return out
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: deque[Future[list[tuple[Features, array[int]]]]] = deque()
        for batch in chain(head, batches):
            pending.append(pool.submit(_features_chunk, (batch, settings)))
            while len(pending) >= 2 * workers or (pending and pending[0].done()):
                take(pending.popleft().result())
        while pending:
            take(pending.popleft().result())
    return out


def candidate_pairs(
    features: Iterable[Features], settings: Settings, *, band_keys: Mapping[int, Sequence[int]] | None = None,
) -> set[tuple[int, int]]:
    """Pairs that share a band key (``band_keys``: each document's, if known already)
    that is evidence by :func:`.core.commonkeys.bucket_role`: one that at most
    ``RARE_KEY_DOCS`` documents share, or ``SHARED_KEYS_NEEDED`` that at most
    ``COMMON_KEY_DOCS`` share.  Document ids must be under 2**32."""
    # Flat (key, id) columns sorted by key instead of a dict of lists: 12 bytes per
    # band row instead of ~130 (100k documents x 64 bands: 77 MB, not 830 MB).
    keys = array("i")  # band keys are 31-bit: they fit a signed 32-bit integer
    ids = array("q")
    for f in features:
        band = band_keys[f.doc_id] if band_keys is not None else settings.band_keys(f)
        keys.extend(band)
        ids.extend(repeat(f.doc_id, len(band)))
    pairs: set[tuple[int, int]] = set()
    if not keys:
        return pairs
    key_col = np.frombuffer(keys, dtype=np.int32)
    order = np.argsort(key_col, kind="stable")
    sorted_keys = key_col[order]
    starts = np.flatnonzero(np.concatenate(([True], sorted_keys[1:] != sorted_keys[:-1])))
    lengths = np.diff(np.append(starts, len(sorted_keys)))
    wanted = (lengths > 1) & (lengths <= COMMON_KEY_DOCS)
    id_col = np.frombuffer(ids, dtype=np.int64)
    shared = array("q")  # pairs met in a "shared" key, packed low << 32 | high, to count
    for start, length in zip(starts[wanted].tolist(), lengths[wanted].tolist(), strict=True):
        members = id_col[order[start : start + length]].tolist()
        met = ((a, b) if a < b else (b, a) for a, b in combinations(members, 2))
        if length <= RARE_KEY_DOCS:
            pairs.update(met)
        else:
            shared.extend(a << 32 | b for a, b in met)
    if shared:
        codes, counts = np.unique(np.frombuffer(shared, dtype=np.int64), return_counts=True)
        pairs.update((c >> 32, c & 0xFFFFFFFF) for c in codes[counts >= SHARED_KEYS_NEEDED].tolist())
    return pairs


# A scoring job: its pairs, the features and token counts they need, the settings, and
# whether to send back only the scores that came within reach of the threshold.
ScoreJob = tuple[list[tuple[int, int]], Mapping[int, Features], Mapping[str, int], Settings, bool]


def _score_chunk(job: ScoreJob) -> list[tuple[int, PairScore]]:
    """(position in the job, score) of the job's pairs; with ``reached_only`` only the exact
    ones and those at or above the threshold (every pair that can be reported)."""
    pairs, by_id, df, settings, reached_only = job
    weight = token_weigher(df)
    scores = ((k, score(by_id[a], by_id[b], settings.scoring, weight=weight)) for k, (a, b) in enumerate(pairs))
    threshold = settings.scoring.similarity_threshold
    return [(k, s) for k, s in scores if not reached_only or s.exact or s.score >= threshold]


def _score_jobs(
    pairs: Sequence[tuple[int, int]], by_id: Mapping[int, Features], df: Mapping[str, int], settings: Settings,
    reached_only: bool = False,
) -> Iterator[ScoreJob]:
    # Each job carries only the documents and token counts its pairs need, and jobs
    # are small: two workers holding half the library's features each was ~0.8 GB of
    # a 100k rebuild's peak.
    for start in range(0, len(pairs), SCORE_JOB_PAIRS):
        part = list(pairs[start : start + SCORE_JOB_PAIRS])
        feats = {i: by_id[i] for pair in part for i in pair}
        tokens = set().union(*(f.tokens for f in feats.values()))
        yield part, feats, {t: df[t] for t in tokens if t in df}, settings, reached_only


def _out_of_reach(
    pairs: Sequence[tuple[int, int]], by_id: Mapping[int, Features], settings: Settings,
) -> list[PairScore | None]:
    """``scoring.out_of_reach`` of every pair, with the signature agreements counted in
    numpy for all pairs at once: most candidates of a large library end here, and
    sending them to the scoring workers cost more than scoring them (their features,
    samples included, pickled there and back)."""
    if not pairs:
        return []
    ids = sorted({i for pair in pairs for i in pair})
    row = {doc_id: k for k, doc_id in enumerate(ids)}
    sigs = np.stack([by_id[i].signature for i in ids])  # type: ignore[misc]  # candidates all have one
    left = np.fromiter((row[a] for a, _b in pairs), dtype=np.int64, count=len(pairs))
    right = np.fromiter((row[b] for _a, b in pairs), dtype=np.int64, count=len(pairs))
    counts = np.empty(len(pairs), dtype=np.int64)
    step = 32_768  # pairs per block: two (step x permutations) gathers of ~16 MB
    for start in range(0, len(pairs), step):
        block = slice(start, start + step)
        counts[block] = np.count_nonzero(sigs[left[block]] == sigs[right[block]], axis=1)
    length, narrow = sigs.shape[1], sigs.dtype == np.uint16
    params = settings.scoring
    return [
        out_of_reach(by_id[a], by_id[b], minhash.jaccard_of_agreements(n, length, narrow=narrow), params)
        for (a, b), n in zip(pairs, counts.tolist(), strict=True)
    ]


# Called with (candidates scored so far, all candidates) as the scoring stage goes.
ScoringProgress = Callable[[int, int], None]


def score_pairs(
    pairs: Sequence[tuple[int, int]], by_id: Mapping[int, Features], df: Mapping[str, int], settings: Settings,
    *, workers: int | None = None, progress: ScoringProgress | None = None, reached_only: bool = False,
) -> list[PairScore]:
    """Scores of ``pairs``, in order: each what ``scoring.score`` gives it.  ``progress``
    hears the count of pairs done: those out of reach at once, the rest as they are scored.

    ``reached_only``: only the exact scores and those at or above the threshold (every
    reported pair among them), still in order; the lower bounds of the others are dropped
    as they come (the numpy bounds are never at the threshold: they say it is out of
    reach).  At 1.5M candidates those were a few hundred MB of a rebuild's peak."""
    bounds = _out_of_reach(pairs, by_id, settings)
    rest = [pair for pair, bound in zip(pairs, bounds, strict=True) if bound is None]
    settled = len(pairs) - len(rest)
    if reached_only:
        del bounds  # all lower bounds (exact=False)

    def told(done: int) -> None:
        if progress is not None:
            progress(settled + done, len(pairs))

    told(0)
    kept = _score_rest(rest, by_id, df, settings, workers=workers, progress=told, reached_only=reached_only)
    if reached_only:
        return [s for _k, s in kept]
    scored = iter(s for _k, s in kept)
    return [bound if bound is not None else next(scored) for bound in bounds]


def _score_rest(
    pairs: Sequence[tuple[int, int]], by_id: Mapping[int, Features], df: Mapping[str, int], settings: Settings,
    *, workers: int | None = None, progress: Callable[[int], None] | None = None, reached_only: bool = False,
) -> list[tuple[int, PairScore]]:
    """(position in ``pairs``, score) of the pairs scored (all, or with ``reached_only`` the
    exact ones), by position."""
    workers = workers or os.cpu_count() or 1
    out: list[tuple[int, PairScore]] = []
    done = 0
    if workers <= 1 or len(pairs) < PARALLEL_SCORING_FROM:
        for start in range(0, len(pairs), SCORE_JOB_PAIRS):
            part = list(pairs[start : start + SCORE_JOB_PAIRS])
            out.extend((start + k, s) for k, s in _score_chunk((part, by_id, df, settings, reached_only)))
            done += len(part)
            if progress is not None:
                progress(done)
        return out
    # Jobs of pairs that share documents: a job then carries (pickles) a few hundred
    # documents instead of thousands, and the scorer's per-document caches hit.
    order = local_order(pairs).tolist()
    local = [pairs[k] for k in order]
    # The workers are forked from a parent holding every document's features: frozen,
    # those objects are never visited by the children's garbage collector, whose
    # writes to their headers would otherwise copy the shared pages into each child.
    gc.freeze()
    try:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending: deque[tuple[int, int, Future[list[tuple[int, PairScore]]]]] = deque()

            def take() -> None:
                nonlocal done
                start, size, future = pending.popleft()
                out.extend((order[start + k], s) for k, s in future.result())
                done += size
                if progress is not None:
                    progress(done)

            jobs = _score_jobs(local, by_id, df, settings, reached_only)
            for start, job in zip(range(0, len(local), SCORE_JOB_PAIRS), jobs, strict=True):
                pending.append((start, len(job[0]), pool.submit(_score_chunk, job)))
                while len(pending) >= 2 * workers:  # bounded: at most two jobs per worker in flight
                    take()
            while pending:
                take()
    finally:
        gc.unfreeze()
    out.sort(key=lambda item: item[0])
    return out


def local_order(pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    """Positions of ``pairs`` such that pairs sharing documents come together: by connected
    component of the graph they form, then by the smallest document among both ends and
    their neighbours, then by ids.  At 100k a few stock phrases join most families into one
    component; the neighbour rank still keeps a family's pairs together (a 5,000-pair job
    carries ~1,300 documents instead of ~4,800).  In numpy: label propagation with pointer
    jumping for the components, one propagation step for the neighbours."""
    if not pairs:
        return np.zeros(0, dtype=np.int64)
    ends = np.array(pairs, dtype=np.int64)
    ids, dense = np.unique(ends, return_inverse=True)
    left, right = dense.reshape(-1, 2)[:, 0], dense.reshape(-1, 2)[:, 1]

    def step(label: np.ndarray) -> np.ndarray:
        low = np.minimum(label[left], label[right])
        new = label.copy()
        np.minimum.at(new, left, low)
        np.minimum.at(new, right, low)
        return new

    nearest = step(np.arange(len(ids), dtype=np.int64))  # each document's smallest neighbour (or itself)
    component = nearest
    while True:
        new = step(component)
        new = new[new]  # a label is a node of the component: follow it towards the smallest
        if np.array_equal(new, component):
            break
        component = new
    return np.lexsort((right, left, np.minimum(nearest[left], nearest[right]), component[left]))


def analyse(
    docs: Iterable[Document],
    settings: Settings,
    *,
    dismissed: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset(),
    workers: int | None = None,
    features: list[Features] | None = None,
    progress: Callable[[int], None] | None = None,
    scoring_progress: ScoringProgress | None = None,
) -> Analysis:
    keys: dict[int, array[int]] = {}
    if features is not None:
        feats = features
        modified = {d.id: d.modified for d in docs}
        keys = {f.doc_id: array("i", settings.band_keys(f)) for f in feats}
    else:
        modified = {}
        feats = compute_all(docs, settings, workers=workers, progress=progress, modified=modified, band_keys=keys)
    by_id = {f.doc_id: f for f in feats}
    df: Counter[str] = Counter()
    for f in feats:
        df.update(f.tokens)
    candidates = candidate_pairs(feats, settings, band_keys=keys)
    eligible = sorted(
        p
        for p in candidates
        if p not in dismissed
        and not (settings.ignore_derived and is_derived_pair(by_id[p[0]].title, by_id[p[1]].title))
    )
    scored = score_pairs(eligible, by_id, df, settings, workers=workers, progress=scoring_progress, reached_only=True)
    matches = sorted((p for p in scored if settings.scoring.reports(p)), key=lambda p: (p.a, p.b))
    groups = cluster.groups((p.a, p.b, p.score) for p in matches)
    return Analysis(
        features=feats,
        candidates=candidates,
        scored=scored,
        matches=matches,
        groups=groups,
        modified=modified,
        document_frequency=df,
        band_keys=keys,
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
