"""Seeded, network-free generator of a labelled archive shaped like a real Paperless library.

    python -m bench.corpus.realistic --docs 20000 --seed 7 --out DIR

Half of the documents belong to template families of 12-120 documents: per-vendor monthly
invoices, payslips of one employer, bank statements, utility bills, insurer letters sharing a long
legal footer, tickets, payment reminders, tenancy contracts on one landlord's form, template short
notes, manuals of several makers for one kind of device written from one sentence library, and
contracts on one form assembled from one clause library in different selections and orders. As the
library grows there are more families, never bigger ones. Every pair inside a family is a labelled
hard negative of the family's kind. Some family members have a duplicate (a re-scan, the digital
original and a scan of its print-out, the e-mail and the scanned letter, a cover sheet in front, a
copy missing its last page, a draft with a few clauses changed, a print stamp), labelled with its
kind; stand-alone duplicate groups, unrelated background and edge documents fill the rest.

Writes the files of ``bench.corpus.generate`` (``docs.jsonl``, ``pairs.jsonl``, ``doc_meta.jsonl``,
``manifest.json``), which ``paperless-dedupe evaluate`` reads. Same seed and size, same bytes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from . import dups as D
from . import fmt
from . import library as L
from . import series as S1
from . import series2 as S2
from . import short_notes as SN
from .generate import DUP_KINDS, DUP_WEIGHTS, Builder, Rec
from .prose import Block, Doc, Prose
from .render import random_layout, render

Maker = Callable[[random.Random, fmt.Correspondent, int, dt.date], list[Doc]]

# kind -> (maker or None for the library kinds, correspondent kind, share of family documents, largest family)
FAMILIES: dict[str, tuple[Maker | None, str, float, int]] = {
    "invoice_series": (S1.invoice_series, "company", 0.20, 120),
    "payslip": (S1.payslip, "employer", 0.12, 120),
    "bank_statement": (S1.bank_statement, "bank", 0.09, 120),
    "utility_bill": (S1.utility_bill, "utility", 0.08, 60),
    "insurer_letters": (S2.insurer_letters, "insurer", 0.11, 80),
    "ticket_return": (S2.ticket_return, "transport", 0.06, 60),
    "payment_reminder": (S2.payment_reminder, "company", 0.05, 40),
    "tenancy_form": (S2.tenancy_form, "landlord", 0.04, 30),
    "short_note": (None, "", 0.05, 60),
    "manual_library": (None, "", 0.10, 60),
    "clause_library": (None, "company", 0.10, 80),
}
SMALLEST_FAMILY = 12
# which duplicate a family member may get, by how its family is rendered or assembled
DUPS_SCANNED = {"rescan": 4.0, "email_vs_scan": 1.5, "cover_sheet": 1.0, "print_stamp": 0.7}
DUPS_DIGITAL = {"rescan": 3.0, "digital_vs_scan": 2.0, "cover_sheet": 1.0, "print_stamp": 0.7}
DUPS_MANUAL = {"rescan": 2.0, "digital_vs_scan": 1.0, "missing_page": 2.0}
DUPS_CONTRACT = {"draft_revision": 3.0, "missing_page": 1.5, "rescan": 1.5, "cover_sheet": 1.0}
FAMILY_SHARE = 0.50  # of all documents
FAMILY_DUPLICATE_RATE = 0.05  # of family members that have a duplicate
SHORT_NOTE_DUPLICATE_RATE = 0.15  # of template short notes that have a re-scan (issue 25)
STANDALONE_DUPLICATE_SHARE = 0.10  # of all documents: duplicate groups of unrelated background documents
HUGE_EVERY = 5000  # one 20,000-word document per this many
PARAMS = {"family_share": FAMILY_SHARE, "family_duplicate_rate": FAMILY_DUPLICATE_RATE,
          "standalone_duplicate_share": STANDALONE_DUPLICATE_SHARE, "german_share": 0.6,
          "family_size": [SMALLEST_FAMILY, 120], "huge_every": HUGE_EVERY, "huge_words": 20000}


class RealisticBuilder(Builder):
    """The quality generator's builder, planned like a real archive."""

    def __init__(self, n: int, seed: int) -> None:
        super().__init__(n, seed)
        self.family_sizes: dict[str, list[int]] = {}

    def family_size(self, rng: random.Random, largest: int) -> int:
        """Log-uniform between 12 and the kind's largest family: many small series, a few long ones."""
        return min(largest, int(SMALLEST_FAMILY * (largest / SMALLEST_FAMILY) ** rng.random()))

    def family_docs(self, rng: random.Random, kind: str, size: int) -> tuple[list[Doc], fmt.Correspondent | None]:
        maker, ckind, _, _ = FAMILIES[kind]
        lang = self.lang(rng)
        years = math.ceil(size / 12) + 1
        start = dt.date(max(2000, 2026 - years - rng.randint(0, 4)), rng.randint(1, 12), rng.randint(1, 28))
        if kind == "short_note":
            return L.short_notes(rng, lang, size, start), None
        if kind == "manual_library":
            return L.manuals(rng, lang, L.manual_library(rng, lang), size, start), None
        corr = self.corr(rng, ckind, lang)
        if kind == "clause_library":
            return L.contracts(rng, corr, L.clause_library(rng, lang), size, start), corr
        assert maker is not None
        return maker(rng, corr, size, start), corr

    def family_unit(self, kind: str, size: int) -> None:
        rng = self.sub()
        docs, corr = self.family_docs(rng, kind, size)
        self.family_sizes.setdefault(kind, []).append(len(docs))
        scan = rng.random() < 0.35
        lang = docs[0].lang
        layout = random_layout(rng, "digital", lang)
        if kind == "manual_library":
            table = DUPS_MANUAL
        elif kind == "clause_library":
            table = DUPS_CONTRACT
        else:
            table = DUPS_SCANNED if scan else DUPS_DIGITAL
        ids: list[int] = []
        for doc in docs:
            dup = None
            if kind == "short_note":
                dup = "short_rescan" if rng.random() < SHORT_NOTE_DUPLICATE_RATE else None
            elif rng.random() < FAMILY_DUPLICATE_RATE:
                dup = rng.choices(list(table), weights=list(table.values()))[0]
            if dup == "missing_page" and not any(b[0] == "page" for b in doc.blocks):
                dup = "rescan"
            if dup == "missing_page":
                (first, lvl0), (second, lvl) = D.missing_page(doc, rng)
            elif scan:
                first, lvl0 = D.as_scan(doc.blocks, lang, doc.created, rng, "light")
            else:
                first, lvl0 = render(doc.blocks, layout, rng), None
            i = self.add(Rec(doc.title, first, doc.created, doc.correspondent, kind, lang,
                             {"noise": lvl0} if lvl0 else {}))
            ids.append(i)
            if dup is None:
                continue
            if dup == "short_rescan":
                second, lvl = SN.rescan(first, lang, doc.created, rng), None
            elif dup == "rescan":  # a re-scan of one month of a series: it must match that month and no other
                second, lvl = D.rescan_copy(doc, rng)
                dup = "series_rescan"
            elif dup == "digital_vs_scan":
                second, lvl = D.as_scan(doc.blocks, lang, doc.created, rng, rng.choice(["light", "medium", "medium"]),
                                        rng.choice(["cols", "cells", "space", None]))
            elif dup == "email_vs_scan":
                second, lvl = as_email(doc, corr, rng), None
            elif dup == "cover_sheet":
                second, lvl = D.cover_sheet(doc, self.corr(rng, "company", lang), first, rng)
            elif dup == "print_stamp":
                second, lvl = D.with_stamp(first, doc, rng), None
            elif dup == "draft_revision":
                second, lvl = draft_of(doc, rng), None
            j = self.add(self.copy_rec(rng, doc, second, dup, lvl))
            self.groups.append([(i, None), (j, dup)])
            ids.append(j)
        self.series.append((kind, ids))

    def build(self) -> None:
        n, rng = self.n, self.rng
        kinds = list(FAMILIES)
        shares = [FAMILIES[k][2] for k in kinds]
        units: list[tuple[str, tuple[object, ...]]] = []
        used = 0
        for k in kinds:  # every kind at least once
            size = self.family_size(rng, FAMILIES[k][3])
            units.append(("family", (k, size)))
            used += size
        while used < n * FAMILY_SHARE:
            k = rng.choices(kinds, shares)[0]
            size = self.family_size(rng, FAMILIES[k][3])
            units.append(("family", (k, size)))
            used += size
        dup_kinds, dup_weights = list(DUP_WEIGHTS), list(DUP_WEIGHTS.values())
        dup_used = 0
        for k in DUP_KINDS:
            units.append(("dup", (k, 2)))
            dup_used += 2
        while dup_used < n * STANDALONE_DUPLICATE_SHARE:
            k = rng.choices(dup_kinds, dup_weights)[0]
            size = rng.choice([2, 2, 3, 3, 4]) if k in ("draft_revision", "revision") else (rng.choice([3, 3, 4]) if rng.random() < 0.15 else 2)
            units.append(("dup", (k, size)))
            dup_used += size
        edges = {"edge_short": max(1, round(n * 0.004)), "edge_empty": max(1, round(n * 0.002)),
                 "edge_junk": max(1, round(n * 0.002)), "edge_huge": max(1, round(n / HUGE_EVERY))}
        units += [("edge", (k, False)) for k, c in edges.items() for _ in range(c)]
        rng.shuffle(units)
        for what, u in units:
            if what == "family":
                self.family_unit(*u)  # type: ignore[arg-type]
            elif what == "dup":
                self.dup_group(*u)  # type: ignore[arg-type]
            else:
                self.edge(*u)  # type: ignore[arg-type]
        for _ in range(max(3, n - len(self.recs))):
            rng2 = self.sub()
            doc = self.background_doc(rng2)
            text, lvl = D.first_render(doc, rng2, 0.45)
            self.add(self.orig_rec(doc, text, "background", lvl))

    def write(self, out: Path) -> dict[str, object]:
        manifest = super().write(out)
        manifest["generator"] = "bench.corpus.realistic"
        manifest["parameters"] = PARAMS
        manifest["kinds"] = {"duplicate": [*DUP_KINDS, "series_rescan"], "hard_negative": list(FAMILIES),
                             "edge": ["edge_short", "edge_empty", "edge_junk", "edge_huge"]}
        manifest["family_sizes"] = {k: {"families": len(v), "smallest": min(v), "largest": max(v),
                                        "documents": sum(v)} for k, v in sorted(self.family_sizes.items())}
        (out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return manifest


def as_email(doc: Doc, corr: fmt.Correspondent | None, rng: random.Random) -> str:
    """The document as the body of the e-mail it came with: a mail header, the text, a signature."""
    de = doc.lang == "de"
    sender = corr.email if corr else "info@example.com"
    t = f"{rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}"
    hdr = ([("Von", sender), ("Gesendet", f"{fmt.fmt_date(doc.created, 'dmy_long_de')} {t}"), ("Betreff", doc.title)]
           if de else [("From", sender), ("Date", f"{fmt.fmt_date(doc.created, 'mdy_short_en')} {t}"),
                       ("Subject", doc.title)])
    blocks: list[Block] = [("kv", hdr), ("blank", "")] + [b for b in doc.blocks if b[0] != "page"]
    if corr:
        blocks += [("blank", ""), ("line", "-- "), ("line", corr.contact), ("line", corr.name), ("line", corr.phone)]
    return render(blocks, random_layout(rng, "digital", doc.lang), rng)


def draft_of(doc: Doc, rng: random.Random) -> str:
    """An earlier or later draft of a contract: a few clauses reworded, a sum changed, a draft line on top."""
    p = Prose(rng, doc.lang, None, None, None, doc.created)
    blocks = D.revise([b for b in doc.blocks if b[0] != "page"], p, rng)
    de = doc.lang == "de"
    head = f"ENTWURF – Stand {fmt.fmt_date(doc.created, 'dmy_dot')}" if de else f"DRAFT - {fmt.fmt_date(doc.created, 'dmy_long_en')}"
    return render([("line", head)] + blocks, random_layout(rng, "digital", doc.lang), rng)


def generate(out: Path, docs: int, seed: int) -> dict[str, object]:
    b = RealisticBuilder(docs, seed)
    b.build()
    return b.write(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.corpus.realistic", description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, type=Path, help="output directory (created)")
    ap.add_argument("--docs", type=int, default=3000, help="approximate number of documents (>= 1000)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.docs < 1000:
        ap.error("--docs must be at least 1000 (every family kind needs room for a 12-120 document family)")
    t0 = time.perf_counter()
    m = generate(args.out, args.docs, args.seed)
    print(f"wrote {m['documents']} documents and {m['pairs']} pairs to {args.out} "
          f"in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
