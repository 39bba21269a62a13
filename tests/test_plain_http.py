"""The plain-HTTP transport (paperless/_plain_http.py) against real sockets on loopback."""

from __future__ import annotations

import contextlib
import gzip
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx
import pytest

from paperless_dedupe_hook._errors import PaperlessConnectionError, PaperlessTimeout
from paperless_dedupe_hook.paperless._plain_http import PlainHTTPTransport
from paperless_dedupe_hook.paperless.client import PaperlessClient
from tests.fake_paperless import FakePaperless

# What a connection handler gets: the accepted socket and the number of the connection.
Handler = Callable[[socket.socket, int], None]


@contextmanager
def raw_server(handle: Handler) -> Iterator[tuple[str, list[bytes]]]:
    """A loopback server that runs ``handle`` for each connection; yields its URL and the
    requests it read (``read_request`` appends them)."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    stop = threading.Event()

    def serve() -> None:
        n = 0
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            n += 1
            threading.Thread(target=_run, args=(handle, conn, n), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}", SEEN
    finally:
        stop.set()
        thread.join(5)
        listener.close()
        SEEN.clear()


SEEN: list[bytes] = []


def _run(handle: Handler, conn: socket.socket, n: int) -> None:
    # A client that gave up (the timeout tests) resets the connection: the handler's end.
    with conn, contextlib.suppress(OSError):
        handle(conn, n)


def read_request(conn: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)
    while len(rest) < length:
        rest += conn.recv(65536)
    SEEN.append(head + b"\r\n\r\n" + rest)
    return data


def answer(body: bytes, *, extra: str = "") -> bytes:
    return (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n{extra}\r\n"
            .encode() + body)


def send(transport: httpx.BaseTransport, url: str, **kwargs: object) -> httpx.Response:
    with httpx.Client(transport=transport, timeout=httpx.Timeout(2.0)) as client:
        return client.get(url, **kwargs)  # type: ignore[arg-type]


def test_keeps_one_connection_alive_between_requests() -> None:
    def handle(conn: socket.socket, n: int) -> None:
        while read_request(conn):
            conn.sendall(answer(b'{"connection": %d}' % n))

    transport = PlainHTTPTransport()
    with raw_server(handle) as (url, _), httpx.Client(transport=transport, timeout=2.0) as client:
        assert [client.get(f"{url}/api/{i}/").json() for i in range(3)] == [{"connection": 1}] * 3


def test_a_connection_the_server_closed_while_idle_is_replaced() -> None:
    def handle(conn: socket.socket, n: int) -> None:
        read_request(conn)
        conn.sendall(answer(b'{"connection": %d}' % n))  # keep-alive promised, then closed

    with raw_server(handle) as (url, _), httpx.Client(transport=PlainHTTPTransport(), timeout=2.0) as client:
        first = client.get(f"{url}/a/").json()
        time.sleep(0.1)  # the server has closed its end by now
        assert client.post(f"{url}/b/", json={"x": 1}).json() == {"connection": 2}
        assert first == {"connection": 1}


def test_connection_close_and_chunked_and_gzip_answers_are_read() -> None:
    body = gzip.compress(b'{"results": [1, 2, 3]}')

    def handle(conn: socket.socket, n: int) -> None:
        read_request(conn)
        chunked = f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n"
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n"
                     b"Connection: close\r\n\r\n" + chunked)

    transport = PlainHTTPTransport()
    with raw_server(handle) as (url, _):
        assert send(transport, f"{url}/x/").json() == {"results": [1, 2, 3]}
        assert send(transport, f"{url}/y/").json() == {"results": [1, 2, 3]}  # a new connection: the last closed


def test_the_request_goes_out_as_httpx_made_it() -> None:
    def handle(conn: socket.socket, n: int) -> None:
        read_request(conn)
        conn.sendall(answer(b"{}"))

    with raw_server(handle) as (url, seen), httpx.Client(transport=PlainHTTPTransport(), timeout=2.0) as client:
        client.post(f"{url}/api/documents/7/notes/?x=%C3%BC", json={"note": "Dublette von #3"},
                    headers={"Authorization": "Token abc"})
        (raw,) = seen
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    assert lines[0] == b"POST /api/documents/7/notes/?x=%C3%BC HTTP/1.1"
    assert b"Authorization: Token abc" in lines and b"Content-Type: application/json" in lines
    assert sum(line.lower().startswith(b"host:") for line in lines) == 1
    assert body == b'{"note":"Dublette von #3"}'


def test_a_refused_connection_is_a_connect_error() -> None:
    spare = socket.create_server(("127.0.0.1", 0))
    port = spare.getsockname()[1]
    spare.close()  # nothing listens there now
    with pytest.raises(httpx.ConnectError):
        send(PlainHTTPTransport(), f"http://127.0.0.1:{port}/")


def test_a_server_that_never_answers_is_a_read_timeout() -> None:
    def handle(conn: socket.socket, n: int) -> None:
        read_request(conn)
        threading.Event().wait(3)  # holds the connection, says nothing

    with raw_server(handle) as (url, _), pytest.raises(httpx.ReadTimeout):
        with httpx.Client(transport=PlainHTTPTransport(), timeout=httpx.Timeout(0.3)) as client:
            client.get(f"{url}/slow/")


@pytest.mark.parametrize("reply", [
    pytest.param(b"SSH-2.0-OpenSSH_9.2\r\n", id="not-http"),
    pytest.param(b"", id="closed-without-answer"),
])
def test_an_answer_that_is_not_http_is_an_error_of_httpx(reply: bytes) -> None:
    def handle(conn: socket.socket, n: int) -> None:
        read_request(conn)
        conn.sendall(reply)

    with raw_server(handle) as (url, _), pytest.raises((httpx.RemoteProtocolError, httpx.ReadError)):
        send(PlainHTTPTransport(), f"{url}/")


def test_https_is_refused_not_sent_in_clear() -> None:
    with pytest.raises(httpx.UnsupportedProtocol):
        send(PlainHTTPTransport(), "https://127.0.0.1:1/")


def test_the_client_says_unreachable_and_timed_out_in_its_own_words() -> None:
    spare = socket.create_server(("127.0.0.1", 0))
    port = spare.getsockname()[1]
    spare.close()
    client = PaperlessClient(url=f"http://127.0.0.1:{port}", token="t", max_retries=0)
    with client, pytest.raises(PaperlessConnectionError, match="unreachable"):
        client.ui_settings()

    def handle(conn: socket.socket, n: int) -> None:
        read_request(conn)
        threading.Event().wait(3)

    with raw_server(handle) as (url, _):
        slow = PaperlessClient(url=url, token="t", timeout_seconds=0.3, max_retries=0)
        with slow, pytest.raises(PaperlessTimeout, match="did not answer within 0.3 s"):
            slow.ui_settings()


@pytest.fixture
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)


def test_the_client_uses_it_for_http_and_not_for_https(no_proxy: None) -> None:
    plain = PaperlessClient(url="http://paperless.invalid:8000", token="t")
    secure = PaperlessClient(url="https://paperless.invalid", token="t")
    with plain, secure:
        assert isinstance(plain._http._transport, PlainHTTPTransport)
        assert not isinstance(secure._http._transport, PlainHTTPTransport)


def test_the_hook_path_does_not_import_httpcore(fake_paperless: FakePaperless, no_proxy: None) -> None:
    """What the transport is for: a whole client conversation without httpcore, h11 or anyio."""
    fake_paperless.seed_sample()
    code = (
        "import sys\n"
        "from paperless_dedupe_hook.paperless.client import PaperlessClient\n"
        f"with PaperlessClient(url={fake_paperless.url!r}, token={fake_paperless.token!r}) as c:\n"
        "    assert c.get_document(1, fields=('id', 'content'))['id'] == 1\n"
        "print(sorted(m for m in ('httpcore', 'h11', 'anyio') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_proxy_from_the_environment_still_gets_the_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """httpx mounts its own transport for HTTP_PROXY: the plain transport is only the default."""
    def handle(conn: socket.socket, n: int) -> None:
        read_request(conn)
        conn.sendall(answer(b'{"via": "proxy"}'))

    with raw_server(handle) as (proxy, seen):
        monkeypatch.setenv("HTTP_PROXY", proxy)
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        client = PaperlessClient(url="http://paperless.invalid:8000", token="t", max_retries=0)
        with client:
            assert not isinstance(client._http._transport, PlainHTTPTransport)
            assert client._http.get("http://paperless.invalid:8000/api/").json() == {"via": "proxy"}
        assert seen[0].startswith(b"GET http://paperless.invalid:8000/api/ HTTP/1.1")
