"""core.textdiff and core.explain: the OCR-aware word diff and the verdict in words (pure)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core.explain import verdict_sentence
from paperless_dedupe_hook.core.scoring import PairScore
from paperless_dedupe_hook.core.textdiff import CHANGED, FOLDED, OCR, diff_texts
from paperless_dedupe_hook.paperless.annotate import note_text, noted_ids

INVOICE = ("ACME Office Supplies GmbH, Invoice INV-2026-1047, date 2026-10-14.\nCustomer number 88231.\n"
           "Item one: 40 boxes of printer paper, A4, 80 g, at 4.20 EUR each. Item two: 12 toner cartridges "
           "for the office printer at 61.90 EUR each. Delivery to the second floor reception. Payment within "
           "fourteen days to the account named below.\n\nTotal amount 910.80 EUR including VAT.")
RESCAN = (INVOICE.replace("Office Supplies", "0ffice Suppl1es").replace("Invoice", "lnvoice")
          .replace("Total", "Tota1").replace("Payment", "Payrnent"))
PAGE_TWO = " ".join(f"Clause {n}: the supplier keeps the goods until they are paid in full." for n in range(1, 6))
SCORES = {"a": 1, "b": 2, "score": 0.9, "jaccard": 0.9, "fuzzy": 0.9, "discriminative": 1.0, "containment": 0.92}


def test_ocr_readings_are_not_changes() -> None:
    diff = diff_texts(INVOICE, RESCAN)
    assert diff.changes == () and diff.ocr_words == 5
    ocr = {(s.text.strip(), s.other) for s in diff.new if s.kind == OCR}
    assert ("Payrnent", "Payment") in ocr and ("0ffice", "Office") in ocr and ("Tota1", "Total") in ocr
    assert verdict_sentence(SCORES, diff) == "same text; 5 words read differently by OCR"


def test_real_changes_are_marked_on_both_sides() -> None:
    newer = INVOICE.replace("910.80", "912.40").replace("fourteen days", "thirty days")
    diff = diff_texts(INVOICE, newer)
    assert [(c.old_text, c.new_text) for c in diff.changes] == [("fourteen", "thirty"), ("910.80", "912.40")]
    assert [s.text.strip() for s in diff.old if s.kind == CHANGED] == ["fourteen", "910.80"]
    assert [s.text.strip() for s in diff.new if s.kind == CHANGED] == ["thirty", "912.40"]
    said = verdict_sentence(SCORES, diff)
    assert said == "nearly the same text: 2 words differ in 2 places; numbers or dates among them"


@pytest.mark.parametrize(
    ("older", "newer", "expected"),
    [
        pytest.param(INVOICE + "\n" + PAGE_TWO, RESCAN, "the newer copy lacks the last page (65 words at the end); "
                     "5 words read differently by OCR", id="lacks-last-page"),
        pytest.param(INVOICE, INVOICE + "\n" + PAGE_TWO, "the newer copy has an extra last page (65 words at the end)",
                     id="extra-last-page"),
        pytest.param(INVOICE, PAGE_TWO + "\n" + INVOICE, "the newer copy has an extra first page (65 words at the "
                     "start, e.g. a cover sheet)", id="cover-sheet"),
        pytest.param(INVOICE, INVOICE + " Thank you.", "the newer copy has 2 words more at the end", id="short-tail"),
        pytest.param(INVOICE, INVOICE, "same text", id="identical"),
    ],
)
def test_pages_missing_or_added(older: str, newer: str, expected: str) -> None:
    assert verdict_sentence(SCORES, diff_texts(older, newer)) == expected


def test_a_cover_sheet_repeating_the_letterhead_and_a_page_with_noise_elsewhere() -> None:
    cover = "ACME Office Supplies GmbH\nTELEFAX to: Buyer, from: Accounts.\n" + PAGE_TWO + "\n"
    assert verdict_sentence(SCORES, diff_texts(INVOICE, cover + INVOICE)) == (
        "the newer copy has an extra first page (74 words at the start, e.g. a cover sheet)")
    shorter = RESCAN.replace("fourteen days", "thirty days")
    assert verdict_sentence(SCORES, diff_texts(INVOICE + "\n" + PAGE_TWO, shorter)) == (
        "the newer copy lacks the last page (65 words at the end); 1 other word differs in 1 place; "
        "5 words read differently by OCR")


def test_a_word_hyphenated_at_a_line_end_is_one_word() -> None:
    diff = diff_texts("weshalb wir die Stornierung heute", "weshalb wir die Sto-\nrnierung heute")
    assert diff.changes == () and diff.ocr_words == 0 and diff.new_words == 5
    assert "".join(s.text for s in diff.new) == "weshalb wir die Sto-\nrnierung heute"


def test_a_revision_verdict_on_the_pair_says_newer_version() -> None:
    newer = INVOICE.replace("date 2026-10-14", "date 2026-11-02").replace("fourteen days", "thirty days")
    pair = {**SCORES, "verdict": "revision"}
    assert verdict_sentence(pair, diff_texts(INVOICE, newer)) == (
        "a newer version of it, not a copy: “2026-11-02” and 1 other passage changed")
    assert verdict_sentence(pair) == "a newer version of it, not a copy"  # without texts
    assert verdict_sentence({**SCORES, "verdict": "duplicate"}, diff_texts(INVOICE, INVOICE)) == "same text"


@dataclass(frozen=True)
class RevisionPair(PairScore):
    """A pair as the revision detection (issue 13) marks it: PairScore plus ``verdict``."""

    verdict: str = "revision"


def test_the_note_words_a_revision_and_keeps_id_and_title() -> None:
    pair = RevisionPair(1, 2, 0.88, 0.85, 0.9, 0.95, 0.86)
    note = note_text([(pair, 1, "Lease contract 2025")])
    assert note.splitlines()[1] == ("- #1 “Lease contract 2025”: a newer version of it, not a copy. "
                                    "Score 0.88 (jaccard 0.85, fuzzy 0.90, discriminative 0.95)")
    plain = PairScore(1, 2, 0.99, 1.0, 0.99, 1.0, 1.0)
    worded = note_text([(plain, 1, "Invoice #4711")], {1: "a newer version: “Ref #4712” changed"})
    assert "a newer version: “Ref No. 4712” changed." in worded
    assert noted_ids([{"note": worded}]) == {1}  # neither "#4711" in the title nor the quote names a match


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        pytest.param({"jaccard": 0.99, "fuzzy": 0.99, "discriminative": 1.0}, "same text", id="same"),
        pytest.param({"jaccard": 0.98, "fuzzy": 0.93, "discriminative": 1.0},
                     "same text, read differently by OCR in places", id="ocr"),
        pytest.param({"jaccard": 0.7, "fuzzy": 0.8, "discriminative": 1.0, "containment": 0.95},
                     "one copy holds only part of the other's text (a page missing or added)", id="part"),
        pytest.param({"jaccard": 0.92, "fuzzy": 0.9, "discriminative": 0.8},
                     "nearly the same text; some dates, amounts or numbers differ", id="figures"),
        pytest.param({"jaccard": 0.8, "fuzzy": 0.8, "discriminative": 1.0}, "much of the text is the same", id="much"),
    ],
)
def test_from_the_scores_alone(scores: dict[str, float], expected: str) -> None:
    assert verdict_sentence(scores) == expected
    as_object = PairScore(1, 2, 0.9, scores["jaccard"], scores["fuzzy"], scores["discriminative"],
                          scores.get("containment", scores["jaccard"]))
    assert verdict_sentence(as_object) == expected


def test_long_unchanged_stretches_fold_around_a_change() -> None:
    same = " ".join(f"w{i}" for i in range(200))
    diff = diff_texts(f"{same} old {same}", f"{same} new {same}", context=5)
    kinds = [s.kind for s in diff.old]
    assert kinds == [FOLDED, "same", CHANGED, "same", FOLDED]
    assert [s.words for s in diff.old if s.kind == FOLDED] == [195, 195]
    assert diff.old[1].text == "w195 w196 w197 w198 w199 "
    identical = diff_texts(same, same, context=5)
    assert [s.kind for s in identical.old] == ["same", FOLDED] and identical.old[0].words == 10


def test_a_huge_text_is_compared_up_to_the_word_limit() -> None:
    big = "word " * 50_000
    diff = diff_texts(big, big + "tail", max_words=1000)
    assert diff.truncated and diff.old_words == diff.new_words == 1000 and diff.changes == ()
    # a cut text has no known end: no "lacks the last page" from the cut
    assert verdict_sentence(SCORES, diff_texts(big, big[:1000], max_words=100)) == (
        "same text in the first 100 words compared")


words = st.text(alphabet="abcdefghilmnorstu01 .,-\n", min_size=0, max_size=120)


@settings(max_examples=150, deadline=None)
@given(old=words, new=words)
def test_segments_give_back_each_original_text(old: str, new: str) -> None:
    diff = diff_texts(old, new, context=2)
    assert "".join(s.text for s in diff.old) == (old if old.split() else "")
    assert "".join(s.text for s in diff.new) == (new if new.split() else "")
    assert diff.changed_words >= 0 and diff.ocr_words >= 0
    if old.split() == new.split():
        assert diff.changes == () and diff.ocr_words == 0


@pytest.mark.parametrize(("newer", "expected"), [
    pytest.param(8, "a newer version of it, not a copy", id="consumed-last-is-newer"),
    pytest.param(3, "an older version of it (an earlier version date), not a copy", id="old-version-consumed-last"),
    pytest.param(None, "a newer version of it, not a copy", id="unknown-newer"),
])
def test_a_revision_says_which_side_is_the_newer_version(newer: int | None, expected: str) -> None:
    pair = {**SCORES, "a": 3, "b": 8, "verdict": "revision", "newer": newer}
    assert verdict_sentence(pair) == expected
