"""What several commands share: a Paperless client built from the configuration.

Kept apart from ``cli`` so that command modules never import the dispatcher back
(``tests/test_layout.py`` fails on such a cycle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import config as config_mod
from .. import pending
from .._errors import DedupeError
from ..config import Config

if TYPE_CHECKING:
    from ..paperless.client import PaperlessClient


def paperless_client(cfg: Config) -> PaperlessClient:
    """A client for ``paperless.url`` with the configured token, timeout and TLS check."""
    # httpx is imported only by the commands that talk to Paperless.
    from ..paperless.client import PaperlessClient

    return PaperlessClient(
        url=cfg["paperless.url"], token=config_mod.require_token(cfg),
        timeout_seconds=cfg["paperless.timeout_seconds"], verify_tls=cfg["paperless.verify_tls"],
    )


def pending_and_paperless(cfg: Config, indexed: int) -> dict[str, Any]:
    """Documents hooks queued (the index was held), and the index's count next to
    Paperless's (when a token is configured; ``status`` works without one)."""
    waiting = pending.queued(cfg.index_path)  # for Redis: what hooks on this host queued
    out: dict[str, Any] = {"pending_documents": len(waiting),
                           "pending_ids": [item["id"] for item in waiting[:20]],
                           "paperless_documents": None, "paperless_error": None}
    try:
        from ..paperless.client import PaperlessClient

        token = config_mod.require_token(cfg)
        with PaperlessClient(url=cfg["paperless.url"], token=token, verify_tls=cfg["paperless.verify_tls"],
                             timeout_seconds=min(10.0, cfg["paperless.timeout_seconds"]), max_retries=0) as client:
            out["paperless_documents"] = client.count_documents()
    except DedupeError as exc:
        out["paperless_error"] = str(exc)
    count = out["paperless_documents"]
    out["index_vs_paperless"] = None if count is None else indexed - count
    return out
