"""Resolving confirmed duplicates, journaled and undoable.

A resolution (on the user's word only: our confirmation tag on the copy, or
``paperless-dedupe resolve COPY``) is planned first (resolution.py: refusals, keeper,
what is carried over), written to the index's journal with both documents as they
were, and only then carried out step by step:

1. the ASN off the copy (an ASN is unique across documents and the trash: it can only move),
2. tags, correspondent, document type, storage path, custom fields and the ASN onto the keeper,
3. the copy's notes onto the keeper, as new notes "From #N: ...",
4. (``resolve_mode = "version"``) the copy's original file as a version of the keeper,
5. one note on the keeper saying what was resolved into it,
6. the copy into Paperless's trash.

Every step first looks at what Paperless holds now, so running it again does nothing
twice: an interrupted resolution (a crash, Paperless down, a 403 halfway) is finished
by the next ``resolve``, or rolled back when it cannot be finished, and ``undo`` takes
a resolution back the same way (undo.py).  No call here or in the client empties the
trash or deletes a document for good.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ._errors import IndexStoreError, PaperlessError, PaperlessNotFound, UsageError
from .resolution import (
    SINGLE_VALUES,
    Refused,
    Run,
    carried_words,
    check_permissions,
    get_or_none,
    our_new_notes,
    plan_for,
    planned_writes,
    summary_note,
    version_label,
)
from .undo import backward

if TYPE_CHECKING:
    from .config import Config
    from .engine import Settings
    from .paperless.client import PaperlessClient

VERSION_WAIT_SECONDS = 120.0
# Confirmed copies one hook run resolves (each takes a few requests and under a second).
HOOK_RESOLVES_PER_RUN = 2
# Index meta key: confirmed copies the hook was refused for.  It does not try them again
# (a refusal does not go away by itself, and retried ones would take every run's turn);
# ``paperless-dedupe resolve`` tries every confirmed copy and writes the key anew.
HOOK_SKIPS = "resolve_refused_copies"


# -- carrying out ------------------------------------------------------------------------

def keeper_changes(keeper: Mapping[str, Any], carry: Mapping[str, Any]) -> dict[str, Any]:
    """The PATCH that gives the keeper what it still lacks of ``carry``."""
    changes: dict[str, Any] = {}
    tags = list(keeper.get("tags") or [])
    missing = [t for t in carry["tags"] if t not in tags]
    if missing:
        changes["tags"] = tags + missing
    for key in SINGLE_VALUES:
        if carry.get(key) is not None and keeper.get(key) is None:
            changes[key] = carry[key]
    current = {i["field"]: i.get("value") for i in keeper.get("custom_fields") or []}
    merged = dict(current)
    for inst in carry["custom_fields"]:
        if current.get(inst["field"]) in (None, "", []):
            merged[inst["field"]] = inst["value"]
    if merged != current:
        changes["custom_fields"] = [{"field": f, "value": v} for f, v in merged.items()]
    if carry.get("asn") is not None and keeper.get("archive_serial_number") is None:
        changes["archive_serial_number"] = carry["asn"]
    return changes


def _add_notes(run: Run, keeper_id: int, texts: list[str], plan: Mapping[str, Any]) -> None:
    present = Counter(str(n.get("note", "")) for n in our_new_notes(run.client.get_notes(keeper_id), plan))
    for text in texts:
        if present[text] > 0:
            present[text] -= 1
            continue
        run.client.add_note(keeper_id, text)


def _store_version(run: Run, entry: dict[str, Any]) -> None:
    plan, keeper_id, copy_id = entry["plan"], entry["keeper"], entry["copy"]
    label = plan["version_label"]
    keeper = run.client.get_document(keeper_id, fields=("id", "versions"))
    found = [v for v in keeper.get("versions") or [] if v.get("version_label") == label]
    if found:
        plan["version_id"] = found[0]["id"]
        run.journal(entry["id"], plan=plan)
        return
    # An upload whose task id a crash kept out of the journal may still be running: find it by its label.
    task_id = plan.get("version_task") or run.client.version_task(label)
    if not task_id:
        data, filename, ctype = run.client.download_original(copy_id)
        task_id = run.client.upload_version(keeper_id, data, filename=filename, content_type=ctype, label=label)
        plan["version_task"] = task_id
        run.journal(entry["id"], plan=plan)
    from .paperless._resolve_api import task_document_id, task_failed

    give_up = time.monotonic() + VERSION_WAIT_SECONDS
    pause = 0.2
    while True:
        task = run.client.task(task_id)
        if task is not None:
            failed = task_failed(task)
            if failed:
                raise PaperlessError(f"Paperless did not store #{copy_id}'s file as a version of #{keeper_id}: "
                                     f"{failed[:200]}; see the task in Paperless's file tasks")
            version_id = task_document_id(task)
            if version_id is not None and str(task.get("status", "")).lower() == "success":
                plan["version_id"] = version_id
                run.journal(entry["id"], plan=plan)
                return
        if time.monotonic() > give_up:
            raise PaperlessError(f"Paperless took over {VERSION_WAIT_SECONDS:g} s to store #{copy_id}'s file as a "
                                 f"version of #{keeper_id}: run 'paperless-dedupe resolve' again to finish")
        time.sleep(pause)
        pause = min(2.0, pause * 2)


def _trash_copy(run: Run, copy_id: int) -> None:
    if get_or_none(run, copy_id) is None:
        if copy_id in run.client.trashed():
            return
        raise PaperlessNotFound(f"#{copy_id} is neither in Paperless nor in its trash: someone deleted it meanwhile")
    run.client.trash_document(copy_id)


def forward(run: Run, entry: dict[str, Any]) -> None:
    """Carry out (or finish) a journaled resolution; each step is skipped when done."""
    plan, copy_id, keeper_id = entry["plan"], entry["copy"], entry["keeper"]
    carry = plan["carry"]
    steps: list[str] = list(entry["steps"])

    def done(step: str) -> None:
        if step not in steps:
            steps.append(step)
            run.journal(entry["id"], steps=steps)

    if carry.get("asn") is not None:
        copy = get_or_none(run, copy_id)
        if copy is not None and copy.get("archive_serial_number") == carry["asn"]:
            run.client.patch_document(copy_id, {"archive_serial_number": None})
        done("asn off the copy")
    changes = keeper_changes(run.client.get_document(keeper_id), carry)
    if changes:
        run.client.patch_document(keeper_id, changes)
    done("metadata onto the keeper")
    _add_notes(run, keeper_id, carry["notes"], plan)
    done("notes onto the keeper")
    if plan["mode"] == "version":
        _store_version(run, entry)
        done("version onto the keeper")
    _add_notes(run, keeper_id, [plan["summary"]], plan)
    done("note on the keeper")
    _trash_copy(run, copy_id)
    done("copy into the trash")
    with run.index.write():
        run.index.remove(copy_id)  # no new document is matched with a copy in the trash
        run.index.journal_update(entry["id"], run.now(), state="resolved", error="")


def start(run: Run, copy_id: int, keep_id: int | None) -> dict[str, Any] | None:
    """Plan, journal and carry out one resolution; None for a dry run."""
    plan = plan_for(run, copy_id, keep_id)
    keeper_id = plan["keeper"]["id"]
    if run.dry_run:
        plan["summary"] = summary_note(0, plan["copy"], plan["carry"], plan["mode"], None)
        run.say(f"dry run: would resolve #{copy_id} into #{keeper_id} ({plan['keep_line']}):")
        for line in planned_writes(plan):
            run.say(f"dry run:   {line}")
        return None
    with run.index.write():
        entry_id = run.index.journal_add(copy_id, keeper_id, plan["mode"], plan, run.now())
        plan["summary"] = _summary(entry_id, plan)
        plan["version_label"] = version_label(entry_id, copy_id)
        run.index.journal_update(entry_id, run.now(), plan=plan)
    entry = run.index.journal_entry(entry_id)
    if entry is None:
        raise IndexStoreError(f"index {run.index.path}: the journal lost resolution {entry_id}: check the disk")
    finish_or_roll_back(run, entry)
    return run.index.journal_entry(entry_id)


def _summary(entry_id: int, plan: Mapping[str, Any]) -> str:
    from .core.keep import KeepChoice

    choice = KeepChoice(keep=plan["keeper"]["id"], reasons=tuple(plan["keep_reasons"]), described="")
    return summary_note(entry_id, plan["copy"], plan["carry"], plan["mode"], choice)


def finish_or_roll_back(run: Run, entry: dict[str, Any]) -> None:
    """Finish a resolution; when Paperless refuses a step, take back what was done.
    Paperless unreachable: the entry stays open for the next run (said in the error)."""
    from ._errors import PaperlessAuthError, PaperlessConnectionError

    try:
        forward(run, entry)
    except PaperlessConnectionError as exc:
        run.journal(entry["id"], error=str(exc))
        raise PaperlessError(f"resolution {entry['id']} (#{entry['copy']} into #{entry['keeper']}) is unfinished: "
                             f"{exc}; the next 'paperless-dedupe resolve' or 'undo' finishes or rolls it back") from None
    except (PaperlessAuthError, PaperlessError) as exc:
        run.journal(entry["id"], error=str(exc))
        fresh = run.index.journal_entry(entry["id"]) or entry
        backward(run, fresh, final="rolled back")
        raise Refused(f"resolution {entry['id']} of #{entry['copy']} was rolled back, nothing is left changed: "
                      f"{exc}") from None
    plan = entry["plan"]
    run.say(f"resolved #{entry['copy']} into #{entry['keeper']} (resolution {entry['id']}): carried over "
            f"{carried_words(plan['carry'])}; #{entry['copy']} is in Paperless's trash "
            f"(undo: paperless-dedupe undo {entry['id']})")


def recover(run: Run, *, roll_back: bool = False) -> int:
    """Take up what interrupted runs left open: finish a resolution (or, ``roll_back``,
    take it back), finish an undo.  Returns how many were taken up."""
    count = 0
    for entry in reversed(run.index.journal_entries(open_only=True)):  # oldest first
        count += 1
        run.say(f"taking up resolution {entry['id']} (#{entry['copy']} into #{entry['keeper']}), "
                f"interrupted while {entry['state']}")
        if entry["state"] == "undoing":
            backward(run, entry, final=entry["plan"].get("undo_final") or "undone")
        elif roll_back:
            backward(run, entry, final="rolled back")
        else:
            finish_or_roll_back(run, entry)
    return count


def confirmed_copies(run: Run) -> list[int]:
    """Documents carrying the confirmation tag that no finished resolution took yet."""
    ids = run.client.tagged(sorted(run.ours.confirm_tags))
    out = []
    for doc_id in ids:
        entries = run.index.journal_entries(copy_id=doc_id)
        if entries and entries[0]["state"] in ("resolved", "resolving", "undoing"):
            continue
        out.append(doc_id)
    return out


def resolve(run: Run, copy_id: int | None = None, keep_id: int | None = None, *, limit: int | None = None,
            skip: frozenset[int] = frozenset()) -> int:
    """``resolve [COPY [--keep KEEPER]]``: the named copy, else every confirmed one but
    ``skip`` (at most ``limit``).  Returns how many were resolved; refusals are in
    ``run.refused`` (and their copies in ``run.refused_ids``)."""
    if keep_id is not None and copy_id is None:
        raise UsageError("--keep needs the copy: paperless-dedupe resolve COPY --keep KEEPER")
    if not run.dry_run:
        recover(run)
    check_permissions(run.client)
    if copy_id is not None:
        entries = run.index.journal_entries(copy_id=copy_id)
        if entries and entries[0]["state"] == "resolved":
            run.say(f"#{copy_id} is resolved already (resolution {entries[0]['id']} into #{entries[0]['keeper']}): "
                    "nothing to do")
            return 0
        todo = [copy_id]
    else:
        if not run.ours.confirm_tags:
            run.say(f"no document carries the tag {run.cfg['actions.confirm_tag']!r}: nothing to resolve")
            return 0
        todo = [c for c in confirmed_copies(run) if c not in skip]
        if limit is not None:
            todo = todo[:limit]
    resolved = 0
    for doc_id in todo:
        if run.deadline is not None and run.deadline - time.monotonic() < 10.0:
            break
        try:
            if start(run, doc_id, keep_id) is not None:
                resolved += 1
        except Refused as exc:
            run.refused.append(f"#{doc_id} not resolved: {exc}")
            run.refused_ids.append(doc_id)
            run.say(f"refused: #{doc_id} not resolved: {exc}")
    if copy_id is None and limit is None and not run.dry_run:  # the full run says what the hook may skip
        with run.index.write():
            run.index.set_meta({HOOK_SKIPS: json.dumps(sorted(run.refused_ids))})
    return resolved


def undo(run: Run, entry_id: int | None, *, last: bool = False) -> dict[str, Any]:
    """``undo ID`` / ``undo --last``: the entry as it ends."""
    if (entry_id is None) == (not last):
        raise UsageError("undo needs a resolution id or --last ('paperless-dedupe resolutions' lists them)")
    if last:
        entries = [e for e in run.index.journal_entries() if e["state"] in ("resolved", "resolving", "undoing")]
        if not entries:
            raise UsageError("no resolution to undo ('paperless-dedupe resolutions' lists them)")
        entry_id = int(entries[0]["id"])
    entry_id = int(entry_id or 0)
    entry = run.index.journal_entry(entry_id)
    if entry is None:
        raise UsageError(f"there is no resolution {entry_id} ('paperless-dedupe resolutions' lists them)")
    if entry["state"] in ("undone", "rolled back"):
        run.say(f"resolution {entry_id} is {entry['state']} already: nothing to do")
        return entry
    check_permissions(run.client)
    if run.dry_run:
        run.say(f"dry run: would restore #{entry['copy']} from the trash and take back from #{entry['keeper']} "
                f"what resolution {entry_id} carried over, its notes and its version")
        return entry
    recover(run, roll_back=True)  # an interrupted one (this one too) is rolled back
    entry = run.index.journal_entry(entry_id) or entry
    if entry["state"] == "resolved":
        try:
            backward(run, entry, final="undone")
        except PaperlessNotFound as exc:
            run.journal(entry_id, error=str(exc))
            raise
    entry = run.index.journal_entry(entry_id) or entry
    run.say(f"resolution {entry_id} {entry['state']}: #{entry['copy']} restored, #{entry['keeper']} as it was "
            "(what you changed since is kept)")
    return entry


def resolve_in_hook(cfg: Config, settings: Settings, client: PaperlessClient, *, deadline: float | None,
                    confirmed: Sequence[int], limit: int = HOOK_RESOLVES_PER_RUN) -> list[str]:
    """What the hook says after resolving at most ``limit`` confirmed copies (none while
    another resolve or undo runs: the next hook takes them)."""
    from .indexfile import now_iso, open_configured
    from .resolution import ours_in

    lines: list[str] = []
    with open_configured(cfg, settings) as index, index.resolve_lock(wait_seconds=0.0) as free:
        if not free:
            return lines
        try:
            skip = frozenset(int(i) for i in json.loads(index.meta().get(HOOK_SKIPS) or "[]"))
        except (ValueError, TypeError):
            skip = frozenset()
        if set(confirmed) <= skip:  # only copies it was refused for: nothing to ask Paperless
            return lines
        run = Run(cfg=cfg, settings=settings, client=client, index=index, say=lines.append, now=now_iso,
                  deadline=deadline, ours=ours_in(client, cfg))
        resolve(run, limit=limit, skip=skip)
        if run.refused_ids:
            with index.write():
                index.set_meta({HOOK_SKIPS: json.dumps(sorted(skip | set(run.refused_ids)))})
            lines.append("the hook will not try these again: 'paperless-dedupe resolve' shows why and tries again")
    return lines
