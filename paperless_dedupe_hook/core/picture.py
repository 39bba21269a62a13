"""Pages without text, compared by a picture of their first page, pure (numpy only).

The signature of a page is a small binary image of its ink in a canonical frame:

1. a phone photo's sheet is found on its table and warped to a rectangle (``_picture_page.rectify``);
2. ink is darkness relative to the paper around it (uneven light, vignetting, brightness out);
3. a page with too little ink that forms strokes -- paper texture, specks, punched-hole
   shadows, faint show-through -- is blank: no signature, never paired;
4. the ink is turned upright (the rotation with the sharpest row profile) and cropped to its
   content (mass quantiles, so that a speck at the edge or a cropped margin does not move it);
5. the content box is resampled to :data:`GRID` x :data:`GRID` cells, a cell set where ink covers it.

Two signatures are compared after aligning them (``_picture_align``: FFT shift, then affine
Lucas-Kanade; from a second and third start with one axis rescaled when their content boxes'
aspects differ): :func:`picture_measures` gives the numbers -- the share of each one's ink and
of each one's outline that the other explains within one cell, the aligned masks' correlation,
and for a near miss the residue (``_picture_residue``: unexplained ink that is not a lost thin
line or a fax header) -- and :func:`judge_pictures` (``_picture_judge``) decides from them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from . import _picture_align as A
from . import _picture_page as page
from . import _picture_residue as R
from ._picture_judge import (
    MIN_LAYOUT_CORRELATION,
    SPARSE_CELLS,
    SPARSE_MIN_LAYOUT,
    PictureMatch,
    judge_pictures,
)

__all__ = [
    "PICTURE_VERSION",
    "PictureMatch",
    "PictureSignature",
    "choose_candidates",
    "compare_pictures",
    "judge_pictures",
    "picture_band_keys",
    "picture_measures",
    "picture_signature",
]

#: Bumped whenever a signature's bytes change meaning: an index holding another version re-hashes.
PICTURE_VERSION = 3
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
#: A pair whose ink is explained RESIDUE_EXPLAINED both ways, whose fine correlation reaches
#: RESIDUE_MIN_FINE and outlines RESIDUE_OUTLINES is measured for its residue too
#: (``_picture_residue``: the unexplained ink that is not a lost line or a fax header).
RESIDUE_EXPLAINED = 0.85
RESIDUE_MIN_FINE = 0.83
RESIDUE_OUTLINES = 0.65
#: (The decision's thresholds -- and SPARSE_CELLS, MIN_LAYOUT_CORRELATION and SPARSE_MIN_LAYOUT,
#: which the measures use too -- are in ``_picture_judge``.)
#: Content boxes whose aspects differ by more than this factor are aligned from three starts.
RESCALE_ASPECT = 1.08
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


#: The lookup keys compare cells of an ink-density layout in fixed random pairs (whether one has
#: clearly more ink than the other): KEY_BANDS keys of KEY_BITS comparisons on the 8 x 8 layout,
#: then COARSE_KEY_BANDS on the 4 x 4 layout -- a copy whose frame moved (a fax's header, a
#: rescan's shift) changes cells of the 8 x 8 layout that the 4 x 4 one averages over.
KEY_BANDS = 12
COARSE_KEY_BANDS = 4
KEY_BITS = 8
_KEY_PAIRS = np.random.default_rng(3).integers(0, 64, size=(2, KEY_BANDS, KEY_BITS))
_COARSE_KEY_PAIRS = np.random.default_rng(4).integers(0, 16, size=(2, COARSE_KEY_BANDS, KEY_BITS))


def picture_band_keys(signature: PictureSignature) -> list[bytes]:
    """:data:`KEY_BANDS` + :data:`COARSE_KEY_BANDS` lookup keys of 2 bytes: band number, then its
    bits (a copy keeps most of its coarse layout, so shares at least one whole band with its
    original)."""
    mask = signature.mask()
    keys = []
    for first, n, pairs in ((0, 8, _KEY_PAIRS), (KEY_BANDS, 4, _COARSE_KEY_PAIRS)):
        coarse = _density(mask, n).ravel()
        coarse = coarse / max(float(coarse.mean()), 1e-9)
        bits = coarse[pairs[0]] > coarse[pairs[1]] + 0.05
        keys += [bytes([first + band, int(np.packbits(bits[band].astype(np.uint8))[0])]) for band in range(len(bits))]
    return keys


def choose_candidates(signature: PictureSignature, stored: Mapping[int, bytes], *, keep: int,
                      by_keys: int) -> dict[int, bytes]:
    """Which of ``stored`` (signatures of other pictures, those whose shared keys weigh most
    first) to compare: the first ``by_keys``, then of the others those whose coarse layouts
    (16 x 16 densities, the compare's first gate) correlate best with ``signature``'s, ``keep`` in
    all.  The fills of one printed form, and their captures, share most keys with each other: a
    capture of one fill can rank under a hundred of its neighbours by the keys alone, not by its
    layout, which a capture keeps and a different fill does not quite."""
    if len(stored) <= keep:
        return dict(stored)
    ids = list(stored)
    chosen = ids[:by_keys]
    mine = _density(signature.mask(), 16)

    def layout(doc_id: int) -> float:
        raw = stored[doc_id]
        if len(raw) != SIGNATURE_BYTES:
            return -1.0  # not a signature of this layout: the compare refuses it anyway
        return _correlation(mine, _density(PictureSignature(raw).mask(), 16))

    rest = sorted(ids[by_keys:], key=lambda d: -layout(d))
    return {d: stored[d] for d in chosen + rest[: keep - len(chosen)]}


def _correlation(x: FloatArray, y: FloatArray) -> float:
    return float(np.corrcoef(x.ravel(), y.ravel())[0, 1]) if x.std() > 0 and y.std() > 0 else 0.0


def picture_measures(a: PictureSignature, b: PictureSignature, *,
                     min_layout: float = MIN_LAYOUT_CORRELATION) -> dict[str, float]:
    """The numbers a decision is made from (:func:`judge_pictures`): ``layout`` (the coarse
    layouts' correlation) always; when it reaches ``min_layout`` (:data:`SPARSE_MIN_LAYOUT` for
    two sparse pages), the pages aligned (FFT shift, then affine) and ``ea``/``eb`` (the share of
    each one's ink within a cell of the other's), ``na``/``nb`` (their ink cells), ``aligned``
    (the layouts' correlation after alignment), ``scale``, ``shear`` and ``aspect`` (of the
    content boxes, larger over smaller); for a near miss also ``ra``/``rb``/``fs``
    (``_picture_residue``)."""
    ma, mb = a.mask(), b.mask()
    coarse = _density(ma, 16)
    scaled = {s: mb if s == (1.0, 1.0) else A.scaled(mb, *s) for s in _scales(a, b)}
    layouts = {s: _correlation(coarse, _density(m, 16)) for s, m in scaled.items()}
    layout = max(layouts.values())
    if max(int(ma.sum()), int(mb.sum())) <= SPARSE_CELLS:
        min_layout = min(min_layout, SPARSE_MIN_LAYOUT)
    if layout < min_layout:  # cheap: most candidates that share a key end here
        return {"layout": layout}
    best: dict[str, float] = {}
    best_params = np.zeros(6)
    for s, moved in scaled.items():
        if layouts[s] < min_layout:
            continue
        params = A.refine(ma, mb, A.start(ma, moved, *s))
        m = _aligned_measures(ma, mb, params)
        if not best or m["fine"] > best["fine"]:
            best, best_params = m, params
    if _near_miss(best):  # what the two do not share, only where the decision is close
        best |= R.residue_measures(ma, A.warp(mb.astype(np.float64), best_params, 0) > 0.5)
    return {"layout": layout, **best, "aspect": max(a.aspect, b.aspect) / min(a.aspect, b.aspect)}


def _near_miss(m: dict[str, float]) -> bool:
    """Whether aligned measures ``m`` lie where copies and fills of one form overlap: most ink
    explained both ways, the fine correlation under a clear copy's."""
    return (min(m["ea"], m["eb"]) >= RESIDUE_EXPLAINED and m["fine"] >= RESIDUE_MIN_FINE
            and min(m["oa"], m["ob"]) >= RESIDUE_OUTLINES)


def _scales(a: PictureSignature, b: PictureSignature) -> list[tuple[float, float]]:
    """Where to start aligning ``b`` from: as it is; and, when the content boxes' aspects differ,
    with one axis scaled to make them agree (ink that one copy has and the other not -- a fax's
    header, a ruling a copy kept -- moved one axis of the frame)."""
    ratio = b.aspect / a.aspect
    if abs(np.log(ratio)) < np.log(RESCALE_ASPECT):
        return [(1.0, 1.0)]
    return [(1.0, 1.0), (1.0 / ratio, 1.0), (1.0, ratio)]


def _aligned_measures(ma: BoolArray, mb: BoolArray, params: FloatArray) -> dict[str, float]:
    sb = A.warp(mb.astype(np.float64), params, 0) > 0.5
    na, nb = max(1, int(ma.sum())), max(1, int(sb.sum()))
    da, db = A.distance(ma), A.distance(sb)
    ea = float((db[ma] <= 1).sum()) / na
    eb = float((da[sb] <= 1).sum()) / nb
    scale = float(np.sqrt(abs((1 + params[0]) * (1 + params[3]) - params[1] * params[2])))
    # The outlines: inside a large filled shape every cell is explained by any other filled shape.
    oa, ob = ma & ~A.erode3(ma), sb & ~A.erode3(sb)
    doa, dob = A.distance(oa), A.distance(ob)
    return {"ea": ea, "eb": eb, "na": na, "nb": nb,
            "oa": float((dob[oa] <= 1).sum()) / max(1, int(oa.sum())),
            "ob": float((doa[ob] <= 1).sum()) / max(1, int(ob.sum())),
            "no": float(oa.sum() + ob.sum()) / (na + nb),
            "fine": _correlation(A.smooth(ma.astype(np.float64), 1), A.smooth(sb.astype(np.float64), 1)),
            "aligned": _correlation(_density(ma, 16), _density(sb, 16)),
            "scale": scale, "shear": float(abs(params[1] + params[2]))}


def compare_pictures(a: PictureSignature, b: PictureSignature) -> PictureMatch:
    """:func:`judge_pictures` of :func:`picture_measures`, the two in a fixed order (by their
    bytes): the alignment is fitted from one page to the other, and whether two pages are copies
    must not depend on which of them the hook saw first."""
    if b.data < a.data:
        a, b = b, a
    return judge_pictures(picture_measures(a, b))
