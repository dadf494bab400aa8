"""The modules compiled to C, and their build: ``python compiled.py build`` (the Makefile's
``make compiled``, which ``make run`` and ``make test`` call) or ``clean``.

An import, ``drawlab verify`` and ``drawlab reverify`` spend their processor time in a
few modules: each hand's parse, replay, facts and rows.  Those are compiled with mypyc
(part of mypy, in the dev extra), which turns the typed Python the project already checks
with ``mypy --strict`` into C extensions, built beside their sources, where Python imports
them before the .py.  Measured on the same 20,000 dealt hands in one process
(``python -m benchmarks.bench_stages --compiled``, 3 December 2026): 383 against 439 us
of CPU a hand (-12.7 %); a million hands with two workers, 0.42 against 0.46 s of CPU per
1,000 hands (docs/scale.md, "The tenth pass").

The Python sources stay the program: a machine without a C compiler, or a build that
fails (the Makefile then cleans up and says so), runs them as they are, with the same
results, slower; ``make pure`` (or ``DRAWLAB_PURE=1``) chooses that on purpose.  Each
module is its own extension (``separate``): the library mypyc shares between modules
otherwise sits at the top of the tree, where a program started from another folder does
not find it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
MODULES = (
    "engine/fast_replay.py",
    "engine/continuity.py",
    "parser/pokerstars.py",
    "parser/lines.py",
    "analysis/statistics/facts.py",
    "analysis/statistics/positions.py",
    "analysis/statistics/hand_classes.py",
    "analysis/storage/rows.py",
)
"""The sources compiled, by their share of an import's time (``bench_stages``' profile)."""


def built(root: Path = ROOT) -> list[Path]:
    """The compiled files of ``MODULES``: each module's and the library beside it."""
    found: list[Path] = []
    for source in MODULES:
        path = root / source
        found += sorted(path.parent.glob(f"{path.stem}.cpython-*.so"))
        found += sorted(path.parent.glob(f"{path.stem}__mypyc.cpython-*.so"))
    return found


def stale(root: Path = ROOT) -> list[str]:
    """The packages' compiled modules whose source changed after they were compiled: any
    compiled file beside a source, in ``MODULES`` or left from an earlier list, since
    Python imports it before the .py."""
    found = []
    for package in ("engine", "parser", "analysis", "ui"):
        for extension in sorted((root / package).rglob("*.so")):
            source = extension.with_name(extension.name.split(".", 1)[0] + ".py")
            if source.exists() and source.stat().st_mtime > extension.stat().st_mtime:
                found.append(source.relative_to(root).as_posix())
    return found


def clean(root: Path = ROOT) -> None:
    for path in built(root):
        path.unlink()


def stamp(root: Path = ROOT) -> None:
    """Give the compiled files the time of the build.  ``build_ext --inplace`` copies them
    from ``build/`` with the times they had there, so a source only touched (a ``git
    checkout`` and back) and rebuilt to the same C would still look newer than its
    module, and ``stale`` would stop every test run until ``make pure``."""
    for path in built(root):
        os.utime(path)


def build() -> None:
    """Compile ``MODULES`` in place (the Makefile keeps the sources alone if this fails)."""
    from mypyc.build import mypycify
    from setuptools import setup

    clean()
    extensions = mypycify(list(MODULES), separate=True)
    setup(name="drawlab-compiled", ext_modules=extensions, script_args=["build_ext", "--inplace"])
    stamp()


if __name__ == "__main__":
    if sys.argv[1:] == ["build"]:
        build()
        raise SystemExit(0)
    if sys.argv[1:] == ["clean"]:
        clean()
        raise SystemExit(0)
    raise SystemExit("usage: python compiled.py build|clean")
