"""``key_counts``: the filter pickers' combinations and their hands, without the
statistics, are exactly ``summary``'s by the same columns, from the cells and the rows."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from analysis.pipeline.importer import import_paths
from analysis.statistics import figures as stats
from analysis.storage import db, stat_cells
from analysis.storage.filters import Filters
from tests.paths import REPOSITORY
from tests.store_data import CORPUS

BY = ("site", "game", "stakes", "players", "currency")


def _summed(con: db.Connection, by: tuple[str, ...], f: Filters) -> pd.DataFrame:
    full = stats.summary(con, f, by=by, stats=())
    out = (full.groupby(list(by), dropna=False, sort=True)["hands"].sum().astype("int64")
           .reset_index())
    return out.sort_values(list(by), na_position="last").reset_index(drop=True)


def _counted(con: db.Connection, by: tuple[str, ...], f: Filters) -> pd.DataFrame:
    got = stats.key_counts(con, by, f)
    got["hands"] = got["hands"].astype("int64")
    return got.sort_values(list(by), na_position="last").reset_index(drop=True)


@pytest.mark.slow
def test_key_counts_are_the_summarys_hands_per_combination(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = db.connect(tmp_path / "k.duckdb")
    import_paths(con, [CORPUS, REPOSITORY / "sample_histories"], workers=0)
    assert stat_cells.current(con)
    cases = [(BY, Filters()), (("site",), Filters()), (("currency", "players"), Filters()),
             (BY, Filters(tournament=True)), (BY, Filters(position="BTN", players_min=3)),
             (BY, Filters(valid_only=True))]  # the last from the rows: cells keep no verdict
    for by, f in cases:
        got = _counted(con, by, f)
        assert len(got) > 0 and int(got["hands"].sum()) > 0
        pd.testing.assert_frame_equal(got, _summed(con, by, f), check_dtype=False)
        with monkeypatch.context() as m:
            m.setattr(stat_cells, "current", lambda c: False)
            pd.testing.assert_frame_equal(_counted(con, by, f), got, check_dtype=False)
    with pytest.raises(ValueError):
        stats.key_counts(con, ("site; DROP TABLE hands",))
