"""The fast facts (``analysis.statistics.facts``) give exactly the values of the plain walks
they replaced (``tests.analysis.statistics.facts_reference``, the code of commit 3ada8e0):
on every corpus hand, on thousands of dealt hands of every game, and on generated records
however odd.  Values are compared with their types, so a ``1`` where ``True`` was is a
difference."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.statistics import facts
from analysis.statistics.fact_row import FACT_FIELDS
from analysis.statistics.hand_classes import hand_class, is_made
from engine.pots import uncalled
from engine.record import Collect, Game, Hand, Structure
from engine.sim.dealer import deal_hands
from parser.reader import read_path
from tests.analysis.statistics import facts_reference as reference
from tests.analysis.statistics.test_facts import odd_hands
from tests.parser_corpus import hand_files


def typed(
    rows: Iterable[tuple[Any, ...]], names: tuple[str, ...], lead: int
) -> list[dict[str, tuple[type, Any]]]:
    """Each row's lead values and the oracle's columns, by name, with their types."""
    return [
        {**{f"lead_{i}": (type(v), v) for i, v in enumerate(row[:lead])},
         **{n: (type(v), v) for n, v in zip(names, row[lead:], strict=True)
            if n in reference.FACT_FIELDS}}
        for row in rows
    ]


def assert_same_facts(hand: Hand) -> None:
    """Both paths of both modules, compared by column: the importer's tuples with a lead
    and without, and the rows."""
    time = facts.stored_time(hand.time)
    for lead in ((7,), (), (1, "x")):
        assert typed(facts.fact_rows(hand, lead, time), FACT_FIELDS, len(lead)) == typed(
            reference.fact_rows(hand, lead, time), reference.FACT_FIELDS, len(lead)
        ), (hand.file, hand.line, lead)
    assert [{n: getattr(r, n) for n in reference.FACT_FIELDS} for r in facts.hand_facts(hand)
            ] == reference.hand_facts(hand)


def corpus_hands() -> list[Hand]:
    return [out for path in hand_files() for _, out in read_path(path) if isinstance(out, Hand)]


def test_every_corpus_hand_gives_the_reference_facts() -> None:
    hands = corpus_hands()
    for hand in hands:
        assert_same_facts(hand)
    assert len(hands) >= 60
    assert sum(len(facts.hand_facts(h)) for h in hands) >= 200


def dealt() -> Iterator[Hand]:
    """Every game and table size, cash and tournament (short stacks: all-ins), with and
    without a hero (no known cards at all), fixed, pot and no limit."""
    seed = 100
    for game in Game:
        for players in (2, 3, 4, 5, 6):
            seed += 1
            yield from deal_hands(120, game, players, seed)
            yield from deal_hands(40, game, players, seed, tournament=True)
        yield from deal_hands(60, game, 4, seed, hero=None)
        yield from deal_hands(60, game, 3, seed, structure=Structure.NO_LIMIT)
        yield from deal_hands(60, game, 6, seed, structure=Structure.POT,
                              start=datetime(2024, 3, 1, 12, 0))


@pytest.mark.slow
def test_dealt_hands_of_every_game_give_the_reference_facts() -> None:
    seen = {"hands": 0, "all_in": 0, "walk": 0, "split": 0, "unknown": 0, "showdown": 0}
    games: set[Game] = set()
    for hand in dealt():
        assert_same_facts(hand)
        rows = facts.hand_facts(hand)
        games.add(hand.game)
        seen["hands"] += 1
        seen["all_in"] += any(r.all_in for r in rows)
        seen["walk"] += any(r.position == "BB" and not r.predraw_acted for r in rows)
        seen["split"] += len({s.player for s in hand.steps if isinstance(s, Collect)}) > 1
        seen["unknown"] += any(r.went_to_showdown and r.final_cards is None for r in rows)
        seen["showdown"] += any(r.went_to_showdown for r in rows)
    assert games == set(Game)
    # the cases the fast path treats apart are all there, many times over
    floors = {"hands": 5_000, "all_in": 100, "walk": 100, "split": 20, "unknown": 100,
              "showdown": 1_000}
    assert all(seen[k] >= floors[k] for k in floors), seen


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(odd_hands())
def test_any_record_gives_the_reference_facts(hand: Hand) -> None:
    assert_same_facts(hand)


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(st.sampled_from("abcdef"), st.integers(-300, 300), max_size=6))
def test_unmatched_is_uncalled(contributions: dict[str, int]) -> None:
    assert facts.unmatched(contributions) == uncalled(contributions)


@settings(max_examples=500, deadline=None)
@given(st.integers(-5, 400),
       st.dictionaries(st.sampled_from("abcdef"), st.integers(-50, 900), max_size=6))
def test_rake_shares_are_the_reference_shares(rake: int, collected: dict[str, int]) -> None:
    assert facts.rake_shares(rake, collected) == reference.rake_shares(rake, collected)


cards = st.lists(st.integers(-1, 53), min_size=0, max_size=6).map(tuple)
real_cards = st.permutations(range(52)).map(lambda p: tuple(p[:5]))


@pytest.mark.parametrize("game", list(Game))
@settings(max_examples=300, deadline=None)
@given(st.one_of(cards, real_cards, real_cards.map(lambda c: c[:4])))
def test_classes_are_the_reference_classes(game: Game, hand: tuple[int, ...]) -> None:
    assert hand_class(hand, game) == reference.hand_class(hand, game)
    assert is_made(hand, game) == reference.is_made(hand, game)
