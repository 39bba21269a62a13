"""Our saved view in Paperless and the review endpoints of the fake (review.json).

The commands run as a user runs them (the installed console script in a subprocess)
against the fake Paperless over loopback HTTP, with a real index file."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.fake_paperless import FakePaperless
from tests.test_report_html import CLI, tiny_corpus

VIEW = "Possible duplicates"
USER_SETTINGS = {"language": "de-de", "dark_mode": {"enabled": True, "thumb_inverted": False},
                 "saved_views": {"dashboard_views_visible_ids": [7], "sidebar_views_sort_order": [7, 3]},
                 "document_list_size": 100}


def _env(fake: FakePaperless, tmp: Path, toml: str = "") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_", "DOCUMENT_"))}
    config = tmp / "config.toml"
    config.write_text(toml, encoding="utf-8")
    config.chmod(0o600)
    env.update({"HOME": str(tmp), "XDG_CONFIG_HOME": str(tmp / "cfg"), "XDG_DATA_HOME": str(tmp / "data"),
                "PAPERLESS_DEDUPE_URL": fake.url, "PAPERLESS_DEDUPE_TOKEN": fake.token,
                "PAPERLESS_DEDUPE_INDEX": str(tmp / "index.sqlite3"), "PAPERLESS_DEDUPE_CONFIG": str(config)})
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *args], env=env, cwd="/", capture_output=True, text=True, timeout=300)


@pytest.fixture
def library(fake_paperless: FakePaperless, tmp_path: Path) -> FakePaperless:
    """The invoice, its re-scan and an unrelated letter, in the fake Paperless."""
    corpus = tiny_corpus(tmp_path / "docs.jsonl")
    fake_paperless.add_documents(json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines())
    return fake_paperless


def annotate(fake: FakePaperless, tmp: Path, toml: str = "", *extra: str) -> subprocess.CompletedProcess[str]:
    made = run(["rebuild-index", "--annotate", *extra], _env(fake, tmp, toml))
    assert made.returncode == 0, made.stdout + made.stderr
    return made


def posts(fake: FakePaperless, path: str) -> list[Any]:
    return [r.json for r in fake.requests_for("POST", path)]


def our_tag(fake: FakePaperless) -> int:
    return next(t["id"] for t in fake.tags.values() if t["name"] == "possible-duplicate")


def test_first_annotation_creates_the_view_once(library: FakePaperless, tmp_path: Path) -> None:
    annotate(library, tmp_path)
    tag = our_tag(library)
    assert 2 in [d["id"] for d in library.documents.values() if tag in d["tags"]]
    assert posts(library, r"^/api/saved_views/$") == [{
        "name": VIEW, "show_on_dashboard": False, "show_in_sidebar": False, "sort_field": "created",
        "sort_reverse": True, "filter_rules": [{"rule_type": 6, "value": str(tag)}]}]
    (view,) = library.saved_views.values()
    assert view["filter_rules"] == [{"rule_type": 6, "value": str(tag)}] and view["sort_reverse"] is True
    assert not library.requests_for("POST", r"/api/ui_settings/")  # not pinned unless asked
    library.clear_log()
    annotate(library, tmp_path)
    annotate(library, tmp_path, "", "--incremental")
    assert not posts(library, r"^/api/saved_views/$") and len(library.saved_views) == 1
    # the documents the view shows: those with our tag, newest first (review.json seq 512)
    shown = httpx.get(f"{library.url}/api/documents/", params={"tags__id__all": tag, "ordering": "-created",
                                                               "fields": "id,title"},
                      headers={"Authorization": f"Token {library.token}"}).json()
    assert [d["id"] for d in shown["results"]] == [2]


def test_the_hook_creates_the_view_too(library: FakePaperless, tmp_path: Path) -> None:
    env = _env(library, tmp_path)
    built = run(["rebuild-index"], env)
    assert built.returncode == 0, built.stderr
    hooked = run(["hook", "--document-id", "2"], env)
    assert hooked.returncode == 0 and "WARNING" not in hooked.stderr, hooked.stdout + hooked.stderr
    assert [v["name"] for v in library.saved_views.values()] == [VIEW]
    note = library.document(2)["notes"][0]["note"]
    assert note.splitlines()[1].startswith("- #1 “ACME invoice INV-2026-1047”: same text; 5 words read "
                                           "differently by OCR. Score ")


def test_a_users_own_view_of_that_name_is_left_alone(library: FakePaperless, tmp_path: Path) -> None:
    mine = library.add_saved_view(VIEW, filter_rules=[{"rule_type": 0, "value": "invoice"}], sort_field="title")
    annotate(library, tmp_path)
    assert not posts(library, r"^/api/saved_views/$") and library.saved_views == {mine["id"]: mine}
    checked = run(["doctor"], _env(library, tmp_path))
    assert f"warn  saved view {VIEW!r}: present (id {mine['id']}) but does not show the tag" in checked.stdout


def test_an_empty_setting_means_no_view(library: FakePaperless, tmp_path: Path) -> None:
    annotate(library, tmp_path, '[actions]\nsaved_view = ""\n')
    assert our_tag(library) and not library.requests_for(path_regex=r"/api/saved_views/")
    checked = run(["doctor"], _env(library, tmp_path, '[actions]\nsaved_view = ""\n'))
    assert "ok    saved view: none (actions.saved_view is empty)" in checked.stdout


def test_dry_run_only_says_it_would_create_it(library: FakePaperless, tmp_path: Path) -> None:
    made = annotate(library, tmp_path, "", "--dry-run")
    assert f"would create saved view {VIEW!r}" in made.stdout
    assert not library.saved_views and not posts(library, r"/api/saved_views/")


def test_pin_setting_merges_into_the_users_ui_settings(library: FakePaperless, tmp_path: Path) -> None:
    library.stored_ui_settings = json.loads(json.dumps(USER_SETTINGS))
    annotate(library, tmp_path, "[actions]\npin_saved_view = true\n")
    (view,) = library.saved_views.values()
    assert posts(library, r"^/api/saved_views/$")[0]["show_on_dashboard"] is True  # the 2.x flags, too
    stored = library.stored_ui_settings
    assert {k: v for k, v in stored.items() if k in USER_SETTINGS and k != "saved_views"} == {
        k: v for k, v in USER_SETTINGS.items() if k != "saved_views"}
    assert stored["saved_views"] == {"dashboard_views_visible_ids": [7, view["id"]],
                                     "sidebar_views_sort_order": [7, 3], "sidebar_views_visible_ids": [view["id"]]}
    library.clear_log()
    annotate(library, tmp_path, "[actions]\npin_saved_view = true\n")
    assert not library.requests_for("POST", r"/api/ui_settings/")  # pinned at creation only


def test_doctor_reports_and_pins_the_view(library: FakePaperless, tmp_path: Path) -> None:
    env = _env(library, tmp_path)
    first = run(["doctor"], env)
    assert f"ok    saved view {VIEW!r}: not present yet, will be created at the first annotation" in first.stdout
    annotate(library, tmp_path)
    (view,) = library.saved_views.values()
    before = run(["doctor"], env)
    assert f"ok    saved view {VIEW!r}: present (id {view['id']})" in before.stdout
    assert "not on the dashboard or in the sidebar ('paperless-dedupe doctor --pin-view'" in before.stdout
    library.stored_ui_settings = json.loads(json.dumps(USER_SETTINGS))
    pinned = run(["doctor", "--pin-view"], env)
    assert pinned.returncode == 0 and "now on the dashboard and in the sidebar" in pinned.stdout, pinned.stdout
    assert library.stored_ui_settings["language"] == "de-de" and library.stored_ui_settings["dark_mode"]["enabled"]
    assert library.stored_ui_settings["saved_views"]["sidebar_views_visible_ids"] == [view["id"]]
    library.clear_log()
    again = run(["doctor", "--pin-view"], env)
    assert "already on the dashboard and in the sidebar: --pin-view changed nothing" in again.stdout
    assert not library.requests_for("POST", r"/api/ui_settings/")


def test_a_refused_view_is_a_warning_and_the_marks_are_written(library: FakePaperless, tmp_path: Path) -> None:
    library.inject("status", status=403, method="POST", path_regex=r"^/api/saved_views/$", times=None)
    made = annotate(library, tmp_path)
    assert f"[WARN] saved view {VIEW!r} not created: " in made.stderr and "403" in made.stderr
    assert our_tag(library) in library.document(2)["tags"] and library.document(2)["notes"]


# -- the fake answers the review endpoints as Paperless 3.0.5 did (paperless-api/review.json) ------------

def test_fake_answers_thumbnails_like_review_json(fake_paperless: FakePaperless) -> None:
    fake_paperless.add_documents([{"id": 8, "title": "Scan 2025-03-10", "content": "Driver and Vehicle"}])
    auth = {"Authorization": f"Token {fake_paperless.token}"}
    api = {**auth, "Accept": "application/json; version=10"}
    thumb = httpx.get(f"{fake_paperless.url}/api/documents/8/thumb/", headers=api)  # seq 500
    assert thumb.status_code == 200 and thumb.headers["content-type"] == "image/webp"
    assert thumb.headers["content-disposition"] == 'inline; filename="0000008.webp"'
    assert thumb.content[:4] == b"RIFF" and thumb.content[8:12] == b"WEBP"
    assert thumb.headers["x-version"] == "3.0.5" and thumb.headers["allow"] == "GET, HEAD, OPTIONS"
    image = httpx.get(f"{fake_paperless.url}/api/documents/8/thumb/", headers={**auth, "Accept": "image/*"})
    assert (image.status_code, image.json()) == (406, {"detail": "Could not satisfy the request Accept header."})
    assert "x-api-version" not in image.headers  # seq 501
    missing = httpx.get(f"{fake_paperless.url}/api/documents/999999/thumb/", headers=api)
    assert (missing.status_code, missing.json()) == (404, {"detail": "Not found."})  # seq 502


def test_fake_answers_saved_views_like_review_json(fake_paperless: FakePaperless) -> None:
    fake_paperless.add_tag("possible-duplicate", owner=None)
    api = {"Authorization": f"Token {fake_paperless.token}", "Accept": "application/json; version=10"}
    url = f"{fake_paperless.url}/api/saved_views/"
    assert httpx.get(url, headers=api).json() == {"count": 0, "next": None, "previous": None, "results": []}  # 505
    body = {"name": VIEW, "show_on_dashboard": True, "show_in_sidebar": True, "sort_field": "created",
            "sort_reverse": True, "filter_rules": [{"rule_type": 6, "value": "1"}]}
    created = httpx.post(url, headers=api, json=body)
    view = {"id": 1, "name": VIEW, "sort_field": "created", "sort_reverse": True,
            "filter_rules": [{"rule_type": 6, "value": "1"}], "page_size": None, "display_mode": None,
            "display_fields": None, "owner": 2, "user_can_change": True}
    assert (created.status_code, created.json()) == (201, view)  # seq 506
    again = httpx.post(url, headers=api, json=body)
    assert (again.status_code, again.json()) == (400, {"error": "Object violates owner / name unique constraint"})
    found = httpx.get(url, headers=api, params={"name__iexact": VIEW.upper()}).json()
    assert found == {"count": 1, "next": None, "previous": None, "results": [view]}  # seq 508
    bare = httpx.post(url, headers=api, json={"name": "x", "show_on_dashboard": False, "show_in_sidebar": False})
    assert (bare.status_code, bare.json()) == (400, {"filter_rules": ["This field is required."]})  # seq 510
    odd = httpx.post(url, headers=api, json={**body, "name": "y", "filter_rules": [{"rule_type": 999, "value": "1"}]})
    assert (odd.status_code, odd.json()) == (400, {"filter_rules": [{"rule_type": ['"999" is not a valid choice.']}]})
    saved = httpx.post(f"{fake_paperless.url}/api/ui_settings/", headers=api,
                       json={"settings": {"saved_views": {"dashboard_views_visible_ids": [1]}}})
    assert saved.json() == {"success": True}
    settings = httpx.get(f"{fake_paperless.url}/api/ui_settings/", headers=api).json()["settings"]
    assert settings["saved_views"] == {"dashboard_views_visible_ids": [1]} and settings["version"] == "3.0.5"
