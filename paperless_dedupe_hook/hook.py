"""The post-consume hook: ``paperless-dedupe-hook`` (no arguments).

Paperless runs it once per consumed document with ``DOCUMENT_ID`` in the
environment and marks the whole consume FAILED on a non-zero exit.  So every
failure that lies outside the document (Paperless unreachable, token refused,
broken index, our own bug) ends in one line on stderr and exit 0, unless the user
set ``hook.strict = true``.  The whole run is bounded by ``hook.timeout_seconds``.

Imports are kept to what the check needs (no datasketch/SciPy, no click/rich):
``python -X importtime -c "import paperless_dedupe_hook.hook"`` shows them.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import FrameType
from typing import TYPE_CHECKING

from ._errors import (
    ConfigError,
    DedupeError,
    IndexBusyError,
    IndexStoreError,
    PaperlessError,
    PaperlessNotFound,
    UsageError,
)

if TYPE_CHECKING:
    from .config import Config
    from .engine import Settings
    from .paperless.client import PaperlessClient

DOCUMENT_FIELDS = ("id", "title", "content", "modified", "tags", "custom_fields")


class HookTimeout(DedupeError):
    exit_code = 4


@dataclass
class HookResult:
    document_id: int
    matches: list[tuple[int, float]]
    candidates: int
    annotated: list[int]
    skipped: str = ""
    # Candidates Paperless did not show the token's user (not compared), and the documents
    # whose annotation Paperless refused (checked and indexed all the same), with the reason.
    unreadable: list[int] = field(default_factory=list)
    not_annotated: list[tuple[int, str]] = field(default_factory=list)


def parse_document_id(raw: str | None) -> int:
    if raw is None or raw.strip() in ("", "None"):
        raise UsageError("DOCUMENT_ID is not set: Paperless sets it for post-consume scripts; run 'paperless-dedupe hook --document-id N' by hand")
    try:
        value = int(raw.strip())
    except ValueError:
        raise UsageError(f"DOCUMENT_ID = {raw.strip()[:40]!r} is not a document id: expected a whole number") from None
    if value <= 0:
        raise UsageError(f"DOCUMENT_ID = {value} is not a document id: expected a positive number")
    return value


class Log:
    """Paperless logs our stdout at INFO and stderr at WARNING: keep both short."""

    def __init__(self, *, verbosity: int = 1) -> None:
        self.verbosity = verbosity

    def info(self, line: str) -> None:
        if self.verbosity >= 2:
            print(line, flush=True)

    def say(self, line: str) -> None:
        if self.verbosity >= 1:
            print(line, flush=True)

    def warn(self, line: str) -> None:
        print(f"WARNING paperless-dedupe-hook: {line}", file=sys.stderr, flush=True)


class _TextCache:
    """Documents' texts fetched once: for the scores, then for the note's verdict in words."""

    def __init__(self, fetch: Callable[[Sequence[int]], Mapping[int, str]], known: dict[int, str]) -> None:
        self._fetch, self._known = fetch, known
        self.missing: set[int] = set()  # asked for, not returned: deleted, or hidden from the token's user

    def __call__(self, ids: Sequence[int]) -> dict[int, str]:
        missing = [i for i in ids if i not in self._known]
        if missing:
            self._known.update(self._fetch(missing))
            self.missing.update(i for i in missing if i not in self._known)
        return {i: self._known[i] for i in ids if i in self._known}


# Documents queued by earlier hooks (the index was held) that one hook checks after its
# own, time permitting: a few, so that a long queue never makes one consume slow.
DRAIN_PER_HOOK = 3


class QueuedError(DedupeError):
    """The index was held by another run: the document is queued, not lost."""

    exit_code = 5


def run(document_id: int, cfg: Config, *, deadline: float | None = None, log: Log | None = None,
        thumbnail_path: str | None = None) -> HookResult:
    """Check one document and annotate its duplicates, then a few queued ones.
    ``thumbnail_path``: Paperless's ``DOCUMENT_THUMBNAIL_PATH`` of this document (a
    document with too little text is compared by it).
    Raises DedupeError (QueuedError when the index was held and the document queued)."""
    from . import config as config_mod
    from . import regexcache

    # Before the extraction is imported: its patterns then come from the file, not the compiler.
    regexcache.load(cfg.index_path)
    from .engine import settings_from_config
    from .paperless.client import PaperlessClient

    log = log or Log(verbosity=1)
    settings = settings_from_config(cfg)
    config_line, *curve_warnings = settings.log_lines()
    # Paperless logs a script's stdout at INFO, once per consumed document: the configuration
    # line is our DEBUG (PAPERLESS_DEDUPE_VERBOSE=1); an off-target curve is still a warning.
    log.info(config_line)
    for line in curve_warnings:
        log.warn(line)
    token = config_mod.require_token(cfg)
    with PaperlessClient(
        url=cfg["paperless.url"], token=token, timeout_seconds=cfg["paperless.timeout_seconds"],
        verify_tls=cfg["paperless.verify_tls"], deadline=deadline,
    ) as client:
        try:
            result = check(document_id, cfg, settings, client, deadline=deadline, log=log,
                           thumbnail_path=thumbnail_path)
        except IndexBusyError as exc:
            from .indexfile import index_location
            from .pending import holder, queue

            # The queue is a file beside the configured index path (for Redis: on this
            # host, drained by this host's next hook).
            try:
                where = queue(cfg.index_path, document_id, str(exc))
            except OSError as err:
                raise IndexBusyError(f"{exc}; the document could not be queued either ({err.strerror}): "
                                     f"run 'paperless-dedupe hook --document-id {document_id}' later") from None
            who = (holder(cfg.index_path) if cfg["index.backend"] != "redis"
                   else "another paperless-dedupe run (it holds the Redis write lock)")
            raise QueuedError(
                f"index {index_location(cfg)} is held by {who}: queued in {where}; the next hook "
                "or 'paperless-dedupe rebuild-index --annotate' checks it"
            ) from None
        _drain(cfg, settings, client, deadline=deadline, log=log, own=result.document_id)
        _resolve_confirmed(cfg, settings, client, deadline=deadline, log=log)
    regexcache.save(cfg.index_path)
    return result


def _drain(cfg: Config, settings: Settings, client: PaperlessClient, *, deadline: float | None, log: Log,
           own: int) -> None:
    """Check documents earlier hooks queued, while there is time (a few per hook)."""
    from .pending import done, queued

    waiting = [item["id"] for item in queued(cfg.index_path)][:DRAIN_PER_HOOK]
    for doc_id in waiting:
        if deadline is not None and deadline - time.monotonic() < 5.0:
            return
        try:
            if doc_id != own:
                result = check(doc_id, cfg, settings, client, deadline=deadline, log=log)
                log.say(f"paperless-dedupe: queued document {doc_id} checked: "
                        f"{len(result.matches)} possible duplicate(s)")
        except PaperlessNotFound:
            pass  # deleted since it was queued: nothing left to check
        except DedupeError as exc:
            log.warn(f"queued document {doc_id} still not checked: {exc}")
            return
        done(cfg.index_path, [doc_id])


def _resolve_confirmed(cfg: Config, settings: Settings, client: PaperlessClient, *, deadline: float | None,
                       log: Log) -> None:
    """A few copies the user confirmed in Paperless (our confirmation tag), resolved as
    ``paperless-dedupe resolve`` would: a confirmation made in the UI takes effect without
    a terminal.  One request when nobody confirmed anything; nothing in ``version`` mode
    (its upload is a consume task that would wait for this one)."""
    from ._errors import PaperlessAuthError

    name = cfg["actions.confirm_tag"]
    if not name or cfg["actions.dry_run"]:
        return
    if cfg["actions.resolve_mode"] == "version" or (deadline is not None and deadline - time.monotonic() < 15.0):
        return
    try:
        confirmed = client.tagged_named(name)  # one request on every run: is anything confirmed?
        if not confirmed:
            return
        from .resolve import resolve_in_hook

        for line in resolve_in_hook(cfg, settings, client, deadline=deadline, confirmed=confirmed):
            log.say(f"paperless-dedupe: {line}")
    except PaperlessAuthError as exc:  # a token that may not read tags or resolve: said by doctor, not per consume
        log.info(f"paperless-dedupe: confirmed duplicates not looked for: {exc}")
    except DedupeError as exc:
        log.warn(f"confirmed duplicates not resolved: {exc}")


def check(document_id: int, cfg: Config, settings: Settings, client: PaperlessClient, *,
          deadline: float | None, log: Log, thumbnail_path: str | None = None) -> HookResult:
    """Index one document, find its matches and annotate them; one with too little text
    also by its first page's picture (``thumbnail_path``, else the API)."""
    from .core.features import compute
    from .core.picturepath import takes_picture_path
    from .engine import find_matches
    from .indexfile import holding_index, now_iso, open_configured
    from .paperless.annotate import Annotator, Outcome

    root = client.root_id(document_id)
    doc = client.get_document(root, fields=DOCUMENT_FIELDS)
    feats = compute(root, str(doc.get("content") or ""), settings.features, title=str(doc.get("title") or ""))
    texts = _TextCache(client.document_texts, {root: str(doc.get("content") or "")})
    picture = None
    if cfg["detection.pictures"] and takes_picture_path(str(doc.get("content") or ""), settings.features.min_words):
        from .picturepairs import picture_of  # only here: a text document's run imports no Pillow

        picture = picture_of(root, client, thumbnail_path=thumbnail_path)
        (log.warn if picture.warn else log.info)(f"document {root}: {picture.why or 'compared by its picture'}")
    # Wait for the index no longer than leaves time to queue the document and say so.
    remaining = 30.0 if deadline is None else max(0.5, deadline - time.monotonic() - 1.0)
    with open_configured(cfg, settings, create=True, lock_timeout=remaining) as index:
        if index.involved_in_resolution(root, version_row=root != document_id):
            # A resolution writes to it (a version upload runs this hook with the version row's id).
            return HookResult(root, [], 0, [], skipped="a resolution is writing to it")
        with index.write(), holding_index(index, f"paperless-dedupe-hook DOCUMENT_ID={root}"):
            # check and insert atomically: a racing hook sees one or the other
            known = index.fingerprint(root) is not None
            extra = None if known else {t: 1 for t in feats.tokens}
            dismissed = index.dismissed_pairs()
            matches, n_candidates = find_matches(
                index, feats, settings, texts=texts, dismissed=dismissed,
                extra_df=extra,
            )
            index.put(feats, modified=doc.get("modified"), keys=settings.band_keys(feats))
            if picture is not None and picture.signature is not None:
                from .picturepairs import pair_and_store

                matches, n_candidates = pair_and_store(index, root, picture.signature, matches, n_candidates,
                                                       dismissed=dismissed)
            if matches:  # status and the report show them until the next rebuild groups them
                index.add_found_pairs([m.as_dict() for m in matches], now_iso())
        if not feats.comparable and (picture is None or picture.signature is None):
            # (a text under min_words with a few words of its own is compared, by core.short's rule)
            why = f"too little text: {feats.word_count} word(s)"
            return HookResult(root, [], 0, [], skipped=why + (f"; {picture.why}" if picture is not None else ""))
        annotator = Annotator(
            client, index, tag=cfg["actions.tag"], note=cfg["actions.note"],
            link_field=cfg["actions.link_field"], dry_run=cfg["actions.dry_run"], now=now_iso,
            saved_view=cfg["actions.saved_view"], pin_view=cfg["actions.pin_saved_view"], texts=texts,
            keep_line=_keep_line(client, cfg),
        )
        titles = {f.doc_id: f.title for f in index.features([m.a if m.b == root else m.b for m in matches],
                                                            settings.features.num_permutations)}
        older = [(m, m.a, titles.get(m.a, "")) for m in matches if m.b == root]
        outcome = Outcome()
        refused: list[tuple[int, str]] = []
        jobs = [(root, older, doc)] + [(m.b, [(m, root, feats.title)], None) for m in matches if m.a == root]
        for target, its_matches, known_doc in jobs:  # the newer document of each pair gets the annotation
            try:
                annotator.annotate(target, its_matches, document=known_doc, outcome=outcome)
            except PaperlessError as exc:  # the document is checked and indexed: only this annotation failed
                refused.append((target, str(exc)))
        for line in outcome.planned:
            log.say(f"dry run: would {line}")
        for line in outcome.warnings:
            log.warn(line)
    result = HookResult(
        root,
        [(m.b if m.a == root else m.a, m.score) for m in matches],
        n_candidates,
        sorted(outcome.annotated),
        not_annotated=refused,
    )
    result.unreadable = _unreadable(client, texts.missing)  # after the index is let go: a request each
    return result


def _unreadable(client: PaperlessClient, missing: set[int]) -> list[int]:
    """The candidates Paperless did not return that it still has (hidden from the token's
    user); deleted ones are passed over as before.  No request when nothing was missing."""
    if not missing:
        return []
    from .paperless.visibility import tell_apart

    return tell_apart(client, sorted(missing)).hidden


# sysexits.h's EX_SOFTWARE: a bug of ours, never 1 ("check found duplicates").
INTERNAL_ERROR_EXIT = 70


def _which_document(raw_id: str | None) -> str:
    """How a warning begins: "document 81 not checked", or (DOCUMENT_ID unset, which the
    line then says) "no document checked" rather than "document None"."""
    if raw_id is None or raw_id.strip() in ("", "None"):
        return "no document checked"
    return f"document {raw_id.strip()[:40]} not checked"


def _keep_line(client: PaperlessClient, cfg: Config) -> Callable[[int, list[int]], str | None]:
    """The note's "keep #N" suggestion, imported only when a note is written."""
    def line(doc_id: int, others: list[int]) -> str | None:
        from .keepers import keep_line

        return keep_line(client, cfg, doc_id, others)

    return line


def _strict_from_env(env: Mapping[str, str]) -> bool:
    raw = env.get("PAPERLESS_DEDUPE_HOOK_STRICT", "").strip().lower()
    return raw in {"true", "1", "t", "y", "yes"}


def main(argv: list[str] | None = None, *, document_id: str | None = None, config_path: str | None = None) -> int:
    env = os.environ
    log = Log(verbosity=2 if env.get("PAPERLESS_DEDUPE_VERBOSE", "").lower() in {"true", "1", "yes"} else 1)
    strict = _strict_from_env(env)
    started = time.monotonic()
    raw_id = document_id if document_id is not None else env.get("DOCUMENT_ID")
    try:
        from . import config as config_mod

        cfg = config_mod.load(config_path=config_path, env=env)
        for warning in cfg.warnings:  # before the check's imports and deadline: said even when it times out
            log.warn(warning)
        strict = bool(cfg["hook.strict"])
        timeout = float(cfg["hook.timeout_seconds"])
    except ConfigError as exc:
        log.warn(f"configuration error, document not checked: {exc}")
        return exc.exit_code if strict else 0

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        raise HookTimeout(f"gave up after hook.timeout_seconds = {timeout:g} s: raise it or check Paperless's response time")

    if hasattr(signal, "SIGALRM"):
        signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
    what = _which_document(raw_id)
    # Paperless's thumbnail of the document it names (not of one given by --document-id).
    thumbnail = env.get("DOCUMENT_THUMBNAIL_PATH") if document_id is None else None
    try:
        doc_id = parse_document_id(raw_id)
        result = run(doc_id, cfg, deadline=started + timeout - 0.5, log=log, thumbnail_path=thumbnail)
    except PaperlessNotFound as exc:
        log.warn(f"{what}: {exc}")
        return exc.exit_code if strict else 0
    except DedupeError as exc:
        log.warn(f"{what}: {exc}")
        return exc.exit_code if strict else 0
    except OSError as exc:  # the file system refused (permissions, a full disk): not our bug
        from .index._access import os_error_line

        log.warn(f"{what}: {os_error_line(exc, cfg.index_path)}")
        return IndexStoreError.exit_code if strict else 0
    except Exception as exc:  # noqa: BLE001 - our bug must not fail the user's consume
        log.warn(f"{what}: internal error {type(exc).__name__}: {exc}")
        return INTERNAL_ERROR_EXIT if strict else 0
    finally:
        if hasattr(signal, "SIGALRM"):
            signal.setitimer(signal.ITIMER_REAL, 0)
    elapsed = time.monotonic() - started
    refused = _say_what_was_left_undone(result, log)
    if result.skipped:
        log.say(f"paperless-dedupe: document {result.document_id} indexed, not compared ({result.skipped}) [{elapsed:.2f} s]")
    elif result.matches:
        shown = ", ".join(f"#{i} ({s:.2f})" for i, s in result.matches[:5])
        log.say(
            f"paperless-dedupe: document {result.document_id}: {len(result.matches)} possible duplicate(s): {shown}; "
            f"annotated {', '.join(f'#{i}' for i in result.annotated) or 'nothing new'} [{elapsed:.2f} s]"
        )
    else:
        unread = f", {len(result.unreadable)} of them not readable by the token's user" if result.unreadable else ""
        log.say(f"paperless-dedupe: document {result.document_id}: no duplicates among {result.candidates} "
                f"candidate(s){unread} [{elapsed:.2f} s]")
    return refused if strict else 0


def _say_what_was_left_undone(result: HookResult, log: Log) -> int:
    """Warn about candidates that could not be read and annotations Paperless refused; the
    exit code for ``strict`` (4: Paperless did not let us do the whole job, else 0)."""
    if result.unreadable:  # imported only then: the hook's usual run has nothing to say here
        from .paperless.visibility import Unreadable

        hidden = Unreadable(hidden=result.unreadable).warning(result.document_id)
        if hidden:
            log.warn(hidden)
    for target, reason in result.not_annotated:
        log.warn(f"document {result.document_id} checked and indexed, but document {target} not annotated: {reason}")
    return 4 if result.not_annotated else 0


if __name__ == "__main__":
    sys.exit(main())
