"""Capture damage for the picture corpus: how one sheet of paper becomes two different images.

Every function takes the clean page (Pillow "L" image, about 100 dpi) and a seeded
``random.Random`` and returns the captured image; :func:`paperless_thumbnail` then does what
Paperless does with any upload (first page, about 400 px wide, WebP).

* ``scan``     the original of most documents: a flatbed scan, barely skewed, mild noise and JPEG.
* ``rescan``   another scan: rotation up to 3.5 degrees, shift, scale, brightness and contrast,
               blur, sensor noise, JPEG at 45-85.
* ``phone``    a phone photo: the sheet on a darker table, perspective (corners off by up to 6 %),
               uneven light, vignetting, blur, noise, JPEG.
* ``fax``      a black-and-white fax-like copy: skew, thresholded, standard resolution (every
               second line doubled), speckles, sometimes a dropped line and a sender header line.
* ``crop``     a copy with one to three margins cut off (not into the content), then scanned.
"""

from __future__ import annotations

import io
import math
import random

import numpy as np
from PIL import Image, ImageFilter, ImageFont

THUMB_WIDTH = 400
WEBP_QUALITY = 80
PAPER_FILL = 250


def _jpeg(img: Image.Image, quality: int) -> Image.Image:
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=quality)
    buf.seek(0)
    return Image.open(buf).convert("L")


def _noise(img: Image.Image, rng: random.Random, sigma: float) -> Image.Image:
    arr = np.asarray(img, dtype=np.float64)
    gen = np.random.default_rng(rng.getrandbits(32))
    arr = arr + gen.normal(0.0, sigma, arr.shape)
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "L")


def _levels(img: Image.Image, gain: float, offset: float, gamma: float) -> Image.Image:
    arr = np.asarray(img, dtype=np.float64) / 255.0
    arr = np.clip(arr * gain + offset, 0.0, 1.0) ** gamma
    return Image.fromarray((arr * 255).astype(np.uint8), "L")


def _affine(img: Image.Image, rng: random.Random, max_deg: float, max_shift: float, max_scale: float) -> Image.Image:
    w, h = img.size
    angle = math.radians(rng.uniform(-max_deg, max_deg))
    scale = 1.0 + rng.uniform(-max_scale, max_scale)
    tx, ty = rng.uniform(-max_shift, max_shift) * w, rng.uniform(-max_shift, max_shift) * h
    cos, sin = math.cos(angle) / scale, math.sin(angle) / scale
    cx, cy = w / 2, h / 2
    # Output -> input mapping about the centre.
    a, b = cos, sin
    d, e = -sin, cos
    c = cx - a * (cx + tx) - b * (cy + ty)
    f = cy - d * (cx + tx) - e * (cy + ty)
    return img.transform((w, h), Image.Transform.AFFINE, (a, b, c, d, e, f),
                         resample=Image.Resampling.BILINEAR, fillcolor=PAPER_FILL)


def scan(page: Image.Image, rng: random.Random) -> Image.Image:
    img = _affine(page, rng, 0.8, 0.01, 0.01)
    img = _noise(img, rng, rng.uniform(1.0, 3.0))
    return _jpeg(img, rng.randint(80, 92))


def rescan(page: Image.Image, rng: random.Random) -> Image.Image:
    img = _affine(page, rng, 3.5, 0.04, 0.05)
    img = _levels(img, rng.uniform(0.8, 1.15), rng.uniform(-0.08, 0.1), rng.uniform(0.75, 1.35))
    if rng.random() < 0.7:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 1.4)))
    img = _noise(img, rng, rng.uniform(2.0, 7.0))
    return _jpeg(img, rng.randint(45, 85))


def _perspective_coeffs(dst: list[tuple[float, float]], src: list[tuple[float, float]]) -> tuple[float, ...]:
    """Pillow's PERSPECTIVE coefficients mapping output points ``dst`` to input points ``src``."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(dst, src, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs.extend([u, v])
    sol = np.linalg.solve(np.array(rows, dtype=np.float64), np.array(rhs, dtype=np.float64))
    return tuple(float(v) for v in sol)


def _table(size: tuple[int, int], rng: random.Random) -> np.ndarray:
    w, h = size
    gen = np.random.default_rng(rng.getrandbits(32))
    base = rng.uniform(55, 140)
    small = gen.normal(0.0, 12.0, (h // 40 + 2, w // 40 + 2))
    low = np.asarray(Image.fromarray(small.astype(np.float32), "F").resize((w, h), Image.Resampling.BICUBIC))
    stripes = 6.0 * np.sin(np.arange(h)[:, None] / rng.uniform(4, 12) + gen.normal(0, 0.3, (1, w)).cumsum(axis=1) * 0.05)
    return np.asarray(base + low + stripes + gen.normal(0, 4.0, (h, w)), dtype=np.float64)


def photo_of(page: Image.Image, rng: random.Random, canvas: tuple[int, int] = (900, 1200)) -> Image.Image:
    """The sheet photographed on a table: perspective, light falling off, vignetting."""
    cw, ch = canvas
    pw, ph = page.size
    fill = rng.uniform(0.72, 0.9)
    scale = min(cw * fill / pw, ch * fill / ph)
    w, h = pw * scale, ph * scale
    x0 = (cw - w) / 2 + rng.uniform(-0.04, 0.04) * cw
    y0 = (ch - h) / 2 + rng.uniform(-0.04, 0.04) * ch
    jitter = 0.06 * min(cw, ch)
    corners = [(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)]
    dst = [(x + rng.uniform(-jitter, jitter), y + rng.uniform(-jitter, jitter)) for x, y in corners]
    src = [(0.0, 0.0), (float(pw), 0.0), (float(pw), float(ph)), (0.0, float(ph))]
    coeffs = _perspective_coeffs(dst, src)
    warped = page.transform(canvas, Image.Transform.PERSPECTIVE, coeffs, resample=Image.Resampling.BILINEAR)
    inside = Image.new("L", page.size, 255).transform(canvas, Image.Transform.PERSPECTIVE, coeffs,
                                                      resample=Image.Resampling.BILINEAR)
    alpha = np.asarray(inside, dtype=np.float64) / 255.0
    arr = np.asarray(warped, dtype=np.float64) * alpha + _table(canvas, rng) * (1 - alpha)
    yy, xx = np.mgrid[0:ch, 0:cw]
    angle = rng.uniform(0, 2 * math.pi)
    ramp = ((xx - cw / 2) * math.cos(angle) + (yy - ch / 2) * math.sin(angle)) / max(cw, ch)
    light = 1.0 - rng.uniform(0.1, 0.35) * (ramp + 0.5)
    r2 = ((xx - cw / 2) / (cw / 2)) ** 2 + ((yy - ch / 2) / (ch / 2)) ** 2
    light *= 1.0 - rng.uniform(0.1, 0.3) * r2 / 2
    arr = arr * light * rng.uniform(0.9, 1.05)
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "L")
    img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.5, 1.3)))
    img = _noise(img, rng, rng.uniform(3.0, 7.0))
    return _jpeg(img, rng.randint(55, 85))


def phone(page: Image.Image, rng: random.Random) -> Image.Image:
    return photo_of(page, rng)


def fax(page: Image.Image, rng: random.Random) -> Image.Image:
    img = _affine(page, rng, 1.5, 0.02, 0.02)
    if rng.random() < 0.5:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 0.8)))
    arr = np.asarray(_noise(img, rng, rng.uniform(4.0, 10.0)), dtype=np.float64)
    bw = np.where(arr < rng.uniform(165, 200), 0, 255).astype(np.uint8)
    if rng.random() < 0.7:  # standard resolution: half the lines, each shown twice
        bw = np.repeat(bw[::2], 2, axis=0)[: bw.shape[0]]
    gen = np.random.default_rng(rng.getrandbits(32))
    specks = gen.random(bw.shape) < rng.uniform(0.0002, 0.001)
    bw[specks] = 0
    if rng.random() < 0.3:  # a line lost in transmission
        row = rng.randint(0, bw.shape[0] - 3)
        bw[row:row + 2] = 255
    out = Image.fromarray(bw, "L")
    if rng.random() < 0.4:  # the sender's header line
        from PIL import ImageDraw

        draw = ImageDraw.Draw(out)
        font = ImageFont.load_default(size=13)
        stamp = f"FROM {rng.randint(100, 999)} {rng.randint(1000000, 9999999)}   {rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}  P.1"
        draw.text((30, 6), stamp, fill=0, font=font)
    return out


def crop(page: Image.Image, rng: random.Random, content_box: tuple[int, int, int, int]) -> Image.Image:
    """Cut one to three margins, each by up to its whole width (never into the content)."""
    w, h = page.size
    cx0, cy0, cx1, cy1 = content_box
    room = [cx0, cy0, w - cx1, h - cy1]
    cut = [0, 0, 0, 0]
    sides = rng.sample(range(4), rng.randint(1, 3))
    for side in sides:
        cut[side] = int(max(0, room[side] - 4) * rng.uniform(0.5, 1.0))
    cropped = page.crop((cut[0], cut[1], w - cut[2], h - cut[3]))
    return scan(cropped, rng)


def on_scanner_bed(strip: Image.Image, rng: random.Random, bed: tuple[int, int] = (800, 1131)) -> Image.Image:
    """A small sheet (a receipt) laid somewhere on a flatbed: the scan is the whole A4 bed."""
    page = Image.new("L", bed, PAPER_FILL)
    scale = min(1.0, (bed[1] - 40) / strip.height)
    if scale < 1.0:
        strip = strip.resize((round(strip.width * scale), round(strip.height * scale)), Image.Resampling.LANCZOS)
    x = rng.randint(10, max(10, bed[0] - strip.width - 10))
    y = rng.randint(10, max(10, bed[1] - strip.height - 10))
    page.paste(strip, (x, y))
    return page


def paperless_thumbnail(img: Image.Image) -> bytes:
    """What Paperless serves at /api/documents/N/thumb/: the first page, 400 px wide, WebP."""
    w, h = img.size
    thumb = img.resize((THUMB_WIDTH, max(1, round(h * THUMB_WIDTH / w))), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    thumb.save(buf, format="WEBP", quality=WEBP_QUALITY, method=4)
    return buf.getvalue()
