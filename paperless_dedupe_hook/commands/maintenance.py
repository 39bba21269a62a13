"""The library-wide commands behind the CLI: rebuild (full and incremental),
check, status.  The CLI parses; this module does the work."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from .. import guards, pending, regexcache, sources
from .._errors import PaperlessError, UsageError
from ..config import Config
from ..core import cluster
from ..core.features import compute
from ..engine import Settings, find_matches
from ..engine import near_misses as engine_near_misses
from ..indexfile import (
    change_mark_configured,
    describe_location,
    holding_index,
    index_location,
    now_iso,
    open_configured,
    previous_dismissals,
    write_fresh_configured,
)
from ..rebuild import Analysis, Document, analyse, report
from ._pictures import add_pictures_of, picture_if_any, pictures_changed, stale_pictures_again
from ._shared import paperless_client, pending_and_paperless
from .progress import Progress, expected_documents

# bulk_edit bumps ``modified`` only when its queued task runs, seconds later; an
# incremental run looks back this far before its last start so nothing slips by.
INCREMENTAL_OVERLAP = timedelta(minutes=10)


def _read_documents(args: argparse.Namespace, cfg: Config, client: Any, info: Callable[[str], None],
                    modified_after: str | None = None) -> list[Document]:
    if args.from_jsonl:
        return sources.read_jsonl(Path(args.from_jsonl))
    if args.from_export:
        return sources.read_export(Path(args.from_export))
    progress = Progress("fetching", None, quiet=args.quiet)
    docs = []
    for doc in sources.ApiSource(client, modified_after=modified_after):
        docs.append(doc)
        progress.update(len(docs))
    progress.finish()
    return docs


def _iter_documents(args: argparse.Namespace, client: Any) -> Iterable[Document]:
    """The documents of a full rebuild, read as the analysis goes (JSONL and the API):
    the texts of a large library are never all in memory, and fetching overlaps
    signing.  An export's manifest is one JSON document: a list."""
    if args.from_jsonl:
        return sources.iter_jsonl(Path(args.from_jsonl))
    if args.from_export:
        return sources.read_export(Path(args.from_export))
    return sources.ApiSource(client)


def rebuild_command(args: argparse.Namespace, cfg: Config, settings: Settings, *, info: Callable[[str], None]) -> int:
    offline = bool(args.from_jsonl or args.from_export)
    if offline and (args.annotate or args.dry_run):
        flag = "--annotate" if args.annotate else "--dry-run"
        raise UsageError(f"{flag} needs Paperless: it cannot be combined with --from-jsonl/--from-export")
    args.annotate = args.annotate or args.dry_run  # --dry-run alone: show what --annotate would write
    if args.incremental and offline:
        raise UsageError("--incremental reads changes from Paperless: drop --from-jsonl/--from-export")
    guards.check_index_path(cfg, info)  # before any document is read
    client = None if offline else paperless_client(cfg)
    try:
        checked: list[int] = []
        if args.incremental:
            analysis_report = incremental(args, cfg, settings, client, info)
            titles: dict[str, str] = {}
        else:
            dismissed = previous_dismissals(cfg)
            known = guards.indexed_ids(cfg)
            started = now_iso()
            since = change_mark_configured(cfg)  # before the first document is read
            docs = _iter_documents(args, client)
            total = None if args.quiet else expected_documents(docs, jsonl=args.from_jsonl, client=client)
            picture_ids: set[int] = set()  # documents with too little text, noted as they are read
            if cfg["detection.pictures"]:
                from ..picturepairs import noting

                docs = noting(docs, settings.features.min_words, picture_ids)
            progress = Progress("indexing", total, quiet=args.quiet)
            scoring = Progress("scoring candidates", None, quiet=args.quiet)

            def on_scored(done: int, total: int) -> None:
                if scoring.total is None:  # the first call: indexing is over, the candidates are known
                    progress.finish()
                    scoring.total, scoring.base = total, done  # done: pairs out of reach, settled at once
                    scoring.started = scoring.last = time.monotonic()
                scoring.update(done)

            analysis = analyse(docs, settings, dismissed=dismissed, workers=args.workers, progress=progress.update,
                               scoring_progress=on_scored)
            if scoring.total is None:
                progress.finish()
            else:
                scoring.finish()
            if picture_ids:
                add_pictures_of(analysis, picture_ids, client, dismissed, args, info)
            if client is not None:
                _note_unseen(client, known, {f.doc_id for f in analysis.features}, info)
            guards.check_shrink(_source_name(args, cfg), analysis.documents, len(known),
                                location=index_location(cfg), allow=bool(getattr(args, "allow_shrink", False)))
            carried = write_fresh_configured(cfg, analysis, settings, run_kind="full", since=since)
            if carried:
                info(f"kept {carried} document(s) that hooks indexed (or removed) while the rebuild ran")
            regexcache.prime(cfg.index_path)  # the next hook loads the patterns instead of compiling them
            if not offline:
                with open_configured(cfg, settings) as index, index.write():
                    index.set_meta({"last_sync_started": started})
            analysis_report = report(analysis, settings)
            titles = analysis_titles(analysis)
            checked = [f.doc_id for f in analysis.features]
        try:
            if args.annotate and client is not None:  # before --report: pairs dismissed meanwhile leave it
                dry_run = bool(args.dry_run or cfg["actions.dry_run"])
                annotate_results(client, cfg, settings, analysis_report, info, dry_run=dry_run)
                if not dry_run:
                    pending.done(cfg.index_path, checked)  # queued documents now indexed and annotated
        finally:  # also when annotating failed: the index is built, its report is wanted
            if args.report:
                _add_keep(analysis_report, cfg, settings, client, info)
                try:
                    Path(args.report).write_text(json.dumps(analysis_report, indent=2, ensure_ascii=False),
                                                 encoding="utf-8")
                except OSError as exc:  # a write error names no file of its own: name the one given
                    raise OSError(exc.errno, f"{exc.strerror}; the index was written", args.report) from None
        _summary(args, analysis_report, cfg, titles)
    finally:
        if client is not None:
            client.close()
    return 0


def _add_keep(rep: dict[str, Any], cfg: Config, settings: Settings, client: Any, info: Callable[[str], None]) -> None:
    """``keep`` and ``keep_reasons`` for each group of the report (keepers.py)."""
    from ..keepers import add_keep

    groups = rep["groups"]
    if not isinstance(groups, list) or not groups:
        return
    ids = {int(m) for g in groups for m in g["members"]}
    with open_configured(cfg, settings) as index:
        words = {f.doc_id: f.word_count for f in index.features(ids, settings.features.num_permutations)}
    _, notice = add_keep(groups, cfg if client is not None else None, words, client)
    if notice:
        info(f"[WARN] {notice}")


def _source_name(args: argparse.Namespace, cfg: Config) -> str:
    if args.from_jsonl:
        return f"the JSONL file {args.from_jsonl}"
    if args.from_export:
        folder = Path(args.from_export)
        return f"the export {folder / 'manifest.json' if folder.is_dir() else folder}"
    return f"Paperless at {cfg['paperless.url']}"


def _note_unseen(client: Any, known: set[int], read: set[int], info: Callable[[str], None]) -> None:
    """Say how many indexed documents the API did not show, and why that may be."""
    try:
        user = client.ui_settings().get("user") or {}
        who, superuser = f"user {user.get('username') or user.get('id')}", bool(user.get("is_superuser"))
    except PaperlessError:
        who, superuser = "the token's user (its permissions could not be read)", False
    unseen = len(known - read)
    if superuser:
        if unseen:
            info(f"{unseen} document(s) of the old index are no longer in Paperless (deleted or in the trash)")
        return
    info(f"{who} is not a superuser: Paperless showed it {len(read)} document(s), only those it owns, that have "
         f"no owner or that are shared with it" + (f"; {unseen} document(s) of the old index were not among them "
                                                   "(not visible to this user, or deleted)" if unseen else ""))


def _summary(args: argparse.Namespace, rep: dict[str, Any], cfg: Config, titles: dict[str, str]) -> None:
    if args.json:
        print(json.dumps({k: rep[k] for k in ("documents", "candidates")} | {
            "pairs": len(rep["pairs"]), "groups": rep["groups"], "index_path": index_location(cfg)}, indent=2))
        return
    print(f"documents {rep['documents']}  candidates {rep['candidates']}  duplicate pairs {len(rep['pairs'])}  "
          f"groups {len(rep['groups'])}  index {index_location(cfg)}")
    shown = rep["groups"] if args.verbose else rep["groups"][:20]
    for group in shown:
        members = ", ".join(f"#{m} {titles[str(m)]!r}" if titles.get(str(m)) else f"#{m}" for m in group["members"])
        print(f"  group #{group['primary']}  confidence {group['confidence']:.2f}  {members}")
    if len(rep["groups"]) > len(shown):
        print(f"  ... and {len(rep['groups']) - len(shown)} more groups (-v lists all; see also --report or 'paperless-dedupe report --html')")


def annotate_results(client: Any, cfg: Config, settings: Settings, rep: dict[str, Any],
                     info: Callable[[str], None], *, dry_run: bool) -> None:
    from ..core.scoring import PairScore
    from ..keepers import keep_line
    from ..paperless.annotate import Annotator

    with open_configured(cfg, settings) as index:
        annotator = Annotator(client, index, tag=cfg["actions.tag"], note=cfg["actions.note"],
                              link_field=cfg["actions.link_field"], dry_run=dry_run, now=now_iso,
                              saved_view=cfg["actions.saved_view"], pin_view=cfg["actions.pin_saved_view"],
                              keep_line=lambda doc_id, others: keep_line(client, cfg, doc_id, others))
        titles = {f.doc_id: f.title for f in index.features(
            {p["a"] for p in rep["pairs"]}, settings.features.num_permutations)}
        by_newer: dict[int, list[tuple[PairScore, int, str]]] = {}
        for p in rep["pairs"]:
            pair = PairScore(p["a"], p["b"], p["score"], p["jaccard"], p["fuzzy"], p["discriminative"], p["containment"],
                             verdict=str(p.get("verdict", "duplicate")), newer=p.get("newer"))
            by_newer.setdefault(p["b"], []).append((pair, p["a"], titles.get(p["a"], "")))
        outcome = None
        for doc_id in sorted(by_newer):
            outcome = annotator.annotate(doc_id, by_newer[doc_id], outcome=outcome)
        if outcome is not None and outcome.dismissed and not dry_run:
            _drop_dismissed(index, rep, set(outcome.dismissed))
    if outcome is not None:
        for line in outcome.planned:
            print(f"would {line}")
        for line in outcome.warnings:
            print(f"[WARN] {line}", file=sys.stderr)
        verb = "would annotate" if dry_run else "annotated"
        info(f"{verb} {len(outcome.annotated)} document(s); {len(outcome.dismissed)} pair(s) dismissed by users")


def _drop_dismissed(index: Any, rep: dict[str, Any], dismissed: set[tuple[int, int]]) -> None:
    """Pairs the user dismissed (by removing our tag) during this run leave the results
    at once: the summary, the --report file and the stored results (report --html)."""
    pairs = [p for p in rep["pairs"] if (p["a"], p["b"]) not in dismissed]
    groups = cluster.groups((p["a"], p["b"], p["score"]) for p in pairs)
    rep["pairs"] = pairs
    rep["groups"] = [{"primary": g.primary, "members": list(g.members), "confidence": g.confidence} for g in groups]
    with index.write():
        index.store_results(pairs, rep["groups"])


def incremental(args: argparse.Namespace, cfg: Config, settings: Settings, client: Any,
                info: Callable[[str], None]) -> dict[str, Any]:
    """Re-sign documents changed since the last run, drop deleted ones, re-score
    their pairs and re-group, in place, in one transaction."""
    path = index_location(cfg)
    started = datetime.now(UTC)
    with open_configured(cfg, settings) as index:
        meta = index.meta()
        since = meta.get("last_sync_started")
        if not since:
            raise UsageError(f"index {path} has no record of a sync with Paperless: run a full 'rebuild-index' first")
        after = (datetime.fromisoformat(since) - INCREMENTAL_OVERLAP).isoformat().replace("+00:00", "Z")
        # What the index held *before* Paperless is asked which documents exist: a
        # document consumed and hooked after that question is not in this snapshot, so
        # it can never be taken for one deleted (issue 18).
        known = index.modified_of()
        changed = _read_documents(args, cfg, client, info, modified_after=after)
        present = set(client.document_ids())
        deleted = [i for i in known if i not in present]
        remaining = len(known) - len(deleted) + len({d.id for d in changed} - set(known))
        guards.check_shrink(f"Paperless at {cfg['paperless.url']}", remaining, len(known), location=path,
                            allow=bool(getattr(args, "allow_shrink", False)))
        feats = [compute(d.id, d.content, settings.features, title=d.title) for d in changed]
        pictures = {d.id: p for d in changed if (p := picture_if_any(client, cfg, settings, d.id, d.content)) is not None}
        pictures |= stale_pictures_again(index, client, cfg, skip={d.id for d in changed} | set(deleted))
        touched = {d.id for d in changed} | set(deleted)
        pairs, _groups = index.results()
        # Pairs hooks found are grouped by this run: no longer "found by hooks since the last rebuild".
        kept = [{k: v for k, v in p.items() if k not in ("found_by", "found_at")}
                for p in pairs if p["a"] not in touched and p["b"] not in touched]
        dismissed = index.dismissed_pairs()
        with index.write(), holding_index(index, "paperless-dedupe rebuild-index --incremental"):
            for doc_id in deleted:
                index.remove(doc_id)
            for f, d in zip(feats, changed, strict=True):
                index.put(f, modified=d.modified, keys=settings.band_keys(f))
            new_pairs: dict[tuple[int, int], dict[str, Any]] = {}
            known_texts = {d.id: d.content for d in changed}

            def texts(ids: Sequence[int]) -> dict[int, str]:
                # Changed documents were just read; only unchanged candidates are fetched.
                out = {i: known_texts[i] for i in ids if i in known_texts}
                out.update(client.document_texts([i for i in ids if i not in known_texts]))
                return out

            for f in feats:
                matches, _n = find_matches(index, f, settings, texts=texts, dismissed=dismissed)
                for m in matches:
                    new_pairs[(m.a, m.b)] = m.as_dict()
            pictures_changed(index, pictures, new_pairs, dismissed, info)
            all_pairs = kept + list(new_pairs.values())
            groups = cluster.groups((p["a"], p["b"], p["score"]) for p in all_pairs)
            group_dicts = [{"primary": g.primary, "members": list(g.members), "confidence": g.confidence} for g in groups]
            index.store_results(all_pairs, group_dicts)
            index.set_meta({"last_rebuild": now_iso(), "last_rebuild_kind": "incremental",
                            "last_sync_started": started.isoformat(timespec="seconds")})
            count = index.count()
    info(f"incremental: {len(changed)} changed, {len(deleted)} deleted, {count} indexed")
    return {"config": settings.describe(), "documents": count, "candidates": len(new_pairs),
            "pairs": sorted(all_pairs, key=lambda p: (p["a"], p["b"])), "groups": group_dicts,
            "changed": len(changed), "deleted": len(deleted)}


def check_document(client: Any, cfg: Config, settings: Settings, doc_id: int, *,
                   near_misses: int = 0) -> dict[str, Any]:
    """What the hook would find for one document; with ``near_misses`` > 0 also that many of
    the candidates under the threshold, closest first, with what held each back."""
    root = client.root_id(doc_id)
    doc = client.get_document(root, fields=("id", "title", "content"))
    feats = compute(root, str(doc.get("content") or ""), settings.features, title=str(doc.get("title") or ""))
    from ..paperless.visibility import RecordingTexts, tell_apart

    picture = picture_if_any(client, cfg, settings, root, str(doc.get("content") or ""))
    texts = RecordingTexts(client.document_texts)  # which candidates Paperless did not show the user
    with open_configured(cfg, settings) as index:
        known = index.fingerprint(root) is not None
        dismissed = index.dismissed_pairs()
        matches, n = find_matches(index, feats, settings, texts=texts, dismissed=dismissed,
                                  extra_df=None if known else {t: 1 for t in feats.tokens})
        missed, n_missed = ([], 0) if not near_misses else engine_near_misses(
            index, feats, settings, texts=texts, dismissed=dismissed,
            extra_df=None if known else {t: 1 for t in feats.tokens}, limit=near_misses)
        if picture is not None and picture.signature is not None:
            from ..picturepairs import find_picture_matches

            found, n_pictures = find_picture_matches(index, root, picture.signature, dismissed=dismissed,
                                                     skip=[(m.a, m.b) for m in matches])
            matches, n = matches + found, n + n_pictures
        titles = {f.doc_id: f.title for f in index.features(
            [m.a if m.b == root else m.b for m in matches] + [h.pair.a if h.pair.b == root else h.pair.b for h in missed],
            settings.features.num_permutations)}
    out = []
    for m in matches:
        other = m.a if m.b == root else m.b
        out.append({"id": other, "title": titles.get(other, "")} | {k: v for k, v in m.as_dict().items() if k not in ("a", "b")})
    # Whether the document was compared at all: one with too little text even for the short
    # rule (core.short) says so rather than "no duplicates among 0 candidates".
    by_picture = picture is not None and picture.signature is not None
    compared = feats.comparable or by_picture
    why = "" if compared else f"too little text: {feats.word_count} word(s)" + (
        f"; {picture.why}" if picture is not None else "")
    result = {"document": root, "comparable": feats.comparable, "compared": compared, "not_compared_because": why,
              "compared_by_picture": by_picture, "picture": None if picture is None else picture.why or "compared",
              "short": feats.short, "words": feats.word_count,
              "candidates": n, "matches": out, **tell_apart(client, sorted(texts.missing)).as_dict()}
    if near_misses:
        result["similarity_threshold"] = settings.scoring.similarity_threshold
        result["near_misses"] = [{"id": (other := h.pair.a if h.pair.b == root else h.pair.b),
                                  "title": titles.get(other, "")} | h.as_dict() for h in missed]
        result["near_misses_not_shown"] = n_missed - len(missed)
    return result


def status(cfg: Config, settings: Settings) -> dict[str, Any]:
    out: dict[str, Any] = {
        **describe_location(cfg),  # sqlite: index_path, index_bytes; redis: the URL without password
        "documents": 0,
        "last_rebuild": None,
        "num_permutations": settings.features.num_permutations,
        "num_bands": settings.banding.bands,
        "rows": settings.banding.rows,
        "similarity_threshold": settings.scoring.similarity_threshold,
        "lsh_threshold": settings.lsh_target,
        "s_curve_midpoint": round(settings.banding.midpoint, 4),
        "lsh_config": settings.log_lines()[0],
        "s_curve_warning": next(iter(settings.log_lines()[1:]), None),
        "config_path": str(cfg.path) if cfg.path else None,
        "config": settings.describe(),
    }
    if out["index_exists"]:
        with open_configured(cfg, settings) as index:
            meta = index.meta()
            out["documents"] = index.count()
            out["pictures"] = index.picture_count()  # documents with too little text, kept by their picture
            out["last_rebuild"] = meta.get("last_rebuild")
            pairs, groups = index.results()
            out["duplicate_pairs"] = len(pairs)
            out["groups"] = len(groups)
            from ._since_rebuild import status_fields

            out |= status_fields(pairs, groups, out["last_rebuild"])
    out |= pending_and_paperless(cfg, out["documents"])
    return out


def analysis_titles(analysis: Analysis) -> dict[str, str]:
    return {str(f.doc_id): f.title for f in analysis.features}
