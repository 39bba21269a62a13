"""Limited users, as a real Paperless 3.0.5 answers them (``data/permissions_replay.json``,
taken from the recorded exchanges), and what the client makes of each refusal."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from paperless_dedupe_hook._errors import (
    PaperlessNotFound,
    PaperlessPermissionError,
    PaperlessResponseError,
)
from paperless_dedupe_hook.paperless.client import PaperlessClient
from tests.fake_paperless import VIEWER_PERMISSIONS, FakePaperless

REPLAY = json.loads((Path(__file__).parent / "data" / "permissions_replay.json").read_text(encoding="utf-8"))
USERS: dict[str, dict[str, Any]] = {
    "viewer": {"user_id": 3, "permissions": VIEWER_PERMISSIONS},
    "noperm": {"user_id": 4, "permissions": ()},
    "owner2": {"user_id": 5, "permissions": VIEWER_PERMISSIONS},
    "nouisettings": {"user_id": 6, "permissions": [p for p in VIEWER_PERMISSIONS if p != "view_uisettings"]},
}


@pytest.fixture(scope="module")
def recorded_instance() -> Iterator[FakePaperless]:
    """The recording's instance: admin (2) owns 3, 4 and 39, owner2 (5) owns 9 and 10;
    tag 1 ``possible-duplicate`` without owner, field 1 ``Possible duplicates``."""
    fake = FakePaperless().start()
    for doc_id in (3, 4, 39):
        fake.add_document(id=doc_id, content=f"document {doc_id} " * 30, owner=2)
    for doc_id in (9, 10):
        fake.add_document(id=doc_id, content=f"document {doc_id} " * 30, owner=5)
    fake.add_tag("possible-duplicate", color="#ff8800", tag_id=1)
    fake.add_custom_field("Possible duplicates", field_id=1)
    yield fake
    fake.stop()
    assert not fake.errors, fake.errors


@pytest.mark.parametrize("record", REPLAY["records"], ids=[f"{r['seq']}-{r['user']}" for r in REPLAY["records"]])
def test_the_fake_answers_limited_users_like_the_recording(recorded_instance: FakePaperless, record: dict[str, Any]) -> None:
    fake = recorded_instance
    # From seq 389 on, viewer has the object permission view on document 4.
    view = (4,) if record["user"] == "viewer" and record["seq"] >= 389 else ()
    fake.limit_user(username=record["user"], view=view, **USERS[record["user"]])
    url = f"{fake.url}{record['path']}" + (f"?{record['query']}" if record["query"] else "")
    answer = httpx.request(record["method"], url, json=record["json"], follow_redirects=False, headers={
        "Accept": "application/json; version=10", "Authorization": f"Token {fake.token}"})
    expect = record["expect"]
    assert answer.status_code == expect["status"], answer.text
    assert answer.headers.get("content-type") == expect["content_type"]
    assert ("x-version" in answer.headers) == expect["x_version"]
    if "location" in expect:
        assert answer.headers["location"] == expect["location"]
    if "text" in expect:
        assert answer.text == expect["text"]
        return
    body = answer.json()
    if "body" in expect:
        assert body == expect["body"]
    if "count" in expect:
        # the default order is by `created`, which the recording's documents do not share with these
        assert (body["count"], sorted(item["id"] for item in body["results"])) == (expect["count"], sorted(expect["ids"]))
    if "permissions" in expect:
        assert body["user"] == expect["user"]
        assert sorted(body["permissions"]) == expect["permissions"]
    if "keys" in expect:
        assert sorted(body) == expect["keys"]
    if "length" in expect:
        assert len(body) == expect["length"]
    for key in ("id", "user_can_change", "custom_fields", "tags"):
        if key in expect:
            assert body[key] == expect[key], key


@pytest.fixture
def viewer_fake() -> Iterator[FakePaperless]:
    """Documents 1-3 of the admin, 4 shared with viewer for viewing, 5 owned by viewer."""
    fake = FakePaperless().start()
    for doc_id in range(1, 6):
        fake.add_document(id=doc_id, content=f"document {doc_id} " * 30, owner=2)
    fake.add_tag("possible-duplicate", tag_id=1, owner=None)
    fake.add_custom_field("Possible duplicates", field_id=1)
    fake.limit_user(owned=[5], view=[4])
    yield fake
    fake.stop()
    assert not fake.errors, fake.errors


def _client(fake: FakePaperless) -> PaperlessClient:
    return PaperlessClient(url=fake.url, token=fake.token, max_retries=0, timeout_seconds=5)


def test_a_document_the_user_may_not_see_is_said_so_not_a_wrong_url(viewer_fake: FakePaperless) -> None:
    with _client(viewer_fake) as client, pytest.raises(PaperlessPermissionError) as caught:
        client.root_id(2)  # /root/ answers the bare-text 403 for an existing invisible document
    message = str(caught.value)
    assert message.startswith("The token's user may not see document 2 (403) for GET /api/documents/2/root/")
    assert "share the document with the token's user" in message
    assert "paperless.url" not in message and "CSRF" not in message
    assert caught.value.exit_code == 4


def test_a_missing_model_permission_is_named(viewer_fake: FakePaperless) -> None:
    with _client(viewer_fake) as client, pytest.raises(PaperlessPermissionError) as caught:
        client.create_tag("possible-duplicate-2")
    assert caught.value.permission == "add_tag"
    assert "lacks the Paperless permission add_tag (403) for POST /api/tags/" in str(caught.value)
    assert "grant it to the user" in str(caught.value)


def test_writes_on_a_document_the_user_may_only_view(viewer_fake: FakePaperless) -> None:
    with _client(viewer_fake) as client:
        assert client.root_id(4) == 4
        with pytest.raises(PaperlessPermissionError, match=r"may not change document 4 \(403\) for POST .*/notes/"):
            client.add_note(4, "hello")
        with pytest.raises(PaperlessPermissionError, match=r"may not change document 4 \(403\) for POST .*bulk_edit"):
            client.bulk_edit([4], "add_tag", {"tag": 1})
        for target in (2, 4):  # hidden from viewer, and visible to it but not changeable (validate_documentlink_targets)
            with pytest.raises(PaperlessPermissionError,
                               match=r"may not change a document linked from document 5 \(Paperless writes the reverse"):
                client.bulk_edit([5], "modify_custom_fields",
                                 {"add_custom_fields": {"1": [target]}, "remove_custom_fields": []})
        client.bulk_edit([5], "add_tag", {"tag": 1})  # its own document: allowed
    assert viewer_fake.document(5)["tags"] == [1]
    assert viewer_fake.document(2)["custom_fields"] == []


def test_an_invisible_document_reads_as_missing_or_hidden(viewer_fake: FakePaperless) -> None:
    with _client(viewer_fake) as client, pytest.raises(PaperlessNotFound) as caught:
        client.get_document(2)
    assert "Paperless has no document 2 (404)" in str(caught.value)
    assert "the token's user cannot see it" in str(caught.value)


def test_csrf_page_and_proxy_page_are_told_apart(fake_paperless: FakePaperless) -> None:
    with PaperlessClient(url=fake_paperless.url + "/nothing-here", token=fake_paperless.token, max_retries=0) as client:
        with pytest.raises(PaperlessResponseError, match="CSRF check, as it does for a POST to a path it does not know"):
            client.create_tag("x")
    fake_paperless.inject("status", status=403, text="<!DOCTYPE html><html><body><h1>403 Forbidden</h1>nginx</body></html>",
                          path_regex="/api/ui_settings/")
    with PaperlessClient(url=fake_paperless.url, token=fake_paperless.token, max_retries=0) as client:
        with pytest.raises(Exception, match="A proxy or web server in front of Paperless refused the request") as caught:
            client.ui_settings()
    assert not isinstance(caught.value, PaperlessPermissionError)


def test_check_of_a_document_the_user_may_not_see_says_so(viewer_fake: FakePaperless, tmp_path: Path) -> None:
    from tests.test_rebuild_safety import run

    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(json.dumps({"id": i, "content": f"document {i} " * 30}) + "\n" for i in range(1, 6)))
    assert run(tmp_path, "rebuild-index", "--from-jsonl", str(docs)).returncode == 0
    proc = run(tmp_path, "check", "2", env={"PAPERLESS_DEDUPE_URL": viewer_fake.url,
                                             "PAPERLESS_DEDUPE_TOKEN": viewer_fake.token})
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "\nerror: The token's user may not see document 2 (403)" in proc.stderr, proc.stderr
    assert "paperless.url" not in proc.stderr and "Traceback" not in proc.stderr
