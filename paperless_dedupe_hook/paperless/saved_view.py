"""Our saved view in Paperless: the documents with our tag, newest first.

Created like our tag and field: looked up by name first, created only when no view
of that name exists (one the user made under that name is left exactly as it is),
never a second time.  Showing it on the dashboard and in the sidebar changes the
user's own UI settings, so :func:`pin` runs only on request, merges into the
settings Paperless holds and drops nothing of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from .._errors import PaperlessError
from ._review_api import RULE_HAS_TAG

# Where Paperless 3.x keeps which views show where (the user's UI settings).
SETTINGS_GROUP = "saved_views"
PIN_KEYS = ("dashboard_views_visible_ids", "sidebar_views_visible_ids")


class Client(Protocol):
    def find_saved_views(self, name: str) -> list[dict[str, Any]]: ...
    def create_saved_view(self, name: str, *, tag_id: int, sort_field: str = ..., sort_reverse: bool = ...,
                          show: bool = ...) -> dict[str, Any]: ...
    def ui_settings(self) -> dict[str, Any]: ...
    def update_ui_settings(self, settings: Mapping[str, Any]) -> None: ...


def find(client: Client, name: str) -> dict[str, Any] | None:
    """The view named ``name`` (exactly, else in another case), lowest id first."""
    views = client.find_saved_views(name)
    exact = [v for v in views if v.get("name") == name] or views
    return min(exact, key=lambda v: int(v["id"])) if exact else None


def shows_tag(view: Mapping[str, Any], tag_id: int) -> bool:
    """Whether ``view`` filters on "has tag ``tag_id``" (so it is, or works as, ours)."""
    return any(isinstance(rule, Mapping) and rule.get("rule_type") == RULE_HAS_TAG
               and str(rule.get("value")) == str(tag_id) for rule in view.get("filter_rules") or [])


def ensure(client: Client, name: str, tag_id: int, *, show: bool = False) -> tuple[dict[str, Any], bool]:
    """(the view named ``name``, whether it was created now)."""
    found = find(client, name)
    if found is not None:
        return found, False
    try:
        return client.create_saved_view(name, tag_id=tag_id, show=show), True
    except PaperlessError:
        # A concurrent hook created it first (400 "violates owner / name unique constraint").
        found = find(client, name)
        if found is None:
            raise
        return found, False


def pinned(settings: Mapping[str, Any], view_id: int) -> list[str]:
    """Of PIN_KEYS, those whose id lists hold ``view_id``."""
    group = settings.get(SETTINGS_GROUP)
    group = group if isinstance(group, Mapping) else {}
    return [key for key in PIN_KEYS if isinstance(group.get(key), list)
            and any(str(v) == str(view_id) for v in group[key])]


def merged_settings(settings: Mapping[str, Any], view_id: int) -> dict[str, Any] | None:
    """``settings`` with ``view_id`` added to the dashboard and sidebar lists, every
    other key kept as it was; None when it is in both already."""
    group = settings.get(SETTINGS_GROUP)
    group = dict(group) if isinstance(group, Mapping) else {}
    changed = False
    for key in PIN_KEYS:
        current = group.get(key)
        ids = list(current) if isinstance(current, list) else []
        if not any(str(v) == str(view_id) for v in ids):
            ids.append(int(view_id))
            group[key] = ids
            changed = True
    if not changed:
        return None
    return {**settings, SETTINGS_GROUP: group}


def pin(client: Client, view_id: int) -> bool:
    """Show the view on the dashboard and in the sidebar; False when it already was."""
    data = client.ui_settings()
    settings = data.get("settings")
    new = merged_settings(settings if isinstance(settings, Mapping) else {}, view_id)
    if new is None:
        return False
    client.update_ui_settings(new)
    return True
