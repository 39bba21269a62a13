"""Nothing lost to an empty or partial source, and paths checked before any work:
``rebuild-index`` as a user runs it (the console script in a subprocess, a real index
file, the fake Paperless over loopback HTTP)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fake_paperless import FakePaperless
from tests.test_cli import CLI, SAMPLE

DOCS = [json.loads(line) for line in (SAMPLE / "docs.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]


def run(tmp_path: Path, *args: str, env: dict[str, str] | None = None, **popen: Any) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_", "DOCUMENT_"))}
    base.update({"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
                 "XDG_DATA_HOME": str(tmp_path / "data"), "PAPERLESS_DEDUPE_INDEX": str(tmp_path / "index.sqlite3")})
    base.update(env or {})
    return subprocess.run([CLI, *args], env=base, capture_output=True, text=True, timeout=300, cwd=tmp_path, **popen)


def indexed(path: Path) -> list[int]:
    with sqlite3.connect(path) as conn:
        return [row[0] for row in conn.execute("SELECT id FROM documents ORDER BY id")]


def error_lines(proc: subprocess.CompletedProcess[str]) -> list[str]:
    assert "Traceback" not in proc.stderr, proc.stderr
    return [line for line in proc.stderr.splitlines() if line.startswith("error:")]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".rebuild", ".lock")))


def write_jsonl(path: Path, docs: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return path


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """An index of the 80 sample documents, with one dismissal of the user's."""
    proc = run(tmp_path, "rebuild-index", "--from-jsonl", str(SAMPLE / "docs.jsonl"))
    assert proc.returncode == 0, proc.stderr
    assert run(tmp_path, "dismiss", "1", "2").returncode == 0
    index = tmp_path / "index.sqlite3"
    assert len(indexed(index)) == 80
    return index


def _export(tmp_path: Path, docs: list[dict[str, Any]]) -> Path:
    folder = tmp_path / "export"
    folder.mkdir()
    manifest = [{"model": "documents.tag", "pk": 1, "fields": {"name": "inbox"}}]
    manifest += [{"model": "documents.document", "pk": d["id"], "fields": {"content": d["content"], "title": d["title"]}}
                 for d in docs]
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


@pytest.mark.parametrize(("kind", "keep"), [
    pytest.param("jsonl", 0, id="empty-jsonl"),
    pytest.param("jsonl", 39, id="jsonl-under-half"),
    pytest.param("export", 0, id="export-without-documents"),  # a --split-manifest export
    pytest.param("export", 20, id="export-a-quarter"),
])
def test_an_empty_or_partial_offline_source_keeps_the_index(tmp_path: Path, built: Path, kind: str, keep: int) -> None:
    before = built.read_bytes()
    docs = DOCS[:keep]
    source = str(write_jsonl(tmp_path / "few.jsonl", docs)) if kind == "jsonl" else str(_export(tmp_path, docs))
    flag = "--from-jsonl" if kind == "jsonl" else "--from-export"
    proc = run(tmp_path, "rebuild-index", flag, source)
    assert proc.returncode == 5, proc.stdout + proc.stderr
    errors = error_lines(proc)
    assert len(errors) == 1, proc.stderr
    named = "few.jsonl" if kind == "jsonl" else "export/manifest.json"
    assert named in errors[0] and f"yielded {keep} document(s) but the index holds 80" in errors[0]
    assert "--allow-shrink" in errors[0] and str(built) in errors[0]
    assert built.read_bytes() == before and leftovers(tmp_path) == ["index.sqlite3.lock"]
    status = run(tmp_path, "status", "--json")
    assert status.returncode == 0 and json.loads(status.stdout)["documents"] == 80  # the old index stays usable

    forced = run(tmp_path, "rebuild-index", flag, source, "--allow-shrink")
    assert forced.returncode == 0, forced.stderr
    assert indexed(built) == sorted(d["id"] for d in docs)


def test_half_of_the_documents_is_enough(tmp_path: Path, built: Path) -> None:
    proc = run(tmp_path, "rebuild-index", "--from-jsonl", str(write_jsonl(tmp_path / "half.jsonl", DOCS[:40])))
    assert proc.returncode == 0, proc.stderr
    assert len(indexed(built)) == 40


def test_an_empty_source_without_an_index_builds_an_empty_one(tmp_path: Path) -> None:
    proc = run(tmp_path, "rebuild-index", "--from-jsonl", str(write_jsonl(tmp_path / "none.jsonl", [])))
    assert proc.returncode == 0, proc.stderr
    assert indexed(tmp_path / "index.sqlite3") == []


@pytest.fixture
def library() -> Iterator[FakePaperless]:
    """The 80 sample documents, owned by the admin (id 2)."""
    fake = FakePaperless().start()
    fake.add_documents({**d, "owner": 2} for d in DOCS)
    yield fake
    fake.stop()
    assert not fake.errors, fake.errors


def _api_env(fake: FakePaperless) -> dict[str, str]:
    return {"PAPERLESS_DEDUPE_URL": fake.url, "PAPERLESS_DEDUPE_TOKEN": fake.token}


def test_an_api_user_who_sees_too_little_keeps_the_index_and_is_told(tmp_path: Path, library: FakePaperless) -> None:
    env = _api_env(library)
    first = run(tmp_path, "rebuild-index", env=env)
    assert first.returncode == 0, first.stderr
    index = tmp_path / "index.sqlite3"
    before = index.read_bytes()

    library.limit_user(owned=range(1, 11))  # a user owning 10 of the 80 documents
    proc = run(tmp_path, "rebuild-index", env=env)
    assert proc.returncode == 5, proc.stdout + proc.stderr
    errors = error_lines(proc)
    assert len(errors) == 1
    assert f"Paperless at {library.url} yielded 10 document(s) but the index holds 80" in errors[0]
    assert "user viewer is not a superuser: Paperless showed it 10 document(s)" in proc.stderr
    assert "70 document(s) of the old index were not among them" in proc.stderr
    assert index.read_bytes() == before

    library.limit_user(user_id=4, username="nobody")  # sees nothing: the incremental run would drop every document
    incremental = run(tmp_path, "rebuild-index", "--incremental", env=env)
    assert incremental.returncode == 5, incremental.stdout + incremental.stderr
    assert "yielded 0 document(s) but the index holds 80" in error_lines(incremental)[0]
    assert index.read_bytes() == before

    library.limit_user(user_id=5, username="owner2", owned=range(1, 61))  # 60 of 80: enough, and said
    enough = run(tmp_path, "rebuild-index", env=env)
    assert enough.returncode == 0, enough.stderr
    assert "20 document(s) of the old index were not among them" in enough.stderr
    assert len(indexed(index)) == 60


@pytest.mark.parametrize("case", ["directory", "file-as-folder", "missing-folders"])
def test_a_bad_index_path_stops_before_any_document_is_read(tmp_path: Path, library: FakePaperless, case: str) -> None:
    if case == "directory":
        target = tmp_path / "index-dir"
        target.mkdir()
        expected = "is a directory: set index.path (PAPERLESS_DEDUPE_INDEX) to a file in it"
    elif case == "file-as-folder":
        (tmp_path / "plain-file").write_text("x")
        target = tmp_path / "plain-file" / "index.sqlite3"
        expected = "plain-file is a file, not a folder"
    else:
        target = tmp_path / "no" / "such" / "index.sqlite3"
        expected = f"the folder {tmp_path / 'no'} does not exist: create it"
    proc = run(tmp_path, "rebuild-index", env={**_api_env(library), "PAPERLESS_DEDUPE_INDEX": str(target)})
    assert proc.returncode == 5, proc.stdout + proc.stderr
    errors = error_lines(proc)
    assert len(errors) == 1 and expected in errors[0], proc.stderr
    assert not library.requests_for("GET", r"/api/documents/")  # checked before reading anything
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith((".rebuild", ".lock"))]


def test_one_missing_folder_is_created_and_said(tmp_path: Path) -> None:
    target = tmp_path / "dedupe" / "index.sqlite3"
    proc = run(tmp_path, "rebuild-index", "--from-jsonl", str(SAMPLE / "docs.jsonl"),
               env={"PAPERLESS_DEDUPE_INDEX": str(target)})
    assert proc.returncode == 0, proc.stderr
    assert f"created the folder {target.parent} for the index" in proc.stderr
    assert len(indexed(target)) == 80


# Run as root, the command drops to an unprivileged user (as the hook runs) once the
# interpreter and the modules the path check needs are loaded: they live under /root.
AS_NOBODY = """
import os, sys
import tomllib, platformdirs
import paperless_dedupe_hook.commands.cli as cli, paperless_dedupe_hook.commands.maintenance, paperless_dedupe_hook.engine
os.setgroups([]); os.setgid(65534); os.setuid(65534)
sys.exit(cli.main(sys.argv[1:]))
"""


def test_an_unwritable_folder_stops_before_any_document_is_read(library: FakePaperless) -> None:
    base = Path(tempfile.mkdtemp(prefix="dedupe-unwritable-"))
    try:
        base.chmod(0o755)
        folder = base / "readonly"
        folder.mkdir()
        folder.chmod(0o555)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_", "DOCUMENT_"))}
        env.update({**_api_env(library), "HOME": str(base), "XDG_CONFIG_HOME": str(base / "cfg"),
                    "PAPERLESS_DEDUPE_INDEX": str(folder / "i.sqlite3")})
        command = [sys.executable, "-c", AS_NOBODY] if os.geteuid() == 0 else [CLI]
        proc = subprocess.run([*command, "rebuild-index"], env=env, capture_output=True, text=True, timeout=300,
                              cwd=base)
        assert proc.returncode == 5, proc.stdout + proc.stderr
        errors = error_lines(proc)
        assert len(errors) == 1 and f"the folder {folder} is not writable by this user" in errors[0], proc.stderr
        assert not library.requests_for("GET", r"/api/documents/")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)
        shutil.rmtree(base)


@pytest.mark.parametrize("command", [["check", "5"], ["dismiss", "1", "2"]])
def test_a_missing_index_leaves_no_lock_file(tmp_path: Path, library: FakePaperless, command: list[str]) -> None:
    proc = run(tmp_path, *command, env=_api_env(library))
    assert proc.returncode == 5, proc.stdout + proc.stderr
    assert "no index at" in error_lines(proc)[0]
    assert leftovers(tmp_path) == []


def test_a_failed_swap_leaves_no_rebuild_file(tmp_path: Path) -> None:
    # Behind the path check's back (the folder changed meanwhile): the rename fails.
    from paperless_dedupe_hook import config as config_mod
    from paperless_dedupe_hook.engine import settings_from_config
    from paperless_dedupe_hook.indexfile import write_fresh
    from paperless_dedupe_hook.rebuild import Document, analyse

    settings = settings_from_config(config_mod.load(config_path=None, env={"PAPERLESS_DEDUPE_CONFIG": "/dev/null"}))
    analysis = analyse([Document(id=d["id"], content=d["content"]) for d in DOCS[:5]], settings, workers=1)
    target = tmp_path / "index.sqlite3"
    target.mkdir()
    with pytest.raises(OSError):
        write_fresh(target, analysis, settings)
    assert not list(tmp_path.glob("index.sqlite3.rebuild*"))
