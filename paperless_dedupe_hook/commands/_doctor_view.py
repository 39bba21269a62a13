"""``doctor``'s line on our saved view, and ``doctor --pin-view``.

The view is looked up by name.  Not there yet is fine (the first annotation creates
it, when the user may add saved views).  A view of that name that does not show our
tag is the user's own: reported, left alone.  ``--pin-view`` shows the view on the
dashboard and in the sidebar (creating it first when missing): it merges the view's
id into the user's UI settings and drops nothing of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._errors import PaperlessError

OK, WARN, FAIL = "ok", "warn", "FAIL"


def check_saved_view(line: Callable[[str, str], None], client: Any, *, name: str, tag: str,
                     may: Callable[[str], bool | None], pin: bool) -> None:
    from ..paperless import saved_view

    if not name:
        line(FAIL if pin else OK, "saved view: none (actions.saved_view is empty)"
             + (": --pin-view has no view to pin; set actions.saved_view" if pin else ""))
        return
    if not tag:
        line(FAIL if pin else OK, f"saved view {name!r}: none, because actions.tag is empty (the view shows the "
                                  "tagged documents)")
        return
    try:
        view = saved_view.find(client, name)
        tags = [t for t in client.find_tags(tag) if t.get("name") == tag] or client.find_tags(tag)
    except PaperlessError as exc:
        if exc.status == 403 and not pin:
            # The view is a convenience: the tag, note and link work without it.
            line(WARN, f"saved view {name!r}: the user may not see saved views (view_savedview), so none is "
                       "created: grant view_savedview and add_savedview, make it by hand (docs/review.md) or set "
                       "actions.saved_view = \"\"")
        else:
            line(FAIL, f"saved view {name!r}: cannot look it up: {exc}")
        return
    tag_id = int(min(tags, key=lambda t: int(t["id"]))["id"]) if tags else None
    if view is None and not pin:
        allowed = may("add_savedview")  # None: not checked (the user may not read its permissions)
        if allowed:
            line(OK, f"saved view {name!r}: not present yet, will be created at the first annotation (creatable)")
        elif allowed is None:
            line(WARN, f"saved view {name!r}: not present yet; whether the user may add saved views was not "
                       "checked: grant add_savedview or make it by hand (docs/review.md)")
        else:
            line(WARN, f"saved view {name!r}: not present and the user may not add saved views: grant "
                       "add_savedview, make it by hand (docs/review.md) or set actions.saved_view = \"\"")
        return
    if view is None:
        if tag_id is None:
            line(FAIL, f"saved view {name!r}: --pin-view needs our tag {tag!r} first: it is created at the first "
                       "annotation (or run 'paperless-dedupe rebuild-index --annotate')")
            return
        try:
            view, _created = saved_view.ensure(client, name, tag_id, show=True)
        except PaperlessError as exc:
            line(FAIL, f"saved view {name!r}: cannot create it: {exc}")
            return
        line(OK, f"saved view {name!r}: created (id {view['id']})")
    elif tag_id is not None and not saved_view.shows_tag(view, tag_id):
        line(WARN, f"saved view {name!r}: present (id {view['id']}) but does not show the tag {tag!r}: a view of "
                   "your own, left as it is; set actions.saved_view to another name for ours")
    else:
        line(OK, f"saved view {name!r}: present (id {view['id']})")
    view_id = int(view["id"])
    try:
        settings = client.ui_settings().get("settings")
        where = saved_view.pinned(settings if isinstance(settings, dict) else {}, view_id)
        if pin and len(where) < len(saved_view.PIN_KEYS) and saved_view.pin(client, view_id):
            line(OK, f"saved view {name!r}: now on the dashboard and in the sidebar (your UI settings, merged)")
            return
        if pin:
            line(OK, f"saved view {name!r}: already on the dashboard and in the sidebar: --pin-view changed nothing")
            return
    except PaperlessError as exc:
        line(FAIL if pin else WARN, f"saved view {name!r}: cannot read or change your UI settings: {exc}")
        return
    shown = " and ".join(("on the dashboard", "in the sidebar")[saved_view.PIN_KEYS.index(k)] for k in where)
    line(OK, f"saved view {name!r}: shown {shown}" if where else
         f"saved view {name!r}: not on the dashboard or in the sidebar ('paperless-dedupe doctor --pin-view' "
         "puts it there)")
