"""What the Redis index is built from, apart from the index itself: names and
timings, URL masking, the fenced write lock and the error guard.

Pure Python: importing this module does not import ``redis`` (``config`` masks
URLs with it on every run).
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import wraps
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from .._errors import IndexStoreError

NAMESPACE = "paperless-dedupe"
LAYOUT_VERSION = 2  # of the key layout above; stored in meta as ``redis_layout`` (2: no samples)
LOCK_TTL_MS = 30_000  # a killed writer blocks the others this long at most
BUILD_MARKER_TTL = 3600  # seconds; refreshed while a rebuild writes
OLD_GENERATION_GRACE = 600  # seconds the replaced generation stays readable
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
_RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"

P = ParamSpec("P")
R = TypeVar("R")


class Guarded(Protocol):
    def _guard(self) -> AbstractContextManager[None]: ...


G = TypeVar("G", bound=Guarded)


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


def secrets_of(url: str) -> list[str]:
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


class NoIndex(IndexStoreError):
    """Nothing at ``NS:current``: no rebuild or hook has created the index yet."""


def new_generation_id() -> str:
    return f"{int(time.time() * 1000):x}-{os.urandom(4).hex()}"


def guarded(method: Callable[Concatenate[G, P], R]) -> Callable[Concatenate[G, P], R]:
    """Turn any redis-py error raised by ``method`` into an IndexStoreError."""

    @wraps(method)
    def wrapper(self: G, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self._guard():
            return method(self, *args, **kwargs)

    return wrapper


class Lock:
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
