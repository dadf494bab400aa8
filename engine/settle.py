"""Every chip accounted for: what the pots held, who should have won them, what was collected.

The replay leaves each player's contribution (after uncalled bets went back), the players
still in, and the hands shown.  From them come the main and side pots, the winners of each
(each run of a run-it-twice hand separately), and the uncalled bets; the site's own
figures (uncalled lines, collected amounts, total pot, rake, per-player results) are then
compared with these.  How a site *writes* money differs (``engine.profiles``): the
comparison accepts the ways the site's profile allows and reports the rest.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
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
    pots: tuple[Pot, ...]
    undecided: bool
    odd_chip_slack: int
    winners: list[set[str] | None] = field(default_factory=list)  # per non-empty pot
    # high-low: per non-empty pot, the winners of its low half (``winners`` less these
    # plus the high winners are its high half), ``None`` where unknown or not high-low
    lows: list[tuple[set[str] | None, set[str] | None]] = field(default_factory=list)


def expected_shares(table: Table, profile: SiteProfile, all_to_first: bool = False) -> Expected:
    """Who wins how much of each pot, before rake, by the hands shown (``all_to_first``:
    the odd chips of a split all go to its first winner).

    High-low (``table.low_strengths`` set): each pot, side pots each on their own, is
    halved (``engine.pots.halves``: the odd chip to the high half), the high half to the
    best high hand and the low half to the best low, ties splitting each half."""
    pot_total = sum(table.total.values()) + table.carried
    if table.dead_hand:
        return Expected(shares={}, pots=(), undecided=False, odd_chip_slack=0)
    if len(table.live) <= 1:
        alone = {table.live[0]: pot_total} if table.live and pot_total else {}
        taker: list[set[str] | None] = [set(table.live)] if pot_total else []
        pot = Pot(pot_total, tuple(table.live))
        return Expected(shares=alone, pots=(pot,), undecided=False, odd_chip_slack=0, winners=taker)
    pots = side_pots(table.total, set(table.live), table.dead)
    if table.carried:
        pots = _with_carried(pots, table.carried, tuple(table.live))
    runs = [r for r in table.strengths if r > 0]
    runs = sorted(runs) if runs else [0]
    single_run = runs == [0]
    base = table.strengths.get(0, {})
    low_base = table.low_strengths.get(0, {}) if table.low_strengths is not None else None
    shares: dict[str, int] = {}
    undecided = False
    slack = 0
    order_seats: dict[str, int] | None = None  # made at the first tie that needs it
    forfeited = table.forfeited
    winners: list[set[str] | None] = []
    halves_won: list[tuple[set[str] | None, set[str] | None]] = []
    for pot in pots:
        if pot.amount == 0:
            continue
        if len(pot.eligible) == 1:
            shares[pot.eligible[0]] = shares.get(pot.eligible[0], 0) + pot.amount
            winners.append({pot.eligible[0]})
            halves_won.append(({pot.eligible[0]}, {pot.eligible[0]}))
            continue
        by_half: list[set[str] | None] = [set(), set()]
        if single_run:  # ``split`` among one run gives it the whole pot
            parts = {"0": pot.amount}
        else:
            parts = split(pot.amount, [str(r) for r in runs], table.unit)
        won: set[str] | None = set()
        for r in runs:
            strength = base if single_run else {**base, **table.strengths.get(r, {})}
            halves: list[tuple[dict[str, int], int]] = [(strength, parts[str(r)])]
            if low_base is not None and table.low_strengths is not None:
                low = low_base if single_run else {**low_base, **table.low_strengths.get(r, {})}
                high_part, low_part = pot_halves(parts[str(r)], table.unit)
                halves = [(strength, high_part), (low, low_part)]
            for which, (half, part) in enumerate(halves):
                contenders: list[str] = []
                unseen = False
                for p in pot.eligible:
                    if p in half:
                        contenders.append(p)
                    elif p not in forfeited:
                        unseen = True
                if unseen or not contenders:
                    undecided = True  # a hand still in was never shown: its strength is unknown
                    won = None
                    by_half[which] = None
                    continue
                tied = contenders
                if len(contenders) > 1:
                    best = min([half[p] for p in contenders])
                    tied = [p for p in contenders if half[p] == best]
                    if len(tied) > 1 and table.button is not None:
                        if order_seats is None:
                            order_seats = {p: table.seat_of[p] for p in table.total}
                        tied = clockwise_from_button(tied, order_seats, table.button)
                if len(tied) > 1 and not profile.odd_chip_clockwise:
                    slack += table.unit
                if len(tied) == 1 and table.unit >= 1:  # ``split`` to one winner: all of it
                    shares[tied[0]] = shares.get(tied[0], 0) + part
                elif part:
                    for p, amount in split(part, tied, table.unit, all_to_first).items():
                        shares[p] = shares.get(p, 0) + amount
                if won is not None:
                    won.update(tied)
                taken = by_half[which]
                if taken is not None:
                    taken.update(tied)
        winners.append(won)
        halves_won.append((by_half[0], by_half[1]))
    lows = halves_won if low_base is not None else []
    return Expected(
        shares=shares,
        pots=pots,
        undecided=undecided,
        odd_chip_slack=slack,
        winners=winners,
        lows=lows,
    )


def _with_carried(pots: tuple[Pot, ...], carried: int, live: tuple[str, ...]) -> tuple[Pot, ...]:
    """The pots with the carried antes in the main pot: dead money every live player can win."""
    if not pots:
        return (Pot(carried, live),)
    return (Pot(pots[0].amount + carried, pots[0].eligible), *pots[1:])


def settled_pots(expected: Expected) -> tuple[SettledPot, ...]:
    """The pots with chips in them, each with its winners (in the order of ``eligible``),
    for the database: ``Expected.winners`` holds one entry per non-empty pot."""
    out: list[SettledPot] = []
    winners = iter(expected.winners)
    halves = iter(expected.lows)
    for pot in expected.pots:
        if pot.amount == 0:
            continue
        won = next(winners, None)
        named = None if won is None else tuple(p for p in pot.eligible if p in won)
        high, low = next(halves, (None, None))
        out.append(
            SettledPot(
                pot.amount,
                pot.eligible,
                named,
                None if high is None else tuple(p for p in pot.eligible if p in high),
                None if low is None else tuple(p for p in pot.eligible if p in low),
            )
        )
    return tuple(out)


def settle(table: Table, reported: Reported, profile: SiteProfile) -> Settlement:
    """The pots and the problems with the site's money figures, the fewest over the
    reporting styles the site's profile allows, every split weighed; ``table`` is only
    read."""
    out: list[Problem] = []
    rep_uncalled: dict[str, int] = {}
    first_line: dict[str, int] = {}
    for u in reported.uncalled:
        rep_uncalled[u.player] = rep_uncalled.get(u.player, 0) + u.amount
        first_line.setdefault(u.player, u.line)
    unreported: dict[str, int] = {}
    for p, amount in table.returned.items():
        if amount and not rep_uncalled.get(p):
            unreported[p] = amount
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

    expected = expected_shares(table, profile)
    pots = settled_pots(expected)
    if expected.undecided:
        text = "the showdown's winner cannot be checked: the hands are not written"
        out.append(Problem(UNDECIDED, Severity.WARNING, reported.end_line, text))
    if _unstated(table, reported, profile):
        out.append(_unstated_warning(table, expected, reported.end_line))
        return Settlement(_dedupe(out), pots, {})
    modes = _modes(profile, bool(unreported))
    splits = [expected]
    if profile.odd_chips is OddChips.ALL_TO_FIRST:
        splits = [expected_shares(table, profile, all_to_first=True)]
    elif profile.odd_chips is OddChips.EITHER:
        other = expected_shares(table, profile, all_to_first=True)
        if other.shares != expected.shares:
            splits.append(other)
    best: list[Problem] | None = None
    returned_in_collect: dict[str, int] = {}
    for shares in splits:
        for in_collect in modes:
            chosen = unreported if in_collect else {}
            found = _money_findings(table, reported, shares, chosen, profile)
            if best is None or _errors(found) < _errors(best):
                best = found
                returned_in_collect = dict(chosen)
    return Settlement(_dedupe(out + (best or [])), pots, returned_in_collect)


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


def _money_findings(
    table: Table,
    rep: Reported,
    exp: Expected,
    in_collect: Mapping[str, int],
    profile: SiteProfile,
) -> list[Problem]:
    out: list[Problem] = []
    pot = sum(table.total.values()) + table.carried
    shares = dict(exp.shares)
    for p, amount in in_collect.items():
        shares[p] = shares.get(p, 0) + amount
    paid = pot + sum(in_collect.values())
    collected: dict[str, int] = {}
    line_of: dict[str, int] = {}
    for c in rep.collects:
        collected[c.player] = collected.get(c.player, 0) + c.amount
        line_of.setdefault(c.player, c.line)
    first_collect = rep.collects[0].line if rep.collects else rep.end_line
    got = sum(collected.values())

    def at(line: int, code: str, text: str) -> None:
        out.append(Finding(code, text).at(line))

    if table.dead_hand:
        for p, amount in collected.items():
            at(line_of[p], COLLECT_MISMATCH, f"{p} collects {money(amount)} in a dead hand")
        return out

    rake = rep.rake
    if rake is not None:
        if rake < 0 or rake > pot:
            at(rep.end_line, RAKE_MISMATCH, f"a rake of {money(rake)} from a pot of {money(pot)}")
        if got + rake != paid:
            confirmed = _nets_confirm(table, rep, collected, in_collect)
            code = RAKE_MISMATCH if confirmed else COLLECT_MISMATCH
            at(
                first_collect,
                code,
                f"collected {money(got)} plus rake {money(rake)} makes {money(got + rake)}, "
                f"but the pot holds {money(paid)}",
            )
        slack = max(rake, 0)
    else:
        implied = paid - got
        slack = max(implied, 0)
        if implied < 0:
            at(
                first_collect,
                COLLECT_MISMATCH,
                f"collected {money(got)}, more than the pot of {money(paid)}",
            )
        elif rep.tournament and implied:
            at(
                first_collect,
                COLLECT_MISMATCH,
                f"collected {money(got)} of a tournament pot of {money(paid)}",
            )
        elif implied * 1000 > pot * profile.max_implied_rake_per_mille + 1000:
            # more missing than any rake (one hundredth of rounding allowed)
            at(
                first_collect,
                COLLECT_MISMATCH,
                f"collected {money(got)} of a pot of {money(paid)}: {money(implied)} "
                f"is missing, more than a rake",
            )

    if exp.undecided:
        for p, amount in collected.items():
            if p not in table.live:
                at(line_of[p], WRONG_WINNER, f"{p} collects {money(amount)} after folding")
    else:
        out.extend(
            _share_findings(
                table,
                exp,
                shares=shares,
                collected=collected,
                line_of=line_of,
                in_collect=in_collect,
                first_collect=first_collect,
                slack=slack,
            )
        )
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
        out.extend(
            _net_findings(
                table, rep, exp=exp, collected=collected, in_collect=in_collect, slack=slack
            )
        )
    return out


def _share_findings(
    table: Table,
    exp: Expected,
    *,
    shares: Mapping[str, int],
    collected: Mapping[str, int],
    line_of: Mapping[str, int],
    in_collect: Mapping[str, int],
    first_collect: int,
    slack: int,
) -> list[Problem]:
    """Each player's collect against their share of the pots (their uncalled chips
    included), less at most ``slack`` of rake and the odd chips' slack."""
    out: list[Problem] = []

    def at(line: int, code: str, text: str) -> None:
        out.append(Finding(code, text).at(line))

    slack_each = slack + exp.odd_chip_slack
    players: Collection[str] = set(shares) | set(collected)
    if len(players) > 1:  # by the line of their collect (one player needs no sort),
        # then by seat: the set's order changes with the hash seed, and only the first
        # problem of a code at a line is kept
        seat_of = table.seat_of
        players = sorted(players, key=lambda q: (line_of.get(q, 0), seat_of.get(q, 0), q))
    for p in players:
        want = shares.get(p, 0)
        have = collected.get(p, 0)
        line = line_of.get(p, first_collect)
        if have > want:
            if want == in_collect.get(p, 0):
                at(line, WRONG_WINNER, f"{p} collects {money(have)} but wins no pot")
            else:
                at(
                    line,
                    COLLECT_MISMATCH,
                    f"{p} collects {money(have)}; their share is {money(want)}",
                )
        elif want - have > slack_each:
            if have == 0:
                at(line, WRONG_WINNER, f"{p} should win {money(want)} but collects nothing")
            else:
                at(
                    line,
                    COLLECT_MISMATCH,
                    f"{p} collects {money(have)}; their share is {money(want)}"
                    + (f" less a rake of at most {money(slack)}" if slack else ""),
                )
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
    if any(total_fits(total, p, slack, profile.total_pot) for p in site_pots):
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
        won = exp.winners[c.pot] if 0 <= c.pot < len(exp.winners) else None
        if won is not None and c.player not in won:
            name = "the main pot" if c.pot == 0 else f"side pot {c.pot}"
            text = f"{c.player} collects from {name}, which {', '.join(sorted(won))} wins"
            out.append(Problem(WRONG_WINNER, Severity.ERROR, c.line, text))
    if not by_pot or (len(by_pot) < 2 and 0 in by_pot):
        return out  # "the pot" or "main pot" alone: the totals say it all
    live_pots = [p for p in exp.pots if p.amount]
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
    *,
    exp: Expected,
    collected: Mapping[str, int],
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
