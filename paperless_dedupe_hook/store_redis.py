"""The index in Redis (``index.backend = "redis"``): one index shared by several
hosts or containers, with the methods and meaning of :class:`store.SqliteIndex`.

Key layout (``NS`` = ``paperless-dedupe`` by default)::

  NS:current                 string  id of the live generation (readers resolve it once per open)
  NS:lock                    string  the write lock: a random token, ``SET NX PX``, renewed while held
  NS:annotate:<id>           string  per-document lock while a hook writes to that document in Paperless
  NS:generations             set     generation ids that exist (live, or being built)
  NS:building:<gen>          string  present (with a TTL) while a rebuild writes <gen>
  NS:gen:<gen>:meta          hash    compat keys and run bookkeeping (as SQLite's ``meta``)
  NS:gen:<gen>:docs          hash    doc id -> JSON of its ``modified`` (count = HLEN)
  NS:gen:<gen>:doc:<id>      hash    fingerprint, word_count, shingle_count, signature, tokens,
                                     title, bands (the band keys, to remove them again); no text
  NS:gen:<gen>:band:<key>    set     doc ids whose signature has this band key
  NS:gen:<gen>:df            hash    token -> in how many documents it occurs
  NS:gen:<gen>:results       string  JSON of the last rebuild's pairs and groups
  NS:user:annotated          set     doc ids with recorded annotations
  NS:user:annotations:<id>   hash    match id -> when we annotated the pair
  NS:user:dismissed          hash    "<low>:<high>" -> JSON {reason, at}

User state (annotations, dismissals) lives outside the generations: a rebuild keeps
it without copying, and a hook that records an annotation while a rebuild switches
generations cannot lose it.

Writers: ``write()`` takes ``NS:lock`` (``SET NX PX`` with a wait loop; a thread
renews it while held; release compares the token in a Lua script), then follows
``NS:current`` in case a rebuild switched meanwhile.  Every multi-key write is one
MULTI/EXEC that also WATCHes the lock, so a process that was killed never leaves
half a document, and one that lost its lock (paused past the TTL) writes nothing.
A ``write()`` block that raises keeps what it already wrote: unlike SQLite there is
no rollback across commands (the hook writes last in its block; an incremental
rebuild that fails is redone by the next one).

Full rebuild: ``RedisIndex.build`` writes a new generation nobody reads, ``switch``
points ``NS:current`` at it under the lock, and the old generation expires after a
grace period (hooks that opened it before the switch may still read it).  A build
that dies before the switch is discarded by the next build.

``redis`` is imported only when a Redis index is opened.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeVar
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from . import minhash
from ._errors import IndexCorruptError, IndexMismatchError, IndexStoreError
from .features import Features
from .store import COMPAT_KEYS

NAMESPACE = "paperless-dedupe"
LAYOUT_VERSION = 2  # of the key layout above; stored in meta as ``redis_layout`` (2: no samples)
LOCK_TTL_MS = 30_000  # a killed writer blocks the others this long at most
BUILD_MARKER_TTL = 3600  # seconds; refreshed while a rebuild writes
OLD_GENERATION_GRACE = 600  # seconds the replaced generation stays readable
_BATCH = 200
_FIELDS = (b"fingerprint", b"word_count", b"shingle_count", b"signature", b"tokens", b"title")

_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
_RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"

P = ParamSpec("P")
R = TypeVar("R")


def mask_url(url: str) -> str:
    """``url`` without its password (``redis://:pw@h``, ``redis://user:pw@h``, ``?password=``)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable Redis URL>"
    masked = url
    if "@" in parts.netloc:
        userinfo, host = parts.netloc.rsplit("@", 1)
        user, sep, _password = userinfo.partition(":")
        # A lone userinfo (redis://secret@host) is often meant as the password: hide it too.
        masked = masked.replace(parts.netloc, f"{user}:***@{host}" if sep else f"***@{host}", 1)
    if parts.query and any(k.lower() == "password" for k, _v in parse_qsl(parts.query)):
        pairs = [(k, "***" if k.lower() == "password" else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
        masked = masked.replace("?" + parts.query, "?" + urlencode(pairs, safe="*", quote_via=quote), 1)
    return masked


def _secrets_of(url: str) -> list[str]:
    """What ``mask_url`` hides, to scrub it from error texts as well."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    found = []
    if "@" in parts.netloc:
        userinfo = parts.netloc.rsplit("@", 1)[0]
        found.append(userinfo.partition(":")[2] or userinfo)
    found += [v for k, v in parse_qsl(parts.query) if k.lower() == "password"]
    return [s for s in found if s]


class _NoIndex(IndexStoreError):
    """Nothing at ``NS:current``: no rebuild or hook has created the index yet."""


def _new_generation_id() -> str:
    return f"{int(time.time() * 1000):x}-{os.urandom(4).hex()}"


def _guarded(method: Callable[Concatenate[RedisIndex, P], R]) -> Callable[Concatenate[RedisIndex, P], R]:
    """Turn any redis-py error raised by ``method`` into an IndexStoreError."""

    @wraps(method)
    def wrapper(self: RedisIndex, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self._guard():
            return method(self, *args, **kwargs)

    return wrapper


class _Lock:
    """``SET key token NX PX ttl``; renewed by a daemon thread; released only by its owner."""

    def __init__(self, client: Any, key: str, ttl_ms: int) -> None:
        self.client, self.key, self.ttl_ms = client, key, ttl_ms
        self.token = os.urandom(16).hex().encode()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def acquire(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        pause = 0.005
        while not self.client.set(self.key, self.token, nx=True, px=self.ttl_ms):
            if time.monotonic() > deadline:
                return False
            time.sleep(pause * (0.5 + random.random()))  # noqa: S311 - jitter, not crypto
            pause = min(pause * 2, 0.05)
        self._thread = threading.Thread(target=self._renew, name="paperless-dedupe-lock", daemon=True)
        self._thread.start()
        return True

    def _renew(self) -> None:
        while not self._stop.wait(self.ttl_ms / 3000):
            try:
                if not self.client.eval(_RENEW, 1, self.key, self.token, self.ttl_ms):
                    return  # lost: the fenced writes will notice
            except Exception:  # noqa: BLE001 - the next write reports the connection
                return

    def release(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
        self.client.eval(_RELEASE, 1, self.key, self.token)


class RedisIndex:
    """An open Redis index.  Use as a context manager, or call ``close``."""

    backend = "redis"

    def __init__(
        self,
        url: str,
        *,
        create: bool = False,
        compat: Mapping[str, str] | None = None,
        namespace: str = NAMESPACE,
        lock_timeout: float = 60.0,
        generation: str | None = None,
    ) -> None:
        self.url = url
        self.masked_url = mask_url(url)
        self.namespace = namespace
        self.path = f"{self.masked_url} ({namespace})"  # for messages, as SqliteIndex.path
        self.lock_timeout = lock_timeout
        self._secrets = _secrets_of(url)
        self._compat = dict(compat) if compat is not None else None
        self._depth = 0
        self._lock: _Lock | None = None
        self._pinned = generation is not None
        self._building = False
        try:
            import redis
        except ImportError:
            raise IndexStoreError(
                "index.backend = 'redis' needs the Python package 'redis': install it into the hook's "
                "environment (pip install 'paperless-dedupe-hook[redis]')"
            ) from None
        self._redis_error: type[Exception] = redis.exceptions.RedisError
        self._watch_error: type[Exception] = redis.exceptions.WatchError
        try:
            self._r: Any = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=30)
        except ValueError as exc:
            raise IndexStoreError(
                f"index.redis_url = {self.masked_url!r} is not a Redis URL ({self._redact(str(exc))}): "
                "write it as redis://[:password@]host:6379/0"
            ) from None
        self._k_current = f"{namespace}:current"
        self._k_lock = f"{namespace}:lock"
        self._k_generations = f"{namespace}:generations"
        self._k_annotated = f"{namespace}:user:annotated"
        self._k_dismissed = f"{namespace}:user:dismissed"
        try:
            with self._guard():
                self._r.ping()
                if generation is None:
                    generation = self._resolve(create)
                self._bind(generation)
                if compat is not None:
                    self._check_compat(compat)
        except BaseException:
            self._r.close()
            raise

    # -- lifecycle -------------------------------------------------------
    def close(self) -> None:
        try:
            if self._building:  # built but never switched in: nobody will read it
                with self._guard():
                    self._discard(self.generation)
        except IndexStoreError:
            pass  # the next build collects it
        finally:
            self._building = False
            self._r.close()

    def __enter__(self) -> RedisIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def write(self) -> Iterator[None]:
        """Mutual exclusion with every other writer of this index, on any host."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        with self._guard():
            lock = _Lock(self._r, self._k_lock, LOCK_TTL_MS)
            if not lock.acquire(self.lock_timeout):
                raise IndexStoreError(
                    f"index {self.path} stayed locked for {self.lock_timeout:g} s (another hook or a rebuild "
                    "is writing it): try again"
                )
        self._lock, self._depth = lock, 1
        try:
            if not self._pinned:
                with self._guard():
                    self._follow_pointer()
            yield
        finally:
            self._depth, self._lock = 0, None
            try:
                lock.release()
            except self._redis_error:
                pass  # unreachable now: the lock expires on its own within LOCK_TTL_MS

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except self._redis_error as exc:
            if isinstance(exc, self._watch_error):
                raise IndexStoreError(
                    f"index {self.path}: lost the write lock (paused longer than {LOCK_TTL_MS // 1000} s?): try again"
                ) from None
            raise IndexStoreError(
                f"Redis at {self.masked_url} failed ({type(exc).__name__}: {self._redact(str(exc))}): check "
                "index.redis_url (or PAPERLESS_REDIS), that Redis is running and reachable, and its password"
            ) from None

    def _redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text

    # -- generations -----------------------------------------------------
    def _resolve(self, create: bool) -> str:
        raw = self._r.get(self._k_current)
        if raw is not None:
            return str(raw.decode())
        if not create:
            raise _NoIndex(f"no index in {self.path}: run 'paperless-dedupe rebuild-index' to build it")
        fresh = _new_generation_id()
        if self._r.set(self._k_current, fresh, nx=True):
            self._r.sadd(self._k_generations, fresh)
            return fresh
        raw = self._r.get(self._k_current)  # another process created it first
        if raw is None:
            raise IndexStoreError(f"index {self.path} vanished while being opened: try again")
        return str(raw.decode())

    def _bind(self, generation: str) -> None:
        self.generation = generation
        base = f"{self.namespace}:gen:{generation}:"
        self._base = base
        self._k_meta = base + "meta"
        self._k_docs = base + "docs"
        self._k_df = base + "df"
        self._k_results = base + "results"

    def _k_doc(self, doc_id: int) -> str:
        return f"{self._base}doc:{doc_id}"

    def _k_band(self, key: int) -> str:
        return f"{self._base}band:{key}"

    def _k_ann(self, doc_id: int) -> str:
        return f"{self.namespace}:user:annotations:{doc_id}"

    def _follow_pointer(self) -> None:
        raw = self._r.get(self._k_current)
        if raw is not None and raw.decode() != self.generation:
            self._bind(raw.decode())  # a rebuild switched generations since we opened
            if self._compat is not None:
                self._check_compat(self._compat)

    def _keys_of(self, generation: str) -> Iterator[bytes]:
        yield from self._r.scan_iter(match=f"{self.namespace}:gen:{generation}:*", count=1000)

    def _discard(self, generation: str, *, grace_seconds: int = 0) -> None:
        batch: list[bytes] = []

        def flush() -> None:
            pipe = self._r.pipeline(transaction=False)
            for key in batch:
                if grace_seconds > 0:
                    pipe.expire(key, grace_seconds)
                else:
                    pipe.unlink(key)
            pipe.execute()
            batch.clear()

        for key in self._keys_of(generation):
            batch.append(key)
            if len(batch) >= 1000:
                flush()
        if batch:
            flush()
        self._r.srem(self._k_generations, generation)
        self._r.delete(f"{self.namespace}:building:{generation}")

    def _collect_garbage(self) -> None:
        """Drop generations left by builds that died before their switch."""
        current = self._r.get(self._k_current)
        for raw in self._r.smembers(self._k_generations):
            gen = raw.decode()
            if raw == current or gen == self.generation:
                continue
            if self._r.exists(f"{self.namespace}:building:{gen}"):
                continue  # another rebuild is writing it right now
            self._discard(gen)

    @classmethod
    def build(
        cls, url: str, *, compat: Mapping[str, str], namespace: str = NAMESPACE, lock_timeout: float = 60.0
    ) -> RedisIndex:
        """A new, empty generation that no reader sees until ``switch``."""
        gen = _new_generation_id()
        index = cls(url, namespace=namespace, lock_timeout=lock_timeout, generation=gen)
        index._building = True
        with index._guard():
            index._r.set(f"{namespace}:building:{gen}", b"1", ex=BUILD_MARKER_TTL)
            index._r.sadd(index._k_generations, gen)
            index._collect_garbage()
            index.set_meta(dict(compat) | {"redis_layout": LAYOUT_VERSION})
        return index

    @_guarded
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

    @_guarded
    def switch(self, *, grace_seconds: int = OLD_GENERATION_GRACE) -> None:
        """Make this built generation the live one; retire the old one after ``grace_seconds``."""
        if not self._building:
            raise RuntimeError("switch() is for a generation from RedisIndex.build()")
        with self.write():
            old = self._r.get(self._k_current)

            def fill(pipe: Any) -> None:
                pipe.set(self._k_current, self.generation)
                pipe.delete(f"{self.namespace}:building:{self.generation}")
                pipe.sadd(self._k_generations, self.generation)

            self._commit(fill)
            self._building = False
        if old is not None and old.decode() != self.generation:
            self._discard(old.decode(), grace_seconds=grace_seconds)

    # -- writes ----------------------------------------------------------
    def _commit(self, fill: Callable[[Any], None]) -> None:
        """One MULTI/EXEC; while we hold the lock, only if we still hold it."""
        for _attempt in range(5):
            pipe = self._r.pipeline(transaction=True)
            try:
                if self._lock is not None:
                    pipe.watch(self._k_lock)
                    if pipe.get(self._k_lock) != self._lock.token:
                        raise IndexStoreError(
                            f"index {self.path}: lost the write lock (paused longer than "
                            f"{LOCK_TTL_MS // 1000} s?): try again"
                        )
                    pipe.multi()
                fill(pipe)
                pipe.execute()
                return
            except self._watch_error:
                continue  # the renewal touched the lock key; the next round checks the token again
            finally:
                pipe.reset()
        raise self._watch_error("lock key kept changing")

    def _queue_document(self, pipe: Any, feats: Features, modified: str | None, keys: Sequence[int]) -> None:
        doc_key = self._k_doc(feats.doc_id)
        fields: dict[str, bytes | str | int] = {
            "fingerprint": feats.fingerprint,
            "word_count": feats.word_count,
            "shingle_count": feats.shingle_count,
            "tokens": "\n".join(sorted(feats.tokens)),
            "title": feats.title,
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

    @_guarded
    def put(self, feats: Features, *, modified: str | None, keys: Sequence[int]) -> None:
        """Insert or replace one document (inside ``write()``; takes the lock itself otherwise)."""
        with self.write():
            old = self._stored_tokens_and_bands(feats.doc_id)
            old_tokens, old_bands = old if old is not None else (set(), set())
            new_bands = set(keys)
            df_fill = self._df_changes(old_tokens - feats.tokens, set(feats.tokens) - old_tokens)

            def fill(pipe: Any) -> None:
                for key in sorted(old_bands - new_bands):
                    pipe.srem(self._k_band(key), feats.doc_id)
                self._queue_document(pipe, feats, modified, keys)
                df_fill(pipe)

            self._commit(fill)

    @_guarded
    def remove(self, doc_id: int) -> None:
        with self.write():
            old = self._stored_tokens_and_bands(doc_id)
            if old is None:
                return
            tokens, bands = old
            df_fill = self._df_changes(tokens, set())

            def fill(pipe: Any) -> None:
                for key in sorted(bands):
                    pipe.srem(self._k_band(key), doc_id)
                df_fill(pipe)
                pipe.delete(self._k_doc(doc_id))
                pipe.hdel(self._k_docs, str(doc_id))

            self._commit(fill)

    # -- meta ------------------------------------------------------------
    @_guarded
    def meta(self) -> dict[str, str]:
        return {k.decode(): v.decode() for k, v in self._r.hgetall(self._k_meta).items()}

    @_guarded
    def set_meta(self, values: Mapping[str, object]) -> None:
        if values:
            mapping = {k: str(v) for k, v in values.items()}
            self._commit(lambda pipe: pipe.hset(self._k_meta, mapping=mapping))

    def _check_compat(self, compat: Mapping[str, str]) -> None:
        stored = self.meta()
        if "hash_scheme" not in stored:  # a new, empty index takes the running parameters
            with self.write():
                if "hash_scheme" not in self.meta():
                    self.set_meta(dict(compat) | {"redis_layout": LAYOUT_VERSION})
                    return
            stored = self.meta()
        layout = int(stored.get("redis_layout", LAYOUT_VERSION))
        if layout > LAYOUT_VERSION:
            raise IndexMismatchError(
                f"index {self.path} has layout {layout}, newer than this version understands ({LAYOUT_VERSION}): "
                "upgrade paperless-dedupe-hook or run 'paperless-dedupe rebuild-index'"
            )
        for key in COMPAT_KEYS:
            if key in compat and stored.get(key) != str(compat[key]):
                raise IndexMismatchError(
                    f"index {self.path} was built with {key}={stored.get(key)}, the configuration says "
                    f"{compat[key]}: run 'paperless-dedupe rebuild-index'"
                )

    # -- documents -------------------------------------------------------
    @_guarded
    def count(self) -> int:
        return int(self._r.hlen(self._k_docs))

    @_guarded
    def modified_of(self) -> dict[int, str | None]:
        return {int(k): json.loads(v) for k, v in self._r.hgetall(self._k_docs).items()}

    @_guarded
    def fingerprint(self, doc_id: int) -> bytes | None:
        raw = self._r.hget(self._k_doc(doc_id), "fingerprint")
        return bytes(raw) if raw is not None else None

    @_guarded
    def candidates(self, keys: Sequence[int], *, exclude: int | None = None) -> list[int]:
        if not keys:
            return []
        members = self._r.sunion([self._k_band(k) for k in keys])
        return sorted(i for i in (int(m) for m in members) if i != exclude)

    @_guarded
    def features(self, ids: Iterable[int], num_permutations: int) -> list[Features]:
        wanted = sorted(set(ids))
        out: list[Features] = []
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            pipe = self._r.pipeline(transaction=False)
            for doc_id in chunk:
                pipe.hmget(self._k_doc(doc_id), list(_FIELDS))
            for doc_id, row in zip(chunk, pipe.execute(), strict=True):
                fp, words, shingles, sig, tokens, title = row
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
                        )
                    )
                except (ValueError, UnicodeDecodeError) as exc:
                    raise IndexCorruptError(
                        f"index {self.path}: document {doc_id} is damaged ({exc}): run 'paperless-dedupe rebuild-index'"
                    ) from None
        return out

    @_guarded
    def document_frequency(self, tokens: Iterable[str]) -> dict[str, int]:
        tokens = list(tokens)
        out: dict[str, int] = {}
        for start in range(0, len(tokens), 1000):
            chunk = tokens[start : start + 1000]
            for token, value in zip(chunk, self._r.hmget(self._k_df, chunk), strict=True):
                if value is not None:
                    out[token] = int(value)
        return out

    # -- annotations and dismissals -------------------------------------
    @contextmanager
    def annotation_lock(self, doc_ids: Iterable[int], *, timeout_seconds: float = 30.0) -> Iterator[None]:
        """Exclusive locks on documents while we write to them in Paperless, as
        SqliteIndex's: ``NS:annotate:<id>`` (``SET NX PX``, renewed while held),
        taken in id order so that two hooks never wait for each other in a circle."""
        held: list[_Lock] = []
        deadline = time.monotonic() + timeout_seconds
        try:
            with self._guard():
                for doc_id in sorted(set(doc_ids)):
                    lock = _Lock(self._r, f"{self.namespace}:annotate:{int(doc_id)}", LOCK_TTL_MS)
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

    @_guarded
    def annotated(self, doc_id: int) -> set[int]:
        return {int(m) for m in self._r.hkeys(self._k_ann(doc_id))}

    @_guarded
    def record_annotation(self, doc_id: int, match_ids: Iterable[int], at: str) -> None:
        matches = list(match_ids)
        if not matches:
            return

        def fill(pipe: Any) -> None:
            for match in matches:
                pipe.hsetnx(self._k_ann(doc_id), str(match), at)
            pipe.sadd(self._k_annotated, doc_id)

        self._commit(fill)

    @_guarded
    def dismissed_pairs(self) -> set[tuple[int, int]]:
        out = set()
        for raw in self._r.hkeys(self._k_dismissed):
            a, _, b = raw.decode().partition(":")
            out.add((int(a), int(b)))
        return out

    @_guarded
    def dismiss(self, a: int, b: int, reason: str, at: str) -> None:
        low, high = min(a, b), max(a, b)
        self._r.hsetnx(self._k_dismissed, f"{low}:{high}", json.dumps({"reason": reason, "at": at}))

    # -- results of the last rebuild ------------------------------------
    @_guarded
    def store_results(self, pairs: Sequence[Mapping[str, Any]], groups: Sequence[Mapping[str, Any]]) -> None:
        by_pair = {(p["a"], p["b"]): dict(p) for p in pairs}
        by_primary = {
            g["primary"]: {"primary": g["primary"], "members": list(g["members"]), "confidence": g["confidence"]}
            for g in groups
        }
        body = json.dumps({"pairs": list(by_pair.values()), "groups": list(by_primary.values())})
        self._commit(lambda pipe: pipe.set(self._k_results, body))

    @_guarded
    def results(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        raw = self._r.get(self._k_results)
        if raw is None:
            return [], []
        try:
            data = json.loads(raw)
        except ValueError as exc:
            raise IndexCorruptError(
                f"index {self.path}: stored results are damaged ({exc}): run 'paperless-dedupe rebuild-index'"
            ) from None
        pairs = sorted(data["pairs"], key=lambda p: (-p["score"], p["a"], p["b"]))
        groups = sorted(data["groups"], key=lambda g: (-g["confidence"], g["primary"]))
        return pairs, groups

    @_guarded
    def copy_user_state_from(self, other: RedisIndex) -> None:
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


def probe(url: str, *, namespace: str = NAMESPACE) -> dict[str, Any]:
    """Whether a live index exists in Redis, without checking its parameters."""
    try:
        index = RedisIndex(url, namespace=namespace)
    except _NoIndex:
        return {"exists": False, "generation": None}
    with index:
        return {"exists": True, "generation": index.generation}
