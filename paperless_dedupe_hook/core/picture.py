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
GRID = 96
_HEADER = 4  # version, aspect (log2, scaled), skew (tenths of a degree + 128), reserved
SIGNATURE_BYTES = _HEADER + GRID * GRID // 8
#: Working width of a thumbnail (Paperless's are about 400 px wide).
WORK_WIDTH = 400
#: A page with fewer stroke pixels than this share of its area is blank.
MIN_STROKE_SHARE = 0.0006
COVER = 0.12
MATCH_SCORE = 0.85
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
    marks = ink > max(0.13, median + 6 * sigma)
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


def picture_band_keys(signature: PictureSignature) -> list[bytes]:
    """Eight lookup keys: the rows of a coarse 8 x 8 ink-density layout, a cell set above the median."""
    coarse = _density(signature.mask(), 8)
    bits = coarse > np.median(coarse)
    return [bytes([row, int(np.packbits(bits[row].astype(np.uint8))[0])]) for row in range(8)]


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


def pair_features(a: PictureSignature, b: PictureSignature) -> dict[str, float]:
    ma, mb = a.mask(), b.mask()
    dy, dx = align(ma, mb)
    sb = _shift(mb, dy, dx)
    na, nb = max(1, int(ma.sum())), max(1, int(sb.sum()))
    ea = float((ma & _dilate(sb)).sum()) / na
    eb = float((sb & _dilate(ma)).sum()) / nb
    return {"ea": ea, "eb": eb, "dy": dy, "dx": dx, "na": na, "nb": nb,
            "aspect": max(a.aspect, b.aspect) / min(a.aspect, b.aspect)}


def compare_pictures(a: PictureSignature, b: PictureSignature) -> PictureMatch:
    f = pair_features(a, b)
    score = min(f["ea"], f["eb"])
    if f["aspect"] > 1.3:
        return PictureMatch(round(score * 0.5, 3), False,
                            f"content shapes differ (height/width {a.aspect:.2f} vs {b.aspect:.2f})")
    dup = score >= MATCH_SCORE
    why = "pictures match" if dup else "pictures differ"
    return PictureMatch(round(score, 3), dup, f"{why}: {score:.0%} of the ink of each is in the other")
