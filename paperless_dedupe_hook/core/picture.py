"""Pages without text, compared by a picture of their first page, pure (numpy only).

A first version: the page's ink (darkness relative to its own paper, so light and brightness
do not count) is cropped to its content, resampled to a small square mask, and two masks are
compared after the best shift by the share of each one's ink that the other explains.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = [
    "PICTURE_VERSION",
    "PictureMatch",
    "PictureSignature",
    "compare_pictures",
    "picture_band_keys",
    "picture_signature",
]

#: Bumped whenever a signature's bytes change meaning: an index holding another version re-hashes.
PICTURE_VERSION = 1
#: The stored content mask is GRID x GRID bits.
GRID = 64
_HEADER = 4  # version, aspect (log2 scaled), reserved x2
SIGNATURE_BYTES = _HEADER + GRID * GRID // 8
#: A page whose ink covers less than this share of its area is blank.
MIN_INK_SHARE = 0.004
MATCH_SCORE = 0.85

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


def _resize_area(img: FloatArray, out_h: int, out_w: int) -> FloatArray:
    """Area-average ``img`` to ``out_h`` x ``out_w`` (repeating pixels first when it is smaller)."""
    h, w = img.shape
    rep_y = max(1, -(-2 * out_h // h))
    rep_x = max(1, -(-2 * out_w // w))
    if rep_y > 1 or rep_x > 1:
        img = np.repeat(np.repeat(img, rep_y, axis=0), rep_x, axis=1)
        h, w = img.shape
    ys = np.linspace(0, h, out_h + 1).astype(int)[:-1]
    xs = np.linspace(0, w, out_w + 1).astype(int)[:-1]
    sums = np.add.reduceat(np.add.reduceat(img, ys, axis=0), xs, axis=1)
    counts = np.outer(np.diff(np.append(ys, h)), np.diff(np.append(xs, w)))
    return np.asarray(sums / counts, dtype=np.float64)


def _ink(gray: npt.NDArray[np.uint8]) -> FloatArray:
    """Darkness relative to the local paper (0 paper, 1 black), after a smooth light estimate."""
    g = gray.astype(np.float64)
    h, w = g.shape
    by, bx = max(1, h // 12), max(1, w // 12)
    hh, ww = (h // by) * by, (w // bx) * bx
    blocks = g[:hh, :ww].reshape(hh // by, by, ww // bx, bx).transpose(0, 2, 1, 3).reshape(hh // by, ww // bx, -1)
    paper = np.percentile(blocks, 90, axis=2)
    paper = np.maximum(paper, 1.0)
    rows = np.clip(((np.arange(h) + 0.5) / by - 0.5), 0, paper.shape[0] - 1)
    cols = np.clip(((np.arange(w) + 0.5) / bx - 0.5), 0, paper.shape[1] - 1)
    r0 = np.floor(rows).astype(int)
    c0 = np.floor(cols).astype(int)
    r1 = np.minimum(r0 + 1, paper.shape[0] - 1)
    c1 = np.minimum(c0 + 1, paper.shape[1] - 1)
    fr = (rows - r0)[:, None]
    fc = (cols - c0)[None, :]
    light = (paper[r0][:, c0] * (1 - fr) * (1 - fc) + paper[r1][:, c0] * fr * (1 - fc)
             + paper[r0][:, c1] * (1 - fr) * fc + paper[r1][:, c1] * fr * fc)
    return np.asarray(np.clip((light - g) / light, 0.0, 1.0), dtype=np.float64)


def picture_signature(gray: npt.NDArray[np.uint8]) -> PictureSignature | None:
    """The signature of one page's picture, or None for a blank (or too small) page."""
    arr = np.asarray(gray)
    if arr.ndim != 2:
        raise ValueError(f"a page picture is a 2-D gray array, not {arr.ndim}-D")
    if arr.shape[0] < 16 or arr.shape[1] < 16:
        return None
    ink = _ink(arr.astype(np.uint8))
    noise = float(np.median(ink))
    marks = ink > max(0.25, noise + 0.15)
    if marks.mean() < MIN_INK_SHARE:
        return None
    weights = np.where(marks, ink, 0.0)
    y0, y1 = _mass_span(weights.sum(axis=1))
    x0, x1 = _mass_span(weights.sum(axis=0))
    content = weights[y0:y1, x0:x1]
    small = _resize_area(content, GRID, GRID)
    mask = small > max(0.04, 0.35 * float(small.max()) * 0.25)
    aspect = (y1 - y0) / max(1, x1 - x0)
    header = bytes([PICTURE_VERSION, int(np.clip(round(128 + 32 * np.log2(aspect)), 0, 255)), 0, 0])
    return PictureSignature(header + np.packbits(mask.astype(np.uint8)).tobytes())


def _mass_span(profile: FloatArray, tail: float = 0.005) -> tuple[int, int]:
    cum = np.cumsum(profile)
    total = float(cum[-1])
    lo = int(np.searchsorted(cum, tail * total))
    hi = int(np.searchsorted(cum, (1 - tail) * total)) + 1
    return lo, max(hi, lo + 1)


def picture_band_keys(signature: PictureSignature) -> list[bytes]:
    """Eight lookup keys: bands of a coarse 8 x 8 ink-density layout."""
    coarse = _resize_area(signature.mask().astype(np.float64), 8, 8).ravel()
    bits = coarse > np.median(coarse)
    packed = np.packbits(bits.astype(np.uint8)).tobytes()
    return [bytes([i, packed[i]]) for i in range(8)]


def _dilate(mask: BoolArray, radius: int) -> BoolArray:
    out = mask.copy()
    for _ in range(radius):
        grown = out.copy()
        grown[1:, :] |= out[:-1, :]
        grown[:-1, :] |= out[1:, :]
        grown[:, 1:] |= out[:, :-1]
        grown[:, :-1] |= out[:, 1:]
        out = grown
    return out


def _shift(mask: BoolArray, dy: int, dx: int) -> BoolArray:
    out = np.zeros_like(mask)
    h, w = mask.shape
    out[max(dy, 0):h + min(dy, 0), max(dx, 0):w + min(dx, 0)] = mask[max(-dy, 0):h - max(dy, 0), max(-dx, 0):w - max(dx, 0)]
    return out


def compare_pictures(a: PictureSignature, b: PictureSignature) -> PictureMatch:
    ma, mb = a.mask(), b.mask()
    na, nb = int(ma.sum()), int(mb.sum())
    if na == 0 or nb == 0:
        return PictureMatch(0.0, False, "one picture has no ink")
    grown_a = _dilate(ma, 1)
    best = (-1.0, 0.0, 0.0)
    for dy in range(-3, 4):
        for dx in range(-3, 4):
            sb = _shift(mb, dy, dx)
            explained_b = float((sb & grown_a).sum()) / nb
            explained_a = float((ma & _dilate(sb, 1)).sum()) / na
            low = min(explained_a, explained_b)
            if low > best[0]:
                best = (low, explained_a, explained_b)
    score = best[0]
    ratio = max(a.aspect, b.aspect) / min(a.aspect, b.aspect)
    if ratio > 1.25:
        return PictureMatch(round(score * 0.5, 3), False, f"content shapes differ (aspect {a.aspect:.2f} vs {b.aspect:.2f})")
    dup = score >= MATCH_SCORE
    why = "pictures match" if dup else "pictures differ"
    return PictureMatch(round(score, 3), dup, f"{why}: {score:.0%} of the ink of each is in the other")
