"""The modules ``compiled.py`` names are the ones that run compiled, from the virtualenv's
build and never from beside their sources: a compiler that failed, or a list that names
a module that moved, would leave the import as slow as Python without a word (the
Makefile says so once, in a line nobody reads in CI's output).  ``DRAWLAB_PURE=1`` asks
for the sources, and then they are what runs; so does any source edited since the build,
which the finder is tested on with stand-in "compiled" modules of a package of its own."""

import importlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import analysis.statistics.facts
import analysis.statistics.hand_classes
import analysis.statistics.positions
import analysis.storage.rows
import engine.cardtrack
import engine.continuity
import engine.hand_value
import engine.pots
import engine.problems
import engine.profiles
import engine.ranking
import engine.replay
import engine.settle
import engine.state
import parser.lines
import parser.pokerstars
from compiled import (
    MODULES,
    PACKAGES,
    ROOT,
    CompiledFinder,
    folder,
    hashes,
    install,
    leftovers,
    link_data,
    module_names,
    pth_line,
    runs_compiled,
    write_manifest,
)

IMPORTED: dict[str, ModuleType] = {
    "engine/replay.py": engine.replay,
    "engine/state.py": engine.state,
    "engine/settle.py": engine.settle,
    "engine/cardtrack.py": engine.cardtrack,
    "engine/continuity.py": engine.continuity,
    "engine/ranking.py": engine.ranking,
    "engine/hand_value.py": engine.hand_value,
    "engine/pots.py": engine.pots,
    "engine/profiles.py": engine.profiles,
    "engine/problems.py": engine.problems,
    "parser/pokerstars.py": parser.pokerstars,
    "parser/lines.py": parser.lines,
    "analysis/statistics/facts.py": analysis.statistics.facts,
    "analysis/statistics/positions.py": analysis.statistics.positions,
    "analysis/statistics/hand_classes.py": analysis.statistics.hand_classes,
    "analysis/storage/rows.py": analysis.storage.rows,
}


def test_the_compiled_modules_are_the_ones_imported() -> None:
    assert list(IMPORTED) == list(MODULES)
    pure = bool(os.environ.get("DRAWLAB_PURE"))
    for path, module in IMPORTED.items():
        assert module.__file__ is not None
        assert runs_compiled(module) is not pure
        where = Path(module.__file__)
        if pure:
            assert where == ROOT / path, f"{path} runs compiled: DRAWLAB_PURE is not obeyed"
        else:
            assert where.parent == folder() / "lib" / Path(path).parent, (
                f"{path} runs as Python: run `make compiled` (DRAWLAB_PURE=1 for the sources)"
            )
            assert where.name.startswith(Path(path).stem + ".cpython-")
            assert where.suffix == ".so"


def test_no_compiled_file_is_beside_a_source() -> None:
    assert leftovers() == []


@pytest.mark.parametrize(
    ("compiled_py", "printed"),
    [
        ("def install():\n    print('installed')\n", "installed\n"),
        ("def build():\n    pass\n", ""),  # an older compiled.py: nothing, and no error
        (None, ""),  # no compiled.py at all
    ],
)
def test_the_pth_line_installs_the_finder_of_the_tree_s_compiled_py(
    tmp_path: Path, compiled_py: str | None, printed: str
) -> None:
    root, site_dir = tmp_path / "tree", tmp_path / "site"
    root.mkdir()
    site_dir.mkdir()
    if compiled_py is not None:
        (root / "compiled.py").write_text(compiled_py, encoding="utf-8")
    line = pth_line(root)
    assert line.startswith("import ") and line.count("\n") == 1  # site runs it
    (site_dir / "drawlab-compiled.pth").write_text(line, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", f"import site; site.addsitedir({str(site_dir)!r})"],
        capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": ""},
    )  # fmt: skip
    assert (run.stdout, run.stderr) == (printed, "")


PROBE = 'WHERE = "{where}"\n'


@pytest.fixture
def probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, str]]:
    """A package of its own (``drawlab_probe``, forgotten before and after) in
    ``tmp_path/tree``, with ``fast.py`` and ``other.py``, and a build of it in
    ``tmp_path/build`` whose "compiled" ``fast`` is a stand-in .py saying so; the tree on
    ``sys.path``, ``DRAWLAB_PURE`` unset, the finder removed and the package forgotten
    afterwards."""
    name = "drawlab_probe"
    forget(name)
    tree, lib = tmp_path / "tree", tmp_path / "build" / "lib"
    for top, where in ((tree, "source"), (lib, "compiled")):
        (top / name).mkdir(parents=True)
        (top / name / "fast.py").write_text(PROBE.format(where=where), encoding="utf-8")
    (tree / name / "__init__.py").write_text("", encoding="utf-8")
    (tree / name / "other.py").write_text("LIMIT = 4\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tree))
    monkeypatch.delenv("DRAWLAB_PURE", raising=False)  # a pure test run tests the finder too
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    yield tree, name
    forget(name)


def forget(name: str) -> None:
    for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[module]


def built_probe(tree: Path, name: str) -> CompiledFinder:
    where = tree.parent / "build"
    write_manifest(where, tree, hashes(tree, [name]))
    finder = install(where)
    assert finder is not None
    return finder


def where_fast(name: str) -> str:
    importlib.invalidate_caches()
    sys.modules.pop(f"{name}.fast", None)
    return str(importlib.import_module("drawlab_probe.fast").WHERE)


def test_the_build_is_served_while_its_sources_are_unchanged(
    probe: tuple[Path, str],
) -> None:
    tree, name = probe
    finder = built_probe(tree, name)
    assert sys.meta_path[0] is finder
    assert finder.files == {f"{name}.fast": f"{name}/fast.py"}
    assert finder.sources == hashes(tree, [name])
    assert sorted(finder.sources) == [f"{name}/__init__.py", f"{name}/fast.py", f"{name}/other.py"]
    assert where_fast(name) == "compiled"
    assert importlib.import_module("drawlab_probe.other").LIMIT == 4  # not built: the source


@pytest.mark.parametrize("edited", ["fast.py", "other.py"])
def test_an_edited_source_is_what_runs(probe: tuple[Path, str], edited: str) -> None:
    """Another module's edit counts too: mypyc compiles its constants into the module."""
    tree, name = probe
    built_probe(tree, name)
    (tree / name / edited).write_text(
        (tree / name / edited).read_text(encoding="utf-8") + "# edited\n", encoding="utf-8"
    )
    assert where_fast(name) == "source"


def test_a_deleted_source_sends_the_build_back_to_python(probe: tuple[Path, str]) -> None:
    tree, name = probe
    built_probe(tree, name)
    (tree / name / "other.py").unlink()
    assert where_fast(name) == "source"


def test_a_copy_of_the_sources_elsewhere_runs_as_python(
    probe: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree, name = probe
    built_probe(tree, name)
    copy = tmp_path / "copy"
    (copy / name).mkdir(parents=True)
    for file in ("__init__.py", "fast.py", "other.py"):
        (copy / name / file).write_bytes((tree / name / file).read_bytes())
    monkeypatch.syspath_prepend(str(copy))
    assert where_fast(name) == "source"


def test_drawlab_pure_installs_nothing(
    probe: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tree, name = probe
    write_manifest(tree.parent / "build", tree, hashes(tree, [name]))
    monkeypatch.setenv("DRAWLAB_PURE", "1")
    before = list(sys.meta_path)
    assert install(tree.parent / "build") is None
    assert sys.meta_path == before
    assert where_fast(name) == "source"


def test_without_a_build_nothing_is_installed(tmp_path: Path) -> None:
    before = list(sys.meta_path)
    assert install(tmp_path) is None
    assert sys.meta_path == before


def test_a_build_s_files_are_named_as_modules(tmp_path: Path) -> None:
    for name in (
        "engine/state.cpython-311-x86_64-linux-gnu.so",
        "engine/state__mypyc.cpython-311-x86_64-linux-gnu.so",
        "analysis/storage/rows.cpython-311-x86_64-linux-gnu.so",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"")
    assert module_names(tmp_path) == {
        "analysis.storage.rows": "analysis/storage/rows.cpython-311-x86_64-linux-gnu.so",
        "engine.state": "engine/state.cpython-311-x86_64-linux-gnu.so",
        "engine.state__mypyc": "engine/state__mypyc.cpython-311-x86_64-linux-gnu.so",
    }


def test_leftovers_are_compiled_files_in_the_packages_only(tmp_path: Path) -> None:
    names = (
        "engine/state.cpython-311-x86_64-linux-gnu.so",
        "analysis/storage/rows__mypyc.cpython-311-x86_64-linux-gnu.so",
        "engine/state.py",
        "ui/theme.cpython-311-x86_64-linux-gnu.so",  # not a package compiled
    )
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"")
    assert PACKAGES == ("engine", "parser", "analysis")
    assert leftovers(tmp_path) == [tmp_path / names[1], tmp_path / names[0]]


def test_a_compiled_package_s_data_folders_are_linked_not_copied(tmp_path: Path) -> None:
    """``parser/lines.py`` finds its grammars beside its ``__file__``."""
    tree, lib = tmp_path / "tree", tmp_path / "build" / "lib"
    for folder_ in ("parser/grammars", "parser/sub", "parser/__pycache__", "engine"):
        (tree / folder_).mkdir(parents=True)
    (tree / "parser/sub/__init__.py").write_text("", encoding="utf-8")
    (tree / "parser/grammars/site.lark").write_text("start: A\n", encoding="utf-8")
    (lib / "parser").mkdir(parents=True)
    (lib / "parser/lines.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    link_data(lib, tree)
    assert sorted(p.name for p in (lib / "parser").iterdir()) == [
        "grammars",
        "lines.cpython-311-x86_64-linux-gnu.so",
    ]
    assert (lib / "parser/grammars").readlink() == tree / "parser/grammars"
    assert not (lib / "engine").exists()
    assert module_names(lib) == {"parser.lines": "parser/lines.cpython-311-x86_64-linux-gnu.so"}
