"""Progress for long runs: a bar with rate and ETA on a terminal, plain periodic
lines otherwise (logs, ``docker compose exec -T``), nothing with ``-q``."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO


class Progress:
    def __init__(self, label: str, total: int | None, *, quiet: bool = False, stream: TextIO | None = None,
                 interval_seconds: float = 10.0) -> None:
        self.label, self.total, self.quiet = label, total, quiet
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.interval = 0.2 if self.tty else interval_seconds
        self.started = self.last = time.monotonic()
        self.done = 0
        # Work counted done before the clock started (pairs settled at once without
        # scoring): not part of the rate, or the ETA would start low and keep rising.
        self.base = 0

    def update(self, done: int) -> None:
        self.done = done
        now = time.monotonic()
        if self.quiet or now - self.last < self.interval:
            return
        self.last = now
        self._emit(now)

    def _emit(self, now: float) -> None:
        elapsed = max(now - self.started, 1e-9)
        rate = max(0, self.done - self.base) / elapsed
        if self.total:
            share = min(1.0, self.done / self.total)
            eta = max(0.0, (self.total - self.done) / rate) if rate > 0 else 0.0  # a total known in advance may be low
            if self.tty:
                bar = "#" * int(share * 30)
                self.stream.write(f"\r{self.label} [{bar:<30}] {self.done}/{self.total} {rate:,.0f}/s ETA {eta:,.0f} s ")
            else:
                self.stream.write(f"{self.label}: {self.done}/{self.total} ({share:.0%}), {rate:,.0f}/s, ETA {eta:,.0f} s\n")
        else:
            start, end = ("\r", " ") if self.tty else ("", "\n")
            self.stream.write(f"{start}{self.label}: {self.done} ({rate:,.0f}/s){end}")
        self.stream.flush()

    def finish(self) -> None:
        if self.quiet:
            return
        self._emit(time.monotonic())
        if self.tty:
            self.stream.write("\n")
        self.stream.flush()


def expected_documents(docs: Iterable[Any], *, jsonl: str | None = None, client: Any = None) -> int | None:
    """How many documents a rebuild will read, known before it reads them: a list's length,
    the JSONL file's non-blank lines (one pass over the bytes, about 1 s per GB), or the
    API's ``count`` (one request; documents consumed meanwhile make it a little low).
    None when it cannot be told: the progress then shows the count and the rate only."""
    if isinstance(docs, list):
        return len(docs)
    if jsonl:
        try:
            with Path(jsonl).open("rb") as handle:
                return sum(1 for line in handle if line.strip())
        except OSError:
            return None  # reading it fails again in a moment, with the file named
    if client is not None:
        from .._errors import PaperlessError

        try:
            return int(client.count_documents())
        except PaperlessError:
            return None  # the listing itself will say what is wrong
    return None
