"""Grouping: no chaining of unrelated documents; primary and confidence."""

from paperless_dedupe_hook.core import cluster


def test_chain_with_unrelated_ends_is_not_one_group() -> None:
    # A~B and B~C, but A and C share little: a chain, not a group.
    pairs = [(1, 2, 0.9), (2, 3, 0.8)]
    assert [g.members for g in cluster.union_find_groups(pairs)] == [(1, 2, 3)]
    groups = cluster.groups(pairs)
    assert [g.members for g in groups] == [(1, 2)]
    assert groups[0].primary == 1
    assert groups[0].confidence == 0.9


def test_a_real_triangle_stays_together_with_mean_confidence() -> None:
    groups = cluster.groups([(5, 7, 0.9), (7, 9, 0.8), (5, 9, 0.7)])
    assert len(groups) == 1
    assert groups[0].members == (5, 7, 9)
    assert groups[0].primary == 5
    assert abs(groups[0].confidence - 0.8) < 1e-9


def test_long_chain_breaks_into_pairs() -> None:
    pairs = [(i, i + 1, 0.9 - i * 0.01) for i in range(1, 10)]
    for g in cluster.groups(pairs):
        assert len(g.members) <= 2


def test_min_pairwise_counts_missing_pairs_as_zero() -> None:
    g = cluster.Group(1, (1, 2, 3), 0.9)
    assert cluster.min_pairwise(g, {(1, 2): 0.9, (2, 3): 0.8}) == 0.0
    assert cluster.min_pairwise(g, {(1, 2): 0.9, (2, 3): 0.8, (1, 3): 0.7}) == 0.7


def test_groups_sorted_by_confidence_and_singletons_dropped() -> None:
    groups = cluster.groups([(1, 2, 0.8), (3, 4, 0.95)])
    assert [g.primary for g in groups] == [3, 1]
