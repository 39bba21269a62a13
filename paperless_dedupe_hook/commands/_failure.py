"""How a command ends when it fails: one line on stderr, the exit code, and for
``--json`` one JSON object on stdout with an ``error`` key (PRODUCT.md).

Errors outside our code (the file system refusing, a full disk, a closed pipe) get one
line naming the file and the fix, never a traceback.  A bug of ours gets one line too,
exit 70 (sysexits' EX_SOFTWARE, never 1: 1 means "check found duplicates"); ``-v``
adds its traceback for the bug report.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar, NoReturn

# sysexits.h: EX_SOFTWARE for our bugs, EX_IOERR for the file system outside the index.
INTERNAL_ERROR = 70
IO_ERROR = 74
# What a shell reports for a writer killed by SIGPIPE (128 + 13): the reader stopped early.
CLOSED_PIPE = 141


def failed(args: argparse.Namespace, message: str, code: int) -> int:
    print(f"error: {message}", file=sys.stderr, flush=True)
    if getattr(args, "json", False):
        print(json.dumps({"error": message, "exit_code": code}, ensure_ascii=False), flush=True)
    return code


def unexpected(args: argparse.Namespace, exc: Exception, index_path: Path | None) -> int:
    """An exception no command turned into a ``DedupeError``."""
    if isinstance(exc, OSError):
        from ..index._access import explain, is_permission, os_error_line

        line = os_error_line(exc, index_path)
        about_index = index_path is not None and is_permission(exc) and explain(index_path) is not None
        return failed(args, line, 5 if about_index else IO_ERROR)
    if getattr(args, "verbose", 0):
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
    hint = "" if getattr(args, "verbose", 0) else "; run with -v for the traceback"
    return failed(args, f"internal error {type(exc).__name__}: {exc} (a bug in paperless-dedupe: please report "
                        f"it{hint})", INTERNAL_ERROR)


def closed_pipe() -> int:
    """The reader of stdout went away (``... --json | head``): stop quietly.  Later writes
    (the interpreter's last flush) go to /dev/null instead of raising again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is no real file: nothing will flush into the closed pipe
        return CLOSED_PIPE
    return CLOSED_PIPE


class Parser(argparse.ArgumentParser):
    """argparse's parser, remembering its last error message for ``usage_error_as_json``
    (subcommands' parsers are of the same class)."""

    last_error: ClassVar[str] = ""

    def error(self, message: str) -> NoReturn:
        Parser.last_error = f"{self.prog}: {message}"
        super().error(message)


def usage_error_as_json(exc: SystemExit, argv: Sequence[str]) -> None:
    """``check abc --json``: argparse exits 2 before any command runs; a script that asked
    for JSON still reads one object (argparse's usage line stays on stderr)."""
    if exc.code == 2 and "--json" in argv:
        message = Parser.last_error or "usage error: run with --help"
        print(json.dumps({"error": message, "exit_code": 2}, ensure_ascii=False), flush=True)
