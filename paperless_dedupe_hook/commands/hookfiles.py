"""Would the hook, started by Paperless, use the same config and index as this command?

The CLI run by hand (``docker compose exec ...``) and the hook run by the worker through
``PAPERLESS_POST_CONSUME_SCRIPT`` resolve their files each from their own environment.
When they differ, ``rebuild-index`` fills one index while the hook reads another.  This
module works out the hook's environment as the wrapper (``scripts/post-consume.sh``)
would set it up, loads the configuration from it, and compares.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from .. import config as config_mod
from .._errors import ConfigError
from ..config import Config
from ..indexfile import index_location

SCRIPT_ENV = "PAPERLESS_POST_CONSUME_SCRIPT"
# A line of scripts/post-consume.sh that tells our wrapper from any other script.
WRAPPER_MARK = "paperless-dedupe-hook: the file PAPERLESS_POST_CONSUME_SCRIPT names"
WRAPPER_DEFAULT_HOME = Path("/usr/src/paperless/data/dedupe")


def _is_wrapper(script: Path) -> bool:
    try:
        with script.open(encoding="utf-8", errors="replace") as handle:
            return WRAPPER_MARK in handle.read(2000)
    except OSError:
        return False


def wrapper_home(script: Path, env: Mapping[str, str]) -> Path:
    """DEDUPE_HOME as scripts/post-consume.sh finds it."""
    if env.get("DEDUPE_HOME"):
        return Path(env["DEDUPE_HOME"])
    if os.access(script.parent / "venv" / "bin" / "paperless-dedupe-hook", os.X_OK):
        return script.parent
    return config_mod.data_dir_home(env) or WRAPPER_DEFAULT_HOME


def hook_environment(env: Mapping[str, str]) -> tuple[str, dict[str, str]] | None:
    """(what Paperless starts, the environment the hook then runs with), or None when
    ``PAPERLESS_POST_CONSUME_SCRIPT`` names neither our wrapper nor our hook."""
    raw = env.get(SCRIPT_ENV, "")
    if raw in ("", "None"):
        return None
    script = Path(raw)
    hook_env = dict(env)
    if _is_wrapper(script):
        home = wrapper_home(script, env)
        if not env.get(config_mod.CONFIG_ENV) and (home / "config.toml").is_file():
            hook_env[config_mod.CONFIG_ENV] = str(home / "config.toml")
        return f"the wrapper {script}", hook_env
    if script.name == "paperless-dedupe-hook":
        return f"the hook {script}", hook_env
    return None


def compare(cfg: Config, env: Mapping[str, str] | None = None) -> tuple[bool, str]:
    """(the same files?, one line saying so or naming both sides and the fix)."""
    env = os.environ if env is None else env
    found = hook_environment(env)
    if found is None:
        raw = env.get(SCRIPT_ENV, "")
        if raw in ("", "None"):
            return True, (f"post-consume script: {SCRIPT_ENV} is not set in this environment, so which files the "
                          "hook uses is not checked (set PAPERLESS_DATA_DIR for both, see docs/docker.md)")
        return True, f"post-consume script: {SCRIPT_ENV} = {raw} is not paperless-dedupe's wrapper or hook; not compared"
    what, hook_env = found
    try:
        hook_cfg = config_mod.load(env=hook_env)
    except ConfigError as exc:
        return False, f"post-consume script: {what} cannot load its configuration: {exc}"
    ours = (cfg.path, index_location(cfg))
    theirs = (hook_cfg.path, index_location(hook_cfg))
    if ours == theirs:
        return True, f"post-consume script: {what} uses the same config ({cfg.path}) and index ({ours[1]})"
    return False, (f"post-consume script: {what} would use config {theirs[0]} and index {theirs[1]}, but this command "
                   f"uses config {ours[0]} and index {ours[1]}: set PAPERLESS_DATA_DIR the same for both (or "
                   f"PAPERLESS_DEDUPE_CONFIG={theirs[0]}), or pass --config {theirs[0]}")
