"""Shared fixtures: a real-HTTP fake Paperless and clients pointed at it.

``fake_paperless`` yields a running, empty :class:`FakePaperless` (mode "3.x").  Other
modes through indirect parametrisation::

    @pytest.mark.parametrize("fake_paperless", ["3.x", "2.20"], indirect=True)
    def test_x(fake_paperless): ...

or a dict of constructor keywords: ``[{"mode": "2.20", "prefix": "/paperless"}]``.
``make_client(**overrides)`` builds a :class:`PaperlessClient` for it (fast backoff,
closed at teardown).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

try:
    from tests.fake_paperless import FakePaperless
except ImportError:  # tests/ is on sys.path but the repository root is not
    from fake_paperless import FakePaperless  # type: ignore[no-redef]

from paperless_dedupe_hook.paperless.client import PaperlessClient


@pytest.fixture
def fake_paperless(request: pytest.FixtureRequest) -> Iterator[FakePaperless]:
    param = getattr(request, "param", "3.x")
    kwargs: dict[str, Any] = dict(param) if isinstance(param, dict) else {"mode": param}
    fake = FakePaperless(**kwargs).start()
    try:
        yield fake
    finally:
        fake.stop()
        assert not fake.errors, "the fake Paperless itself failed:\n" + "\n".join(fake.errors)
        # Nothing is ever deleted (PRODUCT.md): no test may send a DELETE to Paperless.
        assert not fake.requests_for("DELETE"), [r.path for r in fake.requests_for("DELETE")]


@pytest.fixture
def make_client(fake_paperless: FakePaperless) -> Iterator[Callable[..., PaperlessClient]]:
    clients: list[PaperlessClient] = []

    def make(**overrides: Any) -> PaperlessClient:
        options: dict[str, Any] = {
            "url": fake_paperless.url, "token": fake_paperless.token, "timeout_seconds": 5.0,
            "max_retries": 3, "backoff_seconds": 0.01,
        }
        options.update(overrides)
        client = PaperlessClient(**options)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()
