"""What several commands share: a Paperless client built from the configuration.

Kept apart from ``cli`` so that command modules never import the dispatcher back
(``tests/test_layout.py`` fails on such a cycle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import config as config_mod
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
