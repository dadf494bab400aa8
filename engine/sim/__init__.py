"""The simulator, built on the rules and never imported by them: the dealer (``dealer``,
``deck``, ``players_model``), equity and the default strategies (``equity``, ``batch``,
``strategy``, ``ranges``), the choice of a draw (``draw_choice``, ``exact_draw``) and the
review of one draw (``review``)."""
