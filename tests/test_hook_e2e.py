"""The whole path for real: the installed console scripts, run as Paperless runs
them (a subprocess with DOCUMENT_ID in its environment, any cwd), against the fake
Paperless over loopback HTTP, with a real SQLite index file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.fake_paperless import FakePaperless

HOOK = shutil.which("paperless-dedupe-hook") or str(Path(sys.executable).parent / "paperless-dedupe-hook")
CLI = shutil.which("paperless-dedupe") or str(Path(sys.executable).parent / "paperless-dedupe")
WRITES = ("POST", "PATCH", "PUT", "DELETE")


def _env(fake: FakePaperless, tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_", "DOCUMENT_"))}
    env.update({
        "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data"),
        "PAPERLESS_DEDUPE_URL": fake.url, "PAPERLESS_DEDUPE_TOKEN": fake.token,
        "PAPERLESS_DEDUPE_INDEX": str(tmp_path / "index.sqlite3"),
    })
    env.update(extra)
    return env


def run_hook(fake: FakePaperless, tmp_path: Path, doc_id: object, **extra: str) -> subprocess.CompletedProcess[str]:
    env = _env(fake, tmp_path, **extra)
    if doc_id is not None:
        env["DOCUMENT_ID"] = str(doc_id)
    # Paperless passes the other DOCUMENT_* values too, "None" when unset.
    env.update({"DOCUMENT_TYPE": "None", "DOCUMENT_CORRESPONDENT": "None", "TASK_ID": "abc"})
    return subprocess.run([HOOK], env=env, cwd="/", capture_output=True, text=True, timeout=60)


def writes(fake: FakePaperless) -> list[Any]:
    return [r for r in fake.requests if r.method in WRITES]


def our_tag_id(fake: FakePaperless) -> int:
    return next(t["id"] for t in fake.tags.values() if t["name"] == "possible-duplicate")


@pytest.fixture
def library(fake_paperless: FakePaperless) -> FakePaperless:
    fake_paperless.seed_sample()  # 1 invoice Oct, 2 its re-scan, 3 invoice Nov, 4 letter, 5 three words, 6 report
    return fake_paperless


def test_rescan_is_annotated_and_next_months_invoice_is_not(library: FakePaperless, tmp_path: Path) -> None:
    first = run_hook(library, tmp_path, 1)
    assert first.returncode == 0, first.stderr
    assert "document 1" in first.stdout and first.stderr == ""

    second = run_hook(library, tmp_path, 2)
    assert second.returncode == 0, second.stderr
    assert "#1" in second.stdout

    doc2 = library.document(2)
    tag = our_tag_id(library)
    assert tag in doc2["tags"]
    field = next(f["id"] for f in library.custom_fields.values() if f["name"] == "Possible duplicates")
    assert {"field": field, "value": [1]} in doc2["custom_fields"]
    assert len(doc2["notes"]) == 1
    note = doc2["notes"][0]["note"]
    assert "#1" in note and "ACME invoice INV-2026-1047" in note and "jaccard" in note
    # The older document gets no tag and no note; Paperless adds the reverse link itself.
    doc1 = library.document(1)
    assert tag not in doc1["tags"] and doc1["notes"] == []
    assert {"field": field, "value": [2]} in doc1["custom_fields"]
    created_tag = library.tags[tag]
    assert created_tag["owner"] is None and created_tag["matching_algorithm"] == 0

    before = len(writes(library))
    third = run_hook(library, tmp_path, 3)  # next month's invoice, same template
    assert third.returncode == 0, third.stderr
    assert "no duplicates" in third.stdout
    doc3 = library.document(3)
    assert tag not in doc3["tags"] and doc3["notes"] == [] and doc3["custom_fields"] == []
    assert len(writes(library)) == before


def test_second_run_changes_nothing(library: FakePaperless, tmp_path: Path) -> None:
    for doc_id in (1, 2):
        assert run_hook(library, tmp_path, doc_id).returncode == 0
    before = len(writes(library))
    again = run_hook(library, tmp_path, 2)
    assert again.returncode == 0, again.stderr
    assert len(writes(library)) == before
    assert len(library.document(2)["notes"]) == 1
    assert not [r for r in library.requests if r.method == "PATCH"]  # never a whole-list PATCH


def test_whichever_arrives_first_the_newer_document_is_annotated(library: FakePaperless, tmp_path: Path) -> None:
    assert run_hook(library, tmp_path, 2).returncode == 0
    out = run_hook(library, tmp_path, 1)
    assert out.returncode == 0, out.stderr
    assert our_tag_id(library) in library.document(2)["tags"]
    assert library.document(1)["notes"] == []


def test_removed_tag_means_dismissed(library: FakePaperless, tmp_path: Path) -> None:
    for doc_id in (1, 2):
        run_hook(library, tmp_path, doc_id)
    with library.lock:
        library.documents[2]["tags"].remove(our_tag_id(library))
    before = len(writes(library))
    assert run_hook(library, tmp_path, 2).returncode == 0
    assert our_tag_id(library) not in library.document(2)["tags"]
    assert len(writes(library)) == before


def test_server_down_exits_zero_with_one_warning(library: FakePaperless, tmp_path: Path) -> None:
    library.stop()
    out = run_hook(library, tmp_path, 2, PAPERLESS_DEDUPE_PAPERLESS_TIMEOUT_SECONDS="2")
    assert out.returncode == 0
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "WARNING" in lines[0] and "document 2" in lines[0]
    assert library.token not in out.stderr + out.stdout


def test_strict_mode_fails_the_consume(library: FakePaperless, tmp_path: Path) -> None:
    library.stop()
    out = run_hook(library, tmp_path, 2, PAPERLESS_DEDUPE_HOOK_STRICT="true")
    assert out.returncode == 4
    assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("raw", [pytest.param(None, id="missing"), pytest.param("", id="empty"),
                                 pytest.param("None", id="None"), pytest.param("abc", id="not-a-number")])
def test_bad_document_id_exits_zero_and_says_why(library: FakePaperless, tmp_path: Path, raw: str | None) -> None:
    out = run_hook(library, tmp_path, raw)
    assert out.returncode == 0
    assert "DOCUMENT_ID" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_unknown_document_exits_zero(library: FakePaperless, tmp_path: Path) -> None:
    out = run_hook(library, tmp_path, 999)
    assert out.returncode == 0
    assert "999" in out.stderr and "404" in out.stderr


def test_short_document_is_compared_by_the_short_rule(library: FakePaperless, tmp_path: Path) -> None:
    # "Call me back": three words, under min_words, compared with other short documents only
    out = run_hook(library, tmp_path, 5)
    assert out.returncode == 0, out.stderr
    assert "no duplicates among" in out.stdout and "not compared" not in out.stdout


def test_a_lone_word_is_indexed_but_not_compared(library: FakePaperless, tmp_path: Path) -> None:
    doc_id = library.add_documents([{"title": "one word", "content": "Signature"}])[0]
    out = run_hook(library, tmp_path, doc_id, PAPERLESS_DEDUPE_DETECTION_PICTURES="false")
    assert out.returncode == 0, out.stderr
    assert "not compared (too little text: 1 word(s))" in out.stdout
    # With pictures (the default) it is compared by its first page's picture instead (issue 26).
    pictured = run_hook(library, tmp_path, doc_id)
    assert pictured.returncode == 0 and pictured.stderr == "", pictured.stderr
    assert f"document {doc_id}: no duplicates among" in pictured.stdout, pictured.stdout


def test_version_row_resolves_to_its_root(library: FakePaperless, tmp_path: Path) -> None:
    assert run_hook(library, tmp_path, 1).returncode == 0
    version = library.add_version(2)
    out = run_hook(library, tmp_path, version)
    assert out.returncode == 0, out.stderr
    assert "document 2" in out.stdout
    assert our_tag_id(library) in library.document(2)["tags"]


@pytest.mark.parametrize("fake_paperless", [pytest.param("2.20", id="paperless-2.20")], indirect=True)
def test_works_on_paperless_2_20(library: FakePaperless, tmp_path: Path) -> None:
    assert run_hook(library, tmp_path, 1).returncode == 0
    out = run_hook(library, tmp_path, 2)
    assert out.returncode == 0, out.stderr
    assert our_tag_id(library) in library.document(2)["tags"]
    assert all("version=9" in r.headers.get("Accept", r.headers.get("accept", "")) for r in library.requests[-3:])


def test_config_error_exits_zero_and_names_the_key(library: FakePaperless, tmp_path: Path) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text("[detection]\nsimilarity_threshold = 7\n")
    out = run_hook(library, tmp_path, 2, PAPERLESS_DEDUPE_CONFIG=str(cfg))
    assert out.returncode == 0
    assert "detection.similarity_threshold" in out.stderr


def test_rebuild_index_from_api_and_check(library: FakePaperless, tmp_path: Path) -> None:
    env = _env(library, tmp_path)
    report = tmp_path / "report.json"
    out = subprocess.run([CLI, "rebuild-index", "--report", str(report)], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "LSH config: num_perm=256" in out.stderr
    import json

    data = json.loads(report.read_text())
    assert data["documents"] == 6
    assert [(p["a"], p["b"]) for p in data["pairs"]] == [(1, 2)]
    assert data["groups"] == [{"primary": 1, "members": [1, 2], "confidence": data["pairs"][0]["score"],
                               "keep": 1, "keep_reasons": ["better text"]}]  # #2 is the re-scan with OCR slips
    assert not writes(library)  # without --annotate nothing is written

    check = subprocess.run([CLI, "check", "2", "--json"], env=env, capture_output=True, text=True, timeout=60)
    assert check.returncode == 1, check.stderr
    assert json.loads(check.stdout)["matches"][0]["id"] == 1
    check3 = subprocess.run([CLI, "check", "3"], env=env, capture_output=True, text=True, timeout=60)
    assert check3.returncode == 0, check3.stderr

    dry = subprocess.run([CLI, "rebuild-index", "--annotate", "--dry-run"], env=env, capture_output=True, text=True, timeout=60)
    assert dry.returncode == 0, dry.stderr
    assert "would tag #2" in dry.stdout
    assert not writes(library)

    real = subprocess.run([CLI, "rebuild-index", "--annotate"], env=env, capture_output=True, text=True, timeout=60)
    assert real.returncode == 0, real.stderr
    assert our_tag_id(library) in library.document(2)["tags"]
    n = len(writes(library))
    again = subprocess.run([CLI, "rebuild-index", "--annotate"], env=env, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0
    assert len(writes(library)) == n


def test_check_with_refused_token_exits_4(library: FakePaperless, tmp_path: Path) -> None:
    env = _env(library, tmp_path, PAPERLESS_DEDUPE_TOKEN="wrong-token")
    out = subprocess.run([CLI, "check", "2"], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 4
    assert "401" in out.stderr and "wrong-token" not in out.stderr


def test_every_run_logs_the_lsh_config_and_warns_on_an_off_target_curve(library: FakePaperless, tmp_path: Path) -> None:
    out = run_hook(library, tmp_path, 1)
    # Not into Paperless's log at INFO on every consume: the hook's DEBUG, shown when verbose.
    assert "LSH config" not in out.stdout + out.stderr
    verbose = run_hook(library, tmp_path / "verbose", 1, PAPERLESS_DEDUPE_VERBOSE="1")
    assert verbose.stdout.startswith("LSH config: num_perm=256, bands=64, rows=4, target_threshold=0.4")
    seed_like = run_hook(library, tmp_path / "seed", 1, PAPERLESS_DEDUPE_DETECTION_NUM_BANDS="32",
                         PAPERLESS_DEDUPE_DETECTION_LSH_THRESHOLD="0.75")
    assert seed_like.returncode == 0
    assert "s_curve_midpoint=0.648 (bands=32,rows=8) but target_threshold=0.75" in seed_like.stderr


def test_candidate_texts_are_fetched_from_paperless_in_one_request(library: FakePaperless, tmp_path: Path) -> None:
    for doc_id in (1, 3, 4):  # the October invoice, the November one, a letter
        assert run_hook(library, tmp_path, doc_id).returncode == 0
    library.requests.clear()
    rescan = run_hook(library, tmp_path, 2)
    assert rescan.returncode == 0 and "#1" in rescan.stdout, rescan.stdout + rescan.stderr
    # (the note's keep suggestion reads the pair's metadata and texts in one more list request)
    fetches = [r for r in library.requests if r.method == "GET" and "id__in" in r.params
               and "mime_type" not in r.params["fields"][0]]
    # The index keeps no text: one list request for the candidates that can still match.
    assert len(fetches) == 1, [r.query for r in fetches]
    asked = {int(i) for i in fetches[0].params["id__in"][0].split(",")}
    assert 1 in asked and 4 not in asked and 2 not in asked
    assert fetches[0].params["fields"] == ["id,content"]


def test_candidate_trashed_in_paperless_is_passed_over(library: FakePaperless, tmp_path: Path) -> None:
    assert run_hook(library, tmp_path, 1).returncode == 0
    library.trash_document(1)  # still in the index until the next incremental rebuild
    before = len(writes(library))
    rescan = run_hook(library, tmp_path, 2)
    assert rescan.returncode == 0, rescan.stderr
    assert "no duplicates" in rescan.stdout and rescan.stderr == ""
    assert len(writes(library)) == before and library.document(2)["notes"] == []


def test_two_scans_of_one_short_note_are_linked_by_the_hook_and_check(library: FakePaperless, tmp_path: Path) -> None:
    note, scan, other = library.add_documents([
        {"title": "Notiz", "content": "Paket beim Nachbarn in Nr. 439 abgegeben. 13.06.2024"},
        {"title": "Scan 2024-06-13", "content": "Paket beirn Nachbarn in Nr. 439 abgegeben. 13.06.2O24"},
        {"title": "Notiz", "content": "Paket beim Nachbarn in Nr. 441 abgegeben. 13.06.2024"},
    ])
    assert run_hook(library, tmp_path, note).returncode == 0
    out = run_hook(library, tmp_path, scan)
    assert out.returncode == 0, out.stderr
    assert f"#{note}" in out.stdout
    assert our_tag_id(library) in library.document(scan)["tags"]
    third = run_hook(library, tmp_path, other)  # the same slip for another house: a short template series
    assert third.returncode == 0 and "no duplicates" in third.stdout, third.stdout
    env = _env(library, tmp_path)
    check = subprocess.run([CLI, "check", str(scan)], env=env, capture_output=True, text=True, timeout=60)
    assert check.returncode == 1 and f"#{note}" in check.stdout, check.stdout + check.stderr
    lone = library.add_documents([{"title": "one word", "content": "Unterschrift"}])[0]
    check = subprocess.run([CLI, "check", str(lone)], env=env | {"PAPERLESS_DEDUPE_DETECTION_PICTURES": "false"},
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0 and "not compared (too little text: 1 word(s))" in check.stdout, check.stdout


def test_a_revision_is_linked_with_a_note_that_says_so(library: FakePaperless, tmp_path: Path) -> None:
    body = ("Terms and Conditions of Example Lettings Ltd\n{version}\n1. Scope\nThese terms apply to every tenancy we "
            "manage for our landlords in the United Kingdom. {clause}\n2. Rent\nRent is due on the first working day of "
            "each month and is paid by standing order to the account named in the tenancy agreement.\n3. Notice\n"
            "Either party may end the agreement with two months' notice in writing to the address given above.\n")
    old, new = library.add_documents([
        {"title": "Terms 2023", "content": body.format(version="Last updated: 1 March 2023", clause="Pets need consent.")},
        {"title": "Terms 2024", "content": body.format(version="Last updated: 15 September 2024",
                                                       clause="Pets and bicycles in flats need our written consent.")},
    ])
    assert run_hook(library, tmp_path, old).returncode == 0
    out = run_hook(library, tmp_path, new)
    assert out.returncode == 0, out.stderr
    doc = library.document(new)
    assert our_tag_id(library) in doc["tags"]
    note = doc["notes"][0]["note"]
    assert f"- #{old} “Terms 2023”: a newer version" in note, note  # the words are core.explain's
