"""What a resolution carries over and what undo takes back, as pure functions on
document states (hypothesis): carrying then taking back, with nothing changed by the user
in between, gives the keeper back field by field; what the user changed since stays."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from paperless_dedupe_hook.resolution import Ours, carry_over, state_of
from paperless_dedupe_hook.resolve import keeper_changes
from paperless_dedupe_hook.undo import keeper_takeback

OURS = Ours(tags=frozenset({90}), link_fields=frozenset({9}), confirm_tags=frozenset({91}))
values = st.one_of(st.none(), st.just(""), st.text(min_size=1, max_size=5), st.lists(st.integers(1, 5), max_size=2))


@st.composite
def documents(draw: st.DrawFn, doc_id: int) -> dict[str, Any]:
    fields = draw(st.lists(st.integers(1, 9), unique=True, max_size=4))
    return state_of({
        "id": doc_id, "title": f"doc {doc_id}",
        "tags": draw(st.lists(st.sampled_from([1, 2, 3, 90, 91]), unique=True, max_size=4)),
        "correspondent": draw(st.sampled_from([None, 1, 2])), "document_type": draw(st.sampled_from([None, 1])),
        "storage_path": draw(st.sampled_from([None, 3])),
        "custom_fields": [{"field": f, "value": draw(values)} for f in fields],
        "archive_serial_number": draw(st.sampled_from([None, 1001, 1002])),
        "notes": [{"id": i, "note": draw(st.text(max_size=8))} for i in range(draw(st.integers(0, 2)))],
    })


def _apply(doc: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    out = {**doc, **{k: v for k, v in changes.items() if k != "archive_serial_number"}}
    if "archive_serial_number" in changes:
        out["archive_serial_number"] = changes["archive_serial_number"]
    return out


def _fields(doc: dict[str, Any]) -> dict[int, Any]:
    return {i["field"]: i["value"] for i in doc["custom_fields"]}


@given(documents(1), documents(2))
def test_carry_then_take_back_gives_the_keeper_back(keeper: dict[str, Any], copy: dict[str, Any]) -> None:
    plan = {"keeper": keeper, "copy": copy, "carry": carry_over(copy, keeper, OURS)}
    resolved = _apply(keeper, keeper_changes(keeper, plan["carry"]))
    assert keeper_changes(resolved, plan["carry"]) == {}, "a second run changes nothing"
    assert not ({90, 91} & (set(resolved["tags"]) - set(keeper["tags"]))), "our tags are never carried"
    assert _fields(resolved).get(9) == _fields(keeper).get(9), "our link field is never carried"
    undone = _apply(resolved, keeper_takeback(resolved, plan))
    assert sorted(undone["tags"]) == sorted(keeper["tags"])
    for key in ("correspondent", "document_type", "storage_path", "archive_serial_number"):
        assert undone[key] == keeper[key], key
    assert _fields(undone) == _fields(keeper)


@given(documents(1), documents(2), st.sampled_from([4, 5]))
def test_what_the_user_changed_since_stays(keeper: dict[str, Any], copy: dict[str, Any], other: int) -> None:
    plan = {"keeper": keeper, "copy": copy, "carry": carry_over(copy, keeper, OURS)}
    resolved = _apply(keeper, keeper_changes(keeper, plan["carry"]))
    edited = {**resolved, "tags": [*resolved["tags"], other], "correspondent": 7}  # the user's edits
    undone = _apply(edited, keeper_takeback(edited, plan))
    assert other in undone["tags"] and undone["correspondent"] == 7
