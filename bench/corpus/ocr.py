"""Real OCR for the corpus: a text laid out on page images with real fonts, degraded the way
office scanners and phone photos degrade pages, and read back by tesseract.

    text -> pages (Pillow, DejaVu / Liberation at 300 dpi) -> degrade(profile) -> tesseract -> text

Profiles (the parameters are drawn from ``seed``, so a (text, profile, seed) is one scan):

``office``  a flatbed or office copier at 200-300 dpi: skew under 1 degree, light blur and noise,
            JPEG 70-90 (the PDF a copier mails).
``phone``   a photo of the page: rotation up to 1.5 degrees, 150-200 dpi effective, blur,
            uneven light (a shadow across the page), sensor noise, JPEG 50-80.
``worn``    a folded, worn print-out on a tired copier (issue 25): 8-10 pt print at 150-240 dpi, a faint band,
            creases, dust specks, sometimes the right edge off the glass; readable, with the
            misread and lost words of real archives.
``poor``    a faxed or crumpled page: 110-140 dpi, strong blur and noise, JPEG 30-50.
            Much of it is not readable any more; the corpus keeps it to say where the limit is.

Results are cached on disk, one JSON file per scan, keyed by the text, the language, the
degradation (every parameter) and the tesseract version: a rerun reads the cache and never starts tesseract.
The cache of the CI corpus is committed (``bench/corpus/ocr_cache``), so CI gets the same bytes
as long as its tesseract is the same version; another version OCRs afresh (and says so).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import random
import shutil
import subprocess
import tempfile
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

from rapidfuzz.distance import Levenshtein

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation"))
FONTS = ("DejaVuSans.ttf", "DejaVuSerif.ttf", "DejaVuSansCondensed.ttf", "LiberationSerif-Regular.ttf",
         "LiberationSans-Regular.ttf", "LiberationMono-Regular.ttf", "LiberationSansNarrow-Regular.ttf")
PROFILES = ("office", "phone", "worn", "poor")
DEFAULT_CACHE = Path(__file__).resolve().parent / "ocr_cache"
PAGE_DPI = 300
PAGE_W, PAGE_H = 2480, 3508  # A4 at 300 dpi
MARGIN = 220
TESS_LANG = {"de": "deu+eng", "en": "eng+deu"}


class OcrUnavailable(RuntimeError):
    """tesseract, its languages, the fonts or Pillow are missing."""


@dataclass(frozen=True)
class Degradation:
    profile: str
    font: str
    font_pt: float
    dpi: int  # resolution of the scan the OCR reads
    angle: float  # degrees
    blur: float  # Gaussian radius in pixels at the scan's resolution
    noise: float  # standard deviation of Gaussian noise, 0-255
    shadow: float  # depth of the uneven light, 0 (even) to 1
    jpeg: int  # quality
    # issue 25: local damage that real scans have and the three first profiles lacked (0: none). A
    # scan that is 0 in all of them has the cache key it had before these existed (cache_key).
    band: float = 0.0  # a faint vertical band (toner running low, a dirty scanner glass): 0-1 lighter
    band_x: float = 0.0  # where the band starts, share of the page's width
    band_w: float = 0.0  # its width, share of the page's width
    speckle: float = 0.0  # share of pixels turned into dust specks
    fold: int = 0  # dark creases across the page (a folded letter)
    crop: float = 0.0  # share of the page's right edge off the scanner glass

    @classmethod
    def draw(cls, profile: str, seed: int) -> Degradation:
        rng = random.Random(f"{profile}:{seed}")
        font = rng.choice(FONTS)
        pt = rng.uniform(9.5, 12.0)
        if profile == "office":
            return cls(profile, font, pt, rng.choice([200, 240, 300]), rng.uniform(-0.9, 0.9), rng.uniform(0.0, 0.6),
                       rng.uniform(2, 8), rng.uniform(0.0, 0.1), rng.randint(70, 90))
        if profile == "phone":
            return cls(profile, font, pt, rng.randint(150, 200), rng.uniform(-1.5, 1.5), rng.uniform(0.3, 0.8),
                       rng.uniform(4, 10), rng.uniform(0.15, 0.4), rng.randint(50, 80))
        if profile == "worn":
            # a folded, worn print-out on a tired copier: readable, but with faint bands, creases, dust
            # and a cut edge where words get lost or misread (CER ~0.01-0.10, where real archives are)
            # (measured: a band fainter than ~0.6 splits the page into columns, CER 0.5; a crop under the
            # margin of 0.09 loses nothing; speckle 0.008 alone costs a CER of 0.03-0.05)
            pt = rng.uniform(8.0, 10.0)  # the small print of statements and forms, where digits suffer most
            return cls(profile, font, pt, rng.choice([150, 200, 200, 240]), rng.uniform(-1.5, 1.5),
                       rng.uniform(0.3, 0.7), rng.uniform(4, 10), rng.uniform(0.1, 0.35), rng.randint(40, 70),
                       band=rng.uniform(0.45, 0.63), band_x=rng.uniform(0.1, 0.7), band_w=rng.uniform(0.04, 0.12),
                       speckle=rng.uniform(0.002, 0.009), fold=rng.choice([0, 1, 1, 2]),
                       crop=rng.choice([0.0, 0.0, rng.uniform(0.10, 0.17)]))
        if profile == "poor":
            return cls(profile, font, pt, rng.randint(110, 140), rng.uniform(-2.0, 2.0), rng.uniform(0.8, 1.3),
                       rng.uniform(10, 18), rng.uniform(0.3, 0.5), rng.randint(30, 50))
        raise ValueError(f"unknown OCR profile {profile!r}: one of {PROFILES}")


@dataclass(frozen=True)
class Scan:
    text: str  # what tesseract read
    cer: float  # character error rate against the source text (see character_error_rate)
    degradation: Degradation
    cached: bool


def character_error_rate(source: str, ocr: str) -> float:
    """Edit distance between the two texts with runs of white space made one blank (layout is
    not an error), over the source's length."""
    a, b = " ".join(source.split()), " ".join(ocr.split())
    return Levenshtein.distance(a, b) / max(1, len(a))


@lru_cache(maxsize=1)
def tesseract_version() -> str:
    exe = shutil.which("tesseract")
    if exe is None:
        raise OcrUnavailable("tesseract is not installed (Debian: apt-get install tesseract-ocr tesseract-ocr-deu tesseract-ocr-eng)")
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=False)
    first = (out.stdout or out.stderr).splitlines()[0].strip() if (out.stdout or out.stderr) else ""
    langs = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, check=False)
    have = set((langs.stdout + langs.stderr).split())
    if not {"deu", "eng"} <= have:
        raise OcrUnavailable("tesseract lacks deu or eng (Debian: apt-get install tesseract-ocr-deu tesseract-ocr-eng)")
    return first or "tesseract unknown"


def available() -> str | None:
    """None when real OCR can run here, else why not (one line)."""
    try:
        tesseract_version()
        _font_path(FONTS[0])
        import PIL  # noqa: F401
    except OcrUnavailable as exc:
        return str(exc)
    except ImportError:
        return "Pillow is not installed (pip install -e '.[test]')"
    return None


def _font_path(name: str) -> Path:
    for folder in FONT_DIRS:
        if (folder / name).exists():
            return folder / name
    raise OcrUnavailable(f"font {name} not found under {', '.join(map(str, FONT_DIRS))} "
                         "(Debian: apt-get install fonts-dejavu-core fonts-liberation)")


def cache_key(source: str, lang: str, deg: Degradation, version: str) -> str:
    """The text, its language, every degradation parameter and the tesseract version."""
    h = hashlib.sha256()
    params = {k: v for k, v in asdict(deg).items() if k not in _LOCAL_DAMAGE or v}  # keys of older scans kept
    for part in (source, lang, json.dumps(params, sort_keys=True), version, "v2"):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:32]


_LOCAL_DAMAGE = ("band", "band_x", "band_w", "speckle", "fold", "crop")


def scan(source: str, lang: str, profile: str, seed: int, *, cache: Path | None = DEFAULT_CACHE) -> Scan:
    """The text tesseract reads from ``source`` laid out on pages and degraded by ``profile``."""
    version = tesseract_version() if shutil.which("tesseract") else _cached_version(cache)
    deg = Degradation.draw(profile, seed)
    key = cache_key(source, lang, deg, version)
    path = cache / f"{key}.json" if cache is not None else None
    if path is not None and path.exists():
        stored = json.loads(path.read_text(encoding="utf-8"))
        return Scan(stored["text"], stored["cer"], deg, True)
    if version == "":
        raise OcrUnavailable("tesseract is not installed and the OCR cache lacks this scan")
    pages = [_degrade(img, deg, random.Random(f"{seed}:{i}")) for i, img in enumerate(layout(source, deg))]
    text = "\n".join(_tesseract(img, TESS_LANG.get(lang, "eng+deu")) for img in pages).strip()
    result = Scan(text, round(character_error_rate(source, text), 4), deg, False)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"text": text, "cer": result.cer, "tesseract": version, "degradation": asdict(deg)},
                                  ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    return result


def _cached_version(cache: Path | None) -> str:
    """Without tesseract the cache still answers for the version that filled it."""
    if cache is None or not cache.is_dir():
        return ""
    for path in sorted(cache.glob("*.json"))[:1]:
        return str(json.loads(path.read_text(encoding="utf-8")).get("tesseract", ""))
    return ""


def layout(source: str, deg: Degradation) -> list[object]:
    """``source`` typeset on A4 pages at 300 dpi (lines wrapped to the text width)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(_font_path(deg.font)), round(deg.font_pt * PAGE_DPI / 72))
    line_h = round(deg.font_pt * PAGE_DPI / 72 * 1.35)
    width = PAGE_W - 2 * MARGIN
    lines: list[str] = []
    for raw in source.splitlines():
        words = raw.split(" ")
        current = ""
        for word in words:
            trial = word if not current else current + " " + word
            if current and font.getlength(trial) > width:
                lines.append(current)
                current = word
            else:
                current = trial
        lines.append(current)
    per_page = (PAGE_H - 2 * MARGIN) // line_h
    pages = []
    for start in range(0, max(1, len(lines)), per_page):
        chunk = lines[start : start + per_page]
        # a short last page (a note, a card) is cut under its text: a small image, a quick OCR
        img = Image.new("L", (PAGE_W, min(PAGE_H, 2 * MARGIN + max(4, len(chunk)) * line_h)), 255)
        draw = ImageDraw.Draw(img)
        for k, line in enumerate(chunk):
            draw.text((MARGIN, MARGIN + k * line_h), line, font=font, fill=20)
        pages.append(img)
    return pages


def _degrade(page: object, deg: Degradation, rng: random.Random) -> object:
    from PIL import Image, ImageFilter

    img: Image.Image = page  # type: ignore[assignment]
    if deg.band or deg.fold or deg.crop:
        img = _local_damage(img, deg, rng)
    if deg.angle:
        img = img.rotate(deg.angle, resample=Image.Resampling.BILINEAR, expand=False, fillcolor=235)
    scale = deg.dpi / PAGE_DPI
    img = img.resize((round(img.width * scale), round(img.height * scale)), Image.Resampling.BILINEAR)
    if deg.blur:
        img = img.filter(ImageFilter.GaussianBlur(deg.blur))
    if deg.shadow:
        # uneven light: a linear gradient across the page in a random direction, darker on one side
        w, h = img.size
        theta = rng.uniform(0, 2 * math.pi)
        dx, dy = math.cos(theta), math.sin(theta)
        small = Image.new("L", (64, 64))
        small.putdata([round(255 * (1 - deg.shadow * (0.5 + 0.5 * ((x / 63 - 0.5) * dx + (y / 63 - 0.5) * dy) * 1.4)))
                       for y in range(64) for x in range(64)])
        light = small.resize((w, h), Image.Resampling.BILINEAR)
        img = _multiply(img, light)
    if deg.noise:
        img = _add_noise(img, Image.effect_noise(img.size, deg.noise))
    if deg.speckle:
        img = _speckle(img, deg.speckle, rng)
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=deg.jpeg)
    buf.seek(0)
    return Image.open(buf).convert("L")


def _local_damage(img: object, deg: Degradation, rng: random.Random) -> object:
    """A faint vertical band, creases across the page, the right edge cut off (at 300 dpi, before the
    page is skewed and scaled down like the rest of the scan)."""
    from PIL import Image, ImageDraw

    page: Image.Image = img  # type: ignore[assignment]
    page = page.copy()
    w, h = page.size
    if deg.band:
        x0, x1 = round(w * deg.band_x), round(w * min(1.0, deg.band_x + deg.band_w))
        box = (x0, 0, x1, h)
        faint = page.crop(box).point(lambda v: round(255 - (255 - v) * (1 - deg.band)))
        page.paste(faint, box)
    draw = ImageDraw.Draw(page)
    for _ in range(deg.fold):
        y = rng.uniform(0.2, 0.8) * h
        slope = rng.uniform(-0.02, 0.02) * h
        draw.line([(0, y), (w, y + slope)], fill=rng.randint(60, 140), width=rng.randint(3, 7))
    if deg.crop:
        cut = round(w * (1 - deg.crop))
        draw.rectangle([(cut, 0), (w, h)], fill=rng.randint(200, 240))
    return page


def _speckle(img: object, share: float, rng: random.Random) -> object:
    from PIL import Image

    page: Image.Image = img  # type: ignore[assignment]
    page = page.copy()
    w, h = page.size
    px = page.load()
    assert px is not None
    for _ in range(int(w * h * share)):
        x, y = rng.randrange(w), rng.randrange(h)
        px[x, y] = rng.randint(0, 90)
    return page


def _multiply(img: object, light: object) -> object:
    from PIL import ImageChops

    return ImageChops.multiply(img, light)  # type: ignore[arg-type]


def _add_noise(img: object, noise: object) -> object:
    from PIL import ImageChops

    # effect_noise is centred on 128: shift it to zero mean around each pixel
    return ImageChops.add(img, noise, scale=1.0, offset=-128)  # type: ignore[arg-type]


def _tesseract(img: object, lang: str) -> str:
    with tempfile.TemporaryDirectory(prefix="bench-ocr-") as tmp:
        path = Path(tmp) / "page.png"
        img.save(path)  # type: ignore[attr-defined]
        out = subprocess.run(["tesseract", str(path), "stdout", "-l", lang], capture_output=True, text=True,
                             check=False, env={**os.environ, "OMP_THREAD_LIMIT": "1"})
        if out.returncode != 0:
            raise OcrUnavailable(f"tesseract failed ({out.returncode}): {out.stderr.strip()[:200]}")
        return out.stdout
