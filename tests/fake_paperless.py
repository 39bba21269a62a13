"""A fake Paperless-NGX REST server (3.0.5, or 2.20) on real loopback HTTP.

Built from the recorded exchanges in ``paperless-api/*.json``: same status codes,
headers, body shapes and error bodies, v9/v10 differences, documentlink reverse
links, bulk edits that do not bump ``modified`` until the queued task runs.

In tests::

    with FakePaperless(mode="3.x") as fake:      # or the ``fake_paperless`` fixture
        fake.seed_sample()                        # the six recorded documents
        fake.inject("status", status=503, times=2, path_regex=r"/api/documents/")
        ... PaperlessClient(url=fake.url, token=fake.token) ...
        fake.requests_for("POST", r"/notes/")      # the request log

Standalone (benchmarks, subprocess tests; run from the repository root)::

    python -m tests.fake_paperless --port 8123 --docs corpus.jsonl --token T

prints the URL on stdout and serves until SIGINT/SIGTERM.
"""

from __future__ import annotations

import argparse
import base64
import copy
import hashlib
import json
import re
import signal
import socket
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

try:
    from tests.fake_paperless_resolve import (
        RESOLVE_PERMISSIONS,
        RESOLVE_ROUTES,
        ResolveEndpoints,
        parse_multipart,
    )
except ImportError:  # run from tests/ itself
    from fake_paperless_resolve import (  # type: ignore[no-redef]
        RESOLVE_PERMISSIONS,
        RESOLVE_ROUTES,
        ResolveEndpoints,
        parse_multipart,
    )

DEFAULT_TOKEN = "fake0paperless0token0000000000000000000"
FAULTS = ("close", "delay", "status", "malformed_json", "html_login", "invalid_utf8", "note_error", "call")
DOC_KEYS = (
    "id", "correspondent", "document_type", "storage_path", "title", "content", "tags", "created",
    "created_date", "modified", "added", "deleted_at", "archive_serial_number", "original_file_name",
    "archived_file_name", "duplicate_documents", "owner", "user_can_change", "is_shared_by_requester",
    "notes", "custom_fields", "page_count", "mime_type", "root_document", "versions",
)
V3_ONLY_KEYS = frozenset({"duplicate_documents", "root_document", "versions"})
BULK_METHODS = (
    "set_correspondent", "set_document_type", "set_storage_path", "add_tag", "remove_tag", "modify_tags",
    "modify_custom_fields", "delete", "reprocess", "set_permissions", "rotate", "merge", "split",
    "delete_pages", "edit_pdf", "remove_password",
)
DATA_TYPES = ("string", "url", "date", "boolean", "integer", "float", "monetary", "documentlink", "select", "longtext")
NOTE_ERROR = {"error": "Error saving note, check logs for more detail."}
DOCS_WITH_VALUE = "Some documents in value don't exist or were specified twice."
MAX_PAGE_SIZE = 100000
LOGIN_PAGE = (
    '<!doctype html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n  <title>Paperless-ngx sign in</title>\n'
    '</head>\n<body>\n  <form class="form-accounts" method="post" action="/accounts/login/">\n'
    '    <input type="hidden" name="csrfmiddlewaretoken" value="fake">\n'
    '    <input type="text" name="login" placeholder="Username">\n'
    '    <input type="password" name="password" placeholder="Password">\n'
    '    <button type="submit">Sign in</button>\n  </form>\n</body>\n</html>\n'
)
CSRF_PAGE = (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n  <meta http-equiv="content-type" content="text/html; charset=utf-8">\n'
    '  <meta name="robots" content="NONE,NOARCHIVE">\n  <title>403 Forbidden</title>\n</head>\n<body>\n'
    '<div id="summary">\n  <h1>Forbidden <span>(403)</span></h1>\n  <p>CSRF verification failed. Request aborted.</p>\n'
    "</div>\n</body>\n</html>\n"
)
SERVER_ERROR_PAGE = (
    '<!doctype html>\n<html lang="en">\n<head>\n  <title>Server Error ({status})</title>\n</head>\n<body>\n'
    "  <h1>Server Error ({status})</h1><p></p>\n</body>\n</html>\n"
)
# The limited users of permissions.json: viewer and owner2 (seq 303, 331), nouisettings (304, 350).
VIEWER_PERMISSIONS = ("view_document", "change_document", "view_note", "add_note", "view_tag", "view_customfield",
                      "view_uisettings")
NO_PERMISSION = "You do not have permission to perform this action."
# Which model permission each route and method needs (DRF checks it before anything
# else: noperm gets the JSON 403 even for a missing id, seq 428).  bulk_edit and
# profile check none (seq 313, 326).
ROUTE_PERMISSIONS: dict[str, dict[str, str]] = {
    "ui_settings": {"GET": "view_uisettings", "POST": "view_uisettings"},
    "documents": {"GET": "view_document"},
    "document": {"GET": "view_document", "PATCH": "change_document", "PUT": "change_document",
                 "DELETE": "delete_document"},
    "root": {"GET": "view_document"},
    "notes": {"GET": "view_note", "POST": "add_note", "DELETE": "delete_note"},
    "tags": {"GET": "view_tag", "POST": "add_tag"},
    "tag": {"GET": "view_tag", "PATCH": "change_tag", "PUT": "change_tag", "DELETE": "delete_tag"},
    "custom_fields": {"GET": "view_customfield", "POST": "add_customfield"},
    "custom_field": {"GET": "view_customfield", "PATCH": "change_customfield", "PUT": "change_customfield",
                     "DELETE": "delete_customfield"},
    "trash": {"GET": "delete_document", "POST": "delete_document"},
    "saved_views": {"GET": "view_savedview", "POST": "add_savedview"},
    "thumb": {"GET": "view_document"},
}
ROUTE_PERMISSIONS.update(RESOLVE_PERMISSIONS)
# The first-page pictures /thumb/ serves unless a test sets ``fake.thumbnails[doc_id]``: a
# document with text (20 words or more) takes one of these real WebP files in turn (text pages,
# drawn once in Chromium); one with less, which may be compared by its picture, a page of its own
# (tests/picture_support.py, drawn from its id), so that none pairs by picture by chance.
THUMBNAILS = tuple((Path(__file__).parent / "data" / name).read_bytes()
                   for name in ("thumb-page.webp", "thumb-rescan.webp"))
# DRF renders JSON (and the browsable API): any other Accept is a 406 (review.json seq 501).
RENDERABLE = ("application/json", "application/*", "*/*", "text/html", "*")
# filter_rules rule types Paperless 3.0.5 knows (0 = title contains ... 6 = has tag ...).
RULE_TYPES = range(0, 48)
MODELS = (
    "document", "tag", "customfield", "customfieldinstance", "note", "correspondent", "documenttype",
    "storagepath", "savedview", "paperlesstask", "uisettings", "user", "group", "sharelink", "workflow",
)


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_dt(value: Any) -> datetime | None:
    """Django's DateTimeField input: ISO with Z or offset, naive (UTC here), or a date."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    try:
        parsed = datetime.fromisoformat(str(value).strip())
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _as_set(values: list[int] | None) -> set[int] | None:
    return None if values is None else set(values)


def _slug(name: str) -> str:
    return re.sub(r"[^\w]+", "-", name.lower()).strip("-_")


def _text_color(color: str) -> str:
    r, g, b = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return "#000000" if (0.299 * r * r + 0.587 * g * g + 0.114 * b * b) ** 0.5 > 0.53 else "#ffffff"


@dataclass
class Fault:
    kind: str
    path_regex: str
    method: str | None
    times: int | None
    kw: dict[str, Any]
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        if self.method is not None and self.method.upper() != method:
            return False
        return re.search(self.path_regex, path) is not None


@dataclass
class LoggedRequest:
    """One request as the server saw it (the token replaced by ``<redacted>``)."""

    method: str
    path: str
    query: str
    params: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes
    json: Any
    status: int | None = None
    fault: str | None = None
    at: datetime = field(default_factory=_now)

    def param(self, name: str) -> str | None:
        values = self.params.get(name)
        return values[-1] if values else None


class _Reply:
    __slots__ = ("status", "headers", "body")

    def __init__(self, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body


class _BadRequest(Exception):
    def __init__(self, body: Any) -> None:
        super().__init__(str(body))
        self.body = body


class FakePaperless(ResolveEndpoints):
    """An in-memory Paperless; ``start()`` serves it on 127.0.0.1 in a background thread."""

    def __init__(
        self,
        *,
        mode: str = "3.x",
        token: str = DEFAULT_TOKEN,
        public_url: str = "http://paperless.local:8000",
        prefix: str = "",
        host: str = "127.0.0.1",
        port: int = 0,
        user_id: int = 2,
        username: str = "admin",
        is_superuser: bool = True,
        permissions: Iterable[str] | None = None,
        basic_password: str | None = None,
        bulk_edit_bumps_modified: bool = False,
        id_lookups: Iterable[str] = ("in", "exact"),
    ) -> None:
        if mode not in ("3.x", "2.20"):
            raise ValueError("mode must be '3.x' or '2.20'")
        self.mode = mode
        self.token = token
        self.public_url = public_url.rstrip("/")
        self.prefix = prefix.rstrip("/")
        self.host = host
        self.user = {"id": user_id, "username": username, "first_name": "", "last_name": ""}
        self.is_superuser = is_superuser
        self.permissions = (
            list(permissions) if permissions is not None
            else [f"{a}_{m}" for m in MODELS for a in ("add", "change", "delete", "view")]
        )
        self.basic_password = basic_password
        self.bulk_edit_bumps_modified = bulk_edit_bumps_modified
        # Paperless 3.0.5 filters documents by ``id`` and ``id__in`` only (``ID_KWARGS``);
        # ``id__gt`` is ignored like any unknown parameter.  A test may add "gt" to stand
        # for a server that honours it.
        self.id_lookups = frozenset(id_lookups)
        self.server_version = "3.0.5" if mode == "3.x" else "2.20.15"
        self.api_versions = ("9", "10") if mode == "3.x" else tuple(str(i) for i in range(1, 10))
        self.default_version = "10" if mode == "3.x" else "1"
        self.lock = threading.RLock()
        self.documents: dict[int, dict[str, Any]] = {}
        self.version_rows: dict[int, int] = {}  # version row id -> root document id
        self.trash: dict[int, dict[str, Any]] = {}
        self.tags: dict[int, dict[str, Any]] = {}
        self.custom_fields: dict[int, dict[str, Any]] = {}
        self.saved_views: dict[int, dict[str, Any]] = {}
        self.stored_ui_settings: dict[str, Any] = {}  # what POST /api/ui_settings/ saved for the user
        self.thumbnails: dict[int, bytes] = {}
        self.pending_tasks: set[int] = set()  # documents a queued bulk_update task will re-save
        # Object permissions of the token's user (a limited user, see ``limit_user``).
        self.shared_view: set[int] = set()
        self.shared_change: set[int] = set()
        self.requests: list[LoggedRequest] = []
        self.faults: list[Fault] = []
        self.errors: list[str] = []  # tracebacks of bugs in this fake (tests may assert it is empty)
        self._last_ts = _now()
        self._next_note = 1
        self._port = port
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._conns: set[socket.socket] = set()

    # -- lifecycle ----------------------------------------------------------------------

    def start(self) -> FakePaperless:
        """Serve (again, on the same port after ``stop()``)."""
        if self._httpd is not None:
            return self
        self._stopping.clear()
        httpd = ThreadingHTTPServer((self.host, self._port), _Handler)
        httpd.daemon_threads = True
        httpd.fake = self  # type: ignore[attr-defined]
        self._port = httpd.server_address[1]
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving: new connections are refused and open keep-alive connections are cut."""
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        self._stopping.set()
        httpd.shutdown()
        httpd.server_close()
        with self.lock:
            conns, self._conns = list(self._conns), set()
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self._thread is not None:
            self._thread.join(timeout=5)

    close = stop

    def __enter__(self) -> FakePaperless:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        return self._port

    @property
    def url(self) -> str:
        """Base URL for the client (with the path prefix, if any)."""
        return f"http://{self.host}:{self._port}{self.prefix}"

    @property
    def running(self) -> bool:
        return self._httpd is not None

    # -- faults and the request log ----------------------------------------------------------

    def inject(self, fault: str, *, path_regex: str = ".*", method: str | None = None, times: int | None = 1,
               **kw: Any) -> Fault:
        """Make the next ``times`` matching requests (None: all) fail.

        ``path_regex`` is searched in the URL path (without the query).  Faults and keywords:
        ``close`` (drop the connection unanswered), ``delay`` (``seconds``, then answer
        normally), ``status`` (``status``, optional ``json`` or ``text``, ``headers``,
        ``content_type``, ``retry_after``), ``malformed_json``, ``html_login`` (200 login
        page), ``invalid_utf8`` (the real answer with invalid bytes inside a string),
        ``note_error`` (200 ``{"error": ...}``), ``call`` (run ``fn(request)`` first, with the
        logged request: e.g. trash a document while a list is being read; then answer normally).
        """
        if fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}; choose from {FAULTS}")
        if fault == "status" and "status" not in kw:
            raise ValueError("the status fault needs status=...")
        new = Fault(fault, path_regex, method, times, dict(kw))
        with self.lock:
            self.faults.append(new)
        return new

    def clear_faults(self) -> None:
        with self.lock:
            self.faults.clear()

    def clear_log(self) -> None:
        with self.lock:
            self.requests.clear()

    def requests_for(self, method: str | None = None, path_regex: str | None = None) -> list[LoggedRequest]:
        with self.lock:
            return [
                r for r in self.requests
                if (method is None or r.method == method.upper())
                and (path_regex is None or re.search(path_regex, r.path))
            ]

    # -- seeding ----------------------------------------------------------------------------

    def _tick(self) -> datetime:
        """A timestamp strictly after the previous one (so ``modified`` always moves)."""
        with self.lock:
            now = _now()
            self._last_ts = now if now > self._last_ts else self._last_ts + timedelta(microseconds=1)
            return self._last_ts

    def _bump(self, record: dict[str, Any]) -> None:
        """Set ``modified`` to now, and always later than before."""
        record["modified"] = max(self._tick(), record["modified"] + timedelta(microseconds=1))

    def _next_doc_id(self) -> int:
        return max([0, *self.documents, *self.version_rows, *self.trash]) + 1

    def add_document(self, doc: Mapping[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
        """Add a document from a dict (JSONL keys) and/or keywords; returns its detail view."""
        with self.lock:
            return self._serialize(self._insert_document({**(doc or {}), **fields}), detail=True)

    def _insert_document(self, data: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            doc_id = int(data["id"]) if data.get("id") is not None else self._next_doc_id()
            if doc_id in self.documents or doc_id in self.version_rows or doc_id in self.trash:
                raise ValueError(f"document {doc_id} exists already")
            added = _parse_dt(data.get("added")) or self._tick()
            modified = _parse_dt(data.get("modified")) or added + timedelta(milliseconds=30)
            content = str(data.get("content", ""))
            title = str(data.get("title") or f"document-{doc_id}")
            created = str(data.get("created") or data.get("created_date") or added.date().isoformat())[:10]
            checksum = str(data.get("checksum") or hashlib.sha256(content.encode()).hexdigest())
            notes = []
            for note in data.get("notes") or []:
                text = note.get("note", "") if isinstance(note, Mapping) else str(note)
                notes.append(self._make_note(text))
            custom = []
            for inst in data.get("custom_fields") or []:
                custom.append({"value": copy.deepcopy(inst.get("value")), "field": int(inst["field"])})
            record: dict[str, Any] = {
                "id": doc_id, "correspondent": data.get("correspondent"), "document_type": data.get("document_type"),
                "storage_path": data.get("storage_path"), "title": title, "content": content,
                "tags": [int(t) for t in data.get("tags") or []], "created": created, "modified": modified,
                "added": added, "deleted_at": None, "archive_serial_number": data.get("archive_serial_number"),
                "original_file_name": data.get("original_file_name") or f"{title}.txt",
                "archived_file_name": data.get("archived_file_name"), "owner": data.get("owner", self.user["id"]),
                "notes": notes, "custom_fields": custom, "page_count": data.get("page_count"),
                "mime_type": data.get("mime_type", "text/plain"), "root_document": None,
                "versions": [{"id": doc_id, "added": added, "version_label": None, "checksum": checksum,
                              "is_root": True}],
                "_checksum": checksum,
            }
            self.documents[doc_id] = record
            return record

    def add_documents(self, docs: Iterable[Mapping[str, Any]]) -> list[int]:
        # Without the detail view, whose duplicate_documents scans every document:
        # seeding 100k documents (benchmarks) was quadratic.
        return [self._insert_document(dict(d))["id"] for d in docs]

    def load_jsonl(self, path: str | Path) -> list[int]:
        """Seed from a JSONL corpus (one object a line with at least ``id`` and ``content``)."""
        with open(path, encoding="utf-8") as fh:
            return self.add_documents(json.loads(line) for line in fh if line.strip())

    def seed_sample(self) -> list[int]:
        """The six documents of the recording (ids 1-6; doc 6 is shortened)."""
        return self.add_documents(copy.deepcopy(SAMPLE_DOCUMENTS))

    def add_version(self, root_id: int, content: str | None = None, *, version_label: str | None = None,
                    version_id: int | None = None) -> int:
        """A new version of ``root_id`` (3.x): its id 404s on the document GET but resolves via /root/."""
        if self.mode != "3.x":
            raise ValueError("document versions exist only in Paperless 3.x")
        with self.lock:
            root = self.documents[root_id]
            vid = version_id if version_id is not None else self._next_doc_id()
            if vid in self.documents or vid in self.version_rows or vid in self.trash:
                raise ValueError(f"id {vid} exists already")
            text = root["content"] if content is None else content
            checksum = hashlib.sha256(f"{vid}:{text}".encode()).hexdigest()
            self.version_rows[vid] = root_id
            root["versions"].append({"id": vid, "added": self._tick(), "version_label": version_label,
                                     "checksum": checksum, "is_root": False})
            root["content"] = text  # a root's content is its latest version's text
            self._bump(root)
            return vid

    def trash_document(self, doc_id: int) -> None:
        """Move a document to the trash (as ``DELETE /api/documents/{id}/``)."""
        with self.lock:
            self.move_to_trash(doc_id)

    def add_tag(self, name: str, *, color: str = "#a6cee3", owner: int | None = None, matching_algorithm: int = 0,
                tag_id: int | None = None) -> dict[str, Any]:
        with self.lock:
            tid = tag_id if tag_id is not None else max([0, *self.tags]) + 1
            self.tags[tid] = {
                "id": tid, "slug": _slug(name), "name": name, "color": color, "text_color": _text_color(color),
                "match": "", "matching_algorithm": matching_algorithm, "is_insensitive": True,
                "is_inbox_tag": False, "owner": owner, "user_can_change": True, "parent": None, "children": [],
            }
            return self._tag_view(self.tags[tid])

    def add_custom_field(self, name: str, data_type: str = "documentlink", *, field_id: int | None = None) -> dict[str, Any]:
        with self.lock:
            fid = field_id if field_id is not None else max([0, *self.custom_fields]) + 1
            self.custom_fields[fid] = {"id": fid, "name": name, "data_type": data_type, "extra_data": None}
            return self._field_view(self.custom_fields[fid])

    def add_saved_view(self, name: str, *, filter_rules: list[dict[str, Any]] | None = None,
                       sort_field: str | None = "created", sort_reverse: bool = True,
                       owner: int | None = None) -> dict[str, Any]:
        """A saved view as a user would have made it in the web UI."""
        with self.lock:
            vid = max([0, *self.saved_views]) + 1
            self.saved_views[vid] = {
                "id": vid, "name": name, "sort_field": sort_field, "sort_reverse": sort_reverse,
                "filter_rules": copy.deepcopy(filter_rules or []), "page_size": None, "display_mode": None,
                "display_fields": None, "owner": self.user["id"] if owner is None else owner, "user_can_change": True,
            }
            return copy.deepcopy(self.saved_views[vid])

    def document(self, doc_id: int) -> dict[str, Any]:
        """The detail view of a live or trashed document (for assertions)."""
        with self.lock:
            record = self.documents.get(doc_id) or self.trash[doc_id]
            return self._serialize(record, detail=True)

    def limit_user(self, *, user_id: int = 3, username: str = "viewer",
                   permissions: Iterable[str] = VIEWER_PERMISSIONS, owned: Iterable[int] = (),
                   view: Iterable[int] = (), change: Iterable[int] = ()) -> None:
        """Make the token's user a limited one (not a superuser), as in permissions.json.

        It has the model ``permissions`` (codenames), owns the documents ``owned`` and
        has the object permission view (``view``) or change (``change``) on others.  The
        documents seeded before stay with their owner (the admin, id 2), so the user
        sees only what it owns, what is shared with it and what has no owner.
        """
        with self.lock:
            self.user = {"id": user_id, "username": username, "first_name": "", "last_name": ""}
            self.is_superuser = False
            self.permissions = list(dict.fromkeys(permissions))
            for doc_id in owned:
                self.documents[doc_id]["owner"] = user_id
            self.shared_view = {int(d) for d in view}
            self.shared_change = {int(d) for d in change}

    def _has(self, permission: str) -> bool:
        return self.is_superuser or permission in self.permissions

    def _can_see(self, record: dict[str, Any]) -> bool:
        return (self.is_superuser or record["owner"] in (None, self.user["id"])
                or record["id"] in self.shared_view or record["id"] in self.shared_change)

    def _can_change(self, record: dict[str, Any]) -> bool:
        return self.is_superuser or record["owner"] in (None, self.user["id"]) or record["id"] in self.shared_change

    def _visible(self, records: Iterable[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        return [d for d in (self.documents.values() if records is None else records) if self._can_see(d)]

    def _id_filtered(self, params: dict[str, str]) -> list[dict[str, Any]] | None:
        """The documents that the ``id__in`` and ``id`` filters leave, in the order of
        ``documents`` (None: neither is given, or one is malformed and _filter_documents
        says so).  The same list as filtering every document, without testing each of a
        100k-document benchmark fake for every id__in request (the hook's candidate texts)."""
        wanted: set[int] | None = None
        for name in ("id__in", "id"):
            raw = params.get(name, "")
            if not raw:
                continue
            try:
                ids = {int(x) for x in raw.split(",") if x.strip()}
            except ValueError:
                return None
            wanted = ids if wanted is None else wanted & ids
        if wanted is None:
            return None
        return [d for d in self.documents.values() if d["id"] in wanted]

    def run_tasks(self) -> list[int]:
        """Run the queued bulk_update tasks: bumps ``modified`` of the bulk-edited documents."""
        with self.lock:
            done = sorted(self.pending_tasks)
            for doc_id in done:
                if doc_id in self.documents:
                    self._bump(self.documents[doc_id])
            self.pending_tasks.clear()
            return done

    # -- views ----------------------------------------------------------------------------

    def _make_note(self, text: str) -> dict[str, Any]:
        note = {"id": self._next_note, "note": text, "created": _iso(self._tick()), "user": dict(self.user)}
        self._next_note += 1
        return note

    def _serialize(self, record: dict[str, Any], *, detail: bool, fields: set[str] | None = None,
                   patch: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in DOC_KEYS:
            if self.mode != "3.x" and key in V3_ONLY_KEYS:
                continue
            if fields and key not in fields:
                continue
            if key == "duplicate_documents":
                out[key] = self._duplicates(record) if detail else []
            elif key == "created_date":
                out[key] = record["created"]
            elif key in ("modified", "added", "deleted_at"):
                out[key] = _iso(record[key])
            elif key == "user_can_change":
                if patch:
                    out["permissions"] = {"view": {"users": [], "groups": []}, "change": {"users": [], "groups": []}}
                else:
                    out[key] = self._can_change(record)
            elif key == "is_shared_by_requester":
                if not patch:
                    out[key] = False
            elif key == "versions":
                out[key] = [{**v, "added": _iso(v["added"])} for v in record["versions"]]
            elif key == "tags":  # in tag-name order, as Paperless lists them (resolve.json seq 1048)
                out[key] = sorted(record["tags"], key=lambda t: (self.tags.get(t, {}).get("name", ""), t))
            else:
                out[key] = copy.deepcopy(record[key])
        return out

    def _duplicates(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        found = []
        for other in sorted([*self.documents.values(), *self.trash.values()], key=lambda d: d["id"]):
            if other["id"] != record["id"] and other["_checksum"] == record["_checksum"]:
                found.append({"id": other["id"], "title": other["title"], "deleted_at": _iso(other["deleted_at"])})
        return found

    def _tag_view(self, tag: dict[str, Any], *, count: bool = True) -> dict[str, Any]:
        view = {k: copy.deepcopy(v) for k, v in tag.items() if k not in ("owner", "user_can_change", "parent",
                                                                          "children")}
        if count:
            view["document_count"] = sum(1 for d in self._visible() if tag["id"] in d["tags"])
        for key in ("owner", "user_can_change", "parent", "children"):
            view[key] = copy.deepcopy(tag[key])
        return view

    def _field_view(self, cf: dict[str, Any], *, count: bool = True) -> dict[str, Any]:
        view = dict(cf)
        if count:
            view["document_count"] = sum(
                1 for d in self._visible() if any(i["field"] == cf["id"] for i in d["custom_fields"])
            )
        return view

    # -- request handling (called by the HTTP handler with the lock held) ------------------------

    def _headers(self, allow: str | None, *, api: bool = True, ctype: str | None = "application/json") -> list[tuple[str, str]]:
        headers = []
        if ctype:
            headers.append(("Content-Type", ctype))
        if allow:
            headers.append(("Allow", allow))
        if api:
            headers.append(("X-Api-Version", self.api_versions[-1]))
            headers.append(("X-Version", self.server_version))
        return headers

    def _json(self, status: int, body: Any, allow: str | None, *, api: bool = True,
              extra: list[tuple[str, str]] | None = None) -> _Reply:
        data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return _Reply(status, self._headers(allow, api=api) + (extra or []), data)

    def _login_redirect(self, full_path: str, query: str) -> _Reply:
        target = full_path + (f"?{query}" if query else "")
        location = f"{self.prefix}/accounts/login/?" + urlencode({"next": target}, safe="/")
        return _Reply(302, [("Content-Type", "text/html; charset=utf-8"), ("Location", location)], b"")

    def handle(self, method: str, full_path: str, query: str, headers: Mapping[str, str], body: bytes) -> _Reply:
        path = full_path
        if self.prefix:
            if not (full_path == self.prefix or full_path.startswith(self.prefix + "/")):
                return self._unknown(method, full_path, query)
            path = full_path[len(self.prefix):] or "/"
        if path == "/api/" and method in ("GET", "HEAD"):
            return _Reply(302, [("Content-Type", "text/html; charset=utf-8"), ("Location", "schema/view/")], b"")
        route = self._route(path)
        if route is None:
            return self._unknown(method, full_path, query)
        name, allow, args = route
        accept = headers.get("accept", "")
        if accept.strip() and not any(m.split(";")[0].strip().lower() in RENDERABLE for m in accept.split(",")):
            return self._json(406, {"detail": "Could not satisfy the request Accept header."}, allow, api=False)
        version = self._version(accept)
        if version is None:
            return self._json(406, {"detail": 'Invalid version in "Accept" header.'}, allow, api=False)
        denied = self._authenticate(headers.get("authorization", ""), allow)
        if denied is not None:
            return denied
        if method == "OPTIONS":
            return self._json(200, {"name": name, "renders": ["application/json", "text/html"]}, allow)
        if method not in allow.split(", "):
            return self._json(405, {"detail": f'Method "{method}" not allowed.'}, allow)
        needed = ROUTE_PERMISSIONS.get(name, {}).get("GET" if method == "HEAD" else method)
        if needed is not None and not self._has(needed):
            return self._json(403, {"detail": NO_PERMISSION}, allow)
        params = {k: v[-1] for k, v in parse_qs(query, keep_blank_values=True).items()}
        try:
            payload = self._parse_body(method, headers.get("content-type", ""), body)
            status, result = getattr(self, f"_api_{name}")(
                "GET" if method == "HEAD" else method, args, params, payload, int(version), full_path, query
            )
        except _BadRequest as exc:
            status, result = 400, exc.body
        except _Status as exc:
            status, result = exc.status, exc.body
        except _Refused as exc:  # Paperless's object-permission refusal: bare text sent as text/html
            return _Reply(403, self._headers(allow, ctype="text/html; charset=utf-8"), exc.text.encode())
        if status == 204:
            return _Reply(204, self._headers(allow, ctype=None), b"")
        if isinstance(result, _Binary):
            return _Reply(status, self._headers(allow, ctype=result.ctype) + result.headers, result.body)
        return self._json(status, result, allow)

    def _unknown(self, method: str, full_path: str, query: str) -> _Reply:
        if method in ("GET", "HEAD"):
            return self._login_redirect(full_path, query)
        return _Reply(403, [("Content-Type", "text/html; charset=utf-8")], CSRF_PAGE.encode())

    def _route(self, path: str) -> tuple[str, str, tuple[str, ...]] | None:
        for pattern, name, allow in ROUTES:
            if name == "root" and self.mode != "3.x":
                continue
            m = re.fullmatch(pattern, path)
            if m:
                return name, allow, m.groups()
        return None

    def _version(self, accept: str) -> str | None:
        for media in accept.split(","):
            for param in media.split(";")[1:]:
                key, _, value = param.strip().partition("=")
                if key.strip() == "version":
                    value = value.strip().strip('"')
                    return value if value in self.api_versions else None
        return self.default_version

    def _authenticate(self, auth: str, allow: str) -> _Reply | None:
        scheme, _, cred = auth.strip().partition(" ")
        token_header = [("WWW-Authenticate", "Token")]
        if scheme.lower() == "token":
            cred = cred.strip()
            if not cred:
                detail = "Invalid token header. No credentials provided."
            elif " " in cred:
                detail = "Invalid token header. Token string should not contain spaces."
            elif cred != self.token:
                detail = "Invalid token."
            else:
                return None
        elif scheme.lower() == "basic":
            try:
                user, _, password = base64.b64decode(cred.strip()).decode().partition(":")
            except ValueError:
                user, password = "", ""
            if self.basic_password is not None and user == self.user["username"] and password == self.basic_password:
                return None
            return self._json(401, {"detail": "Invalid username/password."}, allow, api=False,
                              extra=[("WWW-Authenticate", 'Basic realm="api"')])
        else:
            detail = "Authentication credentials were not provided."
        return self._json(401, {"detail": detail}, allow, api=False, extra=token_header)

    @staticmethod
    def _parse_body(method: str, ctype: str, body: bytes) -> Any:
        if method in ("GET", "HEAD", "DELETE", "OPTIONS") or not body:
            return {}
        kind = ctype.split(";")[0].strip().lower()
        if kind == "application/json":
            try:
                return json.loads(body.decode("utf-8"))
            except (ValueError, UnicodeDecodeError) as exc:
                raise _BadRequest({"detail": f"JSON parse error - {exc}"}) from None
        if kind == "multipart/form-data":
            return parse_multipart(ctype, body)
        if kind == "application/x-www-form-urlencoded":
            return _Form((k, v[-1]) for k, v in parse_qs(body.decode("utf-8"), keep_blank_values=True).items())
        raise _Status(415, {"detail": f'Unsupported media type "{kind}" in request.'})

    def _paginate(self, items: list[dict[str, Any]], params: dict[str, str], version: int, full_path: str,
                  query: str, extra: dict[str, Any] | None = None) -> tuple[int, Any]:
        try:
            size = int(params.get("page_size", ""))
            size = min(size, MAX_PAGE_SIZE) if size > 0 else 25
        except ValueError:
            size = 25
        pages = max(1, -(-len(items) // size))
        raw = params.get("page", "1")
        page = pages if raw == "last" else int(raw) if raw.isdigit() else 0
        if not 1 <= page <= pages:
            raise _Status(404, {"detail": "Invalid page."})
        pairs = parse_qs(query, keep_blank_values=True)

        def link(n: int) -> str:
            q = {k: v for k, v in pairs.items() if k != "page"}
            if n > 1:
                q["page"] = [str(n)]
            encoded = urlencode(sorted(q.items()), doseq=True)
            return f"{self.public_url}{full_path}" + (f"?{encoded}" if encoded else "")

        body: dict[str, Any] = {
            "count": len(items),
            "next": link(page + 1) if page < pages else None,
            "previous": link(page - 1) if page > 1 else None,
        }
        if version < 10:
            body["all"] = [item["id"] for item in items]
        body["results"] = items[(page - 1) * size : page * size]
        body.update(extra or {})
        return 200, body

    # -- endpoints: (method, path args, query params, body, version, full path, query) -> (status, body)

    def _api_ui_settings(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                         version: int, full_path: str, query: str) -> tuple[int, Any]:
        settings: dict[str, Any] = {
            "update_checking": {"backend_setting": False}, "trash_delay": 30, "version": self.server_version,
            "app_title": None, "app_logo": None, "auditlog_enabled": True, "email_enabled": False,
        }
        if self.mode == "3.x":
            settings["ai_enabled"] = False
        if method == "POST":
            # Paperless stores the posted settings whole (update_or_create), replacing the old ones.
            if not isinstance(payload, dict) or not isinstance(payload.get("settings"), dict):
                raise _BadRequest({"settings": ["This field is required."]})
            self.stored_ui_settings = copy.deepcopy(payload["settings"])
            return 200, {"success": True}
        # What the user saved, with the server's own values laid over it (as Paperless does).
        stored = copy.deepcopy(self.stored_ui_settings)
        checking = stored.get("update_checking") if isinstance(stored.get("update_checking"), dict) else {}
        settings = {**stored, **settings, "update_checking": {**checking, **settings["update_checking"]}}
        user = {"id": self.user["id"], "username": self.user["username"], "is_staff": self.is_superuser,
                "is_superuser": self.is_superuser, "groups": []}
        return 200, {"user": user, "settings": settings, "permissions": list(self.permissions)}

    def _api_profile(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                     version: int, full_path: str, query: str) -> tuple[int, Any]:
        """Any valid token reads it, whatever its permissions (seq 313)."""
        return 200, {"email": f"{self.user['username']}@example.com", "password": "*" * 89,
                     "first_name": self.user["first_name"], "last_name": self.user["last_name"],
                     "auth_token": self.token, "social_accounts": [], "has_usable_password": True,
                     "is_mfa_enabled": False}

    def _filter_documents(self, docs: list[dict[str, Any]], params: dict[str, str]) -> list[dict[str, Any]]:
        errors: dict[str, list[str]] = {}

        def ints(name: str) -> list[int] | None:
            raw = params.get(name, "")
            if not raw:
                return None
            try:
                return [int(x) for x in raw.split(",") if x.strip()]
            except ValueError:
                errors[name] = ["Enter a number."]
                return None

        def when(name: str) -> datetime | None:
            raw = params.get(name, "")
            if not raw:
                return None
            parsed = _parse_dt(raw)
            if parsed is None:
                errors[name] = ["Enter a valid date/time."]
            return parsed

        id_in, id_eq = _as_set(ints("id__in")), _as_set(ints("id"))
        id_gt = ints("id__gt") if "gt" in self.id_lookups else None
        tags_all, tags_in, tags_none = ints("tags__id__all"), ints("tags__id__in"), ints("tags__id__none")
        cf_all, cf_in = ints("custom_fields__id__all"), ints("custom_fields__id__in")
        times = {k: when(k) for k in ("modified__gt", "modified__lt", "added__gt", "added__lt")}
        if errors:
            raise _BadRequest(errors)
        out = []
        tag_name = params.get("tags__name__iexact", "").lower()
        for d in docs:
            fields_of = {i["field"] for i in d["custom_fields"]} if cf_all is not None or cf_in is not None else set()
            ok = (
                (id_in is None or d["id"] in id_in)
                and (id_gt is None or all(d["id"] > bound for bound in id_gt))
                and (id_eq is None or d["id"] in id_eq)
                and (tags_all is None or all(t in d["tags"] for t in tags_all))
                and (tags_in is None or any(t in d["tags"] for t in tags_in))
                and (tags_none is None or not any(t in d["tags"] for t in tags_none))
                and (cf_all is None or all(f in fields_of for f in cf_all))
                and (cf_in is None or any(f in fields_of for f in cf_in))
                and (not tag_name or any(self.tags.get(t, {}).get("name", "").lower() == tag_name for t in d["tags"]))
                # Only when asked: lower-casing every content on every page request made
                # a 100k-document listing (benchmarks) spend minutes in the fake.
                and (not params.get("title__icontains") or params["title__icontains"].lower() in d["title"].lower())
                and (not params.get("content__icontains")
                     or params["content__icontains"].lower() in d["content"].lower())
            )
            for key, bound in times.items():
                if ok and bound is not None:
                    value = d[key.split("__")[0]]
                    ok = value > bound if key.endswith("gt") else value < bound
            if ok:
                out.append(d)
        return out

    @staticmethod
    def _order(docs: list[dict[str, Any]], ordering: str) -> list[dict[str, Any]]:
        allowed = {"id", "created", "modified", "added", "title", "archive_serial_number"}
        keys = [k.strip() for k in ordering.split(",") if k.strip().lstrip("-") in allowed]
        if not keys:
            return sorted(docs, key=lambda d: (d["created"], d["id"]), reverse=True)
        for key in reversed(keys):
            name = key.lstrip("-")
            docs = sorted(docs, key=lambda d: (d[name] is None, 0 if d[name] is None else d[name]),
                          reverse=key.startswith("-"))
        return docs

    def _api_documents(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                       version: int, full_path: str, query: str) -> tuple[int, Any]:
        docs = self._order(self._filter_documents(self._visible(self._id_filtered(params)), params),
                           params.get("ordering", ""))
        fields = {f for f in params.get("fields", "").split(",") if f} or None
        status, body = self._paginate(docs, params, version, full_path, query)
        body["results"] = [self._serialize(d, detail=False, fields=fields) for d in body["results"]]
        return status, body

    def _doc_or_404(self, raw: str, detail: str = "No Document matches the given query.",
                    hidden: str | None = None) -> dict[str, Any]:
        """The document, or the 404 a missing one gets.  One the user cannot see gets the
        same 404 (detail views), or the text/html 403 ``hidden`` (/root/, notes)."""
        if not raw.isdigit():
            raise _Status(404, {"detail": "Not found."})
        record = self.documents.get(int(raw))
        if record is None:
            raise _Status(404, {"detail": detail})
        if not self._can_see(record):
            if hidden is not None:
                raise _Refused(hidden)
            raise _Status(404, {"detail": detail})
        return record

    def _refuse_invisible_links(self, values: Iterable[Any]) -> None:
        """A documentlink to a document the user may not change: JSON 403 (seq 413, 420, where
        the target was not even visible).  Paperless 3.0.5's validate_documentlink_targets
        asks for the change permission on every target: it writes the reverse link there."""
        for value in values:
            for target in value if isinstance(value, list) else []:
                record = self.documents.get(target) if _is_int(target) else None
                if record is not None and not self._can_change(record):
                    raise _Status(403, {"detail": "Insufficient permissions."})

    def _api_document(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                      version: int, full_path: str, query: str) -> tuple[int, Any]:
        record = self._doc_or_404(args[0])
        fields = {f for f in params.get("fields", "").split(",") if f} or None
        if method == "GET":
            return 200, self._serialize(record, detail=True, fields=fields)
        if method == "DELETE":
            self.move_to_trash(record["id"])
            return 204, None
        if not self._can_change(record):  # visible but not changeable: DRF's 403 (seq 398)
            raise _Status(403, {"detail": NO_PERMISSION})
        if not isinstance(payload, dict):
            raise _BadRequest({"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]})
        if "tags" in payload:
            bad = [t for t in payload["tags"] or [] if not _is_int(t) or t not in self.tags]
            if bad:
                raise _BadRequest({"tags": [f'Invalid pk "{bad[0]}" - object does not exist.']})
        if "custom_fields" in payload:
            wanted = self._validate_instances(payload["custom_fields"], record["id"])
            self._refuse_invisible_links(wanted.values())
        self.check_asn(record, payload)
        for key in ("title", "content", "correspondent", "document_type", "storage_path", "owner",
                    "archive_serial_number", "created"):
            if key in payload:
                record[key] = payload[key]
        if "tags" in payload:
            record["tags"] = list(dict.fromkeys(payload["tags"] or []))
        if "custom_fields" in payload:
            for inst in list(record["custom_fields"]):
                if inst["field"] not in wanted:
                    self._remove_field(record, inst["field"])
            for field_id, value in wanted.items():
                self._set_field(record, field_id, value)
        self._bump(record)
        return 200, self._serialize(record, detail=True, patch=True)

    def _validate_instances(self, items: Any, doc_id: int) -> dict[int, Any]:
        if not isinstance(items, list):
            raise _BadRequest({"custom_fields": ['Expected a list of items but got type "dict".']})
        errors: list[dict[str, Any]] = []
        wanted: dict[int, Any] = {}
        for item in items:
            field_id = item.get("field") if isinstance(item, dict) else None
            if not _is_int(field_id) or field_id not in self.custom_fields:
                errors.append({"field": [f'Invalid pk "{field_id}" - object does not exist.']})
                continue
            problem = self._value_error(field_id, item.get("value"))
            errors.append({"non_field_errors": [problem]} if problem else {})
            wanted[field_id] = item.get("value")
        if any(errors):
            raise _BadRequest({"custom_fields": errors})
        return wanted

    def _value_error(self, field_id: int, value: Any) -> str | None:
        kind = self.custom_fields[field_id]["data_type"]
        if value is None:
            return None
        if kind == "documentlink":
            if not isinstance(value, list):
                return "Value must be a list"
            if len(set(map(str, value))) != len(value) or any(not _is_int(v) or v not in self.documents for v in value):
                return DOCS_WITH_VALUE
        if kind == "string" and isinstance(value, str) and len(value) > 128:
            return "Ensure this field has no more than 128 characters."
        return None

    def _instance(self, record: dict[str, Any], field_id: int) -> dict[str, Any] | None:
        return next((i for i in record["custom_fields"] if i["field"] == field_id), None)

    def _set_field(self, record: dict[str, Any], field_id: int, value: Any) -> None:
        """Set a field instance; documentlink values get their reverse links (README item 7)."""
        inst = self._instance(record, field_id)
        old = inst["value"] if inst else None
        if inst is None:
            record["custom_fields"].append({"value": copy.deepcopy(value), "field": field_id})
        else:
            inst["value"] = copy.deepcopy(value)
        if self.custom_fields[field_id]["data_type"] != "documentlink":
            return
        old_ids, new_ids = set(old or []), set(value or [])
        for target in sorted(new_ids - old_ids):
            self._link(target, field_id, record["id"], add=True)
        for target in sorted(old_ids - new_ids):
            self._link(target, field_id, record["id"], add=False)

    def _remove_field(self, record: dict[str, Any], field_id: int) -> None:
        inst = self._instance(record, field_id)
        if inst is None:
            return
        record["custom_fields"].remove(inst)
        if self.custom_fields[field_id]["data_type"] == "documentlink":
            for target in sorted(set(inst["value"] or [])):
                self._link(target, field_id, record["id"], add=False)

    def _link(self, target_id: int, field_id: int, source_id: int, *, add: bool) -> None:
        target = self.documents.get(target_id)
        if target is None or target_id == source_id:
            return
        inst = self._instance(target, field_id)
        if add:
            if inst is None:
                target["custom_fields"].append({"value": [source_id], "field": field_id})
            elif source_id not in (inst["value"] or []):
                inst["value"] = [*(inst["value"] or []), source_id]
            else:
                return
        else:
            if inst is None or source_id not in (inst["value"] or []):
                return
            inst["value"] = [v for v in inst["value"] if v != source_id]
        self._bump(target)  # reverse-link changes bump the other document at once

    def _api_root(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                  version: int, full_path: str, query: str) -> tuple[int, Any]:
        raw = args[0]
        if raw.isdigit() and int(raw) in self.version_rows:
            if not self._can_see(self.documents[self.version_rows[int(raw)]]):
                raise _Refused("Insufficient permissions")
            return 200, {"root_id": self.version_rows[int(raw)]}
        if raw.isdigit() and int(raw) in self.trash:  # a trashed document still answers /root/ (seq 1093)
            return 200, {"root_id": int(raw)}
        record = self._doc_or_404(raw, "Not found.", hidden="Insufficient permissions")
        return 200, {"root_id": record["id"]}

    def _api_notes(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                   version: int, full_path: str, query: str) -> tuple[int, Any]:
        record = self._doc_or_404(args[0], "Not found.", hidden="Insufficient permissions to view notes")
        if method == "POST" and not self._can_change(record):
            raise _Refused("Insufficient permissions to create notes")
        if method == "POST":
            if not isinstance(payload, dict) or "note" not in payload:
                return 200, dict(NOTE_ERROR)
            record["notes"].append(self._make_note(str(payload["note"])))
            self._bump(record)
        elif method == "DELETE":
            raw = params.get("id")
            if raw is None:
                raise _BadRequest({"id": "This field is required."})
            note = next((n for n in record["notes"] if str(n["id"]) == raw), None)
            if note is None:
                raise _Status(404, {"detail": "No Note matches the given query."})
            record["notes"].remove(note)
            self._bump(record)
        return 200, copy.deepcopy(record["notes"])

    def _api_bulk_edit(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                       version: int, full_path: str, query: str) -> tuple[int, Any]:
        if not isinstance(payload, dict):
            raise _BadRequest({"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]})
        errors: dict[str, Any] = {}
        bulk = payload.get("method")
        if bulk is None:
            errors["method"] = ["This field is required."]
        elif bulk not in BULK_METHODS:
            errors["method"] = [f'"{bulk}" is not a valid choice.']
        docs = payload.get("documents")
        if docs is not None and (
            not isinstance(docs, list) or len(set(map(str, docs))) != len(docs)
            or any(not _is_int(d) or d not in self.documents for d in docs)
        ):
            errors["documents"] = ["Some documents in documents don't exist or were specified twice."]
        if errors:
            raise _BadRequest(errors)
        if docs is None:
            if payload.get("all") is not True:
                raise _BadRequest({"non_field_errors": ["documents is required unless all is true."]})
            docs = sorted(self.documents)
        parameters = payload.get("parameters") or {}
        records = [self.documents[d] for d in docs]
        if not all(self._can_change(r) for r in records):  # all or nothing (seq 406)
            raise _Refused("Insufficient permissions")
        if bulk in ("add_tag", "remove_tag"):
            tag = self._need(parameters, "tag")
            if not _is_int(tag) or tag not in self.tags:
                raise _BadRequest({"non_field_errors": ["Tag does not exist"]})
            for r in records:
                if bulk == "add_tag" and tag not in r["tags"]:
                    r["tags"].append(tag)
                elif bulk == "remove_tag" and tag in r["tags"]:
                    r["tags"].remove(tag)
        elif bulk == "modify_tags":
            add, remove = self._need(parameters, "add_tags"), self._need(parameters, "remove_tags")
            for name, ids in (("add_tags", add), ("remove_tags", remove)):
                if not isinstance(ids, list) or any(not _is_int(t) or t not in self.tags for t in ids):
                    raise _BadRequest({"non_field_errors": [f"Some tags in {name} don't exist."]})
            for r in records:
                r["tags"] = [t for t in r["tags"] if t not in remove]
                r["tags"] += [t for t in add if t not in r["tags"]]
        elif bulk == "modify_custom_fields":
            self._bulk_custom_fields(records, parameters)
        elif bulk == "delete":
            for r in records:
                self.trash_document(r["id"])
            return 200, {"result": "OK"}
        self.pending_tasks.update(docs)
        if self.bulk_edit_bumps_modified:
            self.run_tasks()
        return 200, {"result": "OK"}

    @staticmethod
    def _need(parameters: Any, key: str) -> Any:
        if not isinstance(parameters, dict) or key not in parameters:
            raise _BadRequest({"non_field_errors": [f"{key} not specified"]})
        return parameters[key]

    def _bulk_custom_fields(self, records: list[dict[str, Any]], parameters: Any) -> None:
        add = self._need(parameters, "add_custom_fields")
        remove = self._need(parameters, "remove_custom_fields")
        values: dict[int, Any] = {}
        keep_value: set[int] = set()
        if isinstance(add, dict):
            self._refuse_invisible_links(add.values())
            errors: dict[str, Any] = {}
            for key, value in add.items():
                fid = int(key) if str(key).isdigit() else -1
                if fid not in self.custom_fields:
                    raise _BadRequest({"non_field_errors": ["Some custom fields in add_custom_fields don't exist."]})
                problem = self._value_error(fid, value)
                if problem:
                    errors[str(key)] = {"non_field_errors": [problem]}
                values[fid] = value
            if errors:
                raise _BadRequest({"add_custom_fields": errors})
        elif isinstance(add, list):
            for fid in add:
                if not _is_int(fid) or fid not in self.custom_fields:
                    raise _BadRequest({"non_field_errors": ["Some custom fields in add_custom_fields don't exist."]})
                values[fid] = None
                keep_value.add(fid)
        else:
            raise _BadRequest({"non_field_errors": ["add_custom_fields must be a list or a dict"]})
        if not isinstance(remove, list) or any(not _is_int(f) or f not in self.custom_fields for f in remove):
            raise _BadRequest({"non_field_errors": ["Some custom fields in remove_custom_fields don't exist."]})
        for r in records:
            for fid, value in values.items():
                if fid in keep_value and self._instance(r, fid) is not None:
                    continue
                self._set_field(r, fid, value)
            for fid in remove:
                if fid not in values:
                    self._remove_field(r, fid)

    def _named_list(self, items: list[dict[str, Any]], params: dict[str, str]) -> list[dict[str, Any]]:
        exact = params.get("name__iexact", params.get("name__exact"))  # __exact is case-insensitive on SQLite
        contains = params.get("name__icontains", "").lower()
        ids = {int(x) for x in params.get("id__in", "").split(",") if x.strip().isdigit()}
        return [
            i for i in sorted(items, key=lambda i: (i["name"].lower(), i["id"]))
            if (exact is None or i["name"].lower() == exact.lower())
            and contains in i["name"].lower()
            and (not ids or i["id"] in ids)
        ]

    def _api_tags(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                  version: int, full_path: str, query: str) -> tuple[int, Any]:
        if method == "GET":
            tags = [self._tag_view(t) for t in self._named_list(list(self.tags.values()), params)]
            return self._paginate(tags, params, version, full_path, query, extra={"display_count": len(tags)})
        if not isinstance(payload, dict):
            raise _BadRequest({"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]})
        name = payload.get("name")
        if name is None:
            raise _BadRequest({"name": ["This field is required."]})
        if not str(name).strip():
            raise _BadRequest({"name": ["This field may not be blank."]})
        if any(t["name"] == name for t in self.tags.values()):  # unique only case-sensitively
            raise _BadRequest({"name": ["tag with this name already exists."]})
        color = payload.get("color", "#a6cee3")
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", str(color)):
            raise _BadRequest({"color": ["Invalid color."]})
        algorithm = str(payload.get("matching_algorithm", 1))
        if algorithm not in {str(i) for i in range(7)}:
            raise _BadRequest({"matching_algorithm": [f'"{algorithm}" is not a valid choice.']})
        owner = payload["owner"] if "owner" in payload else self.user["id"]  # no owner key: the requester owns it
        tag = self.add_tag(str(name), color=str(color), owner=owner, matching_algorithm=int(algorithm))
        record = self.tags[tag["id"]]
        record["match"] = str(payload.get("match", ""))
        truthy = (True, "true", "True", "on", "1")
        record["is_inbox_tag"] = payload.get("is_inbox_tag", False) in truthy
        # a boolean missing from a form body counts as false (README item 18)
        record["is_insensitive"] = payload.get("is_insensitive", not isinstance(payload, _Form)) in truthy
        return 201, self._tag_view(record, count=False)

    def _api_tag(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                 version: int, full_path: str, query: str) -> tuple[int, Any]:
        if not args[0].isdigit() or int(args[0]) not in self.tags:
            raise _Status(404, {"detail": "No Tag matches the given query." if args[0].isdigit() else "Not found."})
        tid = int(args[0])
        if method == "DELETE":
            del self.tags[tid]
            for d in self.documents.values():
                d["tags"] = [t for t in d["tags"] if t != tid]
            return 204, None
        if method in ("PATCH", "PUT") and isinstance(payload, dict):
            for key in ("name", "color", "matching_algorithm", "match", "is_inbox_tag", "owner"):
                if key in payload:
                    self.tags[tid][key] = payload[key]
        return 200, self._tag_view(self.tags[tid])

    def _api_custom_fields(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                           version: int, full_path: str, query: str) -> tuple[int, Any]:
        if method == "GET":
            fields = [self._field_view(f) for f in self._named_list(list(self.custom_fields.values()), params)]
            fields.sort(key=lambda f: f["id"])
            return self._paginate(fields, params, version, full_path, query)
        if not isinstance(payload, dict):
            raise _BadRequest({"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]})
        errors: dict[str, list[str]] = {}
        name, kind = payload.get("name"), payload.get("data_type")
        if name is None or not str(name).strip():
            errors["name"] = ["This field is required." if name is None else "This field may not be blank."]
        elif any(f["name"] == name for f in self.custom_fields.values()):
            errors["name"] = ["custom field with this name already exists."]
        if kind is None:
            errors["data_type"] = ["This field is required."]
        elif kind not in DATA_TYPES:
            errors["data_type"] = [f'"{kind}" is not a valid choice.']
        if errors:
            raise _BadRequest(errors)
        created = self.add_custom_field(str(name), str(kind))
        return 201, {k: v for k, v in created.items() if k != "document_count"}

    def _api_custom_field(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                          version: int, full_path: str, query: str) -> tuple[int, Any]:
        if not args[0].isdigit() or int(args[0]) not in self.custom_fields:
            raise _Status(404, {"detail": "No CustomField matches the given query." if args[0].isdigit() else "Not found."})
        return 200, self._field_view(self.custom_fields[int(args[0])])

    def _api_thumb(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                   version: int, full_path: str, query: str) -> tuple[int, Any]:
        record = self._doc_or_404(args[0], detail="Not found.")  # review.json seq 502
        body = self.thumbnails.get(record["id"])
        if body is None and len(str(record.get("content") or "").split()) >= 20:
            body = THUMBNAILS[(record["id"] - 1) % len(THUMBNAILS)]
        if body is None:
            try:
                from tests.picture_support import own_thumbnail
            except ImportError:  # run as a script from tests/
                from picture_support import own_thumbnail  # type: ignore[no-redef]
            body = own_thumbnail(record["id"])
        return 200, _Binary(body, "image/webp",
                            [("Content-Disposition", f'inline; filename="{record["id"]:07d}.webp"')])

    def _view_out(self, view: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(view)

    def _api_saved_views(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                         version: int, full_path: str, query: str) -> tuple[int, Any]:
        if method == "GET":
            views = [self._view_out(v) for v in self._named_list(list(self.saved_views.values()), params)]
            views.sort(key=lambda v: v["id"])
            return self._paginate(views, params, version, full_path, query)
        if not isinstance(payload, dict):
            raise _BadRequest({"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]})
        errors: dict[str, Any] = {}
        name, rules = payload.get("name"), payload.get("filter_rules")
        if name is None or not str(name).strip():
            errors["name"] = ["This field is required." if name is None else "This field may not be blank."]
        if rules is None:
            errors["filter_rules"] = ["This field is required."]
        elif not isinstance(rules, list):
            errors["filter_rules"] = [f'Expected a list of items but got type "{type(rules).__name__}".']
        else:
            rule_errors = [{} if isinstance(r, dict) and str(r.get("rule_type")).isdigit()
                           and int(r["rule_type"]) in RULE_TYPES
                           else {"rule_type": [f'"{r.get("rule_type") if isinstance(r, dict) else r}" is not a valid '
                                               'choice.']} for r in rules]
            if any(rule_errors):
                errors["filter_rules"] = rule_errors
        if errors:
            raise _BadRequest(errors)
        owner = payload["owner"] if "owner" in payload else self.user["id"]
        if any(v["name"] == name and v["owner"] == owner for v in self.saved_views.values()):
            raise _BadRequest({"error": "Object violates owner / name unique constraint"})  # seq 507
        view = self.add_saved_view(
            str(name), filter_rules=[{"rule_type": int(r["rule_type"]), "value": r.get("value")} for r in rules],
            sort_field=payload.get("sort_field"), sort_reverse=bool(payload.get("sort_reverse", False)), owner=owner)
        return 201, view  # no show_on_dashboard / show_in_sidebar in 3.x (seq 506)

    def _api_saved_view(self, method: str, args: tuple[str, ...], params: dict[str, str], payload: Any,
                        version: int, full_path: str, query: str) -> tuple[int, Any]:
        if not args[0].isdigit() or int(args[0]) not in self.saved_views:
            raise _Status(404, {"detail": "No SavedView matches the given query." if args[0].isdigit() else "Not found."})
        vid = int(args[0])
        if method == "DELETE":
            del self.saved_views[vid]
            return 204, None
        if method in ("PATCH", "PUT") and isinstance(payload, dict):
            for key in ("name", "sort_field", "sort_reverse", "filter_rules", "page_size"):
                if key in payload:
                    self.saved_views[vid][key] = copy.deepcopy(payload[key])
        return 200, self._view_out(self.saved_views[vid])

    # -- faults ----------------------------------------------------------------------------

    def _take_fault(self, method: str, path: str) -> Fault | None:
        with self.lock:
            for fault in self.faults:
                if fault.matches(method, path):
                    fault.hits += 1
                    return fault
        return None

    def _fault_reply(self, fault: Fault) -> _Reply:
        kw = fault.kw
        if fault.kind == "html_login":
            return _Reply(200, [("Content-Type", "text/html; charset=utf-8")], LOGIN_PAGE.encode())
        if fault.kind == "malformed_json":
            return _Reply(200, self._headers("GET, HEAD, OPTIONS"), b'{"count": 3, "next": null, "results": [{"id": 1, "ti')
        if fault.kind == "note_error":
            return self._json(200, NOTE_ERROR, "GET, POST, DELETE, HEAD, OPTIONS")
        status = int(kw["status"])
        extra = [(str(k), str(v)) for k, v in (kw.get("headers") or {}).items()]
        if kw.get("retry_after") is not None:
            extra.append(("Retry-After", str(kw["retry_after"])))
        if "text" in kw:
            ctype = kw.get("content_type", "text/html; charset=utf-8")
            return _Reply(status, [("Content-Type", ctype), *extra], str(kw["text"]).encode())
        if "json" in kw:
            return self._json(status, kw["json"], None, api=status not in (401, 406), extra=extra)
        if status >= 500:
            page = SERVER_ERROR_PAGE.format(status=status).encode()
            return _Reply(status, [("Content-Type", "text/html; charset=utf-8"), *extra], page)
        defaults = {
            401: {"detail": "Invalid token."}, 403: {"detail": "You do not have permission to perform this action."},
            404: {"detail": "Not found."}, 406: {"detail": 'Invalid version in "Accept" header.'},
            429: {"detail": f"Request was throttled. Expected available in {kw.get('retry_after', 1)} seconds."},
        }
        if status == 401:
            extra.append(("WWW-Authenticate", "Token"))
        return self._json(status, defaults.get(status, {"detail": f"Injected status {status}."}), None,
                          api=status not in (401, 406), extra=extra)


class _Form(dict[str, Any]):
    """A form-encoded request body (booleans missing from it are false)."""


class _Refused(Exception):
    """Paperless's object-permission 403: a bare text body sent as text/html, with the API headers."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class _Binary:
    """A body that is not JSON (a thumbnail), with its content type and extra headers."""

    def __init__(self, body: bytes, ctype: str, headers: list[tuple[str, str]]) -> None:
        self.body, self.ctype, self.headers = body, ctype, headers


class _Status(Exception):
    def __init__(self, status: int, body: Any) -> None:
        super().__init__(status)
        self.status, self.body = status, body


ROUTES: tuple[tuple[str, str, str], ...] = (
    (r"/api/ui_settings/", "ui_settings", "GET, POST, HEAD, OPTIONS"),
    (r"/api/profile/", "profile", "GET, PATCH, HEAD, OPTIONS"),
    (r"/api/documents/", "documents", "GET, HEAD, OPTIONS"),
    (r"/api/documents/bulk_edit/", "bulk_edit", "POST, OPTIONS"),
    (r"/api/documents/([^/]+)/", "document", "GET, PUT, PATCH, DELETE, HEAD, OPTIONS"),
    (r"/api/documents/([^/]+)/root/", "root", "GET, HEAD, OPTIONS"),
    (r"/api/documents/([^/]+)/notes/", "notes", "GET, POST, DELETE, HEAD, OPTIONS"),
    (r"/api/documents/([^/]+)/thumb/", "thumb", "GET, HEAD, OPTIONS"),
    (r"/api/saved_views/", "saved_views", "GET, POST, HEAD, OPTIONS"),
    (r"/api/saved_views/([^/]+)/", "saved_view", "GET, PUT, PATCH, DELETE, HEAD, OPTIONS"),
    (r"/api/tags/", "tags", "GET, POST, HEAD, OPTIONS"),
    (r"/api/tags/([^/]+)/", "tag", "GET, PUT, PATCH, DELETE, HEAD, OPTIONS"),
    (r"/api/custom_fields/", "custom_fields", "GET, POST, HEAD, OPTIONS"),
    (r"/api/custom_fields/([^/]+)/", "custom_field", "GET, PUT, PATCH, DELETE, HEAD, OPTIONS"),
    (r"/api/trash/", "trash", "GET, POST, HEAD, OPTIONS"),
    *RESOLVE_ROUTES,
)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "granian"
    # Headers and body go out in separate writes: without TCP_NODELAY, Nagle plus the
    # client's delayed ACK stall every response by ~40 ms on loopback.
    disable_nagle_algorithm = True
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # silence the per-request stderr lines
        pass

    @property
    def fake(self) -> FakePaperless:
        return self.server.fake  # type: ignore[attr-defined,no-any-return]

    def setup(self) -> None:
        super().setup()
        with self.fake.lock:
            self.fake._conns.add(self.connection)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            with self.fake.lock:
                self.fake._conns.discard(self.connection)

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_PUT(self) -> None:
        self._dispatch("PUT")

    def do_PATCH(self) -> None:
        self._dispatch("PATCH")

    def do_DELETE(self) -> None:
        self._dispatch("DELETE")

    def do_OPTIONS(self) -> None:
        self._dispatch("OPTIONS")

    def _dispatch(self, method: str) -> None:
        fake = self.fake
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        split = urlsplit(self.path)
        headers = {k.lower(): v for k, v in self.headers.items()}
        logged_headers = dict(self.headers.items())
        for key in list(logged_headers):
            if key.lower() == "authorization":
                logged_headers[key] = logged_headers[key].split(" ")[0] + " <redacted>"
        try:
            parsed_json = json.loads(body) if body and "json" in headers.get("content-type", "") else None
        except ValueError:
            parsed_json = None
        entry = LoggedRequest(method, split.path, split.query, parse_qs(split.query, keep_blank_values=True),
                              logged_headers, body, parsed_json)
        with fake.lock:
            fake.requests.append(entry)
        fault = fake._take_fault(method, split.path)
        if fault is not None:
            entry.fault = fault.kind
            if fault.kind == "close":
                self.close_connection = True
                return
            if fault.kind == "delay":
                if fake._stopping.wait(float(fault.kw.get("seconds", 1.0))):
                    self.close_connection = True
                    return
                fault = None
            elif fault.kind == "call":
                fault.kw["fn"](entry)
                fault = None
        try:
            if fault is not None and fault.kind != "invalid_utf8":
                reply = fake._fault_reply(fault)
            else:
                with fake.lock:
                    reply = fake.handle(method, split.path, split.query, headers, body)
                if fault is not None:
                    reply.body = _corrupt(reply.body)
        except Exception:  # a bug in the fake: answer 500 and keep the traceback for the test
            import traceback

            fake.errors.append(traceback.format_exc())
            reply = _Reply(500, [("Content-Type", "text/html; charset=utf-8")],
                           SERVER_ERROR_PAGE.format(status=500).encode())
        entry.status = reply.status
        self._write(reply, head=method == "HEAD")

    def _write(self, reply: _Reply, *, head: bool) -> None:
        try:
            self.send_response(reply.status)
            for key, value in reply.headers:
                self.send_header(key, value)
            if reply.status != 204:
                self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            if not head and reply.status != 204:
                self.wfile.write(reply.body)
        except OSError:
            self.close_connection = True


def _corrupt(body: bytes) -> bytes:
    """Insert invalid UTF-8 bytes at the start of the first JSON string value."""
    index = body.find(b':"')
    if index < 0:
        return b'{"detail":"broken \xff\xfe bytes"}'
    return body[: index + 2] + b"\xff\xfe\xc3" + body[index + 2 :]


SAMPLE_DOCUMENTS: list[dict[str, Any]] = [
    {
        "id": 1, "title": "ACME invoice INV-2026-1047", "created": "2026-11-30", "original_file_name": "invoice-acme-2026-10.txt",
        "added": "2026-11-30T11:31:07.086038Z", "modified": "2026-11-30T11:31:07.117723Z",
        "content": "ACME Office Supplies Ltd.\n42 Harbour Road, Bristol BS1 4QA\nVAT No. GB 123 4567 89\n\nINVOICE\n\n"
        "Invoice number: INV-2026-1047\nInvoice date: 2026-10-31\nCustomer: Northwind Consulting GmbH, Customer No. 55012\n\n"
        "Item                         Qty   Unit price   Amount\nA4 copy paper, 80 g (box)      4       24.90     99.60\n"
        "Toner cartridge TN-2420        2       61.50    123.00\nDesk organiser, black          1       18.75     18.75\n\n"
        "Subtotal                                        241.35\nVAT 20 %                                         48.27\n"
        "Total due                                       289.62 GBP\n\n"
        "Payment terms: 14 days net. Please quote INV-2026-1047 with your payment.\n"
        "Bank: Lloyds Bank, IBAN GB29 NWBK 6016 1331 9268 19\n",
    },
    {
        "id": 2, "title": "invoice-acme-2026-10-rescan", "created": "2026-11-30",
        "original_file_name": "invoice-acme-2026-10-rescan.txt",
        "added": "2026-11-30T11:31:07.575469Z", "modified": "2026-11-30T11:31:07.615682Z",
        "content": "ACME 0ffice Suppl1es Ltd.\n42 Harbour Road, Bristol BS1 4QA\nVAT No. GB 123 4567 89\n\nINVOICE\n\n"
        "lnvoice number: INV-2026-1047\nInvoice date: 2026-10-31\nCustomer: Northwind Consulting GmbH, Customer No. 55012\n\n"
        "Item                         Qty   Unit price   Amount\nA4 copy paper, 80 g (box)      4       24.90     99.60\n"
        "Toner cartrldge TN-2420        2       61.50    123.00\nDesk organiser, black          1       18.75     18.75\n\n"
        "Subtotal                                        241.35\nVAT 20 %                                         48.27\n"
        "Tota1 due                                       289.62 GBP\n\n"
        "Payrnent terms: 14 days net. Please quote INV-2026-1047 with your payment.\n"
        "Bank: Lloyds Bank, IBAN GB29 NWBK 6016 1331 9268 19\n",
    },
    {
        "id": 3, "title": "ACME invoice INV-2026-1163", "created": "2026-11-30", "original_file_name": "invoice-acme-2026-11.txt",
        "added": "2026-11-30T11:31:11.639453Z", "modified": "2026-11-30T11:31:11.682092Z",
        "content": "ACME Office Supplies Ltd.\n42 Harbour Road, Bristol BS1 4QA\nVAT No. GB 123 4567 89\n\nINVOICE\n\n"
        "Invoice number: INV-2026-1163\nInvoice date: 2026-11-30\nCustomer: Northwind Consulting GmbH, Customer No. 55012\n\n"
        "Item                         Qty   Unit price   Amount\nA4 copy paper, 80 g (box)      6       24.90    149.40\n"
        "Ballpoint pens, blue (50)      1       12.40     12.40\n\n"
        "Subtotal                                        161.80\nVAT 20 %                                         32.36\n"
        "Total due                                       194.16 GBP\n\n"
        "Payment terms: 14 days net. Please quote INV-2026-1163 with your payment.\n"
        "Bank: Lloyds Bank, IBAN GB29 NWBK 6016 1331 9268 19\n",
    },
    {
        "id": 4, "title": "Jahresabrechnung Stadtwerke Süd – Weiß", "created": "2026-11-28",
        "original_file_name": "brief-stadtwerke-muenchen.txt",
        "added": "2026-11-30T11:31:16.852897Z", "modified": "2026-11-30T11:31:16.949485Z",
        "content": "Stadtwerke Süd GmbH · Äußere Wiener Straße 12 · 81667 München\n\nFrau Jördis Weiß\nGärtnerstraße 5\n"
        "80469 München\n\nMünchen, 28. November 2026\n\nIhre Jahresabrechnung 2026 – Kundennummer 7781-ÄÖÜ\n\n"
        "Sehr geehrte Frau Weiß,\n\nfür den Abrechnungszeitraum 01.01.2026 bis 31.10.2026 ergibt sich ein Guthaben von "
        "84,17 €.\nDer Betrag wird Ihrem Konto bei der Sparkasse Fürth innerhalb von 14 Tagen gutgeschrieben.\n"
        "Ihr monatlicher Abschlag für Strom und Fernwärme beträgt ab Januar 2027 unverändert 96,00 €.\n\n"
        "Bei Rückfragen erreichen Sie uns werktags von 8 bis 18 Uhr unter 089 2361-0.\n\n"
        "Mit freundlichen Grüßen\nIhre Stadtwerke Süd – Kundenservice\n",
    },
    {
        "id": 5, "title": "three-words", "created": "2026-11-30", "original_file_name": "three-words.txt",
        "added": "2026-11-30T11:31:21.926442Z", "modified": "2026-11-30T11:31:21.971039Z",
        "content": "Call me back\n",
    },
    {
        "id": 6, "title": "Quarterly Business Review Q3 2026", "created": "2026-11-30",
        "original_file_name": "quarterly-report-q3-2026.txt",
        "added": "2026-11-30T11:31:22.679411Z", "modified": "2026-11-30T11:31:22.724003Z",
        "content": "Quarterly Business Review Q3 2026\n\nFlow strategy inventory performance depreciation performance "
        "competitor operating inventory marketing. Liquidity pricing revenue headcount risk revenue risk capital "
        "marketing spend. Revenue churn outlook regional depreciation summarises logistics risk expenditure energy.\n",
    },
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fake_paperless", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--docs", action="append", default=[], help="JSONL corpus to seed (repeatable)")
    parser.add_argument("--sample", action="store_true", help="seed the six recorded sample documents")
    parser.add_argument("--token", default=DEFAULT_TOKEN)
    parser.add_argument("--mode", choices=("3.x", "2.20"), default="3.x")
    parser.add_argument("--prefix", default="", help="path prefix, like PAPERLESS_FORCE_SCRIPT_NAME")
    parser.add_argument("--public-url", default="http://paperless.local:8000")
    args = parser.parse_args(argv)
    fake = FakePaperless(mode=args.mode, token=args.token, public_url=args.public_url, prefix=args.prefix,
                         host=args.host, port=args.port)
    if args.sample:
        fake.seed_sample()
    for path in args.docs:
        fake.load_jsonl(path)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    fake.start()
    print(fake.url, flush=True)
    while not done.wait(0.2):  # a timed wait wakes up for signals promptly
        pass
    fake.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
