"""Routes and services in every language (core/languages: route_from, route_to, route_range,
route_form_labels, service_words, train_codes): each language's forms are read, and prose with
its short words ("de", "a", "da", "van") yields no route."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from paperless_dedupe_hook.core import languages
from paperless_dedupe_hook.core.extract import KINDS, extract_tokens

CORE = Path(__file__).resolve().parent.parent / "paperless_dedupe_hook" / "core"


def _routes(text: str) -> set[str]:
    return {t for t in extract_tokens(text) if t.startswith("route:")}


ROUTES = [
    ("de", "Hinfahrt: Berlin - München", "route:BERLIN>MUNCHEN"),
    ("de", "Strecke: Köln bis Bonn", "route:KOLN>BONN"),
    ("de", "Von: Berlin Hbf\nNach: München Hbf", "route:BERLINHBF>MUNCHENHBF"),
    ("de", "Ihre Reise von Hamburg nach Köln Hbf", "route:HAMBURG>KOLNHBF"),
    ("en", "Outbound: London -> Paris", "route:LONDON>PARIS"),
    ("en", "Your journey from Leeds to York", "route:LEEDS>YORK"),
    ("fr", "Votre voyage de Paris à Lyon Part Dieu", "route:PARIS>LYONPARTDIEU"),
    ("fr", "Trajet : Bordeaux à Toulouse", "route:BORDEAUX>TOULOUSE"),
    ("fr", "Aller : Marseille - Nice", "route:MARSEILLE>NICE"),
    ("nl", "Uw reis van Amsterdam naar Utrecht Centraal", "route:AMSTERDAM>UTRECHTCENTRAAL"),
    ("nl", "Traject: Rotterdam naar Den Haag", "route:ROTTERDAM>DENHAAG"),
    ("es", "Billete de Madrid a Sevilla", "route:MADRID>SEVILLA"),
    ("es", "Viaje desde Barcelona hasta Valencia", "route:BARCELONA>VALENCIA"),
    ("es", "Trayecto: Madrid a Málaga", "route:MADRID>MALAGA"),
    ("it", "Biglietto da Roma a Milano Centrale", "route:ROMA>MILANOCENTRALE"),
    ("it", "Tratta: Napoli - Firenze", "route:NAPOLI>FIRENZE"),
]


@pytest.mark.parametrize("line,token", [pytest.param(line, token, id=f"{lang}-{token}") for lang, line, token in ROUTES])
def test_each_language_reads_its_routes(line: str, token: str) -> None:
    assert _routes(line) == {token}


PROSE = [
    ("fr", "Nous avons bien reçu de votre part le courrier à votre nom."),
    ("fr", "Le dossier de Monsieur Martin à Paris a été transmis."),
    ("fr", "Nos bureaux sont ouverts du lundi au vendredi de 9 h à 17 h et de Janvier à Mars."),
    ("fr", "La lettre de La Poste à votre adresse."),
    ("es", "Le enviamos la factura de la empresa a su nombre."),
    ("es", "Horario de lunes a viernes, de Enero a Marzo."),
    ("es", "El pago de Señor García a la cuenta indicada."),
    ("it", "Il pagamento da parte sua a favore della società."),
    ("it", "Aperto da lunedì a venerdì, da Gennaio a Marzo."),
    ("it", "La lettera inviata da Il Sole a noi."),
    ("nl", "De brief van de gemeente naar het kantoor."),
    ("nl", "Geopend van maandag tot vrijdag, van Januari naar Maart."),
    ("nl", "Een bericht van De Vries naar de klant."),
    ("de", "Die Unterlagen wurden von Herrn Koch geprüft. Nach Einschätzung der Leitung"),
    ("de", "Gültig von Montag nach Freitag"),
    ("en", "Valid from Monday to Friday, from the 5th to the 9th."),
    # the start and end words of two languages make no journey
    ("en", "from Leeds naar York"),
    ("fr", "de Paris to Lyon"),
    ("it", "da Roma hasta Milano"),
]


@pytest.mark.parametrize("text", [pytest.param(text, id=f"{lang}-{i}") for i, (lang, text) in enumerate(PROSE)])
def test_prose_with_short_route_words_has_no_route(text: str) -> None:
    assert not _routes(text)


SERVICES = [
    ("de", "Flug LH 2034", "id:flight:LH2034"),
    ("de", "ICE 1234 Wagen 12", "id:flight:ICE1234"),
    ("en", "Flight no. XB 606", "id:flight:XB606"),
    ("fr", "Vol AF 1234", "id:flight:AF1234"),
    ("fr", "TGV INOUI 6201", "id:flight:INOUI6201"),
    ("nl", "Vlucht KL 1234", "id:flight:KL1234"),
    ("es", "Vuelo IB 3456", "id:flight:IB3456"),
    ("es", "AVE 03071 Coche 4", "id:flight:AVE03071"),
    ("it", "Volo FR 8342", "id:flight:FR8342"),
    ("it", "Treno Frecciarossa 9512", "id:flight:FRECCIAROSSA9512"),
]


@pytest.mark.parametrize("line,token", [pytest.param(line, token, id=f"{lang}-{token}") for lang, line, token in SERVICES])
def test_each_language_reads_its_services(line: str, token: str) -> None:
    assert token in extract_tokens(line)


def _code_words(tree: ast.AST) -> set[str]:
    """The words of a module's string literals that are no docstrings, no character classes, no escapes
    and no group names of a regex."""
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.FunctionDef | ast.ClassDef) and ast.get_docstring(n) is not None}
    docs |= {id(n.slice) for n in ast.walk(tree) if isinstance(n, ast.Subscript)}  # m["a"]: a regex group
    docs |= {id(a) for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr in ("start", "end", "span", "group") for a in n.args}  # m.start("a")
    docs |= {id(c) for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "table_source"
             for c in ast.walk(n)}  # Python source it writes ("from __future__ import ...")
    words: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
            text = re.sub(r"\[(?:\\.|[^\]\\])*\]|\\.|\(\?P<\w+>|\(\?P=\w+\)|\{\w+\}", " ", n.value)
            words.update(re.findall(r"[^\W\d]+", text))  # "train_codes": one word
    return words


def test_no_code_outside_the_languages_names_a_route_or_service_word() -> None:
    # Adding a language is adding data: the route and service words are in core/languages only
    # (one letter is too short to tell: "a" is also tolerant()'s key for "ä").
    fields = ("route_words", "route_from", "route_to", "route_range", "service_words", "train_codes", "not_codes")
    # "route", "flight": a token's kind and an identifier's label, no words
    data = {w for f in fields for w in languages.merged(f)} - set(KINDS) - set(languages.LABELS)
    for name in ("extract.py", "_numbers.py", "_places.py", "_scan.py", "_patterns.py", "_route_patterns.py",
                 "_triggers.py", "languages/detect.py", "languages/model.py"):  # (__init__ names its modules: "de")
        named = {w for w in data & _code_words(ast.parse((CORE / name).read_text(encoding="utf-8"))) if len(w) > 1}
        if name == "_patterns.py":
            named -= {"bis"}  # "3 bis rue ...": a house number's suffix (STREET_NUMBER_BEFORE), not "Köln bis Bonn"
        assert not named, (name, sorted(named))
