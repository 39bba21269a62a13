"""A labelled corpus of what the synthetic one lacks: real OCR, short documents, revised versions.

    python -m bench.corpus.real --out DIR --docs N --seed S [--cache DIR] [--jobs 2]

Same files as ``bench.corpus.generate`` (docs.jsonl, pairs.jsonl, doc_meta.jsonl, manifest.json),
for ``paperless-dedupe evaluate``.  Duplicate kinds (must be reported):

``ocr_digital_vs_scan``  a born-digital text and a real scan of it (:mod:`.ocr`), both readable
``ocr_rescan``           two real scans of one page (office scanner, phone photo, worn copy), both readable;
                         also a second scan of one member of an ``ocr_*`` series (which it must match alone)
``ocr_unreadable``       the same, where a scan is past reading (CER > READABLE_CER): measured, no target
``short_rescan``         a short note (under 20 words) and a scan of it (real OCR, sometimes of a page with a
                         scanner's stamp, or :func:`.short_notes.rescan`)
``short_unreadable``     the same, where the real scan is past reading: measured, no target
``revision``             a policy or terms re-issued with a new version date and 2-11 % of it changed;
                         should be reported with ``verdict: "revision"``

Hard negatives (must not be reported): ``ocr_invoice_series``, ``ocr_payslip``, ``ocr_bank_statement``,
``ocr_utility_bill``, ``ocr_insurer_letters`` (template series, every member a real scan: OCR confusions
on top of the values that tell them apart), ``short_series`` (one short note with another serial,
house number, date or amount), plus the digital ``invoice_series``, ``payslip`` and ``bank_statement``
next to the revisions (their dates are periods, not versions).  The rest is unrelated background.

"Readable" is a character error rate (:func:`.ocr.character_error_rate`) of at most READABLE_CER
against the source text: see docs/quality.md for why.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import random
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import background as B
from . import fmt, ocr
from . import noise as N
from . import revisions as RV
from . import series as S1
from . import series2 as S2
from . import short_notes as SN
from .dups import as_digital, as_scan

READABLE_CER = 0.10
PROFILE_WEIGHTS = {"office": 0.35, "phone": 0.3, "worn": 0.23, "poor": 0.12}  # issue 25: worn, the damage of real archives
OCR_SERIES = {"invoice_series": S1.invoice_series, "payslip": S1.payslip, "bank_statement": S1.bank_statement,
              "utility_bill": S1.utility_bill, "insurer_letters": S2.insurer_letters}
OCR_TYPES = ["letter", "invoice", "tax_notice", "doctor_letter", "policy", "order_confirmation", "contract"]


@dataclass
class Job:
    """A real scan to make: resolved (in a thread pool, tesseract being a process) before writing."""
    source: str
    lang: str
    profile: str
    seed: int
    result: ocr.Scan | None = None


@dataclass
class Rec:
    content: str | Job
    title: str
    created: dt.date
    correspondent: str
    role: str
    lang: str
    meta: dict[str, object] = field(default_factory=dict)

    @property
    def text(self) -> str:
        if isinstance(self.content, Job):
            assert self.content.result is not None
            return self.content.result.text
        return self.content

    @property
    def cer(self) -> float:
        return self.content.result.cer if isinstance(self.content, Job) and self.content.result else 0.0


class RealBuilder:
    def __init__(self, n: int, seed: int) -> None:
        self.n, self.seed = n, seed
        self.rng = random.Random(f"real:{seed}")
        self.recs: list[Rec] = []
        self.groups: list[tuple[str, list[int]]] = []  # (kind, members): every pair a duplicate
        self.series: list[tuple[str, list[int]]] = []  # (kind, members): every pair a hard negative

    def sub(self) -> random.Random:
        return random.Random(self.rng.getrandbits(64))

    def add(self, rec: Rec) -> int:
        self.recs.append(rec)
        return len(self.recs) - 1

    def lang(self, rng: random.Random) -> str:
        return "de" if rng.random() < 0.55 else "en"

    def job(self, rng: random.Random, source: str, lang: str, profile: str | None = None) -> Job:
        profile = profile or rng.choices(list(PROFILE_WEIGHTS), list(PROFILE_WEIGHTS.values()))[0]
        return Job(source, lang, profile, rng.randint(1, 10**6))

    # -- units -------------------------------------------------------------------------------
    def ocr_pair(self, kind: str, worn: bool = False) -> None:
        """A document and a real scan of it (or two scans).  ``worn``: a one-page document of 50-180
        words whose scan is a worn copy (issue 25: where real archives lose their readable pairs)."""
        rng = self.sub()
        lang = self.lang(rng)
        corr = fmt.correspondent(rng, lang, "company")
        types = ["invoice", "tax_notice", "order_confirmation", "letter"] if worn else OCR_TYPES  # worn: values to misread
        doc = B.make(rng, rng.choice(types), corr, fmt.random_date(rng), rng.randint(50, 180) if worn else rng.randint(80, 380))
        source = as_digital(doc.blocks, lang, rng)
        first: str | Job = (source if kind == "ocr_digital_vs_scan" else
                            self.job(rng, source, lang, rng.choice(["office", "phone", "worn"]) if worn else None))
        second = self.job(rng, source, lang, "worn" if worn else None)
        a = self.add(Rec(first, doc.title, doc.created, doc.correspondent, "dup_original", lang))
        b = self.add(Rec(second, doc.title, doc.created, "", kind, lang, {"profile": second.profile}))
        self.groups.append((kind, [a, b]))

    def ocr_series(self, kind: str) -> None:
        """A template series, every member a real scan, and a second scan of one member (issue 25):
        it must match that month and no other, through OCR slips in the values that tell them apart."""
        rng = self.sub()
        lang = self.lang(rng)
        corr = fmt.correspondent(rng, lang, {"payslip": "employer", "bank_statement": "bank", "utility_bill": "utility",
                                             "insurer_letters": "insurer"}.get(kind, "company"))
        docs = OCR_SERIES[kind](rng, corr, rng.randint(3, 4), fmt.random_date(rng, 2016, 2024))
        profile = rng.choice(["office", "office", "phone", "worn"])
        ids = [self.add(Rec(self.job(rng, as_digital(d.blocks, lang, rng), lang, profile), d.title, d.created,
                            d.correspondent, "ocr_" + kind, lang)) for d in docs]
        # drawn after the members, so that their scans keep their cache entries
        k = rng.randrange(len(ids))
        member = self.recs[ids[k]]
        assert isinstance(member.content, Job)
        again = self.job(rng, member.content.source, lang, rng.choice(["office", "phone", "worn", "worn"]))
        j = self.add(Rec(again, member.title, member.created, "", "ocr_rescan", lang, {"profile": again.profile}))
        self.groups.append(("ocr_rescan", [ids[k], j]))
        self.series.append(("ocr_" + kind, [*ids, j]))

    def short_pair(self) -> None:
        rng = self.sub()
        lang = self.lang(rng)
        note = SN.note(rng, lang)
        first = note.text
        second: str | Job
        d = fmt.random_date(rng)
        if rng.random() < 0.6:
            # the paper of the second copy may carry a scanner's stamp or have its copy line elsewhere
            # (issue 25); the scan's character errors are tesseract's own
            paper = note.text
            if rng.random() < 0.25:
                stamp = SN.scanner_stamp(rng, lang, d)
                paper = stamp + "\n" + paper if rng.random() < 0.5 else paper + "\n" + stamp
            second = self.job(rng, paper, lang, rng.choice(["office", "office", "phone", "worn"]))
        else:
            second = SN.rescan(note.text, lang, d, rng)
        a = self.add(Rec(first, "Notiz" if lang == "de" else "Note", d, "", "dup_original", lang))
        b = self.add(Rec(second, f"Scan {d.isoformat()}", d, "", "short_rescan", lang))
        self.groups.append(("short_rescan", [a, b]))

    def short_series(self) -> None:
        rng = self.sub()
        lang = self.lang(rng)
        base = SN.note(rng, lang)
        notes = [base] + [SN.variant(rng, base) for _ in range(2)]
        ids = []
        for note in notes:
            text: str | Job = note.text
            if rng.random() < 0.3:
                text = self.job(rng, note.text, lang, "office")
            elif rng.random() < 0.3:
                text = N.ocr(note.text, N.level(rng, "light"), rng)
            d = fmt.random_date(rng)
            ids.append(self.add(Rec(text, f"Scan {d.isoformat()}", d, "", "short_series", lang)))
        self.series.append(("short_series", ids))

    def revision_group(self) -> None:
        rng = self.sub()
        lang = self.lang(rng)
        corr = fmt.correspondent(rng, lang, rng.choice(["company", "insurer", "bank", "landlord"]))
        docs = RV.versions(rng, corr, fmt.random_date(rng, 2015, 2022), rng.choice([2, 2, 3]))
        ids = []
        for d in docs:
            text = as_digital(d.blocks, lang, rng) if rng.random() < 0.7 else as_scan(d.blocks, lang, d.created, rng, "light")[0]
            ids.append(self.add(Rec(text, d.title, d.created, d.correspondent, "revision", lang)))
        self.groups.append(("revision", ids))

    def digital_series(self, kind: str) -> None:
        rng = self.sub()
        lang = self.lang(rng)
        maker = {"invoice_series": S1.invoice_series, "payslip": S1.payslip, "bank_statement": S1.bank_statement}[kind]
        corr = fmt.correspondent(rng, lang, {"payslip": "employer", "bank_statement": "bank"}.get(kind, "company"))
        docs = maker(rng, corr, rng.randint(3, 6), fmt.random_date(rng, 2016, 2024))
        ids = [self.add(Rec(as_digital(d.blocks, lang, rng), d.title, d.created, d.correspondent, kind, lang))
               for d in docs]
        self.series.append((kind, ids))

    def background(self) -> None:
        rng = self.sub()
        lang = self.lang(rng)
        corr = fmt.correspondent(rng, lang, "company")
        doc = B.make(rng, rng.choice(list(B.TYPES)), corr, fmt.random_date(rng))
        self.add(Rec(as_digital(doc.blocks, lang, rng), doc.title, doc.created, doc.correspondent, "background", lang))

    def build(self) -> None:
        n, rng = self.n, self.rng
        plan: list[tuple[str, tuple[object, ...]]] = []
        plan += [("ocr_pair", ("ocr_digital_vs_scan",))] * max(2, round(n * 0.06))
        plan += [("ocr_pair", ("ocr_rescan",))] * max(2, round(n * 0.05))
        plan += [("ocr_series", (k,)) for k in itertools.islice(itertools.cycle(OCR_SERIES), max(5, round(n * 0.015)))]
        plan += [("short_pair", ())] * max(2, round(n * 0.07))
        plan += [("short_series", ())] * max(2, round(n * 0.03))
        plan += [("revision_group", ())] * max(2, round(n * 0.04))
        plan += [("digital_series", (k,)) for k in itertools.islice(itertools.cycle(["invoice_series", "payslip",
                                                                                      "bank_statement"]), max(3, round(n * 0.02)))]
        rng.shuffle(plan)
        for name, args in plan:
            getattr(self, name)(*args)
        # issue 25: short pages on worn copies, drawn after the rest so that the scans above keep
        # their cache entries
        for k in range(max(4, round(n * 0.045))):
            self.ocr_pair("ocr_digital_vs_scan" if k % 3 else "ocr_rescan", worn=True)
        for kind in itertools.islice(itertools.cycle(OCR_SERIES), max(3, round(n * 0.015))):
            self.ocr_series(kind)
        while len(self.recs) < n:
            self.background()

    def jobs(self) -> list[Job]:
        return [r.content for r in self.recs if isinstance(r.content, Job)]

    def write(self, out: Path) -> dict[str, object]:
        out.mkdir(parents=True, exist_ok=True)
        ids = list(range(1, len(self.recs) + 1))
        self.rng.shuffle(ids)
        pairs: dict[tuple[int, int], tuple[bool, str]] = {}
        for kind, members in self.groups:
            for i, j in itertools.combinations(members, 2):
                k = kind
                if max(self.recs[i].cer, self.recs[j].cer) > READABLE_CER:  # a scan past reading
                    k = "short_unreadable" if kind == "short_rescan" else "ocr_unreadable"
                pairs[tuple(sorted((ids[i], ids[j])))] = (True, k)  # type: ignore[index]
        for kind, members in self.series:
            for i, j in itertools.combinations(members, 2):
                pairs.setdefault(tuple(sorted((ids[i], ids[j]))), (False, kind))  # type: ignore[arg-type]
        order = sorted(range(len(self.recs)), key=lambda i: ids[i])
        with open(out / "docs.jsonl", "w", encoding="utf-8", newline="\n") as f:
            for i in order:
                r = self.recs[i]
                f.write(json.dumps({"id": ids[i], "title": r.title, "content": r.text, "created": r.created.isoformat(),
                                    "correspondent": r.correspondent}, ensure_ascii=False) + "\n")
        with open(out / "doc_meta.jsonl", "w", encoding="utf-8", newline="\n") as f:
            for i in order:
                r = self.recs[i]
                row: dict[str, object] = {"id": ids[i], "role": r.role, "lang": r.lang, "words": len(r.text.split()), **r.meta}
                if isinstance(r.content, Job):
                    row.update(profile=r.content.profile, cer=r.cer)
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        with open(out / "pairs.jsonl", "w", encoding="utf-8", newline="\n") as f:
            for (a, b), (dup, kind) in sorted(pairs.items()):
                f.write(json.dumps({"a": a, "b": b, "dup": dup, "kind": kind}) + "\n")
        per_kind: dict[str, int] = {}
        for _dup, kind in pairs.values():
            per_kind[kind] = per_kind.get(kind, 0) + 1
        cers = sorted(r.cer for r in self.recs if isinstance(r.content, Job))
        manifest = {"generator": "bench.corpus.real", "version": 1, "seed": self.seed, "requested_docs": self.n,
                    "documents": len(self.recs), "pairs": len(pairs), "pairs_per_kind": dict(sorted(per_kind.items())),
                    "scans": len(cers), "readable_cer": READABLE_CER,
                    "scans_readable": sum(1 for c in cers if c <= READABLE_CER),
                    "tesseract": ocr.tesseract_version() if cers and ocr.available() is None else None}
        (out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return manifest


def resolve(jobs: list[Job], cache: Path | None, workers: int) -> int:
    """Runs every scan (tesseract, or the cache); returns how many were read from the cache."""
    def run(job: Job) -> None:
        job.result = ocr.scan(job.source, job.lang, job.profile, job.seed, cache=cache)

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        list(pool.map(run, jobs))
    return sum(1 for j in jobs if j.result is not None and j.result.cached)


def generate(out: Path, docs: int, seed: int, *, cache: Path | None = ocr.DEFAULT_CACHE, workers: int = 2) -> dict[str, object]:
    b = RealBuilder(docs, seed)
    b.build()
    jobs = b.jobs()
    cached = resolve(jobs, cache, workers)
    manifest = b.write(out)
    manifest["scans_from_cache"] = cached
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.corpus.real", description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--docs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache", type=Path, default=ocr.DEFAULT_CACHE, help="OCR cache directory (default: %(default)s)")
    ap.add_argument("--jobs", type=int, default=2, help="tesseract processes at once")
    args = ap.parse_args(argv)
    if args.docs < 50:
        ap.error("--docs must be at least 50")
    if (why := ocr.available()) is not None:
        print(f"note: {why}; only scans already in {args.cache} can be used", file=sys.stderr)
    t0 = time.perf_counter()
    m = generate(args.out, args.docs, args.seed, cache=args.cache, workers=args.jobs)
    print(f"wrote {m['documents']} documents and {m['pairs']} pairs to {args.out} ({m['scans']} scans, "
          f"{m['scans_from_cache']} from the cache, {m['scans_readable']} readable) in {time.perf_counter() - t0:.1f} s",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
