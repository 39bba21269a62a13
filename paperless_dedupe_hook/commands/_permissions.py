"""``doctor``'s permission check: each permission the product needs, ok or missing.

The list comes from ``/api/ui_settings/`` (model-level codenames).  That endpoint
needs ``view_uisettings`` itself; without it, read-only requests tell what they can
(a JSON 403 names a missing model permission) and the rest is reported as not
checked, never as fine.  Object permissions (owner, sharing) appear in no list: the
number of documents the user sees, compared with the index, tells about those.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from .._errors import PaperlessError, PaperlessPermissionError

OK, WARN, FAIL = "ok", "warn", "FAIL"
GRANTED, MISSING, UNKNOWN = "granted", "missing", "unknown"


class Lines(Protocol):
    def line(self, status: str, what: str, *, config: bool = False) -> None: ...


def needed(cfg: Any) -> list[tuple[str, str]]:
    """(codename, what it is for) of each model permission the configured actions need."""
    out = [("view_document", "read documents"),
           ("change_document", "tag, link and add notes to documents; resolve: carry metadata to the keeper")]
    if cfg["actions.note"]:
        out += [("view_note", "read notes, so none is written twice"), ("add_note", "write the note")]
    if cfg["actions.tag"]:
        out.append(("view_tag", f"find the tag {cfg['actions.tag']!r}"))
    if cfg["actions.link_field"]:
        out.append(("view_customfield", f"find the field {cfg['actions.link_field']!r}"))
    return out


class Permissions:
    """What doctor knows about the token's user: from its permission list, or probed."""

    def __init__(self, name: str, superuser: bool, listed: set[str] | None) -> None:
        self.name = name
        self.superuser = superuser
        self.listed = listed  # None: the list could not be read
        self.probed: dict[str, str] = {}

    def state(self, codename: str) -> str:
        if self.superuser:
            return GRANTED
        if self.listed is not None:
            return GRANTED if codename in self.listed else MISSING
        return self.probed.get(codename, UNKNOWN)

    def may(self, codename: str) -> bool | None:
        """True, False, or None when it could not be told without writing."""
        state = self.state(codename)
        return None if state == UNKNOWN else state == GRANTED


def from_ui_settings(data: dict[str, Any]) -> Permissions:
    user = data.get("user") or {}
    name = str(user.get("username") or f"id {user.get('id')}")
    return Permissions(name, bool(user.get("is_superuser")), {str(p) for p in data.get("permissions") or []})


def probe(client: Any, cfg: Any) -> Permissions:
    """Read-only requests instead of the permission list (no ``view_uisettings``)."""
    perms = Permissions("of this token", False, None)

    def attempt(codename: str, call: Callable[[], object]) -> object:
        try:
            result = call()
        except PaperlessPermissionError as exc:
            if exc.permission == codename:
                perms.probed[codename] = MISSING
            return None
        except PaperlessError:
            return None
        perms.probed[codename] = GRANTED
        return result

    first = attempt("view_document", lambda: next(iter(client.iter_documents(fields=("id",), page_size=1)), None))
    if cfg["actions.note"] and isinstance(first, dict) and isinstance(first.get("id"), int):
        attempt("view_note", lambda: client.get_notes(first["id"]))
    if cfg["actions.tag"]:
        attempt("view_tag", lambda: client.find_tags(cfg["actions.tag"]))
    if cfg["actions.link_field"]:
        attempt("view_customfield", lambda: client.find_custom_fields(cfg["actions.link_field"]))
    return perms


def report(rep: Lines, perms: Permissions, cfg: Any) -> None:
    """One line per needed permission."""
    if perms.superuser:
        rep.line(OK, f"permissions: user {perms.name} is a superuser (has every permission)")
        return
    if perms.listed is None:
        rep.line(WARN, "permissions: the user may not read its permission list (it lacks view_uisettings), so "
                       "they were tried with read-only requests; grant view_uisettings for a full check")
    for codename, purpose in needed(cfg):
        state = perms.state(codename)
        if state == GRANTED:
            rep.line(OK, f"permission {codename} ({purpose}): granted")
        elif state == MISSING:
            rep.line(FAIL, f"permission {codename} ({purpose}): missing for user {perms.name}: grant it in Paperless "
                           "(Users & Groups, the user's permissions) or use a superuser's token")
        else:
            rep.line(WARN, f"permission {codename} ({purpose}): not checked (it cannot be tried without writing): "
                           "make sure the user has it, or grant view_uisettings so doctor can read it")
    report_resolve(rep, perms)


# What only ``resolve`` needs: without it the rest of the product works, resolve refuses.
RESOLVE_ONLY = (("delete_document", "resolve: move a resolved copy to Paperless's trash"),)


def report_resolve(rep: Lines, perms: Permissions) -> None:
    for codename, purpose in RESOLVE_ONLY:
        state = perms.state(codename)
        if state == GRANTED:
            rep.line(OK, f"permission {codename} ({purpose}): granted")
        elif state == MISSING:
            rep.line(WARN, f"permission {codename} ({purpose}): missing for user {perms.name}: 'paperless-dedupe "
                           "resolve' refuses until it is granted (Users & Groups); finding duplicates works without it")
        else:
            rep.line(WARN, f"permission {codename} ({purpose}): not checked: grant view_uisettings so doctor can read it")


def check_visible(rep: Lines, perms: Permissions | None, visible: int | None, indexed: int | None) -> None:
    """Warn when the user sees fewer documents than the index holds (sharing, ownership)."""
    who = f"user {perms.name}" if perms is not None else "the token's user"
    if visible == 0 and not indexed and not (perms is not None and perms.superuser):
        rep.line(WARN, f"documents: {who} sees no documents in Paperless: it sees only documents it owns, that have "
                       "no owner or that are shared with it; use the token of a user who sees every document "
                       "(a superuser)")
        return
    if visible is None or indexed is None or visible >= indexed:
        return
    if perms is not None and perms.superuser:
        rep.line(WARN, f"documents: Paperless has {visible} documents, the index holds {indexed}: documents were "
                       "deleted since the last rebuild; run 'paperless-dedupe rebuild-index --incremental'")
        return
    rep.line(WARN, f"documents: {who} sees {visible} documents in Paperless, the index holds {indexed}: it sees only "
                   "documents it owns, that have no owner or that are shared with it, and a rebuild from the API "
                   "would index only those; use the token of a user who sees every document (a superuser)")
