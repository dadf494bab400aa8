"""PHH files other tools write: pokerkit's own hands, one per ``.phh`` or many per ``.phhs``.

pokerkit (tests only) plays random legal hands of fixed-limit 2-7 triple draw and no-limit
2-7 single draw and dumps them with its ``HandHistory`` API, with the payout fields a tool
may add (``winnings``, ``finishing_stacks``, both or neither).  Our reader must read them,
the replay must find nothing wrong, and the money must end exactly where pokerkit put it.
"""

from __future__ import annotations

import io
import json
import random
import warnings
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import (
    Automation,
    FixedLimitDeuceToSevenLowballTripleDraw,
    HandHistory,
    Mode,
    NoLimitDeuceToSevenLowballSingleDraw,
    State,
)

from cli import main
from engine.record import Collect, Game, Hand, Structure
from engine.replay import run_with_stacks
from engine.sim.dealer import deal_hands
from engine.verify import verify
from parser.outcome import HandText, Outcome, ParseError, Skipped
from parser.phh import PhhReader, read_phh, write_phh
from parser.reader import INTERNAL, read_bytes, read_path, read_text
from parser.registry import READERS
from tests.parser_corpus import results, without_position

_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
_RANKS = "23456789TJQKA"
_DECK = [r + s for r in _RANKS for s in "cdhs"]


@dataclass(frozen=True)
class Played:
    """A hand pokerkit played to the end, and what it paid."""

    variant: str
    starting: tuple[int, ...]
    finishing: tuple[int, ...]
    winnings: tuple[int, ...]  # pots collected: payoff + chips left in the pots
    all_in: bool  # somebody put their whole stack in
    history: HandHistory


def play(variant: str, stacks: tuple[int, ...], seed: int, hand: int) -> Played:
    """A random legal hand: pokerkit decides turns, amounts, showdowns and payouts."""
    rng = random.Random(seed)
    n = len(stacks)
    if variant == "F2L3D":
        game: FixedLimitDeuceToSevenLowballTripleDraw | NoLimitDeuceToSevenLowballSingleDraw = (
            FixedLimitDeuceToSevenLowballTripleDraw(
                _AUTOMATIONS, True, 0, (1, 2), 2, 4, mode=Mode.CASH_GAME
            )
        )
    else:
        game = NoLimitDeuceToSevenLowballSingleDraw(
            _AUTOMATIONS, True, 0, (1, 2), 2, mode=Mode.CASH_GAME
        )
    deck = _DECK[:]
    rng.shuffle(deck)
    # Few enough cards drawn that the deck never runs out (no reshuffled discards).
    most = 5 if n == 2 else 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = game(stacks, n)
        put_in = [s - now for s, now in zip(stacks, state.stacks, strict=True)]
        while state.status:
            if state.can_deal_hole():
                i = state.hole_dealee_index
                assert i is not None
                state.deal_hole("".join(deck.pop() for _ in range(5 - len(state.hole_cards[i]))))
            elif state.can_stand_pat_or_discard():
                i = state.stand_patter_or_discarder_index
                assert i is not None
                cards = rng.sample(list(state.hole_cards[i]), rng.randint(0, most))
                state.stand_pat_or_discard(cards)
            elif state.actor_index is not None:
                put_in[state.actor_index] += _bet(state, rng)
            else:
                break
        assert not state.status
        finishing = tuple(int(s) for s in state.stacks)
        top = max(put_in)
        second = sorted(put_in)[-2]
        in_pot = [p - (top - second if p == top else 0) for p in put_in]
        winnings = tuple(f - s + p for f, s, p in zip(finishing, stacks, in_pot, strict=True))
        history = HandHistory.from_game_state(game, state, hand=hand, players=_names(n))
    all_in = any(p == s for p, s in zip(put_in, stacks, strict=True))
    return Played(variant, stacks, finishing, winnings, all_in, history)


def _bet(state: State, rng: random.Random) -> int:
    """A random fold, check, call or full raise; what it put in."""
    i = state.actor_index
    assert i is not None
    choice = rng.random()
    if choice < 0.12 and state.checking_or_calling_amount:
        state.fold()
        return 0
    # RULES.md caps a round at a bet and three raises, the big blind being the first bet;
    # pokerkit's fixed-limit games allow one raise more before the draw.
    raises = state.completion_betting_or_raising_count + (1 if state.street_index == 0 else 0)
    if choice > 0.6 and state.can_complete_bet_or_raise_to() and raises < 4:
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        assert low is not None and high is not None
        # Only full raises: an all-in for less than a raise is where engines differ by design.
        if state.stacks[i] + state.bets[i] > low:
            to = high if rng.random() < 0.3 else rng.randint(low, min(high, low * 3))
            cost = to - state.bets[i]
            state.complete_bet_or_raise_to(to)
            return int(cost)
    cost = state.checking_or_calling_amount or 0
    state.check_or_call()
    return int(cost)


def _names(n: int) -> list[str]:
    return ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][:n]


def dumped(p: Played, fields: str) -> str:
    """The hand as pokerkit writes it, with the payout fields ``fields`` names."""
    history = p.history
    history.winnings = list(p.winnings) if "w" in fields else None
    history.finishing_stacks = list(p.finishing) if "f" in fields else None
    return history.dumps()


def games() -> Iterator[Played]:
    for seed in range(24):
        yield play("F2L3D", (80, 120, 100)[: 2 + seed % 2], seed, 100 + seed)
        stacks = (60, 150, 100, 40)[: 2 + seed % 3]
        yield play("N2L1D", stacks, 1000 + seed, 200 + seed)


PLAYED = list(games())


def final_stacks(hand: Hand) -> dict[str, int]:
    """Stacks at the end of the replay, as the engine moves the chips the file states."""
    verdict, stacks = run_with_stacks(hand)
    assert verdict.problems == ()
    return stacks


def test_the_random_hands_cover_showdowns_folds_side_pots_and_both_games() -> None:
    kinds = {(p.variant, len(p.starting)) for p in PLAYED}
    assert kinds == {("F2L3D", 2), ("F2L3D", 3), ("N2L1D", 2), ("N2L1D", 3), ("N2L1D", 4)}
    texts = [dumped(p, "") for p in PLAYED]
    assert sum(" sm " in t for t in texts) >= 10  # showdowns
    assert sum(" f'" in t for t in texts) >= 10  # folds
    assert sum(p.all_in for p in PLAYED if len(p.starting) > 2) >= 3  # side pots


@pytest.mark.parametrize("fields", ["w", "f", "wf"])
@pytest.mark.parametrize("index", range(len(PLAYED)))
def test_pokerkits_phh_verifies_and_pays_what_pokerkit_paid(index: int, fields: str) -> None:
    p = PLAYED[index]
    text = dumped(p, fields)
    hand = read_phh(text, "kit.phh")
    assert (hand.game, hand.structure) == (
        (Game.TRIPLE_DRAW_27, Structure.FIXED)
        if p.variant == "F2L3D"
        else (Game.SINGLE_DRAW_27, Structure.NO_LIMIT)
    )
    assert verify(hand).problems == ()
    names = _names(len(p.starting))
    assert final_stacks(hand) == {n: f * 100 for n, f in zip(names, p.finishing, strict=True)}
    collected = {c.player: c.amount for c in hand.collects}
    assert all(c.pot is None for c in hand.collects)
    if "w" in fields:
        assert collected == {n: w * 100 for n, w in zip(names, p.winnings, strict=True) if w}
    if "f" in fields:
        payoffs = [f - s for f, s in zip(p.finishing, p.starting, strict=True)]
        assert hand.net == tuple((n, x * 100) for n, x in zip(names, payoffs, strict=True))
    else:
        assert hand.net == ()


def test_winnings_that_pay_the_wrong_player_are_caught() -> None:
    p = next(p for p in PLAYED if sorted(p.winnings)[-2:] == [0, max(p.winnings)])
    winner = p.winnings.index(max(p.winnings))
    other = (winner + 1) % len(p.winnings)
    wrong = list(p.winnings)
    wrong[winner], wrong[other] = wrong[other], wrong[winner]
    history = p.history
    history.winnings, history.finishing_stacks = wrong, None
    codes = {x.code for x in verify(read_phh(history.dumps(), "w.phh")).problems}
    assert "WRONG_WINNER" in codes


def test_finishing_stacks_that_do_not_add_up_are_caught() -> None:
    p = next(p for p in PLAYED if max(p.winnings) >= 2)
    history = p.history
    history.winnings = None
    history.finishing_stacks = [
        f - 1 if w else f + 1 for f, w in zip(p.finishing, p.winnings, strict=True)
    ]
    problems = verify(read_phh(history.dumps(), "f.phh")).problems
    assert problems
    assert {x.code for x in problems} <= {"COLLECT_MISMATCH", "NET_MISMATCH", "WRONG_WINNER"}


def test_each_action_keeps_its_own_line_when_the_array_is_on_one_line() -> None:
    p = PLAYED[0]
    text = dumped(p, "w")
    lines = text.split("\n")
    actions_line = 1 + next(i for i, x in enumerate(lines) if x.startswith("actions = ["))
    hand = read_phh(text, "kit.phh")
    assert {s.line for s in hand.steps if not isinstance(s, Collect)} >= {actions_line}
    assert all(s.line == actions_line for s in hand.actions)
    winnings_line = 1 + next(i for i, x in enumerate(lines) if x.startswith("winnings = "))
    assert {c.line for c in hand.collects} == {winnings_line}


def test_one_action_per_line_with_comments_and_brackets_in_strings() -> None:
    text = (
        "variant = 'F2L3D'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n"
        "small_bet = 2\nbig_bet = 4\nstarting_stacks = [50, 50]\n"
        "actions = [ # the deal\n"
        "  'd dh p1 7s5d4h3c2s', 'd dh p2 8s6d4c3h2d',\n"
        '  "p2 cbr 4 # ]\'[",  # a raise\n'
        "  '''p1 f''',\n"
        "]\n"
        "winnings = [0, 6]\n"
    )
    hand = read_phh(text, "h.phh")
    assert [(a.player, a.line) for a in hand.actions] == [("p2", 9), ("p1", 10)]
    assert [(c.player, c.amount, c.line) for c in hand.collects] == [("p2", 600, 12)]
    assert verify(hand).problems == ()


# ---- several hands in one .phhs file


def phhs(played: list[Played], fields: str = "wf") -> str:
    for p in played:
        dumped(p, fields)
    return HandHistory.dumps_all([p.history for p in played])


def section_ranges(text: str) -> list[tuple[int, int]]:
    """First and last line of each ``[n]`` section's body."""
    lines = text.split("\n")
    heads = [i + 1 for i, x in enumerate(lines) if x.startswith("[") and x.endswith("]")]
    ends = [h - 1 for h in heads[1:]] + [len(lines)]
    return [(h + 1, e) for h, e in zip(heads, ends, strict=True)]


def test_a_phhs_file_from_pokerkit_gives_each_hand_its_own_text_and_lines() -> None:
    played = PLAYED[:6]
    text = phhs(played)
    got = list(read_text(text, "kit.phhs"))
    assert len(got) == 6
    lines = text.split("\n")
    for (chunk, outcome), (first, last), p in zip(got, section_ranges(text), played, strict=True):
        assert isinstance(outcome, Hand)
        assert (chunk.file, chunk.line, chunk.site) == ("kit.phhs", first, "phh")
        assert chunk.text.strip() == "\n".join(lines[first - 1 : last]).strip()
        assert outcome.hand_id == str(p.history.hand)
        assert verify(outcome).problems == ()
        assert first <= min(s.line for s in outcome.steps)
        assert max(s.line for s in outcome.steps) <= last
        assert final_stacks(outcome) == {
            n: f * 100 for n, f in zip(_names(len(p.starting)), p.finishing, strict=True)
        }


def corrupt_middle(text: str) -> tuple[str, int]:
    """The middle hand with an action no player can take, and that hand's first line."""
    ranges = section_ranges(text)
    first, last = ranges[len(ranges) // 2]
    lines = text.split("\n")
    at = next(i for i in range(first - 1, last) if lines[i].startswith("actions = "))
    lines[at] = lines[at].replace("'d dh p1 ", "'d dh p9 ", 1)
    return "\n".join(lines), first


@pytest.mark.parametrize(
    "breaking",
    [
        lambda t: corrupt_middle(t),
        lambda t: (t.replace("\n[3]\n", "\n[3]\nvariant = 'F2L3D\n", 1), None),
        lambda t: (t.replace("\n[3]\n", "\n[3]\nstarting_stacks = 'many'\n", 1), None),
    ],
    ids=["bad-action", "bad-toml", "bad-field"],
)
def test_a_broken_hand_in_a_phhs_file_is_an_error_for_that_hand_alone(breaking: object) -> None:
    played = PLAYED[:5]
    good = phhs(played)
    assert callable(breaking)
    text, _ = breaking(good)
    third = section_ranges(text)[2]
    for source in _read_three_ways(text, "five.phhs"):
        assert len(source) == 5
        outcomes = [o for _, o in source]
        error = outcomes[2]
        assert isinstance(error, ParseError)
        assert error.file.endswith("five.phhs")
        assert third[0] <= error.line <= third[1]
        assert source[2][0].line == third[0]
        for o, p in zip(outcomes[:2] + outcomes[3:], played[:2] + played[3:], strict=True):
            assert isinstance(o, Hand) and o.hand_id == str(p.history.hand)
            assert verify(o).problems == ()


def _read_three_ways(text: str, name: str) -> list[list[tuple[HandText, Outcome]]]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(text, encoding="utf-8")
        from_path = list(read_path(path))
    return [list(read_text(text, name)), list(read_bytes(text.encode(), name)), from_path]


def test_drawlab_verify_gives_one_json_line_per_hand_of_a_phhs_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for i, p in enumerate(PLAYED[:5]):  # five tables: no stacks carried between the hands
        p.history.table = i + 1
    try:
        text, _ = corrupt_middle(phhs(PLAYED[:5]))
    finally:
        for p in PLAYED[:5]:
            p.history.table = None
    path = tmp_path / "five.phhs"
    path.write_text(text, encoding="utf-8")
    status = main(["verify", "--json", str(path)])
    objects = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    hands, summary = objects[:-1], objects[-1]
    assert "summary" in summary
    assert [(h["file"], h["site"], h["status"]) for h in hands] == [
        (str(path), "phh", "ok"),
        (str(path), "phh", "ok"),
        (str(path), "phh", "parse_error"),
        (str(path), "phh", "ok"),
        (str(path), "phh", "ok"),
    ]
    assert [h["hand_id"] for h in hands if h["status"] == "ok"] == [
        str(p.history.hand) for i, p in enumerate(PLAYED[:5]) if i != 2
    ]
    assert status != 0


# ---- sniffing


def test_phh_and_phhs_heads_are_sniffed_as_phh_by_phh_alone() -> None:
    heads = [
        dumped(PLAYED[0], "w"),
        phhs(PLAYED[:3]),
        '# a hand\n\n[1]\n"variant" = "N2L1D"\n',
        write_phh(next(o for _, _, o in results() if isinstance(o, Hand))),
    ]
    for head in heads:
        assert [r.site for r in READERS if r.sniff(head)] == ["phh"]


def test_no_other_sites_file_is_sniffed_as_phh() -> None:
    files = {path for path, chunk, _ in results() if chunk.site not in ("", "phh")}
    assert len(files) >= 20
    reader = PhhReader()
    for path in files:
        head = path.read_bytes()[:8192].decode("utf-8", "replace")
        assert not reader.sniff(head), path


# ---- our own hands through .phh and .phhs


def own_hands() -> list[Hand]:
    """Every site's corpus hands, and dealt hands of every game and structure."""
    corpus = [o for _, _, o in results() if isinstance(o, Hand)]
    dealt = [
        h
        for i, (game, structure) in enumerate(rules_games())
        for h in deal_hands(12, game, 2 + i % 5, seed=i, structure=structure)
    ]
    return corpus + dealt


def rules_games() -> list[tuple[Game, Structure]]:
    return [(g, s) for g in Game for s in Structure]


def test_our_own_hands_round_trip_exactly_through_phh_and_phhs() -> None:
    hands = own_hands()
    assert len(hands) >= 150
    assert len({h.site for h in hands}) >= 7
    texts = [write_phh(h) for h in hands]
    for hand, text in zip(hands, texts, strict=True):
        assert without_position(read_phh(text, "own.phh")) == without_position(hand)
    joined = "\n".join(f"[{i + 1}]\n{t}" for i, t in enumerate(texts))
    back = [o for _, o in read_text(joined, "own.phhs")]
    assert [without_position(o) for o in back] == [without_position(h) for h in hands]


def test_without_payout_fields_the_record_states_no_payout() -> None:
    for p in PLAYED[:6]:
        hand = read_phh(dumped(p, ""), "bare.phh")
        assert (hand.collects, hand.net) == ((), ())


def test_quoted_keys_give_the_same_hand_and_lines() -> None:
    text = dumped(PLAYED[0], "wf")
    quoted = "\n".join(
        f'"{x.split(" = ", 1)[0]}" = {x.split(" = ", 1)[1]}' if " = " in x else x
        for x in text.split("\n")
    )
    assert quoted != text
    assert read_phh(quoted, "q.phh") == read_phh(text, "q.phh")


def test_pokerkits_fifth_bet_before_the_draw_breaks_the_rulebooks_cap() -> None:
    """pokerkit allows four raises over the big blind; RULES.md a bet and three raises."""
    actions = [
        "d dh p1 7s5d4h3c2s",
        "d dh p2 8s6d4c3h2d",
        "d dh p3 9s7d5c4d3s",
        "p3 cbr 4",
        "p1 cbr 6",
        "p2 cbr 8",
        "p3 cbr 10",
        "p1 f",
        "p2 f",
    ]
    text = (
        "variant = 'F2L3D'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\n"
        "small_bet = 2\nbig_bet = 4\nstarting_stacks = [50, 50, 50]\nactions = [\n"
        + "".join(f"  '{a}',\n" for a in actions)
        + "]\nwinnings = [0, 0, 24]\n"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        final = list(HandHistory.loads(text))[-1]
    assert list(final.stacks) == [44, 42, 64]  # pokerkit played the fifth bet
    problems = verify(read_phh(text, "cap.phh")).problems
    assert [(x.code, x.line) for x in problems] == [
        ("CAP_EXCEEDED", 8 + actions.index("p3 cbr 10"))
    ]


def test_a_phhs_file_is_read_the_same_from_crlf_bytes_with_a_bom_and_from_a_zip() -> None:
    text = phhs(PLAYED[:4])
    plain = [(c.line, without_position(o)) for c, o in read_text(text, "four.phhs")]
    crlf = ("\ufeff" + text.replace("\n", "\r\n")).encode("utf-8")
    assert [(c.line, without_position(o)) for c, o in read_bytes(crlf, "four.phhs")] == plain
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("hands/four.phhs", text)
    zipped = list(read_bytes(packed.getvalue(), "up.zip"))
    assert [(c.file, c.line) for c, _ in zipped] == [
        ("up.zip/hands/four.phhs", x) for x, _ in plain
    ]
    assert [without_position(o) for _, o in zipped] == [o for _, o in plain]


FIVE = phhs(PLAYED[5:10])
FIVE_READ = [(c.line, without_position(o)) for c, o in read_text(FIVE, "five.phhs")]


@settings(max_examples=200, deadline=None)
@given(
    hand=st.integers(0, 4),
    row=st.integers(0),
    start=st.integers(0),
    cut=st.integers(0, 40),
    junk=st.text(
        st.characters(blacklist_characters="[]\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"),
        max_size=12,
    ),
)
def test_an_edit_inside_one_hand_of_a_phhs_file_touches_that_hand_alone(
    hand: int, row: int, start: int, cut: int, junk: str
) -> None:
    lines = FIVE.split("\n")
    first, last = section_ranges(FIVE)[hand]
    at = first - 1 + row % (last - first + 1)
    line = lines[at]
    start %= len(line) + 1
    lines[at] = line[:start] + junk + line[start + cut :]
    got = list(read_text("\n".join(lines), "five.phhs"))
    assert len(got) == 5
    for i, (chunk, outcome) in enumerate(got):
        if isinstance(outcome, ParseError):
            assert not outcome.message.startswith(INTERNAL), str(outcome)
            assert first <= outcome.line <= last
        if i != hand:
            assert (chunk.line, without_position(outcome)) == FIVE_READ[i]
        else:
            assert chunk.line == first
            assert isinstance(outcome, Hand | ParseError)


HOLDEM = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AsAd', 'd dh p2 KsKd', 'p2 f']
hand = 7
"""


def test_a_hand_of_a_game_we_do_not_replay_is_skipped_among_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # two tables, or the stacks would have to carry over from one hand to the next
    draw = [dumped(p, "w") + f"\ntable = {i}" for i, p in enumerate(PLAYED[:2])]
    text = f"[1]\n{draw[0]}\n[2]\n{HOLDEM}\n[3]\n{draw[1]}\n"
    got = [o for _, o in read_text(text, "mixed.phhs")]
    assert isinstance(got[0], Hand) and isinstance(got[2], Hand)
    skip = got[1]
    assert isinstance(skip, Skipped)
    assert (skip.kind, skip.site, skip.game, skip.hand_id, skip.file) == (
        "unsupported",
        "phh",
        "NT",
        "7",
        "mixed.phhs",
    )
    assert skip.line == text.split("\n").index("[2]") + 2
    assert "no-limit Texas hold'em" in skip.reason
    with pytest.raises(ParseError) as info:
        read_phh(HOLDEM, "nt.phh")
    assert (info.value.line, info.value.message) == (
        1,
        "variant 'NT' is not a draw game DrawLab reads",
    )
    path = tmp_path / "mixed.phhs"
    path.write_text(text, encoding="utf-8")
    assert main(["verify", "--json", str(path)]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()[:-1]]
    assert [(r["status"], r["game"]) for r in rows] == [
        ("ok", "27_triple_draw"),
        ("unsupported", "NT"),
        ("ok", "27_single_draw"),
    ]


def test_anonymous_and_twice_given_names_stay_apart() -> None:
    p = next(p for p in PLAYED if len(p.starting) == 3)
    history = p.history
    history.players = ["", "", "Cy"]
    try:
        text = dumped(p, "wf")
        twice = text.replace("players = ['', '', 'Cy']", "players = ['Al', 'Al', 'Cy']")
    finally:
        history.players = _names(3)
    hand = read_phh(text, "anon.phh")
    assert [s.player for s in hand.seats] == ["p1", "p2", "Cy"]
    assert verify(hand).problems == ()
    assert [s.player for s in read_phh(twice, "twice.phh").seats] == ["Al (p1)", "Al (p2)", "Cy"]


def test_phhs_sections_may_have_any_name_and_a_hands_own_tables_stay_with_it() -> None:
    a, b = (dumped(p, "w") for p in PLAYED[:2])
    text = f'["first hand"]\n{a}\n\n[_notes]\nby = "us"\n\n[hand-2] # the next\n{b}\n'
    got = list(read_text(text, "named.phhs"))
    lines = text.split("\n")
    assert [(c.line, type(o).__name__) for c, o in got] == [
        (2, "Hand"),
        (lines.index("[hand-2] # the next") + 2, "Hand"),
    ]
    assert "[_notes]" in got[0][0].text
    assert [without_position(o) for _, o in got] == [
        without_position(read_phh(a, "x")),
        without_position(read_phh(b, "x")),
    ]


MONEY = {"COLLECT_MISMATCH", "NET_MISMATCH", "WRONG_WINNER", "POT_MISMATCH", "RAKE_MISMATCH"}


def test_our_hands_from_their_standard_fields_alone_pay_out_as_the_originals() -> None:
    """Real sites' payouts (rake, silent uncalled bets, dead blinds, side pots) survive the
    trip through ``winnings`` and the antes: no money problem the original does not have."""
    checked = 0
    for hand in own_hands():
        before = {p.code for p in verify(hand).problems} & MONEY
        text = write_phh(hand).split("# The whole DrawLab record")[0]
        back = read_phh(text, "std.phh")
        assert {p.code for p in verify(back).problems} & MONEY <= before, hand.hand_id
        assert sum(c.amount for c in back.collects) == sum(c.amount for c in hand.collects)
        checked += 1
    assert checked >= 150


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("winnings", "[1, 2]", "one amount per player"),
        ("winnings", "[0, -4, 0]", "negative"),
        ("finishing_stacks", "[0, 'x', 0]", "not an amount"),
        ("finishing_stacks", "[0, 0.001, 0]", "finer than hundredths"),
    ],
)
def test_a_wrong_payout_field_is_an_error_on_its_line(field: str, value: str, says: str) -> None:
    p = next(p for p in PLAYED if len(p.starting) == 3)
    text = dumped(p, "") + f"\n{field} = {value}\n"
    with pytest.raises(ParseError) as info:
        read_phh(text, "bad.phh", 11)
    assert info.value.line == 10 + len(text.split("\n")) - 1
    assert info.value.line_text == f"{field} = {value}"
    assert says in info.value.message and info.value.message.startswith(
        f"not a usable PHH hand: {field}"
    )
