"""A word diff of two original texts that ignores what OCR gets wrong, pure.

Two documents are compared word by word on a key that forgets case, punctuation and
the glyph confusions of OCR (``text.normalize`` then ``text.fold_ocr``), so that a
re-scan's "lnvoice Tota1" is the same word as "Invoice Total": such a word is counted
as *read differently by OCR*, not as a change.  What the reader sees is the original
text of each side (line breaks included), cut into segments: unchanged, read
differently by OCR, changed, and long unchanged stretches folded away.

``diff_texts`` is what the HTML report shows and what :mod:`.explain` words.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from . import text

# Texts are compared up to this many words each (a 20,000-word text is ~60 pages);
# beyond it the diff says it stopped (``truncated``).
MAX_WORDS = 20000
# Unchanged words kept on each side of a change; longer unchanged stretches fold.
CONTEXT_WORDS = 15
# Above this many words per side, difflib's "popular element" heuristic keeps the
# matching near-linear (very common words are no anchors, though runs extend over them).
_AUTOJUNK_FROM = 1000
# An unchanged stretch is folded only when that hides at least this many words.
_MIN_FOLD = 10
# A change this close to the start or end of both texts is "at the start" / "at the end":
# a cover sheet often repeats the letterhead, which then matches the first words.
EDGE_WORDS = 10
_WORD = re.compile(r"\S+")

SAME, OCR, CHANGED, FOLDED = "same", "ocr", "changed", "folded"


@dataclass(frozen=True)
class Segment:
    """A piece of one side's original text: ``kind`` is same, ocr (these words read
    differently by OCR on the other side: ``other`` holds that reading), changed,
    or folded (an unchanged stretch of ``words`` words not shown by default)."""

    kind: str
    text: str
    words: int
    other: str = ""


@dataclass(frozen=True)
class Change:
    """One place where the texts really differ: words only in the older text, only in
    the newer one, or both (replaced); whether it is at the start or end of both
    (within EDGE_WORDS words)."""

    old_text: str
    new_text: str
    old_words: int
    new_words: int
    at_start: bool
    at_end: bool


@dataclass(frozen=True)
class TextDiff:
    old: tuple[Segment, ...]
    new: tuple[Segment, ...]
    changes: tuple[Change, ...]
    ocr_words: int  # words the same after OCR folding but read differently
    old_words: int
    new_words: int
    truncated: bool  # one text was longer than MAX_WORDS: only its start was compared

    @property
    def changed_words(self) -> int:
        return sum(max(c.old_words, c.new_words) for c in self.changes)


@dataclass(frozen=True)
class _Token:
    key: str  # what is compared; "" for punctuation alone
    plain: str  # normalized, not OCR-folded: tells an OCR reading from the same word
    text: str  # the original word with the blanks after it


def _tokens(raw: str, limit: int) -> tuple[list[_Token], bool]:
    """The first ``limit`` words of ``raw`` (read lazily: a 20 MB text costs no more),
    and whether there were more.  A word hyphenated at a line end ("Sto-\\nrnierung")
    is one word, as ``text.normalize`` makes it."""
    found = _WORD.finditer(raw)
    spans = [m.span() for _, m in zip(range(limit + 1), found, strict=False)]
    truncated = len(spans) > limit
    spans = spans[:limit]
    joined: list[tuple[int, int, int]] = []  # (start, end of the word's last part, n-th span)
    for n, (start, stop) in enumerate(spans):
        prev = joined[-1] if joined else None
        if (prev is not None and raw[prev[1] - 1] == "-" and prev[1] - 2 >= prev[0]
                and raw[prev[1] - 2].isalpha() and "\n" in raw[prev[1] : start] and raw[start].isalpha()):
            joined[-1] = (prev[0], stop, n)
        else:
            joined.append((start, stop, n))
    out: list[_Token] = []
    for k, (start, stop, _n) in enumerate(joined):
        end = joined[k + 1][0] if k + 1 < len(joined) else (stop if truncated else len(raw))
        # (without a closing colon: normalize would take "to:" or "Von:" for a mail header line)
        plain = text.normalize(raw[start:stop].rstrip(":"))
        out.append(_Token(text.fold_ocr(plain), plain, raw[0 if k == 0 else start : end]))
    return out, truncated


def _keyed(tokens: list[_Token]) -> list[list[_Token]]:
    """Tokens grouped so each group starts with a word that has a key: punctuation
    alone ("–", "|") rides along with the word before it and is never a change."""
    groups: list[list[_Token]] = []
    for tok in tokens:
        if tok.key or not groups:
            groups.append([tok])
        else:
            groups[-1].append(tok)
    return groups


def _joined(groups: list[list[_Token]]) -> str:
    return "".join(t.text for g in groups for t in g)


def _same_run(groups: list[list[_Token]], *, head: int, tail: int) -> list[Segment]:
    """An unchanged run: ``head`` words shown after the change before it, ``tail``
    words before the next change, the middle folded when it is long."""
    if len(groups) < head + tail + _MIN_FOLD:
        return [Segment(SAME, _joined(groups), len(groups))]
    out = []
    if head:
        out.append(Segment(SAME, _joined(groups[:head]), head))
    middle = groups[head : len(groups) - tail]
    out.append(Segment(FOLDED, _joined(middle), len(middle)))
    if tail:
        out.append(Segment(SAME, _joined(groups[len(groups) - tail :]), tail))
    return out


def diff_texts(old: str, new: str, *, context: int = CONTEXT_WORDS, max_words: int = MAX_WORDS) -> TextDiff:
    """The word diff of ``old`` (the older document) against ``new``."""
    a_tokens, a_cut = _tokens(old or "", max_words)
    b_tokens, b_cut = _tokens(new or "", max_words)
    a, b = _keyed(a_tokens), _keyed(b_tokens)
    a_keys, b_keys = [g[0].key for g in a], [g[0].key for g in b]
    matcher = difflib.SequenceMatcher(None, a_keys, b_keys,
                                      autojunk=max(len(a_keys), len(b_keys)) > _AUTOJUNK_FROM)
    opcodes = matcher.get_opcodes()
    left: list[Segment] = []
    right: list[Segment] = []
    changes: list[Change] = []
    ocr = 0
    last = len(opcodes) - 1
    for n, (op, i1, i2, j1, j2) in enumerate(opcodes):
        if op != "equal":
            old_part, new_part = _joined(a[i1:i2]), _joined(b[j1:j2])
            changes.append(Change(old_part.strip(), new_part.strip(), i2 - i1, j2 - j1,
                                  at_start=max(i1, j1) <= EDGE_WORDS,
                                  at_end=min(len(a) - i2, len(b) - j2) <= EDGE_WORDS and max(len(a) - i2,
                                                                                            len(b) - j2) <= EDGE_WORDS))
            if i2 > i1:
                left.append(Segment(CHANGED, old_part, i2 - i1))
            if j2 > j1:
                right.append(Segment(CHANGED, new_part, j2 - j1))
            continue
        # Within an equal block: runs of words read alike, and single OCR readings.
        head = context if n > 0 else 0
        tail = context if n < last else 0
        if n == 0 and n == last:
            head = 2 * context  # identical texts: show their start
        run_start = 0
        length = i2 - i1
        pieces: list[tuple[int, int, bool]] = []  # (start, end, is_ocr) in block offsets
        for k in range(length):
            if a[i1 + k][0].plain != b[j1 + k][0].plain:
                if k > run_start:
                    pieces.append((run_start, k, False))
                pieces.append((k, k + 1, True))
                run_start = k + 1
        if run_start < length:
            pieces.append((run_start, length, False))
        for p, (s, e, is_ocr) in enumerate(pieces):
            if is_ocr:
                ocr += 1
                left.append(Segment(OCR, _joined(a[i1 + s : i1 + e]), 1, other=b[j1 + s][0].text.strip()))
                right.append(Segment(OCR, _joined(b[j1 + s : j1 + e]), 1, other=a[i1 + s][0].text.strip()))
                continue
            # An OCR reading is worth seeing: keep context around it too.
            run_head = head if p == 0 else context
            run_tail = tail if p == len(pieces) - 1 else context
            left.extend(_same_run(a[i1 + s : i1 + e], head=run_head, tail=run_tail))
            right.extend(_same_run(b[j1 + s : j1 + e], head=run_head, tail=run_tail))
    return TextDiff(tuple(left), tuple(right), tuple(changes), ocr, len(a), len(b), a_cut or b_cut)
