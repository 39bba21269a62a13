"""Compiled regular expressions that a later process can load instead of compiling again.

Python compiles a regex in Python code (``re._parser`` and ``re._compiler``): our label,
date, stamp and street patterns, which spell out upper and lower case and OCR's confusions,
take ~45 ms to compile, a third of what the hook spends above its imports, in every hook
process, for the same sources.  The result of compiling is a list of integers (the SRE
program) that ``_sre.compile`` turns into a pattern at once, so :func:`compile` can start
from a program a previous process recorded (:func:`recorded`, loaded with :func:`load`).

Safe by construction:

* a program is recorded only when the pattern built from it is equal to what
  ``re.compile`` returned (``Pattern.__eq__`` compares the flags, the source and the program);
* programs are keyed by the interpreter (:data:`RUNTIME`: cache tag, SRE magic and code
  size) and by source and flags; another interpreter's table is ignored;
* each entry carries a CRC-32 of its source, flags, groups and program, and ``_sre.compile`` validates a
  program before it runs it; an entry that fails in any way is dropped and the pattern
  compiled as usual.

Pure: the table comes in and goes out as values; where it is stored is the caller's
(:mod:`paperless_dedupe_hook.regexcache`).
"""

from __future__ import annotations

import re
import sys
import zlib
from array import array
from collections.abc import Mapping
from typing import Any

try:  # CPython's regex engine; elsewhere nothing is recorded and everything compiles as usual
    import _sre  # type: ignore[import-not-found]
    from re import _compiler, _parser  # type: ignore[attr-defined]

    RUNTIME: str | None = f"{sys.implementation.cache_tag}-sre{_sre.MAGIC}-{_sre.CODESIZE}"
except (ImportError, AttributeError):  # pragma: no cover - not CPython
    RUNTIME = None
_CODE_TYPE = "I"  # one unsigned int per word of the program (_sre.CODESIZE bytes)
if RUNTIME is not None and array(_CODE_TYPE).itemsize != _sre.CODESIZE:  # pragma: no cover - no such CPython
    RUNTIME = None

#: (source, flags) -> (flags as compiled, program as bytes, groups, group index, index group,
#: CRC-32 of the source and all of these)
Entry = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...], int]

_loaded: dict[tuple[str, int], Entry] = {}
_recorded: dict[tuple[str, int], Entry] = {}
_recording = False
_seen: set[tuple[str, int]] = set()  # every source compiled here, for record_seen


def compile(source: str, flags: int = 0) -> re.Pattern[str]:  # noqa: A001 - re.compile's name on purpose
    """``re.compile(source, flags)``, from a loaded program when there is one."""
    flags = int(flags)  # a RegexFlag is an int marshal cannot store
    key = (source, flags)
    _seen.add(key)
    entry = _loaded.get(key)
    if entry is not None:
        try:
            return _build(source, entry)
        except Exception:  # noqa: BLE001 - a program that does not build is dropped, never used
            del _loaded[key]
    pattern = re.compile(source, flags)
    if _recording and RUNTIME is not None:
        made = _entry(source, flags)
        if made is not None and _build(source, made) == pattern:
            _recorded[key] = made
    return pattern


def _build(source: str, entry: Entry) -> re.Pattern[str]:
    final_flags, program, groups, groupindex, indexgroup, crc = entry
    if _crc(source, entry) != crc:
        raise ValueError(f"the program of {source[:40]!r} is not the one recorded")
    code = array(_CODE_TYPE, program).tolist()
    pattern: re.Pattern[str] = _sre.compile(source, final_flags, code, groups, groupindex, indexgroup)
    return pattern


def _entry(source: str, flags: int) -> Entry | None:
    """What ``re._compiler.compile`` hands ``_sre.compile`` for this source (3.11 to 3.13)."""
    try:
        parsed = _parser.parse(source, flags)
        code = _compiler._code(parsed, flags)
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, number in groupindex.items():
            indexgroup[number] = name
        made = (flags | parsed.state.flags, array(_CODE_TYPE, code).tobytes(), parsed.state.groups - 1, groupindex,
                tuple(indexgroup), 0)
        return (*made[:5], _crc(source, made))
    except Exception:  # noqa: BLE001 - another interpreter's internals: just do not record
        return None


def _crc(source: str, entry: Entry) -> int:
    """CRC-32 of the source and of everything the entry hands ``_sre.compile``: a program
    that another source's entry or a damaged file changed could still be valid SRE code."""
    final_flags, program, groups, groupindex, indexgroup, _ = entry
    head = repr((source, final_flags, groups, sorted(groupindex.items()), indexgroup))
    return zlib.crc32(program, zlib.crc32(head.encode("utf-8", "surrogatepass")))


def start_recording() -> None:
    """From now on remember the program of each pattern compiled (for :func:`recorded`)."""
    global _recording
    _recording = True


def record_seen() -> None:
    """Record the programs of the patterns compiled before recording started (module-level
    ones are compiled at import)."""
    start_recording()
    for source, flags in sorted(_seen - _loaded.keys() - _recorded.keys()):
        compile(source, flags)


def load(table: Mapping[str, Any]) -> int:
    """Take the programs of a table :func:`recorded` made; returns how many were taken (0 for
    another interpreter's table or a table of another shape)."""
    if RUNTIME is None or table.get("runtime") != RUNTIME:
        return 0
    entries = table.get("entries")
    if not isinstance(entries, dict):
        return 0
    taken = 0
    for key, entry in entries.items():
        if (isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], str) and isinstance(key[1], int)
                and isinstance(entry, tuple) and len(entry) == 6 and isinstance(entry[1], bytes)):
            _loaded[key] = entry
            taken += 1
    return taken


def recorded() -> dict[str, Any] | None:
    """The table of the programs recorded in this process that were not loaded, or None when
    there are none."""
    if not _recorded or RUNTIME is None:
        return None
    return {"runtime": RUNTIME, "entries": dict(_recorded)}


def mark_saved() -> None:
    """The recorded programs are stored: :func:`recorded` starts empty again."""
    _loaded.update(_recorded)
    _recorded.clear()
