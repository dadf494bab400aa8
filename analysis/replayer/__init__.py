"""The replayer: a hand's steps as a player watches them (``steps``, shared by the
dashboard and ``drawlab replay``) and their text and JSON report (``report``)."""
