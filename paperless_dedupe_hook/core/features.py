"""What we keep of a document, computed from its text, pure.

The index stores what scoring needs of a candidate except its text: the narrow
MinHash signature, the shingle count (for containment) and the discriminative
tokens with where each stands (core.placement).  The fuzzy head/tail samples are
held only in memory (a rebuild has every text at hand); for the few candidates of
a new document whose score could still reach the threshold, the hook fetches the
text from Paperless again and :func:`with_text` adds the samples.  Storing them would be 2.5 kB of a 4 kB
document row.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass, replace

from . import minhash, short, subject, text
from .extract import extract_features, extract_placed

# Token extraction reads the whole text of any real document; beyond this many
# characters (hostile or broken OCR output, megabytes of it) it reads the first and
# the last half of that, so that one document cannot hold the worker for minutes.
MAX_EXTRACT_CHARS = 2_000_000

# Stored alongside NORMALIZER_VERSION: bump when extract_tokens changes its output.
EXTRACTOR_VERSION = "6"  # 4: short documents carry a signature and tokens; 5: no routes from "von Herrn X. Nach ..."; 6: languages as data (fr, nl, es, it)
# Not 7 for the route words of fr, nl, es, it as data nor for label columns put back beside
# their values (core._columns): the tokens they add to a document indexed before are on one
# side only, which D counts as no conflict (the pair is scored as before), so an index need not
# be rebuilt for them (a new version would make every index unreadable until a rebuild-index).


@dataclass(frozen=True, kw_only=True)
class FeatureParams:
    num_permutations: int = 256
    seed: int = 1
    shingle: str = "word"
    ngram_size: int = 3
    fuzzy_sample_size: int = 5000
    min_words: int = 20
    #: The languages the documents may be in (core.languages codes; empty: all), and those
    #: they are likely in (PAPERLESS_OCR_LANGUAGE): see extract.extract_features.
    languages: tuple[str, ...] = ()
    language_hint: tuple[str, ...] = ()

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
    # None: too little text to compare (core.short.comparable_short); a short document's
    # (under min_words) is of character 3-grams and compared only with other short ones.
    signature: minhash.Signature | None
    # The fuzzy head and tail samples, zlib-packed (pack_sample): half the memory of two
    # strings while a rebuild holds every document's features, packed in parallel by the
    # feature workers.  Unpacked only when a pair needs F.  None: read from the index,
    # which stores no text (with_text adds them).
    sample: bytes | None
    tokens: frozenset[str]
    title: str = ""
    # Where each token stands in the text (core.placement.pack, aligned with sorted(tokens));
    # b"": not known (a short document, an index written before they were kept).
    places: bytes = b""
    # The subject lines of a letter (core.subject), read from the text with the samples;
    # () read from the index, which stores no text (with_text reads them).
    subjects: tuple[str, ...] = ()

    @property
    def comparable(self) -> bool:
        return self.signature is not None

    @property
    def short(self) -> bool:
        """Under min_words: compared by core.short's rule, and only with another short document."""
        return short.is_short(self.tokens)

    def samples(self) -> tuple[str, str]:
        """(head, tail); equal for a text shorter than the sample size."""
        if self.sample is None:
            raise ValueError(f"document {self.doc_id} has no text samples (read from the index): use with_text")
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


def _tokens(content: str, params: FeatureParams) -> frozenset[str]:
    # (a short document is compared by core.short's rule, which needs no places)
    return extract_features(content, params.languages, params.language_hint)


def _placed_tokens(content: str, params: FeatureParams) -> tuple[frozenset[str], bytes]:
    return extract_placed(content, params.languages, params.language_hint)


def fingerprint(normalized: str) -> bytes:
    return hashlib.blake2b(normalized.encode("utf-8"), digest_size=16).digest()


def with_text(feats: Features, content: str, params: FeatureParams) -> Features:
    """``feats`` with the samples of ``content`` (its current text in Paperless).

    When the text is no longer the one the index signed (edited in Paperless since),
    everything is computed afresh: a stale signature is never scored against.
    """
    normalized = text.normalize(content)
    if fingerprint(normalized) != feats.fingerprint:
        return compute(feats.doc_id, content, params, title=feats.title)
    return replace(feats, sample=pack_sample(*text.fuzzy_samples(normalized, params.fuzzy_sample_size)),
                   subjects=subject.subjects(content))


# Words a scanner's stamp line or a line of OCR junk adds to a short note, at most.
_STAMP_WORDS = 10


def _stamped_short(normalized: str, word_count: int, min_words: int) -> bool:
    """A short note whose re-scan carries a scanner's stamp or a line of OCR junk (lone letters)
    that takes it to min_words or over: short by its words of two characters or more without the
    stamp, so that it meets the note it is a scan of (issue 25)."""
    if not min_words <= word_count < min_words + _STAMP_WORDS or "scan" not in normalized:
        return False  # only a note with a scanner's stamp: others keep "short iff under min_words"
    words = sum(1 for word in short.without_stamps(normalized).split() if len(word) >= 2)
    return words < min_words and short.comparable_short(normalized, words)


def compute(doc_id: int, content: str, params: FeatureParams, *, title: str = "") -> Features:
    normalized = text.normalize(content)
    # text.shingle_words(normalized), kept as one string: its words are separated by single blanks
    folded = text.fold_ocr(normalized)
    word_count = folded.count(" ") + 1 if folded else 0
    head, tail = text.fuzzy_samples(normalized, params.fuzzy_sample_size)
    if word_count < params.min_words and short.comparable_short(normalized, word_count) or _stamped_short(
            normalized, word_count, params.min_words):
        # A short document: compared only with short ones, by the stricter rule of core.short.
        shingle_set = short.shingle_set(folded)
        return Features(
            doc_id=doc_id,
            fingerprint=fingerprint(normalized),
            word_count=word_count,
            shingle_count=len(shingle_set),
            signature=minhash.narrow(minhash.signature(shingle_set, num_permutations=params.num_permutations,
                                                       seed=params.seed)),
            sample=pack_sample(head, tail),
            tokens=_tokens(content, params) | {short.SHORT_MARK},
            title=title,
        )
    if word_count < params.min_words:
        return Features(
            doc_id=doc_id,
            fingerprint=fingerprint(normalized),
            word_count=word_count,
            shingle_count=0,
            signature=None,
            sample=pack_sample(head, tail),
            tokens=frozenset(),
            title=title,
        )
    # A mail's signature (the sender's address) is no part of the letter: see text.normalize.
    tokens, places = _placed_tokens(_bounded(text.strip_signature(content)), params)
    if params.shingle == "word":
        # The C kernel reads the words from the folded text itself: no word list is made.
        full, shingle_count = minhash.word_ngram_signature(
            folded, size=params.ngram_size, num_permutations=params.num_permutations, seed=params.seed)
    else:
        shingle_set = text.shingles(folded.split(), kind=params.shingle, size=params.ngram_size)
        full = minhash.signature(shingle_set, num_permutations=params.num_permutations, seed=params.seed)
        shingle_count = len(shingle_set)
    return Features(
        doc_id=doc_id,
        fingerprint=fingerprint(normalized),
        word_count=word_count,
        shingle_count=shingle_count,
        signature=minhash.narrow(full),
        sample=pack_sample(head, tail),
        tokens=tokens,
        title=title,
        places=places,
        subjects=subject.subjects(content),
    )
