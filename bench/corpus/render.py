"""Turn a :class:`~bench.corpus.prose.Doc`'s blocks into text, the way Paperless would see it.

``digital`` mimics text extracted from a born-digital PDF (clean, one layout), ``scan`` mimics the OCR
of a printed page: other line wrapping, hyphenation, flattened columns, reordered table cells, page
headers and footers. OCR character noise is added separately (:mod:`bench.corpus.noise`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .prose import Block


@dataclass
class Layout:
    mode: str = "digital"  # "digital" or "scan"
    width: int = 0  # 0: a paragraph is one line
    hyphen: float = 0.0  # probability to hyphenate a long word that does not fit
    table: str = "pad"  # pad | pipe | tab | space | cols | cells
    kv: str = "colon"  # colon | pad | nocolon | split
    pages: str = "blank"  # blank | seite | page | dash | none
    lang: str = "de"


def random_layout(rng: random.Random, mode: str, lang: str) -> Layout:
    if mode == "digital":
        return Layout(
            mode, rng.choice([0, 0, 90, 96, 100, 110]), 0.0, rng.choice(["pad", "pipe", "tab", "pad"]),
            rng.choice(["colon", "pad"]), "blank", lang,
        )
    return Layout(
        mode, rng.randint(48, 88), rng.uniform(0.1, 0.6),
        rng.choice(["space", "space", "cols", "cells", "pad"]),
        rng.choice(["colon", "colon", "nocolon", "split"]),
        rng.choice(["seite", "page", "dash", "none"]) if lang == "de" else rng.choice(["page", "dash", "none"]),
        lang,
    )


def wrap(text: str, width: int, hyphen: float, rng: random.Random) -> list[str]:
    if width <= 0:
        return [text]
    lines: list[str] = []
    cur: list[str] = []
    n = 0
    for w in text.split():
        lw = len(w)
        if n and n + 1 + lw > width:
            room = width - n - 2
            if hyphen and lw >= 8 and room >= 3 and w.isalpha() and rng.random() < hyphen:
                cut = rng.randint(3, min(room, lw - 3)) if min(room, lw - 3) >= 3 else 3
                cur.append(w[:cut] + "-")
                lines.append(" ".join(cur))
                cur, n = [w[cut:]], lw - cut
                continue
            lines.append(" ".join(cur))
            cur, n = [w], lw
        else:
            cur.append(w)
            n += lw + (1 if n else 0)
    if cur:
        lines.append(" ".join(cur))
    return lines


def _table(rows: list[list[str]], style: str, rng: random.Random) -> list[str]:
    if not rows:
        return []
    if style == "cols":  # OCR read the table column by column
        ncol = max(len(r) for r in rows)
        out: list[str] = []
        for c in range(ncol):
            out.extend(r[c] for r in rows if c < len(r) and r[c])
        return out
    if style == "cells":  # one cell per line, row order kept, cells of a row sometimes swapped
        out = []
        for r in rows:
            cells = [c for c in r if c]
            if len(cells) > 2 and rng.random() < 0.25:
                i = rng.randrange(len(cells) - 1)
                cells[i], cells[i + 1] = cells[i + 1], cells[i]
            out.extend(cells)
        return out
    if style == "pipe":
        return [" | ".join(r) for r in rows]
    if style == "tab":
        return ["\t".join(r) for r in rows]
    if style == "space":
        return [" ".join(c for c in r if c) for r in rows]
    widths = [0] * max(len(r) for r in rows)
    for r in rows:
        for i, c in enumerate(r):
            widths[i] = max(widths[i], len(c))
    return ["  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip() for r in rows]


def _kv(pairs: list[tuple[str, str]], style: str) -> list[str]:
    if style == "split" and len(pairs) > 1:  # two text columns read one after the other
        return [k + ":" for k, _ in pairs] + [v for _, v in pairs]
    if style == "nocolon":
        return [f"{k.rstrip(':')} {v}" for k, v in pairs]
    if style == "pad":
        w = max(len(k) for k, _ in pairs) + 2
        return [f"{(k + ':').ljust(w)}{v}" for k, v in pairs]
    return [f"{k}: {v}" for k, v in pairs]


def _page_footer(style: str, i: int, n: int, lang: str) -> str:
    if style == "seite":
        return f"Seite {i} von {n}"
    if style == "page":
        return f"Page {i} of {n}" if lang == "en" else f"Seite {i}/{n}"
    if style == "dash":
        return f"- {i} -"
    return ""


def render(blocks: list[Block], layout: Layout, rng: random.Random) -> str:
    npages = 1 + sum(1 for k, _ in blocks if k == "page")
    page = 1
    out: list[str] = []
    for kind, payload in blocks:
        if kind == "line":
            out.append(str(payload))
        elif kind == "para":
            out.extend(wrap(str(payload), layout.width, layout.hyphen, rng))
            if layout.mode == "digital" or rng.random() < 0.6:
                out.append("")
        elif kind == "table":
            out.extend(_table(payload, layout.table, rng))  # type: ignore[arg-type]
        elif kind == "kv":
            out.extend(_kv(payload, layout.kv))  # type: ignore[arg-type]
        elif kind == "blank":
            out.append("")
        elif kind == "page":
            foot = _page_footer(layout.pages, page, npages, layout.lang)
            if foot:
                out.append(foot)
            out.append("")
            page += 1
    foot = _page_footer(layout.pages, page, npages, layout.lang) if npages > 1 else ""
    if foot:
        out.append(foot)
    text = "\n".join(out)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip("\n")
