"""Every corpus file of the Full Tilt, KingsClub, Winamax, OnGame, Merge and Boss readers.

Each file gets exactly the outcome MANIFEST.tsv implies (hands parsed, or the one clear
"incomplete" verdict), nothing raises, every step points at a line of the file that
names its player, and the chips balance: what the record says went in equals the pot the
site states, the collects plus the rake, and the nets the site states.  The only hand
that does not balance is the one the manifest lists as inconsistent, pinned here too.
Finally, hypothesis cuts, splices and corrupts these hands: only records, skips and
ParseErrors may come out; and a line no reader knows, in any text site's hand (PokerStars
included), is a warning at that line with the hand otherwise read the same.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.problems import UNKNOWN_LINE
from engine.record import Action, ActionKind, Hand, Note, Post, PostKind, Uncalled
from engine.verdict import Problem, Severity
from parser.encoding import open_stream
from parser.outcome import Outcome, ParseError, Skipped
from parser.reader import INTERNAL, read_path, read_text
from tests.corpus import CORPUS

SITES = {
    "FTP": "fulltilt",
    "KingsClub": "kingsclub",
    "Winamax": "winamax",
    "OnGame": "ongame",
    "Merge": "merge",
    "Boss(Opoker)": "boss",
    "Boss": "boss",
}


POKERSTARS = {"Stars": "pokerstars", "PokerStars": "pokerstars"}  # read in test_pokerstars.py


def manifest() -> list[dict[str, str]]:
    with (CORPUS / "MANIFEST.tsv").open(newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


ALL_ROWS = manifest()
ROWS = [r for r in ALL_ROWS if r["site"] in SITES]
# files holding games DrawLab does not replay beside its own: those hands are unsupported
UNSUPPORTED = {"cash/FTP/Mix/10Game-6max-USD-2.50-5.201104.Sample.txt": 54}


def outcomes(path: Path) -> list[Outcome]:
    return [o for _, o in read_path(path)]


def file_lines(path: Path) -> list[str]:
    with path.open("rb") as f:
        _, lines = open_stream(f)
        numbered = list(lines)
    out = [""] * (numbered[-1][0] if numbered else 0)
    for no, text in numbered:
        out[no - 1] = text
    return out


def test_the_manifest_lists_all_files_of_these_sites() -> None:
    assert Counter(SITES[r["site"]] for r in ROWS) == {
        "fulltilt": 18, "kingsclub": 9, "merge": 7, "ongame": 2, "winamax": 1, "boss": 2,
    }  # fmt: skip
    # the rest are PokerStars's, the six-handed session with two reshuffles among them
    assert Counter(r["site"] for r in ALL_ROWS if r not in ROWS) == {"Stars": 14, "PokerStars": 1}
    new = {r["path"]: (r["site"], r["hands"]) for r in ALL_ROWS[-3:]}
    assert new == {
        "cash/Stars/Draw/3-Draw-Limit-USD-0.10-0.20-200911.txt": ("PokerStars", "17"),
        "cash/FTP/Mix/10Game-6max-USD-2.50-5.201104.Sample.txt": ("FTP", "84"),
        "cash/Merge/Draw/3-Draw-Limit-USD-1-2-201104.Multi.hand.sample.txt": ("Merge", "15"),
    }


@pytest.mark.parametrize("row", ROWS, ids=[r["path"] for r in ROWS])
def test_each_file_gets_the_outcome_the_manifest_implies(row: dict[str, str]) -> None:
    results = outcomes(CORPUS / row["path"])
    site = SITES[row["site"]]
    assert not [o for o in results if isinstance(o, ParseError)]
    hands = [o for o in results if isinstance(o, Hand)]
    skipped = [o for o in results if isinstance(o, Skipped)]
    count = row["hands"]
    if count == "0 (summary)":
        assert hands == [] and len(skipped) == 1
        assert (skipped[0].kind, skipped[0].reason) == (
            "incomplete", "a tournament summary: it holds no hand",
        )  # fmt: skip
    elif count == "1 (0 parsed)":
        assert hands == [] and len(skipped) == 1
        assert skipped[0].kind == "incomplete" and skipped[0].hand_id
        assert skipped[0].reason in (
            "a dead hand: no cards were dealt",
            "a partial hand: Full Tilt wrote only its summary",
            "the hand was cancelled (GAME_CANCELLED)",
        )
    else:
        unsupported = UNSUPPORTED.get(row["path"], 0)
        assert len(skipped) == unsupported and len(hands) == int(count) - unsupported
        assert {s.kind for s in skipped} <= {"unsupported"}
        assert {h.site for h in hands} == {site}


def _hands() -> list[tuple[str, Hand]]:
    found = []
    for row in ROWS:
        for o in outcomes(CORPUS / row["path"]):
            if isinstance(o, Hand):
                found.append((row["path"], o))
    return found


HANDS = _hands()


def test_every_in_scope_hand_of_these_sites_is_read() -> None:
    assert len(HANDS) == 92  # 30 of them from the 10-game mix, 15 from one Merge file
    # Merge game 33423082-14 is in the corpus twice: alone, and inside its session's file
    assert len({(h.site, h.hand_id) for _, h in HANDS}) == 91


@pytest.mark.parametrize(("path", "hand"), HANDS, ids=[f"{h.site}-{h.hand_id}" for _, h in HANDS])
def test_every_step_points_at_a_line_naming_its_player(path: str, hand: Hand) -> None:
    lines = file_lines(CORPUS / path)
    seat_of = {s.player: s.seat for s in hand.seats}
    for seat in hand.seats:
        assert seat.player in lines[seat.line - 1]
    previous = hand.line
    for step in hand.steps:
        assert step.line >= hand.line
        text = lines[step.line - 1]
        player = getattr(step, "player", None)
        if player is None:
            continue
        if hand.site == "merge" and not isinstance(step, Note):
            assert f'player="{seat_of[player]}"' in text  # Merge names players by seat
        else:
            assert player in text
        previous = max(previous, step.line)


def settle(hand: Hand) -> tuple[dict[str, int], int]:
    """Chips each player left in the pot, and the bet nobody called that the site returned
    without saying so (KingsClub, OnGame, Boss do that): bookkeeping only."""
    put: dict[str, int] = {}
    street_live: dict[int, dict[str, int]] = {}
    for s in hand.steps:
        if isinstance(s, Post):
            put[s.player] = put.get(s.player, 0) + s.amount
            if s.kind is not PostKind.ANTE:
                live = street_live.setdefault(0, {})
                live[s.player] = live.get(s.player, 0) + s.amount - s.dead
        elif isinstance(s, Action):
            put[s.player] = put.get(s.player, 0) + s.amount
            live = street_live.setdefault(s.street, {})
            live[s.player] = live.get(s.player, 0) + s.amount
        elif isinstance(s, Uncalled):
            put[s.player] -= s.amount
            last = max(street_live)
            street_live[last][s.player] -= s.amount
    last = max((k for k, v in street_live.items() if any(v.values())), default=0)
    ranked = sorted(street_live.get(last, {}).items(), key=lambda kv: -kv[1])
    silent = ranked[0][1] - ranked[1][1] if len(ranked) > 1 else 0
    if silent:
        put[ranked[0][0]] -= silent
    return put, silent


INCONSISTENT = {("kingsclub", "3516416")}  # "wins pot (1,350)" against the nets


@pytest.mark.parametrize(("path", "hand"), HANDS, ids=[f"{h.site}-{h.hand_id}" for _, h in HANDS])
def test_the_chips_balance_as_the_site_states_them(path: str, hand: Hand) -> None:
    put, silent = settle(hand)
    pot = sum(put.values())
    won: dict[str, int] = {}
    for c in hand.collects:
        won[c.player] = won.get(c.player, 0) + c.amount
    checks = {
        "total pot": hand.total_pot is None or hand.total_pot == pot,
        "collects and rake": hand.rake is None or sum(won.values()) + hand.rake == pot,
        # Merge folds a bet nobody called into the winner's amount; the others leave it out
        "collects": sum(won.values()) <= pot + (silent if hand.site == "merge" else 0),
        "nets": all(won.get(p, 0) - put.get(p, 0) == net for p, net in hand.net),
    }
    if (hand.site, hand.hand_id) in INCONSISTENT:
        assert (pot, silent, sum(won.values())) == (122500, 25000, 135000)
        assert not checks["collects"] and not checks["nets"]
    else:
        assert all(checks.values()), checks


def test_silent_returns_are_where_the_sites_make_them() -> None:
    returned = {(h.site, h.hand_id): settle(h)[1] for _, h in HANDS if settle(h)[1]}
    assert Counter(site for site, _ in returned) == {
        "boss": 12, "ongame": 3, "kingsclub": 2,
        "merge": 15,  # 14 games of the heads-up session end on a bet nobody called
    }  # fmt: skip


# --- fuzzing: cut, splice and corrupt real hands --------------------------------------


def _decoded(path: Path) -> str:
    with path.open("rb") as f:
        _, lines = open_stream(f)
        return "\n".join(text for _, text in lines)


TEXTS = sorted({_decoded(CORPUS / r["path"]) for r in ROWS})


def _mutate(text: str, how: int, at: int, other: int, junk: str) -> str:
    lines = text.split("\n")
    i, j = at % max(len(lines), 1), other % max(len(lines), 1)
    if how == 0:
        return "\n".join(lines[:i])  # cut
    if how == 1:
        return "\n".join(lines[:i] + lines[i + 1 :])  # drop a line
    if how == 2:
        return "\n".join([*lines[:i], lines[j], *lines[i:]])  # splice a line in
    if how == 3:
        lines[i], lines[j] = lines[j], lines[i]  # swap
        return "\n".join(lines)
    if how == 4:
        k = j % max(len(lines[i]), 1)
        lines[i] = lines[i][:k] + junk + lines[i][k + 1 :]  # corrupt characters
        return "\n".join(lines)
    return "\n".join(lines[:i]) + "\n" + junk + "\n" + "\n".join(lines[i:])  # junk line


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(TEXTS),
    st.lists(
        st.tuples(
            st.integers(0, 5),
            st.integers(0, 10_000),
            st.integers(0, 10_000),
            st.text(alphabet='$,.:[]()#*<>"=/ 0123456789XAKQJTshdcabz\n-', max_size=8),
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_mutated_hands_give_only_records_skips_or_parse_errors(
    text: str, mutations: list[tuple[int, int, int, str]]
) -> None:
    for how, at, other, junk in mutations:
        text = _mutate(text, how, at, other, junk)
    for _, out in read_text(text, "fuzz.txt"):
        assert isinstance(out, Hand | Skipped | ParseError)
        if isinstance(out, ParseError):
            assert not out.message.startswith(INTERNAL), str(out)


TEXT_SITES = {k: v for k, v in SITES.items() if v not in ("merge", "boss")} | POKERSTARS
FOLDS = re.compile(r"^([^<\n]+) folds$", re.M)
FOLDING = sorted(
    (TEXT_SITES[r["site"]], r["path"])
    for r in ALL_ROWS
    if r["site"] in TEXT_SITES and FOLDS.search(_decoded(CORPUS / r["path"]))
)


def test_every_text_site_has_hands_with_a_fold_to_break() -> None:
    assert Counter(site for site, _ in FOLDING) == {
        "fulltilt": 13, "kingsclub": 7, "winamax": 1, "ongame": 2, "pokerstars": 12,
    }  # fmt: skip


@pytest.mark.parametrize(("site", "path"), FOLDING, ids=[f"{s}:{p}" for s, p in FOLDING])
def test_an_unknown_line_in_any_text_hand_is_a_warning_at_that_line(site: str, path: str) -> None:
    text = _decoded(CORPUS / path)
    plain = [o for _, o in read_text(text, "u.txt")]
    # the first fold of a hand read (a mixed-game file's first fold may be in Hold'em)
    line = next(
        a.line for h in plain if isinstance(h, Hand) for a in h.actions if a.kind is ActionKind.FOLD
    )
    lines = text.split("\n")
    assert lines[line - 1].endswith(" folds")
    lines[line - 1] = lines[line - 1].removesuffix(" folds") + " fumbles"
    read = [o for _, o in read_text("\n".join(lines), "u.txt")]
    assert len(read) == len(plain)
    warning = Problem(
        UNKNOWN_LINE, Severity.WARNING, line, f"a line this reader does not know: {lines[line - 1]}"
    )
    touched = 0
    for out, before in zip(read, plain, strict=True):
        if isinstance(before, Hand) and any(s.line == line for s in before.steps):
            touched += 1
            assert isinstance(out, Hand), out
            assert (out.site, out.warnings) == (site, (*before.warnings, warning))
            assert out.steps == tuple(s for s in before.steps if s.line != line)
            assert out.seats == before.seats
        else:
            assert out == before
    assert touched == 1
