"""One reading pipeline: import and verify read every source alike, so they count alike.

Both walk sources through ``parser.sources``; whatever a site's reader makes of a file
today, ``drawlab import`` and ``drawlab verify`` must give its hands the same statuses, and
its tournament summaries (a record of their own kind, never a hand) the same verdicts.
"""

from __future__ import annotations

import io
import zipfile
from collections import Counter
from pathlib import Path

import duckdb
import pytest

from analysis.pipeline.importer import ImportSummary, import_bytes, import_paths
from analysis.pipeline.verification import STATUSES
from analysis.pipeline.verify_files import verify_paths
from analysis.storage import db as dbmod
from parser.reader import read_bytes
from tests.corpus import CORPUS

FILES = sorted(p for p in CORPUS.rglob("*") if p.is_file())
TD = CORPUS / "cash/Stars/Draw/Triple Draw 2-7 Lowball-FL-USD-0.10-0.20-201106.sample.txt"
FOLD = CORPUS / "cash/Stars/Draw/5-Carddraw-FL-USD-0.10-0.20-201106.FoldedNodraw.txt"


SUMMARIES = sorted(p for p in FILES if p.is_relative_to(CORPUS / "summaries"))


def _stored(con: duckdb.DuckDBPyConnection) -> Counter[str]:
    c: Counter[str] = Counter(
        {
            s: int(n)
            for s, n in con.execute("SELECT status, count(*) FROM hands GROUP BY 1").fetchall()
        }
    )
    c["parse_error"] += int(con.execute("SELECT count(*) FROM quarantine").fetchall()[0][0])
    told = "SELECT count(*) FROM tournaments WHERE source = 'summary'"  # not by hands
    c["summary"] += int(con.execute(told).fetchall()[0][0])
    return +c


def _read(s: ImportSummary) -> Counter[str]:
    """The importer's verdicts as verify names them: hands by status, then summaries."""
    c = Counter(s.statuses)
    c["summary"] += s.summaries
    c["summary_error"] += len(s.summary_errors)
    return +c


def test_the_corpus_holds_summaries() -> None:
    assert len(SUMMARIES) == 3  # so the comparison below covers the summary kind


def test_the_corpus_is_all_there() -> None:
    assert len(FILES) >= 90  # hand files, sidecars, the manifest: every one is read


@pytest.mark.slow  # every corpus file verified and imported: make test runs it
@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CORPUS)) for p in FILES])
def test_import_and_verify_give_the_same_counts_per_status(path: Path, tmp_path: Path) -> None:
    verified = +Counter(r.status for r in verify_paths([path]))
    assert sum(verified.values()) >= 1  # every file gets at least one verdict
    con = dbmod.connect(tmp_path / "c.duckdb")
    summary = import_paths(con, [path], workers=0)
    assert _read(summary) == verified
    assert summary.hands == sum(n for s, n in verified.items() if s in STATUSES)
    stored = _stored(con)  # a rejected source leaves its message, no row
    stored["parse_error"] += len(summary.rejected)
    stored["summary_error"] += len(summary.summary_errors)
    assert +stored == verified
    if path in SUMMARIES:  # each corpus summary reads, as one summary and no hand
        assert verified == Counter({"summary": 1})


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_an_upload_with_a_nested_archive_is_read_alike_by_import_and_verify(
    tmp_path: Path,
) -> None:
    inner = _zip({"x/fold.txt": FOLD.read_bytes(), "notes.txt": b"shopping list\n"})
    data = _zip({"td.txt": TD.read_bytes(), "deep/inner.zip": inner})
    files = [(c.file, type(o).__name__) for c, o in read_bytes(data, "up.zip")]
    assert files == [
        ("up.zip/deep/inner.zip/notes.txt", "ParseError"),
        ("up.zip/deep/inner.zip/x/fold.txt", "Hand"),
        ("up.zip/td.txt", "Hand"),
    ]
    con = dbmod.connect(tmp_path / "u.duckdb")
    summary = import_bytes(con, "up.zip", data, workers=0)
    assert (summary.hands, summary.statuses["ok"], summary.statuses["parse_error"]) == (3, 2, 1)
    assert [m.split(":")[0] for m in summary.rejected] == ["up.zip/deep/inner.zip/notes.txt"]
    stored = con.execute("SELECT file FROM hands ORDER BY id").fetchall()
    assert stored == [("up.zip/deep/inner.zip/x/fold.txt",), ("up.zip/td.txt",)]


def test_archives_nested_too_deep_are_one_error_each_and_the_rest_is_read(
    tmp_path: Path,
) -> None:
    deep = _zip({"fold.txt": FOLD.read_bytes()})
    for _ in range(3):
        deep = _zip({"in.zip": deep})
    data = _zip({"td.txt": TD.read_bytes(), "a.zip": deep})
    results = [
        (c.file, str(o) if not hasattr(o, "hand_id") else "Hand")
        for c, o in read_bytes(data, "n.zip")
    ]
    assert results == [
        (
            "n.zip/a.zip/in.zip/in.zip",
            "n.zip/a.zip/in.zip/in.zip:1:1: archive nested too deep: not read",
        ),
        ("n.zip/td.txt", "Hand"),
    ]
    summary = import_bytes(dbmod.connect(tmp_path / "n.duckdb"), "n.zip", data, workers=0)
    assert summary.rejected == ["n.zip/a.zip/in.zip/in.zip: archive nested too deep: not read"]
    assert summary.statuses["ok"] == 1
