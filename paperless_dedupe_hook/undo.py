"""Taking a resolution back: ``paperless-dedupe undo ID`` / ``undo --last``, and the
roll-back of a resolution that could not be finished.

From the journaled plan, in reverse: the copy restored from the trash (its notes, custom
fields and tags come back with it), the version it added to the keeper sent to the trash,
the notes it wrote deleted, what it carried over taken back from the keeper where the
keeper still holds exactly that (what the user changed since stays), the ASN given back
to the copy, and our confirmation tag taken off the copy: an undone copy is resolved
again only when the user confirms it again.  Each step looks first, so an interrupted
undo is finished by the next run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._errors import PaperlessError
from .resolution import SINGLE_VALUES, Run, get_or_none, our_new_notes


def keeper_takeback(keeper: Mapping[str, Any], plan: Mapping[str, Any]) -> dict[str, Any]:
    """The PATCH that takes from the keeper what the resolution carried over and the
    keeper still holds unchanged."""
    carry, before = plan["carry"], plan["keeper"]
    changes: dict[str, Any] = {}
    tags = list(keeper.get("tags") or [])
    kept = [t for t in tags if t not in carry["tags"]]
    if kept != tags:
        changes["tags"] = kept
    for key in SINGLE_VALUES:
        if carry.get(key) is not None and keeper.get(key) == carry[key]:
            changes[key] = before.get(key)
    current = {i["field"]: i.get("value") for i in keeper.get("custom_fields") or []}
    old = {i["field"]: i.get("value") for i in before.get("custom_fields") or []}
    wanted = dict(current)
    for inst in carry["custom_fields"]:
        field = inst["field"]
        if field in current and current[field] == inst["value"]:
            if inst.get("keeper_had"):
                wanted[field] = old.get(field)
            else:
                del wanted[field]
    if wanted != current:
        changes["custom_fields"] = [{"field": f, "value": v} for f, v in wanted.items()]
    if carry.get("asn") is not None and keeper.get("archive_serial_number") == carry["asn"]:
        changes["archive_serial_number"] = None
    return changes


def backward(run: Run, entry: dict[str, Any], *, final: str) -> None:
    """Take a resolution back (``final``: "undone" or "rolled back")."""
    plan, copy_id, keeper_id = entry["plan"], entry["copy"], entry["keeper"]
    steps: list[str] = list(entry["steps"])
    if entry["state"] != "undoing":
        plan["undo_final"] = final
        run.journal(entry["id"], state="undoing", plan=plan)

    def done(step: str) -> None:
        steps.append(f"undo: {step}")
        run.journal(entry["id"], steps=steps)

    copy = get_or_none(run, copy_id)
    if copy is None:
        if not run.client.restore([copy_id]):
            run.say(f"warning: #{copy_id} is neither in Paperless nor in its trash (emptied?): "
                    f"only #{keeper_id} is taken back")
        copy = get_or_none(run, copy_id)
    done("copy back from the trash")
    if plan["mode"] == "version":
        keeper = run.client.get_document(keeper_id, fields=("id", "versions"))
        for version in keeper.get("versions") or []:
            if not version.get("is_root") and (version.get("id") == plan.get("version_id")
                                               or version.get("version_label") == plan.get("version_label")):
                run.client.delete_version(keeper_id, int(version["id"]))  # into the trash, as a row of its own
        done("version off the keeper")
    for note in our_new_notes(run.client.get_notes(keeper_id), plan):
        run.client.delete_note(keeper_id, int(note["id"]))
    done("notes off the keeper")
    changes = keeper_takeback(run.client.get_document(keeper_id), plan)
    if changes:
        run.client.patch_document(keeper_id, changes)
    done("metadata off the keeper")
    if copy is not None:
        give: dict[str, Any] = {}
        asn = plan["carry"].get("asn")
        if asn is not None and copy.get("archive_serial_number") is None:
            give["archive_serial_number"] = asn
        confirm = set(plan.get("confirm_tags") or [])
        tags = list(copy.get("tags") or [])
        if confirm & set(tags):
            give["tags"] = [t for t in tags if t not in confirm]
        if give:
            try:
                run.client.patch_document(copy_id, give)
            except PaperlessError as exc:
                if "archive_serial_number" not in give or "archive" not in str(exc).lower():
                    raise
                # another document took the ASN since (the user gave it away): the rest still goes back
                del give["archive_serial_number"]
                run.say(f"warning: #{copy_id} does not get ASN {asn} back: another document holds it now")
                if give:
                    run.client.patch_document(copy_id, give)
        _reindex(run, copy)
    done("copy as it was")
    run.journal(entry["id"], state=final)


def _reindex(run: Run, copy: Mapping[str, Any]) -> None:
    """The copy back in the index, as the hook would put it."""
    from .core.features import compute

    feats = compute(int(copy["id"]), str(copy.get("content") or ""), run.settings.features,
                    title=str(copy.get("title") or ""))
    with run.index.write():
        run.index.put(feats, modified=copy.get("modified"), keys=run.settings.band_keys(feats))
