"""The workers' fast rows (``add_result``, ``Rows.to_arrow``) against a plain statement
of the same rows, value by value, on every corpus hand of every site and on dealt hands.

The reference walks each record with ``isinstance``, writes cards with the engine's
``format_cards`` and the facts through the general ``hand_facts`` (frozen rows read by
name), and builds each table from one dict a row: slow and obvious, so that whatever the
fast path does to save time (the class checks, the card texts looked up, the columns
converted in one pass) is checked to change nothing, problems, quarantined texts, failed
and unreplayed hands, and hands without facts included.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from analysis.pipeline.importer import checked, reader_for
from analysis.pipeline.verification import HandResult
from analysis.pipeline.verify_files import verify_paths
from analysis.statistics.facts import hand_facts
from analysis.storage.player_facts import facts_fn
from analysis.storage.rows import (
    CHILD_COLUMNS,
    CHILD_TYPES,
    HAND_COLUMNS,
    HAND_TYPES,
    QUARANTINE_COLUMNS,
    QUARANTINE_TYPES,
    ArrowRows,
    Rows,
    add_result,
    cards_text,
    hand_key,
    text_digest,
)
from engine.cards import format_cards
from engine.record import Action, Collect, Draw, Game, Hand, Muck, Post, Show, Uncalled
from engine.sim.dealer import deal_hands
from engine.verdict import Problem, Severity
from parser.outcome import HandText
from parser.pokerstars_writer import write_pokerstars
from tests.parser_corpus import hand_files

Dict = dict[str, Any]


def _cards(cards: Sequence[int] | None) -> str | None:
    return None if cards is None else format_cards(cards, sep="")


def _naive(time: datetime | None) -> datetime | None:
    if time is None or time.tzinfo is None:
        return time
    return time.astimezone(UTC).replace(tzinfo=None)


def _steps(local: int, hand: Hand, out: dict[str, list[Dict]]) -> dict[str, int]:
    """The child rows of one hand, and each seat's chips at its end."""
    final = {s.player: s.stack for s in hand.seats}
    known = dict(hand.dealt_others)
    if hand.hero is not None and hand.dealt is not None:
        known[hand.hero] = hand.dealt
    nets = dict(hand.net)
    for s in hand.seats:
        out["seats"].append(
            dict(hand=local, seat=s.seat, player=s.player, stack=s.stack,
                 sitting_out=s.sitting_out, cards=_cards(known.get(s.player)),
                 net=nets.get(s.player), line=s.line)
        )  # fmt: skip
    for idx, st in enumerate(hand.steps):
        if isinstance(st, Action | Post):
            is_post = isinstance(st, Post)
            out["actions"].append(
                dict(hand=local, idx=idx, street=0 if is_post else st.street, player=st.player,
                     kind=f"post_{st.kind.value}" if is_post else st.kind.value,
                     amount=st.amount, to_amount=None if is_post else st.to, all_in=st.all_in,
                     dead=st.dead if is_post else 0, line=st.line)
            )  # fmt: skip
            final[st.player] = final.get(st.player, 0) - st.amount
        elif isinstance(st, Draw):
            out["draws"].append(
                dict(hand=local, idx=idx, player=st.player, draw=st.draw, count=st.count,
                     discarded=_cards(st.discarded), kept=_cards(st.kept),
                     received=_cards(st.received), run=st.run, line=st.line)
            )  # fmt: skip
        elif isinstance(st, Show):
            out["shows"].append(
                dict(hand=local, idx=idx, player=st.player, cards=_cards(st.cards),
                     mucked=st.mucked, run=st.run, line=st.line)
            )  # fmt: skip
        elif isinstance(st, Muck):
            out["shows"].append(
                dict(hand=local, idx=idx, player=st.player, cards=None, mucked=True, run=0,
                     line=st.line)
            )  # fmt: skip
        elif isinstance(st, Collect | Uncalled):
            collect = isinstance(st, Collect)
            out["payouts"].append(
                dict(hand=local, idx=idx, player=st.player,
                     kind="collect" if collect else "uncalled", amount=st.amount,
                     pot=st.pot if isinstance(st, Collect) else None,
                     run=st.run if isinstance(st, Collect) else 0, line=st.line)
            )  # fmt: skip
            final[st.player] = final.get(st.player, 0) + st.amount
    return final


def reference(results: Sequence[HandResult]) -> tuple[dict[str, list[Dict]], list[dict[str, int]]]:
    """Every table's rows as dicts, and each stored hand's final stacks."""
    _, columns, _ = facts_fn()
    out: dict[str, list[Dict]] = {
        "hands": [], "quarantine": [], **{n: [] for n in CHILD_COLUMNS}, "player_hands": [],
    }  # fmt: skip
    finals: list[dict[str, int]] = []
    for r in results:
        if r.status == "parse_error":
            reason = r.reason or "; ".join(p.message for p in r.problems)
            out["quarantine"].append(
                dict(key=f"{r.site}#{text_digest(r.text)}", site=r.site, file=r.file,
                     line=r.line, error=reason, text=r.text)
            )  # fmt: skip
            continue
        local = len(out["hands"])
        hand = r.hand
        problems = list(r.problems)
        if hand is not None:
            try:
                facts = hand_facts(hand)
            except Exception as exc:
                facts = []
                message = f"facts: {type(exc).__name__}: {exc}"
                problems.append(Problem("FACTS_FAILED", Severity.WARNING, hand.line, message))
            for fact in facts:
                out["player_hands"].append(
                    {"hand": local, **{c: getattr(fact, c) for c in columns}}
                )
        errors = sum(1 for p in problems if p.severity is Severity.ERROR)
        row: Dict = dict.fromkeys(HAND_COLUMNS)
        row.update(
            status=r.status, reason=r.reason or None, errors=errors,
            warnings=len(problems) - errors, file=r.file, line=r.line, text=r.text,
        )  # fmt: skip
        if hand is None:
            row.update(key=hand_key(r.site, r.hand_id, "", None, r.text), site=r.site,
                       hand_id=r.hand_id or None, game=r.game or None)  # fmt: skip
        else:
            t = hand.tournament
            row.update(
                key=hand_key(hand.site, hand.hand_id, hand.table, hand.time, r.text),
                site=hand.site, hand_id=hand.hand_id or None, table_name=hand.table or None,
                game=hand.game.value, structure=hand.structure.value,
                small_blind=hand.stakes.small_blind, big_blind=hand.stakes.big_blind,
                small_bet=hand.stakes.small_bet, big_bet=hand.stakes.big_bet,
                ante=hand.stakes.ante, currency=hand.currency or None, time=_naive(hand.time),
                button=hand.button, max_seats=hand.max_seats, players=len(hand.seats),
                hero=hand.hero, hero_cards=_cards(hand.dealt), total_pot=hand.total_pot,
                rake=hand.rake, tournament_id=t.tournament_id if t else None,
                buy_in=t.buy_in if t else None, fee=t.fee if t else None,
                level=t.level if t else None,
                time_utc=None if hand.time is None else hand.time.tzinfo is not None,
            )  # fmt: skip
        out["hands"].append(row)
        for p in problems:
            out["problems"].append(
                dict(hand=local, code=p.code, severity=str(p.severity), line=p.line,
                     message=p.message)
            )  # fmt: skip
        if hand is not None:
            finals.append(_steps(local, hand, out))
            for idx, pot in enumerate(r.pots):
                out["pots"].append(
                    dict(hand=local, idx=idx, amount=pot.amount, eligible=list(pot.eligible),
                         winners=None if pot.winners is None else list(pot.winners))
                )  # fmt: skip
    return out, finals


def fast(results: Sequence[HandResult]) -> tuple[ArrowRows, Rows]:
    facts, columns, types = facts_fn()
    rows = Rows()
    for r in results:
        add_result(rows, r, facts, columns)
    finals = Rows(carry=list(rows.carry))
    return rows.to_arrow(types), finals


def _tables(rows: ArrowRows) -> dict[str, pa.Table]:
    return {"hands": rows.hands, "quarantine": rows.quarantine, **rows.children,
            "player_hands": rows.player_hands}  # fmt: skip


def assert_same(results: Sequence[HandResult]) -> dict[str, int]:
    """The fast tables equal the reference's, row for row and type for type; returns
    each table's row count (for the caller to see what was covered)."""
    want, finals = reference(results)
    got, carried = fast(results)
    _, _, types = facts_fn()
    declared = {
        "hands": (HAND_COLUMNS, HAND_TYPES),
        "quarantine": (QUARANTINE_COLUMNS, QUARANTINE_TYPES),
        **{n: (CHILD_COLUMNS[n], CHILD_TYPES[n]) for n in CHILD_COLUMNS},
    }
    for name, table in _tables(got).items():
        if name in declared:
            names, kinds = declared[name]
            assert table.schema == pa.schema(list(zip(names, kinds, strict=True))), name
        else:
            assert table.column_names == ["hand", *(n for n, _ in types)]
        assert table.to_pylist() == want[name], name
    assert [final for _, _, final in carried.carry] == finals
    return {name: len(rows) for name, rows in want.items()}


@cache
def corpus_results() -> tuple[HandResult, ...]:
    """Every corpus hand, and after each file a text its site's reader cannot read."""
    out: list[HandResult] = []
    for path in hand_files():
        results = list(verify_paths([path]))
        out += results
        if results:
            site = results[0].site
            garbage = HandText(path.name, 10**6, f"{site} hand #1: garbage\n", site)
            out.append(checked(reader_for(site), garbage))
    return tuple(out)


def test_every_corpus_hand_of_every_site_as_the_reference_has_it() -> None:
    results = corpus_results()
    counts = assert_same(results)
    sites = {r.site for r in results}
    assert sites == {"boss", "fulltilt", "kingsclub", "merge", "ongame", "pokerstars", "winamax"}
    assert {r.site for r in results if r.status == "parse_error"} == sites
    assert counts["quarantine"] > 0 and counts["problems"] > 0
    assert {r.status for r in results} >= {"ok", "invalid", "unsupported", "incomplete"}
    assert any(r.hand is None and r.status != "parse_error" for r in results)  # unreplayed
    assert counts["pots"] > 0 and counts["shows"] > 0 and counts["player_hands"] > 0


def test_each_site_alone_as_the_reference_has_it() -> None:
    by_site: dict[str, list[HandResult]] = {}
    for r in corpus_results():
        by_site.setdefault(r.site, []).append(r)
    for results in by_site.values():
        assert_same(results)


@pytest.mark.parametrize(
    ("game", "players", "seed"),
    [(Game.TRIPLE_DRAW_27, 6, 1), (Game.SINGLE_DRAW_27, 2, 2), (Game.TRIPLE_DRAW_A5, 4, 3),
     (Game.BADUGI, 5, 4)],
)  # fmt: skip
def test_dealt_hands_as_the_reference_has_them(
    game: Game, players: int, seed: int, tmp_path: Path
) -> None:
    path = tmp_path / "dealt.txt"
    dealt = deal_hands(60, game, players, seed)
    path.write_text("".join(write_pokerstars(h).rstrip("\n") + "\n\n\n" for h in dealt))
    results = list(verify_paths([path]))
    assert len(results) == 60 and {r.status for r in results} == {"ok"}
    counts = assert_same(results)
    assert counts["draws"] > 60 and counts["player_hands"] == 60 * players


def test_hands_without_facts_and_with_a_failing_facts_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    results = corpus_results()[:40]
    _, columns, types = facts_fn()
    rows = Rows()
    for r in results:
        add_result(rows, r)  # no facts asked for
    assert rows.to_arrow(types).player_hands.num_rows == 0

    def broken(hand: Hand) -> list[Any]:
        raise ValueError("boom")

    rows = Rows()
    for r in results:
        add_result(rows, r, broken, columns)
    problems = rows.to_arrow(types).children["problems"].to_pylist()
    failed = [p for p in problems if p["code"] == "FACTS_FAILED"]
    assert len(failed) == sum(1 for r in results if r.hand is not None) > 0
    assert failed[0]["message"] == "facts: ValueError: boom"


def test_card_texts_short_and_long_and_not_cards() -> None:
    assert cards_text(None) is None
    assert cards_text(()) == ""
    assert cards_text((0,)) == format_cards((0,), sep="")
    assert cards_text((51, 0)) == format_cards((51, 0), sep="")
    assert cards_text((12, 25, 38, 51, 3)) == format_cards((12, 25, 38, 51, 3), sep="")
    assert cards_text((52,)) == format_cards((52,), sep="")  # a joker: the engine's text
    sets = [(a,) for a in range(54)] + [(a, b) for a in range(54) for b in range(54)]
    assert [cards_text(c) for c in sets] == [format_cards(c, sep="") for c in sets]
