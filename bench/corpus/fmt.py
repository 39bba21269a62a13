"""Formatting helpers: dates, amounts, IBANs, reference numbers, people and correspondents."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from . import vocab as V

DATE_STYLES = ["dmy_dot", "dmy_long_de", "iso", "mdy_short_en", "dmy_long_en", "mdy_slash", "dmy_short"]
DE_DATE_STYLES = ["dmy_dot", "dmy_dot", "dmy_long_de", "iso", "dmy_short"]
EN_DATE_STYLES = ["mdy_short_en", "dmy_long_en", "mdy_slash", "iso", "dmy_long_en"]
AMOUNT_STYLES = ["de_sym", "de_eur", "en_eur", "usd", "de_sym_pre", "gbp", "gbp_sym"]
DE_AMOUNT_STYLES = ["de_sym", "de_sym", "de_eur", "de_sym_pre"]
EN_AMOUNT_STYLES = ["en_eur", "usd", "gbp", "gbp_sym"]


def sp(word: str) -> str:
    return word.replace("_", " ")


def fmt_date(d: dt.date, style: str) -> str:
    if style == "dmy_dot":
        return f"{d.day:02d}.{d.month:02d}.{d.year}"
    if style == "dmy_long_de":
        return f"{d.day}. {V.DE_MONTHS[d.month - 1]} {d.year}"
    if style == "iso":
        return d.isoformat()
    if style == "mdy_short_en":
        return f"{V.EN_MONTHS[d.month - 1][:3]} {d.day}, {d.year}"
    if style == "dmy_long_en":
        return f"{d.day} {V.EN_MONTHS[d.month - 1]} {d.year}"
    if style == "mdy_slash":
        return f"{d.month:02d}/{d.day:02d}/{d.year}"
    return f"{d.day}.{d.month}.{d.year % 100:02d}"  # dmy_short


def _group(n: int, sep: str) -> str:
    s = str(n)
    parts = []
    while len(s) > 3:
        parts.append(s[-3:])
        s = s[:-3]
    parts.append(s)
    return sep.join(reversed(parts))


def fmt_amount(x: float, style: str) -> str:
    cents = round(abs(x) * 100)
    whole, frac = divmod(cents, 100)
    sign = "-" if x < 0 else ""
    if style in ("de_sym", "de_eur", "de_sym_pre"):
        num = f"{sign}{_group(whole, '.')},{frac:02d}"
        if style == "de_sym":
            return f"{num} €"
        if style == "de_eur":
            return f"{num} EUR"
        return f"€ {num}"
    num = f"{_group(whole, ',')}.{frac:02d}"
    if style == "usd":
        return f"{sign}${num}"
    if style == "gbp_sym":
        return f"{sign}£{num}"
    if style == "gbp":
        return f"GBP {sign}{num}"
    return f"EUR {sign}{num}"


def iban_de(rng: random.Random, blz: str | None = None, spaced: bool = True) -> str:
    blz = blz or "".join(rng.choice("0123456789") for _ in range(8))
    acct = "".join(rng.choice("0123456789") for _ in range(10))
    return _iban("DE", blz + acct, spaced)


def iban_gb(rng: random.Random, bank: str = "NWBK", spaced: bool = True) -> str:
    bban = bank + "".join(rng.choice("0123456789") for _ in range(14))
    return _iban("GB", bban, spaced)


def _iban(cc: str, bban: str, spaced: bool) -> str:
    digits = "".join(str(int(c, 36)) for c in bban + cc + "00")
    check = 98 - int(digits) % 97
    raw = f"{cc}{check:02d}{bban}"
    if not spaced:
        return raw
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def digits(rng: random.Random, n: int) -> str:
    return str(rng.randint(1, 9)) + "".join(rng.choice("0123456789") for _ in range(n - 1))


def phone(rng: random.Random, lang: str) -> str:
    if lang == "de":
        return rng.choice(["0", "+49 "]) + f"{rng.randint(30, 9999)} {digits(rng, rng.randint(5, 8))}"
    return rng.choice(["+44 20 ", "0161 ", "+1 (617) ", "0131 "]) + f"{digits(rng, 3)} {digits(rng, 4)}"


def random_date(rng: random.Random, start: int = 2016, end: int = 2026) -> dt.date:
    base = dt.date(start, 1, 1).toordinal()
    top = dt.date(end, 6, 30).toordinal()
    return dt.date.fromordinal(rng.randint(base, top))


def add_months(d: dt.date, n: int) -> dt.date:
    m = d.month - 1 + n
    y = d.year + m // 12
    m = m % 12 + 1
    day = min(d.day, 28)
    return dt.date(y, m, day)


@dataclass
class Person:
    first: str
    last: str
    street: str
    plz: str
    city: str
    lang: str

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}"

    def address_lines(self, rng: random.Random) -> list[str]:
        salut = ""
        if self.lang == "de" and rng.random() < 0.5:
            salut = rng.choice(["Herrn ", "Frau ", ""])
        elif self.lang == "en" and rng.random() < 0.4:
            salut = rng.choice(["Mr ", "Ms ", "Mrs ", "Dr "])
        return [salut + self.name, self.street, f"{self.plz} {self.city}"]


def person(rng: random.Random, lang: str) -> Person:
    if lang == "de":
        plz, city = rng.choice(V.DE_CITIES)
        street = f"{sp(rng.choice(V.DE_STREETS))} {rng.randint(1, 140)}{rng.choice(['', '', '', 'a', 'b'])}"
        return Person(rng.choice(V.DE_FIRST), rng.choice(V.DE_LAST), street, plz, city, lang)
    plz, city = rng.choice(V.EN_CITIES)
    street = f"{rng.randint(1, 220)} {sp(rng.choice(V.EN_STREETS))}"
    return Person(rng.choice(V.EN_FIRST), rng.choice(V.EN_LAST), street, plz, city, lang)


@dataclass
class Correspondent:
    name: str
    lang: str
    kind: str
    street: str
    plz: str
    city: str
    phone: str
    email: str
    web: str
    bank: str
    iban: str
    bic: str
    tax_id: str
    register: str
    ceo: str
    date_style: str
    amount_style: str
    head_style: int
    contact: str
    extra: dict[str, str] = field(default_factory=dict)

    def letterhead(self) -> list[str]:
        addr = f"{self.street} · {self.plz} {self.city}"
        if self.head_style == 0:
            return [self.name, addr, f"Tel. {self.phone} · {self.email}"]
        if self.head_style == 1:
            return [self.name.upper(), f"{self.street}, {self.plz} {self.city}", self.web]
        if self.head_style == 2:
            return [f"{self.name} | {self.street} | {self.plz} {self.city}"]
        tel = "Telefon" if self.lang == "de" else "Phone"
        return [self.name, self.street, f"{self.plz} {self.city}", f"{tel} {self.phone}", self.web]

    def footer(self) -> list[str]:
        if self.lang == "de":
            lines = [
                f"{self.name} · Sitz: {self.city} · {self.register}",
                f"Geschäftsführung: {self.ceo} · USt-IdNr.: {self.tax_id}",
                f"{self.bank} · IBAN: {self.iban} · BIC: {self.bic}",
            ]
        else:
            lines = [
                f"{self.name}, registered office: {self.street}, {self.city}. {self.register}",
                f"Directors: {self.ceo} | VAT No. {self.tax_id}",
                f"Bank: {self.bank} | IBAN {self.iban} | BIC {self.bic}",
            ]
        return lines if self.head_style != 2 else lines[::-1]


def org_name(rng: random.Random, lang: str, trade: str | None = None) -> str:
    if lang == "de":
        core = rng.choice(V.DE_ORG_CORE)
        tr = trade or rng.choice(V.DE_ORG_TRADE)
        pattern = rng.randrange(4)
        if pattern == 0:
            return f"{core} {tr} {rng.choice(V.DE_LEGAL)}"
        if pattern == 1:
            return f"{rng.choice(V.DE_LAST)} {tr} {rng.choice(V.DE_LEGAL)}"
        if pattern == 2:
            return f"{tr} {rng.choice(V.DE_LAST)} & {rng.choice(V.DE_LAST)}"
        return f"{core}-{tr}"
    core = rng.choice(V.EN_ORG_CORE)
    tr = trade or rng.choice(V.EN_ORG_TRADE)
    if rng.random() < 0.5:
        return f"{core} {tr} {rng.choice(V.EN_LEGAL)}"
    return f"{rng.choice(V.EN_LAST)} & {rng.choice(V.EN_LAST)} {tr}"


def correspondent(rng: random.Random, lang: str, kind: str, name: str | None = None,
                  city: tuple[str, str] | None = None) -> Correspondent:
    name = name or org_name(rng, lang)
    low = name.lower().split()[0]
    for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        low = low.replace(a, b)
    slug = "".join(c for c in low if c.isascii() and c.isalnum()) or "info"
    tld = ".de" if lang == "de" else rng.choice([".co.uk", ".com", ".ie"])
    if lang == "de":
        plz, town = city or rng.choice(V.DE_CITIES)
        street = f"{sp(rng.choice(V.DE_STREETS))} {rng.randint(1, 90)}"
        bank, blz, bic = rng.choice(V.DE_BANKS)
        iban = iban_de(rng, blz, spaced=rng.random() < 0.75)
        tax = f"DE{digits(rng, 9)}"
        reg = f"Amtsgericht {rng.choice(V.DE_CITIES)[1]} HRB {rng.randint(1000, 99999)}"
        ceo = f"{rng.choice(V.DE_FIRST)} {rng.choice(V.DE_LAST)}"
        ds, am = rng.choice(DE_DATE_STYLES), rng.choice(DE_AMOUNT_STYLES)
    else:
        plz, town = city or rng.choice(V.EN_CITIES)
        street = f"{rng.randint(1, 300)} {sp(rng.choice(V.EN_STREETS))}"
        bank, code, bic = rng.choice(V.EN_BANKS)
        iban = iban_gb(rng, code, spaced=rng.random() < 0.75)
        tax = f"GB{digits(rng, 9)}"
        reg = f"Registered in England and Wales No. {digits(rng, 8)}"
        ceo = f"{rng.choice(V.EN_FIRST)} {rng.choice(V.EN_LAST)}"
        ds, am = rng.choice(EN_DATE_STYLES), rng.choice(EN_AMOUNT_STYLES)
    contact = person(rng, lang).name
    return Correspondent(
        name=name, lang=lang, kind=kind, street=street, plz=plz, city=town, phone=phone(rng, lang),
        email=f"{rng.choice(['info', 'service', 'kontakt' if lang == 'de' else 'hello', 'office'])}@{slug}{tld}",
        web=f"www.{slug}{tld}", bank=bank, iban=iban, bic=bic, tax_id=tax, register=reg, ceo=ceo,
        date_style=ds, amount_style=am, head_style=rng.randrange(4), contact=contact,
    )


REF_LABELS_DE = [
    ("Rechnungsnummer", "RE-{y}-{n5}"), ("Kundennummer", "{n5}"), ("Bestellnummer", "B{n7}"),
    ("Vertragsnummer", "VN {n3}-{n6}"), ("Versicherungsschein-Nr.", "{n2}.{n3}.{n6}"),
    ("Aktenzeichen", "{n2} O {n3}/{y2}"), ("Steuernummer", "{n3}/{n3}/{n5}"), ("Auftragsnummer", "{n10}"),
    ("Unser Zeichen", "{AB}/{n4}"), ("Mandantennummer", "{n6}"), ("Belegnummer", "{n12}"),
]
REF_LABELS_EN = [
    ("Invoice No.", "INV-{y}-{n4}"), ("Customer No.", "{n5}"), ("Order No.", "ORD-{n7}"),
    ("Contract No.", "C{n8}"), ("Policy No.", "{AB}{n9}"), ("Our ref.", "{AB}/{n4}/{y2}"),
    ("Account No.", "{n8}"), ("Claim No.", "CLM-{n6}"), ("Case reference", "{AB}{n2}-{n5}"),
    ("Booking reference", "{AB}{n4}"), ("Tracking No.", "{n12}"),
]


def fill_ref(rng: random.Random, pattern: str, year: int) -> str:
    out = pattern.replace("{y}", str(year)).replace("{y2}", f"{year % 100:02d}")
    out = out.replace("{AB}", "".join(rng.choice("ABCDEFGHKLMNPRSTWXZ") for _ in range(2)))
    for n in (12, 10, 9, 8, 7, 6, 5, 4, 3, 2):
        key = f"{{n{n}}}"
        while key in out:
            out = out.replace(key, digits(rng, n), 1)
    return out


def ref(rng: random.Random, lang: str, year: int) -> tuple[str, str]:
    label, pattern = rng.choice(REF_LABELS_DE if lang == "de" else REF_LABELS_EN)
    return label, fill_ref(rng, pattern, year)
