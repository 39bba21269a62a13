"""``resolve``, ``resolutions`` and ``undo``: thin commands over resolve.py and undo.py."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .._errors import IndexBusyError
from ..config import Config
from ._shared import paperless_client


def _say(line: str) -> None:
    print(line, flush=True)


def add_commands(sub: Any, lazy: Any) -> None:
    p = sub.add_parser("resolve", help="resolve confirmed copies (tag duplicate-confirmed) or the one named: "
                                       "carry metadata to the keeper, the copy into the trash")
    p.add_argument("copy", type=int, nargs="?", metavar="COPY", help="the copy to resolve (default: every confirmed one)")
    p.add_argument("--keep", type=int, metavar="KEEPER", help="the document to keep (default: the suggested keeper)")
    p.add_argument("--dry-run", action="store_true", help="print every write it would make, write nothing")
    p.set_defaults(handler=lazy("resolve", "resolve_command"))
    p = sub.add_parser("resolutions", help="the journal of resolutions, newest first")
    p.add_argument("--json", action="store_true", help="print the journal as one JSON object")
    p.set_defaults(handler=lazy("resolve", "resolutions_command"))
    p = sub.add_parser("undo", help="take a resolution back: the copy restored, the keeper as it was")
    p.add_argument("id", type=int, nargs="?", metavar="ID", help="the resolution ('resolutions' lists them)")
    p.add_argument("--last", action="store_true", help="the newest resolution")
    p.add_argument("--dry-run", action="store_true", help="say what it would do, write nothing")
    p.set_defaults(handler=lazy("resolve", "undo_command"))


@contextmanager
def _run(cfg: Config, *, dry_run: bool) -> Iterator[Any]:
    from ..engine import settings_from_config
    from ..indexfile import index_location, now_iso, open_configured
    from ..resolution import Run, ours_in

    settings = settings_from_config(cfg)
    with open_configured(cfg, settings) as index, index.resolve_lock(wait_seconds=60.0) as free:
        if not free:
            raise IndexBusyError(f"another resolve or undo is running on index {index_location(cfg)}: "
                                 "try again when it ends")
        with paperless_client(cfg) as client:
            yield Run(cfg=cfg, settings=settings, client=client, index=index, say=_say, now=now_iso,
                      dry_run=dry_run, ours=ours_in(client, cfg))


def resolve_command(args: argparse.Namespace, cfg: Config) -> int:
    from ..resolve import resolve

    with _run(cfg, dry_run=args.dry_run) as run:
        done = resolve(run, args.copy, args.keep)
    if run.refused:
        for line in run.refused:
            print(f"error: {line}", file=sys.stderr, flush=True)
        return 2
    if not done and not args.dry_run and args.copy is None:
        _say("nothing to resolve")
    return 0


def resolutions_command(args: argparse.Namespace, cfg: Config) -> int:
    from ..engine import settings_from_config
    from ..indexfile import open_configured
    from ..resolution import carried_words

    with open_configured(cfg, settings_from_config(cfg)) as index:
        entries = index.journal_entries()
    rows = [{"id": e["id"], "copy": e["copy"], "keeper": e["keeper"], "mode": e["mode"], "state": e["state"],
             "started": e["started"], "updated": e["updated"], "carried": carried_words(e["plan"]["carry"]),
             "keep_reasons": e["plan"].get("keep_reasons", []), "error": e["error"]} for e in entries]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    if not rows:
        _say("no resolutions yet")
    for r in rows:
        error = f" [{r['error']}]" if r["error"] and r["state"] != "resolved" else ""
        _say(f"{r['id']:>4}  {r['started'][:19]}  #{r['copy']} into #{r['keeper']}  {r['state']:<11}  "
             f"{r['mode']}: carried over {r['carried']}{error}")
    return 0


def undo_command(args: argparse.Namespace, cfg: Config) -> int:
    from ..resolve import undo

    with _run(cfg, dry_run=args.dry_run) as run:
        undo(run, args.id, last=args.last)
    return 0
