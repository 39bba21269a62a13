"""Document model and a slot-filling prose generator for German and English text."""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass, field

from . import fmt
from . import templates as T
from . import vocab as V

_SLOT = re.compile(r"\{(\w+)\}")

Block = tuple[str, object]


@dataclass
class Doc:
    """A document before rendering: a list of blocks plus metadata.

    Block kinds: ``line`` (str, kept as is), ``para`` (str, wrappable), ``table`` (list of rows),
    ``kv`` (list of (key, value)), ``page`` (page break), ``blank``.
    """

    title: str
    blocks: list[Block]
    created: dt.date
    correspondent: str
    lang: str
    role: str = "background"
    meta: dict[str, object] = field(default_factory=dict)


def _compile(tpls: dict[str, list[str]]) -> dict[str, list[list[str]]]:
    return {fam: [_SLOT.split(t) for t in lst] for fam, lst in tpls.items()}


_DE = _compile(T.DE)
_EN = _compile(T.EN)
_DE_NOUNS = {k: v.split() for k, v in V.DE_TOPICS.items()}
_EN_NOUNS = {k: [fmt.sp(w) for w in v.split()] for k, v in V.EN_TOPICS.items()}
_PRED_BAD = {"letzt", "nächst", "bisherig", "gesamt"}
_DE_ART = {
    "nom": {"m": "der", "f": "die", "n": "das"},
    "acc": {"m": "den", "f": "die", "n": "das"},
    "dat": {"m": "dem", "f": "der", "n": "dem"},
}
_DE_POSS = {
    "nom": {"m": "Ihr", "f": "Ihre", "n": "Ihr"},
    "acc": {"m": "Ihren", "f": "Ihre", "n": "Ihr"},
    "dat": {"m": "Ihrem", "f": "Ihrer", "n": "Ihrem"},
}


def topics(lang: str) -> list[str]:
    return list(_DE_NOUNS if lang == "de" else _EN_NOUNS)


class Prose:
    """Fills sentence templates with vocabulary of one topic; one instance per document."""

    def __init__(
        self,
        rng: random.Random,
        lang: str,
        topic: str | None = None,
        date_style: str | None = None,
        amount_style: str | None = None,
        base: dt.date | None = None,
    ) -> None:
        self.rng = rng
        self.lang = lang
        nouns = _DE_NOUNS if lang == "de" else _EN_NOUNS
        self.topic = topic if topic in nouns else rng.choice(list(nouns))
        other = nouns[rng.choice(list(nouns))]
        self.nouns = nouns[self.topic] + rng.sample(other, k=min(4, len(other)))
        self.tpl = _DE if lang == "de" else _EN
        styles = fmt.DE_DATE_STYLES if lang == "de" else fmt.EN_DATE_STYLES
        self.date_style = date_style or rng.choice(styles)
        astyles = fmt.DE_AMOUNT_STYLES if lang == "de" else fmt.EN_AMOUNT_STYLES
        self.amount_style = amount_style or rng.choice(astyles)
        self.base = base or fmt.random_date(rng)
        self.people = [fmt.person(rng, lang) for _ in range(3)]
        self.org = fmt.org_name(rng, lang)

    # -- slot values ---------------------------------------------------------------------------
    def _np_de(self, case: str) -> str:
        rng = self.rng
        g, noun = rng.choice(self.nouns).split(":", 1)
        r = rng.random()
        if r < 0.22:
            return f"{_DE_POSS[case][g]} {noun}"
        art = _DE_ART[case][g]
        if r < 0.5:
            adj = rng.choice(V.DE_ADJ)
            end = "e" if case == "nom" or (case == "acc" and g != "m") else "en"
            return f"{art} {adj}{end} {noun}"
        return f"{art} {noun}"

    def _np_en(self) -> str:
        rng = self.rng
        noun = rng.choice(self.nouns)
        r = rng.random()
        if r < 0.2:
            return f"your {noun}"
        if r < 0.3:
            return f"our {noun}"
        if r < 0.55:
            return f"the {fmt.sp(rng.choice(V.EN_ADJ))} {noun}"
        return f"the {noun}"

    def date(self, d: dt.date | None = None) -> str:
        if d is None:
            d = self.base + dt.timedelta(days=self.rng.randint(-120, 120))
        return fmt.fmt_date(d, self.date_style)

    def amount(self, lo: float = 5.0, hi: float = 5000.0) -> str:
        x = round(self.rng.uniform(lo, hi) if self.rng.random() < 0.7 else self.rng.uniform(lo, lo * 20), 2)
        return fmt.fmt_amount(x, self.amount_style)

    def pers(self) -> str:
        p = self.rng.choice(self.people)
        if self.lang == "de":
            return f"{self.rng.choice(['Herrn', 'Frau', 'Herr'])} {p.last}" if self.rng.random() < 0.6 else p.name
        return f"{self.rng.choice(['Mr', 'Ms', 'Dr'])} {p.last}" if self.rng.random() < 0.5 else p.name

    def slot(self, name: str) -> str:
        rng, de = self.rng, self.lang == "de"
        if name in ("nom", "acc", "dat"):
            return self._np_de(name)
        if name == "np":
            return self._np_en()
        if name == "Np":
            s = self._np_en()
            return s[0].upper() + s[1:]
        if name == "n":
            w = rng.choice(self.nouns)
            return w.split(":", 1)[1] if de else w
        if name == "part":
            return fmt.sp(rng.choice(V.DE_PART if de else V.EN_PART))
        if name == "adj":
            if de:
                w = rng.choice(V.DE_ADJ)
                return "neu" if w in _PRED_BAD else w
            return fmt.sp(rng.choice(V.EN_ADJ))
        if name == "adv":
            return fmt.sp(rng.choice(V.DE_ADV if de else V.EN_ADV))
        if name == "inf":
            return fmt.sp(rng.choice(V.DE_INF if de else V.EN_INF))
        if name == "date":
            return self.date()
        if name == "amount":
            return self.amount()
        if name in ("num", "q"):
            return str(rng.randint(2, 4) if name == "q" else rng.choice([2, 3, 4, 5, 6, 8, 10, 12, 14, 20, 30]))
        if name == "num2":
            return str(rng.randint(35, 250))
        if name == "pct":
            v = rng.uniform(0.5, 40)
            return (f"{v:.1f} %".replace(".", ",") if de else f"{v:.1f}%")
        if name == "pers":
            return self.pers()
        if name == "phone":
            return fmt.phone(rng, self.lang)
        if name == "city":
            return rng.choice(V.DE_CITIES if de else V.EN_CITIES)[1]
        if name == "org":
            return self.org
        if name == "ref":
            label, val = fmt.ref(rng, "de", self.base.year)
            return f"{label} {val}"
        if name == "refv":
            return fmt.ref(rng, "en", self.base.year)[1]
        if name == "month":
            return (V.DE_MONTHS if de else V.EN_MONTHS)[rng.randrange(12)]
        if name == "year":
            return str(self.base.year + rng.randint(0, 3))
        if name == "weekday":
            return (V.DE_WEEKDAYS if de else V.EN_WEEKDAYS)[rng.randrange(5)]
        if name == "hour":
            return str(rng.randint(7, 10))
        if name == "hour2":
            return str(rng.randint(4, 6) if not de else rng.randint(15, 18))
        if name == "web":
            return f"www.{self.org.split()[0].lower()}{'.de' if de else '.com'}"
        if name == "key":
            return rng.choice(T.DE_KEYS)
        if name == "menu":
            return rng.choice(T.DE_MENUS if de else T.EN_MENUS)
        if name == "diag":
            return fmt.sp(rng.choice(V.MED_DE if de else V.MED_EN))
        if name == "drug":
            return rng.choice(V.DRUGS)
        if name == "body":
            return rng.choice(T.DE_BODY if de else T.EN_BODY)
        raise KeyError(name)

    # -- text ----------------------------------------------------------------------------------
    def sentence(self, family: str = "formal") -> str:
        parts = self.rng.choice(self.tpl[family])
        out = [p if i % 2 == 0 else self.slot(p) for i, p in enumerate(parts)]
        s = "".join(out)
        return s[0].upper() + s[1:] if s else s

    def paragraph(self, family: str = "formal", n: int | None = None) -> str:
        n = n or self.rng.randint(2, 6)
        return " ".join(self.sentence(family) for _ in range(n))

    def paragraphs(self, family: str, words: int, lo: int = 2, hi: int = 6) -> list[str]:
        """Paragraphs totalling about ``words`` words."""
        out: list[str] = []
        total = 0
        while total < words:
            p = self.paragraph(family, self.rng.randint(lo, hi))
            out.append(p)
            total += p.count(" ") + 1
        return out

    def lines(self, family: str, n: int) -> list[str]:
        return [self.sentence(family) for _ in range(n)]


def word_count(blocks: list[Block]) -> int:
    n = 0
    for kind, payload in blocks:
        if kind in ("line", "para"):
            n += len(str(payload).split())
        elif kind == "table":
            n += sum(len(c.split()) for row in payload for c in row)  # type: ignore[union-attr]
        elif kind == "kv":
            n += sum(len(k.split()) + len(v.split()) for k, v in payload)  # type: ignore[union-attr]
    return n
