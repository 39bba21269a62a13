"""The commands shown in README.md and docs/*.md, run as shown, so that the docs cannot drift.

Every ``paperless-dedupe`` command in a code block or inline code span of the user docs
(docs/benchmarks.md aside: its commands are the measurements) is found and classified:
those that work offline are run against a throw-away home and a sample index and must exit
as documented; those that need a Paperless server are listed in ``NEEDS_PAPERLESS`` by
subcommand, so a new offline command form cannot be skipped by accident.  The summary line
the README shows for its first command must be the one the command prints.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCS = [REPO / "README.md", *sorted(p for p in (REPO / "docs").glob("*.md") if p.name != "benchmarks.md")]
CLI = shutil.which("paperless-dedupe") or str(Path(sys.executable).parent / "paperless-dedupe")
SAMPLE = REPO / "bench" / "corpus" / "sample" / "docs.jsonl"

NEEDS_PAPERLESS = {"doctor", "check", "hook", "report", "resolve", "undo"}  # and rebuild-index without --from-*
GLOBAL_WITH_VALUE = {"--config"}
# Paths the docs use inside the container or on a server, mapped into the test's directory.
HOST_PREFIXES = ("/usr/src/paperless/", "/opt/paperless/", "/tmp/")
# What a command's exit status must be, where the docs say it is not 0.
EXPECTED_EXIT = {"check": 1}


# Placeholders the docs use for document ids in prose.
PLACEHOLDERS = {"A": "12", "B": "57", "<id>": "12", "DOC_ID": "12"}


@dataclass(frozen=True)
class Shown:
    where: str  # file:line
    env: tuple[tuple[str, str], ...]
    args: tuple[str, ...]  # after "paperless-dedupe"
    block: str  # the whole code block or span it came from

    @property
    def generated_from(self) -> str | None:
        """The --out directory of a corpus generator shown in the same block, when an argument
        lies in it (the docs' measurements run on generated corpora: run here on a small one)."""
        m = re.search(r"python -m bench\.corpus\.(generate|realistic) .*?--out (\S+)", self.block)
        if m and any(a.startswith(m.group(2) + "/") for a in self.args):
            return m.group(2)
        return None

    @property
    def generator(self) -> tuple[str, str]:
        """The generator module shown with ``generated_from`` and the smallest size it takes."""
        m = re.search(r"python -m (bench\.corpus\.(generate|realistic)) ", self.block)
        module = m.group(1) if m else "bench.corpus.generate"
        # realistic needs room for a 12-120 document family of every kind
        return module, ("1000" if module.endswith("realistic") else "60")

    @property
    def bare_reference(self) -> bool:
        """``paperless-dedupe evaluate`` named in prose, without the arguments it requires:
        checked as ``evaluate --help`` (the command exists under that name)."""
        import contextlib
        import io

        from paperless_dedupe_hook.commands.cli import build_parser

        if len(self.args) != 1:
            return False
        with contextlib.redirect_stderr(io.StringIO()):
            try:
                build_parser().parse_args(list(self.args))
            except SystemExit:
                return True
        return False

    @property
    def subcommand(self) -> str:
        args = list(self.args)
        while args and args[0].startswith("-"):
            args = args[2:] if args[0] in GLOBAL_WITH_VALUE else args[1:]
        return args[0] if args else ""

    @property
    def offline(self) -> bool:
        if self.subcommand in NEEDS_PAPERLESS:
            return False
        if self.subcommand == "rebuild-index":
            return any(a in ("--from-jsonl", "--from-export") for a in self.args)
        return True


_FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.M | re.S)
_INLINE = re.compile(r"`([^`\n]*paperless-dedupe [^`\n]*)`")
_ASSIGN = re.compile(r"^[A-Z_][A-Z0-9_]*=")


def _segments(text: str) -> list[str]:
    """Shell command segments: continuation lines joined, split at && ; and |."""
    joined = re.sub(r"\\\n\s*", " ", text)
    out = []
    for line in joined.splitlines():
        line = line.split(" #", 1)[0] if not line.lstrip().startswith("#") else ""
        out += [part.strip() for part in re.split(r"&&|;|\|", line) if part.strip()]
    return out


def _parse(segment: str, where: str, block: str) -> Shown | None:
    try:
        words = shlex.split(segment)
    except ValueError:
        return None
    for i, word in enumerate(words):
        if word == "paperless-dedupe" or word.endswith("/paperless-dedupe"):
            env = tuple(tuple(w.split("=", 1)) for w in words[:i] if _ASSIGN.match(w))
            return Shown(where, env, tuple(words[i + 1:]), block)  # type: ignore[arg-type]
    return None


def shown_commands() -> list[Shown]:
    found: list[Shown] = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        spans = [(m.start(1), m.group(1)) for m in _FENCE.finditer(text)]
        spans += [(m.start(1), m.group(1)) for m in _INLINE.finditer(text)]
        for start, body in spans:
            where = f"{doc.name}:{text.count(chr(10), 0, start) + 1}"
            for segment in _segments(body):
                parsed = _parse(segment, where, body)
                if parsed is not None:
                    found.append(parsed)
    return found


COMMANDS = shown_commands()
OFFLINE = [c for c in COMMANDS if c.offline]


def test_the_docs_show_commands_of_both_kinds() -> None:
    assert len(OFFLINE) >= 6, [c.args for c in OFFLINE]
    assert {c.subcommand for c in OFFLINE} >= {"rebuild-index", "evaluate", "config", "dismiss"}
    assert {c.subcommand for c in COMMANDS if not c.offline} >= {"doctor", "rebuild-index"}


@pytest.fixture(scope="module")
def sample_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("index")
    path = home / "index.sqlite3"
    done = subprocess.run([CLI, "-q", "rebuild-index", "--from-jsonl", str(SAMPLE), "--workers", "1"],
                          env=_env(home) | {"PAPERLESS_DEDUPE_INDEX": str(path)}, cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return path


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERLESS_", "DOCUMENT_", "XDG_"))}
    return env | {"HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data")}


def _localize(arg: str, home: Path) -> str:
    for prefix in HOST_PREFIXES:
        if arg.startswith(prefix):
            local = home / "host" / arg[1:]
            local.parent.mkdir(parents=True, exist_ok=True)
            return str(local)
    return arg


@pytest.mark.parametrize("shown", [pytest.param(c, id=f"{c.where} {' '.join(c.args)}"[:90]) for c in OFFLINE])
def test_offline_command_runs_as_shown(shown: Shown, sample_index: Path, tmp_path: Path) -> None:
    index = tmp_path / "index.sqlite3"
    shutil.copy(sample_index, index)
    env = _env(tmp_path) | {"PAPERLESS_DEDUPE_INDEX": str(index)} | {k: _localize(v, tmp_path) for k, v in shown.env}
    args = list(shown.args)
    generated = shown.generated_from
    if generated:
        corpus = tmp_path / "corpus"
        module, docs = shown.generator
        subprocess.run([sys.executable, "-m", module, "--out", str(corpus), "--docs", docs,
                        "--seed", "1"], cwd=REPO, check=True, capture_output=True, timeout=300)
    args = [str(corpus) + a[len(generated):] if generated and a.startswith(generated + "/")
            else PLACEHOLDERS.get(a, _localize(a, tmp_path)) for a in args]
    assert not any(re.fullmatch(r"<[^>]*>", a) for a in args), f"{shown.where}: a placeholder in an offline command"
    if shown.bare_reference:
        args.append("--help")
    if "--config" in args:  # a config file the docs' installer would have written
        config = Path(args[args.index("--config") + 1])
        if not config.exists():
            config.write_text(f'[index]\npath = "{index}"\n', encoding="utf-8")
    done = subprocess.run([CLI, *args], env=env, cwd=REPO, capture_output=True, text=True, timeout=600)
    expected = EXPECTED_EXIT.get(shown.subcommand, 0)
    assert done.returncode == expected, f"{shown.where}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    assert "WARNING" not in done.stderr, f"{shown.where}: {done.stderr}"


def test_the_readme_shows_what_its_first_command_prints(tmp_path: Path) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    shown_lines = [line for block in _FENCE.findall(readme) for line in block.splitlines()
                   if line.startswith(("documents ", "  group #"))]
    assert shown_lines, "README shows no summary"
    first = next(c for c in OFFLINE if c.where.startswith("README.md") and c.subcommand == "rebuild-index")
    env = _env(tmp_path) | {k: _localize(v, tmp_path) for k, v in first.env}
    done = subprocess.run([CLI, *first.args], env=env, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    shown_index = dict(first.env)["PAPERLESS_DEDUPE_INDEX"]
    printed = done.stdout.replace(env["PAPERLESS_DEDUPE_INDEX"], shown_index).splitlines()
    for line in shown_lines:
        assert line in printed, f"README shows {line!r}; the command printed:\n{done.stdout}"


def test_the_auto_lsh_margin_the_docs_state_is_the_codes() -> None:
    from paperless_dedupe_hook.core.banding import AUTO_LSH_MARGIN

    texts = {p.name: p.read_text(encoding="utf-8") for p in [*DOCS, REPO / "config.example.toml"]}
    stated = [(name, float(m.group(1) or m.group(2))) for name, text in texts.items()
              for m in re.finditer(r"auto\s*=\s*similarity_threshold\s*[-−]\s*(0\.\d+)|centred (0\.\d+) under the threshold", text)]
    assert stated, "the docs no longer state the margin"
    assert all(value == AUTO_LSH_MARGIN for _, value in stated), stated
