"""The index in Redis (``index.backend = "redis"``): one index shared by several
hosts or containers, with the methods and meaning of :class:`sqlite.SqliteIndex`.

Key layout (``NS`` = ``paperless-dedupe`` by default)::

  NS:current                 string  id of the live generation (readers resolve it once per open)
  NS:lock                    string  the write lock: a random token, ``SET NX PX``, renewed while held
  NS:annotate:<id>           string  per-document lock while a hook writes to that document in Paperless
  NS:generations             set     generation ids that exist (live, or being built)
  NS:building:<gen>          string  present (with a TTL) while a rebuild writes <gen>
  NS:gen:<gen>:meta          hash    compat keys and run bookkeeping (as SQLite's ``meta``)
  NS:gen:<gen>:docs          hash    doc id -> JSON of its ``modified`` (count = HLEN)
  NS:gen:<gen>:doc:<id>      hash    fingerprint, word_count, shingle_count, signature, tokens, places,
                                     title, bands (the band keys, to remove them again); no text
  NS:gen:<gen>:band:<key>    set     doc ids whose signature has this band key
  NS:gen:<gen>:df            hash    token -> in how many documents it occurs
  NS:gen:<gen>:results       string  JSON of the last rebuild's pairs and groups
  NS:gen:<gen>:changes       list    doc ids put or removed, in order: a full rebuild that
                                     started at length N carries the rest into its generation
  NS:gen:<gen>:picture:<id>  hash    a first-page picture's signature (_redis_pictures)
  NS:gen:<gen>:pband:<key>   set     doc ids whose picture has this lookup key
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

Modules: this one holds the connection, the write lock, generations and meta;
``_redis_documents`` the documents, bands and token counts; ``_redis_user`` user
state and results; ``_redis_support`` names, URL masking and the lock primitive.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from .._errors import IndexBusyError, IndexMismatchError, IndexStoreError
from ._redis_documents import RedisDocuments
from ._redis_journal import RedisJournal
from ._redis_pictures import RedisPictures
from ._redis_support import (
    BUILD_MARKER_TTL,
    LOCK_TTL_MS,
    NAMESPACE,
    OLD_GENERATION_GRACE,
    Lock,
    NoIndex,
    guarded,
    mask_url,
    new_generation_id,
    secrets_of,
)
from ._redis_user import RedisUserState
from .sqlite import COMPAT_KEYS

__all__ = ["NAMESPACE", "OLD_GENERATION_GRACE", "RedisIndex", "mask_url", "probe"]

LAYOUT_VERSION = 2  # of the key layout above; stored in meta as ``redis_layout`` (2: no samples)


class RedisIndex(RedisDocuments, RedisJournal, RedisPictures, RedisUserState):
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
        self._secrets = secrets_of(url)
        self._compat = dict(compat) if compat is not None else None
        self._depth = 0
        self._lock: Lock | None = None
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
            lock = Lock(self._r, self._k_lock, LOCK_TTL_MS)
            if not lock.acquire(self.lock_timeout):
                raise IndexBusyError(
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
            raise NoIndex(f"no index in {self.path}: run 'paperless-dedupe rebuild-index' to build it")
        fresh = new_generation_id()
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
        self._k_changes = base + "changes"

    def _k_doc(self, doc_id: int) -> str:
        return f"{self._base}doc:{doc_id}"

    def _k_band(self, key: int) -> str:
        return f"{self._base}band:{key}"

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
        gen = new_generation_id()
        index = cls(url, namespace=namespace, lock_timeout=lock_timeout, generation=gen)
        index._building = True
        with index._guard():
            index._r.set(f"{namespace}:building:{gen}", b"1", ex=BUILD_MARKER_TTL)
            index._r.sadd(index._k_generations, gen)
            index._collect_garbage()
            index.set_meta(dict(compat) | {"redis_layout": LAYOUT_VERSION})
        return index

    @guarded
    def switch(self, *, grace_seconds: int = OLD_GENERATION_GRACE, since: tuple[str, int] | None = None) -> int:
        """Make this built generation the live one; retire the old one after ``grace_seconds``.
        First, under the write lock, carry over what hooks put or removed in the live
        generation after ``since`` (a ``change_mark`` taken before the build read its
        documents; None: nothing).  Returns how many documents were carried over."""
        if not self._building:
            raise RuntimeError("switch() is for a generation from RedisIndex.build()")
        carried = 0
        with self.write():
            old = self._r.get(self._k_current)
            if (since is not None and old is not None and old.decode() != self.generation
                    and self._same_parameters(old.decode())):
                carried = self.carry_from(old.decode(), self.changed_in(old.decode(), since))

            def fill(pipe: Any) -> None:
                pipe.set(self._k_current, self.generation)
                pipe.delete(f"{self.namespace}:building:{self.generation}")
                pipe.sadd(self._k_generations, self.generation)

            self._commit(fill)
            self._building = False
        if old is not None and old.decode() != self.generation:
            self._discard(old.decode(), grace_seconds=grace_seconds)
        return carried

    def _same_parameters(self, generation: str) -> bool:
        theirs = {k.decode(): v.decode() for k, v in self._r.hgetall(f"{self.namespace}:gen:{generation}:meta").items()}
        ours = self.meta()
        return bool(theirs.get("hash_scheme")) and all(
            theirs.get(k) == ours.get(k) for k in COMPAT_KEYS if k != "schema_version")

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

    # -- meta ------------------------------------------------------------
    @guarded
    def meta(self) -> dict[str, str]:
        return {k.decode(): v.decode() for k, v in self._r.hgetall(self._k_meta).items()}

    @guarded
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



def probe(url: str, *, namespace: str = NAMESPACE) -> dict[str, Any]:
    """Whether a live index exists in Redis, without checking its parameters."""
    try:
        index = RedisIndex(url, namespace=namespace)
    except NoIndex:
        return {"exists": False, "generation": None}
    with index:
        return {"exists": True, "generation": index.generation}
