"""Training drills with the engine as the referee: which hand wins, what to draw, who gets
which pot.  Logic only (no streamlit); ``ui/drills_page.py`` renders them.

- ``showdown``: "which hand wins" questions (random deals, close calls by topic), checking
  against ``engine.ranking.winners``, reasons from ``engine.explain``.
- ``draws``: "what to draw" questions scored by ``engine.sim.draw_choice.draw_equity``.
- ``pots``: side pots, splits and odd chips, paid by ``engine.pots``.
- ``own``: questions from the player's own showdowns and real draws in the database.
- ``schedule``: the Leitner schedule over topics, adaptive levels, points.
- ``progress``: answers, boxes and levels kept in the database; score, streaks, accuracy
  by topic, progress over time.
- ``session``: next question / answer it, for the page.
"""
