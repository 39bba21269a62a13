"""Labels and values that OCR read as two columns (core._columns), put back side by side."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperless_dedupe_hook.core import _columns
from paperless_dedupe_hook.core.extract import extract_features

SPLIT = ("Bristol, 11/9/2019\nAgreement number:\nPolicy No.:\nCustomer No.:\n"
         "C82965488\nPC78981767\n21790042\nRe: Your home insurance\n")
SIDE_BY_SIDE = ("Bristol, 11/9/2019\nAgreement number: C82965488\nPolicy No.: PC78981767\nCustomer No.: 21790042\n"
                "Re: Your home insurance\n")


def test_a_block_read_column_by_column_is_read_as_the_table_was() -> None:
    assert _columns.rejoin(SPLIT) == SIDE_BY_SIDE
    # What extraction reads from it: the same identifiers, under the same labels, as the original.
    assert extract_features(SPLIT) == extract_features(SIDE_BY_SIDE)
    assert "id:policy:PC78981767" in extract_features(SPLIT)


@pytest.mark.parametrize("text", [
    pytest.param("Agreement number:\nPolicy No.:\nC82965488\n", id="fewer-values-than-labels"),
    pytest.param("Agreement number:\nPolicy No.:\nC82965488\nDear customer:\n", id="a-label-where-a-value-should-be"),
    pytest.param("Agreement number: | Payment due:\nPolicy No.:\nCustomer No.:\nC82965488\nJune 7, 2030\n",
                 id="after-two-labels-read-as-one-line"),
    pytest.param("Policy No.:\nC82965488\n", id="one-label-is-a-label-and-its-value"),
    pytest.param("Dear Sir or Madam,\nwe write to you:\nabout your policy:\n" + "x" * 81 + "\nyes\n",
                 id="running-text"),
])
def test_what_is_not_an_unambiguous_block_stays_as_it_was(text: str) -> None:
    assert _columns.rejoin(text) == text


@given(st.lists(st.sampled_from(["Policy No.:", "C82965488", "", "Dear Sir,", "Total: 12,00", "Date:"]), max_size=12))
def test_rejoin_keeps_every_line_and_its_order(lines: list[str]) -> None:
    text = "\n".join(lines)
    rejoined = _columns.rejoin(text)
    assert sorted(rejoined.replace("\n", " ").split()) == sorted(text.replace("\n", " ").split())
    assert rejoined.count("\n") <= text.count("\n")
