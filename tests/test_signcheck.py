"""doctor's signer check: agrees on a good install, names the difference on a bad one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from paperless_dedupe_hook.commands import signcheck
from paperless_dedupe_hook.core import minhash


@pytest.mark.parametrize(("num_permutations", "seed", "ngram_size"),
                         [pytest.param(256, 1, 2, id="defaults"), pytest.param(17, 9, 3, id="odd")])
def test_installed_signer_agrees_with_numpy_and_datasketch(num_permutations: int, seed: int, ngram_size: int) -> None:
    same, line = signcheck.check(num_permutations=num_permutations, seed=seed, ngram_size=ngram_size)
    assert same, line
    assert "numpy and datasketch" in line and minhash.KERNEL in line


def test_a_miscomputing_signer_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = minhash.word_ngram_signature

    def off_by_one(joined: str, **kwargs: int) -> tuple[np.ndarray, int]:
        sig, count = real(joined, **kwargs)
        if "garden" in joined:  # the second sample only
            sig = sig.copy()
            sig[5] ^= 1
        return sig, count

    monkeypatch.setattr(minhash, "word_ngram_signature", off_by_one)
    same, line = signcheck.check(num_permutations=64, seed=1, ngram_size=2)
    assert not same
    assert "differs from numpy on sample text 2 (value 5:" in line and "PAPERLESS_DEDUPE_NO_C_KERNEL=1" in line


def test_without_datasketch_it_compares_with_numpy_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(signcheck, "_datasketch", lambda: None)
    same, line = signcheck.check(num_permutations=32, seed=1, ngram_size=2)
    assert same and "agrees with numpy on" in line and "datasketch extra" in line


def test_a_hook_run_never_imports_datasketch_or_scipy(tmp_path: Path) -> None:
    """datasketch is installed here (test extra); a whole hook run must still not load it."""
    import os
    import subprocess
    import sys

    probe = ("import sys\nfrom paperless_dedupe_hook import hook\nassert hook.main(document_id='3') == 0\n"
             "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('datasketch', 'scipy'))\n"
             "assert not loaded, loaded\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_", "DOCUMENT_"))}
    env |= {"HOME": str(tmp_path), "PAPERLESS_DEDUPE_URL": "http://127.0.0.1:9", "PAPERLESS_DEDUPE_TOKEN": "t",
            "PAPERLESS_DEDUPE_INDEX": str(tmp_path / "i.sqlite3"), "PAPERLESS_DEDUPE_PAPERLESS_TIMEOUT_SECONDS": "1"}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "document 3 not checked" in done.stderr
