"""Pages without text, compared by a picture of their first page, pure (numpy only).

The signature of a page is a small binary image of its ink in a canonical frame:

1. a phone photo's sheet is found on its table and warped to a rectangle (``_picture_page.rectify``);
2. ink is darkness relative to the paper around it (uneven light, vignetting, brightness out);
3. a page with too little ink that forms strokes -- paper texture, specks, punched-hole
   shadows, faint show-through -- is blank: no signature, never paired;
4. the ink is turned upright (the rotation with the sharpest row profile) and cropped to its
   content (mass quantiles, so that a speck at the edge or a cropped margin does not move it);
5. the content box is resampled to :data:`GRID` x :data:`GRID` cells, a cell set where ink covers it.

Two signatures are compared after the shift that best aligns them (FFT correlation of the
blurred masks), by the share of each one's ink that the other explains within one cell.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from . import _picture_page as page

__all__ = [
    "PICTURE_VERSION",
    "PictureMatch",
    "PictureSignature",
    "compare_pictures",
    "picture_band_keys",
    "picture_signature",
]

#: Bumped whenever a signature's bytes change meaning: an index holding another version re-hashes.
PICTURE_VERSION = 2
#: The stored content mask is GRID x GRID bits.
GRID = 128
_HEADER = 4  # version, aspect (log2, scaled), skew (tenths of a degree + 128), reserved
SIGNATURE_BYTES = _HEADER + GRID * GRID // 8
#: Working width of a thumbnail (Paperless's are about 400 px wide).
WORK_WIDTH = 400
#: A page with fewer stroke pixels than this share of its area is blank.
MIN_STROKE_SHARE = 0.0006
RELATIVE_INK = 0.25
#: A straight line longer than this share of the page's width is a rule, not content.
RULE_LENGTH = 10.0
#: Share of one page's ink the other must explain (the copy that lost nothing) ...
MATCH_SCORE = 0.996
#: ... and of the other's (which may have lost faint strokes in the copy).
MIN_EXPLAINED = 0.5
MAX_INK_RATIO = 3.0
#: Coarse layouts (16 x 16 ink densities) of a copy correlate far above this.
MIN_LAYOUT_CORRELATION = 0.3
MAX_SHIFT = 8
#: The frame is the ink's centre plus or minus SPREAD standard deviations on each axis.
SPREAD = 2.4

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class PictureSignature:
    """What the index stores for one page: :data:`SIGNATURE_BYTES` bytes."""

    data: bytes

    @classmethod
    def from_bytes(cls, data: bytes) -> PictureSignature:
        if len(data) != SIGNATURE_BYTES:
            raise ValueError(f"a picture signature has {SIGNATURE_BYTES} bytes, not {len(data)}: re-hash the page")
        if data[0] != PICTURE_VERSION:
            raise ValueError(f"picture signature version {data[0]}, this version reads {PICTURE_VERSION}: re-hash the page")
        return cls(bytes(data))

    def mask(self) -> BoolArray:
        bits = np.unpackbits(np.frombuffer(self.data, dtype=np.uint8, offset=_HEADER))
        return bits.reshape(GRID, GRID).astype(bool)

    @property
    def aspect(self) -> float:
        """Height over width of the content box."""
        return float(2.0 ** ((self.data[1] - 128) / 32.0))


@dataclass(frozen=True)
class PictureMatch:
    score: float
    is_duplicate: bool
    reason: str


def _working_gray(gray: npt.NDArray[np.uint8]) -> FloatArray:
    g = gray.astype(np.float64)
    factor = g.shape[1] // WORK_WIDTH
    if factor >= 2:
        h, w = (g.shape[0] // factor) * factor, (g.shape[1] // factor) * factor
        g = g[:h, :w].reshape(h // factor, factor, w // factor, factor).mean(axis=(1, 3))
    return g


def _mass_span(values: FloatArray, weights: FloatArray, tail: float = 0.004) -> tuple[float, float]:
    order = np.argsort(values)
    cum = np.cumsum(weights[order])
    total = float(cum[-1])
    lo = float(values[order[int(np.searchsorted(cum, tail * total))]])
    hi = float(values[order[min(len(order) - 1, int(np.searchsorted(cum, (1 - tail) * total)))]])
    return lo, max(hi, lo + 1.0)


def picture_signature(gray: npt.NDArray[np.uint8]) -> PictureSignature | None:
    """The signature of one page's picture, or None for a blank (or too small) page."""
    arr = np.asarray(gray)
    if arr.ndim != 2:
        raise ValueError(f"a page picture is a 2-D gray array, not {arr.ndim}-D")
    if arr.shape[0] < 32 or arr.shape[1] < 32:
        return None
    g = page.rectify(_working_gray(arr.astype(np.uint8)))
    ink = page.ink_map(g)
    h, w = ink.shape
    frame = max(2, int(0.012 * min(h, w)))  # a scanner's or sheet's edge shadow is not content
    ink[:frame], ink[-frame:], ink[:, :frame], ink[:, -frame:] = 0, 0, 0, 0
    median = float(np.median(ink))
    sigma = 1.4826 * float(np.median(np.abs(ink - median)))
    floor = max(0.12, median + 5 * sigma)
    above = ink[ink > floor]
    if above.size == 0:
        return None
    # Relative to the page's own strokes: faint ruling under dark handwriting is not kept (a copy
    # loses it), a faint pencil sketch on its own is.
    marks = ink > max(floor, RELATIVE_INK * float(np.percentile(above, 90)))
    if marks.mean() < 0.02:
        marks, strokes = page.stroke_mask(marks, min_extent=max(4, round(0.02 * w)))
        if strokes < MIN_STROKE_SHARE * h * w:
            return None
    marks &= _neighbours(marks) > 0  # a lone pixel is a speck (fax noise, dust), never a stroke
    ys, xs = np.nonzero(marks)
    if len(ys) < 8:
        return None
    weights = np.ones(len(ys), dtype=np.float64)
    angle = page.skew_angle(ys.astype(np.float64), xs.astype(np.float64), weights)
    t = np.radians(angle)
    ry = ys * np.cos(t) + xs * np.sin(t)
    rx = xs * np.cos(t) - ys * np.sin(t)
    # Upright on a canvas of the page's pixels, where straight rules can be found and dropped.
    oy, ox = int(np.floor(ry.min())), int(np.floor(rx.min()))
    canvas = np.zeros((int(np.ceil(ry.max())) - oy + 2, int(np.ceil(rx.max())) - ox + 2), dtype=bool)
    canvas[np.rint(ry).astype(int) - oy, np.rint(rx).astype(int) - ox] = True
    canvas = page.remove_rules(canvas, max(12, round(RULE_LENGTH * w)))
    ys, xs = np.nonzero(canvas)
    if len(ys) < 8:
        return None
    ry, rx = ys.astype(np.float64), xs.astype(np.float64)
    # The frame: centre and spread of the ink (moments move little when a faint stroke is lost
    # or a speck added, where the extremes would jump).
    cy, cx = float(ry.mean()), float(rx.mean())
    sy, sx = max(2.0, float(ry.std())), max(2.0, float(rx.std()))
    y0, y1 = cy - SPREAD * sy, cy + SPREAD * sy
    x0, x1 = cx - SPREAD * sx, cx + SPREAD * sx
    cell = min((y1 - y0), (x1 - x0)) / GRID
    if cell < 1.5:  # finer than the pixels: four points per pixel, so that a stroke has no gaps
        offsets = np.array([-0.25, 0.25])
        ry = (ry[:, None, None] + offsets[:, None] + 0 * offsets[None, :]).ravel()
        rx = (rx[:, None, None] + 0 * offsets[:, None] + offsets[None, :]).ravel()
    iy = np.floor((ry - y0) / (y1 - y0) * GRID).astype(int)
    ix = np.floor((rx - x0) / (x1 - x0) * GRID).astype(int)
    ok = (iy >= 0) & (iy < GRID) & (ix >= 0) & (ix < GRID)
    mask = np.zeros((GRID, GRID), dtype=bool)
    mask[iy[ok], ix[ok]] = True
    aspect = sy / sx
    header = bytes([PICTURE_VERSION, int(np.clip(round(128 + 32 * np.log2(aspect)), 0, 255)),
                    int(np.clip(round(128 + 10 * angle), 0, 255)), 0])
    return PictureSignature(header + np.packbits(mask.astype(np.uint8)).tobytes())


def _neighbours(mask: BoolArray) -> npt.NDArray[np.int64]:
    """How many of each pixel's eight neighbours are set."""
    p = np.pad(mask.astype(np.int64), 1)
    h, w = mask.shape
    total = sum(p[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3))
    return np.asarray(total - mask, dtype=np.int64)


def _density(mask: BoolArray, n: int) -> FloatArray:
    k = GRID // n
    return np.asarray(mask.reshape(n, k, n, k).mean(axis=(1, 3)), dtype=np.float64)


#: The lookup keys compare cells of an 8 x 8 ink-density layout in fixed random pairs
#: (whether one has clearly more ink than the other): KEY_BANDS keys of KEY_BITS comparisons.
KEY_BANDS = 12
KEY_BITS = 8
_KEY_PAIRS = np.random.default_rng(3).integers(0, 64, size=(2, KEY_BANDS, KEY_BITS))


def picture_band_keys(signature: PictureSignature) -> list[bytes]:
    """:data:`KEY_BANDS` lookup keys of 2 bytes: band number, then its bits (a copy keeps most of
    its coarse layout, so shares at least one whole band with its original)."""
    coarse = _density(signature.mask(), 8).ravel()
    coarse = coarse / max(float(coarse.mean()), 1e-9)
    bits = coarse[_KEY_PAIRS[0]] > coarse[_KEY_PAIRS[1]] + 0.05
    return [bytes([band, int(np.packbits(bits[band].astype(np.uint8))[0])]) for band in range(KEY_BANDS)]


def _dilate(mask: BoolArray) -> BoolArray:
    out = mask.copy()
    out[1:, :] |= mask[:-1, :]
    out[:-1, :] |= mask[1:, :]
    grown = out.copy()
    grown[:, 1:] |= out[:, :-1]
    grown[:, :-1] |= out[:, 1:]
    return grown


def _shift(mask: BoolArray, dy: int, dx: int) -> BoolArray:
    out = np.zeros_like(mask)
    h, w = mask.shape
    out[max(dy, 0):h + min(dy, 0), max(dx, 0):w + min(dx, 0)] = mask[max(-dy, 0):h - max(dy, 0), max(-dx, 0):w - max(dx, 0)]
    return out


def _blur(mask: BoolArray) -> FloatArray:
    f = mask.astype(np.float64)
    p = np.pad(f, 1)
    return np.asarray(sum(p[dy:dy + GRID, dx:dx + GRID] for dy in range(3) for dx in range(3)), dtype=np.float64)


def align(a: BoolArray, b: BoolArray) -> tuple[int, int]:
    """The shift of ``b`` (within :data:`MAX_SHIFT` cells) that best overlays it on ``a``."""
    size = 2 * GRID
    fa = np.fft.rfft2(_blur(a), s=(size, size))
    fb = np.fft.rfft2(_blur(b), s=(size, size))
    corr = np.fft.irfft2(fa * np.conj(fb), s=(size, size))
    shifts = np.r_[0:MAX_SHIFT + 1, -MAX_SHIFT:0]
    window = corr[np.ix_(shifts % size, shifts % size)]
    iy, ix = np.unravel_index(int(np.argmax(window)), window.shape)
    return int(shifts[iy]), int(shifts[ix])


def _smooth(img: FloatArray, passes: int) -> FloatArray:
    """Passes of a 3 x 3 box: a soft picture whose gradient reaches a few cells."""
    for _ in range(passes):
        p = np.pad(img, 1, mode="edge")
        h, w = img.shape
        total = np.zeros_like(img)
        for dy in range(3):
            for dx in range(3):
                total += p[dy:dy + h, dx:dx + w]
        img = total / 9.0
    return np.asarray(img, dtype=np.float64)


def _warp(img: FloatArray, params: FloatArray, order: int) -> FloatArray:
    """``img`` sampled at W(x): y' = (1 + p0) y + p1 x + p4, x' = p2 y + (1 + p3) x + p5 (centred)."""
    n = img.shape[0]
    c = (n - 1) / 2
    yy, xx = _centred_grid(n)
    sy = (1 + params[0]) * yy + params[1] * xx + params[4] + c
    sx = params[2] * yy + (1 + params[3]) * xx + params[5] + c
    if order == 0:
        iy, ix = np.rint(sy).astype(int), np.rint(sx).astype(int)
        ok = (iy >= 0) & (iy < n) & (ix >= 0) & (ix < n)
        out = np.zeros_like(img)
        out[ok] = img[iy[ok], ix[ok]]
        return out
    return page.bilinear(img, sy, sx, fill=0.0)


def refine(a: BoolArray, b: BoolArray, dy: int, dx: int) -> FloatArray:
    """Affine parameters that carry ``b`` onto ``a``: Lucas-Kanade on smoothed masks, first at
    half resolution (wide reach, cheap), then at full resolution."""
    params = np.array([0.0, 0.0, 0.0, 0.0, -float(dy) / 2, -float(dx) / 2])
    half_a, half_b = _halve(a.astype(np.float64)), _halve(b.astype(np.float64))
    params = _lucas_kanade(_smooth(half_a, 2), _smooth(half_b, 2), params, 16)
    params[4:] *= 2
    return _lucas_kanade(_smooth(a.astype(np.float64), 2), _smooth(b.astype(np.float64), 2), params, 6)


def _halve(img: FloatArray) -> FloatArray:
    n = img.shape[0] // 2
    return np.asarray(img[: 2 * n, : 2 * n].reshape(n, 2, n, 2).mean(axis=(1, 3)), dtype=np.float64)


@functools.lru_cache(maxsize=4)
def _centred_grid(n: int) -> tuple[FloatArray, FloatArray]:
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float64) - c
    yy.flags.writeable = False
    xx.flags.writeable = False
    return yy, xx


def _lucas_kanade(sa: FloatArray, sb: FloatArray, params: FloatArray, iterations: int) -> FloatArray:
    """Inverse-compositional Lucas-Kanade: the template's gradient and Hessian once, then one
    warp and one small solve per iteration."""
    yy, xx = _centred_grid(sa.shape[0])
    gy, gx = np.gradient(sa)
    steepest = np.stack([gy * yy, gy * xx, gx * yy, gx * xx, gy, gx], axis=-1).reshape(-1, 6)
    hess_inv = np.linalg.inv(steepest.T @ steepest + np.eye(6) * 1e-3)
    matrix = _as_matrix(params)
    for _ in range(iterations):
        warped = _warp(sb, _as_params(matrix), 1)
        step = hess_inv @ (steepest.T @ (warped - sa).ravel())
        matrix = matrix @ np.linalg.inv(_as_matrix(step))
        if np.abs(step[4:]).max() < 0.05 and np.abs(step[:4]).max() < 0.002:
            break
    return _as_params(matrix)


def _as_matrix(p: FloatArray) -> FloatArray:
    return np.array([[1 + p[0], p[1], p[4]], [p[2], 1 + p[3], p[5]], [0.0, 0.0, 1.0]])


def _as_params(m: FloatArray) -> FloatArray:
    return np.array([m[0, 0] - 1, m[0, 1], m[1, 0], m[1, 1] - 1, m[0, 2], m[1, 2]])


def pair_features(a: PictureSignature, b: PictureSignature) -> dict[str, float]:
    ma, mb = a.mask(), b.mask()
    dy, dx = align(ma, mb)
    params = refine(ma, mb, dy, dx)
    sb = _warp(mb.astype(np.float64), params, 0) > 0.5
    na, nb = max(1, int(ma.sum())), max(1, int(sb.sum()))
    ga, gb = _dilate(ma), _dilate(sb)
    ua, ub = ma & ~gb, sb & ~ga
    ea = 1.0 - float(ua.sum()) / na
    eb = 1.0 - float(ub.sum()) / nb
    # Unexplained ink in clumps (a word one page has and the other not), not in lines one cell thin
    # (an edge the alignment left, a ruling one copy lost).
    clump_a = int((_erode(ua)).sum())
    clump_b = int((_erode(ub)).sum())
    scale = float(np.sqrt(abs((1 + params[0]) * (1 + params[3]) - params[1] * params[2])))
    return {"ea": ea, "eb": eb, "ca": clump_a / na, "cb": clump_b / nb, "scale": scale,
            "shear": float(abs(params[1] + params[2])), "na": na, "nb": nb,
            "aspect": max(a.aspect, b.aspect) / min(a.aspect, b.aspect)}


def _erode(mask: BoolArray) -> BoolArray:
    """Cells whose 2 x 2 block (with the right and lower neighbours) is all set."""
    out = np.zeros_like(mask)
    out[:-1, :-1] = mask[:-1, :-1] & mask[1:, :-1] & mask[:-1, 1:] & mask[1:, 1:]
    return out


def compare_pictures(a: PictureSignature, b: PictureSignature) -> PictureMatch:
    """A duplicate when, after alignment, one page's ink lies (within a cell) on the other's almost
    entirely -- a copy may lose faint strokes, never gain handwriting -- and the other's mostly."""
    ca, cb = _density(a.mask(), 16).ravel(), _density(b.mask(), 16).ravel()
    layout = float(np.corrcoef(ca, cb)[0, 1]) if ca.std() > 0 and cb.std() > 0 else 0.0
    if layout < MIN_LAYOUT_CORRELATION:  # cheap: most candidates that share a key end here
        return PictureMatch(round(max(0.0, layout) * 0.5, 3), False,
                            f"pictures differ: their layouts correlate {layout:.2f}")
    f = pair_features(a, b)
    high, low = max(f["ea"], f["eb"]), min(f["ea"], f["eb"])
    ink_ratio = max(f["na"], f["nb"]) / min(f["na"], f["nb"])
    score = high if low >= MIN_EXPLAINED else high * low
    if ink_ratio > MAX_INK_RATIO:
        return PictureMatch(round(score * 0.5, 3), False,
                            f"pictures differ: one has {ink_ratio:.1f} times the ink of the other")
    dup = high >= MATCH_SCORE and low >= MIN_EXPLAINED
    why = "pictures match" if dup else "pictures differ"
    return PictureMatch(round(score, 3), dup,
                        f"{why}: {high:.1%} of one page's ink lies on the other, {low:.0%} the other way")
