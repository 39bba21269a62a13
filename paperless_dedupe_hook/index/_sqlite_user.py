"""User state and results of a SQLite index, as a mixin of :class:`sqlite.SqliteIndex`:
which pairs we annotated in Paperless, which a user dismissed, the per-document
locks held while writing to Paperless, and the outcome of the last rebuild.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .._errors import IndexCorruptError, IndexStoreError


class SqliteUserState:
    """Needs, from the index it is mixed into: the connection and the path."""

    conn: sqlite3.Connection
    path: Path

    # -- annotations and dismissals -------------------------------------
    @contextmanager
    def annotation_lock(self, doc_ids: Iterable[int], *, timeout_seconds: float = 30.0) -> Iterator[None]:
        """Exclusive locks on documents while we write to them in Paperless.

        One byte per document id in ``<index>.annotate.lock`` (POSIX record locks,
        released when the process ends, also by SIGKILL), taken in id order so that
        two hooks never wait for each other in a circle.  Waits at most
        ``timeout_seconds`` (another hook's annotation takes well under a second).
        """
        import errno
        import fcntl
        import os
        import time

        lock_path = self.path.with_name(self.path.name + ".annotate.lock")
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise IndexStoreError(f"cannot open {lock_path} ({exc.strerror}): check the index directory's permissions") from None
        try:
            deadline = time.monotonic() + timeout_seconds
            for doc_id in sorted(set(doc_ids)):
                while True:
                    try:
                        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, int(doc_id))
                        break
                    except OSError as exc:
                        if exc.errno not in (errno.EACCES, errno.EAGAIN):
                            raise IndexStoreError(f"cannot lock {lock_path} ({exc.strerror})") from None
                        if time.monotonic() > deadline:
                            raise IndexStoreError(
                                f"document {doc_id} stayed locked by another paperless-dedupe run for "
                                f"{timeout_seconds:g} s: run 'paperless-dedupe hook --document-id N' again later"
                            ) from None
                        time.sleep(0.02)
            yield
        finally:
            os.close(fd)  # releases every lock this process holds on the file

    def annotated(self, doc_id: int) -> set[int]:
        return {r[0] for r in self.conn.execute("SELECT match_id FROM annotations WHERE doc_id=?", (doc_id,))}

    def record_annotation(self, doc_id: int, match_ids: Iterable[int], at: str) -> None:
        self.conn.executemany(
            "INSERT OR IGNORE INTO annotations VALUES (?, ?, ?)", [(doc_id, m, at) for m in match_ids]
        )

    def dismissed_pairs(self) -> set[tuple[int, int]]:
        return {(a, b) for a, b in self.conn.execute("SELECT a, b FROM dismissed")}

    def dismiss(self, a: int, b: int, reason: str, at: str) -> None:
        low, high = min(a, b), max(a, b)
        self.conn.execute("INSERT OR IGNORE INTO dismissed VALUES (?, ?, ?, ?)", (low, high, reason, at))

    # -- results of the last rebuild ------------------------------------
    def store_results(self, pairs: Sequence[Mapping[str, Any]], groups: Sequence[Mapping[str, Any]]) -> None:
        self.conn.execute("DELETE FROM result_pairs")
        self.conn.execute("DELETE FROM result_groups")
        self.conn.executemany(
            "INSERT OR REPLACE INTO result_pairs VALUES (?, ?, ?, ?)",
            [(p["a"], p["b"], p["score"], json.dumps(p)) for p in pairs],
        )
        self.conn.executemany(
            "INSERT OR REPLACE INTO result_groups VALUES (?, ?, ?)",
            [(g["primary"], json.dumps(g["members"]), g["confidence"]) for g in groups],
        )

    def add_found_pairs(self, pairs: Sequence[Mapping[str, Any]], at: str) -> None:
        """Pairs a hook found, added to the stored results (marked ``found_by: "hook"``) until
        the next rebuild replaces them with its own; a pair the rebuild stored stays as it is."""
        self.conn.executemany(
            "INSERT OR IGNORE INTO result_pairs VALUES (?, ?, ?, ?)",
            [(p["a"], p["b"], p["score"], json.dumps({**p, "found_by": "hook", "found_at": at})) for p in pairs],
        )

    def results(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        try:
            pairs = [json.loads(r[0]) for r in self.conn.execute("SELECT detail FROM result_pairs ORDER BY score DESC")]
            groups = [
                {"primary": p, "members": json.loads(m), "confidence": c}
                for p, m, c in self.conn.execute(
                    "SELECT primary_id, members, confidence FROM result_groups ORDER BY confidence DESC"
                )
            ]
        except ValueError as exc:  # json.JSONDecodeError and UnicodeDecodeError are ValueErrors
            raise IndexCorruptError(
                f"index {self.path}: the stored results are damaged ({exc}): run 'paperless-dedupe rebuild-index'"
            ) from None
        return pairs, groups

    def copy_user_state_from(self, other: SqliteUserState) -> None:
        """Carry annotations and dismissals over into a freshly built index."""
        self.conn.executemany(
            "INSERT OR IGNORE INTO annotations VALUES (?, ?, ?)",
            other.conn.execute("SELECT doc_id, match_id, at FROM annotations").fetchall(),
        )
        self.conn.executemany(
            "INSERT OR IGNORE INTO dismissed VALUES (?, ?, ?, ?)",
            other.conn.execute("SELECT a, b, reason, at FROM dismissed").fetchall(),
        )
