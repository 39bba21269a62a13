"""What a resolution will do, decided before anything is written: the keeper, the
refusals, and the plan (both documents as they are, and what the copy carries over).

``resolve`` (resolve.py) journals the plan, then carries it out; ``undo`` takes it back
from the same plan.  Nothing here writes to Paperless.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ._errors import DedupeError, PaperlessNotFound
from .core.keep import KeepChoice, Member, born_digital, choose, text_slips
from .paperless.annotate import NOTE_HEADER

if TYPE_CHECKING:
    from .config import Config
    from .engine import Settings
    from .indexfile import Index
    from .paperless.client import PaperlessClient

# The fields of a document a plan records and compares (the rest it leaves alone).
STATE_FIELDS = ("id", "title", "content", "tags", "correspondent", "document_type", "storage_path",
                "custom_fields", "archive_serial_number", "notes", "added", "modified", "mime_type",
                "page_count", "user_can_change", "versions")
SINGLE_VALUES = ("correspondent", "document_type", "storage_path")
RESOLVED_HEADER = "Resolved duplicate (paperless-dedupe-hook):"
COPIED_NOTE = "From #{copy}: {note}"


class Refused(DedupeError):
    """A resolution refused (one line, nothing changed): the user's word cannot be done
    safely as it stands.  Exit 2, as for a request that cannot be done."""

    exit_code = 2


class Reader(Protocol):
    def get_document(self, document_id: int, *, fields: Any = ...) -> dict[str, Any]: ...
    def metadata(self, document_id: int) -> dict[str, Any]: ...
    def trashed(self) -> dict[int, dict[str, Any]]: ...


@dataclass(frozen=True)
class Ours:
    """What belongs to paperless-dedupe in Paperless: never carried over, never counted
    as the user's metadata."""

    tags: frozenset[int]
    link_fields: frozenset[int]
    confirm_tags: frozenset[int]


def state_of(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The fields a plan keeps of a document (notes as id and text)."""
    out = {k: doc.get(k) for k in STATE_FIELDS if k != "content"}
    out["notes"] = [{"id": n.get("id"), "note": n.get("note", "")} for n in doc.get("notes") or []
                    if isinstance(n, Mapping)]
    out["custom_fields"] = [{"field": i.get("field"), "value": i.get("value")} for i in doc.get("custom_fields") or []
                            if isinstance(i, Mapping)]
    out["tags"] = [t for t in doc.get("tags") or [] if isinstance(t, int)]
    return out


def is_our_note(text: str) -> bool:
    return text.startswith((NOTE_HEADER, RESOLVED_HEADER))


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == []


def member(doc: Mapping[str, Any], metadata: Mapping[str, Any] | None, ours: Ours) -> Member:
    """What the keep choice looks at for one document."""
    content = str(doc.get("content") or "")
    return Member(
        doc_id=int(doc["id"]), added=str(doc.get("added") or doc.get("created") or ""),
        born_digital=born_digital(str(doc.get("mime_type") or ""), metadata),
        pages=doc.get("page_count") if isinstance(doc.get("page_count"), int) else None,
        words=len(content.split()), slips=text_slips(content),
        asn=doc.get("archive_serial_number") if isinstance(doc.get("archive_serial_number"), int) else None,
        tags=sum(1 for t in doc.get("tags") or [] if t not in ours.tags | ours.confirm_tags),
        correspondent=doc.get("correspondent") is not None, document_type=doc.get("document_type") is not None,
        custom_fields=sum(1 for i in doc.get("custom_fields") or []
                          if i.get("field") not in ours.link_fields and not _empty(i.get("value"))),
        notes=sum(1 for n in doc.get("notes") or [] if not is_our_note(str(n.get("note", "")))),
    )


def needs_metadata(doc: Mapping[str, Any]) -> bool:
    """Only a PDF's producer tells born-digital from a scan (core.keep.born_digital)."""
    return str(doc.get("mime_type") or "") == "application/pdf"


def keep_choice(docs: Sequence[Mapping[str, Any]], reader: Reader, ours: Ours) -> KeepChoice:
    members = []
    for doc in docs:
        meta = None
        if needs_metadata(doc):
            try:
                meta = reader.metadata(int(doc["id"]))
            except PaperlessNotFound:
                meta = None
        members.append(member(doc, meta, ours))
    return choose(members)


def carry_over(copy: Mapping[str, Any], keeper: Mapping[str, Any], ours: Ours) -> dict[str, Any]:
    """What the copy holds and the keeper lacks: tags (not ours), correspondent, document
    type, storage path, custom fields (not our link field; a value the keeper lacks or
    has empty), notes (copied as "From #N: ..."), the ASN."""
    not_ours = ours.tags | ours.confirm_tags
    keeper_fields = {i["field"]: i.get("value") for i in keeper.get("custom_fields") or []}
    carry: dict[str, Any] = {
        "tags": [t for t in copy.get("tags") or [] if t not in not_ours and t not in (keeper.get("tags") or [])],
        "custom_fields": [
            {"field": i["field"], "value": i.get("value"), "keeper_had": i["field"] in keeper_fields}
            for i in copy.get("custom_fields") or []
            if i["field"] not in ours.link_fields and not _empty(i.get("value"))
            and _empty(keeper_fields.get(i["field"]))
        ],
        "notes": [COPIED_NOTE.format(copy=copy["id"], note=n["note"]) for n in copy.get("notes") or []
                  if not is_our_note(str(n.get("note", "")))],
        "asn": None,
    }
    for key in SINGLE_VALUES:
        carry[key] = copy.get(key) if keeper.get(key) is None and copy.get(key) is not None else None
    if keeper.get("archive_serial_number") is None and copy.get("archive_serial_number") is not None:
        carry["asn"] = copy["archive_serial_number"]
    return carry


def carried_words(carry: Mapping[str, Any]) -> str:
    """"2 tags, the correspondent, 1 custom field, 2 notes, ASN 1001" (or "nothing")."""
    parts = []
    for key, one in (("tags", "tag"), ("custom_fields", "custom field"), ("notes", "note")):
        n = len(carry.get(key) or [])
        if n:
            parts.append(f"{n} {one}" + ("s" if n != 1 else ""))
    for key in SINGLE_VALUES:
        if carry.get(key) is not None:
            parts.append("the " + key.replace("_", " "))
    if carry.get("asn") is not None:
        parts.append(f"ASN {carry['asn']}")
    return ", ".join(parts) or "nothing"


def summary_note(entry_id: int, copy: Mapping[str, Any], carry: Mapping[str, Any], mode: str,
                 choice: KeepChoice | None) -> str:
    why = f" ({', '.join(choice.reasons)})" if choice is not None and choice.reasons else ""
    version = " Its original file is stored as a version of this one." if mode == "version" else ""
    return (f"{RESOLVED_HEADER}\n#{copy['id']} “{copy.get('title') or ''}” was resolved into this document{why}: "
            f"carried over {carried_words(carry)}.{version} #{copy['id']} is in Paperless's trash. "
            f"To take it back: paperless-dedupe undo {entry_id}")


def version_label(entry_id: int, copy_id: int) -> str:
    return f"#{copy_id} (paperless-dedupe resolution {entry_id})"


def planned_writes(plan: Mapping[str, Any]) -> list[str]:
    """Every write a resolution makes, in words (``--dry-run``)."""
    carry, copy_id, keeper_id = plan["carry"], plan["copy"]["id"], plan["keeper"]["id"]
    lines = []
    if carry.get("asn") is not None:
        lines.append(f"PATCH #{copy_id}: archive_serial_number {carry['asn']} -> null (an ASN can only move)")
    changes = [f"tags +{carry['tags']}"] if carry["tags"] else []
    changes += [f"{k} {carry[k]}" for k in SINGLE_VALUES if carry.get(k) is not None]
    changes += [f"custom field {i['field']} = {i['value']!r}" for i in carry["custom_fields"]]
    if carry.get("asn") is not None:
        changes.append(f"archive_serial_number {carry['asn']}")
    if changes:
        lines.append(f"PATCH #{keeper_id}: " + ", ".join(changes))
    lines += [f"POST note on #{keeper_id}: {n[:80]!r}" for n in carry["notes"]]
    if plan["mode"] == "version":
        lines.append(f"GET #{copy_id}'s original file, POST it as a version of #{keeper_id}")
    lines.append(f"POST note on #{keeper_id}: what was resolved into it")
    lines.append(f"DELETE #{copy_id}: into Paperless's trash (restorable; the trash is never emptied)")
    return lines


@dataclass
class Run:
    """One run of resolve or undo: where it writes and what it says."""

    cfg: Config
    settings: Settings
    client: PaperlessClient
    index: Index
    say: Callable[[str], None]
    now: Callable[[], str]
    dry_run: bool = False
    deadline: float | None = None
    ours: Ours = field(default_factory=lambda: Ours(frozenset(), frozenset(), frozenset()))
    refused: list[str] = field(default_factory=list)
    refused_ids: list[int] = field(default_factory=list)

    def journal(self, entry_id: int, **changes: Any) -> None:
        with self.index.write():
            self.index.journal_update(entry_id, self.now(), **changes)


def ours_in(client: PaperlessClient, cfg: Config) -> Ours:
    def tag_ids(name: str) -> frozenset[int]:
        return frozenset(int(t["id"]) for t in client.find_tags(name)) if name else frozenset()

    link = cfg["actions.link_field"]
    fields = frozenset(int(f["id"]) for f in client.find_custom_fields(link)) if link else frozenset()
    return Ours(tags=tag_ids(cfg["actions.tag"]), link_fields=fields, confirm_tags=tag_ids(cfg["actions.confirm_tag"]))


def check_permissions(client: PaperlessClient) -> None:
    """change_document and delete_document, named when missing (``/api/ui_settings/``)."""
    data = client.ui_settings()
    user = data.get("user")
    if isinstance(user, dict) and user.get("is_superuser"):
        return
    have = set(data.get("permissions") or [])
    missing = [p for p in ("change_document", "delete_document") if p not in have]
    if missing:
        raise Refused(f"the token's user lacks the Paperless permission {' and '.join(missing)}: "
                      "give it in Paperless (Users & Groups) or use a superuser's token; nothing was changed")


def get_or_none(run: Run, doc_id: int) -> dict[str, Any] | None:
    try:
        return run.client.get_document(doc_id)
    except PaperlessNotFound:
        return None


def our_new_notes(notes: list[dict[str, Any]], plan: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The keeper's notes this resolution wrote (new since the plan, with one of its texts)."""
    before = {n["id"] for n in plan["keeper"]["notes"]}
    wanted = Counter([*plan["carry"]["notes"], plan["summary"]])
    found = []
    for note in sorted(notes, key=lambda n: n.get("id") or 0):
        text = str(note.get("note", ""))
        if note.get("id") not in before and wanted[text] > 0:
            wanted[text] -= 1
            found.append(note)
    return found


# -- planning ----------------------------------------------------------------------------

def _document(run: Run, doc_id: int, role: str) -> dict[str, Any]:
    try:
        return run.client.get_document(doc_id)
    except PaperlessNotFound:
        if doc_id in run.client.trashed():
            raise Refused(f"{role} #{doc_id} is in Paperless's trash: restore it there first, "
                          "or name another keeper with --keep") from None
        raise Refused(f"Paperless has no document #{doc_id} (or the token's user cannot see it)") from None


def _check_text(run: Run, doc: Mapping[str, Any]) -> Any:
    from .core.features import compute

    feats = compute(int(doc["id"]), str(doc.get("content") or ""), run.settings.features,
                    title=str(doc.get("title") or ""))
    stored = run.index.fingerprint(int(doc["id"]))
    if stored is None:
        raise Refused(f"#{doc['id']} is not in the index: run 'paperless-dedupe rebuild-index' first")
    if stored != feats.fingerprint:
        raise Refused(f"the text of #{doc['id']} changed since the pair was found: run 'paperless-dedupe check "
                      f"{doc['id']}' (or rebuild-index) and confirm again")
    return feats


def _verdict(run: Run, feats_a: Any, feats_b: Any) -> str:
    from .core.scoring import score, token_weigher

    weight = token_weigher(run.index.document_frequency(set(feats_a.tokens) | set(feats_b.tokens)))
    return score(feats_a, feats_b, run.settings.scoring, weight=weight).verdict


def plan_for(run: Run, copy_id: int, keep_id: int | None) -> dict[str, Any]:
    """The plan of one resolution, or Refused (one line, nothing written)."""
    mode = run.cfg["actions.resolve_mode"]
    copy = _document(run, copy_id, "the copy")
    partners = run.index.pair_partners(copy_id)
    dismissed = run.index.dismissed_pairs()
    if keep_id is not None:
        if keep_id == copy_id:
            raise Refused(f"#{copy_id} cannot be kept and resolved at once: name another document with --keep")
        if keep_id not in partners:
            raise Refused(f"#{copy_id} and #{keep_id} were never found as duplicates: resolve only pairs "
                          f"paperless-dedupe found ('paperless-dedupe check {copy_id}' lists them)")
        candidates = [keep_id]
    else:
        candidates = sorted(p for p in partners if (min(p, copy_id), max(p, copy_id)) not in dismissed)
        trashed = run.client.trashed() if candidates else {}
        candidates = [c for c in candidates if c not in trashed]
        if not candidates:
            raise Refused(f"#{copy_id} has no duplicate left to keep (none found, all dismissed or in the trash)")
    pair = (min(candidates[0], copy_id), max(candidates[0], copy_id)) if keep_id is not None else None
    if pair is not None and pair in dismissed:
        raise Refused(f"#{pair[0]} and #{pair[1]} were dismissed as not duplicates: undismissing is not possible; "
                      "resolve by hand in Paperless")
    if keep_id is not None:
        others = [_document(run, keep_id, "the keeper")]
    else:  # a partner deleted or hidden meanwhile is no keeper
        others = [d for d in (get_or_none(run, c) for c in candidates) if d is not None]
        if not others:
            raise Refused(f"#{copy_id} has no duplicate left to keep (its duplicates are gone from Paperless)")
    choice = keep_choice(others, run.client, run.ours) if len(others) > 1 else None
    keeper = next(d for d in others if choice is None or d["id"] == choice.keep)
    if keeper.get("user_can_change") is False or copy.get("user_can_change") is False:
        who = keeper if keeper.get("user_can_change") is False else copy
        raise Refused(f"the token's user may not change #{who['id']}: give it the change permission on that document")
    feats_copy, feats_keeper = _check_text(run, copy), _check_text(run, keeper)
    verdict = _verdict(run, feats_copy, feats_keeper)
    pair_choice = keep_choice([keeper, copy], run.client, run.ours)
    if verdict == "revision" and mode != "version":
        raise Refused(f"#{copy_id} is a revision of #{keeper['id']} (a newer version, not a copy): set "
                      "actions.resolve_mode = \"version\" to store it as a version, or dismiss the pair")
    if mode == "version":
        major = (run.client.server_version or "").split(".")[0]
        if major.isdigit() and int(major) < 3:
            raise Refused(f"actions.resolve_mode = \"version\" needs Paperless 3.x (this is {run.client.server_version}): "
                          "use \"trash\"")
        file_reasons = {"born-digital", "complete", "better text"}
        if verdict != "revision" and pair_choice.keep == keeper["id"] and file_reasons & set(pair_choice.reasons):
            raise Refused(f"#{copy_id}'s file is worse than #{keeper['id']}'s ({pair_choice.why_not.get(copy_id)}): "
                          "as a version it would become the keeper's latest file; resolve this pair with "
                          "actions.resolve_mode = \"trash\"")
    if pair_choice.keep == keeper["id"]:
        reasons, keep_line = list(pair_choice.reasons), pair_choice.note_line(copy_id)
    else:  # the user confirmed the document we would have kept: their word wins
        reasons = ["your choice"]
        keep_line = (f"keep #{keeper['id']}, your choice (the suggestion was #{copy_id}: "
                     f"{', '.join(pair_choice.reasons)})")
    copy_state, keeper_state = state_of(copy), state_of(keeper)
    return {
        "mode": mode, "copy": copy_state, "keeper": keeper_state, "carry": carry_over(copy_state, keeper_state, run.ours),
        "keep_reasons": reasons, "keep_line": keep_line,
        "verdict": verdict, "summary": "", "version_label": "", "version_task": None, "version_id": None,
        "confirm_tags": sorted(run.ours.confirm_tags),
    }
