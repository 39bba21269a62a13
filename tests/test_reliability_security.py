"""Security (issue item 7): the token never appears in any output; config files are
0600 and a readable one holding a token warns; TLS is verified by default; no shell.

The canary token of tests/reliability_support.py is what every reliability test
uses; ``canary_guard`` checks every output they recorded at the end of the session.
Here the outputs most likely to leak it are produced on purpose.  (The HTML report's
escaping has its own test in tests/test_report_html.py.)
"""

from __future__ import annotations

import ast
import http.server
import json
import os
import ssl
import stat
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.reliability_support import (
    CANARY,
    CLI,
    HOOK,
    ROOT,
    assert_nothing_deleted,
    base_env,
    canary_guard,  # noqa: F401 - session fixture: the token never appears in any output
    corpus,
    new_fake,
    outputs,
    record,
    record_file,
    run,
    run_cli,
    run_hook,
    run_parallel,
)
from tests.tooling import missing


def test_token_appears_in_no_output_of_any_command(tmp_path: Path) -> None:
    lib = corpus(808, documents=30, pairs=3)
    fake = new_fake()
    try:
        fake.add_documents(lib.docs)
        cfg = tmp_path / "config.toml"
        cfg.write_text(f'[paperless]\nurl = "{fake.url}"\ntoken = "{CANARY}"\n')
        cfg.chmod(0o600)
        env = base_env(tmp_path, url=None, token=None, PAPERLESS_DEDUPE_CONFIG=str(cfg))
        report, html = tmp_path / "report.json", tmp_path / "report.html"
        assert run([CLI, "rebuild-index", "--annotate", "--report", str(report)], env=env).returncode == 0
        a, b = lib.groups[0]
        outs = run_parallel([
            ([CLI, "config", "show"], env, "config show"),
            ([CLI, "config", "show", "--json"], env, "config show --json"),
            ([CLI, "status", "--json"], env, "status --json"),
            ([CLI, "-v", "check", str(b), "--json"], env, "check --json"),
            ([CLI, "doctor"], env, "doctor"),
            ([CLI, "report", "--html", str(html)], env, "report --html"),
            ([HOOK], {**env, "DOCUMENT_ID": str(b), "PAPERLESS_DEDUPE_VERBOSE": "1"}, "verbose hook"),
        ])
        assert [o.returncode for o in outs] == [0, 0, 0, 1, 0, 0, 0], [o.stderr for o in outs]
        shown = json.loads(outs[1].stdout)
        assert shown["paperless"]["token"] and CANARY not in shown["paperless"]["token"]
        for path in (report, html, cfg.with_name("index.sqlite3"), tmp_path / "index.sqlite3"):
            record_file(path)
        # The token refused: every error path that talks about the token.
        wrong = new_fake(token="another0token0than0the0canary0000000000")
        try:
            wrong.add_documents(lib.docs)
            bad = {**env, "PAPERLESS_DEDUPE_URL": wrong.url}
            refused = run_parallel([
                ([HOOK], {**bad, "DOCUMENT_ID": str(b)}, "hook, token refused"),
                ([HOOK], {**bad, "DOCUMENT_ID": str(b), "PAPERLESS_DEDUPE_HOOK_STRICT": "true"}, "strict hook, refused"),
                ([CLI, "check", str(b)], bad, "check, token refused"),
                ([CLI, "doctor"], bad, "doctor, token refused"),
                ([CLI, "rebuild-index"], bad, "rebuild, token refused"),
            ])
            assert [o.returncode for o in refused][:3] == [0, 4, 4]
            assert all("refused" in o.stderr + o.stdout for o in refused), [o.stderr for o in refused]
            assert not wrong.requests_for("DELETE")
        finally:
            wrong.stop()
        assert_nothing_deleted(fake)
    finally:
        fake.stop()
    assert all(CANARY not in text for _label, text in outputs())


def test_token_not_in_an_in_process_failure(monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    """An httpx error carries the request, and so the Authorization header: the
    hook's line must come from its name and text only.  Checked with capfd (fd level)."""
    import httpx

    from paperless_dedupe_hook import hook

    def explode(self: httpx.Client, method: str, url: str, **kw: object) -> httpx.Response:
        request = self.build_request(method, url)
        raise httpx.ConnectError(f"failed for {request.headers!r} {dict(request.headers)}", request=request)

    monkeypatch.setattr(httpx.Client, "request", explode)
    for key in [k for k in os.environ if k.startswith(("PAPERLESS_", "DOCUMENT_"))]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv("PAPERLESS_DEDUPE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("PAPERLESS_DEDUPE_TOKEN", CANARY)
    monkeypatch.setenv("PAPERLESS_DEDUPE_INDEX", str(tmp_path / "i.sqlite3"))
    monkeypatch.setenv("DOCUMENT_ID", "3")
    monkeypatch.setattr("paperless_dedupe_hook.paperless.client.time.sleep", lambda s: None)
    assert hook.main() == 0
    out, err = capfd.readouterr()
    record("in-process hook with an exploding transport (stdout)", out)
    record("in-process hook with an exploding transport (stderr)", err)
    assert "unreachable" in err and len(err.strip().splitlines()) == 1


def test_config_files_are_written_0600(tmp_path: Path) -> None:
    cfg = tmp_path / "cfg" / "config.toml"
    env = base_env(tmp_path, PAPERLESS_DEDUPE_CONFIG=str(cfg))
    # umask 000: the mode must come from how the file is created, not from the umask
    out = subprocess.run([CLI, "config", "init"], env=env, capture_output=True, text=True, umask=0, timeout=60)
    record("config init", out.stdout + out.stderr)
    assert out.returncode == 0, out.stderr
    assert stat.S_IMODE(cfg.stat().st_mode) == 0o600
    cfg.chmod(0o644)  # someone loosened it; 'tune --write' rewrites it
    out = subprocess.run([CLI, "tune", "--write"], env=env, capture_output=True, text=True, umask=0, timeout=60)
    record("tune --write", out.stdout + out.stderr)
    assert out.returncode == 0, out.stderr
    assert stat.S_IMODE(cfg.stat().st_mode) == 0o600
    assert "num_bands" in cfg.read_text()


@pytest.mark.parametrize("mode", [0o640, 0o604])
def test_a_readable_config_holding_a_token_warns(tmp_path: Path, mode: int) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[paperless]\ntoken = "{CANARY}"\nurl = "http://127.0.0.1:9"\n')
    cfg.chmod(mode)
    env = base_env(tmp_path, token=None, PAPERLESS_DEDUPE_CONFIG=str(cfg))
    # A deadline the start of the hook meets on a busy machine too (the warning comes first).
    hook, status = run_parallel([([HOOK], {**env, "DOCUMENT_ID": "5", "PAPERLESS_DEDUPE_HOOK_TIMEOUT_SECONDS": "10"},
                                  "hook, readable config"),
                                 ([CLI, "status"], env, "status, readable config")])
    assert hook.returncode == 0 and f"chmod 600 {cfg}" in hook.stderr
    assert status.returncode == 0 and f"chmod 600 {cfg}" in status.stderr
    cfg.chmod(0o600)
    quiet = run_cli(tmp_path, None, "status", PAPERLESS_DEDUPE_CONFIG=str(cfg))
    assert "chmod" not in quiet.stderr


@pytest.fixture(scope="module")
def https_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A self-signed HTTPS server answering 404 JSON to everything."""
    base = tmp_path_factory.mktemp("tls")
    key, cert = base / "key.pem", base / "cert.pem"
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                           "-out", str(cert), "-subj", "/CN=127.0.0.1", "-days", "1"],
                          capture_output=True, timeout=60)
    if made.returncode != 0:
        missing(f"openssl cannot make a test certificate: {made.stderr[-300:]!r}")

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            body = b'{"detail": "Not found."}'
            self.send_response(404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"https://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_tls_is_verified_by_default(https_server: str, tmp_path: Path) -> None:
    from paperless_dedupe_hook import config

    assert config.KEY_BY_NAME["paperless.verify_tls"].default is True
    verified = run_hook(tmp_path, None, 5, url=https_server)
    assert verified.returncode == 0
    line = verified.stderr.strip()
    assert "certificate" in line.lower() and "paperless.verify_tls" in line, line
    assert "attempts" not in line  # a certificate fails the same way again: not retried
    trusting = run_hook(tmp_path, None, 5, url=https_server, PAPERLESS_DEDUPE_PAPERLESS_VERIFY_TLS="false")
    assert trusting.returncode == 0 and "404" in trusting.stderr, trusting.stderr  # the handshake went through


def _calls(tree: ast.AST) -> Iterator[tuple[str, ast.Call]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = (f"{func.value.id}.{func.attr}" if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                    else func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
            yield name, node


def test_no_shell_is_ever_invoked() -> None:
    forbidden = {"os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput", "pty.spawn",
                 "os.execl", "os.execlp", "os.execle", "os.execv", "os.execvp", "os.execvpe", "os.spawnl",
                 "os.spawnlp", "os.spawnv", "os.spawnvp", "os.posix_spawn", "os.posix_spawnp"}
    found = []
    sources = sorted((ROOT / "paperless_dedupe_hook").rglob("*.py"))
    assert len(sources) > 10
    for path in sources:
        source = path.read_text(encoding="utf-8")
        assert "shell=True" not in source.replace(" ", ""), path
        for name, call in _calls(ast.parse(source)):
            if name in forbidden:
                found.append(f"{path.name}:{call.lineno} {name}")
            for kw in call.keywords:
                if kw.arg == "shell" and not (isinstance(kw.value, ast.Constant) and kw.value.value is False):
                    found.append(f"{path.name}:{call.lineno} shell={ast.unparse(kw.value)}")
    assert not found, found
