"""The Redis index's documents, as a mixin of :class:`redis.RedisIndex`
(same methods and meaning as :class:`sqlite.SqliteIndex`'s): one hash per document,
one set per band key, one token-count hash, all under the bound generation.

Every multi-key write goes through the index's fenced ``_commit`` (one MULTI/EXEC
that also WATCHes the write lock), so a killed process never leaves half a
document.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from .._errors import IndexCorruptError
from ..core import minhash
from ..core.commonkeys import bucket_role, chosen
from ..core.features import Features
from ._redis_support import BUILD_MARKER_TTL, guarded

_BATCH = 200  # documents per pipeline round trip in a bulk load
_FIELDS = (b"fingerprint", b"word_count", b"shingle_count", b"signature", b"tokens", b"title", b"places")


class RedisDocuments:
    """Needs, from the index it is mixed into: the client, the bound generation's
    key names, the error guard, the write lock and the fenced commit."""

    _r: Any
    namespace: str
    generation: str
    path: str
    _building: bool
    _k_docs: str
    _k_df: str
    _k_changes: str
    # Methods of RedisIndex, declared for the type checker only (annotations, no stubs):
    _guard: Callable[[], AbstractContextManager[None]]
    write: Callable[[], AbstractContextManager[None]]
    _commit: Callable[[Callable[[Any], None]], None]
    _k_doc: Callable[[int], str]
    _k_band: Callable[[int], str]
    # Of RedisPictures: a re-indexed or removed document's picture goes with it.
    _picture_keys: Callable[[int], list[bytes]]
    _queue_picture_removal: Callable[[Any, int, Iterable[bytes]], None]
    _carry_picture_from: Callable[[Any, str, int], None]

    @guarded
    def load(self, items: Iterable[tuple[Features, str | None, Sequence[int]]]) -> None:
        """Bulk insert into a generation being built (nobody else writes it)."""
        if not self._building:
            raise RuntimeError("load() is for a generation from RedisIndex.build()")
        df: Counter[str] = Counter()
        pipe = self._r.pipeline(transaction=False)
        pending = 0
        for feats, modified, keys in items:
            self._queue_document(pipe, feats, modified, keys)
            df.update(feats.tokens)
            pending += 1
            if pending >= _BATCH:
                pipe.expire(f"{self.namespace}:building:{self.generation}", BUILD_MARKER_TTL)
                pipe.execute()
                pending = 0
        tokens = list(df.items())
        for start in range(0, len(tokens), 1000):
            pipe.hset(self._k_df, mapping=dict(tokens[start : start + 1000]))
        pipe.execute()

    # -- writes ----------------------------------------------------------
    def _queue_document(self, pipe: Any, feats: Features, modified: str | None, keys: Sequence[int]) -> None:
        doc_key = self._k_doc(feats.doc_id)
        fields: dict[str, bytes | str | int] = {
            "fingerprint": feats.fingerprint,
            "word_count": feats.word_count,
            "shingle_count": feats.shingle_count,
            "tokens": "\n".join(sorted(feats.tokens)),
            "title": feats.title,
            "places": feats.places,
            "bands": ",".join(str(k) for k in dict.fromkeys(keys)),
        }
        if feats.signature is not None:
            fields["signature"] = minhash.to_bytes(feats.signature)
        pipe.delete(doc_key)
        pipe.hset(doc_key, mapping=fields)
        pipe.hset(self._k_docs, str(feats.doc_id), json.dumps(modified))
        for key in dict.fromkeys(keys):
            pipe.sadd(self._k_band(key), feats.doc_id)

    def _stored_tokens_and_bands(self, doc_id: int) -> tuple[set[str], set[int]] | None:
        tokens, bands = self._r.hmget(self._k_doc(doc_id), ["tokens", "bands"])
        if tokens is None:
            return None
        return (
            {t for t in tokens.decode().split("\n") if t},
            {int(k) for k in (bands or b"").decode().split(",") if k},
        )

    def _df_changes(self, minus: set[str], plus: set[str]) -> Callable[[Any], None]:
        gone: list[str] = []
        if minus:
            ordered = sorted(minus)
            current = self._r.hmget(self._k_df, ordered)
            gone = [t for t, v in zip(ordered, current, strict=True) if v is None or int(v) <= 1]
        lower = sorted(minus - set(gone))

        def fill(p: Any) -> None:
            if gone:
                p.hdel(self._k_df, *gone)
            for token in lower:
                p.hincrby(self._k_df, token, -1)
            for token in sorted(plus):
                p.hincrby(self._k_df, token, 1)

        return fill

    @guarded
    def put(self, feats: Features, *, modified: str | None, keys: Sequence[int]) -> None:
        """Insert or replace one document (inside ``write()``; takes the lock itself otherwise)."""
        with self.write():
            old = self._stored_tokens_and_bands(feats.doc_id)
            old_tokens, old_bands = old if old is not None else (set(), set())
            old_picture = self._picture_keys(feats.doc_id) if old is not None else []
            new_bands = set(keys)
            df_fill = self._df_changes(old_tokens - feats.tokens, set(feats.tokens) - old_tokens)

            def fill(pipe: Any) -> None:
                for key in sorted(old_bands - new_bands):
                    pipe.srem(self._k_band(key), feats.doc_id)
                if old is not None:  # put again, if it still takes the picture path
                    self._queue_picture_removal(pipe, feats.doc_id, old_picture)
                self._queue_document(pipe, feats, modified, keys)
                pipe.rpush(self._k_changes, feats.doc_id)
                df_fill(pipe)

            self._commit(fill)

    @guarded
    def remove(self, doc_id: int) -> None:
        with self.write():
            old = self._stored_tokens_and_bands(doc_id)
            if old is None:
                return
            tokens, bands = old
            df_fill = self._df_changes(tokens, set())
            picture = self._picture_keys(doc_id)

            def fill(pipe: Any) -> None:
                self._queue_picture_removal(pipe, doc_id, picture)
                for key in sorted(bands):
                    pipe.srem(self._k_band(key), doc_id)
                df_fill(pipe)
                pipe.delete(self._k_doc(doc_id))
                pipe.hdel(self._k_docs, str(doc_id))
                pipe.rpush(self._k_changes, doc_id)

            self._commit(fill)

    # -- what changed while a full rebuild ran ---------------------------
    @guarded
    def change_mark(self) -> tuple[str, int]:
        """(this generation, its last change): where a full rebuild starts."""
        return self.generation, int(self._r.llen(self._k_changes))

    @guarded
    def changed_in(self, generation: str, mark: tuple[str, int] | None) -> list[int]:
        """Documents put or removed in ``generation`` after ``mark`` (every one when the
        mark belongs to another generation)."""
        start = mark[1] if mark is not None and mark[0] == generation else 0
        raw = self._r.lrange(f"{self.namespace}:gen:{generation}:changes", start, -1)
        return sorted({int(x) for x in raw})

    @guarded
    def carry_from(self, generation: str, ids: Iterable[int]) -> int:
        """Make each of ``ids`` in this generation as it is in ``generation``: copied
        (its hash, bands, token counts), or removed when it is gone there.  Inside
        ``write()``.  Returns how many documents changed."""
        base = f"{self.namespace}:gen:{generation}:"
        changed = 0
        for doc_id in ids:
            raw = self._r.hgetall(f"{base}doc:{doc_id}")
            modified = self._r.hget(base + "docs", str(doc_id))
            if not raw or modified is None:
                if self._stored_tokens_and_bands(doc_id) is not None:
                    self.remove(doc_id)
                    changed += 1
                continue
            old = self._stored_tokens_and_bands(doc_id)
            old_tokens, old_bands = old if old is not None else (set(), set())
            tokens = {t for t in raw.get(b"tokens", b"").decode().split("\n") if t}
            bands = {int(k) for k in raw.get(b"bands", b"").decode().split(",") if k}
            df_fill = self._df_changes(old_tokens - tokens, tokens - old_tokens)

            def fill(pipe: Any, doc_id: int = doc_id, raw: dict[bytes, bytes] = raw, modified: bytes = modified,
                     bands: set[int] = bands, old_bands: set[int] = old_bands,
                     df_fill: Callable[[Any], None] = df_fill) -> None:
                for key in sorted(old_bands - bands):
                    pipe.srem(self._k_band(key), doc_id)
                pipe.delete(self._k_doc(doc_id))
                pipe.hset(self._k_doc(doc_id), mapping=raw)
                pipe.hset(self._k_docs, str(doc_id), modified)
                for key in sorted(bands):
                    pipe.sadd(self._k_band(key), doc_id)
                pipe.rpush(self._k_changes, doc_id)
                df_fill(pipe)
                self._carry_picture_from(pipe, base, doc_id)

            self._commit(fill)
            changed += 1
        return changed

    # -- documents -------------------------------------------------------
    @guarded
    def count(self) -> int:
        return int(self._r.hlen(self._k_docs))

    @guarded
    def modified_of(self) -> dict[int, str | None]:
        return {int(k): json.loads(v) for k, v in self._r.hgetall(self._k_docs).items()}

    @guarded
    def fingerprint(self, doc_id: int) -> bytes | None:
        raw = self._r.hget(self._k_doc(doc_id), "fingerprint")
        return bytes(raw) if raw is not None else None

    @guarded
    def candidates(self, keys: Sequence[int], *, exclude: int | None = None) -> list[int]:
        """As ``SqliteIndex.candidates`` (SCARD is O(1); members are read only for keys
        that are evidence, at most ``COMMON_KEY_DOCS`` each)."""
        if not keys:
            return []
        names = [self._k_band(k) for k in keys]
        pipe = self._r.pipeline(transaction=False)
        for name in names:
            pipe.scard(name)
            pipe.sismember(name, str(-1 if exclude is None else exclude))
        answers = pipe.execute()
        evidence = {name: size - int(bool(mine)) + 1
                    for name, size, mine in zip(names, answers[0::2], answers[1::2], strict=True)}
        evidence = {name: n for name, n in evidence.items() if bucket_role(n) != "none"}
        pipe = self._r.pipeline(transaction=False)
        for name in evidence:
            pipe.smembers(name)
        meetings: dict[int, list[int]] = {}
        for n, members in zip(evidence.values(), pipe.execute() if evidence else [], strict=True):
            for m in members:
                if (doc_id := int(m)) != exclude:
                    meetings.setdefault(doc_id, []).append(n)
        return chosen(meetings)

    @guarded
    def features(self, ids: Iterable[int], num_permutations: int) -> list[Features]:
        wanted = sorted(set(ids))
        out: list[Features] = []
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            pipe = self._r.pipeline(transaction=False)
            for doc_id in chunk:
                pipe.hmget(self._k_doc(doc_id), list(_FIELDS))
            for doc_id, row in zip(chunk, pipe.execute(), strict=True):
                fp, words, shingles, sig, tokens, title, places = row
                if fp is None:
                    continue  # not indexed (SQLite's IN skips it the same way)
                try:
                    if words is None or shingles is None or tokens is None:
                        raise ValueError("fields missing")
                    signature = minhash.from_bytes(sig, num_permutations) if sig is not None else None
                    token_text = tokens.decode("utf-8")
                    out.append(
                        Features(
                            doc_id=doc_id,
                            fingerprint=bytes(fp),
                            word_count=int(words),
                            shingle_count=int(shingles),
                            signature=signature,
                            sample=None,
                            tokens=frozenset(token_text.split("\n")) if token_text else frozenset(),
                            title=(title or b"").decode("utf-8"),
                            places=places or b"",  # none in a hash written before they were kept
                        )
                    )
                except (ValueError, UnicodeDecodeError) as exc:
                    raise IndexCorruptError(
                        f"index {self.path}: document {doc_id} is damaged ({exc}): run 'paperless-dedupe rebuild-index'"
                    ) from None
        return out

    @guarded
    def document_frequency(self, tokens: Iterable[str]) -> dict[str, int]:
        tokens = list(tokens)
        out: dict[str, int] = {}
        for start in range(0, len(tokens), 1000):
            chunk = tokens[start : start + 1000]
            for token, value in zip(chunk, self._r.hmget(self._k_df, chunk), strict=True):
                if value is not None:
                    out[token] = int(value)
        return out
