"""``check N -v``: the candidates under the threshold, their scores and what held each back,
through the installed console script against the fake Paperless over loopback HTTP, with a
real SQLite index built by ``rebuild-index``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.fake_paperless import FakePaperless
from tests.test_hook_e2e import CLI, _env, writes


@pytest.fixture
def indexed(fake_paperless: FakePaperless, tmp_path: Path) -> dict[str, str]:
    fake_paperless.seed_sample()  # 1 invoice Oct, 2 its re-scan, 3 invoice Nov, 4 letter, 5 three words, 6 report
    env = _env(fake_paperless, tmp_path)
    built = subprocess.run([CLI, "rebuild-index"], env=env, capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    return env


def _check(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, "check", *args], env=env, capture_output=True, text=True, timeout=60)


@pytest.fixture
def redated(fake_paperless: FakePaperless, tmp_path: Path) -> dict[str, str]:
    """The sample, plus #7: invoice #1 with another invoice date, and #8/#9: two short notes of
    one template ("parcel left at no. 439" / "... 441")."""
    fake_paperless.seed_sample()
    first = fake_paperless.document(1)["content"]
    fake_paperless.add_document(id=7, title="ACME invoice, printed again", content=first.replace(
        "Invoice date: 2026-10-31", "Invoice date: 2026-12-31"))
    note = "Parcel left with your neighbour at no. {}, Elm Street. Collect it until 12 May 2026."
    fake_paperless.add_document(id=8, title="parcel note 439", content=note.format(439))
    fake_paperless.add_document(id=9, title="parcel note 441", content=note.format(441))
    env = _env(fake_paperless, tmp_path)
    built = subprocess.run([CLI, "rebuild-index"], env=env, capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    return env


# check -v says in words why each match is one (commands.maintenance, verdict words of core.explain).
VERDICT = "      nearly the same text; some dates, amounts or numbers differ"
HEADER = "under the threshold {:.2f} (closest first; a value pair reads this document's ≠ the candidate's):"
NEXT_MONTH_CONFLICTS = (
    "date 2026-12-31 ≠ 2026-11-30 (“lnvolce date”); id INV20261047 ≠ INV20261163 (“lnvolce number”); "
    "ref 20261047 ≠ 20261163 (“quote lnv”); amount 241.35 ≠ 161.80 (“subtotal”); amount 289.62 ≠ 194.16 "
    "(“total due”); amount 48.27 ≠ 32.36 (“vat pct”); amount 123.00, 18.75, 61.50 (+1) ≠ 12.40, 149.40")


def test_check_v_names_the_value_pair_that_held_a_copy_back(redated: dict[str, str], fake_paperless: FakePaperless) -> None:
    # At a threshold of 0.85 the copy with another invoice date is held back by that date alone
    # (the LSH target kept as the index was built).
    env = redated | {"PAPERLESS_DEDUPE_DETECTION_SIMILARITY_THRESHOLD": "0.85",
                     "PAPERLESS_DEDUPE_DETECTION_LSH_THRESHOLD": "0.4"}
    before = len(writes(fake_paperless))
    out = _check(env, "7", "-v")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "document 7: no duplicates among 3 candidate(s)",
        HEADER.format(0.85),
        "  #1 'ACME invoice INV-2026-1047': score 0.80 (jaccard 0.95, containment 0.97, order 0.99, fuzzy 1.00, "
        "discriminative 0.73, penalty x0.81)",
        "    - conflicts (D 0.73, score x0.81): date 2026-12-31 ≠ 2026-10-31 (“lnvolce date”)",
        "  #2 'invoice-acme-2026-10-rescan': score 0.80 (jaccard 0.95, containment 0.97, order 0.93, fuzzy 0.99, "
        "discriminative 0.73, penalty x0.81)",
        "    - conflicts (D 0.73, score x0.81): date 2026-12-31 ≠ 2026-10-31 (“lnvolce date”)",
        "  #3 'ACME invoice INV-2026-1163': score 0.31 (jaccard 0.52, containment 0.71, order 0.79, fuzzy 0.88, "
        "discriminative 0.13, penalty x0.39)",
        "    - too little text in common: jaccard 0.52, containment 0.71, fuzzy 0.88 give 0.78 even without a penalty",
        f"    - conflicts as well (D 0.13, score x0.39): {NEXT_MONTH_CONFLICTS}",
    ]
    assert len(writes(fake_paperless)) == before  # check changes nothing


def test_check_v_after_the_matches_lists_the_series_neighbour(redated: dict[str, str]) -> None:
    out = _check(redated, "7", "-v")
    assert out.returncode == 1, out.stderr
    assert out.stdout.splitlines() == [
        "document 7 has 2 possible duplicate(s):",
        "  #1 'ACME invoice INV-2026-1047': score 0.80 (jaccard 0.95, fuzzy 1.00, discriminative 0.73)",
        VERDICT,
        "  #2 'invoice-acme-2026-10-rescan': score 0.80 (jaccard 0.95, fuzzy 0.99, discriminative 0.73)",
        VERDICT,
        HEADER.format(0.75),
        "  #3 'ACME invoice INV-2026-1163': score 0.31 (jaccard 0.52, containment 0.71, order 0.79, fuzzy 0.88, "
        "discriminative 0.13, penalty x0.39)",
        "    - conflicts (D 0.13, score x0.39): " + NEXT_MONTH_CONFLICTS,
    ]
    # Without -v: the matches alone, as before.
    plain = _check(redated, "7")
    assert plain.stdout.splitlines() == [line for line in out.stdout.splitlines()[:5] if line != VERDICT]
    # The global -v before the command asks for the same.
    assert subprocess.run([CLI, "-v", "check", "7"], env=redated, capture_output=True, text=True,
                          timeout=60).stdout == out.stdout


def test_check_v_json_carries_the_figures_and_the_value_pairs(redated: dict[str, str]) -> None:
    env = redated | {"PAPERLESS_DEDUPE_DETECTION_SIMILARITY_THRESHOLD": "0.85",
                     "PAPERLESS_DEDUPE_DETECTION_LSH_THRESHOLD": "0.4"}
    out = _check(env, "7", "-v", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["matches"] == [] and result["similarity_threshold"] == 0.85
    assert [m["id"] for m in result["near_misses"]] == [1, 2, 3] and result["near_misses_not_shown"] == 0
    first = result["near_misses"][0]
    assert first["conflicts"] == [{"kind": "date", "label": "lnvolce date", "a": ["2026-12-31"], "b": ["2026-10-31"],
                                   "ocr_slip": False}]
    assert first["reasons"] == ["conflicts (D 0.73, score x0.81): date 2026-12-31 ≠ 2026-10-31 (“lnvolce date”)"]
    # The score is the unpenalised one times the penalty factor (core.scoring.combine).
    assert abs(first["score"] - first["score_without_penalty"] * first["penalty_factor"]) < 1e-3
    assert first["score_without_penalty"] >= 0.85 > first["score"]
    assert set(first) >= {"jaccard", "containment", "ordered_overlap", "order_factor", "fuzzy", "discriminative"}
    # Without -v the JSON has no near misses (their texts are not fetched).
    assert "near_misses" not in json.loads(_check(env, "7", "--json").stdout)


def test_check_v_explains_short_notes_by_their_rule(redated: dict[str, str]) -> None:
    out = _check(redated, "9", "-v")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        # One short candidate by its text; #9 also takes the picture path (too few words), where
        # the picture keys bring two more candidates that its picture does not match.
        "document 9: no duplicates among 3 candidate(s) (a short document: compared with short ones, and by its "
        "first page's picture)",
        HEADER.format(0.75),
        "  #8 'parcel note 439': score 0.29 (short documents: text ratio 0.97)",
        "    - short texts' digits differ: 441122026 ≠ 439122026",
    ]


def test_check_v_with_nothing_under_the_threshold_says_so(indexed: dict[str, str]) -> None:
    out = _check(indexed, "4", "-v")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["document 4: no duplicates among 0 candidate(s)",
                                       "no candidate under the threshold 0.75 to explain"]
