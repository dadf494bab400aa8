"""AppTest of the Import page: uploads, per-file counts, failures, and importing twice."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analysis.storage import db, queries
from tests.app_support import (  # noqa: F401  (fixtures)
    HOSTILE_HAND_ID,
    KINGS_RIT,
    STARS,
    STARS_TRIPLE,
    app_for,
    corpus_db_file_fixture,
    corpus_db_fixture,
    finish_import,
    hostile_history,
    markdown_sources,
    texts,
)
from tests.corpus import CORPUS


def import_page(path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    at = app_for(path, monkeypatch).run()
    return at.switch_page("ui/import_page.py").run()


def upload(at: AppTest, files: list[tuple[str, bytes]]) -> AppTest:
    at.file_uploader(key="uploads").set_value([(n, b, "text/plain") for n, b in files]).run()
    return finish_import(at.button(key="import_button").click().run())


def counts(at: AppTest) -> list[dict[str, object]]:
    """The per-file rows of the summary table (its first row is the totals)."""
    return list(at.dataframe[0].value.to_dict("records"))[1:]


def totals(at: AppTest) -> dict[str, object]:
    return dict(at.dataframe[0].value.to_dict("records")[0])


@pytest.fixture
def empty_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    empty = tmp_path / "nosamples"
    empty.mkdir()
    monkeypatch.setattr("ui.state.SAMPLES", empty)
    return tmp_path / "empty.duckdb"


def test_import_button_waits_for_files(empty_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = import_page(empty_db, monkeypatch)
    assert [t.value for t in at.title] == ["Import hand histories"]
    assert at.button(key="import_button").disabled


def test_upload_shows_counts_by_verdict_and_twice_adds_nothing(
    empty_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = import_page(empty_db, monkeypatch)
    at = upload(at, [("triple.txt", STARS_TRIPLE.read_bytes())])
    assert not at.exception
    assert texts(at)[0] == "1 file: 1 new hand added, 0 already in the database."
    row = {"hands read": 1, "added": 1, "already present": 0, "stored with errors": 0,
           "valid": 1, "invalid": 0,
           "unreadable": 0, "unsupported game": 0, "incomplete": 0, "not read": ""}
    assert counts(at) == [{"file": "triple.txt", **row}]
    assert totals(at) == {"file": "All 1 file", **row}
    assert "No hand failed." in markdown_sources(at)
    at = finish_import(at.button(key="import_button").click().run())
    assert texts(at)[0] == "1 file: 0 new hands added, 1 already in the database."
    assert counts(at)[0]["added"] == 0
    assert counts(at)[0]["already present"] == 1
    assert queries.count_hands(db.connect(empty_db)) == 1


def manifest_hands(path: Path) -> int:
    """How many hands the corpus's MANIFEST.tsv says the file holds: the number opening its
    ``hands`` column (some rows say more after it, as "1 (0 parsed)")."""
    with (CORPUS / "MANIFEST.tsv").open(encoding="utf-8") as f:
        rows = {r["path"]: r["hands"] for r in csv.DictReader(f, delimiter="\t")}
    return int(rows[path.relative_to(CORPUS).as_posix()].split()[0])


def test_several_files_and_a_zip(empty_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    members = sorted(p for p in STARS.glob("*.txt"))
    # hands per file from the manifest: most files hold one hand, the PokerStars session 17
    hands = [manifest_hands(p) for p in members]
    assert sum(hands) == len(members) + 16
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in members:
            z.writestr(p.name, p.read_bytes())
    at = import_page(empty_db, monkeypatch)
    at = upload(at, [("stars.zip", buf.getvalue()), ("rit.txt", KINGS_RIT.read_bytes())])
    assert not at.exception
    rows = counts(at)
    assert [r["file"] for r in rows] == ["stars.zip", "rit.txt"]
    total = totals(at)
    assert total["file"] == "All 2 files"
    for column in ("hands read", "added", "valid", "invalid", "incomplete"):
        assert total[column] == rows[0][column] + rows[1][column]  # type: ignore[operator]
    assert texts(at)[0] == (f"2 files: {total['added']} new hands added, 0 already in the "
                            "database.")
    stars = rows[0]
    assert stars["hands read"] == sum(hands)
    assert stars["incomplete"] == 1  # the cancelled hand
    assert stars["valid"] + stars["invalid"] + stars["incomplete"] == sum(hands)
    assert rows[1]["invalid"] == 1
    inside = at.dataframe[1].value
    assert list(inside["file"]) == [f"stars.zip/{p.name}" for p in members]
    assert list(inside["hands"]) == hands
    assert int(inside["incomplete"].sum()) == 1
    con = db.connect(empty_db)
    assert queries.count_hands(con) == sum(hands) + 1


def test_failed_hands_list_file_line_and_raw_text(
    empty_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = import_page(empty_db, monkeypatch)
    at = upload(at, [("rit.txt", KINGS_RIT.read_bytes())])
    failed = at.dataframe[1].value
    assert set(failed["file"]) == {"rit.txt"}
    assert set(failed["verdict"]) == {"invalid"}
    assert "DUPLICATE_CARD" in set(failed["code"])
    first = failed.iloc[0]
    assert at.selectbox(key="failure_pick").value == 0
    raw = at.code[0].value
    original = KINGS_RIT.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
    assert raw.strip() in original
    assert original.splitlines()[int(first["line"]) - 1].strip() in raw


def test_a_second_import_counts_the_stored_hands_and_their_errors(
    empty_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = import_page(empty_db, monkeypatch)
    at = upload(at, [("rit.txt", KINGS_RIT.read_bytes())])
    first = counts(at)[0]
    con = db.connect(empty_db)
    stored, bad = con.execute(
        "SELECT count(*), count_if(status <> 'ok') FROM hands WHERE file = 'rit.txt'"
    ).fetchall()[0]
    con.close()
    assert bad > 0 and first["stored with errors"] == bad
    assert first["hands read"] == first["added"] == stored
    at = finish_import(at.button(key="import_button").click().run())
    again = counts(at)[0]
    assert (again["hands read"], again["added"], again["already present"],
            again["stored with errors"]) == (stored, 0, stored, bad)
    assert "No hand failed." not in markdown_sources(at)
    assert [w.value for w in at.warning] == [
        f"No hand read now failed, but {bad} hand{'s' if bad > 1 else ''} of these files "
        "stored earlier have errors: the Replayer lists them under \"Hands with problems\"."]


def test_garbage_upload_is_reported_not_crashed(
    empty_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = import_page(empty_db, monkeypatch)
    at = upload(at, [("noise.bin", bytes(range(256)) * 40),
                     ("triple.txt", STARS_TRIPLE.read_bytes())])
    assert not at.exception
    assert texts(at)[0] == ("2 files: 1 new hand added, 0 already in the database; "
                            "1 file could not be read.")
    row = counts(at)[0]
    # a file that is not a hand history is no hand read: it is a file not read, and why
    assert (row["hands read"], row["unreadable"], row["added"]) == (0, 0, 0)
    assert row["not read"] == "binary data, not a text hand history"  # named once, by its row
    assert list(at.dataframe[0].value.columns)[:3] == ["file", "not read", "hands read"]
    total = totals(at)
    assert (total["hands read"], total["unreadable"], total["not read"]) == (1, 0, "1 file")


def test_hostile_names_reach_no_markdown(
    empty_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = import_page(empty_db, monkeypatch)
    at = upload(at, [("<b>evil</b>[x](https://evil.example/).txt",
                      hostile_history().encode())])
    assert not at.exception
    assert counts(at)[0]["valid"] == 1
    for body in markdown_sources(at):
        assert "evil.example" not in body and "<b>" not in body
    con = db.connect(empty_db)
    stored = queries.get_hand(con, f"pokerstars:{HOSTILE_HAND_ID}")
    assert stored is not None and stored.hand is not None
    assert "[x](https://evil.example/)" in stored.hand.players


def test_unreadable_hand_is_listed_with_its_raw_text(
    empty_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = STARS_TRIPLE.read_text(encoding="utf-8-sig")
    bad = good.replace("63845186378", "63845186001").replace(
        "Player3: calls $0.10\n", "Player3: ca#lls $$0.10 zork\n", 1)
    at = import_page(empty_db, monkeypatch)
    at = upload(at, [("two.txt", (good + "\n\n\n" + bad).encode())])
    assert counts(at)[0]["valid"] == 1 and counts(at)[0]["unreadable"] == 1
    failed = at.dataframe[1].value
    assert list(failed["verdict"]) == ["unreadable"]
    assert list(failed["code"]) == ["PARSE_ERROR"]
    line = int(failed["line"].iloc[0])
    assert (good + "\n\n\n" + bad).splitlines()[line - 1] == "Player3: ca#lls $$0.10 zork"
    assert "Player3: ca#lls $$0.10 zork" in at.code[0].value
    assert "PokerStars Game #63845186001" in at.code[0].value


def test_replaying_the_stored_hands_again_from_the_page(
    corpus_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = db.connect(str(corpus_db))
    hands = queries.count_hands(con)
    invalid = con.execute("SELECT count(*) FROM hands WHERE status = 'invalid'").fetchone()
    con.execute("UPDATE hands SET status = 'ok', reason = NULL WHERE status = 'invalid'")
    con.execute("INSERT INTO meta VALUES ('replay_suggested', 'pots')")  # as a migration does
    con.close()
    at = import_page(corpus_db, monkeypatch)
    suggestion = "This database's hands were replayed by an older DrawLab"
    assert [i.value for i in at.info if str(i.value).startswith(suggestion)]
    at.button(key="reverify_button").click().run()
    assert "reverify_job" in at.session_state
    assert at.session_state["reverify_job"].wait(120)
    at.run()
    assert not at.exception
    assert invalid is not None
    assert f"{hands:,} hands replayed again, {invalid[0]:,} with a new verdict." in texts(at)
    table = at.dataframe[-1].value  # the replay's counts come last on the page
    rows = {r["verdict"]: (r["before"], r["after"]) for r in table.to_dict("records")}
    assert invalid[0] > 0
    assert rows["invalid"] == (0, invalid[0])
    assert rows["valid"][0] - rows["valid"][1] == invalid[0]
    assert not [i.value for i in at.info if str(i.value).startswith(suggestion)]
