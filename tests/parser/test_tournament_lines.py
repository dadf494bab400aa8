"""The lines of tournament hands that end a tournament for a player or pay a bounty."""

from __future__ import annotations

from parser.tournament_lines import TournamentLine, tournament_lines


def test_finishing_winning_and_bounty_lines() -> None:
    text = "\n".join([
        "Seat 1: Hero (1500 in chips)",
        "Alice finished the tournament in 7th place",
        "Bob finished the tournament in 2nd place and received $3.60.",
        "Carol wins the tournament and receives $9.50 - congratulations!",
        "Hero wins $2.50 for eliminating Bob and their own bounty increases by $2.50 to $7.50",
        "Hero wins the $1.00 bounty for eliminating Alice",
        "Dan finished the tournament",
        "Eve: finished the tournament in 3rd place? says the chat",
    ])
    assert list(tournament_lines(text, 10)) == [
        TournamentLine("Alice", 11, place=7),
        TournamentLine("Bob", 12, place=2, prize=360),
        TournamentLine("Carol", 13, place=1, prize=950),
        TournamentLine("Hero", 14, bounty=250),
        TournamentLine("Hero", 15, bounty=100),
        TournamentLine("Dan", 16),
    ]


def test_full_tilt_wording() -> None:
    text = "Bob wins the tournament and receives $9.50 - congratulations!\n" \
        "Alice finished the tournament in 2nd place"
    assert list(tournament_lines(text)) == [
        TournamentLine("Bob", 1, place=1, prize=950), TournamentLine("Alice", 2, place=2)]


def test_rebuys_add_ons_and_seats_won() -> None:
    text = "\n".join([
        "Hero re-buys and receives 1500 chips for $1.00",
        "Hero takes the add-on and receives 3,000 chips for $2.00",
        "Bob re-buys and receives 1500 chips",
        "Hero wins an entry to tournament #123456789",
    ])
    assert list(tournament_lines(text)) == [
        TournamentLine("Hero", 1, rebuys=1, paid=100),
        TournamentLine("Hero", 2, addons=1, paid=200),
        TournamentLine("Bob", 3, rebuys=1),
        TournamentLine("Hero", 4, ticket="entry to tournament #123456789"),
    ]


def test_figures_no_tournament_holds_are_passed_over() -> None:
    text = "Al finished the tournament in 99999999999th place\n" \
        "Bo wins the tournament and receives $99999999999999999 - congratulations!"
    assert list(tournament_lines(text)) == []
