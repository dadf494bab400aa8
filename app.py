"""DrawLab dashboard: routing only.  Each page lives in ``ui/`` and reads from ``analysis/``.

Run with ``streamlit run app.py`` (or ``make run``).  The database is the one
``analysis.storage.db`` picks (``DRAWLAB_DB`` or ``~/.drawlab/drawlab.duckdb``); on a first start
it is filled with the bundled ``sample_histories`` (see ``ui.state``); the folders the
Import page watches are imported as they change while it runs (``ui.watching``).
"""

import streamlit as st

st.set_page_config(page_title="DrawLab", page_icon="🂡", layout="wide")
# The first run of a process imports pandas, DuckDB and the readers (seconds): say so at
# once rather than leave the page blank; the pages' own spinners follow.
STARTING = st.empty()
STARTING.caption("Starting DrawLab…")

from analysis.faults import FAULTS  # noqa: E402  (after the message, on purpose)
from ui import scope, state, watching  # noqa: E402

PAGES = [
    st.Page("ui/overview_page.py", title="Overview & statistics", icon=":material/monitoring:",
            default=True),
    st.Page("ui/replayer_page.py", title="Replayer", icon=":material/style:",
            url_path="replayer"),
    st.Page("ui/import_page.py", title="Import", icon=":material/upload_file:",
            url_path="import"),
    st.Page("ui/drills_page.py", title="Drills", icon=":material/school:", url_path="drills"),
    st.Page("ui/review_page.py", title="Review", icon=":material/troubleshoot:", url_path="review"),
    st.Page("ui/live_page.py", title="Live session", icon=":material/sensors:", url_path="live"),
    st.Page("ui/hud_page.py", title="HUD", icon=":material/table_view:", url_path="hud"),
    st.Page("ui/tournaments_page.py", title="Tournaments", icon=":material/emoji_events:",
            url_path="tournaments"),
]


def main() -> None:
    try:
        page = st.navigation(PAGES)
        STARTING.empty()
        scope.zone_picker(state.connection())  # every page's times in one zone
        scope.samples_notice(state.connection())  # on every page while they are stored
        state.own_statistics()  # the player's own statistics, beside the built-in ones
        page.run()
        watching.watcher()  # the watched folders' thread, started once per database (ui.watching)
    except FAULTS as exc:  # a full disk, a damaged file: one sentence, the app goes on
        state.fault(exc)
    finally:
        state.end_run()  # the file is held only while a run reads it (see ui.state)


# Streamlit installs this script as ``__main__``, so a process that multiprocessing starts
# afterwards (the import's forkserver, a Dask worker under spawn) runs it again as
# ``__mp_main__`` to rebuild the parent's main module: that is not a dashboard, and must
# neither route pages nor fill an empty database with the samples.
if __name__ != "__mp_main__":
    main()
