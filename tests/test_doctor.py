"""``paperless-dedupe doctor`` as a user runs it: the installed console script in a
subprocess, against the fake Paperless over loopback HTTP, with a real index file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fake_paperless import MODELS, FakePaperless

CLI = shutil.which("paperless-dedupe") or str(Path(sys.executable).parent / "paperless-dedupe")
ALL_PERMS = [f"{a}_{m}" for m in MODELS for a in ("add", "change", "delete", "view")]


def _env(url: str, token: str, tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_", "DOCUMENT_"))}
    env.update({
        "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data"),
        "PAPERLESS_DEDUPE_URL": url, "PAPERLESS_DEDUPE_TOKEN": token,
        "PAPERLESS_DEDUPE_INDEX": str(tmp_path / "index.sqlite3"),
    })
    env.update(extra)
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *args], env=env, cwd="/", capture_output=True, text=True, timeout=120)


def doctor(fake: FakePaperless, tmp_path: Path, *, token: str | None = None, **extra: str) -> subprocess.CompletedProcess[str]:
    return run(["doctor"], _env(fake.url, fake.token if token is None else token, tmp_path, **extra))


def lines(proc: subprocess.CompletedProcess[str], status: str) -> list[str]:
    return [line for line in proc.stdout.splitlines() if line.startswith(status + " ")]


def write_jsonl(path: Path) -> Path:
    words = ("the quarterly maintenance contract covers inspection of the heating system cleaning of the burner "
             "replacement of worn seals and a written report for the landlord within fourteen days").split()
    original = " ".join(words) + " Invoice number 4711 total 312.50 EUR due 2026-10-15."
    rescan = original.replace("inspection", "lnspection").replace("written", "wrltten")
    other = ("Dear members, the garden club meets on Saturday to plant tulips along the north fence, "
             "bring gloves, spades and a thermos of tea; afterwards we share soup in the community hall "
             "and discuss the autumn programme, the seed swap and the new compost bins.")
    docs = [{"id": 1, "title": "Heating invoice", "content": original},
            {"id": 2, "title": "heating-invoice-rescan", "content": rescan},
            {"id": 3, "title": "Garden club letter", "content": other}]
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return path


def test_fresh_setup_with_superuser_token_passes(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    proc = doctor(fake_paperless, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert not lines(proc, "FAIL")
    assert "creatable" in out and "will be created" in out
    assert any("possible-duplicate" in line for line in lines(proc, "ok"))
    assert any("Possible duplicates" in line for line in lines(proc, "ok"))
    assert any("not built yet" in line and "rebuild-index" in line for line in lines(proc, "warn"))
    assert "3.0.5" in out and "API version 10" in out and "superuser" in out
    assert any(line.startswith("ok    LSH config: num_perm=256") for line in out.splitlines())
    assert fake_paperless.token not in proc.stdout + proc.stderr
    # doctor changes nothing
    assert not [r for r in fake_paperless.requests if r.method != "GET"]
    assert not fake_paperless.tags and not fake_paperless.custom_fields


def test_config_file_readable_by_others_warns(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[paperless]\nurl = "{fake_paperless.url}"\ntoken = "{fake_paperless.token}"\n', encoding="utf-8")
    path.chmod(0o644)
    env = _env(fake_paperless.url, "", tmp_path, PAPERLESS_DEDUPE_CONFIG=str(path))
    del env["PAPERLESS_DEDUPE_TOKEN"]
    proc = run(["doctor"], env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"ok    config file {path}: found" in proc.stdout
    assert any("chmod 600" in line for line in lines(proc, "warn"))
    assert fake_paperless.token not in proc.stdout + proc.stderr


def test_refused_token(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    wrong = "not0the0right0token000000000000000000000"
    proc = doctor(fake_paperless, tmp_path, token=wrong)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    fails = lines(proc, "FAIL")
    assert len(fails) == 1 and "refused the token" in fails[0]
    assert "PAPERLESS_DEDUPE_TOKEN" in fails[0]
    assert wrong not in proc.stdout + proc.stderr


def test_no_token_is_a_config_error(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    proc = doctor(fake_paperless, tmp_path, token="")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert any("no Paperless API token" in line for line in lines(proc, "FAIL"))


def test_server_down(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    fake_paperless.stop()
    proc = doctor(fake_paperless, tmp_path)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    fails = lines(proc, "FAIL")
    assert len(fails) == 1
    assert fake_paperless.url in fails[0] and "check paperless.url" in fails[0]
    assert fake_paperless.token not in proc.stdout + proc.stderr


@pytest.mark.parametrize("fake_paperless", [
    {"is_superuser": False, "username": "clerk",
     "permissions": [p for p in ALL_PERMS if p not in ("change_document", "add_tag")]},
], indirect=True)
def test_user_without_change_document(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    proc = doctor(fake_paperless, tmp_path)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    fails = lines(proc, "FAIL")
    perm = [line for line in fails if line.startswith("FAIL  permission ")]
    assert len(perm) == 1 and "clerk" in perm[0] and perm[0].startswith("FAIL  permission change_document")
    assert any(line.startswith("ok    permission view_document") for line in lines(proc, "ok"))
    # the tag does not exist and may not be created; the field may be
    assert any("possible-duplicate" in line and "add_tag" in line for line in fails)
    assert any("Possible duplicates" in line and "will be created" in line for line in lines(proc, "ok"))


@pytest.mark.parametrize("fake_paperless", [
    {"is_superuser": False, "permissions": ["view_document", "change_document", "view_note", "add_note",
                                             "view_tag", "view_customfield"]},
], indirect=True)
def test_existing_tag_and_field_need_no_add_permission(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    tag = fake_paperless.add_tag("possible-duplicate", owner=None)
    field = fake_paperless.add_custom_field("Possible duplicates", "documentlink")
    proc = doctor(fake_paperless, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"present (id {tag['id']})" in proc.stdout
    assert f"present (id {field['id']}, documentlink)" in proc.stdout


def test_case_variant_tags_warn_and_wrong_field_type_fails(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    fake_paperless.add_tag("possible-duplicate", owner=None)
    fake_paperless.add_tag("Possible-Duplicate", owner=None)
    fake_paperless.add_custom_field("Possible duplicates", "string")
    proc = doctor(fake_paperless, tmp_path)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert any("possible-duplicate" in line and "case" in line for line in lines(proc, "warn"))
    fails = lines(proc, "FAIL")
    assert len(fails) == 1 and "Possible duplicates" in fails[0] and "'string'" in fails[0]


def test_index_built_with_other_parameters_fails(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    env = _env(fake_paperless.url, fake_paperless.token, tmp_path)
    built = run(["rebuild-index", "--from-jsonl", str(write_jsonl(tmp_path / "docs.jsonl"))], env)
    assert built.returncode == 0, built.stdout + built.stderr

    good = doctor(fake_paperless, tmp_path)
    assert good.returncode == 0, good.stdout + good.stderr
    index_line = next(line for line in lines(good, "ok") if line.startswith("ok    index "))
    assert "3 documents" in index_line and "last rebuild" in index_line and "matches the config" in index_line

    other = doctor(fake_paperless, tmp_path, PAPERLESS_DEDUPE_DETECTION_NGRAM_SIZE="4")
    assert other.returncode == 5, other.stdout + other.stderr
    fails = lines(other, "FAIL")
    assert len(fails) == 1 and "ngram_size" in fails[0] and "rebuild-index" in fails[0]


def test_corrupt_index_fails(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    (tmp_path / "index.sqlite3").write_bytes(b"this is not a database" * 100)
    proc = doctor(fake_paperless, tmp_path)
    assert proc.returncode == 5, proc.stdout + proc.stderr
    fails = lines(proc, "FAIL")
    assert len(fails) == 1 and "index" in fails[0] and "rebuild-index" in fails[0]


def test_threshold_change_names_the_setting_not_bands(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    env = _env(fake_paperless.url, fake_paperless.token, tmp_path)
    assert run(["rebuild-index", "--from-jsonl", str(write_jsonl(tmp_path / "docs.jsonl"))], env).returncode == 0
    proc = doctor(fake_paperless, tmp_path, PAPERLESS_DEDUPE_DETECTION_SIMILARITY_THRESHOLD="0.9")
    assert proc.returncode == 5, proc.stdout + proc.stderr
    fails = lines(proc, "FAIL")
    assert len(fails) == 1
    assert "detection.similarity_threshold changed from 0.75 to 0.9" in fails[0]
    assert "detection.lsh_threshold = 0.4" in fails[0]


def _wrapper_install(home: Path) -> Path:
    """What install-dedupe.sh leaves: the wrapper, a venv with the hook, a config."""
    hook = home / "venv" / "bin" / "paperless-dedupe-hook"
    hook.parent.mkdir(parents=True)
    hook.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    hook.chmod(0o755)
    wrapper = home / "post-consume.sh"
    shutil.copy(Path(__file__).resolve().parent.parent / "scripts" / "post-consume.sh", wrapper)
    (home / "config.toml").write_text(f'[index]\npath = "{home / "index.sqlite3"}"\n', encoding="utf-8")
    (home / "config.toml").chmod(0o600)
    return wrapper


def test_cli_and_wrapper_with_different_files_warn(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    """The README's old recipe: the wrapper finds the data volume's config, the CLI its home's."""
    wrapper = _wrapper_install(tmp_path / "volume" / "dedupe")
    env = _env(fake_paperless.url, fake_paperless.token, tmp_path, PAPERLESS_POST_CONSUME_SCRIPT=str(wrapper))
    del env["PAPERLESS_DEDUPE_INDEX"]
    proc = run(["doctor"], env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    warns = [line for line in lines(proc, "warn") if "post-consume script" in line]
    assert len(warns) == 1
    assert str(wrapper) in warns[0] and str(tmp_path / "volume" / "dedupe" / "index.sqlite3") in warns[0]
    assert "PAPERLESS_DATA_DIR" in warns[0]

    # One rule for both: PAPERLESS_DATA_DIR names the volume, the CLI finds the wrapper's files.
    same = run(["doctor"], env | {"PAPERLESS_DATA_DIR": str(tmp_path / "volume")})
    assert same.returncode == 0, same.stdout + same.stderr
    assert not [line for line in lines(same, "warn") if "post-consume script" in line]
    assert any("post-consume script" in line and "same config" in line for line in lines(same, "ok"))


def test_misspelt_variable_is_one_warn_line(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    proc = doctor(fake_paperless, tmp_path, PAPERLESS_DEDUPE_TOKN="x")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    hits = [line for line in (proc.stdout + proc.stderr).splitlines() if "PAPERLESS_DEDUPE_TOKN" in line]
    assert len(hits) == 1 and hits[0].startswith("warn ") and "did you mean PAPERLESS_DEDUPE_TOKEN?" in hits[0]


def _limited(fake: FakePaperless, *, permissions: list[str]) -> None:
    """Three documents of the admin (id 2), the one of ``write_jsonl``'s; the token's user
    owns none of them but document 3, and the tag and field exist."""
    for doc_id in (1, 2, 3):
        fake.add_document(id=doc_id, content=f"document {doc_id} " * 30, owner=2)
    fake.add_tag("possible-duplicate", owner=None)
    fake.add_custom_field("Possible duplicates", "documentlink")
    fake.limit_user(permissions=permissions, owned=[3])


def test_limited_user_each_permission_listed_and_fewer_documents_warned(fake_paperless: FakePaperless,
                                                                          tmp_path: Path) -> None:
    _limited(fake_paperless, permissions=["view_document", "view_note", "view_tag", "view_customfield",
                                          "view_uisettings"])
    env = _env(fake_paperless.url, fake_paperless.token, tmp_path)
    built = run(["rebuild-index", "--from-jsonl", str(write_jsonl(tmp_path / "docs.jsonl"))], env)
    assert built.returncode == 0, built.stdout + built.stderr
    proc = doctor(fake_paperless, tmp_path)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    fails = lines(proc, "FAIL")
    assert [line.split(" (")[0] for line in fails] == ["FAIL  permission change_document", "FAIL  permission add_note"]
    assert all("missing for user viewer" in line for line in fails)
    assert [line.split(" (")[0] for line in lines(proc, "ok") if line.startswith("ok    permission ")] == [
        "ok    permission view_document", "ok    permission view_note", "ok    permission view_tag",
        "ok    permission view_customfield"]
    warned = [line for line in lines(proc, "warn") if line.startswith("warn  documents:")]
    assert len(warned) == 1 and "user viewer sees 1 documents in Paperless, the index holds 3" in warned[0]
    assert "superuser" in warned[0]


def test_without_view_uisettings_doctor_probes_read_only(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    _limited(fake_paperless, permissions=["view_document", "change_document", "view_note", "add_note"])
    proc = doctor(fake_paperless, tmp_path)
    out = proc.stdout
    assert proc.returncode == 4, out + proc.stderr
    assert "ok    token: accepted" in out
    assert any("lacks view_uisettings" in line for line in lines(proc, "warn"))
    assert any(line.startswith("ok    permission view_document") for line in lines(proc, "ok"))
    assert any(line.startswith("ok    permission view_note") for line in lines(proc, "ok"))
    for codename in ("change_document", "add_note"):
        assert any(line.startswith(f"warn  permission {codename}") and "not checked" in line
                   for line in lines(proc, "warn")), codename
    fails = lines(proc, "FAIL")
    assert any(line.startswith("FAIL  permission view_tag") for line in fails)
    assert any(line.startswith("FAIL  permission view_customfield") for line in fails)
    assert "all checks passed" not in out
    # read-only: nothing but GETs
    assert {r.method for r in fake_paperless.requests} == {"GET"}


def test_a_user_who_sees_no_document_is_warned_even_without_an_index(fake_paperless: FakePaperless,
                                                                      tmp_path: Path) -> None:
    for doc_id in (1, 2, 3):
        fake_paperless.add_document(id=doc_id, content=f"document {doc_id} " * 30, owner=2)
    fake_paperless.limit_user()  # viewer: the permissions of the recording, owns nothing
    proc = doctor(fake_paperless, tmp_path)
    warned = [line for line in lines(proc, "warn") if line.startswith("warn  documents:")]
    assert len(warned) == 1 and "user viewer sees no documents in Paperless" in warned[0], proc.stdout
    # every permission is there: only the sharing is missing, which no permission list shows
    assert not [line for line in lines(proc, "FAIL") if line.startswith("FAIL  permission ")], proc.stdout


def test_resolve_permissions_are_listed(fake_paperless: FakePaperless, tmp_path: Path) -> None:
    _limited(fake_paperless, permissions=["view_document", "change_document", "view_note", "add_note", "view_tag",
                                          "view_customfield", "view_uisettings"])
    proc = doctor(fake_paperless, tmp_path)
    warned = [line for line in lines(proc, "warn") if line.startswith("warn  permission delete_document")]
    assert len(warned) == 1 and "resolve" in warned[0] and "refuses" in warned[0]
    assert any(line.startswith("ok    permission change_document") and "resolve" in line for line in lines(proc, "ok"))
    fake_paperless.permissions.append("delete_document")
    again = doctor(fake_paperless, tmp_path)
    assert any(line.startswith("ok    permission delete_document") for line in lines(again, "ok"))
