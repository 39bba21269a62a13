"""The SQLite index: replacing or removing a document leaves no stale band rows or
token counts (each removal is an indexed delete, not a scan)."""

from pathlib import Path

from paperless_dedupe_hook import config, engine
from paperless_dedupe_hook.features import compute
from paperless_dedupe_hook.store import SqliteIndex


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
