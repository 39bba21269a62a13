"""A library to resolve, built from ``paperless-api/resolve.json``: the original letter
(#1), its copy with two words changed (#2, with a tag, a correspondent, two custom field
values, two notes and ASN 1001) and an unrelated newsletter (#3); the hook has run for
each, so #2 carries our tag, note and link.  Shared by the resolve tests."""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

try:
    from tests.fake_paperless import FakePaperless
except ImportError:  # run from tests/ itself
    from fake_paperless import FakePaperless  # type: ignore[no-redef]

RECORDING = Path(os.environ.get("PAPERLESS_API_RECORDINGS", "/work/shared/paperless-api")) / "resolve.json"
WRITES = ("POST", "PATCH", "PUT", "DELETE")

# The three documents as listed at seq 1024 (kept here: the tests do not need the recording).
ORIGINAL = (
    "Hausverwaltung Berger GmbH\nLindenstrasse 12, 80331 Muenchen\n\nMuenchen, 20 November 2026\n\n"
    "To: Dr. Anna Keller, Rosenweg 4, 80333 Muenchen\n\nSubject: Annual service charge statement 2025, flat 3B\n\n"
    "Dear Dr. Keller,\n\nplease find enclosed the annual service charge statement for 2025.\n"
    "The total costs for heating, water and caretaker services amount to EUR 2,184.40.\n"
    "Your advance payments were EUR 2,040.00, which leaves a balance of EUR 144.40.\n"
    "Please transfer the balance within four weeks to the account shown below.\n\n"
    "Kind regards,\nMarkus Berger\nIBAN DE44 5001 0517 5407 3249 31\n"
)
COPY = ORIGINAL.replace("enclosed", "attached").replace("Kind regards", "Best regards")
NEWSLETTER = (
    "Garden club newsletter, December\n\nOur winter meeting takes place in the community hall on the first "
    "Saturday of the month. Bring seeds to swap, cuttings in pots and your questions about pruning fruit trees. "
    "The committee thanks everyone who helped at the autumn fair; the raffle raised enough for two new "
    "greenhouse benches. Membership fees for next year can be paid at the meeting or by transfer.\n"
)
NOTES = ("Called Mr Berger: the balance is correct.", "Paid EUR 144.40 on 2026-11-25.")


def make_library(fake: FakePaperless) -> dict[str, int]:
    """Documents 1-3 and the copy's metadata; returns the ids of tags and fields by role."""
    fake.add_document(id=1, title="Service charge statement 2025 (Berger)", content=ORIGINAL, created="2026-11-20",
                      original_file_name="letter-original.txt", added="2026-12-02T04:27:40.904205Z")
    fake.add_document(id=2, title="letter-copy", content=COPY, created="2026-11-20",
                      original_file_name="letter-copy.txt", added="2026-12-02T04:27:44.945011Z")
    fake.add_document(id=3, title="garden-club-newsletter", content=NEWSLETTER, created="2026-12-02",
                      original_file_name="garden-club-newsletter.txt", added="2026-12-02T04:27:46.000000Z")
    tax = fake.add_tag("tax-2025", tag_id=1)["id"]
    reference = fake.add_custom_field("Reference", "string", field_id=1)["id"]
    related = fake.add_custom_field("Related documents", "documentlink", field_id=2)["id"]
    with fake.lock:
        copy = fake.documents[2]
        copy["tags"] = [tax]
        copy["correspondent"] = 1
        copy["document_type"] = 1
        copy["storage_path"] = 4
        copy["archive_serial_number"] = 1001
        fake._set_field(copy, reference, "REF-2026-0815")
        fake._set_field(copy, related, [3])
        for text in NOTES:
            copy["notes"].append(fake._make_note(text))
    return {"tax": tax, "reference": reference, "related": related}


@contextlib.contextmanager
def environment(fake: FakePaperless, tmp_path: Path, **extra: str) -> Iterator[dict[str, str]]:
    """PAPERLESS_DEDUPE_* for in-process runs (restored afterwards)."""
    env = {"PAPERLESS_DEDUPE_URL": fake.url, "PAPERLESS_DEDUPE_TOKEN": fake.token,
           "PAPERLESS_DEDUPE_INDEX": str(tmp_path / "index.sqlite3"), "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data"), **extra}
    saved = {k: os.environ.get(k) for k in env}
    for key in [k for k in os.environ if k.startswith(("PAPERLESS_", "DOCUMENT_"))]:
        saved.setdefault(key, os.environ[key])
        del os.environ[key]
    os.environ.update(env)
    try:
        yield env
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@contextlib.contextmanager
def served(server: FakePaperless, *, never_emptied: bool = True) -> Iterator[FakePaperless]:
    """A started fake, stopped afterwards; its own errors fail the test, and so does an emptied trash."""
    try:
        yield server
    finally:
        server.stop()
        assert not server.errors, "\n".join(server.errors)
        if never_emptied:
            assert_never_emptied(server)


def cli(*argv: str) -> tuple[int, str, str]:
    """``paperless-dedupe ARGV`` in this process: (exit code, stdout, stderr)."""
    from paperless_dedupe_hook.commands.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def hook(doc_id: int) -> int:
    from paperless_dedupe_hook.hook import main

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(document_id=str(doc_id))


def indexed_library(fake: FakePaperless) -> dict[str, int]:
    """The library with the hook run for #1, #2 and #3 (in the environment of ``environment``)."""
    ids = make_library(fake)
    for doc_id in (1, 2, 3):
        assert hook(doc_id) == 0
    return ids


def confirm(fake: FakePaperless, doc_id: int, name: str = "duplicate-confirmed") -> int:
    with fake.lock:
        tag = next((t for t in fake.tags.values() if t["name"] == name), None) or fake.add_tag(name)
        record = fake.documents[doc_id]
        if tag["id"] not in record["tags"]:
            record["tags"].append(tag["id"])
        fake._bump(record)
    return int(tag["id"])


FIELDS = ("title", "content", "tags", "correspondent", "document_type", "storage_path", "custom_fields",
          "archive_serial_number", "notes", "versions")


def snapshot(fake: FakePaperless, doc_id: int) -> dict[str, Any]:
    """A document's user-visible state (wherever it is: the documents or the trash)."""
    with fake.lock:
        record = fake.documents.get(doc_id) or fake.trash[doc_id]
        view = fake._serialize(record, detail=False)
    out = {k: view[k] for k in FIELDS}
    out["notes"] = [(n["id"], n["note"]) for n in out["notes"]]
    out["custom_fields"] = sorted((i["field"], json.dumps(i["value"])) for i in out["custom_fields"])
    out["versions"] = [(v["id"], v["version_label"]) for v in out["versions"]]
    return out


def writes(fake: FakePaperless) -> list[Any]:
    return [r for r in fake.requests if r.method in WRITES]


def assert_never_emptied(fake: FakePaperless) -> None:
    """No empty-trash request and no permanent delete, ever."""
    for request in fake.requests_for("POST", r"/api/trash/"):
        assert (request.json or {}).get("action") == "restore", request.json
    for request in fake.requests_for("DELETE"):
        assert (request.path.rstrip("/").split("/")[-2] in ("documents", "versions", "notes")
                or "/notes/" in request.path), request.path
    assert not fake.requests_for(None, r"/api/documents/delete/")
    assert not [r for r in fake.requests_for("POST", r"/bulk_edit/") if (r.json or {}).get("method") == "delete"]
