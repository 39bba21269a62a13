"""The endpoints of the fake Paperless that resolving uses, as a mixin of
:class:`tests.fake_paperless.FakePaperless` (``paperless-api/resolve.json``, seq 1000-1171):

* ``/metadata/`` and ``/download/`` (the latest version's file unless ``?version=``;
  a trashed document still downloads, its metadata is a 404 ``Not found.``),
* ``update_version/`` (multipart; a consume task that is done at once, its
  ``result_data.document_id`` the new version row) and ``/api/tasks/?task_id=``,
  ``versions/<id>/`` PATCH (label) and DELETE (the version row goes to the trash),
* the trash: DELETE takes a root's version rows with it, a restore brings them back,
  ``{"result": "OK", "doc_ids": [...]}``, 400 for ids not in the trash, trashed
  documents listed with ``notes: []`` and ``custom_fields: []``, and only by ownership
  (a user without ``delete_document`` sees, restores and empties its own),
* an ASN is unique across documents and the trash (the whole PATCH is refused).
"""

from __future__ import annotations

import copy
import hashlib
import sys
import uuid
from email.parser import BytesParser
from email.policy import HTTP
from types import ModuleType
from typing import Any
from urllib.parse import quote

RESOLVE_ROUTES: tuple[tuple[str, str, str], ...] = (
    (r"/api/documents/([^/]+)/metadata/", "metadata", "GET, HEAD, OPTIONS"),
    (r"/api/documents/([^/]+)/download/", "download", "GET, HEAD, OPTIONS"),
    (r"/api/documents/([^/]+)/update_version/", "update_version", "POST, OPTIONS"),
    (r"/api/documents/([^/]+)/versions/([^/]+)/", "version", "PATCH, DELETE, OPTIONS"),
    (r"/api/tasks/", "tasks", "GET, HEAD, OPTIONS"),
)
RESOLVE_PERMISSIONS: dict[str, dict[str, str]] = {
    "metadata": {"GET": "view_document"},
    "download": {"GET": "view_document"},
    "update_version": {"POST": "change_document"},
    "version": {"PATCH": "change_document", "DELETE": "delete_document"},
    "tasks": {"GET": "view_paperlesstask"},
    "trash": {},  # the trash checks ownership only (seq 1164-1169)
}
ASN_TAKEN = "document with this archive serial number already exists."
ASN_IN_TRASH = "Document with this Archive Serial Number already exists in the trash."
NOT_DELETED = "Some documents in the list have not yet been deleted."


class Multipart(dict[str, Any]):
    """A multipart/form-data body: field name -> str, or (filename, bytes, content type) for files."""


def parse_multipart(ctype: str, body: bytes) -> Multipart:
    message = BytesParser(policy=HTTP).parsebytes(b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + body)
    out = Multipart()
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        data = part.get_payload(decode=True) or b""
        filename = part.get_filename()
        if filename is not None:
            out[str(name)] = (filename, data, part.get_content_type())
        else:
            out[str(name)] = data.decode("utf-8")
    return out


class ResolveEndpoints:
    """Needs the state and helpers of FakePaperless (declared loosely: this is a test double)."""

    documents: dict[int, dict[str, Any]]
    trash: dict[int, dict[str, Any]]
    version_rows: dict[int, int]
    user: dict[str, Any]
    is_superuser: bool
    mode: str

    def _fake(self) -> ModuleType:
        # The module that defines FakePaperless, for its reply types (no circular import).
        return sys.modules[type(self).__module__]

    # -- state -------------------------------------------------------------------------------

    def _resolve_state(self) -> dict[str, Any]:
        state = self.__dict__.get("_resolve")
        if state is None:
            state = {"files": {}, "texts": {}, "tasks": {}, "trashed_versions": {}, "correspondents": {}}
            self.__dict__["_resolve"] = state
        return state

    def add_correspondent(self, correspondent_id: int, name: str) -> None:
        """A correspondent's name (the download's file name carries it, seq 1051)."""
        self._resolve_state()["correspondents"][correspondent_id] = name

    def delay_version_tasks(self) -> None:
        """From now on an uploaded version is stored only when its task is first polled by
        id (as a busy worker would): the window between the upload and the new version."""
        self._resolve_state()["delay"] = True

    def set_file(self, doc_id: int, data: bytes, *, filename: str | None = None, mime_type: str | None = None,
                 pdf_metadata: list[dict[str, Any]] | None = None) -> None:
        """The original file of a document (default: its content as a .txt file)."""
        record = self.documents[doc_id]
        name = filename or record["original_file_name"]
        self._resolve_state()["files"][doc_id] = (data, name, mime_type or record["mime_type"], pdf_metadata or [])
        if mime_type:
            record["mime_type"] = mime_type
        record["original_file_name"] = name

    def _file(self, doc_id: int, record: dict[str, Any]) -> tuple[bytes, str, str, list[dict[str, Any]]]:
        files = self._resolve_state()["files"]
        if doc_id in files:
            return files[doc_id]
        text = self._resolve_state()["texts"].get(doc_id, record["content"])
        return text.encode("utf-8"), record["original_file_name"], record["mime_type"], []

    def _latest_id(self, record: dict[str, Any]) -> int:
        return max((v["id"] for v in record["versions"] if not v["is_root"]), default=record["id"])

    def _version_of(self, record: dict[str, Any], params: dict[str, str]) -> int:
        raw = params.get("version")
        if raw is None:
            return self._latest_id(record)
        if not raw.isdigit() or int(raw) not in {v["id"] for v in record["versions"]}:
            raise self._fake()._Status(404, {"detail": "Not found."})
        return int(raw)

    # -- ASN ---------------------------------------------------------------------------------

    def check_asn(self, record: dict[str, Any], payload: Any) -> None:
        """The whole PATCH is refused when another document holds the ASN (seq 1040, 1100)."""
        if not isinstance(payload, dict) or payload.get("archive_serial_number") is None:
            return
        asn = payload["archive_serial_number"]
        for other in self.documents.values():
            if other["id"] != record["id"] and other["archive_serial_number"] == asn:
                raise self._fake()._BadRequest({"archive_serial_number": [ASN_TAKEN]})
        for other in self.trash.values():
            if other["id"] != record["id"] and other["archive_serial_number"] == asn:
                raise self._fake()._BadRequest({"archive_serial_number": [ASN_IN_TRASH]})

    # -- trash -------------------------------------------------------------------------------

    def move_to_trash(self, doc_id: int) -> None:
        """A document into the trash, with its version rows (seq 1117-1118)."""
        record = self.documents.pop(doc_id)
        record["deleted_at"] = self._tick()  # type: ignore[attr-defined]
        self.trash[doc_id] = record
        for vid, root in list(self.version_rows.items()):
            if root == doc_id:
                self._resolve_state()["trashed_versions"][vid] = (root, True)

    def _owned(self, record: dict[str, Any]) -> bool:
        return self.is_superuser or record["owner"] in (None, self.user["id"])

    def _api_trash(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                   version: int, full_path: str, query: str) -> tuple[int, Any]:
        fake = self._fake()
        rows = self._trash_rows()
        if method == "POST":
            if not isinstance(payload, dict) or "action" not in payload:
                errors: dict[str, Any] = {"action": ["This field is required."]}
                raise fake._BadRequest(errors)
            action = payload["action"]
            if action not in ("restore", "empty"):
                raise fake._BadRequest({"action": [f'"{action}" is not a valid choice.']})
            ids = payload.get("documents")
            if ids is None:
                ids = [r["id"] for r in rows if self._owned(r)]  # no documents: the whole trash
            by_id = {r["id"]: r for r in rows}
            if any(i not in by_id for i in ids):
                raise fake._BadRequest({"documents": [NOT_DELETED]})
            if any(not self._owned(by_id[i]) for i in ids):
                raise fake._Refused("Insufficient permissions")
            for doc_id in ids:
                if doc_id in self.trash:
                    record = self.trash.pop(doc_id)
                    if action == "restore":
                        record["deleted_at"] = None
                        self._bump(record)  # type: ignore[attr-defined]
                        self.documents[doc_id] = record
                    for vid, (root, _) in list(self._resolve_state()["trashed_versions"].items()):
                        if root == doc_id:  # version rows share the root's fate (seq 1119-1121)
                            del self._resolve_state()["trashed_versions"][vid]
                            if action == "empty":
                                self.version_rows.pop(vid, None)
                else:  # a version row deleted on its own
                    root, _ = self._resolve_state()["trashed_versions"].pop(doc_id)
                    if action == "restore":
                        self._restore_version(root, doc_id)
                    else:
                        self.version_rows.pop(doc_id, None)
            return 200, {"result": "OK", "doc_ids": list(ids)}
        visible = sorted((r for r in rows if self._owned(r)), key=lambda r: (r["created"], r["id"]), reverse=True)
        status, body = self._paginate(visible, params, version, full_path, query)  # type: ignore[attr-defined]
        body["results"] = [self._trash_view(r) for r in body["results"]]
        return status, body

    def _trash_rows(self) -> list[dict[str, Any]]:
        """Trashed documents and trashed version rows (as rows of their own)."""
        rows = list(self.trash.values())
        for vid, (root, _) in self._resolve_state()["trashed_versions"].items():
            record = self.trash.get(root) or self.documents.get(root)
            if record is None:
                continue
            row = {**record, "id": vid, "root_document": root, "content": self._resolve_state()["texts"].get(vid, ""),
                   "versions": [v for v in record["versions"] if v["is_root"]]}
            row["deleted_at"] = row["deleted_at"] or self._tick()  # type: ignore[attr-defined]
            rows.append(row)
        return rows

    def _trash_view(self, record: dict[str, Any]) -> dict[str, Any]:
        view = self._serialize(record, detail=False)  # type: ignore[attr-defined]
        view["notes"], view["custom_fields"] = [], []  # soft-deleted with the document (seq 1107)
        return view

    # -- metadata and files ------------------------------------------------------------------

    def _api_metadata(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                      version: int, full_path: str, query: str) -> tuple[int, Any]:
        record = self._doc_or_404(args[0], "Not found.")  # type: ignore[attr-defined]
        vid = self._version_of(record, params)
        data, name, mime, pdf = self._file(vid, record)
        suffix = "." + name.rsplit(".", 1)[-1] if "." in name else ""
        media = f"{record['id']:07d}" + (f"_v{self._version_number(record, vid)}" if vid != record["id"] else "")
        return 200, {
            "original_checksum": hashlib.sha256(data).hexdigest(), "original_size": len(data),
            "original_mime_type": mime, "media_filename": media + suffix, "has_archive_version": False,
            "original_metadata": copy.deepcopy(pdf), "archive_checksum": None, "archive_media_filename": None,
            "original_filename": name, "archive_size": None, "archive_metadata": None, "lang": "en",
        }

    @staticmethod
    def _version_number(record: dict[str, Any], vid: int) -> int:
        rows = sorted(v["id"] for v in record["versions"] if not v["is_root"])
        return rows.index(vid) + 1 if vid in rows else 0

    def _api_download(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                      version: int, full_path: str, query: str) -> tuple[int, Any]:
        fake = self._fake()
        raw = args[0]
        if raw.isdigit() and int(raw) in self.version_rows:  # a version row by its own id (seq 1072)
            root = self.documents.get(self.version_rows[int(raw)]) or self.trash[self.version_rows[int(raw)]]
            record, vid = root, int(raw)
        else:
            record = self.trash.get(int(raw)) if raw.isdigit() else None  # a trashed copy downloads (1094)
            if record is None:
                record = self._doc_or_404(raw)  # type: ignore[attr-defined]
            vid = self._version_of(record, params)
        data, name, mime, _ = self._file(vid, record)
        suffix = "." + name.rsplit(".", 1)[-1] if "." in name else ""
        # The root's own file names the correspondent; a version row has none (seq 1070-1072).
        who = self._resolve_state()["correspondents"].get(record["correspondent"]) if vid == record["id"] else None
        shown = f"{record['created']} {who + ' ' if who else ''}{record['title']}{suffix}"
        ascii_name = shown.encode("ascii", "ignore").decode()
        disposition = f'attachment; filename="{ascii_name}"; filename*=utf-8\'\'{quote(shown)}'
        return 200, fake._Binary(data, mime, [("Content-Length", str(len(data))),
                                              ("Content-Disposition", disposition)])

    # -- versions ----------------------------------------------------------------------------

    def _api_update_version(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                            version: int, full_path: str, query: str) -> tuple[int, Any]:
        fake = self._fake()
        record = self._doc_or_404(args[0])  # type: ignore[attr-defined]
        upload = payload.get("document") if isinstance(payload, Multipart) else None
        if not isinstance(upload, tuple):
            raise fake._BadRequest({"document": ["No file was submitted."]})
        filename, data, mime = upload
        if not data:
            raise fake._BadRequest({"document": ["The submitted file is empty."]})
        state = self._resolve_state()
        task_id = str(uuid.uuid4())
        now = self._fake()._iso(self._tick())  # type: ignore[attr-defined]
        label = payload.get("version_label")
        task = {
            "id": len(state["tasks"]) + 1, "task_id": task_id, "task_type": "consume_file",
            "task_type_display": "Consume File", "trigger_source": "web_ui", "trigger_source_display": "Web UI",
            "status": "started", "status_display": "Started", "date_created": now, "date_started": now,
            "date_done": None, "duration_seconds": None, "wait_time_seconds": 0.0,
            "input_data": {"filename": filename, "mime_type": mime,
                           "overrides": {"skip_asn_if_exists": False, "version_label": label,
                                         "actor_id": self.user["id"]}},
            "result_data": None, "related_document_ids": [], "acknowledged": False, "owner": None,
        }
        state["tasks"][task_id] = task
        state.setdefault("pending", {})[task_id] = (record["id"], filename, data, mime, label)
        if not state.get("delay"):
            self._finish_version_task(task_id)
        return 200, task_id

    def _finish_version_task(self, task_id: str) -> None:
        state = self._resolve_state()
        root_id, filename, data, mime, label = state["pending"].pop(task_id)
        record = self.documents[root_id]
        state["texts"].setdefault(record["id"], record["content"])
        vid = self._next_doc_id()  # type: ignore[attr-defined]
        text = data.decode("utf-8", errors="replace")
        self.version_rows[vid] = record["id"]
        state["texts"][vid] = text
        state["files"][vid] = (data, filename, mime, [])
        record["versions"].insert(0, {"id": vid, "added": self._tick(),  # type: ignore[attr-defined]
                                      "version_label": label,
                                      "checksum": hashlib.sha256(data).hexdigest(), "is_root": False})
        record["content"] = text  # the newest version's text is the document's content (seq 1056)
        self._bump(record)  # type: ignore[attr-defined]
        now = self._fake()._iso(self._tick())  # type: ignore[attr-defined]
        state["tasks"][task_id].update({
            "status": "success", "status_display": "Success", "date_done": now, "duration_seconds": 0.0,
            "result_data": {"document_id": vid}, "related_document_ids": [vid]})

    def _api_tasks(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                   version: int, full_path: str, query: str) -> tuple[int, Any]:
        state = self._resolve_state()
        tasks = state["tasks"]
        wanted = params.get("task_id")
        if wanted in state.get("pending", {}):  # a delayed version is stored when its task is polled
            self._finish_version_task(wanted)
        kind = params.get("task_type")
        items = [copy.deepcopy(t) for k, t in sorted(tasks.items(), key=lambda kv: -kv[1]["id"])
                 if (wanted is None or k == wanted) and (kind is None or t["task_type"] == kind)]
        if version < 10:  # v9: a plain list, upper-case status, related_document (tasks.json)
            return 200, [{**t, "status": t["status"].upper(), "related_document": (t["result_data"] or {}).get("document_id"),
                          "task_name": t["input_data"]["filename"]} for t in items]
        return self._paginate(items, params, version, full_path, query)  # type: ignore[attr-defined,no-any-return]

    def _api_version(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                     version: int, full_path: str, query: str) -> tuple[int, Any]:
        fake = self._fake()
        raw = args[0]
        root_id = self.version_rows.get(int(raw), int(raw)) if raw.isdigit() else -1
        record = self._doc_or_404(str(root_id))  # type: ignore[attr-defined]
        vid = int(args[1]) if args[1].isdigit() else -1
        row = next((v for v in record["versions"] if v["id"] == vid), None)
        if row is None:
            raise fake._Status(404, {"detail": "Not found."})
        if method == "PATCH":
            if not isinstance(payload, dict) or "version_label" not in payload:
                raise fake._BadRequest({"version_label": ["This field is required."]})
            row["version_label"] = payload["version_label"]
            self._bump(record)  # type: ignore[attr-defined]
            return 200, {**row, "added": fake._iso(row["added"])}
        if row["is_root"]:
            text = b"Cannot delete the root/original version. Delete the document instead."
            return 400, fake._Binary(text, "text/html; charset=utf-8", [])  # seq 1085
        record["versions"].remove(row)
        self._resolve_state()["trashed_versions"][vid] = (record["id"], False)
        latest = self._latest_id(record)
        record["content"] = self._resolve_state()["texts"].get(latest, record["content"])
        self._bump(record)  # type: ignore[attr-defined]
        return 200, {"result": "OK", "current_version_id": latest}

    def _restore_version(self, root_id: int, vid: int) -> None:
        record = self.documents[root_id]
        data = self._resolve_state()["files"].get(vid, (b"", "", "", []))[0]
        record["versions"].insert(0, {"id": vid, "added": self._tick(), "version_label": None,  # type: ignore[attr-defined]
                                      "checksum": hashlib.sha256(data).hexdigest(), "is_root": False})
        record["content"] = self._resolve_state()["texts"].get(vid, record["content"])
