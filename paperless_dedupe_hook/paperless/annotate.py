"""Writing matches into Paperless: our tag, one note, the documentlink field.

Only additive calls: ``bulk_edit`` ``add_tag`` and ``modify_custom_fields`` with the
merged link list (never a PATCH, which replaces whole lists), and a note POST.
Every step checks first what is already there, so a second run writes nothing.
The newer document of a pair (higher id) is the one annotated; the primary, the
oldest, is left alone.  The index records each written pair after the tag is set:
a recorded pair whose document has lost our tag was dismissed by the user.
The note says in words how the two differ (core.explain), from both texts when
they can be had, else from the scores.  The first annotation of a run also makes
sure our saved view exists (paperless.saved_view).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .._errors import PaperlessError, PaperlessPermissionError
from ..core.scoring import PairScore

NOTE_HEADER = "Possible duplicate (paperless-dedupe-hook):"
# The ids a note names: "- #N" at the start of a line (a title or a quoted passage may
# hold "#4711" too).
_NOTE_REF = re.compile(r"^- #(\d+)\b", re.MULTILINE)


class Client(Protocol):
    def find_tags(self, name: str) -> list[dict[str, Any]]: ...
    def create_tag(self, name: str, *, color: str = ...) -> dict[str, Any]: ...
    def find_custom_fields(self, name: str) -> list[dict[str, Any]]: ...
    def create_custom_field(self, name: str, data_type: str = ...) -> dict[str, Any]: ...
    def get_document(self, document_id: int, *, fields: Any = ...) -> dict[str, Any]: ...
    def get_notes(self, document_id: int) -> list[dict[str, Any]]: ...
    def add_note(self, document_id: int, text: str) -> list[dict[str, Any]]: ...
    def bulk_edit(self, documents: Any, method: str, parameters: Mapping[str, Any]) -> None: ...
    def document_texts(self, ids: Any) -> dict[int, str]: ...
    def find_saved_views(self, name: str) -> list[dict[str, Any]]: ...
    def create_saved_view(self, name: str, *, tag_id: int, sort_field: str = ..., sort_reverse: bool = ...,
                          show: bool = ...) -> dict[str, Any]: ...
    def ui_settings(self) -> dict[str, Any]: ...
    def update_ui_settings(self, settings: Mapping[str, Any]) -> None: ...


class Ledger(Protocol):
    def annotated(self, doc_id: int) -> set[int]: ...
    def record_annotation(self, doc_id: int, match_ids: Iterable[int], at: str) -> None: ...
    def dismiss(self, a: int, b: int, reason: str, at: str) -> None: ...


@dataclass
class Outcome:
    annotated: dict[int, list[int]] = field(default_factory=dict)  # doc -> matches newly written
    dismissed: list[tuple[int, int]] = field(default_factory=list)
    planned: list[str] = field(default_factory=list)  # dry run: what would be written
    warnings: list[str] = field(default_factory=list)  # what could not be done (the annotation went on)


def note_text(matches: Iterable[tuple[PairScore, int, str]], sentences: Mapping[int, str] | None = None,
              keep: str | None = None) -> str:
    """``matches``: (pair, the other document's id, its title); ``sentences``: the
    verdict in words by the other document's id (else worded from the scores); ``keep``:
    which copy to keep, in words ("keep #12 (born-digital); this one is a scan of it")."""
    from ..core.explain import verdict_sentence  # only when a note is written (the hook's usual run has none)

    lines = [NOTE_HEADER]
    for pair, other, title in matches:
        said = (sentences or {}).get(other) or verdict_sentence(pair)
        said = said.replace("#", "No. ")  # only "- #N" names a match (see noted_ids)
        if pair.verdict == "picture":  # no text scores: only the pictures were compared
            lines.append(f"- #{other} “{title}”: {said}. Picture score {pair.score:.2f}")
            continue
        lines.append(
            f"- #{other} “{title}”: {said}. Score {pair.score:.2f} (jaccard {pair.jaccard:.2f}, "
            f"fuzzy {pair.fuzzy:.2f}, discriminative {pair.discriminative:.2f})"
        )
    if keep:
        lines.append(f"Suggested: {keep}.")
    return "\n".join(lines)


def verdicts(texts_of: Callable[[list[int]], Mapping[int, str]], doc_id: int,
             matches: Iterable[tuple[PairScore, int, str]]) -> dict[int, str]:
    """The verdict in words for each match, from both current texts (``texts_of``:
    e.g. one request to Paperless); {} when they cannot be had (the note then words
    the scores alone)."""
    from ..core.explain import verdict_sentence
    from ..core.textdiff import diff_texts

    matches = list(matches)
    try:
        texts = texts_of([doc_id, *(m[1] for m in matches)])
    except PaperlessError:
        return {}
    out = {}
    for pair, other, _title in matches:
        if pair.verdict == "picture":  # found by picture: the texts have nothing to say
            continue
        if doc_id in texts and other in texts:
            older, newer = (texts[other], texts[doc_id]) if other < doc_id else (texts[doc_id], texts[other])
            out[other] = verdict_sentence(pair, diff_texts(older, newer))
    return out


def noted_ids(notes: Iterable[Mapping[str, Any]]) -> set[int]:
    """Ids our own notes already name."""
    out: set[int] = set()
    for note in notes:
        body = str(note.get("note") or "")
        if body.startswith(NOTE_HEADER):
            out.update(int(x) for x in _NOTE_REF.findall(body))
    return out


class Annotator:
    def __init__(
        self,
        client: Client,
        ledger: Ledger,
        *,
        tag: str,
        note: bool,
        link_field: str,
        dry_run: bool,
        now: Callable[[], str],
        saved_view: str = "",
        pin_view: bool = False,
        texts: Callable[[list[int]], Mapping[int, str]] | None = None,
        keep_line: Callable[[int, list[int]], str | None] | None = None,
    ) -> None:
        self.client, self.ledger = client, ledger
        self.tag_name, self.note, self.link_name, self.dry_run = tag, note, link_field, dry_run
        self.now = now
        self.view_name, self.pin_view = saved_view, pin_view
        self.texts = texts or client.document_texts  # documents' current texts, for the note's verdict
        self.keep_line = keep_line  # (document, its matches) -> which copy to keep, in words
        self._tag_id: int | None = None
        self._field_id: int | None = None
        self._resolved = False
        self._writes = 0  # writes made (or, in a dry run, planned) so far
        self._view_checked = False

    def _resolve(self) -> None:
        """Find our tag and field, creating them when missing (not in a dry run)."""
        if self._resolved:
            return
        if self.tag_name:
            tags = self.client.find_tags(self.tag_name)
            exact = [t for t in tags if t.get("name") == self.tag_name] or tags
            if exact:
                self._tag_id = int(min(exact, key=lambda t: int(t["id"]))["id"])
            elif not self.dry_run:
                self._tag_id = self._create(
                    lambda: self.client.create_tag(self.tag_name),
                    lambda: [t for t in self.client.find_tags(self.tag_name) if t.get("name") == self.tag_name])
        if self.link_name:
            fields = [f for f in self.client.find_custom_fields(self.link_name) if f.get("data_type") == "documentlink"]
            if fields:
                self._field_id = int(min(fields, key=lambda f: int(f["id"]))["id"])
            elif not self.dry_run:
                self._field_id = self._create(
                    lambda: self.client.create_custom_field(self.link_name, "documentlink"),
                    lambda: [f for f in self.client.find_custom_fields(self.link_name)
                             if f.get("data_type") == "documentlink"])
        self._resolved = True

    def _ensure_view(self, outcome: Outcome) -> None:
        """Our saved view, created when no view of its name exists (once per run).  A
        failure (e.g. no add_savedview permission) is a warning: the marks matter more."""
        if self._view_checked or not self.view_name or not self.tag_name:
            return
        from . import saved_view

        self._view_checked = True
        try:
            if self.dry_run or self._tag_id is None:
                if saved_view.find(self.client, self.view_name) is None:
                    outcome.planned.append(f"create saved view {self.view_name!r} (documents tagged "
                                           f"{self.tag_name!r}, newest first)")
                return
            view, created = saved_view.ensure(self.client, self.view_name, self._tag_id, show=self.pin_view)
        except PaperlessError as exc:
            outcome.warnings.append(f"saved view {self.view_name!r} not created: {exc} (set actions.saved_view = "
                                    "\"\" to stop trying)")
            return
        if created and self.pin_view:
            try:
                saved_view.pin(self.client, int(view["id"]))
            except PaperlessError as exc:
                outcome.warnings.append(f"saved view {self.view_name!r} created but not pinned to the dashboard "
                                        f"and sidebar: {exc} (try 'paperless-dedupe doctor --pin-view')")

    @staticmethod
    def _create(create: Callable[[], Mapping[str, Any]], find: Callable[[], list[dict[str, Any]]]) -> int:
        """Create our tag or field; when a concurrent hook created it first (Paperless
        answers 400 "already exists"), use that one."""
        try:
            return int(create()["id"])
        except PaperlessError:
            found = find()
            if not found:
                raise
            return int(min(found, key=lambda x: int(x["id"]))["id"])

    def annotate(
        self,
        doc_id: int,
        matches: list[tuple[PairScore, int, str]],
        *,
        document: Mapping[str, Any] | None = None,
        outcome: Outcome | None = None,
    ) -> Outcome:
        """Annotate ``doc_id`` (the newer document) with ``matches`` (older ones).

        Another hook may be annotating the same document, or one whose reverse links
        land on it, at this very moment: Paperless replaces a whole link list, and the
        "tag removed" test needs the current tags.  So, when the ledger offers it,
        writes happen under its per-document locks of ``doc_id`` and its matches
        (taken in id order), with the document read afresh inside them.
        """
        lock = getattr(self.ledger, "annotation_lock", None)
        if not matches or lock is None or self.dry_run:
            return self._annotate(doc_id, matches, document=document, outcome=outcome)
        with lock([doc_id, *(m[1] for m in matches)]):
            return self._annotate(doc_id, matches, document=None, outcome=outcome)

    def _annotate(
        self,
        doc_id: int,
        matches: list[tuple[PairScore, int, str]],
        *,
        document: Mapping[str, Any] | None = None,
        outcome: Outcome | None = None,
    ) -> Outcome:
        outcome = outcome or Outcome()
        if not matches:
            return outcome
        self._resolve()
        self._ensure_view(outcome)
        if document is None:
            document = self.client.get_document(doc_id, fields=["id", "title", "tags", "custom_fields"])
        tags = {int(t) for t in document.get("tags") or []}
        recorded = self.ledger.annotated(doc_id)
        if recorded and self._tag_id is not None and self._tag_id not in tags:
            # We tagged this document before and the tag is gone: the user dismissed it.
            for other in recorded:
                self.ledger.dismiss(doc_id, other, "tag removed", self.now())
                outcome.dismissed.append((min(doc_id, other), max(doc_id, other)))
            matches = [m for m in matches if m[1] not in recorded]
            if not matches:
                return outcome
        match_ids = sorted({m[1] for m in matches})
        writes_before = self._writes
        try:
            self._link(doc_id, document, match_ids, outcome)
        except PaperlessPermissionError as exc:
            # Paperless 3.0.5 links only to documents the user may change (it writes the
            # reverse link there): the note and the tag still say it all.
            outcome.warnings.append(f"document {doc_id}: link to {', '.join(f'#{i}' for i in match_ids)} not "
                                    f"written, note and tag are: {exc}")
        if self.note:
            self._note(doc_id, matches, outcome)
        if self._tag_id is None and self.dry_run and self.tag_name:
            self._writes += 1
            outcome.planned.append(f"tag #{doc_id} {self.tag_name!r} (the tag would be created)")
        elif self._tag_id is not None and self._tag_id not in tags:
            self._write(outcome, f"tag #{doc_id} {self.tag_name!r}", lambda: self.client.bulk_edit(
                [doc_id], "add_tag", {"tag": self._tag_id}))
        if not self.dry_run:
            self.ledger.record_annotation(doc_id, match_ids, self.now())
        new = [m for m in match_ids if m not in recorded]
        if new and self._writes > writes_before:  # Paperless may hold it all already (an index built afresh)
            outcome.annotated[doc_id] = new
        return outcome

    def _link(self, doc_id: int, document: Mapping[str, Any], match_ids: list[int], outcome: Outcome) -> None:
        if self._field_id is None and not (self.dry_run and self.link_name):
            return
        current: list[int] = []
        for entry in document.get("custom_fields") or []:
            if self._field_id is not None and int(entry.get("field", -1)) == self._field_id:
                current = [int(x) for x in (entry.get("value") or [])]
        merged = sorted(set(current) | set(match_ids))
        if merged == sorted(set(current)):
            return
        field_id = self._field_id
        self._write(outcome, f"link #{doc_id} -> {merged}", lambda: self.client.bulk_edit(
            [doc_id], "modify_custom_fields",
            {"add_custom_fields": {str(field_id): merged}, "remove_custom_fields": []}))

    def _note(self, doc_id: int, matches: list[tuple[PairScore, int, str]], outcome: Outcome) -> None:
        already = noted_ids(self.client.get_notes(doc_id))
        fresh = [m for m in matches if m[1] not in already]
        if fresh:
            keep = None
            if self.keep_line is not None:
                try:
                    keep = self.keep_line(doc_id, [m[1] for m in fresh])
                except PaperlessError:
                    keep = None  # the note goes on without the suggestion
            body = note_text(fresh, verdicts(self.texts, doc_id, fresh), keep)
            self._write(outcome, f"note #{doc_id}: {body!r}", lambda: self.client.add_note(doc_id, body))

    def _write(self, outcome: Outcome, what: str, action: Callable[[], object]) -> None:
        self._writes += 1
        if self.dry_run:
            outcome.planned.append(what)
        else:
            action()
