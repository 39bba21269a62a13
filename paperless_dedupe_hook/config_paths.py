"""Where the configuration file and the index live by default (PRODUCT.md "Configuration")."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from . import envnames

APP_NAME = "paperless-dedupe-hook"
CONFIG_ENV = "PAPERLESS_DEDUPE_CONFIG"
# Paperless's own data directory: inside its container and on a bare-metal install the hook
# (run by the worker) and the CLI (run by hand) both see it, so files kept under it are found
# by both without any variable of ours.
DATA_DIR_ENV = "PAPERLESS_DATA_DIR"
DATA_SUBDIR = "dedupe"


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
