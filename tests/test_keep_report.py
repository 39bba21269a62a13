"""``keep`` and ``keep_reasons`` in ``--report`` groups and in the HTML report."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fake_paperless import FakePaperless
from tests.resolve_support import ORIGINAL, cli, environment, make_library, served

CONTRACT = (
    "Service agreement between Northwind Consulting GmbH, Kaiserstrasse 8, Frankfurt, and Blue Harbour Cleaning "
    "Ltd. The contractor cleans the offices on the second and third floor every week, the windows every quarter "
    "and the carpets twice a year. The monthly fee is EUR 820.00, payable in advance on the first working day. "
    "The agreement runs for twelve months and renews itself unless one side gives three months notice in writing. "
    "Keys are handed over against signature and returned when the agreement ends."
)
SCANNED = CONTRACT.replace("Consulting", "C0nsulting").replace("offices", "0ffices").replace("quarter", "quarter ~")
SCAN_PRODUCER = [{"namespace": "http://ns.adobe.com/pdf/1.3/", "prefix": "pdf", "key": "Producer",
                  "value": "ScanSnap Manager #iX1600"}]
WORD_PRODUCER = [{"namespace": "http://ns.adobe.com/pdf/1.3/", "prefix": "pdf", "key": "Producer",
                  "value": "Microsoft® Word for Microsoft 365"}]


@pytest.fixture
def fake() -> Iterator[FakePaperless]:
    with served(FakePaperless().start(), never_emptied=False) as server:
        yield server


def test_report_groups_name_the_keeper_and_why(fake: FakePaperless, tmp_path: Path) -> None:
    with environment(fake, tmp_path):
        make_library(fake)
        # #4: a scan of the born-digital #5 (both PDFs; the producer tells), older and with a tag
        fake.add_document(id=4, title="scan", content=SCANNED, mime_type="application/pdf", tags=[1],
                          created="2026-10-01", added="2026-10-01T08:00:00Z", page_count=1)
        fake.add_document(id=5, title="born digital", content=CONTRACT, mime_type="application/pdf",
                          created="2026-10-02", added="2026-10-02T08:00:00Z", page_count=1)
        fake.set_file(4, b"%PDF-1.7 scan", pdf_metadata=SCAN_PRODUCER)
        fake.set_file(5, b"%PDF-1.7 word", pdf_metadata=WORD_PRODUCER)
        report = tmp_path / "report.json"
        code, out, err = cli("rebuild-index", "--report", str(report))
        assert code == 0, err
        groups = json.loads(report.read_text())["groups"]
        assert groups, out
        by_members = {tuple(sorted(g["members"])): g for g in groups}
        [group] = [g for m, g in by_members.items() if 4 in m]
        assert group["keep"] == 5 and group["keep_reasons"][0] == "born-digital", group
        [letter] = [g for m, g in by_members.items() if 2 in m]
        assert letter["keep"] in letter["members"] and letter["keep_reasons"], letter
        html = tmp_path / "report.html"
        code, _, err = cli("report", "--html", str(html), "--no-thumbnails")
        assert code == 0, err
        page = html.read_text()
        assert "<strong>Keep #5</strong>" in page and "(born-digital" in page
        assert "suggested keeper" in page


def test_offline_report_keeps_the_complete_copy(tmp_path: Path) -> None:
    docs = tmp_path / "docs.jsonl"
    second_page = (" Page 2 of 2. Breakdown of the costs: heating EUR 1,402.10, water EUR 512.30, caretaker "
                   "EUR 270.00. Meter readings were taken on 31 December 2025 by the caretaker in the presence of "
                   "the tenant. Objections within four weeks, in writing.")
    docs.write_text("".join(json.dumps(d) + "\n" for d in [
        {"id": 1, "content": ORIGINAL}, {"id": 2, "content": ORIGINAL + second_page}, {"id": 3, "content": ORIGINAL}]))
    report = tmp_path / "r.json"
    fake = FakePaperless().start()
    try:
        with environment(fake, tmp_path, PAPERLESS_DEDUPE_TOKEN=""):
            code, _, err = cli("rebuild-index", "--from-jsonl", str(docs), "--report", str(report))
    finally:
        fake.stop()
    assert code == 0, err
    [group] = json.loads(report.read_text())["groups"]
    assert group["keep"] == 2 and group["keep_reasons"] == ["complete"], group


def test_the_note_on_a_copy_names_the_keeper(fake: FakePaperless, tmp_path: Path) -> None:
    from tests.resolve_support import hook

    with environment(fake, tmp_path):
        fake.add_document(id=11, title="contract", content=CONTRACT, mime_type="application/pdf", page_count=4,
                          archive_serial_number=123, added="2026-10-01T08:00:00Z")
        fake.add_document(id=12, title="contract scan", content=SCANNED, mime_type="application/pdf", page_count=4,
                          added="2026-10-02T08:00:00Z")
        fake.set_file(11, b"%PDF-1.7 word", pdf_metadata=WORD_PRODUCER)
        fake.set_file(12, b"%PDF-1.7 scan", pdf_metadata=SCAN_PRODUCER)
        assert hook(11) == 0 and hook(12) == 0
        [note] = [n["note"] for n in fake.documents[12]["notes"]]
        assert note.splitlines()[-1] == ("Suggested: keep #11 (born-digital, 4 pages, ASN 123); "
                                         "this one is a scan of it.")
        assert not fake.documents[11]["notes"], "the older document gets no note"
