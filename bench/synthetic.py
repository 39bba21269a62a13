"""Seeded synthetic corpora for the performance benchmarks (not for quality).

``python -m bench.synthetic --docs 100000 --out /tmp/c100k.jsonl`` writes one JSON
object a line (``id``, ``title``, ``content``, ``modified``), the format of
``rebuild-index --from-jsonl`` and of ``tests.fake_paperless --docs``.

Documents have about ``--words`` words (default 1,000, +-10 %) drawn with a Zipf
law from a vocabulary of about 60,000 German and English words (real function
words plus generated stems), broken into lines and sentences, with the values a
letter carries (dates, amounts, invoice and customer numbers, IBANs) so that token
extraction does real work.  About 2 % of the documents are near-duplicate twins of
an earlier document (a few words replaced, OCR-like character slips, a scan stamp
line added), so that LSH finds candidates and scoring has pairs to score.

The labelled quality corpus lives in ``bench/corpus/``; this one only has to be
large, realistic in size and shape, fast to make and identical for a given seed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

DE_FUNCTION = (
    "der die das und in zu den von mit sich des auf für ist im dem nicht ein eine als auch es an werden aus er "
    "hat dass sie nach wird bei einer um am sind noch wie einem über einen so zum war haben nur oder aber vor "
    "zur bis mehr durch man sein wurde sei ihr ihre ihnen wir uns unser unsere bitte sehr geehrte damen herren "
    "freundlichen grüßen hiermit beiliegend anbei gemäß bezüglich vielen dank rückfragen jederzeit gerne"
).split()
EN_FUNCTION = (
    "the of and to a in is that for it as was with be by on not he this are or his from at which but have an "
    "they you were her she there been one all we their has would when if so no will can more out up about who "
    "please dear sincerely regards enclosed kindly find attached regarding further questions hesitate contact"
).split()
DE_ONSETS = "b d f g h k l m n p r s t w z sch st sp br dr fr gr kr pr tr bl fl gl kl pl schw zw pf".split()
DE_NUCLEI = "a e i o u ä ö ü ei au eu ie aa ee".split()
DE_CODAS = ["", "n", "r", "s", "t", "l", "ng", "ch", "st", "nd", "rt", "lt", "ß", "ck", "tz", "rn", "nk"]
DE_SUFFIXES = ["", "ung", "keit", "heit", "schaft", "en", "er", "lich", "ig", "isch", "tum", "nis", "bar"]
EN_ONSETS = "b c d f g h j k l m n p r s t v w y ch sh th st pl pr tr gr cr br fl sl sp".split()
EN_NUCLEI = "a e i o u ea ee oo ai ou ie".split()
EN_CODAS = ["", "n", "r", "s", "t", "l", "ng", "ck", "st", "nd", "rt", "ll", "ss", "x", "th"]
EN_SUFFIXES = ["", "ing", "tion", "ment", "ness", "ed", "er", "ly", "able", "ity", "ive", "ous"]
MONTHS_DE = "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split()
STAMPS = ("Eingang: {d}", "Gescannt am {d}", "Received {d}", "Scan {d}")
LABELS = ("Rechnungsnummer", "Kundennummer", "Invoice No.", "Customer No.", "Vertragsnummer", "Order No.")


def _words(rng: np.random.RandomState, onsets: list[str], nuclei: list[str], codas: list[str],
           suffixes: list[str], count: int) -> list[str]:
    out: set[str] = set()
    while len(out) < count:
        syllables = (1, 1, 2, 2, 2, 3)[rng.randint(6)]
        word = "".join(
            onsets[rng.randint(len(onsets))] + nuclei[rng.randint(len(nuclei))] + codas[rng.randint(len(codas))]
            for _ in range(syllables)
        ) + suffixes[rng.randint(len(suffixes))]
        if 3 <= len(word) <= 18:
            out.add(word.capitalize() if rng.rand() < 0.35 else word)
    return sorted(out)


class Generator:
    """Documents by number: ``doc(i)`` is the same for the same seed, in any order."""

    def __init__(self, *, seed: int = 7, words: int = 1000, vocabulary: int = 60_000,
                 twin_rate: float = 0.02) -> None:
        self.seed = seed
        self.words_per_doc = words
        self.twin_rate = twin_rate
        rng = np.random.RandomState(seed)
        de = _words(rng, DE_ONSETS, DE_NUCLEI, DE_CODAS, DE_SUFFIXES, vocabulary // 2)
        en = _words(rng, EN_ONSETS, EN_NUCLEI, EN_CODAS, EN_SUFFIXES, vocabulary - vocabulary // 2)
        stems = de + en
        rng.shuffle(stems)
        # Function words first: with the Zipf law below they make up about 40 % of
        # the running text, as in real letters.
        self.vocab = np.array(DE_FUNCTION + EN_FUNCTION + stems, dtype=object)
        ranks = np.arange(1, len(self.vocab) + 1, dtype=np.float64)
        weights = 1.0 / ranks**1.02
        self.cdf = np.cumsum(weights / weights.sum())
        self.cdf[-1] = 1.0
        seps = np.array([" ", " ", " ", " ", " ", " ", " ", " ", ", ", ". ", "\n"], dtype=object)
        self.seps = seps

    def _rng(self, i: int, salt: int = 0) -> np.random.RandomState:
        return np.random.RandomState((self.seed * 1_000_003 + i * 7919 + salt) & 0x7FFFFFFF)

    def words(self, i: int) -> list[str]:
        """The running words of document ``i``'s body, lower-cased, without the header,
        punctuation and line breaks: a fast stand-in for ``normalize(doc(i)).split()``
        where only the amount and shape of text matter (the 1M signature run)."""
        rng = self._rng(i)
        n = int(self.words_per_doc * (0.9 + 0.2 * rng.rand()))
        return [w.lower() for w in self.vocab[np.searchsorted(self.cdf, rng.rand(n))].tolist()]

    def is_twin(self, i: int) -> bool:
        return i > 10 and self._rng(i, 1).rand() < self.twin_rate

    def _body(self, i: int) -> str:
        rng = self._rng(i)
        n = int(self.words_per_doc * (0.9 + 0.2 * rng.rand()))
        idx = np.searchsorted(self.cdf, rng.rand(n))
        words = self.vocab[idx]
        sep = self.seps[rng.randint(0, len(self.seps), n)]
        day, month, year = rng.randint(1, 29), rng.randint(1, 13), rng.randint(2015, 2027)
        amount = rng.randint(100, 999_999)
        header = (
            f"Firma {self.vocab[200 + rng.randint(5000)].capitalize()} GmbH\n"
            f"{LABELS[rng.randint(len(LABELS))]}: {rng.randint(10_000, 99_999_999)}\n"
            f"Datum: {day:02d}.{month:02d}.{year}   {day}. {MONTHS_DE[month - 1]} {year}\n"
            f"IBAN DE{rng.randint(10, 99)}{rng.randint(10**8, 10**9 - 1)}{rng.randint(10**8, 10**9 - 1)}\n\n"
        )
        footer = f"\n\nGesamtbetrag: {amount // 100:,}.{amount % 100:02d} EUR".replace(",", ".") + "\n"
        # Interleave words and separators; one "".join is the fast way.
        parts = np.empty(2 * n, dtype=object)
        parts[0::2] = words
        parts[1::2] = sep
        return header + "".join(parts.tolist()) + footer

    def doc(self, i: int) -> dict[str, object]:
        """Document ``i`` (1-based id); a twin copies an earlier document with slips."""
        if self.is_twin(i):
            rng = self._rng(i, 2)
            original = self._original(i, rng)
            content = self._slips(self._body(original), rng)
            title = f"Scan {original} (copy)"
        else:
            content = self._body(i)
            title = f"Dokument {i}"
        minute = i % 60
        hour = (i // 60) % 24
        return {"id": i, "title": title, "content": content, "modified": f"2024-01-01T{hour:02d}:{minute:02d}:00Z"}

    def _original(self, i: int, rng: np.random.RandomState) -> int:
        original = int(rng.randint(1, i))
        while self.is_twin(original):  # twin of an original, not of a twin
            original = int(rng.randint(1, original)) if original > 1 else 1
        return original

    def original_of(self, i: int) -> int | None:
        """The document a twin copies (None for an original)."""
        return self._original(i, self._rng(i, 2)) if self.is_twin(i) else None

    def _slips(self, content: str, rng: np.random.RandomState) -> str:
        words = content.split(" ")
        n = len(words)
        for j in rng.randint(0, n, max(1, n // 60)):  # ~1.7 % of the words replaced
            words[j] = str(self.vocab[np.searchsorted(self.cdf, rng.rand())])
        for j in rng.randint(0, n, max(1, n // 200)):  # OCR slips inside words
            w = words[j]
            if len(w) > 3:
                words[j] = w.replace("m", "rn", 1).replace("l", "1", 1).replace("o", "0", 1)
        stamp = STAMPS[rng.randint(len(STAMPS))].format(d=f"{rng.randint(1, 29):02d}.0{rng.randint(1, 10)}.2024")
        return stamp + "\n" + " ".join(words)

    def iter_docs(self, count: int, start: int = 1) -> Iterator[dict[str, object]]:
        for i in range(start, start + count):
            yield self.doc(i)


def write_jsonl(path: Path, count: int, *, seed: int = 7, words: int = 1000) -> dict[str, float]:
    """Write ``count`` documents; returns how long it took and the file size."""
    gen = Generator(seed=seed, words=words)
    started = time.perf_counter()
    tmp = path.with_name(path.name + ".part")
    twins = 0
    with tmp.open("w", encoding="utf-8") as fh:
        for i in range(1, count + 1):
            twins += gen.is_twin(i)
            fh.write(json.dumps(gen.doc(i), ensure_ascii=False))
            fh.write("\n")
    tmp.replace(path)
    return {"seconds": time.perf_counter() - started, "bytes": path.stat().st_size, "twins": twins}


def ensure_corpus(directory: Path, count: int, *, seed: int = 7, words: int = 1000) -> Path:
    """The corpus file for ``count`` documents, written once and reused."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"synthetic-{count}-w{words}-s{seed}.jsonl"
    if not path.exists():
        info = write_jsonl(path, count, seed=seed, words=words)
        print(f"  wrote {path} ({info['bytes'] / 1e6:.0f} MB, {int(info['twins'])} twins) "
              f"in {info['seconds']:.1f} s", file=sys.stderr, flush=True)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.synthetic", description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--words", type=int, default=1000)
    args = parser.parse_args(argv)
    info = write_jsonl(Path(args.out), args.docs, seed=args.seed, words=args.words)
    print(json.dumps(info))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
