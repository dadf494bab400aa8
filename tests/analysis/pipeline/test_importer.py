"""Importing: every hand once, re-imports add nothing, grown files add only what is new."""

from __future__ import annotations

import io
import shutil
import zipfile
from collections import Counter
from pathlib import Path

import duckdb
import pytest

from analysis.pipeline.importer import ImportSummary, Progress, import_bytes, import_paths
from analysis.pipeline.verify_files import verify_paths
from analysis.storage import db as dbmod
from parser.sources import ARCHIVE_SEP
from tests.corpus import CORPUS
from tests.stack_breaks import stacks_changed
from tests.store_data import STARS_TRIPLE, stars_files, stars_history, write_history

TABLES = ("hands", "seats", "actions", "draws", "shows", "payouts", "problems", "quarantine")


def _db(tmp_path: Path, name: str = "t.duckdb") -> duckdb.DuckDBPyConnection:
    return dbmod.connect(tmp_path / name)


def _counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    tables = (*TABLES, "player_hands")
    return {t: int(con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]) for t in tables}


def _statuses(con: duckdb.DuckDBPyConnection) -> Counter[str]:
    c: Counter[str] = Counter(
        {
            s: int(n)
            for s, n in con.execute("SELECT status, count(*) FROM hands GROUP BY 1").fetchall()
        }
    )
    c["parse_error"] += int(con.execute("SELECT count(*) FROM quarantine").fetchall()[0][0])
    return +c


def _summary_statuses(s: ImportSummary) -> Counter[str]:
    return +Counter(s.statuses)


def test_import_gives_every_hand_the_verdict_drawlab_verify_gives(tmp_path: Path) -> None:
    files = stars_files()
    expected = Counter(r.status for r in verify_paths(files))
    con = _db(tmp_path)
    s = import_paths(con, files, workers=0)
    assert _summary_statuses(s) == +expected
    assert _statuses(con) == +expected
    assert s.hands == s.added == sum(expected.values())
    assert s.already_present == 0 and s.rejected == []
    keys = {r[0] for r in con.execute("SELECT key FROM hands").fetchall()}
    assert "pokerstars:63845186378" in keys


def test_reimport_adds_nothing_and_says_so(tmp_path: Path) -> None:
    files = stars_files()
    con = _db(tmp_path)
    first = import_paths(con, files, workers=0)
    before = _counts(con)
    again = import_paths(con, files, workers=0)
    assert _counts(con) == before
    assert again.added == 0
    assert again.hands == 0  # unchanged files are not even parsed
    assert again.unchanged == len(files)
    assert again.already_present == first.hands


def test_same_hands_in_another_file_are_already_present(tmp_path: Path) -> None:
    con = _db(tmp_path)
    write_history(tmp_path / "a.txt", 30)
    import_paths(con, [tmp_path / "a.txt"], workers=0)
    # hands 20..49: the first ten are stored already, twenty are new
    write_history(tmp_path / "b.txt", 30, first_id=900_000_000_020)
    s = import_paths(con, [tmp_path / "b.txt"], workers=0)
    assert (s.hands, s.added, s.already_present) == (30, 20, 10)
    assert _counts(con)["hands"] == 50


def test_copied_file_is_recognised_by_content(tmp_path: Path) -> None:
    con = _db(tmp_path)
    write_history(tmp_path / "a.txt", 12)
    import_paths(con, [tmp_path / "a.txt"], workers=0)
    shutil.copy(tmp_path / "a.txt", tmp_path / "copy.txt")
    s = import_paths(con, [tmp_path / "copy.txt"], workers=0)
    assert (s.unchanged, s.hands, s.added, s.already_present) == (1, 0, 0, 12)


def test_grown_file_imports_only_its_new_hands(tmp_path: Path) -> None:
    con = _db(tmp_path)
    path = tmp_path / "grows.txt"
    first_part = stars_history(25)
    path.write_text(first_part, encoding="utf-8")
    import_paths(con, [path], workers=0)
    assert _counts(con)["hands"] == 25
    with path.open("a", encoding="utf-8") as f:
        f.write(stars_history(15, first_id=900_000_000_025))
    s = import_paths(con, [path], workers=0)
    assert (s.added, s.already_present) == (15, 1)  # the last hand is read again, no more
    assert s.hands == 16
    assert _counts(con)["hands"] == 40
    ids = {r[0] for r in con.execute("SELECT hand_id FROM hands").fetchall()}
    assert ids == {str(900_000_000_000 + i) for i in range(40)}
    # and the whole file read into a fresh database gives the same rows
    fresh = _db(tmp_path, "fresh.duckdb")
    import_paths(fresh, [path], workers=0)
    assert _counts(fresh) == _counts(con)


def test_half_written_last_hand_is_completed_when_the_file_grows(tmp_path: Path) -> None:
    con = _db(tmp_path)
    path = tmp_path / "live.txt"
    whole = stars_history(11)
    cut = whole.rindex("*** SUMMARY ***")  # the client has not finished the 11th hand
    path.write_text(whole[:cut], encoding="utf-8")
    first = import_paths(con, [path], workers=0)
    assert first.hands == 11
    assert first.statuses["ok"] + first.statuses["invalid"] < 11 or first.statuses["ok"] == 11
    with path.open("a", encoding="utf-8") as f:
        f.write(whole[cut:])
        f.write(stars_history(4, first_id=900_000_000_011))
    import_paths(con, [path], workers=0)
    fresh = _db(tmp_path, "fresh.duckdb")
    import_paths(fresh, [path], workers=0)
    assert _counts(con) == _counts(fresh)
    assert _statuses(con) == _statuses(fresh)
    assert _counts(con)["hands"] == 15


@pytest.mark.slow
def test_parallel_workers_store_exactly_what_one_process_stores(tmp_path: Path) -> None:
    path = write_history(tmp_path / "h.txt", 600)
    one = _db(tmp_path, "one.duckdb")
    two = _db(tmp_path, "two.duckdb")
    s1 = import_paths(one, [path], workers=0, batch_hands=250)
    s2 = import_paths(two, [path], workers=2, batch_hands=250)
    assert s1.statuses == s2.statuses and s1.added == s2.added == 600
    assert _counts(one) == _counts(two)
    q = "SELECT key, status, total_pot, errors FROM hands ORDER BY id"
    assert one.execute(q).fetchall() == two.execute(q).fetchall()
    q = "SELECT hand, idx, player, kind, amount FROM actions ORDER BY hand, idx"
    assert one.execute(q).fetchall() == two.execute(q).fetchall()


def test_every_text_is_kept_and_ids_follow_import_order(tmp_path: Path) -> None:
    con = _db(tmp_path)
    path = write_history(tmp_path / "h.txt", 40)
    import_paths(con, [path], workers=0, batch_hands=7)
    rows = con.execute("SELECT id, hand_id, text FROM hands ORDER BY id").fetchall()
    assert [r[0] for r in rows] == list(range(1, 41))
    assert [r[1] for r in rows] == [str(900_000_000_000 + i) for i in range(40)]
    assert "\n\n\n".join(r[2] for r in rows) + "\n\n\n" == stars_history(40)


def test_player_hands_rows_come_from_the_facts(tmp_path: Path) -> None:
    from analysis.statistics.facts import hand_facts

    con = _db(tmp_path)
    import_paths(con, [STARS_TRIPLE], workers=0)
    hand = next(r.hand for r in verify_paths([STARS_TRIPLE]) if r.hand is not None)
    facts = hand_facts(hand)
    rows = con.execute("SELECT player, net, vpip FROM player_hands ORDER BY seat").fetchall()
    assert rows == [(f.player, f.net, f.vpip) for f in sorted(facts, key=lambda f: f.seat)]
    assert ("Player1", 129 - 60, True) in rows  # won 1.29 having put in 0.60


def test_import_batches_and_files_record_each_source(tmp_path: Path) -> None:
    con = _db(tmp_path)
    path = write_history(tmp_path / "h.txt", 20)
    import_paths(con, [path], workers=0, batch_hands=6)
    batch = con.execute(
        "SELECT file, size, hands, added, already_present, ok + invalid, finished IS NOT NULL "
        "FROM import_batches"
    ).fetchall()
    size = path.stat().st_size
    assert batch == [(str(path), size, 20, 20, 0, 20, True)]
    files = con.execute("SELECT path, size, hands FROM files").fetchall()
    assert files == [(str(path), size, 20)]


# --- bad input -------------------------------------------------------------------------


def _good(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    return write_history(folder / "good.txt", 5)


def _rejected_for(s: ImportSummary, path: Path | str) -> str:
    found = [m for m in s.rejected if m.startswith(str(path))]
    assert len(found) == 1, s.rejected
    return found[0]


def test_binary_file_is_rejected_by_name_and_the_rest_imported(tmp_path: Path) -> None:
    good = _good(tmp_path)
    binary = good.parent / "photo.jpg"
    binary.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(range(256)) * 50)
    s = import_paths(_db(tmp_path), [good.parent], workers=0)
    assert "binary" in _rejected_for(s, binary)
    assert s.added == 5


def test_enormous_line_is_rejected_by_name_and_line(tmp_path: Path) -> None:
    good = _good(tmp_path)
    big = good.parent / "huge.txt"
    before = stars_history(2, first_id=1)
    big.write_text(before + "x" * (3 << 20) + "\n", encoding="utf-8")
    s = import_paths(_db(tmp_path), [good.parent], workers=0)
    message = _rejected_for(s, big)
    assert message.startswith(f"{big}:{before.count(chr(10)) + 1}: a line of 1,048,576 characters")
    assert s.added == 5 + 2  # the hands before it are kept


def test_zip_bomb_is_refused_before_expanding(tmp_path: Path) -> None:
    good = _good(tmp_path)
    bomb = good.parent / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("hands.txt", b"\0" * (40 << 20))
    s = import_paths(_db(tmp_path), [good.parent], workers=0)
    assert "zip bomb" in _rejected_for(s, bomb)
    assert s.added == 5


def test_unreadable_and_missing_paths_are_rejected(tmp_path: Path) -> None:
    good = _good(tmp_path)
    dangling = good.parent / "gone.txt"
    dangling.symlink_to(tmp_path / "nowhere.txt")
    missing = tmp_path / "missing.txt"
    s = import_paths(_db(tmp_path), [good.parent, missing], workers=0)
    assert "cannot read" in _rejected_for(s, dangling)
    assert "no such file" in _rejected_for(s, missing)
    assert s.added == 5


def test_text_of_no_known_site_is_rejected(tmp_path: Path) -> None:
    good = _good(tmp_path)
    notes = good.parent / "notes.txt"
    notes.write_text("shopping list\nmilk\n", encoding="utf-8")
    s = import_paths(_db(tmp_path), [good.parent], workers=0)
    assert "not a hand history" in _rejected_for(s, notes)
    assert s.added == 5


# --- archives, folders, uploads ---------------------------------------------------------


def test_zip_and_folder_import_the_same_hands(tmp_path: Path) -> None:
    folder = tmp_path / "hist"
    (folder / "sub").mkdir(parents=True)
    write_history(folder / "a.txt", 8)
    write_history(folder / "sub" / "b.txt", 6, first_id=900_000_001_000)
    archive = tmp_path / "hist.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(folder / "a.txt", "a.txt")
        zf.write(folder / "sub" / "b.txt", "sub/b.txt")
    from_folder = _db(tmp_path, "f.duckdb")
    from_zip = _db(tmp_path, "z.duckdb")
    assert import_paths(from_folder, [folder], workers=0).added == 14
    assert import_paths(from_zip, [archive], workers=0).added == 14
    q = "SELECT key, status FROM hands ORDER BY key"
    assert from_folder.execute(q).fetchall() == from_zip.execute(q).fetchall()
    files = {r[0] for r in from_zip.execute("SELECT DISTINCT file FROM hands").fetchall()}
    assert files == {f"{archive}{ARCHIVE_SEP}a.txt", f"{archive}{ARCHIVE_SEP}sub/b.txt"}


def test_upload_imports_once(tmp_path: Path) -> None:
    con = _db(tmp_path)
    data = stars_history(9).encode("utf-8")
    first = import_bytes(con, "upload.txt", data)
    again = import_bytes(con, "upload.txt", data)
    assert (first.added, again.added, again.already_present) == (9, 0, 9)


def test_zip_upload_imports_its_members(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("x.txt", stars_history(3))
        zf.writestr("y.txt", stars_history(4, first_id=5))
    s = import_bytes(_db(tmp_path), "up.zip", buf.getvalue())
    assert (s.files, s.added) == (2, 7)


def test_progress_reports_hands_and_files(tmp_path: Path) -> None:
    path = write_history(tmp_path / "h.txt", 30)
    seen: list[Progress] = []
    import_paths(_db(tmp_path), [path], progress=seen.append, workers=0)
    assert seen[-1].hands == 30
    assert (seen[-1].files_done, seen[-1].files_total) == (1, 1)
    assert [p.hands for p in seen] == sorted(p.hands for p in seen)


@pytest.mark.slow
@pytest.mark.parametrize("workers", [0, 2])
def test_summary_json_counts(tmp_path: Path, workers: int) -> None:
    path = write_history(tmp_path / "h.txt", 24)
    s = import_paths(_db(tmp_path), [path], workers=workers)
    d = s.as_dict()
    assert d["hands"] == 24 and d["added"] == 24 and d["already_present"] == 0
    assert sum(d[k] for k in ("ok", "invalid", "parse_error", "unsupported", "incomplete")) == 24


def test_progress_fraction_reaches_one_by_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from analysis.pipeline import importer

    monkeypatch.setattr(importer, "TASK_HANDS", 200)  # several tasks in the first file
    a = write_history(tmp_path / "a.txt", 450)
    b = write_history(tmp_path / "b.txt", 10, first_id=5)
    seen: list[Progress] = []
    import_paths(_db(tmp_path), [a, b], progress=seen.append, workers=0)
    assert seen[-1].bytes_total == a.stat().st_size + b.stat().st_size
    assert seen[-1].fraction == 1.0
    fractions = [p.fraction for p in seen]
    assert fractions == sorted(fractions)
    assert any(0 < f < 0.5 for f in fractions)  # moves within the first file


@pytest.mark.slow
def test_stack_carry_over_is_checked_across_worker_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The importer's carry-over findings are engine.continuity's over the whole file."""

    from analysis.pipeline import importer

    monkeypatch.setattr(importer, "TASK_HANDS", 200)

    from engine.continuity import check_continuity

    # stacks that do not follow around the 200-hand batch boundaries
    texts = stacks_changed(450, (150, 199, 200, 201, 390), 3)
    path = tmp_path / "session.txt"
    path.write_text("\n\n\n".join(texts) + "\n", encoding="utf-8")
    con = _db(tmp_path)
    import_paths(con, [path], workers=0, batch_hands=100)
    found = {
        (hand_id, code)
        for hand_id, code in con.execute(
            "SELECT h.hand_id, p.code FROM problems p JOIN hands h ON h.id = p.hand "
            "WHERE p.code LIKE 'STACK_%'"
        ).fetchall()
    }
    hands = [r.hand for r in verify_paths([path]) if r.hand is not None]
    expected = {
        (hand_id, p.code) for (_, hand_id), ps in check_continuity(hands).items() for p in ps
    }
    assert found == expected
    assert len({h for h, _ in expected}) >= 5  # changed stacks, and hands after them


_UNSTATED_PHHS = """[1]
variant = 'F2L3D'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100]
actions = ['d dh p1 KsQsJsTs9h', 'd dh p2 8c6d4h3s2c', 'd dh p3 8d6c4s3h2d', 'p3 cbr 4', \
'p1 f', 'p2 cc', 'p2 sd', 'p3 sd', 'p2 cc', 'p3 cc', 'p2 sd', 'p3 sd', 'p2 cc', 'p3 cc', \
'p2 sd', 'p3 sd', 'p2 cc', 'p3 cc', 'p2 sm 8c6d4h3s2c', 'p3 sm 8d6c4s3h2d']
table = 7
players = ['Ann', 'Bob', 'Cy']

[2]
variant = 'F2L3D'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [99, 101, 100]
actions = ['d dh p1 KsQsJsTs9h', 'd dh p2 8c6d4h3s2c', 'd dh p3 8d6c4s3h2d', 'p3 cbr 4', \
'p1 f', 'p2 cc', 'p2 sd', 'p3 sd', 'p2 cc', 'p3 cc', 'p2 sd', 'p3 sd', 'p2 cc', 'p3 cc', \
'p2 sd', 'p3 sd', 'p2 cc', 'p3 cc', 'p2 sm 8c6d4h3s2c', 'p3 sm 8d6c4s3h2d']
table = 7
players = ['Ann', 'Bob', 'Cy']
finishing_stacks = [98, 102, 100]
"""


def test_a_hand_with_unstated_payouts_carries_no_stacks_on_import_as_in_verify(
    tmp_path: Path,
) -> None:
    """The first hand says nothing of who won the split pot (Bob really got the odd chip),
    so the second hand's stacks cannot be checked against it: not by ``drawlab verify``,
    and not by the importer, whose workers send the carry-over check only a summary."""
    path = tmp_path / "table7.phhs"
    path.write_text(_UNSTATED_PHHS, encoding="utf-8")
    verified = [(r.line, sorted(p.code for p in r.problems)) for r in verify_paths([path])]
    assert verified == [(2, ["PAYOUT_UNSTATED"]), (13, [])]
    con = _db(tmp_path)
    import_paths(con, [path], workers=0)
    stored = con.execute(
        "SELECT h.line, coalesce(list_sort(list(p.code) FILTER (p.code IS NOT NULL)), []) "
        "FROM hands h LEFT JOIN problems p ON p.hand = h.id GROUP BY h.line ORDER BY h.line"
    ).fetchall()
    assert stored == [(2, ["PAYOUT_UNSTATED"]), (13, [])]


def test_an_import_gives_back_the_database_settings_it_changed(tmp_path: Path) -> None:
    """The import narrows DuckDB to one thread and a small cache while it appends; the
    dashboard's queries after it get the connection as it was."""
    con = _db(tmp_path)
    con.execute("SET threads = 3")
    con.execute("SET memory_limit = '2GiB'")
    before = con.execute(
        "SELECT current_setting('threads'), current_setting('memory_limit'), "
        "current_setting('checkpoint_threshold')"
    ).fetchone()
    import_paths(con, [write_history(tmp_path / "a.txt", 30)], workers=0)
    after = con.execute(
        "SELECT current_setting('threads'), current_setting('memory_limit'), "
        "current_setting('checkpoint_threshold')"
    ).fetchone()
    assert after == before
    assert before is not None and before[0] == 3


@pytest.mark.slow
def test_imports_leave_the_default_memory_limit_exactly_as_it_was(tmp_path: Path) -> None:
    """DuckDB shows its default limit rounded; an import must not shave a little off it
    every time (the dashboard imports many times in one process)."""
    con = _db(tmp_path)
    default = con.execute("SELECT current_setting('memory_limit')").fetchone()
    for i in range(3):
        import_paths(con, [write_history(tmp_path / f"{i}.txt", 3, first_id=10 * i + 1)], workers=0)
    assert con.execute("SELECT current_setting('memory_limit')").fetchone() == default


@pytest.mark.slow
def test_a_grown_merge_session_reads_its_later_games_with_the_first_description(
    tmp_path: Path,
) -> None:
    # One <description> heads all 15 games of the session; a resumed import must still
    # know it for the games that arrive later.
    session = CORPUS / "cash/Merge/Draw/3-Draw-Limit-USD-1-2-201104.Multi.hand.sample.txt"
    text = session.read_text(encoding="utf-8")
    cut = text.index('<game id="33423082-15"')
    path = tmp_path / "merge-session.txt"
    path.write_text(text[:cut], encoding="utf-8")
    con = _db(tmp_path)
    first = import_paths(con, [path], workers=0)
    assert _summary_statuses(first) == Counter({"ok": 14})
    path.write_text(text, encoding="utf-8")
    grown = import_paths(con, [path], workers=0)
    assert (grown.added, grown.already_present) == (1, 1)
    assert _statuses(con) == Counter({"ok": 15})
    ids = {r[0] for r in con.execute("SELECT hand_id FROM hands").fetchall()}
    assert ids == {f"33423082-{i}" for i in range(1, 16)}
