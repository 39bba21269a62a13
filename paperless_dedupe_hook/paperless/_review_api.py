"""The review aids of the REST API, as a mixin of :class:`client.PaperlessClient`:
thumbnails, saved views and the user's UI settings (``paperless-api/review.json``).

* ``GET /api/documents/{id}/thumb/`` answers ``image/webp`` (the first page) to the
  API's own Accept header; ``Accept: image/*`` gets a 406, so none is sent here.
* A saved view is unique per owner and name (400 ``{"error": "Object violates owner /
  name unique constraint"}``); look it up with ``name__iexact`` first.
* In 3.x whether a view shows on the dashboard or in the sidebar is in the user's UI
  settings (``settings.saved_views.dashboard_views_visible_ids`` /
  ``sidebar_views_visible_ids``), which ``POST /api/ui_settings/`` replaces whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from .._errors import PaperlessResponseError
from ._http import REPORT_FIX, Failure, status_failure

# filter_rules rule_type 6: "has tag" (the value is the tag id as a string).
RULE_HAS_TAG = 6


class ReviewCalls:
    """Needs, from the client it is mixed into (declared for the type checker only):"""

    _prefix: str
    _token: str
    _send: Callable[..., Any]
    _call: Callable[..., Any]
    _dict: Callable[..., dict[str, Any]]
    _pages: Callable[[str, Mapping[str, str | int]], Iterator[dict[str, Any]]]

    def thumbnail(self, document_id: int) -> tuple[bytes, str]:
        """The first page's picture: (bytes, content type).  PaperlessNotFound when the
        document does not exist; PaperlessResponseError when the answer is no image."""
        document_id = int(document_id)
        path = f"/api/documents/{document_id}/thumb/"
        resp = self._send("GET", path, document_id=document_id)
        if resp.status_code != 200:
            raise status_failure(resp.status_code, resp.headers, resp.content, document_id).build(
                f"GET {self._prefix}{path}", self._prefix + path, document_id, self._token)
        ctype = resp.headers.get("content-type", "").split(";")[0].strip().lower()
        if not ctype.startswith("image/"):
            raise Failure(PaperlessResponseError, f"Paperless answered {ctype or 'no content type'} instead of an "
                          "image", 200, REPORT_FIX).build(f"GET {self._prefix}{path}", self._prefix + path,
                                                          document_id, self._token)
        return bytes(resp.content), ctype

    def find_saved_views(self, name: str) -> list[dict[str, Any]]:
        """Saved views named ``name`` in any case that the token's user can see."""
        return list(self._pages("/api/saved_views/", {"name__iexact": name, "page_size": 100}))

    def create_saved_view(self, name: str, *, tag_id: int, sort_field: str = "created", sort_reverse: bool = True,
                          show: bool = False) -> dict[str, Any]:
        """A view of the documents with tag ``tag_id``.  ``show`` sets the 2.x view
        flags ``show_on_dashboard`` / ``show_in_sidebar`` (3.x ignores them: see
        :meth:`update_ui_settings`)."""
        body = {"name": name, "show_on_dashboard": show, "show_in_sidebar": show, "sort_field": sort_field,
                "sort_reverse": sort_reverse, "filter_rules": [{"rule_type": RULE_HAS_TAG, "value": str(tag_id)}]}
        data = self._call("POST", "/api/saved_views/", body=body, idempotent=False, ok=(200, 201))
        return self._dict(data, "POST", "/api/saved_views/", key="id")

    def update_ui_settings(self, settings: Mapping[str, Any]) -> None:
        """``POST /api/ui_settings/`` with the user's whole ``settings`` (it replaces them)."""
        data = self._call("POST", "/api/ui_settings/", body={"settings": dict(settings)})
        if not isinstance(data, dict) or data.get("success") is not True:
            raise Failure(PaperlessResponseError, "Paperless did not confirm the new UI settings", 200,
                          REPORT_FIX).build("POST /api/ui_settings/", self._prefix + "/api/ui_settings/", None,
                                            self._token)
