"""The pictures of documents with too little text in the Redis index, as a mixin of
:class:`redis.RedisIndex` (same methods and meaning as :class:`_sqlite_pictures.SqlitePictures`)::

  NS:gen:<gen>:picture:<id>      hash  version, signature, keys (the lookup keys, hex, comma-joined)
  NS:gen:<gen>:pband:<hex key>   set   doc ids whose picture has this key

Writes go through the index's fenced ``_commit`` like the documents'.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from ._redis_support import guarded
from ._sqlite_pictures import PICTURE_BUCKET_MAX, PICTURE_CANDIDATE_POOL


class RedisPictures:
    """Needs, from the index it is mixed into: the client, the bound generation's key
    prefix, the write lock and the fenced commit."""

    _r: Any
    namespace: str
    _base: str
    _building: bool
    _guard: Callable[[], AbstractContextManager[None]]
    write: Callable[[], AbstractContextManager[None]]
    _commit: Callable[[Callable[[Any], None]], None]

    def _k_picture(self, doc_id: int, base: str | None = None) -> str:
        return f"{base or self._base}picture:{doc_id}"

    def _k_pband(self, key: bytes) -> str:
        return f"{self._base}pband:{key.hex()}"

    def _picture_keys(self, doc_id: int) -> list[bytes]:
        raw = self._r.hget(self._k_picture(doc_id), "keys")
        return [bytes.fromhex(k) for k in (raw or b"").decode().split(",") if k]

    def _queue_picture_removal(self, pipe: Any, doc_id: int, keys: Iterable[bytes]) -> None:
        for key in keys:
            pipe.srem(self._k_pband(key), doc_id)
        pipe.delete(self._k_picture(doc_id))

    def _queue_picture(self, pipe: Any, doc_id: int, version: int, signature: bytes, keys: Sequence[bytes]) -> None:
        unique = list(dict.fromkeys(keys))
        pipe.hset(self._k_picture(doc_id), mapping={"version": version, "signature": signature,
                                                     "keys": ",".join(k.hex() for k in unique)})
        for key in unique:
            pipe.sadd(self._k_pband(key), doc_id)

    @guarded
    def put_picture(self, doc_id: int, *, version: int, signature: bytes, keys: Sequence[bytes]) -> None:
        with self.write():
            old = self._picture_keys(doc_id)

            def fill(pipe: Any) -> None:
                self._queue_picture_removal(pipe, doc_id, old)
                self._queue_picture(pipe, doc_id, version, signature, keys)

            self._commit(fill)

    @guarded
    def remove_picture(self, doc_id: int) -> None:
        with self.write():
            old = self._picture_keys(doc_id)
            if old or self._r.exists(self._k_picture(doc_id)):
                self._commit(lambda pipe: self._queue_picture_removal(pipe, doc_id, old))

    @guarded
    def load_pictures(self, items: Iterable[tuple[int, int, bytes, Sequence[bytes]]]) -> None:
        """Bulk insert into a generation being built."""
        if not self._building:
            raise RuntimeError("load_pictures() is for a generation from RedisIndex.build()")
        pipe = self._r.pipeline(transaction=False)
        for n, (doc_id, version, signature, keys) in enumerate(items, 1):
            self._queue_picture(pipe, doc_id, version, signature, keys)
            if n % 200 == 0:
                pipe.execute()
        pipe.execute()

    @guarded
    def picture_candidates(self, keys: Sequence[bytes], *, exclude: int | None, version: int) -> dict[int, bytes]:
        """As ``SqliteIndex.picture_candidates``."""
        if not keys:
            return {}
        names = [self._k_pband(k) for k in dict.fromkeys(keys)]
        pipe = self._r.pipeline(transaction=False)
        for name in names:
            pipe.scard(name)
        sizes = pipe.execute()
        evidence = [(name, int(size)) for name, size in zip(names, sizes, strict=True) if 0 < size <= PICTURE_BUCKET_MAX]
        if not evidence:
            return {}
        pipe = self._r.pipeline(transaction=False)
        for name, _size in evidence:
            pipe.smembers(name)
        weight: dict[int, float] = {}  # a shared key weighs one over the pictures that have it
        for (_name, size), members in zip(evidence, pipe.execute(), strict=True):
            for m in members:
                if (doc_id := int(m)) != exclude:
                    weight[doc_id] = weight.get(doc_id, 0.0) + 1.0 / size
        chosen = sorted(weight, key=lambda d: (-weight[d], d))[:PICTURE_CANDIDATE_POOL]
        return {d: sig for d, (v, sig) in self.pictures(chosen).items() if v == version}

    @guarded
    def pictures(self, ids: Iterable[int]) -> dict[int, tuple[int, bytes]]:
        wanted = list(ids)
        pipe = self._r.pipeline(transaction=False)
        for doc_id in wanted:
            pipe.hmget(self._k_picture(doc_id), ["version", "signature"])
        out: dict[int, tuple[int, bytes]] = {}
        for doc_id, (version, sig) in zip(wanted, pipe.execute() if wanted else [], strict=True):
            if version is not None and sig is not None:
                out[doc_id] = (int(version), bytes(sig))
        return out

    @guarded
    def picture_count(self, version: int | None = None) -> int:
        found = 0
        for key in self._r.scan_iter(match=f"{self._base}picture:*", count=1000):
            if version is None or int(self._r.hget(key, "version") or -1) == version:
                found += 1
        return found

    @guarded
    def stale_pictures(self, version: int) -> list[int]:
        found = []
        for key in self._r.scan_iter(match=f"{self._base}picture:*", count=1000):
            if int(self._r.hget(key, "version") or -1) != version:
                found.append(int(key.decode().rsplit(":", 1)[1]))
        return sorted(found)

    def _carry_picture_from(self, pipe: Any, base: str, doc_id: int) -> None:
        """Queue ``doc_id``'s picture as generation ``base`` holds it (inside a commit)."""
        raw = self._r.hgetall(self._k_picture(doc_id, base))
        self._queue_picture_removal(pipe, doc_id, self._picture_keys(doc_id))
        if raw.get(b"version") is not None and raw.get(b"signature") is not None:
            keys = [bytes.fromhex(k) for k in raw.get(b"keys", b"").decode().split(",") if k]
            self._queue_picture(pipe, doc_id, int(raw[b"version"]), raw[b"signature"], keys)
