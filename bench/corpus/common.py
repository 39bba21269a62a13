"""Building blocks shared by the background, series and duplicate generators."""

from __future__ import annotations

import datetime as dt
import random

from . import fmt
from . import vocab as V
from .prose import Block, Prose

SUBJECTS_DE = [
    "Ihre Anfrage vom {d}", "Bestätigung {n}", "Änderung {n}", "Information zu {n}", "Rückfrage {n}",
    "Kündigung {n}", "Angebot {n}", "Mitteilung über {n}", "Erinnerung: {n}", "{n} – Stand {d}",
]
SUBJECTS_EN = [
    "Your enquiry of {d}", "Confirmation: {n}", "Change to {n}", "Information about {n}", "{n} - query",
    "Notice of cancellation: {n}", "Quotation for {n}", "Update on {n}", "Reminder: {n}", "{n} as of {d}",
]


def scan_title(rng: random.Random, d: dt.date) -> str:
    style = rng.randrange(5)
    if style == 0:
        return f"Scan_{d.isoformat()}_{rng.randint(70000, 195959):06d}"
    if style == 1:
        return f"SCN_{rng.randint(1, 9999):04d}"
    if style == 2:
        return f"IMG_{d.year}{d.month:02d}{d.day:02d}_{rng.randint(0, 235959):06d}"
    if style == 3:
        return f"scan{rng.randint(1, 999):04d}"
    return f"Dokument {d.day:02d}.{d.month:02d}.{d.year}"


def subject(p: Prose) -> str:
    tpl = p.rng.choice(SUBJECTS_DE if p.lang == "de" else SUBJECTS_EN)
    return tpl.replace("{d}", p.date()).replace("{n}", p.slot("n"))


def salutation(rng: random.Random, lang: str, who: fmt.Person | None) -> str:
    if lang == "de":
        if who and rng.random() < 0.6:
            return f"Sehr geehrte{'r Herr' if rng.random() < 0.5 else ' Frau'} {who.last},"
        return rng.choice(["Sehr geehrte Damen und Herren,", "Guten Tag,", "Hallo,"])
    if who and rng.random() < 0.6:
        return f"Dear {rng.choice(['Mr', 'Ms', 'Mrs'])} {who.last},"
    return rng.choice(["Dear Sir or Madam,", "Dear Customer,", "Hello,"])


def closing(rng: random.Random, lang: str, name: str, org: str) -> list[Block]:
    if lang == "de":
        greet = rng.choice(["Mit freundlichen Grüßen", "Freundliche Grüße", "Mit besten Grüßen", "Viele Grüße"])
        role = rng.choice(["Sachbearbeitung", "Kundenservice", "Buchhaltung", "Geschäftsführung", ""])
    else:
        greet = rng.choice(["Yours sincerely", "Kind regards", "Best regards", "Yours faithfully"])
        role = rng.choice(["Customer Services", "Accounts", "Director", "Office Manager", ""])
    out: list[Block] = [("line", greet), ("blank", ""), ("line", name)]
    if role:
        out.append(("line", role))
    if rng.random() < 0.5:
        out.append(("line", org))
    return out


def letter(
    p: Prose,
    corr: fmt.Correspondent,
    to: fmt.Person,
    created: dt.date,
    subj: str,
    body: list[str],
    refs: list[tuple[str, str]] | None = None,
    footer: bool = True,
) -> list[Block]:
    rng, lang = p.rng, p.lang
    blocks: list[Block] = [("line", ln) for ln in corr.letterhead()]
    blocks.append(("blank", ""))
    if rng.random() < 0.6:
        blocks.append(("line", f"{corr.name} · {corr.street} · {corr.plz} {corr.city}"))
    blocks.extend(("line", ln) for ln in to.address_lines(rng))
    blocks.append(("blank", ""))
    if refs:
        blocks.append(("kv", refs))
    date_s = fmt.fmt_date(created, corr.date_style if corr.lang == lang else p.date_style)
    blocks.append(("line", f"{corr.city}, {date_s}" if lang == "de" and rng.random() < 0.6 else date_s))
    blocks.append(("blank", ""))
    blocks.append(("line", subj if rng.random() < 0.6 else (f"Betreff: {subj}" if lang == "de" else f"Re: {subj}")))
    blocks.append(("blank", ""))
    blocks.append(("line", salutation(rng, lang, to)))
    blocks.extend(("para", b) for b in body)
    blocks.extend(closing(rng, lang, corr.contact, corr.name))
    if footer:
        blocks.append(("blank", ""))
        blocks.extend(("line", ln) for ln in corr.footer())
    return blocks


def items(rng: random.Random, lang: str, n: int) -> list[tuple[str, float, int]]:
    pool = V.DE_ITEMS if lang == "de" else V.EN_ITEMS
    picked = rng.sample(pool, k=min(n, len(pool)))
    return [(name, price, rng.choice([1, 1, 1, 2, 3, 4, 5, 10])) for name, price in picked]


def items_table(lang: str, lines: list[tuple[str, float, int]], amount_style: str) -> list[list[str]]:
    head = ["Pos.", "Bezeichnung", "Menge", "Einzelpreis", "Gesamt"] if lang == "de" else \
        ["Item", "Description", "Qty", "Unit price", "Amount"]
    rows = [head]
    for i, (name, price, qty) in enumerate(lines, 1):
        rows.append([str(i), name, str(qty), fmt.fmt_amount(price, amount_style),
                     fmt.fmt_amount(price * qty, amount_style)])
    return rows


def totals(lang: str, lines: list[tuple[str, float, int]], amount_style: str, vat: float = 0.19) -> tuple[
        list[tuple[str, str]], float]:
    net = round(sum(p * q for _, p, q in lines), 2)
    tax = round(net * vat, 2)
    gross = round(net + tax, 2)
    a = amount_style
    if lang == "de":
        kv = [("Nettobetrag", fmt.fmt_amount(net, a)), (f"zzgl. {int(vat * 100)} % USt.", fmt.fmt_amount(tax, a)),
              ("Rechnungsbetrag", fmt.fmt_amount(gross, a))]
    else:
        kv = [("Subtotal", fmt.fmt_amount(net, a)), (f"VAT {int(vat * 100)}%", fmt.fmt_amount(tax, a)),
              ("Total due", fmt.fmt_amount(gross, a))]
    return kv, gross


def split_pages(blocks: list[Block], every_words: int) -> list[Block]:
    """Insert page breaks roughly every ``every_words`` words (at block boundaries)."""
    out: list[Block] = []
    n = 0
    for b in blocks:
        out.append(b)
        if b[0] == "para":
            n += str(b[1]).count(" ") + 1
            if n >= every_words:
                out.append(("page", ""))
                n = 0
    if out and out[-1][0] == "page":
        out.pop()
    return out
