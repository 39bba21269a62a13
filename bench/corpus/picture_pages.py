"""Pages without text, drawn procedurally (Pillow, seeded): what an archive keeps as pictures.

Each ``draw_*`` returns a clean sheet (Pillow "L", A4 at about 100 dpi: 800 x 1131; a receipt
is a narrow strip) from a ``random.Random``; a *family* (one printed form, one shop, one
stamp, one notepad) is a seed shared by its members, so that they share their layout and
differ only in what was written, bought or stamped: the hard negatives.
"""

from __future__ import annotations

import math
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFont

A4 = (800, 1131)


def _paper(size: tuple[int, int], rng: random.Random, tone: tuple[int, int] = (236, 250)) -> Image.Image:
    w, h = size
    gen = np.random.default_rng(rng.getrandbits(32))
    base = rng.uniform(*tone)
    small = gen.normal(0.0, 2.0, (h // 60 + 2, w // 60 + 2)).astype(np.float32)
    low = np.asarray(Image.fromarray(small, "F").resize((w, h), Image.Resampling.BICUBIC))
    arr = base + low + gen.normal(0.0, 1.5, (h, w))
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "L")


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


class Writer:
    """One person's hand: size, slant, pen, how wide the letters are."""

    def __init__(self, rng: random.Random) -> None:
        self.size = rng.uniform(14, 26)
        self.slant = rng.uniform(-0.35, 0.15)
        self.width = rng.randint(2, 3)
        self.ink = rng.randint(10, 80)
        self.letter = rng.uniform(0.5, 0.8)
        self.seed = rng.getrandbits(32)


def handwrite(draw: ImageDraw.ImageDraw, x: float, y: float, length: float, writer: Writer, rng: random.Random,
              ink: int | None = None) -> float:
    """Cursive-looking words from ``x`` along the baseline ``y``, ``length`` pixels long."""
    end = x + length
    while x < end - writer.size:
        letters = rng.randint(2, 8)
        points = []
        for _ in range(letters * 4):
            x += writer.size * writer.letter / 4
            phase = rng.random()
            tall = writer.size * (1.6 if rng.random() < 0.15 else 0.8 if rng.random() < 0.1 else 1.0)
            dy = -tall * (0.5 + 0.5 * math.sin(phase * 2 * math.pi)) * rng.uniform(0.5, 1.0)
            points.append((x + writer.slant * dy, y + dy + rng.uniform(-1, 1)))
            if x > end:
                break
        draw.line(points, fill=writer.ink if ink is None else ink, width=writer.width, joint="curve")
        x += writer.size * rng.uniform(0.6, 1.2)
    return x


def signature(draw: ImageDraw.ImageDraw, x: float, y: float, writer: Writer, rng: random.Random) -> None:
    points = []
    for i in range(rng.randint(14, 30)):
        points.append((x + i * rng.uniform(5, 11), y + rng.uniform(-1, 1) * writer.size * rng.uniform(0.3, 1.4)))
    draw.line(points, fill=writer.ink, width=writer.width, joint="curve")
    draw.line([(x - 10, y + writer.size * 0.6), (points[-1][0] + 10, y + writer.size * 0.4)], fill=writer.ink, width=2)


def draw_note(family: int, rng: random.Random) -> Image.Image:
    """A handwritten note; the family is the notepad (ruled, squared or plain; a printed header)."""
    pad = random.Random(family)
    img = _paper(A4, rng)
    draw = ImageDraw.Draw(img)
    ruling = pad.choice(["ruled", "squared", "plain", "ruled"])
    step = pad.randint(30, 40)
    if ruling == "ruled":
        for y in range(140, A4[1] - 40, step):
            draw.line([(40, y), (A4[0] - 40, y)], fill=pad.randint(185, 215), width=1)
        draw.line([(90, 40), (90, A4[1] - 40)], fill=pad.randint(170, 200), width=2)
    elif ruling == "squared":
        for y in range(60, A4[1] - 40, step // 2):
            draw.line([(40, y), (A4[0] - 40, y)], fill=pad.randint(205, 225), width=1)
        for x in range(40, A4[0] - 39, step // 2):
            draw.line([(x, 60), (x, A4[1] - 40)], fill=pad.randint(205, 225), width=1)
    if pad.random() < 0.5:
        draw.text((60, 50), pad.choice(["NOTES", "Memo", "To do", "HOTEL BELLEVUE"]), fill=90, font=_font(22))
    writer = Writer(rng)
    y = 140 + step * rng.randint(0, 2) - 6
    lines = rng.randint(3, 18)
    for _ in range(lines):
        if y > A4[1] - 80:
            break
        x0 = 100 + rng.uniform(-10, 40)
        handwrite(draw, x0, y, rng.uniform(0.3, 1.0) * (A4[0] - 160 - x0), writer, rng)
        y += step * (2 if rng.random() < 0.15 else 1)
    if rng.random() < 0.4:
        signature(draw, rng.uniform(400, 550), y + step, writer, rng)
    return img


def draw_drawing(rng: random.Random) -> Image.Image:
    """A child's drawing: a sun, a house, people, grass; crayon hatching in many grey levels."""
    img = _paper(A4, rng)
    draw = ImageDraw.Draw(img)
    w, h = A4

    def crayon_fill(poly: list[tuple[float, float]], tone: int) -> None:
        xs, ys = [p[0] for p in poly], [p[1] for p in poly]
        layer = Image.new("L", A4, 0)
        ImageDraw.Draw(layer).polygon(poly, fill=255)
        hatch = Image.new("L", A4, 0)
        hd = ImageDraw.Draw(hatch)
        angle = rng.uniform(-0.6, 0.6)
        for offset in range(int(min(xs)) - 400, int(max(xs)) + 400, rng.randint(4, 8)):
            hd.line([(offset, min(ys)), (offset + (max(ys) - min(ys)) * angle, max(ys))], fill=255, width=3)
        mask = Image.fromarray((np.asarray(layer) & np.asarray(hatch)).astype(np.uint8), "L")
        img.paste(Image.new("L", A4, tone), (0, 0), mask)
        draw.line(poly + [poly[0]], fill=max(0, tone - 60), width=rng.randint(2, 4))

    for _ in range(rng.randint(2, 6)):
        kind = rng.choice(["sun", "house", "person", "tree", "blob", "grass"])
        cx, cy = rng.uniform(100, w - 100), rng.uniform(120, h - 150)
        s = rng.uniform(60, 200)
        tone = rng.randint(60, 190)
        if kind == "sun":
            circle = [(cx + s / 2 * math.cos(t / 20 * 2 * math.pi), cy + s / 2 * math.sin(t / 20 * 2 * math.pi)) for t in range(20)]
            crayon_fill(circle, tone)
            for t in range(rng.randint(6, 12)):
                a = t / 10 * 2 * math.pi
                draw.line([(cx + s * 0.6 * math.cos(a), cy + s * 0.6 * math.sin(a)),
                           (cx + s * math.cos(a), cy + s * math.sin(a))], fill=tone - 40, width=3)
        elif kind == "house":
            crayon_fill([(cx - s, cy), (cx + s, cy), (cx + s, cy + s * 1.3), (cx - s, cy + s * 1.3)], tone)
            crayon_fill([(cx - s * 1.2, cy), (cx, cy - s), (cx + s * 1.2, cy)], max(30, tone - 50))
        elif kind == "person":
            draw.ellipse([cx - s / 5, cy - s / 5, cx + s / 5, cy + s / 5], outline=tone - 50, width=3)
            draw.line([(cx, cy + s / 5), (cx, cy + s), (cx - s / 3, cy + s * 1.5)], fill=tone - 50, width=3)
            draw.line([(cx, cy + s), (cx + s / 3, cy + s * 1.5)], fill=tone - 50, width=3)
            draw.line([(cx - s / 2, cy + s / 2), (cx + s / 2, cy + s / 2)], fill=tone - 50, width=3)
        elif kind == "tree":
            crayon_fill([(cx - s / 8, cy), (cx + s / 8, cy), (cx + s / 8, cy + s), (cx - s / 8, cy + s)], tone)
            crown = [(cx + s / 2 * math.cos(t / 12 * 2 * math.pi) * rng.uniform(0.8, 1.2),
                      cy - s / 3 + s / 2 * math.sin(t / 12 * 2 * math.pi)) for t in range(12)]
            crayon_fill(crown, max(40, tone - 30))
        elif kind == "blob":
            blob = [(cx + s / 2 * rng.uniform(0.5, 1.2) * math.cos(t / 9 * 2 * math.pi),
                     cy + s / 2 * rng.uniform(0.5, 1.2) * math.sin(t / 9 * 2 * math.pi)) for t in range(9)]
            crayon_fill(blob, tone)
        else:
            base = h - rng.uniform(80, 200)
            for gx in range(40, w - 40, rng.randint(8, 16)):
                draw.line([(gx, base), (gx + rng.uniform(-8, 8), base - rng.uniform(10, 40))], fill=tone - 30, width=2)
    return img


def draw_sketch(rng: random.Random) -> Image.Image:
    """A sparse pencil sketch: a few long faint strokes, a little shading; most of the sheet empty."""
    img = _paper(A4, rng)
    draw = ImageDraw.Draw(img)
    w, h = A4
    cx, cy = rng.uniform(200, w - 200), rng.uniform(250, h - 250)
    for _ in range(rng.randint(4, 10)):
        points = []
        x, y = cx + rng.uniform(-150, 150), cy + rng.uniform(-200, 200)
        heading = rng.uniform(0, 2 * math.pi)
        for _ in range(rng.randint(12, 30)):
            heading += rng.uniform(-0.5, 0.5)
            step = rng.uniform(6, 18)
            x, y = x + step * math.cos(heading), y + step * math.sin(heading)
            points.append((x, y))
        draw.line(points, fill=rng.randint(100, 165), width=rng.choice([1, 2, 2, 3]), joint="curve")
    if rng.random() < 0.5:  # shading
        sx, sy = cx + rng.uniform(-100, 100), cy + rng.uniform(-100, 100)
        for i in range(rng.randint(5, 15)):
            draw.line([(sx + i * 5, sy), (sx + i * 5 + 25, sy + 40)], fill=rng.randint(140, 185), width=1)
    return img


FORM_FIELDS = 9


def draw_form(family: int, rng: random.Random, fill: bool = True) -> Image.Image:
    """One printed form (the family) with boxes, labels, ticks; filled in by one writer."""
    form = random.Random(family * 7919 + 1)
    img = _paper(A4, rng)
    draw = ImageDraw.Draw(img)
    w, _ = A4
    draw.rectangle([60, 50, 60 + form.randint(60, 120), 110], fill=form.randint(60, 140))
    draw.text((220, 60), form.choice(["APPLICATION", "REGISTRATION FORM", "CLAIM FORM", "ANMELDUNG"]), fill=20, font=_font(30))
    draw.line([(60, 130), (w - 60, 130)], fill=40, width=3)
    fields: list[tuple[int, int, int]] = []
    y = 170
    for _ in range(FORM_FIELDS):
        label_w = form.randint(80, 160)
        draw.text((70, y), form.choice(["Name", "Address", "Date", "Place", "Phone", "Member no.", "Amount", "Reason"]),
                  fill=40, font=_font(16))
        box = form.choice(["line", "box", "line"])
        if box == "line":
            draw.line([(70 + label_w, y + 22), (w - 70, y + 22)], fill=90, width=1)
        else:
            draw.rectangle([70 + label_w, y - 6, w - 70, y + 28], outline=70, width=2)
        fields.append((70 + label_w + 10, y + 18, w - 80 - (70 + label_w + 10)))
        y += form.randint(55, 80)
    ticks = []
    for i in range(form.randint(3, 6)):
        tx, ty = 80 + (i % 3) * 220, y + (i // 3) * 45
        draw.rectangle([tx, ty, tx + 20, ty + 20], outline=50, width=2)
        draw.text((tx + 30, ty), form.choice(["yes", "no", "member", "guest", "cash", "card"]), fill=40, font=_font(15))
        ticks.append((tx, ty))
    sig_y = y + 150
    draw.line([(w - 360, sig_y), (w - 80, sig_y)], fill=60, width=1)
    draw.text((w - 360, sig_y + 6), "Signature", fill=60, font=_font(13))
    if not fill:
        return img
    writer = Writer(rng)
    for fx, fy, fw in fields:
        if rng.random() < 0.85:
            handwrite(draw, fx + rng.uniform(0, 30), fy, fw * rng.uniform(0.25, 0.9), writer, rng)
    for tx, ty in rng.sample(ticks, rng.randint(1, len(ticks))):
        draw.line([(tx + 3, ty + 10), (tx + 9, ty + 18), (tx + 22, ty - 4)], fill=writer.ink, width=writer.width + 1)
    signature(draw, w - 340 + rng.uniform(0, 40), sig_y - 14, writer, rng)
    return img


def draw_receipt(family: int, rng: random.Random) -> Image.Image:
    """A till receipt of one shop (the family): the same header, logo and footer; other items and totals."""
    shop = random.Random(family * 104729 + 3)
    lines = rng.randint(4, 22)
    line_h = 22
    width = shop.randint(300, 360)
    height = 260 + lines * line_h + 200
    img = _paper((width, height), rng, tone=(238, 252))
    draw = ImageDraw.Draw(img)
    name = shop.choice(["SUPERMARKT NORD", "BAKERY LUMEN", "HARDWARE 24", "CAFE ORBIT", "PHARMACIE DU PONT"])
    if shop.random() < 0.7:
        draw.ellipse([width / 2 - 40, 20, width / 2 + 40, 100], outline=30, width=5)
        draw.text((width / 2 - 20, 45), name[:2], fill=30, font=_font(28))
    draw.text((20, 115), name, fill=20, font=_font(22))
    draw.text((20, 150), shop.choice(["Hauptstr. 4, Kiel", "12 Mill Lane", "Rue du Pont 8"]), fill=40, font=_font(14))
    y = 200
    font = _font(15)
    words = ["MILK", "BREAD", "APPLES", "COFFEE", "SCREWS", "TAPE", "CROISSANT", "TEA", "SOAP", "BATTERIES", "PASTA", "CHEESE"]
    for _ in range(lines):
        item = " ".join(rng.sample(words, rng.randint(1, 2)))
        draw.text((20, y), item, fill=25, font=font)
        draw.text((width - 90, y), f"{rng.randint(0, 49)},{rng.randint(0, 99):02d}", fill=25, font=font)
        y += line_h
    draw.line([(20, y + 8), (width - 20, y + 8)], fill=40, width=2)
    draw.text((20, y + 18), "TOTAL", fill=10, font=_font(20))
    draw.text((width - 110, y + 18), f"{rng.randint(5, 300)},{rng.randint(0, 99):02d}", fill=10, font=_font(20))
    draw.text((20, y + 60), f"{rng.randint(1, 28):02d}.{rng.randint(1, 12):02d}.2025 {rng.randint(7, 20):02d}:{rng.randint(0, 59):02d}",
              fill=40, font=_font(14))
    draw.text((20, y + 90), shop.choice(["THANK YOU", "DANKE", "MERCI"]), fill=40, font=_font(16))
    for i in range(0, width - 40, 4):  # the barcode
        if shop.random() < 0.5 or rng.random() < 0.3:
            draw.line([(20 + i, y + 125), (20 + i, y + 175)], fill=20, width=2)
    return img


def draw_stamp_page(family: int, rng: random.Random) -> Image.Image:
    """A page that holds only a rubber stamp (the family's), a date and a signature."""
    firm = random.Random(family * 15485863 + 5)
    img = _paper(A4, rng)
    draw = ImageDraw.Draw(img)
    writer = Writer(rng)
    cx, cy = rng.uniform(250, 550), rng.uniform(300, 850)
    r = firm.randint(70, 110)
    tone = rng.randint(40, 110)
    if firm.random() < 0.5:
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=tone, width=4)
        draw.ellipse([cx - r + 14, cy - r + 14, cx + r - 14, cy + r - 14], outline=tone, width=2)
    else:
        draw.rectangle([cx - r * 1.5, cy - r * 0.6, cx + r * 1.5, cy + r * 0.6], outline=tone, width=4)
    draw.text((cx - r * 0.8, cy - 14), firm.choice(["RECEIVED", "PAID", "APPROVED", "EINGANG"]), fill=tone, font=_font(24))
    draw.text((cx - r * 0.6, cy + 14), f"{rng.randint(1, 28):02d} {rng.choice(['JAN', 'FEB', 'MAR', 'APR', 'MAY'])} 2025",
              fill=tone, font=_font(16))
    signature(draw, cx + rng.uniform(-60, 60), cy + r + rng.uniform(40, 90), writer, rng)
    if rng.random() < 0.6:
        handwrite(draw, rng.uniform(100, 400), rng.uniform(150, 250), rng.uniform(80, 250), writer, rng)
    return img


def draw_blank(rng: random.Random) -> Image.Image:
    """A blank or near-blank sheet: paper texture, a few specks, punched-hole shadows, faint show-through."""
    img = _paper(A4, rng, tone=(225, 250))
    draw = ImageDraw.Draw(img)
    w, h = A4
    for _ in range(rng.randint(0, 10)):
        x, y, s = rng.uniform(20, w - 20), rng.uniform(20, h - 20), rng.uniform(0.5, 2.5)
        draw.ellipse([x - s, y - s, x + s, y + s], fill=rng.randint(60, 190))
    if rng.random() < 0.5:
        for hy in (h * 0.35, h * 0.65):
            x = rng.uniform(25, 45)
            s = rng.uniform(9, 14)
            draw.ellipse([x - s, hy - s, x + s, hy + s], fill=rng.randint(150, 205))
    if rng.random() < 0.3:  # show-through of the back's print, very faint
        font = _font(16)
        base = int(np.asarray(img).mean())
        for y in range(120, h - 120, 26):
            draw.text((80, y), "x" * rng.randint(20, 60), fill=base - rng.randint(6, 12), font=font)
    if rng.random() < 0.2:  # a fold line
        fy = rng.uniform(h * 0.3, h * 0.7)
        draw.line([(0, fy), (w, fy + rng.uniform(-5, 5))], fill=int(np.asarray(img).mean()) - rng.randint(8, 15), width=2)
    return img
