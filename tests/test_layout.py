"""The package's folders are its layers; imports run downwards only, never in a circle.

Every ``import`` statement of the package is read with ``ast`` (also those inside
functions: a lazy import is still a dependency), resolved to a module of the package,
and checked against the layering of README's "How it works":

    core/       pure; imports nothing of the package outside core/
    index/      core (and the leaf modules _errors, __init__)
    paperless/  core (and the leaf modules)
    top level   core, index, paperless and each other (the application layer)
    commands/   anything
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = "paperless_dedupe_hook"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE
LEAVES = {PACKAGE, f"{PACKAGE}._errors"}  # no imports of their own: usable from every layer but core
# What core/ may import besides itself and the standard library.
CORE_THIRD_PARTY = {"numpy", "rapidfuzz"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _resolve(importer: str, is_package: bool, node: ast.ImportFrom | ast.Import, known: set[str]) -> list[str]:
    """The package modules (or, for third-party imports, top-level names) one statement imports."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = importer.split(".")
        if not is_package:
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        stem = ".".join(base + ([node.module] if node.module else []))
    else:
        stem = node.module or ""
    out = []
    for alias in node.names:
        candidate = f"{stem}.{alias.name}"
        out.append(candidate if candidate in known else stem)
    return out


def import_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(package module -> package modules it imports, package module -> outside top-level names)."""
    modules = _modules()
    known = set(modules)
    inner: dict[str, set[str]] = {m: set() for m in modules}
    outer: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for target in _resolve(name, path.name == "__init__.py", node, known):
                if target == PACKAGE or target.startswith(PACKAGE + "."):
                    if target not in known:  # the C kernel: an extension module, no source here
                        continue
                    if target != name:
                        inner[name].add(target)
                else:
                    outer[name].add(target.split(".")[0])
    return inner, outer


def layer(module: str) -> str:
    parts = module.split(".")
    if module in LEAVES:
        return "leaf"
    if len(parts) > 2 or (len(parts) == 2 and parts[1] in {"core", "index", "paperless", "commands"}):
        return parts[1]
    return "app"


# Which layers each layer may import (besides itself).
ALLOWED = {
    "leaf": set(),
    "core": set(),
    "index": {"core", "leaf"},
    "paperless": {"core", "leaf"},
    "app": {"core", "index", "paperless", "leaf"},
    "commands": {"core", "index", "paperless", "app", "leaf"},
}


def layering_violations(inner: dict[str, set[str]]) -> list[str]:
    bad = []
    for module, targets in inner.items():
        for target in targets:
            # A subpackage's __init__ importing nothing is fine; a module importing its own
            # package's __init__ is importing upwards only when that __init__ is another layer.
            mine, theirs = layer(module), layer(target)
            if theirs != mine and theirs not in ALLOWED[mine]:
                bad.append(f"{module} ({mine}) imports {target} ({theirs})")
    return sorted(bad)


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules, or None (iterative DFS, three colours)."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(graph, WHITE)
    for start in sorted(graph):
        if colour[start] != WHITE:
            continue
        stack: list[tuple[str, list[str]]] = [(start, sorted(graph[start]))]
        path = [start]
        colour[start] = GREY
        while stack:
            node, todo = stack[-1]
            if not todo:
                colour[node] = BLACK
                stack.pop()
                path.pop()
                continue
            nxt = todo.pop()
            if colour.get(nxt, BLACK) == GREY:
                return path[path.index(nxt):] + [nxt]
            if colour.get(nxt) == WHITE:
                colour[nxt] = GREY
                path.append(nxt)
                stack.append((nxt, sorted(graph[nxt])))
    return None


def test_the_package_has_the_four_layer_folders() -> None:
    for folder in ("core", "index", "paperless", "commands"):
        assert (ROOT / folder / "__init__.py").is_file(), folder
    # Nothing but the application layer stays at the top.
    top = {p.stem for p in ROOT.glob("*.py")}
    assert top == {"__init__", "_errors", "config", "config_file", "config_keys", "config_paths", "drift", "engine",
                   "envnames", "guards", "hook", "indexfile", "keepers", "pending", "picturepairs", "pictures", "rebuild", "regexcache",
                   "resolution", "resolve", "sources", "undo"}


def test_imports_run_downwards_only() -> None:
    inner, _ = import_graph()
    assert layering_violations(inner) == []


def test_there_is_no_import_cycle() -> None:
    inner, _ = import_graph()
    assert find_cycle(inner) is None


def test_core_imports_only_the_standard_library_numpy_and_rapidfuzz() -> None:
    _, outer = import_graph()
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for module, names in outer.items():
        if layer(module) == "core":
            assert names - stdlib - CORE_THIRD_PARTY == set(), module


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        pytest.param({"a": {"b"}, "b": {"c"}, "c": set()}, None, id="chain"),
        pytest.param({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"], id="three-cycle"),
        pytest.param({"a": {"a2"}, "a2": set(), "x": {"y"}, "y": {"x"}}, ["x", "y", "x"], id="two-cycle"),
    ],
)
def test_find_cycle_sees_a_cycle(graph: dict[str, set[str]], expected: list[str] | None) -> None:
    assert find_cycle(graph) == expected


def test_the_checks_catch_an_upward_import() -> None:
    # The checker itself must be able to fail: an index module importing the config (app
    # layer) and a core module importing the index are both reported.
    graph = {
        f"{PACKAGE}.index.sqlite": {f"{PACKAGE}.config"},
        f"{PACKAGE}.core.text": {f"{PACKAGE}.index.sqlite"},
        f"{PACKAGE}.paperless.client": {f"{PACKAGE}.index.sqlite"},
        f"{PACKAGE}.commands.cli": {f"{PACKAGE}.hook"},
        f"{PACKAGE}.config": set(),
        f"{PACKAGE}.hook": set(),
    }
    assert layering_violations(graph) == [
        f"{PACKAGE}.core.text (core) imports {PACKAGE}.index.sqlite (index)",
        f"{PACKAGE}.index.sqlite (index) imports {PACKAGE}.config (app)",
        f"{PACKAGE}.paperless.client (paperless) imports {PACKAGE}.index.sqlite (index)",
    ]
