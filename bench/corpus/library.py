"""Hard negatives assembled from shared text libraries, and template short notes.

Real archives hold many documents written from one pool of sentences or clauses: the manuals of
several makers for one kind of device (translated from the same source, each maker taking its own
selection in its own order), the terms and contracts of one form (every contract on the form takes
most of its clauses, some in another order, with its own parties and figures). Two such documents
share most of their text and are still different documents. Every maker here takes
``(rng, ..., n, start)`` and returns ``n`` documents of one family, like ``series.py``.
"""

from __future__ import annotations

import datetime as dt
import random

from . import common as C
from . import fmt
from .prose import Block, Doc, Prose

DEVICES_DE = ["Waschmaschine", "WLAN-Router", "Kaffeevollautomat", "Geschirrspüler", "Saugroboter", "Drucker",
              "Heizkörperthermostat", "Kühlschrank", "Smartphone", "Akku-Bohrschrauber", "Fernseher", "Mikrowelle"]
DEVICES_EN = ["washing machine", "wireless router", "coffee machine", "dishwasher", "robot vacuum", "printer",
              "radiator thermostat", "fridge freezer", "smartphone", "cordless drill", "television", "microwave oven"]
CHAPTERS_DE = ["Sicherheitshinweise", "Lieferumfang", "Inbetriebnahme", "Bedienung", "Einstellungen", "Reinigung und Pflege",
               "Fehlerbehebung", "Technische Daten", "Entsorgung", "Garantie"]
CHAPTERS_EN = ["Safety instructions", "In the box", "Getting started", "Operation", "Settings", "Cleaning and care",
               "Troubleshooting", "Specifications", "Disposal", "Warranty"]
MAKERS_DE = ["Bosch", "Siemens", "Miele", "AEG", "Bauknecht", "Gorenje", "Grundig", "Severin", "Krups", "Melitta",
             "Jura", "Tefal", "AVM", "Medion", "Telefunken", "Blaupunkt", "Rowenta", "Unold", "Clatronic", "Privileg"]
MAKERS_EN = ["Hotpoint", "Beko", "Russell Hobbs", "Morphy Richards", "Dyson", "Bush", "Logik", "Swan", "Breville",
             "Kenwood", "Indesit", "Zanussi", "Belling", "Hoover", "Vax", "Igenix", "Tower", "Sage", "Ninja", "Salter"]
FORMS_DE = ["Allgemeine Geschäftsbedingungen", "Dienstleistungsvertrag", "Arbeitsvertrag", "Wartungsvertrag",
            "Mobilfunkvertrag", "Darlehensvertrag", "Kaufvertrag", "Vereinbarung über Auftragsverarbeitung"]
FORMS_EN = ["Terms and conditions", "Service agreement", "Employment contract", "Maintenance agreement",
            "Mobile phone contract", "Loan agreement", "Sale agreement", "Data processing agreement"]


def manual_library(rng: random.Random, lang: str) -> tuple[str, list[tuple[str, list[str]]]]:
    """One device kind's sentence library: (device, [(chapter, sentences)])."""
    de = lang == "de"
    k = rng.randrange(len(DEVICES_DE))
    device = (DEVICES_DE if de else DEVICES_EN)[k]
    p = Prose(rng, lang, rng.choice(["it", "haus", "telekom"] if de else ["it", "house", "telecom"]))
    chapters = []
    for title in CHAPTERS_DE if de else CHAPTERS_EN:
        chapters.append((title, [p.sentence("manual") for _ in range(rng.randint(10, 22))]))
    return device, chapters


def manuals(rng: random.Random, lang: str, library: tuple[str, list[tuple[str, list[str]]]], n: int,
            start: dt.date) -> list[Doc]:
    """``n`` manuals of several makers from one library: each takes 60-90 % of each chapter's sentences,
    in its own order, its own maker and model names, a few sentences of its own."""
    de = lang == "de"
    device, chapters = library
    makers = rng.sample(MAKERS_DE if de else MAKERS_EN, k=min(n, rng.randint(3, 12)))
    own = Prose(rng, lang, rng.choice(["it", "haus", "telekom"] if de else ["it", "house", "telecom"]))
    docs = []
    for i in range(n):
        maker = makers[i % len(makers)]
        model = f"{rng.choice(['X', 'Pro', 'S', 'Eco', 'Max', 'Plus', 'Compact'])} {rng.randint(100, 9900)}"
        name = f"{maker} {model}"
        title = f"{'Bedienungsanleitung' if de else 'Instruction manual'} {device} {name}"
        blocks: list[Block] = [("line", title), ("line", maker.upper()), ("blank", "")]
        share = rng.uniform(0.60, 0.90)
        order = list(range(len(chapters)))
        if rng.random() < 0.6:  # some makers move two chapters
            a, b = rng.sample(order, 2)
            order[a], order[b] = order[b], order[a]
        numbered = rng.random() < 0.6
        per_page, on_page = rng.randint(300, 450), 0
        for ch_no, c in enumerate(order, 1):
            head, sents = chapters[c]
            picked = rng.sample(sents, k=max(1, round(len(sents) * share)))
            if rng.random() < 0.3:  # some keep the library's order within a chapter
                picked.sort(key=sents.index)
            if rng.random() < 0.4:
                picked.insert(rng.randrange(len(picked) + 1), own.sentence("manual"))
            blocks.append(("line", f"{ch_no} {head}"))
            for k, s in enumerate(picked, 1):
                blocks.append(("line", f"{ch_no}.{k} {s}" if numbered else s))
                on_page += s.count(" ") + 1
            if on_page >= per_page and ch_no < len(order):  # a chapter ends the page
                blocks.append(("page", ""))
                on_page = 0
        blocks += [("blank", ""), ("line", f"{name} · {'Modell' if de else 'Model'} {model} · "
                                            f"{'Stand' if de else 'Issue'} {start.year + i // 6}")]
        d = start + dt.timedelta(days=rng.randint(0, 365 * 6))
        docs.append(Doc(title, blocks, d, maker, lang))
    return docs


def clause_library(rng: random.Random, lang: str) -> tuple[str, list[tuple[str, list[str]]]]:
    """One form's clause library: (form title, [(heading, [variant paragraphs])])."""
    de = lang == "de"
    form = rng.choice(FORMS_DE if de else FORMS_EN)
    p = Prose(rng, lang, rng.choice(["haus", "versicherung", "it"] if de else ["house", "insurance", "it"]))
    clauses = []
    for _ in range(rng.randint(18, 34)):
        variants = [p.paragraph("legal", rng.randint(2, 5)) for _ in range(rng.choice([1, 1, 2]))]
        clauses.append((p.slot("n").capitalize(), variants))
    return form, clauses


def contracts(rng: random.Random, corr: fmt.Correspondent, library: tuple[str, list[tuple[str, list[str]]]], n: int,
              start: dt.date) -> list[Doc]:
    """``n`` contracts on one form: 55-95 % of the clauses, a few moved, their own parties, dates and sums."""
    de, a = corr.lang == "de", corr.amount_style
    form, clauses = library
    docs = []
    for k in range(n):
        d = start + dt.timedelta(days=k * rng.randint(7, 60))
        other = fmt.person(rng, corr.lang)
        number = fmt.fill_ref(rng, "V-{y}-{n6}" if de else "C{n8}", d.year)
        chosen = [i for i in range(len(clauses)) if rng.random() < rng.uniform(0.55, 0.95)] or [0]
        for _ in range(rng.randint(0, 3)):  # a few clauses moved
            if len(chosen) > 3:
                x = chosen.pop(rng.randrange(len(chosen)))
                chosen.insert(rng.randrange(len(chosen) + 1), x)
        fee = fmt.fmt_amount(round(rng.uniform(9, 4800), 2), a)
        begin = fmt.fmt_date(fmt.add_months(d, 1).replace(day=1), corr.date_style)
        blocks: list[Block] = [("line", corr.name), ("line", form.upper()), ("blank", ""),
                               ("line", "zwischen" if de else "between"),
                               ("line", f"{corr.name}, {corr.street}, {corr.plz} {corr.city}"),
                               ("line", "und" if de else "and"),
                               ("line", f"{other.name}, {other.street}, {other.plz} {other.city}"),
                               ("kv", [("Vertragsnummer" if de else "Agreement No.", number),
                                       ("Vertragsbeginn" if de else "Start date", begin),
                                       ("Entgelt monatlich" if de else "Monthly fee", fee)])]
        for no, i in enumerate(chosen, 1):
            head, variants = clauses[i]
            blocks.append(("line", f"§ {no} {head}" if de else f"{no}. {head}"))
            blocks.append(("para", rng.choice(variants)))
        sig = fmt.fmt_date(d, corr.date_style)
        blocks += [("blank", ""), ("line", f"{corr.city}, den {sig}" if de else f"Signed on {sig}"),
                   ("line", f"{corr.name} ______________   {other.name} ______________")]
        blocks = C.split_pages(blocks, 450)
        docs.append(Doc(f"{form} {other.last}", blocks, d, corr.name, corr.lang))
    return docs


NOTES_DE = ["Zählerstand {num} kWh abgelesen am {date}.", "Paket beim Nachbarn abgegeben, Sendung {num}.",
            "Quittung: {amount} bar erhalten am {date}. {name}", "Termin verschoben auf {date}, {time} Uhr.",
            "Rückruf bei {name} unter {phone} wegen Rechnung {num}.", "Wasserzähler {num} m³ am {date} abgelesen.",
            "Quittung\nBetrag {amount} erhalten am {date}.\nUnterschrift {name}",
            "PARKSCHEIN P3\nEinfahrt {date} {time}\nBezahlt {amount}\nTicket {num}",
            "Textilreinigung\nAuftrag {num}\nabholbereit ab {date}\nBetrag {amount}\nKOPIE"]
NOTES_EN = ["Meter reading {num} kWh taken on {date}.", "Parcel left with neighbour, tracking {num}.",
            "Received {amount} in cash on {date}. {name}", "Appointment moved to {date}, {time}.",
            "Call {name} back on {phone} about invoice {num}.", "Water meter {num} m3 read on {date}.",
            "Receipt\nReceived {amount} on {date}.\nSigned {name}",
            "CAR PARK TICKET\nEntry {date} {time}\nPaid {amount}\nTicket {num}",
            "Dry Cleaners\nTicket No. {num}\nReady {date}\nTotal {amount}\nCOPY"]


def short_notes(rng: random.Random, lang: str, n: int, start: dt.date) -> list[Doc]:
    """``n`` notes on one short template (a meter read each month, receipts for cash): they differ only in
    their values."""
    de = lang == "de"
    tpl = rng.choice(NOTES_DE if de else NOTES_EN)
    p = Prose(rng, lang)
    who = p.people[0].name
    style = "dmy_dot" if de else rng.choice(fmt.EN_DATE_STYLES)
    value = rng.randint(1000, 90000)
    docs = []
    for k in range(n):
        d = fmt.add_months(start, k) + dt.timedelta(days=rng.randint(0, 5))
        value += rng.randint(40, 900)
        meter = any(unit in tpl for unit in ("kWh", "m³", "m3"))
        text = (tpl.replace("{num}", str(value) if meter else fmt.digits(rng, rng.randint(6, 12)))
                .replace("{date}", fmt.fmt_date(d, style)).replace("{name}", who)
                .replace("{amount}", p.amount(5, 500)).replace("{phone}", fmt.phone(rng, lang))
                .replace("{time}", f"{rng.randint(8, 18)}:{rng.choice(['00', '15', '30', '45'])}"))
        docs.append(Doc(C.scan_title(rng, d), [("line", text)], d, "", lang))
    return docs
