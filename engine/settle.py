"""Every chip accounted for: what the pots held, who should have won them, what was collected.

The replay leaves each player's contribution (after uncalled bets went back), the players
still in, and the hands shown.  From them come the main and side pots, the winners of each
(each run of a run-it-twice hand separately), and the uncalled bets; the site's own
figures (uncalled lines, collected amounts, total pot, rake, per-player results) are then
compared with these.  How a site *writes* money differs (``engine.profiles``): the
comparison accepts the ways the site's profile allows and reports the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.money import format_money as money
from engine.pots import Pot, SettledPot, clockwise_from_button, pot_halves, side_pots, split
from engine.problems import (
    COLLECT_MISMATCH,
    NET_MISMATCH,
    PAYOUT_UNSTATED,
    POT_MISMATCH,
    RAKE_MISMATCH,
    UNCALLED_MISMATCH,
    UNDECIDED,
    WRONG_WINNER,
    Finding,
)
from engine.profiles import OddChips, SiteProfile, TotalPot, UncalledReport
from engine.record import Collect, Uncalled
from engine.verdict import Problem, Severity


@dataclass(slots=True)
class Table:
    """The replay's account of the hand's money at its end."""

    total: dict[str, int]  # chips each player left in the pot (uncalled bets already back)
    returned: dict[str, int]  # uncalled bets the rules give back
    live: list[str]  # players who did not fold, in position order
    seat_of: dict[str, int]
    button: int | None
    dead_hand: bool = False  # nobody opened: the antes stay for the next deal
    strengths: dict[int, dict[str, int]] = field(default_factory=dict)  # run -> player -> rank
    forfeited: set[str] = field(default_factory=set)  # mucked at showdown, cards unseen
    unit: int = 1  # the smallest chip a pot splits into (``engine.profiles.chip_unit``)
    # the part of ``total`` that is dead money (antes, dead blinds): in the main pot, in
    # no level of its own (``engine.state.HandState.pot_dead``)
    dead: dict[str, int] | None = None
    # high-low: each shown hand's low value, run -> player -> rank (``None``: no low half)
    low_strengths: dict[int, dict[str, int]] | None = None
    carried: int = 0  # chips in the pot from the hand before (``Hand.carried``)


@dataclass(frozen=True, slots=True)
class Settlement:
    """What settling found: the problems with the site's money figures, the pots with who
    won them (main pot first, before rake), and the uncalled bets the site paid back
    inside a collect (they leave the winner's stack again: ``Replay.final``)."""

    problems: list[Problem]
    pots: tuple[SettledPot, ...]
    returned_in_collect: dict[str, int]


@dataclass(frozen=True, slots=True)
class Reported:
    """What the history says about the money."""

    uncalled: Sequence[Uncalled]
    collects: Sequence[Collect]
    rake: int | None
    total_pot: int | None
    net: Sequence[tuple[str, int]]
    tournament: bool
    end_line: int


@dataclass(slots=True, kw_only=True)
class Expected:
    shares: dict[str, int]  # gross winnings per player (before rake)
    # the pots with chips in them, main first, each with its winners (``None`` where a hand
    # still in it was never shown) and, high-low, the winners of each half
    pots: tuple[SettledPot, ...]
    undecided: bool
    odd_chip_slack: int
    split: bool = False  # some pot or half was split: only then do odd chips go anywhere


def expected_shares(table: Table, profile: SiteProfile, all_to_first: bool = False) -> Expected:
    """Who wins how much of each pot, before rake, by the hands shown (``all_to_first``:
    the odd chips of a split all go to its first winner).

    Each run of a run-it-twice hand takes its part of each pot (``split`` among the runs);
    high-low (``table.low_strengths`` set) halves each part (``engine.pots.pot_halves``: the
    odd chip to the high half), the high half to the best high hand and the low half to
    the best low, ties splitting each half.  Most hands have one run and one half: one
    list of strengths, one part, no split among runs."""
    pot_total = sum(table.total.values()) + table.carried
    if table.dead_hand:
        return Expected(shares={}, pots=(), undecided=False, odd_chip_slack=0)
    live = table.live
    if len(live) <= 1:
        if not pot_total:
            return Expected(shares={}, pots=(), undecided=False, odd_chip_slack=0)
        alone = tuple(live)
        taken = {live[0]: pot_total} if live else {}
        whole = SettledPot(pot_total, alone, alone)
        return Expected(shares=taken, pots=(whole,), undecided=False, odd_chip_slack=0)
    pots = side_pots(table.total, live, table.dead)
    if table.carried:
        pots = _with_carried(pots, table.carried, tuple(live))
    boards = _boards(table)
    run_names = [str(r) for r in range(len(boards))]  # ``split``'s keys, in run order
    high_low = table.low_strengths is not None
    split_any = False
    shares: dict[str, int] = {}
    undecided = False
    slack = 0
    settled: list[SettledPot] = []
    for pot in pots:
        amount = pot.amount
        if amount == 0:
            continue
        eligible = pot.eligible
        if len(eligible) == 1:
            shares[eligible[0]] = shares.get(eligible[0], 0) + amount
            halves_to = eligible if high_low else None
            settled.append(SettledPot(amount, eligible, eligible, halves_to, halves_to))
            continue
        if len(boards) == 1:
            parts = [amount]
        else:
            parts = list(split(amount, run_names, table.unit).values())
        won: set[str] | None = set()
        by_half: list[set[str] | None] = [set(), set()]
        for (high, low), part in zip(boards, parts, strict=True):
            if low is None:
                halves = [(high, part)]
            else:
                high_part, low_part = pot_halves(part, table.unit)
                halves = [(high, high_part), (low, low_part)]
            for which, (strength, half_part) in enumerate(halves):
                tied = _best(eligible, strength, table)
                if tied is None:
                    undecided = True  # a hand still in was never shown: its strength is unknown
                    won = None
                    by_half[which] = None
                    continue
                if len(tied) > 1:
                    split_any = True
                    if not profile.odd_chip_clockwise:
                        slack += table.unit
                _pay(shares, tied, half_part, table.unit, all_to_first)
                if won is not None:
                    won.update(tied)
                half_won = by_half[which]
                if half_won is not None:
                    half_won.update(tied)
        settled.append(_settled(amount, eligible, won, by_half if high_low else None))
    return Expected(
        shares=shares,
        pots=tuple(settled),
        undecided=undecided,
        odd_chip_slack=slack,
        split=split_any,
    )


def _boards(table: Table) -> list[tuple[dict[str, int], dict[str, int] | None]]:
    """Each run's shown hands, high and (high-low) low, in run order: a later run's showdown
    is the first run's with the hands shown again for it (``Show.run``)."""
    base = table.strengths.get(0, {})
    lows = table.low_strengths
    low_base = None if lows is None else lows.get(0, {})
    runs = sorted(r for r in table.strengths if r > 0)
    if not runs:
        return [(base, low_base)]
    out: list[tuple[dict[str, int], dict[str, int] | None]] = []
    for r in runs:
        low = None if lows is None or low_base is None else {**low_base, **lows.get(r, {})}
        out.append(({**base, **table.strengths[r]}, low))
    return out


def _best(eligible: tuple[str, ...], strength: dict[str, int], table: Table) -> list[str] | None:
    """The best of the hands shown among ``eligible`` (ties in the odd chip's order), or
    ``None`` when one still in was never shown (a hand mucked at showdown is out)."""
    contenders: list[str] = []
    for p in eligible:
        if p in strength:
            contenders.append(p)
        elif p not in table.forfeited:
            return None
    if len(contenders) < 2:
        return contenders or None
    best = min([strength[p] for p in contenders])
    tied = [p for p in contenders if strength[p] == best]
    if len(tied) > 1 and table.button is not None:
        tied = clockwise_from_button(tied, table.seat_of, table.button)
    return tied


def _pay(shares: dict[str, int], tied: list[str], part: int, unit: int, to_first: bool) -> None:
    """``part`` of a pot to ``tied`` (``split``; to one winner all of it, as ``split`` gives)."""
    if len(tied) == 1 and unit >= 1:
        shares[tied[0]] = shares.get(tied[0], 0) + part
    elif part:
        for p, amount in split(part, tied, unit, to_first).items():
            shares[p] = shares.get(p, 0) + amount


def _settled(
    amount: int,
    eligible: tuple[str, ...],
    won: set[str] | None,
    halves: list[set[str] | None] | None,
) -> SettledPot:
    """A pot with its winners named in the order of ``eligible`` (the database's order)."""
    named = None if won is None else tuple(p for p in eligible if p in won)
    if halves is None:
        return SettledPot(amount, eligible, named)
    high, low = halves
    return SettledPot(
        amount,
        eligible,
        named,
        None if high is None else tuple(p for p in eligible if p in high),
        None if low is None else tuple(p for p in eligible if p in low),
    )


def _with_carried(pots: tuple[Pot, ...], carried: int, live: tuple[str, ...]) -> tuple[Pot, ...]:
    """The pots with the carried antes in the main pot: dead money every live player can win."""
    if not pots:
        return (Pot(carried, live),)
    return (Pot(pots[0].amount + carried, pots[0].eligible), *pots[1:])


def settle(table: Table, reported: Reported, profile: SiteProfile) -> Settlement:
    """The pots and the problems with the site's money figures, the fewest over the
    reporting styles the site's profile allows, every split weighed; ``table`` is only
    read."""
    out, unreported = _uncalled_findings(table, reported, profile)
    expected = expected_shares(table, profile)
    pots = expected.pots
    if expected.undecided:
        text = "the showdown's winner cannot be checked: the hands are not written"
        out.append(Problem(UNDECIDED, Severity.WARNING, reported.end_line, text))
    if _unstated(table, reported, profile):
        out.append(_unstated_warning(table, expected, reported.end_line))
        return Settlement(_dedupe(out), pots, {})
    modes = _modes(profile, bool(unreported))
    splits = [expected]
    if profile.odd_chips is not OddChips.ONE_EACH and expected.split:  # else no odd chips
        other = expected_shares(table, profile, all_to_first=True)
        if profile.odd_chips is OddChips.ALL_TO_FIRST:
            splits = [other]
        elif other.shares != expected.shares:
            splits.append(other)
    got = _Collected(reported)
    best: list[Problem] | None = None
    returned_in_collect: dict[str, int] = {}
    for shares in splits:
        for in_collect in modes:
            chosen = unreported if in_collect else {}
            found = _money_findings(table, reported, got, shares, chosen, profile)
            if best is None or _errors(found) < _errors(best):
                best = found
                returned_in_collect = dict(chosen)
            if not best:
                break  # nothing found: no other style can find fewer
        if not best:
            break
    return Settlement(_dedupe(out + (best or [])), pots, returned_in_collect)


def _uncalled_findings(
    table: Table, reported: Reported, profile: SiteProfile
) -> tuple[list[Problem], dict[str, int]]:
    """The uncalled bets the site wrote against the replay's, and those it did not write."""
    out: list[Problem] = []
    rep_uncalled: dict[str, int] = {}
    first_line: dict[str, int] = {}
    for u in reported.uncalled:
        rep_uncalled[u.player] = rep_uncalled.get(u.player, 0) + u.amount
        first_line.setdefault(u.player, u.line)
    unreported = {p: a for p, a in table.returned.items() if a and not rep_uncalled.get(p)}
    for p, amount in rep_uncalled.items():
        want = table.returned.get(p, 0)
        if amount != want:
            text = (
                f"{money(amount)} is returned to {p} as uncalled; the replay returns {money(want)}"
            )
            out.append(Problem(UNCALLED_MISMATCH, Severity.ERROR, first_line[p], text))
    if unreported and profile.uncalled is UncalledReport.LINE:
        for p, amount in unreported.items():
            text = f"the uncalled {money(amount)} going back to {p} is not reported"
            out.append(Problem(UNCALLED_MISMATCH, Severity.WARNING, reported.end_line, text))
    return out, unreported


def _unstated(table: Table, reported: Reported, profile: SiteProfile) -> bool:
    """A pot was played for, and the history (in a format that may) says nothing of who
    took it: no collects, no per-player results."""
    if not profile.payouts_may_be_unstated or table.dead_hand:
        return False
    if reported.collects or reported.net:
        return False
    return sum(table.total.values()) + table.carried > 0


def _unstated_warning(table: Table, expected: Expected, line: int) -> Problem:
    """``PAYOUT_UNSTATED``, saying who wins what by the replay, as far as it can tell."""
    text = "the history states no payouts, so the collections cannot be checked"
    if expected.undecided:
        text += "; the hands shown do not decide the winner"
    elif expected.shares:
        order = sorted(expected.shares, key=lambda p: table.seat_of.get(p, 0))
        wins = ", ".join(f"{p} {money(expected.shares[p])}" for p in order)
        text += f"; by the replay the pots go: {wins} (before any rake)"
    return Problem(PAYOUT_UNSTATED, Severity.WARNING, line, text)


def _modes(profile: SiteProfile, any_unreported: bool) -> tuple[bool, ...]:
    if not any_unreported:
        return (False,)
    if profile.uncalled is UncalledReport.IN_COLLECT:
        return (True,)
    if profile.uncalled is UncalledReport.ANY:
        return (False, True)
    return (False,)


def _errors(found: Sequence[Problem]) -> int:
    return sum(1 for p in found if p.severity is Severity.ERROR)


def _dedupe(found: Sequence[Problem]) -> list[Problem]:
    if len(found) < 2:
        return list(found)
    seen: set[tuple[str, int]] = set()
    out: list[Problem] = []
    for p in found:
        key = (p.code, p.line)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


class _Collected:
    """The site's collected amounts by player (with the line of each one's first collect),
    read once for every reporting style ``settle`` weighs."""

    __slots__ = ("by_player", "first_line", "line_of", "total")

    def __init__(self, rep: Reported) -> None:
        self.by_player: dict[str, int] = {}
        self.line_of: dict[str, int] = {}
        for c in rep.collects:
            self.by_player[c.player] = self.by_player.get(c.player, 0) + c.amount
            self.line_of.setdefault(c.player, c.line)
        self.first_line = rep.collects[0].line if rep.collects else rep.end_line
        self.total = sum(self.by_player.values())


def _money_findings(
    table: Table,
    rep: Reported,
    got: _Collected,
    exp: Expected,
    in_collect: Mapping[str, int],
    profile: SiteProfile,
) -> list[Problem]:
    """The site's figures under one reporting style (``in_collect``: the uncalled bets it
    paid back inside a collect) against the replay's, each disagreement a problem."""
    collected = got.by_player
    if table.dead_hand:
        return [
            _error(COLLECT_MISMATCH, got.line_of[p], f"{p} collects {money(a)} in a dead hand")
            for p, a in collected.items()
        ]
    pot = sum(table.total.values()) + table.carried
    paid = pot + sum(in_collect.values()) if in_collect else pot
    out, slack = _rake_findings(table, rep, got, in_collect, pot=pot, paid=paid, profile=profile)
    if exp.undecided:
        for p, amount in collected.items():
            if p not in table.live:
                text = f"{p} collects {money(amount)} after folding"
                out.append(_error(WRONG_WINNER, got.line_of[p], text))
    else:
        out.extend(_share_findings(table, exp, got, in_collect, slack))
        out.extend(_pot_findings(rep, exp, slack))
    if rep.total_pot is not None:
        out.extend(
            _total_findings(
                rep.total_pot,
                rep,
                pot=pot,
                paid=paid,
                in_collect=in_collect,
                slack=slack,
                profile=profile,
            )
        )
    if rep.net:
        out.extend(_net_findings(table, rep, exp, collected, in_collect=in_collect, slack=slack))
    return out


def _error(code: str, line: int, text: str) -> Problem:
    return Problem(code, Severity.ERROR, line, text)


def _rake_findings(
    table: Table,
    rep: Reported,
    got: _Collected,
    in_collect: Mapping[str, int],
    *,
    pot: int,
    paid: int,
    profile: SiteProfile,
) -> tuple[list[Problem], int]:
    """The rake stated (or, unstated, what the collects leave of the pot) against the pot,
    and the rake each share may be short of (the slack)."""
    out: list[Problem] = []
    rake = rep.rake
    line = got.first_line
    collected = got.total
    if rake is not None:
        if rake < 0 or rake > pot:
            text = f"a rake of {money(rake)} from a pot of {money(pot)}"
            out.append(_error(RAKE_MISMATCH, rep.end_line, text))
        if collected + rake != paid:
            confirmed = _nets_confirm(table, rep, got.by_player, in_collect)
            text = (
                f"collected {money(collected)} plus rake {money(rake)} makes "
                f"{money(collected + rake)}, but the pot holds {money(paid)}"
            )
            out.append(_error(RAKE_MISMATCH if confirmed else COLLECT_MISMATCH, line, text))
        return out, max(rake, 0)
    implied = paid - collected
    if implied < 0:
        text = f"collected {money(collected)}, more than the pot of {money(paid)}"
        out.append(_error(COLLECT_MISMATCH, line, text))
    elif rep.tournament and implied:
        text = f"collected {money(collected)} of a tournament pot of {money(paid)}"
        out.append(_error(COLLECT_MISMATCH, line, text))
    elif implied * 1000 > pot * profile.max_implied_rake_per_mille + 1000:
        # more missing than any rake (one hundredth of rounding allowed)
        text = (
            f"collected {money(collected)} of a pot of {money(paid)}: {money(implied)} "
            f"is missing, more than a rake"
        )
        out.append(_error(COLLECT_MISMATCH, line, text))
    return out, max(implied, 0)


def _share_findings(
    table: Table, exp: Expected, got: _Collected, in_collect: Mapping[str, int], slack: int
) -> list[Problem]:
    """Each player's collect against their share of the pots (their uncalled chips
    included), less at most ``slack`` of rake and the odd chips' slack.  Each player is
    compared first; only those who disagree are described, in the order of the line of
    their collect, then seat (only the first problem of a code at a line is kept)."""
    shares = exp.shares
    if in_collect:
        shares = dict(shares)
        for p, amount in in_collect.items():
            shares[p] = shares.get(p, 0) + amount
    collected = got.by_player
    slack_each = slack + exp.odd_chip_slack
    players = list(shares)
    players += [p for p in collected if p not in shares]
    off = [
        p
        for p in players
        if collected.get(p, 0) > shares.get(p, 0)
        or shares.get(p, 0) - collected.get(p, 0) > slack_each
    ]
    if not off:
        return []
    if len(off) > 1:
        seat_of = table.seat_of
        off.sort(key=lambda q: (got.line_of.get(q, 0), seat_of.get(q, 0), q))
    out: list[Problem] = []
    for p in off:
        want = shares.get(p, 0)
        have = collected.get(p, 0)
        line = got.line_of.get(p, got.first_line)
        if have > want:
            if want == in_collect.get(p, 0):
                text = f"{p} collects {money(have)} but wins no pot"
                out.append(_error(WRONG_WINNER, line, text))
            else:
                text = f"{p} collects {money(have)}; their share is {money(want)}"
                out.append(_error(COLLECT_MISMATCH, line, text))
        elif have == 0:
            text = f"{p} should win {money(want)} but collects nothing"
            out.append(_error(WRONG_WINNER, line, text))
        else:
            rake = f" less a rake of at most {money(slack)}" if slack else ""
            text = f"{p} collects {money(have)}; their share is {money(want)}{rake}"
            out.append(_error(COLLECT_MISMATCH, line, text))
    return out


def _total_findings(
    total: int,
    rep: Reported,
    *,
    pot: int,
    paid: int,
    in_collect: Mapping[str, int],
    slack: int,
    profile: SiteProfile,
) -> list[Problem]:
    """The total pot the site states against the chips put in (``POT_MISMATCH``)."""
    # a site that gives the unmatched chips back inside "collected" counts them in its
    # total pot too (Winamax); where the profile allows either way, either total is taken
    if not in_collect:
        site_pots: tuple[int, ...] = (pot,)
    elif profile.uncalled is UncalledReport.IN_COLLECT:
        site_pots = (paid,)
    else:
        site_pots = (paid, pot)
    for site_pot in site_pots:
        if total_fits(total, site_pot, slack, profile.total_pot):
            return []
    text = f"the total pot is given as {money(total)}; the chips put in make {money(site_pots[0])}"
    return [Finding(POT_MISMATCH, text).at(rep.end_line)]


def total_fits(total: int, pot: int, rake: int, rule: TotalPot) -> bool:
    """The stated total pot is ``pot`` with the rake in it, or without, as ``rule`` says."""
    if rule is TotalPot.WITH_RAKE:
        return total == pot
    if rule is TotalPot.WITHOUT_RAKE:
        return total == pot - rake
    return total in (pot, pot - rake)  # TotalPot.ANY


def _pot_findings(rep: Reported, exp: Expected, slack: int) -> list[Problem]:
    out: list[Problem] = []
    by_pot: dict[int, int] = {}
    line: dict[int, int] = {}
    for c in rep.collects:
        if c.pot is None or c.run:
            continue
        by_pot[c.pot] = by_pot.get(c.pot, 0) + c.amount
        line.setdefault(c.pot, c.line)
        won = exp.pots[c.pot].winners if 0 <= c.pot < len(exp.pots) else None
        if won is not None and c.player not in won:
            name = "the main pot" if c.pot == 0 else f"side pot {c.pot}"
            text = f"{c.player} collects from {name}, which {', '.join(sorted(won))} wins"
            out.append(Problem(WRONG_WINNER, Severity.ERROR, c.line, text))
    if not by_pot or (len(by_pot) < 2 and 0 in by_pot):
        return out  # "the pot" or "main pot" alone: the totals say it all
    live_pots = exp.pots
    for index, amount in sorted(by_pot.items()):
        if index >= len(live_pots):
            text = f"{money(amount)} is collected from pot {index}, which does not exist"
            out.append(Problem(POT_MISMATCH, Severity.ERROR, line[index], text))
            continue
        want = live_pots[index].amount
        if amount > want or want - amount > slack:
            name = "the main pot" if index == 0 else f"side pot {index}"
            text = f"{money(amount)} is collected from {name}, which holds {money(want)}"
            out.append(Problem(POT_MISMATCH, Severity.ERROR, line[index], text))
    return out


def _nets_confirm(
    table: Table, rep: Reported, collected: Mapping[str, int], in_collect: Mapping[str, int]
) -> bool:
    """The site's per-player results agree with its collected amounts (so the rake is off)."""
    if not rep.net:
        return False
    for p, net in rep.net:
        if p not in table.total:
            return False
        if net != collected.get(p, 0) - in_collect.get(p, 0) - table.total[p]:
            return False
    return True


def _net_findings(
    table: Table,
    rep: Reported,
    exp: Expected,
    collected: Mapping[str, int],
    *,
    in_collect: Mapping[str, int],
    slack: int,
) -> list[Problem]:
    out: list[Problem] = []
    for p, net in rep.net:
        if p not in table.total:
            continue
        put_in = table.total[p]
        if exp.undecided:
            low = high = collected.get(p, 0) - in_collect.get(p, 0) - put_in
        else:
            share = exp.shares.get(p, 0)
            high = share - put_in
            low = high - (slack + exp.odd_chip_slack if share else 0)
        if not low <= net <= high:
            want = money(high) if low == high else f"{money(low)} to {money(high)}"
            text = f"{p}'s result is given as {money(net)}; the replay gives {want}"
            out.append(Problem(NET_MISMATCH, Severity.ERROR, rep.end_line, text))
    return out
