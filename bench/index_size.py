"""How large the index is per document, as a user's disk sees it (README's figure).

``python -m bench.index_size --docs 2000 10000 --hooked 1000``: for each size, a rebuild
from a seeded synthetic JSONL corpus (``bench.synthetic``, seed 7, ~1,000 words a
document), then ``--hooked`` more documents put one by one as hooks put them (one write
transaction each, the way ``hook.check`` does), and the bytes of the index file and of all
its side files (``-wal``, ``-shm``, ``.lock``, ``.regex``, ...) divided by the documents.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

from bench._common import DEFAULT_DATA, cli
from bench.synthetic import Generator, ensure_corpus


def _sizes(index: Path) -> tuple[int, int]:
    """(the index file, the index file and every side file beside it)."""
    files = [p for p in index.parent.iterdir() if p.name.startswith(index.name)]
    return index.stat().st_size, sum(p.stat().st_size for p in files)


def measure(count: int, hooked: int, workdir: Path) -> dict[str, float]:
    from paperless_dedupe_hook import config
    from paperless_dedupe_hook.core.features import compute
    from paperless_dedupe_hook.engine import settings_from_config
    from paperless_dedupe_hook.indexfile import open_index

    corpus = ensure_corpus(DEFAULT_DATA, count)
    index = workdir / f"index-{count}" / "index.sqlite3"
    env = {"PAPERLESS_DEDUPE_CONFIG": "/dev/null", "PAPERLESS_DEDUPE_INDEX": str(index), "PATH": "/usr/bin:/bin"}
    subprocess.run([cli("paperless-dedupe"), "-q", "rebuild-index", "--from-jsonl", str(corpus)], env=env,
                   check=True, capture_output=True)
    built, built_all = _sizes(index)
    settings = settings_from_config(config.load(config_path="/dev/null", env={}))
    gen = Generator(seed=11)
    for doc in gen.iter_docs(hooked, start=count + 1):
        feats = compute(int(str(doc["id"])), str(doc["content"]), settings.features, title=str(doc["title"]))
        with open_index(index, settings) as live, live.write():
            live.put(feats, modified=str(doc["modified"]), keys=settings.band_keys(feats))
    after, after_all = _sizes(index)
    return {"documents": count, "rebuilt_kb_per_doc": built / count / 1000,
            "rebuilt_all_files_kb_per_doc": built_all / count / 1000,
            "hooked": hooked, "hooked_kb_per_doc": (after - built) / max(hooked, 1) / 1000,
            "total_after_hooks_kb_per_doc": after_all / (count + hooked) / 1000}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.index_size", description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, nargs="+", default=[2000, 10000])
    parser.add_argument("--hooked", type=int, default=1000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pdbench-size-") as tmp:
        for count in args.docs:
            print(json.dumps({k: round(v, 3) for k, v in measure(count, args.hooked, Path(tmp)).items()}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
