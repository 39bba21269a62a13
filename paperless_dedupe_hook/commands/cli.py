"""``paperless-dedupe``: a thin command layer over the library (argparse, no click).

Exit codes (PRODUCT.md): 0 success, 1 ``check`` found duplicates, 2 usage error,
3 configuration error, 4 Paperless API error, 5 index error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .. import __version__
from .. import config as config_mod
from .._errors import DedupeError, UsageError
from ..config import Config
from ._shared import paperless_client

Handler = Callable[[argparse.Namespace, Config], int]


def _err(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _info(args: argparse.Namespace, line: str) -> None:
    if not args.quiet:
        print(line, file=sys.stderr, flush=True)


def _load(args: argparse.Namespace, overrides: dict[str, Any] | None = None) -> Config:
    cfg = config_mod.load(config_path=args.config, overrides=overrides)
    if not getattr(args, "warnings_in_report", False):  # doctor prints them as its own warn lines
        for warning in cfg.warnings:
            _err(f"WARNING {warning}")
    return cfg


def _settings(args: argparse.Namespace, cfg: Config) -> Any:
    from ..engine import settings_from_config

    settings = settings_from_config(cfg)
    for line in settings.log_lines():
        _info(args, ("[WARN] " if line.startswith("s_curve") else "[INFO] ") + line)
    return settings


# -- commands -------------------------------------------------------------
def cmd_hook(args: argparse.Namespace, cfg: Config) -> int:
    from ..hook import main as hook_main

    doc = str(args.document_id) if args.document_id is not None else None
    return hook_main(document_id=doc, config_path=args.config)


def cmd_rebuild(args: argparse.Namespace, cfg: Config) -> int:
    from . import maintenance

    settings = _settings(args, cfg)
    return maintenance.rebuild_command(args, cfg, settings, info=lambda line: _info(args, line))


def cmd_check(args: argparse.Namespace, cfg: Config) -> int:
    from . import maintenance

    if args.doc_id <= 0:
        raise UsageError(f"check takes a document id (a whole number from 1), got {args.doc_id}")
    settings = _settings(args, cfg)
    with paperless_client(cfg) as client:
        result = maintenance.check_document(client, cfg, settings, args.doc_id,
                                            near_misses=NEAR_MISSES_SHOWN if args.verbose else 0)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    elif result["matches"]:
        print(f"document {result['document']} has {len(result['matches'])} possible duplicate(s):")
        for m in result["matches"]:
            if m.get("verdict") == "picture":
                print(f"  #{m['id']} {m['title']!r}: picture score {m['score']:.2f} (found by picture: only the "
                      "pictures were compared)")
            else:
                print(f"  #{m['id']} {m['title']!r}: score {m['score']:.2f} (jaccard {m['jaccard']:.2f}, "
                      f"fuzzy {m['fuzzy']:.2f}, discriminative {m['discriminative']:.2f})")
            if args.verbose:
                from ..core.explain import verdict_sentence

                print(f"      {verdict_sentence(m)}")
    elif not result["compared"]:
        print(f"document {result['document']}: not compared ({result['not_compared_because']})")
    else:
        by_picture = bool(result.get("compared_by_picture"))
        shown = (" (a short document: compared with short ones, and by its first page's picture)"
                 if result["short"] and by_picture
                 else " (too little text: compared by its first page's picture)" if by_picture
                 else " (a short document: compared with short ones only)" if result["short"] else "")
        print(f"document {result['document']}: no duplicates among {result['candidates']} candidate(s){shown}")
    if "near_misses" in result and not args.json:
        for line in near_miss_lines(result):
            print(line)
    _say_unreadable(args, result)
    return 1 if result["matches"] else 0


# Candidates under the threshold that ``check -v`` explains (closest first).
NEAR_MISSES_SHOWN = 10


def near_miss_lines(result: dict[str, Any]) -> list[str]:
    """``check -v``: the candidates under the threshold, their scores and what held each back."""
    misses = result["near_misses"]
    threshold = result["similarity_threshold"]
    if not misses:
        return [f"no candidate under the threshold {threshold:.2f} to explain"]
    lines = [f"under the threshold {threshold:.2f} (closest first; a value pair reads this document's ≠ the candidate's):"]
    for m in misses:
        figures = (f"short documents: text ratio {m['fuzzy']:.2f}" if m["short"] else
                   f"jaccard {m['jaccard']:.2f}, containment {m['containment']:.2f}, order {m['ordered_overlap']:.2f}, "
                   f"fuzzy {m['fuzzy']:.2f}, discriminative {m['discriminative']:.2f}, penalty x{m['penalty_factor']:.2f}")
        lines.append(f"  #{m['id']} {m['title']!r}: score {m['score']:.2f} ({figures})")
        lines.extend(f"    - {reason}" for reason in m["reasons"])
    if result["near_misses_not_shown"]:
        lines.append(f"  ... and {result['near_misses_not_shown']} more further under the threshold")
    return lines


def _say_unreadable(args: argparse.Namespace, result: dict[str, Any]) -> None:
    """Candidates the token's user could not read were not compared: said, not hidden."""
    from ..paperless.visibility import Unreadable

    line = Unreadable(hidden=list(result.get("unreadable_candidates") or [])).warning(int(result["document"]))
    if line:
        _err(f"WARNING {line}")


def cmd_tune(args: argparse.Namespace, cfg: Config) -> int:
    from . import tune

    return tune.tune_command(args, cfg)


def cmd_evaluate(args: argparse.Namespace, cfg: Config) -> int:
    from .. import sources
    from ..rebuild import analyse
    from . import evaluate

    settings = _settings(args, cfg)
    docs = sources.read_jsonl(Path(args.docs))
    truth = evaluate.read_truth(Path(args.truth))
    analysis = analyse(docs, settings, workers=args.workers)
    result = evaluate.evaluate(docs, truth, analysis, settings)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for line in evaluate.audit_lines(result):
        print(line)
    for line in evaluate.summary_lines(result):
        print(line)
    return 0


def cmd_status(args: argparse.Namespace, cfg: Config) -> int:
    from . import maintenance

    settings = _settings(args, cfg)
    status = maintenance.status(cfg, settings)
    if args.json:
        print(json.dumps(status, indent=2))
        return 0
    for key, value in status.items():
        if key != "config" and value is not None:
            print(f"{key:<20} {value}")
    return 0


def cmd_dismiss(args: argparse.Namespace, cfg: Config) -> int:
    from ..indexfile import now_iso, open_configured

    if args.a <= 0 or args.b <= 0:
        raise UsageError(f"dismiss takes two document ids (whole numbers from 1), got {args.a} and {args.b}")
    if args.a == args.b:
        raise UsageError(f"dismiss needs two different documents, got {args.a} twice")
    settings = _settings(args, cfg)
    with open_configured(cfg, settings) as index, index.write():
        index.dismiss(args.a, args.b, "dismissed by hand", now_iso())
    print(f"documents {min(args.a, args.b)} and {max(args.a, args.b)} will not be reported as duplicates again")
    return 0


def cmd_config(args: argparse.Namespace, cfg: Config | None) -> int:
    path, _explicit = config_mod.resolve_config_path(args.config, _environ())
    if args.action in ("path", "init"):  # these load no config: the variables are checked here
        for warning in config_mod.unknown_env_warnings(_environ()):
            _err(f"WARNING {warning}")
    if args.action == "path":
        print(path)
        return 0
    if args.action == "init":
        config_mod.write_private(path, config_mod.starter_toml(), exist_ok=args.force)
        print(f"wrote {path} (mode 0600); set paperless.url and paperless.token in it")
        return 0
    cfg = _load(args)
    if args.json:
        print(json.dumps(cfg.masked(), indent=2))
    else:
        print(f"# effective configuration ({path})")
        for section, values in cfg.masked().items():
            print(f"[{section}]")
            for key, value in values.items():
                print(f"{key} = {json.dumps(value, ensure_ascii=False)}  # {cfg.sources[section + '.' + key]}")
    _warn_if_index_stale(cfg)
    return 0


def _warn_if_index_stale(cfg: Config) -> None:
    """Changing a setting the index depends on is said when it is changed, not at the next consume."""
    from ..engine import settings_from_config
    from ..indexfile import index_location, stale_reason

    reason = stale_reason(cfg, settings_from_config(cfg))
    if reason:
        _err(f"WARNING index {index_location(cfg)}: {reason}")


def _environ() -> dict[str, str]:
    import os

    return dict(os.environ)


# -- parser ---------------------------------------------------------------
CONFIG_HELP = ("config file (default: $PAPERLESS_DEDUPE_CONFIG, else $PAPERLESS_DATA_DIR/dedupe/config.toml when "
               "PAPERLESS_DATA_DIR is set, as in every Paperless container, else the user config dir; "
               "'paperless-dedupe config path' prints it)")
EXAMPLES = """examples:
  paperless-dedupe config init
      write a starter config file (then set paperless.url and paperless.token in it)
  paperless-dedupe doctor
      check URL, token, permissions, tag, field and index, one line each
  paperless-dedupe rebuild-index --annotate
      index the whole library and mark every duplicate in Paperless
  paperless-dedupe check 123 --json
      what the hook would find for document 123 (changes nothing)
  paperless-dedupe report --html dupes.html
      the duplicate groups as one page, side by side
  paperless-dedupe dismiss 12 57
      12 and 57 are not duplicates: never report them again
  docker compose exec -u paperless webserver paperless-dedupe status
      in the Paperless container, always as the paperless user (the hook's)

exit codes: 0 ok, 1 check found duplicates, 2 usage, 3 configuration, 4 Paperless, 5 index,
70 a bug of ours, 74 a file-system error outside the index, 141 stdout closed (e.g. | head)"""

def build_parser() -> argparse.ArgumentParser:
    from ._failure import Parser

    parser = Parser(
        prog="paperless-dedupe",
        description="Find near-duplicate documents in Paperless-NGX and mark them inside Paperless.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"paperless-dedupe-hook {__version__}")
    parser.add_argument("--config", metavar="FILE", help=CONFIG_HELP)
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more output")
    parser.add_argument("-q", "--quiet", action="store_true", help="only results and errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("hook", help="run the post-consume check for one document (as paperless-dedupe-hook)")
    p.add_argument("--document-id", type=int, help="document id (default: $DOCUMENT_ID)")
    p.set_defaults(handler=cmd_hook)

    p = sub.add_parser("rebuild-index", help="index the whole library, score and group duplicates")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--from-jsonl", metavar="FILE", help="read documents from JSONL instead of the API")
    src.add_argument("--from-export", metavar="DIR", help="read a document_exporter directory (manifest.json)")
    p.add_argument("--incremental", action="store_true", help="only documents changed since the last run; drop deleted ones")
    p.add_argument("--allow-shrink", action="store_true",
                   help="replace the index even when the source yields no documents or under half as many as it holds")
    p.add_argument("--annotate", action="store_true", help="write tag, note and link for every duplicate found")
    p.add_argument("--dry-run", action="store_true", help="show what --annotate would write, write nothing to Paperless")
    p.add_argument("--report", metavar="FILE", help="write the result as JSON")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--workers", type=int, default=None, help="processes for signatures and scoring (default: all cores)")
    p.set_defaults(handler=cmd_rebuild)

    p = sub.add_parser("check", help="what the hook would find for one document (changes nothing; exit 1 when it finds duplicates)")
    p.add_argument("doc_id", type=int, metavar="DOC_ID", help="the Paperless id of the document (as in its URL)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object (also on failure)")
    # SUPPRESS: without it here, the global -v given before the command (``-v check 3``) is kept.
    p.add_argument("-v", "--verbose", action="count", default=argparse.SUPPRESS,
                   help="also the candidates under the threshold: their scores and what held each back")
    p.set_defaults(handler=cmd_check)

    p = sub.add_parser("tune", help="choose LSH bands and rows for a threshold (seed guide)")
    p.add_argument("--threshold", type=float, help="target Jaccard for the S-curve (default: the config's lsh target)")
    p.add_argument("--num-permutations", type=int, help="signature length (default: the config's)")
    p.add_argument("--pairs", metavar="FILE", help="labelled pairs (JSONL) to measure candidate recall and precision")
    p.add_argument("--docs", metavar="FILE", help="documents (JSONL) for --pairs")
    p.add_argument("--divisors-only", action="store_true", help="only splits with bands*rows == num_permutations")
    p.add_argument("--write", action="store_true",
                   help="store the chosen num_bands in the config file (only that line changes)")
    p.add_argument("--json", action="store_true", help="print the splits as JSON")
    p.set_defaults(handler=cmd_tune)

    p = sub.add_parser("evaluate", help="run the pipeline on a labelled JSONL corpus and score it")
    p.add_argument("--docs", required=True, metavar="FILE",
                   help="the corpus, JSONL as for rebuild-index --from-jsonl (id, content, title, ...)")
    p.add_argument("--truth", required=True, metavar="FILE",
                   help='labelled pairs, JSONL: {"a": id, "b": id, "dup": true or false, "kind": "..."} a line')
    p.add_argument("--json", action="store_true", help="print the scores as JSON")
    p.add_argument("--workers", type=int, default=None, help="processes for signatures and scoring (default: all cores)")
    p.set_defaults(handler=cmd_evaluate)

    p = sub.add_parser("status", help="index path, size, documents, last rebuild, LSH config")
    p.add_argument("--json", action="store_true", help="print one JSON object (also on failure, with 'error')")
    p.set_defaults(handler=cmd_status)

    _extra_commands(sub)

    p = sub.add_parser("dismiss", help="record that two documents are not duplicates")
    p.add_argument("a", type=int, metavar="A", help="the id of one document")
    p.add_argument("b", type=int, metavar="B", help="the id of the other")
    p.set_defaults(handler=cmd_dismiss)

    p = sub.add_parser("config", help="init / show / path of the config file")
    p.add_argument("action", choices=("init", "show", "path"),
                   help="init: write a starter file (mode 0600); show: the effective values and where each comes "
                        "from; path: where the file is")
    p.add_argument("--force", action="store_true", help="init: overwrite an existing file")
    p.add_argument("--json", action="store_true", help="show: as JSON")
    p.set_defaults(handler=cmd_config, no_config=True)
    return parser


def _extra_commands(sub: Any) -> None:
    """Commands living in their own modules (imported lazily when run)."""
    p = sub.add_parser("doctor", help="check URL, token, API version, permissions, tag, field, index")
    p.add_argument("--pin-view", action="store_true",
                   help="show our saved view on the dashboard and in the sidebar (changes your UI settings)")
    p.set_defaults(handler=_lazy("doctor", "doctor_command"), warnings_in_report=True)
    p = sub.add_parser("report", help="write a self-contained HTML page of the duplicate groups")
    p.add_argument("--html", required=True, metavar="FILE", help="where to write the page")
    p.add_argument("--no-thumbnails", action="store_true",
                   help="leave out the members' first-page pictures (for a small page of a huge library)")
    p.add_argument("--max-picture-mb", type=float, default=20.0, metavar="MB",
                   help="the pictures together take at most this much; the rest are left out (default 20)")
    p.set_defaults(handler=_lazy("report", "report_command"))
    from .resolve import add_commands  # resolve, resolutions, undo (their work is imported when run)

    add_commands(sub, _lazy)


def _lazy(module: str, name: str) -> Handler:
    def handler(args: argparse.Namespace, cfg: Config) -> int:
        from importlib import import_module

        return int(getattr(import_module(f".{module}", __package__), name)(args, cfg))

    return handler


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # a usage error (2): argparse said it on stderr; --json gets its object too
        from ._failure import usage_error_as_json

        usage_error_as_json(exc, sys.argv[1:] if argv is None else argv)
        raise
    try:
        code = _run(args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
        return code
    except BrokenPipeError:
        from ._failure import closed_pipe

        return closed_pipe()


def _run(args: argparse.Namespace) -> int:
    from ._failure import failed

    cfg: Config | None = None
    try:
        if getattr(args, "no_config", False):
            return int(args.handler(args, None))
        cfg = _load(args)
        handler: Handler = args.handler
        return int(handler(args, cfg))
    except DedupeError as exc:
        return failed(args, str(exc), exc.exit_code)
    except KeyboardInterrupt:
        if getattr(args, "json", False):
            return failed(args, "interrupted (Ctrl-C)", 130)
        _err("interrupted")
        return 130
    except BrokenPipeError:
        raise
    except Exception as exc:  # noqa: BLE001 - a permission, a full disk, or a bug of ours: one line, no traceback
        from ._failure import unexpected

        return unexpected(args, exc, None if cfg is None else cfg.index_path)


if __name__ == "__main__":
    sys.exit(main())
