"""Tests of the labelled benchmark corpus generator (bench/corpus)."""

from __future__ import annotations

import itertools
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.corpus import generate as G  # noqa: E402

SAMPLE = ROOT / "bench" / "corpus" / "sample"
FILES = ("docs.jsonl", "pairs.jsonl", "manifest.json", "doc_meta.jsonl")


def _load(d: Path) -> tuple[dict[int, dict], list[dict], dict, dict[int, dict]]:
    docs = [json.loads(x) for x in (d / "docs.jsonl").read_text(encoding="utf-8").splitlines()]
    pairs = [json.loads(x) for x in (d / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    manifest = json.loads((d / "manifest.json").read_text(encoding="utf-8"))
    meta = [json.loads(x) for x in (d / "doc_meta.jsonl").read_text(encoding="utf-8").splitlines()]
    by_id = {x["id"]: x for x in docs}
    assert len(by_id) == len(docs), "ids must be unique"
    return by_id, pairs, manifest, {m["id"]: m for m in meta}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    G.generate(out, 600, 11)
    return out


def _shingles(text: str) -> set[tuple[str, ...]]:
    w = re.findall(r"\w+", text.lower())
    return {tuple(w[i : i + 3]) for i in range(len(w) - 2)}


def _jaccard(a: str, b: str) -> float:
    x, y = _shingles(a), _shingles(b)
    return len(x & y) / len(x | y) if x and y else 0.0


def test_same_seed_gives_identical_bytes(corpus: Path, tmp_path: Path) -> None:
    G.generate(tmp_path, 600, 11)
    for name in FILES:
        assert (tmp_path / name).read_bytes() == (corpus / name).read_bytes(), name


def test_other_seed_gives_other_corpus(corpus: Path, tmp_path: Path) -> None:
    G.generate(tmp_path, 600, 12)
    assert (tmp_path / "docs.jsonl").read_bytes() != (corpus / "docs.jsonl").read_bytes()


def test_documents_have_the_paperless_shape(corpus: Path) -> None:
    docs, _, manifest, _ = _load(corpus)
    assert sorted(docs) == list(range(1, len(docs) + 1))
    assert manifest["documents"] == len(docs)
    assert abs(len(docs) - 600) <= 30
    for d in docs.values():
        assert set(d) == {"id", "title", "content", "created", "correspondent"}
        assert isinstance(d["content"], str) and isinstance(d["title"], str)
        assert isinstance(d["correspondent"], str)
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", d["created"])


def test_every_kind_is_present(corpus: Path) -> None:
    _, pairs, manifest, meta = _load(corpus)
    dup_kinds = {p["kind"] for p in pairs if p["dup"]}
    neg_kinds = {p["kind"] for p in pairs if not p["dup"]}
    assert dup_kinds == set(G.DUP_KINDS)
    assert neg_kinds == set(G.SERIES)
    roles = {m["role"] for m in meta.values()}
    assert set(G.EDGE_KINDS) <= roles
    assert "background" in roles
    assert manifest["kinds"]["duplicate"] == G.DUP_KINDS


def test_edge_documents(corpus: Path) -> None:
    docs, _, _, meta = _load(corpus)
    words = {i: len(d["content"].split()) for i, d in docs.items()}
    assert any(docs[i]["content"] == "" for i in docs)
    assert any(0 < words[i] < 20 and meta[i]["role"] == "edge_short" for i in docs)
    assert any(words[i] >= 20000 for i in docs)
    junk = [docs[i]["content"] for i in docs if meta[i]["role"] == "edge_junk"]
    assert junk and all(not re.search(r"[A-Za-z]{4}", t) for t in junk)


def test_pairs_are_well_formed(corpus: Path) -> None:
    docs, pairs, _, _ = _load(corpus)
    seen = set()
    for p in pairs:
        assert set(p) == {"a", "b", "dup", "kind"}
        assert p["a"] < p["b"]
        assert p["a"] in docs and p["b"] in docs
        assert (p["a"], p["b"]) not in seen
        seen.add((p["a"], p["b"]))
    assert [(p["a"], p["b"]) for p in pairs] == sorted(seen)


def test_duplicate_groups_are_fully_listed(corpus: Path) -> None:
    docs, pairs, _, meta = _load(corpus)
    dup = {(p["a"], p["b"]) for p in pairs if p["dup"]}
    groups: dict[int, list[int]] = {}
    for i, m in meta.items():
        if m["group"] is not None:
            groups.setdefault(m["group"], []).append(i)
    assert groups
    for members in groups.values():
        assert len(members) >= 2
        for a, b in itertools.combinations(sorted(members), 2):
            assert (a, b) in dup
    # and, independently of the metadata: dup=true is transitive (every connected component a clique)
    parent = {i: i for i in docs}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in dup:
        parent[find(a)] = find(b)
    comps: dict[int, list[int]] = {}
    for i in docs:
        comps.setdefault(find(i), []).append(i)
    for members in comps.values():
        for a, b in itertools.combinations(sorted(members), 2):
            assert (a, b) in dup, (a, b)


def test_originals_do_not_always_get_the_lower_id(corpus: Path) -> None:
    _, pairs, _, meta = _load(corpus)
    first = [meta[p["a"]]["role"] == "dup_original" for p in pairs if p["dup"]
             and "dup_original" in (meta[p["a"]]["role"], meta[p["b"]]["role"])]
    assert any(first) and not all(first)


def test_series_members_with_rescan_are_in_both(corpus: Path) -> None:
    _, pairs, _, meta = _load(corpus)
    series_rescans = [p for p in pairs if p["dup"] and p["kind"] == "rescan"
                      and meta[p["a"]]["series"] is not None and meta[p["a"]]["series"] == meta[p["b"]]["series"]]
    assert series_rescans
    negs = {(p["a"], p["b"]) for p in pairs if not p["dup"]}
    p = series_rescans[0]
    others = [i for i, m in meta.items() if m["series"] == meta[p["a"]]["series"] and i not in (p["a"], p["b"])]
    for o in others:
        assert tuple(sorted((o, p["a"]))) in negs and tuple(sorted((o, p["b"]))) in negs


def test_duplicates_are_not_byte_identical(corpus: Path) -> None:
    docs, pairs, _, _ = _load(corpus)
    for p in pairs:
        if p["dup"]:
            assert docs[p["a"]]["content"] != docs[p["b"]]["content"], p


def test_rescans_really_differ_but_stay_close(corpus: Path) -> None:
    docs, pairs, _, _ = _load(corpus)
    scores = [_jaccard(docs[p["a"]]["content"], docs[p["b"]]["content"]) for p in pairs if p["kind"] == "rescan"]
    assert scores and max(scores) < 1.0
    assert sum(scores) / len(scores) > 0.4


def test_hard_negative_series_are_textually_close(corpus: Path) -> None:
    docs, pairs, _, _ = _load(corpus)
    per_kind: dict[str, list[float]] = {}
    for p in pairs:
        if not p["dup"]:
            per_kind.setdefault(p["kind"], []).append(_jaccard(docs[p["a"]]["content"], docs[p["b"]]["content"]))
    inv = per_kind["invoice_series"]
    assert sum(inv) / len(inv) >= 0.5
    everything = [s for v in per_kind.values() for s in v]
    assert sum(s >= 0.7 for s in everything) / len(everything) >= 0.25  # a naive Jaccard>=0.7 detector trips often


def test_background_documents_are_unrelated(corpus: Path) -> None:
    docs, _, _, meta = _load(corpus)
    bg = sorted(i for i, m in meta.items() if m["role"] == "background")[:150]
    sh = {i: _shingles(docs[i]["content"]) for i in bg}
    worst = max(len(sh[a] & sh[b]) / len(sh[a] | sh[b]) for a, b in itertools.combinations(bg, 2) if sh[a] and sh[b])
    assert worst < 0.7


def test_cli_and_minimum_size(tmp_path: Path) -> None:
    assert G.main(["--out", str(tmp_path / "c"), "--docs", "50", "--seed", "3"]) == 0
    docs, pairs, _, _ = _load(tmp_path / "c")
    assert len(docs) >= 50 and pairs
    with pytest.raises(SystemExit):
        G.main(["--out", str(tmp_path / "d"), "--docs", "10"])


def test_shipped_sample_is_current_and_complete(tmp_path: Path) -> None:
    G.generate(tmp_path, 80, 7)
    for name in FILES:
        assert (SAMPLE / name).read_bytes() == (tmp_path / name).read_bytes(), (
            f"bench/corpus/sample/{name} is stale: python -m bench.corpus.generate --out bench/corpus/sample --docs 80 --seed 7"
        )
    _, pairs, _, meta = _load(SAMPLE)
    kinds = {p["kind"] for p in pairs}
    assert set(G.DUP_KINDS) | set(G.SERIES) <= kinds
    assert set(G.EDGE_KINDS) <= {m["role"] for m in meta.values()}


@pytest.mark.parametrize(("clause", "changed"), [
    pytest.param("This agreement commences on 2025-05-13 for 14 days.", "14", id="iso-date"),
    pytest.param("Der Vertrag beginnt am 12.01.2023 und endet nach 3 Monaten.", "3", id="dotted-date"),
    pytest.param("It commences on 13 July 2025 with a notice of 30 days", "30", id="day-month-name"),
    pytest.param("Beginn am 6. August 2023, Kündigung mit 3 Monaten", "3", id="day-month-name-de"),
    pytest.param("from July 13, 2025 within 30 days", "30", id="month-name-day"),
    pytest.param("The fee is EUR 1.234,56 per month, due in 14 days", "1.234,56", id="sum-first"),
    pytest.param("Meeting at 8:00 on 12.03.2024", None, id="time-and-date-only"),
])
def test_a_draft_changes_a_sum_or_period_never_a_piece_of_a_date(clause: str, changed: str | None) -> None:
    """Issue 12: a draft's "changed number" used to be a date's month (2025-05-13 became
    2025-7-13), and drafts then disagreed with their original in a date."""
    from bench.corpus.dups import _changeable

    m = _changeable(clause)
    assert (m.group(0) if m else None) == changed


# -- issue 25: the damage of real scans ---------------------------------------------------------
def test_short_note_rescans_carry_the_damage_of_real_scans() -> None:
    """A re-scan of a receipt or ticket differs from it, and across many the archive's kinds of
    damage all occur: a digit read as its look-alike, a scanner's stamp line, a moved line."""
    import datetime as dt
    import random

    from bench.corpus import short_notes as SN
    from bench.corpus.noise import DIGIT_LOOKALIKES

    seen = {"lookalike": 0, "stamp": 0, "moved": 0}
    for seed in range(300):
        rng = random.Random(seed)
        note = SN.note(rng, "de" if seed % 2 else "en")
        copy = SN.rescan(note.text, note.lang, dt.date(2021, 8, 24), rng)
        assert copy != note.text
        lines, copy_lines = note.text.split("\n"), copy.split("\n")
        if re.search(r"^(Gescannt|Eingescannt|Scan|Scanned|CamScanner)\b", copy, re.M):
            seen["stamp"] += 1
        common = [ln for ln in copy_lines if ln in lines]
        if common != [ln for ln in lines if ln in common]:
            seen["moved"] += 1
        looks = "".join(set("".join(DIGIT_LOOKALIKES.values())))
        if re.search(rf"\d[{looks}]|[{looks}]\d", copy) and not re.search(rf"\d[{looks}]|[{looks}]\d", note.text):
            seen["lookalike"] += 1
    assert all(n >= 10 for n in seen.values()), seen


def test_short_note_rescans_are_deterministic() -> None:
    import datetime as dt
    import random

    from bench.corpus import short_notes as SN

    text = "Receipt: £12.23 received on 15/02/2018. Signed Ann Lee"
    runs = {SN.rescan(text, "en", dt.date(2018, 2, 15), random.Random(5)) for _ in range(3)}
    assert len(runs) == 1


@pytest.mark.parametrize(("number", "allowed"), [
    pytest.param("15/02/2018", set("0123456789/ZOoDlIbSBgAT"), id="date"),
    pytest.param("12.04,56", set("0123456789.,ZOoDlIbSBgAT"), id="amount"),
])
def test_digits_are_misread_only_as_their_look_alikes(number: str, allowed: set[str]) -> None:
    import random

    from bench.corpus import noise as N

    out = {N.misread_digits(number, 1.0, random.Random(s)) for s in range(60)}
    assert len(out) > 5 and all(set(o) <= allowed and len(o) == len(number) for o in out)
    assert N.misread_digits("no numbers here", 1.0, random.Random(1)) == "no numbers here"


def test_a_missing_last_page_is_up_to_45_percent_of_the_text() -> None:
    import random

    from bench.corpus import background as B
    from bench.corpus import dups as D
    from bench.corpus import fmt
    from bench.corpus.prose import word_count

    shares = []
    for seed in range(60):
        rng = random.Random(seed)
        corr = fmt.correspondent(rng, "de", "company")
        doc = B.make(rng, "contract", corr, fmt.random_date(rng), 900)
        full, short = D.cut_last_page(doc, rng)
        shares.append(1 - word_count(short) / word_count([b for b in full if b[0] != "page"]))
    assert min(shares) >= 0.12 and max(shares) <= 0.48
    assert sum(s >= 0.35 for s in shares) >= 10, sorted(shares)


def test_heavy_scans_lose_merge_and_move_whole_lines() -> None:
    import random

    from bench.corpus import noise as N

    text = "\n".join(f"Zeile {k} mit etwas Text und noch mehr Worten" for k in range(40))
    lost = merged = 0
    for seed in range(30):
        rng = random.Random(seed)
        out = N.ocr(text, N.level(rng, "heavy"), rng).split("\n")
        lost += len(out) < 40
        merged += any(line.count("Zeile") >= 2 for line in out)
    assert lost >= 20 and merged >= 15, (lost, merged)


def test_realistic_archive_holds_the_kinds_of_issue_25(tmp_path: Path) -> None:
    from bench.corpus import realistic as R

    manifest = R.generate(tmp_path, 1500, 3)
    dup = manifest["pairs_per_kind"]["dup"]  # type: ignore[index]
    for kind in ("short_rescan", "revision", "series_rescan", "missing_page", "cover_sheet", "draft_revision"):
        assert dup.get(kind, 0) >= 2, (kind, dup)
    assert manifest["pairs_per_kind"]["non_dup"]["short_note"] > 0  # type: ignore[index]
