"""Aligning two picture masks, pure (numpy only): the steps of a compare before its measures.

* :func:`align` -- the shift (within :data:`MAX_SHIFT` cells) that best overlays one blurred mask
  on the other (FFT correlation);
* :func:`refine` -- affine parameters from there (inverse-compositional Lucas-Kanade on smoothed
  masks, half resolution, then full);
* :func:`warp` -- a mask carried by those parameters; :func:`dilate`, :func:`erode` -- one cell
  more or less.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from . import _picture_page as page

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

MAX_SHIFT = 8


def dilate(mask: BoolArray) -> BoolArray:
    out = mask.copy()
    out[1:, :] |= mask[:-1, :]
    out[:-1, :] |= mask[1:, :]
    grown = out.copy()
    grown[:, 1:] |= out[:, :-1]
    grown[:, :-1] |= out[:, 1:]
    return grown


#: Distances (in cells) are counted up to this; anything farther is this far (the compare asks
#: only whether a cell is within one cell of ink).
FAR = 2


def distance(mask: BoolArray) -> npt.NDArray[np.int64]:
    """Each cell's distance (chessboard, in cells, at most :data:`FAR`) to the nearest set cell."""
    out = np.full(mask.shape, FAR, dtype=np.int64)
    reached = mask.copy()
    for step in range(FAR):
        out[reached & (out == FAR)] = step
        reached = dilate(reached)
    return out


def _blur(mask: BoolArray) -> FloatArray:
    f = mask.astype(np.float64)
    p = np.pad(f, 1)
    h, w = mask.shape
    return np.asarray(sum(p[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)), dtype=np.float64)


def align(a: BoolArray, b: BoolArray) -> tuple[int, int]:
    """The shift of ``b`` (within :data:`MAX_SHIFT` cells) that best overlays it on ``a``."""
    size = 2 * a.shape[0]
    fa = np.fft.rfft2(_blur(a), s=(size, size))
    fb = np.fft.rfft2(_blur(b), s=(size, size))
    corr = np.fft.irfft2(fa * np.conj(fb), s=(size, size))
    shifts = np.r_[0:MAX_SHIFT + 1, -MAX_SHIFT:0]
    window = corr[np.ix_(shifts % size, shifts % size)]
    iy, ix = np.unravel_index(int(np.argmax(window)), window.shape)
    return int(shifts[iy]), int(shifts[ix])


def smooth(img: FloatArray, passes: int) -> FloatArray:
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


def warp(img: FloatArray, params: FloatArray, order: int) -> FloatArray:
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


def scaled(b: BoolArray, sy: float, sx: float) -> BoolArray:
    """``b`` sampled ``sy``, ``sx`` times as far from its centre (its content grown by 1/sy, 1/sx)."""
    return warp(b.astype(np.float64), np.array([sy - 1.0, 0.0, 0.0, sx - 1.0, 0.0, 0.0]), 0) > 0.5


def start(a: BoolArray, moved: BoolArray, sy: float = 1.0, sx: float = 1.0) -> FloatArray:
    """Starting parameters for :func:`refine`: ``moved`` (``b`` :func:`scaled` by ``sy``, ``sx``)
    shifted as the FFT correlation (:func:`align`) overlays it best on ``a``."""
    dy, dx = align(a, moved)
    return np.array([sy - 1.0, 0.0, 0.0, sx - 1.0, -sy * dy, -sx * dx])


def refine(a: BoolArray, b: BoolArray, params: FloatArray) -> FloatArray:
    """Affine parameters that carry ``b`` onto ``a``, from ``params`` (:func:`start`): Lucas-Kanade
    on smoothed masks, first at half resolution (wide reach, cheap), then at full resolution."""
    params = np.array([*params[:4], params[4] / 2, params[5] / 2])
    half_a, half_b = _halve(a.astype(np.float64)), _halve(b.astype(np.float64))
    params = _lucas_kanade(smooth(half_a, 2), smooth(half_b, 2), params, 16)
    params[4:] *= 2
    return _lucas_kanade(smooth(a.astype(np.float64), 2), smooth(b.astype(np.float64), 2), params, 6)


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
        warped = warp(sb, _as_params(matrix), 1)
        step = hess_inv @ (steepest.T @ (warped - sa).ravel())
        matrix = matrix @ np.linalg.inv(_as_matrix(step))
        if np.abs(step[4:]).max() < 0.05 and np.abs(step[:4]).max() < 0.002:
            break
    return _as_params(matrix)


def _as_matrix(p: FloatArray) -> FloatArray:
    return np.array([[1 + p[0], p[1], p[4]], [p[2], 1 + p[3], p[5]], [0.0, 0.0, 1.0]])


def _as_params(m: FloatArray) -> FloatArray:
    return np.array([m[0, 0] - 1, m[0, 1], m[1, 0], m[1, 1] - 1, m[0, 2], m[1, 2]])


def erode(mask: BoolArray) -> BoolArray:
    """Cells whose 2 x 2 block (with the right and lower neighbours) is all set."""
    out = np.zeros_like(mask)
    out[:-1, :-1] = mask[:-1, :-1] & mask[1:, :-1] & mask[:-1, 1:] & mask[1:, 1:]
    return out


def erode3(mask: BoolArray) -> BoolArray:
    """Cells whose eight neighbours are all set (the inside of a shape; its outline is what is left)."""
    p = np.pad(mask, 1)
    h, w = mask.shape
    out = mask.copy()
    for dy in range(3):
        for dx in range(3):
            out &= p[dy:dy + h, dx:dx + w]
    return out
