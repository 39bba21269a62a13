"""Duplicate kinds: how a second (third, ...) copy of a document comes to differ from the first."""

from __future__ import annotations

import datetime as dt
import random
import re

from . import background as B
from . import common as C
from . import fmt
from . import noise as N
from .prose import Block, Doc, Prose, word_count
from .render import random_layout, render

DUP_KINDS = ["rescan", "digital_vs_scan", "email_vs_scan", "cover_sheet", "missing_page", "draft_revision", "print_stamp",
             "short_rescan", "revision"]


def as_digital(blocks: list[Block], lang: str, rng: random.Random) -> str:
    return render(blocks, random_layout(rng, "digital", lang), rng)


def as_scan(blocks: list[Block], lang: str, created: dt.date, rng: random.Random, lvl: str | None = None,
            table: str | None = None) -> tuple[str, str]:
    """Render like a scanned print-out and add OCR noise. Returns (text, noise level name)."""
    layout = random_layout(rng, "scan", lang)
    if table:
        layout.table = table
    text = render(blocks, layout, rng)
    lvl = lvl or N.random_level(rng)
    text = N.ocr(text, N.level(rng, lvl), rng)
    pages = 1 + sum(1 for k, _ in blocks if k == "page")
    if pages == 1 and rng.random() < 0.2:
        text += "\n" + rng.choice(["Seite 1 von 1", "- 1 -", "1"] if lang == "de" else ["Page 1 of 1", "- 1 -", "1/1"])
    if rng.random() < 0.35:
        text = N.scan_header(rng, created, lang, pages) + "\n" + text
    return text, lvl


def first_render(doc: Doc, rng: random.Random, scan_p: float = 0.5) -> tuple[str, str | None]:
    """How the first copy of ``doc`` looks: born-digital or a lightly noisy scan."""
    if rng.random() < scan_p:
        return as_scan(doc.blocks, doc.lang, doc.created, rng, "light")
    return as_digital(doc.blocks, doc.lang, rng), None


def rescan_copy(doc: Doc, rng: random.Random) -> tuple[str, str]:
    return as_scan(doc.blocks, doc.lang, doc.created, rng)


def digital_vs_scan(doc: Doc, rng: random.Random) -> tuple[str, tuple[str, str]]:
    digital = as_digital(doc.blocks, doc.lang, rng)
    table = rng.choice(["cols", "cells", "space", None])
    return digital, as_scan(doc.blocks, doc.lang, doc.created, rng, rng.choice(["light", "medium", "medium"]), table)


def cover_page(rng: random.Random, lang: str, corr: fmt.Correspondent, created: dt.date, words: int) -> list[Block]:
    """A fax or cover sheet of about ``words`` words."""
    de = lang == "de"
    p = Prose(rng, lang, None, corr.date_style, corr.amount_style, created)
    to = fmt.person(rng, lang)
    kv = [("An" if de else "To", to.name), ("Von" if de else "From", corr.name),
          ("Fax", fmt.phone(rng, lang)), ("Datum" if de else "Date", fmt.fmt_date(created, corr.date_style)),
          ("Seiten" if de else "Pages", str(rng.randint(2, 9))), ("Betreff" if de else "Re", C.subject(p))]
    head: list[Block] = [("line", rng.choice(["TELEFAX", "Fax-Deckblatt", "FAX COVER SHEET", "Deckblatt"]
                                             if de else ["FAX", "FAX COVER SHEET", "Cover sheet"]))]
    conf: Block = ("line", "Vertraulich – nur für den Empfänger bestimmt." if de
                   else "CONFIDENTIAL - intended for the addressee only.")
    if words < 40:
        kv = kv[:3] + kv[-1:]
    blocks = head + [("kv", kv)]
    left = words - word_count(blocks) - 7
    if left >= 8:
        blocks += [("para", x) for x in p.paragraphs("formal", left, 1, 2)]
    return blocks + [conf, ("page", "")]


def cover_sheet(doc: Doc, corr: fmt.Correspondent, original: str, rng: random.Random) -> tuple[str, str | None]:
    total = max(30, len(original.split()))
    frac = rng.uniform(0.10, 0.40)  # of the copy's words (issue 25: real cover letters reach ~40 %)
    cover_words = int(total * frac / (1 - frac))
    cover = cover_page(rng, doc.lang, corr, doc.created, cover_words)
    if rng.random() < 0.45:
        return as_digital(cover, doc.lang, rng) + "\n\n" + original, None
    return as_scan(cover + doc.blocks, doc.lang, doc.created, rng, rng.choice(["light", "light", "medium", "heavy"]))


def cut_last_page(doc: Doc, rng: random.Random) -> tuple[list[Block], list[Block]]:
    """Put a page break where the last 15-45 % of the words start; return (full, without last page).

    Issue 25: in real archives the lost last page is often a large share of a short document (a
    two-page letter, the signature page of a contract with its annex), up to about 45 %."""
    blocks = [b for b in doc.blocks if b[0] != "page"]
    total = word_count(blocks)
    goal = total * (1 - rng.triangular(0.15, 0.45, 0.38))
    n = 0
    for i, (kind, payload) in enumerate(blocks):
        w = word_count([(kind, payload)])
        if n + w >= goal:
            if kind == "para" and n + w - goal > 10:
                words = str(payload).split()
                k = max(1, int(goal - n))
                head, tail = " ".join(words[:k]), " ".join(words[k:])
                full = blocks[:i] + [("para", head), ("page", ""), ("para", tail)] + blocks[i + 1:]
                return full, blocks[:i] + [("para", head)]
            full = blocks[: i + 1] + [("page", "")] + blocks[i + 1:]
            return full, blocks[: i + 1]
        n += w
    return blocks, blocks[:-1]


def missing_page(doc: Doc, rng: random.Random) -> tuple[tuple[str, str | None], tuple[str, str | None]]:
    full, short = cut_last_page(doc, rng)
    full_doc = Doc(doc.title, full, doc.created, doc.correspondent, doc.lang)
    scan = rng.random() < 0.6
    if scan:
        return (as_scan(full, doc.lang, doc.created, rng, "light"),
                as_scan(short, doc.lang, doc.created, rng, rng.choice(["light", "medium", "medium", "heavy"])))
    first = first_render(full_doc, rng, 0.0)
    if rng.random() < 0.5:  # the digital original, and a scan of the print-out that lost its last page
        return first, as_scan(short, doc.lang, doc.created, rng, rng.choice(["light", "medium", "heavy"]))
    return first, (as_digital(short, doc.lang, rng), None)


def with_stamp(text: str, doc: Doc, rng: random.Random) -> str:
    stamp = N.print_stamp(rng, doc.created, doc.lang)
    r = rng.random()
    if r < 0.4:
        return stamp + "\n" + text
    if r < 0.8:
        return text + "\n" + stamp
    return N.print_stamp(rng, doc.created, doc.lang) + "\n" + text + "\n" + stamp


# A sum, or a number of days or months, in a clause: never a piece of a date ("13.07" of
# 13.07.2025, the month of 2025-05-13, the day of "13 July 2025"), a time or a phone number.
# Before, a draft's "changed number" was often a date's month, written as no one would
# ("2025-5-13"), and the draft then disagreed with its original in a date (issue 12).
_AMOUNT = re.compile(r"(?<![\w.,/:+-])\d{1,3}(?:[.,]\d{3})*[.,]\d{2}(?![\w]|[.,/:-]\d)")
_NUMBER = re.compile(r"(?<![\w.,/:+-])\d{1,2}(?![\w]|[.,/:-]\d)")
_MONTHS = r"(?:jan|feb|mär|mar|apr|mai|may|jun|jul|aug|sep|okt|oct|nov|dez|dec)"
_MONTH_AFTER = re.compile(rf"\.?[ \t]+{_MONTHS}", re.I)
_MONTH_BEFORE = re.compile(rf"{_MONTHS}[a-zä]*\.?[ \t]+$", re.I)


def _changeable(text: str) -> re.Match[str] | None:
    """The first sum, else the first small number, of a clause that is no part of a date."""
    for pattern in (_AMOUNT, _NUMBER):
        for m in pattern.finditer(text):
            if not (_MONTH_AFTER.match(text, m.end()) or _MONTH_BEFORE.search(text[max(0, m.start() - 12):m.start()])):
                return m
    return None


def revise(blocks: list[Block], p: Prose, rng: random.Random, share: tuple[float, float] = (0.03, 0.12)) -> list[Block]:
    """A contract draft with a ``share`` of its words changed (3-12 %: issue 25's archive), clauses
    reworded, added, removed and moved."""
    out = list(blocks)
    total = word_count(out)
    budget = total * rng.uniform(*share)
    changed = 0.0
    tries = 0
    while changed < budget and tries < 200:
        tries += 1
        paras = [i for i, b in enumerate(out) if b[0] == "para"]
        if not paras:
            break
        i = rng.choice(paras)
        text = str(out[i][1])
        r = rng.random()
        left = budget - changed
        if r < 0.45 and left >= 8:  # reword one clause sentence
            sents = text.split(". ")
            j = rng.randrange(len(sents))
            new = p.sentence("legal").rstrip(".")
            changed += len(sents[j].split()) / 2 + len(new.split()) / 2
            sents[j] = new
            out[i] = ("para", ". ".join(sents))
        elif r < 0.7:  # a sum or a number of days/months changed
            m = _changeable(text)
            if not m:
                continue
            val = m.group(0)
            repl = str(rng.randint(2, 12)) if len(val) <= 2 else p.amount(100, 9000).split()[0].lstrip("$£€")
            if repl == val:
                continue
            out[i] = ("para", text[: m.start()] + repl + text[m.end():])
            changed += 1
        elif r < 0.78 and len(paras) > 3:  # a clause moved to another place
            para = out.pop(i)
            at = rng.choice([k for k, b in enumerate(out) if b[0] == "para"] or [i])
            out.insert(at + rng.randint(0, 1), para)
            changed += len(str(para[1]).split()) / 4
        elif r < 0.85 and left >= 25:  # a paragraph inserted
            para = p.paragraph("legal", rng.randint(1, 3))
            out.insert(i + 1, ("para", para))
            changed += len(para.split())
        elif left >= 25 and len(paras) > 4:  # a paragraph removed
            changed += len(text.split())
            del out[i]
        else:  # a word swapped
            words = text.split()
            k = rng.randrange(len(words))
            words[k] = p.slot("adv")
            out[i] = ("para", " ".join(words))
            changed += 1
    return out


def draft_series(rng: random.Random, corr: fmt.Correspondent, created: dt.date, n: int) -> list[tuple[Doc, str]]:
    """``n`` drafts of one contract. Each later draft revises the one before."""
    base = B.make(rng, "contract", corr, created, int(300 * (2500 / 300) ** rng.random()))
    p = Prose(rng, corr.lang, None, corr.date_style, corr.amount_style, created)
    de = corr.lang == "de"
    out = []
    blocks = [b for b in base.blocks if b[0] != "page"]
    d = created
    for v in range(1, n + 1):
        if v > 1:
            blocks = revise(blocks, p, rng)
            d = d + dt.timedelta(days=rng.randint(2, 40))
        head = f"ENTWURF v{v} – Stand {fmt.fmt_date(d, 'dmy_dot')}" if de else f"DRAFT v{v} - {fmt.fmt_date(d, 'dmy_long_en')}"
        full = [("line", head)] + blocks if rng.random() < 0.8 else list(blocks)
        doc = Doc(f"{base.title} {'Entwurf' if de else 'draft'} {v}", C.split_pages(full, 480), d, corr.name, corr.lang)
        text = as_digital(doc.blocks, doc.lang, rng) if rng.random() < 0.8 else as_scan(doc.blocks, doc.lang, d, rng, "light")[0]
        out.append((doc, text))
    return out


def email_vs_scan(rng: random.Random, corr: fmt.Correspondent, created: dt.date) -> tuple[Doc, str, str, str]:
    """One letter as e-mail text and as a scanned paper letter. Returns (doc, email, scan, noise level)."""
    de = corr.lang == "de"
    p = Prose(rng, corr.lang, None, corr.date_style, corr.amount_style, created)
    to = fmt.person(rng, corr.lang)
    subj = C.subject(p)
    body = p.paragraphs(rng.choice(["formal", "formal", "report"]), int(80 * (900 / 80) ** rng.random()), 2, 5)
    salut = C.salutation(rng, corr.lang, to)
    t = f"{rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}"
    hdr = ([("Von", f"{corr.contact} <{corr.email}>"), ("Gesendet", f"{fmt.fmt_date(created, 'dmy_long_de')} {t}"),
            ("An", f"{to.name} <{to.first.lower()}.{to.last.lower()}@example.de>"), ("Betreff", subj)]
           if de and rng.random() < 0.6 else
           [("From", f"{corr.contact} <{corr.email}>"), ("Date", f"{fmt.fmt_date(created, 'mdy_short_en')} {t}"),
            ("To", f"{to.first.lower()}.{to.last.lower()}@example.com"), ("Subject", subj)])
    sig = [corr.contact, corr.name, f"{corr.street} | {corr.plz} {corr.city}", f"Tel. {corr.phone}", corr.web]
    disc = ("Diese E-Mail enthält vertrauliche Informationen. Wenn Sie nicht der richtige Adressat sind, informieren "
            "Sie bitte sofort den Absender und vernichten Sie diese Mail. Das unerlaubte Kopieren sowie die unbefugte "
            "Weitergabe dieser Mail sind nicht gestattet." if de else
            "This e-mail and any attachments are confidential and intended solely for the addressee. If you have "
            "received it in error, please notify the sender and delete it. Please consider the environment before "
            "printing this e-mail.")
    mail: list[Block] = [("kv", hdr), ("blank", ""), ("line", salut)] + [("para", b) for b in body]
    mail += [("line", "Mit freundlichen Grüßen" if de else "Kind regards"), ("blank", ""), ("line", "-- ")]
    mail += [("line", s) for s in sig] + [("blank", ""), ("para", disc)]
    email = render(mail, random_layout(rng, "digital", corr.lang), rng)
    letter = C.letter(p, corr, to, created, subj, body, None)
    doc = Doc(subj, letter, created, corr.name, corr.lang)
    scan, lvl = as_scan(letter, corr.lang, created, rng, rng.choice(["light", "medium", "medium", "heavy"]))
    return doc, email, scan, lvl
