"""Turns a configuration into detection settings and finds one document's matches.

Shared by the hook, ``check`` and the rebuild, so that all three score exactly
alike.  Holds no state of its own: the index and the documents come in as values.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import __version__
from .config import Config
from .core import banding, holdback, minhash, text
from .core.features import EXTRACTOR_VERSION, FeatureParams, Features, with_text
from .core.languages import codes_of_ocr
from .core.scoring import PairScore, ScoreParams, may_reach, score, token_weigher
from .index.sqlite import SCHEMA_VERSION

# The meta entry holding ``Settings.origin`` (not a compat key: it is stored, never compared).
ORIGIN_META_KEY = "built_with_settings"
# The user's keys from which the index's compat values are derived.
ORIGIN_KEYS = (
    "detection.num_permutations", "detection.seed", "detection.shingle", "detection.ngram_size",
    "detection.min_words", "detection.num_bands", "detection.lsh_threshold", "detection.similarity_threshold",
)

# Paperless names a merge result "<title> (merged)" and split parts "<title> (split N)"
# (or "(part N)"); these resemble their sources by construction.
_DERIVED_TITLE = re.compile(r"\s\((?:merged|split \d+|part \d+)\)\s*$", re.IGNORECASE)


@dataclass(frozen=True, kw_only=True)
class Settings:
    features: FeatureParams
    scoring: ScoreParams
    banding: banding.Banding
    lsh_target: float
    ignore_derived: bool = True
    # The user's settings that decide the compat values (drift.ORIGIN_KEYS), stored with a new
    # index so that a later mismatch can name the setting the user changed, not a derived one.
    origin: Mapping[str, Any] = field(default_factory=dict)

    @property
    def band_rows(self) -> tuple[int, int]:
        return self.banding.bands, self.banding.rows

    def band_keys(self, feats: Features) -> list[int]:
        if feats.signature is None:
            return []
        return minhash.band_keys(feats.signature, bands=self.banding.bands, rows=self.banding.rows)

    def compat(self) -> dict[str, str]:
        """What the index's meta table must hold for its signatures to be usable."""
        f = self.features
        return {
            "schema_version": str(SCHEMA_VERSION),
            "hash_scheme": minhash.HASH_SCHEME,
            "normalizer_version": text.NORMALIZER_VERSION,
            "extractor_version": EXTRACTOR_VERSION,
            "num_permutations": str(f.num_permutations),
            "seed": str(f.seed),
            "shingle": f.shingle,
            "ngram_size": str(f.ngram_size),
            "bands": str(self.banding.bands),
            "rows": str(self.banding.rows),
            "min_words": str(f.min_words),
        } | ({ORIGIN_META_KEY: json.dumps(dict(self.origin), sort_keys=True)} if self.origin else {})

    def describe(self) -> dict[str, Any]:
        """Everything needed to reproduce a clustering (reports, status --json)."""
        f, s = self.features, self.scoring
        return {
            "package_version": __version__,
            "num_permutations": f.num_permutations,
            "num_bands": self.banding.bands,
            "rows": self.banding.rows,
            "lsh_threshold": self.lsh_target,
            "s_curve_midpoint": round(self.banding.midpoint, 4),
            "similarity_threshold": s.similarity_threshold,
            "jaccard_weight": s.jaccard_weight,
            "fuzzy_weight": s.fuzzy_weight,
            "discriminative_penalty_strength": s.penalty_strength,
            "containment": s.containment,
            "report_revisions": s.report_revisions,
            "shingle": f.shingle,
            "ngram_size": f.ngram_size,
            "min_words": f.min_words,
            "fuzzy_sample_size": f.fuzzy_sample_size,
            "seed": f.seed,
            "hash_scheme": minhash.HASH_SCHEME,
            "normalizer_version": text.NORMALIZER_VERSION,
            "extractor_version": EXTRACTOR_VERSION,
            "ignore_derived": self.ignore_derived,
            "languages": list(f.languages) or "auto",
            "language_hint": list(f.language_hint),
        }

    def log_lines(self) -> list[str]:
        """The ``LSH config:`` line and, when the curve is off target, the warning."""
        lines = [banding.config_line(self.features.num_permutations, self.banding, self.lsh_target)]
        warning = banding.midpoint_warning(self.banding, self.lsh_target)
        if warning:
            lines.append(warning)
        return lines


def settings_from_config(config: Config) -> Settings:
    v = config.values
    num_perm = int(v["detection.num_permutations"])
    target = banding.lsh_target(float(v["detection.similarity_threshold"]), v["detection.lsh_threshold"])
    return Settings(
        features=FeatureParams(
            num_permutations=num_perm,
            seed=int(v["detection.seed"]),
            shingle=str(v["detection.shingle"]),
            ngram_size=int(v["detection.ngram_size"]),
            fuzzy_sample_size=int(v["detection.fuzzy_sample_size"]),
            min_words=int(v["detection.min_words"]),
            languages=() if v["detection.languages"] == "auto" else tuple(v["detection.languages"]),
            # Paperless's own OCR setting ("deu+eng"), in the environment the hook runs in
            language_hint=codes_of_ocr(os.environ.get("PAPERLESS_OCR_LANGUAGE", "")),
        ),
        scoring=ScoreParams(
            similarity_threshold=float(v["detection.similarity_threshold"]),
            jaccard_weight=float(v["detection.jaccard_weight"]),
            fuzzy_weight=float(v["detection.fuzzy_weight"]),
            penalty_strength=float(v["detection.discriminative_penalty_strength"]),
            containment=bool(v["detection.containment"]),
            report_revisions=bool(v["detection.report_revisions"]),
        ),
        banding=banding.resolve(num_perm, v["detection.num_bands"], target),
        lsh_target=target,
        ignore_derived=bool(v["detection.ignore_derived"]),
        origin={name: v[name] for name in ORIGIN_KEYS},
    )


def is_derived_pair(title_a: str, title_b: str) -> bool:
    """A merge or split result next to another document: expected to look alike."""
    return bool(_DERIVED_TITLE.search(title_a or "") or _DERIVED_TITLE.search(title_b or ""))


class IndexReader(Protocol):
    def candidates(self, keys: list[int], *, exclude: int | None = None) -> list[int]: ...
    def features(self, ids: Iterable[int], num_permutations: int) -> list[Features]: ...
    def document_frequency(self, tokens: Iterable[str]) -> dict[str, int]: ...


# Fetches documents' current texts by id (from Paperless); ids it cannot see are left out.
TextSource = Callable[[Sequence[int]], Mapping[int, str]]


def _eligible(
    feats: Features, other: Features, settings: Settings, dismissed: set[tuple[int, int]] | frozenset[tuple[int, int]],
) -> bool:
    if other.doc_id == feats.doc_id or not other.comparable:
        return False
    if (min(feats.doc_id, other.doc_id), max(feats.doc_id, other.doc_id)) in dismissed:
        return False
    return not (settings.ignore_derived and is_derived_pair(feats.title, other.title))


def score_against(
    feats: Features,
    others: Iterable[Features],
    settings: Settings,
    weight: Callable[[str], float] | None,
    *,
    dismissed: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset(),
) -> list[PairScore]:
    """Scores of ``feats`` against each comparable other; all pairs, not only matches.
    Every document needs its samples (``Features.sample``)."""
    return [score(feats, other, settings.scoring, weight=weight)
            for other in others if _eligible(feats, other, settings, dismissed)]


def _candidates(
    index: IndexReader, feats: Features, settings: Settings,
    dismissed: set[tuple[int, int]] | frozenset[tuple[int, int]], extra_df: Mapping[str, int] | None,
) -> tuple[list[int], list[Features], Callable[[str], float]]:
    """(LSH candidate ids, the comparable eligible ones' features, the token weigher)."""
    ids = index.candidates(settings.band_keys(feats), exclude=feats.doc_id)
    if not ids:
        return [], [], token_weigher({})
    others = [o for o in index.features(ids, settings.features.num_permutations)
              if _eligible(feats, o, settings, dismissed)]
    tokens = set(feats.tokens).union(*(o.tokens for o in others))
    df = index.document_frequency(tokens)
    for token, extra in (extra_df or {}).items():
        df[token] = df.get(token, 0) + extra
    return ids, others, token_weigher(df)


def _with_texts(others: list[Features], texts: TextSource | None, settings: Settings) -> list[Features]:
    """``others`` with their samples, fetched in one call for those the index holds no text of;
    one that ``texts`` no longer returns (deleted or hidden in Paperless) is passed over."""
    textless = [o.doc_id for o in others if o.sample is None]
    if not textless:
        return others
    if texts is None:
        raise ValueError("candidates from the index carry no text: find_matches needs a text source")
    fetched = texts(textless)
    out = [o if o.sample is not None else with_text(o, fetched[o.doc_id], settings.features)
           for o in others if o.sample is not None or o.doc_id in fetched]
    return [o for o in out if o.comparable]  # edited in Paperless to a few words since


def find_matches(
    index: IndexReader,
    feats: Features,
    settings: Settings,
    *,
    texts: TextSource | None = None,
    dismissed: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset(),
    extra_df: Mapping[str, int] | None = None,
) -> tuple[list[PairScore], int]:
    """The matches of one document against the index: (pairs at or above the
    threshold, best first; number of LSH candidates looked at).

    The index holds no texts: candidates that could still reach the threshold are
    fetched through ``texts`` in one call; one that ``texts`` no longer returns
    (deleted or hidden in Paperless since it was indexed) is passed over.
    """
    if not feats.comparable:
        return [], 0
    ids, others, weight = _candidates(index, feats, settings, dismissed, extra_df)
    if not ids:
        return [], 0
    hopeful = _with_texts([o for o in others if may_reach(feats, o, settings.scoring, weight=weight)], texts, settings)
    scored = [score(feats, o, settings.scoring, weight=weight) for o in hopeful]
    matches = sorted((p for p in scored if settings.scoring.reports(p)), key=lambda p: -p.score)
    return matches, len(ids)


#: The candidates ``check -v`` fetches and explains at most (the closest by their Jaccard
#: estimate): a document of a large template family has hundreds, and the user wants the near ones.
NEAR_MISS_CANDIDATES = 200


def near_misses(
    index: IndexReader,
    feats: Features,
    settings: Settings,
    *,
    texts: TextSource | None = None,
    dismissed: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset(),
    extra_df: Mapping[str, int] | None = None,
    limit: int = 10,
) -> tuple[list[holdback.Holdback], int]:
    """The candidates of one document that are not reported, closest first (at most ``limit``),
    with their exact scores and what held each back (core.holdback); and how many there were."""
    if not feats.comparable or feats.signature is None:
        return [], 0
    _ids, others, weight = _candidates(index, feats, settings, dismissed, extra_df)
    sig = feats.signature
    others = sorted((o for o in others if o.signature is not None),
                    key=lambda o: (-minhash.jaccard(sig, o.signature), o.doc_id))[:NEAR_MISS_CANDIDATES]  # type: ignore[arg-type]
    explained = [holdback.explain_pair(feats, o, settings.scoring, weight=weight)
                 for o in _with_texts(others, texts, settings)]
    missed = sorted((h for h in explained if not settings.scoring.reports(h.pair)),
                    key=lambda h: (-h.pair.score, h.pair.a, h.pair.b))
    return missed[:limit], len(missed)
