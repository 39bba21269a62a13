"""``doctor``'s check of the installed signer against independent references.

The signatures decide which documents ever meet, and a C kernel compiled on the user's
machine (another compiler, another OpenSSL, another CPU) is code the tests never ran.
So ``doctor`` signs a few fixed texts the way the hook does (``features.compute``:
the C kernel's word n-gram pass where it is built) and compares value by value with
numpy's path and, when the ``datasketch`` extra is installed, with
``datasketch.MinHash`` itself, whose values ours are defined to equal.  The hook never
runs this and never imports datasketch.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core import minhash, text

# Texts with what a signer can get wrong: umlauts and ß, digits and currency, a very
# short text (fewer shingles than one SHA-1 block), long words, repetition.
SAMPLES = (
    "Sehr geehrte Frau Weiß, Ihre Jahresabrechnung 2026 über 1.234,56 € liegt bei. Zahlbar bis 15.01.2027 "
    "auf das Konto DE89 3704 0044 0532 0130 00. Mit freundlichen Grüßen, Stadtwerke Überlingen",
    "Dear members, the garden club meets on Saturday to plant tulips along the north fence; bring gloves, "
    "spades and a thermos of tea. Afterwards we share soup in the community hall.",
    "Invoice 4711",
    " ".join(f"Position{n} Wartungsvertragsverlängerungsbestätigung {n * 37 % 101}" for n in range(60)),
)

Reference = Callable[[set[bytes], int, int], list[int]]


def _datasketch() -> Reference | None:
    try:
        from datasketch import MinHash
    except ImportError:
        return None

    def sign(shingles: set[bytes], num_permutations: int, seed: int) -> list[int]:
        m = MinHash(num_perm=num_permutations, seed=seed)
        for s in shingles:
            m.update(s)
        return [int(v) for v in m.hashvalues]

    return sign


def _numpy(shingles: set[bytes], num_permutations: int, seed: int) -> list[int]:
    return [int(v) for v in minhash.signature_numpy(shingles, num_permutations=num_permutations, seed=seed)]


def check(*, num_permutations: int, seed: int, ngram_size: int) -> tuple[bool, str]:
    """(all equal?, one line naming the signer, the references and any difference)."""
    references: dict[str, Reference] = {"numpy": _numpy}
    ds = _datasketch()
    if ds is not None:
        references["datasketch"] = ds
    for number, sample in enumerate(SAMPLES, 1):
        folded = text.fold_ocr(text.normalize(sample))
        installed, _count = minhash.word_ngram_signature(
            folded, size=ngram_size, num_permutations=num_permutations, seed=seed)
        shingles = text.shingles(folded.split(), kind="word", size=ngram_size)
        mine = np.asarray(installed, dtype=np.uint32).tolist()
        for name, reference in references.items():
            theirs = reference(shingles, num_permutations, seed)
            if mine != theirs:
                at = next(i for i, (x, y) in enumerate(zip(mine, theirs, strict=True)) if x != y)
                return False, (f"signatures: the installed signer ({minhash.KERNEL}) differs from {name} on sample "
                               f"text {number} (value {at}: {mine[at]} vs {theirs[at]}): reinstall with "
                               "PAPERLESS_DEDUPE_NO_C_KERNEL=1 to use numpy, and report it")
    compared = " and ".join(references)
    missing = "" if ds is not None else " (install the datasketch extra to compare with datasketch too)"
    return True, (f"signatures: {minhash.KERNEL} signer agrees with {compared} on {len(SAMPLES)} sample texts "
                  f"({num_permutations} permutations, seed {seed}){missing}")
