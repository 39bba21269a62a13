"""Configuration mistakes (issue item 5), beyond tests/test_config.py: every key with
a wrong type and below/above its range, in the file and in the environment; and the
mistakes through the real console scripts: the hook exits 0 with one line naming the
key and the fix, ``paperless-dedupe`` exits 3 with one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperless_dedupe_hook import config
from paperless_dedupe_hook._errors import ConfigError
from tests.reliability_support import (
    CANARY,
    CLI,
    HOOK,
    base_env,
    canary_guard,  # noqa: F401 - session fixture: the token never appears in any output
    record,
    run_parallel,
)

WRONG_TYPE = {"str": "42", "int": '"many"', "float": '"fast"', "bool": '"yes"', "choice": '"nonsense"',
              "bands": '"lots"', "lsh": "true", "languages": '["klingon"]'}


def _check(message: str, key: str) -> None:
    record(f"config error for {key}", message)
    assert "\n" not in message
    assert key in message, message
    # The fix: the allowed values ("...: use ...") or the key meant ("did you mean ...").
    assert ": use " in message.split(key, 1)[1] or "did you mean" in message, message


@pytest.mark.parametrize("key", config.KEYS, ids=[k.name for k in config.KEYS])
def test_every_key_with_a_wrong_type_is_refused_naming_key_and_fix(tmp_path: Path, key: config.Key) -> None:
    section, name = key.name.split(".")
    path = tmp_path / "config.toml"
    path.write_text(f"[{section}]\n{name} = {WRONG_TYPE[key.kind]}\n")
    with pytest.raises(ConfigError) as info:
        config.load(config_path=str(path), env={"HOME": str(tmp_path)})
    _check(str(info.value), key.name)
    assert f"use {key.allowed}" in str(info.value)


NUMERIC = [k for k in config.KEYS if k.low is not None and k.high is not None]


@pytest.mark.parametrize("key", NUMERIC, ids=[k.name for k in NUMERIC])
def test_every_number_below_and_above_its_range_is_refused(tmp_path: Path, key: config.Key) -> None:
    section, name = key.name.split(".")
    path = tmp_path / "config.toml"
    for value in (key.low - 1, key.high + 1):
        rendered = int(value) if key.kind in ("int", "bands") else float(value)
        path.write_text(f"[{section}]\n{name} = {rendered}\n")
        with pytest.raises(ConfigError) as info:
            config.load(config_path=str(path), env={"HOME": str(tmp_path)})
        _check(str(info.value), key.name)
        assert "out of range" in str(info.value) and f"use {key.allowed}" in str(info.value)


ENV_KEYS = [k for k in config.KEYS if k.kind not in ("str",)]


@pytest.mark.parametrize("key", ENV_KEYS, ids=[k.name for k in ENV_KEYS])
def test_every_key_from_the_environment_is_checked_too(tmp_path: Path, key: config.Key) -> None:
    env_name = key.env or "PAPERLESS_DEDUPE_" + key.name.replace(".", "_").upper()
    with pytest.raises(ConfigError) as info:
        config.load(config_path=None, env={"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path),
                                           env_name: "not-a-valid-value"})
    message = str(info.value)
    _check(message, key.name)
    assert env_name in message


def test_token_never_in_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[paperless]\ntoken = "{CANARY}"\ntimeout_seconds = "soon"\n')
    path.chmod(0o600)
    with pytest.raises(ConfigError) as info:
        config.load(config_path=str(path), env={})
    record("config error with a token in the file", str(info.value))
    # A token of the wrong type is refused without being echoed either.
    path.write_text("[paperless]\ntoken = 123456789\n")
    with pytest.raises(ConfigError) as info:
        config.load(config_path=str(path), env={})
    assert "paperless.token" in str(info.value)


# (id, config file body or None, extra environment, the key or words the line must name)
MISTAKES = [
    ("wrong-type", '[paperless]\ntimeout_seconds = "fast"\n', {}, "paperless.timeout_seconds"),
    ("out-of-range", "[detection]\nsimilarity_threshold = 1.5\n", {}, "detection.similarity_threshold"),
    ("unknown-key", "[actions]\ntags = \"x\"\n", {}, "did you mean 'actions.tag'"),
    ("url-without-scheme", '[paperless]\nurl = "paperless.local:8000"\n', {}, "paperless.url"),
    ("bad-toml", "[hook\nstrict = true\n", {}, "not valid TOML"),
    ("unreadable-file", "DIRECTORY", {}, "not readable"),
    ("unreadable-token-file", None, {"PAPERLESS_DEDUPE_TOKEN_FILE": "/nonexistent/token"}, "paperless.token_file"),
    ("env-out-of-range", None, {"PAPERLESS_DEDUPE_HOOK_TIMEOUT_SECONDS": "0"}, "PAPERLESS_DEDUPE_HOOK_TIMEOUT_SECONDS"),
]


def test_mistakes_through_the_console_scripts(tmp_path: Path) -> None:
    jobs, names = [], []
    for case, body, extra, _needle in MISTAKES:
        case_dir = tmp_path / case
        case_dir.mkdir()
        env = base_env(case_dir, **extra)  # no PAPERLESS_DEDUPE_URL: the file's own must count
        if case == "unreadable-token-file":
            env.pop("PAPERLESS_DEDUPE_TOKEN")
        if body == "DIRECTORY":
            (case_dir / "config.toml").mkdir()
            env["PAPERLESS_DEDUPE_CONFIG"] = str(case_dir / "config.toml")
        elif body is not None:
            (case_dir / "config.toml").write_text(body)
            env["PAPERLESS_DEDUPE_CONFIG"] = str(case_dir / "config.toml")
        jobs.append(([HOOK], {**env, "DOCUMENT_ID": "7"}, f"hook with {case}"))
        jobs.append(([CLI, "status"], env, f"status with {case}"))
        names.append(case)
    results = run_parallel(jobs)
    for n, (case, _body, _extra, needle) in enumerate(MISTAKES):
        hook, status = results[2 * n], results[2 * n + 1]
        assert hook.returncode == 0 and hook.stdout == "", (case, hook.stdout, hook.stderr)
        lines = hook.stderr.strip().splitlines()
        assert len(lines) == 1 and "configuration error" in lines[0] and needle in lines[0], (case, hook.stderr)
        assert status.returncode == 3, (case, status.stderr)
        lines = status.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], (case, status.stderr)


def test_missing_token_hook_exits_0_and_check_exits_3(tmp_path: Path) -> None:
    env = base_env(tmp_path, url="http://127.0.0.1:9", token=None)
    hook, check, status = run_parallel([([HOOK], {**env, "DOCUMENT_ID": "7"}, "hook without token"),
                                        ([CLI, "check", "7"], env, "check without token"),
                                        ([CLI, "status"], env, "status without token")])
    assert hook.returncode == 0
    lines = hook.stderr.strip().splitlines()
    assert len(lines) == 1 and "no API token" in lines[0] and "PAPERLESS_DEDUPE_TOKEN" in lines[0], hook.stderr
    assert check.returncode == 3 and "no API token" in check.stderr
    assert status.returncode == 0  # status works offline, without a token
