"""The multilingual corpus generator (bench.corpus.multilingual), its language modules, the
per-language scoring of bench.multilingual and the language probe (issue 23)."""

from __future__ import annotations

import ast
import itertools
import json
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from bench import language_probe, multilingual
from bench.corpus import ml_docs, ml_ocr, ml_series
from bench.corpus import multilingual as gen
from bench.corpus.ml_lang import LABEL_KEYS, TEXT_KEYS, all_languages
from tests.tooling import skip_without

DOCS = 600  # 100 per language: every kind still present, about a second to generate
CORPUS_MODULES = ("ml_fmt.py", "ml_series.py", "ml_docs.py", "multilingual.py")


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ml")
    gen.generate(out, DOCS, 1)
    return out


def test_same_seed_same_bytes_other_seed_other_corpus(corpus: Path, tmp_path: Path) -> None:
    gen.generate(tmp_path / "again", DOCS, 1)
    gen.generate(tmp_path / "other", DOCS, 2)
    for name in ("docs.jsonl", "pairs.jsonl", "doc_meta.jsonl", "manifest.json"):
        assert (tmp_path / "again" / name).read_bytes() == (corpus / name).read_bytes(), name
    assert (tmp_path / "other" / "docs.jsonl").read_bytes() != (corpus / "docs.jsonl").read_bytes()


def test_every_language_has_every_kind(corpus: Path) -> None:
    meta = _read(corpus / "doc_meta.jsonl")
    docs = _read(corpus / "docs.jsonl")
    assert [d["lang"] for d in docs] == [m["lang"] for m in meta]
    roles: dict[str, set[str]] = defaultdict(set)
    varies: dict[str, set[str]] = defaultdict(set)
    for m in meta:
        lang = m["lang"].split("+")[0]
        roles[lang].add(m["role"])
        if "varies" in m:
            varies[lang].add(m["varies"])
    assert set(roles) == set(all_languages())
    for lang in roles:
        assert set(ml_series.KINDS) <= roles[lang], lang
        assert set(ml_docs.DUP_KINDS) - {"rescan"} <= roles[lang] | {"rescan"}, lang
        assert {"background", "edge_short", "edge_empty", "edge_junk"} <= roles[lang], lang
        assert set(ml_series.VARIES) - {"numbers"} <= varies[lang], lang
    shares = {lang: sum(1 for m in meta if m["lang"].split("+")[0] == lang) for lang in roles}
    assert max(shares.values()) - min(shares.values()) <= 0.1 * DOCS / len(shares), shares
    mixed = [m for m in meta if "+" in m["lang"]]
    assert 0.03 * DOCS <= len(mixed) <= 0.25 * DOCS


def test_family_members_differ_only_in_the_value_that_varies(corpus: Path) -> None:
    meta = _read(corpus / "doc_meta.jsonl")
    text = {d["id"]: d["content"] for d in _read(corpus / "docs.jsonl")}
    families: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for m in meta:
        if m.get("varies") and m["varies"] != "numbers" and m["role"] != "rescan":
            families[m["series"]].append(m)
    assert len(families) >= 6 * 6
    checked = 0
    for members in families.values():
        for a, b in itertools.pairwise(members[:6]):
            assert a["values"] and len(a["values"]) == len(b["values"])
            assert not set(a["values"]) & set(b["values"]), (a["values"], b["values"])

            def masked(m: dict[str, Any]) -> str:
                # blanks made one: a longer value wraps a paragraph's lines elsewhere
                out = " ".join(text[m["id"]].split())
                for k, value in sorted(enumerate(m["values"]), key=lambda kv: -len(kv[1])):
                    value = " ".join(value.split())
                    assert value in out, (m["varies"], value)
                    out = out.replace(value, f"<value {k}>")
                return out

            assert masked(a) == masked(b), (a["role"], a["varies"], a["values"], b["values"])
            checked += 1
    assert checked >= 100


def test_truth_pairs_match_groups_and_families(corpus: Path) -> None:
    meta = {m["id"]: m for m in _read(corpus / "doc_meta.jsonl")}
    lang = {d["id"]: d["lang"] for d in _read(corpus / "docs.jsonl")}
    pairs = _read(corpus / "pairs.jsonl")
    keys = [(p["a"], p["b"]) for p in pairs]
    assert len(keys) == len(set(keys)) and all(a < b for a, b in keys)
    dup = {(p["a"], p["b"]) for p in pairs if p["dup"]}
    groups: dict[int, list[int]] = defaultdict(list)
    for i, m in meta.items():
        if m["group"] is not None:
            groups[m["group"]].append(i)
    implied = {tuple(sorted(x)) for members in groups.values() for x in itertools.combinations(members, 2)}
    assert dup == implied
    assert all(len(members) >= 2 for members in groups.values())
    for p in pairs:
        a, b = meta[p["a"]], meta[p["b"]]
        if p["dup"]:
            assert p["kind"] in ml_docs.DUP_KINDS
            assert a["role"] == "dup_original" or b["role"] == "dup_original" or "rescan" in (a["role"], b["role"]) \
                or p["kind"] == "draft_revision"
        else:
            assert a["series"] == b["series"] is not None
            assert p["kind"] == a["family_kind"] == b["family_kind"] and p["varies"] == a["varies"]
        both = lang[p["a"]] if lang[p["a"]] == lang[p["b"]] and "+" not in lang[p["a"]] else "mixed"
        assert p["lang"] == both
    for code in all_languages():  # every kind has labelled pairs inside every language
        assert {p["kind"] for p in pairs if p["dup"] and p["lang"] == code} == set(ml_docs.DUP_KINDS), code
        assert {p["kind"] for p in pairs if not p["dup"] and p["lang"] == code} == set(ml_series.KINDS), code
    assert {p["kind"] for p in pairs if p["lang"] == "mixed"}


@pytest.mark.parametrize("code", sorted(all_languages()))
def test_language_module_is_complete(code: str) -> None:
    lang = all_languages()[code]
    assert len(lang.months) == len(lang.months_abbr) == 12 and len(lang.weekdays) == 7
    assert set(TEXT_KEYS) <= set(lang.text), set(TEXT_KEYS) - set(lang.text)
    assert set(LABEL_KEYS) <= set(lang.labels), set(LABEL_KEYS) - set(lang.labels)
    assert all(lang.labels[k] for k in LABEL_KEYS)
    assert {"subjects", "verbs", "objects", "tails", "legal"} <= set(lang.grammar)
    assert all("{n}" in t and "{name}" in t for t in lang.streets)
    assert all("{n}" in t for _, _, t in lang.amounts)


def test_generator_code_names_no_language() -> None:
    """Languages are data: the generator's code holds no language code as a string."""
    codes = set(all_languages())
    root = Path(gen.__file__).parent
    for name in CORPUS_MODULES:
        tree = ast.parse((root / name).read_text(encoding="utf-8"))
        named = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)} & codes
        assert not named, (name, named)


def test_probe_expects_what_german_and_english_are_read_as() -> None:
    """The probe's expectations are right where the extractor is known to read a language."""
    for code in ("de", "en"):
        results = language_probe.probe(all_languages()[code])
        read = {c.category: 0 for c in results}
        for c in results:
            read[c.category] += c.read
        assert read["date_in_words"] == 12 and read["month_year"] == 12 and read["amount"] == 12, (code, read)
        assert all(c.tokens == () for c in results if c.category == "stamp"), code
    fr = language_probe.probe(all_languages()["fr"])
    assert {c.category for c in fr} >= {"date_in_words", "month_year", "numeric_date", "amount", "label", "street",
                                        "stamp", "weekday_slot", "two_slots"}


def test_per_language_scores_split_pairs_by_the_languages_of_both_documents() -> None:
    docs = [{"id": 1, "lang": "fr"}, {"id": 2, "lang": "fr"}, {"id": 3, "lang": "fr"}, {"id": 4, "lang": "de"},
            {"id": 5, "lang": "de"}, {"id": 6, "lang": "fr+de"}, {"id": 7, "lang": "fr"}]
    pairs = [{"a": 1, "b": 2, "dup": True, "kind": "rescan"}, {"a": 4, "b": 5, "dup": True, "kind": "rescan"},
             {"a": 2, "b": 3, "dup": False, "kind": "payslip", "varies": "month_year"},
             {"a": 1, "b": 3, "dup": False, "kind": "payslip", "varies": "month_year"},
             {"a": 6, "b": 7, "dup": True, "kind": "print_stamp"}]
    result = multilingual.per_language(docs, pairs, {(1, 2), (2, 3), (6, 7)})
    assert result["fr"]["precision"] == 0.5 and result["fr"]["recall"] == 1.0
    assert result["fr"]["false_positive_rate_by_kind"]["payslip"] == {"pairs": 2, "rate": 0.5}
    assert result["de"]["recall"] == 0.0 and result["de"]["truth"] == 1
    assert result["mixed"]["recall"] == 1.0 and result["mixed"]["truth"] == 1
    assert result["de+en"]["recall"] == 0.0


def _tessdata(lang: str) -> bool:
    return shutil.which("tesseract") is not None and any(Path("/usr/share/tesseract-ocr").glob(f"*/tessdata/{lang}.traineddata"))


@skip_without(_tessdata("fra"), "real OCR of French needs tesseract-ocr-fra (apt-get install tesseract-ocr-fra)")
def test_real_ocr_reads_in_the_document_language_and_caches(tmp_path: Path) -> None:
    source = "Facture du 5 février 2024\nMontant à régler : 1 234,56 €"
    first = ml_ocr.scan(source, "fra", "office", 3, tmp_path)
    assert "février" in first and "régler" in first, first
    assert len(list(tmp_path.glob("*.json"))) == 1
    assert ml_ocr.scan(source, "fra", "office", 3, tmp_path) == first
