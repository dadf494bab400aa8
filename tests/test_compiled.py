"""The modules ``compiled.py`` names are the ones that run compiled: a compiler that failed,
or a list that names a module that moved, would leave the import as slow as Python
without a word (the Makefile says so once, in a line nobody reads in CI's output).
``DRAWLAB_PURE=1`` asks for the sources, and then they are what runs."""

import os
import time
from pathlib import Path
from types import ModuleType

import analysis.statistics.facts
import analysis.statistics.hand_classes
import analysis.statistics.positions
import analysis.storage.rows
import engine.continuity
import engine.fast_replay
import parser.lines
import parser.pokerstars
from compiled import MODULES, ROOT, built, clean, stale, stamp

IMPORTED: dict[str, ModuleType] = {
    "engine/fast_replay.py": engine.fast_replay,
    "engine/continuity.py": engine.continuity,
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
        where = Path(module.__file__)
        assert where.parent == (ROOT / path).parent
        if pure:
            assert where.name == Path(path).name, f"{path} runs compiled: run `make pure`"
        else:
            assert where.name.startswith(Path(path).stem + ".cpython-"), (
                f"{path} runs as Python: run `make compiled` (DRAWLAB_PURE=1 for the sources)"
            )
            assert where.suffix == ".so"


def test_a_source_edited_after_its_compiled_module_is_found(tmp_path: Path) -> None:
    package = tmp_path / "engine"
    package.mkdir()
    compiled = package / "fast_replay.cpython-311-x86_64-linux-gnu.so"
    shared = package / "fast_replay__mypyc.cpython-311-x86_64-linux-gnu.so"
    source = package / "fast_replay.py"
    other = package / "cards.py"  # no compiled module beside it: not a concern
    for path in (compiled, shared):
        path.write_bytes(b"")
    for path in (source, other):
        path.write_text("", encoding="utf-8")
    now = time.time()
    os.utime(source, (now - 10, now - 10))
    for path in (compiled, shared):
        os.utime(path, (now - 5, now - 5))
    assert stale(tmp_path) == []
    os.utime(source, (now, now))
    assert stale(tmp_path) == ["engine/fast_replay.py"]


def test_a_build_s_files_are_newer_than_a_source_touched_before_it(tmp_path: Path) -> None:
    """The files setuptools copies from its cache keep the cache's time: the stamp makes
    them the build's, or a touched source would look stale after ``make compiled``."""
    package = tmp_path / "engine"
    package.mkdir()
    source = package / "fast_replay.py"
    source.write_text("", encoding="utf-8")
    copied = [
        package / "fast_replay.cpython-311-x86_64-linux-gnu.so",
        package / "fast_replay__mypyc.cpython-311-x86_64-linux-gnu.so",
    ]
    now = time.time()
    for path in copied:
        path.write_bytes(b"")
        os.utime(path, (now - 3600, now - 3600))
    os.utime(source, (now - 60, now - 60))
    assert stale(tmp_path) == ["engine/fast_replay.py"]
    stamp(tmp_path)
    assert stale(tmp_path) == []
    assert all(path.stat().st_mtime >= now for path in copied)


def test_clean_removes_each_module_s_files_and_nothing_else(tmp_path: Path) -> None:
    names = (
        "engine/fast_replay.cpython-311-x86_64-linux-gnu.so",
        "engine/fast_replay__mypyc.cpython-311-x86_64-linux-gnu.so",
        "analysis/storage/rows.cpython-311-x86_64-linux-gnu.so",
        "engine/cards.cpython-311-x86_64-linux-gnu.so",  # not in MODULES
        "engine/fast_replay.py",
    )
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"")
    assert [p.relative_to(tmp_path).as_posix() for p in built(tmp_path)] == list(names[:3])
    clean(tmp_path)
    left = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.*"))
    assert left == ["engine/cards.cpython-311-x86_64-linux-gnu.so", "engine/fast_replay.py"]
