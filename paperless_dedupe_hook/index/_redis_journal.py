"""The journal of resolutions in a Redis index, as a mixin of :class:`redis.RedisIndex`
(the same methods and meaning as :mod:`._sqlite_journal`).

Like the other user state it lives outside the generations (``NS:user:resolutions``, a
hash of JSON entries by id, and ``NS:user:resolutions:next``), so a rebuild keeps it.
One resolve or undo at a time on all hosts: ``NS:resolve`` (``SET NX PX``, renewed
while held).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from .._errors import IndexCorruptError
from ._redis_support import LOCK_TTL_MS, Lock, guarded
from ._sqlite_journal import OPEN_STATES, STATES


class RedisJournal:
    """Needs, from the index it is mixed into: the client, the namespace, the key names
    of the annotations, the results and the error guard."""

    _r: Any
    url: str
    namespace: str
    path: str
    _k_annotated: str
    _k_results: str
    _redis_error: type[Exception]
    _guard: Callable[[], AbstractContextManager[None]]
    _k_ann: Callable[[int], str]

    @property
    def _k_journal(self) -> str:
        return f"{self.namespace}:user:resolutions"

    def _decode(self, raw: bytes) -> dict[str, Any]:
        try:
            entry: dict[str, Any] = json.loads(raw)
        except ValueError as exc:
            raise IndexCorruptError(f"index {self.path}: an entry of the journal of resolutions is damaged ({exc}): "
                                    "the documents in Paperless are as its last step left them") from None
        return entry

    @guarded
    def journal_add(self, copy_id: int, keeper_id: int, mode: str, plan: dict[str, Any], at: str) -> int:
        entry_id = int(self._r.incr(self._k_journal + ":next"))
        entry = {"id": entry_id, "copy": copy_id, "keeper": keeper_id, "mode": mode, "state": "resolving",
                 "started": at, "updated": at, "plan": plan, "steps": [], "error": ""}
        self._r.hset(self._k_journal, str(entry_id), json.dumps(entry, sort_keys=True))
        return entry_id

    @guarded
    def journal_update(self, entry_id: int, at: str, *, state: str | None = None, steps: list[str] | None = None,
                       error: str | None = None, plan: dict[str, Any] | None = None) -> None:
        if state is not None and state not in STATES:
            raise ValueError(f"unknown resolution state {state!r}")
        raw = self._r.hget(self._k_journal, str(entry_id))
        if raw is None:
            return
        entry = self._decode(raw)
        entry["updated"] = at
        for key, value in (("state", state), ("steps", steps), ("error", error), ("plan", plan)):
            if value is not None:
                entry[key] = value
        self._r.hset(self._k_journal, str(entry_id), json.dumps(entry, sort_keys=True))

    @guarded
    def journal_entry(self, entry_id: int) -> dict[str, Any] | None:
        raw = self._r.hget(self._k_journal, str(entry_id))
        return self._decode(raw) if raw is not None else None

    @guarded
    def journal_entries(self, *, copy_id: int | None = None, open_only: bool = False) -> list[dict[str, Any]]:
        entries = [self._decode(raw) for raw in self._r.hvals(self._k_journal)]
        return sorted((e for e in entries if (copy_id is None or e["copy"] == copy_id)
                       and (not open_only or e["state"] in OPEN_STATES)), key=lambda e: -int(e["id"]))

    def involved_in_resolution(self, doc_id: int, *, version_row: bool = False) -> bool:
        for entry in self.journal_entries():
            if doc_id in (entry["copy"], entry["keeper"]) and entry["state"] in OPEN_STATES:
                return True
            if version_row and entry["keeper"] == doc_id and entry["mode"] == "version" and entry["state"] == "resolved":
                return True
        return False

    @guarded
    def pair_partners(self, doc_id: int) -> dict[int, str]:
        out: dict[int, str] = {int(m): "" for m in self._r.hkeys(self._k_ann(doc_id))}
        for other in self._r.smembers(self._k_annotated):
            if self._r.hexists(self._k_ann(int(other)), str(doc_id)):
                out[int(other)] = ""
        raw = self._r.get(self._k_results)
        if raw is not None:
            try:
                pairs = json.loads(raw).get("pairs") or []
            except ValueError:
                pairs = []
            for pair in pairs:
                if doc_id in (pair.get("a"), pair.get("b")):
                    out[pair["b"] if pair["a"] == doc_id else pair["a"]] = str(pair.get("verdict") or "duplicate")
        return out

    @guarded
    def copy_journal_from(self, other: Any) -> None:
        """Carry the journal over from another index (within one namespace every
        generation shares it already)."""
        if other.namespace == self.namespace and other.url == self.url:
            return
        entries = other._r.hgetall(other._k_journal)
        if entries:
            self._r.hset(self._k_journal, mapping=entries)
            top = max(int(k) for k in entries)
            if int(self._r.get(self._k_journal + ":next") or 0) < top:
                self._r.set(self._k_journal + ":next", top)

    @contextmanager
    def resolve_lock(self, *, wait_seconds: float) -> Iterator[bool]:
        """One resolve or undo at a time on every host; False when another holds it past ``wait_seconds``."""
        with self._guard():
            lock = Lock(self._r, f"{self.namespace}:resolve", LOCK_TTL_MS)
            got = lock.acquire(wait_seconds)
        try:
            yield got
        finally:
            if got:
                try:
                    lock.release()
                except self._redis_error:
                    pass  # unreachable now: it expires on its own within LOCK_TTL_MS
