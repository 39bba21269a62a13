"""What the index keeps of a document, computed from its text, pure.

Everything scoring needs later is here, so that a candidate found in the index
can be scored without fetching its text again: the MinHash signature, the shingle
count (for containment), the fuzzy head/tail samples and the discriminative
tokens.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass

from . import minhash, text
from .extract import extract_features

# Token extraction reads the whole text of any real document; beyond this many
# characters (hostile or broken OCR output, megabytes of it) it reads the first and
# the last half of that, so that one document cannot hold the worker for minutes.
MAX_EXTRACT_CHARS = 2_000_000

# Stored alongside NORMALIZER_VERSION: bump when extract_tokens changes its output.
EXTRACTOR_VERSION = "3"


@dataclass(frozen=True, kw_only=True)
class FeatureParams:
    num_permutations: int = 256
    seed: int = 1
    shingle: str = "word"
    ngram_size: int = 3
    fuzzy_sample_size: int = 5000
    min_words: int = 20

    def __post_init__(self) -> None:
        if self.shingle not in text.SHINGLE_KINDS:
            raise ValueError(f"shingle must be one of {text.SHINGLE_KINDS}, got {self.shingle!r}")
        if self.num_permutations < 1 or self.ngram_size < 1 or self.min_words < 0:
            raise ValueError(f"invalid feature parameters: {self}")


@dataclass(frozen=True, kw_only=True)
class Features:
    doc_id: int
    fingerprint: bytes  # 16-byte BLAKE2b of the normalized text
    word_count: int
    shingle_count: int
    signature: minhash.Signature | None  # None: below min_words, never compared
    # The fuzzy head and tail samples, zlib-packed (pack_sample): half the memory of two
    # strings while a rebuild holds every document's features, packed in parallel by the
    # feature workers, and stored as they are.  Unpacked only when a pair needs F.
    sample: bytes
    tokens: frozenset[str]
    title: str = ""

    @property
    def comparable(self) -> bool:
        return self.signature is not None

    def samples(self) -> tuple[str, str]:
        """(head, tail); equal for a text shorter than the sample size."""
        return unpack_sample(self.sample)

    @property
    def head(self) -> str:
        return self.samples()[0]

    @property
    def tail(self) -> str:
        return self.samples()[1]


def pack_sample(head: str, tail: str) -> bytes:
    # The tail is packed empty when it equals the head (short documents).
    body = head if tail == head else head + "\x1f" + tail
    return zlib.compress(body.encode("utf-8"), 6)


def unpack_sample(raw: bytes) -> tuple[str, str]:
    """Raises zlib.error or UnicodeDecodeError for damaged bytes."""
    body = zlib.decompress(raw).decode("utf-8")
    head, sep, tail = body.partition("\x1f")
    return (head, tail) if sep else (head, head)


def _bounded(content: str) -> str:
    if len(content) <= MAX_EXTRACT_CHARS:
        return content
    half = MAX_EXTRACT_CHARS // 2
    return content[:half] + "\n" + content[-half:]


def fingerprint(normalized: str) -> bytes:
    return hashlib.blake2b(normalized.encode("utf-8"), digest_size=16).digest()


def compute(doc_id: int, content: str, params: FeatureParams, *, title: str = "") -> Features:
    normalized = text.normalize(content)
    words = text.shingle_words(normalized)
    head, tail = text.fuzzy_samples(normalized, params.fuzzy_sample_size)
    if len(words) < params.min_words:
        return Features(
            doc_id=doc_id,
            fingerprint=fingerprint(normalized),
            word_count=len(words),
            shingle_count=0,
            signature=None,
            sample=pack_sample(head, tail),
            tokens=frozenset(),
            title=title,
        )
    shingle_set = text.shingles(words, kind=params.shingle, size=params.ngram_size)
    sig = minhash.signature(shingle_set, num_permutations=params.num_permutations, seed=params.seed)
    return Features(
        doc_id=doc_id,
        fingerprint=fingerprint(normalized),
        word_count=len(words),
        shingle_count=len(shingle_set),
        signature=sig,
        sample=pack_sample(head, tail),
        # A mail's signature (the sender's address) is no part of the letter: see text.normalize.
        tokens=extract_features(_bounded(text.strip_signature(content))),
        title=title,
    )
