"""The table as a picture: an oval with the seats in their places, as a tracker draws it.

Built as HTML from escaped text: every name, position and amount goes through
``html.escape`` before it is put in the markup, and everything else (places, colours,
card tiles) comes from numbers and fixed tables (``ui.cards``), so a player called
``<img src=x onerror=...>`` or ``**bold**`` is shown as those characters, never as markup.
The seats sit where the table's seat numbers put them, turned so that the hero sits at the
bottom; each shows the name, position, stack, cards (backs when unknown) and cards drawn,
with the bet in front of it on the felt, the button beside the button's seat and the pot
in the middle.  Winners of a pot are outlined in gold.
"""

from __future__ import annotations

import math
from html import escape

from analysis.replayer.steps import Header, SeatStep, Units, ViewStep
from ui import cards

_WRAP = (
    "position:relative;width:100%;max-width:920px;height:460px;margin:0.5em auto;"
    "font-family:sans-serif;font-size:13px;color:#1b1b1b;"
)
_FELT = (
    "position:absolute;left:13%;top:19%;width:74%;height:62%;border-radius:50%;"
    "background:radial-gradient(ellipse at center,#2e8b57 0%,#1d6b40 70%,#145232 100%);"
    "border:12px solid #6b4226;box-shadow:0 0 0 3px #3e2614 inset;"
)
_POT = (
    "position:absolute;left:50%;top:50%;transform:translate(-50%,-50%);text-align:center;"
    "color:#ffffff;font-weight:700;font-size:15px;text-shadow:0 1px 2px #000;"
)
_SEAT = (
    "position:absolute;transform:translate(-50%,-50%);width:158px;padding:4px 6px;"
    "background:#fbfbf8;border-radius:8px;text-align:center;line-height:1.35;"
    "box-shadow:0 1px 4px rgba(0,0,0,0.35);"
)
_BET = (
    "position:absolute;transform:translate(-50%,-50%);padding:1px 7px;border-radius:10px;"
    "background:#f5d142;border:1px solid #8a6d00;font-weight:700;font-size:12px;"
)
_BUTTON = (
    "position:absolute;transform:translate(-50%,-50%);width:22px;height:22px;"
    "border-radius:50%;background:#ffffff;border:2px solid #333;font-weight:700;"
    "font-size:12px;line-height:22px;text-align:center;"
)




def places(seat_numbers: list[int], max_seats: int | None, bottom: int | None) -> dict[int, float]:
    """Each seat's angle on the oval (radians, 0 to the right, pi/2 at the bottom).

    Seats are spread by their numbers over the table's size (so an empty seat leaves a
    gap where it is), clockwise, with seat ``bottom`` (the hero's) at the bottom."""
    size = max([max_seats or 0, *seat_numbers, 2])
    first = bottom if bottom in seat_numbers else min(seat_numbers, default=1)
    return {
        n: math.pi / 2 + 2 * math.pi * ((n - first) % size) / size for n in seat_numbers
    }


def _at(angle: float, rx: float, ry: float) -> str:
    return f"left:{50 + rx * math.cos(angle):.1f}%;top:{50 + ry * math.sin(angle):.1f}%;"


def _seat_html(
    seat: SeatStep, units: Units, hero: str | None, angle: float, wild: tuple[int, ...] = (),
    size: int = 5,
) -> str:
    border = "2px solid #b0b0b0"
    if seat.to_act:
        border = "3px solid #1f5fbf"
    if seat.winner:
        border = "3px solid #d4a017"
    faded = "opacity:0.55;" if seat.folded else ""
    name = escape(seat.player, quote=True)  # a long name ends in an ellipsis on screen
    lines = [f'<div class="dl-seat-name" title="{name}" style="font-weight:700;'
             f'white-space:nowrap;overflow:hidden;text-overflow:ellipsis">{name}</div>']
    where = " · ".join(x for x in (escape(seat.position), f"seat {seat.seat}") if x)
    if seat.player == hero:
        where += " · hero"
    lines.append(f'<div style="color:#555">{where}</div>')
    flags = [f for f, on in (("all-in", seat.all_in), ("folded", seat.folded)) if on]
    stack = f"{escape(units.text(seat.stack))}"
    lines.append(f'<div class="dl-seat-stack">stack {stack}'
                 + (f" · {', '.join(flags)}" if flags else "") + "</div>")
    known = seat.cards or ()
    if not known and seat.up is not None:  # shotgun: the face-up card, seen by all
        known = (seat.up,)
    hidden = 0 if seat.folded else max(0, size - len(known))
    tiles = cards.cards_html(known, hidden, wild)
    lines.append(f'<div style="font-size:0.78em">{tiles}</div>')
    if seat.drawn:
        drew = ", ".join("pat" if n == 0 else str(n) for n in seat.drawn)
        lines.append(f'<div class="dl-seat-drawn" style="color:#555">drew {drew}</div>')
    if seat.winner and seat.collected:
        lines.append(f'<div style="color:#8a6d00;font-weight:700">wins '
                     f"{escape(units.text(seat.collected))}</div>")
    return (
        f'<div class="dl-seat" data-seat="{seat.seat}" style="{_SEAT}{_at(angle, 43, 41)}'
        f'border:{border};{faded}">' + "".join(lines) + "</div>"
    )


def table_html(step: ViewStep, header: Header, units: Units, hero: str | None) -> str:
    """The picture of the table at ``step`` (HTML; see the module docstring for why it is
    safe to render)."""
    hero_seat = next((s.seat for s in step.seats if s.player == hero), None)
    angles = places([s.seat for s in step.seats], header.max_seats, hero_seat)
    parts = [f'<div class="dl-table" style="{_WRAP}">', f'<div style="{_FELT}"></div>']
    pot = f"Pot {escape(units.text(step.pot))}"
    if step.rake:
        pot += (f'<br><span class="dl-rake" style="font-size:12px;font-weight:400">'
                f"rake {escape(units.text(step.rake))}</span>")
    side = ""
    if len(step.pots) > 1:
        side = "<br>" + " · ".join(
            f"{escape(p.name)} {escape(units.text(p.amount))}" for p in step.pots
        )
    parts.append(f'<div class="dl-pot" style="{_POT}">{pot}'
                 f'<span style="font-size:12px;font-weight:400">{side}</span></div>')
    for seat in step.seats:
        angle = angles[seat.seat]
        parts.append(_seat_html(seat, units, hero, angle, header.wild_cards, header.hand_size))
        if seat.bet:
            parts.append(f'<div class="dl-bet" style="{_BET}{_at(angle, 22, 19)}">'
                         f"{escape(units.text(seat.bet))}</div>")
        if header.button is not None and seat.seat == header.button:
            parts.append(f'<div class="dl-button" title="button" style="{_BUTTON}'
                         f'{_at(angle + 0.32, 30, 27)}">D</div>')
    parts.append("</div>")
    return "".join(parts)


def header_html(header: Header) -> str:
    """The hand's facts as one escaped line of labelled chips."""
    facts = [
        ("Game", header.game), ("Limit", header.structure), ("Stakes", header.stakes),
        ("Table", header.table),
        ("Seats", f"{header.max_seats}-max" if header.max_seats else ""),
        ("Players", str(header.players)),
        ("Button", "" if header.button is None else f"seat {header.button}"),
        ("Tournament", f"#{header.tournament}" if header.tournament else ""),
        ("Level", header.level), ("Time", header.time), ("Site", header.site),
        ("House rules", header.house), ("Carried in", header.carried),
    ]
    chip = ("display:inline-block;margin:0 0.6em 0.3em 0;padding:0.1em 0.5em;"
            "border:1px solid #c8c8c8;border-radius:0.6em;font-size:0.9em;")
    cells = "".join(
        f'<span class="dl-fact" style="{chip}"><span style="color:#666">{escape(k)}</span> '
        f'<span style="font-weight:700">{escape(v)}</span></span>'
        for k, v in facts if v
    )
    return f'<div class="dl-hand-header" style="font-family:sans-serif">{cells}</div>'
