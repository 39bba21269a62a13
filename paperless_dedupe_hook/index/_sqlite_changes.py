"""What changed in a SQLite index while a full rebuild ran, as a mixin of
:class:`sqlite.SqliteIndex`: the ``changes`` table (migration 3) holds one row per
document put or removed; a rebuild notes where it stood before reading documents and
carries every later change into the new file at the swap.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Any


class SqliteChanges:
    """Needs, from the index it is mixed into: the connection, ``_remove``,
    ``_carry_picture`` and ``_stored_band_keys``."""

    conn: sqlite3.Connection
    _remove: Callable[[int], None]
    _carry_picture: Callable[[Any, int], None]
    _stored_band_keys: Callable[[bytes | None], Sequence[int] | None]

    def change_mark(self) -> tuple[str, int]:
        """(this file's id, its last change): where a full rebuild starts."""
        row = self.conn.execute("SELECT value FROM meta WHERE key='index_id'").fetchone()
        last = self.conn.execute("SELECT coalesce(max(seq), 0) FROM changes").fetchone()[0]
        return (str(row[0]) if row else "", int(last))

    def changed_since(self, mark: tuple[str, int]) -> list[int]:
        """Documents put or removed after ``mark``; every changed document when the mark
        belongs to another file (none yet, or one another rebuild swapped in meanwhile)."""
        index_id, seq = mark
        if index_id != self.change_mark()[0]:
            seq = 0
        return [r[0] for r in self.conn.execute("SELECT DISTINCT doc_id FROM changes WHERE seq > ? ORDER BY doc_id",
                                                (seq,))]

    def carry_over(self, other: SqliteChanges, ids: Iterable[int]) -> tuple[int, int]:
        """Make each of ``ids`` as it is in ``other`` (same parameters): its row, bands
        and token counts copied, or removed when ``other`` no longer holds it.  Call
        inside ``write()``.  Returns (copied, removed)."""
        copied = removed = 0
        for doc_id in ids:
            row = other.conn.execute(
                "SELECT id, modified, fingerprint, word_count, shingle_count, signature, tokens, title, places "
                "FROM documents WHERE id=?", (doc_id,)).fetchone()
            self._remove(doc_id)
            self.conn.execute("INSERT INTO changes (doc_id) VALUES (?)", (doc_id,))
            if row is None:
                removed += 1
                continue
            self.conn.execute("INSERT INTO documents VALUES (?,?,?,?,?,?,?,?,?)", tuple(row))
            keys = self._stored_band_keys(row[5])
            if keys is None:  # a layout we cannot recompute: the other file's rows (a scan)
                keys = [r[0] for r in other.conn.execute("SELECT key FROM bands WHERE doc_id=?", (doc_id,))]
            self.conn.executemany("INSERT OR IGNORE INTO bands VALUES (?, ?)", [(k, doc_id) for k in keys])
            self.conn.executemany(
                "INSERT INTO token_df VALUES (?, 1) ON CONFLICT(token) DO UPDATE SET df = df + 1",
                [(t,) for t in str(row[6]).split("\n") if t],
            )
            self._carry_picture(other, doc_id)
            copied += 1
        return copied, removed
