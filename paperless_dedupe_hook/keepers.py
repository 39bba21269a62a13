"""The suggested keeper of each duplicate group (``keep`` and ``keep_reasons`` in
``--report``, the HTML report and the note on a copy), decided by core.keep from what
Paperless holds: mime type and PDF producer, pages, text, ASN, tags, correspondent,
custom fields, notes, when it was added.  Without Paperless (an offline rebuild, no
token) only the indexed word counts and the ids are known: the complete copy, then the
older (lower id) one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ._errors import DedupeError, PaperlessNotFound
from .core.keep import KeepChoice, Member, choose
from .resolution import Ours, member, needs_metadata, ours_in

if TYPE_CHECKING:
    from .config import Config
    from .paperless.client import PaperlessClient

KEEP_FIELDS = ("id", "title", "content", "added", "mime_type", "page_count", "archive_serial_number", "tags",
               "correspondent", "document_type", "custom_fields", "notes")


def documents_for_keep(client: PaperlessClient, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """What the choice looks at, for each of ``ids`` the token can see (``metadata``: a PDF's)."""
    docs = {int(d["id"]): dict(d) for d in client.iter_documents(fields=KEEP_FIELDS, ids=list(ids))}
    for doc in docs.values():
        if needs_metadata(doc):
            try:
                doc["metadata"] = client.metadata(int(doc["id"]))
            except PaperlessNotFound:
                doc["metadata"] = None
    return docs


def choices(groups: Sequence[Mapping[str, Any]], docs: Mapping[int, Mapping[str, Any]], ours: Ours,
            words: Mapping[int, int]) -> dict[int, KeepChoice]:
    """The choice of each group, by its primary."""
    out: dict[int, KeepChoice] = {}
    for group in groups:
        members = []
        for doc_id in sorted(int(m) for m in group["members"]):
            doc = docs.get(doc_id)
            members.append(member(doc, doc.get("metadata"), ours) if doc is not None
                           else Member(doc_id=doc_id, words=words.get(doc_id, 0)))
        out[int(group["primary"])] = choose(members)
    return out


def add_keep(groups: list[dict[str, Any]], cfg: Config | None, words: Mapping[int, int],
             client: PaperlessClient | None = None) -> tuple[dict[int, KeepChoice], str]:
    """Give each group ``keep`` and ``keep_reasons``; (the choices, a notice when Paperless
    could not be asked and only word counts and ids decided)."""
    docs: dict[int, dict[str, Any]] = {}
    ours = Ours(frozenset(), frozenset(), frozenset())
    notice = ""
    ids = sorted({int(m) for g in groups for m in g["members"]})
    if ids and cfg is not None and (client is not None or cfg.token):
        try:
            if client is None:
                from .config import require_token
                from .paperless.client import PaperlessClient

                with PaperlessClient(url=cfg["paperless.url"], token=require_token(cfg),
                                     timeout_seconds=cfg["paperless.timeout_seconds"],
                                     verify_tls=cfg["paperless.verify_tls"]) as own:
                    docs, ours = documents_for_keep(own, ids), ours_in(own, cfg)
            else:
                docs, ours = documents_for_keep(client, ids), ours_in(client, cfg)
        except DedupeError as exc:
            notice = f"the suggested keepers are decided by length and age only: Paperless could not be asked ({exc})"
    decided = choices(groups, docs, ours, words)
    for group in groups:
        choice = decided[int(group["primary"])]
        group["keep"], group["keep_reasons"] = choice.keep, list(choice.reasons)
    return decided, notice


def keep_line(client: PaperlessClient, cfg: Config, doc_id: int, others: Sequence[int]) -> str | None:
    """The note's suggestion for ``doc_id`` among ``others``: "keep #12 (born-digital,
    4 pages, ASN 123); this one is a scan of it", or "keep this one (...)"."""
    ids = [doc_id, *others]
    docs = documents_for_keep(client, ids)
    if doc_id not in docs:
        return None
    ours = ours_in(client, cfg)
    members = [member(docs[i], docs[i].get("metadata"), ours) for i in ids if i in docs]
    return choose(members).note_line(doc_id) if len(members) > 1 else None
