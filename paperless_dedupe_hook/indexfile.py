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
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from ._errors import IndexBusyError, IndexCorruptError, IndexMismatchError, IndexStoreError
from .engine import Settings
from .index.sqlite import SqliteIndex, is_busy
from .pending import holding

if TYPE_CHECKING:
    from .config import Config
    from .index.redis import RedisIndex
    from .rebuild import Analysis  # rebuilds only: the hook must not import the process pool

Index: TypeAlias = "SqliteIndex | RedisIndex"


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
                    raise IndexBusyError(
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
    if not create and not path.exists():  # before the lock: no stray .lock file beside a missing index
        raise IndexStoreError(f"no index at {path}: run 'paperless-dedupe rebuild-index' to build it")
    with _owned_by_us(path):
        with locked(path, exclusive=False, timeout_seconds=lock_timeout):
            index = SqliteIndex(path, create=create, compat=settings.compat(),
                                busy_timeout_seconds=min(max(lock_timeout, 0.1), 30.0))
            try:
                yield index
            except sqlite3.DatabaseError as exc:  # damage beyond the first page shows only when a query reads it
                raise database_error(path, exc) from None
            finally:
                index.close()


@contextmanager
def _owned_by_us(path: Path) -> Iterator[None]:
    """A refusal by the file system (the index, its lock or a side file owned by another
    user, e.g. root after a 'docker compose exec' without '-u paperless') becomes one line
    naming the files, their owner and the fix; not "internal error" or "damaged"."""
    from .index._access import explain, is_permission

    try:
        yield
    except (IndexBusyError, IndexMismatchError):
        raise
    except (OSError, IndexStoreError, sqlite3.DatabaseError) as exc:
        reason = explain(path) if is_permission(exc) or isinstance(exc, IndexStoreError) else None
        if reason is None:
            raise
        raise IndexStoreError(reason) from None


def database_error(path: Path, exc: sqlite3.DatabaseError) -> IndexStoreError:
    """A one-line error with the fix for an SQLite error raised while using the index."""
    if is_busy(exc):
        return IndexBusyError(f"index {path} stayed locked by another run ({exc}): try again later")
    if isinstance(exc, sqlite3.OperationalError):  # disk full, I/O error, read-only
        return IndexStoreError(f"index {path} could not be used ({exc}): check the disk and the file's permissions, then try again")
    return IndexCorruptError(f"index {path} is damaged ({exc}): run 'paperless-dedupe rebuild-index' to build a new one")


# Where a rebuild started in the live index's change log: (index or generation id,
# last change).  None: carry nothing over (callers that rebuild with no hooks around).
ChangeMark: TypeAlias = "tuple[str, int] | None"
NO_INDEX_YET = ("", 0)


def change_mark(path: Path) -> ChangeMark:
    """Where the live index stands before a full rebuild starts reading documents:
    the swap carries over every document hooks put or removed after it.  No index
    (or an unusable one) yet: ("", 0), everything a file made meanwhile holds."""
    if not path.exists():
        return NO_INDEX_YET
    try:
        with locked(path, exclusive=False), SqliteIndex(path) as index:
            return index.change_mark()
    except (IndexStoreError, sqlite3.DatabaseError):
        return NO_INDEX_YET  # the swap replaces it anyway


def write_fresh(
    path: Path,
    analysis: Analysis,
    settings: Settings,
    *,
    run_kind: str = "full",
    since: ChangeMark = None,
) -> int:
    """Write ``analysis`` into a new file and swap it in atomically, with what hooks
    indexed meanwhile (changed in the live file after ``since``).  Returns how many
    documents were carried over."""
    tmp = path.with_name(path.name + ".rebuild")
    for suffix in ("", "-wal", "-shm", "-journal"):  # what an interrupted earlier rebuild left
        tmp.with_name(tmp.name + suffix).unlink(missing_ok=True)
    fresh = SqliteIndex(tmp, create=True, compat=settings.compat())
    swapped = False
    try:
        with fresh.write():
            fresh.load_fresh(analysis.features, modified=analysis.modified, band_keys=analysis.keys_of,
                             document_frequency=analysis.document_frequency)
            fresh.load_pictures(_picture_rows(analysis))
            from .rebuild import report

            rep = report(analysis, settings)
            fresh.store_results(rep["pairs"], rep["groups"])  # type: ignore[arg-type]
            fresh.set_meta({"last_rebuild": now_iso(), "last_rebuild_kind": run_kind, "documents_read": analysis.documents})
        carried = _swap(path, fresh, tmp, since)
        swapped = True
    finally:
        fresh.close()
        if not swapped:  # a failure (not a kill): leave no half-written .rebuild behind
            for suffix in ("", "-wal", "-shm", "-journal"):
                tmp.with_name(tmp.name + suffix).unlink(missing_ok=True)
    return carried


def _picture_rows(analysis: Analysis) -> Iterator[tuple[int, int, bytes, list[bytes]]]:
    """(doc id, version, signature, keys) of the analysis's pictures (none: core.picture not imported)."""
    if not analysis.pictures:
        return
    from .core.picture import PICTURE_VERSION, picture_band_keys

    for doc_id, signature in sorted(analysis.pictures.items()):
        yield doc_id, PICTURE_VERSION, signature.data, picture_band_keys(signature)


def _swap(path: Path, fresh: SqliteIndex, tmp: Path, since: ChangeMark) -> int:
    carried = 0
    with locked(path, exclusive=True), holding(path, "rebuild-index (swapping in the new index)"):
        if path.exists():
            try:
                old = SqliteIndex(path)
            except IndexStoreError:
                old = None  # a corrupt old index has nothing worth keeping
            if old is not None:
                try:
                    with fresh.write():
                        fresh.copy_user_state_from(old)
                        fresh.copy_journal_from(old)  # resolutions stay undoable after a rebuild
                        # Under the exclusive lock no hook writes the old file: what hooks
                        # indexed (or an incremental removed) since the rebuild started
                        # goes into the new one as it is now.
                        if since is not None and old.meta().get("hash_scheme") and _same_parameters(old, fresh):
                            carried = sum(fresh.carry_over(old, old.changed_since(since)))
                    old.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                except sqlite3.DatabaseError as exc:
                    if isinstance(exc, sqlite3.OperationalError):  # locked or I/O: keep its dismissals, retry later
                        raise database_error(path, exc) from None
                    # damaged beyond its first page: what it held cannot be read; replace it anyway
                finally:
                    old.close()
        # The new file leaves WAL mode for the rename, so that no -wal of its own
        # is left behind; the next opener switches WAL on again.
        fresh.conn.execute("PRAGMA journal_mode = DELETE")
        fresh.close()
        for stale in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            stale.unlink(missing_ok=True)
        os.replace(tmp, path)
    return carried


def _same_parameters(old: SqliteIndex, fresh: SqliteIndex) -> bool:
    """Rows can be copied only between files whose signatures compare (a rebuild with
    new parameters re-reads everything; hooks with the old ones could not write)."""
    from .index.sqlite import COMPAT_KEYS

    theirs, ours = old.meta(), fresh.meta()
    return all(theirs.get(k) == ours.get(k) for k in COMPAT_KEYS if k != "schema_version")


def last_rebuild(meta: Mapping[str, str]) -> str | None:
    return meta.get("last_rebuild")


def ids_missing(index: SqliteIndex, present: Sequence[int]) -> list[int]:
    keep = set(present)
    return [i for i in index.modified_of() if i not in keep]


# -- backend dispatch (index.backend = "sqlite" | "redis") -------------------
# The SQLite path is exactly open_index / write_fresh above; Redis is imported
# only when configured (index.redis imports the redis package lazily as well).

def _redis_url(cfg: Config) -> str:
    return str(cfg["index.redis_url"])


def index_location(cfg: Config) -> str:
    """Where the index lives, fit for output: the file, or the Redis URL without its password."""
    if cfg["index.backend"] == "redis":
        from .index.redis import NAMESPACE, mask_url

        return f"{mask_url(_redis_url(cfg))} ({NAMESPACE})"
    return str(cfg.index_path)


def index_exists(cfg: Config) -> bool:
    if cfg["index.backend"] == "redis":
        from .index.redis import probe

        return bool(probe(_redis_url(cfg))["exists"])
    return cfg.index_path.exists()


def describe_location(cfg: Config) -> dict[str, Any]:
    """The location part of ``status``: a file and its size, or a masked Redis URL."""
    if cfg["index.backend"] == "redis":
        from .index.redis import mask_url, probe

        found = probe(_redis_url(cfg))
        return {"index_path": index_location(cfg), "backend": "redis", "redis_url": mask_url(_redis_url(cfg)),
                "index_exists": found["exists"], "generation": found["generation"]}
    path = cfg.index_path
    return {"index_path": str(path), "backend": "sqlite", "index_exists": path.exists(),
            "index_bytes": path.stat().st_size if path.exists() else 0}


def stored_meta(cfg: Config) -> dict[str, str] | None:
    """The live index's meta table, read without changing anything; None when there is no
    readable index."""
    try:
        if cfg["index.backend"] == "redis":
            from .index.redis import RedisIndex

            with RedisIndex(_redis_url(cfg)) as rindex:
                return rindex.meta()
        if not cfg.index_path.exists():
            return None
        conn = sqlite3.connect(f"{cfg.index_path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta").fetchall()}
        finally:
            conn.close()
    except Exception:  # noqa: BLE001 - missing, damaged or unreachable: nothing to compare
        return None


def stale_reason(cfg: Config, settings: Settings) -> str | None:
    """Why the configured index no longer fits ``settings`` (naming the user's setting), or None."""
    from .drift import stale_reason as reason

    meta = stored_meta(cfg)
    return None if meta is None else reason(meta, settings)


@contextmanager
def open_configured(
    cfg: Config, settings: Settings, *, create: bool = False, lock_timeout: float = 60.0
) -> Iterator[Index]:
    """The live index of the configured backend, checked against ``settings``."""
    try:
        if cfg["index.backend"] != "redis":
            with open_index(cfg.index_path, settings, create=create, lock_timeout=lock_timeout) as index:
                yield index
            return
        from .index.redis import RedisIndex

        with RedisIndex(_redis_url(cfg), create=create, compat=settings.compat(), lock_timeout=lock_timeout) as rindex:
            yield rindex
    except IndexMismatchError as exc:
        reason = stale_reason(cfg, settings)
        if reason is None:
            raise
        raise IndexMismatchError(f"index {index_location(cfg)}: {reason}") from exc


def previous_dismissals(cfg: Config) -> set[tuple[int, int]]:
    """The dismissed pairs of the current index, or none when there is no usable one."""
    try:
        if cfg["index.backend"] == "redis":
            from .index.redis import RedisIndex

            with RedisIndex(_redis_url(cfg)) as rindex:
                return rindex.dismissed_pairs()
        if not cfg.index_path.exists():
            return set()
        with SqliteIndex(cfg.index_path) as old:
            return old.dismissed_pairs()
    except Exception:  # noqa: BLE001 - a missing or broken old index is being replaced anyway
        return set()


def change_mark_configured(cfg: Config) -> ChangeMark:
    """``change_mark`` of the configured index (Redis: of its live generation)."""
    if cfg["index.backend"] != "redis":
        return change_mark(cfg.index_path)
    from .index.redis import RedisIndex

    try:
        with RedisIndex(_redis_url(cfg)) as rindex:
            return rindex.change_mark()
    except IndexStoreError:
        return NO_INDEX_YET  # no index yet, or Redis unreachable: the build says so itself


def write_fresh_configured(
    cfg: Config, analysis: Analysis, settings: Settings, *, run_kind: str = "full", grace_seconds: int | None = None,
    since: ChangeMark = None,
) -> int:
    """``write_fresh`` for the configured backend (returns how many documents hooks
    indexed meanwhile were carried over).  Redis: a new generation, switched in
    atomically; the old one expires after ``grace_seconds``."""
    if cfg["index.backend"] != "redis":
        return write_fresh(cfg.index_path, analysis, settings, run_kind=run_kind, since=since)
    from .index.redis import OLD_GENERATION_GRACE, RedisIndex

    with RedisIndex.build(_redis_url(cfg), compat=settings.compat()) as fresh:
        fresh.load((f, analysis.modified.get(f.doc_id), analysis.keys_of(f)) for f in analysis.features)
        fresh.load_pictures(_picture_rows(analysis))
        from .rebuild import report

        rep = report(analysis, settings)
        fresh.store_results(rep["pairs"], rep["groups"])  # type: ignore[arg-type]
        fresh.set_meta({"last_rebuild": now_iso(), "last_rebuild_kind": run_kind, "documents_read": analysis.documents})
        return fresh.switch(grace_seconds=OLD_GENERATION_GRACE if grace_seconds is None else grace_seconds,
                            since=since)


@contextmanager
def holding_index(index: Index, run: str) -> Iterator[None]:
    """Record ``run`` as the holder of a SQLite index while the block writes it."""
    if isinstance(index, SqliteIndex):
        with holding(index.path, run):
            yield
    else:
        yield
