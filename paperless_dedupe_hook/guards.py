"""What a rebuild checks so that nothing is lost: the index path before any document
is read, and the number of documents read before the old index is replaced.

* **Path.**  A directory, a folder this user may not write (the rebuild writes
  ``<index>.rebuild`` and ``<index>.lock`` beside the index) or a missing folder
  stops the command at once with one line (exit 5), not after an hour of signing.
  A missing folder is created when it is the default location, or when only its last
  level is missing (``/data/dedupe`` under an existing ``/data``), and the command says
  so; a deeper missing path is a typo more often than not.
* **Shrink.**  A source that yields no documents, or fewer than ``SHRINK_RATIO`` of
  the documents the index holds (an empty JSONL file, an export made with
  ``--split-manifest``, a token whose user sees only its own documents), would wipe
  the index and its users' dismissals.  The rebuild keeps the old index and exits 5
  naming the source and both counts; ``--allow-shrink`` replaces it anyway.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from ._errors import IndexStoreError, SourceShrinkError

if TYPE_CHECKING:
    from .config import Config

# A rebuild must read at least this share of the documents the index holds.  Half:
# a library does not lose half its documents between two rebuilds, while a user
# who deleted a few hundred duplicates still rebuilds without a flag.
SHRINK_RATIO = 0.5
INDEX_KEY = "index.path (PAPERLESS_DEDUPE_INDEX)"


def _explicit(cfg: Config) -> bool:
    """Whether the user chose the index path (flag, file, PAPERLESS_DEDUPE_INDEX), not a default."""
    source = str(cfg.sources.get("index.path", "default"))
    return source in ("flag", "file") or source.startswith("env PAPERLESS_DEDUPE")


def check_index_path(cfg: Config, info: Callable[[str], None]) -> None:
    """Raise IndexStoreError (exit 5) when the SQLite index cannot be written where
    configured; create a missing folder where that is safe, and say so."""
    if cfg["index.backend"] == "redis":
        return
    path = cfg.index_path
    if path.is_dir():
        raise IndexStoreError(f"index {path} is a directory: set {INDEX_KEY} to a file in it, e.g. "
                              f"{path / 'index.sqlite3'}")
    folder = path.parent
    if not folder.exists():
        missing = [folder, *(p for p in folder.parents if not p.exists())]
        first = missing[-1]
        if first.parent.exists() and not first.parent.is_dir():
            raise IndexStoreError(f"index {path}: {first.parent} is a file, not a folder: fix {INDEX_KEY}")
        if _explicit(cfg) and len(missing) > 1:
            raise IndexStoreError(f"index {path}: the folder {first} does not exist: create it "
                                  f"(mkdir -p {folder}) or fix {INDEX_KEY}")
        try:
            folder.mkdir(parents=True)
        except OSError as exc:
            raise IndexStoreError(f"index {path}: cannot create the folder {folder} ({exc.strerror}): create it "
                                  f"or fix {INDEX_KEY}") from None
        info(f"created the folder {folder} for the index")
    elif not folder.is_dir():
        raise IndexStoreError(f"index {path}: {folder} is a file, not a folder: fix {INDEX_KEY}")
    from .index._access import explain

    # An index of another user (a command run as root in the container): its files and owner
    # named with the fix; a folder without an index gets the line below (which names index.path).
    refused = explain(path) if path.exists() else None
    if refused is not None:
        raise IndexStoreError(refused)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise IndexStoreError(f"index {path}: the folder {folder} is not writable by this user (a rebuild writes "
                              f"{path.name}.rebuild and {path.name}.lock beside the index): fix the folder's owner "
                              f"or permissions, or set {INDEX_KEY} elsewhere")


def indexed_ids(cfg: Config) -> set[int]:
    """The documents the current index holds; none when there is no usable index (a
    damaged or unreadable one is being replaced anyway)."""
    try:
        if cfg["index.backend"] == "redis":
            from .index.redis import RedisIndex

            with RedisIndex(str(cfg["index.redis_url"])) as rindex:
                return set(rindex.modified_of())
        if not cfg.index_path.is_file():
            return set()
        from .index.sqlite import SqliteIndex

        with SqliteIndex(cfg.index_path) as old:
            return set(old.modified_of())
    except Exception:  # noqa: BLE001 - no usable old index: nothing to protect
        return set()


def check_shrink(source: str, read: int, indexed: int, *, location: str, allow: bool) -> None:
    """SourceShrinkError (exit 5) when ``read`` documents would replace ``indexed``."""
    if allow or indexed == 0 or (read > 0 and read >= SHRINK_RATIO * indexed):
        return
    raise SourceShrinkError(
        f"rebuild-index kept the index {location}: {source} yielded {read} document(s) but the index holds "
        f"{indexed} (a rebuild must read at least {SHRINK_RATIO:.0%} of them): check the source, or pass "
        "--allow-shrink to replace the index anyway")
