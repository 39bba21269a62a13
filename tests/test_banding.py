"""The seed guide's S-curve math and our choice of splits."""

import pytest

from paperless_dedupe_hook.core import banding


def test_probability_and_midpoint_follow_the_seed_formulas() -> None:
    assert banding.candidate_probability(0.75, 32, 8) == pytest.approx(1 - (1 - 0.75**8) ** 32)
    assert banding.s_curve_midpoint(32, 8) == pytest.approx((1 / 32) ** (1 / 8))
    assert banding.s_curve_midpoint(32, 8) == pytest.approx(0.648, abs=0.001)


def test_divisor_pairs_of_256_have_none_near_075_but_other_splits_do() -> None:
    divisors = banding.choose(256, 0.75, divisors_only=True)
    assert (divisors.bands, divisors.rows) in {(16, 16), (32, 8)}
    assert abs(divisors.midpoint - 0.75) > 0.05
    best = banding.choose(256, 0.75)
    assert best.bands * best.rows <= 256
    assert abs(best.midpoint - 0.75) <= 0.01
    assert banding.steep_enough(best)


@pytest.mark.parametrize("target", [pytest.param(t, id=f"t{t}") for t in (0.3, 0.5, 0.6, 0.8, 0.9)])
def test_chosen_split_is_reproduced_by_num_bands(target: float) -> None:
    best = banding.choose(256, target)
    again = banding.resolve(256, best.bands, target)
    assert (again.bands, again.rows) == (best.bands, best.rows)


def test_log_line_and_warning_in_the_seed_form() -> None:
    seed_split = banding.describe(32, 8, 0.75)
    assert banding.config_line(256, seed_split, 0.75) == "LSH config: num_perm=256, bands=32, rows=8, target_threshold=0.75"
    assert banding.midpoint_warning(seed_split, 0.75) == "s_curve_midpoint=0.648 (bands=32,rows=8) but target_threshold=0.75"
    assert banding.midpoint_warning(banding.choose(256, 0.75), 0.75) is None


def test_auto_target_sits_below_the_final_threshold() -> None:
    assert banding.lsh_target(0.75, "auto") == pytest.approx(0.75 - banding.AUTO_LSH_MARGIN)
    assert banding.lsh_target(0.75, 0.6) == 0.6
