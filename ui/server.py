"""The dashboard's server process: Streamlit's own, with the pages' libraries imported
while it starts, so that the first visit does not wait for them.

``drawlab app`` runs ``python -m ui.server run app.py ...`` (``ui.launch.command``): the
arguments are Streamlit's command line.  Streamlit runs a page's script only when a
browser opens it, so the first run of a process used to import pandas, DuckDB, plotly and
our statistics itself, seconds on a busy machine, before it drew anything; here a thread
imports them while the server starts and waits for a browser.  A run that needs a module
still being imported waits for that import (Python's import lock), never imports it twice.
"""

from __future__ import annotations

import sys
import threading


def warm() -> None:
    """Import what the overview's first run needs (its libraries and our modules)."""
    import duckdb  # noqa: F401
    import pandas  # noqa: F401
    import plotly.graph_objects  # noqa: F401
    import pyarrow  # noqa: F401

    from analysis.statistics import figures, offers  # noqa: F401
    from ui import charts, data, labels, memory_panel, scope, state  # noqa: F401


def main() -> None:
    from streamlit.web import cli

    threading.Thread(target=warm, name="drawlab-warm", daemon=True).start()
    sys.exit(cli.main(prog_name="streamlit"))


if __name__ == "__main__":
    main()
