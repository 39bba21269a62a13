"""Data safety (issue item 6): nothing deleted, the user's tags, custom fields, notes
and links kept, a second run changes nothing, dismissals (our tag removed, or
``paperless-dedupe dismiss A B``) hold through hooks and ``rebuild-index --annotate``.

(Every test that uses the shared ``fake_paperless`` fixture also asserts at teardown
that no DELETE reached it: see tests/conftest.py.)
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from tests.fake_paperless import FakePaperless
from tests.reliability_support import (
    annotation_state,
    assert_nothing_deleted,
    canary_guard,  # noqa: F401 - session fixture: the token never appears in any output
    corpus,
    index_health,
    new_fake,
    our_tag,
    record_file,
    run_cli,
    run_concurrent_hooks,
)


def _writes(fake: FakePaperless) -> list[Any]:
    return [r for r in fake.requests if r.method in ("POST", "PATCH", "PUT", "DELETE")]


def _hooks(tmp_path: Path, fake: FakePaperless, *ids: int) -> None:
    result = run_concurrent_hooks(tmp_path, fake.url, [list(ids)])[0]
    assert result.codes == [0] * len(ids) and result.stderr == "", result.stderr


def _rebuild(tmp_path: Path, fake: FakePaperless, *args: str) -> dict[str, Any]:
    report = tmp_path / "report.json"
    out = run_cli(tmp_path, fake, "rebuild-index", "--report", str(report), *args)
    assert out.returncode == 0, out.stderr
    record_file(report)
    return json.loads(report.read_text())


def _only_our_kinds_of_write(fake: FakePaperless, field_id: int) -> None:
    """Writes are: tag/field/saved-view creation (the view once), notes, bulk add_tag and
    modify_custom_fields of our field.  Never the user's UI settings (pinning is asked for)."""
    assert len([r for r in _writes(fake) if r.path.endswith("/api/saved_views/")]) <= 1
    for r in _writes(fake):
        assert r.method == "POST", r.method
        if r.path.endswith("/bulk_edit/"):
            assert r.json["method"] in ("add_tag", "modify_custom_fields"), r.json
            if r.json["method"] == "modify_custom_fields":
                assert list(r.json["parameters"]["add_custom_fields"]) == [str(field_id)]
                assert r.json["parameters"]["remove_custom_fields"] == []
            assert len(r.json["documents"]) == 1
        else:
            assert r.path.endswith(("/notes/", "/api/tags/", "/api/custom_fields/", "/api/saved_views/")), r.path


def test_user_data_is_kept_second_runs_change_nothing_and_dismissals_hold(tmp_path: Path) -> None:
    lib = corpus(707, documents=40, pairs=5)
    (a1, b1), (a2, b2), (a3, b3), (a4, b4), (a5, b5) = lib.groups
    paired = {x for g in lib.groups for x in g}
    x = next(d["id"] for d in lib.docs if d["id"] not in paired)
    fake = new_fake()
    try:
        fake.add_documents(lib.docs)
        inbox, finance = fake.add_tag("inbox")["id"], fake.add_tag("finance")["id"]
        number = fake.add_custom_field("Invoice number", "string")["id"]
        ours = fake.add_custom_field("Possible duplicates", "documentlink")["id"]  # made by the user beforehand
        with fake.lock:
            for doc_id in (a1, b1):
                rec = fake.documents[doc_id]
                rec["tags"] = [inbox, finance]
                rec["notes"].append(fake._make_note(f"user note on {doc_id}"))
                fake._set_field(rec, number, f"INV-{doc_id}")
            fake._set_field(fake.documents[b1], ours, [x])  # the user's own link (Paperless adds x -> b1)
        untouched = {d: copy.deepcopy(fake.document(d)) for d in fake.documents if d not in paired and d != x}
        user_tags_before = copy.deepcopy({t: fake.tags[t] for t in (inbox, finance)})

        # Hooks as documents arrive (b3, b4, b5 are never hooked: the rebuild finds those).
        _hooks(tmp_path, fake, a1, b1, a2, b2, a3, a4, a5)
        doc = fake.document(b1)
        tag = our_tag(fake)
        assert tag is not None and set(doc["tags"]) == {inbox, finance, tag}
        values = {f["field"]: f["value"] for f in doc["custom_fields"]}
        assert values[number] == f"INV-{b1}" and sorted(values[ours]) == sorted([x, a1])  # merged, not replaced
        assert [n["note"] for n in doc["notes"]][0] == f"user note on {b1}" and len(doc["notes"]) == 2
        older = fake.document(a1)
        assert set(older["tags"]) == {inbox, finance} and [n["note"] for n in older["notes"]] == [f"user note on {a1}"]
        assert {f["field"]: f["value"] for f in older["custom_fields"]}[number] == f"INV-{a1}"
        assert {f["field"]: f["value"] for f in fake.document(x)["custom_fields"]}[ours] == [b1]  # user's link kept

        # A second run changes nothing.
        before = len(_writes(fake))
        _hooks(tmp_path, fake, b1, a1, b2)
        assert len(_writes(fake)) == before

        # The user dismisses pair 2 by removing our tag; pair 4 by hand.
        with fake.lock:
            fake.documents[b2]["tags"].remove(tag)
        out = run_cli(tmp_path, fake, "dismiss", str(b4), str(a4))
        assert out.returncode == 0 and f"{a4} and {b4}" in out.stdout, out.stderr

        # A rebuild with --annotate annotates what the hooks missed, and nothing else.
        report = _rebuild(tmp_path, fake, "--annotate")
        pairs = {(p["a"], p["b"]) for p in report["pairs"]}
        assert (a4, b4) not in pairs and {(a1, b1), (a3, b3), (a5, b5)} <= pairs
        state = annotation_state(fake)
        assert state[b3]["tagged"] and state[b3]["notes"] == [[a3]] and state[b5]["notes"] == [[a5]]
        assert not state[b2]["tagged"] and state[b2]["notes"] == [[a2]]  # dismissed: tag not re-added, no new note
        assert not state[b4]["tagged"] and state[b4]["notes"] == [] and state[a4]["notes"] == []
        assert {(a2, b2), (a4, b4)} <= index_health(tmp_path / "index.sqlite3")["dismissed"]

        # Twice more, a plain rebuild in between: nothing changes any more.
        before = len(_writes(fake))
        _rebuild(tmp_path, fake, "--annotate")
        report = _rebuild(tmp_path, fake)
        assert (a2, b2) not in {(p["a"], p["b"]) for p in report["pairs"]}  # dismissed pairs leave the results
        _rebuild(tmp_path, fake, "--annotate")
        _hooks(tmp_path, fake, b2, a2, b4, a4, b3, a3)
        assert len(_writes(fake)) == before
        assert not annotation_state(fake)[b2]["tagged"]

        # Nothing we did not create changed; only our kinds of write ever happened.
        for doc_id, view in untouched.items():
            assert fake.document(doc_id) == view, doc_id
        assert {t: fake.tags[t] for t in (inbox, finance)} == user_tags_before
        _only_our_kinds_of_write(fake, ours)
        assert not fake.pending_tasks - paired - {x}  # bulk edits only on documents of pairs
        assert_nothing_deleted(fake)
        record_file(tmp_path / "index.sqlite3")
    finally:
        fake.stop()
