"""Our signatures against datasketch's, value by value, and the LSH band keys."""

import numpy as np
import pytest
from datasketch import MinHash
from hypothesis import given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook import minhash, text


def _datasketch(shingles: set[bytes], num_perm: int, seed: int) -> np.ndarray:
    m = MinHash(num_perm=num_perm, seed=seed)
    for s in shingles:
        m.update(s)
    return m.hashvalues


@pytest.mark.parametrize(
    ("num_perm", "seed"),
    [pytest.param(256, 1, id="defaults"), pytest.param(128, 7, id="128-seed7"), pytest.param(17, 0, id="odd-length")],
)
def test_signature_equals_datasketch_value_by_value(num_perm: int, seed: int) -> None:
    content = "Sehr geehrte Frau Weiß, Ihre Jahresabrechnung 2026 über 1.234,56 € liegt bei. " * 5
    shingles = text.shingles(text.shingle_words(text.normalize(content)), kind="word", size=3)
    ours = minhash.signature(shingles, num_permutations=num_perm, seed=seed)
    theirs = _datasketch(shingles, num_perm, seed)
    assert ours.dtype == np.uint32
    assert ours.tolist() == theirs.tolist()


def test_signature_equals_datasketch_bulk_on_many_documents() -> None:
    rng = np.random.RandomState(3)
    words = [f"w{i}" for i in range(400)]
    docs = [{" ".join(rng.choice(words, 3)).encode() for _ in range(rng.randint(1, 300))} for _ in range(30)]
    bulk = MinHash.bulk([list(d) for d in docs], num_perm=64, seed=1)
    for d, m in zip(docs, bulk, strict=True):
        assert minhash.signature(d, num_permutations=64, seed=1).tolist() == m.hashvalues.tolist()


def test_large_set_is_processed_in_blocks_and_still_equal() -> None:
    shingles = {f"s{i}".encode() for i in range(10_000)}  # more than one block
    assert minhash.signature(shingles, num_permutations=32, seed=1).tolist() == _datasketch(shingles, 32, 1).tolist()


def test_empty_set_gives_the_empty_minhash() -> None:
    assert minhash.signature(set(), num_permutations=8, seed=1).tolist() == MinHash(num_perm=8).hashvalues.tolist()


def test_jaccard_estimate_matches_datasketch() -> None:
    a = {f"x{i}".encode() for i in range(300)}
    b = {f"x{i}".encode() for i in range(100, 400)}
    ma, mb = MinHash(num_perm=256), MinHash(num_perm=256)
    ma.update_batch(list(a))
    mb.update_batch(list(b))
    ours = minhash.jaccard(minhash.signature(a, num_permutations=256, seed=1), minhash.signature(b, num_permutations=256, seed=1))
    assert ours == pytest.approx(ma.jaccard(mb))
    assert 0.3 < ours < 0.7  # true value 0.5


def test_containment_of_a_subset_is_one() -> None:
    assert minhash.containment(0.5, 100, 200) == pytest.approx(1.0)
    assert minhash.containment(0.0, 100, 200) == 0.0
    assert minhash.containment(0.5, 0, 10) == 0.0


def test_band_keys_equal_for_equal_bands_only() -> None:
    sig = minhash.signature({b"a", b"b", b"c"}, num_permutations=16, seed=1)
    other = sig.copy()
    other[15] ^= 1  # changes only the last band
    keys_a = minhash.band_keys(sig, bands=4, rows=4)
    keys_b = minhash.band_keys(other, bands=4, rows=4)
    assert keys_a[:3] == keys_b[:3]
    assert keys_a[3] != keys_b[3]
    assert len(set(keys_a)) == 4  # band number is part of the key
    assert all(0 <= k < 2**63 for k in keys_a)  # fits SQLite's signed integer


def test_band_keys_refuse_more_rows_than_the_signature_has() -> None:
    sig = minhash.signature({b"a"}, num_permutations=16, seed=1)
    with pytest.raises(ValueError, match="exceeds"):
        minhash.band_keys(sig, bands=5, rows=4)


@settings(max_examples=50, deadline=None)
@given(st.sets(st.binary(min_size=1, max_size=20), max_size=60), st.integers(min_value=0, max_value=2**32 - 1))
def test_signature_property_equal_to_datasketch(shingles: set[bytes], seed: int) -> None:
    ours = minhash.signature(shingles, num_permutations=16, seed=seed)
    assert ours.tolist() == _datasketch(shingles, 16, seed).tolist()
    assert minhash.from_bytes(minhash.to_bytes(ours), 16).tolist() == ours.tolist()
