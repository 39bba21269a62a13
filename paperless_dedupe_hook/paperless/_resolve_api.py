"""The calls ``resolve`` and ``undo`` make, as a mixin of :class:`client.PaperlessClient`
(``paperless-api/resolve.json``).

* ``PATCH /api/documents/{id}/`` answers the whole document; ``custom_fields`` replaces
  the document's list, and an ASN another document holds (also one in the trash) refuses
  the whole PATCH with a 400 naming ``archive_serial_number``.
* ``DELETE /api/documents/{id}/`` moves a document to the trash (204).  There is no call
  here that empties the trash or deletes for good: ``POST /api/trash/`` is sent with
  ``"action": "restore"`` only (``"empty"`` without ``documents`` empties the whole trash).
* ``POST /api/documents/{id}/update_version/`` (multipart ``document`` + ``version_label``)
  answers a task id; the task's ``result_data.document_id`` is the new version row.
  ``DELETE /api/documents/{root}/versions/{id}/`` sends a version row to the trash.
* A trashed document answers 404 on detail, ``/notes/`` and ``/metadata/`` but 200 on
  ``/root/`` and ``/download/``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from urllib.parse import unquote

from ._http import status_failure

NOT_IN_TRASH = "have not yet been deleted"


class ResolveCalls:
    """Needs, from the client it is mixed into (declared for the type checker only):"""

    _prefix: str
    _token: str
    _send: Callable[..., Any]
    _call: Callable[..., Any]
    _parse: Callable[..., Any]
    _dict: Callable[..., dict[str, Any]]
    _list: Callable[..., list[dict[str, Any]]]
    _shape_error: Callable[..., Exception]
    _pages: Callable[[str, Mapping[str, str | int]], Iterator[dict[str, Any]]]

    def _refused(self, resp: Any, method: str, path: str, document_id: int | None) -> Exception:
        return status_failure(resp.status_code, resp.headers, resp.content, document_id, method=method, path=path,
                              prefix=self._prefix).build(f"{method} {self._prefix}{path}", self._prefix + path,
                                                         document_id, self._token)

    def patch_document(self, document_id: int, changes: Mapping[str, Any]) -> dict[str, Any]:
        """``PATCH /api/documents/{id}/`` with ``changes``; the document as it is after."""
        document_id = int(document_id)
        path = f"/api/documents/{document_id}/"
        return self._dict(self._call("PATCH", path, body=dict(changes), document_id=document_id),
                          "PATCH", path, document_id, key="id")

    def trash_document(self, document_id: int) -> None:
        """``DELETE /api/documents/{id}/``: into Paperless's trash (restorable there)."""
        document_id = int(document_id)
        path = f"/api/documents/{document_id}/"
        resp = self._send("DELETE", path, document_id=document_id, idempotent=False)
        if resp.status_code not in (200, 204):
            raise self._refused(resp, "DELETE", path, document_id)

    def trashed(self) -> dict[int, dict[str, Any]]:
        """The documents in the trash the user may see, by id (``GET /api/trash/``)."""
        out: dict[int, dict[str, Any]] = {}
        for item in self._pages("/api/trash/", {"page_size": 100}):
            if isinstance(item.get("id"), int):
                out[item["id"]] = item
        return out

    def restore(self, document_ids: list[int]) -> bool:
        """``POST /api/trash/`` ``restore``: True when restored, False when a document was
        not in the trash (400 "Some documents in the list have not yet been deleted.")."""
        path = "/api/trash/"
        ids = [int(i) for i in document_ids]
        doc_id = ids[0] if len(ids) == 1 else None
        resp = self._send("POST", path, body={"action": "restore", "documents": ids}, document_id=doc_id)
        if resp.status_code == 400 and NOT_IN_TRASH in resp.content.decode("utf-8", "replace"):
            return False
        if resp.status_code != 200:
            raise self._refused(resp, "POST", path, doc_id)
        data = self._dict(self._parse(resp, f"POST {self._prefix}{path}", self._prefix + path, doc_id),
                          "POST", path, doc_id)
        if data.get("result") != "OK":
            raise self._shape_error('something other than {"result": "OK"}', "POST", path, doc_id)
        return True

    def metadata(self, document_id: int) -> dict[str, Any]:
        """``GET /api/documents/{id}/metadata/``: checksums, sizes, mime type, PDF producer."""
        document_id = int(document_id)
        path = f"/api/documents/{document_id}/metadata/"
        return self._dict(self._call("GET", path, document_id=document_id), "GET", path, document_id)

    def download_original(self, document_id: int) -> tuple[bytes, str, str]:
        """The original file: (bytes, file name, content type)."""
        document_id = int(document_id)
        path = f"/api/documents/{document_id}/download/"
        resp = self._send("GET", path, params={"original": "true"}, document_id=document_id)
        if resp.status_code != 200:
            raise self._refused(resp, "GET", path, document_id)
        disposition = resp.headers.get("content-disposition", "")
        name = re.search(r"filename\*=utf-8''([^;]+)", disposition, re.I)
        plain = re.search(r'filename="([^"]+)"', disposition)
        filename = unquote(name.group(1)) if name else (plain.group(1) if plain else f"document-{document_id}")
        ctype = resp.headers.get("content-type", "application/octet-stream").split(";")[0].strip()
        return resp.content, filename, ctype

    def upload_version(self, document_id: int, content: bytes, *, filename: str, content_type: str,
                       label: str) -> str:
        """``POST /api/documents/{id}/update_version/``: the task id of the consumption."""
        document_id = int(document_id)
        path = f"/api/documents/{document_id}/update_version/"
        resp = self._send("POST", path, form={"version_label": label},
                          files={"document": (filename, content, content_type)}, document_id=document_id,
                          idempotent=False)
        if resp.status_code != 200:
            raise self._refused(resp, "POST", path, document_id)
        task = self._parse(resp, f"POST {self._prefix}{path}", self._prefix + path, document_id)
        if not isinstance(task, str) or not task:
            raise self._shape_error("something other than a task id", "POST", path, document_id)
        return task

    def task(self, task_id: str) -> dict[str, Any] | None:
        """One task by its id (v10 pages it, v9 lists it); None when unknown."""
        data = self._call("GET", "/api/tasks/", params={"task_id": task_id})
        results = data.get("results") if isinstance(data, dict) else data
        items = self._list(results, "GET", "/api/tasks/")
        return items[0] if items else None

    def version_task(self, label: str) -> str | None:
        """The id of a recent consume task that stores a version labelled ``label`` (v10
        lists ``input_data.overrides.version_label``; v9 does not: None)."""
        data = self._call("GET", "/api/tasks/", params={"task_type": "consume_file", "page_size": 100})
        results = data.get("results") if isinstance(data, dict) else data
        for item in self._list(results, "GET", "/api/tasks/"):
            overrides = (item.get("input_data") or {}).get("overrides") if isinstance(item.get("input_data"), dict) else None
            if isinstance(overrides, dict) and overrides.get("version_label") == label and item.get("task_id"):
                return str(item["task_id"])
        return None

    def delete_version(self, root_id: int, version_id: int) -> None:
        """``DELETE /api/documents/{root}/versions/{id}/``: the version row goes to the trash."""
        root_id, version_id = int(root_id), int(version_id)
        path = f"/api/documents/{root_id}/versions/{version_id}/"
        resp = self._send("DELETE", path, document_id=root_id, idempotent=False)
        if resp.status_code != 200:
            raise self._refused(resp, "DELETE", path, root_id)

    def tagged(self, tag_ids: list[int]) -> list[int]:
        """Ids of the documents that carry any of ``tag_ids`` (e.g. the confirmation tag)."""
        if not tag_ids:
            return []
        params: dict[str, str | int] = {"tags__id__in": ",".join(str(int(t)) for t in tag_ids), "fields": "id",
                                        "page_size": 100, "ordering": "id"}
        return sorted({int(d["id"]) for d in self._pages("/api/documents/", params) if isinstance(d.get("id"), int)})

    def tagged_named(self, name: str) -> list[int]:
        """Ids of the documents carrying a tag of this name, in any case: one request,
        whether or not the tag exists (``tags__name__iexact``)."""
        params: dict[str, str | int] = {"tags__name__iexact": name, "fields": "id", "page_size": 100, "ordering": "id"}
        return sorted({int(d["id"]) for d in self._pages("/api/documents/", params) if isinstance(d.get("id"), int)})

    def delete_note(self, document_id: int, note_id: int) -> list[dict[str, Any]]:
        """``DELETE /api/documents/{id}/notes/?id=N`` (a note we wrote); the notes left."""
        document_id = int(document_id)
        path = f"/api/documents/{document_id}/notes/"
        data = self._call("DELETE", path, params={"id": int(note_id)}, document_id=document_id)
        return self._list(data, "DELETE", path, document_id)


def task_document_id(task: Mapping[str, Any]) -> int | None:
    """The document (or version row) a finished consume task made, v10 or v9."""
    result = task.get("result_data")
    if isinstance(result, Mapping) and isinstance(result.get("document_id"), int):
        return int(result["document_id"])
    related = task.get("related_document")
    return int(related) if isinstance(related, int) else None


def task_failed(task: Mapping[str, Any]) -> str | None:
    """The failure of a task in words, or None while it runs or after it succeeded."""
    status = str(task.get("status") or "").lower()
    if status in ("failure", "revoked"):
        return str(task.get("result") or task.get("result_data") or status)
    return None

