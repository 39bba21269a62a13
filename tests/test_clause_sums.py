"""Two drafts of one contract whose sums changed (core.clause_sums): the sums weigh less where
they are the only values that conflict; a template series, which differs in its dates or numbers
too, and documents with little else in common keep every conflict."""

from __future__ import annotations

import pytest

from paperless_dedupe_hook.core import clause_sums, discriminative, features, holdback, scoring
from paperless_dedupe_hook.core.extract import SLOT_MARK

P = features.FeatureParams()
S = scoring.ScoreParams()

CONTRACT = """SERVICE AGREEMENT No. SA-2016-48213

between Morris & Khan Property Ltd, 111 Station Road, Bristol BS1 4DJ (the client)
and Harper Facility Services Ltd, 27 Mill Lane, Bath BA1 2QT (the contractor)

1. Subject. The contractor maintains the heating, ventilation and lifts of the client's office
building at 111 Station Road. Services beyond the agreed scope will be charged separately.

2. Fees. The monthly fee is GBP {fee} payable on the 5th day of each month. Call-outs outside
office hours are charged at GBP {callout} per visit. Invoices are issued on the 5th day of each month.

3. Liability. Liability is capped at GBP {cap} per incident. The contractor shall only be liable
in cases of wilful misconduct or gross negligence. Claims become time-barred 12 months after discovery.

4. Term. This agreement commences on 9 October 2016 and continues for an indefinite term. Either
party may terminate this agreement by giving 6 months' written notice. Amendments to this agreement
must be made in writing.

5. Confidentiality. The parties undertake to keep the terms of this agreement strictly confidential.
This agreement is governed by the laws of England and the courts of Bristol shall have jurisdiction.

Bristol, 16 September 2016
Reference MK/HF/2016/118
"""


def _pair(x: str, y: str) -> scoring.PairScore:
    a, b = features.compute(1, x, P), features.compute(2, y, P)
    return scoring.score(a, b, S, exact=True)


def test_two_drafts_whose_sums_changed_are_one_contract(monkeypatch: pytest.MonkeyPatch) -> None:
    first = CONTRACT.format(fee="1,450.00", callout="95.00", cap="2,916.14")
    later = CONTRACT.format(fee="1,380.00", callout="120.00", cap="1,223.10").replace(
        "Claims become time-barred 12 months after discovery.", "Claims must be raised in writing within 30 days.")
    pair = _pair(first, later)
    assert pair.score >= S.similarity_threshold, pair
    a, b = features.compute(1, first, P), features.compute(2, later, P)
    assert any("only sums differ" in reason for reason in holdback.explain_pair(a, b, S).reasons)
    monkeypatch.setattr(scoring, "CLAUSE_SUMS", False)
    before = _pair(first, later)
    assert before.discriminative < pair.discriminative
    assert before.score < S.similarity_threshold, before


def test_a_series_that_differs_in_a_date_too_keeps_its_sums() -> None:
    one = CONTRACT.format(fee="1,450.00", callout="95.00", cap="2,916.14")
    other = CONTRACT.format(fee="1,380.00", callout="95.00", cap="1,223.10").replace(
        "Bristol, 16 September 2016", "Bristol, 16 October 2016")
    a, b = features.compute(1, one, P), features.compute(2, other, P)
    assert clause_sums.weigher(a.tokens, b.tokens, None, None) is None
    assert _pair(one, other).score < S.similarity_threshold


def _slot(label: str, token: str) -> str:
    return f"{SLOT_MARK}{label}={token}"


@pytest.mark.parametrize(("a", "b", "applies"), [
    pytest.param(["amount:291614", _slot("capped at", "amount:291614"), "date:2016-10-09", "id:case:MKHF2016118"],
                 ["amount:122310", _slot("capped at", "amount:122310"), "date:2016-10-09", "id:case:MKHF2016118"],
                 True, id="sums-only-with-a-date-and-a-number-agreeing"),
    pytest.param(["amount:291614", "date:2016-10-09", "id:case:MKHF2016118", "date:2023-07-22"],
                 ["amount:122310", "date:2016-10-09", "id:case:MKHF2016118", "date:2028-07-22"],
                 False, id="dates-one-ocr-slip-apart-are-another-bill"),
    pytest.param(["amount:291614", "date:2016-10-09", "id:case:MKHF2016118", "date:2019-06-28"],
                 ["amount:122310", "date:2016-10-09", "id:case:MKHF2016118"],
                 False, id="a-date-one-side-did-not-read"),
    pytest.param(["amount:291614", "date:2016-10-09", "id:contract:SA201648213", _slot("rechnungsdatum", "date:2016-10-31")],
                 ["amount:122310", "date:2016-10-09", "id:contract:SA201648213", _slot("rechnungsdatum", "date:2016-11-30")],
                 False, id="a-date-slot-conflicts-too"),
    pytest.param(["amount:291614", "date:2016-10-09", "id:contract:SA201648213", "id:invoice:4471"],
                 ["amount:122310", "date:2016-10-09", "id:contract:SA201648213", "id:invoice:4472"],
                 False, id="a-number-conflicts-too"),
    pytest.param(["date:2016-10-09", "id:contract:SA201648213"], ["date:2016-10-09", "id:contract:SA201648213"],
                 False, id="nothing-conflicts"),
])
def test_the_sums_weigh_less_only_where_they_alone_conflict(a: list[str], b: list[str], applies: bool) -> None:
    weigh = clause_sums.weigher(a, b, None, None)
    assert (weigh is not None) is applies
    if weigh is not None:
        assert weigh("amount:291614") == clause_sums.AMOUNT_WEIGHT and weigh("date:2016-10-09") == 1.0
        assert discriminative.slot_similarity(a, b, conflict_weight=weigh) > discriminative.slot_similarity(a, b)


def test_a_date_the_library_holds_often_is_too_little_agreement() -> None:
    a = ["amount:291614", _slot("capped at", "amount:291614"), "date:2016-10-09"]
    b = ["amount:122310", _slot("capped at", "amount:122310"), "date:2016-10-09"]
    assert clause_sums.weigher(a, b, None, None) is not None  # a rare date: the contract's own
    often = scoring.token_weigher({"date:2016-10-09": 40})
    assert clause_sums.weigher(a, b, often, None) is None
