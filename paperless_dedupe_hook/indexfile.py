"""Opening the index for use, and replacing it with a freshly built one.

A rebuild writes ``<index>.rebuild`` beside the live file and swaps it in with
``os.replace``.  SQLite in WAL mode keeps ``-wal``/``-shm`` files next to the live
file; replacing the main file under a process that still has the old one open
would pair the new file with the old write-ahead log.  So every user of the index
holds a shared ``flock`` on ``<index>.lock`` while it has the file open, and the
swap takes it exclusively: it waits for running hooks (seconds at most), folds the
old log into the old file, and only then renames.  A crash before the rename
leaves the old index untouched and a stale ``.rebuild`` that the next rebuild
simply overwrites.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from ._errors import IndexStoreError
from .engine import Settings
from .rebuild import Analysis, report
from .store import SqliteIndex


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


@contextmanager
def locked(path: Path, *, exclusive: bool, timeout_seconds: float = 60.0) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(_lock_path(path), os.O_RDWR | os.O_CREAT, 0o644)
    mode = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH
    deadline = time.monotonic() + timeout_seconds
    try:
        while True:
            try:
                fcntl.flock(fd, mode | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise IndexStoreError(
                        f"index {path} stayed locked for {timeout_seconds:g} s (a rebuild is swapping it in?): try again"
                    ) from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


@contextmanager
def open_index(
    path: Path, settings: Settings, *, create: bool = False, lock_timeout: float = 60.0
) -> Iterator[SqliteIndex]:
    """The live index, checked against ``settings``, under a shared lock."""
    with locked(path, exclusive=False, timeout_seconds=lock_timeout):
        index = SqliteIndex(path, create=create, compat=settings.compat())
        try:
            yield index
        finally:
            index.close()


def write_fresh(
    path: Path,
    analysis: Analysis,
    settings: Settings,
    *,
    run_kind: str = "full",
) -> None:
    """Write ``analysis`` into a new file and swap it in atomically."""
    tmp = path.with_name(path.name + ".rebuild")
    for leftover in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
        leftover.unlink(missing_ok=True)  # an interrupted earlier rebuild
    fresh = SqliteIndex(tmp, create=True, compat=settings.compat())
    try:
        with fresh.write():
            for feats in analysis.features:
                fresh.put(feats, modified=analysis.modified.get(feats.doc_id), keys=settings.band_keys(feats))
            rep = report(analysis, settings)
            fresh.store_results(rep["pairs"], rep["groups"])  # type: ignore[arg-type]
            fresh.set_meta({"last_rebuild": now_iso(), "last_rebuild_kind": run_kind, "documents_read": analysis.documents})
        _swap(path, fresh, tmp)
    finally:
        fresh.close()


def _swap(path: Path, fresh: SqliteIndex, tmp: Path) -> None:
    with locked(path, exclusive=True):
        if path.exists():
            try:
                old = SqliteIndex(path)
            except IndexStoreError:
                old = None  # a corrupt old index has nothing worth keeping
            if old is not None:
                try:
                    with fresh.write():
                        fresh.copy_user_state_from(old)
                    old.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                finally:
                    old.close()
        # The new file leaves WAL mode for the rename, so that no -wal of its own
        # is left behind; the next opener switches WAL on again.
        fresh.conn.execute("PRAGMA journal_mode = DELETE")
        fresh.close()
        for stale in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            stale.unlink(missing_ok=True)
        os.replace(tmp, path)


def last_rebuild(meta: Mapping[str, str]) -> str | None:
    return meta.get("last_rebuild")


def ids_missing(index: SqliteIndex, present: Sequence[int]) -> list[int]:
    keep = set(present)
    return [i for i in index.modified_of() if i not in keep]
