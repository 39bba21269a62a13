"""The picture path in the library-wide commands (issue 26): ``rebuild-index`` fetches
the thumbnails of documents with too little text and groups the pairs they make; an
incremental run and ``check`` compare such a document by its picture too.  The work is
``picturepairs``'; this module joins it to the commands' arguments and output."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..engine import Settings
from ..rebuild import Analysis
from .progress import Progress

if TYPE_CHECKING:
    from ..picturepairs import Picture


def source_name(args: argparse.Namespace) -> str:
    if args.from_jsonl:
        return f"the JSONL file {args.from_jsonl}"
    return f"the export {args.from_export}"


def add_pictures_of(analysis: Analysis, ids: set[int], client: Any, dismissed: set[tuple[int, int]],
                    args: argparse.Namespace, info: Callable[[str], None]) -> None:
    """The pictures of the documents with too little text, and the pairs they make (from
    Paperless's thumbnails; a JSONL file or an export has none: they are skipped)."""
    if client is None:
        info(f"{len(ids)} document(s) with too little text not compared by picture: {source_name(args)} "
             "holds no pictures (a rebuild from Paperless fetches their thumbnails)")
        return
    from ..picturepairs import add_pictures

    progress = Progress("fetching pictures", len(ids), quiet=args.quiet)
    lines = add_pictures(analysis, ids, client, dismissed=dismissed, progress=progress.update)
    progress.finish()
    for line in lines:
        if line.startswith("[WARN]"):
            print(line, file=sys.stderr)
        else:
            info(line)


def picture_if_any(client: Any, cfg: Config, settings: Settings, doc_id: int, content: str) -> Picture | None:
    """The document's picture (picturepairs.Picture) when it takes the picture path, else None."""
    from ..core.picturepath import takes_picture_path

    if not cfg["detection.pictures"] or not takes_picture_path(content, settings.features.min_words):
        return None
    from ..picturepairs import picture_of

    return picture_of(doc_id, client)


def stale_pictures_again(index: Any, client: Any, cfg: Config, *, skip: set[int]) -> dict[int, Picture]:
    """The pictures another PICTURE_VERSION made, hashed again from Paperless's thumbnails
    (an upgrade that changed the signature: an incremental run brings the index up to date)."""
    if not cfg["detection.pictures"]:
        return {}
    from ..core.picture import PICTURE_VERSION
    from ..picturepairs import picture_of

    return {doc_id: picture_of(doc_id, client) for doc_id in index.stale_pictures(PICTURE_VERSION)
            if doc_id not in skip}


def pictures_changed(index: Any, pictures: dict[int, Picture], pairs: dict[tuple[int, int], dict[str, Any]],
                     dismissed: set[tuple[int, int]], info: Callable[[str], None]) -> None:
    """An incremental run's changed documents with too little text: their pictures stored
    (inside the write) and the pairs they make added to ``pairs``."""
    from ..picturepairs import find_picture_matches, store_picture

    for doc_id, picture in sorted(pictures.items()):
        if picture.signature is None:
            index.remove_picture(doc_id)  # a stale one is of no use
            if picture.warn:
                info(f"[WARN] document {doc_id}: {picture.why}")
            continue
        store_picture(index, doc_id, picture.signature)
    for doc_id, picture in sorted(pictures.items()):
        if picture.signature is not None:
            found, _n = find_picture_matches(index, doc_id, picture.signature, dismissed=dismissed, skip=pairs)
            pairs.update({(m.a, m.b): m.as_dict() for m in found})
