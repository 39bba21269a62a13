"""Tests of scripts/install-dedupe.sh and scripts/post-consume.sh (the Docker wrapper).

The installer test builds a real virtual environment and pip-installs this repository into it,
which needs the package index for the dependencies. Set DEDUPE_SKIP_INSTALL_TEST=1 to skip it
where there is no network; it runs by default.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tooling import skip_without

REPO_ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = REPO_ROOT / "scripts"
INSTALLER = SCRIPTS / "install-dedupe.sh"
WRAPPER = SCRIPTS / "post-consume.sh"

needs_sh = pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX sh")
skip_install = pytest.mark.skipif(
    os.environ.get("DEDUPE_SKIP_INSTALL_TEST", "").strip().lower() in {"1", "true", "yes", "y", "t"},
    reason="DEDUPE_SKIP_INSTALL_TEST is set",
)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _clean_env(**extra: str) -> dict[str, str]:
    """The caller's environment without anything of ours that could leak into a script run."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DEDUPE_", "PAPERLESS_DEDUPE_", "DOCUMENT_", "VIRTUAL_ENV", "PYTHONHOME"))
    }
    env.update(extra)
    return env


def _python3_dir() -> str:
    """A directory holding a `python3` of at least 3.11 (the installer runs `python3`)."""
    found = shutil.which("python3")
    if found:
        probe = subprocess.run([found, "-c", "import sys; sys.exit(sys.version_info < (3, 11))"], check=False)
        if probe.returncode == 0:
            return str(Path(found).parent)
    return ""


# ---------------------------------------------------------------------------------------------
# syntax


@needs_sh
@pytest.mark.parametrize("script", [INSTALLER, WRAPPER], ids=lambda p: p.name)
def test_scripts_parse_and_are_executable(script: Path) -> None:
    assert script.read_text(encoding="utf-8").startswith("#!/bin/sh\n")
    assert os.access(script, os.X_OK), f"{script} must be executable (git mode 100755)"
    subprocess.run(["sh", "-n", str(script)], check=True)


@skip_without(shutil.which("shellcheck") is not None, "shellcheck not installed (apt-get install shellcheck)")
def test_scripts_are_shellcheck_clean() -> None:
    subprocess.run(["shellcheck", "-s", "sh", str(INSTALLER), str(WRAPPER)], check=True)


# ---------------------------------------------------------------------------------------------
# installer


@needs_sh
@skip_install
def test_installer_builds_isolated_venv_and_is_idempotent(tmp_path: Path) -> None:
    """As docs/docker.md describes it: run from the checkout, PAPERLESS_DATA_DIR set, nothing else."""
    data_dir = tmp_path / "data"
    home = data_dir / "dedupe"
    env = _clean_env(PAPERLESS_DATA_DIR=str(data_dir) + "/")
    had_build_dir = (REPO_ROOT / "build").exists()

    py_dir = _python3_dir()
    if not py_dir:
        # Make `python3` the interpreter running the tests (3.11+ by the project's requirement).
        shim = tmp_path / "shim"
        shim.mkdir()
        (shim / "python3").symlink_to(sys.executable)
        py_dir = str(shim)
    env["PATH"] = py_dir + os.pathsep + env.get("PATH", "")

    def install(*args: str) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            ["sh", str(INSTALLER), *args],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        assert result.returncode == 0, f"installer failed:\n{result.stdout}\n{result.stderr}"
        return result

    first = install()
    venv = home / "venv"
    assert (venv / "bin" / "python").exists()
    hook = venv / "bin" / "paperless-dedupe-hook"
    cli = venv / "bin" / "paperless-dedupe"
    assert hook.is_file() and os.access(hook, os.X_OK)
    assert cli.is_file() and os.access(cli, os.X_OK)

    # Isolated from the system site-packages (Paperless's packages in the Docker image).
    cfg = (venv / "pyvenv.cfg").read_text(encoding="utf-8")
    assert "include-system-site-packages = false" in cfg
    system_paths = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import sys; print([p for p in sys.path if p.startswith(sys.base_prefix) and 'site-packages' in p])",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert system_paths == "[]"

    wrapper = home / "post-consume.sh"
    assert wrapper.read_bytes() == WRAPPER.read_bytes()
    assert _mode(wrapper) == 0o755

    config = home / "config.toml"
    assert config.is_file()
    assert _mode(config) == 0o600
    import tomllib

    parsed = tomllib.loads(config.read_text(encoding="utf-8"))
    assert parsed["index"]["path"] == str(home / "index.sqlite3")

    assert "PAPERLESS_POST_CONSUME_SCRIPT" in first.stdout
    assert "rebuild-index" in first.stdout
    assert f"installing the checkout {REPO_ROOT}" in first.stdout
    assert had_build_dir or not (REPO_ROOT / "build").exists()  # built from a copy: the checkout stays as it was
    # With PAPERLESS_DATA_DIR the CLI needs no --config: the next steps say so, and it finds the files.
    assert f"{venv}/bin/paperless-dedupe doctor" in first.stdout and "--config" not in first.stdout
    cli_env = _clean_env(PAPERLESS_DATA_DIR=str(data_dir), HOME=str(tmp_path))
    shown = subprocess.run([str(cli), "config", "path"], env=cli_env, capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == str(config)
    status = subprocess.run([str(cli), "status", "--json"], env=cli_env, capture_output=True, text=True, check=False)
    assert str(home / "index.sqlite3") in status.stdout + status.stderr

    # The installed wrapper runs the installed hook: an unreachable Paperless is one warning, exit 0.
    (home / "token").write_text("not-a-real-token\n", encoding="utf-8")
    hooked = subprocess.run(
        [str(wrapper)], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
        env=cli_env | {"DOCUMENT_ID": "7", "PAPERLESS_DEDUPE_URL": "http://127.0.0.1:9",
                       "PAPERLESS_DEDUPE_TOKEN_FILE": str(home / "token"),
                       "PAPERLESS_DEDUPE_PAPERLESS_TIMEOUT_SECONDS": "2"},
    )
    assert hooked.returncode == 0, hooked.stdout + hooked.stderr
    warnings = [line for line in hooked.stderr.splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 1 and "document 7 not checked" in warnings[0], hooked.stderr

    # Re-running keeps the venv and the (possibly edited) config and re-copies the wrapper.
    config.write_text(config.read_text(encoding="utf-8") + "# edited by the user\n", encoding="utf-8")
    config.chmod(0o600)
    wrapper.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
    python_inode = (venv / "pyvenv.cfg").stat().st_ino
    second = install()
    assert "reusing" in second.stdout
    assert (venv / "pyvenv.cfg").stat().st_ino == python_inode
    assert config.read_text(encoding="utf-8").endswith("# edited by the user\n")
    assert _mode(config) == 0o600
    assert wrapper.read_bytes() == WRAPPER.read_bytes()
    assert _mode(wrapper) == 0o755
    assert hook.is_file()
    assert not list(home.glob("post-consume.sh.tmp.*"))


@needs_sh
@skip_install
def test_installer_copied_alone_asks_the_index_and_says_what_else_works(tmp_path: Path) -> None:
    alone = tmp_path / "dedupe-scripts"
    alone.mkdir()
    for script in (INSTALLER, WRAPPER):
        shutil.copy(script, alone / script.name)
    env = _clean_env(DEDUPE_HOME=str(tmp_path / "home"))
    env["PIP_NO_INDEX"] = "1"  # the name is not published; do not ask a remote index about it
    env["PIP_FIND_LINKS"] = str(tmp_path)
    result = subprocess.run(["sh", str(alone / "install-dedupe.sh")], env=env, capture_output=True, text=True,
                            timeout=300, check=False)
    assert result.returncode == 1
    assert "installing paperless-dedupe-hook" in result.stdout
    last = result.stderr.strip().splitlines()[-1]
    assert "from the package index failed" in last and "checkout" in last and "wheel" in last


@needs_sh
def test_installer_rejects_unknown_argument(tmp_path: Path) -> None:
    result = subprocess.run(
        ["sh", str(INSTALLER), "--bogus"],
        env=_clean_env(DEDUPE_HOME=str(tmp_path / "h")),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "--bogus" in result.stderr
    assert not (tmp_path / "h").exists()


@needs_sh
def test_installer_names_missing_python(tmp_path: Path) -> None:
    result = subprocess.run(
        ["sh", str(INSTALLER)],
        env=_clean_env(DEDUPE_HOME=str(tmp_path / "h"), DEDUPE_PYTHON="no-such-python3"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "no-such-python3 not found" in lines[0]
    assert not (tmp_path / "h").exists()


# ---------------------------------------------------------------------------------------------
# wrapper

FAKE_HOOK = """#!/bin/sh
echo "argc=$#"
echo "DOCUMENT_ID=${DOCUMENT_ID-unset}"
echo "PAPERLESS_DEDUPE_CONFIG=${PAPERLESS_DEDUPE_CONFIG-unset}"
echo "DEDUPE_CHAIN_SCRIPT=${DEDUPE_CHAIN_SCRIPT-unset}"
echo "pid=$$"
exit ${FAKE_HOOK_EXIT:-0}
"""


def _fake_home(root: Path, *, config: bool = True) -> Path:
    hook = root / "venv" / "bin" / "paperless-dedupe-hook"
    hook.parent.mkdir(parents=True)
    hook.write_text(FAKE_HOOK, encoding="utf-8")
    hook.chmod(0o755)
    if config:
        (root / "config.toml").write_text("", encoding="utf-8")
        (root / "config.toml").chmod(0o600)
    return root


def _run_wrapper(wrapper: Path, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    # Exactly as Paperless starts it: the file itself, no shell, no arguments.
    return subprocess.run(
        [str(wrapper)], env=env, cwd=cwd, capture_output=True, text=True, timeout=60, check=False
    )


def _parse(stdout: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in stdout.splitlines() if "=" in line)


@needs_sh
def test_wrapper_without_install_exits_0_with_one_hint(tmp_path: Path) -> None:
    home = tmp_path / "empty"
    home.mkdir()
    result = _run_wrapper(WRAPPER, _clean_env(DEDUPE_HOME=str(home), DOCUMENT_ID="7"), tmp_path)
    assert result.returncode == 0
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert "install-dedupe.sh" in lines[0] and "install" in lines[0].lower()
    assert str(home / "venv") in lines[0]


@needs_sh
def test_wrapper_execs_hook_with_document_env_and_config(tmp_path: Path) -> None:
    home = _fake_home(tmp_path / "home")
    result = _run_wrapper(
        WRAPPER,
        _clean_env(DEDUPE_HOME=str(home), DOCUMENT_ID="42", DOCUMENT_CORRESPONDENT="None"),
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    seen = _parse(result.stdout)
    assert seen["argc"] == "0"
    assert seen["DOCUMENT_ID"] == "42"
    assert seen["PAPERLESS_DEDUPE_CONFIG"] == str(home / "config.toml")


@needs_sh
def test_wrapper_uses_exec(tmp_path: Path) -> None:
    """The hook replaces the wrapper process: same pid, no shell left waiting."""
    home = _fake_home(tmp_path / "home")
    probe = tmp_path / "probe.sh"
    probe.write_text(f'#!/bin/sh\necho "parent=$$"\nexec "{WRAPPER}"\n', encoding="utf-8")
    probe.chmod(0o755)
    result = _run_wrapper(probe, _clean_env(DEDUPE_HOME=str(home), DOCUMENT_ID="1"), tmp_path)
    seen = _parse(result.stdout)
    assert seen["pid"] == seen["parent"]


@needs_sh
def test_wrapper_keeps_an_explicit_config_and_skips_a_missing_one(tmp_path: Path) -> None:
    home = _fake_home(tmp_path / "home")
    explicit = _run_wrapper(
        WRAPPER,
        _clean_env(DEDUPE_HOME=str(home), DOCUMENT_ID="3", PAPERLESS_DEDUPE_CONFIG="/elsewhere.toml"),
        tmp_path,
    )
    assert _parse(explicit.stdout)["PAPERLESS_DEDUPE_CONFIG"] == "/elsewhere.toml"

    bare = _fake_home(tmp_path / "bare", config=False)
    missing = _run_wrapper(WRAPPER, _clean_env(DEDUPE_HOME=str(bare), DOCUMENT_ID="3"), tmp_path)
    assert _parse(missing.stdout)["PAPERLESS_DEDUPE_CONFIG"] == "unset"


@needs_sh
def test_wrapper_home_follows_paperless_data_dir(tmp_path: Path) -> None:
    home = _fake_home(tmp_path / "data" / "dedupe")
    elsewhere = tmp_path / "scripts" / "post-consume.sh"  # e.g. the bind-mounted original
    elsewhere.parent.mkdir()
    shutil.copy(WRAPPER, elsewhere)
    result = _run_wrapper(elsewhere, _clean_env(PAPERLESS_DATA_DIR=str(tmp_path / "data") + "/", DOCUMENT_ID="4"),
                          tmp_path)
    assert result.returncode == 0, result.stderr
    assert _parse(result.stdout)["PAPERLESS_DEDUPE_CONFIG"] == str(home / "config.toml")


@needs_sh
def test_wrapper_finds_its_home_from_its_own_location(tmp_path: Path) -> None:
    home = _fake_home(tmp_path / "custom home")
    copy = home / "post-consume.sh"
    shutil.copy(WRAPPER, copy)
    copy.chmod(0o755)
    result = _run_wrapper(copy, _clean_env(DOCUMENT_ID="9"), tmp_path)
    assert result.returncode == 0, result.stderr
    seen = _parse(result.stdout)
    assert seen["DOCUMENT_ID"] == "9"
    assert seen["PAPERLESS_DEDUPE_CONFIG"] == str(home / "config.toml")


@needs_sh
def test_wrapper_passes_hook_exit_status(tmp_path: Path) -> None:
    """strict = true in the hook must still be able to fail the consume."""
    home = _fake_home(tmp_path / "home")
    result = _run_wrapper(
        WRAPPER, _clean_env(DEDUPE_HOME=str(home), DOCUMENT_ID="1", FAKE_HOOK_EXIT="3"), tmp_path
    )
    assert result.returncode == 3


@needs_sh
def test_wrapper_skips_a_venv_built_for_another_python(tmp_path: Path) -> None:
    home = _fake_home(tmp_path / "home")
    bindir = home / "venv" / "bin"
    other = tmp_path / "pybin" / "python3.99"
    other.parent.mkdir()
    other.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    other.chmod(0o755)
    (bindir / "python").symlink_to(other)  # venv/lib/python3.99 does not exist
    result = _run_wrapper(WRAPPER, _clean_env(DEDUPE_HOME=str(home), DOCUMENT_ID="1"), tmp_path)
    assert result.returncode == 0
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and "python3.99" in result.stderr

    (home / "venv" / "lib" / "python3.99").mkdir(parents=True)
    fine = _run_wrapper(WRAPPER, _clean_env(DEDUPE_HOME=str(home), DOCUMENT_ID="1"), tmp_path)
    assert _parse(fine.stdout)["DOCUMENT_ID"] == "1"

    other.unlink()  # the old interpreter is gone: dangling symlink
    gone = _run_wrapper(WRAPPER, _clean_env(DEDUPE_HOME=str(home), DOCUMENT_ID="1"), tmp_path)
    assert gone.returncode == 0
    assert gone.stdout == ""
    assert len(gone.stderr.splitlines()) == 1


@needs_sh
def test_wrapper_chains_a_previous_script_first(tmp_path: Path) -> None:
    home = _fake_home(tmp_path / "home")
    log = tmp_path / "order.log"
    chained = tmp_path / "old-post-consume.sh"
    chained.write_text(
        f'#!/bin/sh\necho "chain DOCUMENT_ID=$DOCUMENT_ID" >> "{log}"\nexit ${{CHAIN_EXIT:-0}}\n',
        encoding="utf-8",
    )
    chained.chmod(0o755)
    base = _clean_env(DEDUPE_HOME=str(home), DOCUMENT_ID="5", DEDUPE_CHAIN_SCRIPT=str(chained))

    ok = _run_wrapper(WRAPPER, base, tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert log.read_text(encoding="utf-8") == "chain DOCUMENT_ID=5\n"
    seen = _parse(ok.stdout)
    assert seen["DOCUMENT_ID"] == "5"
    assert seen["DEDUPE_CHAIN_SCRIPT"] == "unset"  # not passed on: no loops

    # The chained script's failure is kept (it failed consumes before), but our hook still ran.
    failed = _run_wrapper(WRAPPER, {**base, "CHAIN_EXIT": "4"}, tmp_path)
    assert failed.returncode == 4
    assert _parse(failed.stdout)["DOCUMENT_ID"] == "5"
    assert len(failed.stderr.splitlines()) == 1

    # A missing chained script counts as failed (as Paperless treats a missing script) ...
    missing = _run_wrapper(WRAPPER, {**base, "DEDUPE_CHAIN_SCRIPT": str(tmp_path / "nope.sh")}, tmp_path)
    assert missing.returncode == 127
    assert _parse(missing.stdout)["DOCUMENT_ID"] == "5"

    # ... and a chain pointing back at the wrapper runs it once, not forever.
    loop = _run_wrapper(WRAPPER, {**base, "DEDUPE_CHAIN_SCRIPT": str(WRAPPER)}, tmp_path)
    assert loop.returncode == 0
    assert loop.stdout.count("DOCUMENT_ID=5") == 2


@needs_sh
@pytest.mark.parametrize("source", [pytest.param("/no/such/checkout", id="missing-path"),
                                    pytest.param("./no-such.whl", id="missing-wheel")])
def test_installer_with_a_bad_source_stops_before_making_a_venv(tmp_path: Path, source: str) -> None:
    home = tmp_path / "home"
    result = subprocess.run(["sh", str(INSTALLER), source], env=_clean_env(DEDUPE_HOME=str(home)),
                            capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "does not exist" in lines[0] and source in lines[0], result.stderr
    assert not (home / "venv").exists()


@needs_sh
@skip_install
def test_installer_whose_pip_install_fails_removes_the_venv_it_made(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = _clean_env(DEDUPE_HOME=str(home), PIP_NO_INDEX="1")
    result = subprocess.run(["sh", str(INSTALLER), f"file://{tmp_path}/missing-1.0.tar.gz"], env=env,
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "creating" in result.stdout and "pip install of" in result.stderr.strip().splitlines()[-1]
    assert not (home / "venv").exists()  # no empty venv for the wrapper to run
