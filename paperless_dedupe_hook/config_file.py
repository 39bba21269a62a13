"""Reading and writing the TOML configuration file."""

from __future__ import annotations

import os
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
        raise ConfigError(f"{path} exists already: edit it, or remove it first to start over") from None
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.chmod(path, 0o600)


def set_keys(path: Path, updates: Mapping[str, Any]) -> None:
    """Store ``updates`` (dotted keys) in the config file, keeping its other keys."""
    import tomli_w

    data: dict[str, Any] = {}
    if path.exists():
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    for name, value in updates.items():
        section, key = name.split(".", 1)
        data.setdefault(section, {})[key] = value
    write_private(path, tomli_w.dumps(data), exist_ok=True)


