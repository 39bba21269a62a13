"""Pairs found by picture (issue 26): documents whose text cannot decide
(:func:`core.picturepath.takes_picture_path`) compared by their first page's thumbnail.

In the hook the thumbnail is the file Paperless names in ``DOCUMENT_THUMBNAIL_PATH``
(else ``GET /api/documents/N/thumb/``); in a rebuild from the API it is fetched for
each such document.  Its signature (:mod:`core.picture`) and lookup keys go into the
index, probed like the text bands.  A pair found this way is a ``PairScore`` with
``verdict = "picture"``: its score is the pictures' and the text scores are empty.

Pillow (``pictures.gray_from_image_bytes``) and ``core.picture`` are imported only
when a document takes this path: a text document pays nothing for it.  Without
Pillow, with a thumbnail that cannot be read or is missing, the picture is skipped
with one warning; the document is indexed all the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ._errors import DedupeError, PaperlessError
from .core.picturepath import takes_picture_path
from .core.scoring import PairScore

if TYPE_CHECKING:
    from .core.picture import PictureSignature
    from .rebuild import Analysis, Document

PICTURE_VERDICT = "picture"


class PictureIndex(Protocol):
    def picture_candidates(self, keys: Sequence[bytes], *, exclude: int | None, version: int) -> dict[int, bytes]: ...
    def put_picture(self, doc_id: int, *, version: int, signature: bytes, keys: Sequence[bytes]) -> None: ...


class ThumbnailClient(Protocol):
    def thumbnail(self, document_id: int) -> tuple[bytes, str]: ...


@dataclass(frozen=True)
class Picture:
    """A document's picture as the hook or a rebuild got it: the signature, or None
    with ``why`` (a blank page; no thumbnail; no Pillow) and whether that is a warning."""

    signature: PictureSignature | None
    why: str = ""
    warn: bool = False


def picture_pair(doc_id: int, other: int, score: float) -> PairScore:
    """A pair found by picture: the pictures' score, no text scores."""
    a, b = min(doc_id, other), max(doc_id, other)
    return PairScore(a, b, score, 0.0, 0.0, 1.0, 0.0, verdict=PICTURE_VERDICT)


def _thumbnail(doc_id: int, client: ThumbnailClient | None, thumbnail_path: str | None) -> tuple[bytes, str]:
    """(bytes, where from): Paperless's thumbnail file when given and readable, else the API."""
    if thumbnail_path and thumbnail_path.strip() not in ("", "None"):
        try:
            return Path(thumbnail_path).read_bytes(), "DOCUMENT_THUMBNAIL_PATH"
        except OSError:
            if client is None:
                raise
    if client is None:
        raise FileNotFoundError(f"no thumbnail for document {doc_id}")
    data, _ctype = client.thumbnail(doc_id)
    return data, f"/api/documents/{doc_id}/thumb/"


def picture_of(doc_id: int, client: ThumbnailClient | None, *, thumbnail_path: str | None = None) -> Picture:
    """The signature of ``doc_id``'s first page, or why there is none."""
    try:
        data, source = _thumbnail(doc_id, client, thumbnail_path)
    except PaperlessError as exc:
        return Picture(None, f"its thumbnail could not be fetched ({exc})", warn=True)
    except OSError as exc:
        return Picture(None, f"its thumbnail {thumbnail_path} could not be read ({exc.strerror or exc})", warn=True)
    try:
        from .pictures import gray_from_image_bytes

        gray = gray_from_image_bytes(data)
    except DedupeError as exc:  # PictureError: Pillow missing, or bytes that are no image
        return Picture(None, f"its picture was not compared: {exc} ({source})", warn=True)
    from .core.picture import picture_signature

    signature = picture_signature(gray)
    if signature is None:
        return Picture(None, "a blank or near-blank page: never paired by picture")
    return Picture(signature)


def find_picture_matches(
    index: PictureIndex, doc_id: int, signature: PictureSignature, *,
    dismissed: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset(),
    skip: Iterable[tuple[int, int]] = (),
) -> tuple[list[PairScore], int]:
    """(pairs found by picture, best first; candidates compared).  ``skip``: pairs the
    text found already (text decides there)."""
    from .core.picture import (
        PICTURE_VERSION,
        PictureSignature,
        choose_candidates,
        compare_pictures,
        picture_band_keys,
    )
    from .index._sqlite_pictures import PICTURE_CANDIDATES_BY_KEYS, PICTURE_CANDIDATES_MAX

    pool = index.picture_candidates(picture_band_keys(signature), exclude=doc_id, version=PICTURE_VERSION)
    stored = choose_candidates(signature, pool, keep=PICTURE_CANDIDATES_MAX, by_keys=PICTURE_CANDIDATES_BY_KEYS)
    known = set(skip) | set(dismissed)
    out = []
    for other, raw in sorted(stored.items()):
        if (min(doc_id, other), max(doc_id, other)) in known:
            continue
        try:
            theirs = PictureSignature.from_bytes(raw)
        except ValueError:  # of another PICTURE_VERSION: a rebuild hashes it again
            continue
        match = compare_pictures(signature, theirs)
        if match.is_duplicate:
            out.append(picture_pair(doc_id, other, match.score))
    return sorted(out, key=lambda p: (-p.score, p.a, p.b)), len(stored)


def store_picture(index: PictureIndex, doc_id: int, signature: PictureSignature) -> None:
    from .core.picture import PICTURE_VERSION, picture_band_keys

    index.put_picture(doc_id, version=PICTURE_VERSION, signature=signature.data, keys=picture_band_keys(signature))


def pair_and_store(index: PictureIndex, doc_id: int, signature: PictureSignature, matches: list[PairScore],
                   candidates: int, *, dismissed: set[tuple[int, int]] | frozenset[tuple[int, int]]
                   ) -> tuple[list[PairScore], int]:
    """The hook's step inside its write: ``matches`` (found by text) and the pairs found by
    picture, the candidates of both counted; then the picture stored."""
    found, looked_at = find_picture_matches(index, doc_id, signature, dismissed=dismissed,
                                            skip=[(m.a, m.b) for m in matches])
    store_picture(index, doc_id, signature)
    return matches + found, candidates + looked_at


# -- a whole library (rebuild-index) -------------------------------------------

def noting(docs: Iterable[Document], min_words: int, found: set[int]) -> Iterator[Document]:
    """``docs`` as they come, with the ids of those taking the picture path added to ``found``."""
    for doc in docs:
        if takes_picture_path(doc.content, min_words):
            found.add(doc.id)
        yield doc


def picture_matches(
    signatures: Mapping[int, PictureSignature], *,
    dismissed: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset(),
    skip: Iterable[tuple[int, int]] = (),
) -> list[PairScore]:
    """Every pair of ``signatures`` that shares an evidence key and whose pictures match,
    by (a, b): what one hook per document would find (the same bucket limit)."""
    from .core.picture import compare_pictures, picture_band_keys
    from .index._sqlite_pictures import PICTURE_BUCKET_MAX

    buckets: dict[bytes, list[int]] = {}
    for doc_id in sorted(signatures):
        for key in dict.fromkeys(picture_band_keys(signatures[doc_id])):
            buckets.setdefault(key, []).append(doc_id)
    known = set(skip) | set(dismissed)
    candidates = {(a, b) for members in buckets.values() if 1 < len(members) <= PICTURE_BUCKET_MAX
                  for i, a in enumerate(members) for b in members[i + 1:]}
    out = []
    for a, b in sorted(candidates - known):
        match = compare_pictures(signatures[a], signatures[b])
        if match.is_duplicate:
            out.append(picture_pair(a, b, match.score))
    return out


def add_pictures(analysis: Analysis, ids: Iterable[int], client: ThumbnailClient, *,
                 dismissed: set[tuple[int, int]] | frozenset[tuple[int, int]],
                 progress: Callable[[int], None] | None = None) -> list[str]:
    """Fetch and hash the thumbnails of ``ids`` (documents taking the picture path), keep
    their signatures in ``analysis.pictures`` (written to the index) and add the pairs
    found by picture to its matches and groups.  Returns the lines to show (warnings
    begin with ``[WARN]``)."""
    from .core import cluster

    ids = sorted(ids)
    warned: list[str] = []
    blank = 0
    for n, doc_id in enumerate(ids, 1):
        picture = picture_of(doc_id, client)
        if picture.signature is not None:
            analysis.pictures[doc_id] = picture.signature
        elif picture.warn:
            warned.append(f"document {doc_id}: {picture.why}")
        else:
            blank += 1
        if progress is not None:
            progress(n)
    lines = [f"[WARN] {line}" for line in warned[:5]]
    if len(warned) > 5:
        lines.append(f"[WARN] ... and {len(warned) - 5} more document(s) whose picture was not compared")
    found = picture_matches(analysis.pictures, dismissed=dismissed, skip=((p.a, p.b) for p in analysis.matches))
    lines.append(f"pictures: {len(ids)} document(s) with too little text, {len(analysis.pictures)} compared by "
                 f"picture, {blank} blank, {len(found)} pair(s) found by picture")
    if found:
        analysis.matches = sorted([*analysis.matches, *found], key=lambda p: (p.a, p.b))
        analysis.groups = cluster.groups((p.a, p.b, p.score) for p in analysis.matches)
    return lines


def by_picture(pair: Mapping[str, Any] | PairScore) -> bool:
    """Whether a pair (a ``--report`` dict or a PairScore) was found by picture."""
    verdict = pair.get("verdict") if isinstance(pair, Mapping) else pair.verdict
    return verdict == PICTURE_VERDICT
