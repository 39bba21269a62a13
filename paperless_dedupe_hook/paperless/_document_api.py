"""The document, tag, custom-field and note calls of the REST API, as a mixin of
:class:`client.PaperlessClient` (what the hook and the annotations need).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .._errors import PaperlessResponseError
from ._http import Failure, fields_param, is_login_redirect, status_failure

_IDEMPOTENT_BULK = frozenset({"add_tag", "remove_tag", "modify_tags", "modify_custom_fields"})


class DocumentCalls:
    """Needs, from the client it is mixed into (declared for the type checker only):"""

    _prefix: str
    _token: str
    _has_root: bool
    server_version: str | None
    _send: Callable[..., Any]
    _parse: Callable[..., Any]
    _call: Callable[..., Any]
    _dict: Callable[..., dict[str, Any]]
    _list: Callable[..., list[dict[str, Any]]]
    _shape_error: Callable[..., Exception]
    _pages: Callable[[str, Mapping[str, str | int]], Iterator[dict[str, Any]]]

    def ui_settings(self) -> dict[str, Any]:
        """``GET /api/ui_settings/``: the user (``is_superuser``), permissions and server version."""
        data = self._dict(self._call("GET", "/api/ui_settings/"), "GET", "/api/ui_settings/", key="user")
        settings = data.get("settings")
        if self.server_version is None and isinstance(settings, dict) and isinstance(settings.get("version"), str):
            self.server_version = settings["version"]
        return data

    def root_id(self, document_id: int) -> int:
        """The root of a (3.x) version chain; on 2.x, or when /root/ answers 404, the id itself."""
        document_id = int(document_id)
        major = (self.server_version or "").split(".")[0]
        if not self._has_root or (major.isdigit() and int(major) < 3):
            return document_id
        path = f"/api/documents/{document_id}/root/"
        resp = self._send("GET", path, document_id=document_id)
        if is_login_redirect(resp.status_code, resp.headers.get("location", "")):
            self._has_root = False  # 2.x: no such endpoint
            return document_id
        if resp.status_code == 404:
            return document_id  # 2.x without the redirect, or a missing document: get_document tells
        if resp.status_code != 200:
            raise status_failure(resp.status_code, resp.headers, resp.content, document_id, method="GET", path=path,
                                 prefix=self._prefix).build(
                f"GET {self._prefix}{path}", self._prefix + path, document_id, self._token)
        data = self._dict(self._parse(resp, f"GET {self._prefix}{path}", self._prefix + path, document_id),
                          "GET", path, document_id, key="root_id")
        root = data["root_id"]
        if not isinstance(root, int) or isinstance(root, bool) or root <= 0:
            raise self._shape_error("a root_id that is not a document id", "GET", path, document_id)
        return root

    def get_document(self, document_id: int, *, fields: Sequence[str] | None = None) -> dict[str, Any]:
        """``GET /api/documents/{id}/``; PaperlessNotFound when it does not exist (or is a version row)."""
        document_id = int(document_id)
        path = f"/api/documents/{document_id}/"
        params = {"fields": fields_param(fields)} if fields else None
        return self._dict(self._call("GET", path, params=params, document_id=document_id),
                          "GET", path, document_id, key="id")

    def find_tags(self, name: str) -> list[dict[str, Any]]:
        """Tags named ``name`` in any case (names are unique only case-sensitively)."""
        return list(self._pages("/api/tags/", {"name__iexact": name, "page_size": 100}))

    def create_tag(self, name: str, *, color: str = "#ff8800") -> dict[str, Any]:
        """An unowned tag that the auto-matcher never assigns."""
        body = {"name": name, "color": color, "matching_algorithm": 0, "is_inbox_tag": False, "owner": None}
        data = self._call("POST", "/api/tags/", body=body, idempotent=False, ok=(200, 201))
        return self._dict(data, "POST", "/api/tags/", key="id")

    def find_custom_fields(self, name: str) -> list[dict[str, Any]]:
        return list(self._pages("/api/custom_fields/", {"name__iexact": name, "page_size": 100}))

    def create_custom_field(self, name: str, data_type: str = "documentlink") -> dict[str, Any]:
        data = self._call("POST", "/api/custom_fields/", body={"name": name, "data_type": data_type},
                          idempotent=False, ok=(200, 201))
        return self._dict(data, "POST", "/api/custom_fields/", key="id")

    def get_notes(self, document_id: int) -> list[dict[str, Any]]:
        document_id = int(document_id)
        path = f"/api/documents/{document_id}/notes/"
        return self._list(self._call("GET", path, document_id=document_id), "GET", path, document_id)

    def add_note(self, document_id: int, text: str) -> list[dict[str, Any]]:
        """Adds a note; returns all notes of the document.  A 200 ``{"error": ...}`` raises."""
        document_id = int(document_id)
        path = f"/api/documents/{document_id}/notes/"
        data = self._call("POST", path, body={"note": text}, document_id=document_id, idempotent=False)
        if isinstance(data, dict) and "error" in data:
            raise Failure(PaperlessResponseError, "Paperless did not save the note", 200,
                          "see paperless.log on the server; the token's user needs the add_note permission",
                          str(data["error"])).build(f"POST {self._prefix}{path}", self._prefix + path,
                                                    document_id, self._token)
        return self._list(data, "POST", path, document_id)

    def bulk_edit(self, documents: Sequence[int], method: str, parameters: Mapping[str, Any]) -> None:
        """``POST /api/documents/bulk_edit/``; the writes happen in the request (re-indexing is queued)."""
        docs = [int(d) for d in documents]
        path = "/api/documents/bulk_edit/"
        doc_id = docs[0] if len(docs) == 1 else None
        body = {"documents": docs, "method": method, "parameters": dict(parameters)}
        data = self._call("POST", path, body=body, document_id=doc_id, idempotent=method in _IDEMPOTENT_BULK)
        if not isinstance(data, dict) or data.get("result") != "OK":
            raise self._shape_error("something other than {\"result\": \"OK\"}", "POST", path, doc_id)


    def profile(self) -> dict[str, Any]:
        """``GET /api/profile/``: answers any valid token, whatever its permissions."""
        return self._dict(self._call("GET", "/api/profile/"), "GET", "/api/profile/")

    def count_documents(self) -> int:
        """How many documents the token's user can see (one small request)."""
        data = self._dict(self._call("GET", "/api/documents/", params={"page_size": 1, "fields": "id"}),
                          "GET", "/api/documents/", key="count")
        count = data["count"]
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise self._shape_error("a count that is not a number of documents", "GET", "/api/documents/")
        return count
