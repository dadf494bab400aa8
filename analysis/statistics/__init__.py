"""Statistics: the per-player facts of each hand (``facts``, with ``positions`` and
``hand_classes``), the figures summed over them (``figures``), every statistic's
definition (``definitions``), their text and JSON reports (``text``, ``report``) and the
live session and HUD figures (``live``)."""
