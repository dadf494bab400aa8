"""The watcher's line for a batch says what tournament summaries it stored."""

from __future__ import annotations

from analysis.pipeline.importer import ImportSummary
from analysis.pipeline.watch import Batch


def test_the_batch_line_counts_summaries_stored_and_not_read() -> None:
    s = ImportSummary(summaries=3, summaries_added=2, summary_errors=["a.txt:2: bad"])
    line = Batch(("a.txt",), s).line()
    assert line[9:] == ("a.txt: 0 hands added, 0 already present, 0 problems, "
                        "2 of 3 tournament summaries stored, 1 not read")
    assert Batch(("b.txt",), ImportSummary()).line()[9:] == (
        "b.txt: 0 hands added, 0 already present, 0 problems")
