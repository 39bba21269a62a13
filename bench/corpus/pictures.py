"""Seeded, network-free labelled corpus of pages without text (issue 26).

    python -m bench.corpus.pictures --docs 600 --seed 1 --out DIR

Writes ``DIR/docs.jsonl`` (id, title, kind, family, capture, group, thumbnail), ``DIR/pairs.jsonl``
(labelled pairs: every pair inside a duplicate group ``dup=true`` with the capture kind; every
other pair inside a family -- one printed form, one shop, one stamp, one notepad -- and every
pair of blank pages and of sketches ``dup=false``; unlisted pairs are non-duplicates) and one
``DIR/thumbs/<id>.webp`` per document: the first page as Paperless serves it (about 400 px
wide, WebP), made by :func:`render_thumbnail` -- which the tests' fake Paperless calls too.

Originals are flatbed scans (receipts: phone photos); a duplicate is another capture of the
same sheet: ``rescan``, ``phone``, ``fax``, ``crop`` (bench.corpus.captures); two copies of one
original make a ``copy-copy`` pair.  Blank pages are re-captured too, and never duplicates.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from . import captures as C
from . import picture_pages as P

#: Share of the corpus that is an original of each page kind, and the size of a family.
KINDS: dict[str, tuple[float, int]] = {
    "note": (0.12, 10), "drawing": (0.07, 0), "sketch": (0.07, 0), "receipt": (0.13, 20),
    "form": (0.16, 32), "stamp": (0.07, 14), "blank": (0.10, 0),
}
CAPTURES = ("rescan", "phone", "fax", "crop")
RECEIPT_CAPTURES = ("phone", "rescan", "fax")
#: How an original was captured: a flatbed scan, a receipt's photo.
ORIGINALS = ("scan", "photo")
#: Pairs inside one family that are not copies: the hard negatives, by page kind.
FAMILY_NEGATIVE = {"note": "same-notepad", "receipt": "same-shop", "form": "form-fill", "stamp": "same-stamp",
                   "blank": "blank", "sketch": "sketch"}


@dataclass(frozen=True)
class PictureDoc:
    id: int
    title: str
    kind: str
    family: int
    page_seed: int
    capture: str
    capture_seed: int
    group: int | None

    @property
    def thumbnail(self) -> str:
        return f"thumbs/{self.id}.webp"


@dataclass(frozen=True)
class PicturePair:
    a: int
    b: int
    dup: bool
    kind: str


def draw_page(doc: PictureDoc) -> Image.Image:
    rng = random.Random(doc.page_seed)
    drawers: dict[str, Callable[[], Image.Image]] = {
        "note": lambda: P.draw_note(doc.family, rng), "drawing": lambda: P.draw_drawing(rng),
        "sketch": lambda: P.draw_sketch(rng), "receipt": lambda: P.draw_receipt(doc.family, rng),
        "form": lambda: P.draw_form(doc.family, rng), "stamp": lambda: P.draw_stamp_page(doc.family, rng),
        "blank": lambda: P.draw_blank(rng),
    }
    return drawers[doc.kind]()


def _content_box(page: Image.Image) -> tuple[int, int, int, int]:
    arr = np.asarray(page, dtype=np.int16)
    ink = arr < np.median(arr) - 35
    ys, xs = np.nonzero(ink)
    if len(xs) == 0:
        return (page.width // 4, page.height // 4, 3 * page.width // 4, 3 * page.height // 4)
    return (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)


def capture_image(doc: PictureDoc) -> Image.Image:
    page = draw_page(doc)
    rng = random.Random(doc.capture_seed)
    if doc.kind == "receipt" and doc.capture in ("rescan", "fax"):
        page = C.on_scanner_bed(page, rng)
    if doc.capture == "scan":
        return C.scan(page, rng)
    if doc.capture == "photo":
        return C.photo_of(page, rng)
    if doc.capture == "crop":
        return C.crop(page, rng, _content_box(page))
    return {"rescan": C.rescan, "phone": C.phone, "fax": C.fax}[doc.capture](page, rng)


def render_thumbnail(doc: PictureDoc) -> bytes:
    """The WebP thumbnail Paperless would serve for ``doc`` (deterministic for a given doc)."""
    return C.paperless_thumbnail(capture_image(doc))


def plan(docs: int, seed: int) -> tuple[list[PictureDoc], list[PicturePair]]:
    """The documents and labelled pairs of a corpus of about ``docs`` documents (nothing rendered)."""
    rng = random.Random(seed)
    rows: list[dict[str, object]] = []
    family_base = seed * 1000
    for kind, (share, family_size) in KINDS.items():
        count = max(2, round(docs * share))
        for i in range(count):
            family = family_base + (i // family_size if family_size else i)
            rows.append({"kind": kind, "family": family, "page_seed": rng.getrandbits(48),
                         "capture": "photo" if kind == "receipt" else "scan", "group": None})
        family_base += 100
    originals = [r for r in rows if r["kind"] != "blank"]
    copies_wanted = max(1, docs - len(rows))
    group_id = 0
    copies: list[dict[str, object]] = []
    rng.shuffle(originals)
    cycle = itertools.count()
    for original in itertools.cycle(originals):
        if len(copies) >= copies_wanted:
            break
        group_id += 1
        original["group"] = group_id
        for _ in range(2 if rng.random() < 0.2 else 1):
            kinds = RECEIPT_CAPTURES if original["kind"] == "receipt" else CAPTURES
            capture = kinds[next(cycle) % len(kinds)]
            copies.append({**original, "capture": capture, "group": group_id})
        if len(copies) >= copies_wanted or group_id >= len(originals):
            break
    blanks = [r for r in rows if r["kind"] == "blank"]
    for blank in blanks[: len(blanks) // 3]:  # a blank sheet scanned twice is still not a duplicate
        copies.append({**blank, "capture": rng.choice(CAPTURES), "group": None})
    everything = rows + copies
    rng.shuffle(everything)
    out = [PictureDoc(id=i + 1, title=f"{r['kind']} {i + 1}", kind=str(r["kind"]), family=int(str(r["family"])),
                      page_seed=int(str(r["page_seed"])), capture=str(r["capture"]), capture_seed=rng.getrandbits(48),
                      group=None if r["group"] is None else int(str(r["group"])))
           for i, r in enumerate(everything)]
    return out, label_pairs(out)


def label_pairs(docs: list[PictureDoc]) -> list[PicturePair]:
    pairs: list[PicturePair] = []
    by_group: dict[int, list[PictureDoc]] = {}
    by_family: dict[tuple[str, int], list[PictureDoc]] = {}
    for doc in docs:
        if doc.group is not None:
            by_group.setdefault(doc.group, []).append(doc)
        if doc.kind in FAMILY_NEGATIVE:
            key = (doc.kind, 0) if doc.kind in ("blank", "sketch") else (doc.kind, doc.family)
            by_family.setdefault(key, []).append(doc)
    labelled: set[tuple[int, int]] = set()
    for members in by_group.values():
        for x, y in itertools.combinations(sorted(members, key=lambda d: d.id), 2):
            if x.capture in ORIGINALS:
                kind = y.capture
            elif y.capture in ORIGINALS:
                kind = x.capture
            else:
                kind = "copy-copy"
            pairs.append(PicturePair(x.id, y.id, True, kind))
            labelled.add((x.id, y.id))
    for (kind, _), members in by_family.items():
        for x, y in itertools.combinations(sorted(members, key=lambda d: d.id), 2):
            if (x.id, y.id) not in labelled:
                pairs.append(PicturePair(x.id, y.id, False, FAMILY_NEGATIVE[kind]))
    return sorted(pairs, key=lambda p: (p.a, p.b))


def write(out: Path, docs: int, seed: int) -> tuple[list[PictureDoc], list[PicturePair]]:
    documents, pairs = plan(docs, seed)
    (out / "thumbs").mkdir(parents=True, exist_ok=True)
    with open(out / "docs.jsonl", "w", encoding="utf-8") as fh:
        for doc in documents:
            row = {k: v for k, v in asdict(doc).items() if k not in ("page_seed", "capture_seed")}
            fh.write(json.dumps({**row, "thumbnail": doc.thumbnail}) + "\n")
            (out / doc.thumbnail).write_bytes(render_thumbnail(doc))
    with open(out / "pairs.jsonl", "w", encoding="utf-8") as fh:
        for pair in pairs:
            fh.write(json.dumps(asdict(pair)) + "\n")
    return documents, pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    documents, pairs = write(args.out, args.docs, args.seed)
    dups = sum(p.dup for p in pairs)
    print(f"{len(documents)} documents, {dups} duplicate pairs, {len(pairs) - dups} labelled non-duplicates -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
