"""A flaky Paperless (issue item 3): every fault the fake injects, at the hook level.

Each case: the older document of a pair is indexed, the fault is injected, the hook
runs for the newer one (the real ``hook.main()`` in this process, so that the many
cases stay fast; the console script path is covered by the e2e tests).  Then:

* exit 0 (not strict) and at most one line on stderr, naming what went wrong;
* bounded retries where a retry can help (counted in the fake's request log; the
  back-off sleeps are recorded and shortened, their lengths still checked);
* after the fault is gone, a second run leaves exactly one note, the tag and the
  link: nothing half-written, nothing repeated.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from paperless_dedupe_hook.paperless import client as client_mod
from tests.fake_paperless import FakePaperless
from tests.reliability_support import (
    annotation_state,
    assert_nothing_deleted,
    canary_guard,  # noqa: F401 - session fixture: the token never appears in any output
    corpus,
    hook_in_process,
    new_fake,
)

N_PAIRS = 40


class Library:
    def __init__(self, fake: FakePaperless, pairs: list[list[int]], tmp: Path) -> None:
        self.fake, self.pairs, self.tmp = fake, pairs, tmp
        self.next = 0

    def take(self) -> tuple[int, int]:
        older, newer = self.pairs[self.next]
        self.next += 1
        return older, newer


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    lib = corpus(606, documents=2 * N_PAIRS + 20, pairs=N_PAIRS)
    fake = new_fake()
    fake.add_documents(lib.docs)
    yield Library(fake, lib.groups, tmp_path_factory.mktemp("faults"))
    fake.stop()
    assert_nothing_deleted(fake)
    assert not fake.errors


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The client's back-off sleeps, recorded and cut to 10 ms each."""
    asked: list[float] = []
    real = time.sleep

    class _Time:
        monotonic = staticmethod(time.monotonic)
        time = staticmethod(time.time)

        @staticmethod
        def sleep(seconds: float) -> None:
            asked.append(seconds)
            real(min(seconds, 0.01))

    monkeypatch.setattr(client_mod, "time", _Time)
    return asked


HookRun = Callable[..., tuple[int, str, str, float]]


@pytest.fixture
def run_hook_here(library: Library, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> HookRun:
    def go(doc_id: int, *, url: str | None = None, **env: str) -> tuple[int, str, str, float]:
        return hook_in_process(monkeypatch, capsys, library.tmp, url or library.fake.url, doc_id,
                               "in-process hook", **env)

    return go


def _closed_port_url() -> str:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}"


class Blackhole:
    """A listener whose accept queue is full: connects hang until they time out."""

    def __init__(self) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(0)
        self.port = self.server.getsockname()[1]
        self.fill = []
        for _ in range(3):
            conn = socket.socket()
            conn.setblocking(False)
            try:
                conn.connect(("127.0.0.1", self.port))
            except BlockingIOError:
                pass
            self.fill.append(conn)
        time.sleep(0.1)

    def close(self) -> None:
        for conn in [*self.fill, self.server]:
            conn.close()


def _assert_annotated_once(fake: FakePaperless, older: int, newer: int) -> None:
    state = annotation_state(fake)
    assert state[newer]["tagged"] and state[newer]["notes"] == [[older]], state[newer]
    assert state[newer]["links"] == [older], state[newer]
    assert not state[older]["tagged"] and state[older]["notes"] == [] and state[older]["links"] == [newer]


def _one_line(err: str, *needles: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "not checked: internal error" not in err, err  # not our own bug
    for needle in needles:
        assert re.search(needle, lines[0], re.IGNORECASE), (needle, lines[0])
    return lines[0]


# (id, injections as (fault, kwargs), a regex the one line must match, most requests to the faulted path)
PERSISTENT = [
    ("401-token-refused", [("status", {"status": 401})], r"refused the token.*PAPERLESS_DEDUPE_TOKEN|paperless\.token", 1),
    ("403-no-permission", [("status", {"status": 403})], r"lacks the Paperless permission view_document \(403\)", 1),
    ("404-deleted-meanwhile", [("status", {"status": 404})], r"no document \d+.*deleted", 1),
    ("406-no-common-version", [("status", {"status": 406})], r"neither API version", 2),
    ("429-rate-limited", [("status", {"status": 429, "retry_after": 1})], r"rate-limit", 4),
    ("500-internal-error", [("status", {"status": 500})], r"internal error \(500\)|failed with an internal error", 4),
    ("502-bad-gateway", [("status", {"status": 502})], r"unavailable behind its proxy", 4),
    ("503-unavailable", [("status", {"status": 503})], r"unavailable behind its proxy", 4),
    ("malformed-json", [("malformed_json", {})], r"malformed JSON", 1),
    ("html-login-page", [("html_login", {})], r"HTML page instead of JSON", 1),
]


@pytest.mark.parametrize(("case", "faults", "message", "max_requests"), PERSISTENT, ids=[p[0] for p in PERSISTENT])
def test_persistent_fault_on_reading_the_document(
    library: Library, run_hook_here: HookRun, sleeps: list[float], case: str, faults: list[tuple[str, dict[str, Any]]],
    message: str, max_requests: int,
) -> None:
    fake = library.fake
    older, newer = library.take()
    assert run_hook_here(older)[0] == 0
    path = rf"/api/documents/{newer}/$"
    for fault, kw in faults:
        fake.inject(fault, path_regex=path, method="GET", times=None, **kw)
    try:
        code, out, err, _elapsed = run_hook_here(newer)
        hits = len(fake.requests_for("GET", path))
    finally:
        fake.clear_faults()
    assert code == 0
    _one_line(err, rf"document {newer} not checked", message)
    assert 1 <= hits <= max_requests, f"{hits} requests: retries must be bounded (and none for {case}?)"
    if case.startswith("429"):
        assert sleeps and min(sleeps) >= 1.0, sleeps  # Retry-After: 1 was honoured
    # strict mode turns the same into a failed consume, with the API error's exit code
    for fault, kw in faults:
        fake.inject(fault, path_regex=path, method="GET", times=None, **kw)
    try:
        assert run_hook_here(newer, PAPERLESS_DEDUPE_HOOK_STRICT="true")[0] == 4
    finally:
        fake.clear_faults()
    # later, Paperless answers: the pair is annotated exactly once
    code, out, err, _ = run_hook_here(newer)
    assert code == 0 and err == "", err
    _assert_annotated_once(fake, older, newer)


TRANSIENT = [
    ("429-retry-after-then-ok", "status", {"status": 429, "retry_after": 2}, 2),
    ("500-once", "status", {"status": 500}, 1),
    ("502-once", "status", {"status": 502}, 1),
    ("503-twice", "status", {"status": 503}, 2),
    ("504-once", "status", {"status": 504}, 1),
    ("connection-dropped-once", "close", {}, 1),
    ("read-timeout-once", "delay", {"seconds": 2.5}, 1),
]


@pytest.mark.parametrize(("case", "fault", "kw", "times"), TRANSIENT, ids=[t[0] for t in TRANSIENT])
def test_transient_fault_is_retried_and_the_run_succeeds(
    library: Library, run_hook_here: HookRun, sleeps: list[float], case: str, fault: str, kw: dict[str, Any],
    times: int,
) -> None:
    fake = library.fake
    older, newer = library.take()
    assert run_hook_here(older)[0] == 0
    path = rf"/api/documents/{newer}/$"
    fake.inject(fault, path_regex=path, method="GET", times=times, **kw)
    try:
        code, out, err, _ = run_hook_here(newer, PAPERLESS_DEDUPE_PAPERLESS_TIMEOUT_SECONDS="1")
    finally:
        fake.clear_faults()
    assert code == 0 and err == "", err
    assert f"#{older}" in out
    assert len(fake.requests_for("GET", path)) >= times + 1  # retried, and then it worked
    if case.startswith("429"):
        assert 2.0 <= max(sleeps) <= 30.0, sleeps
    _assert_annotated_once(fake, older, newer)


def test_connection_refused(library: Library, run_hook_here: HookRun, sleeps: list[float]) -> None:
    older, newer = library.take()
    code, _out, err, _ = run_hook_here(newer, url=_closed_port_url())
    assert code == 0
    _one_line(err, "unreachable", "attempts", r"paperless\.url")
    assert len(sleeps) == 3  # 4 attempts, 3 back-offs: bounded


def test_connect_timeout(library: Library, run_hook_here: HookRun, sleeps: list[float]) -> None:
    older, newer = library.take()
    hole = Blackhole()
    try:
        code, _out, err, _elapsed = run_hook_here(newer, url=f"http://127.0.0.1:{hole.port}",
                                                 PAPERLESS_DEDUPE_PAPERLESS_TIMEOUT_SECONDS="1",
                                                 PAPERLESS_DEDUPE_HOOK_TIMEOUT_SECONDS="3")
    finally:
        hole.close()
    assert code == 0
    _one_line(err, "did not answer|deadline|gave up")


def test_answers_slower_than_the_hooks_deadline(library: Library, run_hook_here: HookRun, sleeps: list[float]) -> None:
    fake = library.fake
    older, newer = library.take()
    assert run_hook_here(older)[0] == 0
    fake.inject("delay", path_regex=rf"/api/documents/{newer}/", method="GET", times=None, seconds=8)
    try:
        code, _out, err, _elapsed = run_hook_here(newer, PAPERLESS_DEDUPE_HOOK_TIMEOUT_SECONDS="2")
    finally:
        fake.clear_faults()
    assert code == 0
    # The hook's own deadline stopped it (not the 8 s answer nor the 30 s timeout): the
    # line names it, and the slow request was not retried past it.
    _one_line(err, r"hook\.timeout_seconds|deadline")
    assert "paperless.timeout_seconds" not in err, err
    code, _out, err, _ = run_hook_here(newer)
    assert code == 0 and err == ""
    _assert_annotated_once(fake, older, newer)


def test_document_deleted_meanwhile(library: Library, run_hook_here: HookRun) -> None:
    """The real 404: the document went to the trash between consume and hook."""
    fake = library.fake
    older, newer = library.take()
    fake.trash_document(newer)  # (the fake's own API, not a DELETE request)
    try:
        code, _out, err, _ = run_hook_here(newer)
    finally:
        with fake.lock:
            fake.documents[newer] = fake.trash.pop(newer)
            fake.documents[newer]["deleted_at"] = None
    assert code == 0
    _one_line(err, "404", f"no document {newer}")


def test_invalid_utf8_in_the_answer_is_replaced_not_fatal(library: Library, run_hook_here: HookRun) -> None:
    fake = library.fake
    older, newer = library.take()
    assert run_hook_here(older)[0] == 0
    fake.inject("invalid_utf8", path_regex=rf"/api/documents/{newer}/$", method="GET", times=None)
    try:
        code, out, err, _ = run_hook_here(newer)
    finally:
        fake.clear_faults()
    assert code == 0 and err == "", err
    assert f"#{older}" in out


# Faults on the writing steps.  The note POST is not idempotent: it is retried only
# when Paperless cannot have saved it, and a later run first reads the notes.
WRITE_FAULTS = [
    ("note-200-error-body", "note_error", r"/notes/$", "POST", {}, r"did not save the note"),
    ("note-500", "status", r"/notes/$", "POST", {"status": 500}, r"internal error"),
    ("note-connection-dropped", "close", r"/notes/$", "POST", {}, r"unreachable|RemoteProtocolError|disconnected"),
    ("note-saved-after-timeout", "delay", r"/notes/$", "POST", {"seconds": 1.6}, r"did not answer"),
    ("link-503", "status", r"/bulk_edit/$", "POST", {"status": 503}, r"unavailable"),
    ("tag-lookup-html", "html_login", r"/api/tags/$", "GET", {}, r"HTML page"),
    ("notes-read-malformed", "malformed_json", r"/notes/$", "GET", {}, r"malformed JSON"),
]


@pytest.mark.parametrize(("case", "fault", "path", "method", "kw", "message"), WRITE_FAULTS,
                         ids=[w[0] for w in WRITE_FAULTS])
def test_fault_while_annotating_leaves_nothing_half_written(
    library: Library, run_hook_here: HookRun, sleeps: list[float], case: str, fault: str, path: str, method: str,
    kw: dict[str, Any], message: str,
) -> None:
    fake = library.fake
    older, newer = library.take()
    assert run_hook_here(older)[0] == 0
    notes_before = len(fake.requests_for("POST", r"/notes/$"))
    fake.inject(fault, path_regex=(rf"/api/documents/{newer}" + path) if "notes" in path else path, method=method,
                times=None, **kw)
    try:
        code, _out, err, _ = run_hook_here(newer, PAPERLESS_DEDUPE_PAPERLESS_TIMEOUT_SECONDS="1")
    finally:
        fake.clear_faults()
    assert code == 0
    _one_line(err, rf"document {newer} checked and indexed, but document {newer} not annotated", message)
    if method == "POST" and "notes" in path and fault != "delay":
        assert len(fake.requests_for("POST", r"/notes/$")) - notes_before == 1  # a note POST is never blindly repeated
    time.sleep(1.7 if fault == "delay" else 0)  # the held-back note lands after the hook gave up
    code, _out, err, _ = run_hook_here(newer)
    assert code == 0 and err == "", err
    _assert_annotated_once(fake, older, newer)  # one note: the late one is found, not written again
    again = len([r for r in fake.requests if r.method == "POST"])
    assert run_hook_here(newer)[0] == 0
    assert len([r for r in fake.requests if r.method == "POST"]) == again  # a third run writes nothing
