"""Detection quality on a seeded labelled corpus: floors a little under the measured
figures (docs/quality.md), so that a regression fails the build.  Runs the installed
``paperless-dedupe evaluate`` as a user would."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLI = shutil.which("paperless-dedupe") or str(Path(sys.executable).parent / "paperless-dedupe")


@pytest.fixture(scope="module")
def evaluation(tmp_path_factory: pytest.TempPathFactory) -> dict:
    corpus = tmp_path_factory.mktemp("corpus")
    subprocess.run([sys.executable, "-m", "bench.corpus.generate", "--out", str(corpus), "--docs", "600", "--seed", "11"],
                   cwd=ROOT, check=True, capture_output=True)
    out = subprocess.run([CLI, "evaluate", "--docs", str(corpus / "docs.jsonl"), "--truth", str(corpus / "pairs.jsonl"), "--json"],
                         capture_output=True, text=True, timeout=600, env={"PATH": "/usr/bin:/bin", "HOME": str(corpus)})
    assert out.returncode == 0, out.stderr
    assert "LSH config: num_perm=256" in out.stderr
    return json.loads(out.stdout)


def test_pair_level_floors(evaluation: dict) -> None:
    # measured on this corpus (issue 25's harder generator): precision 0.981, recall 0.954,
    # F1 0.967 (main before issue 25's scoring: 0.979, 0.870, 0.922)
    assert evaluation["pairs"]["precision"] >= 0.96
    assert evaluation["pairs"]["recall"] >= 0.93
    assert evaluation["pairs"]["f1"] >= 0.95
    assert evaluation["candidate_recall"] >= 0.98


def test_no_hard_negative_kind_leaks(evaluation: dict) -> None:
    rates = evaluation["false_positive_rate_by_kind"]
    assert set(rates) >= {"invoice_series", "bank_statement", "payslip", "tenancy_form", "utility_bill"}
    for kind, figure in rates.items():
        # measured: 0 everywhere but invoice_series (2 of 100 pairs), docs/quality.md
        assert figure["rate"] <= 0.03, kind


def test_duplicate_kinds_are_found(evaluation: dict) -> None:
    recall = evaluation["recall_by_kind"]
    for kind in ("rescan", "digital_vs_scan", "missing_page", "print_stamp", "draft_revision", "short_rescan"):
        assert recall[kind]["rate"] >= 0.90, kind  # measured 0.943 (rescan of 35), 1.000 the others
    for kind in ("cover_sheet", "email_vs_scan"):  # measured 1.00 and 0.75 on 5 and 12 pairs
        assert recall[kind]["rate"] >= 0.70, kind


def test_groups_hold_no_chains(evaluation: dict) -> None:
    groups, pairs = evaluation["groups"], evaluation["pairs"]
    assert groups["precision"] >= pairs["precision"] - 0.02
    assert groups["min_pairwise_sim"] >= evaluation["config"]["similarity_threshold"] - 0.2
    assert evaluation["over_groups"] == []


def test_audit_records_every_missed_pair(evaluation: dict) -> None:
    missed = evaluation["missed_pairs"]
    assert len(missed) == round(evaluation["truth_pairs"] * (1 - evaluation["pairs"]["recall"]))
    for record in missed:
        assert record["stage"] in {"not_candidate", "under_threshold", "penalty", "not_comparable", "short_rule",
                                   "revision_not_reported"}
        assert 0.0 <= record["true_sim"] <= 1.0


def test_report_records_the_configuration(evaluation: dict) -> None:
    cfg = evaluation["config"]
    for key in ("num_permutations", "num_bands", "rows", "similarity_threshold", "jaccard_weight", "fuzzy_weight",
                "discriminative_penalty_strength", "ngram_size", "shingle", "package_version"):
        assert key in cfg, key


def test_audit_lines_use_the_seed_guide_form() -> None:
    from paperless_dedupe_hook.commands.evaluate import audit_lines

    lines = audit_lines({
        "missed_pairs": [{"a": 4120, "b": 4121, "true_sim": 0.83, "candidate": False, "score": 0.61,
                          "stage": "not_candidate", "kind": "rescan"}],
        "over_groups": [{"cluster": "G-559", "docs": 41, "min_pairwise_sim": 0.44}],
    })
    assert lines[0].startswith("[ERROR] missed_pair 4120/4121 true_sim=0.83 candidate=false score=0.610")
    assert lines[1] == "[ERROR] over_group cluster=G-559: 41 docs, min_pairwise_sim=0.44"


# -- the realistic archive (issue 12): template families of 12-120 documents, sentence
# and clause libraries, duplicates inside the families.
@pytest.fixture(scope="module")
def realistic(tmp_path_factory: pytest.TempPathFactory) -> dict:
    corpus = tmp_path_factory.mktemp("realistic")
    subprocess.run([sys.executable, "-m", "bench.corpus.realistic", "--out", str(corpus), "--docs", "2000", "--seed", "5"],
                   cwd=ROOT, check=True, capture_output=True)
    out = subprocess.run([CLI, "evaluate", "--docs", str(corpus / "docs.jsonl"), "--truth", str(corpus / "pairs.jsonl"), "--json"],
                         capture_output=True, text=True, timeout=900, env={"PATH": "/usr/bin:/bin", "HOME": str(corpus)})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_realistic_archive_pair_floors(realistic: dict) -> None:
    # measured on this corpus (issue 25's harder generator): precision 1.000, recall 0.964,
    # F1 0.982 (3 December 2026, with subject lines and damaged month words; before: 0.995,
    # 0.964, 0.979; before the cover sheets' own values were left out: 0.995, 0.959, 0.977)
    assert realistic["pairs"]["precision"] >= 0.985
    assert realistic["pairs"]["recall"] >= 0.955
    assert realistic["pairs"]["f1"] >= 0.975
    assert realistic["candidate_recall"] >= 0.98


def test_realistic_archive_template_families_stay_apart(realistic: dict) -> None:
    rates = realistic["false_positive_rate_by_kind"]
    assert set(rates) >= {"invoice_series", "payslip", "manual_library", "clause_library", "insurer_letters", "short_note"}
    for kind, figure in rates.items():
        # measured: 0 everywhere (issue 25's generator, seed 5)
        assert figure["rate"] <= 0.03, kind


def test_realistic_archive_duplicate_kinds_are_found(realistic: dict) -> None:
    for kind, figure in realistic["recall_by_kind"].items():
        # measured (issue 25's generator, its first version): cover_sheet 0.850 (20 pairs),
        # series_rescan 0.864 (22), email_vs_scan 0.923 (13), rescan 0.931 (29), revision 0.958 (24),
        # the others 1.000; on its updated version (f8de20b) series_rescan 0.783
        assert figure["rate"] >= 0.75, kind
