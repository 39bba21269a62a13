"""``paperless-dedupe report --html``: built from a real index by the installed
console script, checked with an HTML parser and in a real headless Chromium."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from paperless_dedupe_hook.commands.report import render
from tests.fake_paperless import FakePaperless

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


def test_groups_links_scores_and_diff(report: tuple[Path, str]) -> None:
    _path, text = report
    page = Page(text)
    groups = page.all("section", "group")
    assert groups, "no duplicate group in the report"
    assert len(page.all("h2")) == len(groups) and "Group 1:" in page.joined("h2")
    links = [a["href"] for a in page.all("a") if not a["href"].startswith("#")]
    assert links and all(DOC_LINK.fullmatch(h) for h in links), links
    assert page.all("table", "scores") and "discriminative" in page.joined("th")
    # Inside the diffs, not only in the legend: the texts came from Paperless.
    diffs = text.split('<div class="diff">')[1:]
    assert diffs and len(diffs) >= len(groups)
    assert any('<del class="diff-del">' in d for d in diffs) and any('<ins class="diff-ins">' in d for d in diffs)
    if not SAMPLE.exists():  # the tiny corpus: exactly the invoice and its re-scan
        assert len(groups) == 1
        assert {DOC_LINK.fullmatch(h).group(1) for h in links} == {"1", "2"}  # type: ignore[union-attr]
        assert "Garden club" not in text
        assert "0ffice" in page.joined("ins") or "suppl1es" in page.joined("ins")


def test_page_loads_nothing_from_anywhere(report: tuple[Path, str]) -> None:
    _path, text = report
    page = Page(text)
    assert not page.all("script") and not page.all("link") and not page.all("img") and not page.all("iframe")
    for _tag, attrs in page.tags:
        for name in ("src", "srcset", "data", "poster", "action", "formaction"):
            assert name not in attrs
        href = attrs.get("href")
        if href is not None:
            assert href.startswith("#") or DOC_LINK.fullmatch(href), href
        assert not any(k.startswith("on") for k in attrs)
    assert "@import" not in text and "url(" not in text
    assert [m for m in re.findall(r"https?://[^\s\"'<>]+", text) if not DOC_LINK.fullmatch(m)] == []


def test_render_escapes_document_titles_and_text() -> None:
    groups = [{"primary": 1, "members": [1, 2], "confidence": 0.9}]
    pairs = [{"a": 1, "b": 2, "score": 0.9, "jaccard": 0.8, "fuzzy": 0.95, "discriminative": 1.0, "containment": 0.8}]
    docs = {1: {"title": XSS_TITLE, "text": XSS_TEXT}, 2: {"title": "<b>bold</b>", "text": "invoice total \"&'"}}
    text = render(groups, pairs, docs, paperless_url=PAPERLESS, config_line="LSH config: <x>")
    page = Page(text)
    assert not page.all("script") and not page.all("img") and not page.all("b")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "<script" not in text and "<img" not in text and "onerror=alert(1)>" not in text
    assert XSS_TITLE in page.joined("h2")  # shown as text, not run
    assert "LSH config: <x>" in page.joined("code")


def test_render_without_groups_says_so() -> None:
    text = render([], [], {}, paperless_url=PAPERLESS, config_line="LSH config: num_perm=256")
    page = Page(text)
    assert "No duplicate groups were found" in page.joined("p")
    assert not page.all("section")


def test_word_diff_marks_deletions_and_insertions() -> None:
    left, right = word_diff("total 100 eur due friday", "total 100 usd due <monday>")
    assert left == 'total 100 <del class="diff-del">eur</del> due <del class="diff-del">friday</del>'
    assert right == 'total 100 <ins class="diff-ins">usd</ins> due <ins class="diff-ins">&lt;monday&gt;</ins>'


def test_word_diff_shortens_long_unchanged_stretches() -> None:
    same = " ".join(f"w{i}" for i in range(100))
    left, right = word_diff(f"{same} old {same}", f"{same} new {same}", context=5)
    assert left.count("[… 95 identical words …]") == 2 and right.count("[… 95 identical words …]") == 2
    assert left.startswith('<span class="same">') and "w95 w96 w97 w98 w99 " in left
    assert '<del class="diff-del">old</del> w0 w1 w2 w3 w4 <span' in left
    assert '<ins class="diff-ins">new</ins>' in right
    identical, _ = word_diff(same, same, context=5)
    assert identical.startswith("w0 w1") and "[… 90 identical words …]" in identical


def test_report_without_paperless_warns_and_shows_no_diffs(tmp_path: Path) -> None:
    env = _env(tmp_path)  # paperless.test does not resolve, and there is no token
    assert run(["rebuild-index", "--from-jsonl", str(tiny_corpus(tmp_path / "docs.jsonl"))], env).returncode == 0
    made = run(["report", "--html", str(tmp_path / "out.html")], env)
    assert made.returncode == 0, made.stderr
    assert "[WARN] the report shows no text diffs: no API token" in made.stderr
    page = (tmp_path / "out.html").read_text(encoding="utf-8")
    assert 'class="group"' in page and "diff-ins\">" not in page.split('<div class="diff">', 1)[1]


def test_report_without_index_exits_5(tmp_path: Path) -> None:
    proc = run(["report", "--html", str(tmp_path / "out.html")], _env(tmp_path))
    assert proc.returncode == 5
    assert "no index" in proc.stderr and "rebuild-index" in proc.stderr
    assert not (tmp_path / "out.html").exists()


# -- a real browser --------------------------------------------------------------------------
CHROMIUM = next((p for p in (shutil.which("chromium"), "/usr/bin/chromium", shutil.which("chromium-browser"))
                 if p and Path(p).exists()), None)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run installs it)")


def chromium(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


@needs_chromium
def test_report_in_headless_chromium(report: tuple[Path, str], tmp_path: Path) -> None:
    path, _text = report
    dumped = chromium(tmp_path, "--dump-dom", path.as_uri())
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    dom = Page(dumped.stdout)
    assert dom.all("section", "group") and "Group 1:" in dom.joined("h2")
    assert dom.all("del", "diff-del") and dom.all("ins", "diff-ins")
    assert "Uncaught" not in dumped.stderr
    assert not re.search(r"CONSOLE\(\d+\)", dumped.stderr), dumped.stderr[-2000:]

    shot = tmp_path / "shot.png"
    taken = chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,2000", path.as_uri())
    assert taken.returncode == 0, taken.stderr[-2000:]
    data = shot.read_bytes()
    assert len(data) > 1000 and data.startswith(b"\x89PNG\r\n\x1a\n")
    keep = os.environ.get("DEDUPE_KEEP_SCREENSHOT")
    if keep:  # for a human look: DEDUPE_KEEP_SCREENSHOT=/tmp/report.png pytest ...
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
