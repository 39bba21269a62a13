"""Revised versions: terms and conditions, privacy policies, price lists and house rules re-issued
with a new version date ("Stand", "gültig ab", "Zuletzt aktualisiert", "Last updated",
"Effective date", "Version ... of") and 2-11 % of their words changed.

A user keeps both versions and wants them linked as a revision of one another, not as a copy.
"""

from __future__ import annotations

import datetime as dt
import random

from . import fmt
from . import vocab as V
from .dups import revise
from .prose import Block, Doc, Prose, word_count

TITLES_DE = ["Allgemeine Geschäftsbedingungen", "Datenschutzerklärung", "Preis- und Leistungsverzeichnis",
             "Hausordnung", "Versicherungsbedingungen", "Nutzungsbedingungen"]
TITLES_EN = ["Terms and Conditions", "Privacy Policy", "Schedule of Fees and Charges", "House Rules",
             "Policy Wording", "Terms of Use"]


def version_line(rng: random.Random, lang: str, d: dt.date, style: int, number: int) -> str:
    de = lang == "de"
    long = f"{d.day}. {V.DE_MONTHS[d.month - 1]} {d.year}" if de else f"{d.day} {V.EN_MONTHS[d.month - 1]} {d.year}"
    dot = d.strftime("%d.%m.%Y")
    if de:
        return [f"Stand: {dot}", f"Stand {V.DE_MONTHS[d.month - 1]} {d.year}", f"gültig ab {long}",
                f"Zuletzt aktualisiert am {dot}", f"Fassung vom {dot}", f"Version {number}.0, Stand {dot}"][style % 6]
    return [f"Last updated: {long}", f"Effective date: {dot}", f"Last revised {long}",
            f"Version {number}.0 - effective from {long}", f"Updated {long}", f"Valid from {long}"][style % 6]


def policy(rng: random.Random, corr: fmt.Correspondent, created: dt.date) -> tuple[Doc, int]:
    """A numbered-clause document of 350-1500 words; returns it and its version-line style."""
    de = corr.lang == "de"
    p = Prose(rng, corr.lang, None, corr.date_style, corr.amount_style, created)
    title = rng.choice(TITLES_DE if de else TITLES_EN)
    words = int(350 * (1500 / 350) ** rng.random())
    blocks: list[Block] = [("line", ln) for ln in corr.letterhead()] + [("blank", ""), ("line", title)]
    k = 1
    while word_count(blocks) < words:
        head = f"§ {k} " + p.slot("n").capitalize() if de else f"{k}. " + p.slot("n").capitalize()
        blocks += [("line", head)] + [("para", t) for t in p.paragraphs("legal", rng.randint(40, 140), 1, 3)]
        k += 1
    blocks += [("blank", "")] + [("line", ln) for ln in corr.footer()]
    return Doc(title, blocks, created, corr.name, corr.lang), rng.randrange(6)


def versions(rng: random.Random, corr: fmt.Correspondent, created: dt.date, n: int) -> list[Doc]:
    """``n`` versions of one policy, each 3-24 months after the one before, with 2-11 % of the
    words changed and its version line (near the title or at the end) carrying the new date."""
    base, style = policy(rng, corr, created)
    p = Prose(rng, corr.lang, None, corr.date_style, corr.amount_style, created)
    at_top = rng.random() < 0.6
    number = rng.randint(1, 6)
    out = []
    blocks = list(base.blocks)
    d = created
    for v in range(n):
        if v:
            blocks = _revise(blocks, p, rng)
            d = fmt.add_months(d, rng.randint(3, 24)) + dt.timedelta(days=rng.randint(0, 20))
            number += 1
        line: Block = ("line", version_line(rng, corr.lang, d, style, number))
        title_at = next(i for i, b in enumerate(blocks) if b == ("line", base.title)) + 1
        full = blocks[:title_at] + [line] + blocks[title_at:] if at_top else blocks + [line]
        out.append(Doc(f"{base.title} {d.year}", full, d, corr.name, corr.lang))
    return out


def _revise(blocks: list[Block], p: Prose, rng: random.Random) -> list[Block]:
    """2-11 % of the words changed (dups.revise draws 3-12 % here: redrawn until it is in range)."""
    total = word_count(blocks)
    for _ in range(20):
        out = revise(blocks, p, rng, (0.03, 0.12))
        changed = abs(word_count(out) - total) + sum(1 for a, b in zip(out, blocks, strict=False) if a != b) * 8
        if 0.02 * total <= changed <= 0.11 * total:
            return out
    return out
