"""``paperless-dedupe report --html FILE``: the duplicate groups of the last rebuild
as one self-contained HTML page (``_report_html`` writes it).

When the report is made, each member's current text and first-page picture are
fetched from Paperless with the token and embedded, so the page works offline and
without a login; its links open the documents at ``paperless.public_url``.  Without
a token (or with Paperless out of reach) the page says so, on top, in words.
"""

from __future__ import annotations

import argparse
import base64
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .._errors import IndexStoreError, UsageError
from ..config import Config
from ._report_html import render

__all__ = ["render", "report_command"]

# The page's pictures together may take this much (before base64); Paperless's are
# ~45 kB each, so 20 MB holds ~450 of them.  Beyond it the rest show a "left out" box.
DEFAULT_PICTURE_MB = 20.0
# One picture larger than this is left out (a thumbnail is never that large).
MAX_PICTURE_BYTES = 2 * 1024 * 1024
# Embedded only as these types: what Paperless sends and every browser shows.
PICTURE_TYPES = frozenset({"image/webp", "image/png", "image/jpeg", "image/gif"})


def _fetch(cfg: Config, ids: Sequence[int], *, pictures: bool, budget_bytes: int
           ) -> tuple[dict[int, str], dict[int, dict[str, str]], str]:
    """(texts, pictures as {"picture": data URL} or {"no_picture": why}, notice for
    the page); with no token or no Paperless, empty ones and a notice saying why."""
    from .._errors import DedupeError, PaperlessError
    from ._shared import paperless_client

    url = cfg["paperless.url"]
    if not cfg.token:
        why = ("No page pictures and no texts: this report was made without a Paperless API token. Set "
               "paperless.token (or PAPERLESS_DEDUPE_TOKEN) and run 'paperless-dedupe report' again.")
        return {}, {i: {"no_picture": "no picture: no API token"} for i in ids}, why
    try:
        with paperless_client(cfg) as client:
            texts = client.document_texts(ids)
            shown: dict[int, dict[str, str]] = {}
            used = 0
            for doc_id in ids:
                if not pictures:
                    shown[doc_id] = {"no_picture": "no picture (--no-thumbnails)"}
                    continue
                if used >= budget_bytes:
                    shown[doc_id] = {"no_picture": "picture left out: the report's picture budget "
                                                   "(--max-picture-mb) is used up"}
                    continue
                try:
                    data, ctype = client.thumbnail(doc_id)
                except PaperlessError as exc:
                    if exc.status is None:  # the connection itself: no point asking for the others
                        raise
                    shown[doc_id] = {"no_picture": f"no picture: Paperless answered {exc.status}"}
                    continue
                if ctype not in PICTURE_TYPES or len(data) > MAX_PICTURE_BYTES:
                    shown[doc_id] = {"no_picture": f"picture left out ({ctype}, {len(data) // 1024} kB)"}
                    continue
                used += len(data)
                shown[doc_id] = {"picture": f"data:{ctype};base64,{base64.b64encode(data).decode('ascii')}"}
    except DedupeError as exc:
        why = f"No page pictures and no texts: Paperless at {url} could not give them ({exc})."
        return {}, {i: {"no_picture": "no picture: Paperless unreachable"} for i in ids}, why
    missing = [i for i in ids if i not in texts]
    notice = ""
    if missing:
        notice = (f"{len(missing)} document(s) not found in Paperless or not visible to the token's user: "
                  + ", ".join(f"#{i}" for i in missing[:20]) + (" …" if len(missing) > 20 else "")
                  + " (deleted since the last rebuild? run 'paperless-dedupe rebuild-index --incremental').")
    return texts, shown, notice


def _apart(pairs: list[dict[str, Any]], groups: list[dict[str, Any]], last: str | None
           ) -> list[tuple[str, list[dict[str, Any]]]]:
    """The report's sections after the groups: the hooks' pairs since the last rebuild, and
    the pairs no group holds (both are tagged in Paperless: the page hides none of them)."""
    from ._since_rebuild import as_groups, found_since, not_grouped

    fresh = found_since(pairs, last)
    return [
        ("Found by hooks since the last rebuild (not grouped yet: the next 'paperless-dedupe rebuild-index' "
         "groups them)", as_groups(fresh)),
        ("Pairs in no group (a document joins a group only when it matches most of it; each pair is marked "
         "in Paperless all the same)", as_groups(not_grouped(pairs, groups, leave_out=fresh))),
    ]


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
        apart = _apart(pairs, groups, last)
        ids = sorted({int(m) for g in [*groups, *(g for _h, shown in apart for g in shown)] for m in g["members"]})
        feats = index.features(ids, settings.features.num_permutations)
    pictures = not getattr(args, "no_thumbnails", False)
    megabytes = float(getattr(args, "max_picture_mb", DEFAULT_PICTURE_MB))
    if not megabytes > 0:
        raise UsageError(f"--max-picture-mb {megabytes:g}: give a size above 0, or --no-thumbnails for no pictures")
    budget = int(megabytes * 1024 * 1024)
    texts, shown, notice = _fetch(cfg, ids, pictures=pictures, budget_bytes=budget) if ids else ({}, {}, "")
    if groups:
        from ..keepers import add_keep

        add_keep(groups, cfg, {f.doc_id: f.word_count for f in feats})  # keep, keep_reasons
        for group in groups:
            group["confirm_tag"] = cfg["actions.confirm_tag"]
    if notice:
        print(f"[WARN] {notice}", file=sys.stderr)
    docs: dict[int, dict[str, str]] = {
        f.doc_id: {"title": f.title, "text": texts.get(f.doc_id, ""), **shown.get(f.doc_id, {})} for f in feats}
    page = render(groups, pairs, docs, paperless_url=cfg["paperless.public_url"],
                  config_line=settings.log_lines()[0], last_rebuild=last, notice=notice, apart=apart)
    out = Path(args.html)
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {out} ({exc.strerror}): check the path given to --html") from None
    embedded = sum(1 for d in docs.values() if d.get("picture"))
    fresh, outside = (len(shown) for _heading, shown in apart)
    print(f"wrote {out}: {len(groups)} duplicate group(s), {len(pairs)} pair(s) ({fresh} found by hooks since the "
          f"last rebuild, {outside} in no group), {embedded} page picture(s)")
    return 0
