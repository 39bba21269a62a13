"""The pictures of documents with too little text (issue 26), as a mixin of
:class:`sqlite.SqliteIndex`: tables ``pictures`` and ``picture_bands`` (migration 5).

A picture's signature is stored as bytes with the ``PICTURE_VERSION`` that made it;
rows of another version are never compared (a rebuild hashes them again).  Its lookup
keys go into ``picture_bands``, probed by key like the text bands: a hook finds its
candidates with one indexed lookup per key, whatever the library's size.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

# A key shared by more documents than this is no evidence (a layout every scan of one
# form has, the grey of near-blank paper): it makes no candidates.  The same limit holds
# in a rebuild (rebuild's picture pairs), so both find the same pairs.
PICTURE_BUCKET_MAX = 200
# The hook compares at most this many candidates per picture (``core.picture.choose_candidates``):
# the first PICTURE_CANDIDATES_BY_KEYS by the weight of their shared keys, the others by how well
# their coarse layouts correlate, out of the PICTURE_CANDIDATE_POOL that weigh most.
PICTURE_CANDIDATES_MAX = 100
PICTURE_CANDIDATES_BY_KEYS = 50
PICTURE_CANDIDATE_POOL = 200


class SqlitePictures:
    """Needs, from the index it is mixed into: the connection."""

    conn: sqlite3.Connection

    def put_picture(self, doc_id: int, *, version: int, signature: bytes, keys: Sequence[bytes]) -> None:
        """Insert or replace one document's picture (inside ``write()``)."""
        self.remove_picture(doc_id)
        self.conn.execute("INSERT INTO pictures VALUES (?, ?, ?)", (doc_id, version, signature))
        self.conn.executemany("INSERT OR IGNORE INTO picture_bands VALUES (?, ?)", [(k, doc_id) for k in keys])

    def remove_picture(self, doc_id: int) -> None:
        self.conn.execute("DELETE FROM picture_bands WHERE doc_id=?", (doc_id,))
        self.conn.execute("DELETE FROM pictures WHERE doc_id=?", (doc_id,))

    def load_pictures(self, items: Iterable[tuple[int, int, bytes, Sequence[bytes]]]) -> None:
        """(doc id, version, signature, keys) of many documents at once (a rebuild, into
        a new index; inside ``write()``)."""
        rows: list[tuple[int, int, bytes]] = []
        bands: list[tuple[bytes, int]] = []
        for doc_id, version, signature, keys in items:
            rows.append((doc_id, version, signature))
            bands.extend((k, doc_id) for k in keys)
        self.conn.executemany("INSERT INTO pictures VALUES (?, ?, ?)", rows)
        self.conn.executemany("INSERT OR IGNORE INTO picture_bands VALUES (?, ?)", sorted(bands))

    def picture_candidates(self, keys: Sequence[bytes], *, exclude: int | None, version: int) -> dict[int, bytes]:
        """The stored signatures (of ``version``) of documents that share an evidence key
        with ``keys``: at most ``PICTURE_CANDIDATE_POOL``, those whose shared keys weigh most
        first, in that order (a key weighs one over the pictures that have it: sharing a rare key
        says more than sharing one half the forms of a pad have)."""
        if not keys:
            return {}
        marks = ",".join("?" * len(keys))
        rows = self.conn.execute(
            f"""SELECT p.doc_id, p.signature FROM (
                    SELECT b.doc_id, sum(1.0 / k.n) AS weight FROM picture_bands AS b
                    JOIN (SELECT key, count(*) AS n FROM picture_bands WHERE key IN ({marks}) GROUP BY key
                          HAVING count(*) <= ?) AS k ON k.key = b.key
                    WHERE b.doc_id != ?
                    GROUP BY b.doc_id ORDER BY weight DESC, b.doc_id LIMIT ?) AS c
                JOIN pictures AS p ON p.doc_id = c.doc_id WHERE p.version = ?
                ORDER BY c.weight DESC, c.doc_id""",
            [*keys, PICTURE_BUCKET_MAX, -1 if exclude is None else exclude, PICTURE_CANDIDATE_POOL, version],
        ).fetchall()
        return {int(doc_id): bytes(sig) for doc_id, sig in rows}

    def pictures(self, ids: Iterable[int]) -> dict[int, tuple[int, bytes]]:
        """{doc id: (version, signature)} of those of ``ids`` that have a picture."""
        ids = list(ids)
        out: dict[int, tuple[int, bytes]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for doc_id, version, sig in self.conn.execute(
                    f"SELECT doc_id, version, signature FROM pictures WHERE doc_id IN ({marks})", chunk):
                out[int(doc_id)] = (int(version), bytes(sig))
        return out

    def picture_count(self, version: int | None = None) -> int:
        """How many pictures are stored (of ``version``, when given)."""
        if version is None:
            return int(self.conn.execute("SELECT count(*) FROM pictures").fetchone()[0])
        return int(self.conn.execute("SELECT count(*) FROM pictures WHERE version=?", (version,)).fetchone()[0])

    def stale_pictures(self, version: int) -> list[int]:
        """Documents whose stored picture another PICTURE_VERSION made: to hash again."""
        return [int(r[0]) for r in self.conn.execute("SELECT doc_id FROM pictures WHERE version != ? ORDER BY doc_id",
                                                     (version,))]

    def _carry_picture(self, other: Any, doc_id: int) -> None:
        """``doc_id``'s picture as ``other`` (another SqliteIndex) holds it (none: none here either)."""
        self.remove_picture(doc_id)
        row = other.conn.execute("SELECT version, signature FROM pictures WHERE doc_id=?", (doc_id,)).fetchone()
        if row is None:
            return
        keys = [r[0] for r in other.conn.execute("SELECT key FROM picture_bands WHERE doc_id=?", (doc_id,))]
        self.put_picture(doc_id, version=int(row[0]), signature=bytes(row[1]), keys=keys)
