"""core._picture_page.rectify (issue 26, fifth round): a till receipt photographed on a table
covers a fifth of the picture or less; its sheet is still found and warped, so that the table's
texture does not drown its ink (seed 83's receipt 399 had no signature before)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.corpus import pictures as corpus  # noqa: E402
from paperless_dedupe_hook.core.picture import compare_pictures, picture_signature  # noqa: E402
from paperless_dedupe_hook.pictures import gray_from_image_bytes  # noqa: E402


def test_a_narrow_receipt_photographed_on_a_table_is_signed_and_matches_its_original() -> None:
    docs = {d.id: d for d in corpus.plan(600, 83)[0]}
    photo, original = (picture_signature(gray_from_image_bytes(corpus.render_thumbnail(docs[i]))) for i in (399, 275))
    assert photo is not None and original is not None
    assert compare_pictures(photo, original).is_duplicate


def test_a_blank_scan_whose_bright_paper_is_patchy_is_not_taken_for_a_narrow_sheet() -> None:
    # Seed 97's blank scan 459: its brightest paper covers 0.17 of the picture, in patches (it
    # fills 0.39 of its quadrilateral); warped as if it were a receipt, it got a signature.
    docs = {d.id: d for d in corpus.plan(600, 97)[0]}
    assert picture_signature(gray_from_image_bytes(corpus.render_thumbnail(docs[459]))) is None
