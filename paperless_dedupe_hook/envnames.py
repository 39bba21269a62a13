"""The environment variables of the configuration: names, aliases, misspellings.

Every key reads ``PAPERLESS_DEDUPE_<SECTION>_<KEY>`` (``detection.similarity_threshold``:
``PAPERLESS_DEDUPE_DETECTION_SIMILARITY_THRESHOLD``); the short names documented since the
first release (``PAPERLESS_DEDUPE_URL``, ``_TOKEN``, ``_TOKEN_FILE``, ``_INDEX``) stay as
aliases.  A ``PAPERLESS_DEDUPE_*`` variable that is neither gets one warning with the
nearest name, and nothing stops: a typo in the container's environment must not fail a
consume, but it must not pass unnoticed either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

PREFIX = "PAPERLESS_DEDUPE_"
# Variables of ours that are not configuration keys (read elsewhere: config path, hook
# verbosity, install-time switches of setup.py and the test suite).
OTHER_NAMES = (
    "PAPERLESS_DEDUPE_CONFIG",
    "PAPERLESS_DEDUPE_VERBOSE",
    "PAPERLESS_DEDUPE_NO_C_KERNEL",
    "PAPERLESS_DEDUPE_REQUIRE_C_KERNEL",
)
# Paperless's own way of saying "unset" in the environment it passes on.
UNSET = ("", "None")


def long_name(key_name: str) -> str:
    """``detection.similarity_threshold`` -> ``PAPERLESS_DEDUPE_DETECTION_SIMILARITY_THRESHOLD``."""
    return PREFIX + key_name.replace(".", "_").upper()


def names_of(key_name: str, alias: str | None) -> tuple[str, ...]:
    """The variables one key reads, the documented long name first."""
    full = long_name(key_name)
    return (full,) if not alias or alias == full else (full, alias)


def lookup(names: tuple[str, ...], env: Mapping[str, str]) -> tuple[str, str] | None:
    """(variable, value) of the first of ``names`` that is set, or None."""
    for name in names:
        value = env.get(name)
        if value is not None and value not in UNSET:
            return name, value
    return None


def conflict_warnings(names: tuple[str, ...], env: Mapping[str, str]) -> list[str]:
    """One line when a key's long name and its alias are both set to different values."""
    set_ = [(n, env[n]) for n in names if env.get(n) not in (None, *UNSET)]
    if len(set_) > 1 and len({v for _, v in set_}) > 1:
        used, other = set_[0][0], set_[1][0]
        return [f"environment variables {used} and {other} are both set and differ: using {used}; unset {other}"]
    return []


def unknown_warnings(env: Mapping[str, str], known: Iterable[str]) -> list[str]:
    """One line per ``PAPERLESS_DEDUPE_*`` variable that names nothing, with the nearest name."""
    valid = sorted(set(known) | set(OTHER_NAMES))
    out = []
    for name in sorted(env):
        if not name.startswith(PREFIX) or name in valid:
            continue
        import difflib  # only for a typo: the hook imports this module on every run

        hint = difflib.get_close_matches(name, valid, n=1, cutoff=0.75)
        fix = f"did you mean {hint[0]}?" if hint else "config.example.toml lists the names"
        out.append(f"environment variable {name} is not a setting of paperless-dedupe-hook and is ignored: {fix}")
    return out
