"""DrawLab dashboard: routing only.  Each page lives in ``ui/`` and reads from ``analysis/``.

Run with ``streamlit run app.py`` (or ``make run``).  The database is the one
``analysis.db`` picks (``DRAWLAB_DB`` or ``~/.drawlab/drawlab.duckdb``).
"""

import streamlit as st

st.set_page_config(page_title="DrawLab", page_icon="🂡", layout="wide")

PAGES = [
    st.Page("ui/overview_page.py", title="Overview & statistics", icon="📊", url_path="overview",
            default=True),
    st.Page("ui/replayer_page.py", title="Replayer", icon="🃏", url_path="replayer"),
    st.Page("ui/import_page.py", title="Import", icon="📥", url_path="import"),
]

st.navigation(PAGES).run()
