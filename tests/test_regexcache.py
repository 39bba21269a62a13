"""Compiled programs of our regular expressions, kept beside the index (core._regex, regexcache)."""

from __future__ import annotations

import marshal
import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook import regexcache
from paperless_dedupe_hook.core import _patterns, _regex, _route_patterns
from paperless_dedupe_hook.core._patterns import ID_LABELS, ID_SOURCE
from paperless_dedupe_hook.core.extract import extract_features
from tests.fake_paperless import FakePaperless
from tests.test_hook_e2e import run_hook

# Our largest sources: every label's pattern, and the dates, stamps and streets.
SOURCES = [(_patterns._ID_HEAD + _patterns.ID_LABEL_SOURCES[label] + _patterns._ID_TAIL, 0) for label in ID_LABELS]
SOURCES += [(rx.pattern, rx.flags) for rx in (_patterns.DATE_DMY_TEXT, _patterns.MONTH_BEFORE_YEAR, _patterns.STAMP,
                                              _patterns.STREET, _route_patterns.ROUTE_LABELLED)]
SOURCES += [(ID_SOURCE, re.IGNORECASE | re.MULTILINE)]


@contextmanager
def _fresh_tables() -> Iterator[None]:
    """The module's tables empty inside, as they were afterwards."""
    saved = dict(_regex._loaded), dict(_regex._recorded), _regex._recording
    _regex._loaded.clear()
    _regex._recorded.clear()
    _regex._recording = False
    try:
        yield
    finally:
        _regex._loaded.clear()
        _regex._loaded.update(saved[0])
        _regex._recorded.clear()
        _regex._recorded.update(saved[1])
        _regex._recording = saved[2]


@pytest.fixture
def fresh_regex() -> Iterator[None]:
    with _fresh_tables():
        yield


def _record_all() -> dict[str, object]:
    _regex.start_recording()
    for source, flags in SOURCES:
        _regex.compile(source, flags)
    table = _regex.recorded()
    assert table is not None
    return table


def _loaded_from(table: dict[str, object]) -> None:
    _regex._loaded.clear()
    _regex._recorded.clear()
    _regex._recording = False
    assert _regex.load(table) == len(SOURCES)


def test_a_loaded_program_is_the_pattern_re_compiles(fresh_regex: None) -> None:
    _loaded_from(_record_all())
    for source, flags in SOURCES:
        from_table = _regex.compile(source, flags)
        # Pattern equality compares flags, source and program; the group names must be there too.
        assert from_table == re.compile(source, flags)
        assert from_table.groupindex == re.compile(source, flags).groupindex
    assert not _regex._recorded, "a loaded program is not recorded again"


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="Rechnungsnr.: 0123456789ABC-/\n KdNr Kundennummer Januar 2024 Str.", max_size=200))
def test_a_loaded_program_finds_what_re_finds(text: str) -> None:
    with _fresh_tables():  # (hypothesis runs the test many times: no function-scoped fixture)
        _loaded_from(_record_all())
        for source, flags in SOURCES:
            assert [m.groupdict() for m in _regex.compile(source, flags).finditer(text)] == \
                [m.groupdict() for m in re.compile(source, flags).finditer(text)]
            assert (source, int(flags)) in _regex._loaded, "the pattern came from the table"


def _entries(table: dict[str, object]) -> dict[tuple[str, int], tuple[object, ...]]:
    entries = table["entries"]
    assert isinstance(entries, dict)
    return entries


@pytest.mark.parametrize("damage", [
    pytest.param(lambda e: (e[0], e[1][:-4] + bytes(4), *e[2:]), id="program-changed"),
    pytest.param(lambda e: (e[0], e[1][: len(e[1]) // 2], *e[2:]), id="program-cut"),
    pytest.param(lambda e: (*e[:5], e[5] ^ 1), id="checksum-wrong"),
    pytest.param(lambda e: (e[0] | re.VERBOSE, *e[1:]), id="flags-changed"),
])
def test_a_damaged_program_is_dropped_and_the_source_compiled(fresh_regex: None, damage: object) -> None:
    table = _record_all()
    source, flags = SOURCES[0]
    entries = _entries(table)
    entries[(source, flags)] = damage(entries[(source, flags)])  # type: ignore[operator]
    _loaded_from(table)
    assert _regex.compile(source, flags) == re.compile(source, flags)
    assert (source, flags) not in _regex._loaded


@pytest.mark.parametrize("table", [
    pytest.param({"runtime": "cpython-27-sre1-4", "entries": {}}, id="another-python"),
    pytest.param({"runtime": _regex.RUNTIME, "entries": [1, 2]}, id="entries-not-a-table"),
    pytest.param({"entries": {}}, id="no-runtime"),
])
def test_a_table_of_another_python_or_shape_is_ignored(fresh_regex: None, table: dict[str, object]) -> None:
    assert _regex.load(table) == 0
    assert not _regex._loaded


def test_save_then_load_beside_the_index(fresh_regex: None, tmp_path: Path) -> None:
    index = tmp_path / "index.sqlite3"
    assert regexcache.load(index) == 0  # no file yet: nothing, and no error
    for source, flags in SOURCES[:3]:
        _regex.compile(source, flags)
    assert regexcache.save(index)
    assert regexcache.cache_path(index) == tmp_path / "index.sqlite3.regex"
    assert not regexcache.save(index), "nothing new since: the file is not written again"
    for source, flags in SOURCES[3:]:
        _regex.compile(source, flags)
    assert regexcache.save(index)  # the new ones are added to the three already there
    _regex._loaded.clear()
    assert regexcache.load(index) == len(SOURCES)
    assert list(tmp_path.iterdir()) == [tmp_path / "index.sqlite3.regex"], "no temporary file left"


@pytest.mark.parametrize("content", [
    pytest.param(b"", id="empty"), pytest.param(b"\x00garbage\xff" * 10, id="garbage"),
    pytest.param(marshal.dumps([1, 2, 3]), id="a-list"),
])
def test_a_damaged_file_is_passed_over(fresh_regex: None, tmp_path: Path, content: bytes) -> None:
    index = tmp_path / "index.sqlite3"
    regexcache.cache_path(index).write_bytes(content)
    assert regexcache.load(index) == 0
    assert extract_features("Rechnungsnummer: RE-2024-001 vom 3. Januar 2024")  # extraction unaffected
    _regex.compile(*SOURCES[0])
    assert regexcache.save(index)  # and the next save replaces it with a good one
    _regex._loaded.clear()
    assert regexcache.load(index) == 1


def test_an_unwritable_folder_costs_only_the_compile(fresh_regex: None, tmp_path: Path) -> None:
    index = tmp_path / "missing" / "index.sqlite3"  # a folder that is not there cannot be written
    regexcache.load(index)
    _regex.compile(*SOURCES[0])
    assert regexcache.save(index) is False
    assert not (tmp_path / "missing").exists()


def test_the_hook_writes_the_file_and_the_next_hook_uses_it(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    fake_paperless.seed_sample()
    first = run_hook(fake_paperless, tmp_path, 1)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    cache = tmp_path / "index.sqlite3.regex"
    table = marshal.loads(cache.read_bytes())
    assert table["runtime"] == _regex.RUNTIME and len(table["entries"]) >= 10
    written = cache.stat().st_mtime_ns
    second = run_hook(fake_paperless, tmp_path, 2)  # the re-scan of 1: found from the loaded programs
    assert second.returncode == 0 and second.stderr == "", second.stderr
    assert "#1" in second.stdout or "1 possible duplicate" in second.stdout, second.stdout
    assert cache.stat().st_mtime_ns == written, "a hook that compiled nothing new leaves the file alone"


def test_a_rebuild_writes_every_label_so_the_first_hook_compiles_none(fake_paperless: FakePaperless,
                                                                     tmp_path: Path) -> None:
    from tests.test_hook_e2e import CLI, _env

    fake_paperless.seed_sample()
    env = _env(fake_paperless, tmp_path)
    done = subprocess.run([CLI, "rebuild-index"], env=env, cwd="/", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    cache = tmp_path / "index.sqlite3.regex"
    entries = marshal.loads(cache.read_bytes())["entries"]
    label_sources = {_patterns._ID_HEAD + _patterns.ID_LABEL_SOURCES[label] + _patterns._ID_TAIL for label in ID_LABELS}
    assert label_sources <= {source for source, _ in entries}
    written = cache.stat().st_mtime_ns
    hook = run_hook(fake_paperless, tmp_path, 2)
    assert hook.returncode == 0 and hook.stderr == "", hook.stderr
    assert cache.stat().st_mtime_ns == written, "the hook found every program it needed in the file"
