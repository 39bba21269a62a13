"""``paperless-dedupe report --html``: built from a real index by the installed
console script, checked with an HTML parser and in a real headless Chromium."""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from paperless_dedupe_hook.commands.report import render
from tests.fake_paperless import FakePaperless
from tests.tooling import missing, skip_without

CLI = shutil.which("paperless-dedupe") or str(Path(sys.executable).parent / "paperless-dedupe")
ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "bench" / "corpus" / "sample" / "docs.jsonl"
PAPERLESS = "http://paperless.test:8000"  # paperless.url; the fixture's report talks to the fake
PUBLIC = "https://paperless.example.org"  # Paperless's own PAPERLESS_URL: where the links go
DOC_LINK = re.compile(r"(?:http://paperless\.test:8000|https://paperless\.example\.org)/documents/(\d+)/details")
PICTURE = re.compile(r"data:image/webp;base64,[A-Za-z0-9+/]+=*")
XSS_TITLE = "<script>alert(1)</script>"
XSS_TEXT = "invoice <img src=x onerror=alert(1)> total"


class Page(HTMLParser):
    """Every start tag with its attributes, and the text under each element name."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: dict[str, list[str]] = {}
        self._open: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        if tag not in ("meta", "br", "img", "link", "input"):
            self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._open:
            while self._open and self._open.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        for tag in set(self._open):
            self.text.setdefault(tag, []).append(data)

    def all(self, tag: str, cls: str | None = None) -> list[dict[str, str]]:
        return [a for t, a in self.tags if t == tag and (cls is None or cls in a.get("class", "").split())]

    def joined(self, tag: str) -> str:
        return "".join(self.text.get(tag, []))


def tiny_corpus(path: Path) -> Path:
    """A duplicate pair (an invoice and its re-scan with OCR slips) and an unrelated letter."""
    invoice = ("ACME Office Supplies GmbH, Invoice INV-2026-1047, date 2026-10-14. Customer number 88231. "
               "Item one: 40 boxes of printer paper, A4, 80 g, at 4.20 EUR each. Item two: 12 toner cartridges "
               "for the office printer at 61.90 EUR each. Delivery to the second floor reception. Payment within "
               "fourteen days to the account named below. Total amount 910.80 EUR including VAT.")
    rescan = (invoice.replace("Office Supplies", "0ffice Suppl1es").replace("Invoice", "lnvoice")
              .replace("Total", "Tota1").replace("reception", "receptlon"))
    letter = ("Dear members of the garden club, our spring meeting takes place on Saturday at ten in the community "
              "hall. We will plant tulips along the north fence, swap seeds and plan the summer fair. Please bring "
              "gloves, a spade and a thermos of tea; soup is served afterwards. Kind regards, the committee.")
    docs = [{"id": 1, "title": "ACME invoice INV-2026-1047", "content": invoice},
            {"id": 2, "title": "invoice-acme-2026-10-rescan", "content": rescan},
            {"id": 3, "title": "Garden club spring meeting", "content": letter}]
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return path


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_", "DOCUMENT_"))}
    env.update({"HOME": str(tmp), "XDG_CONFIG_HOME": str(tmp / "cfg"), "XDG_DATA_HOME": str(tmp / "data"),
                "PAPERLESS_DEDUPE_URL": PAPERLESS, "PAPERLESS_DEDUPE_INDEX": str(tmp / "index.sqlite3"),
                "PAPERLESS_URL": PUBLIC})
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *args], env=env, cwd="/", capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    tmp = tmp_path_factory.mktemp("report")
    corpus = SAMPLE if SAMPLE.exists() else tiny_corpus(tmp / "docs.jsonl")
    env = _env(tmp)
    built = run(["rebuild-index", "--from-jsonl", str(corpus)], env)
    assert built.returncode == 0, built.stdout + built.stderr
    # The index keeps no text: the report fetches the members' texts from Paperless.
    with FakePaperless(token="report-token") as fake:
        fake.add_documents(json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines())
        env |= {"PAPERLESS_DEDUPE_URL": fake.url, "PAPERLESS_DEDUPE_TOKEN": fake.token}
        out = tmp / "out.html"
        made = run(["report", "--html", str(out)], env)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "LSH config:" in made.stderr  # every run that loads the index logs its configuration
    assert "WARN" not in made.stderr, made.stderr
    yield out, out.read_text(encoding="utf-8")


def test_groups_pictures_links_verdicts_and_diff(report: tuple[Path, str]) -> None:
    _path, text = report
    page = Page(text)
    groups = page.all("section", "group")
    assert groups, "no duplicate group in the report"
    assert len(page.all("h2")) == len(groups) and "Group 1:" in page.joined("h2")
    links = [a["href"] for a in page.all("a") if not a["href"].startswith("#")]
    # Every link opens the document where the user's browser finds Paperless (PAPERLESS_URL).
    assert links and all(h.startswith(PUBLIC + "/documents/") and DOC_LINK.fullmatch(h) for h in links), links
    assert page.all("table", "scores") and "discriminative" in page.joined("th")
    # Each member's first page, embedded, and a click on it opens that member in Paperless.
    figures = page.all("figure", "page")
    pictures = re.findall(r'<a href="([^"]+)"[^>]*><img src="(data:image/webp;base64,[^"]+)"', text)
    assert len(pictures) == len(figures) == len(page.all("img")) and figures
    assert all(PICTURE.fullmatch(src) and DOC_LINK.fullmatch(href) for href, src in pictures)
    # The verdict in words, one per member compared with its primary, and the texts as Paperless holds them.
    verdicts = page.all("p", "verdict")
    assert len(verdicts) == len(figures) - len(groups)
    said = page.joined("p")
    assert "read differently by OCR" in said
    diffs = text.split('<div class="diff">')[1:]
    assert diffs and len(diffs) >= len(groups)
    assert any('<del class="diff-del">' in d for d in diffs) and any('<ins class="diff-ins">' in d for d in diffs)
    assert any('<span class="ocr"' in d for d in diffs) and any('<details class="fold">' in d for d in diffs)
    if SAMPLE.exists():  # not normalized: case and punctuation as in the documents
        assert "Nachtrag zum Versicherungsschein" in text and "Versicherungsnehmer: Friederike Krüger" in text
    else:  # the tiny corpus: exactly the invoice and its re-scan
        assert len(groups) == 1 and "#2: same text; 5 words read differently by OCR." in said
        assert {DOC_LINK.fullmatch(h).group(1) for h in links} == {"1", "2"}  # type: ignore[union-attr]
        assert "Garden club" not in text


def test_page_loads_nothing_from_anywhere(report: tuple[Path, str]) -> None:
    _path, text = report
    page = Page(text)
    assert not page.all("script") and not page.all("link") and not page.all("iframe")
    csp = next(a["content"] for t, a in page.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy")
    assert csp == "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
    for tag, attrs in page.tags:
        for name in ("srcset", "data", "poster", "action", "formaction"):
            assert name not in attrs
        if "src" in attrs:
            assert tag == "img" and PICTURE.fullmatch(attrs["src"]), attrs["src"][:80]
        href = attrs.get("href")
        if href is not None:
            assert href.startswith("#") or DOC_LINK.fullmatch(href), href
        assert not any(k.startswith("on") for k in attrs)
    assert "@import" not in text and "url(" not in text
    assert [m for m in re.findall(r"https?://[^\s\"'<>]+", text) if not DOC_LINK.fullmatch(m)] == []


def test_render_escapes_document_titles_text_and_pictures() -> None:
    groups = [{"primary": 1, "members": [1, 2], "confidence": 0.9}]
    pairs = [{"a": 1, "b": 2, "score": 0.9, "jaccard": 0.8, "fuzzy": 0.95, "discriminative": 1.0, "containment": 0.8}]
    docs = {1: {"title": XSS_TITLE, "text": XSS_TEXT, "picture": 'data:image/webp;base64,AAAA" onerror="alert(1)'},
            2: {"title": "<b>bold</b>", "text": "invoice total \"&'", "picture": "https://evil.example/x.png"}}
    text = render(groups, pairs, docs, paperless_url=PAPERLESS, config_line="LSH config: <x>")
    page = Page(text)
    assert not page.all("script") and not page.all("b")
    assert [a["src"] for a in page.all("img")] == ['data:image/webp;base64,AAAA" onerror="alert(1)']  # one attribute
    assert "evil.example" not in text  # only data: pictures are shown
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "<script" not in text and "<img src=x" not in text and "onerror=alert(1)>" not in text
    assert XSS_TITLE in page.joined("h2")  # shown as text, not run
    assert "LSH config: <x>" in page.joined("code")


def test_render_without_groups_says_so() -> None:
    text = render([], [], {}, paperless_url=PAPERLESS, config_line="LSH config: num_perm=256")
    page = Page(text)
    assert "No duplicate groups were found" in page.joined("p")
    assert not page.all("section")


def test_render_marks_changes_and_ocr_readings_in_the_original_text() -> None:
    groups = [{"primary": 3, "members": [3, 9], "confidence": 0.9}]
    older = "Rent for March: 812.40 EUR.\nPayment due on the first working day."
    newer = "Rent for March: 835.00 EUR.\nPayrnent due on the first working day."
    docs = {3: {"title": "Rent", "text": older}, 9: {"title": "Rent (rescan)", "text": newer}}
    page = Page(render(groups, [], docs, paperless_url=PAPERLESS, config_line="LSH config"))
    diff = page.all("div", "diff")
    assert len(diff) == 1 and page.joined("del").endswith("only in the primary812.40")  # the legend, then the diff
    assert page.joined("ins").endswith("only in the other document835.00")
    assert [a["title"] for a in page.all("span", "ocr") if "title" in a] == ["the other copy reads: Payrnent",
                                                                             "the other copy reads: Payment"]
    assert ("#9: nearly the same text: 1 word differs in 1 place; numbers or dates among them; "
            "1 word read differently by OCR.") in page.joined("p")
    assert "\n" in page.joined("div")  # line breaks kept


def _tiny(tmp: Path) -> tuple[dict[str, str], Path]:
    env = _env(tmp)
    corpus = tiny_corpus(tmp / "docs.jsonl")
    assert run(["rebuild-index", "--from-jsonl", str(corpus)], env).returncode == 0
    return env, corpus


def test_report_without_token_says_why_in_the_page(tmp_path: Path) -> None:
    env, _corpus = _tiny(tmp_path)  # paperless.test does not resolve, and there is no token
    made = run(["report", "--html", str(tmp_path / "out.html")], env)
    assert made.returncode == 0, made.stderr
    assert "[WARN] No page pictures and no texts: this report was made without a Paperless API token" in made.stderr
    page = Page((tmp_path / "out.html").read_text(encoding="utf-8"))
    notice = "".join(page.text.get("p", []))
    assert "made without a Paperless API token" in notice and "PAPERLESS_DEDUPE_TOKEN" in notice
    assert page.all("p", "notice") and page.all("section", "group") and not page.all("img")
    assert "no picture: no API token" in page.joined("span") and not page.all("div", "diff")


@pytest.mark.parametrize(
    ("flags", "pictures", "left_out"),
    [
        pytest.param([], 2, "", id="all"),
        pytest.param(["--no-thumbnails"], 0, "no picture (--no-thumbnails)", id="no-thumbnails"),
        pytest.param(["--max-picture-mb", "0.005"], 1, "picture budget (--max-picture-mb) is used up", id="cap"),
    ],
)
def test_picture_switches(tmp_path: Path, flags: list[str], pictures: int, left_out: str) -> None:
    env, corpus = _tiny(tmp_path)
    with FakePaperless(token="report-token") as fake:
        fake.add_documents(json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines())
        env |= {"PAPERLESS_DEDUPE_URL": fake.url, "PAPERLESS_DEDUPE_TOKEN": fake.token}
        made = run(["report", "--html", str(tmp_path / "out.html"), *flags], env)
        asked = len(fake.requests_for("GET", r"/thumb/"))
    assert made.returncode == 0, made.stderr
    assert f"{pictures} page picture(s)" in made.stdout
    page = Page((tmp_path / "out.html").read_text(encoding="utf-8"))
    assert len(page.all("img")) == pictures and asked == (0 if "--no-thumbnails" in flags else pictures)
    assert left_out in page.joined("span") and len(page.all("figure", "page")) == 2
    assert page.all("div", "diff")  # the texts are there whatever the pictures


def test_report_without_index_exits_5(tmp_path: Path) -> None:
    proc = run(["report", "--html", str(tmp_path / "out.html")], _env(tmp_path))
    assert proc.returncode == 5
    assert "no index" in proc.stderr and "rebuild-index" in proc.stderr
    assert not (tmp_path / "out.html").exists()


# -- a real browser --------------------------------------------------------------------------
CHROMIUM = next((p for p in (shutil.which("chromium"), "/usr/bin/chromium", shutil.which("chromium-browser"))
                 if p and Path(p).exists()), None)
needs_chromium = skip_without(CHROMIUM is not None, "no chromium binary (apt-get install chromium; .ci/run installs it)")


def chromium(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    if CHROMIUM is None:
        missing("no chromium binary (apt-get install chromium)")
    profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def png_pixels(data: bytes) -> list[tuple[int, int, int]]:
    """The RGB pixels of an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium's
    --screenshot writes), decoded here so the test needs no imaging library."""
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length = struct.unpack(">I", data[pos : pos + 4])[0]
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _c, _f, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, (depth, color, interlace)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, prev = zlib.decompress(idat), width * channels, bytearray(width * channels)
    pixels: list[tuple[int, int, int]] = []
    for y in range(height):
        filt, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, up_left = prev[i], prev[i - channels] if i >= channels else 0
            if filt == 1:
                line[i] = (line[i] + left) & 255
            elif filt == 2:
                line[i] = (line[i] + up) & 255
            elif filt == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif filt == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 255
        pixels.extend(tuple(line[x * channels : x * channels + 3]) for x in range(width))  # type: ignore[misc]
        prev = line
    return pixels


def near(pixels: list[tuple[int, int, int]], rgb: tuple[int, int, int], tolerance: int = 12) -> int:
    return sum(1 for p in pixels if all(abs(a - b) <= tolerance for a, b in zip(p, rgb, strict=True)))


# The orange logo block of the fake's first-page pictures: no CSS colour of the page is near it.
LOGO = (255, 136, 0)


@needs_chromium
def test_report_in_headless_chromium(report: tuple[Path, str], tmp_path: Path) -> None:
    path, _text = report
    dumped = chromium(tmp_path, "--dump-dom", path.as_uri())
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    dom = Page(dumped.stdout)
    assert dom.all("section", "group") and "Group 1:" in dom.joined("h2")
    assert dom.all("del", "diff-del") and dom.all("ins", "diff-ins") and dom.all("span", "ocr")
    assert dom.all("img") and all(PICTURE.fullmatch(img["src"]) for img in dom.all("img"))
    assert "Uncaught" not in dumped.stderr and "Content Security Policy" not in dumped.stderr
    assert not re.search(r"CONSOLE\(\d+\)", dumped.stderr), dumped.stderr[-2000:]

    shot = tmp_path / "shot.png"
    taken = chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,1000", path.as_uri())
    assert taken.returncode == 0, taken.stderr[-2000:]
    assert "Content Security Policy" not in taken.stderr
    pixels = png_pixels(shot.read_bytes())
    assert near(pixels, LOGO) > 500  # the embedded WebP pictures were decoded and drawn
    assert near(pixels, (204, 255, 216), 3) > 50 and near(pixels, (255, 215, 213), 3) > 50  # ins and del


@needs_chromium
def test_screenshot_of_one_group(tmp_path: Path) -> None:
    """A re-scan that lacks the last page: the group as docs/review.md shows it
    (DEDUPE_KEEP_SCREENSHOT=docs/review-report.png keeps the picture)."""
    invoice = tiny_corpus(tmp_path / "tiny.jsonl").read_text(encoding="utf-8").splitlines()[0]
    first = json.loads(invoice)
    terms = ("Terms: goods remain our property until paid in full. Complaints within eight days of delivery. "
             "Place of jurisdiction is Hamburg. Our general terms of business apply; you find them at our office "
             "and on request we send them to you by post.")
    older = {**first, "content": first["content"] + "\n\n" + terms}
    rescan = {"id": 2, "title": "Scan 2026-10-20 0931", "content": first["content"].replace("Invoice", "lnvoice")
              .replace("Office Supplies", "0ffice Suppl1es").replace("Total", "Tota1").replace("910.80", "910,80")}
    corpus = tmp_path / "docs.jsonl"
    corpus.write_text(json.dumps(older) + "\n" + json.dumps(rescan) + "\n", encoding="utf-8")
    env = _env(tmp_path)
    assert run(["rebuild-index", "--from-jsonl", str(corpus)], env).returncode == 0
    out = tmp_path / "one-group.html"
    with FakePaperless(token="report-token") as fake:
        fake.add_documents([older, rescan])
        env |= {"PAPERLESS_DEDUPE_URL": fake.url, "PAPERLESS_DEDUPE_TOKEN": fake.token}
        made = run(["report", "--html", str(out)], env)
    assert made.returncode == 0 and "2 page picture(s)" in made.stdout, made.stdout + made.stderr
    page = Page(out.read_text(encoding="utf-8"))
    verdict = page.joined("p")
    assert "#2: the newer copy lacks the last page (42 words at the end); 4 words read differently by OCR." in verdict
    assert "Keep #1 ACME invoice INV-2026-1047 (complete)" in verdict  # the suggested keeper, and why
    shot = tmp_path / "group.png"
    taken = chromium(tmp_path, f"--screenshot={shot}", "--window-size=1100,1180", out.as_uri())
    assert taken.returncode == 0, taken.stderr[-2000:]
    pixels = png_pixels(shot.read_bytes())
    assert near(pixels, LOGO) > 500 and near(pixels, (255, 215, 213), 3) > 50
    keep = os.environ.get("DEDUPE_KEEP_SCREENSHOT")
    if keep:  # DEDUPE_KEEP_SCREENSHOT=$PWD/docs/review-report.png pytest -k screenshot_of_one_group
        shutil.copyfile(shot, keep)


@needs_chromium
def test_hostile_document_runs_nothing_in_chromium(tmp_path: Path) -> None:
    groups = [{"primary": 1, "members": [1, 2], "confidence": 0.9}]
    docs = {1: {"title": XSS_TITLE, "text": XSS_TEXT}, 2: {"title": '"><script>alert(2)</script>', "text": XSS_TEXT}}
    page = tmp_path / "xss.html"
    page.write_text(render(groups, [], docs, paperless_url=PAPERLESS, config_line="LSH config"), encoding="utf-8")
    dumped = chromium(tmp_path, "--dump-dom", page.as_uri())
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    dom = Page(dumped.stdout)
    assert not dom.all("script") and not dom.all("img")
    assert XSS_TITLE in dom.joined("h2")
    assert "alert" not in dumped.stderr and "Uncaught" not in dumped.stderr
