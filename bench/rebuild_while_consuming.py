"""The long variant of tests/test_reliability_rebuild.py: a full ``rebuild-index`` of
N documents (default 8,000) from the fake Paperless while W workers keep consuming
(add a document to Paperless, run the hook's console script), from the moment the
rebuild reads its first documents until it ends.

Run from the repository root::

    python bench/rebuild_while_consuming.py                # 8,000 documents, 2 workers
    python bench/rebuild_while_consuming.py --documents 3000 --workers 4 --json

Prints how many hooks ran, how many of them finished inside the window (after the
rebuild began reading documents, before the new file was swapped in), and how many
documents a hook indexed are missing from the index afterwards.  Exit status 1 when
any is missing, any hook failed, or no hook ran inside the window.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.consuming_support import rebuild_while_consuming  # noqa: E402
from tests.reliability_support import corpus, index_health, new_fake, run_cli  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=8000, help="documents in Paperless when the rebuild starts")
    parser.add_argument("--consumed", type=int, default=600, help="documents available to consume meanwhile")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    lib = corpus(8018, documents=args.documents + args.consumed, pairs=(args.documents + args.consumed) // 20,
                 triples=10)
    before = [d for d in lib.docs if d["id"] <= args.documents]
    consumed = [d for d in lib.docs if d["id"] > args.documents]
    fake = new_fake()
    try:
        fake.add_documents(before)
        with tempfile.TemporaryDirectory() as tmp:
            tmp_path = Path(tmp)
            first = run_cli(tmp_path, fake, "--quiet", "rebuild-index")
            if first.returncode != 0:
                print(first.stderr, file=sys.stderr)
                return 1
            outcome = rebuild_while_consuming(tmp_path, fake, consumed, workers=args.workers, until_rebuild_ends=True)
            indexed = set(index_health(tmp_path / "index.sqlite3")["documents"])
    finally:
        fake.stop()
    hooked = [h.doc_id for h in outcome.hooks if h.code == 0]
    lost = sorted(set(hooked) - indexed)
    lost_inside = sorted({h.doc_id for h in outcome.inside} - indexed)
    result = {
        "documents": args.documents, "workers": args.workers, "rebuild_exit": outcome.rebuild.returncode,
        "rebuild_seconds": round(outcome.rebuild_seconds, 1), "hooks": len(outcome.hooks),
        "hooks_failed": sum(h.code != 0 or h.stderr != "" for h in outcome.hooks),
        "hooks_inside_window": len(outcome.inside), "lost": len(lost), "lost_inside_window": len(lost_inside),
        "lost_ids": lost[:20],
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"rebuild of {args.documents} documents: {result['rebuild_seconds']} s, exit {result['rebuild_exit']}; "
              f"{result['hooks']} hooks ({result['hooks_failed']} failed), {result['hooks_inside_window']} inside "
              f"the window; lost {result['lost']} ({result['lost_inside_window']} of those inside the window)")
    ok = not lost and not result["hooks_failed"] and result["hooks_inside_window"] > 0 and outcome.rebuild.returncode == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
