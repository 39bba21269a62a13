"""``paperless-dedupe doctor``: is everything in place for the hook to do its job?

One line per check: ``ok``, ``warn`` or ``FAIL``, what was found and, on failure,
the fix.  Exit 0 when nothing failed (warnings included: a tag, field or index
that does not exist yet is fine), else the exit code of the first kind of failure in
this order (PRODUCT.md's codes): 3 the configuration (no or unusable token, bad
values), 4 Paperless (refused, unreachable, a permission or object missing there),
5 the index (missing rights on its files, damaged, built with other parameters, the
signatures).  Never 1: that is "check found duplicates".  Never prints the token:
every message from the client has it redacted already.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from .._errors import (
    ConfigError,
    DedupeError,
    PaperlessConnectionError,
    PaperlessError,
    PaperlessPermissionError,
)
from ..config import Config
from . import _permissions

OK, WARN, FAIL = "ok", "warn", "FAIL"
SKIP = "skip"  # a check that could not be made here: neither passed nor failed


# Exit codes of a FAIL line, by the part of the setup being checked (``Report.section``).
SECTION_EXIT = {"config": 3, "paperless": 4, "index": 5}


class Report:
    def __init__(self) -> None:
        self.failed = False
        self.config_failed = False
        self.section = "config"  # which part is being checked: decides a FAIL's exit code
        self.failed_sections: set[str] = set()
        self.warnings = 0
        self.permissions: _permissions.Permissions | None = None
        self.visible_documents: int | None = None  # how many the token's user sees in Paperless
        self.indexed_documents: int | None = None

    def line(self, status: str, what: str, *, config: bool = False) -> None:
        if status == FAIL:
            self.failed = True
            self.config_failed = self.config_failed or config
            self.failed_sections.add("config" if config else self.section)
        elif status == WARN:
            self.warnings += 1
        print(f"{status:<4}  {what}", flush=True)


def doctor_command(args: argparse.Namespace, cfg: Config) -> int:
    rep = Report()
    _check_config_file(rep, cfg)
    _check_hook_files(rep, cfg)
    rep.section = "paperless"
    _check_paperless(rep, cfg, pin_view=bool(getattr(args, "pin_view", False)))
    rep.section = "index"
    _check_index(rep, cfg)
    rep.section = "paperless"
    _permissions.check_visible(rep, rep.permissions, rep.visible_documents, rep.indexed_documents)
    rep.section = "index"
    _check_pending_and_missing(rep, cfg)
    _check_kernel(rep)
    _check_pictures(rep, cfg)
    _check_signer(rep, cfg)
    if rep.failed:
        print("doctor: at least one check FAILED (see the fixes above)")
        return exit_code(rep)
    extra = f" ({rep.warnings} warning{'s' if rep.warnings != 1 else ''})" if rep.warnings else ""
    print(f"doctor: all checks passed{extra}")
    return 0


def exit_code(rep: Report) -> int:
    """The code of the first failed part in the order configuration, Paperless, index."""
    return next(code for name, code in SECTION_EXIT.items() if name in rep.failed_sections)


def _check_config_file(rep: Report, cfg: Config) -> None:
    if cfg.path is not None and cfg.path.exists():
        rep.line(OK, f"config file {cfg.path}: found")
    else:
        rep.line(OK, f"config file {cfg.path}: not found, using defaults and the environment "
                     "('paperless-dedupe config init' writes one)")
    for warning in cfg.warnings:
        rep.line(WARN, warning)


def _check_hook_files(rep: Report, cfg: Config) -> None:
    from .hookfiles import compare, hook_environment

    same, line = compare(cfg)
    # Without our wrapper or hook in PAPERLESS_POST_CONSUME_SCRIPT nothing was compared: not "ok".
    rep.line(SKIP if hook_environment(os.environ) is None else OK if same else WARN, line)


def _check_paperless(rep: Report, cfg: Config, *, pin_view: bool = False) -> None:
    """URL, token, versions, permissions, tag and field (each skipped once one fails)."""
    url = cfg["paperless.url"]
    try:
        from ..paperless.client import PaperlessClient

        client = PaperlessClient(url=url, token=cfg.token, timeout_seconds=min(float(cfg["paperless.timeout_seconds"]), 15.0),
                                 verify_tls=cfg["paperless.verify_tls"], max_retries=1, backoff_seconds=0.2)
    except ConfigError as exc:
        rep.line(FAIL, f"token: {exc}", config=True)
        rep.line(WARN, f"Paperless at {url}: not checked without a usable token")
        return
    with client:
        try:
            data = client.ui_settings()
        except PaperlessConnectionError as exc:
            rep.line(FAIL, str(exc) if url in str(exc) else f"Paperless at {url}: {exc}")
            return
        except PaperlessPermissionError as exc:
            if exc.permission != "view_uisettings":
                rep.line(FAIL, f"Paperless at {url}: {exc}")
                return
            data = None  # a valid token whose user may not read its permission list
        except PaperlessError as exc:
            if exc.status == 401:
                rep.line(OK, f"Paperless at {url}: reachable")
                rep.line(FAIL, f"token: {exc}")
            else:
                rep.line(FAIL, f"Paperless at {url}: {exc}")
            return
        rep.line(OK, f"Paperless at {url}: reachable")
        if data is None:
            try:
                client.profile()
            except PaperlessError as exc:
                rep.line(FAIL, f"token: {exc}")
                return
            perms = _permissions.probe(client, cfg)
            rep.line(OK, "token: accepted (the user's name is shown only with view_uisettings)")
        else:
            perms = _permissions.from_ui_settings(data)
            rep.line(OK, f"token: accepted (user {perms.name})")
        api = client.api_version
        rep.line(OK if api else WARN, f"server version {client.server_version or 'unknown'}, API version {api or 'unknown'}"
                 + ("" if api else ": the server did not confirm an API version"))
        rep.permissions = perms
        _permissions.report(rep, perms, cfg)
        may = perms.may
        if may("view_document"):
            try:
                rep.visible_documents = client.count_documents()
            except PaperlessError as exc:
                rep.line(WARN, f"documents: cannot count them: {exc}")
        _check_tag(rep, client, cfg["actions.tag"], may)
        _check_field(rep, client, cfg["actions.link_field"], may)
        from ._doctor_view import check_saved_view

        check_saved_view(rep.line, client, name=cfg["actions.saved_view"], tag=cfg["actions.tag"], may=may,
                         pin=pin_view)


def _check_tag(rep: Report, client: Any, name: str, may: Callable[[str], bool | None]) -> None:
    if not name:
        rep.line(OK, "tag: none (actions.tag is empty)")
        return
    try:
        tags = client.find_tags(name)
    except PaperlessError as exc:
        rep.line(FAIL, f"tag {name!r}: cannot look it up: {exc}")
        return
    if not tags:
        if may("add_tag"):
            rep.line(OK, f"tag {name!r}: not present yet, will be created (creatable)")
        elif may("add_tag") is None:
            rep.line(WARN, f"tag {name!r}: not present yet; whether the user may add tags was not checked: create it "
                           "in Paperless (no matching, no owner) or grant add_tag")
        else:
            rep.line(FAIL, f"tag {name!r}: not present and the user may not add tags: create it in Paperless "
                           "(no matching, no owner) or grant add_tag")
        return
    exact = [t for t in tags if t.get("name") == name] or tags
    chosen = min(exact, key=lambda t: int(t["id"]))
    if len(tags) > 1:
        found = ", ".join(f"{t.get('name')!r} (id {t.get('id')})" for t in tags)
        rep.line(WARN, f"tag {name!r}: {len(tags)} tags differ only in case: {found}; using id {chosen['id']}: "
                       "rename or merge the others")
    else:
        rep.line(OK, f"tag {name!r}: present (id {chosen['id']})")


def _check_field(rep: Report, client: Any, name: str, may: Callable[[str], bool | None]) -> None:
    if not name:
        rep.line(OK, "link field: none (actions.link_field is empty)")
        return
    try:
        fields = client.find_custom_fields(name)
    except PaperlessError as exc:
        rep.line(FAIL, f"link field {name!r}: cannot look it up: {exc}")
        return
    links = [f for f in fields if f.get("data_type") == "documentlink"]
    if links:
        chosen = min(links, key=lambda f: int(f["id"]))
        rep.line(OK, f"link field {name!r}: present (id {chosen['id']}, documentlink)")
    elif fields:
        kinds = ", ".join(f"id {f.get('id')} is {f.get('data_type')!r}" for f in fields)
        rep.line(FAIL, f"link field {name!r}: exists but not as a documentlink field ({kinds}): rename that field "
                       "in Paperless or set actions.link_field to another name")
    elif may("add_customfield"):
        rep.line(OK, f"link field {name!r}: not present yet, will be created (creatable)")
    elif may("add_customfield") is None:
        rep.line(WARN, f"link field {name!r}: not present yet; whether the user may add custom fields was not "
                       "checked: create it in Paperless as a 'Document Link' field or grant add_customfield")
    else:
        rep.line(FAIL, f"link field {name!r}: not present and the user may not add custom fields: create it in "
                       "Paperless as a 'Document Link' field or grant add_customfield")


def _check_index(rep: Report, cfg: Config) -> None:
    from ..engine import settings_from_config
    from ..indexfile import open_configured

    settings = settings_from_config(cfg)
    path = cfg.index_path
    if cfg["index.backend"] == "redis":
        _check_redis_index(rep, cfg, settings)
    elif _index_files_refused(rep, path):
        rep.line(WARN, f"index {path}: not opened (the hook could not write it either)")
    elif not path.exists():
        rep.line(WARN, f"index {path}: not built yet: run paperless-dedupe rebuild-index")
    else:
        try:
            with open_configured(cfg, settings, lock_timeout=5.0) as index:  # names the setting that changed
                count, meta = index.count(), index.meta()
        except DedupeError as exc:  # IndexMismatchError, IndexCorruptError, a lock held too long
            message = str(exc)
            rep.line(FAIL, message if message.startswith(f"index {path}") else f"index {path}: {message}")
        else:
            when = meta.get("last_rebuild")
            age = f"last rebuild {when} ({_age(when)} ago)" if when else "never rebuilt"
            rep.line(OK, f"index {path}: readable, matches the config, {_size(path.stat().st_size)}, "
                         f"{count} documents, {age}")
            rep.indexed_documents = count
    lines = settings.log_lines()
    rep.line(OK, lines[0])
    for extra in lines[1:]:
        rep.line(WARN, extra + ": run 'paperless-dedupe tune' or set detection.num_bands = \"auto\"")


def _index_files_refused(rep: Report, path: Any) -> bool:
    """FAIL when this user may not write the index, its lock, a side file or the folder
    (the hook, run as the same user, needs all of them).  True when it failed."""
    from ..index._access import explain, foreign_to_folder, index_files, user_name

    reason = explain(path)
    if reason is not None:
        rep.line(FAIL, reason)
        return True
    present = [f.name for f in index_files(path) if f.exists()]
    rep.line(OK, f"user {user_name()} may write the index's folder {path.parent} and its files "
                 f"({', '.join(present) or 'none yet'})")
    odd = foreign_to_folder(path) if os.geteuid() == 0 else None
    if odd is not None:
        files, owner = odd
        rep.line(WARN, f"index {path}: {', '.join(f.name for f in files)} belong to another user than the folder "
                       f"(owner {owner}), which the hook may not write when it runs as {owner}: run 'chown {owner}: "
                       f"{path}*', and run paperless-dedupe as {owner} (Docker: 'docker compose exec -u paperless "
                       "webserver paperless-dedupe ...')")
    return False


def _check_pending_and_missing(rep: Report, cfg: Config) -> None:
    """Documents hooks queued (the index was held), and documents Paperless shows that
    the index lacks (fewer in Paperless is ``check_visible``'s)."""
    from .. import pending

    waiting = pending.queued(cfg.index_path)
    if waiting:
        shown = ", ".join(f"#{item['id']}" for item in waiting[:20])
        rep.line(WARN, f"{len(waiting)} document(s) queued by hooks that found the index held ({shown}): the next "
                       "hook checks them, or run 'paperless-dedupe rebuild-index --annotate'")
    else:
        rep.line(OK, "no documents queued by hooks")
    visible, indexed = rep.visible_documents, rep.indexed_documents
    if visible is None or indexed is None:
        return  # Paperless or the index could not be read: said above
    if visible == indexed:
        rep.line(OK, f"index holds {indexed} documents, as many as Paperless shows")
    elif visible > indexed:
        rep.line(WARN, f"index holds {indexed} documents, Paperless shows {visible}: run "
                       "'paperless-dedupe rebuild-index --incremental'")


def _check_redis_index(rep: Report, cfg: Config, settings: Any) -> None:
    from ..indexfile import index_exists, index_location, open_configured

    where = index_location(cfg)  # the URL without its password
    try:
        if not index_exists(cfg):
            rep.line(WARN, f"index {where}: not built yet: run paperless-dedupe rebuild-index")
            return
        with open_configured(cfg, settings, lock_timeout=5.0) as index:
            count, meta = index.count(), index.meta()
    except DedupeError as exc:  # Redis unreachable or refusing, IndexMismatchError, IndexCorruptError
        message = str(exc)
        rep.line(FAIL, message if message.startswith(f"index {where}") else f"index {where}: {message}")
        return
    when = meta.get("last_rebuild")
    age = f"last rebuild {when} ({_age(when)} ago)" if when else "never rebuilt"
    rep.line(OK, f"index {where}: reachable, matches the config, {count} documents, {age}")
    rep.indexed_documents = count


def _check_kernel(rep: Report) -> None:
    from ..core import minhash

    if minhash.KERNEL == "numpy":
        # Not a warning: numpy gives the same signatures, and the hook's time is mostly imports.
        rep.line(OK, "signatures: numpy (no C kernel was built at install time: same values, signing about 5x "
                     "slower, which matters for rebuilds; reinstall with a C compiler and libssl-dev to build it)")
    else:
        rep.line(OK, f"signatures: C kernel ({minhash.KERNEL})")


def _check_pictures(rep: Report, cfg: Config) -> None:
    """Pages without text are compared by picture only where Pillow decodes WebP (docs/pictures.md)."""
    if not cfg["detection.pictures"]:
        rep.line(OK, "pictures: off (detection.pictures = false): documents with too little text are not compared")
        return
    try:
        from PIL import features
    except ImportError:
        rep.line(WARN, "pictures: Pillow is not installed: documents with too little text are not compared "
                       "(pip install pillow into the hook's environment; every Paperless image has it)")
        return
    if not features.check("webp"):
        rep.line(WARN, "pictures: this Pillow cannot read WebP (Paperless's thumbnails): documents with too "
                       "little text are not compared; install a Pillow built with libwebp")
        return
    rep.line(OK, "pictures: Pillow reads WebP: documents with too little text are compared by their picture")


def _check_signer(rep: Report, cfg: Config) -> None:
    from .signcheck import check

    same, line = check(num_permutations=int(cfg["detection.num_permutations"]), seed=int(cfg["detection.seed"]),
                       ngram_size=int(cfg["detection.ngram_size"]))
    rep.line(OK if same else FAIL, line)


def _size(n: int) -> str:
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{n} B"  # pragma: no cover


def _age(iso: str) -> str:
    try:
        then = datetime.fromisoformat(iso)
    except ValueError:
        return "unknown time"
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    seconds = max(0, int((datetime.now(UTC) - then).total_seconds()))
    for size, unit in ((86400, "d"), (3600, "h"), (60, "min")):
        if seconds >= size:
            return f"{seconds // size} {unit}"
    return f"{seconds} s"
