"""The decision of a picture compare, pure: :func:`judge_pictures` turns the numbers of
``picture.picture_measures`` (explained ink and outlines both ways, the fine correlation, for a
near miss the residue) into a verdict, and the thresholds it uses live here.

The rules, each a kind of copy: one page's ink lies on the other's entirely (a copy that lost
faint strokes); nearly entirely both ways (a copy that also gained some: a fax); the unexplained
ink is a copy's damage (lost thin lines, a header) on both pages or on one; a sparse page (a
pencil sketch) whose copy lost many faint strokes.  The one-way and sparse rules take the
explained page for the copy, so it must have gained nothing: no residue of its own where the
correlation is not clear, and no frame wider than the other's.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MIN_LAYOUT_CORRELATION", "SPARSE_CELLS", "SPARSE_MIN_LAYOUT", "PictureMatch", "judge_pictures"]

#: Share of one page's ink the other must explain (the copy that lost nothing) ...
MATCH_SCORE = 0.996
#: ... and of the other's (which may have lost faint strokes in the copy).
MIN_EXPLAINED = 0.5
MAX_INK_RATIO = 3.0
#: The aligned masks, smoothed by one 3 x 3 box, correlate at least this much ...
MIN_FINE_CORRELATION = 0.88
#: ... or, for a copy that gained ink too, BOTH_FINE_CORRELATION with BOTH_EXPLAINED of the ink
#: explained one way and BOTH_EXPLAINED_HIGH the other;
BOTH_FINE_CORRELATION = 0.92
BOTH_EXPLAINED = 0.95
BOTH_EXPLAINED_HIGH = 0.96
#: and either way this share of each one's outline (ink cells not inside a filled 3 x 3) lies
#: within a cell of the other's outline.
MIN_OUTLINE_EXPLAINED = 0.7
#: A page with at most SPARSE_CELLS ink cells (of 16,384) whose copy's ink lies on it at least
#: SPARSE_MATCH, SPARSE_EXPLAINED the other way, correlating SPARSE_FINE_CORRELATION, is a copy too.
SPARSE_CELLS = 1200
SPARSE_MATCH = 0.995
SPARSE_EXPLAINED = 0.6
SPARSE_FINE_CORRELATION = 0.65
#: ... unless their content boxes' aspects differ by more than SPARSE_MAX_ASPECT: a sketch's copy
#: that lost faint strokes keeps its extent (up to 1.7 times apart measured), stamp pages of one
#: firm of which one has a note beside the stamp and the other not are 2-2.4 times apart.
SPARSE_MAX_ASPECT = 1.9
#: It is a copy when at most RESIDUE_MAX of either page's ink is residue and, without the lost
#: lines, the masks correlate RESIDUE_FINE_CORRELATION.
RESIDUE_MAX = 0.004
RESIDUE_FINE_CORRELATION = 0.91
#: A one-way or sparse pair (one page's ink explained >= MATCH_SCORE or SPARSE_MATCH) whose
#: fine correlation without the lost lines stays under ONE_WAY_CLEAR_FINE is a copy only when the
#: explained page -- the copy, which lost strokes and gained none -- has no residue cell at all:
#: fills of one form are explained 99.6-99.9 % one way too, but each keeps two to seven cells of
#: its own handwriting; so do stamp pages of one firm (their signatures' ends).
ONE_WAY_CLEAR_FINE = 0.90
#: The one-way and sparse rules take the explained page for a copy that lost strokes and gained
#: none, so its frame cannot have grown: the alignment's scale, taken from that page to the
#: other, stays under COPY_MAX_SCALE (copies measured: at most 1.06; stamp pages of one firm whose
#: signatures and notes lie elsewhere: 1.29-1.41).
COPY_MAX_SCALE = 1.15
#: A near miss where one page has no residue cell (all it lacks of the other is lost lines and
#: header rows: the damaged capture) and the other at most ONE_SIDED_RESIDUE_MAX of its ink (the
#: strokes the capture lost), correlating ONE_SIDED_FINE_CORRELATION without those lines, is a
#: copy: fills of one form and receipts of one shop each keep ink of their own.
ONE_SIDED_RESIDUE_MAX = 0.01
ONE_SIDED_FINE_CORRELATION = 0.905
#: Coarse layouts (16 x 16 ink densities) of a copy correlate far above this ...
MIN_LAYOUT_CORRELATION = 0.3
#: ... and of a sparse page's copy (which may have lost many faint strokes) above this.
SPARSE_MIN_LAYOUT = 0.25


@dataclass(frozen=True)
class PictureMatch:
    score: float
    is_duplicate: bool
    reason: str


def judge_pictures(m: dict[str, float]) -> PictureMatch:
    """A duplicate when, after alignment, one page's ink lies (within a cell) on the other's almost
    entirely -- a copy may lose faint strokes, never gain handwriting -- and the other's mostly."""
    layout = m["layout"]
    sparse = "ea" in m and max(m["na"], m["nb"]) <= SPARSE_CELLS
    if layout < (SPARSE_MIN_LAYOUT if sparse else MIN_LAYOUT_CORRELATION) or "ea" not in m:
        return PictureMatch(round(max(0.0, layout) * 0.5, 3), False,
                            f"pictures differ: their layouts correlate {layout:.2f}")
    high, low = max(m["ea"], m["eb"]), min(m["ea"], m["eb"])
    ink_ratio = max(m["na"], m["nb"]) / min(m["na"], m["nb"])
    score = high if low >= MIN_EXPLAINED else high * low
    if ink_ratio > MAX_INK_RATIO:
        return PictureMatch(round(score * 0.5, 3), False,
                            f"pictures differ: one has {ink_ratio:.1f} times the ink of the other")
    fine, outlines = m["fine"], min(m["oa"], m["ob"])
    # A copy that lost faint strokes: one page's ink lies on the other's entirely; or a copy that
    # also gained some (a fax's specks and header): nearly entirely both ways.  Both only where
    # the aligned pages correlate cell by cell as copies do (fills of one form share their printed
    # part and so much of their ink, not the handwriting's fine shape) and their outlines lie on
    # each other (inside large filled shapes -- a child's drawing -- any ink explains any other).
    dup = outlines >= MIN_OUTLINE_EXPLAINED and (
        (high >= MATCH_SCORE and low >= MIN_EXPLAINED and fine >= MIN_FINE_CORRELATION and _copy_gained_nothing(m)
         and _copy_scale(m) <= COPY_MAX_SCALE)
        or (low >= BOTH_EXPLAINED and high >= BOTH_EXPLAINED_HIGH and fine >= BOTH_FINE_CORRELATION))
    # A copy whose differences are a copy's damage (a fax's or phone photo's: lost form lines, a
    # header): what is left of the unexplained ink once thin lines and rows outside the other's
    # are taken out is a trace, and without them the pages correlate as copies do.
    dup = dup or ("ra" in m and outlines >= MIN_OUTLINE_EXPLAINED and max(m["ra"], m["rb"]) <= RESIDUE_MAX
                  and m["fs"] >= RESIDUE_FINE_CORRELATION)
    # The same where one page kept all the other has (nothing of its own beyond a capture's lost
    # lines and header) and the other a little more: the strokes the capture lost.
    dup = dup or (outlines >= MIN_OUTLINE_EXPLAINED and _one_sided_residue(m))
    # A sparse page (a pencil sketch) whose copy lost many faint strokes: what the copy kept lies
    # on the original entirely.
    dup = dup or (max(m["na"], m["nb"]) <= SPARSE_CELLS and high >= SPARSE_MATCH and low >= SPARSE_EXPLAINED
                  and fine >= SPARSE_FINE_CORRELATION and m.get("aspect", 1.0) <= SPARSE_MAX_ASPECT
                  and _copy_scale(m) <= COPY_MAX_SCALE and _copy_gained_nothing(m))
    why = "pictures match" if dup else "pictures differ"
    return PictureMatch(round(score, 3), dup,
                        f"{why}: {high:.1%} of one page's ink lies on the other, {low:.0%} the other way")


def _no_residue(m: dict[str, float], side: str) -> bool:
    """Whether page ``side`` ("a" or "b") of a near miss has no residue cell at all."""
    return m["r" + side] * m["n" + side] < 0.5


def _copy_gained_nothing(m: dict[str, float]) -> bool:
    """For the one-way and sparse rules: whether the page whose ink is explained (the copy) has no
    residue cell, unless the pages correlate clearly (or the residue was not measured: no near miss)."""
    if "ra" not in m or m["fs"] >= ONE_WAY_CLEAR_FINE:
        return True
    return _no_residue(m, "a" if m["ea"] >= m["eb"] else "b")


def _copy_scale(m: dict[str, float]) -> float:
    """The alignment's scale seen from the page whose ink is explained most (``scale`` is how much
    of page b's grid, in length, page a's grid covers): over 1 when that page's frame is the wider
    one for the content the two share -- it has ink farther out than the other."""
    return m["scale"] if m["ea"] >= m["eb"] else 1.0 / max(m["scale"], 1e-9)


def _one_sided_residue(m: dict[str, float]) -> bool:
    """A near miss whose residue lies on one page only, and little of it (see ONE_SIDED_RESIDUE_MAX)."""
    return ("ra" in m and (_no_residue(m, "a") or _no_residue(m, "b"))
            and max(m["ra"], m["rb"]) <= ONE_SIDED_RESIDUE_MAX and m["fs"] >= ONE_SIDED_FINE_CORRELATION)
