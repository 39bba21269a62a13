"""Copies behind their own cover sheets (core.placement, core.cover): the cover's own values
are left out of D where the texts show a head of its own; letters behind one letterhead and
template blocks of values keep every value."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook import config, engine
from paperless_dedupe_hook.core import cover, features, holdback, minhash, placement, scoring
from paperless_dedupe_hook.index.sqlite import SqliteIndex

P = features.FeatureParams()
S = scoring.ScoreParams()

BODY = """Stadtwerke Nordheim GmbH | Hafenstraße 12 | 24103 Kiel

Herrn Jonas Berger
Lindenweg 7
24105 Kiel

Kiel, 03.11.2021

Ihr Wartungsvertrag Nr. WV-2021-4471

Sehr geehrter Herr Berger,

wie telefonisch besprochen senden wir Ihnen anbei die Unterlagen zu Ihrem Wartungsvertrag. Die
Heizungsanlage in Ihrem Haus wurde am 14.10.2021 von unserem Techniker geprüft und gereinigt. Dabei
wurden keine Mängel festgestellt, der Brenner arbeitet einwandfrei und die Abgaswerte liegen im
zulässigen Bereich.

Für die Wartung berechnen wir Ihnen wie vereinbart einen Betrag von 189,50 EUR. Der Betrag wird am
15.11.2021 von Ihrem Konto abgebucht. Bitte sorgen Sie für ausreichende Deckung, damit keine
Rücklastschrift entsteht, die zusätzliche Gebühren verursachen würde.

Die nächste Wartung ist für den Herbst des kommenden Jahres vorgesehen. Wir werden Sie rechtzeitig
vorher anrufen, um einen Termin mit Ihnen abzustimmen. Sollten Sie in der Zwischenzeit Fragen zu
Ihrer Anlage haben, erreichen Sie unseren Kundendienst montags bis freitags von 8 bis 17 Uhr unter
der bekannten Rufnummer.

Bitte beachten Sie, dass die Gewährleistung für die eingebauten Ersatzteile zwei Jahre beträgt. Die
Rechnung über die Ersatzteile in Höhe von 64,20 EUR liegt diesem Schreiben bei. Bewahren Sie diese
bitte sorgfältig auf, da sie im Garantiefall vorgelegt werden muss.

Wir bedanken uns für Ihr Vertrauen und stehen Ihnen für alle weiteren Fragen gern zur Verfügung.

Mit freundlichen Grüßen

Stadtwerke Nordheim GmbH
Kundenservice Wärme
"""
COVER_A = """TELEFAX
An: Kanzlei Dr. Hoffmann
Von: Jonas Berger
Datum: 22.11.2021
Betreff: Unterlagen Heizung

Sehr geehrte Frau Dr. Hoffmann,

anbei übersende ich Ihnen wie am 18.11.2021 besprochen das Schreiben der Stadtwerke zur Wartung
meiner Heizung. Es betrifft die Forderung von 412,80 EUR, die ich in meinem Schreiben vom 02.11.2021
erwähnt habe. Bitte prüfen Sie, ob die Abrechnung zu meinem Mietvertrag passt, und geben Sie mir
bis zum 30.11.2021 Bescheid. Ihr Aktenzeichen lautet nach meinen Unterlagen 7 O 112/21. Für Rückfragen
bin ich tagsüber telefonisch gut zu erreichen, abends leider nur per Mail.

Seiten einschließlich Deckblatt: 3
"""
COVER_B = """Deckblatt
An: Hausverwaltung Meier & Söhne
Von: Jonas Berger
Datum: 25.11.2021
Betreff: Wartungsrechnung

Sehr geehrte Damen und Herren,

wie vereinbart sende ich Ihnen die Unterlagen der Stadtwerke, die am 24.11.2021 bei mir eingegangen
sind. Nach unserer Vereinbarung übernehmen Sie davon einen Anteil von 94,75 EUR, den Sie mir bitte
bis zum 10.12.2021 überweisen. Die Nebenkostenabrechnung mit der Nummer NK-2021-0932 enthält diese
Position noch nicht. Sollten Sie noch weitere Belege brauchen, melden Sie sich bitte bei mir, ich
schicke sie Ihnen dann gern zusätzlich per Post oder eingescannt per Mail.

Seiten: 3
"""

FOOTER = """
Wie wir Ihre Daten verwenden
Gespräche können zu Schulungszwecken aufgezeichnet werden. Sie haben das Recht auf Auskunft,
Berichtigung und Löschung Ihrer personenbezogenen Daten. Unseren Datenschutzbeauftragten erreichen
Sie unter der oben genannten Anschrift. Ihre Daten werden nicht ohne geeignete Garantien außerhalb
der Europäischen Union verarbeitet. Rechtsgrundlage der Verarbeitung ist die Durchführung Ihres
Versicherungsvertrags. Der Verarbeitung zu Werbezwecken können Sie jederzeit widersprechen. Wir
speichern Ihre Daten nicht länger als erforderlich und im Rahmen der gesetzlichen Fristen. Daten
über Ihre Gesundheit verarbeiten wir nur mit Ihrer ausdrücklichen Einwilligung. Zur Prüfung Ihrer
Angaben können wir Auskünfte bei Auskunfteien einholen. Beschwerden richten Sie bitte an die
zuständige Aufsichtsbehörde oder an unseren Kundenservice, der Ihnen gern weiterhilft.
"""
LETTERHEAD = """Nordsee Versicherung AG | Deichstraße 4 | 20459 Hamburg

Frau Anna Schulte
Birkenallee 19
22301 Hamburg

Versicherungsschein 77-4410932
"""


def _doc(doc_id: int, content: str) -> features.Features:
    return features.compute(doc_id, content, P)


def _score(a: features.Features, b: features.Features) -> scoring.PairScore:
    return scoring.score(a, b, S, exact=True)


def test_copies_behind_their_own_cover_sheets_are_one_document(monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = _doc(1, COVER_A + "\n" + BODY), _doc(2, COVER_B + "\n" + BODY)
    assert S.reports(_score(a, b)) and _score(a, b).discriminative == 1.0
    monkeypatch.setattr(scoring, "COVER_HEADS", False)
    assert not S.reports(_score(a, b))  # the covers' own dates and amounts conflict


def test_a_copy_behind_a_cover_and_its_original_are_one_document() -> None:
    original = _doc(3, BODY)
    for copy in (_doc(1, COVER_A + "\n" + BODY), _doc(2, COVER_B + "\n" + BODY)):
        assert S.reports(_score(copy, original))


def test_the_hooks_bound_without_the_texts_lets_the_pair_through() -> None:
    a, b = _doc(1, COVER_A + "\n" + BODY), _doc(2, COVER_B + "\n" + BODY)
    stored = [dataclasses.replace(f, sample=None) for f in (a, b)]  # as read from the index
    assert scoring.may_reach(stored[0], stored[1], S)


def test_what_check_v_says_names_the_values_not_compared() -> None:
    a, b = _doc(1, COVER_A + "\n" + BODY), _doc(2, COVER_B + "\n" + BODY)
    x, y = holdback.compared(a, b, S)
    assert x.tokens < a.tokens and y.tokens < b.tokens
    assert "date:2021-11-18" in a.tokens - x.tokens and "amount:9475" in b.tokens - y.tokens
    assert "date:2021-10-14" in x.tokens and "amount:18950" in y.tokens  # the body's values stay
    reasons = holdback.explain_pair(a, b, S).reasons
    assert any("cover sheet" in r for r in reasons), reasons


def test_letters_behind_one_letterhead_keep_their_own_values() -> None:
    first = LETTERHEAD + """
Sehr geehrte Frau Schulte,
Ihre Schadenmeldung vom 12.03.2024 haben wir unter der Schadennummer SN-2024-118 erfasst. Den Betrag
von 1.240,00 EUR überweisen wir bis zum 28.03.2024 auf Ihr Konto. Bitte bewahren Sie die Belege auf.
Mit freundlichen Grüßen
""" + FOOTER
    second = LETTERHEAD + """
Sehr geehrte Frau Schulte,
zum 01.07.2024 passen wir den Beitrag Ihrer Hausratversicherung an. Der neue Monatsbeitrag beträgt
18,40 EUR. Die Beitragsrechnung Nr. BR-2024-5521 liegt bei; der Betrag wird am 15.07.2024 abgebucht.
Mit freundlichen Grüßen
""" + FOOTER
    a, b = _doc(1, first), _doc(2, second)
    assert holdback.compared(a, b, S) == (a, b)  # they open alike: no head of its own
    assert not S.reports(_score(a, b))


def _ticket(order: str, price: str, route: str, day: str, train: str) -> str:
    return (f"Online-Ticket\nAuftragsnummer: {order}\nReisender: Tanja Koch\nGesamtpreis: {price} €\n"
            f"Fahrt: {route}\n{day} ab 10:17 an 15:10\n{train} Wagen 7 Platz 72 2. Klasse\n" + FOOTER + FOOTER)


TICKETS = (("881886723575", "84,18", "Leipzig Hbf -> Berlin Hbf", "18.06.2020", "ICE 1286"),
           ("531801436721", "65,48", "Berlin Hbf -> Leipzig Hbf", "11.02.2021", "ICE 1734"))


def test_a_template_block_of_values_is_no_head_of_its_own() -> None:
    a, b = _doc(1, _ticket(*TICKETS[0])), _doc(2, _ticket(*TICKETS[1]))
    assert holdback.compared(a, b, S) == (a, b)
    assert not S.reports(_score(a, b))


def test_a_cover_in_front_of_one_of_a_series_leaves_out_the_cover_only() -> None:
    covered, other = _doc(1, COVER_A + "\n" + _ticket(*TICKETS[0])), _doc(2, _ticket(*TICKETS[1]))
    jaccard = minhash.jaccard(covered.signature, other.signature)  # type: ignore[arg-type]
    heads = cover.shown(covered, other, jaccard)
    assert heads is not None
    x, y = heads
    assert "date:2021-11-18" not in x.tokens and y is other  # the cover's own date goes
    assert {"id:order:881886723575", "date:2020-06-18"} <= x.tokens  # the ticket's values stay
    assert not S.reports(_score(covered, other))


def test_places_say_where_a_value_stands() -> None:
    doc = _doc(1, COVER_A + "\n" + BODY)
    place = {t: (doc.places[2 * i], doc.places[2 * i + 1]) for i, t in enumerate(sorted(doc.tokens))}
    assert len(doc.places) == 2 * len(doc.tokens)
    assert place["date:2021-11-18"][1] < 40  # on the cover, in the first sixth of the words
    assert place["amount:6420"][0] > 180  # near the end of the letter
    assert place["@datum=date:2021-11-22"][0] < 20


def test_a_value_at_a_place_unknown_is_never_left_out() -> None:
    tokens = frozenset({"date:2024-01-31", "amount:1000"})
    packed = placement.pack(tokens, {"date:2024-01-31": (0, 0)}, "31.01.2024 und mehr Text hier")
    assert packed == bytes((0, 255, 0, 0))  # sorted: the amount first, with no place
    assert placement.trimmed(tokens, packed, 0.5, frozenset()) == {"amount:1000"}
    assert placement.trimmed(tokens, b"", 0.5, frozenset()) is tokens


def test_places_are_kept_in_the_index_and_an_older_row_has_none(tmp_path: Path) -> None:
    settings = engine.settings_from_config(config.load(config_path=None, env={"HOME": "/nonexistent"}))
    doc = features.compute(1, COVER_A + "\n" + BODY, settings.features)
    with SqliteIndex(tmp_path / "i.sqlite3", create=True, compat=settings.compat()) as index:
        with index.write():
            index.put(doc, modified=None, keys=settings.band_keys(doc))
            index.conn.execute("UPDATE documents SET places = x'' WHERE id = 1")
            index.put(dataclasses.replace(doc, doc_id=2), modified=None, keys=settings.band_keys(doc))
        got = {f.doc_id: f for f in index.features([1, 2], settings.features.num_permutations)}
    assert got[2].places == doc.places and got[1].places == b""


def _walked_bound(tokens: frozenset[str], places: bytes, other: frozenset[str]) -> float:
    # the bound as the first version walked it: marks sorted by place, the first shared one
    order = sorted(tokens)
    marks = sorted((places[2 * i], t) for i, t in enumerate(order)
                   if places[2 * i] == places[2 * i + 1] and not t.startswith(("@", "date:")))
    bound = int(placement.MAX_HEAD_SHARE * 256)
    for first, t in marks:
        if first >= bound:
            break
        if t in other:
            return first / 256
    return bound / 256


_TOKENS = st.sampled_from(["amount:100", "amount:2050", "date:2021-03-04", "id:policy:AB123", "ref:55501",
                           "@betrag=amount:100", "@datum=date:2021-03-04", "street:hafenstrasse12", "iban:DE02100"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_TOKENS, st.integers(0, 255), st.integers(0, 255)), unique_by=lambda x: x[0], max_size=9),
       st.sets(_TOKENS), st.floats(0.0, 1.0))
def test_the_bound_and_the_cut_walk_a_documents_values_as_their_places_say(
        placed: list[tuple[str, int, int]], other: set[str], cut: float) -> None:
    tokens = frozenset(t for t, _, _ in placed)
    at = {t: (min(x, y), max(x, y)) for t, x, y in placed}
    places = b"".join(bytes(at[t]) for t in sorted(tokens))
    assert placement.head_bound(tokens, places, frozenset(other)) == _walked_bound(tokens, places, frozenset(other))
    kept = placement.trimmed(tokens, places, cut, other)
    assert kept == {t for t in tokens if cut <= 0.0 or at[t][1] >= int(cut * 256) or t in other}
