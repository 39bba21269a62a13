"""Error building for the Paperless client: one-line messages, no token, no chains.

Private to :mod:`paperless_dedupe_hook.paperless.client`.  Everything here works on plain
values (status, headers, body bytes) so it never needs to hold an httpx exception,
whose request object carries the ``Authorization`` header.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from .._errors import (
    PaperlessAuthError,
    PaperlessConnectionError,
    PaperlessError,
    PaperlessNotFound,
    PaperlessPermissionError,
    PaperlessResponseError,
    PaperlessTimeout,
    PaperlessVersionError,
    redact,
)
from ._refusals import model_permission, refusal

TOKEN_FIX = "set paperless.token or PAPERLESS_DEDUPE_TOKEN"
URL_FIX = "check paperless.url (PAPERLESS_DEDUPE_URL) and that Paperless is running"
REPORT_FIX = "this Paperless version answers differently than expected; please report it with the output of 'paperless-dedupe doctor'"
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


def one_line(text: str, limit: int = 200) -> str:
    """Collapse whitespace and cut ``text`` to ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Failure:
    """A failed attempt, turned into an exception only when it is final.

    (A plain class, not a dataclass: importing dataclasses costs ~6 ms on the hot path.)
    """

    __slots__ = ("cls", "what", "status", "fix", "detail", "permission")

    def __init__(self, cls: type[PaperlessError], what: str, status: int | None, fix: str, detail: str = "",
                 permission: str | None = None) -> None:
        self.cls = cls
        self.what = what
        self.status = status
        self.fix = fix
        self.detail = detail
        self.permission = permission

    def build(self, where: str, path: str, document_id: int | None, token: str, attempts: int = 1) -> PaperlessError:
        status = f" ({self.status})" if self.status is not None else ""
        doc = f" (document {document_id})" if document_id is not None else ""
        tries = f" after {attempts} attempts" if attempts > 1 else ""
        detail = f" [{self.detail}]" if self.detail else ""
        message = one_line(redact(f"{self.what}{status} for {where}{doc}{tries}{detail}: {self.fix}", token), 600)
        if issubclass(self.cls, PaperlessPermissionError):
            return self.cls(message, status=self.status, path=path, document_id=document_id,
                            permission=self.permission)
        return self.cls(message, status=self.status, path=path, document_id=document_id)


def body_detail(content: bytes, content_type: str) -> str:
    """A short, one-line description of a response body for an error message."""
    text = content.decode("utf-8", errors="replace")
    if "json" in content_type.lower():
        try:
            data = json.loads(text)
        except ValueError:
            return one_line(text, 120)
        if isinstance(data, dict) and isinstance(data.get("detail"), str):
            return one_line(data["detail"])
        return one_line(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    if looks_like_html(text):
        return "an HTML page"
    return one_line(text, 120)


def looks_like_html(text: str) -> bool:
    head = text.lstrip()[:200].lower()
    return head.startswith(("<!doctype html", "<html")) or "<html" in head


def is_login_redirect(status: int, location: str) -> bool:
    return status in _REDIRECTS and "/accounts/login" in location


def status_failure(status: int, headers: Any, content: bytes, document_id: int | None, *,
                   method: str = "", path: str = "", prefix: str = "") -> Failure:
    """Map an unwanted HTTP status to the exception the caller gets (``path``: the API
    path without ``prefix``, the URL's path prefix)."""
    ctype = str(headers.get("content-type", ""))
    detail = body_detail(content, ctype)
    if status in (403, 404):
        text = content[:400].decode("utf-8", errors="replace")
        told = refusal(status, headers, content, method=method, path=path, document_id=document_id,
                       looks_like_html=looks_like_html(text))
        if told is not None:
            cls, what, fix, why = told
            permission = model_permission(method, path) if "lacks the Paperless permission" in what else None
            return Failure(cls, what, status, fix, why, permission)
    if status in _REDIRECTS:
        location = one_line(str(headers.get("location", "")), 160)
        if is_login_redirect(status, location) and prefix.rstrip("/").endswith("/api"):
            return Failure(
                PaperlessResponseError, "Paperless redirected to its login page", status,
                f"paperless.url ends in {prefix.rstrip('/')[-4:]}/: set it to the server's address without /api "
                "(e.g. http://localhost:8000); the client adds /api/ itself",
            )
        if is_login_redirect(status, location):
            return Failure(
                PaperlessResponseError, "Paperless redirected to its login page", status,
                "the endpoint does not exist on this Paperless version, or paperless.url lacks the "
                "path prefix (PAPERLESS_FORCE_SCRIPT_NAME); check paperless.url",
            )
        return Failure(PaperlessResponseError, f"Paperless redirected to {location}", status,
                       "set paperless.url to the address it redirects to")
    if status == 401:
        return Failure(PaperlessAuthError, "Paperless refused the token", status, TOKEN_FIX, detail)
    if status == 403:
        return Failure(PaperlessAuthError, "The token's user lacks a Paperless permission", status,
                       "give the user the permissions 'paperless-dedupe doctor' lists, or use a superuser's token",
                       detail)
    if status == 404:
        if document_id is not None:
            return Failure(PaperlessNotFound, f"Paperless has no document {document_id}", status,
                           "it was deleted or moved to the trash, or the token's user cannot see it", detail)
        return Failure(PaperlessNotFound, "Paperless found nothing", status,
                       "the object was deleted meanwhile or the token's user cannot see it", detail)
    if status == 406:
        return Failure(PaperlessVersionError, "Paperless accepts neither API version 10 nor 9", status,
                       "use Paperless-ngx 2.x or newer", detail)
    if status == 400:
        from ._tls_probe import HTTPS_PORT_FIX, says_https_port

        if says_https_port(content):
            return Failure(PaperlessConnectionError, "A server that speaks HTTPS answered a plain HTTP request",
                           status, HTTPS_PORT_FIX, detail)
    if status == 429:
        return Failure(PaperlessResponseError, "Paperless kept rate-limiting the requests", status,
                       "try again later or raise the rate limit of the proxy in front of Paperless", detail)
    if status == 504:
        return Failure(PaperlessTimeout, "The proxy in front of Paperless timed out", status,
                       "check the Paperless web server's load and the proxy's timeout", detail)
    if status in (502, 503):
        return Failure(PaperlessConnectionError, "Paperless is unavailable behind its proxy", status,
                       "check that the Paperless web server is running", detail)
    if status >= 500:
        return Failure(PaperlessResponseError, "Paperless failed with an internal error", status,
                       "see paperless.log on the server and try again", detail)
    return Failure(PaperlessResponseError, "Paperless rejected the request", status, REPORT_FIX, detail)


def transport_failure(exc_name: str, exc_text: str, display_url: str, timeout: float, capped: bool,
                      token: str) -> Failure:
    """Describe an httpx transport error from its name and text only (no request object)."""
    text = one_line(redact(f"{exc_name}: {exc_text}" if exc_text else exc_name, token), 160)
    if "Timeout" in exc_name:
        if capped:
            return Failure(PaperlessTimeout, f"Paperless at {display_url} did not answer within the time left "
                           f"before the deadline ({timeout:.1f} s)", None,
                           "raise hook.timeout_seconds or check the Paperless server's load", text)
        return Failure(PaperlessTimeout, f"Paperless at {display_url} did not answer within {timeout:g} s", None,
                       "raise paperless.timeout_seconds or check the Paperless server's load", text)
    fix = URL_FIX
    from ._tls_probe import HTTPS_PORT_FIX, speaks_tls

    if "Timeout" not in exc_name and speaks_tls(display_url, exc_text):
        fix = HTTPS_PORT_FIX
    elif is_plain_http_answer(exc_text):
        fix = ("the server speaks plain HTTP on that port: use http:// in paperless.url, or the port where "
               "Paperless (or its proxy) serves HTTPS")
    elif "SSL" in exc_text or "CERTIFICATE" in exc_text.upper():
        fix = "fix the server's TLS certificate or set paperless.verify_tls = false"
    return Failure(PaperlessConnectionError, f"Paperless at {display_url} is unreachable", None, fix, text)


def is_plain_http_answer(exc_text: str) -> bool:
    """An https:// URL pointed at a plain-HTTP port: OpenSSL reads the HTTP answer as
    a TLS record and calls it a wrong version (or record layer, or length) error."""
    text = exc_text.upper()
    return any(sign in text for sign in ("WRONG_VERSION_NUMBER", "WRONG VERSION NUMBER", "RECORD LAYER FAILURE",
                                         "RECORD_LAYER_FAILURE", "PACKET LENGTH TOO LONG", "HTTP_REQUEST"))


def deadline_failure() -> Failure:
    return Failure(PaperlessTimeout, "The time budget (deadline) ran out", None,
                   "raise hook.timeout_seconds or check the Paperless server's load")


def retry_after_seconds(value: str | None) -> float | None:
    """Parse a Retry-After header (seconds or an HTTP date); None when absent or invalid."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass  # not delay-seconds: the other form RFC 9110 allows is an HTTP date, parsed below
    from email.utils import parsedate_to_datetime  # rare: only for HTTP-date Retry-After values

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def fields_param(fields: Sequence[str] | None) -> str:
    names = [str(f).strip() for f in (fields or ()) if str(f).strip()]
    if "id" not in names:
        names.insert(0, "id")
    return ",".join(names)


def utc_param(value: str) -> str:
    """``modified__gt`` value: aware times as UTC ``...Z`` (a raw ``+`` would decode to a space)."""
    text = value.strip()
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"modified_after {value!r} is not an ISO 8601 date/time") from None
    if when.tzinfo is None:
        return text  # naive: the server's time zone, as Paperless reads it
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")

