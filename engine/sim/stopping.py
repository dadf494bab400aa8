"""When the simulation of one draw's choices may stop: the verdicts read from the deals so far.

The review calls a choice a mistake when its equity is more than ``NOISE_SE`` standard
errors below the best's, the standard errors being those of the two equities after the full
number of deals (``trials``): that is the noise of the simulation, a property of the model,
not of when it stopped.  Simulating in blocks, the rule here stops as soon as that verdict
is sure, with the paired difference's standard error as the measure of what is still
unknown: every choice meets the same deals, so the difference of two choices' shares is
far less noisy than either share.  A gap is surely a mistake once, less ``SURE_SE`` of those
standard errors, it is still above the final noise; surely within the noise once, plus
``SURE_SE`` of them, it is still within it.  A draw whose choices are far apart (most of
them) is settled in a few hundred deals; only a gap close to the noise itself needs the
full ``trials``, and gets them.

The verdict that must be sure is the one of the ``focus`` choices (the review's: what the
player did); the others are simulated while the focus needs them, and a sure mistake among
them is dropped at once (its figures are those of the deals it had, which mark it one).
The first rule, ``thirds_rule``, looks once after a third of the deals and drops a choice
more than ``DROP_SE`` standard errors below the best (kept for callers that ask for a fixed
number of deals).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

NOISE_SE = 3.0  # the review's noise: a choice this many standard errors of the best is fine
SURE_SE = 2.5  # a verdict is sure when it holds this many paired standard errors away
DROP_SE = 4.5  # the first rule: a choice this many standard errors below the best is dropped

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Simulated:
    """One choice's share of the pot, its standard error and the deals it was played on."""

    equity: float
    stderr: float
    trials: int

    def noise(self, trials: int) -> float:
        """The standard error ``trials`` deals would have given (the review's noise)."""
        return self.stderr * float(np.sqrt(self.trials / trials)) if trials else self.stderr


class Verdicts:
    """The running sums of each choice's shares, and of the products of every two (the
    paired differences' variances), and the rules that read them."""

    def __init__(
        self,
        k: int,
        trials: int,
        *,
        reference: float | None = None,
        focus: Sequence[int] | None = None,
    ) -> None:
        self.k = k
        self.trials = trials
        self.reference = reference  # an equity counted exactly for another choice
        self.focus = np.arange(k) if focus is None else np.asarray(sorted(set(focus)))
        self.is_focus = np.zeros(k, dtype=np.bool_)
        self.is_focus[self.focus] = True
        self.total = np.zeros(k)
        self.total_sq = np.zeros(k)
        self.cross = np.zeros((k, k))
        self.played = np.zeros(k, dtype=np.int64)
        self.live = np.arange(k)
        self.mean = np.zeros(k)
        self.se = np.zeros(k)
        self.wanted = 0  # deals the verdicts still unsure look like needing (sequential_rule)

    def add(self, per: Floats) -> None:
        """Each live choice's share on each deal of a block: (live choices, deals)."""
        live = self.live
        gram = per @ per.T  # its diagonal: each choice's sum of squares
        if len(live) == self.k:  # every choice still dealt: no index arrays (the common case)
            self.total += per.sum(axis=1)
            self.total_sq += np.diagonal(gram)
            self.cross += gram
            self.played += per.shape[1]
        else:
            self.total[live] += per.sum(axis=1)
            self.total_sq[live] += np.diagonal(gram)
            self.cross.ravel()[(live[:, None] * self.k + live).ravel()] += gram.ravel()
            self.played[live] += per.shape[1]
        n = np.maximum(self.played, 1)
        self.mean = self.total / n
        var = np.maximum(self.total_sq / n - self.mean * self.mean, 0.0)
        self.se = np.sqrt(var * self.played / np.maximum(self.played - 1, 1) / n)

    def results(self) -> list[Simulated]:
        return [
            Simulated(float(m), float(e), int(n))
            for m, e, n in zip(self.mean, self.se, self.played, strict=True)
        ]

    def thirds_rule(self) -> bool:
        """Drop the choices more than ``DROP_SE`` standard errors below the best; settled
        when only the best is left."""
        live, mean, se = self.live, self.mean, self.se
        lead = live[np.argmax(mean[live])]
        gap = mean[lead] - mean[live]
        self.live = live[gap <= DROP_SE * np.hypot(se[live], se[lead])]
        return self.k > 1 and len(self.live) == 1

    def sequential_rule(self) -> bool:
        """Drop the sure mistakes; settled when the focus choices' verdicts are sure."""
        live = self.live
        n = int(self.played[live[0]])
        if n >= self.trials:
            return True
        if self.k == 1 and self.reference is None:
            self.wanted = self.trials
            return False  # nothing to judge it against: its equity to the full trials
        mean, se = self.mean[live], self.se[live]
        scale = np.sqrt(n / self.trials)
        # The competitors: the live choices, then the reference (exact: no noise).
        ref = self.reference
        means = mean if ref is None else np.append(mean, ref)
        ses = se if ref is None else np.append(se, 0.0)
        lead = int(np.argmax(means))
        gap = means[lead] - means
        noise = NOISE_SE * np.hypot(ses * scale, ses[lead] * scale)
        spread = np.hypot(ses, ses[lead])  # against the reference: independent
        if lead < len(live):
            c = (self.cross if len(live) == self.k else self._cross_of(live)) / n
            paired = c[lead, lead] - 2 * c[lead] + np.diagonal(c)
            diff = np.sqrt(np.maximum(paired - gap[: len(live)] ** 2, 0.0) / max(n - 1, 1))
            spread[: len(live)] = diff
        others = np.arange(len(means)) != lead
        mistake = others & (gap - SURE_SE * spread > noise)
        within = gap + SURE_SE * spread <= noise
        focus = self.is_focus[live]
        if ref is not None:
            focus = np.append(focus, False)
        if focus[lead]:
            # The best so far is a focus choice: no other may still turn out better by more
            # than the noise (every sure verdict implies that).
            ahead = others & (gap + noise < SURE_SE * spread)
        else:
            ahead = np.zeros(len(means), dtype=np.bool_)
        unsure = focus & ~(mistake | within)
        if focus[lead]:
            unsure &= others
        settled = not (ahead.any() or unsure.any())
        if not settled:
            # The paired spread shrinks as 1/sqrt(deals): the deals at which each open
            # verdict would be sure if the gaps held (``next_block`` reads it).
            margin = np.where(ahead, gap + noise, np.inf)
            margin = np.minimum(margin, np.where(unsure, np.abs(gap - noise), np.inf))
            open_ = ahead | unsure
            need = n * (SURE_SE * spread[open_] / np.maximum(margin[open_], 1e-12)) ** 2
            self.wanted = int(min(float(need.max()), float(self.trials)))
        self.live = live[~mistake[: len(live)]]
        return settled

    def _cross_of(self, live: npt.NDArray[np.int64]) -> Floats:
        picked: Floats = self.cross.ravel()[live[:, None] * self.k + live]
        return picked

    def next_block(self, block: int) -> int:
        """The deals before the next look: enough to reach what the open verdicts look like
        needing (``wanted``), in whole blocks, at least one block and at most as many deals
        as so far (so a look is never put off by more than the deals already made), never
        past ``trials``.  Looks where no verdict could yet be sure cost a block's fixed
        work each and decide nothing."""
        n = int(self.played[self.live[0]])
        want = -(-(self.wanted - n) // block) * block
        return min(max(block, min(want, (n // block) * block)), self.trials - n)
