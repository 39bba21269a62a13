"""Values written the way a language writes them: dates (in words, month + year, numeric in the local
order), amounts, street addresses, labelled identifiers, people, correspondents and prose.

Every function takes a :class:`~bench.corpus.ml_lang.Lang`; none names a language.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass

from . import fmt
from .ml_lang import Lang

_SLOT = re.compile(r"\{(\w+)\}")
_SHAPE = re.compile(r"\{(n\d+|AB|y2|y)\}")


def fill(template: str, **values: object) -> str:
    """``template`` with its ``{slot}`` placeholders replaced; unknown slots stay as they are."""
    return _SLOT.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), template)


# --- dates -------------------------------------------------------------------------------------

DATE_KINDS = ("words", "month_year", "numeric")


def date(lang: Lang, d: dt.date, kind: str, index: int) -> str:
    """``d`` in one of the language's forms: ``kind`` in :data:`DATE_KINDS`, ``index`` picks the template."""
    forms = {"words": lang.date_words, "month_year": lang.month_year, "numeric": lang.date_numeric}[kind]
    return fill(forms[index % len(forms)], day=lang.day_one if d.day == 1 else d.day, month=lang.months[d.month - 1],
                mon=lang.months_abbr[d.month - 1], weekday=lang.weekdays[d.weekday()], year=d.year,
                dd=f"{d.day:02d}", mm=f"{d.month:02d}", d=d.day, m=d.month, yyyy=d.year, yy=f"{d.year % 100:02d}")


@dataclass(frozen=True)
class DateStyle:
    kind: str
    index: int

    def __call__(self, lang: Lang, d: dt.date) -> str:
        return date(lang, d, self.kind, self.index)


def random_date_style(rng: random.Random, lang: Lang) -> DateStyle:
    kind = rng.choice(["words", "words", "numeric"])
    return DateStyle(kind, rng.randrange(len(lang.date_words if kind == "words" else lang.date_numeric)))


# --- amounts -----------------------------------------------------------------------------------


def amount(lang: Lang, x: float, index: int) -> str:
    """``x`` in the language's ``index``-th amount form (``1 234,56 €``, ``€ 1.234,56``, ``1'234.50 CHF``)."""
    thousands, decimal, template = lang.amounts[index % len(lang.amounts)]
    cents = round(abs(x) * 100)
    whole, frac = divmod(cents, 100)
    s = str(whole)
    groups = []
    while len(s) > 3:
        groups.append(s[-3:])
        s = s[:-3]
    groups.append(s)
    number = ("-" if x < 0 else "") + thousands.join(reversed(groups)) + decimal + f"{frac:02d}"
    return fill(template, n=number)


# --- identifiers, phones, IBANs ----------------------------------------------------------------


def shape(rng: random.Random, pattern: str, year: int) -> str:
    """A value of ``pattern``: ``{nK}`` K digits (no leading zero), ``{AB}`` two letters, ``{y}`` ``{y2}`` the year."""
    def one(m: re.Match[str]) -> str:
        key = m.group(1)
        if key == "y":
            return str(year)
        if key == "y2":
            return f"{year % 100:02d}"
        if key == "AB":
            return "".join(rng.choice("ABCDEFGHJKLMNPRSTVWXZ") for _ in range(2))
        return fmt.digits(rng, int(key[1:]))
    return _SHAPE.sub(one, pattern)


def ident(rng: random.Random, lang: Lang, key: str, year: int) -> tuple[str, str]:
    """(label, value) of the labelled identifier ``key`` (see ``ml_lang.LABEL_KEYS``)."""
    return rng.choice(lang.labels[key]), shape(rng, lang.id_shapes[key], year)


def phone(rng: random.Random, lang: Lang) -> str:
    return shape(rng, rng.choice(lang.phones), 2000)


def iban(rng: random.Random, lang: Lang) -> str:
    bban = "".join(rng.choice("0123456789") for _ in range(18))
    cc = lang.iban_country
    check = 98 - int("".join(str(int(c, 36)) for c in bban + cc + "00")) % 97
    raw = f"{cc}{check:02d}{bban}"
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


# --- places and people -------------------------------------------------------------------------


def street(rng: random.Random, lang: Lang, template: str | None = None, name: str | None = None) -> str:
    return fill(template or rng.choice(lang.streets), name=name or rng.choice(lang.street_names), n=rng.randint(1, 160))


def person(rng: random.Random, lang: Lang) -> fmt.Person:
    plz, city = rng.choice(lang.places)
    return fmt.Person(rng.choice(lang.first_names), rng.choice(lang.last_names), street(rng, lang), plz, city, lang.code)


def address_lines(p: fmt.Person) -> list[str]:
    return [p.name, p.street, f"{p.plz} {p.city}"]


@dataclass(frozen=True)
class Corr:
    """A correspondent: who sends a series or a letter, and how they write values."""

    name: str
    lang: str
    street: str
    plz: str
    city: str
    phone: str
    email: str
    iban: str
    tax_id: str
    date_style: DateStyle
    amount_index: int
    head_style: int
    contact: str

    def letterhead(self) -> list[str]:
        if self.head_style == 0:
            return [self.name, f"{self.street} · {self.plz} {self.city}", f"{self.phone} · {self.email}"]
        if self.head_style == 1:
            return [self.name.upper(), f"{self.street}, {self.plz} {self.city}"]
        return [f"{self.name} | {self.street} | {self.plz} {self.city} | {self.phone}"]

    def footer(self) -> list[str]:
        return [f"{self.name} · {self.street} · {self.plz} {self.city}", f"IBAN {self.iban} · {self.tax_id}"]


def org_name(rng: random.Random, lang: Lang, kind: str = "company") -> str:
    templates = lang.org_kinds.get(kind) or lang.org_forms
    return fill(rng.choice(templates), core=rng.choice(lang.org_cores), last=rng.choice(lang.last_names),
                city=rng.choice(lang.places)[1])


def correspondent(rng: random.Random, lang: Lang, kind: str = "company") -> Corr:
    name = org_name(rng, lang, kind)
    plz, city = rng.choice(lang.places)
    slug = "".join(c for c in name.lower().split()[0] if c.isascii() and c.isalnum()) or "info"
    return Corr(name, lang.code, street(rng, lang), plz, city, phone(rng, lang), f"info@{slug}.example",
                iban(rng, lang), shape(rng, lang.id_shapes["tax_no"], 2020), random_date_style(rng, lang),
                rng.randrange(len(lang.amounts)), rng.randrange(3), person(rng, lang).name)


# --- prose -------------------------------------------------------------------------------------


def sentence(rng: random.Random, lang: Lang) -> str:
    g = lang.grammar
    return f"{rng.choice(g['subjects'])} {rng.choice(g['verbs'])} {rng.choice(g['objects'])} {rng.choice(g['tails'])}"


def paragraph(rng: random.Random, lang: Lang, sentences: int, legal: float = 0.0) -> str:
    out = []
    for _ in range(sentences):
        out.append(rng.choice(lang.grammar["legal"]) if rng.random() < legal else sentence(rng, lang))
    return " ".join(out)


def paragraphs(rng: random.Random, lang: Lang, words: int, legal: float = 0.0) -> list[str]:
    """Paragraphs of about ``words`` words in all."""
    out: list[str] = []
    n = 0
    while n < words:
        p = paragraph(rng, lang, rng.randint(2, 5), legal)
        out.append(p)
        n += p.count(" ") + 1
    return out
