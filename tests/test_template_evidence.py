"""Issue 12: text that many documents share (a template, a legal footer, a sentence
library) is no evidence of duplication, at any library size."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from paperless_dedupe_hook import config, engine, rebuild, sources
from paperless_dedupe_hook.commands.progress import Progress
from paperless_dedupe_hook.core import discriminative, order, scoring
from paperless_dedupe_hook.core.commonkeys import COMMON_KEY_DOCS, RARE_KEY_DOCS, bucket_role, chosen
from paperless_dedupe_hook.core.extract import SLOT_MARK
from paperless_dedupe_hook.core.features import compute
from paperless_dedupe_hook.index.sqlite import SqliteIndex
from tests.template_family import member

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def settings() -> engine.Settings:
    return engine.settings_from_config(config.load(config_path=None, env={"HOME": "/nonexistent"}))


def test_what_a_key_is_worth_goes_by_how_many_share_it() -> None:
    assert bucket_role(1) == "none"  # no other document
    assert bucket_role(2) == bucket_role(RARE_KEY_DOCS) == "rare"
    assert bucket_role(RARE_KEY_DOCS + 1) == bucket_role(COMMON_KEY_DOCS) == "shared"
    assert bucket_role(COMMON_KEY_DOCS + 1) == "none"  # template text
    assert chosen({7: [2], 8: [COMMON_KEY_DOCS], 9: [30, 40], 10: [COMMON_KEY_DOCS, 3]}) == [7, 9, 10]


def test_a_large_family_yields_its_copy_not_its_members(settings: engine.Settings, tmp_path: Path) -> None:
    size = COMMON_KEY_DOCS + 12
    feats = [compute(i, member(i), settings.features) for i in range(1, size + 1)]
    copy = compute(size + 1, member(5), settings.features)  # a second copy of member 5
    everyone = [*feats, copy]
    pairs = rebuild.candidate_pairs(everyone, settings)
    assert (5, size + 1) in pairs
    family_pairs = size * (size - 1) // 2
    assert len(pairs) < family_pairs / 10  # the shared boilerplate pairs nobody with anybody
    # The index (what the hook asks) applies the same limit to its per-key row counts.
    with SqliteIndex(tmp_path / "i.sqlite3", create=True) as index, index.write():
        for f in feats:
            index.put(f, modified=None, keys=settings.band_keys(f))
    with SqliteIndex(tmp_path / "i.sqlite3") as index:
        asked = index.candidates(settings.band_keys(copy), exclude=copy.doc_id)
    assert asked == sorted(a if b == copy.doc_id else b for a, b in pairs if copy.doc_id in (a, b))


def _sentences(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    words = ("press the button hold until the light flashes clean the filter every month keep the manual "
             "for later use do not open the housing check the cable for damage before use").split()
    return [" ".join(rng.choice(words) for _ in range(rng.randint(7, 14))).capitalize() + "." for _ in range(n)]


def test_a_copy_is_in_order_a_library_assembly_is_not(settings: engine.Settings) -> None:
    library = _sentences(3, 60)
    rng = random.Random(4)
    one = rng.sample(library, 45)
    other = rng.sample(library, 45)
    text_one, text_other = "\n".join(one), "\n".join(other)
    missing_page = "\n".join(one[:36])
    a = compute(1, text_one, settings.features)
    b = compute(2, text_other, settings.features)
    c = compute(3, missing_page, settings.features)
    assert order.ordered_overlap(a, c) > 0.95
    assert order.ordered_overlap(a, b) < 0.7
    assert order.order_factor(order.ordered_overlap(a, c)) == 1.0
    params = settings.scoring
    assert scoring.score(a, c, params).score >= params.similarity_threshold
    assert scoring.score(a, b, params, exact=True).score < params.similarity_threshold


def test_order_factor_is_monotone_and_bounded() -> None:
    values = [order.order_factor(x / 100) for x in range(101)]
    assert values == sorted(values)
    assert values[0] == 0.0 and values[-1] == 1.0


def test_a_conflict_weighs_the_same_however_common_its_values() -> None:
    """The month of the 120th payslip of a series is as decisive as of the 3rd: a token
    weight (an IDF) lowers agreement on common values, never a conflict."""
    a = ["id:personnel:48213", "amount:3120.00", "date:2024-03", f"{SLOT_MARK}abrechnungsmonat=date:2024-03"]
    b = ["id:personnel:48213", "amount:3120.00", "date:2024-04", f"{SLOT_MARK}abrechnungsmonat=date:2024-04"]

    def common_months(token: str) -> float:
        return 0.2 if "date:" in token else 1.0

    assert discriminative.slot_conflicts(a, b, common_months) == discriminative.slot_conflicts(a, b, None) > 0
    assert discriminative.slot_similarity(a, b, common_months) <= discriminative.slot_similarity(a, b, None) < 1.0


def test_scoring_progress_counts_to_the_candidates(settings: engine.Settings) -> None:
    docs = sources.read_jsonl(ROOT / "bench/corpus/sample/docs.jsonl")
    heard: list[tuple[int, int]] = []
    analysis = rebuild.analyse(docs, settings, workers=1, scoring_progress=lambda done, total: heard.append((done, total)))
    total = len(analysis.candidates)  # the sample has no dismissed and no derived pairs: all are scored
    assert 0 < len(analysis.scored) < total  # only the scores that came within reach are kept
    assert heard and all(t == total for _, t in heard)
    assert [d for d, _ in heard] == sorted(d for d, _ in heard)
    assert heard[-1][0] == total


def test_rebuild_prints_a_scoring_line_with_rate_and_eta(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "paperless_dedupe_hook.commands.cli", "rebuild-index", "--from-jsonl",
         str(ROOT / "bench/corpus/sample/docs.jsonl")],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PAPERLESS_DEDUPE_INDEX": str(tmp_path / "i.sqlite3")})
    assert out.returncode == 0, out.stderr
    line = re.search(r"scoring candidates: (\d+)/(\d+) \(100%\), [\d,]+/s, ETA 0 s", out.stderr)
    assert line and line.group(1) == line.group(2), out.stderr


def test_progress_line_names_done_total_rate_and_eta() -> None:
    stream = io.StringIO()
    p = Progress("scoring candidates", 200, stream=stream, interval_seconds=0.0)
    p.update(50)
    p.finish()
    assert re.search(r"scoring candidates: 50/200 \(25%\), [\d,]+/s, ETA [\d,]+ s", stream.getvalue())


def test_work_settled_before_the_clock_does_not_count_in_the_rate() -> None:
    stream = io.StringIO()
    p = Progress("scoring candidates", 1000, stream=stream, interval_seconds=0.0)
    p.base = 900  # settled at once: without it the rate would be >= 900 per elapsed second
    p.started -= 10.0  # ten seconds ago
    p.update(950)
    rate = float(re.findall(r", ([\d,.]+)/s", stream.getvalue())[-1].replace(",", ""))
    assert 4 <= rate <= 6  # 50 pairs in ten seconds


def _together(meta: dict[int, dict[str, object]], a: int, b: int) -> bool:
    """In one template family or one duplicate group (the generator's doc_meta.jsonl)."""
    return any(meta[a][field] is not None and meta[a][field] == meta[b][field] for field in ("series", "group"))


def test_candidates_per_document_do_not_grow_with_the_archive(tmp_path: Path, settings: engine.Settings) -> None:
    """Two sizes of the realistic generator: more template families, not bigger ones, so
    the candidates per document stay about flat (before issue 12 they grew with the
    archive: 21 per document at 3,000, 43 at 10,000).  Pairs outside a family or
    duplicate group (one stock phrase in ever more documents) stay a small part."""
    total, outside = [], []
    for n in (1500, 4500):
        out = tmp_path / f"r{n}"
        subprocess.run([sys.executable, "-m", "bench.corpus.realistic", "--docs", str(n), "--seed", "3", "--out", str(out)],
                       cwd=ROOT, check=True, capture_output=True)
        meta = {row["id"]: row for row in map(json.loads, (out / "doc_meta.jsonl").read_text().splitlines())}

        feats = rebuild.compute_all(sources.iter_jsonl(out / "docs.jsonl"), settings, workers=2)
        pairs = rebuild.candidate_pairs(feats, settings)
        total.append(len(pairs) / len(feats))
        outside.append(sum(1 for a, b in pairs if not _together(meta, a, b)) / len(feats))
    # measured (seed 3): 12.3 and 14.2 per document; outside families and groups 0.48 and
    # 1.17: that part still grows with the archive (docs/benchmarks.md, an open point).  On
    # issue 25's harder corpus (short-note re-scans, ticket families, heavier OCR): 12.3 and
    # 14.9 (x1.22), outside 0.49 and 1.12
    assert total[1] <= total[0] * 1.25, (total, outside)
    assert outside[1] < 0.2 * total[1], (total, outside)


def _payslip(values: dict[str, str], *extra: str) -> list[str]:
    """Tokens of a payslip: each labelled amount as a slot and as a plain token."""
    slots = [f"{SLOT_MARK}{label}=amount:{v}" for label, v in values.items()]
    return [*slots, *(f"amount:{v}" for v in values.values()), "id:personnel:45318", *extra]


def test_slot_values_a_scan_read_out_of_line_do_not_conflict() -> None:
    """A re-scan that put the table's values under other labels has moved them: each value
    is still a value of the other payslip.  The next month's net pay is not."""
    clean = _payslip({"basic pay": "612464", "income tax": "97994", "net pay": "425146"})
    shifted = _payslip({"basic pay": "425146", "income tax": "612464", "net pay": "97994"})
    next_month = _payslip({"basic pay": "612464", "income tax": "97994", "net pay": "426331"})
    assert discriminative.slot_conflicts(clean, shifted) == 0.0
    assert discriminative.slot_similarity(clean, shifted) == 1.0
    assert discriminative.slot_conflicts(clean, next_month) > 0.0
    assert discriminative.slot_similarity(clean, next_month) < 1.0


@pytest.mark.parametrize(("a", "b", "conflict"), [
    pytest.param({"street:ammarkt39", "street:ammart39"}, {"street:ammarkt39", "street:konigsallee2"}, False,
                 id="ocr-slip-beside-the-clean-address"),
    pytest.param({"street:ammarkt39"}, {"street:markt39"}, False, id="address-lost-its-first-word"),
    pytest.param({"street:ammarkt39"}, {"street:markt38"}, True, id="another-house"),
    pytest.param({"street:lindenstrasse12"}, {"street:eichenweg4"}, True, id="another-street"),
    pytest.param({"street:ammarkt39", "street:lindenstrasse12"}, {"street:ammarkt39", "street:eichenweg4"}, True,
                 id="one-sender-two-tenants"),
])
def test_a_street_read_twice_is_no_conflict(a: set[str], b: set[str], conflict: bool) -> None:
    common = {"date:2024-03-01", "id:customer:77432"}
    assert (discriminative.slot_similarity(a | common, b | common) < 1.0) == conflict
