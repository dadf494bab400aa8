"""Every command on a failing machine: one sentence on standard error (no traceback), exit
status 2, the database file as it was, and the same command completing once the cause is
gone.  Read-only files and full disks are injected (the tests may run as root, who writes
anything): DuckDB's own messages, as a user without write permission gets them."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest

from analysis.pipeline import importer
from analysis.storage import db as dbmod
from analysis.storage import export
from analysis.storage.schema import CURRENT_VERSION
from cli import main
from tests.fault_injection import FULL, Faulty, snapshot
from tests.paths import REPOSITORY
from tests.store_data import write_history

HANDS = 400


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of two histories: an import commits each file's hands on their own."""
    folder = tmp_path_factory.mktemp("cli-faults")
    write_history(folder / "a.txt", HANDS // 2)
    write_history(folder / "b.txt", HANDS // 2, first_id=910_000_000_000)
    return folder


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory, history: Path) -> Path:
    path = tmp_path_factory.mktemp("cli-faults-db") / "clean.duckdb"
    assert main(["import", "--quiet", "--workers", "0", "--db", str(path), str(history)]) == 0
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


def _state(path: Path) -> dict[str, Any]:
    con = dbmod.connect(path, read_only=True)
    try:
        return snapshot(con)
    finally:
        con.close()


def test_a_file_that_is_not_a_database_is_said_so_and_left_alone(
    tmp_path: Path, history: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.duckdb"
    path.write_bytes(b"my poker notes\n")
    for argv in (["import", str(history)], ["reverify"], ["replay", "1"], ["stats"],
                 ["tournaments"],
                 ["export", "--format", "original", "--out", str(tmp_path / "out")]):
        code, err = run(capsys, *argv[:1], "--db", str(path), *argv[1:])
        assert (code, err) == (2, (
            f"error: {path} is not a DuckDB database (not a DrawLab database): nothing was "
            "changed; name your database with --db, or move this file away to start a new "
            "one\n"
        )), argv
    assert path.read_bytes() == b"my poker notes\n"


@pytest.mark.parametrize("size", [0, 100, 8192, 12288])
def test_a_truncated_database_is_said_damaged_and_left_alone(
    tmp_path: Path, imported: Path, history: Path, capsys: pytest.CaptureFixture[str], size: int
) -> None:
    path = tmp_path / "cut.duckdb"
    path.write_bytes(imported.read_bytes()[:size])
    code, err = run(capsys, "import", "--quiet", "--db", str(path), str(history))
    what = "is not a DuckDB database (not a DrawLab database)" if size == 0 else (
        "is damaged (cut short or corrupted)")
    assert code == 2 and err.startswith(f"error: {path} {what}: nothing was changed; ")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert path.read_bytes() == imported.read_bytes()[:size]


def test_a_corrupted_block_is_said_damaged(
    tmp_path: Path, imported: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = bytearray(imported.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # the header block DuckDB checks first
    path = tmp_path / "bad.duckdb"
    path.write_bytes(bytes(data))
    code, err = run(capsys, "reverify", "--db", str(path))
    assert (code, err) == (2, (
        f"error: {path} is damaged (cut short or corrupted): nothing was changed; restore it "
        "from a copy, or move it away and import your hand histories again\n"
    ))
    assert path.read_bytes() == bytes(data)


def test_a_database_of_a_newer_drawlab_is_refused_unchanged(
    tmp_path: Path, imported: Path, history: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "new.duckdb"
    path.write_bytes(imported.read_bytes())
    con = duckdb.connect(str(path))
    con.execute("INSERT INTO schema_version VALUES (?, current_timestamp)", [CURRENT_VERSION + 1])
    con.close()
    before = path.read_bytes()
    code, err = run(capsys, "import", "--db", str(path), str(history))
    assert (code, err) == (2, (
        f"error: {path} was written by a newer DrawLab (database schema version "
        f"{CURRENT_VERSION + 1}, this one knows up to {CURRENT_VERSION}): nothing was changed; "
        "upgrade DrawLab to open it\n"
    ))
    assert path.read_bytes() == before


def test_a_read_only_database_is_said_so(
    tmp_path: Path, imported: Path, history: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "ro.duckdb"
    path.write_bytes(imported.read_bytes())
    real = duckdb.connect

    def connect(database: str, read_only: bool = False, **kw: Any) -> Any:
        if not read_only:  # DuckDB's words for a file its user may not write
            raise duckdb.IOException(f'IO Error: Cannot open file "{database}": Permission denied')
        return real(database, read_only=read_only, **kw)

    monkeypatch.setattr(dbmod.duckdb, "connect", connect)
    code, err = run(capsys, "import", "--db", str(path), str(history))
    assert (code, err) == (2, (
        f"error: {path} cannot be written (a read-only file, folder or disk): nothing was "
        "changed; make it writable or name another place (--db, --out), then run the same "
        "command again\n"
    ))
    monkeypatch.undo()
    assert _state(path) == _state(imported)


def test_a_database_in_a_read_only_folder_is_said_so(
    tmp_path: Path, history: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "locked"

    def mkdir(self: Path, *args: Any, **kw: Any) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))

    monkeypatch.setattr(Path, "mkdir", mkdir)
    code, err = run(capsys, "import", "--db", str(folder / "x.duckdb"), str(history))
    assert (code, err) == (2, (
        f"error: {folder} cannot be written (a read-only file, folder or disk): nothing was "
        "changed; make it writable or name another place (--db, --out), then run the same "
        "command again\n"
    ))


def test_a_database_held_past_the_wait_is_said_so(
    tmp_path: Path, imported: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "held.duckdb"
    path.write_bytes(imported.read_bytes())
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time, duckdb; c = duckdb.connect(sys.argv[1]); "
         "print('held', flush=True); time.sleep(60)", str(path)], stdout=subprocess.PIPE)
    monkeypatch.setattr(dbmod, "LOCK_WAIT", 0.5)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
        code, err = run(capsys, "reverify", "--db", str(path))
    finally:
        holder.kill()
        holder.wait()
    assert (code, err) == (2, (
        f"error: {path} is held by another program (waited 0.5 s): nothing was changed; "
        "DuckDB lets one program write a database at a time, so close the other one (a "
        "DrawLab import lets go within seconds when asked) and try again, or use --db\n"
    ))


def test_a_full_disk_while_importing_keeps_the_commits_and_the_next_run_completes(
    tmp_path: Path, imported: Path, history: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "x.duckdb"
    real = importer.open_database

    def open_full(db_path: Any, *, wait: float = 0.0, told: Any = None) -> Any:
        return Faulty(real(db_path, wait=wait, told=told), "COMMIT", 4, str(path))  # 2nd file

    with monkeypatch.context() as m:
        m.setattr(importer, "open_database", open_full)
        code, err = run(capsys, "import", "--quiet", "--workers", "0", "--batch", "100",
                        "--db", str(path), str(history))
    assert (code, err) == (2, (
        f"error: the disk holding {path} is full: the hands committed before it are kept "
        "and nothing half-written was stored; free some space on it, then run the same "
        "command again (it adds each missing hand once)\n"
    ))
    kept = len(_state(path)["hands"])
    assert kept == HANDS // 2  # the first file, committed before the disk filled
    code = main(["import", "--json", "--workers", "0", "--db", str(path), str(history)])
    out = capsys.readouterr().out
    assert code == 0 and f'"added": {HANDS - kept}, "already_present": {kept}' in out
    assert _state(path) == _state(imported)


def test_a_full_disk_while_reverifying_keeps_the_pages_done(
    tmp_path: Path, imported: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "x.duckdb"
    path.write_bytes(imported.read_bytes())
    real = importer.open_database
    with monkeypatch.context() as m:
        m.setattr(importer, "open_database",
                  lambda p, *, wait=0.0, told=None: Faulty(
                      real(p, wait=wait, told=told), "INSERT", 2, str(path)))
        code, err = run(capsys, "reverify", "--workers", "0", "--db", str(path))
    assert (code, err) == (2, (
        f"error: the disk holding {path} is full: the hands replayed before it are kept; free "
        "some space on it, then run the same command again (it goes on from there)\n"
    ))
    assert main(["reverify", "--workers", "0", "--db", str(path)]) == 0
    assert _state(path) == _state(imported)


def test_a_full_disk_while_exporting_is_said_and_the_next_export_is_whole(
    tmp_path: Path, imported: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "out"
    real = export._append
    calls = [0]

    def append(files: Any, folder: Path, name: str, text: str, summary: Any) -> None:
        calls[0] += 1
        if calls[0] == 50:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(folder / name))
        real(files, folder, name, text, summary)

    with monkeypatch.context() as m:
        m.setattr(export, "_append", append)
        code, err = run(capsys, "export", "--db", str(imported), "--format", "original",
                        "--out", str(out))
    name = next(out.iterdir())
    assert (code, err) == (2, (
        f"error: the disk holding {name} is full: the database is unchanged, but the files "
        "written so far may be incomplete; free some space on it, then run the same command "
        "again (it writes them whole)\n"
    ))
    assert main(["export", "--db", str(imported), "--format", "original", "--out", str(out)]) == 0
    clean = tmp_path / "clean"
    assert main(["export", "--db", str(imported), "--format", "original", "--out", str(clean)]) == 0
    assert name.read_bytes() == (clean / name.name).read_bytes()


@pytest.mark.parametrize("command", [["replay", "--file"], ["verify", "--json"],
                                     ["simulate", "--hands", "3000"]])
def test_output_closed_early_ends_quietly(history: Path, command: list[str]) -> None:
    """``drawlab replay --file ... | head -1``: the reader goes, the command ends without a
    word and with status 0, as ``head`` asked for no more."""
    argv = [*command, str(history / "a.txt")] if command[0] != "simulate" else command
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from cli import main; sys.exit(main())", *argv],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPOSITORY,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
    )
    assert proc.stdout is not None and proc.stdout.readline()
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (0, b"")


def test_a_fault_no_command_expects_still_ends_in_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The one wrapper around every command: a fault from anywhere inside it."""
    def fail(_: Any) -> int:
        raise duckdb.IOException(f'IO Error: Could not write file "{tmp_path}/x.bin": {FULL}')

    monkeypatch.setattr("cli._verify", fail)
    code, err = run(capsys, "verify", str(tmp_path))
    assert (code, err) == (2, (
        f"error: the disk holding {tmp_path}/x.bin is full: nothing was changed; free some "
        "space on it, then run the same command again\n"
    ))


@pytest.mark.slow
def test_a_full_disk_while_storing_reviews_is_said_and_the_next_run_reviews_all(
    tmp_path: Path, imported: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "x.duckdb"
    path.write_bytes(imported.read_bytes())
    clean = tmp_path / "clean.duckdb"
    clean.write_bytes(imported.read_bytes())
    real = importer.open_database
    with monkeypatch.context() as m:
        m.setattr(importer, "open_database",
                  lambda p, *, wait=0.0, told=None: Faulty(
                      real(p, wait=wait, told=told), "COMMIT", 1, str(path)))
        code, err = run(capsys, "review", "--json", "--workers", "0", "--db", str(path))
    assert (code, err) == (2, (
        f"error: the disk holding {path} is full: the reviews stored before it are kept; free "
        "some space on it, then run the same command again (it reviews the rest)\n"
    ))
    for db in (path, clean):
        assert main(["review", "--json", "--workers", "0", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    half = len(out) // 2
    assert out[:half] == out[half:] and half > 1  # the same decisions, the same summary
