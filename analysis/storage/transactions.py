"""Rolling back a transaction that failed, without a second exception.

When DuckDB's ``COMMIT`` itself fails (a full disk while the log is written), DuckDB has
already ended the transaction, and a ``ROLLBACK`` then raises "no transaction is active"
over the real failure.  Every writer's ``except`` calls ``rollback`` instead, so the user
is told about the full disk, not about the clean-up.
"""

from __future__ import annotations

import contextlib
from typing import Any

import duckdb


def rollback(con: Any) -> None:
    """Undo the open transaction of ``con``, if there still is one; the failure being
    handled is the one worth reporting, so a failed rollback is not raised over it."""
    with contextlib.suppress(duckdb.Error):
        con.execute("ROLLBACK")
