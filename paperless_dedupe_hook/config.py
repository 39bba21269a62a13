"""Configuration: one TOML file, environment variables, flags.

Precedence for each value: flag > environment > file > default (PRODUCT.md).  Every
key is declared once in ``KEYS`` (``config_keys``) with its type, default, allowed range and
environment variable; loading validates every value and stops with a one-line
``ConfigError`` naming the key, the value and what is allowed.  Default locations are
in ``config_paths``, reading and writing the file in ``config_file``; their names are
re-exported here, so ``config.X`` keeps working for every caller.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import envnames
from ._errors import ConfigError
from .config_file import read_file, set_keys, starter_toml, write_private
from .config_keys import KEY_BY_NAME, KEYS, Key
from .config_paths import (
    APP_NAME,
    CONFIG_ENV,
    DATA_DIR_ENV,
    DATA_SUBDIR,
    data_dir_home,
    default_config_path,
    default_index_path,
    resolve_config_path,
)

__all__ = [
    "APP_NAME", "CONFIG_ENV", "DATA_DIR_ENV", "DATA_SUBDIR", "KEYS", "KEY_BY_NAME", "Config", "Key",
    "data_dir_home", "default_config_path", "default_index_path", "load", "read_file", "require_token",
    "resolve_config_path", "set_keys", "starter_toml", "unknown_env_warnings", "write_private",
]

# Paperless's own boolean words (its settings parser accepts these).
_TRUE = {"true", "1", "t", "y", "yes"}
_FALSE = {"false", "0", "f", "n", "no"}


@dataclass(frozen=True, kw_only=True)
class Config:
    """The effective configuration: ``values`` maps each dotted key to its value."""

    values: Mapping[str, Any]
    sources: Mapping[str, str]  # dotted key -> "default" | "file" | "env NAME" | "flag"
    path: Path | None
    warnings: tuple[str, ...] = field(default=())

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    @property
    def token(self) -> str:
        return str(self.values["paperless.token"])

    @property
    def index_path(self) -> Path:
        return Path(str(self.values["index.path"]))

    def masked(self) -> dict[str, dict[str, Any]]:
        """Nested sections for display, the token replaced by a mask."""
        out: dict[str, dict[str, Any]] = {}
        for name, value in self.values.items():
            section, key = name.split(".", 1)
            if name == "paperless.token" and value:
                value = "****" + "(set)"
            elif name == "index.redis_url" and value:
                from .index._redis_support import mask_url  # no redis import: a pure string helper

                value = mask_url(str(value))
            out.setdefault(section, {})[key] = value
        return out


def _convert(key: Key, raw: Any, origin: str) -> Any:
    """Check one value against its key; ``origin`` says where it came from."""

    def bad(reason: str = "") -> ConfigError:
        extra = f" ({reason})" if reason else ""
        return ConfigError(f"{key.name} = {raw!r} from {origin} is invalid{extra}: use {key.allowed}")

    from_env = origin.startswith("env")
    if key.kind == "bool":
        if isinstance(raw, bool):
            return raw
        if from_env and isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
            return raw.strip().lower() in _TRUE
        raise bad()
    if key.kind == "str":
        if not isinstance(raw, str):
            raise bad("not a string")
        return raw
    if key.kind == "choice":
        if not isinstance(raw, str) or raw not in key.choices:
            raise bad()
        return raw
    if key.kind == "languages":
        return _languages(raw, from_env, bad)
    if key.kind in ("bands", "lsh") and raw == "auto":
        return "auto"
    number: float
    if isinstance(raw, bool):
        raise bad()
    if isinstance(raw, int | float):
        number = raw
    elif from_env and isinstance(raw, str):
        try:
            number = float(raw) if key.kind in ("float", "lsh") else int(raw)
        except ValueError:
            raise bad() from None
    else:
        raise bad()
    if key.kind in ("int", "bands") and (isinstance(number, float) and not number.is_integer()):
        raise bad("not a whole number")
    if number != number or (key.low is not None and number < key.low) or (key.high is not None and number > key.high):
        raise bad("out of range")
    return int(number) if key.kind in ("int", "bands") else float(number)


def _languages(raw: Any, from_env: bool, bad: Any) -> str | tuple[str, ...]:
    """``"auto"``, or the language codes of a list (``["fr", "de"]``; from the environment
    ``fr,de`` or ``fr+de``), each a language extraction knows."""
    if raw == "auto":
        return "auto"
    if from_env and isinstance(raw, str):
        raw = [part.strip() for part in raw.replace("+", ",").split(",") if part.strip()]
    if not isinstance(raw, list) or not raw or not all(isinstance(c, str) for c in raw):
        raise bad()
    unknown = [c for c in raw if c not in KEY_BY_NAME["detection.languages"].choices]
    if unknown:
        raise bad(f"no language {', '.join(map(repr, unknown))}")
    return tuple(dict.fromkeys(raw))


def load(
    *,
    config_path: str | None = None,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Config:
    """Build the effective configuration.  Raises ``ConfigError`` on any bad value."""
    env = os.environ if env is None else env
    path, explicit = resolve_config_path(config_path, env)
    file_values: dict[str, Any] = {}
    warnings: list[str] = []
    if explicit or path.exists():
        file_values = read_file(path)
        warnings.extend(_permission_warnings(path, file_values))
    for name in file_values:
        if name not in KEY_BY_NAME:
            import difflib  # only for a typo: the hook imports this module on every run

            hint = difflib.get_close_matches(name, KEY_BY_NAME, n=1)
            fix = f"did you mean {hint[0]!r}?" if hint else "see config.example.toml for the keys"
            raise ConfigError(f"{path}: unknown key {name!r}: {fix}")
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    warnings.extend(unknown_env_warnings(env))
    for key in KEYS:
        found = envnames.lookup(key.env_names, env)
        warnings.extend(envnames.conflict_warnings(key.env_names, env))
        if overrides and key.name in overrides and overrides[key.name] is not None:
            values[key.name], sources[key.name] = _convert(key, overrides[key.name], "the command line"), "flag"
        elif found is not None:
            env_name, env_value = found
            values[key.name] = _convert(key, env_value, f"environment variable {env_name}")
            sources[key.name] = f"env {env_name}"
        elif key.name in file_values:
            values[key.name], sources[key.name] = _convert(key, file_values[key.name], str(path)), "file"
        else:
            values[key.name], sources[key.name] = key.default, "default"
    _finish(values, sources, env)
    return Config(values=values, sources=sources, path=path, warnings=tuple(warnings))


def unknown_env_warnings(env: Mapping[str, str]) -> list[str]:
    """One line per ``PAPERLESS_DEDUPE_*`` variable that names no setting, with a "did you mean"."""
    return envnames.unknown_warnings(env, (n for k in KEYS for n in k.env_names))


def _finish(values: dict[str, Any], sources: dict[str, str], env: Mapping[str, str]) -> None:
    """Cross-key checks and derived defaults."""
    url = str(values["paperless.url"]).strip().rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise ConfigError(
            f"paperless.url = {url!r} has no scheme: write it as http://host:8000 or https://host"
        )
    values["paperless.url"] = url
    if not values["paperless.token"] and values["paperless.token_file"]:
        token_path = Path(str(values["paperless.token_file"])).expanduser()
        try:
            values["paperless.token"] = token_path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ConfigError(
                f"paperless.token_file = {str(token_path)!r} cannot be read ({exc.strerror}): fix the path or its permissions"
            ) from None
    weights = values["detection.jaccard_weight"] + values["detection.fuzzy_weight"]
    if weights != 100:
        raise ConfigError(
            f"detection.jaccard_weight + detection.fuzzy_weight = {weights}: they must add up to 100"
        )
    bands = values["detection.num_bands"]
    if bands != "auto" and bands > values["detection.num_permutations"] // 2:
        raise ConfigError(
            f"detection.num_bands = {bands} leaves fewer than 2 rows per band with num_permutations = "
            f"{values['detection.num_permutations']}: use at most {values['detection.num_permutations'] // 2} or \"auto\""
        )
    if not values["index.path"]:
        values["index.path"] = str(default_index_path(env))
    values["index.path"] = str(Path(str(values["index.path"])).expanduser())
    if not values["paperless.public_url"]:
        # Links are for a browser: Paperless's own PAPERLESS_URL is the address its users open,
        # while paperless.url is often the in-container http://localhost:8000.
        public = env.get("PAPERLESS_URL", "")
        if public and public != "None":
            values["paperless.public_url"], sources["paperless.public_url"] = public, "env PAPERLESS_URL"
        else:
            values["paperless.public_url"] = values["paperless.url"]
    values["paperless.public_url"] = str(values["paperless.public_url"]).rstrip("/")
    if not values["index.redis_url"]:
        redis = env.get("PAPERLESS_REDIS", "")
        values["index.redis_url"] = "" if redis == "None" else redis
        if values["index.redis_url"]:
            sources["index.redis_url"] = "env PAPERLESS_REDIS"
    if values["index.backend"] == "redis" and not values["index.redis_url"]:
        raise ConfigError("index.backend = 'redis' needs index.redis_url (or PAPERLESS_REDIS): set one of them")


def _permission_warnings(path: Path, file_values: Mapping[str, Any]) -> list[str]:
    if not file_values.get("paperless.token") or sys.platform == "win32":
        return []
    try:
        mode = path.stat().st_mode
    except OSError:
        return []
    if mode & (stat.S_IRGRP | stat.S_IROTH):
        return [f"config file {path} holds a token and is readable by others: run 'chmod 600 {path}'"]
    return []


def require_token(config: Config) -> str:
    token = config.token
    if not token:
        raise ConfigError(
            "no API token: set paperless.token or paperless.token_file in the config file, or PAPERLESS_DEDUPE_TOKEN"
        )
    return token


