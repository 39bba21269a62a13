"""The Redis index's user state and stored results, as a mixin of
:class:`redis.RedisIndex` (same methods and meaning as SQLite's).

User state (annotations, dismissals) lives outside the generations, under
``NS:user:``: a rebuild keeps it without copying, and a hook that records an
annotation while a rebuild switches generations cannot lose it.  The results of
the last rebuild belong to its generation (``NS:gen:<gen>:results``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from .._errors import IndexCorruptError, IndexStoreError
from ._redis_support import LOCK_TTL_MS, Lock, guarded


class RedisUserState:
    """Needs, from the index it is mixed into: the client, the key names, the error
    guard and the fenced commit."""

    _r: Any
    url: str
    namespace: str
    path: str
    _k_annotated: str
    _k_dismissed: str
    _k_results: str
    _redis_error: type[Exception]
    # Methods of RedisIndex, declared for the type checker only (annotations, no stubs):
    _guard: Callable[[], AbstractContextManager[None]]
    _commit: Callable[[Callable[[Any], None]], None]

    def _k_ann(self, doc_id: int) -> str:
        return f"{self.namespace}:user:annotations:{doc_id}"

    # -- annotations and dismissals -------------------------------------
    @contextmanager
    def annotation_lock(self, doc_ids: Iterable[int], *, timeout_seconds: float = 30.0) -> Iterator[None]:
        """Exclusive locks on documents while we write to them in Paperless, as
        SqliteIndex's: ``NS:annotate:<id>`` (``SET NX PX``, renewed while held),
        taken in id order so that two hooks never wait for each other in a circle."""
        held: list[Lock] = []
        deadline = time.monotonic() + timeout_seconds
        try:
            with self._guard():
                for doc_id in sorted(set(doc_ids)):
                    lock = Lock(self._r, f"{self.namespace}:annotate:{int(doc_id)}", LOCK_TTL_MS)
                    if not lock.acquire(max(0.0, deadline - time.monotonic())):
                        raise IndexStoreError(
                            f"document {doc_id} stayed locked by another paperless-dedupe run for "
                            f"{timeout_seconds:g} s: run 'paperless-dedupe hook --document-id N' again later"
                        )
                    held.append(lock)
            yield
        finally:
            for lock in reversed(held):
                try:
                    lock.release()
                except self._redis_error:
                    pass  # expires on its own within LOCK_TTL_MS

    @guarded
    def annotated(self, doc_id: int) -> set[int]:
        return {int(m) for m in self._r.hkeys(self._k_ann(doc_id))}

    @guarded
    def record_annotation(self, doc_id: int, match_ids: Iterable[int], at: str) -> None:
        matches = list(match_ids)
        if not matches:
            return

        def fill(pipe: Any) -> None:
            for match in matches:
                pipe.hsetnx(self._k_ann(doc_id), str(match), at)
            pipe.sadd(self._k_annotated, doc_id)

        self._commit(fill)

    @guarded
    def dismissed_pairs(self) -> set[tuple[int, int]]:
        out = set()
        for raw in self._r.hkeys(self._k_dismissed):
            a, _, b = raw.decode().partition(":")
            out.add((int(a), int(b)))
        return out

    @guarded
    def dismiss(self, a: int, b: int, reason: str, at: str) -> None:
        low, high = min(a, b), max(a, b)
        self._r.hsetnx(self._k_dismissed, f"{low}:{high}", json.dumps({"reason": reason, "at": at}))

    # -- results of the last rebuild ------------------------------------
    @guarded
    def store_results(self, pairs: Sequence[Mapping[str, Any]], groups: Sequence[Mapping[str, Any]]) -> None:
        by_pair = {(p["a"], p["b"]): dict(p) for p in pairs}
        by_primary = {
            g["primary"]: {"primary": g["primary"], "members": list(g["members"]), "confidence": g["confidence"]}
            for g in groups
        }
        body = json.dumps({"pairs": list(by_pair.values()), "groups": list(by_primary.values())})
        # The hooks' pairs are the rebuild's now (or dropped by it, as in the SQLite index).
        self._commit(lambda pipe: pipe.set(self._k_results, body).delete(self._k_results + ":hook"))

    @guarded
    def add_found_pairs(self, pairs: Sequence[Mapping[str, Any]], at: str) -> None:
        """Pairs a hook found, kept beside the rebuild's results (in this generation: the next
        rebuild starts without them) and marked ``found_by: "hook"``."""
        key = self._k_results + ":hook"
        for p in pairs:
            self._r.hsetnx(key, f"{p['a']}:{p['b']}", json.dumps({**p, "found_by": "hook", "found_at": at}))

    @guarded
    def results(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        raw = self._r.get(self._k_results)
        found = self._r.hvals(self._k_results + ":hook")
        if raw is None and not found:
            return [], []
        try:
            data = json.loads(raw) if raw is not None else {"pairs": [], "groups": []}
            known = {(p["a"], p["b"]) for p in data["pairs"]}
            data["pairs"] += [p for p in map(json.loads, found) if (p["a"], p["b"]) not in known]
        except ValueError as exc:
            raise IndexCorruptError(
                f"index {self.path}: stored results are damaged ({exc}): run 'paperless-dedupe rebuild-index'"
            ) from None
        pairs = sorted(data["pairs"], key=lambda p: (-p["score"], p["a"], p["b"]))
        groups = sorted(data["groups"], key=lambda g: (-g["confidence"], g["primary"]))
        return pairs, groups

    @guarded
    def copy_user_state_from(self, other: RedisUserState) -> None:
        """Carry annotations and dismissals over from another index.  Within one
        namespace they are shared by all generations already: nothing to do."""
        if other.namespace == self.namespace and other.url == self.url:
            return
        dismissed = other._r.hgetall(other._k_dismissed)
        annotations = {int(d): other._r.hgetall(other._k_ann(int(d))) for d in other._r.smembers(other._k_annotated)}

        def fill(pipe: Any) -> None:
            for field, value in dismissed.items():
                pipe.hsetnx(self._k_dismissed, field, value)
            for doc_id, matches in annotations.items():
                for match, at in matches.items():
                    pipe.hsetnx(self._k_ann(doc_id), match, at)
                if matches:
                    pipe.sadd(self._k_annotated, doc_id)

        self._commit(fill)
