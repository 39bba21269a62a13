"""The schema of a SQLite index: named migration functions, applied in order
(``MIGRATIONS``) and recorded as ``schema_version`` in ``meta``.  Each runs inside the
migrating write transaction, statement by statement.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from ..core import minhash
from ..core.features import Features


def _m1_initial(conn: sqlite3.Connection) -> None:
    # Statement by statement: executescript() would COMMIT the migration's transaction.
    _run_script(
        conn,
        """
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS documents (
            id INTEGER PRIMARY KEY,
            modified TEXT,
            fingerprint BLOB NOT NULL,
            word_count INTEGER NOT NULL,
            shingle_count INTEGER NOT NULL,
            signature BLOB,
            sample BLOB NOT NULL,
            tokens TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE IF NOT EXISTS bands (key INTEGER NOT NULL, doc_id INTEGER NOT NULL,
            PRIMARY KEY (key, doc_id)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS token_df (token TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS annotations (doc_id INTEGER NOT NULL, match_id INTEGER NOT NULL,
            at TEXT NOT NULL, PRIMARY KEY (doc_id, match_id)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS dismissed (a INTEGER NOT NULL, b INTEGER NOT NULL, reason TEXT NOT NULL,
            at TEXT NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS result_pairs (a INTEGER NOT NULL, b INTEGER NOT NULL, score REAL NOT NULL,
            detail TEXT NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS result_groups (primary_id INTEGER PRIMARY KEY, members TEXT NOT NULL,
            confidence REAL NOT NULL);
        """
    )


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def _m2_no_stored_text(conn: sqlite3.Connection) -> None:
    # Schema 2 stores no text samples, narrow (16-bit) signatures and 31-bit band keys.
    # Rows of schema 1 cannot be converted (their band keys hash the full values), so
    # they go; user state stays.  The old hash_scheme stays in meta, so opening the
    # index says "run rebuild-index" instead of answering from an empty index.
    for table in ("bands", "token_df", "result_pairs", "result_groups"):
        conn.execute(f"DELETE FROM {table}")
    # Dropped and made again rather than ALTER TABLE ... DROP COLUMN, which SQLite
    # before 3.35 (still the system library of some distributions) does not know.
    conn.execute("DROP TABLE documents")
    conn.execute(
        """CREATE TABLE documents (
            id INTEGER PRIMARY KEY,
            modified TEXT,
            fingerprint BLOB NOT NULL,
            word_count INTEGER NOT NULL,
            shingle_count INTEGER NOT NULL,
            signature BLOB,
            tokens TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT ''
        )"""
    )


def _m3_change_log(conn: sqlite3.Connection) -> None:
    # Hooks keep indexing while a full rebuild reads Paperless; the rebuild notes
    # (index_id, last seq) when it starts and, at the swap, carries over every document
    # changed after that.  index_id tells whether a seq belongs to this very file.
    conn.execute("CREATE TABLE IF NOT EXISTS changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, doc_id INTEGER NOT NULL)")
    conn.execute("INSERT OR IGNORE INTO meta VALUES ('index_id', ?)", (_new_index_id(),))


def _new_index_id() -> str:
    import secrets

    return secrets.token_hex(8)


def _m4_resolution_journal(conn: sqlite3.Connection) -> None:
    # One row per resolution (``resolve``), written before its first write to Paperless:
    # both documents as they were and what is carried over (``plan``, JSON), the steps
    # done so far, and where it stands (resolving, resolved, undoing, undone, rolled back).
    conn.execute(
        """CREATE TABLE IF NOT EXISTS resolutions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            copy_id INTEGER NOT NULL,
            keeper_id INTEGER NOT NULL,
            mode TEXT NOT NULL,
            state TEXT NOT NULL,
            started TEXT NOT NULL,
            updated TEXT NOT NULL,
            plan TEXT NOT NULL,
            steps TEXT NOT NULL DEFAULT '[]',
            error TEXT NOT NULL DEFAULT ''
        )"""
    )
    conn.execute("CREATE INDEX IF NOT EXISTS resolutions_copy ON resolutions (copy_id)")


def _m5_pictures(conn: sqlite3.Connection) -> None:
    # Documents with too little text are compared by their first page's picture (issue 26):
    # its signature (``version``: the PICTURE_VERSION that made it; rows of another version
    # are never compared) and its lookup keys, probed by key like ``bands`` and deleted by
    # document.  Nothing else changes: a schema-4 index keeps every row.
    conn.execute(
        """CREATE TABLE IF NOT EXISTS pictures (
            doc_id INTEGER PRIMARY KEY,
            version INTEGER NOT NULL,
            signature BLOB NOT NULL
        )"""
    )
    conn.execute("CREATE TABLE IF NOT EXISTS picture_bands (key BLOB NOT NULL, doc_id INTEGER NOT NULL, "
                 "PRIMARY KEY (key, doc_id)) WITHOUT ROWID")
    conn.execute("CREATE INDEX IF NOT EXISTS picture_bands_doc ON picture_bands (doc_id)")


def _m6_value_places(conn: sqlite3.Connection) -> None:
    # Where each token stands in its document (core.placement: two bytes a token, in the order
    # of the sorted tokens), so that the values of a cover sheet need not conflict.  Rows
    # written before have none (x''), and are scored as before until a rebuild-index.
    columns = {row[1] for row in conn.execute("PRAGMA table_info(documents)")}
    if "places" not in columns:  # idempotent: a column already there is kept
        conn.execute("ALTER TABLE documents ADD COLUMN places BLOB NOT NULL DEFAULT x''")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _m1_initial, _m2_no_stored_text, _m3_change_log, _m4_resolution_journal, _m5_pictures, _m6_value_places,
)


def document_row(feats: Features, modified: str | None) -> tuple[object, ...]:
    """The ``documents`` row of one document (column order of the table)."""
    return (
        feats.doc_id,
        modified,
        feats.fingerprint,
        feats.word_count,
        feats.shingle_count,
        minhash.to_bytes(feats.signature) if feats.signature is not None else None,
        "\n".join(sorted(feats.tokens)),
        feats.title,
        feats.places,
    )
