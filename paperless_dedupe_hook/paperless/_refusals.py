"""What a 403 or 404 from the server means, told from what Paperless really sends.

Private to the client.  Paperless-ngx 3.0.5 refuses in four shapes (the recorded
exchanges in ``paperless-api/permissions.json``), and other servers in others:

* a missing model permission: JSON 403 ``{"detail": "You do not have permission to
  perform this action."}``, with ``X-Version``: the permission follows from the
  method and path (``GET /api/tags/`` needs ``view_tag``);
* a document the user may not see or change: 403 ``text/html`` whose body is the bare
  text ``Insufficient permissions`` (``... to view notes``, ``... to create notes``),
  still with ``X-Version`` (``/root/``, notes, ``bulk_edit``);
* a link to a document the user may not change (Paperless 3.0.5's
  ``validate_documentlink_targets`` wants the change permission on every target, since it
  writes the reverse link there; recorded for targets the user cannot even see): JSON 403
  ``Insufficient permissions.``;
* a POST to an unknown path: an HTML page from Django's CSRF check, no ``X-Version``;
* a proxy or another web server: an HTML page (403 or 404), no ``X-Version``.

A detail GET of a document the user cannot see is a JSON 404 like a missing one:
those two cannot be told apart, and the message names both.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .._errors import PaperlessAuthError, PaperlessError, PaperlessPermissionError, PaperlessResponseError

GRANT_FIX = ("grant it to the user in Paperless (Users & Groups, the user's permissions) or use a superuser's token; "
             "'paperless-dedupe doctor' lists every permission needed")
SEE_FIX = ("share the document with the token's user in Paperless (its permissions: view), or use the token of "
           "its owner or of a superuser")
CHANGE_FIX = ("give the token's user the change permission on the document in Paperless (its owner or a superuser "
              "can), or use a superuser's token")
LINK_FIX = ("give the token's user the change permission on the linked documents in Paperless (their owner or a "
            "superuser can), or use a superuser's token")
NOT_PAPERLESS_FIX = ("check paperless.url (PAPERLESS_DEDUPE_URL): it must be the Paperless web server's address, "
                     "with its path prefix if it has one, e.g. http://localhost:8000")

# (method or "*", path pattern without the prefix) -> the model permission Paperless checks
_MODEL_PERMISSIONS: tuple[tuple[str, str, str], ...] = (
    ("*", r"/api/ui_settings/", "view_uisettings"),
    ("POST", r"/api/documents/bulk_edit/", "change_document"),
    ("GET", r"/api/documents/(\d+/(root/)?)?", "view_document"),
    ("PATCH", r"/api/documents/\d+/", "change_document"),
    ("PUT", r"/api/documents/\d+/", "change_document"),
    ("GET", r"/api/documents/\d+/notes/", "view_note"),
    ("POST", r"/api/documents/\d+/notes/", "add_note"),
    ("DELETE", r"/api/documents/\d+/notes/", "delete_note"),
    ("GET", r"/api/tags/(\d+/)?", "view_tag"),
    ("POST", r"/api/tags/", "add_tag"),
    ("PATCH", r"/api/tags/\d+/", "change_tag"),
    ("GET", r"/api/custom_fields/(\d+/)?", "view_customfield"),
    ("POST", r"/api/custom_fields/", "add_customfield"),
    ("GET", r"/api/users/", "view_user"),
)


def model_permission(method: str, path: str) -> str | None:
    """The Paperless permission codename a request needs (``path`` without the prefix)."""
    for want, pattern, codename in _MODEL_PERMISSIONS:
        if want in ("*", method) and re.fullmatch(pattern, path):
            return codename
    return None


def _json_detail(content: bytes) -> str | None:
    try:
        data: Any = json.loads(content.decode("utf-8", errors="replace"))
    except ValueError:
        return None
    return data["detail"] if isinstance(data, dict) and isinstance(data.get("detail"), str) else None


def from_paperless(headers: Any) -> bool:
    """Paperless's API answers carry ``X-Version`` (also its 404s and its bare-text 403s);
    a proxy's or another server's pages do not."""
    return bool(headers.get("x-version") or headers.get("x-api-version"))


def refusal(status: int, headers: Any, content: bytes, *, method: str, path: str, document_id: int | None,
            looks_like_html: bool) -> tuple[type[PaperlessError], str, str, str] | None:
    """(exception class, what, fix, detail) for a 403 or 404; None when the caller's
    generic message fits."""
    ctype = str(headers.get("content-type", "")).lower()
    text = content.decode("utf-8", errors="replace").strip()
    doc = f"document {document_id}" if document_id is not None else "a document"
    if status == 403:
        if "json" in ctype:
            detail = _json_detail(content) or ""
            if detail == "Insufficient permissions.":  # a documentlink to a document the user may not change
                return (PaperlessPermissionError,
                        f"The token's user may not change a document linked from {doc} (Paperless writes the "
                        "reverse link on it)", LINK_FIX, detail)
            permission = model_permission(method, path)
            if permission is not None:
                return (PaperlessPermissionError, f"The token's user lacks the Paperless permission {permission}",
                        GRANT_FIX, detail)
            return None
        if text.startswith("Insufficient permissions") and not looks_like_html:
            # Paperless's object-permission refusal: a bare text body sent as text/html.
            if "create" in text or path.endswith("/bulk_edit/"):
                return PaperlessPermissionError, f"The token's user may not change {doc}", CHANGE_FIX, text
            return PaperlessPermissionError, f"The token's user may not see {doc}", SEE_FIX, text
        if "csrf" in text.lower():
            return (PaperlessResponseError, "Paperless refused the request at its CSRF check, as it does for a "
                    "POST to a path it does not know", "the endpoint does not exist there: " + NOT_PAPERLESS_FIX, "")
        if not from_paperless(headers):
            return (PaperlessAuthError, "A proxy or web server in front of Paperless refused the request",
                    "check the proxy's access rules for the API, or set paperless.url to the Paperless web server "
                    "itself", "an HTML page" if looks_like_html else text[:120])
        return None
    if status == 404 and not from_paperless(headers):
        return (PaperlessResponseError, "A server that is not Paperless (no X-Version header) answered",
                NOT_PAPERLESS_FIX, "an HTML page" if looks_like_html else text[:120])
    return None
