"""The command line as a user runs it: config, tune, status, --from-export,
--incremental, dismiss, merge/split look-alikes."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from paperless_dedupe_hook import engine
from tests.fake_paperless import FakePaperless

ROOT = Path(__file__).resolve().parent.parent
CLI = shutil.which("paperless-dedupe") or str(Path(sys.executable).parent / "paperless-dedupe")
SAMPLE = ROOT / "bench" / "corpus" / "sample"


def cli(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_", "DOCUMENT_"))}
    base.update({"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data"),
                 "PAPERLESS_DEDUPE_INDEX": str(tmp_path / "index.sqlite3")})
    base.update(env or {})
    return subprocess.run([CLI, *args], env=base, capture_output=True, text=True, timeout=300, cwd=tmp_path)


def test_help_names_the_commands(tmp_path: Path) -> None:
    out = cli(tmp_path, "--help")
    for command in ("hook", "rebuild-index", "check", "tune", "evaluate", "status", "doctor", "report", "dismiss", "config"):
        assert command in out.stdout


def test_config_init_show_path(tmp_path: Path) -> None:
    path = Path(cli(tmp_path, "config", "path").stdout.strip())
    assert path == tmp_path / "cfg" / "paperless-dedupe-hook" / "config.toml"
    created = cli(tmp_path, "config", "init")
    assert created.returncode == 0, created.stderr
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = cli(tmp_path, "config", "init")
    assert again.returncode == 3 and "exists already" in again.stderr
    shown = cli(tmp_path, "config", "show", env={"PAPERLESS_DEDUPE_TOKEN": "canary-token-123"})
    assert shown.returncode == 0
    assert "canary-token-123" not in shown.stdout + shown.stderr
    assert "env PAPERLESS_DEDUPE_TOKEN" in shown.stdout


def test_bad_config_exits_3_with_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[detection]\nnum_permutations = 5\n")
    out = cli(tmp_path, "--config", str(bad), "status")
    assert out.returncode == 3
    assert "detection.num_permutations = 5" in out.stderr and "16 to 1024" in out.stderr


def test_tune_lists_splits_measures_pairs_and_writes(tmp_path: Path) -> None:
    plain = cli(tmp_path, "tune", "--threshold", "0.75")
    assert plain.returncode == 0, plain.stderr
    assert "LSH config: num_perm=256" in plain.stdout and "<- chosen" in plain.stdout
    seed = cli(tmp_path, "tune", "--threshold", "0.75", "--divisors-only")
    assert "[WARN] s_curve_midpoint=" in seed.stdout  # no divisor split of 256 sits at 0.75
    measured = cli(tmp_path, "tune", "--json", "--pairs", str(SAMPLE / "pairs.jsonl"), "--docs", str(SAMPLE / "docs.jsonl"))
    assert measured.returncode == 0, measured.stderr
    data = json.loads(measured.stdout[measured.stdout.index("{"):])
    assert isinstance(data["missed_pairs"], list)
    assert all(line.startswith("[ERROR] missed_pair ") and "candidate=false" in line for line in data["missed_pairs"])
    with_recall = [s for s in data["splits"] if "candidate_recall" in s]
    assert with_recall and all(0.0 <= s["candidate_recall"] <= 1.0 for s in with_recall)
    cli(tmp_path, "config", "init")
    written = cli(tmp_path, "tune", "--threshold", "0.6", "--write")
    assert written.returncode == 0, written.stderr
    import tomllib

    from paperless_dedupe_hook.core import banding

    stored = tomllib.loads(Path(cli(tmp_path, "config", "path").stdout.strip()).read_text())
    assert stored["detection"]["num_bands"] == banding.choose(256, 0.6).bands


def test_rebuild_from_jsonl_report_and_status(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    out = cli(tmp_path, "rebuild-index", "--from-jsonl", str(SAMPLE / "docs.jsonl"), "--report", str(report))
    assert out.returncode == 0, out.stderr
    assert "group #" in out.stdout
    data = json.loads(report.read_text())
    assert data["documents"] == 80 and data["pairs"] and data["groups"]
    assert all(p["a"] < p["b"] and p["score"] >= 0.75 for p in data["pairs"])
    for key in ("num_permutations", "num_bands", "rows", "similarity_threshold", "package_version"):
        assert key in data["config"]
    status = json.loads(cli(tmp_path, "status", "--json").stdout)
    for key in ("index_path", "backend", "documents", "last_rebuild", "num_permutations", "num_bands", "rows",
                "similarity_threshold", "s_curve_midpoint", "config_path"):
        assert key in status, key
    assert status["documents"] == 80 and status["backend"] == "sqlite" and status["last_rebuild"]


def test_empty_report_is_still_written(tmp_path: Path) -> None:
    docs = tmp_path / "one.jsonl"
    docs.write_text(json.dumps({"id": 1, "content": "just one document " * 10}) + "\n")
    report = tmp_path / "r.json"
    out = cli(tmp_path, "rebuild-index", "--from-jsonl", str(docs), "--report", str(report))
    assert out.returncode == 0, out.stderr
    assert json.loads(report.read_text())["pairs"] == []


def test_bad_jsonl_names_file_and_line(tmp_path: Path) -> None:
    docs = tmp_path / "bad.jsonl"
    docs.write_text('{"id": 1, "content": "x"}\nnot json\n')
    out = cli(tmp_path, "rebuild-index", "--from-jsonl", str(docs))
    assert out.returncode == 2
    assert f"{docs}:2" in out.stderr


def test_from_export_reads_a_document_exporter_manifest(tmp_path: Path) -> None:
    docs = [json.loads(line) for line in (SAMPLE / "docs.jsonl").read_text().splitlines()]
    manifest = [{"model": "documents.correspondent", "pk": 1, "fields": {"name": "ACME"}}]
    manifest += [{"model": "documents.document", "pk": d["id"],
                  "fields": {"title": d["title"], "content": d["content"], "created": d["created"], "correspondent": 1}}
                 for d in docs]
    manifest.append({"model": "documents.note", "pk": 1, "fields": {"note": "hello", "document": 1}})
    export = tmp_path / "export"
    export.mkdir()
    (export / "manifest.json").write_text(json.dumps(manifest))
    report = tmp_path / "r.json"
    out = cli(tmp_path, "rebuild-index", "--from-export", str(export), "--report", str(report))
    assert out.returncode == 0, out.stderr
    exported = json.loads(report.read_text())
    assert exported["documents"] == len(docs)
    out2 = cli(tmp_path, "rebuild-index", "--from-jsonl", str(SAMPLE / "docs.jsonl"), "--report", str(tmp_path / "j.json"))
    assert out2.returncode == 0
    assert exported["pairs"] == json.loads((tmp_path / "j.json").read_text())["pairs"]


def test_dismiss_keeps_a_pair_out_of_the_next_rebuild(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    cli(tmp_path, "rebuild-index", "--from-jsonl", str(SAMPLE / "docs.jsonl"), "--report", str(report))
    first = json.loads(report.read_text())["pairs"][0]
    out = cli(tmp_path, "dismiss", str(first["a"]), str(first["b"]))
    assert out.returncode == 0, out.stderr
    cli(tmp_path, "rebuild-index", "--from-jsonl", str(SAMPLE / "docs.jsonl"), "--report", str(report))
    assert (first["a"], first["b"]) not in {(p["a"], p["b"]) for p in json.loads(report.read_text())["pairs"]}
    assert cli(tmp_path, "dismiss", "3", "3").returncode == 2


def test_incremental_rebuild_resigns_changed_and_drops_deleted(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    fake_paperless.seed_sample()
    env = {"PAPERLESS_DEDUPE_URL": fake_paperless.url, "PAPERLESS_DEDUPE_TOKEN": fake_paperless.token}
    full = cli(tmp_path, "rebuild-index", "--report", str(tmp_path / "full.json"), env=env)
    assert full.returncode == 0, full.stderr
    assert [(p["a"], p["b"]) for p in json.loads((tmp_path / "full.json").read_text())["pairs"]] == [(1, 2)]
    # document 3 becomes a copy of 1 (changed text, newer modified); document 2 is deleted
    with fake_paperless.lock:
        fake_paperless.documents[3]["content"] = fake_paperless.documents[1]["content"]
        fake_paperless._bump(fake_paperless.documents[3])
    fake_paperless.trash_document(2)
    fake_paperless.clear_log()
    inc = cli(tmp_path, "rebuild-index", "--incremental", "--report", str(tmp_path / "inc.json"), env=env)
    assert inc.returncode == 0, inc.stderr
    pairs = {(p["a"], p["b"]) for p in json.loads((tmp_path / "inc.json").read_text())["pairs"]}
    assert pairs == {(1, 3)}
    listed = [r for r in fake_paperless.requests if r.path.endswith("/api/documents/") and r.param("modified__gt")]
    assert listed, "the incremental run must ask only for changed documents"
    status = json.loads(cli(tmp_path, "status", "--json", env=env).stdout)
    assert status["documents"] == 5


@pytest.mark.parametrize(
    ("title_a", "title_b", "derived"),
    [
        pytest.param("Invoice 12", "Invoice 12 (merged)", True, id="merge"),
        pytest.param("Contract", "Contract (split 2)", True, id="split"),
        pytest.param("Invoice 12", "Invoice 12 copy", False, id="plain"),
    ],
)
def test_merge_and_split_results_are_expected_look_alikes(title_a: str, title_b: str, derived: bool) -> None:
    assert engine.is_derived_pair(title_a, title_b) is derived


def test_ignore_derived_switch(tmp_path: Path) -> None:
    text = " ".join(f"word{i % 97} clause{i % 13}" for i in range(300))
    docs = tmp_path / "d.jsonl"
    docs.write_text("\n".join(json.dumps(d) for d in (
        {"id": 1, "title": "Vertrag", "content": text},
        {"id": 2, "title": "Vertrag (merged)", "content": text + " Anhang"},
    )) + "\n")
    report = tmp_path / "r.json"
    assert cli(tmp_path, "rebuild-index", "--from-jsonl", str(docs), "--report", str(report)).returncode == 0
    assert json.loads(report.read_text())["pairs"] == []
    off = cli(tmp_path, "rebuild-index", "--from-jsonl", str(docs), "--report", str(report),
              env={"PAPERLESS_DEDUPE_DETECTION_IGNORE_DERIVED": "false"})
    assert off.returncode == 0, off.stderr
    assert [(p["a"], p["b"]) for p in json.loads(report.read_text())["pairs"]] == [(1, 2)]


_POLICY = ("Muster Versicherung AG\nAllgemeine Versicherungsbedingungen\n{version}\n§ 1 Gegenstand\n"
           "Der Versicherer trägt die Gefahr für die im Versicherungsschein bezeichneten Sachen. {clause}\n"
           "§ 2 Beitrag\nDer Jahresbeitrag ist am Anfang eines jeden Versicherungsjahres fällig. Die Versicherung beginnt "
           "mit dem im Versicherungsschein angegebenen Zeitpunkt und verlängert sich jeweils um ein weiteres Jahr.\n"
           "§ 3 Kündigung\nDer Vertrag kann mit einer Frist von drei Monaten zum Ablauf des Versicherungsjahres "
           "gekündigt werden. Die Kündigung bedarf der Textform. Gerichtsstand ist der Sitz des Versicherers.\n")


def _revision_library(tmp_path: Path) -> Path:
    docs = [
        {"id": 1, "title": "AVB 2023", "content": _POLICY.format(version="Stand: 01.03.2023", clause="Sturm ist mitversichert.")},
        {"id": 2, "title": "AVB 2024", "content": _POLICY.format(version="Stand: 15.09.2024",
                                                                 clause="Sturm und Starkregen sind mitversichert.")},
        {"id": 3, "title": "note", "content": "Parcel left with neighbour at no. 439. 13/06/2024"},
        {"id": 4, "title": "note scan", "content": "Parce1 left with neighbour at no. 439. 13/06/2024"},
        {"id": 5, "title": "other note", "content": "Parcel left with neighbour at no. 441. 13/06/2024"},
    ]
    path = tmp_path / "docs.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return path


def test_report_gives_every_pair_its_verdict(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    out = cli(tmp_path, "rebuild-index", "--from-jsonl", str(_revision_library(tmp_path)), "--report", str(report))
    assert out.returncode == 0, out.stderr
    pairs = {(p["a"], p["b"]): p for p in json.loads(report.read_text())["pairs"]}
    assert set(pairs) == {(1, 2), (3, 4)}
    assert pairs[(1, 2)]["verdict"] == "revision" and pairs[(1, 2)]["newer"] == 2
    assert pairs[(3, 4)]["verdict"] == "duplicate"


def test_revision_reporting_can_be_switched_off(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    out = cli(tmp_path, "rebuild-index", "--from-jsonl", str(_revision_library(tmp_path)), "--report", str(report),
              env={"PAPERLESS_DEDUPE_DETECTION_REPORT_REVISIONS": "false"})
    assert out.returncode == 0, out.stderr
    assert [(p["a"], p["b"]) for p in json.loads(report.read_text())["pairs"]] == [(3, 4)]
