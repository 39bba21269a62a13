"""Finding the page and its ink in a thumbnail, pure (numpy only): the steps before a signature.

* :func:`rectify` -- a phone photo shows the sheet on a darker table, in perspective: the
  sheet's four corners are found on the bright region and the sheet is warped to a rectangle.
  A scan (bright up to its borders) is kept as it is.
* :func:`ink_map` -- darkness relative to the paper around it (0 paper, 1 black): a smooth
  estimate of the paper's brightness takes out uneven light, vignetting and brightness.
* :func:`stroke_mask` -- the ink that is drawn, not paper texture, specks or punched-hole
  shadows: connected parts too small or round and filled are dropped, compact ones (a densely
  written word) kept only among the page's strokes, and only strokes count towards whether the
  page is blank (only for a page with little ink).
* :func:`skew_angle` -- the rotation that makes the ink's row profile sharpest (text lines,
  form lines, the rows of a receipt); a drawing gets a stable, if arbitrary, angle.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: A page's outer ring darker than the page on this share of its length is a photo's table.
TABLE_RING_SHARE = 0.5
#: A photo's sheet covers at least SHEET_SHARE of the picture, or a narrow one (a till receipt,
#: some 3.5 times as long as wide, photographed to fill 72-90 % of the frame's height covers
#: 0.19-0.3 of it; one of 0.199 was left unrectified, its table's texture drowned its ink: no
#: signature) at least NARROW_SHEET_SHARE when it is solid: it fills NARROW_SHEET_SOLIDITY of its
#: quadrilateral (receipts 0.96-1.02 measured; the patchy bright part of a blank scan's paper
#: texture 0.4-0.8).
SHEET_SHARE = 0.2
NARROW_SHEET_SHARE = 0.15
NARROW_SHEET_SOLIDITY = 0.9


def _block_reduce(img: FloatArray, block: int, how: str) -> FloatArray:
    h, w = img.shape
    hh, ww = max(block, (h // block) * block), max(block, (w // block) * block)
    img = img[:hh, :ww]
    blocks = img.reshape(hh // block, block, ww // block, block)
    out = blocks.max(axis=(1, 3)) if how == "max" else blocks.mean(axis=(1, 3))
    return np.asarray(out, dtype=np.float64)


def _max3(img: FloatArray, how: str = "max") -> FloatArray:
    pad = np.pad(img, 1, mode="edge")
    h, w = img.shape
    stack = [pad[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)]
    out = np.max(stack, axis=0) if how == "max" else np.median(stack, axis=0)
    return np.asarray(out, dtype=np.float64)


def upsample(small: FloatArray, shape: tuple[int, int]) -> FloatArray:
    """Bilinear upsampling of a coarse grid to ``shape`` (cell centres aligned)."""
    h, w = shape
    sh, sw = small.shape
    rows = np.clip((np.arange(h) + 0.5) * sh / h - 0.5, 0, sh - 1)
    cols = np.clip((np.arange(w) + 0.5) * sw / w - 0.5, 0, sw - 1)
    r0, c0 = np.floor(rows).astype(int), np.floor(cols).astype(int)
    r1, c1 = np.minimum(r0 + 1, sh - 1), np.minimum(c0 + 1, sw - 1)
    fr, fc = (rows - r0)[:, None], (cols - c0)[None, :]
    top = small[r0][:, c0] * (1 - fc) + small[r0][:, c1] * fc
    bottom = small[r1][:, c0] * (1 - fc) + small[r1][:, c1] * fc
    return np.asarray(top * (1 - fr) + bottom * fr, dtype=np.float64)


def bilinear(img: FloatArray, ys: FloatArray, xs: FloatArray, fill: float) -> FloatArray:
    h, w = img.shape
    inside = (ys >= 0) & (ys <= h - 1) & (xs >= 0) & (xs <= w - 1)
    y = np.clip(ys, 0, h - 1.001)
    x = np.clip(xs, 0, w - 1.001)
    y0, x0 = np.floor(y).astype(int), np.floor(x).astype(int)
    fy, fx = y - y0, x - x0
    out = (img[y0, x0] * (1 - fy) * (1 - fx) + img[y0 + 1, x0] * fy * (1 - fx)
           + img[y0, x0 + 1] * (1 - fy) * fx + img[y0 + 1, x0 + 1] * fy * fx)
    return np.asarray(np.where(inside, out, fill), dtype=np.float64)


def _homography(src: FloatArray, dst: FloatArray) -> FloatArray:
    """3 x 3 matrix mapping the four points ``src`` to ``dst``."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs.extend([u, v])
    sol = np.linalg.solve(np.array(rows, dtype=np.float64), np.array(rhs, dtype=np.float64))
    return np.append(sol, 1.0).reshape(3, 3)


def _local_bright(g: FloatArray, step: int) -> BoolArray:
    """Pixels near the brightest of their neighbourhood: the sheet, in any light."""
    coarse = _block_reduce(g, step, "mean")
    cell = max(1, min(coarse.shape) // 6)
    peaks = _max3(_block_reduce(coarse, cell, "max"))
    local = coarse > 0.72 * upsample(peaks, coarse.shape)
    return largest_component(local & (coarse > _otsu(coarse)))


def rectify(g: FloatArray) -> FloatArray:
    """The sheet of a photo warped to a rectangle; a scan (or anything unsure) unchanged."""
    h, w = g.shape
    step = max(1, min(h, w) // 100)
    bright = _local_bright(g, step)
    ch, cw = bright.shape
    ring = np.concatenate([bright[0], bright[-1], bright[:, 0], bright[:, -1]])
    if ring.mean() > 1 - TABLE_RING_SHARE or bright.mean() < NARROW_SHEET_SHARE:
        return g
    ys, xs = np.nonzero(bright)
    corners = []
    for sy, sx in ((-1, -1), (-1, 1), (1, 1), (1, -1)):  # top-left, top-right, bottom-right, bottom-left
        proj = sy * ys + sx * xs
        top = proj >= np.max(proj) - 1.5
        corners.append(((float(xs[top].mean()) + 0.5) * step, (float(ys[top].mean()) + 0.5) * step))
    quad = np.array(corners, dtype=np.float64)
    width = (np.hypot(*(quad[1] - quad[0])) + np.hypot(*(quad[2] - quad[3]))) / 2
    height = (np.hypot(*(quad[3] - quad[0])) + np.hypot(*(quad[2] - quad[1]))) / 2
    area = 0.5 * abs(float(np.dot(quad[:, 0], np.roll(quad[:, 1], 1)) - np.dot(quad[:, 1], np.roll(quad[:, 0], 1))))
    if width < 0.15 * w or height < 0.15 * h or area < 0.1 * h * w:
        return g
    if bright.mean() < SHEET_SHARE and bright.sum() * step * step < NARROW_SHEET_SOLIDITY * area:
        return g
    # Inset by 2 %: the sheet's edge, and the table a corner estimate may still hold.
    out_w, out_h = max(16, int(round(width))), max(16, int(round(height)))
    inset_x, inset_y = 0.02 * out_w, 0.02 * out_h
    rect = np.array([[-inset_x, -inset_y], [out_w + inset_x, -inset_y], [out_w + inset_x, out_h + inset_y],
                     [-inset_x, out_h + inset_y]], dtype=np.float64)
    back = _homography(rect, quad)
    yy, xx = np.mgrid[0:out_h, 0:out_w].astype(np.float64)
    den = back[2, 0] * xx + back[2, 1] * yy + back[2, 2]
    src_x = (back[0, 0] * xx + back[0, 1] * yy + back[0, 2]) / den
    src_y = (back[1, 0] * xx + back[1, 1] * yy + back[1, 2]) / den
    return bilinear(g, src_y, src_x, fill=float(np.percentile(g, 90)))


def ink_map(g: FloatArray) -> FloatArray:
    """Darkness relative to the surrounding paper, 0 (paper) to 1 (black)."""
    h, w = g.shape
    block = max(2, min(h, w) // 10)
    hh, ww = max(block, (h // block) * block), max(block, (w // block) * block)
    crop = np.pad(g, ((0, max(0, hh - h)), (0, max(0, ww - w))), mode="edge")[:hh, :ww]
    blocks = crop.reshape(hh // block, block, ww // block, block).transpose(0, 2, 1, 3).reshape(hh // block, ww // block, -1)
    # The median of the neighbouring blocks: a large dark area (a filled shape) is not paper,
    # nor is the white strip a skewed scan shows beside the sheet.
    paper = _max3(np.percentile(blocks, 92, axis=2), "median")
    light = np.maximum(upsample(paper, (h, w)), 8.0)
    return np.asarray(np.clip((light - g) / light, 0.0, 1.0), dtype=np.float64)


def _runs(mask: BoolArray) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    padded = np.pad(mask.astype(np.int8), ((0, 0), (1, 1)))
    diff = np.diff(padded, axis=1)
    ys, starts = np.nonzero(diff == 1)
    _, ends = np.nonzero(diff == -1)
    return ys.astype(np.int64), starts.astype(np.int64), ends.astype(np.int64)


def _run_roots(mask: BoolArray) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], list[int]]:
    """Row runs of ``mask`` and, for each, the root of its connected part (8-neighbourhood)."""
    ys, starts, ends = _runs(mask)
    n = len(ys)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    row_start = np.searchsorted(ys, np.arange(mask.shape[0] + 1))
    for i in range(n):
        y = int(ys[i])
        if y == 0:
            continue
        lo, hi = int(row_start[y - 1]), int(row_start[y])
        for j in range(lo, hi):
            if starts[j] <= ends[i] and ends[j] >= starts[i]:  # 8-connected: touching diagonally counts
                ri, rj = find(i), find(j)
                if ri != rj:
                    parent[ri] = rj
    return ys, starts, ends, [find(i) for i in range(n)]


def components(mask: BoolArray) -> list[tuple[int, int, int, int, int]]:
    """Connected parts (8-neighbourhood) as (area, y0, x0, y1, x1), by union-find over row runs."""
    ys, starts, ends, roots = _run_roots(mask)
    parts: dict[int, list[int]] = {}
    for i, root in enumerate(roots):
        box = parts.setdefault(root, [0, int(ys[i]), int(starts[i]), int(ys[i]), int(ends[i])])
        box[0] += int(ends[i] - starts[i])
        box[1], box[2] = min(box[1], int(ys[i])), min(box[2], int(starts[i]))
        box[3], box[4] = max(box[3], int(ys[i]) + 1), max(box[4], int(ends[i]))
    return [(a, y0, x0, y1, x1) for a, y0, x0, y1, x1 in parts.values()]


def largest_component(mask: BoolArray) -> BoolArray:
    ys, starts, ends, roots = _run_roots(mask)
    out = np.zeros_like(mask)
    if not roots:
        return out
    area: dict[int, int] = {}
    for i, root in enumerate(roots):
        area[root] = area.get(root, 0) + int(ends[i] - starts[i])
    best = max(area, key=lambda r: area[r])
    for i, root in enumerate(roots):
        if root == best:
            out[ys[i], starts[i]:ends[i]] = True
    return out


def _otsu(values: FloatArray) -> float:
    hist, edges = np.histogram(values, bins=64)
    centres = (edges[:-1] + edges[1:]) / 2
    w0 = np.cumsum(hist)
    w1 = w0[-1] - w0
    m0 = np.cumsum(hist * centres) / np.maximum(w0, 1)
    m1 = (np.sum(hist * centres) - np.cumsum(hist * centres)) / np.maximum(w1, 1)
    between = w0 * w1 * (m0 - m1) ** 2
    return float(centres[int(np.argmax(between))])


#: A compact blob (filling more than COMPACT_FILL of a box under 4 minimum extents) is no
#: evidence that a page has strokes: a punched hole's shadow, a drop, a fax header's letters on a
#: blank sheet.  It is a *round* blob, never kept, when it fills more than ROUND_FILL of its box (a
#: disc fills pi/4 of it, one cut by the sheet's edge more: 0.69-0.91 measured on the corpus's blank
#: pages), or more than SQUARE_FILL of a box within SQUARE_ELONGATION of square.  The others are
#: kept in the mask of a page that has strokes, where they lie among its strokes (within a
#: minimum extent of their box): a handwritten word scribbled densely fills 0.45-0.7 of a box
#: mostly wider than high, and dropping it made a page's sharp scan (under 2 % ink, so tested) and
#: its blurred photo (over 2 %, not tested) keep different words.  A fax's sender header, printed
#: in the margin above the sheet's content, is not among them: kept, it would move the frame.
COMPACT_FILL = 0.45
ROUND_FILL = 0.75
SQUARE_FILL = 0.65
SQUARE_ELONGATION = 1.5


def stroke_mask(mask: BoolArray, min_extent: int) -> tuple[BoolArray, int]:
    """``mask`` without specks, round filled blobs and compact blobs away from its strokes; and
    how many pixels of strokes it has (not counting compact blobs: the blank test)."""
    keep = np.zeros_like(mask)
    kept = 0
    compact: list[tuple[int, int, int, int]] = []
    for area, y0, x0, y1, x1 in components(mask):
        extent, width = max(y1 - y0, x1 - x0), max(1, min(y1 - y0, x1 - x0))
        fill = area / max(1, (y1 - y0) * (x1 - x0))
        if extent < min_extent:
            continue  # a speck
        if fill > COMPACT_FILL and extent < 4 * min_extent:
            if not (fill > ROUND_FILL or (fill > SQUARE_FILL and extent <= SQUARE_ELONGATION * width)):
                compact.append((y0, x0, y1, x1))
            continue  # a round, filled blob (a punched hole's shadow, a drop) or, for now, compact
        keep[y0:y1, x0:x1] |= mask[y0:y1, x0:x1]
        kept += area
    if kept and compact:
        ys, xs = np.nonzero(keep)
        top, bottom = int(ys.min()) - min_extent, int(ys.max()) + min_extent
        left, right = int(xs.min()) - min_extent, int(xs.max()) + min_extent
        for y0, x0, y1, x1 in compact:
            if y0 >= top and y1 <= bottom + 1 and x0 >= left and x1 <= right + 1:
                keep[y0:y1, x0:x1] |= mask[y0:y1, x0:x1]
    return keep, kept


#: A page whose sharpest row profile is not this much sharper than the median angle's has no
#: lines to set upright by (a sketch, a drawing): it is left as it is, the compare aligns it.
SKEW_CONFIDENCE = 1.2


def remove_rules(mask: BoolArray, min_length: int) -> BoolArray:
    """``mask`` without long straight horizontal and vertical lines (ruling, form lines, a fax's
    header rule, a notepad's margin): one copy shows them and the other loses them; they are
    shared by every page of a pad or form, so they say nothing about which page this is."""
    out = mask.copy()
    for axis in (0, 1):
        m = mask if axis == 0 else mask.T
        bridged = m.copy()
        for gap in (1, 2, 3):  # a dashed (faxed, faint) line is still a line
            bridged[:, gap:] |= m[:, :-gap]
        ys, starts, ends = _runs(bridged)
        long = (ends - starts) >= min_length
        target = out if axis == 0 else out.T
        for y, x0, x1 in zip(ys[long], starts[long], ends[long], strict=True):
            target[y, x0:x1] = False
    return out


def skew_angle(ys: FloatArray, xs: FloatArray, weights: FloatArray, span_deg: float = 5.0) -> float:
    """Degrees to rotate the points by so that their row profile is sharpest (0 if no angle is
    clearly sharper than the others)."""
    if len(ys) < 20:
        return 0.0
    cy, cx = float(np.average(ys, weights=weights)), float(np.average(xs, weights=weights))
    dy, dx = ys - cy, xs - cx

    def sharpness(deg: float) -> float:
        t = np.radians(deg)
        proj = dy * np.cos(t) + dx * np.sin(t)
        hist, _ = np.histogram(proj, bins=max(8, int((proj.max() - proj.min()) / 1.5) + 1), weights=weights)
        return float(np.sum(hist.astype(np.float64) ** 2))

    coarse = np.arange(-span_deg, span_deg + 1e-9, 0.5)
    scores = [sharpness(float(a)) for a in coarse]
    if max(scores) < SKEW_CONFIDENCE * float(np.median(scores)):
        return 0.0
    best = float(coarse[int(np.argmax(scores))])
    fine = np.arange(best - 0.4, best + 0.41, 0.1)
    return float(fine[int(np.argmax([sharpness(float(a)) for a in fine]))])
