"""A setting the index depends on was changed: said at once, naming the user's setting."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from paperless_dedupe_hook import config, drift
from paperless_dedupe_hook.commands import cli
from paperless_dedupe_hook.engine import settings_from_config
from paperless_dedupe_hook.indexfile import stored_meta

SAMPLE = Path(__file__).resolve().parent.parent / "bench" / "corpus" / "sample" / "docs.jsonl"


@pytest.fixture
def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in [n for n in os.environ if n.startswith(("PAPERLESS_", "DOCUMENT_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("PAPERLESS_DEDUPE_INDEX", str(tmp_path / "index.sqlite3"))
    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(line for line in SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)[:12]),
                    encoding="utf-8")
    assert cli.main(["-q", "rebuild-index", "--from-jsonl", str(docs), "--workers", "1"]) == 0
    return tmp_path / "index.sqlite3"


def test_threshold_change_is_named_by_config_show_and_status(
    built: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert cli.main(["config", "show"]) == 0
    assert "WARNING" not in capsys.readouterr().err  # unchanged: nothing to say

    monkeypatch.setenv("PAPERLESS_DEDUPE_DETECTION_SIMILARITY_THRESHOLD", "0.9")
    assert cli.main(["config", "show"]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 1
    line = warnings[0]
    assert "detection.similarity_threshold changed from 0.75 to 0.9" in line
    assert "rebuild-index" in line and "detection.lsh_threshold = 0.4" in line
    assert str(built) in line

    assert cli.main(["status"]) == 5
    err = capsys.readouterr().err
    assert "detection.similarity_threshold changed from 0.75 to 0.9" in err

    # The offered way out works: the old target keeps the index usable with the new threshold.
    monkeypatch.setenv("PAPERLESS_DEDUPE_DETECTION_LSH_THRESHOLD", "0.4")
    assert cli.main(["status", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["similarity_threshold"] == 0.9


def test_num_bands_change_names_num_bands_without_a_way_to_keep(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERLESS_DEDUPE_DETECTION_NUM_BANDS", "16")
    cfg = config.load()
    meta = stored_meta(cfg)
    assert meta is not None
    reason = drift.stale_reason(meta, settings_from_config(cfg))
    assert reason is not None
    assert reason.startswith('detection.num_bands changed from "auto" to 16')
    assert "lsh_threshold" not in reason


def test_index_without_stored_settings_names_the_candidates(built: Path) -> None:
    cfg = config.load(env={"PAPERLESS_DEDUPE_INDEX": str(built), "PAPERLESS_DEDUPE_DETECTION_NGRAM_SIZE": "3"})
    settings = settings_from_config(cfg)
    meta = dict(stored_meta(cfg) or {})
    meta.pop("built_with_settings")
    reason = drift.stale_reason(meta, settings)
    assert reason is not None and "ngram_size=2 (now 3)" in reason and "detection.ngram_size" in reason


def test_a_fitting_index_and_a_new_one_have_no_reason(built: Path) -> None:
    cfg = config.load()
    settings = settings_from_config(cfg)
    meta = stored_meta(cfg)
    assert meta is not None and drift.stale_reason(meta, settings) is None
    assert drift.stale_reason({}, settings) is None
