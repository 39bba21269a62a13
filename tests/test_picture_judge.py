"""core.picture.judge_pictures on measures taken from the labelled picture corpus (issue 26,
fourth round): two fills of one form explained 99.8 % one way, two stamp pages of one firm,
a fax copy whose residue lies on one page only."""

from __future__ import annotations

from paperless_dedupe_hook.core.picture import judge_pictures

# Seed 83's fills 140 and 148 of one form (both flatbed scans): each keeps handwriting of its own.
FORM_FILLS = {"layout": 0.88, "ea": 0.9723, "eb": 0.9982, "na": 2239, "nb": 2164, "oa": 0.969, "ob": 0.994,
              "no": 0.892, "fine": 0.8812, "aligned": 0.949, "scale": 0.997, "shear": 0.004,
              "ra": 0.00715, "rb": 0.00185, "fs": 0.8947, "aspect": 1.0}
# Seed 83's pair 115 / 294 (a scan and its phone photo): the photo lost strokes, gained none.
ONE_WAY_COPY = {"layout": 0.960, "ea": 0.9992, "eb": 1.0, "na": 2566, "nb": 2619, "oa": 0.994, "ob": 1.0,
                "no": 0.88, "fine": 0.8951, "aligned": 0.95, "scale": 1.010, "shear": 0.006,
                "ra": 0.00078, "rb": 0.0, "fs": 0.8951, "aspect": 1.044}


def test_one_way_pair_whose_explained_page_keeps_residue_is_no_copy() -> None:
    assert not judge_pictures(FORM_FILLS).is_duplicate
    assert judge_pictures(ONE_WAY_COPY).is_duplicate


def test_one_way_pair_that_correlates_clearly_may_keep_some_residue() -> None:
    assert judge_pictures(FORM_FILLS | {"fine": 0.905, "fs": 0.91}).is_duplicate


# Seed 7's stamp pages 26 and 139 of one firm: one has a note beside the stamp, the other not.
STAMP_PAGES = {"layout": 0.393, "ea": 1.0, "eb": 0.915, "na": 530, "nb": 753, "oa": 1.0, "ob": 0.916,
               "no": 0.847, "fine": 0.861, "aligned": 0.91, "scale": 0.986, "shear": 0.002,
               "ra": 0.0, "rb": 0.08, "fs": 0.863, "aspect": 2.134}


def test_sparse_pages_whose_content_boxes_differ_twofold_are_no_copies() -> None:
    assert not judge_pictures(STAMP_PAGES).is_duplicate
    assert judge_pictures(STAMP_PAGES | {"aspect": 1.3}).is_duplicate


# Seed 83's pair 115 / 342 (a scan and its fax): the fax lost 0.5 % of the ink, gained nothing
# beyond lost lines and its header.
FAX_COPY = {"layout": 0.869, "ea": 0.993, "eb": 0.982, "na": 2566, "nb": 2666, "oa": 0.992, "ob": 0.981,
            "no": 0.88, "fine": 0.900, "aligned": 0.94, "scale": 0.982, "shear": 0.001,
            "ra": 0.0051, "rb": 0.0, "fs": 0.911, "aspect": 1.022}


def test_residue_on_one_page_only_is_a_copy() -> None:
    assert judge_pictures(FAX_COPY).is_duplicate


def test_residue_on_both_pages_or_too_much_is_no_copy() -> None:
    assert not judge_pictures(FAX_COPY | {"rb": 0.002}).is_duplicate
    assert not judge_pictures(FAX_COPY | {"ra": 0.02}).is_duplicate
    assert not judge_pictures(FAX_COPY | {"fs": 0.9}).is_duplicate


# Seed 7's stamp pages 26 and 332 of one firm (a rescan and a phone photo of two pages): page
# 26's ink lies on 332's, but 26's frame is 1.29 times as wide for what they share.
WIDER_FRAME = {"layout": 0.529, "ea": 0.998, "eb": 0.956, "na": 530, "nb": 631, "oa": 0.998, "ob": 0.952,
               "no": 0.918, "fine": 0.899, "aligned": 0.96, "scale": 1.287, "shear": 0.203,
               "ra": 0.002, "rb": 0.022, "fs": 0.906, "aspect": 1.164}


def test_explained_page_whose_frame_is_wider_is_no_copy() -> None:
    assert not judge_pictures(WIDER_FRAME).is_duplicate
    assert judge_pictures(WIDER_FRAME | {"scale": 1.0}).is_duplicate
    # The same pair seen from the other side is the same pair ...
    mirrored = {"ea": 0.956, "eb": 0.998, "oa": 0.952, "ob": 0.998, "ra": 0.022, "rb": 0.002, "na": 631, "nb": 530}
    assert not judge_pictures(WIDER_FRAME | mirrored | {"scale": 1.0 / 1.287}).is_duplicate
    # ... and the explained page's frame narrower (a copy that lost strokes at its edges) is a copy.
    assert judge_pictures(WIDER_FRAME | mirrored).is_duplicate


# Seed 1's stamp pages 19 and 129 of one firm (two flatbed scans): sparse, page 129's ink lies on
# 19's 99.8 %, but two of its cells are residue -- its own signature's ends.
SPARSE_STAMPS = {"layout": 0.314, "ea": 0.86, "eb": 0.998, "na": 1024, "nb": 856, "oa": 0.873, "ob": 0.997,
                 "no": 0.922, "fine": 0.865, "aligned": 0.893, "scale": 1.054, "shear": 0.071,
                 "ra": 0.078, "rb": 0.002, "fs": 0.896, "aspect": 1.044}


def test_sparse_page_whose_copy_keeps_residue_is_no_copy() -> None:
    assert not judge_pictures(SPARSE_STAMPS).is_duplicate
    assert judge_pictures(SPARSE_STAMPS | {"rb": 0.0}).is_duplicate
