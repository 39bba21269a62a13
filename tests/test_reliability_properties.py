"""Property tests (hypothesis) for hostile input (issue item 4): normalization,
shingling, the extractors, the features and the index round trip never fail and
keep their invariants, whatever the text (control characters, NUL, right-to-left
and CJK scripts, combining marks, huge repetitions)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperless_dedupe_hook.core import minhash, text
from paperless_dedupe_hook.core.discriminative import discriminative_similarity
from paperless_dedupe_hook.core.extract import extract_tokens
from paperless_dedupe_hook.core.features import FeatureParams, compute
from paperless_dedupe_hook.core.short import comparable_short
from paperless_dedupe_hook.index.sqlite import SqliteIndex
from tests.reliability_support import index_health

# Text that looks like documents: several scripts, digits, punctuation, currency and
# control characters, NUL, bidi marks, zero-width characters, line breaks.
SCRIPTS = (
    "abcdefghijklmnopqrstuvwxyzäöüßéABCXYZ0123456789"
    "مرحبابالعالمفاتورة"  # Arabic
    "שלוםחשבונית"  # Hebrew
    "東京都渋谷区請求書合計金額円"  # CJK
    "한국어청구서"  # Hangul
    "€$£%§.,;:-/()#'\"\t\n\r \u00a0\u200b\u200e\u200f\u202e\x00\x01\x07\x1b\x7f\ufeff\u0301"
)
doc_text = st.text(alphabet=SCRIPTS, max_size=600) | st.text(max_size=200)
# Invoice-like lines: the extractors' business.
invoice_line = st.builds(
    lambda n, d, m, y, amount, ref: f"Invoice INV-{n} dated {d:02d}.{m:02d}.{y} total {amount:,.2f} EUR ref {ref}\n",
    st.integers(0, 99999), st.integers(1, 31), st.integers(1, 12), st.integers(1990, 2035),
    st.floats(0, 1e7, allow_nan=False), st.text(alphabet="ABCDEF0123456789-/", min_size=1, max_size=12),
)
invoice = st.lists(invoice_line, max_size=8).map("".join)
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(doc_text)
def test_normalize_is_total_idempotent_and_clean(raw: str) -> None:
    once = text.normalize(raw)
    assert text.normalize(once) == once
    assert once == once.strip() and "  " not in once
    assert all(ch.isalnum() or ch == " " for ch in once)
    assert "\x00" not in once


@FAST
@given(doc_text, st.text(alphabet=" \t\n\r\x00\x0b\x0c", max_size=5))
def test_normalize_ignores_surrounding_whitespace_and_controls(raw: str, pad: str) -> None:
    assert text.normalize(pad + raw + pad) == text.normalize(raw)


@FAST
@given(doc_text, st.integers(1, 6), st.sampled_from(text.SHINGLE_KINDS))
def test_shingles_are_bounded_deterministic_and_utf8(raw: str, size: int, kind: str) -> None:
    words = text.shingle_words(text.normalize(raw))
    assert all(words)  # no empty words
    first = text.shingles(words, kind=kind, size=size)
    assert first == text.shingles(list(words), kind=kind, size=size)
    if not words:
        assert first == set()
        return
    joined = "".join(words)
    bound = max(1, len(words) - size + 1) if kind == "word" else max(1, len(joined) - size + 1)
    assert 1 <= len(first) <= bound
    for shingle in first:
        decoded = shingle.decode("utf-8")  # valid UTF-8, ready for hashing
        if kind == "word":
            assert len(decoded.split(" ")) <= size
        else:
            assert len(decoded) <= size


@FAST
@given(st.sets(st.binary(min_size=1, max_size=12), min_size=1, max_size=60), st.randoms(use_true_random=False))
def test_minhash_ignores_order_and_estimates_one_for_equal_sets(shingles: set[bytes], rng: object) -> None:
    items = list(shingles)
    rng.shuffle(items)  # type: ignore[attr-defined]
    a = minhash.signature(shingles, num_permutations=64, seed=1)
    b = minhash.signature(items, num_permutations=64, seed=1)
    assert (a == b).all()


@FAST
@given(doc_text | invoice)
def test_extractors_are_total_and_tokens_fit_the_index(raw: str) -> None:
    tokens = extract_tokens(raw)
    assert tokens == extract_tokens(raw)  # deterministic
    for token in tokens:
        assert isinstance(token, str) and token.strip() == token and token
        assert "\n" not in token  # the index stores a document's tokens one per line
        assert ":" in token  # kind:value
        token.encode("utf-8")


@FAST
@given(invoice, invoice)
def test_discriminative_similarity_is_symmetric_and_bounded(a_text: str, b_text: str) -> None:
    a, b = extract_tokens(a_text), extract_tokens(b_text)
    ab, ba = discriminative_similarity(a, b), discriminative_similarity(b, a)
    assert 0.0 <= ab <= 1.0
    assert abs(ab - ba) < 1e-9
    assert discriminative_similarity(a, a) == 1.0


@FAST
@given(doc_text | invoice, st.integers(1, 30))
def test_features_are_total_and_comparable_iff_enough_words(raw: str, min_words: int) -> None:
    params = FeatureParams(num_permutations=32, min_words=min_words, fuzzy_sample_size=200)
    feats = compute(7, raw, params, title="t")
    # Under min_words a text with a few words of its own is still compared, by core.short's rule.
    short_enough = comparable_short(text.normalize(raw), feats.word_count)
    assert feats.comparable == (feats.word_count >= min_words or short_enough)
    assert feats.short == (feats.word_count < min_words and short_enough)
    assert len(feats.fingerprint) == 16
    assert len(feats.head) + len(feats.tail) <= 2 * 200
    if feats.comparable:
        assert feats.signature is not None and len(feats.signature) == 32


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(doc_text | invoice, st.text(max_size=40)), min_size=1, max_size=6),
       st.integers(1, 12))
def test_index_round_trip_keeps_every_field(docs: list[tuple[str, str]], min_words: int) -> None:
    params = FeatureParams(num_permutations=32, min_words=min_words, fuzzy_sample_size=300)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "index.sqlite3"
        # The index's own parameters, as every real index has them: removing a document
        # then deletes its band rows by (key, doc_id) probes, not by the full-scan fallback.
        index = SqliteIndex(path, create=True, compat={"hash_scheme": minhash.HASH_SCHEME, "num_permutations": "32",
                                                        "bands": "8", "rows": "4"})
        try:
            written = [compute(i + 1, body, params, title=title) for i, (body, title) in enumerate(docs)]
            with index.write():
                for feats in written:
                    keys = minhash.band_keys(feats.signature, bands=8, rows=4) if feats.signature is not None else []
                    index.put(feats, modified="2026-01-01T00:00:00Z", keys=keys)
            read = {f.doc_id: f for f in index.features([f.doc_id for f in written], 32)}
            for feats in written:
                back = read[feats.doc_id]
                assert back.fingerprint == feats.fingerprint and back.title == feats.title
                assert (back.word_count, back.shingle_count) == (feats.word_count, feats.shingle_count)
                assert back.tokens == feats.tokens and back.sample is None  # the index keeps no text
                assert (back.signature is None) == (feats.signature is None)
                if feats.signature is not None:
                    assert (back.signature == feats.signature).all()
            # Replacing and removing keep bands and token counts consistent.
            statements: list[str] = []
            index.conn.set_trace_callback(statements.append)
            with index.write():
                first = written[0]
                keys = minhash.band_keys(first.signature, bands=8, rows=4) if first.signature is not None else []
                index.put(first, modified=None, keys=keys)
                index.remove(written[-1].doc_id)
            index.conn.set_trace_callback(None)
            assert not [s for s in statements if s.startswith("DELETE FROM bands WHERE doc_id=")]  # no scan
            removed_comparable = sum(f.signature is not None for f in (first, written[-1]))
            assert len([s for s in statements if s.startswith("DELETE FROM bands WHERE key=")]) == 8 * removed_comparable
        finally:
            index.close()
        health = index_health(path)
        expected = sorted({f.doc_id for f in written} - ({written[-1].doc_id} if len(written) > 1 else set()))
        if len(written) == 1:
            expected = []
        assert health["documents"] == expected
