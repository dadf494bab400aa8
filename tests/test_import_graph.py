"""The floors of the house, read from the source: who may import whom.

Every module of ours is parsed (never imported) and every import in it counted, at the
top, inside functions and under ``TYPE_CHECKING`` alike: an import hidden in a function
is still a dependency.  The rules:

- ``engine`` imports nothing of ours; its rules modules never import the simulator
  (``engine.sim``), which is built on them;
- ``parser`` imports only ``engine``; ``analysis`` never Streamlit;
- no import cycle among our modules;
- no ``importlib`` (or ``__import__``) look-up of our own modules: a dependency is written
  as an import, where readers and mypy see it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.paths import REPOSITORY

PACKAGES = ("engine", "parser", "analysis", "ui", "benchmarks", "tests")
SCRIPTS = ("app", "cli", "compiled")
OURS = (*PACKAGES, *SCRIPTS)
DYNAMIC = {"import_module", "__import__", "find_spec", "spec_from_file_location", "reload"}


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    tree: ast.Module


def modules(root: Path) -> dict[str, Module]:
    """Every module of ours under ``root`` (product, benchmarks, tests), by dotted name."""
    found: dict[str, Module] = {}
    paths = [
        path
        for package in PACKAGES
        if (root / package).is_dir()
        for path in sorted((root / package).rglob("*.py"))
    ]
    paths += [root / f"{script}.py" for script in SCRIPTS if (root / f"{script}.py").exists()]
    for path in paths:
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(parts)
        found[name] = Module(name, path, ast.parse(path.read_text(encoding="utf-8")))
    return found


def imported(module: Module, known: set[str]) -> set[str]:
    """The modules of ours that ``module`` imports (``from a import b`` names ``a.b`` when
    that is a module, else ``a``)."""
    package = module.name if module.path.name == "__init__.py" else module.name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.add(_ours(alias.name, known))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                out.add(full if full in known else _ours(base, known))
    out.discard("")
    out.discard(module.name)
    return out


def _ours(name: str, known: set[str]) -> str:
    """The longest known module ``name`` is or lies in, or "" when it is not ours."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return ""


def graph(root: Path) -> dict[str, set[str]]:
    found = modules(root)
    known = set(found)
    return {name: imported(module, known) for name, module in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that import one another round (Tarjan's strongly connected
    components of more than one module), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:  # iterative: no recursion limit on a long chain
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

    for name in sorted(edges):
        if name not in index:
            visit(name)
    return sorted(found)


def dynamic_imports(module: Module) -> list[str]:
    """Each look-up by name of a module of ours (or of a name only known when it runs)."""
    out = []
    for node in ast.walk(module.tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if called not in DYNAMIC:
            continue
        first = node.args[0] if node.args else None
        named = first.value if isinstance(first, ast.Constant) else None
        if isinstance(named, str) and named.split(".")[0] not in OURS:
            continue  # an outside module: not one of our dependencies hidden
        out.append(f"{module.name}:{node.lineno} {called}")
    return out


def layer_breaks(edges: dict[str, set[str]]) -> list[str]:
    """Each import that goes against the floors (see the module's text)."""
    out = []
    for name, targets in sorted(edges.items()):
        top = name.split(".")[0]
        for target in sorted(targets):
            floor = target.split(".")[0]
            wrong = (
                (top == "engine" and floor != "engine")
                or (top == "parser" and floor not in ("engine", "parser"))
                or (top == "analysis" and floor in ("ui", "app", "cli"))
                or (
                    top == "engine"
                    and not name.startswith("engine.sim")
                    and (target == "engine.sim" or target.startswith("engine.sim."))
                )
            )
            if wrong:
                out.append(f"{name} -> {target}")
    return out


def streamlit_in_analysis(root: Path) -> list[str]:
    out = []
    for name, module in modules(root).items():
        if not name.startswith("analysis"):
            continue
        for node in ast.walk(module.tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            out += [f"{name} imports {n}" for n in names if n.split(".")[0] == "streamlit"]
    return out


# ------------------------------------------------------------------ the tree as it is
@pytest.mark.slow
def test_the_engine_rules_never_import_the_simulator_and_the_floors_hold() -> None:
    edges = graph(REPOSITORY)
    assert "engine.sim.dealer" in edges and "engine.replay" in edges  # the walk saw both
    assert "engine.state" in edges["engine.sim.dealer"]  # the simulator is built on rules
    assert layer_breaks(edges) == []
    assert streamlit_in_analysis(REPOSITORY) == []


@pytest.mark.slow
def test_no_import_cycle_among_our_modules() -> None:
    edges = graph(REPOSITORY)
    assert len(edges) > 100  # every package was walked, subpackages included
    assert cycles(edges) == []


@pytest.mark.slow
def test_no_importlib_look_up_of_our_own_modules() -> None:
    found = [hit for module in modules(REPOSITORY).values() for hit in dynamic_imports(module)]
    assert found == []


# ------------------------------------------------------------------ the checks can fail
def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_cycle_through_a_function_level_import_is_found(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "analysis/__init__.py": "",
            "analysis/storage/__init__.py": "",
            "analysis/storage/db.py": "def f():\n    from analysis.pipeline import importer\n",
            "analysis/pipeline/__init__.py": "",
            "analysis/pipeline/importer.py": "from analysis.storage.db import f\n",
            "analysis/pipeline/writer.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                "    from analysis.pipeline.reader import R\n"
            ),
            "analysis/pipeline/reader.py": "from . import writer\n",
            "engine/__init__.py": "",
            "engine/cards.py": "",
        },
    )
    assert cycles(graph(root)) == [
        ["analysis.pipeline.importer", "analysis.storage.db"],
        ["analysis.pipeline.reader", "analysis.pipeline.writer"],
    ]


def test_a_rules_module_importing_the_simulator_is_found(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "engine/__init__.py": "",
            "engine/state.py": "def deal():\n    from engine.sim import deck\n",
            "engine/replay.py": "import engine.sim.dealer as d\n",
            "engine/sim/__init__.py": "",
            "engine/sim/deck.py": "from engine import state\n",
            "engine/sim/dealer.py": "from engine.sim.deck import D\nimport analysis.storage.db\n",
            "analysis/__init__.py": "",
            "analysis/storage/__init__.py": "",
            "analysis/storage/db.py": "import streamlit as st\n",
            "parser/__init__.py": "",
            "parser/boss.py": "from analysis.storage import db\n",
        },
    )
    assert layer_breaks(graph(root)) == [
        "engine.replay -> engine.sim.dealer",
        "engine.sim.dealer -> analysis.storage.db",
        "engine.state -> engine.sim.deck",
        "parser.boss -> analysis.storage.db",
    ]
    assert streamlit_in_analysis(root) == ["analysis.storage.db imports streamlit"]


def test_an_importlib_look_up_of_ours_is_found_and_of_others_is_not(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "analysis/__init__.py": "",
            "analysis/storage/__init__.py": "",
            "analysis/storage/db.py": (
                "import importlib\n"
                "facts = importlib.import_module('analysis.statistics.facts')\n"
                "pa = importlib.import_module('pyarrow')\n"
                "name = 'engine.sim.dealer'\n"
                "dealer = __import__(name)\n"
                "from importlib.util import find_spec\n"
                "spec = find_spec('parser.reader')\n"
            ),
        },
    )
    found = [hit for module in modules(root).values() for hit in dynamic_imports(module)]
    assert found == [
        "analysis.storage.db:2 import_module",
        "analysis.storage.db:5 __import__",
        "analysis.storage.db:7 find_spec",
    ]
