"""What the installed extractor reads in each language, value by value (issue 23).

    python -m bench.language_probe [--lang fr,nl] [--json] [--failures]

For every language of :mod:`bench.corpus.ml_lang` and every way that language writes a value (dates
in words in each month, month + year in each month, every date template incl. weekdays and the first
of a month, numeric dates in the local order, every amount format, every identifier label, every
street form, every print/scan stamp), one line of text is given to
:func:`paperless_dedupe_hook.core.extract.extract_tokens` and the tokens are checked:

* a date must yield ``date:YYYY-MM-DD`` (month + year ``date:YYYY-MM``) and no other date;
* an amount ``amount:<cents>`` and no other amount;
* a label with its value an ``id:<label>:<VALUE>`` token (any label name) whose value is the
  value upper-cased without separators;
* a street (with postcode and town; every town of the language's list, so every postcode form) a
  ``street:`` token holding the house number;
* a stamp line no token at all (a copy that only adds a stamp must keep its tokens);
* a route between two of the language's towns (labelled, or in words: ``de Madrid a Sevilla``) exactly
  its ``route:A>B`` token; prose with the short route words of the language (``de lunes a viernes``) none;
* ``invoice number`` and ``invoice date`` lines together: both tokens, in two different slots;
* a date with a weekday (``Date: mardi 5 mars 2024``) the slot of the same date without it (today
  the weekday becomes part of the slot label, so two such dates in one slot never conflict).

The figures are the language work's to-do list; the module reads the extractor, it changes nothing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass

from bench.corpus import ml_fmt as F
from bench.corpus.ml_lang import Lang, all_languages
from paperless_dedupe_hook.core._route_patterns import place_key
from paperless_dedupe_hook.core.extract import SLOT_MARK, extract_features, extract_tokens

DAY = 5  # day <= 12: a numeric date is ambiguous, the order must come from the language
ID_KEYS = ("invoice_no", "customer_no", "contract_no", "policy_no", "order_no", "booking_ref", "reference", "tax_no",
           "social_no", "employee_no", "meter_no")
PROBE_IDS = {"policy_no": "KJ89956964", "booking_ref": "QXRT42", "reference": "AB/2291/24"}


@dataclass(frozen=True)
class Check:
    lang: str
    category: str
    form: str
    text: str
    read: bool
    tokens: tuple[str, ...]


def _only(kind: str, want: str) -> Callable[[frozenset[str]], bool]:
    def ok(tokens: frozenset[str]) -> bool:
        return {t for t in tokens if t.startswith(kind + ":")} == {want}
    return ok


def _none(kind: str) -> Callable[[frozenset[str]], bool]:
    return lambda tokens: not any(t.startswith(kind + ":") for t in tokens)


def _id(value: str) -> Callable[[frozenset[str]], bool]:
    want = re.sub(r"[^A-Z0-9]", "", value.upper())
    return lambda tokens: any(t.startswith("id:") and t.rsplit(":", 1)[-1] == want for t in tokens)


def _street(number: str) -> Callable[[frozenset[str]], bool]:
    return lambda tokens: any(t.startswith("street:") and number in t for t in tokens)


def _nothing(tokens: frozenset[str]) -> bool:
    return not tokens


def checks(lang: Lang) -> list[tuple[str, str, str, Callable[[frozenset[str]], bool]]]:
    """(category, form, one line of text, what must hold of its tokens) for one language."""
    out: list[tuple[str, str, str, Callable[[frozenset[str]], bool]]] = []
    date_label = lang.labels["date"][0]
    for m in range(1, 13):
        d = dt.date(2024, m, DAY)
        out.append(("date_in_words", lang.months[m - 1], f"{date_label}: {F.date(lang, d, 'words', 0)}",
                    _only("date", f"date:{d.isoformat()}")))
    for m in range(1, 13):
        d = dt.date(2024, m, DAY)
        out.append(("month_year", lang.months[m - 1], f"{lang.labels['period'][0]}: {F.date(lang, d, 'month_year', 0)}",
                    _only("date", f"date:2024-{m:02d}")))
    for i, tpl in enumerate(lang.date_words):
        for d in (dt.date(2024, 3, DAY), dt.date(2024, 8, 1), dt.date(2024, 11, 21)):
            out.append(("date_template", f"{tpl} ({d.isoformat()})", f"{date_label}: {F.date(lang, d, 'words', i)}",
                        _only("date", f"date:{d.isoformat()}")))
    for i, tpl in enumerate(lang.month_year):
        out.append(("month_year_template", tpl, f"{lang.labels['period'][0]}: {F.date(lang, dt.date(2024, 3, 1), 'month_year', i)}",
                    _only("date", "date:2024-03")))
    for i, tpl in enumerate(lang.date_numeric):
        for d in (dt.date(2024, 3, DAY), dt.date(2024, 3, 25)):
            out.append(("numeric_date", f"{tpl} ({d.isoformat()})", f"{date_label}: {F.date(lang, d, 'numeric', i)}",
                        _only("date", f"date:{d.isoformat()}")))
    total = lang.labels["total"][0]
    for i, (_, _, tpl) in enumerate(lang.amounts):
        for x in (1234.56, 56.70, 1234567.89):
            out.append(("amount", f"{tpl} ({x})", f"{total}: {F.amount(lang, x, i)}", _only("amount", f"amount:{round(x * 100)}")))
    for key in ID_KEYS:
        value = PROBE_IDS.get(key) or F.shape(_Seq(), lang.id_shapes[key], 2024)  # type: ignore[arg-type]
        for label in lang.labels[key]:
            out.append(("label", f"{key}: {label}", f"{label}: {value}", _id(value)))
    postcode, town = lang.places[0]
    for tpl in lang.streets:
        name = lang.street_names[0]
        out.append(("street", tpl, f"{F.fill(tpl, name=name, n=12)}, {postcode} {town}", _street("12")))
    for postcode, town in lang.places[1:]:  # every postcode form: 5 digits, Belgian/Swiss/Austrian 4, Dutch "1015 CJ"
        out.append(("street_place", f"{postcode} {town}", f"{F.fill(lang.streets[0], name=lang.street_names[0], n=12)}, "
                                                          f"{postcode} {town}", _street("12")))
    for tpl in lang.routes:
        for i in (0, 2, 4):  # one- and two-word towns, accents ("Den Haag", "Málaga")
            (_, a), (_, b) = lang.places[i], lang.places[i + 1]
            out.append(("route", f"{tpl} ({a}, {b})", F.fill(tpl, a=a, b=b), _only("route", f"route:{place_key(a)}>{place_key(b)}")))
    for tpl in lang.route_prose:
        out.append(("route_prose", tpl, F.fill(tpl, last=lang.last_names[0]), _none("route")))
    for tpl in lang.stamps:
        out.append(("stamp", tpl, F.fill(tpl, date=F.date(lang, dt.date(2024, 3, DAY), "numeric", 0), time="14:35"), _nothing))
    for i, tpl in enumerate(lang.date_words):
        if "{weekday}" in tpl:
            d = dt.date(2024, 3, DAY)
            out.append(("weekday_slot", tpl, f"{date_label}: {F.date(lang, d, 'words', i)}",
                        _same_slot(f"{date_label}: {F.date(lang, d, 'words', 0)}")))
    for no_label in lang.labels["invoice_no"][:1]:
        for date_label_ in lang.labels["invoice_date"][:1]:
            text = f"{no_label}: F2024-0457\n{date_label_}: {F.date(lang, dt.date(2024, 3, DAY), 'numeric', 0)}"
            out.append(("two_slots", f"{no_label} + {date_label_}", text, _two_slots))
    return out


def _same_slot(plain: str) -> Callable[[frozenset[str]], bool]:
    """The features of a weekday date must carry the slot label of the same date without the weekday."""
    want = {t for t in extract_features(plain) if t.startswith(SLOT_MARK)}
    return lambda features: bool(want) and want <= features


def _two_slots(tokens: frozenset[str]) -> bool:
    return any(t.startswith("id:") and t.endswith(":F20240457") for t in tokens) and "date:2024-03-05" in tokens


class _Seq:
    """A stand-in for random.Random that makes ``F.shape`` give fixed digits and letters (probe values
    must be the same on every run)."""

    def __init__(self) -> None:
        self.k = 0

    def choice(self, seq: str) -> str:
        self.k += 1
        return seq[(self.k * 7) % len(seq)]

    def randint(self, lo: int, hi: int) -> int:
        self.k += 1
        return lo + (self.k * 5) % (hi - lo + 1)


def probe(lang: Lang) -> list[Check]:
    results = []
    for category, form, text, ok in checks(lang):
        tokens = extract_tokens(text)
        if category == "weekday_slot":
            good = ok(extract_features(text))
        elif category == "two_slots":
            slots = {t.split("=", 1)[0] for t in extract_features(text) if t.startswith(SLOT_MARK)}
            good = ok(tokens) and len(slots) >= 2
        else:
            good = ok(tokens)
        results.append(Check(lang.code, category, form, text, good, tuple(sorted(tokens))))
    return results


def summary(results: list[Check]) -> dict[str, dict[str, str]]:
    """language -> category -> "read/total"."""
    out: dict[str, dict[str, list[int]]] = {}
    for c in results:
        cell = out.setdefault(c.lang, {}).setdefault(c.category, [0, 0])
        cell[0] += c.read
        cell[1] += 1
    return {lg: {cat: f"{a}/{b}" for cat, (a, b) in cats.items()} for lg, cats in out.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", default="", help="comma-separated codes (default: every language module)")
    ap.add_argument("--json", action="store_true", help="every check as JSON")
    ap.add_argument("--failures", action="store_true", help="list only what is not read")
    args = ap.parse_args(argv)
    langs = all_languages()
    codes = [c for c in args.lang.split(",") if c] or list(langs)
    unknown = [c for c in codes if c not in langs]
    if unknown:
        ap.error(f"no language module for {', '.join(unknown)}: one of {', '.join(langs)}")
    results = [c for code in codes for c in probe(langs[code])]
    if args.json:
        print(json.dumps({"summary": summary(results), "checks": [asdict(c) for c in results]}, indent=1, ensure_ascii=False))
        return 0
    table = summary(results)
    cats = list(dict.fromkeys(c.category for c in results))
    print("| language | " + " | ".join(cats) + " |")
    print("|---|" + "---|" * len(cats))
    for code in codes:
        print(f"| {code} | " + " | ".join(table[code].get(cat, "-") for cat in cats) + " |")
    for code in codes:
        print(f"\n## {langs[code].name} ({code})\n")
        for c in results:
            if c.lang == code and (not c.read or not args.failures):
                print(f"{'read    ' if c.read else 'NOT READ'}  {c.category:<19} {c.text.replace(chr(10), ' / ')!r:<60} "
                      f"-> {' '.join(c.tokens) or '(nothing)'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
