"""Training drills with the engine as the referee: which hand wins, what to draw, who gets
which pot.  Logic only (no streamlit): questions, checking, spaced repetition, levels and
the progress kept in the database.  ``ui/drills_page.py`` renders them."""
