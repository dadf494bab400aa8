"""One ``HandResult`` per hand text: statuses, reasons, problems and final stacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.pipeline.verification import check
from analysis.pipeline.verify_files import verify_paths
from engine.verdict import Severity
from parser.outcome import HandText, ParseError, Skipped
from tests.corpus import CORPUS
from tests.verify_hands import base_hand, make_hand, with_step

KINGSCLUB_A5 = CORPUS / "cash/KingsClub/Draw/A5-3-Draw-Limit-USD-44-88-202010.txt"


def test_a_clean_hand_is_ok_with_its_final_stacks() -> None:
    chunk = HandText("test.txt", 1, "text", "pokerstars")
    result = check(chunk, base_hand())
    assert (result.status, result.problems, result.reason) == ("ok", (), "")
    assert (result.game, result.site, result.hand_id) == ("27_triple_draw", "pokerstars", "1001")
    assert dict(result.final) == {"A": 1091, "B": 980, "C": 920}


def test_an_invalid_hand_gives_its_first_error_as_the_reason() -> None:
    hand = make_hand(with_step(22, None))
    result = check(HandText("test.txt", 1, "text"), hand)
    assert result.status == "invalid"
    assert result.reason == result.problems[0].message
    assert result.problems[0].severity is Severity.ERROR


def test_skips_and_parse_errors_keep_their_kind_and_reason() -> None:
    chunk = HandText("f.txt", 7, "PokerStars Hand #123: Hold'em", "pokerstars")
    skipped = Skipped(
        "unsupported",
        "Hold'em is not a draw game",
        site="pokerstars",
        file="f.txt",
        line=7,
        hand_id="123",
        game="Hold'em No Limit",
    )  # fmt: skip
    result = check(chunk, skipped)
    assert (result.status, result.game, result.hand_id, result.reason) == (
        "unsupported",
        "Hold'em No Limit",
        "123",
        "Hold'em is not a draw game",
    )
    error = ParseError("unknown line", file="f.txt", line=9, line_text="Zzz")
    result = check(chunk, error)
    assert (result.status, result.hand_id, result.line) == ("parse_error", "123", 9)
    assert [(p.code, p.line) for p in result.problems] == [("PARSE_ERROR", 9)]


def test_final_stacks_include_the_bet_a_site_returns_silently() -> None:
    (result,) = list(verify_paths([KINGSCLUB_A5]))
    final = dict(result.final)
    assert final["Hero"] == 437691  # 3,644.91 + 732: the 88 bet nobody called came back
    assert final["Player3"] == 240912


def test_a_hand_whose_replay_failed_carries_nothing_to_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.record import Game
    from engine.sim.dealer import deal_hands
    from parser.pokerstars_writer import write_all

    hands = list(deal_hands(3, Game.TRIPLE_DRAW_27, 4, seed=3))
    path = tmp_path / "table.txt"
    path.write_text(write_all(hands), encoding="utf-8")
    chained = [r.problems for r in verify_paths([path])]
    assert chained == [(), (), ()]

    from engine import replay as replay_module
    from engine.problems import REPLAY_FAILED
    from engine.record import Action
    from engine.verdict import Problem, Severity

    real_action = replay_module._HANDLERS[Action]
    third_final = replay_module.replay(hands[2]).final

    def failing(replayer: replay_module._Replayer, step: Action) -> None:
        if replayer.hand.hand_id == hands[1].hand_id:
            raise RuntimeError("replay failed")
        real_action(replayer, step)

    # the handlers' table is read at run time, compiled or not (a compiled class's method
    # cannot be patched)
    monkeypatch.setitem(replay_module._HANDLERS, Action, failing)
    results = list(verify_paths([path]))
    second = next(
        i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if f"#{hands[1].hand_id}:" in text
    )
    failed = Problem(
        REPLAY_FAILED, Severity.ERROR, second,
        "the replay failed on this hand (RuntimeError: replay failed)",
    )
    # The failed replay is the second hand's verdict, with no stacks; the third hand
    # follows it, its end unknown: it is compared with nothing (not with the first, whose
    # end the second hand's blinds and bets changed).
    assert [(r.status, r.problems, dict(r.final)) for r in results[1:]] == [
        ("invalid", (failed,), {}),
        ("ok", (), dict(third_final)),
    ]
