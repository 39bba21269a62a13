"""Pages without text for the tests, drawn with Pillow (seeded, no files): a handwritten
note, another capture of it (a re-scan: turned, shifted, lighter, noisy, JPEG'd on the
way), a blank page with specks, as WebP bytes like Paperless's thumbnails (~400 px wide).
The labelled corpus of docs/quality.md is bench.corpus.pictures; these are the few
pages the end-to-end tests need.
"""

from __future__ import annotations

import io
import random
from functools import cache

from PIL import Image, ImageDraw, ImageFilter

WIDTH, HEIGHT = 400, 566  # A4 at Paperless's thumbnail width


def handwritten_page(seed: int) -> Image.Image:
    """Lines of pen strokes on paper, different for every seed."""
    rng = random.Random(seed)
    page = Image.new("L", (WIDTH, HEIGHT), rng.randint(238, 250))
    draw = ImageDraw.Draw(page)
    y = rng.randint(40, 90)
    while y < HEIGHT - 60:
        x = rng.randint(30, 60)
        end = rng.randint(220, WIDTH - 30)
        while x < end:
            word = rng.randint(15, 55)
            points = [(x + i * word / 8, y + rng.uniform(-6, 6)) for i in range(9)]
            draw.line(points, fill=rng.randint(20, 70), width=rng.choice((2, 3)))
            x += word + rng.randint(6, 14)
        y += rng.randint(26, 40)
    if rng.random() < 0.7:  # a drawing in a corner
        cx, cy, r = rng.randint(260, 340), rng.randint(60, 140), rng.randint(20, 40)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=30, width=3)
    return page


def blank_page(seed: int) -> Image.Image:
    """Paper with a little texture and a few specks: nothing on it."""
    rng = random.Random(seed)
    page = Image.new("L", (WIDTH, HEIGHT), rng.randint(236, 250))
    draw = ImageDraw.Draw(page)
    for _ in range(rng.randint(3, 8)):
        x, y = rng.randint(0, WIDTH - 3), rng.randint(0, HEIGHT - 3)
        draw.ellipse((x, y, x + rng.randint(1, 2), y + rng.randint(1, 2)), fill=rng.randint(150, 200))
    return page.filter(ImageFilter.GaussianBlur(0.6))


def recapture(page: Image.Image, seed: int) -> Image.Image:
    """Another scan of the same sheet: a small turn and shift, other light, blur, JPEG."""
    rng = random.Random(seed)
    turned = page.rotate(rng.uniform(-1.5, 1.5), resample=Image.Resampling.BICUBIC, fillcolor=245,
                         translate=(rng.randint(-6, 6), rng.randint(-6, 6)))
    lighter = turned.point(lambda v: min(255, int(v * 0.92 + 22)))
    blurred = lighter.filter(ImageFilter.GaussianBlur(0.7))
    buf = io.BytesIO()
    blurred.save(buf, "JPEG", quality=70)
    return Image.open(io.BytesIO(buf.getvalue())).convert("L")


def webp(page: Image.Image) -> bytes:
    buf = io.BytesIO()
    page.convert("RGB").save(buf, "WEBP", quality=80)
    return buf.getvalue()


@cache
def own_thumbnail(doc_id: int) -> bytes:
    """The fake Paperless's thumbnail of a document no test gave one: a page of its own."""
    return webp(handwritten_page(100_000 + doc_id))
