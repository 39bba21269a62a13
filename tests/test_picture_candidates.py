"""core.picture.choose_candidates (issue 26, fifth round): the hook compares a hundred candidates,
half by the weight of their shared lookup keys, half by their coarse layouts' correlation; a
capture of one fill of a printed form that ranks under the form's other fills by its keys is
still compared."""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.corpus import captures as C  # noqa: E402
from bench.corpus import picture_pages as P  # noqa: E402
from paperless_dedupe_hook.core.picture import PictureSignature, choose_candidates, picture_signature  # noqa: E402
from paperless_dedupe_hook.pictures import gray_from_image_bytes  # noqa: E402


def _signed(page, capture, seed: int) -> PictureSignature:  # type: ignore[no-untyped-def]
    sig = picture_signature(gray_from_image_bytes(C.paperless_thumbnail(capture(page, random.Random(seed)))))
    assert sig is not None
    return sig


def test_a_fax_whose_keys_weigh_little_is_compared_before_unrelated_pages() -> None:
    # As seed 97's fax 504 of form fill 76: the pool's head by key weight is the form's other
    # fills; behind them come pages of any kind sharing one rare key, and the original last.  By
    # the keys alone (the pool's first ``keep``) the original is not compared; by its layout it is.
    fills = [P.draw_form(6, random.Random(100 + i)) for i in range(4)]
    original = fills[0]
    fax = _signed(original, C.fax, 7)
    pool = {i: _signed(page, C.scan, i).data for i, page in enumerate(fills[1:], 1)}
    unrelated = [P.draw_note(3, random.Random(11)), P.draw_drawing(random.Random(12)), P.draw_sketch(random.Random(13)),
                 P.draw_stamp_page(2, random.Random(14)), P.draw_note(4, random.Random(15))]
    pool |= {10 + i: _signed(page, C.scan, 20 + i).data for i, page in enumerate(unrelated)}
    pool[99] = _signed(original, C.scan, 1).data
    chosen = choose_candidates(fax, pool, keep=6, by_keys=3)
    assert len(chosen) == 6 and list(chosen)[:3] == [1, 2, 3]
    assert 99 in chosen
    assert 99 not in dict(list(pool.items())[:6])  # what the hook compared before


def test_a_pool_within_the_limit_is_compared_whole() -> None:
    pool = {7: b"x", 3: b"y"}
    sig = _signed(P.draw_form(6, random.Random(1)), C.scan, 1)
    assert choose_candidates(sig, pool, keep=6, by_keys=3) == pool
