"""The picture path for real (issue 26): the installed console scripts against the fake
Paperless over loopback HTTP, with a real SQLite index file.  Pages are drawn by
tests/picture_support.py; the fake serves each document's own thumbnail.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from paperless_dedupe_hook.core.picture import PICTURE_VERSION
from paperless_dedupe_hook.core.picturepath import real_words, takes_picture_path
from tests.fake_paperless import FakePaperless
from tests.picture_support import blank_page, handwritten_page, recapture, webp
from tests.test_hook_e2e import CLI, _env, our_tag_id, run_hook

NOTE_WORDS = "only the pictures were compared"
LETTER = ("Dear Mrs Berger, thank you for your letter of the second of March. We have looked into the service "
          "charge statement for the flat on the third floor and found that the heating costs were split by the "
          "wrong key. Enclosed you find the corrected statement with the refund of the difference.")


def _thumb_requests(fake: FakePaperless) -> list[str]:
    return [r.path for r in fake.requests if r.path.endswith("/thumb/")]


def _note(fake: FakePaperless, doc_id: int) -> str:
    notes = fake.document(doc_id)["notes"]
    assert len(notes) == 1, notes
    return str(notes[0]["note"])


def _two_captures(seed: int) -> tuple[bytes, bytes]:
    page = handwritten_page(seed)
    return webp(page), webp(recapture(page, seed + 1))


def test_the_hook_pairs_two_captures_by_document_thumbnail_path(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    first, second = _two_captures(7)
    (tmp_path / "0000011.webp").write_bytes(first)
    (tmp_path / "0000012.webp").write_bytes(second)
    fake_paperless.add_document(id=11, title="handwritten note", content="")
    fake_paperless.add_document(id=12, title="scan0042", content="~ ll .")  # what OCR made of the strokes
    fake_paperless.thumbnails.update({11: first, 12: second})  # the same files, served (for check)
    one = run_hook(fake_paperless, tmp_path, 11, DOCUMENT_THUMBNAIL_PATH=str(tmp_path / "0000011.webp"))
    two = run_hook(fake_paperless, tmp_path, 12, DOCUMENT_THUMBNAIL_PATH=str(tmp_path / "0000012.webp"))
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert one.stderr == "" and two.stderr == "", one.stderr + two.stderr
    assert "#11" in two.stdout
    assert _thumb_requests(fake_paperless) == []  # Paperless's own file was read, not the API
    assert our_tag_id(fake_paperless) in fake_paperless.document(12)["tags"]
    note = _note(fake_paperless, 12)
    assert "#11 “handwritten note”" in note and NOTE_WORDS in note and "Picture score" in note
    assert "jaccard" not in note
    assert fake_paperless.document(11)["notes"] == []  # the older one is left alone
    checked = subprocess.run([CLI, "check", "12", "--json"], env=_env(fake_paperless, tmp_path), capture_output=True,
                             text=True, timeout=60)
    assert checked.returncode == 1, checked.stderr
    result = json.loads(checked.stdout)
    assert result["compared_by_picture"] is True
    assert [(m["id"], m["verdict"]) for m in result["matches"]] == [(11, "picture")]
    verbose = subprocess.run([CLI, "-v", "check", "12"], env=_env(fake_paperless, tmp_path), capture_output=True,
                             text=True, timeout=60)
    assert "found by picture" in verbose.stdout and NOTE_WORDS in verbose.stdout, verbose.stdout + verbose.stderr


def test_the_hook_falls_back_to_the_api_thumbnail(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    first, second = _two_captures(8)
    fake_paperless.add_document(id=21, title="sketch", content="")
    fake_paperless.add_document(id=22, title="sketch again", content="")
    fake_paperless.thumbnails.update({21: first, 22: second})
    for doc_id in (21, 22):  # Paperless passes "None" for values it does not have
        proc = run_hook(fake_paperless, tmp_path, doc_id, DOCUMENT_THUMBNAIL_PATH="None")
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert _thumb_requests(fake_paperless) == ["/api/documents/21/thumb/", "/api/documents/22/thumb/"]
    assert NOTE_WORDS in _note(fake_paperless, 22)
    gone = run_hook(fake_paperless, tmp_path, 22, DOCUMENT_THUMBNAIL_PATH=str(tmp_path / "missing.webp"))
    assert gone.returncode == 0 and gone.stderr == ""  # an unreadable file: the API's picture instead
    assert len(fake_paperless.document(22)["notes"]) == 1  # and nothing written twice


@pytest.mark.parametrize(
    "pages",
    [
        pytest.param((blank_page(1), blank_page(2)), id="two-blank-pages"),
        pytest.param((blank_page(3), recapture(blank_page(3), 9)), id="one-blank-page-scanned-twice"),
    ],
)
def test_blank_pages_never_pair(fake_paperless: FakePaperless, tmp_path: Path, pages: Any) -> None:
    fake_paperless.add_document(id=31, title="blank", content="")
    fake_paperless.add_document(id=32, title="blank too", content="")
    fake_paperless.thumbnails.update({31: webp(pages[0]), 32: webp(pages[1])})
    for doc_id in (31, 32):
        proc = run_hook(fake_paperless, tmp_path, doc_id)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        assert "blank" in proc.stdout, proc.stdout
    assert fake_paperless.document(32)["tags"] == [] and fake_paperless.document(32)["notes"] == []
    with sqlite3.connect(tmp_path / "index.sqlite3") as conn:
        assert conn.execute("SELECT count(*) FROM pictures").fetchone()[0] == 0  # nothing to look up by
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 2  # indexed all the same


IMPORT_PROBE = """
import sys
from paperless_dedupe_hook.hook import main
code = main()
print("modules", sorted(m for m in ("PIL", "paperless_dedupe_hook.pictures", "paperless_dedupe_hook.core.picture",
                                    "paperless_dedupe_hook.picturepairs") if m in sys.modules))
sys.exit(code)
"""


def _probe(fake: FakePaperless, tmp_path: Path, doc_id: int, **extra: str) -> subprocess.CompletedProcess[str]:
    env = _env(fake, tmp_path, DOCUMENT_ID=str(doc_id), **extra)
    return subprocess.run([sys.executable, "-c", IMPORT_PROBE], env=env, cwd="/", capture_output=True, text=True,
                          timeout=60)


def test_a_text_document_is_never_paired_by_picture_and_imports_no_pillow(fake_paperless: FakePaperless,
                                                                          tmp_path: Path) -> None:
    same = webp(handwritten_page(5))  # the very same picture, but the texts differ
    fake_paperless.add_document(id=41, title="letter", content=LETTER)
    fake_paperless.add_document(id=42, title="other letter", content=(
        "Hello Tom, the garden club meets again on Friday evening in the hall behind the church. Please bring "
        "the seeds you promised and the list of members who still owe this year's fee; we also need two people "
        "to help with the spring market stall and somebody who can fix the old lawn mower before May."))
    fake_paperless.thumbnails.update({41: same, 42: same})
    thumb = tmp_path / "same.webp"
    thumb.write_bytes(same)
    for doc_id in (41, 42):
        proc = _probe(fake_paperless, tmp_path, doc_id, DOCUMENT_THUMBNAIL_PATH=str(thumb))
        assert proc.returncode == 0, proc.stderr
        assert "modules []" in proc.stdout, proc.stdout
    assert fake_paperless.document(42)["tags"] == []
    assert _thumb_requests(fake_paperless) == []
    with sqlite3.connect(tmp_path / "index.sqlite3") as conn:
        assert conn.execute("SELECT count(*) FROM pictures").fetchone()[0] == 0
    # The same probe for a document without text does import them: the check above can fail.
    fake_paperless.add_document(id=43, title="photo", content="")
    proc = _probe(fake_paperless, tmp_path, 43)
    assert "'PIL'" in proc.stdout and "paperless_dedupe_hook.core.picture" in proc.stdout, proc.stdout


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("", True, id="empty"),
        pytest.param("PAID 16.05.2024", True, id="a-stamp"),
        pytest.param("l1 |i ~ ee ii lll Il 11 .. ,, ;; mm nn rn " * 5, True, id="ocr-junk-of-a-sketch"),
        pytest.param(LETTER, False, id="a-letter"),
        pytest.param("مرحبا بكم في نادي الحديقة يوم الجمعة مساء في القاعة خلف الكنيسة " * 2, False, id="arabic"),
        pytest.param("정원 클럽은 금요일 저녁 교회 뒤 강당에서 다시 모입니다 " * 3, False, id="hangul"),
        pytest.param("园艺俱乐部星期五晚上在教堂后面的大厅再次聚会。请带上你答应的种子和还没交会费的会员名单。", False,
                     id="chinese-without-blanks"),
        pytest.param("Rechnung Nr. 4711 vom 31. Oktober über Büromaterial, zahlbar bis zum 15. November ohne "
                     "Abzug an die Firma Müller und Söhne in der Hauptstraße zwölf, vielen Dank für Ihren Auftrag",
                     False, id="german"),
    ],
)
def test_which_documents_take_the_picture_path(content: str, expected: bool) -> None:
    assert takes_picture_path(content, 20) is expected, real_words(content)


def test_rebuild_groups_picture_pairs_and_from_jsonl_skips_them(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    first, second = _two_captures(9)
    fake_paperless.add_document(id=51, title="note", content="")
    fake_paperless.add_document(id=52, title="note rescan", content="")
    fake_paperless.add_document(id=53, title="blank", content="")
    fake_paperless.add_document(id=54, title="blank", content="")
    fake_paperless.add_document(id=55, title="another note", content="")
    fake_paperless.add_document(id=56, title="letter", content=LETTER)
    fake_paperless.thumbnails.update({51: first, 52: second, 53: webp(blank_page(4)), 54: webp(blank_page(5)),
                                      55: webp(handwritten_page(99)), 56: first})
    env = _env(fake_paperless, tmp_path)
    report = tmp_path / "report.json"
    proc = subprocess.run([CLI, "rebuild-index", "--report", str(report)], env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "5 document(s) with too little text, 3 compared by picture, 2 blank, 1 pair(s) found by picture" in proc.stderr
    rep = json.loads(report.read_text())
    assert [(p["a"], p["b"], p["verdict"]) for p in rep["pairs"]] == [(51, 52, "picture")]
    assert [g["members"] for g in rep["groups"]] == [[51, 52]]
    assert "/api/documents/56/thumb/" not in _thumb_requests(fake_paperless)  # text decides there
    with sqlite3.connect(tmp_path / "index.sqlite3") as conn:
        assert sorted(r[0] for r in conn.execute("SELECT doc_id FROM pictures")) == [51, 52, 55]
    status = subprocess.run([CLI, "status", "--json"], env=env, capture_output=True, text=True, timeout=60)
    assert json.loads(status.stdout)["pictures"] == 3, status.stdout + status.stderr
    # The hook for a new capture of the same page finds both in the index the rebuild wrote.
    fake_paperless.add_document(id=57, title="note, third scan", content="")
    fake_paperless.thumbnails[57] = webp(recapture(handwritten_page(9), 77))
    hooked = run_hook(fake_paperless, tmp_path, 57)
    assert hooked.returncode == 0 and "#51" in hooked.stdout and "#52" in hooked.stdout, hooked.stdout + hooked.stderr
    # An incremental run compares a document consumed without the hook by its picture too.
    fake_paperless.add_document(id=58, title="note, fourth scan", content="")
    fake_paperless.thumbnails[58] = webp(recapture(handwritten_page(9), 78))
    with sqlite3.connect(tmp_path / "index.sqlite3") as conn:  # as an older PICTURE_VERSION left it
        conn.execute("UPDATE pictures SET version = version + 100 WHERE doc_id = 55")
    again = tmp_path / "incremental.json"
    step = subprocess.run([CLI, "rebuild-index", "--incremental", "--report", str(again)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert step.returncode == 0, step.stderr
    new = {(p["a"], p["b"]): p["verdict"] for p in json.loads(again.read_text())["pairs"] if 58 in (p["a"], p["b"])}
    assert new.get((51, 58)) == "picture" and new.get((57, 58)) == "picture", new
    with sqlite3.connect(tmp_path / "index.sqlite3") as conn:  # hashed again by the incremental run
        assert conn.execute("SELECT version FROM pictures WHERE doc_id = 55").fetchone() == (PICTURE_VERSION,)
    html = tmp_path / "report.html"
    made = subprocess.run([CLI, "report", "--html", str(html)], env=env, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    page = html.read_text()
    assert NOTE_WORDS in page and page.count('alt="first page of #5') >= 2  # the two pictures side by side

    jsonl = tmp_path / "docs.jsonl"
    jsonl.write_text("".join(json.dumps({"id": i, "content": "", "title": f"t{i}"}) + "\n" for i in (1, 2, 3)))
    offline = subprocess.run([CLI, "rebuild-index", "--from-jsonl", str(jsonl), "--allow-shrink"],
                             env=env | {"PAPERLESS_DEDUPE_INDEX": str(tmp_path / "offline.sqlite3")},
                             capture_output=True, text=True, timeout=120)
    assert offline.returncode == 0, offline.stderr
    assert "3 document(s) with too little text not compared by picture" in offline.stderr


@pytest.mark.parametrize(
    ("setup", "said"),
    [
        pytest.param("undecodable", "not a readable image", id="undecodable-thumbnail"),
        pytest.param("404", "could not be fetched", id="thumbnail-404"),
        pytest.param("no-pillow", "Pillow is not installed", id="pillow-missing"),
    ],
)
def test_a_picture_that_cannot_be_had_is_one_warning_and_exit_0(fake_paperless: FakePaperless, tmp_path: Path,
                                                                setup: str, said: str) -> None:
    fake_paperless.add_document(id=61, title="photo", content="")
    extra: dict[str, str] = {}
    if setup == "undecodable":
        fake_paperless.thumbnails[61] = b"RIFF\x00\x00\x00\x00WEBPVP8 broken"
    elif setup == "404":
        fake_paperless.inject("status", path_regex=r"/thumb/$", status=404, json={"detail": "Not found."}, times=None)
    else:  # a PIL that cannot be imported ahead of the real one
        fake_pil = tmp_path / "nopil" / "PIL"
        fake_pil.mkdir(parents=True)
        (fake_pil / "__init__.py").write_text("raise ImportError('No module named PIL')\n")
        extra["PYTHONPATH"] = str(tmp_path / "nopil")
    proc = run_hook(fake_paperless, tmp_path, 61, **extra)
    assert proc.returncode == 0, proc.stderr
    warnings = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(warnings) == 1 and said in warnings[0] and "document 61" in warnings[0], proc.stderr
    assert "indexed, not compared" in proc.stdout, proc.stdout
    with sqlite3.connect(tmp_path / "index.sqlite3") as conn:
        assert conn.execute("SELECT count(*) FROM documents WHERE id=61").fetchone()[0] == 1
