"""The import beside the page: results, progress, errors, and the page while it runs."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from analysis.storage import db, queries
from tests.app_support import STARS_TRIPLE, app_for, finish_import, texts
from ui.import_job import ImportJob, ReverifyJob


def test_job_imports_every_file_and_calls_back() -> None:
    con = db.connect(db.MEMORY)
    called: list[int] = []
    job = ImportJob([("a.txt", STARS_TRIPLE.read_bytes()), ("b.txt", b"nothing here")],
                    connect=con.cursor, lock=threading.Lock(),
                    on_done=lambda: called.append(1)).start()
    assert job.wait(60)
    assert job.error is None and called == [1]
    assert [(r.name, r.summary.added) for r in job.results] == [("a.txt", 1), ("b.txt", 0)]
    assert job.fraction == 1.0 and job.text == "Import finished"
    assert queries.count_hands(con) == 1


def test_progress_counts_the_hands_of_every_file_in_all() -> None:
    con = db.connect(db.MEMORY)
    one = STARS_TRIPLE.read_bytes()
    other = one.replace(b"63845186378", b"63845186379")
    job = ImportJob([("a.txt", one)], connect=con.cursor, lock=threading.Lock()).start()
    assert job.wait(60)
    assert job.running_text() == "File 1 of 1 · 1 hand read in all"  # never "1 hands"
    job = ImportJob([("b.txt", other), ("c.txt", one.replace(b"63845186378", b"63845186380"))],
                    connect=con.cursor, lock=threading.Lock()).start()
    assert job.wait(60)
    assert job.hands == 2  # not the last file's own count
    assert job.running_text() == "File 2 of 2 · 2 hands read in all"


def test_job_reports_a_failure_and_still_finishes() -> None:
    def broken() -> db.Connection:
        raise OSError("disk gone")

    job = ImportJob([("a.txt", b"x")], connect=broken, lock=threading.Lock()).start()
    assert job.wait(10)
    assert job.error is None  # not an internal error: a fault, in one sentence
    assert job.fault == (
        "the database failed: disk gone: the hands committed before it are kept and nothing "
        "half-written was stored; try again (it adds each missing hand once), and report "
        "this message if it fails again"
    )
    assert job.results == []


def test_page_stays_usable_while_an_import_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "nosamples"
    empty.mkdir()
    monkeypatch.setattr("ui.state.SAMPLES", empty)
    path = tmp_path / "db.duckdb"
    at = app_for(path, monkeypatch).run()
    at.switch_page("ui/import_page.py").run()
    from ui import state

    lock = state._shared(str(path)).lock
    with lock:  # another import holds the database: this one waits its turn
        at.file_uploader(key="uploads").set_value(
            ("t.txt", STARS_TRIPLE.read_bytes(), "text/plain"))
        at.run()
        at.button(key="import_button").click().run()
        assert not at.exception
        assert len(at.get("progress")) == 1
        assert at.button(key="import_button").disabled
        assert "The import goes on while you use the other pages." in [c.value for c in at.caption]
        at.switch_page("ui/overview_page.py").run()
        assert not at.exception
        assert [t.value for t in at.title] == ["Overview & statistics"]
        at.switch_page("ui/import_page.py").run()
    finish_import(at)
    assert texts(at)[0] == "1 file: 1 new hand added, 0 already in the database."


def test_reverify_job_replays_every_stored_hand() -> None:
    con = db.connect(db.MEMORY)
    ImportJob([("a.txt", STARS_TRIPLE.read_bytes())], connect=con.cursor,
              lock=threading.Lock()).start().wait(60)
    con.execute("UPDATE hands SET status = 'invalid', reason = 'older DrawLab'")
    called: list[int] = []
    job = ReverifyJob(connect=con.cursor, lock=threading.Lock(),
                      on_done=lambda: called.append(1)).start()
    assert job.wait(60)
    assert job.error is None and called == [1]
    assert job.summary is not None
    assert (job.summary.hands, job.summary.changed) == (1, 1)
    assert job.fraction == 1.0 and job.text == "Every stored hand replayed again"
    assert con.execute("SELECT status, reason FROM hands").fetchall() == [("ok", None)]
