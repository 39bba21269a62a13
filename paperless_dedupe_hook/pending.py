"""Documents a hook could not check because another run held the index, and who
holds the index right now.

``<index>.pending``  one JSON line per queued document: ``{"id", "at", "reason"}``,
                     appended by a hook that gave up waiting for the index; the next
                     hook (after its own document) or a ``rebuild-index --annotate``
                     checks them and takes them off.  A file, not a table: the hook
                     queues exactly when it cannot write the index.
``<index>.holder``   ``{"run", "pid", "since"}`` of the run inside a write right now,
                     so that a hook that gives up can say which run holds the index
                     and since when.

Both files are small, written under an ``flock`` of their own, never required: a
missing or unreadable one means "nothing queued" / "holder unknown".
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def pending_path(index_path: Path) -> Path:
    return index_path.with_name(index_path.name + ".pending")


def holder_path(index_path: Path) -> Path:
    return index_path.with_name(index_path.name + ".holder")


@contextmanager
def _locked_file(path: Path, flags: int) -> Iterator[int]:
    fd = os.open(path, flags | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)


def queue(index_path: Path, doc_id: int, reason: str) -> Path:
    """Append ``doc_id`` to the pending file; returns its path."""
    path = pending_path(index_path)
    line = json.dumps({"id": int(doc_id), "at": _now(), "reason": reason}, ensure_ascii=False) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    with _locked_file(path, os.O_WRONLY | os.O_APPEND) as fd:
        os.write(fd, line.encode())
    return path


def queued(index_path: Path) -> list[dict[str, Any]]:
    """The queued documents, oldest first, each id once."""
    path = pending_path(index_path)
    try:
        raw = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    seen: dict[int, dict[str, Any]] = {}
    for line in raw.splitlines():
        try:
            item = json.loads(line)
            doc_id = int(item["id"])
        except (ValueError, KeyError, TypeError):
            continue  # a torn line of a process killed while appending
        seen.setdefault(doc_id, item | {"id": doc_id})
    return list(seen.values())


def done(index_path: Path, ids: Iterable[int]) -> None:
    """Take ``ids`` off the queue (entries queued meanwhile stay)."""
    gone = {int(i) for i in ids}
    path = pending_path(index_path)
    if not gone or not path.exists():
        return
    with _locked_file(path, os.O_RDWR) as fd:
        with os.fdopen(os.dup(fd), "r+", encoding="utf-8", errors="replace") as fh:
            keep = []
            for line in fh.read().splitlines():
                try:
                    if int(json.loads(line)["id"]) in gone:
                        continue
                except (ValueError, KeyError, TypeError):
                    continue
                keep.append(line + "\n")
            fh.seek(0)
            fh.truncate()
            fh.write("".join(keep))


@contextmanager
def holding(index_path: Path, run: str) -> Iterator[None]:
    """Record ``run`` as the index's holder while the block runs."""
    path = holder_path(index_path)
    mine = json.dumps({"run": run, "pid": os.getpid(), "since": _now()})
    try:
        tmp = path.with_name(f"{path.name}.{os.getpid()}")
        tmp.write_text(mine, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass  # only for messages: never a reason to fail
    try:
        yield
    finally:
        try:
            if path.read_text(encoding="utf-8") == mine:
                path.unlink()
        except OSError:
            pass  # gone already, or another run's record: the holder file only feeds messages


def holder(index_path: Path) -> str:
    """Who holds the index, for a message: "'rebuild-index --incremental' (pid 12, since ...)"."""
    try:
        data = json.loads(holder_path(index_path).read_text(encoding="utf-8"))
        alive = _alive(int(data["pid"]))
        return (f"'{data['run']}' (pid {data['pid']}, since {data['since']}"
                + ("" if alive else ", no longer running") + ")")
    except (OSError, ValueError, KeyError, TypeError):
        return "another paperless-dedupe run"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
