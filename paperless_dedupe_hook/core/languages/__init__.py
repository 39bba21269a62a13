"""The languages extraction reads, as data: one module per language (see :mod:`.model`).

:data:`LANGUAGES` lists them; the ``merged_*`` helpers give what the extractor's patterns are
built from (the union over all languages: a label or a stamp word is read in every document),
:mod:`.detect` tells which languages a document is written in (their conventions apply to it).
A new language is a new module here and its name in :data:`_MODULES` (docs/languages.md).
"""

from __future__ import annotations

import unicodedata
from importlib import import_module
from typing import Final

from .model import Language

__all__ = ["CODES", "LABELS", "LANGUAGES", "Language", "by_code", "codes_of_ocr", "fold_word",
           "merged", "merged_labels", "month_numbers", "number_first_stems"]

_MODULES: Final = ("de", "en", "fr", "nl", "es", "it")

LANGUAGES: Final[tuple[Language, ...]] = tuple(import_module(f".{name}", __name__).LANGUAGE for name in _MODULES)
CODES: Final = tuple(lang.code for lang in LANGUAGES)

#: The identifier labels, in the order the extractor tries them where several can open at one
#: word (a label of a new language that is none of these is appended).
LABELS: Final[tuple[str, ...]] = tuple(dict.fromkeys((
    "invoice", "customer", "account", "order", "contract", "policy", "booking", "ticket", "tracking", "tax",
    "personnel", "member", "flight", "delivery", "register", "statement", "case", "social",
    *(label for lang in LANGUAGES for label in (*lang.id_stems, *lang.id_words, *lang.number_first_stems.values())),
)))


def by_code(code: str) -> Language:
    for lang in LANGUAGES:
        if lang.code == code:
            return lang
    raise KeyError(code)


def codes_of_ocr(value: str) -> tuple[str, ...]:
    """The languages of a ``PAPERLESS_OCR_LANGUAGE`` value (``deu+eng`` -> ``("de", "en")``);
    Tesseract codes of languages without a module are left out."""
    parts = {p.strip().lower() for p in value.replace(",", "+").split("+")}
    return tuple(lang.code for lang in LANGUAGES if parts & set(lang.ocr_codes))


def merged(field: str) -> tuple[str, ...]:
    """One tuple field of every language, without repeats, in language order."""
    return tuple(dict.fromkeys(w for lang in LANGUAGES for w in getattr(lang, field)))


def merged_labels(field: str) -> dict[str, tuple[str, ...]]:
    """``id_stems`` or ``id_words`` of every language: label -> its literals, in :data:`LABELS` order."""
    out: dict[str, list[str]] = {}
    for label in LABELS:
        for lang in LANGUAGES:
            out.setdefault(label, []).extend(getattr(lang, field).get(label, ()))
    return {label: tuple(dict.fromkeys(words)) for label, words in out.items() if words}


def fold_word(word: str) -> str:
    """The key a word is looked up by: lower case, no accents, no trailing dot, OCR's look-alikes
    on one letter (``rn`` -> ``m``; ``i``, ``l``, ``1``, ``|``, ``!`` -> ``l``; ``0`` -> ``o``) and
    umlauts as their base letter (``ä``, ``ae`` -> ``a``): ``Ju1i``, ``JULI`` and ``juli`` meet."""
    word = word.lower().rstrip(".").replace("ß", "ss")
    for umlaut, base in (("ae", "a"), ("oe", "o"), ("ue", "u")):
        word = word.replace(umlaut, base)
    if not word.isascii():
        word = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
    return word.replace("rn", "m").translate(_LOOK_ALIKES)


_LOOK_ALIKES: Final = str.maketrans("i1|!0", "llllo")


def month_numbers() -> dict[str, int]:
    """Folded month name or abbreviation of every language -> its month (1-12).  Raises when
    two languages fold one word onto two months (tests/test_languages.py holds it)."""
    out: dict[str, int] = {}
    for lang in LANGUAGES:
        if len(lang.months) != 12:
            raise ValueError(f"language {lang.code}: {len(lang.months)} months, not 12")
        for number, names in enumerate(lang.months, start=1):
            for name in names:
                key = fold_word(name)
                if out.setdefault(key, number) != number:
                    raise ValueError(f"language {lang.code}: month word {name!r} is month {out[key]} elsewhere")
    return out


def street_type_abbreviations() -> dict[str, str]:
    """A street type's abbreviation -> the type, of every language (first language wins)."""
    out: dict[str, str] = {}
    for lang in LANGUAGES:
        for short, full in lang.street_type_abbreviations.items():
            out.setdefault(short, full)
    return out


def number_first_stems() -> dict[str, str]:
    """Folded stem of a number-first label (``facture``, ``securlte soclale``) -> its label."""
    out: dict[str, str] = {}
    for lang in LANGUAGES:
        for stem, label in lang.number_first_stems.items():
            out[" ".join(fold_word(w) for w in stem.split())] = label
    return out
