"""Which copy of a duplicate group to keep, and why, in words (pure).

The order of the criteria is the one users ask for: a born-digital document over a scan of
it, the complete copy over one missing pages, the better text (fewer OCR slips), richer
metadata (ASN, tags, correspondent, custom fields, notes), then the older one.  The first
criterion on which two members differ decides between them; the group's keeper is the
member no other beats.  Each criterion has a short word (``--report``'s ``keep_reasons``)
and a sentence for the note on the copy ("keep #12 (born-digital, 4 pages, ASN 123); this
one is a scan of it").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["Member", "KeepChoice", "born_digital", "choose", "text_slips"]

# PDF producers and creators (``/metadata/`` ``original_metadata``) that say how a file was made.
_SCAN_SOFTWARE = re.compile(
    r"scan|naps2|epson|canon|brother|fujitsu|kofax|paperport|abbyy|finereader|tesseract|ocrmypdf|"
    r"imagemagick|hp digital sending|xerox|ricoh|konica|kyocera|sharp|lexmark|genius", re.I)
_DIGITAL_SOFTWARE = re.compile(
    r"microsoft|word|excel|powerpoint|libreoffice|openoffice|writer|pdfmaker|distiller|acrobat pdf|"
    r"chrom|skia|wkhtmltopdf|weasyprint|tex|quartz|pages|keynote|sap|crystal|itext|reportlab|"
    r"fpdf|tcpdf|dompdf|prince|typst|ghostscript|cairo|firefox|safari|print to pdf", re.I)
# A word where letters meet a digit OCR confuses with a letter ("0ffice", "Suppl1es", "Tota1").
_WORD = re.compile(r"\w+")
_LETTER_DIGIT = re.compile(r"[^\W\d_][015]|[015][^\W\d_]")
# Characters typed text does not hold but OCR output does.
_JUNK = frozenset("\ufffd|~^¦")


def born_digital(mime_type: str | None, metadata: Mapping[str, object] | None = None) -> bool | None:
    """True for a file made on a computer, False for a scan, None when it cannot be told.

    Images are scans; text, mail and office files are born-digital; for a PDF the producer
    and creator in Paperless's ``/metadata/`` tell (a scanner's software, or an office
    suite, a browser, TeX ...).
    """
    mime = (mime_type or "").lower()
    if mime.startswith("image/"):
        return False
    if mime and mime != "application/pdf":
        return True
    made_by = " ".join(str(item.get("value", "")) for item in _metadata_items(metadata)
                       if str(item.get("key", "")).lower() in {"producer", "creator", "creatortool"})
    if _SCAN_SOFTWARE.search(made_by):
        return False
    if _DIGITAL_SOFTWARE.search(made_by):
        return True
    return None


def _metadata_items(metadata: Mapping[str, object] | None) -> list[Mapping[str, object]]:
    items = (metadata or {}).get("original_metadata")
    return [i for i in items if isinstance(i, Mapping)] if isinstance(items, list) else []


def text_slips(text: str) -> int:
    """How many words of ``text`` look like OCR slips (a letter-confusable digit inside a
    word of at least two letters), plus the characters no typed text holds."""
    slips = 0
    for word in _WORD.findall(text):
        if _LETTER_DIGIT.search(word) and sum(c.isalpha() for c in word) >= 2:
            slips += 1
    return slips + sum(text.count(c) for c in _JUNK)


@dataclass(frozen=True)
class Member:
    """What the choice looks at for one document of a group."""

    doc_id: int
    added: str = ""  # ISO timestamp: when Paperless took it in (the older one is kept last of all)
    born_digital: bool | None = None
    pages: int | None = None
    words: int = 0
    slips: int = 0
    asn: int | None = None
    tags: int = 0  # the user's tags (not ours)
    correspondent: bool = False
    document_type: bool = False
    custom_fields: int = 0  # not our link field
    notes: int = 0

    @property
    def metadata(self) -> int:
        return (2 * (self.asn is not None) + self.tags + self.correspondent + self.document_type
                + self.custom_fields + self.notes)


@dataclass(frozen=True)
class KeepChoice:
    keep: int
    reasons: tuple[str, ...]  # short words, the deciding criteria in order
    described: str  # the keeper's facts: "born-digital, 4 pages, ASN 123"
    why_not: Mapping[int, str] = field(default_factory=dict)  # each copy: "a scan of it"

    def note_line(self, copy_id: int) -> str:
        """The line of the note on a copy: "keep #12 (born-digital, 4 pages); this one is a scan of it"."""
        facts = f" ({self.described})" if self.described else ""
        if copy_id == self.keep:
            return f"keep this one{facts}" + (f": {', '.join(self.reasons)}" if self.reasons else "")
        why = self.why_not.get(copy_id)
        return f"keep #{self.keep}{facts}" + (f"; this one is {why}" if why else "")


# (word for keep_reasons, what the copy is when it loses on it)
_CRITERIA: tuple[tuple[str, str], ...] = (
    ("born-digital", "a scan of it"),
    ("complete", "missing pages"),
    ("better text", "the one with more OCR slips"),
    ("more metadata", "the one with less metadata"),
    ("older", "the newer one"),
)


def _complete(a: Member, b: Member) -> int:
    """+1 when ``a`` is complete and ``b`` misses pages, -1 the other way round, 0 when neither."""
    if a.pages and b.pages and a.pages != b.pages:
        return 1 if a.pages > b.pages else -1
    if not (a.pages and b.pages) and min(a.words, b.words) < 0.8 * max(a.words, b.words):
        return 1 if a.words > b.words else -1  # no page counts (text files): a fifth of the words missing
    return 0


def _better_text(a: Member, b: Member) -> int:
    # Per 1,000 words, and only a clear difference: a slip or two is noise.
    rate_a = 1000 * a.slips / max(a.words, 1)
    rate_b = 1000 * b.slips / max(b.words, 1)
    if abs(a.slips - b.slips) >= 2 and abs(rate_a - rate_b) >= 2.0:
        return 1 if rate_a < rate_b else -1
    return 0


def _decide(a: Member, b: Member) -> tuple[int, int]:
    """(which criterion decides, +1 when ``a`` wins / -1 when ``b`` wins)."""
    if a.born_digital is not None and b.born_digital is not None and a.born_digital != b.born_digital:
        return 0, 1 if a.born_digital else -1
    for index, test in ((1, _complete), (2, _better_text)):
        verdict = test(a, b)
        if verdict:
            return index, verdict
    if a.metadata != b.metadata:
        return 3, 1 if a.metadata > b.metadata else -1
    return 4, 1 if (a.added, a.doc_id) < (b.added, b.doc_id) else -1


def _described(m: Member) -> str:
    facts = []
    if m.born_digital is True:
        facts.append("born-digital")
    elif m.born_digital is False:
        facts.append("a scan")
    if m.pages:
        facts.append(f"{m.pages} page" + ("s" if m.pages != 1 else ""))
    if m.asn is not None:
        facts.append(f"ASN {m.asn}")
    return ", ".join(facts)


def choose(members: Sequence[Member]) -> KeepChoice:
    """The member to keep: the one that wins against most others (against all of them
    unless the thresholds of "complete" and "better text" make the order circular: three
    copies with 100, 90 and 81 percent of the words), the older on a tie; with the
    deciding criteria in order."""
    if not members:
        raise ValueError("choose() needs at least one member")
    if len({m.doc_id for m in members}) != len(members):
        raise ValueError("members must be distinct documents")
    wins = {m.doc_id: sum(_decide(m, o)[1] > 0 for o in members if o.doc_id != m.doc_id) for m in members}
    best = min(members, key=lambda m: (-wins[m.doc_id], m.added, m.doc_id))
    used: list[int] = []
    why_not: dict[int, str] = {}
    for other in members:
        if other.doc_id == best.doc_id:
            continue
        criterion, _ = _decide(best, other)
        why_not[other.doc_id] = _CRITERIA[criterion][1]
        if criterion not in used:
            used.append(criterion)
    reasons = tuple(_CRITERIA[c][0] for c in sorted(used))
    return KeepChoice(keep=best.doc_id, reasons=reasons, described=_described(best), why_not=why_not)
