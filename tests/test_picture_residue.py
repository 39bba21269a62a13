"""core._picture_residue: the unexplained ink that is a copy's damage (a lost thin line, a header
above the page) is no residue; a block of ink one page has and the other not (a word, a longer
line of print) is."""

from __future__ import annotations

import numpy as np

from paperless_dedupe_hook.core._picture_residue import residue_measures, thin_lines


def _page() -> np.ndarray:
    rng = np.random.default_rng(0)
    mask = np.zeros((128, 128), dtype=bool)
    for row in range(20, 110, 10):  # lines of handwriting: short thick strokes
        for x in rng.choice(np.arange(10, 110), 25, replace=False):
            mask[row:row + 3, x:x + 2] = True
    return mask


def test_a_lost_thin_line_and_a_header_are_no_residue() -> None:
    original = _page()
    copy = original.copy()
    copy[65, 5:120] = True  # a form line the original lost to the threshold
    copy[4:6, 10:60] = True  # a fax's header, above the original's ink
    m = residue_measures(original, copy)
    assert m["ra"] == 0.0 and m["rb"] == 0.0
    assert m["fs"] > 0.99


def test_a_block_one_page_has_and_the_other_not_is_residue() -> None:
    original = _page()
    fill = original.copy()
    fill[25:28, 20:40] = True  # a word between two lines: three cells thick
    m = residue_measures(original, fill)
    assert m["ra"] == 0.0
    assert m["rb"] > 0.02


def test_thin_lines_keeps_runs_of_at_most_two_cells_thickness() -> None:
    mask = np.zeros((32, 32), dtype=bool)
    mask[5, 2:20] = True  # a line
    mask[10:13, 2:20] = True  # a block three cells thick
    mask[20:30, 25] = True  # a vertical line
    lines = thin_lines(mask, 5, 2)
    assert lines[5, 2:20].all() and lines[20:30, 25].all()
    assert not lines[10:13, 2:20].any()
