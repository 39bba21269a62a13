"""The picture path's pure core (core.picture) and its decoder (pictures): blank pages get no
signature, a re-capture of a page matches it, another fill of the same printed form does not,
signatures survive the index's bytes, and no array or byte string makes them crash."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.corpus import captures as C  # noqa: E402
from bench.corpus import picture_pages as P  # noqa: E402
from paperless_dedupe_hook._errors import PictureError  # noqa: E402
from paperless_dedupe_hook.core.picture import (  # noqa: E402
    PICTURE_VERSION,
    SIGNATURE_BYTES,
    PictureSignature,
    compare_pictures,
    picture_band_keys,
    picture_signature,
)
from paperless_dedupe_hook.pictures import gray_from_image_bytes  # noqa: E402

CAPTURE = {"scan": C.scan, "rescan": C.rescan, "phone": C.phone, "fax": C.fax}


def thumbnail_gray(page, capture: str, seed: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    """What the hook hashes: the page captured, Paperless's WebP thumbnail, decoded."""
    return gray_from_image_bytes(C.paperless_thumbnail(CAPTURE[capture](page, random.Random(seed))))


def signed(page, capture: str, seed: int) -> PictureSignature:  # type: ignore[no-untyped-def]
    sig = picture_signature(thumbnail_gray(page, capture, seed))
    assert sig is not None
    return sig


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("capture", ["scan", "rescan", "phone", "fax"])
def test_a_blank_or_near_blank_page_has_no_signature(seed: int, capture: str) -> None:
    # Paper texture, specks, punched-hole shadows, faint show-through and fold lines (draw_blank
    # picks some of each by seed), through every kind of capture.
    page = P.draw_blank(random.Random(seed))
    assert picture_signature(thumbnail_gray(page, capture, seed + 100)) is None


@pytest.mark.parametrize("value", [0, 128, 255])
def test_a_uniform_picture_has_no_signature(value: int) -> None:
    assert picture_signature(np.full((560, 400), value, dtype=np.uint8)) is None


def test_a_sparse_pencil_sketch_is_not_blank() -> None:
    # A few faint strokes: the point that sketches behave like blank paper to a plain hash.
    signed_count = sum(picture_signature(thumbnail_gray(P.draw_sketch(random.Random(s)), "scan", s)) is not None
                       for s in range(8))
    assert signed_count >= 7


@pytest.mark.parametrize(
    ("drawer", "capture"),
    [
        pytest.param(lambda: P.draw_note(5, random.Random(11)), "rescan", id="note-rescan"),
        pytest.param(lambda: P.draw_note(5, random.Random(12)), "phone", id="note-phone"),
        pytest.param(lambda: P.draw_drawing(random.Random(13)), "rescan", id="drawing-rescan"),
        pytest.param(lambda: P.draw_form(2, random.Random(14)), "fax", id="form-fax"),
        pytest.param(lambda: P.draw_stamp_page(3, random.Random(15)), "rescan", id="stamp-rescan"),
    ],
)
def test_a_recapture_of_a_page_matches_it(drawer, capture: str) -> None:  # type: ignore[no-untyped-def]
    # Two of three captures at least: recall is about 0.9 (docs/quality.md), not 1.
    page = drawer()
    original = signed(page, "scan", 1)
    matches = [compare_pictures(original, signed(page, capture, seed)) for seed in (2, 3, 4)]
    assert sum(m.is_duplicate for m in matches) >= 2, [m.reason for m in matches]
    assert all(0.0 <= m.score <= 1.0 for m in matches)
    assert all("match" in m.reason for m in matches if m.is_duplicate)


@pytest.mark.parametrize("fill_seeds", [(21, 22), (23, 24), (25, 26)])
def test_another_fill_of_the_same_form_does_not_match(fill_seeds: tuple[int, int]) -> None:
    one = P.draw_form(4, random.Random(fill_seeds[0]))
    other = P.draw_form(4, random.Random(fill_seeds[1]))
    match = compare_pictures(signed(one, "scan", 1), signed(other, "scan", 2))
    assert not match.is_duplicate, match.reason
    assert "differ" in match.reason


def test_two_receipts_of_one_shop_do_not_match() -> None:
    one = P.draw_receipt(7, random.Random(31))
    other = P.draw_receipt(7, random.Random(32))
    a, b = signed(one, "phone", 1), signed(other, "phone", 2)
    assert not compare_pictures(a, b).is_duplicate


def test_a_signature_survives_its_bytes_and_matches_itself() -> None:
    sig = signed(P.draw_note(1, random.Random(1)), "scan", 1)
    assert len(sig.data) == SIGNATURE_BYTES <= 2100
    again = PictureSignature.from_bytes(sig.data)
    assert again == sig
    match = compare_pictures(sig, again)
    assert match.is_duplicate and match.score == 1.0
    keys = picture_band_keys(sig)
    assert keys == picture_band_keys(again)
    assert 1 <= len(keys) <= 16 and all(isinstance(k, bytes) and len(k) <= 8 for k in keys)


def test_a_recapture_shares_a_band_key() -> None:
    page = P.draw_form(9, random.Random(41))
    a, b = signed(page, "scan", 1), signed(page, "rescan", 2)
    assert set(picture_band_keys(a)) & set(picture_band_keys(b))


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        pytest.param(b"", "bytes", id="empty"),
        pytest.param(bytes([PICTURE_VERSION]) * 10, "bytes", id="short"),
        pytest.param(bytes([PICTURE_VERSION]) * (SIGNATURE_BYTES + 1), "bytes", id="long"),
        pytest.param(bytes([PICTURE_VERSION + 1]) + bytes(SIGNATURE_BYTES - 1), "version", id="other-version"),
        pytest.param(bytes(SIGNATURE_BYTES), "version", id="version-0"),
    ],
)
def test_from_bytes_refuses_what_is_not_a_signature_of_this_version(data: bytes, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        PictureSignature.from_bytes(data)


def test_a_picture_that_is_not_2d_is_refused() -> None:
    with pytest.raises(ValueError, match="2-D"):
        picture_signature(np.zeros((10, 10, 3), dtype=np.uint8))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hnp.arrays(np.uint8, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=160)))
def test_any_gray_array_gives_a_signature_or_none_never_an_error(gray: np.ndarray) -> None:
    sig = picture_signature(gray)
    if sig is not None:
        assert len(sig.data) == SIGNATURE_BYTES
        assert 1 <= len(picture_band_keys(sig)) <= 16
        match = compare_pictures(sig, sig)
        assert 0.0 <= match.score <= 1.0 and match.reason


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_any_two_signatures_compare_to_a_score_between_0_and_1(seed_a: int, seed_b: int) -> None:
    def noisy(seed: int) -> np.ndarray:
        gen = np.random.default_rng(seed)
        img = np.full((300, 220), 240, dtype=np.uint8)
        for _ in range(int(gen.integers(1, 40))):
            y, x = int(gen.integers(0, 290)), int(gen.integers(0, 200))
            img[y:y + int(gen.integers(1, 10)), x:x + int(gen.integers(1, 20))] = int(gen.integers(0, 200))
        return img

    a, b = picture_signature(noisy(seed_a)), picture_signature(noisy(seed_b))
    if a is not None and b is not None:
        match = compare_pictures(a, b)
        assert 0.0 <= match.score <= 1.0
        assert match.is_duplicate == compare_pictures(b, a).is_duplicate


# Every format with every mode it can hold (JPEG has no alpha channel, so no JPEG/RGBA).
FORMAT_MODES = [pytest.param(fmt, mode, id=f"{fmt}-{mode}")
                for fmt in ("WEBP", "PNG", "JPEG") for mode in ("L", "RGB", "RGBA")
                if not (fmt == "JPEG" and mode == "RGBA")]


@pytest.mark.parametrize(("fmt", "mode"), FORMAT_MODES)
def test_gray_from_image_bytes_decodes_the_formats_a_thumbnail_comes_in(fmt: str, mode: str) -> None:
    from PIL import Image

    img = Image.new(mode, (40, 30), "white" if mode != "L" else 255)
    img.paste(Image.new(mode, (10, 10), "black" if mode != "L" else 0), (5, 5))
    buf = io.BytesIO()
    img.save(buf, format=fmt)
    gray = gray_from_image_bytes(buf.getvalue())
    assert gray.shape == (30, 40) and gray.dtype == np.uint8
    assert gray[10, 10] < 60 and gray[25, 35] > 200


def test_transparency_is_composed_over_white() -> None:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGBA", (8, 8), (0, 0, 0, 0)).save(buf, format="PNG")
    assert int(gray_from_image_bytes(buf.getvalue()).min()) == 255


@pytest.mark.parametrize("data", [b"", b"not an image", b"RIFF\x10\x00\x00\x00WEBPVP8 broken", b"\x89PNG\r\n\x1a\n" + b"\x00" * 20])
def test_bytes_that_are_not_an_image_raise_a_one_line_picture_error(data: bytes) -> None:
    with pytest.raises(PictureError) as info:
        gray_from_image_bytes(data)
    assert "\n" not in str(info.value) and "image" in str(info.value)


def test_importing_the_decoder_does_not_import_pillow() -> None:
    # Text documents never take the picture path: they must not pay for Pillow.
    code = "import sys, paperless_dedupe_hook.pictures, paperless_dedupe_hook.core.picture; print('PIL' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
