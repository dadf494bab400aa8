"""The verdict on one hand: could everything in it really have happened?

This is the replay (``engine.replay``) without the table views the dashboard needs, so it
is the fast path the command line, the importer and the tests use.  Bad input never
crashes it: a failure of the replay itself comes back as a ``REPLAY_FAILED`` error on the
hand, with the hand's line, so one odd record never stops a file.
"""

from __future__ import annotations

from engine.problems import REPLAY_FAILED
from engine.record import Hand
from engine.replay import run_checks
from engine.verdict import Problem, Severity, Verdict


def verify(hand: Hand) -> Verdict:
    try:
        return run_checks(hand)
    except Exception as exc:  # reported on the hand, never raised
        message = f"the replay failed on this hand ({type(exc).__name__}: {exc})"
        return Verdict((Problem(REPLAY_FAILED, Severity.ERROR, hand.line, message),))
