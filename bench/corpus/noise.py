"""OCR noise and scan artefacts: character confusions, lost umlauts, split and merged words,
dropped lines, scanner headers, stray junk, print stamps."""

from __future__ import annotations

import datetime as dt
import math
import random
import re
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
    # issue 25: the damage of real scans beyond single words (every default 0: no effect)
    digit_rate: float = 0.0  # fraction of tokens with digits (dates, amounts, ids) read with a look-alike
    lost_runs: int = 0  # runs of 2-5 consecutive lines lost (a fold, a faint band, a cut-off edge)
    merged_lines: int = 0  # two neighbouring lines read as one (the columns of a table or letterhead)
    skewed_lines: int = 0  # a skewed page: the end of a line read at the start of the next one
    moved_runs: int = 0  # a run of 2-6 lines read out of order (a side column, a box, a stamp)


def level(rng: random.Random, name: str) -> Noise:
    """A noise profile: ``light`` (~1-2 % of words), ``medium`` (3-5 %), ``heavy`` (6-10 %, lines lost,
    merged and read out of order) or ``severe`` (a bad phone photo or fax: 9-14 %, more of everything).

    Every profile reads some digits with a look-alike letter (``15/02/Z018``, ``12.04.202l``,
    ``13/0b/2024``): real scans do (issue 25), and a date or an amount is where it costs most."""
    if name == "light":
        return Noise(rng.uniform(0.01, 0.025), rng.choice([0.0, 0.0, 0.3]), 0, rng.randint(0, 1), 0.01,
                     digit_rate=rng.choice([0.0, 0.01, 0.03]), skewed_lines=rng.choice([0, 0, 1]))
    if name == "medium":
        return Noise(rng.uniform(0.03, 0.05), rng.choice([0.0, 0.3, 0.8]), rng.randint(0, 1), rng.randint(0, 2), 0.03,
                     digit_rate=rng.uniform(0.02, 0.05), merged_lines=rng.randint(0, 1), skewed_lines=rng.randint(0, 2))
    if name == "heavy":
        return Noise(rng.uniform(0.06, 0.10), rng.choice([0.0, 0.5, 1.0]), rng.randint(1, 3), rng.randint(1, 3), 0.06,
                     digit_rate=rng.uniform(0.04, 0.10), lost_runs=rng.randint(0, 2), merged_lines=rng.randint(1, 4),
                     skewed_lines=rng.randint(1, 4), moved_runs=rng.randint(0, 2))
    return Noise(rng.uniform(0.09, 0.14), rng.choice([0.5, 1.0]), rng.randint(2, 4), rng.randint(2, 4), 0.10,
                 digit_rate=rng.uniform(0.08, 0.15), lost_runs=rng.randint(1, 3), merged_lines=rng.randint(2, 6),
                 skewed_lines=rng.randint(2, 6), moved_runs=rng.randint(1, 2))


def random_level(rng: random.Random) -> str:
    r = rng.random()
    return "light" if r < 0.38 else ("medium" if r < 0.75 else ("heavy" if r < 0.94 else "severe"))


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
    if noise.digit_rate > 0:
        text = misread_digits(text, noise.digit_rate, rng)
    lines = text.split("\n")
    lines = _damage_lines(lines, noise, rng)
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


# look-alikes tesseract reads for digits in dates and amounts (issue 25's archive: 15/02/Z018,
# 12.04.202l, 13/0b/2024, S for 5, O for 0, B for 8)
DIGIT_LOOKALIKES = {"0": "OoD", "1": "lI", "2": "Z", "5": "S", "6": "b", "8": "B", "9": "g", "4": "A", "7": "T"}
_NUMBERISH = re.compile(r"(?<![\w])\d[\d.,/:-]*\d(?![\w])")


def misread_digits(text: str, rate: float, rng: random.Random) -> str:
    """Each number (a date, an amount, an id) read with one digit as its look-alike letter with
    probability ``rate``."""
    def one(m: re.Match[str]) -> str:
        tok = m.group(0)
        if rng.random() >= rate:
            return tok
        places = [i for i, c in enumerate(tok) if c in DIGIT_LOOKALIKES]
        if not places:
            return tok
        i = rng.choice(places)
        return tok[:i] + rng.choice(DIGIT_LOOKALIKES[tok[i]]) + tok[i + 1:]
    return _NUMBERISH.sub(one, text)


def _damage_lines(lines: list[str], noise: Noise, rng: random.Random) -> list[str]:
    """What a skewed, folded or badly lit page does to whole lines: runs lost, neighbours merged
    (two columns read as one line), line ends read into the next line, runs read out of order.
    Never the first two lines (a scan header, a letterhead's first line survive)."""
    body = [k for k, ln in enumerate(lines) if ln.strip()]
    if len(body) < 6:
        return lines
    lines = list(lines)
    for _ in range(noise.skewed_lines):
        k = rng.randrange(2, len(lines) - 1)
        words = lines[k].split(" ")
        if len(words) >= 4 and lines[k + 1].strip():
            cut = len(words) - rng.randint(1, min(4, len(words) - 2))
            lines[k], lines[k + 1] = " ".join(words[:cut]), " ".join(words[cut:]) + " " + lines[k + 1]
    for _ in range(noise.merged_lines):
        k = rng.randrange(2, len(lines) - 1)
        if lines[k].strip() and lines[k + 1].strip():
            lines[k:k + 2] = [lines[k].rstrip() + rng.choice(["  ", " ", " | "]) + lines[k + 1].lstrip()]
    for _ in range(noise.moved_runs):
        if len(lines) < 12:
            break
        n = rng.randint(2, min(6, len(lines) // 4))
        k = rng.randrange(2, len(lines) - n)
        run = lines[k:k + n]
        del lines[k:k + n]
        at = rng.randrange(2, len(lines) + 1)
        lines[at:at] = run
    for _ in range(noise.lost_runs):
        if len(lines) < 16:
            break
        n = rng.randint(2, min(5, len(lines) // 8))
        k = rng.randrange(2, len(lines) - n)
        del lines[k:k + n]
    return lines


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
