"""What two aligned picture masks do not share, and whether it is a copy's damage, pure (numpy only).

A fax or phone copy and its original, aligned, differ in three ways: the ink one page has more
than a cell away from the other's (the *unexplained* ink) lies on thin straight lines (a ruling or
form line that one copy lost to the threshold, a notepad's margin line), in rows where the other
page has no ink at all (a fax's sender header above the page), or in specks.  Two fills of one
printed form differ in their handwriting: short strokes and word ends scattered over the fields,
neither on a thin line nor outside the other's rows; receipts of one shop in the ends of their
printed lines: blocks as thick as a line of print.  :func:`residue_measures` counts the
unexplained ink left once the thin lines and the rows outside are taken out (``ra``, ``rb``:
shares of each page's ink) and correlates the two masks without them (``fs``, as ``fine``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from . import _picture_align as A
from . import _picture_page as page

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: Unexplained cells on a horizontal or vertical run of at least this many cells (one-cell gaps
#: bridged) at most RESIDUE_LINE_THICKNESS cells thick are a straight line one copy has and the
#: other lost (a receipt's line of print that one receipt has longer than the other is a block
#: three or more cells thick: not a line).
RESIDUE_LINE_CELLS = 5
RESIDUE_LINE_THICKNESS = 2
#: Unexplained rows more than this many cells above or below the other page's ink are its header.
RESIDUE_ROW_MARGIN = 2


def _run_lengths(mask: BoolArray) -> npt.NDArray[np.int64]:
    """The length of the horizontal run of ``mask`` each set cell is on (0 elsewhere)."""
    out = np.zeros(mask.shape, dtype=np.int64)
    ys, starts, ends = page._runs(mask)
    for y, x0, x1 in zip(ys, starts, ends, strict=True):
        out[y, x0:x1] = x1 - x0
    return out


def thin_lines(mask: BoolArray, min_length: int, max_thickness: int) -> BoolArray:
    """The cells of ``mask`` on horizontal or vertical lines: runs of at least ``min_length``
    cells (one-cell gaps bridged) of cells at most ``max_thickness`` cells thick across them."""
    out = np.zeros_like(mask)
    for axis in (0, 1):
        m = mask if axis == 0 else mask.T
        thin = m & (_run_lengths(m.T).T <= max_thickness)
        bridged = thin.copy()
        bridged[:, 1:] |= thin[:, :-1]
        target = out if axis == 0 else out.T
        ys, starts, ends = page._runs(bridged)
        for y, x0, x1 in zip(ys, starts, ends, strict=True):
            if x1 - x0 >= min_length:
                target[y, x0:x1] |= thin[y, x0:x1]
    return out


def _outside_rows(unexplained: BoolArray, other: BoolArray) -> BoolArray:
    rows = np.nonzero(other.any(axis=1))[0]
    if len(rows) == 0:
        return unexplained.copy()
    outside = np.zeros_like(unexplained)
    outside[: max(0, int(rows[0]) - RESIDUE_ROW_MARGIN)] = True
    outside[int(rows[-1]) + RESIDUE_ROW_MARGIN + 1:] = True
    return unexplained & outside


def _correlation(x: FloatArray, y: FloatArray) -> float:
    return float(np.corrcoef(x.ravel(), y.ravel())[0, 1]) if x.std() > 0 and y.std() > 0 else 0.0


def residue_measures(ma: BoolArray, sb: BoolArray) -> dict[str, float]:
    """``ra``, ``rb``: the share of each mask's ink that the other does not explain within a cell
    and that is neither on a straight line nor in rows outside the other's ink; ``fs``: the masks'
    fine correlation (one 3 x 3 box) without those lines and rows."""
    da, db = A.distance(ma), A.distance(sb)
    ua, ub = ma & (db > 1), sb & (da > 1)
    line_a = thin_lines(ua, RESIDUE_LINE_CELLS, RESIDUE_LINE_THICKNESS) | _outside_rows(ua, sb)
    line_b = thin_lines(ub, RESIDUE_LINE_CELLS, RESIDUE_LINE_THICKNESS) | _outside_rows(ub, ma)
    ka, kb = ma & ~line_a, sb & ~line_b
    return {"ra": float((ua & ~line_a).sum()) / max(1, int(ma.sum())),
            "rb": float((ub & ~line_b).sum()) / max(1, int(sb.sum())),
            "fs": _correlation(A.smooth(ka.astype(np.float64), 1), A.smooth(kb.astype(np.float64), 1))}
