"""Listing documents without skipping any, as a mixin of :class:`client.PaperlessClient`.

Paging a list by page number while documents are trashed shifts every later page by
one: the document at each page boundary is never listed, and no incremental run
brings it back (it was never modified).  So documents are listed by a stable key:
``id__gt`` where the server honours it; otherwise (Paperless 3.0.5 filters ids by
``id`` and ``id__in`` only) the ids first, in one page of up to 100,000, then the
documents by ``id__in``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ._http import fields_param, status_failure, utc_param

IDS_PER_REQUEST = 200  # ids in one id__in filter: a URL of about 1.4 kB
_IDS_PAGE = 100_000  # Paperless's largest page_size
_NO_ID_ABOVE = 2**31 - 1

if TYPE_CHECKING:
    import httpx  # client.py imports it (without its command line) before this module is used


class DocumentListing:
    """Needs, from the client it is mixed into: ``_send``, ``_parse``, ``_dict``,
    ``_list``, ``_shape_error``, ``_prefix`` and ``_token``."""

    _prefix: str
    _token: str
    _id_gt: bool | None
    # Methods of PaperlessClient, declared for the type checker only:
    _send: Callable[..., httpx.Response]
    _parse: Callable[[httpx.Response, str, str, int | None], Any]
    _dict: Callable[..., dict[str, Any]]
    _list: Callable[..., list[dict[str, Any]]]
    _shape_error: Callable[..., Exception]
    _pages: Callable[[str, Mapping[str, str | int]], Iterator[dict[str, Any]]]

    def _page(self, path: str, query: Mapping[str, str | int]) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """One page of a list: (the body, its results); None for 404 "Invalid page."."""
        resp = self._send("GET", path, params=query)
        if resp.status_code == 404 and query.get("page", 1) != 1:
            return None
        if resp.status_code != 200:
            raise status_failure(resp.status_code, resp.headers, resp.content, None, method="GET", path=path,
                                 prefix=self._prefix).build(
                f"GET {self._prefix}{path}", self._prefix + path, None, self._token)
        data = self._dict(self._parse(resp, f"GET {self._prefix}{path}", self._prefix + path, None),
                          "GET", path, key="results")
        return data, self._list(data["results"], "GET", path)

    def _int_id(self, item: Mapping[str, Any]) -> int:
        value = item.get("id")
        if not isinstance(value, int) or isinstance(value, bool):
            raise self._shape_error("a document without an integer id", "GET", "/api/documents/")
        return value

    def _honours_id_gt(self) -> bool:
        """Whether the server filters documents by ``id__gt`` (Paperless 3.0.5 does not:
        it filters ids by ``id`` and ``id__in`` only and ignores other lookups).  One
        request for one id: a server that honours it finds nothing above 2^31 - 1."""
        if self._id_gt is None:
            got = self._page("/api/documents/", {"id__gt": _NO_ID_ABOVE, "page_size": 1, "fields": "id"})
            assert got is not None  # page 1 never answers "Invalid page."
            self._id_gt = not got[1]
        return self._id_gt

    def _after_ids(self, params: Mapping[str, str | int]) -> Iterator[dict[str, Any]]:
        """Keyset pages: each starts after the last id read, so nothing trashed or added
        meanwhile shifts a page boundary."""
        last = 0
        while True:
            got = self._page("/api/documents/", {**params, "id__gt": last})
            assert got is not None
            data, results = got
            ids = [self._int_id(item) for item in results]
            if any(i <= last for i in ids) or ids != sorted(ids):
                raise self._shape_error("documents out of id order for id__gt", "GET", "/api/documents/")
            yield from results
            if not data.get("next") or not results:
                return
            last = ids[-1]

    def _listed_ids(self, params: Mapping[str, str | int]) -> list[int]:
        """Every id a list with ``params`` holds (fields=id).  Up to 100,000 ids come in
        one page, all at once; a longer list whose ``count`` changed while it was read
        (a page boundary may have shifted) is read again."""
        query = {k: v for k, v in params.items() if k not in ("fields", "page_size")}
        query |= {"fields": "id", "page_size": _IDS_PAGE, "ordering": "id"}
        for _attempt in range(3):
            ids: list[int] = []
            counts: set[object] = set()
            page = 1
            while True:
                got = self._page("/api/documents/", {**query, "page": page})
                if got is None:
                    counts.add(None)  # the list shrank past our page
                    break
                data, results = got
                counts.add(data.get("count"))
                ids.extend(self._int_id(item) for item in results)
                if not data.get("next") or not results:
                    break
                page += 1
            if len(counts) == 1:
                break
        return sorted(set(ids))

    def iter_documents(
        self,
        *,
        fields: Sequence[str],
        modified_after: str | None = None,
        ids: Sequence[int] | None = None,
        page_size: int = 500,
    ) -> Iterator[dict[str, Any]]:
        """Documents in id order (lists omit trashed documents and version rows).

        Never by page number: a document trashed meanwhile would shift every later
        page by one and the document at each boundary would never be listed.  Where the
        server honours ``id__gt`` each page starts after the last id read; otherwise the
        ids come first (one page of up to 100,000) and the documents by ``id__in``, so a
        document trashed meanwhile is missing and no other."""
        params: dict[str, str | int] = {"page_size": max(1, int(page_size)), "ordering": "id",
                                        "fields": fields_param(fields)}
        if modified_after is not None:
            params["modified__gt"] = utc_param(modified_after)
        if ids is None:
            if self._honours_id_gt():
                yield from self._after_ids(params)
                return
            ids = self._listed_ids(params)
        wanted = sorted({int(i) for i in ids})
        step = min(IDS_PER_REQUEST, int(params["page_size"]))
        params["page_size"] = step
        for start in range(0, len(wanted), step):
            chunk = wanted[start : start + step]
            yield from self._pages("/api/documents/", {**params, "id__in": ",".join(map(str, chunk))})

    def document_texts(self, ids: Sequence[int]) -> dict[int, str]:
        """The current ``content`` of each document in ``ids`` that the token can see
        (one request per 200 ids); deleted or hidden ones are left out."""
        if not ids:
            return {}
        out: dict[int, str] = {}
        for item in self.iter_documents(fields=["id", "content"], ids=ids, page_size=IDS_PER_REQUEST):
            out[self._int_id(item)] = str(item.get("content") or "")
        return out

    def document_ids(self) -> list[int]:
        """Every document id the token can see."""
        return self._listed_ids({})
