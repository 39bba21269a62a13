"""Labels and values that OCR read as two columns, put back side by side, pure.

A block of labelled values (``Policy No.:  DX84838821``) is often read column by column: first
the labels, each alone on its line and ending with a colon, then the values in the same order.
Read so, no value stands after its label, and a re-scan of one letter of a series carries its
policy and contract numbers as no identifier at all: nothing conflicts with its siblings'
numbers, and the re-scan pairs with every letter of the series.  :func:`rejoin` puts each
value back after its label where the block is unambiguous: two or more label lines, not after
a line that ends like a label, followed by as many value lines.
"""

from __future__ import annotations

from typing import Final

from . import _regex

#: Two label lines in a row: the cheap test that a text may hold such a block at all.
_TWO_LABELS: Final = _regex.compile(r"(?m)^[ \t]*[^\W\d_][^\n:]{0,58}:[ \t]*\n[ \t]*[^\W\d_][^\n:]{0,58}:[ \t]*$")
_LABEL: Final = _regex.compile(r"[ \t]*[^\W\d_][^\n:]{0,58}:[ \t]*")
MIN_LABELS: Final = 2
_MAX_VALUE_CHARS = 80  # a value line is short; a longer line is running text


def _is_value(line: str) -> bool:
    value = line.strip()
    return bool(value) and len(value) <= _MAX_VALUE_CHARS and not value.endswith(":")


def rejoin(text: str) -> str:
    """``text`` with each block of label lines followed by as many value lines read as
    ``label value`` lines; every other line as it was."""
    if _TWO_LABELS.search(text) is None:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        j = i
        while j < n and _LABEL.fullmatch(lines[j]):
            j += 1
        labels = j - i
        # A line before the block that ends like a label is two labels read as one line
        # ("Agreement number: | Payment due:"): the count of labels is not to be trusted.
        after_label = i > 0 and lines[i - 1].rstrip().endswith(":")
        if (labels >= MIN_LABELS and not after_label and j + labels <= n
                and all(_is_value(lines[j + k]) for k in range(labels))):
            out.extend(f"{lines[i + k].rstrip()} {lines[j + k].strip()}" for k in range(labels))
            i = j + labels
        else:
            out.extend(lines[i : max(j, i + 1)])
            i = max(j, i + 1)
    return "\n".join(out)
