"""Rebuilding while Paperless consumes (issue 18): nothing a hook did is lost.

* hooks that index documents while a full ``rebuild-index`` runs: every one of them
  is in the index after the swap, with the annotations the hook wrote;
* an ``--incremental`` run never removes, as deleted, a document a hook indexed
  while it ran.

The 8,000-document variant (hooks throughout the whole rebuild) is
``bench/rebuild_while_consuming.py``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.consuming_support import rebuild_while_consuming
from tests.reliability_support import (
    CANARY,
    annotation_state,
    assert_nothing_deleted,
    canary_guard,  # noqa: F401 - session fixture: the token never appears in any output
    corpus,
    index_health,
    new_fake,
    run_cli,
    run_hook,
)


def test_documents_hooked_while_a_full_rebuild_runs_are_all_kept(tmp_path: Path) -> None:
    lib = corpus(1818, documents=200, pairs=40, triples=2)
    consumed_from = 185  # ids from here on were consumed during the rebuild (Paperless counts up)
    before = [d for d in lib.docs if d["id"] < consumed_from]
    consumed = [d for d in lib.docs if d["id"] >= consumed_from]
    fake = new_fake()
    try:
        fake.add_documents(before)
        first = run_cli(tmp_path, fake, "--quiet", "rebuild-index")
        assert first.returncode == 0, first.stderr
        outcome = rebuild_while_consuming(tmp_path, fake, consumed, workers=2, hold_listing_until=len(consumed) // 2)
        assert outcome.rebuild.returncode == 0, outcome.rebuild.stderr[-2000:]
        assert len(outcome.hooks) == len(consumed)
        assert all(h.code == 0 and h.stderr == "" for h in outcome.hooks), [h.stderr for h in outcome.hooks if h.stderr]
        # The race really happened: at least half the hooks finished while the old file
        # was still the live one, after the rebuild had listed its documents.
        assert len(outcome.inside) >= len(consumed) // 2, len(outcome.inside)

        health = index_health(tmp_path / "index.sqlite3")  # consistent: bands and token counts
        assert health["documents"] == sorted(d["id"] for d in lib.docs), "documents hooked during the rebuild were lost"
        assert "kept" in outcome.rebuild.stderr + outcome.rebuild.stdout
        # Checked and annotated as the hook said: what each hook printed is in Paperless
        # and in the index's ledger, which the swap kept.
        state = annotation_state(fake)
        assert [h for h in outcome.inside if lib.older(h.doc_id)], "no hook inside the window had a duplicate"
        for hooked in outcome.hooks:
            older = lib.older(hooked.doc_id)
            if older:
                assert "possible duplicate" in hooked.stdout, hooked.stdout
                assert {x for note in state[hooked.doc_id]["notes"] for x in note} == older
                assert health["annotations"].get(hooked.doc_id) == older
        status = json.loads(run_cli(tmp_path, fake, "status", "--json").stdout)
        assert status["documents"] == len(lib.docs) == status["paperless_documents"]
        # A re-scan of a document hooked during the rebuild now finds it.
        twin_of = next(h.doc_id for h in outcome.inside if lib.older(h.doc_id) == set() and not lib.partners(h.doc_id))
        rescan = dict(next(d for d in lib.docs if d["id"] == twin_of), id=len(lib.docs) + 1)
        fake.add_document(rescan)
        again = run_hook(tmp_path, fake, rescan["id"])
        assert f"#{twin_of}" in again.stdout, again.stdout
        assert_nothing_deleted(fake)
    finally:
        fake.stop()


def test_incremental_never_drops_a_document_hooked_while_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The gap between asking Paperless which documents exist and applying the answer,
    widened: a document is consumed and hooked right after Paperless answered."""
    from paperless_dedupe_hook.commands import cli
    from paperless_dedupe_hook.paperless.client import PaperlessClient

    lib = corpus(1819, documents=40, pairs=4)
    late = lib.docs[-1]
    fake = new_fake()
    try:
        fake.add_documents(lib.docs[:-1])
        assert run_cli(tmp_path, fake, "--quiet", "rebuild-index").returncode == 0
        real_ids = PaperlessClient.document_ids
        hooked: list[Any] = []

        def ids_then_a_consume(self: PaperlessClient) -> list[int]:
            ids = real_ids(self)
            fake.add_document(late)
            hooked.append(run_hook(tmp_path, fake, late["id"]))
            conn = sqlite3.connect(tmp_path / "index.sqlite3")
            try:
                hooked.append(conn.execute("SELECT 1 FROM documents WHERE id=?", (late["id"],)).fetchone())
            finally:
                conn.close()
            return ids

        monkeypatch.setattr(PaperlessClient, "document_ids", ids_then_a_consume)
        for key in [k for k in __import__("os").environ if k.startswith(("PAPERLESS_", "DOCUMENT_"))]:
            monkeypatch.delenv(key)
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
        monkeypatch.setenv("PAPERLESS_DEDUPE_URL", fake.url)
        monkeypatch.setenv("PAPERLESS_DEDUPE_TOKEN", CANARY)
        monkeypatch.setenv("PAPERLESS_DEDUPE_INDEX", str(tmp_path / "index.sqlite3"))
        assert cli.main(["--quiet", "rebuild-index", "--incremental"]) == 0
        hook_run, indexed_in_gap = hooked
        assert hook_run.returncode == 0 and hook_run.stderr == "", hook_run.stderr
        assert indexed_in_gap == (1,), "the hook did not index the document inside the gap"
        assert late["id"] in index_health(tmp_path / "index.sqlite3")["documents"]
        assert_nothing_deleted(fake)
    finally:
        fake.stop()


def test_a_hook_that_cannot_get_the_index_says_who_holds_it_and_queues_the_document(tmp_path: Path) -> None:
    """A long write (here: the test holds the write lock as an incremental run would)
    keeps a hook out past its deadline: it names the holder, queues its document,
    exits 0; status shows it; the next hook checks it and empties the queue."""
    from paperless_dedupe_hook import pending

    lib = corpus(1820, documents=30, pairs=3)
    (a1, b1), (a2, b2), (a3, b3) = lib.groups
    ids = {d["id"] for d in lib.docs}
    fake = new_fake()
    try:
        fake.add_documents([d for d in lib.docs if d["id"] not in (b1, b2)])
        assert run_cli(tmp_path, fake, "--quiet", "rebuild-index").returncode == 0
        fake.add_documents([d for d in lib.docs if d["id"] in (b1, b2)])
        index = tmp_path / "index.sqlite3"
        holder = sqlite3.connect(index, isolation_level=None)
        try:
            holder.execute("BEGIN IMMEDIATE")
            with pending.holding(index, "paperless-dedupe rebuild-index --incremental"):
                held = run_hook(tmp_path, fake, b1, PAPERLESS_DEDUPE_HOOK_TIMEOUT_SECONDS="12")
                status = json.loads(run_cli(tmp_path, fake, "status", "--json").stdout)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert held.returncode == 0, held.stderr
        assert f"document {b1} not checked: index {index} is held by 'paperless-dedupe rebuild-index --incremental' " \
               f"(pid {__import__('os').getpid()}, since " in held.stderr, held.stderr
        assert f"queued in {index}.pending" in held.stderr and held.stderr.count("\n") == 1, held.stderr
        assert [item["id"] for item in pending.queued(index)] == [b1]
        assert status["pending_documents"] == 1 and status["pending_ids"] == [b1]
        assert status["paperless_documents"] == len(ids) and status["documents"] == len(ids) - 2
        assert b1 not in index_health(index)["documents"]
        doctor = run_cli(tmp_path, fake, "doctor").stdout
        assert f"warn  1 document(s) queued by hooks that found the index held (#{b1})" in doctor, doctor
        assert f"warn  index holds {len(ids) - 2} documents, Paperless shows {len(ids)}" in doctor, doctor

        after = run_hook(tmp_path, fake, b2)  # its own document, then the queued one
        assert after.returncode == 0 and after.stderr == "", after.stderr
        assert f"queued document {b1} checked: 1 possible duplicate(s)" in after.stdout, after.stdout
        assert pending.queued(index) == []
        assert {b1, b2} <= set(index_health(index)["documents"])
        doctor = run_cli(tmp_path, fake, "doctor").stdout
        assert "ok    no documents queued by hooks" in doctor and f"ok    index holds {len(ids)} documents" in doctor, doctor
        state = annotation_state(fake)
        assert {x for note in state[b1]["notes"] for x in note} == {a1}
        assert {x for note in state[b2]["notes"] for x in note} == {a2}
        assert_nothing_deleted(fake)
    finally:
        fake.stop()
