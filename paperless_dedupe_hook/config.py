"""Configuration: one TOML file, environment variables, flags.

Precedence for each value: flag > environment > file > default (PRODUCT.md).  Every
key is declared once in ``KEYS`` with its type, default, allowed range and
environment variable; loading validates every value and stops with a one-line
``ConfigError`` naming the key, the value and what is allowed.
"""

from __future__ import annotations

import os
import stat
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import envnames
from ._errors import ConfigError

APP_NAME = "paperless-dedupe-hook"
CONFIG_ENV = "PAPERLESS_DEDUPE_CONFIG"
# Paperless's own data directory: inside its container and on a bare-metal install the hook
# (run by the worker) and the CLI (run by hand) both see it, so files kept under it are found
# by both without any variable of ours.
DATA_DIR_ENV = "PAPERLESS_DATA_DIR"
DATA_SUBDIR = "dedupe"
# Paperless's own boolean words (its settings parser accepts these).
_TRUE = {"true", "1", "t", "y", "yes"}
_FALSE = {"false", "0", "f", "n", "no"}


@dataclass(frozen=True)
class Key:
    name: str  # dotted, e.g. "detection.similarity_threshold"
    kind: str  # "str", "int", "float", "bool", "bands", "choice", "lsh"
    default: Any
    help: str
    env: str | None = None  # a short alias; every key also reads PAPERLESS_DEDUPE_<SECTION>_<KEY>
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    @property
    def env_names(self) -> tuple[str, ...]:
        """The environment variables this key reads, the documented long name first."""
        return envnames.names_of(self.name, self.env)

    @property
    def allowed(self) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return " or ".join(repr(c) for c in self.choices)
        if self.kind == "bands":
            return f'"auto" or a whole number from {self.low:g} to {self.high:g}'
        if self.kind == "lsh":
            return f'"auto" or a number from {self.low:g} to {self.high:g}'
        if self.low is not None and self.high is not None:
            what = "a whole number" if self.kind == "int" else "a number"
            return f"{what} from {self.low:g} to {self.high:g}"
        return "a string"


KEYS: tuple[Key, ...] = (
    Key("paperless.url", "str", "http://localhost:8000", "Base URL of Paperless (inside its container: http://localhost:8000)", "PAPERLESS_DEDUPE_URL"),
    Key("paperless.token", "str", "", "API token (Paperless: My Profile -> API Auth Token)", "PAPERLESS_DEDUPE_TOKEN"),
    Key("paperless.token_file", "str", "", "File holding the API token (used when token is empty)", "PAPERLESS_DEDUPE_TOKEN_FILE"),
    Key("paperless.public_url", "str", "", "Address users open in a browser, for links (default: PAPERLESS_URL, else paperless.url)"),
    Key("paperless.timeout_seconds", "float", 30.0, "Connect and read timeout per request, seconds", None, 1, 600),
    Key("paperless.verify_tls", "bool", True, "Verify the server's TLS certificate"),
    Key("index.path", "str", "", "Index file (default: $PAPERLESS_DATA_DIR/dedupe/index.sqlite3, else the user data dir)", "PAPERLESS_DEDUPE_INDEX"),
    Key("index.backend", "choice", "sqlite", "Where the index lives", None, choices=("sqlite", "redis")),
    Key("index.redis_url", "str", "", "Redis URL for backend = redis (default: PAPERLESS_REDIS)"),
    Key("detection.num_permutations", "int", 256, "MinHash signature length", None, 16, 1024),
    Key("detection.num_bands", "bands", "auto", "LSH bands; auto derives bands and rows from lsh_threshold", None, 2, 512),
    Key("detection.lsh_threshold", "lsh", "auto", "Jaccard level the LSH S-curve is centred on; auto = similarity_threshold - 0.35", None, 0.05, 0.99),
    Key("detection.shingle", "choice", "word", "Shingle unit: word n-grams or character n-grams", None, choices=("word", "char")),
    Key("detection.ngram_size", "int", 2, "Words (or characters) per shingle; 2 measured best (docs/quality.md)", None, 1, 12),
    Key("detection.min_words", "int", 20, "Documents with fewer words are compared only with each other, by a stricter rule", None, 1, 10000),
    Key("detection.similarity_threshold", "float", 0.75, "Final score from which a pair is a duplicate", None, 0.0, 1.0),
    Key("detection.jaccard_weight", "int", 60, "Weight of the Jaccard score (sum with fuzzy_weight = 100)", None, 0, 100),
    Key("detection.fuzzy_weight", "int", 40, "Weight of the fuzzy text score", None, 0, 100),
    Key("detection.fuzzy_sample_size", "int", 5000, "Characters of each text the fuzzy score compares", None, 100, 100000),
    Key("detection.discriminative_penalty_strength", "int", 70, "How hard differing dates/amounts/ids pull the score down, percent", None, 0, 100),
    Key("detection.containment", "bool", True, "Count a copy missing a page or with a cover sheet as similar (containment)"),
    Key("detection.report_revisions", "bool", True, "Report a newer version of a document (new version date, a few clauses changed) as a revision"),
    Key("detection.ignore_derived", "bool", True, "Do not report merge/split results and versions as duplicates of their sources"),
    Key("detection.seed", "int", 1, "MinHash seed (datasketch's default is 1)", None, 0, 2**32 - 1),
    Key("actions.tag", "str", "possible-duplicate", "Tag for the newer document of a pair (empty: no tag)"),
    Key("actions.note", "bool", True, "Add a note naming each match with its scores"),
    Key("actions.link_field", "str", "Possible duplicates", "documentlink custom field holding the matches (empty: none)"),
    Key("actions.saved_view", "str", "Possible duplicates", "Saved view of the tagged documents, newest first, created when missing (empty: none)"),
    Key("actions.pin_saved_view", "bool", False, "Show that view on the dashboard and in the sidebar when creating it (changes your UI settings)"),
    Key("actions.dry_run", "bool", False, "Log what would be written to Paperless, write nothing"),
    Key("actions.confirm_tag", "str", "duplicate-confirmed", "Tag with which a user confirms a copy for resolve (empty: only resolve COPY)"),
    Key("actions.resolve_mode", "choice", "trash", "What resolve does with a copy: trash, or version (3.x: its file stored as a version of the keeper first)", None, choices=("trash", "version")),
    Key("hook.strict", "bool", False, "Exit non-zero when the hook cannot do its job (fails the consume!)"),
    Key("hook.timeout_seconds", "float", 60.0, "The hook gives up after this many seconds", None, 1, 3600),
)
KEY_BY_NAME = {k.name: k for k in KEYS}


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


def data_dir_home(env: Mapping[str, str]) -> Path | None:
    """``$PAPERLESS_DATA_DIR/dedupe`` when Paperless's data directory is set, else None."""
    data_dir = env.get(DATA_DIR_ENV, "")
    if data_dir in envnames.UNSET:
        return None
    return Path(data_dir).expanduser() / DATA_SUBDIR


def default_config_path(env: Mapping[str, str] | None = None) -> Path:
    home = data_dir_home(os.environ if env is None else env)
    if home is not None:
        return home / "config.toml"
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP_NAME)) / "config.toml"


def default_index_path(env: Mapping[str, str] | None = None) -> Path:
    home = data_dir_home(os.environ if env is None else env)
    if home is not None:
        return home / "index.sqlite3"
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME)) / "index.sqlite3"


def resolve_config_path(flag: str | None, env: Mapping[str, str]) -> tuple[Path, bool]:
    """Where the config file is, and whether the user named it explicitly."""
    if flag:
        return Path(flag).expanduser(), True
    if env.get(CONFIG_ENV) not in (None, *envnames.UNSET):
        return Path(env[CONFIG_ENV]).expanduser(), True
    return default_config_path(env), False


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


