"""The modules compiled to C, their build (``python compiled.py build``, the Makefile's
``make compiled``, which ``make run`` and ``make test`` call, or ``clean``) and the import
hook that serves them.

An import, ``drawlab verify`` and ``drawlab reverify`` spend their processor time in a
few modules: each hand's parse, replay, facts and rows.  Those are compiled with mypyc
(part of mypy, in the dev extra), which turns the typed Python the project already checks
with ``mypy --strict`` into C extensions; what that buys is measured in docs/scale.md.

The Python sources stay the program, and nothing compiled is written beside them: the
build goes into the virtualenv (``.venv/drawlab-compiled``), as a wheel's compiled modules
go into site-packages, with a manifest of the hash of every source of the packages.  A
``.pth`` file in site-packages installs ``CompiledFinder`` in every Python of the
virtualenv, which serves the compiled modules in place of these sources only while every
one of those hashes still holds: mypyc compiles another module's constants and classes
into a module, so one edited source sends all of them back to Python, and an edited
source is always what runs.  A machine without a C compiler, a build that failed (the
Makefile then cleans up and says so), ``make pure`` or ``DRAWLAB_PURE=1`` runs the
sources, with the same results, slower.  Each module is its own extension (``separate``),
so every compiled file, mypyc's libraries included, belongs to a package of the tree.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from importlib.machinery import (
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    ExtensionFileLoader,
    ModuleSpec,
    SourceFileLoader,
)
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent
MODULES = (
    "engine/replay.py",
    "engine/state.py",
    "engine/settle.py",
    "engine/cardtrack.py",
    "engine/continuity.py",
    "engine/ranking.py",
    "engine/hand_value.py",
    "engine/pots.py",
    "engine/profiles.py",
    "engine/problems.py",
    "parser/pokerstars.py",
    "parser/lines.py",
    "analysis/statistics/facts.py",
    "analysis/statistics/positions.py",
    "analysis/statistics/hand_classes.py",
    "analysis/storage/rows.py",
)
"""The sources compiled, by their share of an import's time (``bench_stages``' profile), and
the Python modules the replay calls for every hand (docs/engine.md, the native profile).  A
module whose frozen dataclasses are pickled or copied stays Python: compiled, they are
neither (``engine/record.py``, ``verdict.py``, ``rules.py``)."""
PACKAGES = ("engine", "parser", "analysis")
"""Where every source the build read lives: their hashes decide whether it is current."""
PTH = "drawlab-compiled.pth"


def folder() -> Path:
    """Where this virtualenv keeps the build: ``lib`` (the modules), ``manifest.json``."""
    return Path(sys.prefix) / "drawlab-compiled"


def hashes(root: Path = ROOT, packages: Sequence[str] = PACKAGES) -> dict[str, str]:
    """The SHA-256 of every source of ``packages``, by its path in ``root``."""
    import hashlib  # here and below, not at the top: every Python of the venv loads this file

    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
    }


def module_names(lib: Path) -> dict[str, str]:
    """The modules a build folder holds (``engine/lines.cpython-311-….so`` is
    ``engine.lines``), each with its file's path in ``lib``."""
    names = {}
    for path in module_files(lib):
        parts = path.relative_to(lib).parts
        names[".".join((*parts[:-1], parts[-1].split(".", 1)[0]))] = "/".join(parts)
    return names


class CompiledFinder:
    """Finds a compiled module for the import system (``sys.meta_path``) when the
    module's package is imported from ``root`` and every source hashed at the build is
    unchanged; otherwise it leaves the import to Python's own finders."""

    def __init__(self, root: Path, lib: Path, files: Mapping[str, str], sources: Mapping[str, str]):
        self.root = root.resolve()
        self.lib = lib
        self.files = dict(files)
        self.sources = dict(sources)
        self._current: bool | None = None

    def current(self) -> bool:
        """Whether the sources are still those built (hashed once, on first need)."""
        if self._current is None:
            self._current = all(self._unchanged(name, h) for name, h in self.sources.items())
        return self._current

    def _unchanged(self, name: str, digest: str) -> bool:
        import hashlib

        try:
            return hashlib.sha256((self.root / name).read_bytes()).hexdigest() == digest
        except OSError:
            return False

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None or not path:
            return None
        package = self.root.joinpath(*fullname.split(".")[:-1])
        if os.path.realpath(path[0]) != str(package) or not self.current():
            return None
        where = str(self.lib / file)
        loader = (
            ExtensionFileLoader(fullname, where)
            if where.endswith(tuple(EXTENSION_SUFFIXES))
            else SourceFileLoader(fullname, where)  # the tests' stand-ins for compiled files
        )
        spec = ModuleSpec(fullname, loader, origin=where)
        spec.has_location = True
        return spec


def install(where: Path | None = None) -> CompiledFinder | None:
    """Put the build's finder first on ``sys.meta_path`` (the ``.pth`` file calls this at
    every start); nothing with ``DRAWLAB_PURE`` set or without a build."""
    where = folder() if where is None else where
    if os.environ.get("DRAWLAB_PURE") or not (where / "manifest.json").exists():
        return None
    manifest = json.loads((where / "manifest.json").read_text(encoding="utf-8"))
    finder = CompiledFinder(Path(manifest["root"]), where / "lib", manifest["modules"],
                            manifest["sources"])  # fmt: skip
    sys.meta_path.insert(0, finder)
    return finder


def write_manifest(where: Path, root: Path, sources: Mapping[str, str]) -> None:
    """Record what ``where/lib`` holds and the hashes of the sources it was built from."""
    manifest = {"root": str(root), "modules": module_names(where / "lib"), "sources": sources}
    (where / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")


def pth_line(root: Path = ROOT) -> str:
    """The ``.pth`` file's line: load this file and install the finder (one line, as
    ``site`` runs each line of a ``.pth`` that starts with ``import`` on its own).  A
    checkout without this file, or an older one without ``install``, installs nothing
    instead of printing an error at every start of Python."""
    return (
        f"import os, importlib.util as u; p = {str(root / 'compiled.py')!r}; "
        "s = os.path.exists(p) and u.spec_from_file_location('_drawlab_compiled', p); "
        "m = s and u.module_from_spec(s); "
        "m and not s.loader.exec_module(m) and hasattr(m, 'install') and m.install()\n"
    )


def site_packages() -> Path:
    import sysconfig

    return Path(sysconfig.get_paths()["purelib"])


def link_data(lib: Path, root: Path = ROOT) -> None:
    """Link each compiled package's data folders (``parser/grammars``) into ``lib``, as a
    wheel ships them beside its compiled modules: a module finds them from its
    ``__file__``, and a link, not a copy, keeps an edited grammar what is read."""
    for package in sorted({path.parent for path in lib.rglob("*.so")}):
        source = root / package.relative_to(lib)
        for data in sorted(source.iterdir()):
            if data.is_dir() and data.name != "__pycache__" and not (data / "__init__.py").exists():
                (package / data.name).symlink_to(data, target_is_directory=True)


def runs_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was imported compiled in this process (a build may exist and
    not be used: sources edited since, a copy of them elsewhere, ``DRAWLAB_PURE``)."""
    return not (module.__file__ or "").endswith(".py")


def module_files(lib: Path) -> list[Path]:
    """The modules in ``lib`` (compiled, or the tests' stand-ins), not its data."""
    suffixes = (*EXTENSION_SUFFIXES, *SOURCE_SUFFIXES)
    return sorted(p for p in lib.rglob("*") if p.name.endswith(suffixes) and p.is_file())


def leftovers(root: Path = ROOT) -> list[Path]:
    """Compiled files beside the sources, which Python would import before them: what
    builds before this one left in the tree."""
    return sorted(p for package in PACKAGES for p in (root / package).rglob("*.so"))


def clean() -> None:
    """Remove the build, its ``.pth`` file and any compiled file left in the tree."""
    import shutil

    shutil.rmtree(folder(), ignore_errors=True)
    (site_packages() / PTH).unlink(missing_ok=True)
    for path in leftovers():
        path.unlink()


def build() -> None:
    """Compile ``MODULES`` that exist into the virtualenv's build folder, then record it
    and install the ``.pth`` file (the Makefile keeps the sources alone if this fails)."""
    from mypyc.build import mypycify
    from setuptools import setup

    if sys.prefix == sys.base_prefix:
        raise SystemExit("build inside the project's virtualenv (make compiled)")
    clean()
    sources = hashes()  # before mypyc reads them: a source edited meanwhile is not current
    where = folder()
    os.chdir(ROOT)
    modules = [m for m in MODULES if (ROOT / m).exists()]
    extensions = mypycify(modules, separate=True, target_dir=str(where / "c"))
    setup(name="drawlab-compiled", ext_modules=extensions, script_args=[
        "build_ext", "--build-lib", str(where / "lib"), "--build-temp", str(where / "temp"),
    ])  # fmt: skip
    link_data(where / "lib")
    write_manifest(where, ROOT, sources)
    (site_packages() / PTH).write_text(pth_line(), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["build"]:
        build()
        raise SystemExit(0)
    if sys.argv[1:] == ["clean"]:
        clean()
        raise SystemExit(0)
    raise SystemExit("usage: python compiled.py build|clean")
