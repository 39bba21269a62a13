"""Issue 27, a first week without surprises: an index owned by another user, exit codes
a script can read, errors from outside our code.

Everything runs as a user runs it: the installed console scripts in a subprocess,
against the fake Paperless over loopback HTTP, with a real index file.  "Another
user": run as root, the command drops to ``nobody`` after loading its modules (the
interpreter lives under /root); run as anyone else, the index's files are made
read-only, which the file system refuses the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fake_paperless import FakePaperless
from tests.test_doctor import write_jsonl
from tests.test_reliability_security import https_server  # noqa: F401 - a fixture

CLI = shutil.which("paperless-dedupe") or str(Path(sys.executable).parent / "paperless-dedupe")
HOOK = shutil.which("paperless-dedupe-hook") or str(Path(sys.executable).parent / "paperless-dedupe-hook")
ROOT = os.geteuid() == 0

# As root: load every module first (they live under /root), then become nobody.
AS_NOBODY = """
import os, sys, pkgutil, importlib
import tomllib, platformdirs, httpx, urllib.request, json, encodings.idna
import paperless_dedupe_hook
for m in pkgutil.walk_packages(paperless_dedupe_hook.__path__, "paperless_dedupe_hook."):
    importlib.import_module(m.name)
from paperless_dedupe_hook import hook
from paperless_dedupe_hook.commands import cli
os.setgroups([]); os.setgid(65534); os.setuid(65534)
sys.exit(hook.main() if sys.argv[1:] == ["--as-hook"] else cli.main(sys.argv[1:]))
"""


def _env(fake: FakePaperless, home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_", "DOCUMENT_"))}
    env.update({"HOME": str(home), "XDG_CONFIG_HOME": str(home / "cfg"), "XDG_DATA_HOME": str(home / "data"),
                "PAPERLESS_DEDUPE_URL": fake.url, "PAPERLESS_DEDUPE_TOKEN": fake.token,
                "PAPERLESS_DEDUPE_INDEX": str(home / "dedupe" / "index.sqlite3")})
    env.update(extra)
    return env


@pytest.fixture
def home() -> Iterator[Path]:
    """A folder every user may enter (pytest's tmp_path lies under a 0700 folder)."""
    base = Path(tempfile.mkdtemp(prefix="dedupe-owner-"))
    base.chmod(0o755)
    try:
        yield base
    finally:
        for path in [base, *base.rglob("*")]:
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(base)


def _build_as_owner(fake: FakePaperless, home: Path) -> Path:
    """The index as the Docker slip leaves it: built by another user than the hook's."""
    env = _env(fake, home)
    built = subprocess.run([CLI, "rebuild-index", "--from-jsonl", str(write_jsonl(home / "docs.jsonl"))], env=env,
                           capture_output=True, text=True, timeout=120, cwd=home)
    assert built.returncode == 0, built.stderr
    folder = home / "dedupe"
    folder.chmod(0o755)
    if not ROOT:  # the owner itself, made unable to write: refused as another user would be
        for path in folder.iterdir():
            path.chmod(0o444)
        folder.chmod(0o555)
    return folder / "index.sqlite3"


def _as_other_user(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    if ROOT:
        command = [sys.executable, "-c", AS_NOBODY, *(["--as-hook"] if args == ["<hook>"] else args)]
    else:
        command = [HOOK] if args == ["<hook>"] else [CLI, *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, cwd=cwd)


def _the_fix_is_named(line: str, index: Path) -> None:
    assert f"index {index}" in line and "index.sqlite3.lock" in line, line
    assert "not writable by user" in line and "chown" in line and "-u paperless" in line, line
    if ROOT:
        assert "(owner root)" in line and "user nobody" in line and "chown nobody:" in line, line


def test_a_hook_on_an_index_of_another_user_says_chown_in_one_line(fake_paperless: FakePaperless,
                                                                    home: Path) -> None:
    fake_paperless.add_document(id=7, title="New letter", content="a letter about the heating system " * 10)
    index = _build_as_owner(fake_paperless, home)
    env = _env(fake_paperless, home, DOCUMENT_ID="7")
    proc = _as_other_user(["<hook>"], env, home)
    assert proc.returncode == 0, proc.stderr  # never fails the consume
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "document 7 not checked" in lines[0], proc.stderr
    assert "internal error" not in lines[0] and "PermissionError" not in lines[0]
    _the_fix_is_named(lines[0], index)
    strict = _as_other_user(["<hook>"], {**env, "PAPERLESS_DEDUPE_HOOK_STRICT": "true"}, home)
    assert strict.returncode == 5, strict.stderr


@pytest.mark.parametrize("command", [
    pytest.param(["status"], id="status"),
    pytest.param(["check", "2"], id="check"),
    pytest.param(["dismiss", "1", "2"], id="dismiss"),
    pytest.param(["rebuild-index", "--from-jsonl", "docs.jsonl"], id="rebuild-index"),
    pytest.param(["report", "--html", "/dev/null", "--no-thumbnails"], id="report"),
])
def test_commands_on_an_index_of_another_user_exit_5_with_the_fix(fake_paperless: FakePaperless, home: Path,
                                                                   command: list[str]) -> None:
    fake_paperless.add_document(id=2, title="b", content="a letter about the heating system " * 10)
    index = _build_as_owner(fake_paperless, home)
    proc = _as_other_user(command, _env(fake_paperless, home), home)
    assert proc.returncode == 5, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, proc.stderr
    _the_fix_is_named(errors[0], index)


def test_doctor_checks_the_index_files_are_writable_by_the_running_user(fake_paperless: FakePaperless,
                                                                         home: Path) -> None:
    index = _build_as_owner(fake_paperless, home)
    proc = _as_other_user(["doctor"], _env(fake_paperless, home), home)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 5, proc.stdout + proc.stderr
    fails = [line for line in proc.stdout.splitlines() if line.startswith("FAIL")]
    assert len(fails) == 1, proc.stdout
    _the_fix_is_named(fails[0], index)


def test_doctor_says_which_user_may_write_the_index_files(fake_paperless: FakePaperless, home: Path) -> None:
    env = _env(fake_paperless, home)
    assert subprocess.run([CLI, "rebuild-index", "--from-jsonl", str(write_jsonl(home / "docs.jsonl"))], env=env,
                          capture_output=True, timeout=120).returncode == 0
    proc = subprocess.run([CLI, "doctor"], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout
    line = next(line for line in proc.stdout.splitlines() if "may write the index's folder" in line)
    assert line.startswith("ok ") and "index.sqlite3.lock" in line and "index.sqlite3.regex" in line


def test_every_side_file_a_hook_leaves_is_one_doctor_checks(fake_paperless: FakePaperless, home: Path) -> None:
    from paperless_dedupe_hook.index._access import index_files

    fake_paperless.seed_sample()
    env = _env(fake_paperless, home)
    for doc_id in (1, 2):
        hook = subprocess.run([HOOK], env={**env, "DOCUMENT_ID": str(doc_id)}, capture_output=True, timeout=120)
        assert hook.returncode == 0
    index = home / "dedupe" / "index.sqlite3"
    left = sorted(p for p in index.parent.iterdir())
    assert len(left) >= 3 and set(left) <= set(index_files(index)), left


# -- exit codes and JSON on failure ------------------------------------------------------------------------------
def _json_error(proc: subprocess.CompletedProcess[str]) -> dict[str, object]:
    out = json.loads(proc.stdout)
    assert isinstance(out, dict) and isinstance(out["error"], str) and out["error"], proc.stdout
    assert out["exit_code"] == proc.returncode
    return out


@pytest.mark.parametrize(("extra", "code", "said"), [
    pytest.param({"PAPERLESS_DEDUPE_TOKEN": "not0the0right0token000000000000000000000"}, 4, "token", id="refused"),
    pytest.param({"PAPERLESS_DEDUPE_DETECTION_SIMILARITY_THRESHOLD": "7"}, 3, "similarity_threshold", id="config"),
    pytest.param({"PAPERLESS_DEDUPE_TOKEN": ""}, 3, "token", id="no-token"),
])
def test_check_json_prints_one_object_with_error_on_failure(fake_paperless: FakePaperless, home: Path,
                                                           extra: dict[str, str], code: int, said: str) -> None:
    fake_paperless.seed_sample()
    proc = subprocess.run([CLI, "check", "2", "--json"], env=_env(fake_paperless, home, **extra),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert said in str(_json_error(proc)["error"])


def test_check_json_with_a_usage_error_is_an_object_and_exit_2(home: Path) -> None:
    proc = subprocess.run([CLI, "check", "abc", "--json"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PAPERLESS_DEDUPE_CONFIG": "/dev/null"})
    assert proc.returncode == 2
    assert "invalid int value: 'abc'" in str(_json_error(proc)["error"])
    assert "usage:" in proc.stderr


def test_check_json_with_paperless_down_is_an_object_and_exit_4(fake_paperless: FakePaperless, home: Path) -> None:
    fake_paperless.stop()
    proc = subprocess.run([CLI, "check", "2", "--json"], capture_output=True, text=True, timeout=120,
                          env=_env(fake_paperless, home, PAPERLESS_DEDUPE_PAPERLESS_TIMEOUT_SECONDS="2"))
    assert proc.returncode == 4
    assert "unreachable" in str(_json_error(proc)["error"])


def test_status_json_on_a_damaged_index_is_an_object_and_exit_5(fake_paperless: FakePaperless, home: Path) -> None:
    (home / "dedupe").mkdir()
    (home / "dedupe" / "index.sqlite3").write_bytes(b"not a database" * 200)
    proc = subprocess.run([CLI, "status", "--json"], env=_env(fake_paperless, home), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 5
    assert "rebuild-index" in str(_json_error(proc)["error"])


@pytest.mark.parametrize("command", [pytest.param(["check", "2", "--json"], id="check"),
                                     pytest.param(["status", "--json"], id="status"),
                                     pytest.param(["--help"], id="help")])
def test_a_closed_pipe_is_no_traceback(fake_paperless: FakePaperless, home: Path, command: list[str]) -> None:
    # `... | head` that already stopped reading: the read end is closed before the first write.
    fake_paperless.seed_sample()
    env = _env(fake_paperless, home)
    assert subprocess.run([CLI, "rebuild-index"], env=env, capture_output=True, timeout=120).returncode == 0
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([CLI, *command], env=env, stdout=write_end, stderr=subprocess.PIPE, text=True,
                              timeout=120)
    finally:
        os.close(write_end)
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 141), proc.stderr  # 141: as a shell reports a writer stopped by SIGPIPE


def test_a_full_disk_is_one_line_naming_the_file(fake_paperless: FakePaperless, home: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.fail("this test needs /dev/full (Linux)")
    proc = subprocess.run([CLI, "rebuild-index", "--from-jsonl", str(write_jsonl(home / "docs.jsonl")),
                           "--report", "/dev/full"], env=_env(fake_paperless, home), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 74, proc.stderr  # EX_IOERR: not 1, which means "check found duplicates"
    assert "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "/dev/full" in errors[0] and "No space left" in errors[0], proc.stderr
    assert (home / "dedupe" / "index.sqlite3").exists()  # the index was built before the report


def test_an_uncaught_error_is_exit_70_one_line_and_json(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from paperless_dedupe_hook.commands import cli, maintenance

    def broken(*args: object, **kwargs: object) -> dict[str, object]:
        raise ZeroDivisionError("a bug of ours")

    monkeypatch.setattr(maintenance, "status", broken)  # the command's body, not the failure path under test
    monkeypatch.setenv("PAPERLESS_DEDUPE_CONFIG", "/dev/null")
    monkeypatch.setenv("PAPERLESS_DEDUPE_INDEX", str(tmp_path / "index.sqlite3"))
    assert cli.main(["-q", "status", "--json"]) == 70
    out, err = capsys.readouterr()
    assert json.loads(out)["error"].startswith("internal error ZeroDivisionError: a bug of ours")
    assert "Traceback" not in err and len([line for line in err.splitlines() if line.startswith("error:")]) == 1
    assert cli.main(["-v", "-q", "status"]) == 70
    assert "Traceback" in capsys.readouterr().err  # -v: the traceback for the bug report


def test_doctor_exit_codes_follow_the_product(fake_paperless: FakePaperless, home: Path) -> None:
    env = _env(fake_paperless, home)
    refused = subprocess.run([CLI, "doctor"], env={**env, "PAPERLESS_DEDUPE_TOKEN": "x" * 40}, capture_output=True,
                             text=True, timeout=120)
    assert refused.returncode == 4, refused.stdout
    (home / "dedupe").mkdir()
    (home / "dedupe" / "index.sqlite3").write_bytes(b"not a database" * 200)
    damaged = subprocess.run([CLI, "doctor"], env=env, capture_output=True, text=True, timeout=120)
    assert damaged.returncode == 5, damaged.stdout
    both = subprocess.run([CLI, "doctor"], env={**env, "PAPERLESS_DEDUPE_TOKEN": ""}, capture_output=True,
                          text=True, timeout=120)
    assert both.returncode == 3, both.stdout  # the configuration first: it is the first to fix
    fake_paperless.stop()
    down = subprocess.run([CLI, "doctor"], env={**env, "PAPERLESS_DEDUPE_PAPERLESS_TIMEOUT_SECONDS": "2"},
                          capture_output=True, text=True, timeout=120)
    assert down.returncode == 4, down.stdout


# -- point 3: tune --write changes only what it sets ----------------------------------------------------------
def _changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    import difflib

    diff = list(difflib.ndiff(before.splitlines(), after.splitlines()))
    return [d[2:] for d in diff if d.startswith("- ")], [d[2:] for d in diff if d.startswith("+ ")]


def _starter_with_a_note(home: Path, env: dict[str, str]) -> tuple[Path, str]:
    path = Path(env["PAPERLESS_DEDUPE_CONFIG"])
    init = subprocess.run([CLI, "config", "init"], env=env, capture_output=True, text=True, timeout=60)
    assert init.returncode == 0, init.stderr
    text = path.read_text(encoding="utf-8").replace(
        "[paperless]\n", "[paperless]\n# our NAS: ask Jo before changing the URL\n", 1)
    text = text.replace('# url = "http://localhost:8000"', 'url = "http://paperless.lan:8000"  # since March')
    path.write_text(text, encoding="utf-8")
    return path, text


def test_tune_write_keeps_the_starter_configs_comments_order_and_keys(fake_paperless: FakePaperless,
                                                                      home: Path) -> None:
    env = _env(fake_paperless, home, PAPERLESS_DEDUPE_CONFIG=str(home / "config.toml"))
    path, before = _starter_with_a_note(home, env)
    assert len(before) > 4000  # the whole documented starter file
    tuned = subprocess.run([CLI, "tune", "--threshold", "0.5", "--write"], env=env, capture_output=True, text=True,
                           timeout=60)
    assert tuned.returncode == 0, tuned.stderr
    after = path.read_text(encoding="utf-8")
    removed, added = _changed_lines(before, after)
    assert removed == [] and len(added) == 1 and added[0].startswith("num_bands = "), (removed, added)
    lines = after.splitlines()
    assert lines[lines.index(added[0]) - 1] == '# num_bands = "auto"'  # right under the default it replaces
    assert "# our NAS: ask Jo before changing the URL" in after and 'url = "http://paperless.lan:8000"  # since March' in after
    # a second run changes that line's value in place and nothing else
    again = subprocess.run([CLI, "tune", "--threshold", "0.8", "--write"], env=env, capture_output=True, text=True,
                           timeout=60)
    assert again.returncode == 0, again.stderr
    removed, added = _changed_lines(after, path.read_text(encoding="utf-8"))
    assert len(removed) == 1 and len(added) == 1 and removed[0].startswith("num_bands = "), (removed, added)


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param('[detection]\nnum_bands = 16  # tuned in May\nseed = 1\n',
                 '[detection]\nnum_bands = 23  # tuned in May\nseed = 1\n', id="value-replaced-comment-kept"),
    pytest.param('# mine\n[paperless]\nurl = "http://x:1"\n', '# mine\n[paperless]\nurl = "http://x:1"\n\n'
                 '[detection]\nnum_bands = 23\n', id="section-appended"),
    pytest.param('[detection]\nseed = 2\n\n[hook]\nstrict = true\n',
                 '[detection]\nseed = 2\nnum_bands = 23\n\n[hook]\nstrict = true\n', id="end-of-its-section"),
    pytest.param('[detection]\nnum_bands = [\n  1,  # odd\n]  # multi-line\n[hook]\n',
                 '[detection]\nnum_bands = 23  # multi-line\n[hook]\n', id="multi-line-value"),
    pytest.param('[detection] # the detection\nnum_bands = "auto" # "#" inside\n',
                 '[detection] # the detection\nnum_bands = 23 # "#" inside\n', id="hash-in-a-comment"),
])
def test_edit_toml_changes_one_value_only(text: str, expected: str) -> None:
    from paperless_dedupe_hook.config_file import edit_toml

    assert edit_toml(text, {"detection.num_bands": 23}) == expected


def test_a_layout_the_editor_does_not_know_is_refused_untouched(tmp_path: Path) -> None:
    from paperless_dedupe_hook import config
    from paperless_dedupe_hook._errors import ConfigError

    path = tmp_path / "c.toml"
    path.write_text('detection = { seed = 3 }\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="by hand"):
        config.set_keys(path, {"detection.num_bands": 23})
    assert path.read_text(encoding="utf-8") == 'detection = { seed = 3 }\n'


# -- point 6: rebuild progress with a total, a percentage and an ETA -------------------------------------------
def test_rebuild_progress_knows_the_total_from_jsonl_and_the_api(fake_paperless: FakePaperless, home: Path) -> None:
    env = _env(fake_paperless, home)
    offline = subprocess.run([CLI, "rebuild-index", "--from-jsonl", str(write_jsonl(home / "docs.jsonl"))], env=env,
                             capture_output=True, text=True, timeout=120)
    assert offline.returncode == 0, offline.stderr
    line = next(line for line in offline.stderr.splitlines() if line.startswith("indexing: "))
    assert line.startswith("indexing: 3/3 (100%), ") and "/s, ETA " in line, offline.stderr
    fake_paperless.seed_sample()
    online = subprocess.run([CLI, "rebuild-index"], env=env, capture_output=True, text=True, timeout=120)
    assert online.returncode == 0, online.stderr
    line = next(line for line in online.stderr.splitlines() if line.startswith("indexing: "))
    assert line.startswith("indexing: 6/6 (100%), ") and "ETA" in line, online.stderr


def test_progress_midway_shows_share_and_eta() -> None:
    import io

    from paperless_dedupe_hook.commands.progress import Progress, expected_documents

    out = io.StringIO()
    progress = Progress("indexing", expected_documents([object()] * 200), stream=out, interval_seconds=0.0)
    progress.started -= 10.0  # ten seconds in
    progress.update(50)
    assert out.getvalue().startswith("indexing: 50/200 (25%), 5/s, ETA 30 s"), out.getvalue()
    progress.update(250)  # more than the total announced (documents consumed meanwhile): no negative ETA
    assert out.getvalue().splitlines()[-1].endswith("ETA 0 s")


# -- point 7: the smaller things ------------------------------------------------------------------------------
def _actions(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.Action]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from ((f"{name} {where}", a) for where, a in _actions(sub))
        elif not isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            yield (action.dest, action)


def test_every_argument_has_a_help_text_and_help_has_examples() -> None:
    from paperless_dedupe_hook.commands.cli import build_parser

    parser = build_parser()
    missing = [where for where, action in _actions(parser) if not action.help]
    assert missing == []
    text = parser.format_help()
    assert "examples:" in text and "paperless-dedupe check 123 --json" in text and "-u paperless" in text
    assert "$PAPERLESS_DATA_DIR/dedupe/config.toml" in " ".join(text.split())


def test_document_id_unset_is_said_not_document_none(fake_paperless: FakePaperless, home: Path) -> None:
    env = _env(fake_paperless, home, DOCUMENT_TYPE="None")
    proc = subprocess.run([HOOK], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "DOCUMENT_ID is not set" in lines[0] and "document None" not in lines[0], lines
    none = subprocess.run([HOOK], env={**env, "DOCUMENT_ID": "None"}, capture_output=True, text=True, timeout=60)
    assert "document None" not in none.stderr and "DOCUMENT_ID is not set" in none.stderr


def test_doctor_says_skip_not_ok_for_what_it_did_not_check(fake_paperless: FakePaperless, home: Path) -> None:
    proc = subprocess.run([CLI, "doctor"], env=_env(fake_paperless, home), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout
    script = [line for line in proc.stdout.splitlines() if "post-consume script" in line]
    assert len(script) == 1 and script[0].startswith("skip  ") and "not checked" in script[0], script
    assert not [line for line in proc.stdout.splitlines() if line.startswith("ok ") and "not checked" in line]


def test_pin_view_a_second_time_says_already_and_posts_nothing(fake_paperless: FakePaperless, home: Path) -> None:
    fake_paperless.add_tag("possible-duplicate", owner=None)
    env = _env(fake_paperless, home)
    first = subprocess.run([CLI, "doctor", "--pin-view"], env=env, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0 and "now on the dashboard and in the sidebar" in first.stdout, first.stdout
    fake_paperless.requests.clear()
    second = subprocess.run([CLI, "doctor", "--pin-view"], env=env, capture_output=True, text=True, timeout=60)
    assert second.returncode == 0, second.stdout
    assert "already on the dashboard and in the sidebar: --pin-view changed nothing" in second.stdout
    assert "now on the dashboard" not in second.stdout
    assert [r.path for r in fake_paperless.requests if r.method != "GET"] == []


def test_config_init_over_an_existing_file_says_how_to_overwrite(home: Path) -> None:
    env = {**os.environ, "PAPERLESS_DEDUPE_CONFIG": str(home / "config.toml")}
    (home / "config.toml").write_text("# mine\n", encoding="utf-8")
    proc = subprocess.run([CLI, "config", "init"], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3
    assert "exists already" in proc.stderr and "config init --force" in proc.stderr
    assert (home / "config.toml").read_text(encoding="utf-8") == "# mine\n"


def test_http_against_an_https_port_is_told_to_use_https(https_server: str) -> None:  # noqa: F811
    from paperless_dedupe_hook._errors import PaperlessConnectionError
    from paperless_dedupe_hook.paperless.client import PaperlessClient

    plain = https_server.replace("https://", "http://")
    with PaperlessClient(url=plain, token="x" * 40, timeout_seconds=5, max_retries=3, backoff_seconds=0.01) as client, \
            pytest.raises(PaperlessConnectionError) as caught:
        client.get_document(1)
    message = str(caught.value)
    assert "speaks HTTPS on that port: use https:// in paperless.url" in message, message
    assert "attempts" not in message  # the same port fails the same way again: not retried


def test_an_https_ports_own_words_are_understood(fake_paperless: FakePaperless) -> None:
    from paperless_dedupe_hook.paperless._http import status_failure

    nginx = b"<html><body><center>The plain HTTP request was sent to HTTPS port</center></body></html>"
    failure = status_failure(400, {"content-type": "text/html"}, nginx, None, method="GET", path="/api/")
    assert "use https:// in paperless.url" in failure.fix


def test_the_licence_is_an_spdx_expression_and_the_build_backend_knows_it() -> None:
    import re
    import tomllib

    pyproject = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["license"] == "MIT"  # a TOML table is deprecated: setuptools warns, then fails
    assert not [c for c in pyproject["project"].get("classifiers", []) if c.startswith("License ::")]
    required = next(r for r in pyproject["build-system"]["requires"] if r.startswith("setuptools"))
    found = re.fullmatch(r"setuptools>=(\d+)", required)
    assert found and int(found.group(1)) >= 77, required  # PEP 639 license expressions need setuptools 77


def test_doctor_as_root_warns_about_index_files_the_hooks_user_cannot_write(fake_paperless: FakePaperless,
                                                                             home: Path) -> None:
    from paperless_dedupe_hook.index._access import foreign_to_folder

    index = _build_as_owner(fake_paperless, home)  # as root: root's files in a folder of root
    if not ROOT:  # the owner's own files in its own folder: nothing foreign
        assert foreign_to_folder(index) is None
        return
    assert foreign_to_folder(index) is None
    os.chown(index.parent, 65534, 65534)  # the folder is the Paperless user's (here: nobody's)
    proc = subprocess.run([CLI, "doctor"], env=_env(fake_paperless, home), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout
    warned = [line for line in proc.stdout.splitlines() if line.startswith("warn") and "belong to another user" in line]
    assert len(warned) == 1 and "index.sqlite3.lock" in warned[0] and "chown nobody:" in warned[0], proc.stdout


def test_ctrl_c_with_json_is_one_object_and_exit_130(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from paperless_dedupe_hook.commands import cli, maintenance

    def interrupted(*args: object, **kwargs: object) -> dict[str, object]:
        raise KeyboardInterrupt

    monkeypatch.setattr(maintenance, "status", interrupted)  # where a Ctrl-C lands: inside the command
    monkeypatch.setenv("PAPERLESS_DEDUPE_CONFIG", "/dev/null")
    monkeypatch.setenv("PAPERLESS_DEDUPE_INDEX", str(tmp_path / "index.sqlite3"))
    assert cli.main(["-q", "status", "--json"]) == 130
    assert json.loads(capsys.readouterr().out) == {"error": "interrupted (Ctrl-C)", "exit_code": 130}
