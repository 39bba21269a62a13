"""Values OCR misread in a re-scan that issue 25's eighth round reads as one value: a series'
own number (frequent in the library) against its misreading (rare), a version label OCR damaged,
a street name whose look-alikes only the folding tells apart; and what stays a conflict."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperless_dedupe_hook.core import _pairing, discriminative, ocr_slips, revision, scoring
from paperless_dedupe_hook.core.extract import SLOT_MARK


def _weigher(frequent: set[str]) -> Callable[[str], float]:
    """The library's token weight where ``frequent`` tokens are in 12 documents, all others in one."""
    return scoring.token_weigher(dict.fromkeys(frequent, 12))


@pytest.mark.parametrize(("frequent", "rare"), [
    pytest.param("id:personnel:89077", "id:personnel:89017", id="seven-read-as-one"),
    pytest.param("id:register:44510", "id:register:44570", id="one-read-as-seven"),
    pytest.param("id:personnel:92368", "id:personnel:9238", id="a-digit-lost"),
    pytest.param("ref:20184522", "ref:2O184522", id="zero-read-as-o"),
    pytest.param("iban:DE47370501983151561870", "iban:DE4737050798315156187", id="iban-a-slip-and-a-lost-digit"),
])
def test_a_series_value_and_its_misreading_are_one_value(frequent: str, rare: str) -> None:
    weight = _weigher({frequent})
    a, b = [frequent, "date:2024-03-31"], [rare, "date:2024-03-31"]
    assert ocr_slips.misread_static(a, b, weight) == {frequent, rare}
    assert ocr_slips.misread_static(b, a, weight) == {frequent, rare}
    weigh = ocr_slips.pair_weigher(a, b, 0.5, weight)
    assert weigh is not None and weigh(frequent) == 0.0 and weigh(rare) == 0.0 and weigh("date:2024-03-31") == 1.0


@pytest.mark.parametrize(("x", "y", "frequent"), [
    pytest.param("id:personnel:89077", "id:personnel:89017", set(), id="both-rare-two-people"),
    pytest.param("id:personnel:89077", "id:personnel:89017", {"id:personnel:89077", "id:personnel:89017"},
                 id="both-frequent-two-series"),
    pytest.param("id:register:44510", "id:register:44520", {"id:register:44510"}, id="one-two-is-no-misreading"),
    pytest.param("id:customer:89077", "id:personnel:89017", {"id:customer:89077"}, id="another-label"),
    pytest.param("id:customer:817", "id:customer:811", {"id:customer:817"}, id="too-short"),
    pytest.param("id:customer:89077", "id:customer:81011", {"id:customer:89077"}, id="two-slips-in-a-short-value"),
    pytest.param("date:2021-08-01", "date:2027-08-01", {"date:2021-08-01"}, id="dates-change-in-a-series"),
    pytest.param("amount:8907", "amount:8901", {"amount:8907"}, id="amounts-change-in-a-series"),
])
def test_other_values_are_no_misreading(x: str, y: str, frequent: set[str]) -> None:
    assert ocr_slips.misread_static([x], [y], _weigher(frequent)) == frozenset()


def test_a_misread_series_value_in_a_slot_does_not_lower_d() -> None:
    label = f"{SLOT_MARK}personalnummer="
    a = ["id:personnel:89077", f"{label}id:personnel:89077", "date:2024-03-31", "amount:584457"]
    b = ["id:personnel:89017", f"{label}id:personnel:89017", "date:2024-03-31", "amount:584457"]
    weight = _weigher({"id:personnel:89077"})
    before = discriminative.slot_similarity(a, b, weight, conflict_weight=ocr_slips.pair_weigher(a, b, 0.5, None))
    after = discriminative.slot_similarity(a, b, weight, conflict_weight=ocr_slips.pair_weigher(a, b, 0.5, weight))
    assert before < 0.6
    assert after == 1.0


_DIGITS = st.text(alphabet="0123456789", min_size=4, max_size=12)


@given(_DIGITS, _DIGITS, st.booleans())
def test_misread_static_is_symmetric_and_takes_only_the_values_that_differ(x: str, y: str, x_frequent: bool) -> None:
    tx, ty = f"id:customer:{x}", f"id:customer:{y}"
    weight = _weigher({tx} if x_frequent else {ty})
    found = ocr_slips.misread_static([tx, "ref:123456"], [ty, "ref:123456"], weight)
    assert found == ocr_slips.misread_static([ty, "ref:123456"], [tx, "ref:123456"], weight)
    assert found <= {tx, ty}
    assert not found or tx != ty


@pytest.mark.parametrize(("label", "expected"), [
    pytest.param("last revlsed", True, id="revised"),
    pytest.param("last relsed", True, id="revised-lost-a-letter"),
    pytest.param("zuletzt alctuallslert am", True, id="aktualisiert-k-read-lc"),
    pytest.param("gultlg ab", True, id="gueltig"),
    pytest.param("verslon du", True, id="version-another-language"),
    pytest.param("bllgewerkt op", True, id="bijgewerkt-a-third-language"),
    pytest.param("letter dated", False, id="dated-is-no-version-word"),
    pytest.param("stadt", False, id="five-letters-must-be-exact"),
    pytest.param("rechnungsdatum", False, id="invoice-date"),
    pytest.param("ctlve from", False, id="a-lost-head-is-not-taken"),
])
def test_version_labels_as_ocr_damaged_them(label: str, expected: bool) -> None:
    assert revision._is_version_label(label) is expected  # noqa: SLF001 - the rule under test


def test_two_versions_behind_a_damaged_label_are_a_revision() -> None:
    a = [f"{SLOT_MARK}last revlsed=date:2020-02-07", "date:2020-02-07", "amount:174054"]
    b = [f"{SLOT_MARK}last relsed=date:2018-09-03", "date:2018-09-03", "amount:174054"]
    found = revision.versions(a, b)
    assert found.differ and found.newer_side == 0


@pytest.mark.parametrize(("x", "y", "expected"), [
    pytest.param("street:lndustrlestrasse87", "street:ludustrlestrasse87", True, id="capital-i-read-l-and-n-read-u"),
    pytest.param("street:klrchstrasse52", "street:klrchstrabel52", True, id="ss-read-b-and-a-speck"),
    pytest.param("street:parkstrasse4", "street:marktstrasse4", False, id="two-streets-of-one-form"),
    pytest.param("street:hauptstrasse5", "street:hafenstrasse5", False, id="two-streets-one-number"),
    pytest.param("street:yorkterrace3", "street:oakterrace3", False, id="another-first-word"),
    pytest.param("street:yorkclose3", "street:parkclose3", False, id="york-and-park-one-look-alike-apart"),
    pytest.param("street:greenroad3", "street:queenroad3", False, id="green-and-queen"),
])
def test_street_names_read_twice(x: str, y: str, expected: bool) -> None:
    assert _pairing.one_value(x, y) is expected


def test_every_language_declares_its_version_words() -> None:
    from paperless_dedupe_hook.core import languages

    assert all(lang.version_words for lang in languages.LANGUAGES)
    assert set(revision.VERSION_WORDS) == {w for lang in languages.LANGUAGES for w in lang.version_words}


def test_bench_quality_can_switch_the_version_rule_off() -> None:
    from bench import quality

    a = [f"{SLOT_MARK}last revlsed=date:2020-02-07", "date:2020-02-07"]
    b = [f"{SLOT_MARK}last relsed=date:2018-09-03", "date:2018-09-03"]
    assert revision.versions(frozenset(a), frozenset(b)).differ
    with quality.switched({"revision": False}):
        assert not revision.versions(frozenset(a), frozenset(b)).differ
    assert revision.versions(frozenset(a), frozenset(b)).differ
