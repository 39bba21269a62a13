"""A resolution (and an undo) SIGKILLed at each step in turn: the next ``resolve``
finishes it, the next ``undo`` rolls it back, never anything half done.

The kill comes from tests/test_reliability_crash.py's killer: the named function is
called (or not), then the process kills itself, as a power cut would.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fake_paperless import FakePaperless
from tests.reliability_support import base_env, new_fake
from tests.resolve_support import (
    NOTES,
    cli,
    confirm,
    environment,
    indexed_library,
    served,
    snapshot,
)
from tests.test_reliability_crash import killed_run

API = "paperless_dedupe_hook.paperless._resolve_api:ResolveCalls"
NOTE = "paperless_dedupe_hook.paperless._document_api:DocumentCalls.add_note"

# The steps of a resolution of #2 into #1, in order.
RESOLVE_KILL_POINTS = [
    pytest.param(f"{API}.patch_document", "before", 1, id="journaled-nothing-sent"),
    pytest.param(f"{API}.patch_document", "after", 1, id="asn-off-the-copy"),
    pytest.param(f"{API}.patch_document", "after", 2, id="keeper-patched-no-notes"),
    pytest.param(NOTE, "after", 1, id="first-note-copied"),
    pytest.param(NOTE, "after", 2, id="notes-copied-no-summary"),
    pytest.param(NOTE, "after", 3, id="summary-written-copy-not-trashed"),
    pytest.param(f"{API}.trash_document", "after", 1, id="copy-trashed-journal-not-updated"),
    pytest.param("paperless_dedupe_hook.index.sqlite:SqliteIndex.remove", "after", 1, id="journal-uncommitted"),
]


@pytest.fixture
def fake() -> Iterator[FakePaperless]:
    with served(new_fake()) as server:
        yield server


def _resolved(fake: FakePaperless) -> None:
    keeper = snapshot(fake, 1)
    assert keeper["archive_serial_number"] == 1001 and keeper["correspondent"] == 1
    texts = [text for _, text in keeper["notes"]]
    assert texts[:2] == [f"From #2: {n}" for n in NOTES] and len(texts) == 3, texts
    assert 2 in fake.trash and fake.trash[2]["archive_serial_number"] is None


@pytest.mark.parametrize("then", ["resolve", "undo"])
@pytest.mark.parametrize(("target", "when", "nth"), RESOLVE_KILL_POINTS)
def test_resolution_killed_at_each_step_is_finished_or_rolled_back(fake: FakePaperless, tmp_path: Path, target: str,
                                                                   when: str, nth: int, then: str) -> None:
    with environment(fake, tmp_path):
        indexed_library(fake)
        confirm_tag = confirm(fake, 2)
        before_keeper, before_copy = snapshot(fake, 1), snapshot(fake, 2)
        env = base_env(tmp_path, url=fake.url)
        out = killed_run(tmp_path, env, target, when, ["resolve"], nth=nth)
        assert out.returncode == -signal.SIGKILL, f"not killed: {out.stdout} {out.stderr}"
        [entry] = json.loads(cli("resolutions", "--json")[1])
        assert entry["state"] == "resolving", entry
        if then == "resolve":
            code, output, err = cli("resolve")
            assert code == 0, err
            assert "taking up resolution 1" in output
            _resolved(fake)
            assert json.loads(cli("resolutions", "--json")[1])[0]["state"] == "resolved"
        else:
            code, output, err = cli("undo", "--last")
            assert code == 0, err
            assert snapshot(fake, 1) == before_keeper
            assert snapshot(fake, 2) == {**before_copy, "tags": [t for t in before_copy["tags"] if t != confirm_tag]}
            assert json.loads(cli("resolutions", "--json")[1])[0]["state"] == "rolled back"


UNDO_KILL_POINTS = [
    pytest.param(f"{API}.restore", "after", 1, id="copy-restored"),
    pytest.param(f"{API}.delete_note", "after", 2, id="notes-half-deleted"),
    pytest.param(f"{API}.patch_document", "after", 1, id="keeper-taken-back-asn-not-returned"),
]


@pytest.mark.parametrize(("target", "when", "nth"), UNDO_KILL_POINTS)
def test_undo_killed_at_each_step_is_finished_by_the_next_undo(fake: FakePaperless, tmp_path: Path, target: str,
                                                              when: str, nth: int) -> None:
    with environment(fake, tmp_path):
        indexed_library(fake)
        before_keeper, before_copy = snapshot(fake, 1), snapshot(fake, 2)
        assert cli("resolve", "2")[0] == 0
        out = killed_run(tmp_path, base_env(tmp_path, url=fake.url), target, when, ["undo", "--last"], nth=nth)
        assert out.returncode == -signal.SIGKILL, f"not killed: {out.stdout} {out.stderr}"
        assert json.loads(cli("resolutions", "--json")[1])[0]["state"] == "undoing"
        code, _, err = cli("undo", "--last")
        assert code == 0, err
        assert snapshot(fake, 1) == before_keeper and snapshot(fake, 2) == before_copy
        assert json.loads(cli("resolutions", "--json")[1])[0]["state"] == "undone"


@pytest.mark.parametrize(("target", "when", "busy"), [
    pytest.param(f"{API}.download_original", "after", False, id="file-downloaded-not-uploaded"),
    pytest.param(f"{API}.upload_version", "after", False, id="version-uploaded-task-not-journaled"),
    pytest.param(f"{API}.upload_version", "after", True, id="version-task-still-running-not-journaled"),
    pytest.param(f"{API}.task", "after", False, id="version-stored-not-journaled"),
])
def test_version_mode_killed_around_the_upload_uploads_once(fake: FakePaperless, tmp_path: Path, target: str,
                                                           when: str, busy: bool) -> None:
    with environment(fake, tmp_path, PAPERLESS_DEDUPE_ACTIONS_RESOLVE_MODE="version"):
        indexed_library(fake)
        if busy:  # the worker has not stored the version yet when the next run looks
            fake.delay_version_tasks()
        env = base_env(tmp_path, url=fake.url, PAPERLESS_DEDUPE_ACTIONS_RESOLVE_MODE="version")
        out = killed_run(tmp_path, env, target, when, ["resolve", "2"])
        assert out.returncode == -signal.SIGKILL, f"not killed: {out.stdout} {out.stderr}"
        code, _, err = cli("resolve")
        assert code == 0, err
        assert len(fake.requests_for("POST", r"/update_version/")) == 1
        versions = [label for _, label in snapshot(fake, 1)["versions"]]
        assert versions == ["#2 (paperless-dedupe resolution 1)", None]
        _resolved(fake)


def test_the_hook_leaves_alone_what_an_interrupted_resolution_writes_to(fake: FakePaperless, tmp_path: Path) -> None:
    from tests.resolve_support import hook, writes

    with environment(fake, tmp_path):
        indexed_library(fake)
        out = killed_run(tmp_path, base_env(tmp_path, url=fake.url), f"{API}.patch_document", "after",
                         ["resolve", "2"], nth=2)
        assert out.returncode == -signal.SIGKILL
        sent = len(writes(fake))
        assert hook(1) == 0 and hook(2) == 0
        assert len(writes(fake)) == sent, "the hook wrote to a document a resolution is writing to"
        assert cli("resolve")[0] == 0
        _resolved(fake)
