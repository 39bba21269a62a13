"""The journal of resolutions in a SQLite index, as a mixin of :class:`sqlite.SqliteIndex`
(table ``resolutions``, migration 4).

An entry is written before the first write to Paperless and updated after each step, so
that an interrupted resolution is found, and finished or rolled back, by the next run.
The plan is JSON the application layer writes and reads; the index only keeps it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .._errors import IndexCorruptError, IndexStoreError

#: Where a resolution stands.  ``resolving`` and ``undoing`` are open: a run was
#: interrupted in them (or is in them now), and the next ``resolve`` or ``undo`` takes it up.
OPEN_STATES = ("resolving", "undoing")
STATES = ("resolving", "resolved", "undoing", "undone", "rolled back")

_COLUMNS = "id, copy_id, keeper_id, mode, state, started, updated, plan, steps, error"


class SqliteJournal:
    """Needs, from the index it is mixed into: the connection and the path."""

    conn: sqlite3.Connection
    path: Path

    def _entry(self, row: tuple[Any, ...]) -> dict[str, Any]:
        entry_id, copy_id, keeper_id, mode, state, started, updated, plan, steps, error = row
        try:
            return {"id": entry_id, "copy": copy_id, "keeper": keeper_id, "mode": mode, "state": state,
                    "started": started, "updated": updated, "plan": json.loads(plan), "steps": json.loads(steps),
                    "error": error}
        except ValueError as exc:
            raise IndexCorruptError(
                f"index {self.path}: resolution {entry_id} of the journal is damaged ({exc}): "
                "the documents in Paperless are as its last step left them; check them by hand"
            ) from None

    def journal_add(self, copy_id: int, keeper_id: int, mode: str, plan: dict[str, Any], at: str) -> int:
        """A new resolution in state ``resolving`` (call inside ``write()``); its id."""
        cur = self.conn.execute(
            "INSERT INTO resolutions (copy_id, keeper_id, mode, state, started, updated, plan) "
            "VALUES (?, ?, ?, 'resolving', ?, ?, ?)",
            (copy_id, keeper_id, mode, at, at, json.dumps(plan, sort_keys=True)))
        return int(cur.lastrowid or 0)

    def journal_update(self, entry_id: int, at: str, *, state: str | None = None, steps: list[str] | None = None,
                       error: str | None = None, plan: dict[str, Any] | None = None) -> None:
        if state is not None and state not in STATES:
            raise ValueError(f"unknown resolution state {state!r}")
        sets, values = ["updated = ?"], [at]
        for column, value in (("state", state), ("error", error)):
            if value is not None:
                sets.append(f"{column} = ?")
                values.append(value)
        if steps is not None:
            sets.append("steps = ?")
            values.append(json.dumps(steps))
        if plan is not None:
            sets.append("plan = ?")
            values.append(json.dumps(plan, sort_keys=True))
        self.conn.execute(f"UPDATE resolutions SET {', '.join(sets)} WHERE id = ?", (*values, entry_id))

    def journal_entry(self, entry_id: int) -> dict[str, Any] | None:
        row = self.conn.execute(f"SELECT {_COLUMNS} FROM resolutions WHERE id = ?", (entry_id,)).fetchone()
        return self._entry(row) if row else None

    def journal_entries(self, *, copy_id: int | None = None, open_only: bool = False) -> list[dict[str, Any]]:
        """Resolutions, newest first (of one copy; or only those a run left open)."""
        where: list[str] = []
        values: list[object] = []
        if copy_id is not None:
            where.append("copy_id = ?")
            values.append(copy_id)
        if open_only:
            where.append(f"state IN ({','.join('?' * len(OPEN_STATES))})")
            values.extend(OPEN_STATES)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        rows = self.conn.execute(f"SELECT {_COLUMNS} FROM resolutions{clause} ORDER BY id DESC", values)
        return [self._entry(r) for r in rows]

    def involved_in_resolution(self, doc_id: int, *, version_row: bool = False) -> bool:
        """Whether a resolution is writing to this document (copy or keeper, open state),
        or, for a version row (``version_row``), whether a resolution in ``version`` mode
        stored a version of it: the hook leaves what a resolution does alone."""
        if self.conn.execute(
                "SELECT EXISTS (SELECT 1 FROM resolutions WHERE (copy_id = ? OR keeper_id = ?) "
                "AND state IN ('resolving', 'undoing'))", (doc_id, doc_id)).fetchone()[0]:
            return True
        return version_row and bool(self.conn.execute(
            "SELECT EXISTS (SELECT 1 FROM resolutions WHERE keeper_id = ? AND mode = 'version' "
            "AND state = 'resolved')", (doc_id,)).fetchone()[0])

    def pair_partners(self, doc_id: int) -> dict[int, str]:
        """The documents found as duplicates of ``doc_id``, by the hook (annotations, either
        way round) or by the last rebuild (with its verdict: duplicate or revision)."""
        out: dict[int, str] = {}
        for (other,) in self.conn.execute("SELECT match_id FROM annotations WHERE doc_id = ?", (doc_id,)):
            out[other] = ""
        for (other,) in self.conn.execute("SELECT doc_id FROM annotations WHERE match_id = ?", (doc_id,)):
            out[other] = ""
        for a, b, detail in self.conn.execute("SELECT a, b, detail FROM result_pairs WHERE a = ? OR b = ?",
                                              (doc_id, doc_id)):
            try:
                verdict = str(json.loads(detail).get("verdict") or "duplicate")
            except (ValueError, AttributeError):
                verdict = ""
            out[b if a == doc_id else a] = verdict
        return out

    def copy_journal_from(self, other: SqliteJournal) -> None:
        """Carry the journal over into a freshly built index (ids kept: ``undo ID`` still works)."""
        self.conn.executemany(
            f"INSERT OR REPLACE INTO resolutions ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
            other.conn.execute(f"SELECT {_COLUMNS} FROM resolutions").fetchall())

    @contextmanager
    def resolve_lock(self, *, wait_seconds: float) -> Iterator[bool]:
        """One resolve or undo at a time on this index (``<index>.resolve.lock``, released
        when the process ends, also by SIGKILL); False when another holds it past ``wait_seconds``."""
        import fcntl
        import os

        lock_path = self.path.with_name(self.path.name + ".resolve.lock")
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise IndexStoreError(f"cannot open {lock_path} ({exc.strerror}): check the index directory's "
                                  "permissions") from None
        try:
            give_up = time.monotonic() + wait_seconds
            while True:
                try:
                    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError:
                    if time.monotonic() >= give_up:
                        yield False
                        return
                    time.sleep(0.05)
            yield True
        finally:
            os.close(fd)
