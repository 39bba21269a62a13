"""``paperless-dedupe report --html FILE``: the duplicate groups of the last rebuild
as one self-contained HTML page.

The page loads nothing: inline CSS, no script, no fonts or images, and a
Content-Security-Policy that forbids anything else, so it can be mailed or opened
offline.  The only URLs in it are the links into Paperless.  Everything that comes
from documents (titles, text) goes through ``html.escape``.  ``render`` is pure;
``report_command`` reads the index and writes the file.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from .._errors import IndexStoreError, UsageError
from ..config import Config

SCORE_KEYS = ("score", "jaccard", "fuzzy", "discriminative")
# Head and tail samples of a long text are shown joined by this marker.
GAP = "[…]"

CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1200px;
padding:1.2em 1.5em 3em;color:#1d232a;background:#fff}
h1{font-size:1.5em;margin:.2em 0 .3em}h2{font-size:1.2em;margin:0 0 .6em}h3{font-size:1em;margin:1.2em 0 .4em}
.meta{color:#555;margin:.1em 0}.meta code{background:#f2f4f7;padding:.1em .3em;border-radius:3px}
.toc{columns:2;padding-left:1.2em}
.group{border:1px solid #d0d7de;border-radius:8px;padding:1em 1.2em;margin:1.4em 0;background:#fbfcfd}
.conf{display:inline-block;font-size:.85em;padding:.1em .5em;border-radius:1em;background:#e7edf5;margin-left:.4em}
table{border-collapse:collapse;margin:.3em 0 .8em;background:#fff}
th,td{border:1px solid #d0d7de;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f2f4f7;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.primary td{font-weight:600}
.diff{display:grid;grid-template-columns:1fr 1fr;gap:.8em}
.side{border:1px solid #d0d7de;border-radius:6px;background:#fff;min-width:0}
.side-head{background:#f2f4f7;padding:.3em .6em;font-weight:600;border-bottom:1px solid #d0d7de}
.text{margin:0;padding:.5em .6em;white-space:pre-wrap;overflow-wrap:anywhere;font:13px/1.5 ui-monospace,Menlo,Consolas,monospace;
max-height:28em;overflow:auto}
del.diff-del{background:#ffd7d5;color:#82071e;text-decoration:line-through}
ins.diff-ins{background:#ccffd8;color:#055d20;text-decoration:none}
.same{color:#6e7781;font-style:italic}.legend{font-size:.85em;color:#555}.empty{font-size:1.1em;padding:1em;border:1px dashed #d0d7de;border-radius:8px}
@media (max-width:800px){.diff{grid-template-columns:1fr}.toc{columns:1}}
"""


def _f(value: Any) -> str:
    try:
        return f"{float(value):.2f}"
    except (TypeError, ValueError):
        return "–"


def _title(docs: Mapping[int, Mapping[str, str]], doc_id: int) -> str:
    doc = docs.get(doc_id)
    if doc is None:
        return "(not in the index)"
    return str(doc.get("title") or "") or "(untitled)"


def _link(paperless_url: str, doc_id: int) -> str:
    href = escape(f"{paperless_url.rstrip('/')}/documents/{int(doc_id)}/details", quote=True)
    return f'<a href="{href}" rel="noopener noreferrer">open #{int(doc_id)} in Paperless</a>'


def word_diff(old: str, new: str, *, context: int = 12) -> tuple[str, str]:
    """HTML of ``old`` with deletions marked and of ``new`` with insertions marked
    (word by word; replaced words are a deletion on the left, an insertion on the right).

    Unchanged stretches longer than ``2 * context`` words are cut down to ``context``
    words on each side of a change, so that the changes of a long text are in view."""
    a, b = old.split(), new.split()
    left: list[str] = []
    right: list[str] = []
    opcodes = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    for n, (op, i1, i2, j1, j2) in enumerate(opcodes):
        if op == "equal":
            words = a[i1:i2]
            keep_head = context if n > 0 else 0
            keep_tail = context if n < len(opcodes) - 1 else 0
            if len(opcodes) == 1:
                keep_head = 2 * context  # identical samples: show their start
            if len(words) > keep_head + keep_tail + 3:
                cut = len(words) - keep_head - keep_tail
                gap = f'<span class="same">[… {cut} identical words …]</span>'
                parts = [escape(" ".join(words[:keep_head])), gap, escape(" ".join(words[len(words) - keep_tail:]))]
                same = " ".join(part for part in parts if part)
            else:
                same = escape(" ".join(words))
            left.append(same)
            right.append(same)
            continue
        if i2 > i1:
            left.append(f'<del class="diff-del">{escape(" ".join(a[i1:i2]))}</del>')
        if j2 > j1:
            right.append(f'<ins class="diff-ins">{escape(" ".join(b[j1:j2]))}</ins>')
    return " ".join(left), " ".join(right)


def _pairs_of(members: Sequence[int], pairs: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    inside = set(members)
    found = [p for p in pairs if p.get("a") in inside and p.get("b") in inside]
    return sorted(found, key=lambda p: (-float(p.get("score") or 0.0), p.get("a", 0), p.get("b", 0)))


def _group_html(number: int, group: Mapping[str, Any], pairs: Iterable[Mapping[str, Any]],
                docs: Mapping[int, Mapping[str, str]], paperless_url: str) -> str:
    primary = int(group["primary"])
    members = [primary] + sorted(int(m) for m in group["members"] if int(m) != primary)
    out = [f'<section class="group" id="group-{primary}">',
           f'<h2>Group {number}: #{primary} {escape(_title(docs, primary))}'
           f'<span class="conf">confidence {_f(group.get("confidence"))}</span>'
           f'<span class="conf">{len(members)} documents</span></h2>',
           '<table class="members"><thead><tr><th>role</th><th>id</th><th>title</th><th>link</th></tr></thead><tbody>']
    for m in members:
        role = "primary (oldest)" if m == primary else "possible duplicate"
        out.append(f'<tr class="{"primary" if m == primary else "member"}"><td>{role}</td><td>#{m}</td>'
                   f"<td>{escape(_title(docs, m))}</td><td>{_link(paperless_url, m)}</td></tr>")
    out.append("</tbody></table>")
    group_pairs = _pairs_of(members, pairs)
    if group_pairs:
        out.append('<table class="scores"><thead><tr><th>pair</th>'
                   + "".join(f"<th>{k}</th>" for k in SCORE_KEYS) + "</tr></thead><tbody>")
        for p in group_pairs:
            cells = "".join(f'<td class="num">{_f(p.get(k))}</td>' for k in SCORE_KEYS)
            out.append(f"<tr><td>#{int(p['a'])} – #{int(p['b'])}</td>{cells}</tr>")
        out.append("</tbody></table>")
    primary_text = str((docs.get(primary) or {}).get("text") or "")
    for m in members[1:]:
        left, right = word_diff(primary_text, str((docs.get(m) or {}).get("text") or ""))
        out.append(f"<h3>Text of #{primary} (primary) against #{m}</h3>")
        out.append('<div class="diff">'
                   f'<div class="side"><div class="side-head">#{primary} {escape(_title(docs, primary))}</div>'
                   f'<p class="text">{left}</p></div>'
                   f'<div class="side"><div class="side-head">#{m} {escape(_title(docs, m))}</div>'
                   f'<p class="text">{right}</p></div></div>')
    out.append("</section>")
    return "\n".join(out)


def render(
    groups: Sequence[Mapping[str, Any]],
    pairs: Sequence[Mapping[str, Any]],
    docs: Mapping[int, Mapping[str, str]],
    *,
    paperless_url: str,
    config_line: str,
    last_rebuild: str | None = None,
) -> str:
    """The whole page.  ``docs`` maps each member id to ``{"title", "text"}``."""
    ordered = sorted(groups, key=lambda g: (-float(g.get("confidence") or 0.0), int(g["primary"])))
    head = ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">\n'
            '<meta name="referrer" content="no-referrer">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>Duplicate groups: paperless-dedupe</title>\n<style>{CSS}</style>\n</head>\n<body>\n")
    when = f" from the rebuild of {escape(last_rebuild)}" if last_rebuild else " from the last rebuild"
    documents = len({int(m) for g in ordered for m in g["members"]})
    body = ["<h1>Possible duplicate documents</h1>",
            f'<p class="meta">{len(ordered)} group(s) of {documents} document(s){when}.</p>',
            f'<p class="meta"><code>{escape(config_line)}</code></p>']
    if not ordered:
        body.append('<p class="empty">No duplicate groups were found in the last rebuild.</p>')
    else:
        body.append('<p class="legend">The diff compares the normalized texts as Paperless holds them now '
                    '(lower case, no punctuation; of a long text its start and end, joined by '
                    f'{escape(GAP)}), word by word: <del class="diff-del">only in the primary</del> '
                    '<ins class="diff-ins">only in the other document</ins>; long unchanged stretches '
                    'are shortened.</p>')
        body.append('<ol class="toc">' + "".join(
            f'<li><a href="#group-{int(g["primary"])}">#{int(g["primary"])} {escape(_title(docs, int(g["primary"])))}'
            f"</a> ({_f(g.get('confidence'))})</li>" for g in ordered) + "</ol>")
        body.extend(_group_html(n, g, pairs, docs, paperless_url) for n, g in enumerate(ordered, 1))
    return head + "\n".join(body) + "\n</body>\n</html>\n"


def _member_texts(cfg: Config, ids: Sequence[int], sample_chars: int) -> dict[int, str]:
    """What the diffs compare: the normalized fuzzy samples (head [...] tail) of each
    document's current text in Paperless; {} with a warning when Paperless cannot say."""
    from .._errors import DedupeError
    from ..core import text
    from ._shared import paperless_client

    try:
        with paperless_client(cfg) as client:
            contents = client.document_texts(ids)
    except DedupeError as exc:
        print(f"[WARN] the report shows no text diffs: {exc}", file=sys.stderr)
        return {}
    out = {}
    for doc_id, content in contents.items():
        head, tail = text.fuzzy_samples(text.normalize(content), sample_chars)
        out[doc_id] = head if tail == head else f"{head} {GAP} {tail}"
    return out


def report_command(args: argparse.Namespace, cfg: Config) -> int:
    from ..engine import settings_from_config
    from ..indexfile import open_configured

    settings = settings_from_config(cfg)
    if not getattr(args, "quiet", False):
        for line in settings.log_lines():
            print(("[WARN] " if line.startswith("s_curve") else "[INFO] ") + line, file=sys.stderr)
    path = cfg.index_path
    if cfg["index.backend"] != "redis" and not path.exists():
        raise IndexStoreError(f"no index at {path}: run 'paperless-dedupe rebuild-index' to build it")
    with open_configured(cfg, settings) as index:
        pairs, groups = index.results()
        last = index.meta().get("last_rebuild")
        ids = sorted({int(m) for g in groups for m in g["members"]})
        feats = index.features(ids, settings.features.num_permutations)
    texts = _member_texts(cfg, ids, settings.features.fuzzy_sample_size) if ids else {}
    docs = {f.doc_id: {"title": f.title, "text": texts.get(f.doc_id, "")} for f in feats}
    page = render(groups, pairs, docs, paperless_url=cfg["paperless.url"], config_line=settings.log_lines()[0],
                  last_rebuild=last)
    out = Path(args.html)
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {out} ({exc.strerror}): check the path given to --html") from None
    print(f"wrote {out}: {len(groups)} duplicate group(s), {len(pairs)} pair(s)")
    return 0
