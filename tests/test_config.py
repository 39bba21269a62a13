"""Configuration: precedence, validation messages, files written 0600."""

import os
import stat
from pathlib import Path

import pytest

from paperless_dedupe_hook import config
from paperless_dedupe_hook._errors import ConfigError


def _load(tmp_path: Path, body: str | None, env: dict[str, str] | None = None, **overrides: object) -> config.Config:
    path = tmp_path / "config.toml"
    if body is not None:
        path.write_text(body, encoding="utf-8")
    return config.load(config_path=str(path), env={"HOME": str(tmp_path)} | (env or {}), overrides=overrides or None)


def test_empty_file_means_all_defaults(tmp_path: Path) -> None:
    cfg = _load(tmp_path, "")
    for key in config.KEYS:
        if key.name not in ("index.path", "paperless.public_url"):  # derived defaults
            assert cfg[key.name] == key.default, key.name
    assert cfg["detection.similarity_threshold"] == 0.75
    assert cfg["paperless.public_url"] == cfg["paperless.url"]
    assert cfg["actions.link_field"] == "Possible duplicates"


def test_precedence_flag_over_env_over_file(tmp_path: Path) -> None:
    body = '[paperless]\nurl = "http://file:8000"\n[detection]\nsimilarity_threshold = 0.8\n'
    cfg = _load(tmp_path, body)
    assert cfg["paperless.url"] == "http://file:8000"
    cfg = _load(tmp_path, body, env={"PAPERLESS_DEDUPE_URL": "http://env:8000"})
    assert cfg["paperless.url"] == "http://env:8000"
    assert cfg.sources["paperless.url"] == "env PAPERLESS_DEDUPE_URL"
    cfg = _load(tmp_path, body, env={"PAPERLESS_DEDUPE_URL": "http://env:8000"}, **{"paperless.url": "http://flag:1"})
    assert cfg["paperless.url"] == "http://flag:1"
    assert cfg["detection.similarity_threshold"] == 0.8


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        pytest.param("[detection]\nsimilarity_threshold = 1.5\n", "detection.similarity_threshold = 1.5", id="out-of-range"),
        pytest.param('[detection]\nnum_permutations = "many"\n', "detection.num_permutations = 'many'", id="wrong-type"),
        pytest.param("[detection]\nnum_permutations = 12.5\n", "whole number", id="not-whole"),
        pytest.param('[hook]\nstrict = "yes"\n', "hook.strict", id="string-for-bool-in-file"),
        pytest.param("[detection]\nsimilarity_treshold = 0.8\n", "did you mean 'detection.similarity_threshold'", id="unknown-key"),
        pytest.param("[detection]\njaccard_weight = 50\n", "must add up to 100", id="weights"),
        pytest.param('[paperless]\nurl = "paperless:8000"\n', "has no scheme", id="url-without-scheme"),
        pytest.param("detection = 3\n", "must be a [section] table", id="not-a-table"),
        pytest.param("[detection\n", "not valid TOML", id="bad-toml"),
        pytest.param("[detection]\nnum_bands = 200\n", "fewer than 2 rows", id="too-many-bands"),
        pytest.param('[index]\nbackend = "mongo"\n', "'sqlite' or 'redis'", id="bad-choice"),
    ],
)
def test_bad_values_name_key_value_and_range(tmp_path: Path, body: str, needle: str) -> None:
    with pytest.raises(ConfigError) as info:
        _load(tmp_path, body)
    message = str(info.value)
    assert needle in message
    assert "\n" not in message


def test_every_range_is_enforced(tmp_path: Path) -> None:
    for key in config.KEYS:
        if key.kind in ("int", "float") and key.high is not None:
            section, name = key.name.split(".")
            with pytest.raises(ConfigError, match=key.name.replace(".", r"\.")):
                _load(tmp_path, f"[{section}]\n{name} = {key.high * 2 + 1}\n")


@pytest.mark.parametrize(("word", "value"), [("true", True), ("YES", True), ("t", True), ("1", True), ("no", False), ("f", False), ("0", False)])
def test_environment_booleans_use_paperless_words(tmp_path: Path, word: str, value: bool) -> None:
    cfg = _load(tmp_path, "", env={"PAPERLESS_DEDUPE_HOOK_STRICT": word})
    assert cfg["hook.strict"] is value


def test_environment_number_out_of_range_names_the_variable(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="PAPERLESS_DEDUPE_DETECTION_MIN_WORDS"):
        _load(tmp_path, "", env={"PAPERLESS_DEDUPE_DETECTION_MIN_WORDS": "-3"})


def test_none_values_from_paperless_env_are_ignored(tmp_path: Path) -> None:
    cfg = _load(tmp_path, "", env={"PAPERLESS_DEDUPE_URL": "None", "PAPERLESS_REDIS": "None"})
    assert cfg["paperless.url"] == "http://localhost:8000"
    assert cfg["index.redis_url"] == ""


def test_token_file_and_missing_token(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("abc123\n")
    cfg = _load(tmp_path, f'[paperless]\ntoken_file = "{token_file}"\n')
    assert config.require_token(cfg) == "abc123"
    with pytest.raises(ConfigError, match="no API token"):
        config.require_token(_load(tmp_path, ""))
    with pytest.raises(ConfigError, match="cannot be read"):
        _load(tmp_path, f'[paperless]\ntoken_file = "{tmp_path / "nope"}"\n')


def test_explicit_missing_file_and_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        config.load(config_path=str(tmp_path / "missing.toml"), env={})
    path = tmp_path / "locked.toml"
    path.write_text("")
    path.chmod(0)
    try:
        if os.geteuid() != 0:  # root reads anything
            with pytest.raises(ConfigError, match="not readable"):
                config.load(config_path=str(path), env={})
    finally:
        path.chmod(0o600)


def test_world_readable_file_with_token_warns(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[paperless]\ntoken = "canary-secret"\n')
    path.chmod(0o644)
    cfg = config.load(config_path=str(path), env={})
    assert any("chmod 600" in w for w in cfg.warnings)
    assert all("canary-secret" not in w for w in cfg.warnings)
    path.chmod(0o600)
    assert config.load(config_path=str(path), env={}).warnings == ()


def test_masked_hides_the_token(tmp_path: Path) -> None:
    cfg = _load(tmp_path, '[paperless]\ntoken = "canary-secret"\n')
    assert "canary-secret" not in repr(cfg.masked())


def test_write_private_creates_0600_and_refuses_to_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "config.toml"
    config.write_private(path, config.starter_toml())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with pytest.raises(ConfigError, match="exists already"):
        config.write_private(path, "x")
    assert config.load(config_path=str(path), env={})["detection.num_permutations"] == 256


def test_set_keys_keeps_other_keys(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[paperless]\nurl = "http://x:1"\n')
    config.set_keys(path, {"detection.num_bands": 23})
    cfg = config.load(config_path=str(path), env={})
    assert cfg["detection.num_bands"] == 23
    assert cfg["paperless.url"] == "http://x:1"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_example_file_documents_every_key() -> None:
    example = (Path(__file__).resolve().parent.parent / "config.example.toml").read_text(encoding="utf-8")
    for key in config.KEYS:
        assert f"{key.name.split('.', 1)[1]} =" in example, key.name


def test_masked_hides_a_redis_password(tmp_path: Path) -> None:
    cfg = _load(tmp_path, "", env={"PAPERLESS_REDIS": "redis://:hunter2@redis:6379/0"})
    assert cfg["index.redis_url"] == "redis://:hunter2@redis:6379/0"
    assert "hunter2" not in repr(cfg.masked())


@pytest.mark.parametrize(
    ("toml", "env", "expected"),
    [
        pytest.param("", {}, "http://localhost:8000", id="default-is-url"),
        pytest.param("", {"PAPERLESS_URL": "https://paperless.example.org/"}, "https://paperless.example.org",
                     id="paperless-own-url"),
        pytest.param("", {"PAPERLESS_URL": "None"}, "http://localhost:8000", id="paperless-none-word"),
        pytest.param('[paperless]\npublic_url = "https://docs.example/"\n', {"PAPERLESS_URL": "https://other"},
                     "https://docs.example", id="file-wins-over-paperless-url"),
    ],
)
def test_public_url_defaults_to_paperless_url(tmp_path: Path, toml: str, env: dict[str, str], expected: str) -> None:
    cfg = _load(tmp_path, toml, env=env)
    assert cfg["paperless.public_url"] == expected


@pytest.mark.parametrize(
    ("variable", "key", "value", "expected"),
    [
        pytest.param("PAPERLESS_DEDUPE_PAPERLESS_URL", "paperless.url", "http://long:8000", "http://long:8000", id="url-long"),
        pytest.param("PAPERLESS_DEDUPE_URL", "paperless.url", "http://short:8000", "http://short:8000", id="url-alias"),
        pytest.param("PAPERLESS_DEDUPE_PAPERLESS_TOKEN", "paperless.token", "tok-long", "tok-long", id="token-long"),
        pytest.param("PAPERLESS_DEDUPE_INDEX_PATH", "index.path", "/srv/i.sqlite3", "/srv/i.sqlite3", id="index-long"),
        pytest.param("PAPERLESS_DEDUPE_INDEX", "index.path", "/srv/j.sqlite3", "/srv/j.sqlite3", id="index-alias"),
        pytest.param("PAPERLESS_DEDUPE_DETECTION_SIMILARITY_THRESHOLD", "detection.similarity_threshold", "0.8", 0.8,
                     id="threshold"),
    ],
)
def test_every_key_reads_its_long_environment_name(
    tmp_path: Path, variable: str, key: str, value: str, expected: object
) -> None:
    cfg = _load(tmp_path, "", env={variable: value})
    assert cfg[key] == expected
    assert cfg.sources[key] == f"env {variable}"
    assert cfg.warnings == ()


def test_every_key_has_a_long_environment_name() -> None:
    for key in config.KEYS:
        assert key.env_names[0] == "PAPERLESS_DEDUPE_" + key.name.replace(".", "_").upper()


def test_long_name_wins_over_alias_with_one_warning(tmp_path: Path) -> None:
    cfg = _load(tmp_path, "", env={"PAPERLESS_DEDUPE_PAPERLESS_URL": "http://long:1", "PAPERLESS_DEDUPE_URL": "http://short:1"})
    assert cfg["paperless.url"] == "http://long:1"
    assert len(cfg.warnings) == 1
    assert "PAPERLESS_DEDUPE_PAPERLESS_URL" in cfg.warnings[0] and "PAPERLESS_DEDUPE_URL" in cfg.warnings[0]


@pytest.mark.parametrize(
    ("variable", "suggestion"),
    [
        pytest.param("PAPERLESS_DEDUPE_TOKN", "PAPERLESS_DEDUPE_TOKEN", id="short-typo"),
        pytest.param("PAPERLESS_DEDUPE_DETECTION_SIMILARITY_TRESHOLD", "PAPERLESS_DEDUPE_DETECTION_SIMILARITY_THRESHOLD",
                     id="long-typo"),
        pytest.param("PAPERLESS_DEDUPE_HOOK_STRIKT", "PAPERLESS_DEDUPE_HOOK_STRICT", id="bool-typo"),
        pytest.param("PAPERLESS_DEDUPE_CONFG", "PAPERLESS_DEDUPE_CONFIG", id="config-path-typo"),
    ],
)
def test_unknown_environment_variable_gets_one_did_you_mean(tmp_path: Path, variable: str, suggestion: str) -> None:
    cfg = _load(tmp_path, "", env={variable: "x"})
    assert len(cfg.warnings) == 1
    assert variable in cfg.warnings[0] and f"did you mean {suggestion}?" in cfg.warnings[0]
    assert "\n" not in cfg.warnings[0]


def test_our_other_variables_are_not_reported(tmp_path: Path) -> None:
    env = {"PAPERLESS_DEDUPE_VERBOSE": "1", "PAPERLESS_DEDUPE_REQUIRE_C_KERNEL": "1", "PAPERLESS_URL": "https://x"}
    assert _load(tmp_path, "", env=env).warnings == ()


def test_paperless_data_dir_holds_default_config_and_index(tmp_path: Path) -> None:
    data = tmp_path / "data"
    home = data / "dedupe"
    home.mkdir(parents=True)
    (home / "config.toml").write_text('[detection]\nmin_words = 33\n', encoding="utf-8")
    env = {"HOME": str(tmp_path / "home"), "PAPERLESS_DATA_DIR": str(data) + "/"}
    cfg = config.load(env=env)
    assert cfg.path == home / "config.toml"
    assert cfg["detection.min_words"] == 33
    assert cfg.index_path == home / "index.sqlite3"
    # The config file and PAPERLESS_DEDUPE_CONFIG still win; "None" (Paperless's unset) is no directory.
    assert config.resolve_config_path(None, env | {"PAPERLESS_DEDUPE_CONFIG": str(tmp_path / "x.toml")})[0] == tmp_path / "x.toml"
    assert config.data_dir_home({"PAPERLESS_DATA_DIR": "None"}) is None
    without = config.load(env={"HOME": str(tmp_path / "home")})
    assert without.path != home / "config.toml" and without.index_path != home / "index.sqlite3"


def test_hook_warns_once_about_a_misspelt_variable_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from paperless_dedupe_hook import hook

    for name in [n for n in os.environ if n.startswith(("PAPERLESS_", "DOCUMENT_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("PAPERLESS_DEDUPE_INDEX", str(tmp_path / "index.sqlite3"))
    monkeypatch.setenv("PAPERLESS_DEDUPE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("PAPERLESS_DEDUPE_TOKEN", "t")
    monkeypatch.setenv("PAPERLESS_DEDUPE_TOKN", "t")
    monkeypatch.setenv("PAPERLESS_DEDUPE_PAPERLESS_TIMEOUT_SECONDS", "1")
    assert hook.main(document_id="7") == 0
    err = capsys.readouterr().err.splitlines()
    typo = [line for line in err if "PAPERLESS_DEDUPE_TOKN" in line]
    assert len(typo) == 1 and "did you mean PAPERLESS_DEDUPE_TOKEN?" in typo[0]
    assert any("document 7 not checked" in line for line in err)  # it went on to the check itself


def test_config_path_warns_about_a_misspelt_config_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from paperless_dedupe_hook.commands import cli

    for name in [n for n in os.environ if n.startswith("PAPERLESS_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PAPERLESS_DEDUPE_CONFG", str(tmp_path / "mine.toml"))
    assert cli.main(["config", "path"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "did you mean PAPERLESS_DEDUPE_CONFIG?" in err[0]
