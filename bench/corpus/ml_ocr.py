"""Real OCR for re-scans of the multilingual corpus: :mod:`bench.corpus.ocr`'s pages, fonts and
degradation profiles, read back by tesseract with the document's own language (``fra``, ``nld`` ...).

``bench.corpus.ocr.scan`` reads every language as German and English; these few lines are its
``scan`` with the tesseract language as a parameter (the shared module stays as it is).  Results
are cached like its own, one JSON file per scan, keyed by text, language, degradation and version.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from . import ocr as O

DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", str(Path.home() / ".cache"))) / "paperless-dedupe-bench" / "ml_ocr"


def scan(source: str, tess_lang: str, profile: str, seed: int, cache: Path | None = DEFAULT_CACHE) -> str:
    """What tesseract (language ``tess_lang``) reads from ``source`` typeset and degraded by ``profile``."""
    version = O.tesseract_version()
    deg = O.Degradation.draw(profile, seed)
    key = O.cache_key(source, tess_lang, deg, version)
    path = cache / f"{key}.json" if cache is not None else None
    if path is not None and path.exists():
        return str(json.loads(path.read_text(encoding="utf-8"))["text"])
    pages = [O._degrade(img, deg, random.Random(f"{seed}:{i}")) for i, img in enumerate(O.layout(source, deg))]
    text = "\n".join(O._tesseract(img, tess_lang) for img in pages).strip()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"text": text, "tesseract": version, "lang": tess_lang,
                                   "cer": round(O.character_error_rate(source, text), 4)}, ensure_ascii=False) + "\n",
                       encoding="utf-8")
        os.replace(tmp, path)
    return text
