"""Where documents come from for a rebuild: JSONL, a Paperless export, the API.

Each reader yields ``rebuild.Document`` values and stops with a one-line error
naming the file, the line or entry, and the fix.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from ._errors import UsageError
from .rebuild import Document

API_FIELDS = ("id", "title", "content", "modified")


def _document(obj: Any, where: str) -> Document:
    if not isinstance(obj, dict):
        raise UsageError(f"{where}: expected a JSON object with 'id' and 'content'")
    doc_id = obj.get("id")
    if isinstance(doc_id, bool) or not isinstance(doc_id, int) or doc_id <= 0:
        raise UsageError(f"{where}: 'id' must be a positive whole number, got {doc_id!r}")
    content = obj.get("content")
    if content is None:
        content = ""
    if not isinstance(content, str):
        raise UsageError(f"{where}: 'content' of document {doc_id} must be a string")
    modified = obj.get("modified")
    return Document(
        id=doc_id,
        content=content.replace("\x00", " "),
        title=str(obj.get("title") or ""),
        modified=str(modified) if modified is not None else None,
    )


def read_jsonl(path: Path) -> list[Document]:
    return list(iter_jsonl(path))


def iter_jsonl(path: Path) -> Iterator[Document]:
    """The documents of a JSONL file one by one, as they are read (a rebuild of a
    large library never holds all texts at once).  The file is opened at once, so a
    wrong path fails here; a bad line fails when it is reached."""
    try:
        handle = path.open("r", encoding="utf-8", errors="replace")
    except OSError as exc:
        raise UsageError(f"cannot read {path} ({exc.strerror}): check the path given to --from-jsonl/--docs") from None
    return _jsonl_documents(path, handle)


def _jsonl_documents(path: Path, handle: TextIO) -> Iterator[Document]:
    seen: set[int] = set()
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise UsageError(f"{path}:{number}: not valid JSON ({exc.msg}): one object per line") from None
            doc = _document(obj, f"{path}:{number}")
            if doc.id in seen:
                raise UsageError(f"{path}:{number}: document id {doc.id} appears twice: ids must be unique")
            seen.add(doc.id)
            yield doc


def read_export(directory: Path) -> list[Document]:
    """Documents of a ``document_exporter`` manifest (``model == documents.document``)."""
    manifest = directory / "manifest.json" if directory.is_dir() else directory
    try:
        data = json.loads(manifest.read_text(encoding="utf-8", errors="replace"))
    except OSError as exc:
        raise UsageError(f"cannot read {manifest} ({exc.strerror}): --from-export takes the export directory") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{manifest} is not valid JSON ({exc.msg}): is it a Paperless export manifest?") from None
    if not isinstance(data, list):
        raise UsageError(f"{manifest}: expected a list of objects with 'model', 'pk' and 'fields'")
    docs = []
    for number, entry in enumerate(data):
        if not isinstance(entry, dict) or entry.get("model") != "documents.document":
            continue
        fields = entry.get("fields") or {}
        if not isinstance(fields, dict):
            raise UsageError(f"{manifest}: entry {number} has no 'fields' object")
        docs.append(
            _document(
                {"id": entry.get("pk"), "content": fields.get("content"), "title": fields.get("title"),
                 "modified": fields.get("modified")},
                f"{manifest} entry {number}",
            )
        )
    return docs


class ApiSource:
    """Documents straight from Paperless, paginated, with only the fields we need."""

    def __init__(self, client: Any, *, modified_after: str | None = None, page_size: int = 500) -> None:
        self.client = client
        self.modified_after = modified_after
        self.page_size = page_size

    def __iter__(self) -> Iterator[Document]:
        for obj in self.client.iter_documents(
            fields=API_FIELDS, modified_after=self.modified_after, page_size=self.page_size
        ):
            yield _document(obj, f"Paperless document {obj.get('id')}")
