"""core.holdback: what held a pair under the threshold, pure."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import holdback, scoring
from paperless_dedupe_hook.core.features import FeatureParams, compute

PARAMS = FeatureParams()
WORDS = ("contract tenant landlord rent deposit notice period premises keys repairs heating water electricity "
         "garden parking insurance liability termination extension signature witness clause annex schedule").split()


def _text(seed: int, n: int = 160) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) + str(rng.randint(0, 9)) for _ in range(n))


def test_a_date_in_one_slot_is_named_with_its_label() -> None:
    body = _text(1)
    a = compute(1, f"Invoice date: 05.03.2024\n{body}", PARAMS)
    b = compute(2, f"Invoice date: 05.04.2024\n{body}", PARAMS)
    h = holdback.explain_pair(a, b, scoring.ScoreParams(similarity_threshold=0.99))
    assert [c.text() for c in h.conflicts] == ["date 2024-03-05 ≠ 2024-04-05 (“lnvolce date”)"]  # the label as stored: OCR-folded
    assert h.reasons[0].startswith("conflicts (D ")


def test_shuffled_sentences_are_words_out_of_order() -> None:
    sentences = [_text(s, 12) + "." for s in range(30)]
    rng = random.Random(5)
    shuffled = sentences[:]
    rng.shuffle(shuffled)
    a, b = compute(1, " ".join(sentences), PARAMS), compute(2, " ".join(shuffled), PARAMS)
    h = holdback.explain_pair(a, b, scoring.ScoreParams())
    assert h.order_factor < 1.0 and h.containment > 0.75
    assert h.reasons[0].startswith("words out of order: ordered overlap")


def test_an_excerpt_is_too_little_text_and_says_containment_does_not_count() -> None:
    body = _text(3, 400)
    a, b = compute(1, body, PARAMS), compute(2, " ".join(body.split()[:120]), PARAMS)
    h = holdback.explain_pair(a, b, scoring.ScoreParams())
    assert h.reasons[0].startswith("too little text in common") and "containment does not count" in h.reasons[0]


def test_amounts_read_as_cents_and_routes_with_an_arrow() -> None:
    assert holdback.value_text("amount:28962") == "289.62"
    assert holdback.value_text("amount:5") == "0.05"
    assert holdback.value_text("route:berlin>hamburg") == "berlin → hamburg"
    assert holdback.value_text("id:invoice:INV2024") == "INV2024"


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40), st.floats(0.3, 0.99))
def test_the_figures_are_the_exact_score_and_it_is_base_times_penalty(seed: int, cut: int, threshold: float) -> None:
    body = _text(seed)
    words = body.split()
    a = compute(1, f"Total due: EUR {seed % 97},50\n{body}", PARAMS)
    b = compute(2, f"Total due: EUR {seed % 89},50\n" + " ".join(words[cut:]), PARAMS)
    params = scoring.ScoreParams(similarity_threshold=threshold)
    h = holdback.explain_pair(a, b, params)
    assert h.pair == scoring.score(a, b, params, exact=True)
    assert h.pair.score == pytest.approx(min(1.0, h.base * h.penalty_factor * h.bonus), abs=1e-9)
    if not params.reports(h.pair):
        assert h.reasons  # a pair under the threshold always says why


def test_two_bodies_behind_one_letterhead_lose_d_and_check_says_why() -> None:
    from paperless_dedupe_hook.core import onesided

    head = ("Nordsee Versicherung AG, Hafenstrasse 12, 20457 Hamburg. IBAN DE89 3704 0044 0532 0130 00. "
            + _text(7, 90))
    foot = _text(8, 90)
    letter = f"{head}\nIhr Schreiben vom 12.03.2024 und unser Termin am 02.04.2024.\n{_text(9, 25)}\n{foot}"
    a = compute(1, letter, PARAMS)
    b = compute(2, f"{head}\nDer Gesamtbetrag von 1.234,50 EUR unter der Kundennummer 98765.\n{_text(10, 25)}\n{foot}", PARAMS)
    similarity = scoring.corrected_similarity(scoring.score(a, b, scoring.ScoreParams(), exact=True).jaccard,
                                              a.shingle_count, b.shingle_count, containment=True)
    sided = onesided.factor(a.tokens, b.tokens, similarity=min(similarity, 0.75))
    assert sided < 1.0  # dates only here, an amount and a customer number only there
    # A copy with a cover sheet adds values on one side only: nothing changes.
    c = compute(3, f"Anschreiben zum Vertrag, Datum 03.05.2024, Betrag 99,00 EUR.\n{letter}", PARAMS)
    assert onesided.factor(a.tokens, c.tokens, similarity=0.5) == 1.0
    # A pair that shares nearly all its text is not touched however its values fall.
    assert onesided.factor(a.tokens, b.tokens, similarity=0.95) == 1.0


def test_one_number_read_as_two_kinds_is_no_value_of_its_own() -> None:
    from paperless_dedupe_hook.core import onesided

    a = frozenset({"id:order:CMD350489", "iban:DE89370400440532013000"})
    b = frozenset({"ref:350489", "iban:DE89370400440532013000"})
    assert onesided.factor(a, b, similarity=0.7) == 1.0
    c = frozenset({"ref:771245", "iban:DE89370400440532013000"})
    assert onesided.factor(a, c, similarity=0.7) < 1.0



def test_documents_sharing_no_value_keep_d() -> None:
    # An e-mail without the letterhead and the scan that lost its contract number: nothing in
    # common, so no letterhead in common either; D is not lowered for kinds of their own.
    from paperless_dedupe_hook.core import onesided
    mail = frozenset({"id:contract:CT7396731"})
    scan = frozenset({"date:2020-05-31", "iban:FR4207045977216021593", "street:moulln74"})
    assert onesided.factor(mail, scan, similarity=0.6) == 1.0
    assert onesided.factor(mail | {"ref:12345678"}, scan | {"ref:12345678"}, similarity=0.6) < 1.0
