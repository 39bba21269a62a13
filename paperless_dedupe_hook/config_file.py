"""Reading and writing the TOML configuration file."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._errors import ConfigError
from .config_keys import KEYS


def _flatten(data: Mapping[str, Any], path: Path) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for section, body in data.items():
        if not isinstance(body, Mapping):
            raise ConfigError(f"{path}: top-level key {section!r} must be a [section] table; see config.example.toml")
        for key, value in body.items():
            flat[f"{section}.{key}"] = value
    return flat


def read_file(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"config file {path} not found: create it with 'paperless-dedupe config init'") from None
    except OSError as exc:
        raise ConfigError(f"config file {path} is not readable ({exc.strerror}): fix its permissions") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"config file {path} is not valid TOML ({exc}): fix the line named or run 'config init'") from None
    return _flatten(data, path)


def starter_toml(values: Mapping[str, Any] | None = None) -> str:
    """The text of a new config file: every key, commented, with its default."""
    lines = ["# paperless-dedupe-hook configuration. Every key is optional; shown are the defaults.", ""]
    section = ""
    for key in KEYS:
        sec, name = key.name.split(".", 1)
        if sec != section:
            lines += ([""] if section else []) + [f"[{sec}]"]
            section = sec
        value = values.get(key.name, key.default) if values else key.default
        env = f"; env {' or '.join(key.env_names)}"
        lines.append(f"# {key.help} ({key.allowed}{env})")
        rendered = _toml_value(value)
        lines.append(f"{name} = {rendered}" if values and key.name in values else f"# {name} = {rendered}")
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    import tomli_w

    return tomli_w.dumps({"v": value}).split("=", 1)[1].strip()


def write_private(path: Path, text: str, *, exist_ok: bool = False) -> None:
    """Write ``text`` to ``path`` with mode 0600, created that way (no window)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | (0 if exist_ok else os.O_EXCL)
    try:
        fd = os.open(path, flags, 0o600)
    except FileExistsError:
        raise ConfigError(f"{path} exists already: edit it, or overwrite it with the starter file by "
                          "'paperless-dedupe config init --force' (what it holds is lost)") from None
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.chmod(path, 0o600)


def set_keys(path: Path, updates: Mapping[str, Any]) -> None:
    """Store ``updates`` (dotted keys) in the config file and change nothing else in it:
    its comments, the order of its lines and its other keys stay as they were."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    new = edit_toml(text, updates)
    before = _flatten(tomllib.loads(text), path) if text.strip() else {}
    try:
        after: dict[str, Any] | None = _flatten(tomllib.loads(new), path)
    except (tomllib.TOMLDecodeError, ConfigError):
        after = None
    if after != {**before, **updates}:  # a layout edit_toml does not know (inline tables, dotted keys)
        wanted = ", ".join(f"{k} = {_toml_value(v)}" for k, v in updates.items())
        raise ConfigError(f"{path}: cannot change {', '.join(updates)} without rewriting the file: set {wanted} "
                          "in its section by hand")
    write_private(path, new, exist_ok=True)


_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]\s*(#.*)?$")
_ANY_HEADER = re.compile(r"^\s*\[")


def edit_toml(text: str, updates: Mapping[str, Any]) -> str:
    """``text`` with each dotted key of ``updates`` set: an active ``key = ...`` line of its
    section has its value replaced (a comment after it is kept); else the new line goes
    after a commented-out ``# key = ...`` of that section (the starter file's way of showing
    a default), else at the end of the section; a missing section is appended."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    for name, value in updates.items():
        section, key = name.split(".", 1)
        rendered = f"{key} = {_toml_value(value)}"
        start, end = _section(lines, section)
        if start is None:
            lines += (["\n"] if lines and lines[-1].strip() else []) + [f"[{section}]\n", rendered + "\n"]
            continue
        active = re.compile(rf"^(\s*){re.escape(key)}\s*=")
        commented = re.compile(rf"^\s*#\s*{re.escape(key)}\s*=")
        for i in range(start + 1, end):
            match = active.match(lines[i])
            if match:
                extent, comment = _value_extent(lines, i, match.end())
                lines[i:i + extent] = [f"{match.group(1)}{rendered}{comment}\n"]
                break
        else:
            shown = [i for i in range(start + 1, end) if commented.match(lines[i])]
            if shown:
                at = shown[-1] + 1
            else:
                at = end
                while at > start + 1 and not lines[at - 1].strip():
                    at -= 1  # before the blank lines that part it from the next section
            lines.insert(at, rendered + "\n")
    return "".join(lines)


def _section(lines: list[str], section: str) -> tuple[int | None, int]:
    """(index of the ``[section]`` header, index of the next header or the end)."""
    start = next((i for i, line in enumerate(lines) if (m := _HEADER.match(line)) and m.group(1) == section), None)
    if start is None:
        return None, len(lines)
    end = next((i for i in range(start + 1, len(lines)) if _ANY_HEADER.match(lines[i])), len(lines))
    return start, end


def _value_extent(lines: list[str], row: int, offset: int) -> tuple[int, str]:
    """How many lines the value starting at ``lines[row][offset:]`` takes (arrays and
    strings may span lines), and the comment after it on its last line (with its spaces)."""
    for extent in range(1, len(lines) - row + 1):
        raw = lines[row][offset:] + "".join(lines[row + 1:row + extent])
        body = raw.rstrip("\n")
        # The value ends before one of the '#' (or at the end): the first cut that parses.
        cuts = [m.start() for m in re.finditer("#", body)] + [len(body)]
        for cut in cuts:
            try:
                tomllib.loads("v = " + body[:cut])
            except tomllib.TOMLDecodeError:
                continue
            value_end = len(body[:cut].rstrip())
            tail = body[value_end:]
            return extent, tail.rstrip() if tail.strip() else ""
    return 1, ""
