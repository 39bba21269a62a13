"""LSH band tuning (the seed guide's S-curve math), pure.

A pair of true Jaccard similarity ``s`` becomes a candidate with probability
``P(s) = 1 - (1 - s**r)**b``; the curve's midpoint sits near ``(1/b)**(1/r)``.
We search every split with ``b*r <= num_permutations`` (not only the divisor
pairs: 256 has no divisor split near 0.75, but 23 x 11 = 253 has one) for the
midpoint closest to the target, breaking near-ties toward the steeper curve.
"""

from __future__ import annotations

from dataclasses import dataclass

# Midpoint and target may differ this much before we warn (PRODUCT.md).
MIDPOINT_TOLERANCE = 0.05
# How far below the final threshold the candidate curve is centred by default: a
# copy missing a page or a heavy re-scan has a Jaccard well under its final score
# (containment and the fuzzy score lift it back), so the LSH stage must let it
# through.  Chosen by measurement on the labelled corpus (docs/quality.md).
AUTO_LSH_MARGIN = 0.35


@dataclass(frozen=True)
class Banding:
    bands: int
    rows: int
    midpoint: float
    p_below: float  # candidate probability at target - 0.1 (want low)
    p_above: float  # candidate probability at target + 0.1 (want high)

    @property
    def steepness(self) -> float:
        return self.p_above - self.p_below


def candidate_probability(s: float, bands: int, rows: int) -> float:
    return 1.0 - (1.0 - s**rows) ** bands


def s_curve_midpoint(bands: int, rows: int) -> float:
    return float((1.0 / bands) ** (1.0 / rows))


def describe(bands: int, rows: int, target: float) -> Banding:
    return Banding(
        bands,
        rows,
        s_curve_midpoint(bands, rows),
        candidate_probability(max(0.0, target - 0.1), bands, rows),
        candidate_probability(min(1.0, target + 0.1), bands, rows),
    )


def divisor_splits(num_permutations: int) -> list[tuple[int, int]]:
    return [(b, num_permutations // b) for b in range(2, num_permutations // 2 + 1) if num_permutations % b == 0]


def all_splits(num_permutations: int) -> list[tuple[int, int]]:
    """For each row count, the most bands that fit: ``b = num_permutations // r``."""
    splits = [(num_permutations // r, r) for r in range(2, num_permutations // 2 + 1)]
    # Keep only splits that "num_bands = b" reproduces (rows = num_permutations // b).
    return [(b, r) for b, r in splits if b >= 2 and num_permutations // b == r]


def choose(num_permutations: int, target: float, *, divisors_only: bool = False) -> Banding:
    """The split whose midpoint is closest to ``target`` (ties: the steeper one)."""
    splits = divisor_splits(num_permutations) if divisors_only else all_splits(num_permutations)
    if not splits:
        raise ValueError(f"no banding with at least 2 bands and 2 rows for num_permutations={num_permutations}")
    options = [describe(b, r, target) for b, r in splits]
    return min(options, key=lambda o: (round(abs(o.midpoint - target), 2), -o.steepness))


def lsh_target(similarity_threshold: float, lsh_threshold: float | str) -> float:
    if lsh_threshold == "auto":
        return max(0.05, round(similarity_threshold - AUTO_LSH_MARGIN, 4))
    return float(lsh_threshold)


def resolve(num_permutations: int, num_bands: int | str, target: float) -> Banding:
    """The banding the config asks for: ``auto`` or a fixed number of bands."""
    if num_bands == "auto":
        return choose(num_permutations, target)
    bands = int(num_bands)
    return describe(bands, num_permutations // bands, target)


def config_line(num_permutations: int, banding: Banding, target: float) -> str:
    return (
        f"LSH config: num_perm={num_permutations}, bands={banding.bands}, rows={banding.rows}, "
        f"target_threshold={target:g}"
    )


def midpoint_warning(banding: Banding, target: float) -> str | None:
    if abs(banding.midpoint - target) <= MIDPOINT_TOLERANCE:
        return None
    return (
        f"s_curve_midpoint={banding.midpoint:.3f} (bands={banding.bands},rows={banding.rows}) "
        f"but target_threshold={target:g}"
    )


def steep_enough(banding: Banding, min_gap: float = 0.6) -> bool:
    return banding.steepness >= min_gap
