"""The subject lines of a letter, and whether two letters' differ, pure.

Letters of one insurer or bank to one customer share the letterhead, the address, the policy
number and a long legal footer; what sets them apart is a body of two or three sentences and
the subject above it ("Premium refund", "Change of bank details").  Their shingles are
60-80 % alike, their values often do not meet (one letter names two dates, the other an
amount), so D stays near 1 and the pair passed the threshold: on two realistic archives of
20,000 documents (seeds 21 and 109), 14 of 33 and 11 of 21 false pairs were such letters
with two different subject lines.  A copy keeps its subject (a re-scan reads it with a slip
or two); a cover letter in front of a copy adds a subject of its own, and the copy's is
still there after it.

A subject line is the line right before a salutation ("Dear Mrs O'Brien,", "Sehr geehrte
Damen und Herren,": a line that begins with one of the languages' ``salutations`` and ends
with a comma, colon or "!", as no address line does): a line without digits (a date or a
reference line before the salutation is no subject, and values speak for themselves), at
most :data:`MAX_SUBJECT_WORDS` words, its words folded as month words are.  A line with a
label is none either ("Betreff: ...", an e-mail's "Subject: ..."): an e-mail's subject is its
sender's, which the letter it brings need not repeat (realistic seed 137: an e-mail "Subject:
Erinnerung: Rufnummer" and the scan of its letter, whose line before "Hallo," is the
recipient's name).  A line that begins with a small letter, holds a sentence's end or ends
with a comma is a piece of running text (a scan whose reading order put the salutation after a
block of the body), no subject.

Two letters' subjects differ when each is one letter (one salutation: a cover letter in front
of a copy makes two, and the copy's own subject may be a line with a number), both have a
subject line, the two are not one subject read twice (:func:`same`: OCR's slips leave most
words of a subject within a slip or two of the other's, two subjects share a word or two), and
neither letter's subject stands in the other's text (a salutation that a scan's reading order
moved after the body makes a sentence's last line look like a subject, which the other text
then has).  Such a pair is another letter: its D is at most :data:`MAX_D` (scoring), as one
strong conflict caps it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final, Protocol

from rapidfuzz.distance import Indel

from . import languages as L

__all__ = ["MAX_D", "SAME_SUBJECT", "Letter", "differ", "same", "subjects"]

#: D of two letters with different subjects is at most this (one date conflict caps D at 0.44).
MAX_D: Final = 0.5
#: Two subjects are one read twice where this share of their words pair up (a word and one
#: :data:`SAME_WORD` alike: a slip or two), or where their letters are :data:`SAME_LETTERS`
#: alike without the blanks (OCR joined two words).  Letters alone are not enough: German
#: subjects share endings and pronouns ("Änderung Ihrer Bankverbindung", "Bestätigung Ihrer
#: Schadenmeldung": 0.62 alike by letters, one word of three by words).
SAME_SUBJECT: Final = 0.6
SAME_WORD: Final = 0.75
SAME_LETTERS: Final = 0.85
#: A subject line has at most this many words; a salutation line at most SALUTATION_WORDS.
MAX_SUBJECT_WORDS: Final = 12
SALUTATION_WORDS: Final = 10
#: Letters of a subject (fewer is a stray mark or an initial, not a subject).
MIN_SUBJECT_LETTERS: Final = 4

_WORD = re.compile(r"[^\W\d_]+")
#: What a subject line has not and a piece of running text has: a sentence's end inside it, a
#: clause going on after it.
_SENTENCE = re.compile(r"[.;?!]\s+\S|[,;-]\s*$")
_SALUTATIONS: Final = frozenset(tuple(L.fold_word(w) for w in s.split()) for s in L.merged("salutations"))
_SALUTATION_LENGTHS: Final = sorted({len(s) for s in _SALUTATIONS})
_ENDS: Final = (",", ":", "!")
# Documents whose words were folded last (keyed by their first samples).
_READ_DOCUMENTS = 4096


def _folded_words(line: str) -> list[str]:
    return [L.fold_word(w) for w in _WORD.findall(line)]


def _salutes(line: str) -> bool:
    """Whether a line is a salutation: a salutation's words first, a comma, colon or "!" last."""
    stripped = line.strip()
    if not stripped.endswith(_ENDS):
        return False
    words = _folded_words(stripped[:120])
    if not words or len(words) > SALUTATION_WORDS:
        return False
    return any(tuple(words[:n]) in _SALUTATIONS for n in _SALUTATION_LENGTHS)


def subjects(text: str) -> tuple[str, ...]:
    """The folded subject line before each salutation of a text, in order ("" where the line before
    one is no subject)."""
    lines = text.splitlines()
    out: list[str] = []
    previous = ""
    for line in lines:
        if line.strip() and _salutes(line):
            out.append(_subject(previous) if previous else "")
        if line.strip():
            previous = line
    return tuple(out)


def _subject(line: str) -> str:
    """The folded words of a subject line; "" for a line that is none."""
    if any(c.isdigit() for c in line) or ":" in line or _salutes(line):
        return ""
    text = line.strip()
    first = next((c for c in text if c.isalpha()), "")
    if not first.isupper() or _SENTENCE.search(text):
        return ""  # a sentence's piece: a scan's reading order moved the salutation after it
    words = _folded_words(text)
    if not words or len(words) > MAX_SUBJECT_WORDS or sum(map(len, words)) < MIN_SUBJECT_LETTERS:
        return ""
    return " ".join(words)


@lru_cache(maxsize=_READ_DOCUMENTS)
def _words(head: str) -> str:
    """The folded words of a document's first sample, between blanks (to find a subject in)."""
    return " " + " ".join(L.fold_word(w) for w in head.split()) + " "


def same(x: str, y: str) -> bool:
    """Whether two folded subjects are one subject read twice (see :data:`SAME_SUBJECT`)."""
    if Indel.normalized_similarity(x.replace(" ", ""), y.replace(" ", "")) >= SAME_LETTERS:
        return True
    words_x, words_y = x.split(), y.split()
    paired = sum(any(Indel.normalized_similarity(u, v) >= SAME_WORD for v in words_y) for u in words_x) + sum(
        any(Indel.normalized_similarity(v, u) >= SAME_WORD for u in words_x) for v in words_y)
    return paired >= SAME_SUBJECT * (len(words_x) + len(words_y))


class Letter(Protocol):
    """What :func:`differ` reads of a document (core.features.Features, which reads its subjects here)."""

    @property
    def subjects(self) -> tuple[str, ...]: ...
    @property
    def sample(self) -> bytes | None: ...
    @property
    def head(self) -> str: ...


def differ(a: Letter, b: Letter) -> tuple[str, str] | None:
    """(a subject of ``a``, one of ``b``) where the two letters' subjects differ (see the module
    docstring); None where they do not, or where either has no subject or no sample."""
    if len(a.subjects) != 1 or len(b.subjects) != 1 or a.sample is None or b.sample is None:
        return None  # no letter, or a letter behind a cover letter: two salutations, two subjects
    x, y = a.subjects[0], b.subjects[0]
    if not x or not y or same(x, y):
        return None
    if f" {x} " in _words(b.head) or f" {y} " in _words(a.head):
        return None
    return x, y
