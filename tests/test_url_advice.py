"""Common mistakes in paperless.url get the advice that fits them, each against a real
socket: the fake Paperless, or a plain web server that is not Paperless."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from paperless_dedupe_hook._errors import PaperlessConnectionError, PaperlessResponseError
from paperless_dedupe_hook.paperless.client import PaperlessClient
from tests.fake_paperless import FakePaperless


def test_a_url_ending_in_api_is_told_to_drop_it(fake_paperless: FakePaperless) -> None:
    for url in (fake_paperless.url + "/api/", fake_paperless.url + "/api"):
        with PaperlessClient(url=url, token=fake_paperless.token, max_retries=0) as client:
            with pytest.raises(PaperlessResponseError) as caught:
                client.ui_settings()
        message = str(caught.value)
        assert "paperless.url ends in /api/: set it to the server's address without /api" in message
        assert "PAPERLESS_FORCE_SCRIPT_NAME" not in message and "prefix" not in message
    # the right URL works
    with PaperlessClient(url=fake_paperless.url, token=fake_paperless.token) as client:
        assert client.ui_settings()["user"]["username"] == "admin"


def test_https_against_a_plain_http_port_is_told_to_use_http(fake_paperless: FakePaperless) -> None:
    url = f"https://127.0.0.1:{fake_paperless.port}"
    with PaperlessClient(url=url, token=fake_paperless.token, max_retries=3, backoff_seconds=0.01) as client:
        with pytest.raises(PaperlessConnectionError) as caught:
            client.ui_settings()
    message = str(caught.value)
    assert "the server speaks plain HTTP on that port: use http:// in paperless.url" in message
    assert "certificate" not in message and "verify_tls" not in message
    assert "attempts" not in message  # the same answer every time: not retried
    assert fake_paperless.token not in message


@pytest.fixture
def other_web_server(tmp_path: Path) -> Iterator[str]:
    """A web server that is not Paperless: every /api/ path is a 404 HTML page."""
    handler = partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_server_that_is_not_paperless_answering_404_is_named(other_web_server: str) -> None:
    with PaperlessClient(url=other_web_server, token="t0ken0not0sent0anywhere000000000000000", max_retries=0) as client:
        with pytest.raises(PaperlessResponseError) as settings_failure:
            client.ui_settings()
        with pytest.raises(PaperlessResponseError) as document_failure:
            client.get_document(5)
    for caught in (settings_failure, document_failure):
        message = str(caught.value)
        assert message.startswith("A server that is not Paperless (no X-Version header) answered (404)")
        assert "check paperless.url" in message and "the Paperless web server's address" in message
        assert "deleted" not in message
