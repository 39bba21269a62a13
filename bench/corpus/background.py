"""Unrelated background documents of many types and several writing styles."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from . import common as C
from . import fmt
from . import vocab as V
from .prose import Block, Doc, Prose

Maker = Callable[[random.Random, fmt.Correspondent, dt.date, int], Doc]


def _prose(rng: random.Random, corr: fmt.Correspondent, created: dt.date, topic: str | None = None) -> Prose:
    return Prose(rng, corr.lang, topic, corr.date_style, corr.amount_style, created)


def _title(rng: random.Random, created: dt.date, nice: str) -> str:
    return C.scan_title(rng, created) if rng.random() < 0.3 else nice


def make_letter(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int) -> Doc:
    p = _prose(rng, corr, created)
    to = fmt.person(rng, corr.lang)
    subj = C.subject(p)
    refs = [fmt.ref(rng, corr.lang, created.year)] if rng.random() < 0.6 else None
    body = p.paragraphs("formal", max(20, words - 60))
    blocks = C.letter(p, corr, to, created, subj, body, refs)
    if words > 700:
        blocks = C.split_pages(blocks, rng.randint(350, 500))
    return Doc(_title(rng, created, subj), blocks, created, corr.name, corr.lang)


def make_contract(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int) -> Doc:
    p = _prose(rng, corr, created)
    de = corr.lang == "de"
    other = fmt.person(rng, corr.lang)
    kind = rng.choice(["Dienstleistungsvertrag", "Wartungsvertrag", "Rahmenvertrag", "Nutzungsvertrag"] if de
                      else ["Service Agreement", "Maintenance Agreement", "Framework Agreement", "Licence Agreement"])
    blocks: list[Block] = [("line", kind.upper() if rng.random() < 0.5 else kind), ("blank", "")]
    blocks.append(("line", "zwischen" if de else "between"))
    blocks.extend(("line", ln) for ln in [corr.name, f"{corr.street}, {corr.plz} {corr.city}"])
    blocks.append(("line", "– nachfolgend „Auftragnehmer“ –" if de else '(the "Contractor")'))
    blocks.append(("line", "und" if de else "and"))
    blocks.extend(("line", ln) for ln in [other.name, f"{other.street}, {other.plz} {other.city}"])
    blocks.append(("line", "– nachfolgend „Auftraggeber“ –" if de else '(the "Client")'))
    blocks.append(("blank", ""))
    heads = (["Vertragsgegenstand", "Leistungsumfang", "Vergütung", "Laufzeit und Kündigung", "Haftung",
              "Vertraulichkeit", "Datenschutz", "Mitwirkungspflichten", "Gewährleistung", "Schlussbestimmungen"]
             if de else ["Subject matter", "Scope of services", "Fees", "Term and termination", "Liability",
                         "Confidentiality", "Data protection", "Client obligations", "Warranty", "General"])
    total, i = 0, 0
    while total < words - 60:
        head = heads[i % len(heads)] if i < len(heads) else p.slot("n").capitalize()
        blocks.append(("line", f"§ {i + 1} {head}" if de else f"{i + 1}. {head}"))
        for _ in range(rng.randint(1, 3)):
            para = p.paragraph("legal", rng.randint(2, 4))
            blocks.append(("para", para))
            total += para.count(" ") + 1
        i += 1
    blocks.append(("blank", ""))
    sign = f"{corr.city}, den ________" if de else "Signed: ______________   Date: ________"
    blocks.extend([("line", sign), ("line", f"{corr.contact}            {other.name}")])
    if words > 600:
        blocks = C.split_pages(blocks, rng.randint(400, 550))
    return Doc(_title(rng, created, kind), blocks, created, corr.name, corr.lang)


def make_receipt(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int) -> Doc:
    de = corr.lang == "de"
    pool = V.DE_SHOP_ITEMS if de else V.EN_SHOP_ITEMS
    a = corr.amount_style
    picked = rng.sample(pool, k=min(len(pool), max(2, words // 4)))
    rows = [[fmt.sp(it), fmt.fmt_amount(rng.uniform(0.4, 9.9), a)] for it in picked]
    total = sum(rng.uniform(0.4, 9.9) for _ in picked)
    blocks: list[Block] = [("line", corr.name.upper()), ("line", f"{corr.street}, {corr.city}"), ("blank", "")]
    blocks.append(("table", rows))
    blocks.append(("line", f"{'SUMME' if de else 'TOTAL'}  {fmt.fmt_amount(total, a)}"))
    blocks.append(("line", ("Kartenzahlung girocard" if de else "Card payment VISA") + f" ****{fmt.digits(rng, 4)}"))
    t = f"{rng.randint(8, 21):02d}:{rng.randint(0, 59):02d}"
    bon = f"Bon {fmt.digits(rng, 5)}  Kasse {rng.randint(1, 9)}" if de else f"Receipt {fmt.digits(rng, 5)}  Till {rng.randint(1, 9)}"
    blocks.append(("line", f"{fmt.fmt_date(created, corr.date_style)} {t}  {bon}"))
    blocks.append(("line", "Vielen Dank für Ihren Einkauf!" if de else "Thank you for shopping with us!"))
    return Doc(_title(rng, created, ("Kassenbon " if de else "Receipt ") + corr.name), blocks, created,
               corr.name, corr.lang)


def make_tax_notice(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int) -> Doc:
    p = _prose(rng, corr, created, "finanzen" if corr.lang == "de" else "finance")
    to = fmt.person(rng, corr.lang)
    a = corr.amount_style
    year = created.year - 1
    if corr.lang == "de":
        head = [f"Bescheid für {year} über Einkommensteuer, Solidaritätszuschlag und Kirchensteuer"]
        refs = [("Steuernummer", fmt.fill_ref(rng, "{n3}/{n3}/{n5}", year)), ("Datum", fmt.fmt_date(created, "dmy_dot"))]
        labels = ["Summe der Einkünfte", "Gesamtbetrag der Einkünfte", "Sonderausgaben", "zu versteuerndes Einkommen",
                  "festgesetzte Einkommensteuer", "Solidaritätszuschlag", "Kirchensteuer", "abzüglich Lohnsteuer"]
        legal = "Rechtsbehelfsbelehrung: Der Bescheid kann mit dem Einspruch angefochten werden."
    else:
        head = [f"Tax calculation for the year ended 5 April {year}"]
        refs = [("Unique Taxpayer Reference", fmt.digits(rng, 10)), ("Date", fmt.fmt_date(created, corr.date_style))]
        labels = ["Pay from employment", "Total income", "Personal allowance", "Taxable income", "Income tax due",
                  "Class 4 NIC", "Tax deducted at source", "Balance"]
        legal = "If you think this calculation is wrong, you must tell us within 30 days."
    rows = [[lab, fmt.fmt_amount(rng.uniform(100, 90000), a)] for lab in labels[: rng.randint(5, len(labels))]]
    body = p.paragraphs("formal", max(30, words - 120), 2, 4)
    blocks = C.letter(p, corr, to, created, head[0], body[:1], refs, footer=False)
    k = next(i for i, b in enumerate(blocks) if b[0] == "para") + 1
    blocks[k:k] = [("table", rows), ("blank", "")] + [("para", b) for b in body[1:]] + [("para", legal)]
    return Doc(_title(rng, created, head[0][:60]), blocks, created, corr.name, corr.lang)


def make_doctor_letter(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int) -> Doc:
    p = _prose(rng, corr, created, "gesundheit" if corr.lang == "de" else "health")
    patient = fmt.person(rng, corr.lang)
    de = corr.lang == "de"
    subj = (f"Arztbrief – {patient.name}, geb. {fmt.fmt_date(fmt.random_date(rng, 1940, 2010), 'dmy_dot')}" if de
            else f"Clinic letter - {patient.name}, DOB {fmt.fmt_date(fmt.random_date(rng, 1940, 2010), 'dmy_long_en')}")
    secs = ["Diagnosen", "Anamnese", "Befund", "Therapie und Verlauf", "Procedere"] if de else \
        ["Diagnoses", "History", "Examination", "Management", "Plan"]
    body: list[Block] = []
    per = max(15, words // len(secs))
    for s in secs:
        body.append(("line", s + ":"))
        body.extend(("para", t) for t in p.paragraphs("medical", per, 1, 4))
    doctor = fmt.person(rng, corr.lang)
    blocks: list[Block] = [("line", ln) for ln in corr.letterhead()] + [("blank", ""), ("line", subj), ("blank", "")]
    blocks += body + [("blank", ""), ("line", ("Dr. med. " if de else "Dr ") + doctor.name)]
    return Doc(_title(rng, created, subj.split(",")[0]), blocks, created, corr.name, corr.lang)


def make_policy(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int) -> Doc:
    p = _prose(rng, corr, created, "versicherung" if corr.lang == "de" else "insurance")
    de = corr.lang == "de"
    holder = fmt.person(rng, corr.lang)
    a = corr.amount_style
    title = rng.choice(["Versicherungsschein", "Nachtrag zum Versicherungsschein", "Police"] if de
                       else ["Policy schedule", "Certificate of insurance", "Policy endorsement"])
    kv = ([("Versicherungsschein-Nr.", fmt.fill_ref(rng, "{n2}.{n3}.{n6}", created.year)),
           ("Versicherungsnehmer", holder.name), ("Beginn", fmt.fmt_date(created, corr.date_style)),
           ("Jahresbeitrag", fmt.fmt_amount(rng.uniform(60, 1900), a))] if de else
          [("Policy No.", fmt.fill_ref(rng, "{AB}{n9}", created.year)), ("Policyholder", holder.name),
           ("Start date", fmt.fmt_date(created, corr.date_style)), ("Annual premium", fmt.fmt_amount(rng.uniform(60, 1900), a))])
    cover = [[fmt.sp(p.slot("n")), fmt.fmt_amount(rng.choice([5e4, 1e5, 5e5, 1e6, 3e6]), a)] for _ in range(rng.randint(3, 7))]
    blocks: list[Block] = [("line", ln) for ln in corr.letterhead()] + [("blank", ""), ("line", title), ("kv", kv), ("table", cover)]
    blocks += [("para", t) for t in p.paragraphs(rng.choice(["legal", "formal"]), max(40, words - 80))]
    blocks += [("blank", "")] + [("line", ln) for ln in corr.footer()]
    if words > 600:
        blocks = C.split_pages(blocks, rng.randint(380, 520))
    return Doc(_title(rng, created, title), blocks, created, corr.name, corr.lang)


def make_delivery(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int, order: bool = False) -> Doc:
    p = _prose(rng, corr, created)
    de = corr.lang == "de"
    to = fmt.person(rng, corr.lang)
    lines = C.items(rng, corr.lang, rng.randint(1, 8))
    if order:
        title = "Auftragsbestätigung" if de else "Order confirmation"
        kv = [("Bestellnummer" if de else "Order No.", fmt.fill_ref(rng, "B{n7}" if de else "ORD-{n7}", created.year)),
              ("Liefertermin" if de else "Delivery date", p.date())]
    else:
        title = "Lieferschein" if de else "Delivery note"
        kv = [("Lieferschein-Nr." if de else "Delivery note No.", fmt.digits(rng, 8)),
              ("Versandart" if de else "Shipped via", rng.choice(["DHL", "DPD", "UPS", "Hermes", "GLS", "Spedition"]))]
    rows = C.items_table(corr.lang, lines, corr.amount_style)
    if not order:
        rows = [r[:3] for r in rows]
    blocks: list[Block] = [("line", ln) for ln in corr.letterhead()] + [("blank", "")]
    blocks += [("line", ln) for ln in to.address_lines(rng)] + [("blank", ""), ("line", title), ("kv", kv), ("table", rows)]
    if order:
        tot, _ = C.totals(corr.lang, lines, corr.amount_style)
        blocks.append(("kv", tot))
    extra = max(0, words - 60)
    if extra:
        blocks += [("para", t) for t in p.paragraphs("formal", extra, 1, 4)]
    blocks += [("line", ln) for ln in corr.footer()]
    return Doc(_title(rng, created, f"{title} {kv[0][1]}"), blocks, created, corr.name, corr.lang)


def make_order(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int) -> Doc:
    return make_delivery(rng, corr, created, words, order=True)


def make_report(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int) -> Doc:
    p = _prose(rng, corr, created)
    de = corr.lang == "de"
    title = f"{rng.choice(['Bericht', 'Jahresbericht', 'Prüfbericht', 'Projektbericht', 'Gutachten'] if de else ['Report', 'Annual report', 'Inspection report', 'Project report', 'Assessment'])} {p.slot('n')} {created.year}"
    blocks: list[Block] = [("line", corr.name), ("line", title), ("line", p.date()), ("blank", "")]
    total, sec = 0, 1
    while total < words:
        blocks.append(("line", f"{sec}. {p.slot('n').capitalize()}"))
        for para in p.paragraphs("report", rng.randint(80, 400), 3, 7):
            blocks.append(("para", para))
            total += para.count(" ") + 1
        if rng.random() < 0.3:
            rows = [[p.slot("n"), str(rng.randint(1, 999)), p.slot("pct")] for _ in range(rng.randint(2, 6))]
            blocks.append(("table", rows))
        sec += 1
    blocks = C.split_pages(blocks, rng.randint(350, 550))
    return Doc(_title(rng, created, title), blocks, created, corr.name, corr.lang)


def make_manual(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int) -> Doc:
    p = _prose(rng, corr, created, rng.choice(["it", "haus", "telekom"] if corr.lang == "de" else ["it", "house", "telecom"]))
    de = corr.lang == "de"
    model = f"{rng.choice(['X', 'Pro', 'S', 'Eco', 'Max'])}-{rng.randint(100, 9900)}"
    title = f"{'Bedienungsanleitung' if de else 'User manual'} {corr.name.split()[0]} {model}"
    blocks: list[Block] = [("line", title), ("blank", "")]
    total, ch = 0, 1
    while total < words:
        blocks.append(("line", f"{ch} {p.slot('n').capitalize()}"))
        numbered = rng.random() < 0.7
        for k in range(rng.randint(3, 9)):
            s = p.sentence("manual")
            blocks.append(("line", f"{k + 1}. {s}" if numbered else s))
            total += s.count(" ") + 2
        ch += 1
    if words > 500:
        blocks = C.split_pages(blocks, 400)
    return Doc(title, blocks, created, corr.name, corr.lang)


def make_school(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int) -> Doc:
    p = _prose(rng, corr, created, "schule" if corr.lang == "de" else "school")
    to = fmt.person(rng, corr.lang)
    subj = C.subject(p)
    blocks = C.letter(p, corr, to, created, subj, p.paragraphs("formal", max(30, words - 50), 2, 5), footer=False)
    if rng.random() < 0.5:
        blocks.append(("line", "- - - - - - - - - - - - - - - - - - - -"))
        blocks.append(("line", "Rückmeldung bis " + p.date() + ": ___ Name des Kindes: ________ Klasse: ___" if corr.lang == "de"
                       else "Reply slip by " + p.date() + ": ___ Pupil name: ________ Class: ___"))
    return Doc(_title(rng, created, subj), blocks, created, corr.name, corr.lang)


def make_invoice(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int) -> Doc:
    p = _prose(rng, corr, created)
    de = corr.lang == "de"
    to = fmt.person(rng, corr.lang)
    lines = C.items(rng, corr.lang, rng.randint(1, 7))
    tot, gross = C.totals(corr.lang, lines, corr.amount_style)
    num = fmt.fill_ref(rng, "RE-{y}-{n5}" if de else "INV-{y}-{n4}", created.year)
    refs = [("Rechnungsnummer" if de else "Invoice No.", num), ("Kundennummer" if de else "Customer No.", fmt.digits(rng, 5))]
    body = p.paragraphs("formal", max(10, words - 90), 1, 3)
    blocks = C.letter(p, corr, to, created, ("Rechnung " if de else "Invoice ") + num, body[:1], refs)
    k = next(i for i, b in enumerate(blocks) if b[0] == "para") + 1
    blocks[k:k] = [("table", C.items_table(corr.lang, lines, corr.amount_style)), ("kv", tot)] + [("para", b) for b in body[1:]]
    return Doc(_title(rng, created, ("Rechnung " if de else "Invoice ") + num), blocks, created, corr.name, corr.lang)


def make_notes(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int) -> Doc:
    p = _prose(rng, corr, created)
    de = corr.lang == "de"
    title = rng.choice(["Protokoll", "Notizen", "Gesprächsnotiz", "Besprechung"] if de else ["Minutes", "Notes", "Call notes", "Meeting"])
    blocks: list[Block] = [("line", f"{title} {p.date(created)}"), ("line", ("Teilnehmer: " if de else "Attendees: ") + ", ".join(x.name for x in p.people)), ("blank", "")]
    total, top = 0, 1
    while total < words:
        blocks.append(("line", f"TOP {top}: {p.slot('n')}" if de else f"Item {top}: {p.slot('n')}"))
        for _ in range(rng.randint(2, 6)):
            s = p.sentence(rng.choice(["notes", "notes", "formal", "report"]))
            blocks.append(("line", s))
            total += s.count(" ") + 1
        top += 1
    return Doc(f"{title} {created.isoformat()}", blocks, created, corr.name, corr.lang)


def make_email(rng: random.Random, corr: fmt.Correspondent, created: dt.date, words: int) -> Doc:
    p = _prose(rng, corr, created)
    de = corr.lang == "de"
    to = fmt.person(rng, corr.lang)
    subj = C.subject(p)
    hdr = [("Von" if de else "From", f"{corr.contact} <{corr.email}>"), ("An" if de else "To", to.name),
           ("Betreff" if de else "Subject", subj), ("Datum" if de else "Date", fmt.fmt_date(created, corr.date_style))]
    blocks: list[Block] = [("kv", hdr), ("blank", ""), ("line", C.salutation(rng, corr.lang, to))]
    blocks += [("para", t) for t in p.paragraphs(rng.choice(["formal", "notes", "formal"]), max(15, words - 30), 1, 4)]
    blocks += [("line", "Viele Grüße" if de else "Best"), ("line", corr.contact)]
    return Doc(subj, blocks, created, corr.name, corr.lang)


# name -> (maker, min words, max words, weight)
TYPES: dict[str, tuple[Maker, int, int, float]] = {
    "letter": (make_letter, 60, 900, 5.0),
    "contract": (make_contract, 300, 3000, 1.5),
    "receipt": (make_receipt, 25, 90, 1.5),
    "tax_notice": (make_tax_notice, 200, 900, 0.8),
    "doctor_letter": (make_doctor_letter, 120, 700, 1.2),
    "policy": (make_policy, 250, 2000, 1.0),
    "delivery_note": (make_delivery, 30, 200, 1.0),
    "order_confirmation": (make_order, 60, 400, 1.0),
    "report": (make_report, 300, 3000, 1.5),
    "manual": (make_manual, 150, 1500, 0.8),
    "school_letter": (make_school, 80, 400, 0.8),
    "invoice": (make_invoice, 60, 300, 2.0),
    "notes": (make_notes, 30, 400, 1.0),
    "email": (make_email, 30, 350, 1.5),
}
TYPE_CORR_KIND = {
    "doctor_letter": "doctor", "policy": "insurer", "school_letter": "school", "tax_notice": "authority",
    "receipt": "shop",
}


def make(rng: random.Random, kind: str, corr: fmt.Correspondent, created: dt.date, words: int | None = None) -> Doc:
    fn, lo, hi, _ = TYPES[kind]
    if words is None:
        words = int(lo * (hi / lo) ** rng.random())
    doc = fn(rng, corr, created, words)
    doc.meta["type"] = kind
    return doc
