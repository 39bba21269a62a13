"""What the picture path costs (issue 26): per picture document in the hook, per document in
the index, and nothing for a text document.

    python -m bench.picture_cost [--indexed 1000] [--repeat 11]

* **index bytes**: an SQLite index of ``--indexed`` documents without text, each with its
  picture (pages of ``tests.picture_support``, hashed by ``core.picture``), against the same
  index with the two picture tables dropped, both ``VACUUM``'d: the difference per document.
* **in the hook, in process** (median of ``--repeat``, a new re-capture of an indexed page
  each): decoding the WebP thumbnail (Pillow), the signature, the lookup by key, comparing the
  candidates, storing; and the first ``import`` of Pillow and ``core.picture`` (``-X importtime``).
* **the hook, a fresh process each** against a fake Paperless on loopback with that index,
  interleaved: a document without text (its thumbnail in ``DOCUMENT_THUMBNAIL_PATH``), a text
  document, and the third-party floor ``python -c "import httpx, numpy, rapidfuzz, sqlite3"``.
* ``-X importtime`` of one hook run for a text document: which picture modules it imported (none).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench._common import REPO, cli, compile_bytecode, log, median, save, time_once, write_config

THIRD_PARTY_FLOOR = "import httpx, numpy, rapidfuzz, sqlite3"
PICTURE_MODULES = ("PIL", "paperless_dedupe_hook.pictures", "paperless_dedupe_hook.core.picture",
                   "paperless_dedupe_hook.picturepairs")
LETTER = ("Dear Mrs Berger, thank you for your letter of the second of March. We have looked into the service "
          "charge statement for the flat on the third floor and found that the heating costs were split by the "
          "wrong key. Enclosed you find the corrected statement with the refund of the difference. ")


def _imported(stderr: str) -> dict[str, int]:
    """``-X importtime`` lines: module -> its cumulative microseconds."""
    out = {}
    for line in stderr.splitlines():
        found = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if found:
            out[found.group(4)] = int(found.group(2))
    return out


def build_index(path: Path, n: int) -> list[bytes]:
    """An index of ``n`` documents without text, each with its picture; their thumbnails."""
    from paperless_dedupe_hook import config
    from paperless_dedupe_hook.core.features import compute
    from paperless_dedupe_hook.engine import settings_from_config
    from paperless_dedupe_hook.index.sqlite import SqliteIndex
    from paperless_dedupe_hook.picturepairs import picture_of, store_picture
    from tests.picture_support import handwritten_page, webp

    settings = settings_from_config(config.load(config_path=os.devnull, env={}))
    thumbs = [webp(handwritten_page(i)) for i in range(1, n + 1)]
    with SqliteIndex(path, create=True, compat=settings.compat()) as index, index.write():
        for doc_id, data in enumerate(thumbs, 1):
            index.put(compute(doc_id, "", settings.features, title=f"photo {doc_id}"), modified=None, keys=[])
            sig = _signature(data)
            assert sig is not None
            store_picture(index, doc_id, sig)
        assert picture_of  # the hook's own function is what the in-process timing below runs
    return thumbs


def _signature(data: bytes) -> Any:
    from paperless_dedupe_hook.core.picture import picture_signature
    from paperless_dedupe_hook.pictures import gray_from_image_bytes

    return picture_signature(gray_from_image_bytes(data))


def _vacuumed_size(path: Path, *, drop_pictures: bool) -> int:
    copy = path.with_name(path.stem + ("-nopic" if drop_pictures else "-pic") + ".sqlite3")
    shutil.copyfile(path, copy)
    conn = sqlite3.connect(copy, isolation_level=None)
    conn.execute("PRAGMA journal_mode = DELETE")  # the file's size is then the database's
    if drop_pictures:
        conn.execute("DROP TABLE picture_bands")
        conn.execute("DROP TABLE pictures")
    conn.execute("VACUUM")
    conn.close()
    return copy.stat().st_size


def in_process(path: Path, repeat: int, n: int) -> dict[str, float]:
    from paperless_dedupe_hook.core.picture import PICTURE_VERSION, picture_band_keys, picture_signature
    from paperless_dedupe_hook.index.sqlite import SqliteIndex
    from paperless_dedupe_hook.picturepairs import find_picture_matches, store_picture
    from paperless_dedupe_hook.pictures import gray_from_image_bytes
    from tests.picture_support import handwritten_page, recapture, webp

    stages: dict[str, list[float]] = {"decode": [], "signature": [], "lookup": [], "compare": [], "store": []}
    candidates, found = [], []
    for k in range(repeat):
        data = webp(recapture(handwritten_page(1 + (k * 37) % n), 500 + k))
        t0 = time.perf_counter()
        gray = gray_from_image_bytes(data)
        t1 = time.perf_counter()
        sig = picture_signature(gray)
        t2 = time.perf_counter()
        assert sig is not None
        with SqliteIndex(path) as index:
            t3 = time.perf_counter()
            stored = index.picture_candidates(picture_band_keys(sig), exclude=None, version=PICTURE_VERSION)
            t4 = time.perf_counter()
            matches, _n = find_picture_matches(index, 10**9, sig)
            t5 = time.perf_counter()
            with index.write():
                store_picture(index, 10**9, sig)
                index.remove_picture(10**9)
            t6 = time.perf_counter()
        stages["decode"].append(t1 - t0)
        stages["signature"].append(t2 - t1)
        stages["lookup"].append(t4 - t3)
        stages["compare"].append((t5 - t4) - (t4 - t3))  # find_picture_matches looks up again, then compares
        stages["store"].append(t6 - t5)
        candidates.append(len(stored))
        found.append(len(matches))
    out = {f"{name}_ms": median(v) * 1e3 for name, v in stages.items()}
    out["total_ms"] = sum(out.values())
    out["candidates_median"] = median([float(c) for c in candidates])
    out["matches_median"] = median([float(c) for c in found])
    return out


def first_imports() -> dict[str, float]:
    """Cumulative ms of the picture path's first imports, in a fresh process."""
    # After what the hook has imported anyway (numpy, httpx, our engine): only what the picture path adds.
    code = ("import numpy, httpx, paperless_dedupe_hook.engine, paperless_dedupe_hook.indexfile; "
            "import paperless_dedupe_hook.picturepairs, paperless_dedupe_hook.pictures, paperless_dedupe_hook.core.picture, "
            "PIL.Image, PIL.WebPImagePlugin")
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True,
                          check=True, cwd=REPO)
    seen = _imported(proc.stderr)
    return {name: seen.get(name, 0) / 1e3 for name in ("paperless_dedupe_hook.picturepairs",
                                                       "paperless_dedupe_hook.pictures",
                                                       "paperless_dedupe_hook.core.picture", "PIL.Image",
                                                       "PIL.WebPImagePlugin")}


def hooks(path: Path, thumbs: list[bytes], repeat: int, work: Path) -> dict[str, Any]:
    from tests.fake_paperless import FakePaperless
    from tests.picture_support import handwritten_page, recapture, webp

    fake = FakePaperless(token="bench-token")
    fake.add_documents({"id": i, "title": f"photo {i}", "content": ""} for i in range(1, len(thumbs) + 1))
    fake.thumbnails.update(enumerate(thumbs, 1))
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_", "DOCUMENT_"))}
    runs: dict[str, list[float]] = {"third_party_floor": [], "hook_text": [], "hook_picture": []}
    outputs: dict[str, str] = {}
    with fake:
        cfg = write_config(work / "config.toml", index=path, url=fake.url, token=fake.token)
        env = dict(base, PAPERLESS_DEDUPE_CONFIG=str(cfg))
        for k in range(repeat + 2):  # two warm-up rounds
            text_id, picture_id = 2_000_000 + k, 3_000_000 + k
            fake.add_document(id=text_id, title=f"letter {k}", content=LETTER * 3 + f"Reference {k * 7919}.")
            fake.add_document(id=picture_id, title=f"photo {k}", content="")
            thumb = work / f"{picture_id}.webp"
            thumb.write_bytes(webp(recapture(handwritten_page(1 + (k * 37) % len(thumbs)), 900 + k)))
            order = ["third_party_floor", "hook_text", "hook_picture"]
            if k % 2:
                order = ["third_party_floor", "hook_picture", "hook_text"]
            for name in order:
                if name == "third_party_floor":
                    wall, _cpu, out = time_once([sys.executable, "-c", THIRD_PARTY_FLOOR])
                else:
                    doc = text_id if name == "hook_text" else picture_id
                    extra = {"DOCUMENT_THUMBNAIL_PATH": str(thumb)} if name == "hook_picture" else {}
                    wall, _cpu, out = time_once([cli("paperless-dedupe-hook")], env=dict(env, DOCUMENT_ID=str(doc),
                                                                                         **extra))
                    outputs[name] = out.strip()
                if k >= 2:
                    runs[name].append(wall)
        text_env = dict(env, DOCUMENT_ID="2000000")
        proc = subprocess.run([sys.executable, "-X", "importtime", "-c",
                               "import sys; from paperless_dedupe_hook.hook import main; sys.exit(main())"],
                              env=text_env, capture_output=True, text=True, cwd="/")
    floor = median(runs["third_party_floor"])
    imported = _imported(proc.stderr)
    return {
        "median_ms": {name: median(v) * 1e3 for name, v in runs.items()},
        "vs_third_party_floor": {name: median(v) / floor for name, v in runs.items()},
        "outputs": outputs,
        "text_hook_imported_picture_modules": sorted(m for m in imported if m.split(".")[0] == "PIL"
                                                     or m in PICTURE_MODULES),
        "text_hook_modules_imported": len(imported),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.picture_cost", description=__doc__.splitlines()[0])
    parser.add_argument("--indexed", type=int, default=1000, help="documents with a picture in the index")
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--out", default="/tmp/pdbench/results-picture-cost.json")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    compile_bytecode(REPO)
    work = Path(tempfile.mkdtemp(prefix="picture-cost-"))
    path = work / "index.sqlite3"
    log(f"picture cost: an index of {args.indexed} documents without text, each with its picture")
    thumbs = build_index(path, args.indexed)
    with_pictures, without = _vacuumed_size(path, drop_pictures=False), _vacuumed_size(path, drop_pictures=True)
    from paperless_dedupe_hook.core.picture import SIGNATURE_BYTES

    result: dict[str, Any] = {
        "indexed": args.indexed, "signature_bytes": SIGNATURE_BYTES,
        "index_bytes_with_pictures": with_pictures, "index_bytes_without_pictures": without,
        "picture_bytes_per_document": (with_pictures - without) / args.indexed,
        "thumbnail_bytes_median": median([float(len(t)) for t in thumbs]),
    }
    log(f"  index: {with_pictures:,} bytes with the pictures, {without:,} without: "
        f"{result['picture_bytes_per_document']:,.0f} bytes per document (signature {SIGNATURE_BYTES} bytes; "
        f"thumbnails ~{result['thumbnail_bytes_median'] / 1024:.0f} kB, not stored)")
    result["in_process"] = in_process(path, args.repeat, args.indexed)
    stages = result["in_process"]
    log("  in process, per picture document (median): " + ", ".join(
        f"{k[:-3]} {v:.1f} ms" for k, v in stages.items() if k.endswith("_ms"))
        + f"; {stages['candidates_median']:.0f} candidates, {stages['matches_median']:.0f} match(es)")
    result["first_imports_ms"] = first_imports()
    log("  first imports, cumulative: " + ", ".join(f"{k} {v:.1f} ms" for k, v in result["first_imports_ms"].items()))
    result["hooks"] = hooks(path, thumbs, args.repeat, work)
    h = result["hooks"]
    log("  hook, fresh process, median: " + ", ".join(
        f"{k} {v:.0f} ms ({h['vs_third_party_floor'][k]:.2f}x the third-party floor)" for k, v in h["median_ms"].items()))
    log(f"  picture modules a text document's hook imported: {h['text_hook_imported_picture_modules'] or 'none'} "
        f"(of {h['text_hook_modules_imported']} modules)")
    log(f"  e.g. {h['outputs'].get('hook_picture', '')}")
    shutil.rmtree(work, ignore_errors=True)
    save(result, Path(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
