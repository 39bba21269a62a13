"""Letters told apart by their subject lines (core.subject): two letters of one insurer to one
customer are not one document, a re-scan, a copy behind a cover letter and a scan whose
reading order moved the salutation still are."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import features, holdback, scoring, subject
from paperless_dedupe_hook.core.languages import LANGUAGES
from paperless_dedupe_hook.core.languages.model import Language
from tests.fake_paperless import FakePaperless
from tests.test_hook_e2e import run_hook

P = features.FeatureParams()
S = scoring.ScoreParams()

HEAD = """KESTREL INSURANCE PLC
248 Church Lane, M1 1AE Manchester
www.kestrel.example

Dr Grace Barnes
54 York Street
G1 1XQ Glasgow

Policy No.: EF632773563
"""
FOOTER = """Yours sincerely

Siobhan Khan
Accounts

How we use your personal information
Special category data such as health information is processed only with your explicit
consent. Your data is not transferred outside the UK or the European Economic Area
without safeguards. Calls may be recorded for training and quality purposes.
Our Data Protection Officer can be contacted at the address above. You have the right to
complain to the Information Commissioner's Office. You have the right to access, correct
or erase your personal data. You may object to processing for direct marketing at any time.
The lawful basis for processing is the performance of your insurance contract. We
process your personal data to arrange and administer your policy and to handle claims.
We may share information with reinsurers, loss adjusters and fraud prevention agencies.
We may check your details with credit reference agencies. We keep your information for
no longer than necessary and in line with regulatory requirements.
Kestrel Insurance plc, registered office: 248 Church Lane, Manchester. Registered in England and Wales No. 23480918
"""
REFUND = """Date: 2021-03-16

Premium refund
Dear Dr Barnes,
The amount of EUR 841.53 will be credited to your account shortly. Further to your letter
we can confirm that the cancellation has been corrected.
"""
# the other letter names no amount and its date OCR could not read: no value conflicts
REMINDER = """Date: Z0Z0-O5-29

Cancellation confirmed
Dear Dr Barnes,
We would like to remind you to provide the contractual cancellation in good time. The
home contents policy is fully paid, which is why we have in principle closed the file.
"""


def _doc(doc_id: int, content: str) -> features.Features:
    return features.compute(doc_id, content, P)


def _score(a: features.Features, b: features.Features) -> scoring.PairScore:
    return scoring.score(a, b, S, exact=True)


def test_the_line_before_a_salutation_is_the_letters_subject() -> None:
    assert subject.subjects(HEAD + REFUND + FOOTER) == ("premlum refund",)  # folded as month words are
    assert subject.subjects("Änderung Ihrer Bankverbindung\nSehr geehrte Damen und Herren,\n") == (
        "anderung lhrer bankverblndung",)


@pytest.mark.parametrize("text", [
    pytest.param("Invoice INV-2021-4471\nDear Mr Perry,\n", id="a-line-with-a-number"),
    pytest.param("From: Dragan Simon\nSubject: Erinnerung: Rufnummer\n\nHallo,\n", id="an-e-mails-subject"),
    pytest.param("Madame Claire Dupont\nMonsieur Paul Dupont\n12 rue de la Paix\n", id="an-address-block"),
    pytest.param("Dear Mr Perry,\nthank you for your letter.\n", id="nothing-before-it"),
    pytest.param("Premium refund\nDear customers of the Kestrel group and of all of its partners worldwide,\n",
                 id="too-long-to-be-a-salutation"),
])
def test_no_subject_is_read_where_there_is_none(text: str) -> None:
    assert not any(subject.subjects(text))


@pytest.mark.parametrize("language", [pytest.param(lang, id=lang.code) for lang in LANGUAGES])
def test_every_languages_salutations_are_read(language: Language) -> None:
    assert language.salutations
    for greeting in language.salutations:
        text = f"Kestrel Versicherung\n\nAnnual statement\n{greeting.capitalize()} Barnes,\nbody text\n"
        assert subject.subjects(text) == ("annual statement",), greeting


def test_two_letters_of_one_insurer_with_other_subjects_are_not_one_document(monkeypatch: pytest.MonkeyPatch) -> None:
    refund, reminder = _doc(1, HEAD + REFUND + FOOTER), _doc(2, HEAD + REMINDER + FOOTER)
    assert subject.differ(refund, reminder) == ("premlum refund", "cancellatlon conflrmed")
    pair = _score(refund, reminder)
    assert not S.reports(pair) and pair.discriminative == subject.MAX_D
    monkeypatch.setattr(scoring, "SUBJECTS", False)
    assert S.reports(_score(refund, reminder))  # what the letters were without it: one document


def test_check_v_names_the_two_subjects() -> None:
    refund, reminder = _doc(1, HEAD + REFUND + FOOTER), _doc(2, HEAD + REMINDER + FOOTER)
    reasons = " ".join(holdback.explain_pair(refund, reminder, S).reasons)
    assert "another letter: the subject lines differ (“premlum refund” ≠ “cancellatlon conflrmed”" in reasons


def test_a_rescan_whose_ocr_damaged_the_subject_is_still_a_copy() -> None:
    scan = (HEAD + REFUND + FOOTER).replace("Premium refund", "Prernium refnnd").replace("account", "acconnt")
    a, b = _doc(1, HEAD + REFUND + FOOTER), _doc(2, scan)
    assert subject.differ(a, b) is None and S.reports(_score(a, b))


def test_a_copy_behind_a_cover_letter_is_still_a_copy() -> None:
    cover = "Jonas Berger\n\nDocuments for my claim\nDear Sir or Madam,\nplease find the insurer's letter enclosed.\n\n"
    copy, original = _doc(1, cover + HEAD + REFUND + FOOTER), _doc(2, HEAD + REFUND + FOOTER)
    assert copy.subjects == ("documents for my clalm", "premlum refund")
    assert subject.differ(copy, original) is None


@pytest.mark.parametrize("before,found", [
    pytest.param("cancellation has been corrected.", "", id="a-sentences-end"),
    pytest.param("has been corrected. Please note that", "", id="a-sentence-going-on"),
    pytest.param("Further to your letter we can confirm", "further to your letter we can conflrm",
                 id="a-sentences-start-that-the-other-text-has"),
])
def test_a_salutation_the_reading_order_moved_after_the_body_makes_no_conflict(before: str, found: str) -> None:
    body = ("The amount of EUR 841.53 will be credited to your account shortly.\nFurther to your letter we can "
            "confirm\nthat the cancellation has been corrected. Please note that\nyour policy goes on.\n")
    a = _doc(1, HEAD + "Date: 2021-03-16\n\nPremium refund\nDear Dr Barnes,\n" + body + FOOTER)
    b = _doc(2, HEAD + "Date: 2021-03-16\n\n" + body + before + "\nDear Dr Barnes,\n" + FOOTER)
    assert b.subjects == (found,)
    assert subject.differ(a, b) is None  # no subject, or one that stands in the other letter's text


def test_documents_read_from_the_index_have_no_subjects_until_their_text_is_read() -> None:
    stored = features.Features(**{**_doc(1, HEAD + REFUND + FOOTER).__dict__, "sample": None, "subjects": ()})
    read = features.with_text(stored, HEAD + REFUND + FOOTER, P)
    assert subject.differ(stored, _doc(2, HEAD + REMINDER + FOOTER)) is None
    assert read.subjects == ("premlum refund",) and subject.differ(read, _doc(2, HEAD + REMINDER + FOOTER))


_SUBJECT_WORDS = st.lists(st.sampled_from("premium refund annual statement change of bank details claim".split()),
                          min_size=1, max_size=4).map(" ".join)


@settings(max_examples=100, deadline=None)
@given(_SUBJECT_WORDS, _SUBJECT_WORDS)
def test_subjects_differ_alike_both_ways(x: str, y: str) -> None:
    a = _doc(1, HEAD + REFUND.replace("Premium refund", x) + FOOTER)
    b = _doc(2, HEAD + REMINDER.replace("Cancellation confirmed", y) + FOOTER)
    found = subject.differ(a, b)
    assert (found is None) == (subject.differ(b, a) is None)
    if x == y:
        assert found is None


@pytest.mark.parametrize("x,y,one", [
    pytest.param("premlum refnnd", "premlum refund", True, id="a-slip"),
    pytest.param("premlumrefund", "premlum refund", True, id="two-words-joined"),
    pytest.param("rechnung", "rechnung kople", True, id="a-copy-mark-added"),
    pytest.param("anderung lhrer bankverblndung", "bestatlgung lhrer schadenmeldung", False,
                 id="german-subjects-sharing-endings"),
    pytest.param("premlum refund", "annual statement", False, id="two-subjects"),
])
def test_one_subject_read_twice_is_told_from_two(x: str, y: str, one: bool) -> None:
    assert subject.same(x, y) is one and subject.same(y, x) is one


def test_the_hook_tags_a_letters_rescan_and_not_another_letter_of_its_insurer(
        fake_paperless: FakePaperless, tmp_path: Path) -> None:
    # the real console script over loopback HTTP with a real SQLite index: the hook reads the
    # candidates' subjects from their texts, which the index does not keep
    scan = (HEAD + REFUND + FOOTER).replace("Premium refund", "Prernium refnnd").replace("account", "acconnt")
    fake_paperless.add_documents([{"id": 1, "content": HEAD + REFUND + FOOTER, "title": "Premium refund"},
                                  {"id": 2, "content": HEAD + REMINDER + FOOTER, "title": "Cancellation"},
                                  {"id": 3, "content": scan, "title": "Scan"}])
    for doc_id in (1, 2, 3):
        assert run_hook(fake_paperless, tmp_path, doc_id).returncode == 0
    tag = next((t["id"] for t in fake_paperless.tags.values() if t["name"] == "possible-duplicate"), None)
    assert tag is not None and tag in fake_paperless.document(3)["tags"]
    assert tag not in fake_paperless.document(2)["tags"]
