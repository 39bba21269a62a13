"""MinHash signatures and LSH band keys, value-identical to ``datasketch``.

``datasketch.MinHash`` (2.x, default scheme ``affine32``) hashes each shingle with
the first four bytes of its SHA-1 (little endian), pre-mixes that with the 32-bit
MurmurHash3 finalizer and applies ``a*h + b mod 2**32`` per permutation, where
``a`` (odd) and ``b`` come from ``numpy.random.RandomState(seed)``.  We do the same
with one vectorized numpy pass per document instead of one per shingle, and
never import datasketch (it pulls in SciPy, 0.4 s on a small server).  Where the
optional C kernel (``_sigkernel.c``, built at install time when a compiler is
there) is importable, it does the whole per-document loop instead; both paths are
compared value by value against datasketch in the tests.

What the index keeps and compares is narrower: the low 16 bits of each value
(:func:`narrow`).  Two documents agree on a position with probability
``J + (1 - J) / 65536`` instead of ``J``, a bias that :func:`jaccard` removes and that
is far below the estimator's own noise (1/sqrt(256)), while the stored signature
halves (512 bytes at 256 permutations).  Band keys are hashed from the narrow
values into 31 bits, which SQLite stores in 4 bytes instead of 8: a random key of
another band or document collides once in two billion, which costs one cheap
candidate that scoring drops, never a missed pair.

Pure: values in, values out.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _default_permutations as _default
from . import text

HASH_SCHEME = "datasketch-affine32-sha1-low16"

FullSignature = npt.NDArray[np.uint32]  # datasketch's values
Signature = npt.NDArray[np.uint16]  # what features hold and the index stores (narrow)
NARROW_BITS = 16
_CHANCE_AGREEMENT = 1.0 / (1 << NARROW_BITS)  # of two different 32-bit values in their low bits

_MAX_HASH = np.uint32(0xFFFFFFFF)
_FMIX = (np.uint32(16), np.uint32(0x85EBCA6B), np.uint32(13), np.uint32(0xC2B2AE35), np.uint32(16))
try:  # the optional C kernel; numpy below gives the same values
    from . import _sigkernel as _kernel  # type: ignore[attr-defined]

    KERNEL = f"c-{_kernel.SHA1}-sha1"
except ImportError:  # no compiler at install time, or PAPERLESS_DEDUPE_NO_C_KERNEL
    _kernel = None
    KERNEL = "numpy"

# Shingles are processed in blocks so that a 20 MB document does not allocate a
# (shingles x permutations) matrix of gigabytes.
_BLOCK = 4096


@lru_cache(maxsize=8)
def permutations(num_permutations: int, seed: int) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]:
    """The ``(a, b)`` parameters datasketch draws for ``num_perm`` and ``seed``."""
    if num_permutations < 1:
        raise ValueError(f"num_permutations must be >= 1, got {num_permutations}")
    if (num_permutations, seed) == (_default.NUM_PERMUTATIONS, _default.SEED):  # no numpy.random import
        a, b = (np.frombuffer(base64.b64decode(raw), dtype="<u4").astype(np.uint32) for raw in (_default.A, _default.B))
        a.setflags(write=False)
        b.setflags(write=False)
        return a, b
    gen = np.random.RandomState(seed)
    a = gen.randint(0, 1 << 31, num_permutations, dtype=np.uint32) * np.uint32(2) + np.uint32(1)
    b = gen.randint(0, 1 << 32, num_permutations, dtype=np.uint32)
    a.setflags(write=False)
    b.setflags(write=False)
    return a, b


@lru_cache(maxsize=8)
def _permutation_bytes(num_permutations: int, seed: int) -> tuple[bytes, bytes]:
    a, b = permutations(num_permutations, seed)
    return a.astype("<u4").tobytes(), b.astype("<u4").tobytes()


def _fmix32(hv: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    s1, m1, s2, m2, s3 = _FMIX
    hv = hv ^ (hv >> s1)
    hv = hv * m1
    hv = hv ^ (hv >> s2)
    hv = hv * m2
    return hv ^ (hv >> s3)


def hash_shingles(shingles: Iterable[bytes]) -> npt.NDArray[np.uint32]:
    """SHA-1 based 32-bit hashes of the shingles (datasketch's ``sha1_hash32``)."""
    sha1 = hashlib.sha1
    raw = b"".join([sha1(s).digest()[:4] for s in shingles])
    return np.frombuffer(raw, dtype="<u4").astype(np.uint32)


def signature(shingles: Iterable[bytes], *, num_permutations: int, seed: int) -> FullSignature:
    """The MinHash signature of a shingle set.

    The empty set gives all ``0xFFFFFFFF``, as an empty datasketch MinHash does.
    """
    if _kernel is not None:
        a_raw, b_raw = _permutation_bytes(num_permutations, seed)
        return np.frombuffer(_kernel.signature(shingles, a_raw, b_raw), dtype="<u4").astype(np.uint32)
    return signature_numpy(shingles, num_permutations=num_permutations, seed=seed)


def word_ngram_signature(
    joined: str, *, size: int, num_permutations: int, seed: int,
) -> tuple[FullSignature, int]:
    """``signature(text.shingles(joined.split(), kind="word", size=size))`` and the number
    of shingles, for words joined by single blanks (a normalized text is): in one C pass
    where the kernel is built (no Python set of n-grams, no word list: ~0.3 ms less per
    1,000-word document); from the set otherwise."""
    if _kernel is not None and hasattr(_kernel, "word_ngrams"):  # an older build has signature() only
        a_raw, b_raw = _permutation_bytes(num_permutations, seed)
        raw, count = _kernel.word_ngrams(joined.encode(), size, a_raw, b_raw)
        return np.frombuffer(raw, dtype="<u4").astype(np.uint32), int(count)
    shingle_set = text.shingles(joined.split(), kind="word", size=size)
    return signature(shingle_set, num_permutations=num_permutations, seed=seed), len(shingle_set)


def signature_numpy(shingles: Iterable[bytes], *, num_permutations: int, seed: int) -> FullSignature:
    """:func:`signature` in numpy alone (the path without the C kernel)."""
    a, b = permutations(num_permutations, seed)
    # (permutations x shingles) with the reduction along the contiguous axis:
    # about 3x faster than the other orientation, and done in place.
    a_col, b_col = a[:, None], b[:, None]
    hashes = _fmix32(hash_shingles(shingles))
    result = np.full(num_permutations, _MAX_HASH, dtype=np.uint32)
    for start in range(0, len(hashes), _BLOCK):
        block = np.multiply(a_col, hashes[None, start : start + _BLOCK])
        np.add(block, b_col, out=block)
        np.minimum(result, block.min(axis=1), out=result)
    return result


def narrow(sig: FullSignature) -> Signature:
    """The low 16 bits of each value: what features keep (see the module docstring)."""
    return (sig & np.uint32(0xFFFF)).astype(np.uint16)


def jaccard(sig_a: Signature | FullSignature, sig_b: Signature | FullSignature) -> float:
    """Estimated Jaccard similarity: the share of equal signature positions; for
    narrow signatures without the agreements that 16 bits make by chance."""
    if sig_a.shape != sig_b.shape or sig_a.dtype != sig_b.dtype:
        raise ValueError(f"signatures differ: {sig_a.shape[0]} x {sig_a.dtype} vs {sig_b.shape[0]} x {sig_b.dtype}")
    return jaccard_of_agreements(int(np.count_nonzero(sig_a == sig_b)), sig_a.shape[0], narrow=sig_a.dtype == np.uint16)


def jaccard_of_agreements(agreements: int, length: int, *, narrow: bool) -> float:
    """:func:`jaccard` from the number of equal positions (counted elsewhere, e.g. for
    many pairs at once)."""
    agreed = float(agreements) / float(length)
    if narrow:
        agreed = max(0.0, (agreed - _CHANCE_AGREEMENT) / (1.0 - _CHANCE_AGREEMENT))
    return agreed


def shared_shingles(jaccard_estimate: float, size_a: int, size_b: int) -> float:
    """How many shingles two sets share, from J and sizes: ``J * (|A| + |B|) / (1 + J)``."""
    return jaccard_estimate * (size_a + size_b) / (1.0 + jaccard_estimate)


def containment(jaccard_estimate: float, size_a: int, size_b: int) -> float:
    """How much of the smaller shingle set lies in the larger one, from J and sizes:
    :func:`shared_shingles` divided by ``min(|A|, |B|)``."""
    smaller = min(size_a, size_b)
    if smaller <= 0:
        return 0.0
    return min(1.0, shared_shingles(jaccard_estimate, size_a, size_b) / smaller)


def band_keys(sig: Signature, *, bands: int, rows: int) -> list[int]:
    """One 31-bit key per band of a narrow signature; equal keys in one band make a
    candidate pair.

    The band number is part of the hashed bytes, so keys of different bands almost
    never collide and one flat key column (indexed) serves every band.
    """
    if sig.dtype != np.uint16:
        raise ValueError(f"band keys are taken from narrow (uint16) signatures, got {sig.dtype}: use minhash.narrow")
    if bands * rows > sig.shape[0]:
        raise ValueError(f"bands*rows = {bands * rows} exceeds the signature length {sig.shape[0]}")
    raw = memoryview(sig.astype("<u2").tobytes())
    width = 2 * rows
    keys = []
    for band, base in enumerate(_band_hashers(bands)):
        h = base.copy()  # copying a keyed state is cheaper than a new blake2b(person=...)
        h.update(raw[band * width : (band + 1) * width])
        keys.append(int.from_bytes(h.digest(), "little") >> 1)
    return keys


@lru_cache(maxsize=8)
def _band_hashers(bands: int) -> tuple[Any, ...]:
    """Empty 4-byte BLAKE2b states personalised with each band number, to be copied."""
    return tuple(hashlib.blake2b(digest_size=4, person=band.to_bytes(4, "little")) for band in range(bands))


def to_bytes(sig: Signature) -> bytes:
    if sig.dtype != np.uint16:
        raise ValueError(f"only narrow (uint16) signatures are stored, got {sig.dtype}")
    return sig.astype("<u2").tobytes()


def from_bytes(raw: bytes, num_permutations: int) -> Signature:
    if len(raw) != 2 * num_permutations:
        raise ValueError(f"stored signature has {len(raw)} bytes, expected {2 * num_permutations}")
    return np.frombuffer(raw, dtype="<u2").astype(np.uint16)
