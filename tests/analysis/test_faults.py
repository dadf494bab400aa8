"""``analysis.faults``: each failure of the machine or of the database file, one sentence."""

from __future__ import annotations

import errno
import os

import duckdb
import pytest

from analysis.faults import FAULTS, folder_gone, kept_by, sentence
from analysis.storage.schema import NewerSchema


def _os(code: int, file: str) -> OSError:
    return OSError(code, os.strerror(code), file)


@pytest.mark.parametrize(
    ("exc", "command", "expected"),
    [
        (_os(errno.ENOSPC, "/d/out.txt"), "export",
         "the disk holding /d/out.txt is full: the database is unchanged, but the files "
         "written so far may be incomplete; free some space on it, then run the same command "
         "again (it writes them whole)"),
        (_os(errno.EDQUOT, "/d/x.duckdb"), "review",
         "the disk holding /d/x.duckdb is full: the reviews stored before it are kept; free "
         "some space on it, then run the same command again (it reviews the rest)"),
        (_os(errno.EROFS, "/mnt/x.duckdb"), "reverify",
         "/mnt/x.duckdb cannot be written (a read-only file, folder or disk): the hands "
         "replayed before it are kept; make it writable or name another place (--db, --out), "
         "then run the same command again (it goes on from there)"),
        (_os(errno.ENOENT, "/h/gone"), "stats",
         "/h/gone is not there any more: nothing was changed; check the path (a moved folder, "
         "an unplugged disk), then run the same command again"),
        (duckdb.IOException('IO Error: Could not write file "/d/x.duckdb.wal": No space left '
                            "on device"), "tags",
         "the disk holding /d/x.duckdb is full: what was stored before it is kept; free some "
         "space on it, then run the same command again"),
        (duckdb.IOException("IO Error: Trying to read a database file with version number 99, "
                            "but we can only read version 64"), "stats",
         "/db.duckdb was written by a newer DuckDB (a newer DrawLab): nothing was changed; "
         "upgrade DrawLab to open it"),
        (duckdb.Error("Corrupt database file: computed checksum 1 does not match stored "
                      "checksum 2 in block at location 4096"), "import",
         "/db.duckdb is damaged (cut short or corrupted): the hands committed before it are "
         "kept and nothing half-written was stored; restore it from a copy, or move it away "
         "and import your hand histories again"),
        (duckdb.IOException('IO Error: Could not set lock on file "/d/x.duckdb": Conflicting '
                            "lock is held in python3 (PID 7)"), "import",
         "/d/x.duckdb is held by another program: the hands committed before it are kept and "
         "nothing half-written was stored; DuckDB lets one program write a database at a "
         "time, so close the other one (a DrawLab import lets go within seconds when asked) "
         "and try again, or use --db"),
        (duckdb.InternalException("INTERNAL Error: something odd"), None,
         "/db.duckdb failed: INTERNAL Error: something odd: what was stored before it is kept; "
         "run the same command again, and report this message if it fails again"),
    ],
)
def test_each_fault_is_one_sentence(exc: BaseException, command: str | None,
                                    expected: str) -> None:
    assert isinstance(exc, FAULTS)
    assert sentence(exc, command, "/db.duckdb") == expected


def test_a_refusal_to_open_is_its_own_sentence_whatever_the_command() -> None:
    newer = NewerSchema(9)
    assert sentence(newer, "import", "/db.duckdb") == str(newer)


def test_commands_that_only_read_changed_nothing() -> None:
    assert kept_by("stats") == ("nothing was changed", "")
    assert kept_by("replay") == ("nothing was changed", "")
    assert kept_by("a command added later") == ("what was stored before it is kept", "")


def test_a_watched_folder_gone_is_news_not_an_end() -> None:
    assert folder_gone("/h/PokerStars") == (
        "the watched folder /h/PokerStars is not there any more (deleted, renamed, or on a "
        "disk no longer mounted): the hands imported from it are kept; watching goes on and "
        "reads it again when it is back"
    )
