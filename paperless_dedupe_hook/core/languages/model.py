"""What one language module declares: the words and conventions extraction reads it by.

A language is data, one module per language in this package (``de.py``, ``fr.py`` ...), each
defining ``LANGUAGE = Language(...)``.  The extractor never names a language: it merges the
word lists of all of them (labels, stamps, month names) and applies the conventions of the
languages a document is written in (day/month order, thousands grouped by a blank, street
patterns).  docs/languages.md says how a contributor adds one.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, kw_only=True)
class Language:
    #: ISO 639-1 code, as ``detection.languages`` names it ("fr").
    code: str
    #: Tesseract's codes, as ``PAPERLESS_OCR_LANGUAGE`` names it ("fra").
    ocr_codes: tuple[str, ...]
    #: Short, frequent words of running text that other languages rarely use: how a document's
    #: language is told (lower case, accents kept).
    frequent_words: frozenset[str]
    #: Twelve tuples of month names, January first: full names and abbreviations (a trailing
    #: "." is optional in the text).  OCR's confusions (``rn``/``m``, ``1``/``l``, lost accents)
    #: are forgiven by the lookup, not spelled out here.
    months: tuple[tuple[str, ...], ...]
    #: Whether ``05/03/2024`` is the 5th of March (False: month first, as in US English).
    day_first: bool = True
    #: What may follow a day's digits: ``1er``, ``1st``, ``1º``.
    ordinals: tuple[str, ...] = ()
    #: Words between day and month or month and year: ``5 de marzo de 2024``, ``31st of May``.
    date_connectors: tuple[str, ...] = ()
    #: Whether thousands are grouped by a blank (``1 234,56 €``); ``.``, ``,`` and ``'``
    #: groups are read in every language.
    blank_thousands: bool = False
    #: label -> stems that need a number word after them ("Kunden" + "nummer", "facture" + "n°").
    id_stems: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: label -> labels complete on their own ("Aktenzeichen", "Kenmerk").
    id_words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: The number words after a stem ("nummer", "number", "n°").
    id_suffixes: tuple[str, ...] = ()
    #: Number words that need their dot after a stem ("Fattura n. 123", not "n" alone).
    id_suffixes_dotted: tuple[str, ...] = ()
    #: Number words that come *before* the stem ("N° de facture", "Número de cliente").
    number_first_words: tuple[str, ...] = ()
    #: What may stand between such a number word and its stem ("de", "du", "de la").
    number_first_connectors: tuple[str, ...] = ()
    #: stem -> label for a number-first label ("facture" -> "invoice", "sécurité sociale" -> "social").
    number_first_stems: dict[str, str] = field(default_factory=dict)
    #: Words of print, scan, fax and mail-room stamp lines, and of draft stamps.
    stamp_words: tuple[str, ...] = ()
    #: Stamp words that are also words of prose ("Reçu le 05/03/2024" as a stamp, "nous avons reçu le
    #: 5 mars votre courrier" in a letter): a stamp only where they open their line.
    stamp_openers: tuple[str, ...] = ()
    #: Words that make a line a phone or fax line.
    phone_words: tuple[str, ...] = ()
    #: How a letter greets its reader, as its salutation line begins ("dear", "sehr geehrte"):
    #: the line before it is the letter's subject (core.subject).  Lower case, accents kept.
    salutations: tuple[str, ...] = ()
    #: Words of a label that make the date after it a version date ("Stand", "revised", "versie"):
    #: two versions of one text whose version dates differ are a revision (core.revision).  One
    #: word each (a label's words are looked up one by one); OCR's damage to them is forgiven by
    #: the lookup, not spelled out here.  Lower case, accents kept.
    version_words: tuple[str, ...] = ()
    #: ``Seite``, ``page``, ``pagina`` and the word of "2 of 3" (``von``, ``sur``, ``di``).
    page_words: tuple[str, ...] = ()
    page_of: tuple[str, ...] = ()
    #: Lower-case substrings that make a text talk money (then bare two-decimal numbers are amounts);
    #: searched in every text, so none may be part of a common word of another language ("somme"
    #: is in "Sommer", "importe" in "Importeur": hence "importe total", " iva").
    financial_words: tuple[str, ...] = ()
    #: Labels of a route ("Hinfahrt:", "Aller :").
    route_words: tuple[str, ...] = ()
    #: The words that open a journey's start and its end in this language, lower case: "from Leeds to
    #: York", "van Amsterdam naar Utrecht".  A start word and an end word of one language make a
    #: journey ("from X naar Y" is none); both places are capitalised, every word of them (at most
    #: three), with blanks only between, and neither starts with a word of ``not_places``.
    route_from: tuple[str, ...] = ()
    route_to: tuple[str, ...] = ()
    #: Whether the two words are also a form's labels (German "Von: Berlin Hbf\nNach: München Hbf"):
    #: then either may be capitalised and take a colon, a line break may stand between the places and
    #: only a place's first word need be capitalised.  Only for words that are rarely prose.
    route_form_labels: bool = False
    #: Words between the two places of a labelled route besides ``route_to`` ("Strecke: Köln bis Bonn").
    route_range: tuple[str, ...] = ()
    #: Words of a ticket's service before its number: "Flug LH 2034", "vol AF 1234", "Zug RE 5" (any case).
    service_words: tuple[str, ...] = ()
    #: Train categories written before a train's number, case as printed: "ICE 1234", "TGV 6201", "AVE 3071".
    #: Each of them makes a document a ticket where it stands before a blank and a digit, so none may
    #: be a common abbreviation of another kind ("FR 12 345 678 901" is a French VAT number).
    train_codes: tuple[str, ...] = ()
    #: Three-letter upper-case abbreviations that are no airport or station codes ("BGB - HGB", "IVA - NIF").
    not_codes: tuple[str, ...] = ()
    #: The days of the week, Monday first: no places, and no part of a date's slot label
    #: ("Datum: Dienstag, 5. März 2024" and "Datum: Freitag, 8. März 2024" name one slot).
    weekdays: tuple[str, ...] = ()
    #: Other first words that make ``from X to Y`` no journey (articles, titles).
    not_places: tuple[str, ...] = ()
    #: Capitalised words that open a street name before its house number ("Am", "An der").
    street_prefixes: tuple[str, ...] = ()
    #: Street types after the name, house number first ("12 High Street").
    street_types_after: tuple[str, ...] = ()
    #: A street type's abbreviation -> the type, where it ends the name ("Maple Ave" and
    #: "Maple Avenue" are one street).
    street_type_abbreviations: dict[str, str] = field(default_factory=dict)
    #: Street types before the name: ``12 rue de la Paix`` (number first) or ``Via Roma 12``,
    #: ``Calle Mayor, 12`` (number last); both are read.
    street_types_before: tuple[str, ...] = ()
    #: Articles and prepositions inside street names ("rue de la Paix", "Via dei Mille"): left out
    #: of a street's key with its type, so that two streets of one type differ in their names.
    small_words: tuple[str, ...] = ()
    #: Endings of street names joined into one word before the number ("Kerkstraat 12").
    street_suffixes: tuple[str, ...] = ()
    #: Whether such a name is read only before a postcode ("Kirchgasse 3, 1010 Wien": German,
    #: whose capitalised nouns would otherwise be streets) or wherever it stands.
    street_suffixes_need_postcode: bool = False
