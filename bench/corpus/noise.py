"""OCR noise and scan artefacts: character confusions, lost umlauts, split and merged words,
dropped lines, scanner headers, stray junk, print stamps."""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass

from . import fmt

CONFUSIONS = [
    ("rn", "m"), ("m", "rn"), ("l", "1"), ("1", "l"), ("I", "l"), ("l", "I"), ("O", "0"), ("0", "O"),
    ("e", "c"), ("c", "e"), ("S", "5"), ("5", "S"), ("B", "8"), ("8", "B"), ("cl", "d"), ("d", "cl"),
    ("ii", "ü"), ("ü", "ii"), ("h", "b"), ("ri", "n"), ("w", "vv"), ("fi", "fl"), ("t", "f"), ("a", "o"),
    ("n", "u"), ("u", "n"), ("i", "l"), ("E", "F"), ("ä", "a"), ("G", "6"), ("Z", "2"), ("g", "q"),
    ("y", "v"), ("tt", "U"), ("in", "m"), ("ß", "B"), ("k", "lc"), ("C", "("), ("D", "0"), ("s", "ś"),
]
DIGIT_CONFUSIONS = [
    ("0", "O"), ("0", "o"), ("1", "l"), ("1", "I"), ("1", "7"), ("5", "S"), ("8", "B"), ("6", "b"),
    ("2", "Z"), ("4", "A"), (",", "."), (".", ","), ("3", "8"), ("9", "g"), ("7", "1"),
]
UMLAUTS = {"ü": "u", "ä": "a", "ö": "o", "Ü": "U", "Ä": "A", "Ö": "O"}
STRAY = ["|", "~", ",", ".", "'", "`", ";", "»", "«", "_", "-", "i", "l", "¦", "°", "^"]


@dataclass
class Noise:
    word_rate: float = 0.03  # fraction of words garbled
    umlaut_loss: float = 0.0  # fraction of umlauts replaced (ü->u, ß->ss/B)
    drop_lines: int = 0
    junk_lines: int = 0
    stray_rate: float = 0.0  # per line: stray characters at its start or end


def level(rng: random.Random, name: str) -> Noise:
    """A noise profile: ``light`` (~1-2 % of words), ``medium`` (3-5 %) or ``heavy`` (5-8 %)."""
    if name == "light":
        return Noise(rng.uniform(0.01, 0.025), rng.choice([0.0, 0.0, 0.3]), 0, rng.randint(0, 1), 0.01)
    if name == "medium":
        return Noise(rng.uniform(0.03, 0.05), rng.choice([0.0, 0.3, 0.8]), rng.randint(0, 1),
                     rng.randint(0, 2), 0.03)
    return Noise(rng.uniform(0.05, 0.08), rng.choice([0.0, 0.5, 1.0]), rng.randint(1, 2), rng.randint(1, 3), 0.06)


def random_level(rng: random.Random) -> str:
    r = rng.random()
    return "light" if r < 0.4 else ("medium" if r < 0.75 else "heavy")


def _confuse(word: str, rng: random.Random) -> str:
    table = DIGIT_CONFUSIONS if any(c.isdigit() for c in word) and rng.random() < 0.7 else CONFUSIONS
    for _ in range(6):
        a, b = table[rng.randrange(len(table))]
        i = word.find(a)
        if i >= 0:
            j = word.find(a, i + 1)
            if j >= 0 and rng.random() < 0.5:
                i = j
            return word[:i] + b + word[i + len(a):]
    return _drop_or_dup(word, rng)


def _drop_or_dup(word: str, rng: random.Random) -> str:
    if len(word) < 3:
        return word + rng.choice(STRAY)
    i = rng.randrange(1, len(word) - 1)
    if rng.random() < 0.6:
        return word[:i] + word[i + 1:]
    return word[:i] + word[i] + word[i:]


def garble(word: str, rng: random.Random) -> str:
    """One OCR error in one word."""
    if not word.strip():
        return word
    r = rng.random()
    if r < 0.6:
        return _confuse(word, rng)
    if r < 0.72 and len(word) >= 5 and "\n" not in word:
        i = rng.randrange(2, len(word) - 2) if len(word) > 4 else 2
        return word[:i] + " " + word[i:]
    if r < 0.84:
        return _drop_or_dup(word, rng)
    if r < 0.92:
        return word + rng.choice(STRAY)
    return word.lower() if word[:1].isupper() else word.capitalize()


def _lose_umlauts(text: str, rate: float, rng: random.Random) -> str:
    if rate <= 0 or not any(c in text for c in "üäöÜÄÖß"):
        return text
    out = []
    for c in text:
        if c in UMLAUTS and rng.random() < rate:
            out.append(UMLAUTS[c])
        elif c == "ß" and rng.random() < rate:
            out.append(rng.choice(["ss", "B", "ss"]))
        else:
            out.append(c)
    return "".join(out)


def ocr(text: str, noise: Noise, rng: random.Random) -> str:
    """Apply OCR character noise to rendered text."""
    if not text:
        return text
    text = _lose_umlauts(text, noise.umlaut_loss, rng)
    toks: list[str | None] = list(text.split(" "))
    p = noise.word_rate
    done = 0
    if p > 0:
        logq = math.log(1.0 - p)
        i = int(math.log(1.0 - rng.random()) / logq)
        n = len(toks)
        while i < n:
            tok = toks[i]
            if tok and rng.random() < 0.12 and i + 1 < n and toks[i + 1] and "\n" not in tok:
                toks[i] = tok + str(toks[i + 1])  # merged words
                toks[i + 1] = None
                i += 1
            elif tok:
                toks[i] = garble(tok, rng)
            done += 1
            i += 1 + int(math.log(1.0 - rng.random()) / logq)
        # a rescan always garbles something: at least one or two real words
        words = [k for k, t in enumerate(toks) if t and len(t) >= 4 and t.isalpha()]
        for _ in range(min(len(words), (2 if n > 40 else 1) - done)):
            k = rng.choice(words)
            toks[k] = _confuse(str(toks[k]), rng)
    text = " ".join(t for t in toks if t is not None)
    lines = text.split("\n")
    if noise.drop_lines and len(lines) > 12:
        for _ in range(noise.drop_lines):
            k = rng.randrange(2, len(lines) - 1)
            if lines[k].strip():
                del lines[k]
    if noise.stray_rate:
        for k in range(len(lines)):
            if rng.random() < noise.stray_rate:
                junk = "".join(rng.choice(STRAY) for _ in range(rng.randint(1, 3)))
                lines[k] = lines[k] + " " + junk if rng.random() < 0.5 else junk + " " + lines[k]
    for _ in range(noise.junk_lines):
        k = rng.choice([0, len(lines)]) if rng.random() < 0.7 else rng.randrange(len(lines) + 1)
        lines.insert(k, junk_line(rng))
    return "\n".join(lines)


def junk_line(rng: random.Random) -> str:
    n = rng.randint(2, 9)
    return " ".join("".join(rng.choice(STRAY) for _ in range(rng.randint(1, 4))) for _ in range(n))


SCANNERS = ["Canon iR-ADV C5535", "RICOH MP C3004", "Brother ADS-2700W", "Fujitsu fi-7160",
            "HP LaserJet MFP M428", "Kyocera TASKalfa 3253ci", "EPSON DS-530", "Xerox WorkCentre 6515"]


def scan_header(rng: random.Random, when: dt.date, lang: str, pages: int = 1) -> str:
    t = f"{rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}"
    d = when + dt.timedelta(days=rng.randint(0, 45))
    style = rng.randrange(4)
    if style == 0:
        return f"Scan {d.isoformat()} {t} | {rng.choice(SCANNERS)} | S. 1/{pages}"
    if style == 1:
        return f"{d.day:02d}.{d.month:02d}.{d.year % 100:02d} {t}  FAX {fmt.phone(rng, lang)}  S. 001/{pages:03d}"
    if style == 2:
        return f"{d.isoformat()}T{t}  {rng.choice(SCANNERS)}  #{fmt.digits(rng, 6)}"
    return f"Eingang {d.day:02d}.{d.month:02d}.{d.year}" if lang == "de" else f"RECEIVED {d.isoformat()}"


def print_stamp(rng: random.Random, when: dt.date, lang: str) -> str:
    d = when + dt.timedelta(days=rng.randint(0, 700))
    h, m = rng.randint(0, 23), rng.randint(0, 59)
    style = rng.randrange(9)
    if style == 0:
        return f"Gedruckt am {d.day:02d}.{d.month:02d}.{d.year} {h:02d}:{m:02d}"
    if style == 1:
        h12 = h % 12 or 12
        mon = fmt.fmt_date(d, "mdy_short_en")
        return f"Printed: {mon} {h12}:{m:02d} {'PM' if h >= 12 else 'AM'}"
    if style == 2:
        return rng.choice(["KOPIE", "COPY", "Duplikat", "- KOPIE -", "*** COPY ***", "ZWEITSCHRIFT"])
    if style == 3:
        return f"Druckdatum: {d.isoformat()} {h:02d}:{m:02d}:{rng.randint(0, 59):02d}"
    if style == 4:
        return f"Printed on {d.day:02d}/{d.month:02d}/{d.year} at {h:02d}:{m:02d} by {fmt.digits(rng, 4)}"
    if style == 5:
        return f"Ausdruck vom {d.day}.{d.month}.{d.year} - Seite 1"
    if style == 6:
        return f"{d.day:02d}.{d.month:02d}.{d.year % 100:02d}, {h:02d}:{m:02d}   about:blank   1/1"
    if style == 7:
        return rng.choice(["Duplikat", "Kopie für Ihre Unterlagen", "Copy for your records", "DUPLICATE"])
    return f"Gedruckt: {d.day:02d}.{d.month:02d}.{d.year} um {h:02d}:{m:02d} Uhr"
