"""Hard negatives, part 2: tickets, insurer letters, payment reminders, tenancy forms."""

from __future__ import annotations

import datetime as dt
import random

from . import boiler, fmt
from . import common as C
from . import vocab as V
from .prose import Block, Doc, Prose, word_count
from .series import _head

TICKET_DE = ("Dieses Online-Ticket ist nur gültig in Verbindung mit dem im Ticket angegebenen amtlichen "
             "Lichtbildausweis. Das Ticket ist nicht übertragbar. Es gelten die Beförderungsbedingungen der "
             "Deutschen Bahn AG sowie die Tarifbestimmungen für den Flexpreis bzw. Sparpreis. Eine Erstattung "
             "ist bis einen Tag vor dem ersten Geltungstag kostenfrei möglich, danach wird ein Entgelt erhoben. "
             "Bitte halten Sie das Ticket bei der Kontrolle ausgedruckt oder auf dem Smartphone bereit.")
TICKET_EN = ("This is your electronic ticket receipt. Please present it together with a valid passport or national ID "
             "card at check-in. Hand baggage allowance: 1 piece, max 8 kg, 55 x 40 x 20 cm. Check-in closes 40 minutes "
             "before departure. Changes are subject to a fee plus any fare difference. The carriage is subject to the "
             "conditions of carriage of the operating carrier and the Montreal Convention.")


def ticket_return(rng: random.Random, corr: fmt.Correspondent, n: int, start: dt.date) -> list[Doc]:
    de = corr.lang == "de"
    traveller = fmt.person(rng, corr.lang)
    if de:
        a, b = rng.sample(V.STATIONS, 2)
    else:
        (a, _), (b, _) = rng.sample(V.AIRPORTS, 2)
    same_label = rng.random() < 0.5
    terms: list[Block] = [("para", x) for x in boiler.paragraphs(rng, "ticket_de" if de else "ticket_en", 3, 10)]
    extra_lines = [b for b in C.closing(rng, corr.lang, corr.contact, corr.name) if b[0] == "line"][:1]
    docs = []
    trip = 0
    while len(docs) < n:
        d = start + dt.timedelta(days=trip * rng.randint(10, 60))
        booking = fmt.fill_ref(rng, "{n12}" if de else "{AB}{n4}", d.year)
        price = round(rng.uniform(19, 189) if de else rng.uniform(49, 420), 2)
        seat = (rng.randint(1, 14), rng.randint(11, 98))
        train = rng.randint(100, 2999)
        legs = [(a, b, d, 0), (b, a, d + dt.timedelta(days=rng.randint(1, 14)), 1)]
        for src, dst, day, back in legs:
            if len(docs) >= n:
                break
            hh, mm = rng.randint(5, 20), rng.choice([4, 12, 17, 26, 34, 41, 48, 56])
            dur = rng.randint(90, 330)
            arr = (hh * 60 + mm + dur) % 1440
            tno = train + (rng.randint(1, 9) * 2 if back and rng.random() < 0.5 else 0)
            if de:
                lab = "Fahrt" if same_label else ("Rückfahrt" if back else "Hinfahrt")
                body: list[Block] = [
                    ("line", "Online-Ticket"), ("kv", [("Auftragsnummer", booking), ("Reisender", traveller.name),
                                                       ("Gesamtpreis", fmt.fmt_amount(price, "de_sym"))]),
                    ("line", f"{lab}: {src} -> {dst}"),
                    ("line", f"{fmt.fmt_date(day, 'dmy_dot')}  ab {hh:02d}:{mm:02d}  an {arr // 60:02d}:{arr % 60:02d}"),
                    ("line", f"ICE {tno}  Wagen {seat[0]}  Platz {seat[1]}  2. Klasse"),
                    ("line", "BahnCard 25, 1 Erwachsener"), ("para", TICKET_DE)]
            else:
                lab = "Flight" if same_label else ("Return" if back else "Out")
                body = [("line", "E-TICKET RECEIPT"), ("kv", [("Booking reference", booking), ("Passenger", traveller.name.upper()),
                                                              ("Total fare", fmt.fmt_amount(price, "gbp"))]),
                        ("line", f"{lab}: {src} - {dst}"),
                        ("line", f"{fmt.fmt_date(day, 'dmy_long_en')}  dep {hh:02d}:{mm:02d}  arr {arr // 60:02d}:{arr % 60:02d}"),
                        ("line", f"Flight XB {tno}  Seat {seat[1]}{'ABCDEF'[seat[0] % 6]}  Economy"), ("para", TICKET_EN)]
            blocks = [("line", corr.name)] + body + terms + extra_lines + [("line", x) for x in corr.footer()[:1]]
            docs.append(Doc(f"{'Ticket' if de else 'E-ticket'} {booking}", blocks, day, corr.name, corr.lang))
        trip += 1
    return docs


INSURER_BODIES_DE = ["Beitragsanpassung", "Bestätigung Ihrer Schadenmeldung", "Änderung Ihrer Bankverbindung",
                     "Jahresmitteilung", "Bestätigung Ihrer Kündigung", "Beitragsrückerstattung", "Adressänderung"]
INSURER_BODIES_EN = ["Premium adjustment", "Claim acknowledgement", "Change of bank details", "Annual statement",
                     "Cancellation confirmed", "Premium refund", "Change of address"]


def insurer_letters(rng: random.Random, corr: fmt.Correspondent, n: int, start: dt.date) -> list[Doc]:
    de, a = corr.lang == "de", corr.amount_style
    tp = Prose(rng, corr.lang, "versicherung" if de else "insurance", corr.date_style, a, start)
    to = fmt.person(rng, corr.lang)
    head = _head(corr, to, rng)
    policy = fmt.fill_ref(rng, "{n2}.{n3}.{n6}" if de else "{AB}{n9}", start.year)
    legal: list[Block] = [("line", "Datenschutzhinweise" if de else "How we use your personal information")]
    legal += [("para", x) for x in boiler.paragraphs(rng, "privacy_de" if de else "privacy_en", 7, 14)]
    if rng.random() < 0.5:
        legal += [("para", x) for x in tp.paragraphs("legal", rng.randint(40, 160), 2, 4)]
    legal_w = word_count(legal)
    salut = C.salutation(rng, corr.lang, to)
    close = C.closing(rng, corr.lang, corr.contact, corr.name)
    docs = []
    for k in range(n):
        d = start + dt.timedelta(days=k * rng.randint(20, 120))
        p = Prose(rng, corr.lang, "versicherung" if de else "insurance", corr.date_style, a, d)
        subj = rng.choice(INSURER_BODIES_DE if de else INSURER_BODIES_EN)
        frac = rng.uniform(0.6, 0.8)
        body_w = max(25, int(legal_w * (1 - frac) / frac) - 40)
        kv = [("Versicherungsschein-Nr." if de else "Policy No.", policy), ("Datum" if de else "Date", fmt.fmt_date(d, corr.date_style))]
        blocks = head + [("kv", kv), ("blank", ""), ("line", subj), ("line", salut)]
        blocks += [("para", x) for x in p.paragraphs("formal", body_w, 1, 3)] + close + [("page", "")] + legal
        blocks += [("line", x) for x in corr.footer()]
        docs.append(Doc(f"{subj} {policy}" if rng.random() < 0.6 else C.scan_title(rng, d), blocks, d, corr.name, corr.lang))
    return docs


REMINDER_DE = [
    ["sicherlich haben Sie übersehen, dass unsere Rechnung Nr. {inv} vom {inv_d} über {amt} noch offen ist.",
     "bei der Durchsicht unserer Konten haben wir festgestellt, dass die Rechnung {inv} vom {inv_d} in Höhe von {amt} "
     "bisher nicht beglichen wurde.",
     "leider konnten wir zu unserer Rechnung {inv} vom {inv_d} über {amt} noch keinen Zahlungseingang feststellen."],
    ["Wir bitten Sie, den offenen Betrag innerhalb von {days} Tagen nach Erhalt dieses Schreibens auf das unten genannte "
     "Konto zu überweisen.",
     "Bitte überweisen Sie den Betrag bis spätestens {days} Tage nach Zugang dieser Erinnerung.",
     "Wir möchten Sie bitten, den Ausgleich innerhalb der nächsten {days} Tage vorzunehmen."],
    ["Bitte geben Sie als Verwendungszweck die Rechnungsnummer und Ihre Kundennummer {custno} an.",
     "Geben Sie bei der Zahlung bitte Ihre Kundennummer {custno} an, damit wir den Betrag zuordnen können."],
    ["Sollten Sie die Zahlung bereits veranlasst haben, betrachten Sie dieses Schreiben bitte als gegenstandslos.",
     "Falls sich Ihre Zahlung mit diesem Schreiben überschnitten hat, bitten wir Sie, es zu ignorieren."],
    ["Bei Fragen zu Ihrer Rechnung steht Ihnen unser Kundenservice gerne zur Verfügung.",
     "Für Rückfragen erreichen Sie unsere Buchhaltung werktags von 8 bis 16 Uhr.", ""],
]
REMINDER_EN = [
    ["Our records show that invoice {inv} dated {inv_d} for {amt} remains unpaid.",
     "We have not yet received payment of invoice {inv} of {inv_d}, amount {amt}.",
     "According to our records the sum of {amt} due under invoice {inv} ({inv_d}) is now overdue."],
    ["Please arrange payment within {days} days of the date of this letter to the account shown below.",
     "We would be grateful if you could settle the balance within {days} days."],
    ["Please quote the invoice number and your customer number {custno}.",
     "Please use your customer number {custno} as the payment reference."],
    ["If you have already paid, please disregard this letter.",
     "If payment has crossed with this letter, please accept our thanks and ignore this reminder."],
    ["If you have any questions about this invoice, please contact our customer service team.",
     "Our accounts team is available on weekdays between 9am and 5pm.", ""],
]


def payment_reminder(rng: random.Random, corr: fmt.Correspondent, n: int, start: dt.date) -> list[Doc]:
    de, a = corr.lang == "de", corr.amount_style
    to = fmt.person(rng, corr.lang)
    head = _head(corr, to, rng)
    custno = fmt.digits(rng, 6)
    salut = C.salutation(rng, corr.lang, to)
    close = C.closing(rng, corr.lang, corr.contact, corr.name)
    title = rng.choice(["Zahlungserinnerung", "1. Mahnung", "Mahnung"] if de else ["Payment reminder", "Overdue notice"])
    fee = rng.choice([0, 0, 5, 2.5])
    feetext = ("Für dieses Schreiben berechnen wir eine Mahngebühr von {fee}." if de
               else "A late payment fee of {fee} has been added.") if fee else ""
    sents = [rng.choice(alts) for alts in (REMINDER_DE if de else REMINDER_EN)]
    tpl = [sents[0], " ".join(x for x in (sents[1], sents[2], feetext) if x), " ".join(x for x in sents[3:] if x)]
    days = str(rng.choice([7, 10, 14]))
    docs = []
    for k in range(n):
        d = start + dt.timedelta(days=k * rng.randint(25, 70))
        inv = fmt.fill_ref(rng, "RE-{y}-{n5}" if de else "INV-{y}-{n4}", d.year)
        vals = {"{inv}": inv, "{inv_d}": fmt.fmt_date(d - dt.timedelta(days=30), corr.date_style), "{days}": days,
                "{amt}": fmt.fmt_amount(round(rng.uniform(15, 2400), 2), a), "{custno}": custno,
                "{fee}": fmt.fmt_amount(fee, a)}
        text = []
        for t in tpl:
            for key, val in vals.items():
                t = t.replace(key, val)
            text.append(t)
        blocks = head + [("line", fmt.fmt_date(d, corr.date_style)), ("blank", ""), ("line", title), ("line", salut)]
        blocks += [("para", x) for x in text] + close + [("blank", "")] + [("line", x) for x in corr.footer()]
        docs.append(Doc(f"{title} {inv}", blocks, d, corr.name, corr.lang))
    return docs


TENANCY_HEADS_DE = ["Mietsache", "Mietzeit", "Miete und Betriebskosten", "Mietsicherheit", "Zahlung der Miete",
                    "Schönheitsreparaturen", "Tierhaltung", "Untervermietung", "Hausordnung", "Betreten der Mietsache",
                    "Bauliche Veränderungen", "Rückgabe der Mietsache", "Sonstige Vereinbarungen"]
TENANCY_HEADS_EN = ["The property", "Term", "Rent and service charges", "Deposit", "Payment of rent", "Decoration",
                    "Pets", "Subletting", "House rules", "Access", "Alterations", "End of tenancy", "Other terms"]


def tenancy_form(rng: random.Random, corr: fmt.Correspondent, n: int, start: dt.date) -> list[Doc]:
    de, a = corr.lang == "de", corr.amount_style
    tp = Prose(rng, corr.lang, "haus" if de else "house", corr.date_style, a, start)
    heads = TENANCY_HEADS_DE if de else TENANCY_HEADS_EN
    clauses = [tp.paragraphs("legal", rng.randint(40, 130), 2, 5) for _ in heads]
    house = fmt.person(rng, corr.lang)  # just for the building address
    docs = []
    for k in range(n):
        d = start + dt.timedelta(days=k * rng.randint(5, 90))
        tenants = [fmt.person(rng, corr.lang) for _ in range(rng.choice([1, 1, 2]))]
        rent = round(rng.uniform(380, 1900), 0)
        costs = round(rng.uniform(90, 320), 0)
        unit = f"Wohnung Nr. {rng.randint(1, 40)}, {rng.randint(0, 5)}. OG {rng.choice(['links', 'rechts', 'Mitte'])}" if de \
            else f"Flat {rng.randint(1, 40)}, floor {rng.randint(0, 5)}"
        begin = fmt.fmt_date(fmt.add_months(d, 1).replace(day=1), corr.date_style)
        blocks: list[Block] = [("line", corr.name), ("line", "MIETVERTRAG FÜR WOHNRAUM" if de else "ASSURED SHORTHOLD TENANCY AGREEMENT"),
                               ("line", "Zwischen dem Vermieter" if de else "Landlord"), ("line", f"{corr.name}, {corr.street}, {corr.plz} {corr.city}"),
                               ("line", "und dem/den Mieter(n)" if de else "Tenant(s)")]
        blocks += [("line", f"{t.name}, {t.street}, {t.plz} {t.city}") for t in tenants]
        var = {0: [f"Vermietet wird die {unit} im Hause {house.street}, {house.plz} {house.city}, bestehend aus "
                   f"{rng.randint(1, 5)} Zimmern, Küche, Bad mit einer Wohnfläche von ca. {rng.randint(28, 140)} m²."
                   if de else f"The landlord lets {unit}, {house.street}, {house.city} ({rng.randint(1, 5)} bedrooms)."],
               1: [f"Das Mietverhältnis beginnt am {begin} und läuft auf unbestimmte Zeit." if de
                   else f"The tenancy begins on {begin} for a fixed term of {rng.choice([6, 12, 24])} months."],
               2: [f"Die Grundmiete beträgt monatlich {fmt.fmt_amount(rent, a)}, die Vorauszahlung auf die Betriebskosten "
                   f"{fmt.fmt_amount(costs, a)}." if de else f"The rent is {fmt.fmt_amount(rent, a)} per calendar month."],
               3: [f"Der Mieter leistet eine Kaution in Höhe von {fmt.fmt_amount(rent * 3, a)}." if de
                   else f"The tenant shall pay a deposit of {fmt.fmt_amount(rent * 1.15, a)}."]}
        for i, h in enumerate(heads):
            blocks.append(("line", f"§ {i + 1} {h}" if de else f"{i + 1}. {h}"))
            blocks += [("para", x) for x in var.get(i, [])] + [("para", x) for x in clauses[i]]
        sig = fmt.fmt_date(d, corr.date_style)
        blocks += [("blank", ""), ("line", f"{corr.city}, den {sig}" if de else f"Dated {sig}"),
                   ("line", "Vermieter ______________   Mieter ______________" if de else "Landlord ________  Tenant ________")]
        blocks = C.split_pages(blocks, 450)
        docs.append(Doc(f"Mietvertrag {tenants[0].last}" if de else f"Tenancy {tenants[0].last}", blocks, d, corr.name, corr.lang))
    return docs
