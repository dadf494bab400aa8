"""DrawLab dashboard: routing only.  Each page lives in ``ui/`` and reads from ``analysis/``.

Run with ``streamlit run app.py`` (or ``make run``).  The database is the one
``analysis.storage.db`` picks (``DRAWLAB_DB`` or ``~/.drawlab/drawlab.duckdb``); on a first start
it is filled with the bundled ``sample_histories`` (see ``ui.state``).
"""

import streamlit as st

from ui import state

st.set_page_config(page_title="DrawLab", page_icon="🂡", layout="wide")

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
]

try:
    st.navigation(PAGES).run()
finally:
    state.end_run()  # the file is held only while a run reads it (see ui.state)
