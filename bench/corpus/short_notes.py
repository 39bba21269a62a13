"""Short documents (under 20 words): notes, cards, stamps, receipts.

:func:`note` draws one filled note; :func:`variant` the same note with one value changed, the
way a short template series differs (the same warranty card with another serial number, the
same "parcel left at no. N" slip for another house, the same stamp on another day).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, replace

from . import fmt
from . import vocab as V

# {slot} names: house, serial, date, day (a date in words), amount, phone, name, model, num, shop, weekday
TEMPLATES_DE = [
    "Paket beim Nachbarn in Nr. {house} abgegeben. {date}",
    "Garantiekarte\nModell {model}\nSeriennummer {serial}\nKaufdatum {date}\n{shop}",
    "BEZAHLT {day}",
    "Bitte zurückrufen: {name}, Tel. {phone}",
    "Zählerstand {num} kWh abgelesen am {date}",
    "Quittung\nBetrag {amount} bar erhalten.\n{date}, {name}",
    "Termin verschoben auf {weekday}, {date}, 10:30 Uhr. Praxis Dr. {last}",
    "Eingangsbestätigung\nIhre Sendung {serial} ist am {date} eingegangen.",
    "Abholschein\nSendungsnummer {serial}\nabholbereit ab {date} in der Filiale {shop}",
]
TEMPLATES_EN = [
    "Parcel left with neighbour at no. {house}. {date}",
    "Warranty card\nModel {model}\nSerial No. {serial}\nDate of purchase {date}\n{shop}",
    "PAID {day}",
    "Please call back: {name}, phone {phone}",
    "Meter reading {num} kWh taken on {date}",
    "Receipt\nReceived {amount} in cash.\n{date}, {name}",
    "Appointment moved to {weekday} {date} at 10:30. {last} Dental Practice",
    "Delivery note\nYour parcel {serial} arrived on {date}.",
    "Collection slip\nTracking number {serial}\nready for collection from {date} at {shop}",
]
#: the slot each template's series varies (one value per card, the rest the same)
VARIED = ["house", "serial", "day", "phone", "num", "amount", "date", "serial", "serial"]


@dataclass(frozen=True)
class Note:
    lang: str
    template: int
    values: dict[str, str]

    @property
    def text(self) -> str:
        tpl = (TEMPLATES_DE if self.lang == "de" else TEMPLATES_EN)[self.template]
        for slot, value in self.values.items():
            tpl = tpl.replace("{" + slot + "}", value)
        return tpl


def _value(rng: random.Random, slot: str, lang: str, d: dt.date) -> str:
    de = lang == "de"
    months = V.DE_MONTHS if de else V.EN_MONTHS
    if slot == "house":
        return str(rng.randint(2, 480))
    if slot == "serial":
        return rng.choice(["SN", "X", "AB", "JJD", "RR"]) + fmt.digits(rng, rng.randint(7, 12)) + rng.choice(["", "DE", "GB", "K"])
    if slot == "date":
        return d.strftime("%d.%m.%Y") if de else d.strftime(rng.choice(["%d/%m/%Y", "%d.%m.%Y"]))
    if slot == "day":
        return f"{d.day}. {months[d.month - 1].upper()} {d.year}" if de else f"{d.day} {months[d.month - 1][:3].upper()} {d.year}"
    if slot == "amount":
        euros = rng.randint(5, 900) + rng.randint(0, 99) / 100
        return fmt.fmt_amount(euros, "de_sym" if de else "gbp_sym")
    if slot == "phone":
        return fmt.phone(rng, lang)
    if slot == "name":
        p = fmt.person(rng, lang)
        return p.name
    if slot == "last":
        return rng.choice(V.DE_LAST if de else V.EN_LAST)
    if slot == "model":
        return rng.choice(["KX-", "TR ", "Vario ", "AquaPro ", "S"]) + str(rng.randint(100, 9999))
    if slot == "num":
        return str(rng.randint(1000, 99999))
    if slot == "shop":
        return rng.choice(["MediaMarkt Köln", "Saturn Bonn", "Expert Lübeck", "Postfiliale 512", "Packstation 118"] if de
                          else ["Currys Leeds", "Argos Bristol", "Post Office Camden", "John Lewis Reading"])
    if slot == "weekday":
        return rng.choice(V.DE_WEEKDAYS[:5] if de else V.EN_WEEKDAYS[:5])
    raise ValueError(slot)


SLOTS = ("house", "serial", "date", "day", "amount", "phone", "name", "last", "model", "num", "shop", "weekday")


def note(rng: random.Random, lang: str) -> Note:
    d = fmt.random_date(rng)
    template = rng.randrange(len(TEMPLATES_DE))
    tpl = (TEMPLATES_DE if lang == "de" else TEMPLATES_EN)[template]
    values = {slot: _value(rng, slot, lang, d) for slot in SLOTS if "{" + slot + "}" in tpl}
    return Note(lang, template, values)


def variant(rng: random.Random, base: Note) -> Note:
    """The same note with the value its template series varies drawn again."""
    slot = VARIED[base.template]
    d = fmt.random_date(rng)
    for _ in range(20):
        value = _value(rng, slot, base.lang, d)
        if slot == "serial":  # the same prefix and length: the next cards of one batch, or any other
            old = base.values[slot]
            digits = [i for i, c in enumerate(old) if c.isdigit()]
            keep = digits[: -rng.randint(1, 3)] if rng.random() < 0.5 else []
            value = "".join(c if (not c.isdigit() or i in keep) else str(rng.randint(0, 9)) for i, c in enumerate(old))
        if value != base.values[slot]:
            return replace(base, values={**base.values, slot: value})
        d = fmt.random_date(rng)
    raise RuntimeError("no other value drawn")
