"""Our signatures against datasketch's, value by value, and the LSH band keys.

Both signing paths are checked: the C kernel (when it was built at install time)
and numpy.  CI sets ``PAPERLESS_DEDUPE_REQUIRE_C_KERNEL=1`` so that a kernel that
silently failed to build fails the run instead of being skipped.
"""

import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from datasketch import MinHash
from hypothesis import given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import minhash, text
from tests.tooling import missing

Signer = Callable[..., np.ndarray]


def _kernel_signer() -> Signer:
    if minhash._kernel is None:
        missing("the C signature kernel is not built (pip install -e . needs a C compiler and OpenSSL headers)")
    return minhash.signature


@pytest.fixture(
    scope="module",
    params=[pytest.param("kernel", id="c-kernel"), pytest.param("numpy", id="numpy")],
)
def sign(request: pytest.FixtureRequest) -> Signer:
    return _kernel_signer() if request.param == "kernel" else minhash.signature_numpy


def test_the_kernel_is_used_when_built() -> None:
    assert minhash.KERNEL == ("numpy" if minhash._kernel is None else f"c-{minhash._kernel.SHA1}-sha1")
    if os.environ.get("PAPERLESS_DEDUPE_REQUIRE_C_KERNEL"):
        assert minhash.KERNEL.startswith("c-")


def _datasketch(shingles: set[bytes], num_perm: int, seed: int) -> np.ndarray:
    m = MinHash(num_perm=num_perm, seed=seed)
    for s in shingles:
        m.update(s)
    return m.hashvalues


@pytest.mark.parametrize(("num_perm", "seed"), [pytest.param(256, 1, id="defaults, kept drawn"), pytest.param(256, 2, id="drawn")])
def test_permutations_are_datasketchs(num_perm: int, seed: int) -> None:
    a, b = minhash.permutations(num_perm, seed)
    theirs = MinHash(num_perm=num_perm, seed=seed).permutations
    assert a.dtype == b.dtype == np.uint32
    assert a.tolist() == theirs[0].tolist()
    assert b.tolist() == theirs[1].tolist()


@pytest.mark.parametrize(
    ("num_perm", "seed"),
    [pytest.param(256, 1, id="defaults"), pytest.param(128, 7, id="128-seed7"), pytest.param(17, 0, id="odd-length")],
)
def test_signature_equals_datasketch_value_by_value(sign: Signer, num_perm: int, seed: int) -> None:
    content = "Sehr geehrte Frau Weiß, Ihre Jahresabrechnung 2026 über 1.234,56 € liegt bei. " * 5
    shingles = text.shingles(text.shingle_words(text.normalize(content)), kind="word", size=3)
    ours = sign(shingles, num_permutations=num_perm, seed=seed)
    theirs = _datasketch(shingles, num_perm, seed)
    assert ours.dtype == np.uint32
    assert ours.tolist() == theirs.tolist()


def test_signature_equals_datasketch_bulk_on_many_documents(sign: Signer) -> None:
    rng = np.random.RandomState(3)
    words = [f"w{i}" for i in range(400)]
    docs = [{" ".join(rng.choice(words, 3)).encode() for _ in range(rng.randint(1, 300))} for _ in range(30)]
    bulk = MinHash.bulk([list(d) for d in docs], num_perm=64, seed=1)
    for d, m in zip(docs, bulk, strict=True):
        assert sign(d, num_permutations=64, seed=1).tolist() == m.hashvalues.tolist()


def test_large_set_is_processed_in_blocks_and_still_equal(sign: Signer) -> None:
    shingles = {f"s{i}".encode() for i in range(10_000)}  # more than one block
    assert sign(shingles, num_permutations=32, seed=1).tolist() == _datasketch(shingles, 32, 1).tolist()


def test_empty_set_gives_the_empty_minhash(sign: Signer) -> None:
    assert sign(set(), num_permutations=8, seed=1).tolist() == MinHash(num_perm=8).hashvalues.tolist()


def test_jaccard_estimate_matches_datasketch() -> None:
    a = {f"x{i}".encode() for i in range(300)}
    b = {f"x{i}".encode() for i in range(100, 400)}
    ma, mb = MinHash(num_perm=256), MinHash(num_perm=256)
    ma.update_batch(list(a))
    mb.update_batch(list(b))
    sig_a, sig_b = minhash.signature(a, num_permutations=256, seed=1), minhash.signature(b, num_permutations=256, seed=1)
    ours = minhash.jaccard(sig_a, sig_b)
    assert ours == pytest.approx(ma.jaccard(mb))
    assert 0.3 < ours < 0.7  # true value 0.5
    # The narrow form agrees wherever the full values do, and almost never elsewhere.
    narrow = minhash.jaccard(minhash.narrow(sig_a), minhash.narrow(sig_b))
    assert abs(narrow - ours) <= 2 / 256


def test_narrow_jaccard_removes_chance_agreement() -> None:
    sig = minhash.narrow(minhash.signature({b"a", b"b"}, num_permutations=256, seed=1))
    assert minhash.jaccard(sig, sig) == 1.0
    other = sig.copy()
    other[:] = sig ^ 1  # no position agrees
    assert minhash.jaccard(sig, other) == 0.0
    half = sig.copy()
    half[128:] ^= 1
    assert minhash.jaccard(sig, half) == pytest.approx((0.5 - 2**-16) / (1 - 2**-16))


def test_jaccard_refuses_mixed_widths() -> None:
    full = minhash.signature({b"a"}, num_permutations=16, seed=1)
    with pytest.raises(ValueError, match="differ"):
        minhash.jaccard(full, minhash.narrow(full))


def test_containment_of_a_subset_is_one() -> None:
    assert minhash.containment(0.5, 100, 200) == pytest.approx(1.0)
    assert minhash.containment(0.0, 100, 200) == 0.0
    assert minhash.containment(0.5, 0, 10) == 0.0


def test_band_keys_equal_for_equal_bands_only() -> None:
    sig = minhash.narrow(minhash.signature({b"a", b"b", b"c"}, num_permutations=16, seed=1))
    other = sig.copy()
    other[15] ^= 1  # changes only the last band
    keys_a = minhash.band_keys(sig, bands=4, rows=4)
    keys_b = minhash.band_keys(other, bands=4, rows=4)
    assert keys_a[:3] == keys_b[:3]
    assert keys_a[3] != keys_b[3]
    assert len(set(keys_a)) == 4  # band number is part of the key
    assert all(0 <= k < 2**31 for k in keys_a)  # SQLite stores them in 4 bytes


def test_band_keys_depend_only_on_the_narrow_values() -> None:
    full = minhash.signature({b"a", b"b", b"c"}, num_permutations=16, seed=1)
    high_bits_differ = full ^ np.uint32(0xABCD0000)
    assert minhash.band_keys(minhash.narrow(full), bands=4, rows=4) == minhash.band_keys(
        minhash.narrow(high_bits_differ), bands=4, rows=4)
    with pytest.raises(ValueError, match="narrow"):
        minhash.band_keys(full, bands=4, rows=4)  # type: ignore[arg-type]


def test_band_keys_refuse_more_rows_than_the_signature_has() -> None:
    sig = minhash.narrow(minhash.signature({b"a"}, num_permutations=16, seed=1))
    with pytest.raises(ValueError, match="exceeds"):
        minhash.band_keys(sig, bands=5, rows=4)


def test_every_sha1_padding_case_equals_datasketch(sign: Signer) -> None:
    # Lengths around the 55/56/64-byte block boundaries of SHA-1 padding, and several blocks.
    shingles = [bytes(range(n % 256)) * 1 if n < 256 else b"x" * n for n in range(0, 300)]
    for n in range(0, 300, 7):
        chunk = set(shingles[n : n + 7])
        assert sign(chunk, num_permutations=16, seed=2).tolist() == _datasketch(chunk, 16, 2).tolist()


def test_kernel_refuses_non_bytes_shingles() -> None:
    _kernel_signer()
    with pytest.raises(TypeError, match="bytes"):
        minhash.signature(["text, not bytes"], num_permutations=8, seed=1)  # type: ignore[list-item]


@settings(max_examples=50, deadline=None)
@given(st.sets(st.binary(min_size=1, max_size=150), max_size=60), st.integers(min_value=0, max_value=2**32 - 1))
def test_signature_property_equal_to_datasketch(sign: Signer, shingles: set[bytes], seed: int) -> None:
    ours = sign(shingles, num_permutations=16, seed=seed)
    assert ours.tolist() == _datasketch(shingles, 16, seed).tolist()
    narrow = minhash.narrow(ours)
    assert minhash.from_bytes(minhash.to_bytes(narrow), 16).tolist() == narrow.tolist()
    assert narrow.tolist() == [v & 0xFFFF for v in ours.tolist()]


def test_portable_sha1_build_equals_datasketch(tmp_path: Path) -> None:
    """The kernel without OpenSSL (what a machine without libssl headers builds)."""
    import importlib.util
    import shutil
    import subprocess
    import sysconfig

    cc = (sysconfig.get_config_var("CC") or "cc").split()
    if shutil.which(cc[0]) is None:
        missing(f"no C compiler ({cc[0]}) to build the portable kernel")
    source = Path(minhash.__file__).with_name("_sigkernel.c")
    target = Path(tmp_path) / f"_sigkernel{sysconfig.get_config_var('EXT_SUFFIX')}"
    include = sysconfig.get_paths()["include"]
    subprocess.run([*cc, "-O2", "-shared", "-fPIC", f"-I{include}", str(source), "-o", str(target)], check=True)
    spec = importlib.util.spec_from_file_location("paperless_dedupe_hook.core._sigkernel", target)
    assert spec is not None and spec.loader is not None
    portable = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(portable)
    assert portable.SHA1 == "portable"
    a, b = minhash._permutation_bytes(32, 5)
    rng = np.random.RandomState(9)
    for size in (0, 1, 3, 55, 56, 63, 64, 65, 119, 120, 128, 500):
        shingles = {rng.bytes(int(n)) for n in rng.randint(0, 200, size)} if size else set()
        shingles.add(b"x" * size)
        ours = np.frombuffer(portable.signature(shingles, a, b), dtype="<u4")
        assert ours.tolist() == _datasketch(shingles, 32, 5).tolist()
    # The word n-gram pass of the portable build: long n-grams cross SHA-1 blocks.
    words = ["wort" * k for k in range(1, 40)] * 2 + ["ü", "x"]
    for size in (1, 2, 3, 17, 100):
        grams = text.shingles(words, kind="word", size=size)
        raw, count = portable.word_ngrams(" ".join(words).encode(), size, a, b)
        assert np.frombuffer(raw, dtype="<u4").tolist() == _datasketch(grams, 32, 5).tolist()
        assert count == len(grams)


word = st.text(alphabet=st.characters(blacklist_categories=("Zs", "Zl", "Zp", "Cc", "Cs")), min_size=1, max_size=6)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(word, st.sampled_from(["a", "b", "rechnung"])), max_size=40), st.integers(1, 5))
def test_word_ngram_pass_equals_the_shingle_set(words: list[str], size: int) -> None:
    words = " ".join(words).split()  # what text.shingle_words gives: no blanks inside a word
    grams = text.shingles(words, kind="word", size=size)
    expected = minhash.signature_numpy(grams, num_permutations=16, seed=3)
    ours, count = minhash.word_ngram_signature(" ".join(words), size=size, num_permutations=16, seed=3)
    assert ours.tolist() == expected.tolist()
    assert count == len(grams)


@pytest.mark.parametrize("joined", [pytest.param(b" a b", id="leading"), pytest.param(b"a b ", id="trailing"),
                                    pytest.param(b"a  b", id="double")])
def test_word_ngram_kernel_refuses_other_blanks(joined: bytes) -> None:
    _kernel_signer()
    a, b = minhash._permutation_bytes(8, 1)
    with pytest.raises(ValueError, match="single blanks"):
        minhash._kernel.word_ngrams(joined, 2, a, b)
