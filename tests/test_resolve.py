"""resolve, resolutions and undo against the fake Paperless (real HTTP, a real SQLite index).

The library is the one of ``paperless-api/resolve.json`` (tests/resolve_support.py): the
copy #2 holds a tag, a correspondent, two custom field values, two notes and ASN 1001
that the original #1 lacks.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fake_paperless import FakePaperless
from tests.resolve_support import (
    NOTES,
    cli,
    confirm,
    environment,
    indexed_library,
    served,
    snapshot,
    writes,
)


@pytest.fixture
def fake() -> Iterator[FakePaperless]:
    with served(FakePaperless().start()) as server:
        yield server


@pytest.fixture
def library(fake: FakePaperless, tmp_path: Path) -> Iterator[dict[str, int]]:
    with environment(fake, tmp_path):
        yield indexed_library(fake)


def _keeper_holds_what_the_copy_held(fake: FakePaperless, ids: dict[str, int]) -> None:
    keeper = snapshot(fake, 1)
    assert ids["tax"] in keeper["tags"]
    assert keeper["correspondent"] == 1 and keeper["archive_serial_number"] == 1001
    assert keeper["document_type"] == 1 and keeper["storage_path"] == 4
    fields = dict(keeper["custom_fields"])
    assert fields[ids["reference"]] == '"REF-2026-0815"' and fields[ids["related"]] == "[3]"
    texts = [text for _, text in keeper["notes"]]
    assert [f"From #2: {n}" for n in NOTES] == texts[:2]
    assert texts[2].startswith("Resolved duplicate (paperless-dedupe-hook):") and "undo 1" in texts[2]
    assert len(texts) == 3, "one note per copied note, one saying what was resolved"


@pytest.mark.parametrize("how", [pytest.param("tag", id="confirmed-by-tag"), pytest.param("command", id="named")])
def test_resolve_carries_everything_then_undo_restores_both(fake: FakePaperless, library: dict[str, int],
                                                           how: str) -> None:
    confirm_tag = confirm(fake, 2) if how == "tag" else None
    before_keeper, before_copy = snapshot(fake, 1), snapshot(fake, 2)
    code, out, err = cli("resolve") if how == "tag" else cli("resolve", "2")
    assert (code, err) == (0, ""), err
    assert "resolved #2 into #1 (resolution 1)" in out
    _keeper_holds_what_the_copy_held(fake, library)
    assert 2 in fake.trash and 2 not in fake.documents
    assert fake.trash[2]["archive_serial_number"] is None, "the ASN moved: it is unique across the trash"
    assert [r.path for r in fake.requests_for("DELETE")] == ["/api/documents/2/"]

    # a second resolve changes nothing
    sent = len(writes(fake))
    assert cli("resolve")[0] == 0 and cli("resolve", "2")[0] == 0
    assert len(writes(fake)) == sent

    code, out, _ = cli("resolutions", "--json")
    [entry] = json.loads(out)
    assert (entry["id"], entry["copy"], entry["keeper"], entry["state"]) == (1, 2, 1, "resolved")

    code, out, err = cli("undo", "--last")
    assert (code, err) == (0, ""), err
    assert snapshot(fake, 1) == before_keeper, "the keeper is as it was, field by field"
    after_copy = snapshot(fake, 2)
    expected_tags = [t for t in before_copy["tags"] if t != confirm_tag]
    assert after_copy == {**before_copy, "tags": expected_tags}, "the copy is back as it was (without our confirmation)"
    assert json.loads(cli("resolutions", "--json")[1])[0]["state"] == "undone"
    # an undone copy is not resolved again unless the user confirms it again
    sent = len(writes(fake))
    assert cli("resolve")[0] == 0
    assert len(writes(fake)) == sent
    if how == "tag":
        confirm(fake, 2)
        assert cli("resolve")[0] == 0
        assert 2 in fake.trash


def test_undo_keeps_what_the_user_changed_since(fake: FakePaperless, library: dict[str, int]) -> None:
    assert cli("resolve", "2")[0] == 0
    with fake.lock:  # the user sets another correspondent and adds a tag of their own
        keeper = fake.documents[1]
        keeper["correspondent"] = 7
        own = fake.add_tag("checked")["id"]
        keeper["tags"].append(own)
    assert cli("undo", "1")[0] == 0
    keeper_now = snapshot(fake, 1)
    assert keeper_now["correspondent"] == 7 and own in keeper_now["tags"]
    assert library["tax"] not in keeper_now["tags"] and keeper_now["archive_serial_number"] is None
    assert snapshot(fake, 2)["archive_serial_number"] == 1001


def test_dry_run_prints_every_write_and_writes_nothing(fake: FakePaperless, library: dict[str, int]) -> None:
    confirm(fake, 2)
    sent = len(writes(fake))
    code, out, err = cli("resolve", "--dry-run")
    assert code == 0, err
    assert len(writes(fake)) == sent
    lines = [line for line in out.splitlines() if line.startswith("dry run:   ")]
    assert [line.split()[2] for line in lines] == ["PATCH", "PATCH", "POST", "POST", "POST", "DELETE"], out
    assert "archive_serial_number 1001 -> null" in lines[0] and "#2" in lines[-1]
    assert cli("resolutions", "--json")[1].strip() == "[]"


def _refused(fake: FakePaperless, *argv: str) -> str:
    sent = len(writes(fake))
    code, out, err = cli(*argv)
    assert code == 2, (out, err)
    assert len(writes(fake)) == sent, "a refusal changes nothing"
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_refused_when_the_pair_was_dismissed(fake: FakePaperless, library: dict[str, int]) -> None:
    assert cli("dismiss", "1", "2")[0] == 0
    assert "dismissed" in _refused(fake, "resolve", "2", "--keep", "1")
    assert "no duplicate left" in _refused(fake, "resolve", "2")


@pytest.mark.parametrize("which", [1, 2])
def test_refused_when_a_text_changed_since_the_pair_was_found(fake: FakePaperless, library: dict[str, int],
                                                              which: int) -> None:
    with fake.lock:
        fake.documents[which]["content"] += "\nP.S. The meter was read again on 1 December.\n"
    line = _refused(fake, "resolve", "2")
    assert f"the text of #{which} changed" in line


def test_refused_when_the_keeper_is_in_the_trash(fake: FakePaperless, library: dict[str, int]) -> None:
    fake.trash_document(1)
    assert "in Paperless's trash" in _refused(fake, "resolve", "2", "--keep", "1")


def test_refused_for_a_pair_never_found(fake: FakePaperless, library: dict[str, int]) -> None:
    assert "never found as duplicates" in _refused(fake, "resolve", "2", "--keep", "3")


@pytest.mark.parametrize("missing", ["delete_document", "change_document"])
def test_refused_without_a_permission_named(tmp_path: Path, missing: str) -> None:
    from tests.fake_paperless import MODELS

    allowed = [f"{a}_{m}" for m in MODELS for a in ("add", "change", "delete", "view")
               if f"{a}_{m}" != missing] + ["view_uisettings"]
    server = FakePaperless(is_superuser=False, permissions=allowed).start()
    try:
        with environment(server, tmp_path):
            indexed_library(server)
            line = _refused(server, "resolve", "2")
            assert missing in line and "nothing was changed" in line
    finally:
        server.stop()


def test_resolve_and_undo_on_a_redis_index(fake: FakePaperless, tmp_path: Path) -> None:
    import shutil

    from tests.redis_server import running_redis
    from tests.resolve_support import hook
    from tests.tooling import missing

    if shutil.which("redis-server") is None:
        missing("redis-server is not installed: apt-get install redis-server (.ci/run installs it)")
    with running_redis(tmp_path / "redis") as url, environment(
            fake, tmp_path, PAPERLESS_DEDUPE_INDEX_BACKEND="redis", PAPERLESS_DEDUPE_INDEX_REDIS_URL=url):
        ids = indexed_library(fake)
        before_keeper, before_copy = snapshot(fake, 1), snapshot(fake, 2)
        confirm_tag = confirm(fake, 2)
        assert hook(3) == 0  # the hook resolves the confirmed copy on a Redis index too
        _keeper_holds_what_the_copy_held(fake, ids)
        [entry] = json.loads(cli("resolutions", "--json")[1])
        assert (entry["copy"], entry["keeper"], entry["state"]) == (2, 1, "resolved")
        code, _, err = cli("undo", "--last")
        assert code == 0, err
        assert snapshot(fake, 1) == before_keeper
        assert snapshot(fake, 2) == {**before_copy, "tags": [t for t in before_copy["tags"] if t != confirm_tag]}
        assert json.loads(cli("resolutions", "--json")[1])[0]["state"] == "undone"


def test_the_journal_is_written_before_the_first_write(fake: FakePaperless, library: dict[str, int],
                                                       tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from paperless_dedupe_hook.paperless._resolve_api import ResolveCalls

    seen: list[tuple[str, str]] = []
    original = ResolveCalls.patch_document

    def patch(self: ResolveCalls, document_id: int, changes: dict[str, object]) -> dict[str, object]:
        with sqlite3.connect(tmp_path / "index.sqlite3") as conn:
            seen.extend(conn.execute("SELECT state, plan FROM resolutions").fetchall())
        return original(self, document_id, changes)

    monkeypatch.setattr(ResolveCalls, "patch_document", patch)
    assert cli("resolve", "2")[0] == 0
    state, plan = seen[0]
    assert state == "resolving"
    recorded = json.loads(plan)
    assert recorded["copy"]["archive_serial_number"] == 1001 and recorded["keeper"]["archive_serial_number"] is None
    assert [n["note"] for n in recorded["copy"]["notes"]][:2] == list(NOTES)


def test_a_refusal_in_the_middle_rolls_back(fake: FakePaperless, library: dict[str, int]) -> None:
    before_keeper, before_copy = snapshot(fake, 1), snapshot(fake, 2)
    # the trash refuses the copy: a 403 after the keeper got everything
    fake.inject("status", status=403, method="DELETE", path_regex=r"/api/documents/2/$", times=1)
    code, _, err = cli("resolve", "2")
    assert code == 2 and "rolled back" in err
    assert snapshot(fake, 1) == before_keeper and snapshot(fake, 2) == before_copy
    assert json.loads(cli("resolutions", "--json")[1])[0]["state"] == "rolled back"


def test_the_hook_resolves_a_few_confirmed_copies(fake: FakePaperless, library: dict[str, int]) -> None:
    from tests.resolve_support import hook

    confirm(fake, 2)
    assert hook(3) == 0  # any consumed document: the confirmation made in the UI takes effect
    assert 2 in fake.trash
    _keeper_holds_what_the_copy_held(fake, library)
    sent = len(writes(fake))
    assert hook(3) == 0
    assert len(writes(fake)) == sent, "nothing left to resolve, nothing written"


def test_version_mode_stores_the_copy_as_a_version_and_the_hook_leaves_it_alone(
        fake: FakePaperless, library: dict[str, int], tmp_path: Path) -> None:
    from tests.resolve_support import hook

    with environment(fake, tmp_path, PAPERLESS_DEDUPE_ACTIONS_RESOLVE_MODE="version"):
        before_keeper = snapshot(fake, 1)
        code, out, err = cli("resolve", "2")
        assert (code, err) == (0, ""), err
        keeper = snapshot(fake, 1)
        [version] = [v for v in keeper["versions"] if v[0] != 1]
        assert version[1] == "#2 (paperless-dedupe resolution 1)"
        assert "attached" in keeper["content"], "in 3.x the newest version's text is the document's"
        assert 2 in fake.trash
        # Paperless runs the post-consume script for the version upload with the version row's id
        sent = len(writes(fake))
        assert hook(version[0]) == 0 and hook(1) == 0
        assert len(writes(fake)) == sent, "the hook annotated what the resolution did"
        assert cli("undo", "1")[0] == 0
        assert snapshot(fake, 1) == before_keeper, "the version is gone, the keeper's own text is back"
        assert version[0] in fake._resolve_state()["trashed_versions"], "the version went to the trash, not away"


REVISION = ("Terms and Conditions of Example Lettings Ltd\n{version}\n1. Scope\nThese terms apply to every tenancy we "
            "manage for our landlords in the United Kingdom. {clause}\n2. Rent\nRent is due on the first working day "
            "of each month and is paid by standing order to the account named in the tenancy agreement.\n3. Notice\n"
            "Either party may end the agreement with two months' notice in writing to the address given above.\n")


def test_a_revision_is_refused_in_trash_mode_and_stored_as_a_version_in_version_mode(
        fake: FakePaperless, tmp_path: Path) -> None:
    from tests.resolve_support import hook

    with environment(fake, tmp_path):
        fake.add_document(id=21, title="Terms 2023", added="2026-01-01T08:00:00Z",
                          content=REVISION.format(version="Last updated: 1 March 2023", clause="Pets need consent."))
        fake.add_document(id=22, title="Terms 2024", added="2026-02-01T08:00:00Z",
                          content=REVISION.format(version="Last updated: 15 September 2024",
                                                  clause="Pets and bicycles in flats need our written consent."))
        assert hook(21) == 0 and hook(22) == 0
        line = _refused(fake, "resolve", "22")
        assert "is a revision of #21" in line and "resolve_mode" in line
    with environment(fake, tmp_path, PAPERLESS_DEDUPE_ACTIONS_RESOLVE_MODE="version"):
        code, out, err = cli("resolve", "22")
        assert (code, err) == (0, ""), err
        keeper = snapshot(fake, 21)
        assert [label for _, label in keeper["versions"]][0] == "#22 (paperless-dedupe resolution 1)"
        assert "15 September 2024" in keeper["content"], "the newer revision is the keeper's latest version"


def test_version_mode_refuses_to_make_a_worse_file_the_latest(fake: FakePaperless, tmp_path: Path) -> None:
    from tests.resolve_support import ORIGINAL, hook

    with environment(fake, tmp_path, PAPERLESS_DEDUPE_ACTIONS_RESOLVE_MODE="version"):
        fake.add_document(id=31, title="letter", content=ORIGINAL, added="2026-01-01T08:00:00Z")
        fake.add_document(id=32, title="letter scan", added="2026-01-02T08:00:00Z", mime_type="image/jpeg",
                          content=ORIGINAL.replace("Keller", "Ke1ler").replace("Muenchen", "Muenchen ~"))
        assert hook(31) == 0 and hook(32) == 0
        line = _refused(fake, "resolve", "32")
        assert "worse" in line and "a scan of it" in line and 'resolve_mode = "trash"' in line


def test_paperless_gone_halfway_leaves_it_open_and_the_next_run_finishes(fake: FakePaperless,
                                                                          library: dict[str, int]) -> None:
    fake.inject("close", method="DELETE", path_regex=r"/api/documents/2/$", times=1)
    code, _, err = cli("resolve", "2")
    assert code == 4 and "unfinished" in err and len(err.strip().splitlines()) == 1, err
    assert json.loads(cli("resolutions", "--json")[1])[0]["state"] == "resolving"
    code, out, err = cli("resolve")
    assert code == 0 and "taking up resolution 1" in out, err
    _keeper_holds_what_the_copy_held(fake, library)
    assert 2 in fake.trash


def test_undo_dry_run_writes_nothing(fake: FakePaperless, library: dict[str, int]) -> None:
    assert cli("resolve", "2")[0] == 0
    sent = len(writes(fake))
    code, out, _ = cli("undo", "1", "--dry-run")
    assert code == 0 and "dry run: would restore #2" in out
    assert len(writes(fake)) == sent and 2 in fake.trash
    assert json.loads(cli("resolutions", "--json")[1])[0]["state"] == "resolved"


def test_the_hook_does_not_retry_a_refused_copy_and_resolve_shows_why(fake: FakePaperless,
                                                                      library: dict[str, int]) -> None:
    from tests.resolve_support import hook

    confirm(fake, 3)  # the newsletter is nobody's duplicate: refused
    assert hook(3) == 0
    sent = len(fake.requests)
    assert hook(3) == 0  # a document without matches
    assert len(fake.requests) - sent == 3, "root, document and the one confirmation request: nothing retried"
    confirm(fake, 2)  # a real copy confirmed later is still resolved by the hook
    assert hook(3) == 0
    assert 2 in fake.trash and 3 in fake.documents
    code, _, err = cli("resolve")
    assert code == 2 and "#3 not resolved" in err and "no duplicate left" in err
