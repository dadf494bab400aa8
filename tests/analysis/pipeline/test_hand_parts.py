"""Disk files read by the importer's workers in parts: the same rows as this process's cut.

``hand_parts`` cuts a file into runs of hands that a worker reads itself
(``importer.read_part``); a pool of another machine's workers (a Dask cluster) still gets
hand texts cut here.  Both ways must store the same rows, ids included, whatever the
file holds: a byte-order mark, cp1252 text, a line that stops the file in a middle part,
a file that grew since the last import.
"""

from __future__ import annotations

import codecs
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from analysis.pipeline import importer
from analysis.pipeline.hand_parts import hand_parts
from analysis.storage import db as dbmod
from parser.ranges import Part
from parser.sources import iter_sources
from tests.store_data import stars_files, stars_history

TABLES = ("hands", "quarantine", "seats", "actions", "draws", "shows", "payouts",
          "problems", "pots", "player_hands")  # fmt: skip
SEP = "\n\n\n"
HEAD = re.compile(rb"^PokerStars (?:Hand|Game) #", re.MULTILINE)


class InlinePool:
    """A pool the caller gives (as a Dask cluster's would be): the importer cuts the hand
    texts itself and sends them, run here through a pickle as a worker's would be."""

    def __init__(self) -> None:
        self.slots = 4
        self.calls: list[str] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any:
        self.calls.append(fn.__name__)
        return pickle.loads(pickle.dumps(fn(*pickle.loads(pickle.dumps(args)))))

    def result(self, handle: Any) -> Any:
        return handle

    def close(self, broken: bool) -> None:
        pass


def _tables(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    con = dbmod.connect(path, read_only=True)
    try:
        out = {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}
        out["files"] = con.execute(
            "SELECT path, size, checksum, resume_line, hands FROM files ORDER BY ALL"
        ).fetchall()
        out["import_batches"] = con.execute(
            "SELECT id, file, hands, added, already_present, ok, invalid, parse_error, "
            "unsupported, incomplete, rejected FROM import_batches ORDER BY ALL"
        ).fetchall()
        return out
    finally:
        con.close()


def _import(
    db: Path, paths: list[Path], pool: Any = None, workers: int = 0
) -> importer.ImportSummary:
    con = dbmod.connect(db)
    try:
        return importer.import_paths(con, paths, workers=workers, pool=pool)
    finally:
        con.close()


def _both(tmp_path: Path, paths: list[Path], tag: str = "") -> tuple[Any, Any]:
    """Summaries of the import by parts (this machine) and by cut texts (a given pool),
    each into its own database, after checking the two databases hold the same rows."""
    pool = InlinePool()
    by_parts = _import(tmp_path / f"parts{tag}.duckdb", paths)
    by_texts = _import(tmp_path / f"texts{tag}.duckdb", paths, pool=pool)
    assert set(pool.calls) <= {"parse_task"}
    assert _tables(tmp_path / f"parts{tag}.duckdb") == _tables(tmp_path / f"texts{tag}.duckdb")
    return by_parts, by_texts


def _summary(s: importer.ImportSummary) -> tuple[Any, ...]:
    return (s.hands, s.added, s.already_present, dict(s.statuses), s.rejected, s.held)


def _source(path: Path) -> Any:
    (src,) = iter_sources([path])
    return src


def test_a_file_is_cut_into_runs_of_so_many_hands_that_cover_it(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_text(stars_history(50), encoding="utf-8")
    found = hand_parts(_source(path), 7)
    assert found is not None and len(found) == 8  # 7 x 7 + 1
    data = path.read_bytes()
    assert [p.start for p in found] == [0] + [p.end for p in found[:-1]]
    assert found[-1].end is None
    for p in found:
        piece = data[p.start : p.end]
        assert re.match(HEAD, piece)
        assert len(re.findall(HEAD, piece)) == (1 if p is found[-1] else 7)
        assert p.line == data.count(b"\n", 0, p.start) + 1
        assert (p.encoding, p.site) == ("utf-8", "pokerstars")


def test_a_small_file_is_one_part_and_a_big_one_is_cut_by_bytes(tmp_path: Path) -> None:
    small = tmp_path / "s.txt"
    small.write_text(stars_history(3), encoding="utf-8")
    assert hand_parts(_source(small), 500) == [Part(str(small), str(small))]
    big = tmp_path / "b.txt"
    big.write_text(stars_history(3000), encoding="utf-8")  # over 4 MB
    found = hand_parts(_source(big), 100)
    assert found is not None
    sizes = [(p.end or big.stat().st_size) - p.start for p in found]
    assert all(100 << 10 <= s < (100 << 10) + 5000 for s in sizes[:-1])  # 100 KiB and a hand
    assert found[0].encoding == ""  # read as the whole file is: its first block is there


@pytest.mark.slow
def test_parts_store_what_cut_texts_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importer, "TASK_HANDS", 9)
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "plain.txt").write_text(stars_history(100), encoding="utf-8")
    # a byte-order mark, and cp1252 text (a name with an accent) in a later part
    texts = stars_history(60, first_id=1).split(SEP)
    texts[40] = texts[40].replace("Seat 1: ", "Seat 1: Jos\u00e9", 1)
    (folder / "bom.txt").write_bytes(codecs.BOM_UTF8 + SEP.join(texts).encode("utf-8"))
    (folder / "latin.txt").write_bytes(
        stars_history(45, first_id=7_000)
        .replace("Seat 2: ", "Seat 2: M\u00fcller", 1)
        .encode("cp1252")
    )
    for real in stars_files():
        (folder / real.name).write_bytes(real.read_bytes())
    by_parts, by_texts = _both(tmp_path, [folder])
    assert _summary(by_parts) == _summary(by_texts)
    assert (by_parts.hands, by_parts.added) == (235, 235)  # 205 made here, 30 of the corpus
    con = dbmod.connect(tmp_path / "parts.duckdb", read_only=True)
    try:
        names = {r[0] for r in con.execute("SELECT player FROM seats").fetchall()}
    finally:
        con.close()
    assert {n for n in names if n.startswith(("Jos\u00e9", "M\u00fcller"))} != set()


def test_a_line_that_stops_the_file_in_a_middle_part_keeps_the_hands_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importer, "TASK_HANDS", 5)
    texts = stars_history(40).split(SEP)
    texts[22] = texts[22] + "\n" + "x" * (1 << 20)  # an enormous line after the 23rd hand
    path = tmp_path / "stops.txt"
    path.write_text(SEP.join(texts), encoding="utf-8")
    by_parts, by_texts = _both(tmp_path, [path])
    assert _summary(by_parts) == _summary(by_texts)
    assert by_parts.added == 23
    (message,) = by_parts.rejected
    assert "a line of 1,048,576 characters or more" in message


@pytest.mark.slow
def test_a_grown_file_goes_on_from_its_last_hand_in_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importer, "TASK_HANDS", 4)
    path = tmp_path / "grows.txt"
    path.write_text(stars_history(30), encoding="utf-8")
    first = _both(tmp_path, [path])
    with path.open("a", encoding="utf-8") as f:
        f.write(stars_history(21, first_id=900_000_000_030))
    by_parts, by_texts = _both(tmp_path, [path])
    assert _summary(by_parts) == _summary(by_texts)
    assert (by_parts.added, by_parts.already_present, by_parts.hands) == (21, 1, 22)
    assert first[0].added == 30
    fresh = _import(tmp_path / "fresh.duckdb", [path])
    assert fresh.added == 51


def test_a_watchers_read_holds_the_last_hand_of_the_last_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importer, "TASK_HANDS", 3)
    whole = stars_history(20)
    cut = whole.rindex("*** SUMMARY ***")
    path = tmp_path / "live.txt"
    path.write_text(whole[:cut], encoding="utf-8")
    con = dbmod.connect(tmp_path / "w.duckdb")
    try:
        held = importer.import_paths(con, [path], workers=0, hold_tail=True)
        assert (held.added, held.held) == (19, [str(path)])
        path.write_text(whole, encoding="utf-8")
        done = importer.import_paths(con, [path], workers=0, hold_tail=True)
        assert (done.added, done.held) == (1, [])
        count = con.execute("SELECT count(*) FROM hands").fetchone()
        assert count is not None and count[0] == 20
    finally:
        con.close()


@pytest.mark.slow
def test_workers_read_the_parts_and_store_what_one_process_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importer, "TASK_HANDS", 25)
    path = tmp_path / "h.txt"
    path.write_text(stars_history(300), encoding="utf-8")
    _import(tmp_path / "two.duckdb", [path], workers=2)
    _import(tmp_path / "one.duckdb", [path], workers=0)
    assert _tables(tmp_path / "two.duckdb") == _tables(tmp_path / "one.duckdb")


def test_stacks_followed_within_parts_find_what_one_tracker_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables' hands interleaved, stacks changed at and between the parts' edges, a
    hand that does not read between two hands of a table: the workers follow each part's
    chains and the main process only their edges, and find what the cut texts' tracker
    (every hand in the main process) and ``drawlab verify`` finds."""
    from analysis.pipeline.verify_files import verify_paths
    from engine.record import Game
    from engine.sim.dealer import deal_hands
    from parser.pokerstars_writer import write_pokerstars

    monkeypatch.setattr(importer, "TASK_HANDS", 4)
    one = [write_pokerstars(h) for h in deal_hands(30, Game.TRIPLE_DRAW_27, 3, seed=5)]
    two = [write_pokerstars(h) for h in deal_hands(30, Game.TRIPLE_DRAW_A5, 4, seed=6,
                                                   first_hand_id=500_000)]  # fmt: skip
    two = [t.replace("Table '", "Table 'Other ", 1) for t in two]
    texts = [t for pair in zip(one, two, strict=True) for t in pair]
    for i in (3, 4, 8, 9, 21, 40):  # edges of parts of 4 hands, and inside them
        texts[i] = re.sub(
            r"^(Seat \d+: .+? \(\$)([\d,.]+)( in chips)",
            lambda m: f"{m.group(1)}{float(m.group(2).replace(',', '')) + 7:.2f}{m.group(3)}",
            texts[i], count=1, flags=re.MULTILINE,
        )  # fmt: skip
    texts[30] = "PokerStars Hand #1: this hand does not read"
    path = tmp_path / "two_tables.txt"
    path.write_text(SEP.join(texts) + "\n", encoding="utf-8")
    by_parts, by_texts = _both(tmp_path, [path])
    assert _summary(by_parts) == _summary(by_texts)
    con = dbmod.connect(tmp_path / "parts.duckdb", read_only=True)
    try:
        found = set(con.execute(
            "SELECT h.hand_id, p.code FROM problems p JOIN hands h ON h.id = p.hand "
            "WHERE p.code LIKE 'STACK_%'"
        ).fetchall())  # fmt: skip
    finally:
        con.close()
    expected = {
        (r.hand_id, p.code)
        for r in verify_paths([path])
        for p in r.problems
        if p.code.startswith("STACK_")
    }
    assert found == expected
    assert len({h for h, _ in expected}) >= 6
