"""The small ones of issue 15: odd ids refused, counts and words that say what happened,
dismissals honoured in the same run, short tokens masked as words only."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from paperless_dedupe_hook._errors import redact
from tests.fake_paperless import FakePaperless
from tests.test_hook_e2e import CLI, _env, our_tag_id, writes


@pytest.fixture
def library(fake_paperless: FakePaperless) -> FakePaperless:
    fake_paperless.seed_sample()  # 1 invoice, 2 its re-scan, 3 next invoice, 4 letter, 5 three words, 6 report
    return fake_paperless


def cli(fake: FakePaperless, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *args], env=_env(fake, tmp_path), capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("ids", [("0", "-1"), ("0", "5"), ("5", "-2")])
def test_dismiss_refuses_ids_that_are_no_document(library: FakePaperless, tmp_path: Path, ids: tuple[str, str]) -> None:
    assert cli(library, tmp_path, "rebuild-index").returncode == 0
    proc = cli(library, tmp_path, "dismiss", *ids)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"dismiss takes two document ids (whole numbers from 1), got {ids[0]} and {ids[1]}" in proc.stderr
    status = json.loads(cli(library, tmp_path, "status", "--json").stdout)
    assert status["documents"] == 6


def test_check_refuses_an_id_below_1(library: FakePaperless, tmp_path: Path) -> None:
    proc = cli(library, tmp_path, "check", "0")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "check takes a document id (a whole number from 1), got 0" in proc.stderr
    assert not library.requests


def test_check_of_a_short_document_says_whether_it_was_compared(library: FakePaperless, tmp_path: Path) -> None:
    lone = library.add_documents([{"title": "one word", "content": "Unterschrift"}])[0]
    assert cli(library, tmp_path, "rebuild-index").returncode == 0
    # "Call me back": under min_words, compared with the other short documents (core.short)
    short = cli(library, tmp_path, "check", "5")
    assert short.returncode == 0, short.stderr
    assert short.stdout.strip().startswith("document 5: no duplicates among")
    assert "a short document" in short.stdout
    assert json.loads(cli(library, tmp_path, "check", "5", "--json").stdout)["compared"] is True
    # one word is too little even for that
    # one word is too little even for that: compared by its first page's picture only (issue 26) ...
    word = cli(library, tmp_path, "check", str(lone))
    assert word.returncode == 0, word.stderr
    assert word.stdout.strip().startswith(f"document {lone}: no duplicates among")
    assert "(too little text: compared by its first page's picture)" in word.stdout
    assert json.loads(cli(library, tmp_path, "check", str(lone), "--json").stdout)["compared"] is True
    # ... and not at all without pictures
    off = subprocess.run([CLI, "check", str(lone)], env=_env(library, tmp_path, PAPERLESS_DEDUPE_DETECTION_PICTURES="false"),
                         capture_output=True, text=True, timeout=120)
    assert off.stdout.strip() == f"document {lone}: not compared (too little text: 1 word(s))", off.stdout + off.stderr
    long = cli(library, tmp_path, "check", "3")
    assert long.stdout.startswith("document 3: no duplicates among")


def test_annotate_on_a_fresh_index_counts_only_documents_written(library: FakePaperless, tmp_path: Path) -> None:
    first = cli(library, tmp_path, "rebuild-index", "--annotate")
    assert first.returncode == 0, first.stderr
    assert "annotated 1 document(s)" in first.stderr
    done = len(writes(library))
    (tmp_path / "index.sqlite3").unlink()  # a fresh index: its ledger knows nothing of what Paperless holds
    again = cli(library, tmp_path, "rebuild-index", "--annotate")
    assert again.returncode == 0, again.stderr
    assert len(writes(library)) == done
    assert "annotated 0 document(s)" in again.stderr


def test_a_pair_dismissed_by_removing_the_tag_leaves_the_same_runs_results(library: FakePaperless, tmp_path: Path) -> None:
    assert cli(library, tmp_path, "rebuild-index", "--annotate").returncode == 0
    html = tmp_path / "report.html"
    assert cli(library, tmp_path, "report", "--html", str(html)).returncode == 0
    assert "/documents/2/details" in html.read_text(encoding="utf-8")
    with library.lock:
        library.documents[2]["tags"].remove(our_tag_id(library))  # the user dismisses 1-2
    report = tmp_path / "report.json"
    proc = cli(library, tmp_path, "rebuild-index", "--annotate", "--report", str(report))
    assert proc.returncode == 0, proc.stderr
    assert "1 pair(s) dismissed by users" in proc.stderr
    assert "duplicate pairs 0  groups 0" in proc.stdout and "group #1" not in proc.stdout
    assert json.loads(report.read_text())["pairs"] == []
    assert cli(library, tmp_path, "report", "--html", str(html)).returncode == 0
    assert "/documents/2/details" not in html.read_text(encoding="utf-8")  # report --html reads the stored results
    status = json.loads(cli(library, tmp_path, "status", "--json").stdout)
    assert status["duplicate_pairs"] == 0 and status["groups"] == 0


@pytest.mark.parametrize(("text", "secret", "masked"), [
    pytest.param("fabric abc and abc.", "abc", "fabric *** and ***.", id="short-token-only-as-a-word"),
    pytest.param("Token abc123 refused", "abc123", "Token *** refused", id="short-token-after-a-scheme"),
    pytest.param("url?key=abc&x", "abc", "url?key=***&x", id="short-token-in-a-query"),
    pytest.param("x" + "f" * 40 + "y", "f" * 40, "x***y", id="long-token-inside-a-word-still-masked"),
    pytest.param("no secret here", "", "no secret here", id="no-token"),
])
def test_token_masking_replaces_whole_tokens_not_parts_of_words(text: str, secret: str, masked: str) -> None:
    assert redact(text, secret) == masked
