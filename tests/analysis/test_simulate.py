"""``drawlab simulate``: dealt hands written as PokerStars text or PHH, byte for byte repeatable."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pokerkit import HandHistory

from analysis.simulate import simulate, texts
from cli import main
from engine.record import Game, Hand, HouseRules, Structure
from engine.sim.dealer import DealRefused, check_deal, deal_hands
from parser.phh import read_phh
from parser.reader import read_text
from tests.engine.sim.test_dealer_roundtrip import placeless


def test_simulate_writes_hands_that_read_back_as_the_dealt_ones(tmp_path: Path) -> None:
    out = tmp_path / "sim.txt"
    code = main(["simulate", "--hands", "25", "--players", "4", "--game", "a5_triple_draw",
                 "--seed", "3", "--out", str(out)])
    assert code == 0
    parsed = [h for _, h in read_text(out.read_text(encoding="utf-8"), str(out))]
    assert all(isinstance(h, Hand) for h in parsed)
    dealt = list(deal_hands(25, Game.TRIPLE_DRAW_A5, 4, 3))
    assert [placeless(h) for h in parsed if isinstance(h, Hand)] == [placeless(h) for h in dealt]


def test_simulate_to_standard_output_is_the_same_bytes_as_to_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sim.txt"
    args = ["simulate", "--hands", "12", "--players", "6", "--game", "five_card_draw",
            "--structure", "pot", "--seed", "8"]
    assert main([*args, "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(args) == 0
    assert capsys.readouterr().out == out.read_text(encoding="utf-8")


def test_several_hands_in_phh_are_one_multi_hand_file_pokerkit_reads() -> None:
    buffer = io.StringIO()
    count = simulate(buffer, 5, Game.TRIPLE_DRAW_27, 3, 2, "phh")
    assert count == 5
    text = buffer.getvalue()
    assert text.startswith("[1]\n")
    assert text.count("\n[5]\n") == 1
    histories = list(HandHistory.loads_all(text))
    dealt = list(deal_hands(5, Game.TRIPLE_DRAW_27, 3, 2))
    assert [h.hand for h in histories] == [d.hand_id for d in dealt]


def test_one_hand_in_phh_is_a_plain_phh_file() -> None:
    buffer = io.StringIO()
    simulate(buffer, 1, Game.SINGLE_DRAW_27, 2, 6, "phh", structure=Structure.NO_LIMIT)
    (dealt,) = deal_hands(1, Game.SINGLE_DRAW_27, 2, 6, structure=Structure.NO_LIMIT)
    assert placeless(read_phh(buffer.getvalue(), "one.phh")) == placeless(dealt)


def test_no_hands_is_an_empty_output_and_bad_arguments_are_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert list(texts([], "pokerstars")) == []
    assert main(["simulate", "--hands", "0"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["simulate", "--hands", "3", "--players", "7"]) == 2
    assert "--players 2 to 6" in capsys.readouterr().err
    with pytest.raises(ValueError):
        list(texts(deal_hands(1, Game.TRIPLE_DRAW_27, 2, 1), "xml"))


def test_simulate_deals_sit_and_go_hands_on_request(tmp_path: Path) -> None:
    out = tmp_path / "sng.txt"
    assert main(["simulate", "--hands", "5", "--players", "3", "--tournament",
                 "--out", str(out)]) == 0
    parsed = [h for _, h in read_text(out.read_text(encoding="utf-8"), str(out))]
    assert [h.tournament is not None and h.currency for h in parsed if isinstance(h, Hand)] == [
        "chips"
    ] * 5


def test_simulate_deals_the_home_game_only_for_five_card_draw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "home.phhs"
    assert main(["simulate", "--hands", "4", "--game", "five_card_draw", "--home",
                 "--format", "phh", "--out", str(out)]) == 0
    sites = [h.venue for h in HandHistory.loads_all(out.read_text(encoding="utf-8"))]
    assert sites == ["home"] * 4
    assert main(["simulate", "--hands", "4", "--home"]) == 2
    assert "--home" in capsys.readouterr().err


@pytest.mark.parametrize(("n", "players", "home", "house", "misdeals", "asked"), [
    (-1, 4, False, None, 0, "hands"),
    (3, 7, False, None, 0, "players"),
    (3, 7, True, HouseRules(no_replacement=True), 0, None),  # 7-8 at home without replacement
    (3, 4, True, None, 0, "home"),  # the home game is five-card draw's
    (3, 4, False, HouseRules(wild="deuces"), 0, "house"),
    (3, 4, True, HouseRules(max_draw=4), 0, "ace_draws"),  # an ace may draw 4: not more
    (3, 4, True, None, 1001, "misdeals"),
])
def test_the_dealer_refuses_what_it_cannot_deal_before_any_hand(
    n: int, players: int, home: bool, house: HouseRules | None, misdeals: int, asked: str | None,
) -> None:
    game = Game.FIVE_CARD_DRAW if house is not None or asked != "home" else Game.TRIPLE_DRAW_27
    if asked is None:
        check_deal(n, game, players, home=home, house=house, misdeal_per_mille=misdeals)
        return
    with pytest.raises(DealRefused) as refused:
        check_deal(n, game, players, home=home, house=house, misdeal_per_mille=misdeals)
    assert refused.value.asked == asked


def test_a_refused_simulation_writes_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "never.txt"
    assert main(["simulate", "--hands", "3", "--players", "9", "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        "error: --hands must be 0 or more and --players 2 to 6 (7-8 only at home with "
        "--no-replacement)\n")
    assert not out.exists()
