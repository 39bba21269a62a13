"""A full ``rebuild-index`` while Paperless keeps consuming: shared by
``tests/test_reliability_rebuild.py`` and ``bench/rebuild_while_consuming.py``.

Real processes throughout: the rebuild is the console script against the fake
Paperless; each consumed document is added to the fake and then the hook's console
script runs for it, as Paperless does after a consume.  Each hook is recorded as
*inside the window* when it finished after the rebuild began reading documents and
before the new index file was swapped in (the index file's inode still the old one,
the rebuild still running): exactly the hooks whose work lived only in the old file.
"""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    from tests.fake_paperless import FakePaperless, LoggedRequest
    from tests.reliability_support import CLI, base_env, record, run_hook
except ImportError:  # run from tests/ itself
    from fake_paperless import FakePaperless, LoggedRequest  # type: ignore[no-redef]
    from reliability_support import CLI, base_env, record, run_hook  # type: ignore[no-redef]


@dataclass
class Hooked:
    doc_id: int
    code: int
    stdout: str
    stderr: str
    inside_window: bool


@dataclass
class Outcome:
    rebuild: subprocess.CompletedProcess[str]
    hooks: list[Hooked] = field(default_factory=list)
    listing_started_at: float = 0.0
    rebuild_seconds: float = 0.0

    @property
    def inside(self) -> list[Hooked]:
        return [h for h in self.hooks if h.inside_window]


def rebuild_while_consuming(
    tmp_path: Path, fake: FakePaperless, consumed: Sequence[dict[str, Any]], *, workers: int = 2,
    hold_listing_until: int | None = None, rebuild_args: Sequence[str] = (), until_rebuild_ends: bool = False,
) -> Outcome:
    """Start ``rebuild-index`` (the API), and once it reads its first documents, consume
    ``consumed`` one by one in ``workers`` threads (add to the fake, run the hook).

    ``hold_listing_until``: the rebuild's first read of documents is held until that
    many hooks have finished, so that at least those ran inside the window on any
    machine.  ``until_rebuild_ends``: stop consuming when the rebuild exits (the bench:
    hooks throughout the whole rebuild); otherwise consume all of ``consumed``.
    """
    index = tmp_path / "index.sqlite3"
    old_inode = index.stat().st_ino
    env = base_env(tmp_path, url=fake.url, PAPERLESS_DEDUPE_PAPERLESS_TIMEOUT_SECONDS="600")
    listing = threading.Event()
    release = threading.Event()
    if hold_listing_until is None or hold_listing_until <= 0:
        release.set()

    def on_list(request: LoggedRequest) -> None:
        # The rebuild reads id, title, content, modified; hooks read id, content only.
        if "modified" in (request.param("fields") or "").split(","):
            listing.set()
            release.wait(600)

    fake.inject("call", path_regex=r"/api/documents/$", method="GET", fn=on_list, times=None)
    started = time.monotonic()
    proc = subprocess.Popen([CLI, "rebuild-index", *rebuild_args], env=env, cwd="/", stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    while not listing.wait(0.05):
        assert proc.poll() is None, "the rebuild ended before it read any document: " + proc.stderr.read()[-2000:]
    outcome = Outcome(rebuild=subprocess.CompletedProcess([], 0), listing_started_at=time.monotonic() - started)
    queue = list(consumed)
    lock = threading.Lock()

    def consume() -> None:
        while True:
            with lock:
                if not queue or (until_rebuild_ends and proc.poll() is not None):
                    return
                doc = queue.pop(0)
            fake.add_document(doc)
            out = run_hook(tmp_path, fake, doc["id"])
            inside = proc.poll() is None and index.stat().st_ino == old_inode
            with lock:
                outcome.hooks.append(Hooked(doc["id"], out.returncode, out.stdout, out.stderr, inside))
                if hold_listing_until is not None and len(outcome.hooks) >= hold_listing_until:
                    release.set()

    threads = [threading.Thread(target=consume) for _ in range(workers)]
    for t in threads:
        t.start()
    try:
        for t in threads:
            t.join()
    finally:
        release.set()
        stdout, stderr = proc.communicate(timeout=1800)
        fake.clear_faults()
    outcome.rebuild_seconds = time.monotonic() - started
    record("rebuild while consuming stdout", stdout)
    record("rebuild while consuming stderr", stderr)
    outcome.rebuild = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    return outcome
