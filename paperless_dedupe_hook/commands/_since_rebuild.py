"""What the stored results hold besides the last rebuild's groups, for ``status`` and the
report: pairs the hooks found since that rebuild (stored by each hook, marked
``found_by: "hook"``; the next rebuild groups them), and pairs no group holds (the
grouping never chains: a document joins a group only when it matches most of it, so a
pair can be tagged in Paperless and still stand outside every group).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Pair = Mapping[str, Any]


def found_since(pairs: Sequence[Pair], last_rebuild: str | None) -> list[Pair]:
    """The hooks' pairs since the last rebuild: a full rebuild replaces them with its own, an
    incremental one drops their mark when it groups them (``last_rebuild`` is not needed to
    tell: times to the second cannot order a hook and a rebuild of the same second)."""
    return [p for p in pairs if p.get("found_by") == "hook"]


def not_grouped(pairs: Sequence[Pair], groups: Sequence[Mapping[str, Any]], *,
                leave_out: Sequence[Pair] = ()) -> list[Pair]:
    """Pairs whose two documents no group holds together (``leave_out`` not counted)."""
    together = {frozenset((int(a), int(b))) for g in groups for a in g["members"] for b in g["members"] if a != b}
    skip = {(int(p["a"]), int(p["b"])) for p in leave_out}
    return [p for p in pairs if frozenset((int(p["a"]), int(p["b"]))) not in together
            and (int(p["a"]), int(p["b"])) not in skip]


def as_groups(pairs: Sequence[Pair]) -> list[dict[str, Any]]:
    """Each pair shown like a group of two (the older document first)."""
    return [{"primary": int(p["a"]), "members": [int(p["a"]), int(p["b"])], "confidence": p.get("score")}
            for p in pairs]


def status_fields(pairs: Sequence[Pair], groups: Sequence[Mapping[str, Any]], last_rebuild: str | None
                  ) -> dict[str, Any]:
    fresh = found_since(pairs, last_rebuild)
    apart = not_grouped(pairs, groups, leave_out=fresh)
    return {"pairs_found_by_hooks_since_rebuild": len(fresh),
            "pairs_found_by_hooks_ids": [f"{int(p['a'])}-{int(p['b'])}" for p in fresh[:20]],
            "pairs_not_in_a_group": len(apart)}
