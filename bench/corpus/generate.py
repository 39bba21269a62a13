"""Seeded, network-free generator of a labelled near-duplicate corpus.

    python -m bench.corpus.generate --out DIR --docs N --seed S

Writes ``DIR/docs.jsonl`` (Paperless-like documents), ``DIR/pairs.jsonl`` (labelled pairs: every pair
inside a duplicate group, dup=true; every other pair inside a template series, dup=false; unlisted
pairs are non-duplicates), ``DIR/manifest.json`` (counts, seed, parameters) and ``DIR/doc_meta.jsonl``
(the role of every document, for debugging a detector). Same seed and parameters, same bytes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import background as B
from . import common as C
from . import dups as D
from . import fmt
from . import library as L
from . import noise as N
from . import revisions as RV
from . import series as S1
from . import series2 as S2
from . import short_notes as SN
from . import vocab as V
from .prose import Doc, Prose
from .render import random_layout, render

SERIES = {
    "invoice_series": (S1.invoice_series, "company"), "bank_statement": (S1.bank_statement, "bank"),
    "utility_bill": (S1.utility_bill, "utility"), "payslip": (S1.payslip, "employer"),
    "ticket_return": (S2.ticket_return, "transport"), "insurer_letters": (S2.insurer_letters, "insurer"),
    "payment_reminder": (S2.payment_reminder, "company"), "tenancy_form": (S2.tenancy_form, "landlord"),
    # a receipt, a ticket, a meter reading on one template: the same words, other values (issue 25)
    "short_note": (lambda rng, corr, n, start: L.short_notes(rng, corr.lang, n, start), "shop"),
}
DUP_KINDS = D.DUP_KINDS
EDGE_KINDS = ["edge_short", "edge_empty", "edge_junk", "edge_huge"]
DUP_WEIGHTS = {"rescan": 3.0, "digital_vs_scan": 1.2, "email_vs_scan": 1.2, "cover_sheet": 1.0,
               "missing_page": 1.0, "draft_revision": 1.0, "print_stamp": 1.0, "short_rescan": 0.8, "revision": 0.6}
PARAMS = {"background_share": 0.50, "duplicate_share": 0.26, "series_share": 0.21, "german_share": 0.6,
          "huge_words": 20000, "series_size": [3, 14]}
DIGITAL_TYPES = ["invoice", "order_confirmation", "policy", "letter", "report", "tax_notice", "contract", "email"]
LONG_TYPES = ["letter", "contract", "report", "policy", "manual"]
SHORT_DE = ["Bitte zurückrufen – {name} {phone}", "Paket beim Nachbarn abgegeben, Sendung {num}",
            "Zählerstand {num} kWh abgelesen am {date}", "Schlüssel liegt im Briefkasten. {name}",
            "Quittung: {amount} bar erhalten. {name}", "Termin verschoben auf {weekday}, {date}.",
            "Kopie für die Akte, {date}"]
SHORT_EN = ["Call me back - {name}", "Call me back {phone}", "Parcel left with neighbour, tracking {num}",
            "Meeting moved to {weekday} {date}.", "Thanks! See attached. {name}", "Received {amount} cash. {name}",
            "For your files ({date})"]


@dataclass
class Rec:
    title: str
    content: str
    created: dt.date
    correspondent: str
    role: str
    lang: str
    meta: dict[str, object] = field(default_factory=dict)


class Builder:
    def __init__(self, n: int, seed: int) -> None:
        self.n, self.seed = n, seed
        self.rng = random.Random(seed)
        self.recs: list[Rec] = []
        self.groups: list[list[tuple[int, str | None]]] = []
        self.series: list[tuple[str, list[int]]] = []
        self.pools: dict[tuple[str, str], tuple[list[fmt.Correspondent], list[float]]] = {}

    # -- helpers -------------------------------------------------------------------------------
    def sub(self) -> random.Random:
        return random.Random(self.rng.getrandbits(64))

    def lang(self, rng: random.Random) -> str:
        return "de" if rng.random() < PARAMS["german_share"] else "en"

    def corr(self, rng: random.Random, kind: str, lang: str) -> fmt.Correspondent:
        key = (kind, lang)
        if key not in self.pools:
            size = max(4, self.n // 60)
            pool = [fmt.correspondent(rng, lang, kind, *self._name(rng, kind, lang)) for _ in range(size)]
            cum = list(itertools.accumulate(1.0 / (i + 1) ** 0.9 for i in range(size)))
            self.pools[key] = (pool, cum)
        pool, cum = self.pools[key]
        return rng.choices(pool, cum_weights=cum)[0]

    def _name(self, rng: random.Random, kind: str, lang: str) -> tuple[str | None, tuple[str, str]]:
        de = lang == "de"
        place = rng.choice(V.DE_CITIES if de else V.EN_CITIES)
        city = place[1]
        core = rng.choice(V.DE_ORG_CORE if de else V.EN_ORG_CORE)
        last = rng.choice(V.DE_LAST if de else V.EN_LAST)
        names = {
            "utility": f"Stadtwerke {city}" if de else f"{core} Energy Ltd",
            "bank": rng.choice(V.DE_BANKS if de else V.EN_BANKS)[0] + ("" if de else " plc"),
            "insurer": f"{core} Versicherung AG" if de else f"{core} Insurance plc",
            "landlord": f"Hausverwaltung {last} GmbH" if de else f"{core} Lettings Ltd",
            "transport": "DB Fernverkehr AG" if de else f"{core} Air",
            "doctor": f"Praxis Dr. {last}" if de else f"{city} General Hospital",
            "school": f"{rng.choice(['Goethe', 'Schiller', 'Humboldt', 'Lessing'])}-Gymnasium {city}" if de
            else f"{core} Academy",
            "authority": f"Finanzamt {city}" if de else "HM Revenue & Customs",
            "shop": rng.choice([f"REWE Markt {last} oHG", f"EDEKA {last}", f"Bäckerei {last}", f"{core}-Apotheke",
                                f"Getränke {last}", "dm-drogerie markt"] if de else
                               [f"Tesco Express {city}", f"{last}'s Grocers", "Co-op Food", f"{core} Pharmacy"]),
        }
        return names.get(kind), place

    def add(self, rec: Rec) -> int:
        self.recs.append(rec)
        return len(self.recs) - 1

    def copy_rec(self, rng: random.Random, doc: Doc, content: str, kind: str, lvl: str | None = None) -> Rec:
        r = rng.random()
        title = C.scan_title(rng, doc.created) if r < 0.5 else (doc.title if r < 0.8 else f"{doc.title} (1)")
        created = doc.created if rng.random() < 0.75 else doc.created + dt.timedelta(days=rng.randint(1, 60))
        corr = doc.correspondent if rng.random() < 0.75 else ""
        return Rec(title, content, created, corr, kind, doc.lang, {"noise": lvl} if lvl else {})

    def orig_rec(self, doc: Doc, content: str, role: str, lvl: str | None = None) -> Rec:
        meta: dict[str, object] = {"type": doc.meta.get("type", "")}
        if lvl:
            meta["noise"] = lvl
        return Rec(doc.title, content, doc.created, doc.correspondent, role, doc.lang, meta)

    def background_doc(self, rng: random.Random, types: list[str] | None = None, words: int | None = None) -> Doc:
        names = types or list(B.TYPES)
        kind = rng.choices(names, weights=[B.TYPES[t][3] for t in names])[0]
        lang = self.lang(rng)
        corr = self.corr(rng, B.TYPE_CORR_KIND.get(kind, "company"), lang)
        return B.make(rng, kind, corr, fmt.random_date(rng), words)

    # -- units ---------------------------------------------------------------------------------
    def dup_group(self, kind: str, size: int) -> None:
        rng = self.sub()
        members: list[tuple[int, str | None]] = []
        if kind == "email_vs_scan":
            corr = self.corr(rng, "company", self.lang(rng))
            doc, email, scan, lvl = D.email_vs_scan(rng, corr, fmt.random_date(rng))
            first, second = (email, scan) if rng.random() < 0.5 else (scan, email)
            members.append((self.add(self.orig_rec(doc, first, "dup_original")), None))
            members.append((self.add(self.copy_rec(rng, doc, second, kind, lvl)), kind))
        elif kind == "short_rescan":  # a receipt, a ticket, a meter reading and its re-scan(s)
            lang = self.lang(rng)
            note = SN.note(rng, lang)
            d = fmt.random_date(rng)
            doc = Doc("Notiz" if lang == "de" else "Note", [("line", note.text)], d, "", lang)
            first = note.text if rng.random() < 0.7 else SN.rescan(note.text, lang, d, rng)
            members.append((self.add(self.orig_rec(doc, first, "dup_original")), None))
            for _ in range(max(1, size - 1)):
                second = SN.rescan(note.text, lang, d, rng)
                if second == first:
                    second = SN.rescan(first, lang, d, rng)
                members.append((self.add(self.copy_rec(rng, doc, second, kind)), kind))
        elif kind == "revision":  # terms, a privacy policy, a price list re-issued with a few clauses changed
            corr = self.corr(rng, rng.choice(["company", "insurer", "bank", "landlord"]), self.lang(rng))
            versions = RV.versions(rng, corr, fmt.random_date(rng, 2015, 2022), max(2, min(size, 3)))
            for v, doc in enumerate(versions):
                text = (D.as_digital(doc.blocks, doc.lang, rng) if rng.random() < 0.6 else
                        D.as_scan(doc.blocks, doc.lang, doc.created, rng, rng.choice(["light", "light", "medium"]))[0])
                rec = Rec(doc.title, text, doc.created, doc.correspondent, "dup_original" if v == 0 else kind, doc.lang)
                members.append((self.add(rec), None if v == 0 else kind))
        elif kind == "draft_revision":
            corr = self.corr(rng, "company", self.lang(rng))
            drafts = D.draft_series(rng, corr, fmt.random_date(rng), size)
            for v, (doc, text) in enumerate(drafts):
                rec = Rec(doc.title, text, doc.created, doc.correspondent, "dup_original" if v == 0 else kind, doc.lang)
                members.append((self.add(rec), None if v == 0 else kind))
            size = 0
        else:
            if kind == "missing_page":
                doc = self.background_doc(rng, LONG_TYPES, rng.randint(450, 3000))
            elif kind == "digital_vs_scan":
                doc = self.background_doc(rng, DIGITAL_TYPES)
            elif kind == "cover_sheet":
                doc = self.background_doc(rng, LONG_TYPES + DIGITAL_TYPES, int(150 * (2000 / 150) ** rng.random()))
            else:
                doc = self.background_doc(rng)
            if kind == "missing_page":
                (first, lvl0), (second, lvl) = D.missing_page(doc, rng)
            elif kind == "digital_vs_scan":
                first, (second, lvl) = D.digital_vs_scan(doc, rng)
                lvl0 = None
            else:
                first, lvl0 = D.first_render(doc, rng, 0.6 if kind == "rescan" else 0.25)
                if kind == "rescan":
                    second, lvl = D.rescan_copy(doc, rng)
                elif kind == "cover_sheet":
                    corr = self.corr(rng, "company", doc.lang)
                    second, lvl = D.cover_sheet(doc, corr, first, rng)
                else:
                    second, lvl = D.with_stamp(first, doc, rng), None
            members.append((self.add(self.orig_rec(doc, first, "dup_original", lvl0)), None))
            members.append((self.add(self.copy_rec(rng, doc, second, kind, lvl)), kind))
            for _ in range(size - 2):
                extra = "rescan" if kind in ("rescan", "missing_page", "digital_vs_scan") else kind
                if extra == "print_stamp":
                    text, lvl = D.with_stamp(first, doc, rng), None
                elif extra == "cover_sheet":
                    text, lvl = D.cover_sheet(doc, self.corr(rng, "company", doc.lang), first, rng)
                elif extra == "email_vs_scan":
                    extra, (text, lvl) = "rescan", D.rescan_copy(doc, rng)
                else:
                    text, lvl = D.rescan_copy(doc, rng)
                members.append((self.add(self.copy_rec(rng, doc, text, extra, lvl)), extra))
        self.groups.append(members)

    def series_unit(self, kind: str, size: int, rescans: int) -> None:
        rng = self.sub()
        maker, ckind = SERIES[kind]
        lang = self.lang(rng)
        corr = self.corr(rng, ckind, lang)
        docs = maker(rng, corr, size, fmt.random_date(rng, 2016, 2024))
        scan = rng.random() < 0.35
        layout = random_layout(rng, "digital", lang)
        ids = []
        for doc in docs:
            if scan:
                text, lvl = D.as_scan(doc.blocks, lang, doc.created, rng, "light")
            else:
                text, lvl = render(doc.blocks, layout, rng), None
            ids.append(self.add(Rec(doc.title, text, doc.created, doc.correspondent, kind, lang,
                                    {"noise": lvl} if lvl else {})))
        for i in rng.sample(range(len(docs)), k=min(rescans, len(docs))):
            text, lvl = D.rescan_copy(docs[i], rng)
            j = self.add(self.copy_rec(rng, docs[i], text, "rescan", lvl))
            self.groups.append([(ids[i], None), (j, "rescan")])
            ids.append(j)
        self.series.append((kind, ids))

    def edge(self, kind: str, rescan: bool = False) -> None:
        rng = self.sub()
        lang = self.lang(rng)
        d = fmt.random_date(rng)
        if kind == "edge_huge":
            doc = self.background_doc(rng, ["report", "manual", "contract"], PARAMS["huge_words"])  # type: ignore[arg-type]
            text, lvl = D.first_render(doc, rng, 0.3)
            i = self.add(Rec(doc.title, text, doc.created, doc.correspondent, kind, doc.lang, {"noise": lvl} if lvl else {}))
            if rescan:
                copy, lvl = D.rescan_copy(doc, rng)
                j = self.add(self.copy_rec(rng, doc, copy, "rescan", lvl))
                self.groups.append([(i, None), (j, "rescan")])
            return
        if kind == "edge_short":
            p = Prose(rng, lang)
            tpl = rng.choice(SHORT_DE if lang == "de" else SHORT_EN)
            text = (tpl.replace("{name}", p.people[0].name).replace("{phone}", fmt.phone(rng, lang))
                    .replace("{num}", fmt.digits(rng, rng.randint(4, 12))).replace("{amount}", p.amount(5, 500))
                    .replace("{weekday}", p.slot("weekday")).replace("{date}", p.date(d)))
        elif kind == "edge_junk":
            text = "\n".join(N.junk_line(rng) for _ in range(rng.randint(1, 6)))
        else:
            text = ""
        self.add(Rec(C.scan_title(rng, d), text, d, "", kind, lang))

    # -- plan ----------------------------------------------------------------------------------
    def build(self) -> None:
        n, rng = self.n, self.rng
        edges = {"edge_short": max(1, round(n * 0.006)), "edge_empty": max(1, round(n * 0.003)),
                 "edge_junk": max(1, round(n * 0.003)), "edge_huge": max(1, int(n / 1200 + 0.5))}
        dup_units = [(k, 2) for k in DUP_KINDS]
        ser_units = [(k, 3, 1 if k == "invoice_series" else 0) for k in SERIES]
        used_dup, used_ser = 2 * len(DUP_KINDS), 3 * len(SERIES) + 1
        kinds, weights = list(DUP_WEIGHTS), list(DUP_WEIGHTS.values())
        while used_dup < round(n * PARAMS["duplicate_share"]):  # type: ignore[operator]
            k = rng.choices(kinds, weights)[0]
            size = 2
            if k == "draft_revision":
                size = rng.choice([2, 2, 3, 3, 4])
            elif rng.random() < 0.15:
                size = rng.choice([3, 3, 3, 4])
            dup_units.append((k, size))
            used_dup += size
        skinds = list(SERIES)
        while used_ser < round(n * PARAMS["series_share"]):  # type: ignore[operator]
            k = rng.choice(skinds)
            size = min(14, 3 + int(rng.expovariate(1 / 3.0)))
            resc = 1 if rng.random() < 0.2 else 0
            ser_units.append((k, size, resc))
            used_ser += size + resc
        units: list[tuple[str, tuple[object, ...]]] = [("dup", u) for u in dup_units] + [("ser", u) for u in ser_units]
        units += [("edge", (k, False)) for k, c in edges.items() for _ in range(c)]
        if n >= 1000:
            units[-1] = ("edge", ("edge_huge", True))
        used = len(self.recs)
        for what, u in units:
            if what == "dup":
                self.dup_group(*u)  # type: ignore[arg-type]
            elif what == "ser":
                self.series_unit(*u)  # type: ignore[arg-type]
            else:
                self.edge(*u)  # type: ignore[arg-type]
        used = len(self.recs)
        for _ in range(max(3, n - used)):
            rng2 = self.sub()
            doc = self.background_doc(rng2)
            text, lvl = D.first_render(doc, rng2, 0.45)
            self.add(self.orig_rec(doc, text, "background", lvl))

    # -- output --------------------------------------------------------------------------------
    def write(self, out: Path) -> dict[str, object]:
        out.mkdir(parents=True, exist_ok=True)
        ids = list(range(1, len(self.recs) + 1))
        self.rng.shuffle(ids)
        gid: dict[int, int] = {}
        pairs: dict[tuple[int, int], tuple[bool, str]] = {}
        for g, members in enumerate(self.groups):
            for i, _ in members:
                gid[i] = g
            for (i, ki), (j, kj) in itertools.combinations(members, 2):
                kind = kj or ki or "rescan"
                a, b = sorted((ids[i], ids[j]))
                pairs[(a, b)] = (True, kind)
        sid: dict[int, int] = {}
        for s, (kind, members) in enumerate(self.series):
            for i in members:
                sid[i] = s
            for i, j in itertools.combinations(members, 2):
                if i in gid and gid.get(j) == gid[i]:
                    continue
                a, b = sorted((ids[i], ids[j]))
                pairs.setdefault((a, b), (False, kind))
        order = sorted(range(len(self.recs)), key=lambda i: ids[i])
        with open(out / "docs.jsonl", "w", encoding="utf-8", newline="\n") as f:
            for i in order:
                r = self.recs[i]
                f.write(json.dumps({"id": ids[i], "title": r.title, "content": r.content, "created": r.created.isoformat(),
                                    "correspondent": r.correspondent}, ensure_ascii=False) + "\n")
        with open(out / "doc_meta.jsonl", "w", encoding="utf-8", newline="\n") as f:
            for i in order:
                r = self.recs[i]
                row = {"id": ids[i], "role": r.role, "lang": r.lang, "group": gid.get(i), "series": sid.get(i),
                       "words": len(r.content.split()), **r.meta}
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        with open(out / "pairs.jsonl", "w", encoding="utf-8", newline="\n") as f:
            for (a, b), (dup, kind) in sorted(pairs.items()):
                f.write(json.dumps({"a": a, "b": b, "dup": dup, "kind": kind}) + "\n")
        roles: dict[str, int] = {}
        for r in self.recs:
            roles[r.role] = roles.get(r.role, 0) + 1
        pc: dict[str, dict[str, int]] = {"dup": {}, "non_dup": {}}
        for dup, kind in pairs.values():
            d = pc["dup" if dup else "non_dup"]
            d[kind] = d.get(kind, 0) + 1
        gk: dict[str, int] = {}
        for members in self.groups:
            k = next((kk for _, kk in members if kk), "rescan")
            gk[k] = gk.get(k, 0) + 1
        sk: dict[str, int] = {}
        for kind, _ in self.series:
            sk[kind] = sk.get(kind, 0) + 1
        manifest = {
            "generator": "bench.corpus.generate", "version": 1, "seed": self.seed, "requested_docs": self.n,
            "parameters": PARAMS, "documents": len(self.recs), "pairs": len(pairs),
            "kinds": {"duplicate": DUP_KINDS, "hard_negative": list(SERIES), "edge": EDGE_KINDS},
            "documents_per_role": dict(sorted(roles.items())),
            "pairs_per_kind": {k: dict(sorted(v.items())) for k, v in pc.items()},
            "duplicate_groups": len(self.groups), "groups_per_first_kind": dict(sorted(gk.items())),
            "series": len(self.series), "series_per_kind": dict(sorted(sk.items())),
            "languages": {lg: sum(1 for r in self.recs if r.lang == lg) for lg in ("de", "en")},
        }
        (out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return manifest


def generate(out: Path, docs: int, seed: int) -> dict[str, object]:
    b = Builder(docs, seed)
    b.build()
    return b.write(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.corpus.generate", description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, type=Path, help="output directory (created)")
    ap.add_argument("--docs", type=int, default=1000, help="approximate number of documents (>= 50)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.docs < 50:
        ap.error("--docs must be at least 50 (every kind needs room)")
    t0 = time.perf_counter()
    m = generate(args.out, args.docs, args.seed)
    print(f"wrote {m['documents']} documents and {m['pairs']} pairs to {args.out} "
          f"in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
