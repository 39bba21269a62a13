"""The SQLite index: replacing or removing a document leaves no stale band rows or
token counts (each removal is an indexed delete, not a scan)."""

from pathlib import Path

import pytest

from paperless_dedupe_hook import config, engine
from paperless_dedupe_hook._errors import IndexStoreError
from paperless_dedupe_hook.core.features import compute
from paperless_dedupe_hook.index.sqlite import SCHEMA_VERSION, SqliteIndex


def _settings() -> engine.Settings:
    return engine.settings_from_config(config.load(config_path=None, env={"HOME": "/nonexistent"}))


def test_replace_and_remove_leave_no_stale_rows(tmp_path: Path) -> None:
    settings = _settings()
    first = compute(7, "Rechnung RE-2024-001 vom 31.01.2024 über 1.234,56 € " + "alpha beta gamma " * 20, settings.features)
    second = compute(7, "Kontoauszug Nr. 12 vom 28.02.2024 Saldo 99,00 € " + "delta epsilon zeta " * 20, settings.features)
    other = compute(8, "Rechnung RE-2024-002 vom 29.02.2024 über 1.234,56 € " + "alpha beta gamma " * 20, settings.features)
    with SqliteIndex(tmp_path / "i.sqlite3", create=True, compat=settings.compat()) as index:
        with index.write():
            index.put(first, modified=None, keys=settings.band_keys(first))
            index.put(other, modified=None, keys=settings.band_keys(other))
            index.put(second, modified=None, keys=settings.band_keys(second))  # replaces document 7
        bands = index.conn.execute("SELECT key FROM bands WHERE doc_id=7").fetchall()
        assert sorted(k for (k,) in bands) == sorted(set(settings.band_keys(second)))
        df = dict(index.conn.execute("SELECT token, df FROM token_df").fetchall())
        assert df["amount:123456"] == 1  # only document 8 still has it
        assert all(df.get(t) for t in second.tokens)
        with index.write():
            index.remove(7)
            index.remove(8)
        assert index.conn.execute("SELECT count(*) FROM bands").fetchone()[0] == 0
        assert index.conn.execute("SELECT count(*) FROM token_df").fetchone()[0] == 0
        assert index.count() == 0


def _rows(index: SqliteIndex) -> dict[str, list[tuple[object, ...]]]:
    return {
        table: index.conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()  # noqa: S608 - fixed names
        for table in ("documents", "bands", "token_df")
    }


@pytest.mark.parametrize(
    ("json_rows", "id_offset"),
    [pytest.param(True, 0, id="json_each"), pytest.param(False, 0, id="executemany"),
     pytest.param(True, 1 << 32, id="ids-too-large-to-pack")],
)
def test_bulk_load_writes_exactly_what_put_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, json_rows: bool, id_offset: int,
) -> None:
    """A full rebuild's load_fresh against one put per document, on the shipped sample."""
    import dataclasses
    from collections import Counter

    from paperless_dedupe_hook import sources

    if not json_rows:  # an SQLite without JSON
        monkeypatch.setattr(SqliteIndex, "_has_json", lambda self: False)
    settings = _settings()
    docs = list(sources.iter_jsonl(Path(__file__).parent.parent / "bench/corpus/sample/docs.jsonl"))
    feats = [dataclasses.replace(compute(d.id, d.content, settings.features, title=d.title), doc_id=d.id + id_offset)
             for d in docs]
    df: Counter[str] = Counter()
    for f in feats:
        df.update(f.tokens)
    modified = {f.doc_id: f"2024-01-{1 + f.doc_id % 28:02d}T00:00:00Z" for f in feats}
    with SqliteIndex(tmp_path / "put.sqlite3", create=True, compat=settings.compat()) as by_put:
        with by_put.write():
            for f in feats:
                by_put.put(f, modified=modified[f.doc_id], keys=settings.band_keys(f))
        expected = _rows(by_put)
    with SqliteIndex(tmp_path / "bulk.sqlite3", create=True, compat=settings.compat()) as bulk:
        with bulk.write():
            bulk.load_fresh(feats, modified=modified, band_keys=settings.band_keys, document_frequency=df)
        assert _rows(bulk) == expected
        assert len(expected["bands"]) > len(feats) and expected["token_df"]
        with pytest.raises(IndexStoreError, match="not empty"), bulk.write():
            bulk.load_fresh(feats[:1], modified=modified, band_keys=settings.band_keys, document_frequency=df)


def test_bulk_load_refuses_a_frequency_table_of_other_documents(tmp_path: Path) -> None:
    from collections import Counter

    settings = _settings()
    f = compute(1, "Rechnung RE-2024-001 vom 31.01.2024 über 1.234,56 € " + "alpha beta gamma " * 20, settings.features)
    with SqliteIndex(tmp_path / "i.sqlite3", create=True, compat=settings.compat()) as index:
        with pytest.raises(ValueError, match="document_frequency"), index.write():
            index.load_fresh([f], modified={}, band_keys=settings.band_keys, document_frequency=Counter())
        assert index.count() == 0  # the transaction was rolled back


def test_index_of_schema_1_asks_for_a_rebuild_and_keeps_user_state(tmp_path: Path) -> None:
    import sqlite3

    from paperless_dedupe_hook._errors import IndexMismatchError
    from paperless_dedupe_hook.index.sqlite import _m1_initial

    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(str(path), isolation_level=None)
    _m1_initial(conn)  # what version 0.1 wrote: text samples, 32-bit signatures and band keys
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [("schema_version", "1"), ("hash_scheme", "datasketch-affine32-sha1")])
    conn.execute("INSERT INTO documents VALUES (1, NULL, x'00', 30, 29, x'00', x'00', '', 'old')")
    conn.execute("INSERT INTO bands VALUES (9223372036854775807, 1)")
    conn.execute("INSERT INTO dismissed VALUES (1, 2, 'tag removed', '2026-01-01')")
    conn.close()
    settings = _settings()
    with pytest.raises(IndexMismatchError, match="hash_scheme=datasketch-affine32-sha1.*run 'paperless-dedupe rebuild-index'"):
        SqliteIndex(path, compat=settings.compat())
    with SqliteIndex(path) as index:  # migrated: rows that cannot be converted are gone, dismissals stay
        assert index.meta()["schema_version"] == str(SCHEMA_VERSION) and index.count() == 0
        assert "sample" not in {r[1] for r in index.conn.execute("PRAGMA table_info(documents)")}
        assert index.conn.execute("SELECT count(*) FROM bands").fetchone()[0] == 0
        assert index.dismissed_pairs() == {(1, 2)}


def test_with_text_adds_samples_or_recomputes_an_edited_document(tmp_path: Path) -> None:
    from paperless_dedupe_hook.core.features import with_text

    settings = _settings()
    body = "Rechnung RE-2024-001 vom 31.01.2024 über 1.234,56 € " + "alpha beta gamma " * 20
    feats = compute(7, body, settings.features, title="t")
    with SqliteIndex(tmp_path / "i.sqlite3", create=True, compat=settings.compat()) as index:
        with index.write():
            index.put(feats, modified=None, keys=settings.band_keys(feats))
        (stored,) = index.features([7], settings.features.num_permutations)
    assert stored.sample is None
    with pytest.raises(ValueError, match="no text samples"):
        stored.samples()
    same = with_text(stored, body, settings.features)
    assert same.sample == feats.sample and same.signature is stored.signature  # only the samples were added
    edited = with_text(stored, body.replace("RE-2024-001", "RE-2024-777"), settings.features)
    assert edited.fingerprint != feats.fingerprint and edited.tokens != feats.tokens  # signed afresh
    assert edited.title == "t" and edited.sample is not None


def _statements(index: SqliteIndex) -> list[str]:
    seen: list[str] = []
    index.conn.set_trace_callback(seen.append)
    return seen


def test_removing_a_document_deletes_its_bands_by_key_not_by_scan(tmp_path: Path) -> None:
    """Each band row goes by an indexed probe on (key, doc_id), its keys recomputed from
    the stored signature with the index's own parameters (bands, rows, permutations)."""
    settings = _settings()
    docs = [compute(i, f"Rechnung RE-2024-{i:03} vom 31.01.2024 " + "alpha beta gamma delta " * (10 + i),
                    settings.features) for i in range(1, 6)]
    with SqliteIndex(tmp_path / "i.sqlite3", create=True, compat=settings.compat()) as index:
        with index.write():
            for f in docs:
                index.put(f, modified=None, keys=settings.band_keys(f))
        seen = _statements(index)
        with index.write():
            index.remove(3)
            index.put(docs[0], modified="x", keys=settings.band_keys(docs[0]))  # a replacement removes first
        index.conn.set_trace_callback(None)
        by_key = [s for s in seen if s.startswith("DELETE FROM bands WHERE key=")]
        assert len(by_key) == 2 * settings.banding.bands  # one probe per band of each removed row
        assert not [s for s in seen if s.startswith("DELETE FROM bands WHERE doc_id=")]  # no scan
        left = {d for (d,) in index.conn.execute("SELECT DISTINCT doc_id FROM bands")}
        assert left == {1, 2, 4, 5}


def test_carry_over_copies_rows_bands_and_counts_or_removes(tmp_path: Path) -> None:
    settings = _settings()
    docs = {i: compute(i, f"Kontoauszug Nr. {i} vom 28.02.2024 Saldo {i},00 EUR " + "epsilon zeta eta " * (8 + i),
                       settings.features, title=f"t{i}") for i in range(1, 6)}
    live = SqliteIndex(tmp_path / "live.sqlite3", create=True, compat=settings.compat())
    fresh = SqliteIndex(tmp_path / "fresh.sqlite3", create=True, compat=settings.compat())
    try:
        with live.write():
            for i in (1, 2, 3):
                live.put(docs[i], modified=f"m{i}", keys=settings.band_keys(docs[i]))
        mark = live.change_mark()
        with fresh.write():
            for i in (1, 2, 3):
                fresh.put(docs[i], modified=f"m{i}", keys=settings.band_keys(docs[i]))
        with live.write():  # what hooks and an incremental did while the rebuild ran
            live.put(docs[4], modified="m4", keys=settings.band_keys(docs[4]))
            live.put(docs[5], modified="m5", keys=settings.band_keys(docs[5]))
            live.remove(2)
        assert live.changed_since(mark) == [2, 4, 5]
        assert live.changed_since(("another-file", mark[1])) == [1, 2, 3, 4, 5]
        with fresh.write():
            assert fresh.carry_over(live, live.changed_since(mark)) == (2, 1)
        assert fresh.modified_of() == {1: "m1", 3: "m3", 4: "m4", 5: "m5"}
        for table in ("bands", "token_df"):
            rows = f"SELECT * FROM {table} ORDER BY 1, 2"
            live_rows = live.conn.execute(rows).fetchall()
            assert fresh.conn.execute(rows).fetchall() == live_rows, table
        (back,) = fresh.features([4], settings.features.num_permutations)
        assert back.title == "t4" and back.tokens == docs[4].tokens
    finally:
        live.close()
        fresh.close()


def test_index_of_schema_2_gains_the_change_log(tmp_path: Path) -> None:
    import sqlite3

    from paperless_dedupe_hook.index.sqlite import _m1_initial, _m2_no_stored_text

    settings = _settings()
    path = tmp_path / "v2.sqlite3"
    conn = sqlite3.connect(str(path), isolation_level=None)
    _m1_initial(conn)
    _m2_no_stored_text(conn)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [*settings.compat().items()])
    conn.execute("UPDATE meta SET value='2' WHERE key='schema_version'")
    conn.execute("INSERT INTO documents VALUES (1, NULL, x'00', 30, 29, NULL, '', 'kept')")
    conn.close()
    with SqliteIndex(path, compat=settings.compat()) as index:
        assert index.meta()["schema_version"] == str(SCHEMA_VERSION) and index.count() == 1
        index_id, seq = index.change_mark()
        assert len(index_id) == 16 and seq == 0
        with index.write():
            index.remove(1)
        assert index.changed_since((index_id, 0)) == [1]
