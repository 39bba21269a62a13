"""Candidates the token's user could not read: deleted, or not shared with it?

The index holds documents that a rebuild with another token (a superuser's) saw.  A hook
with a restricted user's token asks Paperless for the candidates' texts by ``id__in``,
and Paperless leaves out, without a word, every id the user may not see (permissions.json,
seq 347): a 0.99 copy owned by someone else is then simply not compared.  A document
deleted since it was indexed is left out the same way.

The two are told apart by one request per missing candidate (at most ``PROBE_LIMIT``):
Paperless 3.0.5 answers ``/notes/`` of a document the user cannot see with its bare-text
403 and of a missing one with a JSON 404 (seq 339 vs 426).  A refusal for want of the
model permission ``view_note`` tells nothing: such a candidate counts as unreadable.
The probes cost nothing on the usual path: they run only when a candidate was missing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._errors import PaperlessError, PaperlessNotFound

# Requests spent on telling missing candidates apart, per checked document.
PROBE_LIMIT = 5


class RecordingTexts:
    """A text source that remembers which asked-for ids Paperless did not return."""

    def __init__(self, fetch: Callable[[Sequence[int]], Mapping[int, str]]) -> None:
        self._fetch = fetch
        self.missing: set[int] = set()

    def __call__(self, ids: Sequence[int]) -> Mapping[int, str]:
        got = self._fetch(ids)
        self.missing.update(i for i in ids if i not in got)
        return got


@dataclass
class Unreadable:
    """Candidates Paperless did not return: ``hidden`` the user may not see (or that could
    not be told apart from deleted ones), ``deleted`` gone from Paperless."""

    hidden: list[int] = field(default_factory=list)
    deleted: list[int] = field(default_factory=list)

    def warning(self, doc_id: int) -> str | None:
        """The line a hook or ``check`` says, or None when nothing was hidden."""
        if not self.hidden:
            return None
        shown = ", ".join(f"#{i}" for i in self.hidden[:10]) + (" ..." if len(self.hidden) > 10 else "")
        return (f"document {doc_id}: {len(self.hidden)} candidate(s) could not be read, so they were not compared "
                f"({shown}: indexed, but Paperless does not show them to the token's user): share them with that "
                "user in Paperless, or use a superuser's token (then 'paperless-dedupe check "
                f"{doc_id}' compares them)")

    def as_dict(self) -> dict[str, Any]:
        return {"unreadable_candidates": self.hidden, "deleted_candidates": self.deleted}


def tell_apart(client: Any, missing: Sequence[int], *, limit: int = PROBE_LIMIT) -> Unreadable:
    """Which of the ``missing`` candidates are hidden from the user and which are deleted
    (past ``limit``, not probed: counted as unreadable, whichever of the two they are)."""
    out = Unreadable()
    for position, doc_id in enumerate(sorted(missing)):
        (out.deleted if position < limit and _deleted(client, doc_id) else out.hidden).append(doc_id)
    return out


def _deleted(client: Any, doc_id: int) -> bool:
    try:
        client.get_notes(doc_id)
    except PaperlessNotFound:
        return True
    except PaperlessError:  # the bare-text 403 of a hidden document, or no view_note: unreadable either way
        return False
    return False  # visible now (shared meanwhile): it was not compared all the same
