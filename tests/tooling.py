"""Tools and services some tests need (redis-server, chromium, shellcheck, openssl,
the C signature kernel).  On a developer's machine a missing one skips those tests
and says how to install it; in CI (``.ci/run`` sets ``PAPERLESS_DEDUPE_CI=1`` after
installing them all) a missing one fails the run: a test that silently skips there
proves nothing.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

IN_CI = os.environ.get("PAPERLESS_DEDUPE_CI", "") == "1"


def missing(what: str) -> NoReturn:
    """Skip (locally) or fail (in CI) because ``what`` is not available."""
    if IN_CI or os.environ.get("PAPERLESS_DEDUPE_REQUIRE_C_KERNEL") and "kernel" in what:
        pytest.fail(f"{what}: PAPERLESS_DEDUPE_CI=1 says it must be here (.ci/run installs it)")
    pytest.skip(what, allow_module_level=True)


def skip_without(available: bool, what: str) -> pytest.MarkDecorator:
    """A ``skipif`` marker that never skips in CI: there the test runs and fails."""
    return pytest.mark.skipif(not available and not IN_CI, reason=what)
