"""AppTest of the Import page given tournament summaries: their own verdict, never a hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.storage import db
from tests.corpus import CORPUS
from tests.ui.test_import import counts, empty_db, import_page, upload  # noqa: F401

WINS = CORPUS / "summaries" / "FTP" / "27TD-USD-HUSnG-201101.Hero.wins.txt"
BAD = b"Winamax Poker - Tournament summary : X(7)\nBuy-In : 1,2,3\xe2\x82\xac\n"


def test_summaries_uploaded_are_read_and_a_bad_one_named(
    empty_db: Path, monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    at = import_page(empty_db, monkeypatch)
    at = upload(at, [("wins.txt", WINS.read_bytes()), ("bad.txt", BAD)])
    assert not at.exception
    assert at.text[0].value == (
        "2 files: 0 new hands added, 0 already in the database; 1 file could not be read; "
        "1 tournament summary read, 1 new or newer (see the Tournaments page)."
    )
    rows = {row["file"]: (row["hands read"], row["not read"]) for row in counts(at)}
    assert rows == {
        "wins.txt": (0, ""), "bad.txt": (0, "2: not an amount: '1,2,3€': Buy-In : 1,2,3€")}
    con = db.connect(empty_db, read_only=True)
    assert con.execute("SELECT tournament_id FROM tournaments").fetchall() == [("211366000",)]
