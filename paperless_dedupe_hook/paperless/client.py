"""A small synchronous Paperless-NGX REST client on httpx (the hook's hot path).

* Authenticates with ``Authorization: Token <key>`` and negotiates the API version
  with ``Accept: application/json; version=N``: 10 first, 9 after a 406 (Paperless
  2.20 accepts 1-9, 3.x accepts 9 and 10).
* Never follows redirects: a 302 to ``/accounts/login/`` means "no such endpoint".
* Retries a bounded number of times with exponential backoff and jitter on
  connection errors, timeouts, 429 (``Retry-After``) and 500/502/503/504; never on
  400/401/403/404/406.  Requests that are not idempotent (a note, a new tag or
  field) are retried only when the server cannot have acted on them.
* ``deadline`` (a ``time.monotonic()`` value) bounds everything: no request, retry
  or backoff starts after it, and each request's timeout is capped by the time left.
* Errors are one line with the status, method, URL path, document id and a fix, and
  never contain the token; httpx exceptions are not chained (they hold the headers).
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Iterator, Mapping
from typing import Any

from .. import __version__
from .._errors import ConfigError, PaperlessResponseError
from ._document_api import DocumentCalls
from ._http import (
    REPORT_FIX,
    Failure,
    deadline_failure,
    is_plain_http_answer,
    looks_like_html,
    retry_after_seconds,
    status_failure,
    transport_failure,
)
from ._listing import DocumentListing
from ._resolve_api import ResolveCalls
from ._review_api import ReviewCalls


def _import_httpx_without_cli() -> None:
    """Import httpx with its optional command line (click, rich, pygments) blocked.

    httpx's ``__init__`` tries ``from ._main import main``, which imports click, rich
    and pygments when they are installed (~100 ms).  A ``None`` entry in
    ``sys.modules`` makes ``import click`` fail at once, so httpx falls back to its stub.
    """
    if "httpx" in sys.modules:
        return
    block = "click" not in sys.modules
    if block:
        sys.modules["click"] = None  # type: ignore[assignment]
    try:
        import httpx  # noqa: F401
    finally:
        if block and "click" in sys.modules and sys.modules["click"] is None:
            del sys.modules["click"]


_import_httpx_without_cli()
import httpx  # noqa: E402

from ._plain_http import PlainHTTPTransport, proxy_in_environment  # noqa: E402 - it imports httpx

__all__ = ["PaperlessClient"]

_VERSIONS = (10, 9)
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_SAFE_RETRY_STATUSES = frozenset({429, 503})  # the server did not act on the request
_MAX_BACKOFF = 10.0
_MAX_RETRY_AFTER = 30.0


def _lone_surrogates_replaced(text: str) -> str:
    """JSON text with each unpaired ``\\uD800``-``\\uDFFF`` escape turned into U+FFFD.

    ``json.loads`` decodes such escapes into lone surrogates, which no UTF-8 encoder
    (SQLite, httpx, print) accepts: one odd title would stop a hook or a whole rebuild.
    """
    import re

    return re.sub(
        r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
        r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}",
        r"\\ufffd", text)


class PaperlessClient(DocumentCalls, DocumentListing, ResolveCalls, ReviewCalls):
    """Talks to one Paperless server with one token.  Not thread-safe; cheap to create."""

    api_version: int | None
    server_version: str | None

    def __init__(
        self,
        *,
        url: str,
        token: str,
        timeout_seconds: float = 30.0,
        verify_tls: bool = True,
        max_retries: int = 3,
        backoff_seconds: float = 0.5,
        deadline: float | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        base = url.strip().rstrip("/")
        try:
            parsed = httpx.URL(base)
        except (httpx.InvalidURL, TypeError):
            parsed = None
        if parsed is None or parsed.scheme not in ("http", "https") or not parsed.host:
            raise ConfigError(
                f"paperless.url {base[:100]!r} is not an http(s) URL: set paperless.url or "
                "PAPERLESS_DEDUPE_URL, e.g. http://localhost:8000"
            )
        token = token.strip()
        if not token:
            raise ConfigError("no Paperless API token: set paperless.token, paperless.token_file or PAPERLESS_DEDUPE_TOKEN")
        if not token.isascii() or not token.isprintable() or any(c.isspace() for c in token):
            raise ConfigError(
                "the Paperless API token contains spaces or non-ASCII characters: set paperless.token or "
                "PAPERLESS_DEDUPE_TOKEN to the key alone, without 'Token '"
            )
        if timeout_seconds <= 0 or max_retries < 0 or backoff_seconds < 0:
            raise ValueError("timeout_seconds must be > 0, max_retries and backoff_seconds >= 0")
        port = f":{parsed.port}" if parsed.port else ""
        host = f"[{parsed.host}]" if ":" in parsed.host else parsed.host
        self._prefix = parsed.path.rstrip("/")
        self._display_url = self._base = f"{parsed.scheme}://{host}{port}{self._prefix}"
        self._token = token
        self._timeout = float(timeout_seconds)
        self._max_retries = int(max_retries)
        self._backoff = float(backoff_seconds)
        self._deadline = deadline
        self._candidate = _VERSIONS[0]
        self._has_root = True
        self._id_gt: bool | None = None
        self.api_version = None
        self.server_version = None
        if transport is None and parsed.scheme == "http" and not proxy_in_environment():
            # httpx's own transport imports httpcore, h11 and anyio (~15 ms of every hook).
            # httpx reads HTTP_PROXY and the like only without a transport of ours.
            transport = PlainHTTPTransport()
        self._http = httpx.Client(
            timeout=httpx.Timeout(self._timeout),
            # Loading the CA bundle costs 70-120 ms on every hook run.  A plain-http URL
            # never negotiates TLS (redirects are not followed), so it skips the bundle;
            # https always verifies unless paperless.verify_tls = false.
            verify=verify_tls if parsed.scheme == "https" else False,
            follow_redirects=False,
            transport=transport,
            headers={"Authorization": f"Token {token}", "User-Agent": f"paperless-dedupe-hook/{__version__}"},
        )

    def __repr__(self) -> str:
        return f"PaperlessClient(url={self._display_url!r}, api_version={self.api_version!r})"

    def __enter__(self) -> PaperlessClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    # -- transport ------------------------------------------------------------------

    def _timeout_now(self) -> tuple[float, bool] | None:
        """(timeout for the next request, whether the deadline capped it); None when past it."""
        if self._deadline is None:
            return self._timeout, False
        left = self._deadline - time.monotonic()
        if left <= 0:
            return None
        return (left, True) if left < self._timeout else (self._timeout, False)

    def _send(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, str | int] | None = None,
        body: Any = None,
        document_id: int | None = None,
        idempotent: bool = True,
        form: Mapping[str, str] | None = None,
        files: Mapping[str, tuple[str, bytes, str]] | None = None,
    ) -> httpx.Response:
        """One logical request: version negotiation, retries, deadline.  Any status returns."""
        full_path = self._prefix + path
        where = f"{method} {full_path}"
        attempt = 0
        while True:
            timing = self._timeout_now()
            failure: Failure
            retryable = False
            retry_after: float | None = None
            if timing is None:
                raise deadline_failure().build(where, full_path, document_id, self._token, attempt or 1)
            timeout, capped = timing
            version = self.api_version or self._candidate
            try:
                resp = self._http.request(
                    method, self._base + path, params=params, json=body, data=form, files=files, timeout=timeout,
                    headers={"Accept": f"application/json; version={version}"},
                )
            except httpx.TimeoutException as exc:
                failure = transport_failure(type(exc).__name__, str(exc), self._display_url, timeout, capped, self._token)
                retryable = idempotent or isinstance(exc, httpx.ConnectTimeout)
            except httpx.TransportError as exc:
                failure = transport_failure(type(exc).__name__, str(exc), self._display_url, timeout, capped, self._token)
                retryable = idempotent or isinstance(exc, httpx.ConnectError)
                if "CERTIFICATE_VERIFY_FAILED" in str(exc) or is_plain_http_answer(str(exc)) or "HTTPS on that port" in failure.fix:
                    retryable = False  # the same certificate (or plain-HTTP port) fails again: no retry can help
            except httpx.HTTPError as exc:  # e.g. DecodingError: a body that is not what its headers say
                failure = Failure(PaperlessResponseError, "Paperless answered an undecodable body", None, REPORT_FIX,
                                  type(exc).__name__)
            else:
                server = resp.headers.get("x-version")
                if server:
                    self.server_version = server
                status = resp.status_code
                if status == 406 and self.api_version is None and version != _VERSIONS[-1]:
                    self._candidate = _VERSIONS[_VERSIONS.index(version) + 1]
                    continue
                if status not in (_RETRY_STATUSES if idempotent else _SAFE_RETRY_STATUSES):
                    if status < 300 and self.api_version is None:
                        self.api_version = version
                    return resp
                failure = status_failure(status, resp.headers, resp.content, document_id, method=method, path=path,
                                         prefix=self._prefix)
                retryable = True
                if status == 429:
                    retry_after = retry_after_seconds(resp.headers.get("retry-after"))
            if not retryable or attempt >= self._max_retries:
                raise failure.build(where, full_path, document_id, self._token, attempt + 1)
            delay = self._backoff * (2**attempt)
            if retry_after is not None:
                delay = max(delay, retry_after) if retry_after > 0 else 0.0
            delay = min(delay, _MAX_RETRY_AFTER if retry_after is not None else _MAX_BACKOFF)
            delay += random.uniform(0.0, 0.1 * self._backoff)
            if self._deadline is not None and time.monotonic() + delay >= self._deadline:
                raise failure.build(where, full_path, document_id, self._token, attempt + 1)
            time.sleep(delay)
            attempt += 1

    def _parse(self, resp: httpx.Response, where: str, path: str, document_id: int | None) -> Any:
        """The JSON body of a wanted response; PaperlessResponseError for anything else."""
        ctype = resp.headers.get("content-type", "")
        text = resp.content.decode("utf-8", errors="replace")
        problem = ""
        if "json" not in ctype.lower():
            kind = "an HTML page" if looks_like_html(text) else f"{ctype or 'no content type'}"
            problem = f"Paperless answered {kind} instead of JSON"
            fix = ("paperless.url must point to the Paperless web server itself (with its path prefix, if any), "
                   "not to a proxy or login page")
        else:
            if "\\ud" in text or "\\uD" in text:
                text = _lone_surrogates_replaced(text)
            try:
                return json.loads(text)
            except ValueError:
                problem, fix = "Paperless answered malformed JSON", REPORT_FIX
        raise Failure(PaperlessResponseError, problem, resp.status_code, fix).build(
            where, path, document_id, self._token)

    def _call(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, str | int] | None = None,
        body: Any = None,
        document_id: int | None = None,
        idempotent: bool = True,
        ok: tuple[int, ...] = (200,),
    ) -> Any:
        resp = self._send(method, path, params=params, body=body, document_id=document_id, idempotent=idempotent)
        if resp.status_code not in ok:
            raise status_failure(resp.status_code, resp.headers, resp.content, document_id, method=method, path=path,
                                 prefix=self._prefix).build(
                f"{method} {self._prefix}{path}", self._prefix + path, document_id, self._token)
        return self._parse(resp, f"{method} {self._prefix}{path}", self._prefix + path, document_id)

    def _shape_error(self, what: str, method: str, path: str, document_id: int | None = None) -> Exception:
        return Failure(PaperlessResponseError, f"Paperless answered {what}", 200, REPORT_FIX).build(
            f"{method} {self._prefix}{path}", self._prefix + path, document_id, self._token)

    def _dict(self, data: Any, method: str, path: str, document_id: int | None = None,
              key: str | None = None) -> dict[str, Any]:
        if not isinstance(data, dict) or (key is not None and key not in data):
            detail = f"an object with '{key}'" if key else "an object"
            raise self._shape_error(f"something other than {detail}", method, path, document_id)
        return data

    def _list(self, data: Any, method: str, path: str, document_id: int | None = None) -> list[dict[str, Any]]:
        if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
            raise self._shape_error("something other than a list of objects", method, path, document_id)
        return data

    def _pages(self, path: str, params: Mapping[str, str | int]) -> Iterator[dict[str, Any]]:
        """Follow a paginated list by page number (``next`` carries the public host, not ours).
        For short lists (tags, fields) only: see ``iter_documents`` for documents."""
        page = 1
        while True:
            got = self._page(path, {**params, "page": page})
            if got is None:
                return  # "Invalid page.": the list shrank while we read it
            data, results = got
            yield from results
            if not data.get("next") or not results:
                return
            page += 1
