"""The ``drawlab`` command line: argument parsing and printing over the packages.

Each subcommand is a small function that reads its arguments, calls ``engine``,
``parser`` or ``analysis``, and prints.  Output formats here are contracts other tools
rely on; see README.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

Handler = Callable[[argparse.Namespace], int]


def _add_compare(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("compare", help="which of several five-card hands wins")
    p.add_argument("--game", choices=["27", "a5", "high"], default="27")
    p.add_argument("--stdin", action="store_true", help="read lines 'HAND | HAND | ...'")
    p.add_argument("hands", nargs="*")
    p.set_defaults(handler=_compare)


def _compare(args: argparse.Namespace) -> int:
    from engine.compare import compare_hands, compare_line, split_args
    from engine.ranking import Ranking

    ranking = Ranking(args.game)
    if args.stdin:
        if args.hands:
            print("error: give hands as arguments or with --stdin, not both")
            return 1
        status = 0
        for raw in sys.stdin.buffer:
            line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            try:
                answer = " ".join(map(str, compare_line(line, ranking)))
            except ValueError as e:
                answer, status = f"error: {e}", 1
            print(answer, flush=True)
        return status
    try:
        best = compare_hands(split_args(args.hands), ranking)
    except ValueError as e:
        print(f"error: {e}")
        return 1
    print(" ".join(map(str, best)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="drawlab", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    _add_compare(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
