"""The persistent index: one SQLite file in WAL mode.

Tables
  meta         what makes signatures comparable, plus run bookkeeping
  documents    one row per indexed document: what scoring needs later, except its
               text (fetched from Paperless for the few candidates that need it)
  bands        (key, doc_id): one row per LSH band, indexed by key, so a lookup
               costs one indexed probe per band whatever the library's size
  token_df     in how many documents each discriminative token occurs
  annotations  which (document, match) pairs we have written to Paperless
  dismissed    pairs a user dismissed (removed our tag, or ``dismiss A B``)
  result_pairs / result_groups   the outcome of the last rebuild (for reports)
  changes      one row per document put or removed (seq, doc_id): what a full rebuild
               that started at seq N carries over from the live file when it swaps
  resolutions  the journal of ``resolve`` (index/_sqlite_journal.py)
  pictures / picture_bands   first-page pictures of documents with too little text,
               and their lookup keys (index/_sqlite_pictures.py)

Writers take ``BEGIN IMMEDIATE`` so concurrent hooks serialize instead of failing
with "database is locked"; readers never block in WAL mode.  Schema changes are
named migration functions, applied in order and recorded in ``meta``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from .._errors import IndexBusyError, IndexCorruptError, IndexMismatchError, IndexStoreError
from ..core import minhash
from ..core.commonkeys import bucket_role, chosen
from ..core.features import Features
from ._sqlite_changes import SqliteChanges
from ._sqlite_journal import SqliteJournal
from ._sqlite_load import SqliteBulkLoad
from ._sqlite_pictures import SqlitePictures
from ._sqlite_schema import MIGRATIONS, _m1_initial, _m2_no_stored_text, _m3_change_log, document_row  # noqa: F401 - named here by tests
from ._sqlite_user import SqliteUserState

SCHEMA_VERSION = len(MIGRATIONS)
BUSY_TIMEOUT_MS = 30_000
# Keys of ``meta`` that must equal the running configuration's, or the stored
# signatures cannot be compared with new ones.
COMPAT_KEYS = (
    "schema_version",
    "hash_scheme",
    "normalizer_version",
    "extractor_version",
    "num_permutations",
    "seed",
    "shingle",
    "ngram_size",
    "bands",
    "rows",
    "min_words",
)


def is_busy(exc: sqlite3.DatabaseError) -> bool:
    """SQLITE_BUSY: another connection held the write lock past our busy timeout."""
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)


class SqliteIndex(SqliteBulkLoad, SqliteChanges, SqliteJournal, SqlitePictures, SqliteUserState):
    """An open index file.  Use as a context manager, or call ``close``."""

    backend = "sqlite"

    def __init__(self, path: Path, *, create: bool = False, compat: Mapping[str, str] | None = None,
                 busy_timeout_seconds: float = BUSY_TIMEOUT_MS / 1000) -> None:
        self.path = path
        busy_ms = max(1, int(busy_timeout_seconds * 1000))
        if not create and not path.exists():
            raise IndexStoreError(f"no index at {path}: run 'paperless-dedupe rebuild-index' to build it")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(str(path), timeout=busy_ms / 1000, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise IndexStoreError(f"cannot open index {path} ({exc}): check the path and its permissions") from None
        try:
            self.conn.execute(f"PRAGMA busy_timeout = {busy_ms}")
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = NORMAL")
            self._migrate()
            if compat is not None:
                self._check_compat(compat)
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            if is_busy(exc):
                raise IndexBusyError(f"index {path} is locked by another run ({exc})") from None
            raise IndexCorruptError(
                f"index {path} is unreadable ({exc}): run 'paperless-dedupe rebuild-index' to build a new one"
            ) from None
        except IndexStoreError:
            self.conn.close()
            raise

    # -- lifecycle -------------------------------------------------------
    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> SqliteIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def write(self) -> Iterator[None]:
        """One write transaction, taken before reading so that check-then-insert
        is atomic across concurrent hooks."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def _migrate(self) -> None:
        has_meta = self.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'"
        ).fetchone()
        done = 0
        if has_meta:
            row = self.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            done = int(row[0]) if row else 0
        if done > len(MIGRATIONS):
            raise IndexMismatchError(
                f"index {self.path} has schema {done}, newer than this version understands ({len(MIGRATIONS)}): "
                "upgrade paperless-dedupe-hook or run 'paperless-dedupe rebuild-index'"
            )
        if done == len(MIGRATIONS):
            return
        with self.write():
            # Read again under the write lock: hooks starting together on a new (or
            # older) index would otherwise each apply the same migrations.
            if self.conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone():
                row = self.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
                done = int(row[0]) if row else 0
            for migration in MIGRATIONS[done:]:
                migration(self.conn)
            self.conn.execute(
                "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(len(MIGRATIONS)),)
            )

    # -- meta ------------------------------------------------------------
    def meta(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT key, value FROM meta").fetchall())

    def set_meta(self, values: Mapping[str, object]) -> None:
        self.conn.executemany(
            "INSERT OR REPLACE INTO meta VALUES (?, ?)", [(k, str(v)) for k, v in values.items()]
        )

    def _check_compat(self, compat: Mapping[str, str]) -> None:
        stored = self.meta()
        if "hash_scheme" not in stored:  # a new, empty index takes the running parameters
            with self.write():
                self.set_meta(compat)
            return
        for key in COMPAT_KEYS:
            if key in compat and stored.get(key) != str(compat[key]):
                raise IndexMismatchError(
                    f"index {self.path} was built with {key}={stored.get(key)}, the configuration says "
                    f"{compat[key]}: run 'paperless-dedupe rebuild-index'"
                )

    # -- documents -------------------------------------------------------
    def count(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM documents").fetchone()[0])

    def modified_of(self) -> dict[int, str | None]:
        return dict(self.conn.execute("SELECT id, modified FROM documents").fetchall())

    def fingerprint(self, doc_id: int) -> bytes | None:
        row = self.conn.execute("SELECT fingerprint FROM documents WHERE id=?", (doc_id,)).fetchone()
        return bytes(row[0]) if row else None

    def candidates(self, keys: Sequence[int], *, exclude: int | None = None) -> list[int]:
        """Documents sharing evidence keys with the asking document (``keys`` are its
        own; ``exclude`` its id), as :func:`..core.commonkeys.bucket_role` tells them:
        the same pairs a rebuild finds.  Each key's size is a count over one range of
        the key index (the bands table holds it already: no extra storage); a bucket is
        as long as its key is common, and at most ``COMMON_KEY_DOCS`` rows are read
        for its members."""
        if not keys:
            return []
        marks = ",".join("?" * len(keys))
        me = -1 if exclude is None else exclude
        sizes = self.conn.execute(
            f"SELECT key, COUNT(*) - SUM(doc_id = ?) + 1 FROM bands WHERE key IN ({marks}) GROUP BY key",
            [me, *keys]).fetchall()
        evidence = {key: n for key, n in sizes if bucket_role(n) != "none"}
        if not evidence:
            return []
        meetings: dict[int, list[int]] = {}
        marks = ",".join("?" * len(evidence))
        for key, doc_id in self.conn.execute(f"SELECT key, doc_id FROM bands WHERE key IN ({marks})", list(evidence)):
            if doc_id != me:
                meetings.setdefault(doc_id, []).append(evidence[key])
        return chosen(meetings)

    def features(self, ids: Iterable[int], num_permutations: int) -> list[Features]:
        ids = list(ids)
        out: list[Features] = []
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                "SELECT id, fingerprint, word_count, shingle_count, signature, tokens, title, places "
                f"FROM documents WHERE id IN ({marks})",
                chunk,
            )
            for doc_id, fp, words, shingles, sig, tokens, title, places in rows:
                try:
                    signature = minhash.from_bytes(sig, num_permutations) if sig is not None else None
                except ValueError as exc:
                    raise IndexCorruptError(
                        f"index {self.path}: document {doc_id} is damaged ({exc}): run 'paperless-dedupe rebuild-index'"
                    ) from None
                out.append(
                    Features(
                        doc_id=doc_id,
                        fingerprint=bytes(fp),
                        word_count=words,
                        shingle_count=shingles,
                        signature=signature,
                        sample=None,
                        tokens=frozenset(tokens.split("\n")) if tokens else frozenset(),
                        title=title,
                        places=bytes(places),
                    )
                )
        return out

    def put(self, feats: Features, *, modified: str | None, keys: Sequence[int]) -> None:
        """Insert or replace one document (call inside ``write()``)."""
        self._remove(feats.doc_id)
        self.conn.execute("INSERT INTO changes (doc_id) VALUES (?)", (feats.doc_id,))
        self.conn.execute("INSERT INTO documents VALUES (?,?,?,?,?,?,?,?,?)", document_row(feats, modified))
        self.conn.executemany("INSERT OR IGNORE INTO bands VALUES (?, ?)", [(k, feats.doc_id) for k in keys])
        self.conn.executemany(
            "INSERT INTO token_df VALUES (?, 1) ON CONFLICT(token) DO UPDATE SET df = df + 1",
            [(t,) for t in feats.tokens],
        )

    def remove(self, doc_id: int) -> None:
        self._remove(doc_id)
        self.conn.execute("INSERT INTO changes (doc_id) VALUES (?)", (doc_id,))

    def _remove(self, doc_id: int) -> None:
        self.remove_picture(doc_id)  # a re-indexed document's picture is put again, if it still takes that path
        row = self.conn.execute("SELECT tokens, signature FROM documents WHERE id=?", (doc_id,)).fetchone()
        if row is None:
            return
        # The bands table is keyed by (key, doc_id): recompute the document's keys from its
        # stored signature so that each delete is an indexed probe, not a table scan
        # (at 100k documents a scan of 4M band rows costs seconds per document).
        keys = self._stored_band_keys(row[1])
        if keys is None:
            self.conn.execute("DELETE FROM bands WHERE doc_id=?", (doc_id,))
        else:
            self.conn.executemany("DELETE FROM bands WHERE key=? AND doc_id=?", [(k, doc_id) for k in keys])
        tokens = [(t,) for t in row[0].split("\n") if t]
        self.conn.executemany("UPDATE token_df SET df = df - 1 WHERE token=?", tokens)
        self.conn.executemany("DELETE FROM token_df WHERE token=? AND df <= 0", tokens)
        self.conn.execute("DELETE FROM documents WHERE id=?", (doc_id,))

    def _stored_band_keys(self, raw_signature: bytes | None) -> list[int] | None:
        """Band keys of a stored signature (None: unknown layout, fall back to a scan)."""
        if raw_signature is None:
            return []
        meta = dict(self.conn.execute(
            "SELECT key, value FROM meta WHERE key IN ('bands', 'rows', 'num_permutations')").fetchall())
        try:
            bands, rows, num_perm = int(meta["bands"]), int(meta["rows"]), int(meta["num_permutations"])
            return minhash.band_keys(minhash.from_bytes(raw_signature, num_perm), bands=bands, rows=rows)
        except (KeyError, ValueError):
            return None

    def document_frequency(self, tokens: Iterable[str]) -> dict[str, int]:
        tokens = list(tokens)
        out: dict[str, int] = {}
        for start in range(0, len(tokens), 500):
            chunk = tokens[start : start + 500]
            marks = ",".join("?" * len(chunk))
            out.update(self.conn.execute(f"SELECT token, df FROM token_df WHERE token IN ({marks})", chunk).fetchall())
        return out
