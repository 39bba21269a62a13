"""Grouping scored pairs into duplicate groups, pure.

Plain union-find (the seed's rule) chains: A~B and B~C put A and C together even
when they share little (draft 1 and draft 4 of a contract).  ``groups`` merges two
groups only when a strict majority of the pairs between them are duplicates
themselves, processing the strongest pairs first (average linkage on the
duplicate graph).  ``union_find_groups`` is kept for comparison in the quality
figures.  Primary = the lowest id (the oldest document), confidence = the mean
score of the duplicate pairs inside the group.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Group:
    primary: int
    members: tuple[int, ...]
    confidence: float


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _finish(members_of: Iterable[set[int]], scores: Mapping[tuple[int, int], float]) -> list[Group]:
    groups_list = [tuple(sorted(m)) for m in members_of if len(m) >= 2]
    index_of = {x: i for i, members in enumerate(groups_list) for x in members}
    inside: list[list[float]] = [[] for _ in groups_list]
    for (a, b), score in scores.items():
        i = index_of.get(a)
        if i is not None and index_of.get(b) == i:
            inside[i].append(score)
    out = []
    for ordered, values in zip(groups_list, inside, strict=True):
        confidence = sum(values) / len(values) if values else 0.0
        out.append(Group(ordered[0], ordered, round(confidence, 4)))
    out.sort(key=lambda g: (-g.confidence, g.primary))
    return out


def union_find_groups(pairs: Iterable[tuple[int, int, float]]) -> list[Group]:
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    scores: dict[tuple[int, int], float] = {}
    for a, b, score in pairs:
        scores[_pair(a, b)] = score
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    by_root: dict[int, set[int]] = {}
    for x in parent:
        by_root.setdefault(find(x), set()).add(x)
    return _finish(by_root.values(), scores)


def groups(pairs: Iterable[tuple[int, int, float]]) -> list[Group]:
    """Groups in which every member is a duplicate of most other members."""
    scores: dict[tuple[int, int], float] = {}
    for a, b, score in pairs:
        if a == b:
            raise ValueError(f"a document cannot pair with itself: {a}")
        key = _pair(a, b)
        scores[key] = max(score, scores.get(key, 0.0))
    group_of: dict[int, set[int]] = {}
    for (a, b), _score in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])):
        ga = group_of.get(a) or {a}
        gb = group_of.get(b) or {b}
        if ga is gb:
            continue
        links = sum(1 for x in ga for y in gb if _pair(x, y) in scores)
        if 2 * links <= len(ga) * len(gb):
            continue  # a chain, not a group: keep them apart
        merged = ga | gb
        for x in merged:
            group_of[x] = merged
    unique = {id(g): g for g in group_of.values()}
    return _finish(unique.values(), scores)


def min_pairwise(group: Group, similarity: Mapping[tuple[int, int], float]) -> float:
    """The weakest pair of a group; pairs missing from ``similarity`` count as 0."""
    members = group.members
    values = [similarity.get((a, b), 0.0) for i, a in enumerate(members) for b in members[i + 1 :]]
    return min(values) if values else 1.0
