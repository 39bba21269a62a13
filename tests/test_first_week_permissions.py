"""Issue 27, point 2: a restricted user's token never misses duplicates silently.

The index was built with a superuser's token (it holds every document); the hook and
``check`` then run with a limited user's token, as Paperless answers it
(``FakePaperless.limit_user``, replayed from permissions.json): candidates the user may
not see are said, a link Paperless refuses is said for what it is, and a document that
was checked and indexed is never reported as "not checked".
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.fake_paperless import FakePaperless
from tests.test_hook_e2e import CLI, _env, run_hook, writes


@pytest.fixture
def library(fake_paperless: FakePaperless) -> FakePaperless:
    fake_paperless.seed_sample()  # 1 invoice Oct, 2 its re-scan, 3 invoice Nov, 4 letter, 5 three words, 6 report
    return fake_paperless


def _indexed_by_the_admin(library: FakePaperless, tmp_path: Path, *ids: int) -> None:
    for doc_id in ids:
        assert run_hook(library, tmp_path, doc_id).returncode == 0


def _warnings(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in proc.stderr.splitlines() if "WARNING" in line]


def test_a_hidden_candidate_is_said_not_passed_over_silently(library: FakePaperless, tmp_path: Path) -> None:
    _indexed_by_the_admin(library, tmp_path, 1, 3, 4)
    library.limit_user(owned=[2])  # the re-scan is the viewer's; the original (#1) stays the admin's
    proc = run_hook(library, tmp_path, 2)
    assert proc.returncode == 0, proc.stderr
    warned = _warnings(proc)
    assert len(warned) == 1, proc.stderr
    assert "document 2: 1 candidate(s) could not be read" in warned[0] and "#1" in warned[0]
    assert "share them with that user" in warned[0] and "superuser" in warned[0]
    assert "1 of them not readable by the token's user" in proc.stdout
    assert "not checked" not in proc.stderr


def test_a_deleted_candidate_is_passed_over_without_a_warning(library: FakePaperless, tmp_path: Path) -> None:
    _indexed_by_the_admin(library, tmp_path, 1)
    library.trash_document(1)
    proc = run_hook(library, tmp_path, 2)
    assert proc.returncode == 0 and _warnings(proc) == [], proc.stderr
    assert "not readable" not in proc.stdout


def test_check_names_the_candidates_it_could_not_read(library: FakePaperless, tmp_path: Path) -> None:
    _indexed_by_the_admin(library, tmp_path, 1, 3)
    library.limit_user(owned=[2])
    proc = subprocess.run([CLI, "check", "2", "--json"], env=_env(library, tmp_path), capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["unreadable_candidates"] == [1] and result["matches"] == []
    assert any("could not be read" in line and "#1" in line for line in _warnings(proc)), proc.stderr


def test_a_refused_link_is_a_link_not_written_and_the_document_was_checked(library: FakePaperless,
                                                                             tmp_path: Path) -> None:
    # The viewer may see the original (#1) but not change it: Paperless 3.0.5 refuses a link
    # to it (validate_documentlink_targets writes the reverse link on the target).
    _indexed_by_the_admin(library, tmp_path, 1)
    library.add_tag("possible-duplicate", owner=None)
    library.add_custom_field("Possible duplicates", "documentlink")
    library.limit_user(owned=[2], view=[1])
    library.requests.clear()
    proc = run_hook(library, tmp_path, 2)
    assert proc.returncode == 0, proc.stderr
    assert "not checked" not in proc.stderr and "may not see" not in proc.stderr
    warned = [line for line in _warnings(proc) if "saved view" not in line]  # the viewer has no view_savedview
    assert len(warned) == 1, proc.stderr
    assert "document 2: link to #1 not written, note and tag are" in warned[0]
    assert "may not change a document linked from document 2" in warned[0]
    assert "change permission on the linked documents" in warned[0]
    assert "1 possible duplicate(s): #1" in proc.stdout
    doc = library.document(2)
    assert doc["tags"] and len(doc["notes"]) == 1 and "#1" in doc["notes"][0]["note"]
    assert library.document(1)["custom_fields"] == []  # nothing written on the document it may not change
    assert {r.method for r in writes(library)} == {"POST"}


def test_a_refused_annotation_is_checked_and_indexed_not_not_checked(library: FakePaperless, tmp_path: Path) -> None:
    # The viewer owns the re-scan but may not add notes or tags there (no add_note, no change on tags):
    # Paperless refuses the note; the document is checked and indexed all the same.
    _indexed_by_the_admin(library, tmp_path, 1)
    library.add_tag("possible-duplicate", owner=None)
    library.add_custom_field("Possible duplicates", "documentlink")
    library.limit_user(owned=[2], change=[1], permissions=["view_document", "change_document", "view_note",
                                                            "view_tag", "view_customfield", "view_uisettings"])
    proc = run_hook(library, tmp_path, 2)
    assert proc.returncode == 0, proc.stderr
    warned = _warnings(proc)
    assert any("document 2 checked and indexed, but document 2 not annotated" in line and "add_note" in line
               for line in warned), proc.stderr
    assert "not checked" not in proc.stderr
    strict = run_hook(library, tmp_path, 2, PAPERLESS_DEDUPE_HOOK_STRICT="1")
    assert strict.returncode == 4, strict.stderr
    status = subprocess.run([CLI, "status", "--json"], env=_env(library, tmp_path), capture_output=True, text=True,
                            timeout=60)
    assert json.loads(status.stdout)["documents"] == 2  # #2 is in the index


# -- point 5: what the hooks found since the last rebuild --------------------------------------------------------
def test_status_and_report_show_pairs_hooks_found_since_the_rebuild(library: FakePaperless, tmp_path: Path) -> None:
    env = _env(library, tmp_path)
    library.trash_document(2)  # the re-scan arrives after the rebuild
    rebuilt = subprocess.run([CLI, "rebuild-index"], env=env, capture_output=True, text=True, timeout=60)
    assert rebuilt.returncode == 0, rebuilt.stderr
    library.documents[2] = library.trash.pop(2)
    library.documents[2]["deleted_at"] = None
    assert run_hook(library, tmp_path, 2).returncode == 0
    status = json.loads(subprocess.run([CLI, "status", "--json"], env=env, capture_output=True, text=True,
                                       timeout=60).stdout)
    assert status["pairs_found_by_hooks_since_rebuild"] == 1 and status["pairs_found_by_hooks_ids"] == ["1-2"]
    assert status["duplicate_pairs"] == 1 and status["groups"] == 0
    page = tmp_path / "report.html"
    made = subprocess.run([CLI, "report", "--html", str(page), "--no-thumbnails"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    assert "1 found by hooks since the last rebuild" in made.stdout
    html = page.read_text(encoding="utf-8")
    assert "Found by hooks since the last rebuild (not grouped yet" in html and 'id="pair-1-2"' in html
    # the next rebuild, incremental or full, groups it: nothing is "since the last rebuild" any more
    assert subprocess.run([CLI, "rebuild-index", "--incremental"], env=env, capture_output=True,
                          timeout=60).returncode == 0
    status = json.loads(subprocess.run([CLI, "status", "--json"], env=env, capture_output=True, text=True,
                                       timeout=60).stdout)
    assert status["pairs_found_by_hooks_since_rebuild"] == 0 and status["groups"] == 1, status
    assert subprocess.run([CLI, "rebuild-index"], env=env, capture_output=True, timeout=60).returncode == 0
    status = json.loads(subprocess.run([CLI, "status", "--json"], env=env, capture_output=True, text=True,
                                       timeout=60).stdout)
    assert status["pairs_found_by_hooks_since_rebuild"] == 0 and status["groups"] == 1


def test_the_report_lists_pairs_that_are_in_no_group(tmp_path: Path) -> None:
    from paperless_dedupe_hook.commands._report_html import render
    from paperless_dedupe_hook.commands.report import _apart

    pairs = [{"a": 1, "b": 2, "score": 0.9, "verdict": "duplicate"}, {"a": 2, "b": 3, "score": 0.8,
                                                                       "verdict": "duplicate"}]
    groups = [{"primary": 1, "members": [1, 2], "confidence": 0.9}]  # 3 matches 2 only: no chaining
    apart = _apart(pairs, groups, "2026-12-01T00:00:00+00:00")
    assert [len(shown) for _h, shown in apart] == [0, 1]
    docs = {i: {"title": f"doc {i}", "text": f"text {i}"} for i in (1, 2, 3)}
    html = render(groups, pairs, docs, paperless_url="http://p", config_line="LSH config: x", apart=apart)
    assert "Pairs in no group" in html and 'id="pair-2-3"' in html and 'id="group-1"' in html
