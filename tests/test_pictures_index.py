"""Pictures in the index (issue 26), against both backends: a real SQLite file and a real
redis-server (``cfg`` of test_redis_backend is parametrised over both).  Stored, looked up
by key, replaced and removed with their document, ignored when another PICTURE_VERSION made
them, carried over by a rebuild's swap; and a schema-4 SQLite index migrates keeping every row.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from paperless_dedupe_hook.config import Config
from paperless_dedupe_hook.core.features import compute
from paperless_dedupe_hook.core.picture import PICTURE_VERSION, picture_band_keys, picture_signature
from paperless_dedupe_hook.engine import settings_from_config
from paperless_dedupe_hook.index.sqlite import SCHEMA_VERSION, SqliteIndex
from paperless_dedupe_hook.indexfile import change_mark_configured, open_configured, write_fresh_configured
from paperless_dedupe_hook.picturepairs import find_picture_matches, store_picture
from paperless_dedupe_hook.pictures import gray_from_image_bytes
from paperless_dedupe_hook.rebuild import Document, analyse
from tests.fake_paperless import FakePaperless
from tests.picture_support import handwritten_page, recapture, webp
from tests.test_hook_e2e import run_hook
from tests.test_redis_backend import cfg, feats_of, put_all, rclient, redis_server, redis_url  # noqa: F401 - fixtures


def _signature(seed: int, capture: int | None = None):  # type: ignore[no-untyped-def]
    page = handwritten_page(seed)
    if capture is not None:
        page = recapture(page, capture)
    found = picture_signature(gray_from_image_bytes(webp(page)))
    assert found is not None
    return found


def test_pictures_are_stored_found_replaced_and_removed(cfg: Config) -> None:  # noqa: F811 - the fixture
    settings = settings_from_config(cfg)
    empty = [compute(i, "", settings.features, title=f"photo {i}") for i in (1, 2, 3)]
    original, again, other = _signature(3), _signature(3, 4), _signature(50)
    with open_configured(cfg, settings, create=True) as index:
        put_all(index, settings, empty)
        with index.write():
            store_picture(index, 1, original)
            store_picture(index, 3, other)
        found, looked_at = find_picture_matches(index, 2, again)
        assert [(p.a, p.b, p.verdict) for p in found] == [(1, 2, "picture")] and looked_at >= 1
        assert find_picture_matches(index, 2, again, dismissed={(1, 2)})[0] == []
        assert set(index.pictures([1, 2, 3])) == {1, 3}
        # Re-indexed (put again) or removed: its picture goes with it.
        with index.write():
            index.put(empty[0], modified=None, keys=[])
        assert index.pictures([1]) == {} and find_picture_matches(index, 2, again)[0] == []
        with index.write():
            store_picture(index, 1, original)
            index.remove(1)
        assert index.pictures([1]) == {}
        assert 1 not in index.picture_candidates(picture_band_keys(original), exclude=2, version=PICTURE_VERSION)
        # A picture another PICTURE_VERSION made is never compared (a rebuild hashes it again).
        with index.write():
            index.put_picture(1, version=PICTURE_VERSION + 1, signature=original.data,
                              keys=picture_band_keys(original))
        assert find_picture_matches(index, 2, again)[0] == []
        assert index.picture_count() == 2 and index.picture_count(PICTURE_VERSION) == 1


def test_a_rebuild_writes_pictures_and_keeps_those_hooks_stored_meanwhile(cfg: Config) -> None:  # noqa: F811
    settings = settings_from_config(cfg)
    docs = [Document(i, "", title=f"photo {i}") for i in (1, 2)] + [Document(9, "x " * 3)]
    analysis = analyse(docs, settings, workers=1)
    analysis.pictures = {1: _signature(3), 2: _signature(3, 4)}
    write_fresh_configured(cfg, analysis, settings)
    since = change_mark_configured(cfg)
    with open_configured(cfg, settings) as index, index.write():  # a hook while the next rebuild runs
        late = compute(5, "", settings.features, title="late photo")
        index.put(late, modified=None, keys=[])
        store_picture(index, 5, _signature(3, 6))
    write_fresh_configured(cfg, analysis, settings, since=since)
    with open_configured(cfg, settings) as index:
        assert set(index.pictures([1, 2, 5, 9])) == {1, 2, 5}
        found, _n = find_picture_matches(index, 5, _signature(3, 6))
        assert {(p.a, p.b) for p in found} == {(1, 5), (2, 5)}


def test_a_schema_4_index_migrates_keeping_every_row(tmp_path: Path) -> None:
    from tests.test_redis_backend import load_cfg

    cfg4 = load_cfg(tmp_path, None)
    settings = settings_from_config(cfg4)
    path = tmp_path / "index.sqlite3"
    feats = [feats_of(i, settings) for i in (1, 2, 3)]
    with SqliteIndex(path, create=True, compat=settings.compat()) as index:
        put_all(index, settings, feats)
        with index.write():
            index.dismiss(1, 2, "user", "2026-01-01T00:00:00+00:00")
            index.store_results([{"a": 1, "b": 3, "score": 0.9}], [{"primary": 1, "members": [1, 3], "confidence": 0.9}])
    # What migrations 5 and 6 added, taken away again: the file is as schema 4 left it.
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE picture_bands")
        conn.execute("DROP TABLE pictures")
        conn.execute("ALTER TABLE documents DROP COLUMN places")  # SQLite 3.35 on (Python's own is newer)
        conn.execute("UPDATE meta SET value='4' WHERE key='schema_version'")
        before = {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                  for t in ("documents", "bands", "token_df", "dismissed", "result_pairs", "result_groups", "changes")}
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    with open_configured(cfg4, settings) as index:  # the hook's way in: checked against the configuration
        assert index.meta() == meta | {"schema_version": str(SCHEMA_VERSION)} and SCHEMA_VERSION == 6
        assert index.count() == 3 and index.dismissed_pairs() == {(1, 2)}
        with index.write():
            store_picture(index, 3, _signature(8))
        assert set(index.pictures([3])) == {3}
    with sqlite3.connect(path) as conn:
        after = {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in before}
    # every row kept; the documents gained an empty places column (migration 6)
    assert {t: rows for t, rows in after.items() if t != "documents"} == {t: rows for t, rows in before.items() if t != "documents"}
    assert [row[:-1] for row in after["documents"]] == before["documents"]
    assert all(row[-1] == b"" for row in after["documents"])


def test_the_hook_pairs_by_picture_over_redis(fake_paperless: FakePaperless, tmp_path: Path,
                                              redis_url: str) -> None:  # noqa: F811 - the fixture
    page = handwritten_page(12)
    fake_paperless.add_document(id=71, title="note", content="")
    fake_paperless.add_document(id=72, title="note again", content="")
    fake_paperless.thumbnails.update({71: webp(page), 72: webp(recapture(page, 13))})
    redis_env = {"PAPERLESS_DEDUPE_INDEX_BACKEND": "redis", "PAPERLESS_DEDUPE_INDEX_REDIS_URL": redis_url}
    for doc_id in (71, 72):
        proc = run_hook(fake_paperless, tmp_path, doc_id, **redis_env)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert "#71" in proc.stdout and "only the pictures were compared" in fake_paperless.document(72)["notes"][0]["note"]
    assert not (tmp_path / "index.sqlite3").exists()  # it was the Redis index
