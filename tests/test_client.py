"""PaperlessClient against the fake Paperless over real loopback HTTP."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from paperless_dedupe_hook._errors import (
    ConfigError,
    PaperlessAuthError,
    PaperlessConnectionError,
    PaperlessError,
    PaperlessNotFound,
    PaperlessResponseError,
    PaperlessTimeout,
    PaperlessVersionError,
)
from paperless_dedupe_hook.paperless.client import PaperlessClient

CANARY = "canary0TOKEN0must0never0leak0a1b2c3d4e5f6"
REPO = Path(__file__).resolve().parent.parent
MakeClient = Callable[..., PaperlessClient]


def _accept_versions(fake: Any) -> list[str]:
    return [r.headers.get("Accept", "") for r in fake.requests]


# -- version negotiation -------------------------------------------------------------------


def test_negotiates_version_10_on_3x(fake_paperless: Any, make_client: MakeClient) -> None:
    client = make_client()
    settings = client.ui_settings()
    assert settings["user"]["is_superuser"] is True
    assert client.api_version == 10
    assert client.server_version == "3.0.5"
    (request,) = fake_paperless.requests
    assert request.headers["Accept"] == "application/json; version=10"
    assert request.headers["Authorization"] == "Token <redacted>"


@pytest.mark.parametrize("fake_paperless", ["2.20"], indirect=True)
def test_negotiates_version_9_on_2_20(fake_paperless: Any, make_client: MakeClient) -> None:
    client = make_client()
    client.ui_settings()
    client.ui_settings()
    assert client.api_version == 9
    assert client.server_version == "2.20.15"
    assert [r.status for r in fake_paperless.requests] == [406, 200, 200]
    assert _accept_versions(fake_paperless) == [
        "application/json; version=10", "application/json; version=9", "application/json; version=9"]


def test_no_common_version_raises_version_error(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.inject("status", status=406, times=None)
    with pytest.raises(PaperlessVersionError) as info:
        make_client().ui_settings()
    assert info.value.status == 406
    assert len(fake_paperless.requests) == 2  # version 10, then 9; no retries


# -- documents -------------------------------------------------------------------------------


@pytest.mark.parametrize("fake_paperless", ["3.x", "2.20"], indirect=True)
def test_listing_reads_the_ids_then_the_documents_by_id(fake_paperless: Any, make_client: MakeClient) -> None:
    """Paperless 3.0.5 ignores ``id__gt``: the client notices (one probe), reads every
    id in one page, then the documents by ``id__in`` in id order, never by page number."""
    for i in range(23, 0, -1):  # inserted newest first: the default order is not id order
        fake_paperless.add_document(id=i, title=f"doc {i}", content=f"text {i}")
    client = make_client()
    docs = list(client.iter_documents(fields=["id", "title"], page_size=5))
    assert [d["id"] for d in docs] == list(range(1, 24))
    assert set(docs[0]) == {"id", "title"}
    lists = [r for r in fake_paperless.requests_for("GET", r"/api/documents/$") if r.status == 200]
    probe, ids, *chunks = lists
    assert probe.param("id__gt") == str(2**31 - 1)
    assert (ids.param("fields"), ids.param("page_size"), ids.param("ordering")) == ("id", "100000", "id")
    assert [r.param("id__in") for r in chunks] == [",".join(map(str, range(s, min(s + 5, 24)))) for s in range(1, 24, 5)]
    assert {r.param("page") for r in lists} == {None, "1"}  # never page 2
    assert client.document_ids() == list(range(1, 24))


@pytest.mark.parametrize("fake_paperless", [{"id_lookups": ("in", "exact", "gt")}], indirect=True)
def test_listing_pages_by_id_where_the_server_honours_id_gt(fake_paperless: Any, make_client: MakeClient) -> None:
    for i in range(23, 0, -1):
        fake_paperless.add_document(id=i, title=f"doc {i}", content=f"text {i}")
    docs = list(make_client().iter_documents(fields=["id", "title"], page_size=5))
    assert [d["id"] for d in docs] == list(range(1, 24))
    lists = [r for r in fake_paperless.requests_for("GET", r"/api/documents/$") if r.status == 200]
    assert [r.param("id__gt") for r in lists] == [str(2**31 - 1), "0", "5", "10", "15", "20"]
    assert {r.param("page") for r in lists} == {None}


@pytest.mark.parametrize(
    "fake_paperless",
    [pytest.param({"mode": "3.x"}, id="ids-first"),
     pytest.param({"id_lookups": ("in", "exact", "gt")}, id="id-gt")],
    indirect=True,
)
def test_documents_trashed_while_listing_make_no_other_vanish(fake_paperless: Any, make_client: MakeClient) -> None:
    """Two documents of the first page go to the trash after it was read: paging by page
    number would then skip the two at the next boundaries (issue 18, item 2)."""
    fake_paperless.add_documents({"id": i, "title": f"doc {i}", "content": f"text {i}"} for i in range(1, 31))
    trashed: list[int] = []
    lists: list[int] = []

    def on_list(_request: object) -> None:  # the third list request: after the probe and one page (or the id list)
        lists.append(1)
        if len(lists) == 3:
            for doc_id in (2, 3, 7):
                fake_paperless.trash_document(doc_id)
                trashed.append(doc_id)

    fake_paperless.inject("call", path_regex=r"/api/documents/$", method="GET", fn=on_list, times=None)
    got = [d["id"] for d in make_client().iter_documents(fields=["id"], page_size=5)]
    assert trashed == [2, 3, 7] and len(lists) > 3, "the documents were not trashed while the list was read"
    assert got == sorted(got)
    assert set(got) - {2, 3, 7} == set(range(1, 31)) - {2, 3, 7}  # none of the others vanished
def test_id_list_longer_than_a_page_is_read_again_when_it_shrank(
    fake_paperless: Any, make_client: MakeClient, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Above 100,000 documents the ids come in several pages; a document trashed between
    two of them shifts the second: the changed ``count`` makes the client read again."""
    from paperless_dedupe_hook.paperless import _listing

    monkeypatch.setattr(_listing, "_IDS_PAGE", 5)  # stands for Paperless's 100,000
    fake_paperless.add_documents({"id": i, "content": f"text {i}"} for i in range(1, 13))
    pages: list[str | None] = []

    def on_list(request: Any) -> None:
        pages.append(request.param("page"))
        if len(pages) == 2:  # after the first page of ids, before the second
            fake_paperless.trash_document(3)

    fake_paperless.inject("call", path_regex=r"/api/documents/$", method="GET", fn=on_list, times=None)
    assert make_client().document_ids() == [i for i in range(1, 13) if i != 3]
    assert pages.count("1") == 2, pages  # the whole list was read a second time


def test_get_document_with_fields(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.seed_sample()
    doc = make_client().get_document(4, fields=["content"])
    assert set(doc) == {"id", "content"}
    assert doc["content"].startswith("Stadtwerke Süd GmbH")
    assert fake_paperless.requests[-1].query == "fields=id%2Ccontent"
    full = make_client().get_document(1)
    assert full["title"] == "ACME invoice INV-2026-1047" and "versions" in full


@pytest.mark.parametrize(
    ("given", "sent"),
    [
        pytest.param("2026-11-30T11:31:13+00:00", "2026-11-30T11:31:13.000000Z", id="utc-offset"),
        pytest.param("2026-11-30T12:31:13+01:00", "2026-11-30T11:31:13.000000Z", id="other-offset"),
        pytest.param("2026-11-30T11:31:13Z", "2026-11-30T11:31:13.000000Z", id="zulu"),
        pytest.param("2026-11-30T11:31:13", "2026-11-30T11:31:13", id="naive"),
    ],
)
def test_modified_after_is_encoded_safely(fake_paperless: Any, make_client: MakeClient, given: str, sent: str) -> None:
    fake_paperless.seed_sample()
    ids = [d["id"] for d in make_client().iter_documents(fields=["id", "modified"], modified_after=given)]
    assert ids == [4, 5, 6]
    request = fake_paperless.requests[-1]
    assert request.param("modified__gt") == sent
    assert "+" not in request.query


def test_modified_after_rejects_garbage(make_client: MakeClient) -> None:
    with pytest.raises(ValueError, match="modified_after"):
        list(make_client().iter_documents(fields=["id"], modified_after="yesterday"))


def test_iter_documents_by_ids_chunks_and_skips_missing(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.add_documents({"id": i, "content": "x"} for i in range(1, 451))
    client = make_client()
    assert [d["id"] for d in client.iter_documents(fields=["id"], ids=[3, 1, 999999, 3])] == [1, 3]
    fake_paperless.clear_log()
    assert len(list(client.iter_documents(fields=["id"], ids=list(range(450, 0, -1))))) == 450
    assert len(fake_paperless.requests) == 3  # 200 ids per request
    fake_paperless.clear_log()
    assert list(client.iter_documents(fields=["id"], ids=[])) == []
    assert fake_paperless.requests == []  # an empty id__in would list every document


def test_lists_omit_trash_and_version_rows(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.seed_sample()
    fake_paperless.trash_document(5)
    version = fake_paperless.add_version(2, "rescanned text")
    assert make_client().document_ids() == [1, 2, 3, 4, 6]
    assert version == 7


# -- root_id ---------------------------------------------------------------------------------


def test_root_id_on_3x(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.seed_sample()
    version = fake_paperless.add_version(1, "new version text")
    client = make_client()
    assert client.root_id(3) == 3
    assert client.root_id(version) == 1
    with pytest.raises(PaperlessNotFound) as info:
        client.get_document(version)
    assert info.value.document_id == version
    assert client.get_document(client.root_id(version), fields=["content"])["content"] == "new version text"


def test_root_id_of_missing_document_surfaces_in_get_document(fake_paperless: Any, make_client: MakeClient) -> None:
    client = make_client()
    assert client.root_id(999) == 999
    with pytest.raises(PaperlessNotFound) as info:
        client.get_document(999)
    error = info.value
    assert (error.status, error.document_id, error.path) == (404, 999, "/api/documents/999/")
    assert "GET /api/documents/999/" in str(error) and "document 999" in str(error)


@pytest.mark.parametrize("fake_paperless", ["2.20"], indirect=True)
def test_root_id_on_2_20(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.seed_sample()
    client = make_client()
    assert client.root_id(2) == 2  # no /root/ endpoint: 302 to the login page
    assert fake_paperless.requests[-1].status == 302
    fake_paperless.clear_log()
    assert client.root_id(3) == 3  # the server version is known now: no request
    assert fake_paperless.requests == []


def test_root_id_accepts_a_json_404_from_an_old_server(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.seed_sample()
    fake_paperless.inject("status", status=404, path_regex=r"/root/$")
    assert make_client().root_id(2) == 2


# -- tags, custom fields, notes, bulk edit -----------------------------------------------------


def test_find_tags_returns_every_case_variant(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.add_tag("possible-duplicate")
    fake_paperless.add_tag("Possible-Duplicate")
    fake_paperless.add_tag("reviewed")
    names = sorted(t["name"] for t in make_client().find_tags("POSSIBLE-duplicate"))
    assert names == ["Possible-Duplicate", "possible-duplicate"]
    assert make_client().find_tags("nothing") == []


def test_create_tag_sends_unowned_non_matching_tag(fake_paperless: Any, make_client: MakeClient) -> None:
    client = make_client()
    tag = client.create_tag("possible-duplicate")
    assert (tag["owner"], tag["matching_algorithm"], tag["is_inbox_tag"]) == (None, 0, False)
    (post,) = fake_paperless.requests_for("POST", r"/api/tags/$")
    assert post.json == {"name": "possible-duplicate", "color": "#ff8800", "matching_algorithm": 0,
                         "is_inbox_tag": False, "owner": None}
    with pytest.raises(PaperlessResponseError) as info:
        client.create_tag("possible-duplicate")
    assert info.value.status == 400 and "already exists" in str(info.value)
    assert client.create_tag("Possible-Duplicate")["id"] == tag["id"] + 1


def test_custom_field_create_and_find(fake_paperless: Any, make_client: MakeClient) -> None:
    client = make_client()
    assert client.find_custom_fields("Possible duplicates") == []
    created = client.create_custom_field("Possible duplicates")
    assert created == {"id": 1, "name": "Possible duplicates", "data_type": "documentlink", "extra_data": None}
    (found,) = client.find_custom_fields("possible DUPLICATES")
    assert found["id"] == 1 and found["document_count"] == 0
    assert fake_paperless.requests[-1].param("name__iexact") == "possible DUPLICATES"


def test_notes_add_returns_the_whole_list(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.seed_sample()
    client = make_client()
    before = fake_paperless.document(1)["modified"]
    assert client.get_notes(1) == []
    client.add_note(1, "first")
    notes = client.add_note(1, "Duplicate of #2 ✓ (ä)")
    assert [n["note"] for n in notes] == ["first", "Duplicate of #2 ✓ (ä)"]
    assert notes == client.get_notes(1)
    assert fake_paperless.document(1)["modified"] > before


def test_note_error_with_status_200_raises(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.seed_sample()
    fake_paperless.inject("note_error", path_regex=r"/notes/$", method="POST")
    with pytest.raises(PaperlessResponseError) as info:
        make_client().add_note(2, "hello")
    assert info.value.document_id == 2 and "Error saving note" in str(info.value)
    assert fake_paperless.document(2)["notes"] == []
    with pytest.raises(PaperlessNotFound):
        make_client().add_note(999, "x")


def test_bulk_edit_tags_and_documentlinks(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.seed_sample()
    tag = fake_paperless.add_tag("possible-duplicate")["id"]
    field = fake_paperless.add_custom_field("Possible duplicates")["id"]
    client = make_client()
    client.bulk_edit([2], "add_tag", {"tag": tag})
    client.bulk_edit([2], "modify_custom_fields", {"add_custom_fields": {str(field): [1]}, "remove_custom_fields": []})
    assert fake_paperless.document(2)["tags"] == [tag]
    assert fake_paperless.document(2)["custom_fields"] == [{"value": [1], "field": field}]
    assert fake_paperless.document(1)["custom_fields"] == [{"value": [2], "field": field}]  # reverse link
    with pytest.raises(PaperlessResponseError) as info:
        client.bulk_edit([2], "modify_tags", {"add_tags": [tag]})
    assert info.value.status == 400 and "remove_tags not specified" in str(info.value)
    assert info.value.document_id == 2
    assert fake_paperless.requests_for("PATCH") == []


# -- retries -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fault", "kw"),
    [
        pytest.param("status", {"status": 503}, id="503"),
        pytest.param("status", {"status": 502}, id="502"),
        pytest.param("status", {"status": 500}, id="500"),
        pytest.param("status", {"status": 504}, id="504"),
        pytest.param("status", {"status": 429, "retry_after": 0}, id="429-retry-after-0"),
        pytest.param("close", {}, id="close-connection"),
    ],
)
def test_transient_failures_are_retried(fake_paperless: Any, make_client: MakeClient, fault: str, kw: dict[str, Any]) -> None:
    fake_paperless.seed_sample()
    fake_paperless.inject(fault, times=2, path_regex=r"/api/documents/1/$", **kw)
    assert make_client().get_document(1)["id"] == 1
    requests = fake_paperless.requests_for("GET", r"/api/documents/1/$")
    assert len(requests) == 3
    assert [r.fault for r in requests] == [fault, fault, None]


def test_retry_after_is_honoured(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.inject("status", status=429, retry_after=1)
    started = time.monotonic()
    make_client().ui_settings()
    assert time.monotonic() - started >= 1.0  # slept at least Retry-After (a lower bound: sleep guarantees it)
    assert len(fake_paperless.requests) == 2


def test_retries_are_bounded(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.inject("status", status=503, times=None)
    with pytest.raises(PaperlessConnectionError) as info:
        make_client(max_retries=2).ui_settings()
    assert len(fake_paperless.requests) == 3
    assert info.value.status == 503 and "after 3 attempts" in str(info.value)


@pytest.mark.parametrize(
    ("status", "error"),
    [
        pytest.param(401, PaperlessAuthError, id="401"),
        pytest.param(403, PaperlessAuthError, id="403"),
        pytest.param(404, PaperlessNotFound, id="404"),
        pytest.param(400, PaperlessResponseError, id="400"),
    ],
)
def test_client_errors_are_not_retried(fake_paperless: Any, make_client: MakeClient, status: int,
                                       error: type[PaperlessError]) -> None:
    fake_paperless.inject("status", status=status, times=None)
    with pytest.raises(error) as info:
        make_client().ui_settings()
    assert len(fake_paperless.requests) == 1
    assert info.value.status == status


def test_refused_token_message(fake_paperless: Any, make_client: MakeClient) -> None:
    with pytest.raises(PaperlessAuthError) as info:
        make_client(token="wrong-token").ui_settings()
    message = str(info.value)
    assert message.startswith("Paperless refused the token (401) for GET /api/ui_settings/")
    assert message.endswith("set paperless.token or PAPERLESS_DEDUPE_TOKEN")
    assert "Invalid token." in message and "\n" not in message
    assert len(fake_paperless.requests) == 1


@pytest.mark.parametrize(
    ("fault", "kw", "attempts"),
    [
        pytest.param("status", {"status": 500}, 1, id="500-not-retried"),
        pytest.param("close", {}, 1, id="close-not-retried"),
        pytest.param("status", {"status": 503}, 2, id="503-retried"),
    ],
)
def test_add_note_is_retried_only_when_nothing_was_saved(fake_paperless: Any, make_client: MakeClient, fault: str,
                                                         kw: dict[str, Any], attempts: int) -> None:
    fake_paperless.seed_sample()
    fake_paperless.inject(fault, path_regex=r"/notes/$", method="POST", **kw)
    client = make_client()
    if attempts == 1:
        with pytest.raises(PaperlessError):
            client.add_note(1, "once")
    else:
        assert len(client.add_note(1, "once")) == 1
    assert len(fake_paperless.requests_for("POST", r"/notes/$")) == attempts


# -- timeouts, deadline, connection ------------------------------------------------------------------


def test_read_timeout_raises_paperless_timeout(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.inject("delay", seconds=2.0, times=None)
    with pytest.raises(PaperlessTimeout) as info:
        make_client(timeout_seconds=0.2, max_retries=1).ui_settings()
    assert len(fake_paperless.requests) == 2
    assert "paperless.timeout_seconds" in str(info.value)


def test_deadline_caps_a_slow_request(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.inject("delay", seconds=3.0, times=None)
    started = time.monotonic()
    with pytest.raises(PaperlessTimeout) as info:
        make_client(timeout_seconds=10.0, deadline=started + 0.5).ui_settings()
    # Uncapped, the 10 s timeout would have let the 3 s answer through: the error proves the cap.
    assert "deadline" in str(info.value)
    assert len(fake_paperless.requests) == 1


def test_past_deadline_sends_nothing(fake_paperless: Any, make_client: MakeClient) -> None:
    with pytest.raises(PaperlessTimeout):
        make_client(deadline=time.monotonic() - 1).ui_settings()
    assert fake_paperless.requests == []


def test_no_backoff_beyond_the_deadline(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.inject("status", status=429, retry_after=20, times=None)
    started = time.monotonic()
    with pytest.raises(PaperlessResponseError) as info:
        make_client(deadline=started + 2.0).ui_settings()
    assert info.value.status == 429 and len(fake_paperless.requests) == 1


def test_stopped_server_raises_connection_error(fake_paperless: Any, make_client: MakeClient) -> None:
    client = make_client(max_retries=1)
    client.ui_settings()  # leaves a keep-alive connection in the pool
    fake_paperless.stop()
    with pytest.raises(PaperlessConnectionError) as info:
        client.ui_settings()
    assert not isinstance(info.value, PaperlessTimeout)
    assert info.value.status is None and fake_paperless.url in str(info.value)
    assert "check paperless.url" in str(info.value)
    fake_paperless.start()  # same port again
    assert client.ui_settings()["user"]["username"] == "admin"


# -- odd answers ------------------------------------------------------------------------------


def test_html_login_page_is_a_response_error(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.inject("html_login")
    with pytest.raises(PaperlessResponseError, match="HTML page instead of JSON") as info:
        make_client().ui_settings()
    assert info.value.status == 200


def test_malformed_json_is_a_response_error(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.seed_sample()
    fake_paperless.inject("malformed_json")
    with pytest.raises(PaperlessResponseError, match="malformed JSON"):
        list(make_client().iter_documents(fields=["id"]))


def test_invalid_utf8_is_replaced_not_fatal(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.seed_sample()
    fake_paperless.inject("invalid_utf8", path_regex=r"/api/documents/1/$")
    doc = make_client().get_document(1, fields=["title"])
    assert doc["title"].startswith("\ufffd") and doc["title"].endswith("ACME invoice INV-2026-1047")


def test_unexpected_shape_is_a_response_error(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.inject("status", status=200, json=["not", "an", "object"])
    with pytest.raises(PaperlessResponseError, match="something other than"):
        make_client().ui_settings()


@pytest.mark.parametrize("fake_paperless", [{"prefix": "/paperless"}], indirect=True)
def test_path_prefix_is_kept(fake_paperless: Any, make_client: MakeClient) -> None:
    fake_paperless.seed_sample()
    client = make_client()
    assert client.get_document(1)["id"] == 1
    assert fake_paperless.requests[-1].path == "/paperless/api/documents/1/"
    with pytest.raises(PaperlessResponseError, match="login page") as info:
        make_client(url=fake_paperless.url.removesuffix("/paperless")).get_document(1)
    assert info.value.status == 302 and "PAPERLESS_FORCE_SCRIPT_NAME" in str(info.value)


# -- configuration and secrets -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "token"),
    [
        pytest.param("localhost:8000", CANARY, id="no-scheme"),
        pytest.param("ftp://host/", CANARY, id="bad-scheme"),
        pytest.param("http://localhost:8000", "", id="empty-token"),
        pytest.param("http://localhost:8000", f"Token {CANARY}", id="token-with-scheme"),
    ],
)
def test_bad_configuration_is_a_config_error(url: str, token: str) -> None:
    with pytest.raises(ConfigError) as info:
        PaperlessClient(url=url, token=token)
    assert CANARY not in str(info.value)


def _provoke(fake: Any, make_client: MakeClient, case: str) -> PaperlessError:
    fake.token = CANARY
    fake.seed_sample()
    client = make_client(token=CANARY, max_retries=1, timeout_seconds=0.3)
    assert CANARY not in repr(client)
    action: Callable[[], object] = client.ui_settings
    if case == "refused":
        fake.token = "another-token"
    elif case == "unreachable":
        fake.stop()
    elif case == "timeout":
        fake.inject("delay", seconds=1.0, times=None)
    elif case == "notfound":
        action = lambda: client.get_document(4242)  # noqa: E731
    elif case == "note_error":
        fake.inject("note_error")
        action = lambda: client.add_note(1, CANARY)  # noqa: E731
    elif case == "bad_request":
        action = lambda: client.bulk_edit([1], "add_tag", {"tag": CANARY})  # noqa: E731
    else:
        fake.inject(case, times=None, **({"status": 500} if case == "status" else {}))
    with pytest.raises(PaperlessError) as info:
        action()
    return info.value


@pytest.mark.parametrize(
    "case",
    ["refused", "unreachable", "timeout", "notfound", "note_error", "bad_request", "status", "close",
     "html_login", "malformed_json"],
)
def test_token_never_leaks(fake_paperless: Any, make_client: MakeClient, case: str) -> None:
    error = _provoke(fake_paperless, make_client, case)
    rendered = "".join(traceback.format_exception(error))
    for text in (str(error), repr(error), rendered, repr(vars(error))):
        assert CANARY not in text
    assert "\n" not in str(error)
    assert error.__cause__ is None and error.__context__ is None


# -- import time -------------------------------------------------------------------------------


def test_import_does_not_load_httpx_cli(tmp_path: Path) -> None:
    for name in ("click", "rich", "pygments"):  # stand-ins that would be imported by httpx's CLI
        (tmp_path / f"{name}.py").write_text("import os\nopen(os.environ['MARKER'], 'a').write(__name__ + ' ')\n")
    marker = tmp_path / "imported.txt"
    code = textwrap.dedent("""
        import sys
        import paperless_dedupe_hook.paperless.client
        assert "click" not in sys.modules, sys.modules.get("click")
        import click  # still importable afterwards
        print("ok")
    """)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)]), "MARKER": str(marker)}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert marker.read_text() == "click "  # only our explicit import ran; httpx never reached rich/pygments


def test_custom_transport_and_undecodable_body() -> None:
    import httpx

    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, headers={"content-type": "application/json", "content-encoding": "gzip"},
                              content=b"not gzip")

    client = PaperlessClient(url="http://paperless:8000/paperless/", token=CANARY, transport=httpx.MockTransport(handler))
    with client, pytest.raises(PaperlessResponseError, match="undecodable") as info:
        client.ui_settings()
    assert seen[0].url.path == "/paperless/api/ui_settings/"
    assert CANARY not in "".join(traceback.format_exception(info.value))
