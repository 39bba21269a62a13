"""Hard negatives, part 1: template series that are textually close but are NOT duplicates.

Every maker takes ``(rng, corr, n, start)`` and returns ``n`` documents that share one template.
Template parts (letterhead, salutation, boilerplate) are drawn once per series; only the values that
really change between months (numbers, dates, amounts, names) are drawn per document.
"""

from __future__ import annotations

import datetime as dt
import random

from . import boiler, fmt
from . import common as C
from .prose import Block, Doc, Prose

MERCHANTS = ["REWE Markt", "EDEKA Center", "ALDI SUED", "Lidl sagt Danke", "dm-drogerie markt", "Amazon EU S.a.r.l.",
             "PayPal Europe", "Shell Station", "DB Vertrieb GmbH", "Netflix.com", "IKEA Deutschland", "Rossmann",
             "Apotheke am Markt", "Tchibo", "MediaMarkt", "Spotify AB", "Bäckerei Schüren", "Deutsche Post AG"]
MERCHANTS_EN = ["TESCO STORES", "Sainsbury's", "AMAZON.CO.UK", "PAYPAL *EBAY", "SHELL", "TfL TRAVEL CH",
                "NETFLIX.COM", "Boots", "Pret A Manger", "Greggs", "Argos", "Spotify", "Costa Coffee", "Waitrose"]


def _head(corr: fmt.Correspondent, to: fmt.Person, rng: random.Random) -> list[Block]:
    blocks: list[Block] = [("line", ln) for ln in corr.letterhead()] + [("blank", "")]
    return blocks + [("line", ln) for ln in to.address_lines(rng)] + [("blank", "")]


def _period(d: dt.date, lang: str) -> str:
    from . import vocab as V

    return f"{(V.DE_MONTHS if lang == 'de' else V.EN_MONTHS)[d.month - 1]} {d.year}"


def invoice_series(rng: random.Random, corr: fmt.Correspondent, n: int, start: dt.date) -> list[Doc]:
    de, a = corr.lang == "de", corr.amount_style
    p = Prose(rng, corr.lang, None, corr.date_style, a, start)
    to = fmt.person(rng, corr.lang)
    head = _head(corr, to, rng)
    custno = fmt.digits(rng, 5)
    mode = rng.choice(["same", "same", "partial", "vary"])
    fixed = C.items(rng, corr.lang, rng.randint(1, 5))
    salut = C.salutation(rng, corr.lang, to)
    intro = p.paragraph("formal", rng.randint(1, 3))
    agb = p.paragraphs("legal", rng.randint(40, 200), 2, 4) if rng.random() < 0.8 else []
    close = C.closing(rng, corr.lang, corr.contact, corr.name)
    step = rng.choice([1, 1, 1, 3])
    no = rng.randint(100, 9000)
    docs = []
    for k in range(n):
        d = fmt.add_months(start, k * step) + dt.timedelta(days=rng.randint(0, 2))
        no += rng.randint(1, 60)
        num = f"RE-{d.year}-{no:05d}" if de else f"INV-{d.year}-{no:04d}"
        if mode == "same":
            lines = fixed
        elif mode == "partial":
            lines = fixed[:1] + C.items(rng, corr.lang, rng.randint(1, 3))
        else:
            lines = [(nm, pr, rng.choice([1, 2, 3, 4, 6])) for nm, pr, _ in fixed]
        tot, gross = C.totals(corr.lang, lines, a)
        due = fmt.fmt_date(d + dt.timedelta(days=14), corr.date_style)
        kv = [("Rechnungsnummer" if de else "Invoice No.", num),
              ("Rechnungsdatum" if de else "Invoice date", fmt.fmt_date(d, corr.date_style)),
              ("Kundennummer" if de else "Customer No.", custno),
              ("Leistungszeitraum" if de else "Service period", _period(d, corr.lang))]
        pay = (f"Bitte überweisen Sie den Rechnungsbetrag von {fmt.fmt_amount(gross, a)} bis zum {due} unter Angabe "
               f"der Rechnungsnummer {num} auf das unten genannte Konto." if de else
               f"Please pay {fmt.fmt_amount(gross, a)} by {due} quoting invoice number {num} to the account below.")
        blocks = head + [("line", "RECHNUNG" if de else "INVOICE"), ("kv", kv), ("blank", ""), ("line", salut),
                         ("para", intro), ("table", C.items_table(corr.lang, lines, a)), ("kv", tot), ("para", pay)]
        blocks += [("para", x) for x in agb] + close + [("blank", "")] + [("line", x) for x in corr.footer()]
        docs.append(Doc(("Rechnung " if de else "Invoice ") + num, blocks, d, corr.name, corr.lang))
    return docs


def payslip(rng: random.Random, corr: fmt.Correspondent, n: int, start: dt.date) -> list[Doc]:
    de, a = corr.lang == "de", corr.amount_style
    emp = fmt.person(rng, corr.lang)
    gross = round(rng.uniform(2200, 7800), 2)
    static = rng.random() < 0.5  # then only the month, one extra amount and the net pay change
    personal = ([("Personalnummer", fmt.digits(rng, 5)), ("Steuerklasse", str(rng.randint(1, 5))),
                 ("Kinderfreibeträge", rng.choice(["0,0", "0,5", "1,0", "2,0"])), ("Konfession", rng.choice(["rk", "ev", "--"])),
                 ("Krankenkasse", rng.choice(["AOK Bayern", "TK", "Barmer", "DAK-Gesundheit", "IKK classic"])),
                 ("SV-Nummer", f"{fmt.digits(rng, 2)} {fmt.digits(rng, 6)} {emp.last[0]} {fmt.digits(rng, 3)}"),
                 ("Steuer-ID", fmt.digits(rng, 11)), ("Eintritt", fmt.fmt_date(fmt.random_date(rng, 2005, 2015), "dmy_dot")),
                 ("Kostenstelle", fmt.digits(rng, 4)), ("Tarifgruppe", f"E{rng.randint(5, 14)} Stufe {rng.randint(1, 6)}")]
                if de else
                [("Employee No.", fmt.digits(rng, 5)), ("Tax code", rng.choice(["1257L", "1185L", "BR", "K475"])),
                 ("NI number", f"{fmt.fill_ref(rng, '{AB}', 2020)} {fmt.digits(rng, 2)} {fmt.digits(rng, 2)} "
                               f"{fmt.digits(rng, 2)} {rng.choice('ABCD')}"),
                 ("NI category", "A"), ("Pay frequency", "Monthly"),
                 ("Department", rng.choice(["Finance", "Operations", "IT", "Sales"]))])
    extra_name = rng.choice(["Fahrtkostenzuschuss", "Überstunden", "Sachbezug Jobticket"] if de
                            else ["Overtime", "Travel allowance", "Bonus"])
    extra = round(rng.uniform(20, 300), 2)
    vwl = rng.choice([0.0, 26.59, 40.0])
    notes = boiler.paragraphs(rng, "payslip_de" if de else "payslip_en", 2, 8)
    bank = fmt.iban_de(rng, spaced=True) if de else fmt.digits(rng, 4)
    labels = (["Lohnsteuer", "Solidaritätszuschlag", "Kirchensteuer", "Krankenversicherung", "Rentenversicherung",
               "Arbeitslosenversicherung", "Pflegeversicherung"] if de else
              ["Income tax", "National Insurance", "Pension (employee)", "Student loan"])
    rates = [0.17, 0.0, 0.012, 0.081, 0.093, 0.013, 0.017] if de else [0.16, 0.08, 0.05, 0.02]
    docs = []
    for k in range(n):
        d = fmt.add_months(start, k).replace(day=28)
        g = gross if static or k < n // 2 else round(gross * 1.03, 2)
        e = round(extra * rng.uniform(0.5, 1.5), 2)
        basis = g if static else g + e
        ded = [round(basis * r, 2) for r in rates]
        net = round(g + e + vwl - sum(ded), 2)
        if de:
            rows = [["Lohnart", "Bezeichnung", "Betrag"], ["1000", "Gehalt", fmt.fmt_amount(g, a)],
                    ["1200", extra_name, fmt.fmt_amount(e, a)], ["1300", "VWL AG-Anteil", fmt.fmt_amount(vwl, a)]]
            title = f"Abrechnung der Brutto/Netto-Bezüge für {_period(d, 'de')}"
            tail = f"Überweisung an {emp.name}, IBAN {bank}"
        else:
            rows = [["Payments", "Amount"], ["Basic pay", fmt.fmt_amount(g, a)], [extra_name, fmt.fmt_amount(e, a)]]
            title = f"Payslip for {_period(d, 'en')}"
            tail = f"Paid by BACS to account ending {bank}"
        rows += [["", lab, fmt.fmt_amount(v, a)] if de else [lab, fmt.fmt_amount(v, a)] for lab, v in zip(labels, ded, strict=True)]
        rows.append(["", "Auszahlungsbetrag", fmt.fmt_amount(net, a)] if de else ["Net pay", fmt.fmt_amount(net, a)])
        blocks: list[Block] = [("line", corr.name), ("line", f"{corr.street}, {corr.plz} {corr.city}"),
                               ("blank", ""), ("line", emp.name), ("line", emp.street), ("line", f"{emp.plz} {emp.city}"),
                               ("blank", ""), ("line", title), ("kv", personal), ("table", rows), ("line", tail)]
        if not static:
            blocks.append(("line", f"{'Jahressumme brutto' if de else 'Gross pay to date'}: {fmt.fmt_amount((g + e) * (k + 1), a)}"))
        blocks += [("para", x) for x in notes]
        docs.append(Doc(title if rng.random() < 0.7 else C.scan_title(rng, d), blocks, d, corr.name, corr.lang))
    return docs


BANK_TEXT_DE = ("Bitte erheben Sie Einwendungen gegen einzelne Buchungen unverzüglich. Schecks, Wechsel und sonstige "
                "Lastschriften schreiben wir unter dem Vorbehalt des Eingangs gut. Der angegebene Kontostand "
                "berücksichtigt nicht die Wertstellung der Buchungen. Guthaben sind als Einlagen nach Maßgabe des "
                "Einlagensicherungsgesetzes entschädigungsfähig. Nähere Informationen können dem Informationsbogen "
                "für den Einleger entnommen werden.")
BANK_TEXT_EN = ("Please check this statement carefully and tell us about any entries you do not recognise as soon as "
                "possible. Your eligible deposits are protected up to a total of £85,000 by the Financial Services "
                "Compensation Scheme. Overdraft interest is calculated daily and charged monthly in arrears.")


def bank_statement(rng: random.Random, corr: fmt.Correspondent, n: int, start: dt.date) -> list[Doc]:
    de, a = corr.lang == "de", corr.amount_style
    owner = fmt.person(rng, corr.lang)
    iban = fmt.iban_de(rng, spaced=True) if de else fmt.iban_gb(rng, spaced=True)
    recurring = [("Miete " + owner.street if de else "Rent " + owner.street, -round(rng.uniform(600, 1500), 2)),
                 (("Gehalt " if de else "Salary ") + fmt.org_name(rng, corr.lang), round(rng.uniform(2000, 4500), 2)),
                 (("Lastschrift " if de else "DD ") + fmt.org_name(rng, corr.lang, "Versicherung" if de else "Insurance"),
                  -round(rng.uniform(20, 120), 2))]
    for label in rng.sample(["Telefonica Germany", "Vodafone GmbH", "Netflix International", "Fitnessstudio FitX",
                             "Rundfunk ARD ZDF DRadio", "Stadtwerke Abschlag", "Sparplan ETF Depot"], k=rng.randint(1, 4)):
        recurring.append((("Lastschrift " if de else "DD ") + label, -round(rng.uniform(5, 90), 2)))
    merch = MERCHANTS if de else MERCHANTS_EN
    extra = boiler.paragraphs(rng, "bank_de" if de else "bank_en", 7, 15)
    bal = round(rng.uniform(200, 9000), 2)
    docs = []
    for k in range(n):
        d0 = fmt.add_months(start, k).replace(day=1)
        d1 = fmt.add_months(d0, 1) - dt.timedelta(days=1)
        tx = [(d0 + dt.timedelta(days=rng.randint(0, 3)), t, v) for t, v in recurring]
        for _ in range(rng.randint(0, 5)):
            tx.append((d0 + dt.timedelta(days=rng.randint(0, 27)), rng.choice(merch) + " " + fmt.digits(rng, 6),
                       -round(rng.uniform(3, 180), 2)))
        tx.sort(key=lambda t: t[0])
        rows = [[fmt.fmt_date(t[0], "dmy_dot" if de else corr.date_style), t[1], fmt.fmt_amount(t[2], a)] for t in tx]
        new = round(bal + sum(t[2] for t in tx), 2)
        kv = [("Kontoinhaber" if de else "Account holder", owner.name), ("IBAN", iban),
              ("Kontoauszug" if de else "Statement", f"{d0.month}/{d0.year}"),
              ("Zeitraum" if de else "Period", f"{fmt.fmt_date(d0, corr.date_style)} - {fmt.fmt_date(d1, corr.date_style)}")]
        blocks: list[Block] = [("line", corr.name), ("line", "Kontoauszug" if de else "Statement of account"), ("kv", kv),
                               ("line", f"{'Alter Kontostand' if de else 'Opening balance'} {fmt.fmt_amount(bal, a)}"),
                               ("table", rows),
                               ("line", f"{'Neuer Kontostand' if de else 'Closing balance'} {fmt.fmt_amount(new, a)}"),
                               ("para", BANK_TEXT_DE if de else BANK_TEXT_EN)]
        blocks += [("para", x) for x in extra] + [("line", x) for x in corr.footer()]
        bal = new
        docs.append(Doc(f"{'Kontoauszug' if de else 'Statement'} {d0.month}/{d0.year}", blocks, d1, corr.name, corr.lang))
    return docs


UTIL_TEXT_DE = ("Informationen nach § 40 EnWG: Bei Fragen oder Beschwerden wenden Sie sich bitte an unseren "
                "Kundenservice. Zur Beilegung von Streitigkeiten kann ein Schlichtungsverfahren bei der "
                "Schlichtungsstelle Energie e.V., Friedrichstraße 133, 10117 Berlin, beantragt werden. "
                "Voraussetzung ist, dass unser Kundenservice angerufen und keine beidseitig zufriedenstellende "
                "Lösung gefunden wurde. Der Verbraucherservice der Bundesnetzagentur für den Bereich Elektrizität "
                "und Gas stellt Verbrauchern Informationen über das geltende Recht zur Verfügung.")
UTIL_TEXT_EN = ("If you have a complaint, please contact us first. If we cannot resolve it within eight weeks you can "
                "refer it to the Energy Ombudsman, which is free and independent. You may be able to save money by "
                "switching to a different tariff; see our website for details of all current tariffs.")


def utility_bill(rng: random.Random, corr: fmt.Correspondent, n: int, start: dt.date) -> list[Doc]:
    de, a = corr.lang == "de", corr.amount_style
    to = fmt.person(rng, corr.lang)
    head = _head(corr, to, rng)
    yearly = rng.random() < 0.5
    meter = fmt.digits(rng, 8)
    malo = fmt.digits(rng, 11)
    acct = fmt.digits(rng, 9)
    mix = [[src, f"{v} %"] for src, v in zip(["Kernkraft", "Kohle", "Erdgas", "Erneuerbare", "Sonstige"],
                                              [0, rng.randint(10, 30), rng.randint(5, 20), rng.randint(40, 70), 3],
                                              strict=True)]
    extra = boiler.paragraphs(rng, "energy_de" if de else "energy_en", 3, 8)
    price = round(rng.uniform(0.25, 0.45), 4)
    base = round(rng.uniform(8, 15), 2)
    reading = rng.randint(1000, 60000)
    docs = []
    for k in range(n):
        d = fmt.add_months(start, 12 * k if yearly else k)
        use = rng.randint(1800, 4500) if yearly else rng.randint(150, 420)
        months = 12 if yearly else 1
        cost = round(use * price + base * months, 2)
        paid = round(cost * rng.uniform(0.85, 1.1), 2)
        title = (("Jahresverbrauchsabrechnung Strom " + str(d.year - 1)) if yearly else ("Stromrechnung " + _period(d, "de"))) \
            if de else (("Annual electricity statement " + str(d.year - 1)) if yearly else ("Electricity bill " + _period(d, "en")))
        kv = [("Kundennummer" if de else "Account number", acct), ("Zählernummer" if de else "Meter serial", meter),
              ("Marktlokation" if de else "MPAN", malo),
              ("Rechnungsdatum" if de else "Bill date", fmt.fmt_date(d, corr.date_style))]
        rows = [["Zählerstand alt" if de else "Previous reading", str(reading)],
                ["Zählerstand neu" if de else "Current reading", str(reading + use)],
                ["Verbrauch kWh" if de else "Units used kWh", str(use)],
                ["Arbeitspreis" if de else "Unit rate", f"{price:.4f}".replace(".", "," if de else ".")],
                ["Grundpreis" if de else "Standing charge", fmt.fmt_amount(base * months, a)],
                ["Gesamtbetrag" if de else "Total charges", fmt.fmt_amount(cost, a)],
                ["Geleistete Abschläge" if de else "Payments received", fmt.fmt_amount(paid, a)],
                ["Nachzahlung" if cost > paid and de else ("Guthaben" if de else "Balance"), fmt.fmt_amount(abs(cost - paid), a)]]
        reading += use
        blocks = head + [("line", title), ("kv", kv), ("table", rows), ("para", UTIL_TEXT_DE if de else UTIL_TEXT_EN)]
        if de:
            blocks += [("line", "Stromkennzeichnung gemäß § 42 EnWG"), ("table", mix)]
        blocks += [("para", x) for x in extra] + [("line", x) for x in corr.footer()]
        docs.append(Doc(title, blocks, d, corr.name, corr.lang))
    return docs
