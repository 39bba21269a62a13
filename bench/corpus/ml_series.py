"""Hard negatives of the multilingual corpus: template families whose members are NOT duplicates.

A family is one template of one correspondent (``kind``) and what changes from member to member
(``varies``).  Most families change ONE value and nothing else, so that only an extractor that reads
the value in that language can tell the members apart:

``date_words``    a date written in words (``5 mars 2024``, ``1er août 2024``, ``martes, 5 de marzo de 2024``)
``month_year``    month and year (``mars 2024``, ``marzo de 2024``); no other date on the page
``numeric_date``  a numeric date in the language's day/month order (``05/03/2024``, ``05-03-2024``)
``street``        a street address (``12 rue de la République``, ``Calle Mayor, 12``, ``Kerkstraat 12``)
``identifier``    a labelled alphanumeric identifier (``N° de police KJ89956964``, ``Factuurnummer 2024…``)
``amount``        an amount in a local format (``1 234,56 €``, ``€ 1.234,56``, ``1'234.50 CHF``)
``numbers``       what a real series changes: dates, identifiers, amounts and other numbers together
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from . import fmt
from . import ml_fmt as F
from .ml_lang import Lang
from .prose import Block

VARIES = ("date_words", "month_year", "numeric_date", "street", "identifier", "amount", "numbers")

# kind -> (correspondent kind, what may vary, the identifier's label key)
KINDS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "invoice_series": ("company", ("identifier", "amount", "numbers"), "invoice_no"),
    "payslip": ("employer", ("month_year", "numbers"), "employee_no"),
    "bank_statement": ("bank", ("numeric_date", "numbers"), "customer_no"),
    "utility_bill": ("utility", ("month_year", "numbers"), "customer_no"),
    "insurer_letters": ("insurer", ("identifier", "street", "date_words"), "policy_no"),
    "payment_reminder": ("company", ("identifier", "amount", "date_words"), "invoice_no"),
    "tenancy_form": ("landlord", ("month_year", "street", "numbers"), "contract_no"),
    "dated_letter": ("company", ("date_words", "numeric_date"), "reference"),
    "ticket": ("transport", ("date_words", "numbers"), "booking_ref"),
}
SECOND_ID = {"invoice_series": "order_no", "payslip": "reference", "bank_statement": "reference",
             "utility_bill": "contract_no", "insurer_letters": "contract_no", "payment_reminder": "reference",
             "tenancy_form": "reference", "dated_letter": "customer_no", "ticket": "order_no"}


@dataclass
class Ctx:
    """One family: its language, sender, recipient, and the numbers drawn once (or per member for ``numbers``)."""

    rng: random.Random
    lang: Lang
    corr: F.Corr
    to: fmt.Person
    varies: str
    second: Lang | None = None  # a mixed family: the address block and a footer line in this language
    fixed: dict[str, object] = field(default_factory=dict)

    def t(self, key: str, **values: object) -> str:
        return F.fill(self.lang.text[key], **values)

    def once(self, key: str, make: Callable[[], object]) -> object:
        if key not in self.fixed:
            self.fixed[key] = make()
        return self.fixed[key]

    def num(self, key: str, lo: float, hi: float, digits: int = 2) -> float:
        """A number that is the same for every member unless the family varies in ``numbers``."""
        if self.varies == "numbers":
            return round(self.rng.uniform(lo, hi), digits)
        return float(self.once(key, lambda: round(self.rng.uniform(lo, hi), digits)))  # type: ignore[arg-type]

    def amt(self, x: float) -> str:
        return F.amount(self.lang, x, self.corr.amount_index)

    def label(self, key: str) -> str:
        """The family's label for ``key``; a mixed family prints half of its labels in both
        languages ("N° de facture / Rechnungsnummer"), as Swiss and Belgian forms do."""
        def make() -> str:
            label = self.rng.choice(self.lang.labels[key])
            if self.second is not None and self.rng.random() < 0.5:
                label += " / " + self.rng.choice(self.second.labels[key])
            return label
        return str(self.once("label:" + key, make))

    def fixed_text(self, key: str, make: Callable[[], str]) -> str:
        return str(self.once(key, make))


def _head(c: Ctx, v: dict[str, str]) -> list[Block]:
    blocks: list[Block] = [("line", x) for x in [*c.corr.letterhead(), ""]]
    blocks += [("line", x) for x in [*F.address_lines(c.to), ""]]
    if v["date"]:
        blocks.append(("line", c.t("place_date", city=c.corr.city, date=v["date"])))
    return blocks


def _tail(c: Ctx, closing: str = "regards_short") -> list[Block]:
    out: list[Block] = [("line", c.t(closing)), ("line", c.corr.contact), ("line", c.corr.name), ("blank", "")]
    out += [("line", x) for x in c.corr.footer()]
    if c.second is not None:  # a bilingual footer, as Swiss and Belgian companies print it
        out.append(("line", F.fill(c.second.text["confidential"])))
        out.append(("para", c.fixed_text("second_terms", lambda: F.paragraph(c.rng, c.second, 2, 0.5))))  # type: ignore[arg-type]
    return out


def _kv(pairs: list[tuple[str, str]]) -> Block:
    return ("kv", [(k, x) for k, x in pairs if x])


def _second(c: Ctx, v: dict[str, str], kind: str) -> list[tuple[str, str]]:
    """The second identifier and the second date (a deadline, the end of a period) of a member."""
    return [(c.label(SECOND_ID[kind]), v["ident2"]), (c.label("due_date"), v["date2"])]


def invoice(c: Ctx, v: dict[str, str]) -> list[Block]:
    items: list[str] = c.once("items", lambda: c.rng.sample(list(c.lang.items), k=c.rng.randint(2, 4)))  # type: ignore[assignment]
    rows = [[c.t("col_item"), c.t("col_qty"), c.t("col_price"), c.t("col_amount")]]
    for i, item in enumerate(items):
        qty, price = int(c.num(f"q{i}", 1, 6, 0)), c.num(f"p{i}", 9, 400)
        rows.append([item, str(qty), c.amt(price), c.amt(qty * price)])
    due = c.fixed_text("due", lambda: F.date(c.lang, fmt.random_date(c.rng, 2014, 2015), "numeric", 0))
    blocks = _head(c, v) + [("line", c.t("invoice")), _kv([*_second(c, v, "invoice_series"),
        (c.label("invoice_no"), v["ident"]), (c.label("invoice_date"), v["date"]),
        (c.label("customer_no"), c.fixed_text("cust", lambda: F.shape(c.rng, c.lang.id_shapes["customer_no"], 2020))),
        (c.label("period"), v["period"])]), ("blank", ""), ("line", c.t("dear")), ("para", c.t("invoice_intro")),
        ("table", rows), _kv([(c.t("subtotal"), v["net"]), (c.t("vat"), v["vat"]), (c.t("total_due"), v["amount"])]),
        ("para", c.t("invoice_pay", amount=v["amount"], date=due, ref=v["ident"])),
        ("para", c.t("invoice_terms"))]
    return blocks + _tail(c)


def payslip(c: Ctx, v: dict[str, str]) -> list[Block]:
    gross = c.num("gross", 1800, 6500)
    rows = [[c.lang.pay_rows[0], c.amt(gross)]]
    rows += [[name, c.amt(c.num("pay" + name, 20, 400))] for name in c.lang.pay_rows[1:3]]
    rows += [[name, c.amt(gross * c.num("rate" + name, 0.01, 0.09, 4))] for name in c.lang.deduction_rows]
    rows.append([c.t("net_pay"), v["amount"]])
    blocks: list[Block] = [("line", c.corr.name), ("line", f"{c.corr.street}, {c.corr.plz} {c.corr.city}"), ("blank", "")]
    blocks += [("line", x) for x in F.address_lines(c.to)] + [("blank", "")]
    blocks += [("line", f"{c.t('payslip')} {v['period']}".strip()), _kv([*_second(c, v, "payslip"),
        (c.label("employee_no"), v["ident"]),
        (c.label("social_no"), c.fixed_text("sv", lambda: F.shape(c.rng, c.lang.id_shapes["social_no"], 2020))),
        (c.label("period"), v["period"]), (c.label("date"), v["date"])]),
        ("table", rows), ("line", f"{c.t('gross_pay')}: {c.amt(gross)}"),
        ("line", f"{c.t('employer_cost')}: {c.amt(gross * 0.21)}"), ("para", c.t("payslip_note"))]
    return blocks


def bank_statement(c: Ctx, v: dict[str, str], month: dt.date) -> list[Block]:
    def tx() -> list[list[str]]:
        day = month.replace(day=1)
        out = []
        for _ in range(c.rng.randint(4, 9)):
            d = day + dt.timedelta(days=c.rng.randint(0, 27))
            out.append([F.date(c.lang, d, "numeric", 0), f"{c.rng.choice(c.lang.tx_words)} {F.org_name(c.rng, c.lang)}",
                        c.amt(c.rng.uniform(-400, 300))])
        return sorted(out)
    rows = tx() if c.varies == "numbers" else c.once("tx", tx)
    iban = c.fixed_text("iban", lambda: F.iban(c.rng, c.lang))
    blocks: list[Block] = [("line", c.corr.name), ("line", c.t("statement")), _kv([*_second(c, v, "bank_statement"),
        (c.label("customer_no"), v["ident"]), ("IBAN", iban), (c.label("period"), v["period"]), (c.label("date"), v["date"])])]
    blocks += [("line", f"{c.t('opening')} {c.amt(c.num('open', 100, 9000))}"), ("table", rows),
               ("line", f"{c.t('closing')} {v['amount']}"), ("para", c.t("statement_text"))]
    return blocks + [("line", x) for x in c.corr.footer()]


def utility_bill(c: Ctx, v: dict[str, str]) -> list[Block]:
    old = int(c.num("old", 1000, 60000, 0))
    use = int(c.num("use", 150, 450, 0))
    title = c.t("schedule") if c.varies == "month_year" else c.t("utility")
    blocks = _head(c, v) + [("line", f"{title} {v['period']}".strip()), _kv([*_second(c, v, "utility_bill"),
        (c.label("customer_no"), v["ident"]),
        (c.label("meter_no"), c.fixed_text("meter", lambda: F.shape(c.rng, c.lang.id_shapes["meter_no"], 2020))),
        (c.label("invoice_date"), v["date"]), (c.label("period"), v["period"])]),
        ("table", [[c.t("meter_old"), str(old)], [c.t("meter_new"), str(old + use)], [c.t("consumption"), str(use)],
                   [c.t("unit_price"), c.amt(c.num("price", 0.2, 0.45, 4))], [c.t("standing"), c.amt(c.num("base", 8, 16))],
                   [c.t("advance"), v["amount"]]]), ("para", c.t("utility_text"))]
    return blocks + _tail(c)


def insurer_letters(c: Ctx, v: dict[str, str]) -> list[Block]:
    blocks = _head(c, v) + [_kv([*_second(c, v, "insurer_letters"),
        (c.label("policy_no"), v["ident"]),
        (c.label("customer_no"), c.fixed_text("cust", lambda: F.shape(c.rng, c.lang.id_shapes["customer_no"], 2020))),
        (c.t("insurer_risk"), f"{v['street']}, {c.to.plz} {c.to.city}")]),
        ("line", f"{c.t('subject')}: {c.t('insurer')}"), ("line", c.t("dear")), ("para", c.t("insurer_body")),
        _kv([(c.label("total"), v["amount"])]), ("line", c.t("regards")), ("line", c.corr.contact), ("blank", ""),
        ("para", c.t("insurer_footer"))]
    if c.second is not None:  # the legal footer in both languages
        blocks.append(("para", c.second.text["insurer_footer"]))
    return blocks + [("line", x) for x in c.corr.footer()]


def payment_reminder(c: Ctx, v: dict[str, str]) -> list[Block]:
    invoiced = c.fixed_text("invoiced", lambda: F.date(c.lang, fmt.random_date(c.rng, 2016, 2018), "words", 0))
    blocks = _head(c, v) + [("line", c.t("reminder")), _kv([*_second(c, v, "payment_reminder"),
        (c.label("customer_no"), c.fixed_text("cust", lambda: F.shape(c.rng, c.lang.id_shapes["customer_no"], 2020))),
        (c.label("invoice_no"), v["ident"])]), ("line", c.t("dear")),
        ("para", c.t("reminder_body", ref=v["ident"], date=invoiced, amount=v["amount"])),
        _kv([(c.t("subtotal"), v["net"]), (c.t("vat"), v["vat"]), (c.t("total_due"), v["amount"])]),
        ("para", c.t("reminder_more"))]
    return blocks + _tail(c, "regards")


def tenancy_form(c: Ctx, v: dict[str, str]) -> list[Block]:
    rent, charges = c.num("rent", 400, 1600), c.num("charges", 40, 300)
    title = c.fixed_text("title", lambda: c.rng.choice([c.t("tenancy"), c.t("receipt")]))
    blocks = _head(c, v) + [("line", f"{title} {v['period']}".strip()), _kv([*_second(c, v, "tenancy_form"),
        (c.label("contract_no"), v["ident"]), (c.t("premises"), f"{v['street']}, {c.to.plz} {c.to.city}"),
        (c.label("period"), v["period"])]),
        ("table", [[c.t("rent"), c.amt(rent)], [c.t("charges"), c.amt(charges)], [c.label("total"), v["amount"]]]),
        ("para", c.t("tenancy_body"))]
    return blocks + _tail(c)


def dated_letter(c: Ctx, v: dict[str, str]) -> list[Block]:
    body = c.once("body", lambda: F.paragraphs(c.rng, c.lang, c.rng.randint(60, 220)))
    blocks = _head(c, v) + [_kv([*_second(c, v, "dated_letter"), (c.label("reference"), v["ident"])]), ("line", f"{c.t('subject')}: {c.t('letter')}"),
                            ("line", c.t("dear_named", first=c.to.first, last=c.to.last)), ("para", c.t("letter_body"))]
    blocks += [("para", p) for p in body]  # type: ignore[attr-defined]
    return blocks + _tail(c, "regards")


def ticket(c: Ctx, v: dict[str, str]) -> list[Block]:
    route: list[tuple[str, str]] = c.once("route", lambda: c.rng.sample(list(c.lang.places), 2))  # type: ignore[assignment]
    a, b = route
    hour = int(c.num("hour", 6, 20, 0))
    blocks: list[Block] = [("line", c.corr.name), ("line", c.t("ticket")), _kv([*_second(c, v, "ticket"),
        (c.label("booking_ref"), v["ident"]), (c.t("passenger"), c.to.name),
        (c.t("train"), str(int(c.num("train", 100, 9800, 0)))), (c.label("date"), v["date"]),
        (c.t("departure"), f"{a[1]} {hour:02d}:{int(c.num('min', 0, 59, 0)):02d}"),
        (c.t("arrival"), f"{b[1]} {hour + 2:02d}:{int(c.num('min2', 0, 59, 0)):02d}"),
        (c.t("coach"), str(int(c.num("coach", 1, 18, 0)))), (c.t("seat"), str(int(c.num("seat", 1, 120, 0)))),
        (c.label("total"), v["amount"])]), ("para", c.t("ticket_terms"))]
    return blocks + [("line", x) for x in c.corr.footer()]


def _title(c: Ctx, kind: str, v: dict[str, str]) -> str:
    key = {"invoice_series": "invoice", "payslip": "payslip", "bank_statement": "statement", "utility_bill": "utility",
           "insurer_letters": "insurer", "payment_reminder": "reminder", "tenancy_form": "tenancy",
           "dated_letter": "letter", "ticket": "ticket"}[kind]
    return f"{c.t(key).capitalize()} {v['period'] or v['date'] or v['ident']}".strip()


def amounts(lang: Lang, corr: F.Corr, gross: float) -> dict[str, str]:
    """A gross amount with its net and VAT parts, in the correspondent's local format: an amount
    family changes all three (one weak conflict is no evidence of another document in any language)."""
    net = round(gross / 1.2, 2)
    return {"amount": F.amount(lang, gross, corr.amount_index), "net": F.amount(lang, net, corr.amount_index),
            "vat": F.amount(lang, gross - net, corr.amount_index)}


def _distinct_streets(rng: random.Random, lang: Lang, n: int) -> list[str]:
    """``n`` addresses that differ in the street's name, or, where names run out, in a house number
    two digits away: a neighbour's number one digit off is an OCR slip to the scoring in any language."""
    names = rng.sample(list(lang.street_names), len(lang.street_names))
    first = rng.randrange(len(lang.streets))
    base = rng.randint(1, 9)
    out = []
    for k in range(n):
        j = k // len(names)
        out.append(F.fill(lang.streets[(first + j) % len(lang.streets)], name=names[k % len(names)], n=base + 11 * j))
    return out


def family(rng: random.Random, lang: Lang, corr: F.Corr, kind: str, varies: str, n: int, start: dt.date,
           second: Lang | None = None) -> list[tuple[str, list[Block], dt.date, tuple[str, ...]]]:
    """``n`` members: (title, blocks, created, the values that vary: none for ``numbers``, else what
    the member writes differently: two dates, two months or two identifiers, or three amounts, or one street).

    Two values of one kind vary, not one: a single month or amount that differs is weak evidence for
    the scoring in any language (docs/quality.md), the corpus tests whether a language is READ."""
    c = Ctx(rng, lang, corr, F.person(rng, second or lang), varies, second)
    id_key, id2_key = KINDS[kind][2], SECOND_ID[kind]
    # a weekday before the date: tickets print one, letters rarely (and a weekday becomes part of the
    # extractor's slot label today, in German and English too: see bench.language_probe "weekday_slot")
    plain = [i for i, t in enumerate(lang.date_words) if "{weekday}" not in t]
    with_day = [i for i, t in enumerate(lang.date_words) if "{weekday}" in t]
    words = F.DateStyle("words", rng.choice(with_day if with_day and kind == "ticket" and rng.random() < 0.5 else plain))
    numeric = F.DateStyle("numeric", rng.randrange(len(lang.date_numeric)))
    my = F.DateStyle("month_year", rng.randrange(len(lang.month_year)))
    fixed_day = start - dt.timedelta(days=400)  # another year than any member's month: no overlap in text
    # a mixed family often dates its letters in the other language (a French letter from Zürich,
    # "Zürich, 5. März 2024"): what a document's language says about its dates is a guess
    dl = second if second is not None and rng.random() < 0.4 else lang
    base = {
        "date": "" if varies == "month_year" else (corr.date_style(dl, fixed_day)), "date2": "",
        "period": "" if varies in ("date_words", "numeric_date", "street") else my(dl, fixed_day),
        "street": F.street(rng, lang), "ident": F.shape(rng, lang.id_shapes[id_key], start.year),
        "ident2": F.shape(rng, lang.id_shapes[id2_key], start.year), **amounts(lang, corr, rng.uniform(20, 2500)),
    }
    keys = {"date_words": ("date", "date2"), "numeric_date": ("date", "date2"), "month_year": ("period", "date2"),
            "street": ("street",), "identifier": ("ident", "ident2"), "amount": ("amount", "net", "vat"), "numbers": ()}[varies]
    out: list[tuple[str, list[Block], dt.date, tuple[str, ...]]] = []
    seen: set[str] = set()
    streets = _distinct_streets(rng, lang, n) if varies == "street" else []
    step = rng.choice([1, 1, 1, 3]) if kind != "ticket" else 0
    later = rng.randint(10, 30)  # the second date: a deadline this many days later
    for k in range(n):
        d = fmt.add_months(start, k * step) if step else start + dt.timedelta(days=9 * k + rng.randint(0, 4))
        if varies in ("date_words", "numeric_date") and step and k:
            d = d.replace(day=1 + (k * 7 + rng.randint(0, 6)) % 28)  # not the same day of every month
        v = dict(base)
        for _ in range(50):
            due = d + dt.timedelta(days=later)
            if varies == "date_words":
                v.update(date=words(dl, d), date2=words(dl, due))
            elif varies == "month_year":
                v.update(period=my(dl, d), date2=my(dl, fmt.add_months(d, 11)))
            elif varies == "numeric_date":
                v.update(date=numeric(dl, d), date2=numeric(dl, due))
            elif varies == "street":
                v["street"] = streets[k]
            elif varies == "identifier":
                v.update(ident=F.shape(rng, lang.id_shapes[id_key], d.year), ident2=F.shape(rng, lang.id_shapes[id2_key], d.year))
            elif varies == "amount":
                v.update(amounts(lang, corr, rng.uniform(20, 2500)))
            else:
                v.update(date=corr.date_style(dl, d), date2=corr.date_style(dl, due),
                         period=my(dl, d) if base["period"] else "", ident=F.shape(rng, lang.id_shapes[id_key], d.year),
                         ident2=F.shape(rng, lang.id_shapes[id2_key], d.year), **amounts(lang, corr, rng.uniform(20, 2500)))
            values = tuple(v[key] for key in keys)
            if not values or not (set(values) & seen):
                break
            d = d + dt.timedelta(days=1)
        seen.update(values)
        blocks = bank_statement(c, v, d) if kind == "bank_statement" else MAKERS[kind](c, v)
        out.append((_title(c, kind, v), blocks, d, values))
    return out


MAKERS: dict[str, Callable[[Ctx, dict[str, str]], list[Block]]] = {
    "invoice_series": invoice, "payslip": payslip, "utility_bill": utility_bill, "insurer_letters": insurer_letters,
    "payment_reminder": payment_reminder, "tenancy_form": tenancy_form, "dated_letter": dated_letter, "ticket": ticket,
}
