"""The HTML of ``paperless-dedupe report``, pure: values in, one page out.

The page loads nothing: inline CSS, no script, no fonts, images only as ``data:``
URLs (the members' first pages, fetched when the report was made), and a
Content-Security-Policy that forbids anything else, so it can be mailed or opened
offline and without a login.  The only URLs in it are the links into Paperless.
Everything that comes from documents (titles, text) goes through ``html.escape``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any

from ..core.explain import verdict_sentence
from ..core.textdiff import CHANGED, FOLDED, OCR, Segment, TextDiff, diff_texts

SCORE_KEYS = ("score", "jaccard", "fuzzy", "discriminative")
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1200px;
padding:1.2em 1.5em 3em;color:#1d232a;background:#fff}
h1{font-size:1.5em;margin:.2em 0 .3em}h2{font-size:1.2em;margin:0 0 .6em}h3{font-size:1em;margin:1.2em 0 .4em}
.meta{color:#555;margin:.1em 0}.meta code{background:#f2f4f7;padding:.1em .3em;border-radius:3px}
.notice{background:#fff8c5;border:1px solid #d4a72c;border-radius:6px;padding:.6em .9em}
.toc{columns:2;padding-left:1.2em}
.group{border:1px solid #d0d7de;border-radius:8px;padding:1em 1.2em;margin:1.4em 0;background:#fbfcfd}
.conf{display:inline-block;font-size:.85em;padding:.1em .5em;border-radius:1em;background:#e7edf5;margin-left:.4em}
.pages{display:flex;flex-wrap:wrap;gap:1em;margin:.4em 0 .8em}
.page{margin:0;width:220px}.page a{display:block;text-decoration:none;color:inherit}
.page img{display:block;width:220px;height:auto;border:1px solid #d0d7de;border-radius:4px;background:#fff;
box-shadow:0 1px 3px rgba(0,0,0,.12)}
.page .nopic{display:flex;align-items:center;justify-content:center;width:218px;height:160px;border:1px dashed #d0d7de;
border-radius:4px;color:#6e7781;font-size:.85em;text-align:center;padding:0 .5em;box-sizing:border-box}
.page figcaption{font-size:.85em;margin-top:.3em;overflow-wrap:anywhere}.page .role{color:#555}
.verdict{font-size:1.05em;margin:.3em 0 .5em}.verdict strong{font-weight:600}
table{border-collapse:collapse;margin:.3em 0 .8em;background:#fff}
th,td{border:1px solid #d0d7de;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f2f4f7;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.primary td{font-weight:600}
.keep{margin:.2em 0 .6em;padding:.4em .7em;border-left:4px solid #1a7f37;background:#eefbf1}
tr.keep td:first-child{color:#1a7f37;font-weight:600}
.diff{display:grid;grid-template-columns:1fr 1fr;gap:.8em}
.side{border:1px solid #d0d7de;border-radius:6px;background:#fff;min-width:0}
.side-head{background:#f2f4f7;padding:.3em .6em;font-weight:600;border-bottom:1px solid #d0d7de}
.text{margin:0;padding:.5em .6em;white-space:pre-wrap;overflow-wrap:anywhere;font:13px/1.5 ui-monospace,Menlo,Consolas,monospace;
max-height:32em;overflow:auto}
del.diff-del{background:#ffd7d5;color:#82071e;text-decoration:line-through}
ins.diff-ins{background:#ccffd8;color:#055d20;text-decoration:none}
span.ocr{text-decoration:underline dotted #8c959f;text-underline-offset:3px}
details.fold{margin:.2em 0;color:#6e7781}details.fold summary{cursor:pointer;font-style:italic}
details.fold[open]{color:inherit}
.legend{font-size:.85em;color:#555}.empty{font-size:1.1em;padding:1em;border:1px dashed #d0d7de;border-radius:8px}
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


def doc_url(paperless_url: str, doc_id: int) -> str:
    return f"{paperless_url.rstrip('/')}/documents/{int(doc_id)}/details"


def _link(paperless_url: str, doc_id: int) -> str:
    href = escape(doc_url(paperless_url, doc_id), quote=True)
    return f'<a href="{href}" rel="noopener noreferrer">open #{int(doc_id)} in Paperless</a>'


def side_html(segments: Iterable[Segment], mark: str) -> str:
    """One side of a diff: ``mark`` is "del" (the older text) or "ins" (the newer)."""
    out = []
    for seg in segments:
        body = escape(seg.text)
        # A marked word ends at the word: the blanks or line break after it stay outside.
        word, blank = seg.text.rstrip(), seg.text[len(seg.text.rstrip()):]
        if seg.kind == CHANGED:
            out.append(f'<{mark} class="diff-{mark}">{escape(word)}</{mark}>{blank}')
        elif seg.kind == OCR:
            out.append(f'<span class="ocr" title="{escape("the other copy reads: " + seg.other, quote=True)}">'
                       f"{escape(word)}</span>{blank}")
        elif seg.kind == FOLDED:
            out.append(f'<details class="fold"><summary>{seg.words} unchanged words</summary>{body}</details>')
        else:
            out.append(body)
    return "".join(out)


def _pairs_of(members: Sequence[int], pairs: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    inside = set(members)
    found = [p for p in pairs if p.get("a") in inside and p.get("b") in inside]
    return sorted(found, key=lambda p: (-float(p.get("score") or 0.0), p.get("a", 0), p.get("b", 0)))


def _figure(docs: Mapping[int, Mapping[str, str]], doc_id: int, role: str, paperless_url: str) -> str:
    href = escape(doc_url(paperless_url, doc_id), quote=True)
    doc = docs.get(doc_id) or {}
    picture = str(doc.get("picture") or "")
    title = escape(_title(docs, doc_id))
    if picture.startswith("data:image/"):
        inner = f'<img src="{escape(picture, quote=True)}" alt="first page of #{doc_id}">'
    else:
        why = escape(str(doc.get("no_picture") or "no picture"))
        inner = f'<span class="nopic">{why}</span>'
    return (f'<figure class="page"><a href="{href}" rel="noopener noreferrer" title="open #{doc_id} in Paperless">'
            f'{inner}</a><figcaption><span class="role">{role}</span> #{doc_id} {title}</figcaption></figure>')


def _comparison(primary: int, member: int, pair: Mapping[str, Any], docs: Mapping[int, Mapping[str, str]]) -> str:
    old, new = str((docs.get(primary) or {}).get("text") or ""), str((docs.get(member) or {}).get("text") or "")
    # A pair found by picture is judged by the two pages shown above, not by its few words.
    by_picture = pair.get("verdict") == "picture"
    diff: TextDiff | None = diff_texts(old, new) if old and new and not by_picture else None
    said = verdict_sentence(pair, diff)
    out = [f"<h3>#{primary} (primary) against #{member}</h3>",
           f'<p class="verdict"><strong>#{member}:</strong> {escape(said)}.</p>']
    if diff is None:
        return "\n".join(out)
    cut = " (compared up to the 20,000th word)" if diff.truncated else ""
    out.append('<div class="diff">'
               f'<div class="side"><div class="side-head">#{primary} {escape(_title(docs, primary))}{cut}</div>'
               f'<div class="text">{side_html(diff.old, "del")}</div></div>'
               f'<div class="side"><div class="side-head">#{member} {escape(_title(docs, member))}</div>'
               f'<div class="text">{side_html(diff.new, "ins")}</div></div></div>')
    return "\n".join(out)


def group_html(number: int, group: Mapping[str, Any], pairs: Iterable[Mapping[str, Any]],
               docs: Mapping[int, Mapping[str, str]], paperless_url: str, *, label: str = "Group") -> str:
    primary = int(group["primary"])
    members = [primary] + sorted(int(m) for m in group["members"] if int(m) != primary)
    keep = group.get("keep")

    def role(m: int) -> str:
        said = "primary (oldest)" if m == primary else "possible duplicate"
        return f"{said}, suggested keeper" if m == keep else said

    anchor = f"group-{primary}" if label == "Group" else "pair-" + "-".join(map(str, members))
    out = [f'<section class="group" id="{anchor}">',
           f'<h2>{escape(label)} {number}: #{primary} {escape(_title(docs, primary))}'
           f'<span class="conf">confidence {_f(group.get("confidence"))}</span>'
           f'<span class="conf">{len(members)} documents</span></h2>']
    if keep is not None:
        reasons = ", ".join(str(r) for r in group.get("keep_reasons") or []) or "the only choice"
        out.append(f'<p class="keep"><strong>Keep #{int(keep)}</strong> {escape(_title(docs, int(keep)))} '
                   f'({escape(reasons)}): tag the others <code>{escape(str(group.get("confirm_tag") or "duplicate-confirmed"))}'
                   '</code> in Paperless and run <code>paperless-dedupe resolve</code>.</p>')
    out += ['<div class="pages">' + "".join(_figure(docs, m, role(m), paperless_url) for m in members) + "</div>",
            '<table class="members"><thead><tr><th>role</th><th>id</th><th>title</th><th>link</th></tr></thead><tbody>']
    for m in members:
        kind = "primary" if m == primary else "member"
        out.append(f'<tr class="{kind}{" keep" if m == keep else ""}"><td>{role(m)}</td><td>#{m}</td>'
                   f"<td>{escape(_title(docs, m))}</td><td>{_link(paperless_url, m)}</td></tr>")
    out.append("</tbody></table>")
    group_pairs = _pairs_of(members, pairs)
    if group_pairs:
        out.append('<table class="scores"><thead><tr><th>pair</th>'
                   + "".join(f"<th>{k}</th>" for k in SCORE_KEYS) + "</tr></thead><tbody>")
        for p in group_pairs:
            cells = "".join(f'<td class="num">{_f(p.get(k)) if k == "score" or p.get("verdict") != "picture" else "picture"}</td>'
                            for k in SCORE_KEYS)
            out.append(f"<tr><td>#{int(p['a'])} – #{int(p['b'])}</td>{cells}</tr>")
        out.append("</tbody></table>")
    by_pair = {(int(p["a"]), int(p["b"])): p for p in group_pairs}
    for m in members[1:]:
        out.append(_comparison(primary, m, by_pair.get((primary, m), {}), docs))
    out.append("</section>")
    return "\n".join(out)


LEGEND = ('<p class="legend">Each group shows its members\' first pages (a click opens the document in Paperless), '
          'the verdict in words, and the texts as Paperless holds them now, word by word: '
          '<del class="diff-del">only in the primary</del> <ins class="diff-ins">only in the other document</ins>; '
          '<span class="ocr">dotted</span>: the same word read differently by OCR (not counted as a change; hover '
          'to see the other reading); long unchanged stretches are folded (click to open).</p>')


def render(
    groups: Sequence[Mapping[str, Any]],
    pairs: Sequence[Mapping[str, Any]],
    docs: Mapping[int, Mapping[str, str]],
    *,
    paperless_url: str,
    config_line: str,
    last_rebuild: str | None = None,
    notice: str = "",
    apart: Sequence[tuple[str, Sequence[Mapping[str, Any]]]] = (),
) -> str:
    """The whole page.  ``docs`` maps each member id to ``{"title", "text", "picture"}``
    (``picture``: a ``data:image/...`` URL or empty, then ``no_picture`` says why);
    ``notice`` is shown on top (why there are no pictures or texts); ``apart``: sections
    after the groups, each (heading that says why, pairs shown as groups of two)."""
    ordered = sorted(groups, key=lambda g: (-float(g.get("confidence") or 0.0), int(g["primary"])))
    head = ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            '<meta name="referrer" content="no-referrer">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>Duplicate groups: paperless-dedupe</title>\n<style>{CSS}</style>\n</head>\n<body>\n")
    when = f" from the rebuild of {escape(last_rebuild)}" if last_rebuild else " from the last rebuild"
    documents = len({int(m) for g in ordered for m in g["members"]})
    body = ["<h1>Possible duplicate documents</h1>",
            f'<p class="meta">{len(ordered)} group(s) of {documents} document(s){when}.</p>',
            f'<p class="meta"><code>{escape(config_line)}</code></p>']
    if notice:
        body.append(f'<p class="notice">{escape(notice)}</p>')
    if not ordered:
        body.append('<p class="empty">No duplicate groups were found in the last rebuild.</p>')
    else:
        body.append(LEGEND)
        body.append('<ol class="toc">' + "".join(
            f'<li><a href="#group-{int(g["primary"])}">#{int(g["primary"])} {escape(_title(docs, int(g["primary"])))}'
            f"</a> ({_f(g.get('confidence'))})</li>" for g in ordered) + "</ol>")
        body.extend(group_html(n, g, pairs, docs, paperless_url) for n, g in enumerate(ordered, 1))
    for heading, shown in apart:
        if shown:
            body.append(f'<h2 class="apart">{escape(heading)}</h2>')
            body.extend(group_html(n, g, pairs, docs, paperless_url, label="Pair") for n, g in enumerate(shown, 1))
    return head + "\n".join(body) + "\n</body>\n</html>\n"
