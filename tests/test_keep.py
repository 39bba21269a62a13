"""core.keep: which copy of a group to keep, and the words that say why."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperless_dedupe_hook.core.keep import Member, born_digital, choose, text_slips

SCAN = {"original_metadata": [{"namespace": "http://ns.adobe.com/pdf/1.3/", "prefix": "pdf", "key": "Producer",
                               "value": "ScanSnap Manager #iX1600"}]}
WORD = {"original_metadata": [{"key": "Producer", "value": "Microsoft® Word for Microsoft 365"}]}


@pytest.mark.parametrize(("mime", "metadata", "expected"), [
    pytest.param("image/jpeg", None, False, id="photo"),
    pytest.param("text/plain", None, True, id="text-file"),
    pytest.param("message/rfc822", None, True, id="mail"),
    pytest.param("application/pdf", SCAN, False, id="pdf-from-a-scanner"),
    pytest.param("application/pdf", WORD, True, id="pdf-from-word"),
    pytest.param("application/pdf", {"original_metadata": []}, None, id="pdf-unknown"),
    pytest.param(None, None, None, id="nothing-known"),
])
def test_born_digital(mime: str | None, metadata: dict[str, object] | None, expected: bool | None) -> None:
    assert born_digital(mime, metadata) is expected


def test_text_slips_counts_ocr_words_not_ids() -> None:
    assert text_slips("0ffice Suppl1es Tota1 and \ufffd") == 4
    assert text_slips("Invoice INV-2026-1047, IBAN DE44 5001, flat 3B, Q3 2026, A4 paper") == 0


@pytest.mark.parametrize(("a", "b", "keep", "reason", "why"), [
    pytest.param(Member(1, "2026-01-01", born_digital=False, words=300, tags=4, asn=7),
                 Member(2, "2026-02-01", born_digital=True, words=300), 2, "born-digital", "a scan of it",
                 id="born-digital-beats-a-richer-older-scan"),
    pytest.param(Member(1, "2026-01-01", pages=3, words=300), Member(2, "2026-02-01", pages=4, words=400), 2,
                 "complete", "missing pages", id="complete-beats-older"),
    pytest.param(Member(1, "2026-01-01", words=300, slips=12), Member(2, "2026-02-01", words=300, slips=1), 2,
                 "better text", "the one with more OCR slips", id="better-text"),
    pytest.param(Member(1, "2026-01-01", words=300), Member(2, "2026-02-01", words=300, asn=5), 2,
                 "more metadata", "the one with less metadata", id="metadata"),
    pytest.param(Member(1, "2026-01-01", words=300), Member(2, "2026-02-01", words=300), 1, "older",
                 "the newer one", id="older"),
    pytest.param(Member(1, "2026-01-01", words=300, slips=1), Member(2, "2026-02-01", words=300, slips=2), 1,
                 "older", "the newer one", id="one-slip-is-noise"),
])
def test_choice_and_reason(a: Member, b: Member, keep: int, reason: str, why: str) -> None:
    for order in ([a, b], [b, a]):
        choice = choose(order)
        assert choice.keep == keep and choice.reasons == (reason,)
        copy = a.doc_id if keep == b.doc_id else b.doc_id
        assert choice.why_not == {copy: why}


def test_note_line_says_the_keeper_and_what_this_one_is() -> None:
    choice = choose([Member(57, "2026-02-01", born_digital=False, pages=4),
                     Member(12, "2026-03-01", born_digital=True, pages=4, asn=123)])
    assert choice.note_line(57) == "keep #12 (born-digital, 4 pages, ASN 123); this one is a scan of it"


members = st.builds(
    Member, doc_id=st.integers(1, 10_000), added=st.sampled_from(["2026-01-01", "2026-02-01", "2026-03-01"]),
    born_digital=st.sampled_from([None, True, False]), pages=st.sampled_from([None, 1, 2, 4]),
    words=st.integers(0, 2000), slips=st.integers(0, 50), asn=st.sampled_from([None, 1]), tags=st.integers(0, 3),
)


@given(st.lists(members, min_size=1, max_size=6, unique_by=lambda m: m.doc_id))
def test_choice_is_a_member_and_does_not_depend_on_order(group: list[Member]) -> None:
    choice = choose(group)
    assert choice.keep in {m.doc_id for m in group}
    assert set(choice.why_not) == {m.doc_id for m in group} - {choice.keep}
    assert choose(list(reversed(group))).keep == choice.keep
    assert (not choice.reasons) == (len(group) == 1)


def test_empty_or_repeated_members_are_refused() -> None:
    with pytest.raises(ValueError):
        choose([])
    with pytest.raises(ValueError):
        choose([Member(1), Member(1)])
