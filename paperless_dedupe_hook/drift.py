"""Why the index no longer fits the configuration, in the words the user configured.

The index stores derived values (``bands=23, rows=11``) and refuses to mix signatures
made with others.  A user who raised ``detection.similarity_threshold`` never set
``bands``: with ``lsh_threshold = "auto"`` the bands follow the threshold.  So the
message names the setting that changed since the index was built (stored with the
index as ``built_with_settings``), says what it moved, and offers the way to keep the
index where there is one.  ``config show`` and ``doctor`` say it as soon as the
setting is changed; the commands that then refuse the index say it too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .core import banding
from .engine import ORIGIN_KEYS, ORIGIN_META_KEY, Settings
from .index.sqlite import COMPAT_KEYS

_BANDING = ("detection.num_bands", "detection.lsh_threshold", "detection.similarity_threshold",
            "detection.num_permutations")
# compat value -> the user's keys it is derived from
_FED_BY: dict[str, tuple[str, ...]] = {
    "num_permutations": ("detection.num_permutations",),
    "seed": ("detection.seed",),
    "shingle": ("detection.shingle",),
    "ngram_size": ("detection.ngram_size",),
    "min_words": ("detection.min_words",),
    "bands": _BANDING,
    "rows": _BANDING,
}
_REBUILD = "run 'paperless-dedupe rebuild-index'"


def _shown(value: Any) -> str:
    return json.dumps(value)


def stale_reason(stored: Mapping[str, str], settings: Settings) -> str | None:
    """One line saying why an index with meta ``stored`` cannot be used with ``settings``
    and what to do, or None when it fits (or is new and empty)."""
    compat = settings.compat()
    if "hash_scheme" not in stored:
        return None
    differing = [k for k in COMPAT_KEYS if k in compat and stored.get(k) != compat[k]]
    if not differing:
        return None
    internal = [k for k in differing if k not in _FED_BY]
    if internal:
        found = ", ".join(f"{k} {stored.get(k)} (now {compat[k]})" for k in internal)
        return f"the index was built by another version of paperless-dedupe-hook ({found}): {_REBUILD}"
    try:
        then: dict[str, Any] = json.loads(stored.get(ORIGIN_META_KEY, "{}"))
    except ValueError:
        then = {}
    now = dict(settings.origin)
    feeding = {key for k in differing for key in _FED_BY[k]}
    changed = [k for k in ORIGIN_KEYS if k in feeding and k in then and k in now and then[k] != now[k]]
    geometry = ""
    if "bands" in differing or "rows" in differing:
        geometry = (f" (LSH bands x rows {stored.get('bands')}x{stored.get('rows')} then, "
                    f"{compat['bands']}x{compat['rows']} now)")
    if not changed:  # an index from before settings were stored with it
        found = ", ".join(f"{k}={stored.get(k)} (now {compat[k]})" for k in differing)
        keys = ", ".join(sorted(feeding, key=ORIGIN_KEYS.index))
        return f"the index was built with {found}, which follow from {keys}: {_REBUILD}"
    what = "; ".join(f"{k} changed from {_shown(then[k])} to {_shown(now[k])}" for k in changed)
    line = f"{what} since the index was built{geometry}: {_REBUILD}"
    if changed == ["detection.similarity_threshold"] and now.get("detection.lsh_threshold") == "auto" \
            and set(differing) <= {"bands", "rows"}:
        # The bands follow the threshold only through lsh_threshold = "auto": pinning the old
        # target keeps the index usable with the new threshold.
        old_target = banding.lsh_target(float(then["detection.similarity_threshold"]), "auto")
        line += f", or keep this index by setting detection.lsh_threshold = {old_target:g} (what \"auto\" gave before)"
    return line
