"""A plain-HTTP transport for httpx on the standard library's ``http.client``.

httpx's own transport imports httpcore, h11 and anyio when the first client is made: ~15 ms,
a tenth of the hook's time above its imports, for the two or three requests a hook makes to
a Paperless that is usually on the same host or in the same compose network.  ``http.client``
is loaded with httpx already.  So a client for an ``http://`` URL sends through
:class:`PlainHTTPTransport`; ``https://`` URLs stay with httpx's transport, and so does every
client while a proxy is set in the environment (:func:`proxy_in_environment`: httpx honours
``HTTP_PROXY`` and the like only when it makes the transport itself).

It keeps one connection per host and port alive between requests, as httpx does, and raises
httpx's exceptions, telling a failed connect (``ConnectError``, ``ConnectTimeout``: the server
cannot have acted on the request, so the client may retry any request) from a failure after
the request went out (``ReadError``, ``ReadTimeout``, ``RemoteProtocolError``).
"""

from __future__ import annotations

import http.client
import select
import urllib.request

import httpx

__all__ = ["PlainHTTPTransport", "proxy_in_environment"]


def proxy_in_environment() -> bool:
    """Whether HTTP_PROXY or ALL_PROXY (either case) is set: then httpx's transport, which
    sends through the proxy unless NO_PROXY says otherwise."""
    found = urllib.request.getproxies_environment()
    return bool(found.get("http") or found.get("all"))


class PlainHTTPTransport(httpx.BaseTransport):
    def __init__(self) -> None:
        self._connections: dict[tuple[str, int], http.client.HTTPConnection] = {}

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        if url.scheme != "http":
            raise httpx.UnsupportedProtocol(f"the plain-HTTP transport cannot send to {url.scheme}://", request=request)
        timeouts = request.extensions.get("timeout") or {}
        key = (url.host, url.port or 80)
        body = request.read()
        conn = self._idle(key)
        if conn is None:
            conn = http.client.HTTPConnection(url.host, key[1], timeout=timeouts.get("connect"))
            try:
                conn.connect()
            except TimeoutError as exc:  # socket.timeout is TimeoutError since Python 3.10
                raise httpx.ConnectTimeout(str(exc) or "timed out connecting", request=request) from None
            except OSError as exc:
                raise httpx.ConnectError(str(exc), request=request) from None
            self._connections[key] = conn
        try:
            assert conn.sock is not None  # connected above or kept from an earlier request
            conn.sock.settimeout(timeouts.get("read"))
            conn.putrequest(request.method, url.raw_path.decode("ascii"), skip_host=True, skip_accept_encoding=True)
            for name, value in request.headers.raw:  # as httpx spelled them (multi_items lower-cases)
                conn.putheader(name, value)
            conn.endheaders(body or None)
            answer = conn.getresponse()
            content = answer.read()
        except TimeoutError as exc:
            self._drop(key)
            raise httpx.ReadTimeout(str(exc) or "timed out", request=request) from None
        except http.client.HTTPException as exc:  # a status line or header that is not HTTP
            self._drop(key)
            raise httpx.RemoteProtocolError(f"{type(exc).__name__}: {exc}", request=request) from None
        except OSError as exc:
            self._drop(key)
            raise httpx.ReadError(str(exc), request=request) from None
        if answer.will_close:
            self._drop(key)
        return httpx.Response(
            answer.status,
            headers=answer.getheaders(),
            stream=httpx.ByteStream(content),
            request=request,
            extensions={"http_version": b"HTTP/1.1", "reason_phrase": answer.reason.encode("latin-1", "replace")},
        )

    def _idle(self, key: tuple[str, int]) -> http.client.HTTPConnection | None:
        """The kept connection, unless the server closed it meanwhile (a closed socket reads
        as ready: httpcore makes the same check before it reuses one)."""
        conn = self._connections.get(key)
        if conn is None or conn.sock is None:
            return None
        try:
            readable, _, _ = select.select([conn.sock], [], [], 0)
        except (OSError, ValueError):
            readable = [conn.sock]
        if readable:
            self._drop(key)
            return None
        return conn

    def _drop(self, key: tuple[str, int]) -> None:
        conn = self._connections.pop(key, None)
        if conn is not None:
            conn.close()

    def close(self) -> None:
        for key in list(self._connections):
            self._drop(key)

