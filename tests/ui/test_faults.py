"""The dashboard on a failing machine: one sentence in an error box, no traceback, and the
app working again once the cause is gone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.app_support import (  # noqa: F401  (fixtures)
    app_for,
    corpus_db_file_fixture,
    corpus_db_fixture,
)
from tests.fault_injection import FULL


def test_a_file_that_is_not_a_database_is_said_so_and_tried_again(
    tmp_path: Path, corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "notes.duckdb"
    path.write_bytes(b"my poker notes\n")
    at = app_for(path, monkeypatch).run()
    assert not at.exception
    assert [e.value for e in at.error] == ["The database cannot be opened."]
    assert at.code[0].value == (
        f"{path} is not a DuckDB database (not a DrawLab database): nothing was changed; "
        "name your database with --db, or move this file away to start a new one"
    )
    assert path.read_bytes() == b"my poker notes\n"
    path.write_bytes(corpus_db.read_bytes())  # the user puts the right file back
    at.button(key="db_retry").click().run()
    assert not at.exception and not at.error
    assert at.metric[0].value == "39"  # the hero's 40 hands but the one with errors


def test_a_full_disk_in_a_page_is_one_sentence_and_the_page_works_again(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(*_: Any) -> None:
        raise duckdb.IOException(f'IO Error: Could not write file "{corpus_db}.tmp": {FULL}')

    with monkeypatch.context() as m:
        m.setattr("ui.data.results", full)
        at = app_for(corpus_db, monkeypatch).run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        f"the disk holding {corpus_db}.tmp is full: what was stored before it is kept; free "
        "some space on it, then try again"
    ]
    at.run()
    assert not at.exception and not at.error
    assert at.metric[0].value == "39"  # the hero's 40 hands but the one with errors
    at.toggle(key="leave_out_errors").set_value(False).run()
    assert at.metric[0].value == "40"
