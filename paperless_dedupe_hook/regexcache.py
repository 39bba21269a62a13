"""``<index>.regex``: the compiled programs of our regular expressions, beside the index.

Every hook is a new process, and compiling the extraction's patterns in it costs more than
anything the hook does with them (see :mod:`paperless_dedupe_hook.core._regex`).  The hook
loads this file before it imports the extraction, and writes it back when it compiled a
pattern the file did not hold (the first hook after an install or an upgrade, or the first
document with a label no earlier one had); ``rebuild-index`` writes all of them.

The file is only ever a shortcut: missing, unreadable, from another Python, or half of it
stale after an upgrade, it costs the compile and nothing else.  It is written to a temporary
file and renamed, so a reader never sees half of it; two hooks writing at once both write
whole tables, and the last rename wins.
"""

from __future__ import annotations

import marshal
import os
from pathlib import Path
from typing import Any

from .core import _regex

# Far more entries than our patterns (61 after a rebuild): past it, tables of older versions are dropped.
_MAX_ENTRIES = 2000


def cache_path(index_path: Path) -> Path:
    return index_path.with_name(index_path.name + ".regex")


def _read(path: Path) -> dict[str, Any] | None:
    try:
        table = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return table if isinstance(table, dict) else None


def load(index_path: Path) -> int:
    """Use the programs of the file beside ``index_path`` and record any pattern compiled from
    now on; returns how many programs were taken."""
    _regex.start_recording()
    table = _read(cache_path(index_path))
    return _regex.load(table) if table is not None else 0


def save(index_path: Path) -> bool:
    """Add the programs recorded in this process to the file; True when it was written.
    Never raises: a folder that cannot be written only means the next process compiles."""
    new = _regex.recorded()
    if new is None:
        return False
    path = cache_path(index_path)
    old = _read(path)
    entries = dict(old["entries"]) if old and old.get("runtime") == new["runtime"] and isinstance(
        old.get("entries"), dict) and len(old["entries"]) < _MAX_ENTRIES else {}
    entries.update(new["entries"])
    tmp = path.with_name(f"{path.name}.{os.getpid()}")
    try:
        tmp.write_bytes(marshal.dumps({"runtime": new["runtime"], "entries": entries}))
        os.replace(tmp, path)
    except (OSError, ValueError):
        tmp.unlink(missing_ok=True)
        return False
    _regex.mark_saved()
    return True


def prime(index_path: Path) -> bool:
    """Write the programs of all our patterns beside ``index_path`` (after a rebuild: the
    next hook then loads every one it needs); True when the file was written."""
    from .core import _patterns, extract, short  # noqa: F401 - importing compiles their patterns

    _regex.record_seen()
    for label in _patterns.ID_LABELS:
        _patterns.id_pattern(label)
    return save(index_path)
