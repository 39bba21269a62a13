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
from . import noise as N
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
    # issue 25: receipts and tickets, the short notes real archives hold most of
    "Quittung: {amount} erhalten am {date}. Unterschrift {name}",
    "PARKSCHEIN\nParkhaus {garage}\nEinfahrt {date} {time}\nBezahlt {amount}\nTicket {serial}",
    "Textilreinigung {last}\nAuftrag {num}\n2 Hemden, 1 Sakko\nabholbereit ab {date}\nBetrag {amount}\nKOPIE",
    "Wasserzähler Nr. {serial}\nStand {num} m³\nabgelesen {date}",
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
    "Receipt: {amount} received on {date}. Signed {name}",
    "CAR PARK TICKET\n{garage}\nEntry {date} {time}\nPaid {amount}\nTicket {serial}",
    "{last} Dry Cleaners\nTicket No. {num}\n2 shirts, 1 jacket\nReady {date}\nTotal {amount}\nCOPY",
    "Water meter No. {serial}\nReading {num} m3\ntaken {date}",
]
#: the slot each template's series varies (one value per card, the rest the same)
VARIED = ["house", "serial", "day", "phone", "num", "amount", "date", "serial", "serial",
          "amount", "date", "num", "num"]


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
    if slot == "time":
        return f"{rng.randint(6, 22):02d}:{rng.randint(0, 59):02d}"
    if slot == "garage":
        return rng.choice(["City-Galerie", "Am Hauptbahnhof", "P3 Rathaus", "Kaufhof", "Klinikum Nord"] if de
                          else ["NCP Leeds City", "Q-Park Oxford St", "Westgate Car Park", "Station Road"])
    raise ValueError(slot)


SLOTS = ("house", "serial", "date", "day", "amount", "phone", "name", "last", "model", "num", "shop", "weekday",
         "time", "garage")


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
    if slot == "date" and "time" in base.values:  # a ticket of another day is also of another hour
        base = replace(base, values={**base.values, "time": _value(rng, "time", base.lang, d)})
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


COPY_LINES = {"de": ["KOPIE", "Kopie", "DUPLIKAT", "Zweitschrift"], "en": ["COPY", "Copy", "DUPLICATE", "Customer copy"]}


def scanner_stamp(rng: random.Random, lang: str, when: dt.date) -> str:
    """The line a scanner or a scanning app prints on a page: ``Gescannt 24.08.2021 16:56``."""
    d = when + dt.timedelta(days=rng.randint(0, 400))
    t = f"{rng.randint(7, 21):02d}:{rng.randint(0, 59):02d}"
    if lang == "de":
        return rng.choice([f"Gescannt {d:%d.%m.%Y} {t}", f"Gescannt am {d:%d.%m.%Y} um {t}", f"Scan {d:%Y-%m-%d} {t}",
                           f"Eingescannt: {d:%d.%m.%y} {t}"])
    return rng.choice([f"Scanned {d:%d/%m/%Y} {t}", f"Scanned on {d:%m/%d/%Y} {t}", f"Scan {d:%Y-%m-%d} {t}",
                       f"CamScanner {d:%d-%m-%Y} {t}"])


def rescan(text: str, lang: str, when: dt.date, rng: random.Random) -> str:
    """A second scan of a short note as real archives hold them (issue 25): a digit of a date or an
    amount read as its look-alike (``15/02/Z018``, ``12.04.202l``, ``13/0b/2024``), a scanner's stamp
    line added, a line moved (the ``COPY`` line at the top instead of the bottom), a word lost or two
    merged, a letter misread.  Each happens with its own chance; at least one always does."""
    for _ in range(20):
        lines = text.split("\n")
        if rng.random() < 0.2:  # one or two numbers read with a look-alike letter
            for _ in range(rng.choice([1, 1, 2])):
                lines = N.misread_digits("\n".join(lines), 0.35, rng).split("\n")
        if rng.random() < 0.1 and len(lines) >= 2:  # a line moved: the copy line, or another
            copy = [k for k, ln in enumerate(lines) if ln.strip() in COPY_LINES[lang]]
            k = copy[0] if copy else rng.randrange(len(lines))
            line = lines.pop(k)
            lines.insert(0 if k == len(lines) else len(lines), line)
        if rng.random() < 0.25:  # two words read as one, or a word without digits lost (never a value)
            k = rng.randrange(len(lines))
            words = lines[k].split(" ")
            if len(words) >= 2:
                j = rng.randrange(len(words) - 1)
                lost = [i for i in (j, j + 1) if not any(c.isdigit() for c in words[i])]
                if rng.random() < 0.6 or not lost:
                    words[j:j + 2] = [words[j] + words[j + 1]]
                else:
                    del words[rng.choice(lost)]
                lines[k] = " ".join(words)
        if rng.random() < 0.6:  # a misread letter
            k = rng.randrange(len(lines))
            words = lines[k].split(" ")
            letters = [j for j, w in enumerate(words) if len(w) >= 4 and w.isalpha()]
            if letters:
                j = rng.choice(letters)
                words[j] = N.garble(words[j], rng)
                lines[k] = " ".join(words)
        if rng.random() < 0.12:  # the scanner's stamp, on top or under the note
            stamp = scanner_stamp(rng, lang, when)
            lines = [stamp] + lines if rng.random() < 0.5 else lines + [stamp]
        out = "\n".join(lines)
        if out != text:
            return out
    return text + "\n" + scanner_stamp(rng, lang, when)
