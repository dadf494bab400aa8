"""The player's own statistics: a TOML file each in the ``statistics`` folder beside the
database (``~/.drawlab/statistics/*.toml`` by default), as PokerTracker's custom statistics
and fpdb's ``stats.d`` allow.  A file declares a name, a definition and the value, a ratio
of counts of the facts the built-in statistics declare::

    name = "Pat aggression"
    definition = "How often a pat hand bets or check-raises when it can."
    value = "(pat_bet + check_raise) / (pat_bet_opp + check_raise_opp)"

Each name in ``value`` is the number of the player's hands where that fact held (``vpip``,
``rfi_opp``, ``went_to_showdown``...), or its total for a count (``calls_1``,
``drawn_1``), or ``hands``; whole numbers, ``+``, ``-``, ``*`` and brackets join them, and
one ``/`` at the top splits the numerator from the denominator (the sample).  The value is
read with Python's ``ast`` and turned into SQL from a closed list of nodes and names:
nothing the user writes is ever run.  A file that does not parse, names a fact that does
not exist or clashes with another statistic is refused with its file, line and reason;
the others load.
"""

from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from analysis.statistics.definitions import STATS, StatDef, use_own
from analysis.storage.db import resolve_path

FOLDER = "statistics"
GROUP = "your own"
_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")
_COUNT = re.compile(r"coalesce\(count_if\((\w+)\), 0\)")
_SUM = re.compile(r"sum\((\w+)\)")
_OPERATORS: dict[type[ast.operator], str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}


@dataclass(frozen=True, slots=True)
class Refusal:
    """A statistic file not loaded: where and why, in one sentence."""

    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}, line {self.line}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Loaded:
    stats: tuple[StatDef, ...]
    refusals: tuple[Refusal, ...]


class _Refused(Exception):
    def __init__(self, reason: str, line: int = 1) -> None:
        super().__init__(reason)
        self.reason, self.line = reason, line


@dataclass(frozen=True, slots=True)
class Fact:
    """A name a value may use: its SQL over ``player_hands`` and the cells' column that
    holds the same sum (a built-in statistic's numerator or denominator)."""

    rows: str
    cells: str


def facts() -> dict[str, Fact]:
    """Every fact a built-in statistic counts by itself, by name: a flag counted
    (``coalesce(count_if(x), 0)``) or a count summed (``sum(x)``), and ``hands``."""
    found: dict[str, Fact] = {"hands": Fact("count(*)", "hands")}
    for s in STATS:
        for sql, part in ((s.num_sql, "n"), (s.den_sql, "d")):
            match = _COUNT.fullmatch(sql) or _SUM.fullmatch(sql)
            if match and match.group(1) not in found:
                found[match.group(1)] = Fact(sql, f"{s.key}_{part}")
    return found


def folder_of(database: str) -> Path | None:
    """The folder of the player's statistics beside ``database`` (None in memory)."""
    if database == ":memory:":
        return None
    return Path(database).expanduser().parent / FOLDER


def load(folder: Path | None, taken: set[str] | None = None) -> Loaded:
    """Every ``*.toml`` of ``folder``, in name order: the statistics that load and the
    refusals of the others.  ``taken``: keys already used (the built-in ones by default)."""
    if folder is None or not folder.is_dir():
        return Loaded((), ())
    used = {s.key for s in STATS} if taken is None else set(taken)
    known = facts()
    stats: list[StatDef] = []
    refusals: list[Refusal] = []
    try:
        paths = sorted(folder.glob("*.toml"))
    except OSError as exc:  # a folder this user may not list
        return Loaded((), (Refusal(str(folder), 1, f"cannot be read: {exc}"),))
    for path in paths:
        try:
            stat = _read(path, known, used)
        except _Refused as refused:
            refusals.append(Refusal(str(path), refused.line, refused.reason))
            continue
        used.add(stat.key)
        stats.append(stat)
    return Loaded(tuple(stats), tuple(refusals))


def use_beside(database: str | None) -> tuple[Refusal, ...]:
    """Load the player's statistics beside ``database`` (``resolve_path``'s default when
    None) and show them from now on; the refusals, for the program to say."""
    loaded = load(folder_of(resolve_path(database)))
    use_own(loaded.stats)
    return loaded.refusals


def _read(path: Path, known: dict[str, Fact], used: set[str]) -> StatDef:
    try:
        text = path.read_text(encoding="utf-8-sig")  # a BOM, as Windows editors write
    except (OSError, UnicodeDecodeError) as exc:
        raise _Refused(f"cannot be read: {exc}") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where = re.search(r"line (\d+)", str(exc))
        raise _Refused(f"not TOML: {exc}", int(where.group(1)) if where else 1) from exc
    lines = text.splitlines()
    fields: dict[str, str] = {}
    for field in ("key", "name", "definition", "value", "group", "format"):
        value = data.get(field, "")
        if not isinstance(value, str):
            raise _Refused(f"{field} must be text in quotes", _line_of(lines, field))
        fields[field] = value.strip()
    for field in ("name", "definition", "value"):
        if not fields[field]:
            raise _Refused(
                f"no {field} (every statistic needs a name, a definition and a value)",
                _line_of(lines, field),
            )
    key = fields["key"] or path.stem.lower().replace("-", "_").replace(" ", "_")
    if not _KEY.fullmatch(key):
        raise _Refused(
            f"the key {key!r} must be lower-case letters, digits and _ "
            "(from the file's name unless key is given)",
            _line_of(lines, "key"),
        )
    if key in used:
        raise _Refused(f"the key {key!r} is another statistic's", _line_of(lines, "key"))
    if fields["format"] not in ("", "percent", "number"):
        raise _Refused('format must be "percent" or "number"', _line_of(lines, "format"))
    at = _line_of(lines, "value")
    numerator, denominator = _ratio(fields["value"], at)
    return StatDef(
        key,
        fields["name"],
        fields["group"] or GROUP,
        "",
        "",
        _sql(numerator, known, at, cells=False),
        _sql(denominator, known, at, cells=False),
        "ratio" if fields["format"] == "number" else "rate",
        written=fields["definition"],
        cell_num=_sql(numerator, known, at, cells=True),
        cell_den=_sql(denominator, known, at, cells=True),
    )


def _line_of(lines: list[str], field: str) -> int:
    """The line that sets ``field`` (1 when none does)."""
    pattern = re.compile(rf"\s*{field}\s*=")
    return next((i for i, line in enumerate(lines, 1) if pattern.match(line)), 1)


def _ratio(value: str, line: int) -> tuple[ast.expr, ast.expr]:
    try:
        tree = ast.parse(value, mode="eval").body
    except SyntaxError as exc:
        raise _Refused(f"the value does not parse: {exc.msg} (column {exc.offset})", line) from exc
    if not (isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Div)):
        raise _Refused("the value must be a ratio, numerator / denominator", line)
    return tree.left, tree.right


def _sql(node: ast.expr, known: dict[str, Fact], line: int, *, cells: bool) -> str:
    """``node`` as SQL over the rows (``cells=False``) or the cells: names become sums,
    operators stay; anything else is refused."""
    if isinstance(node, ast.Name):
        fact = known.get(node.id)
        if fact is None:
            raise _Refused(
                f"no fact named {node.id!r}; the facts are {', '.join(sorted(known))}", line
            )
        return f'coalesce(sum("{fact.cells}"), 0)' if cells else f"coalesce({fact.rows}, 0)"
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return str(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left = _sql(node.left, known, line, cells=cells)
        right = _sql(node.right, known, line, cells=cells)
        return f"({left} {_OPERATORS[type(node.op)]} {right})"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return f"(-{_sql(node.operand, known, line, cells=cells)})"
    division = isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
    what = "a division" if division else f"{type(node).__name__.lower()} ({ast.unparse(node)})"
    raise _Refused(
        f"{what} cannot be part of a count: only fact names, whole numbers, "
        "+, -, * and brackets, with one / at the top",
        line,
    )
