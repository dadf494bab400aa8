"""Tournament summaries in, ``TournamentSummary`` records out: PokerStars, Full Tilt, Winamax.

A summary file is recognised from its head (``summary_site``), as a hand history is by
its site reader, and read line by line against ``grammars/summaries.lark``: each known
line sets its fields, a line no terminal reads is passed over (greetings, adverts, the
layouts of other years), and a known line whose amount does not read makes that summary
a ``ParseError`` at the line.  One file may hold several summaries (PokerStars e-mails
the last N tournaments): each header line starts the next.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Final

from engine.record import Game
from engine.tournament import PLAY_MONEY, Finish, Kind, TournamentSummary
from parser.encoding import ByteSource, open_stream
from parser.fulltilt import GAMES as FULL_TILT_GAMES
from parser.lines import FieldError, clean, money, site_grammar
from parser.outcome import ParseError
from parser.pokerstars import GAMES as POKERSTARS_GAMES
from parser.times import stated_time

HEADS: Final = {
    "PokerStars Tournament #": "pokerstars",
    "Full Tilt Poker Tournament Summary ": "fulltilt",
    "Winamax Poker - Tournament summary": "winamax",
}
_PS_PREAMBLE = "Tournament History for your last "
_PREFIX = {"pokerstars": "PS_", "fulltilt": "FT_", "winamax": "WX_"}
_SIGNS: Final = {"$": "USD", "€": "EUR", "£": "GBP"}
_AMOUNT = re.compile(
    r"(?P<pre>[$€£])?\s?(?P<num>\d[\d,]*(?:\.\d+)?)\s?(?P<post>[$€£]|[A-Z]{3}\b)?\s*(?P<rest>.*)"
)
_TOO_MUCH: Final = 10**15  # hundredths: no prize pool comes near; past it is damage
_PS_HAND = re.compile(r"PokerStars Tournament #\d+, .*")
_STRUCTURES = ("No Limit ", "Pot Limit ", "Fixed Limit ", "Limit ")
_LEADING_JUNK = re.compile(r"^[\x00-\x1f\ufeff\s]+")  # a BOM, a stray control byte
_RUN_TOGETHER = re.compile(r"(?<=\d)(?=Total (?:Prize Pool|Rebuys|Add-Ons):)")


def read_summary_stream(
    stream: ByteSource, file: str
) -> list[TournamentSummary | ParseError] | None:
    """Every summary of a file's bytes, or None when the file is no summary (a hand
    history, say): the importer asks this before handing a file to the hand readers."""
    decoded, lines = open_stream(stream)
    if decoded.binary:
        return None
    site = summary_site(decoded.head)
    if site is None:
        return None
    try:
        return list(read_summaries(lines, file, site))
    except (OSError, EOFError, ValueError) as exc:  # a stream that broke, or our bug:
        return [ParseError(f"summary not read: {type(exc).__name__}: {exc}", file=file, line=1)]


def summary_site(head: str) -> str | None:
    """The site whose summary a file's head is, or None: its first line that is not
    blank (after PokerStars' e-mail preamble) starts the way that site's summaries do."""
    for raw in head.splitlines()[:12]:
        line = _LEADING_JUNK.sub("", clean(raw)).strip()
        if not line or line.startswith(_PS_PREAMBLE):
            continue
        for start, site in HEADS.items():
            if line.startswith(start):
                if site == "pokerstars" and not _PS_HAND.fullmatch(line):
                    return None  # an old hand header: "PokerStars Tournament #1: Hold'em"
                return site
        return None
    return None


@dataclass(frozen=True, slots=True)
class Amount:
    """An amount as a summary writes it: hundredths, its currency, and the words after."""

    value: int
    currency: str
    rest: str


def amount(text: str, default_currency: str = "") -> Amount | None:
    """``"$30,511.94 (21.042%)"``, ``"0.46€"``, ``"100 FPP"``, ``"$13 MiniFTOPS Ticket"``;
    None for text without a number first (``"Sunday Million ticket"``)."""
    m = _AMOUNT.match(text.strip())
    if m is None:
        return None
    currency = _SIGNS.get(m["pre"] or "") or _SIGNS.get(m["post"] or "") or (m["post"] or "")
    try:
        value = money(m["num"])
    except FieldError:
        return None
    if value >= _TOO_MUCH:
        return None
    return Amount(value, currency or default_currency, m["rest"].strip())


def game_of(text: str) -> Game | None:
    """The game key of a summary's game text where it is a game DrawLab knows."""
    name = text.strip()
    for structure in _STRUCTURES:
        name = name.removeprefix(structure)
        name = name.removesuffix(" " + structure.strip())
    return POKERSTARS_GAMES.get(name) or FULL_TILT_GAMES.get(name)


def read_summaries(
    lines: Iterable[tuple[int, str]], file: str, site: str
) -> Iterator[TournamentSummary | ParseError]:
    """Every summary of a file's numbered lines, each read or a positioned error."""
    grammar = site_grammar("summaries.lark")
    prefix = _PREFIX[site]
    classify = grammar.classifier(k for k in grammar.kinds if k.startswith(prefix))
    head = f"{prefix}HEAD"
    draft: _Draft | None = None
    failed = False
    preamble = ""  # the player a PokerStars e-mail names before its summaries
    for no, raw in lines:
        for line in _RUN_TOGETHER.split(_LEADING_JUNK.sub("", clean(raw)).strip()):
            if not line:
                continue
            found = classify(line)
            if found is None:
                continue
            kind, m = found
            if kind == head:
                if draft is not None and not failed:
                    yield draft.done()
                draft, failed = _Draft(site, file, no, preamble), False
            elif draft is None and kind == "PS_REQUESTED":
                preamble = m["player"]
            if draft is None or failed:
                continue
            try:
                draft.read(kind.removeprefix(prefix), m, no)
            except FieldError as exc:
                failed = True
                yield ParseError(str(exc), file=file, line=no, line_text=line,
                                 expected="a count, or an amount like $1.50, 0.46€ or 100 FPP")
    if draft is not None and not failed:
        yield draft.done()
    elif draft is None:
        yield ParseError("no tournament summary header", file=file, line=1,
                         expected="a summary's first line, like 'PokerStars Tournament #1, ...'")


def _count(text: str | None) -> int:
    """A count or place as written; a number no tournament holds is a ``FieldError``
    (the database keeps them as 32-bit integers)."""
    if not text:
        return 0
    if len(text) > 9:
        raise FieldError(f"not a count: {text!r}")
    return int(text)


def _required(text: str, currency: str = "") -> Amount:
    """An amount that is the whole field: ``$1.2.3`` is an error, not ``$1.20``."""
    found = amount(text, currency)
    if found is None or found.rest.startswith((".", ",")) or found.rest[:1].isdigit():
        raise FieldError(f"not an amount: {text!r}")
    return found


class _Draft:
    """One summary being read: the record so far, its finishes, and a handler per line."""

    def __init__(self, site: str, file: str, line: int, player: str = "") -> None:
        self.summary = TournamentSummary(
            site=site, tournament_id="", file=file, line=line, player=player
        )
        self.finishes: list[Finish] = []
        self.played: timedelta | None = None
        self.handlers: dict[str, Callable[[re.Match[str]], None]] = {
            "HEAD": self.header,
            "REQUESTED": self.player,
            "DEAR": self.player,
            "PLAYER": self.player,
            "BUY_IN": self.buy_in,
            "PLAYERS": self.entrants,
            "ENTRIES": self.entrants,
            "REGISTERED": self.entrants,
            "POOL": self.pool,
            "TARGET": self.target,
            "SATELLITE": self.satellite,
            "STARTED": self.started,
            "FINISHED": self.finished,
            "RUNNING": self.running,
            "PLACE": self.place,
            "STILL": self.still,
            "YOU_FINISHED": self.you_finished,
            "YOU_FINISHED_AWARD": self.you_finished,
            "HERO": self.hero,
            "WON": self.won,
            "STILL_PLAYING": self.running,
            "REBUYS": self.paid_rebuys,
            "REENTRIES": self.reentries,
            "BOUNTIES": self.bounties,
            "KO_BOUNTY": self.ko_bounty,
            "KO_COUNT": self.ko_count,
            "REBUY": self.rebuy_cost,
            "ADDON": self.addon_cost,
            "PERFORMED": self.performed,
            "YOURS": self.performed,
            "TOTAL": self.totals,
            "SETTING": self.setting,
            "PLAYED": self.played_for,
        }
        self.line_no = line

    def read(self, kind: str, m: re.Match[str], no: int) -> None:
        self.line_no = no
        handler = self.handlers.get(kind)
        if handler is not None:
            handler(m)

    def set(self, **changes: object) -> None:
        self.summary = replace(self.summary, **changes)  # type: ignore[arg-type]

    # ---- the tournament
    def header(self, m: re.Match[str]) -> None:
        groups = m.groupdict()
        game = (groups.get("game") or "").strip()
        self.set(tournament_id=m["id"], name=(groups.get("name") or "").strip(),
                 game_text=game, game=game_of(game) if game else None)
        flags = groups.get("flags") or ""
        if "Shootout" in flags or "Shootout" in self.summary.name:
            self.kind(Kind.SHOOTOUT)
        if "Sit & Go" in self.summary.name or "Sit & Go" in flags:
            self.kind(Kind.SIT_AND_GO)
        if re.search(r"\b(?:Sat|Satellite)\b", self.summary.name):
            self.kind(Kind.SATELLITE)

    def kind(self, kind: Kind) -> None:
        self.set(kinds=self.summary.kinds | {kind})

    def buy_in(self, m: re.Match[str]) -> None:
        text = m["buy_in"].strip()
        fee_text = m.groupdict().get("fee")
        if text.startswith("Ticket") or text == "Freeroll":
            self.set(ticket_entry=text.startswith("Ticket"))
            return
        parts = [text, fee_text] if fee_text else re.split(r"\s*[/+]\s*", text)
        amounts = [_required(p) for p in parts]
        currency = next((a.currency for a in amounts if a.currency), "") or PLAY_MONEY
        values = [a.value for a in amounts]
        if len(values) == 1:
            self.set(buy_in=values[0], currency=currency)
        elif len(values) == 2:
            self.set(buy_in=values[0], fee=values[1], currency=currency)
        else:  # PokerStars' knockouts: prize pool, bounty, fee
            self.set(buy_in=values[0], bounty=values[1], fee=values[-1], currency=currency)

    def entrants(self, m: re.Match[str]) -> None:
        self.set(entrants=_count(m["count"]))

    def pool(self, m: re.Match[str]) -> None:
        found = amount(m["pool"], self.summary.currency)
        if found is not None:
            self.set(prize_pool=found.value, currency=self.summary.currency or found.currency)

    def target(self, m: re.Match[str]) -> None:
        self.set(target=m["target"])
        self.kind(Kind.SATELLITE)

    def satellite(self, _m: re.Match[str]) -> None:
        self.kind(Kind.SATELLITE)

    def started(self, m: re.Match[str]) -> None:
        self.set(started=stated_time(m["time"]))

    def finished(self, m: re.Match[str]) -> None:
        self.set(finished=stated_time(m["time"]), running=False)

    def running(self, _m: re.Match[str]) -> None:
        self.set(running=True)

    def setting(self, m: re.Match[str]) -> None:
        key, value = m["key"], m["value"].strip()
        if (key, value) in (("Type", "sitngo"), ("Mode", "sng")):
            self.kind(Kind.SIT_AND_GO)
        elif key == "Levels" and not self.summary.game_text:
            game = re.search(r":([a-z0-9]+-[a-z-]+)[,\]]", value)
            if game is not None:
                self.set(game_text=game.group(1))

    def played_for(self, m: re.Match[str]) -> None:
        self.played = timedelta(hours=_count(m["hours"]), minutes=_count(m["minutes"]),
                                seconds=_count(m["seconds"]))

    # ---- the places
    def place(self, m: re.Match[str]) -> None:
        groups = m.groupdict()
        rest = (groups.get("rest") or "").strip()
        still = rest.startswith("still playing")
        if still:
            self.set(running=True)
        prize, ticket = 0, ""
        if rest and not still:
            found = amount(rest, self.summary.currency)
            if found is None:
                ticket = rest
            else:
                prize = found.value
                ticket = "" if not found.rest or found.rest.startswith("(") else found.rest
        self.finishes.append(Finish(
            place=None if still else _count(m["place"]), player=m["player"], prize=prize,
            line=self.line_no, ticket=ticket, entry=_count(groups.get("entry")) or 1,
            country=groups.get("country") or ""))

    def still(self, m: re.Match[str]) -> None:
        self.finishes.append(Finish(None, m["player"], 0, self.line_no))
        self.set(running=True)

    # ---- the player the file is about
    def player(self, m: re.Match[str]) -> None:
        if not self.summary.player:
            self.set(player=m["player"].strip())

    def you_finished(self, m: re.Match[str]) -> None:
        self.set(place=_count(m["place"]))
        prize = m.groupdict().get("prize")
        if prize:
            self.set(prize=_required(prize).value)

    def hero(self, m: re.Match[str]) -> None:
        self.set(player=m["player"].strip(), place=_count(m["place"]))

    def won(self, m: re.Match[str]) -> None:
        found = amount(m["prize"], self.summary.currency)
        if found is None:
            self.set(ticket=m["prize"].strip())
        else:
            self.set(prize=found.value, ticket=found.rest.lstrip("+ ").strip())

    def paid_rebuys(self, m: re.Match[str]) -> None:
        self.set(rebuys=_count(m["rebuys"]), addons=_count(m["addons"]),
                 paid_extra=_required(m["total"]).value)

    def reentries(self, m: re.Match[str]) -> None:
        self.set(reentries=_count(m["count"]))

    def bounties(self, m: re.Match[str]) -> None:
        self.set(bounties_won=_required(m["amount"]).value, knockouts=_count(m["count"]))

    def ko_bounty(self, m: re.Match[str]) -> None:
        self.set(bounty=_required(m["bounty"]).value)

    def ko_count(self, m: re.Match[str]) -> None:
        for text in (m["first"], m["second"]):  # the count is whichever is a number
            if text.isdigit():
                self.set(knockouts=_count(text))

    def rebuy_cost(self, m: re.Match[str]) -> None:
        self.set(rebuy_cost=sum(_required(p).value for p in m["cost"].split("+")))

    def addon_cost(self, m: re.Match[str]) -> None:
        self.set(addon_cost=sum(_required(p).value for p in m["cost"].split("+")))

    def performed(self, m: re.Match[str]) -> None:
        if m.groupdict().get("player"):
            self.set(player=self.summary.player or m["player"].strip())
        if m["what"].lower().startswith("rebuy"):
            self.set(rebuys=_count(m["count"]))
        else:
            self.set(addons=_count(m["count"]))

    def totals(self, m: re.Match[str]) -> None:
        if m["what"].lower().startswith("rebuy"):
            self.set(total_rebuys=_count(m["count"]))
        else:
            self.set(total_addons=_count(m["count"]))

    def done(self) -> TournamentSummary:
        """The record: the player's own figures completed from their listed places."""
        s = self.summary
        finishes = tuple(self.finishes)
        changes: dict[str, object] = {"finishes": finishes}
        if s.started is not None and self.played is not None and s.finished is None:
            changes["finished"] = s.started + self.played
        if not s.player and s.place is not None:  # "You finished in 2nd place": the 2nd
            listed = [f.player for f in finishes if f.place == s.place]
            if len(listed) == 1:
                s = replace(s, player=listed[0])
        mine = [f for f in finishes if s.player and f.player == s.player]
        if mine:
            best = min(mine, key=lambda f: (f.place is None, f.place or 0))
            if s.place is None and best.place is not None:
                changes["place"] = best.place
            if not s.prize and not s.ticket:
                changes["prize"], changes["ticket"] = best.prize, best.ticket
            changes["reentries"] = max(s.reentries, max(f.entry for f in mine) - 1)
        if s.knockouts and not s.bounties_won:
            changes["bounties_won"] = s.knockouts * s.bounty
        if s.player and s.place is None and "place" not in changes and s.finished is None:
            changes["running"] = True
        if not s.kinds & {Kind.SIT_AND_GO, Kind.SHOOTOUT}:
            entrants = s.entrants or 0
            changes["kinds"] = s.kinds | {
                Kind.SIT_AND_GO if 0 < entrants <= 10 else Kind.MULTI_TABLE}
        return replace(s, **changes)  # type: ignore[arg-type]

