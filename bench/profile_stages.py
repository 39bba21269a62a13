"""Where a rebuild's time goes, per document, on one core (CPU time).

    python -m bench.profile_stages --docs 2000

Runs the stages of ``rebuild-index`` in this process, without a pool, on the first
``--docs`` synthetic documents: the parts of ``features.compute`` one by one, then
the LSH candidates, the scoring and writing the index file.  The figures say which
stage a speed-up has to come from; they are CPU time, so other jobs on the machine
hardly move them.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench._common import DEFAULT_DATA, log, machine, save
from bench.synthetic import ensure_corpus
from paperless_dedupe_hook import config, engine, rebuild, sources
from paperless_dedupe_hook.core import features, minhash, text
from paperless_dedupe_hook.core.extract import extract_features
from paperless_dedupe_hook.indexfile import write_fresh


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.profile_stages", description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=2000)
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    args = parser.parse_args(argv)
    data = Path(args.data)
    corpus = ensure_corpus(data, 10_000 if args.docs <= 10_000 else args.docs)
    with tempfile.TemporaryDirectory() as tmp:
        cfg_path = Path(tmp) / "config.toml"
        cfg_path.write_text(f'[index]\npath = "{Path(tmp) / "index.sqlite3"}"\n', encoding="utf-8")
        cfg_path.chmod(0o600)
        settings = engine.settings_from_config(config.load(config_path=str(cfg_path), env={}))
        p = settings.features
        clock = time.process_time
        stages: dict[str, float] = {}

        def timed(name: str, fn: Any, *a: Any, **kw: Any) -> Any:
            t0 = clock()
            out = fn(*a, **kw)
            stages[name] = stages.get(name, 0.0) + clock() - t0
            return out

        docs = timed("read JSONL", lambda: list(_first(sources.iter_jsonl(corpus), args.docs)))
        n = len(docs)
        for d in docs:  # the parts of features.compute, in its order
            norm = timed("normalize", text.normalize, d.content)
            words = timed("OCR fold + split", text.shingle_words, norm)
            timed("fuzzy samples", text.fuzzy_samples, norm, p.fuzzy_sample_size)
            timed("fingerprint", features.fingerprint, norm)
            if p.shingle == "word":  # what compute runs: one C pass where the kernel is built
                timed("word n-grams + signature (one pass)", minhash.word_ngram_signature, " ".join(words),
                      size=p.ngram_size, num_permutations=p.num_permutations, seed=p.seed)
            else:
                sh = timed("shingles", text.shingles, words, kind=p.shingle, size=p.ngram_size)
                timed("MinHash signature", minhash.signature, sh, num_permutations=p.num_permutations, seed=p.seed)
            timed("strip mail signature", text.strip_signature, d.content)
            timed("extract_features (tokens and slots)", extract_features, d.content)
        feats = timed("features.compute (all of it)", rebuild.compute_all, docs, settings, workers=1)
        analysis = timed("candidates + scoring + groups", rebuild.analyse, docs, settings, workers=1, features=feats)
        timed("  of which band keys (once)", lambda: [settings.band_keys(f) for f in feats])
        timed("write the index file", write_fresh, Path(tmp) / "index.sqlite3", analysis, settings)
        size = (Path(tmp) / "index.sqlite3").stat().st_size
    per_doc = {k: v / n * 1e3 for k, v in stages.items()}
    result = {"machine": machine(), "documents": n, "candidates": len(analysis.candidates),
              "ms_per_document": per_doc, "index_bytes_per_document": size / n,
              "shingle": p.shingle, "ngram_size": p.ngram_size}
    for name, ms in per_doc.items():
        log(f"  {name:<32} {ms:7.3f} ms/doc")
    save(result, data / "results-stages.json")
    return result


def _first(it: Any, n: int) -> Any:
    for i, x in enumerate(it):
        if i >= n:
            return
        yield x


if __name__ == "__main__":
    main(sys.argv[1:])
