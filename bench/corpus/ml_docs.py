"""Background documents and duplicates of the multilingual corpus, in any language of ``ml_lang``.

The OCR damage is the project's (:func:`bench.corpus.noise.ocr` with its levels), the page layouts
are :mod:`bench.corpus.render`'s, the cut of a missing last page is :func:`bench.corpus.dups.cut_last_page`;
what is written in a language (page footers, scanner headers, stamps, e-mail headers, cover sheets,
draft marks) comes from the language's module.
"""

from __future__ import annotations

import datetime as dt
import random
import re

from . import dups as D
from . import fmt
from . import ml_fmt as F
from . import noise as N
from .ml_lang import Lang
from .prose import Block, Doc, word_count
from .render import random_layout, render

# Short-note re-scans and terms updates (issue 25) come from their own generators (short_notes,
# revisions), which have no French, Dutch, Spanish or Italian texts: not kinds of this corpus.
DUP_KINDS = [k for k in D.DUP_KINDS if k not in ("short_rescan", "revision")]
BACKGROUND_TYPES = ("letter", "notice", "contract", "invoice", "email")

# OCR loses accents the way it loses umlauts (the project's noise model only knows German ones)
_ACCENTS = str.maketrans({"é": "e", "è": "e", "ê": "e", "à": "a", "ç": "c", "ù": "u", "î": "i", "ô": "o", "ë": "e",
                          "ï": "i", "á": "a", "í": "i", "ó": "o", "ú": "u", "ñ": "n", "ò": "o", "ì": "i", "É": "E"})


def _lose_accents(text: str, rate: float, rng: random.Random) -> str:
    if rate <= 0:
        return text
    return "".join(c.translate(_ACCENTS) if rng.random() < rate else c for c in text)


def _pages(blocks: list[Block], lang: Lang, rng: random.Random) -> list[Block]:
    """Page breaks become the language's page footer ("Page 1 sur 3") or a bare number."""
    n = 1 + sum(1 for k, _ in blocks if k == "page")
    if n == 1:
        return blocks
    style = rng.randrange(3)
    out: list[Block] = []
    i = 1
    for b in blocks:
        if b[0] == "page":
            out.append(("line", F.fill(lang.text["page"], i=i, n=n) if style == 0 else (f"- {i} -" if style == 1 else "")))
            i += 1
        out.append(b)
    return out


def as_digital(blocks: list[Block], lang: Lang, rng: random.Random) -> str:
    layout = random_layout(rng, "digital", lang.code)
    return render(_pages(blocks, lang, rng), layout, rng)


def as_scan(blocks: list[Block], lang: Lang, created: dt.date, rng: random.Random, lvl: str | None = None) -> tuple[str, str]:
    """Rendered like a scanned print-out, with the project's OCR noise. Returns (text, noise level)."""
    layout = random_layout(rng, "scan", lang.code)
    layout.pages = "none"
    text = render(_pages(blocks, lang, rng), layout, rng)
    lvl = lvl or N.random_level(rng)
    noise = N.level(rng, lvl)
    # a thin or no-break space between digit groups ("1 234,56 €") is read as a blank or not at all
    text = text.replace("\u202f", rng.choice([" ", " ", ""])).replace("\u00a0", " ")
    text = N.ocr(_lose_accents(text, noise.umlaut_loss, rng), noise, rng)
    if rng.random() < 0.35:
        text = stamp(rng, lang, created, lang.scan_headers) + "\n" + text
    return text, lvl


def first_render(blocks: list[Block], lang: Lang, created: dt.date, rng: random.Random, scan_p: float) -> tuple[str, str | None]:
    if rng.random() < scan_p:
        return as_scan(blocks, lang, created, rng, "light")
    return as_digital(blocks, lang, rng), None


def stamp(rng: random.Random, lang: Lang, when: dt.date, forms: tuple[str, ...] | None = None) -> str:
    d = when + dt.timedelta(days=rng.randint(0, 400))
    return F.fill(rng.choice(forms or lang.stamps), date=F.date(lang, d, "numeric", 0),
                  time=f"{rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}")


# --- background documents ----------------------------------------------------------------------


def background(rng: random.Random, lang: Lang, corr: F.Corr, created: dt.date, kind: str, words: int,
               second: Lang | None = None) -> Doc:
    """An unrelated document of ``kind`` (see BACKGROUND_TYPES) of about ``words`` words."""
    to = F.person(rng, second or lang)
    date = corr.date_style(second if second is not None and rng.random() < 0.4 else lang, created)
    title = f"{rng.choice(lang.doc_titles)} {F.fill(rng.choice(lang.grammar['objects']))}"
    head: list[Block] = [("line", x) for x in [*corr.letterhead(), ""]]
    head += [("line", x) for x in [*F.address_lines(to), ""]] + [("line", F.fill(lang.text["place_date"],
                                                                                         city=corr.city, date=date))]
    if kind == "contract":
        blocks: list[Block] = [("line", lang.text["contract"]), ("line", corr.name), ("line", to.name), ("blank", "")]
        k = 1
        while word_count(blocks) < words:
            blocks += [("line", F.fill(lang.text["article"], n=k)), ("para", F.paragraph(rng, lang, rng.randint(2, 6), 0.6))]
            k += 1
        blocks += [("line", F.fill(lang.text["place_date"], city=corr.city, date=date)), ("line", corr.contact)]
    elif kind == "invoice":
        label, no = F.ident(rng, lang, "invoice_no", created.year)
        rows = [[lang.text["col_item"], lang.text["col_qty"], lang.text["col_amount"]]]
        total = 0.0
        for item in rng.sample(list(lang.items), k=rng.randint(1, 6)):
            x = round(rng.uniform(5, 900), 2)
            total += x
            rows.append([item, str(rng.randint(1, 9)), F.amount(lang, x, corr.amount_index)])
        blocks = head + [("line", lang.text["invoice"]), ("kv", [(label, no), (rng.choice(lang.labels["invoice_date"]), date)]),
                         ("table", rows), ("kv", [(lang.text["total_due"], F.amount(lang, total, corr.amount_index))]),
                         ("para", F.fill(lang.text["invoice_pay"], amount=F.amount(lang, total, corr.amount_index),
                                         date=F.date(lang, created + dt.timedelta(days=30), "numeric", 0), ref=no))]
        blocks += [("para", p) for p in F.paragraphs(rng, lang, max(0, words - 60))]
        blocks += [("line", x) for x in corr.footer()]
    else:
        label, ref = F.ident(rng, lang, rng.choice(["reference", "customer_no", "contract_no", "order_no"]), created.year)
        subject = f"{lang.text['subject']}: {title}"
        body: list[Block] = [("para", p) for p in F.paragraphs(rng, lang, max(20, words - 40))]
        if kind == "email":
            blocks = [("kv", [(lang.text["mail_from"], f"{corr.contact} <{corr.email}>"), (lang.text["mail_sent"], date),
                              (lang.text["mail_to"], to.name), (lang.text["subject"], title)]), ("blank", "")]
            blocks += body + [("line", lang.text["regards_short"]), ("line", corr.contact), ("para", lang.text["mail_disclaimer"])]
        else:
            blocks = head + [("kv", [(label, ref)]), ("line", subject), ("line", lang.text["dear"])] + body
            blocks += [("line", lang.text["regards"]), ("line", corr.contact), ("blank", "")]
            blocks += [("line", x) for x in corr.footer()]
    if second is not None:  # a summary in the reader's language, or the sender's other language
        blocks.append(("para", F.paragraph(rng, second, rng.randint(2, 4), 0.3)))
    return Doc(title, split_pages(blocks, 450), created, corr.name, lang.code)


def split_pages(blocks: list[Block], every_words: int) -> list[Block]:
    out: list[Block] = []
    n = 0
    for b in blocks:
        out.append(b)
        n += word_count([b])
        if b[0] == "para" and n >= every_words:
            out.append(("page", ""))
            n = 0
    if out and out[-1][0] == "page":
        out.pop()
    return out


# --- duplicates ---------------------------------------------------------------------------------


def email_copy(doc: Doc, lang: Lang, corr: F.Corr, rng: random.Random) -> str:
    """The letter as the e-mail that carried it: mail headers on top, the letterhead and address gone."""
    body = [b for b in doc.blocks if b[0] in ("para", "kv", "table")]
    head: list[Block] = [("kv", [(lang.text["mail_from"], f"{corr.contact} <{corr.email}>"),
                                 (lang.text["mail_sent"], f"{corr.date_style(lang, doc.created)} {rng.randint(7, 19):02d}:"
                                                          f"{rng.randint(0, 59):02d}"),
                                 (lang.text["subject"], doc.title)]), ("blank", "")]
    tail: list[Block] = [("line", lang.text["regards_short"]), ("line", corr.contact), ("para", lang.text["mail_disclaimer"])]
    return as_digital(head + body + tail, lang, rng)


def cover_sheet(doc: Doc, lang: Lang, corr: F.Corr, original: str, rng: random.Random) -> tuple[str, str | None]:
    words = max(12, int(len(original.split()) * rng.uniform(0.1, 0.3)))
    cover: list[Block] = [("line", lang.text["fax"]), ("kv", [
        (lang.text["mail_to"], F.person(rng, lang).name), (lang.text["mail_from"], corr.name),
        ("Fax", F.phone(rng, lang)), (rng.choice(lang.labels["date"]), corr.date_style(lang, doc.created)),
        (lang.text["fax_pages"], str(rng.randint(2, 9)))])]
    if words > 30:
        cover += [("para", p) for p in F.paragraphs(rng, lang, words - 20)]
    cover += [("line", lang.text["confidential"]), ("page", "")]
    if rng.random() < 0.5:
        return as_digital(cover, lang, rng) + "\n\n" + original, None
    return as_scan(cover + doc.blocks, lang, doc.created, rng, "light")


def with_stamp(text: str, lang: Lang, created: dt.date, rng: random.Random) -> str:
    line = stamp(rng, lang, created)
    r = rng.random()
    if r < 0.4:
        return line + "\n" + text
    if r < 0.8:
        return text + "\n" + line
    return stamp(rng, lang, created) + "\n" + text + "\n" + line


_SMALL_NUMBER = re.compile(r"(?<![\w.,/:+-])\d{1,2}(?![\w]|[.,/:-]\d)")


def revise(blocks: list[Block], lang: Lang, rng: random.Random) -> list[Block]:
    """A draft's next version: 2-8 % of its words changed (clauses reworded, a number, a clause added or dropped)."""
    out = list(blocks)
    budget = word_count(out) * rng.uniform(0.02, 0.08)
    changed = 0.0
    for _ in range(200):
        if changed >= budget:
            break
        paras = [i for i, b in enumerate(out) if b[0] == "para"]
        if not paras:
            break
        i = rng.choice(paras)
        text = str(out[i][1])
        r = rng.random()
        if r < 0.5:
            sents = text.split(". ")
            j = rng.randrange(len(sents))
            new = F.sentence(rng, lang).rstrip(".")
            changed += (len(sents[j].split()) + len(new.split())) / 2
            sents[j] = new
            out[i] = ("para", ". ".join(sents))
        elif r < 0.7 and (m := _SMALL_NUMBER.search(text)):
            out[i] = ("para", text[: m.start()] + str(rng.randint(2, 12)) + text[m.end():])
            changed += 1
        elif r < 0.85 and budget - changed > 20:
            extra = F.paragraph(rng, lang, rng.randint(1, 3), 0.5)
            out.insert(i + 1, ("para", extra))
            changed += len(extra.split())
        elif len(paras) > 4 and budget - changed > 20:
            changed += len(text.split())
            del out[i]
    return out


def draft_series(rng: random.Random, lang: Lang, corr: F.Corr, created: dt.date, n: int) -> list[tuple[Doc, str]]:
    base = background(rng, lang, corr, created, "contract", int(300 * (2000 / 300) ** rng.random()))
    blocks = [b for b in base.blocks if b[0] != "page"]
    out = []
    d = created
    for v in range(1, n + 1):
        if v > 1:
            blocks = revise(blocks, lang, rng)
            d = d + dt.timedelta(days=rng.randint(2, 40))
        head: list[Block] = [("line", F.fill(lang.text["draft"], v=v, date=corr.date_style(lang, d)))]
        doc = Doc(f"{base.title} v{v}", split_pages(head + blocks, 450), d, corr.name, lang.code)
        text = as_digital(doc.blocks, lang, rng) if rng.random() < 0.8 else as_scan(doc.blocks, lang, d, rng, "light")[0]
        out.append((doc, text))
    return out


def missing_page(doc: Doc, lang: Lang, rng: random.Random) -> tuple[tuple[str, str | None], tuple[str, str | None]]:
    full, short = D.cut_last_page(doc, rng)
    if rng.random() < 0.6:
        return as_scan(full, lang, doc.created, rng, "light"), as_scan(short, lang, doc.created, rng, "light")
    return (as_digital(full, lang, rng), None), (as_digital(short, lang, rng), None)


def short_note(rng: random.Random, lang: Lang, d: dt.date) -> str:
    return F.fill(rng.choice(lang.notes), name=F.person(rng, lang).name, date=F.date(lang, d, "numeric", 0),
                  amount=F.amount(lang, rng.uniform(5, 500), 0), num=fmt.digits(rng, rng.randint(4, 12)),
                  weekday=lang.weekdays[d.weekday()])
