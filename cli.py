"""The ``drawlab`` command line: argument parsing and printing over the packages.

Each subcommand is a small function that reads its arguments, calls ``engine``,
``parser`` or ``analysis``, and prints.  Output formats here are contracts other tools
rely on; see README.  ``DESCRIPTION`` is what ``drawlab --help`` tells a user.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from analysis.storage.db import Connection
    from analysis.storage.deletion import Selection
    from analysis.storage.filters import Filters
    from analysis.storage.memory import HandMemory
    from analysis.tournaments import TournamentFilters
    from engine.record import HouseRules

# the filters of hands or of tournaments, both with days of a zone
Zoned = TypeVar("Zoned", "Filters", "TournamentFilters")

Handler = Callable[[argparse.Namespace], int]

DESCRIPTION = """\
DrawLab: hand-history analysis and training for draw poker (2-7 Triple Draw first).

Import your hand histories into a database, check that every hand could really have
happened, look at your results and statistics in the dashboard (drawlab app), and drill
showdowns, draws and pots. Run `drawlab COMMAND --help` for a command's options."""

EPILOG = """\
The database is ~/.drawlab/drawlab.duckdb unless --db or $DRAWLAB_DB names another file.
Start with:  drawlab import PATH...   then   drawlab app"""

DB_HELP = "database file (default: $DRAWLAB_DB or ~/.drawlab/drawlab.duckdb)"


def _add_compare(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("compare", help="which of several hands wins (five cards, Badugi four)",
                       description="Print the 0-based indices of the winning hand(s).")
    p.add_argument("--game", choices=["27", "a5", "high", "badugi", "high-low"], default="27",
                   help="ranking: 27 (deuce-to-seven low), a5 (ace-to-five low), high, "
                        "badugi, high-low (California: the best high and the best A-5 low "
                        "each take half; prints 'high: i j; low: k') (default: 27)")
    p.add_argument("--wild", choices=["joker", "two-jokers", "deuces", "one-eyed-jacks"],
                   help="wild cards (high, a5, high-low): one or two jokers (written Jk), "
                        "the four deuces, or the jacks of spades and hearts")
    p.add_argument("--stdin", action="store_true",
                   help="read lines 'HAND | HAND | ...' and answer each with one line")
    p.add_argument("hands", nargs="*", metavar="HAND",
                   help="five cards (Badugi four), e.g. 7s5d4h3c2s or '7s 5d 4h 3c 2s'")
    p.set_defaults(handler=_compare)


def _compare(args: argparse.Namespace) -> int:
    from engine.compare import Contest, split_args
    from engine.wild import Wild

    try:
        contest = Contest(args.game, None if args.wild is None else Wild(args.wild))
    except ValueError as e:
        print(f"error: {e}")
        return 1
    if args.stdin:
        if args.hands:
            print("error: give hands as arguments or with --stdin, not both")
            return 1
        status = 0
        for raw in sys.stdin.buffer:
            line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            try:
                answer = contest.answer_line(line)
            except ValueError as e:
                answer, status = f"error: {e}", 1
            print(answer, flush=True)
        return status
    try:
        answer = contest.answer(split_args(args.hands, contest.size))
    except ValueError as e:
        print(f"error: {e}")
        return 1
    print(answer)
    return 0


def _add_equity(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("equity", help="each hand's share of the pot over the draws to come")
    p.add_argument(
        "--game", default="27",
        help="27, a5, badugi, high (five-card draw) or high-low (California: half the pot "
             "to the best high, half to the best A-5 low), or a game such as 27_single_draw",
    )
    p.add_argument("--wild", choices=["joker", "two-jokers", "deuces", "one-eyed-jacks"],
                   help="wild cards (high, a5, high-low); a joker is written Jk")
    p.add_argument("--draws", type=int, help="draws left (0-3); default 3, single draw 1")
    p.add_argument("--trials", type=int, default=100_000,
                   help="deals simulated (default: 100,000); more is slower and more exact")
    p.add_argument("--seed", type=int, default=None,
                   help="the same seed gives the same figures (default: a random one)")
    p.add_argument("--dead", default="", help="known dead cards, e.g. 'Kd 9c'")
    p.add_argument("--sample", action="store_true",
                   help="simulate even a spot small enough to count every deal exactly")
    p.add_argument("hands", nargs="*", metavar="HAND",
                   help="five cards (Badugi four) stand pat; fewer are the cards kept")
    p.set_defaults(handler=_equity)


def _equity(args: argparse.Namespace) -> int:
    from engine.cards import parse_cards
    from engine.sim.equity import EXACT_DEALS, equity, game_setup, players_from_text
    from engine.sim.scoring import scoring_of
    from engine.wild import Wild

    try:
        wild = None if args.wild is None else Wild(args.wild)
        ranking, draws = game_setup(args.game, args.draws, wild)
        players = players_from_text(args.hands, scoring_of(ranking).size)
        dead = parse_cards(args.dead)
        result = equity(players, ranking, draws, dead=dead, trials=args.trials, seed=args.seed,
                        exact_limit=0 if args.sample else EXACT_DEALS)
    except ValueError as e:
        print(f"error: {e}")
        return 1
    for text, share, error in zip(args.hands, result.equity, result.stderr, strict=True):
        print(f"{text} {share:.4f} {error:.4f}")
    print(f"exact: every deal counted ({result.trials:,})" if result.exact
          else f"sampled: {result.trials:,} deals")
    return 0


def _add_stats(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("stats", help="statistics for the hero, a player, or all players")
    p.add_argument("--db", metavar="FILE", help=DB_HELP)
    p.add_argument("--player", help="whose statistics (default: the hero)")
    p.add_argument("--all-players", action="store_true", help="one line per player")
    p.add_argument(
        "--min-hands",
        type=int,
        default=0,
        help="with --all-players: only players with at least this many hands",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    _add_filters(p)
    _add_zone(p)
    p.set_defaults(handler=_stats)


def _add_zone(p: argparse.ArgumentParser) -> None:
    """``--zone``: whose days ``--from`` and ``--to`` are (``analysis.times.day_zone``)."""
    p.add_argument("--zone", metavar="NAME",
                   help="the time zone whose days --from and --to are, an IANA name "
                        "(America/New_York, UTC); default: the dashboard's display zone "
                        "(\"Times shown in\"), this computer's until one is picked")


def _zoned(con: Connection, filters: Zoned, named: str | None) -> Zoned | None:
    """``filters`` with the zone whose days ``--from`` and ``--to`` are (``--zone``, else
    the display zone); None, the error printed, for an unknown ``--zone``."""
    from dataclasses import replace

    from analysis.times import day_zone

    try:
        return replace(filters, zone=day_zone(con, named))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return None


def _add_filters(p: argparse.ArgumentParser) -> None:
    """The options of ``analysis.storage.filters.Filters``, the same for every command that picks
    hands (``--since`` and ``--until`` are the older names of ``--from`` and ``--to``)."""
    p.add_argument("--site", help="only this site's hands, e.g. pokerstars")
    p.add_argument("--game", help="e.g. 27_triple_draw")
    p.add_argument("--stakes", help="small/big bet as written, e.g. 0.10/0.20")
    p.add_argument("--currency", help="only hands played in this currency, e.g. USD")
    p.add_argument("--from", "--since", dest="date_from", metavar="YYYY-MM-DD",
                   help="hands on or after this day")
    p.add_argument("--to", "--until", dest="date_to", metavar="YYYY-MM-DD",
                   help="hands on or before this day")
    p.add_argument("--position", help="BTN, SB, BB, UTG, MP, CO ...")
    p.add_argument("--players-min", type=int, help="at least this many players dealt in")
    p.add_argument("--players-max", type=int, help="at most this many players dealt in")
    p.add_argument("--kind", choices=["cash", "tournament"], help="cash games or tournaments")
    p.add_argument(
        "--valid-only", action="store_true", help="only hands the replay found without error"
    )
    p.add_argument("--tag", help="only hands you tagged so (drawlab tag add)")
    p.add_argument("--filters", dest="saved_filters", metavar="NAME",
                   help="a filter set saved under this name (drawlab filters save); the "
                        "options given beside it are added to it")


def _filters(args: argparse.Namespace, seated: str | None = None) -> Filters | None:
    """The ``Filters`` of ``_add_filters``' options (``seated``: only hands that player sat
    in), or None after saying which day did not read."""
    from datetime import date

    from analysis.storage.filters import Filters
    from analysis.storage.memory import MemoryInputError, tag_text

    try:
        given = Filters(
            site=args.site,
            game=args.game,
            stakes=args.stakes,
            currency=args.currency,
            date_from=date.fromisoformat(args.date_from) if args.date_from else None,
            date_to=date.fromisoformat(args.date_to) if args.date_to else None,
            position=args.position,
            players_min=args.players_min,
            players_max=args.players_max,
            tournament=None if args.kind is None else args.kind == "tournament",
            valid_only=args.valid_only,
            player=seated,
            tag=None if args.tag is None else tag_text(args.tag),
        )
        return given if args.saved_filters is None else _saved_filters(args, given)
    except (ValueError, MemoryInputError) as e:
        print(f"error: {e}", file=sys.stderr)
        return None


def _saved_filters(args: argparse.Namespace, given: Filters) -> Filters:
    """The filter set saved as ``--filters NAME``, with the options given beside it; read
    without writing, so it runs beside the dashboard."""
    from analysis.statistics.report import StatsError, open_database
    from analysis.storage.memory import MemoryInputError, overlay, saved_filters

    try:
        con = open_database(args.db)
    except StatsError as e:
        raise MemoryInputError(str(e)) from e
    try:
        return overlay(saved_filters(con, args.saved_filters), given)
    finally:
        con.close()


def _stats(args: argparse.Namespace) -> int:
    import json

    from analysis.statistics.own import use_beside
    from analysis.statistics.report import StatsError, stats_json, stats_text

    filters = _filters(args)
    if filters is None:
        return 2
    for refusal in use_beside(args.db):  # the player's own statistics, beside the database
        print(f"statistic not loaded: {refusal}", file=sys.stderr)
    try:
        if args.json:
            data = stats_json(args.db, args.player, filters, args.all_players, args.min_hands,
                              zone=args.zone)
            print(json.dumps(data, indent=1, default=str))
        else:
            print(stats_text(args.db, args.player, filters, args.all_players, args.min_hands,
                             zone=args.zone))
    except StatsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def _said(text: str) -> None:
    """Why a command is busy before it starts (an older database's refill), on stderr."""
    print(text, file=sys.stderr, flush=True)


def _open_db(path: str | None) -> Connection | None:
    """The database to write, or None after saying why it cannot be opened.  Another
    program's short hold on the file (the watcher, the dashboard) is waited for."""
    from analysis.faults import FAULTS, OPENING
    from analysis.pipeline.importer import open_database
    from analysis.storage.db import LOCK_WAIT

    try:
        return open_database(path, wait=LOCK_WAIT, told=_said)
    except FAULTS as e:
        _fault(e, OPENING, path)
        return None


def _on_database(path: str | None, act: Callable[[Connection], int]) -> int:
    """``act``'s status on the database opened for writing (``_open_db``), closed however
    ``act`` ends; ``FAULT_STATUS`` after one sentence when it cannot be opened."""
    from analysis.faults import FAULT_STATUS

    db = _open_db(path)
    if db is None:
        return FAULT_STATUS
    try:
        return act(db)
    finally:
        db.close()


def _show(as_json: bool, summary: dict[str, Any], text: str | None) -> None:
    """A command's result: one line ``{"summary": {...}}`` with ``--json``, else ``text``
    (``None``: nothing, as with ``--quiet``)."""
    import json

    if as_json:
        print(json.dumps({"summary": summary}))
    elif text is not None:
        print(text)


def _add_import(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("import", help="import hand histories (files, folders, .zip)")
    p.add_argument("--db", metavar="FILE", help=DB_HELP)
    p.add_argument("--json", action="store_true", help='end with one line {"summary": {...}}')
    p.add_argument("--quiet", action="store_true", help="no progress, no table; problems only")
    p.add_argument("--workers", type=int, help="worker processes (default: one per core)")
    p.add_argument(
        "--batch",
        type=int,
        metavar="HANDS",
        help="hands per transaction, the file let go between two (default 10000; "
        "sooner, within 2 s, when another program waits for the file)",
    )
    p.add_argument(
        "--watch",
        action="store_true",
        help="keep running: import new and grown files as they change (Ctrl-C stops)",
    )
    p.add_argument(
        "--poll",
        type=float,
        metavar="SECONDS",
        help="with --watch: seconds between scans of the files (default 1, 5 with events)",
    )
    p.add_argument(
        "--tail-wait",
        type=float,
        metavar="SECONDS",
        help="with --watch: how long a file may end inside a hand (the client still "
        "writing it) before that hand is stored as it stands (default 30)",
    )
    p.add_argument(
        "--no-events",
        action="store_true",
        help="with --watch: scan only, no file system events (network shares)",
    )
    p.add_argument(
        "--parquet",
        metavar="DIR",
        help="load a Parquet dataset (from `drawlab bulk` or `export --format parquet`)",
    )
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="hand-history files, folders (read recursively) or .zip archives")
    p.set_defaults(handler=_import)


def _watch(args: argparse.Namespace) -> int:
    """``import --watch``: a line per batch until Ctrl-C or SIGTERM, which let the batch
    being written commit before the command ends."""
    import json
    import signal
    from pathlib import Path

    from analysis.pipeline.watch import Batch, Watcher

    def show(batch: Batch) -> None:
        if args.json:
            body = batch.summary.as_dict() if batch.summary is not None else {}
            held = batch.summary.held if batch.summary is not None else []
            print(json.dumps({"batch": {"files": list(batch.files), **body, "held": held,
                                        "error": batch.error}}), flush=True)
        elif not args.quiet or batch.summary is None or batch.summary.problems:
            print(batch.line(), flush=True)

    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        print(f"error: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    watcher = Watcher(args.db, [Path(p) for p in args.paths], on_batch=show,
                      poll=args.poll, events=not args.no_events)
    if args.tail_wait is not None:
        watcher.tail_wait = args.tail_wait
    previous = {sig: signal.signal(sig, lambda *_: watcher.stop())
                for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        if not args.quiet and not args.json:
            print(f"watching {len(args.paths)} path(s); Ctrl-C stops", flush=True)
        watcher.run()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if not args.quiet and not args.json:
        print("stopped", flush=True)
    return 0


def _import(args: argparse.Namespace) -> int:
    from analysis.faults import FAULTS
    from analysis.pipeline import import_report
    from analysis.pipeline.importer import FLUSH_HANDS, Progress, import_files

    if args.parquet is not None:
        return _import_parquet(args)
    if not args.paths:
        print("error: name the files or folders to import (or --parquet DIR)", file=sys.stderr)
        return 2
    if args.watch:
        return _watch(args)
    live = not args.quiet and not args.json and sys.stderr.isatty()

    def show(p: Progress) -> None:
        print("\r" + import_report.progress_line(p), end="", file=sys.stderr, flush=True)

    try:  # the file is released between transactions: other programs read meanwhile
        summary = import_files(
            args.db, args.paths, progress=show if live else None, workers=args.workers,
            batch_hands=args.batch or FLUSH_HANDS,
        )
    except FAULTS as e:
        if live:
            print(file=sys.stderr)
        return _fault(e, "import", args.db)
    if live:
        print(file=sys.stderr)
    log = import_report.problems_log(summary)
    if log:
        print(log, file=sys.stderr if args.json else sys.stdout)
    if args.json:
        print(import_report.summary_json(summary))
    elif not args.quiet:
        print(import_report.summary_table(summary))
    return 1 if summary.rejected and summary.read_nothing else 0


def _import_parquet(args: argparse.Namespace) -> int:
    """``import --parquet DIR``: a dataset's hands added as an import of its files adds them."""
    from analysis.storage.dataset import DatasetError, load
    from analysis.storage.player_facts import rebuild_player_hands

    if args.paths or args.watch:
        print("error: --parquet loads a dataset alone (no PATH, no --watch)", file=sys.stderr)
        return 2

    def act(db: Connection) -> int:
        try:
            summary = load(db, args.parquet)
            if summary.facts_stale:  # another DrawLab's statistics columns: recomputed here
                rebuild_player_hands(db)
        except DatasetError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        _show(args.json, summary.as_dict(), None if args.quiet else (
            f"{summary.added:,} hands added, {summary.already_present:,} already present, "
            f"{summary.quarantined:,} unreadable texts kept, from {summary.path}"))
        return 0

    return _on_database(args.db, act)


def _add_bulk(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bulk", help="parse and verify histories on a Dask cluster into a Parquet dataset"
    )
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="the Dask scheduler, e.g. tcp://10.0.0.5:8786 (default: a local "
                        "cluster of this machine's cores)")
    p.add_argument("--workers", type=int,
                   help="without --scheduler: worker processes (default: one per core)")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="folder of the Parquet dataset (created; an earlier dataset is replaced)")
    p.add_argument("--json", action="store_true", help='end with one line {"summary": {...}}')
    p.add_argument("--quiet", action="store_true", help="no progress, no table; problems only")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="hand-history files, folders (read recursively) or .zip archives")
    p.set_defaults(handler=_bulk)


def _bulk(args: argparse.Namespace) -> int:
    import json

    from analysis.pipeline import import_report
    from analysis.pipeline.cluster import ClusterUnavailable, bulk  # imports Dask only when run
    from analysis.pipeline.importer import Progress
    from analysis.storage.dataset import DatasetError

    live = not args.quiet and not args.json and sys.stderr.isatty()

    def show(p: Progress) -> None:
        print("\r" + import_report.progress_line(p), end="", file=sys.stderr, flush=True)

    try:
        result = bulk(args.paths, args.out, scheduler=args.scheduler, workers=args.workers,
                      progress=show if live else None)
    except ClusterUnavailable as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except DatasetError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if live:
        print(file=sys.stderr)
    summary = result.imported
    log = import_report.problems_log(summary)
    if log:
        print(log, file=sys.stderr if args.json else sys.stdout)
    if args.json:
        body = {**summary.as_dict(), "workers": result.workers,
                "dataset": result.dataset.as_dict()}
        print(json.dumps({"summary": body}))
    elif not args.quiet:
        print(import_report.summary_table(summary))
        rows = result.dataset.rows
        print(f"dataset: {rows.get('hands', 0):,} hands, {rows.get('quarantine', 0):,} "
              f"unreadable texts, parsed by {result.workers} Dask workers, in {args.out}")
    return 1 if summary.rejected and summary.read_nothing else 0


def _add_samples(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "samples", help="how many bundled sample hands the database holds; --remove deletes them"
    )
    p.add_argument("--db", metavar="FILE", help=DB_HELP)
    p.add_argument("--remove", action="store_true",
                   help="delete the sample hands and everything stored of them")
    p.set_defaults(handler=_samples)


def _add_delete(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "delete", help="delete the hands of an import, a file or a site (asks first)"
    )
    p.add_argument("--db", metavar="FILE", help=DB_HELP)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--batch", type=int, metavar="ID",
                       help="an import: one file read by one run (ids: drawlab delete --list)")
    which.add_argument("--file", metavar="PATH", help="a file's hands, or an archive's")
    which.add_argument("--site", metavar="NAME", help="a site's hands (PokerStars, winamax...)")
    which.add_argument("--list", action="store_true",
                       help="list the imports, files and sites with their hands")
    p.add_argument("--yes", action="store_true",
                   help="delete without asking (without it: asks on a terminal, "
                   "otherwise only says how many hands would go)")
    p.set_defaults(handler=_delete)


def _delete_selection(args: argparse.Namespace, db: Connection) -> Selection | None:
    """The selection the arguments name, or None after saying that it names nothing."""
    from analysis.sites import resolve_site
    from analysis.storage import deletion

    if args.batch is not None:
        return deletion.of_batch(db, args.batch)
    if args.file is not None:
        return deletion.of_file(args.file)
    site = resolve_site(args.site, [s.value for s in deletion.sites(db)])
    if site is None:
        print(f"no stored hands of a site named {args.site}", file=sys.stderr)
    return None if site is None else deletion.of_site(site)


def _delete(args: argparse.Namespace) -> int:
    from analysis.storage import deletion

    db = _open_db(args.db)
    if db is None:
        return 2
    try:
        if args.list:
            for title, rows in (("imports", deletion.imports(db)), ("files", deletion.files(db)),
                                ("sites", deletion.sites(db))):
                print(f"{title}:")
                for r in rows:
                    print(f"  {r.label}: {r.held.text()}")
            return 0
        selection = _delete_selection(args, db)
        if selection is None:
            return 1
        doomed = deletion.count(db, selection)
        if doomed.empty:
            print(f"nothing stored of {selection.label}", file=sys.stderr)
            return 1
        what = deletion.what_goes(doomed, selection)
        if doomed.watched:
            print(f"note: {deletion.watched_warning(doomed)}", file=sys.stderr)
        if not args.yes and not _confirmed(f"delete {what}?"):
            print(f"would delete {what}; nothing deleted (--yes deletes them)")
            return 0
        deletion.delete(db, selection)
        print(f"deleted {what}")
    finally:
        db.close()
    return 0


def _confirmed(question: str) -> bool:
    """A yes typed on a terminal; never a yes when nobody is there to type it."""
    if not sys.stdin.isatty():
        return False
    try:
        return input(f"{question} [y/N] ").strip().lower() in ("y", "yes")
    except EOFError:
        return False


def _samples(args: argparse.Namespace) -> int:
    from analysis.storage import samples

    def act(db: Connection) -> int:
        if args.remove:
            print(f"removed {samples.remove(db):,} sample hands")
        else:
            print(f"{samples.count(db):,} sample hands")
        return 0

    return _on_database(args.db, act)


def _add_reverify(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "reverify", help="replay every stored hand again with this DrawLab (after an upgrade)"
    )
    p.add_argument("--db", metavar="FILE", help=DB_HELP)
    p.add_argument("--json", action="store_true", help='end with one line {"summary": {...}}')
    p.add_argument("--workers", type=int, help="worker processes (default: one per core)")
    p.set_defaults(handler=_reverify)


def _reverify(args: argparse.Namespace) -> int:
    from analysis.pipeline.reverify import reverify

    def act(db: Connection) -> int:
        summary = reverify(db, workers=args.workers)
        _show(args.json, summary.as_dict(), summary.text())
        return 0

    return _on_database(args.db, act)


def _add_export(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "export", help="write stored hands out as PokerStars text, PHH or a Parquet dataset"
    )
    p.add_argument("--db", metavar="FILE", help=DB_HELP)
    p.add_argument("--format", required=True,
                   choices=["phh", "pokerstars", "original", "parquet"],
                   help="PHH, PokerStars text, each hand's text as it was imported, or every "
                        "table as Parquet partitioned by site, game and month")
    p.add_argument("--out", required=True, help="folder to write into (created if need be)")
    p.add_argument("--player", help="only hands this player (or person: drawlab alias) sat in")
    _add_filters(p)
    _add_zone(p)
    p.add_argument("--json", action="store_true", help='end with one line {"summary": {...}}')
    p.set_defaults(handler=_export)


def _export(args: argparse.Namespace) -> int:
    from analysis.storage.export import ExportError, export_hands

    given = _filters(args, seated=args.player)
    if given is None:
        return 2

    def act(db: Connection) -> int:
        from dataclasses import replace

        filters = _zoned(db, given, args.zone)
        if filters is None:
            return 2
        if args.player is not None:  # a person (drawlab alias): the hands of every name
            from analysis.storage.memory import person_filters

            filters = person_filters(db, args.player, replace(filters, player=None)) or filters
        if args.format == "parquet":
            return _export_parquet(db, args, filters)
        try:
            summary = export_hands(db, args.out, args.format, filters)
        except ExportError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        for line in summary.notes:
            print(line, file=sys.stderr)
        _show(args.json, summary.as_dict(), summary.text())
        return 0

    return _on_database(args.db, act)


def _export_parquet(db: Connection, args: argparse.Namespace, filters: Filters) -> int:
    from analysis.storage.dataset import DatasetError, write

    try:
        summary = write(db, args.out, filters)
    except DatasetError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    rows = summary.rows
    _show(args.json, summary.as_dict(),
          f"wrote {rows.get('hands', 0):,} hands ({sum(rows.values()):,} rows in "
          f"{len(rows)} tables) as Parquet to {summary.path}")
    return 0


def _add_review(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("review", help="score the hero's draws against the best draw in each spot")
    p.add_argument("--db", metavar="FILE", help=DB_HELP)
    p.add_argument("--player", help="whose draws (default: the hero with the most hands)")
    p.add_argument("--since", metavar="YYYY-MM-DD", help="hands on or after this day")
    p.add_argument("--json", action="store_true", help="one object per draw, then a summary")
    p.add_argument("--workers", type=int, help="worker processes (default: one per core)")
    p.add_argument(
        "--profile",
        choices=("tight", "standard", "loose"),
        default="standard",
        help="the opponents' range profile (default: standard)",
    )
    p.set_defaults(handler=_review)


def _review(args: argparse.Namespace) -> int:
    import json
    from datetime import date

    from analysis import review
    from analysis.statistics.figures import hero_name

    try:
        since = date.fromisoformat(args.since) if args.since else None
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    live = not args.json and sys.stderr.isatty()

    def show(done: int, total: int) -> None:
        bar = "#" * (30 * done // max(total, 1))
        print(f"\rreviewing hands [{bar:<30}] {done}/{total}", end="", file=sys.stderr,
              flush=True)  # fmt: skip

    def act(db: Connection) -> int:
        player = args.player or hero_name(db)
        profile = args.profile
        review.run_review(
            db, player, since, workers=args.workers, progress=show if live else None,
            profile=profile,
        )  # fmt: skip
        if live:
            print(file=sys.stderr)
        summary = review.summary(db, player, since, profile)
        if args.json:
            for row in review.decision_rows(db, player, since, profile=profile):
                print(json.dumps({k: row[k] for k in review.DECISION_FIELDS}))
            _show(True, summary.as_dict(), None)
        else:
            spots = review.costliest(db, player, since, profile=profile)
            print(review.summary_text(summary, spots))
        return 0

    return _on_database(args.db, act)


def _add_verify(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("verify", help="replay hands under the rules and report what is wrong")
    p.add_argument("--json", action="store_true", help="one JSON object per hand, then a summary")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes that parse and replay (default: one per core; the output is the same)",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or .zip archives")
    p.set_defaults(handler=_verify)


def _verify(args: argparse.Namespace) -> int:
    import time

    from analysis.pipeline.verify_files import print_paths
    from analysis.pipeline.verify_report import Tally, summary_json, summary_text

    start = time.perf_counter()
    tally = Tally()
    workers = args.workers if args.workers is not None else _default_workers(args.paths)
    out = sys.stdout
    for printed in print_paths(args.paths, workers, "json" if args.json else "text"):
        tally.add_counts(printed.counts, printed.files)
        if printed.text:
            out.write(printed.text)
            if args.json:  # a tool reading the lines gets them as they are made
                out.flush()
    seconds = time.perf_counter() - start
    print(summary_json(tally, seconds) if args.json else summary_text(tally, seconds))
    return tally.exit_status


SMALL_INPUT = 1 << 20  # bytes below which verify's worker processes cost more than they save


def _default_workers(paths: list[str]) -> int:
    """One per core, but none for a small input: starting the processes would cost more
    than they save (the output is the same either way)."""
    import os

    from parser.sources import Source, iter_sources

    size = sum(s.size for s in iter_sources(paths) if isinstance(s, Source))
    return 1 if size < SMALL_INPUT else (os.cpu_count() or 1)


def _add_replay(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay", help="print a hand's steps: what happened, the pot, every stack and bet"
    )
    p.add_argument("--db", metavar="FILE", help=DB_HELP)
    p.add_argument("--file", metavar="PATH", help="replay hands of this file, not the database's")
    p.add_argument("--hand", metavar="ID", help="with --file: only this hand (default: every one)")
    p.add_argument("--json", action="store_true", help="one JSON object per step (see README)")
    p.add_argument("hand_id", nargs="?", metavar="HAND_ID",
                   help="a stored hand's id as the site writes it (site:ID if two share it)")
    p.set_defaults(handler=_replay)


def _replay(args: argparse.Namespace) -> int:
    from analysis.replayer.report import hand_json, hand_text
    from analysis.replayer.steps import HandView, hand_view

    def show(view: HandView) -> None:
        lines = hand_json(view) if args.json else hand_text(view)
        for line in lines:
            print(line, flush=args.json)

    if args.file is not None:
        if args.hand_id is not None:
            print("error: give a HAND_ID or --file (with --hand), not both", file=sys.stderr)
            return 2
        from engine.record import Hand
        from parser.outcome import ParseError
        from parser.reader import read_path

        wanted = None if args.hand is None else args.hand.strip().lstrip("#")
        shown = 0
        for _, outcome in read_path(args.file):
            if isinstance(outcome, Hand):
                if wanted is None or outcome.hand_id == wanted:
                    if shown and not args.json:
                        print()
                    show(hand_view(outcome))
                    shown += 1
            elif wanted is None and isinstance(outcome, ParseError):
                print(f"skipped: {outcome}", file=sys.stderr)
        if not shown:
            what = f"hand {wanted}" if wanted is not None else "a hand that can be replayed"
            print(f"error: {args.file} has no {what}", file=sys.stderr)
            return 1
        return 0
    if args.hand_id is None:
        print("error: give a HAND_ID, or --file PATH", file=sys.stderr)
        return 2
    from analysis.replayer.stepping import stored_view
    from analysis.storage.queries import find_hands, get_hand

    def act(db: Connection) -> int:
        found = find_hands(db, args.hand_id)
        if len(found) != 1:
            keys = ", ".join(k for _, k in found)
            why = f"several hands have this id: {keys}" if found else "no such hand stored"
            print(f"error: {args.hand_id}: {why}", file=sys.stderr)
            return 1
        stored = get_hand(db, found[0][0])
        view = stored_view(stored)
        if view is None:
            note = "" if stored is None else f" ({stored.note})"
            print(f"error: {args.hand_id} cannot be replayed{note}", file=sys.stderr)
            return 1
        show(view)
        return 0

    return _on_database(args.db, act)


def _add_convert(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("convert", help="rewrite hand histories as PHH or PokerStars text")
    p.add_argument("--to", choices=["phh", "pokerstars"], required=True,
                   help="the format to write")
    p.add_argument("--out", required=True, help="folder for the converted files")
    p.add_argument("paths", nargs="+", help="files, folders or .zip archives")
    p.set_defaults(handler=_convert)


def _convert(args: argparse.Namespace) -> int:
    from parser.convert import convert_paths, describe

    summary = convert_paths(args.paths, args.to, args.out)
    for line in describe(summary):
        print(line)
    return 1 if summary.errors else 0


def _add_simulate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from engine.record import Game, Structure

    p = sub.add_parser("simulate", help="deal random legal hands and write them as a history")
    p.add_argument("--hands", type=int, required=True, help="how many hands")
    p.add_argument("--players", type=int, default=6,
                   help="players at the table, 2-6 (7-8 at home with --no-replacement)")
    p.add_argument("--game", choices=[g.value for g in Game], default=Game.TRIPLE_DRAW_27.value,
                   help="the game dealt (default: 27_triple_draw)")
    p.add_argument(
        "--structure",
        choices=[s.value for s in Structure],
        help="betting structure (default: the game's usual one)",
    )
    p.add_argument("--seed", type=int, default=1, help="the same seed deals the same hands")
    p.add_argument("--tournament", action="store_true", help="sit-and-go hands (chips, levels)")
    p.add_argument(
        "--home",
        action="store_true",
        help="five-card draw as a home game: antes, jacks or better to open (site 'home')",
    )
    home = p.add_argument_group(
        "house rules and variants (with --home; the hands carry them, RULES.md 'Home variants')"
    )
    home.add_argument("--wild", choices=["joker", "two-jokers", "deuces", "one-eyed-jacks"],
                      help="wild cards: a joker, two jokers, the four deuces or the one-eyed jacks")
    home.add_argument("--high-low", action="store_true",
                      help="California high-low: each pot split between the best high and "
                           "the best ace-to-five low (odd chip to the high half)")
    home.add_argument("--shotgun", action="store_true",
                      help="each player's first card is dealt face up")
    home.add_argument("--anything-opens", action="store_true",
                      help="no jacks or better needed to open the betting")
    home.add_argument("--draw", type=int, choices=[3, 4, 5], default=3, metavar="N",
                      help="the most cards a player may draw (default 3)")
    home.add_argument("--ace-draws", type=int, choices=[0, 4, 5], default=4, metavar="N",
                      help="the most cards drawn by a player who shows an ace: 4 (default), "
                           "5, or 0 for no ace rule")
    home.add_argument("--no-replacement", action="store_true",
                      help="7-8 players: once the stub and the discards shuffled once are "
                           "used up, nobody draws another card")
    home.add_argument("--no-ante-again", action="store_true",
                      help="after a hand nobody opened, the carried antes are the pot: "
                           "nobody antes again")
    home.add_argument("--misdeals", type=int, default=0, metavar="PER_MILLE",
                      help="deals (per thousand) where a card is exposed: a misdeal, "
                           "redealt by the same dealer (default 0)")
    p.add_argument("--format", choices=["pokerstars", "phh"], default="pokerstars",
                   help="how the hands are written (default: pokerstars)")
    p.add_argument("--out", help="file to write (default: standard output)")
    p.set_defaults(handler=_simulate)


def _simulate(args: argparse.Namespace) -> int:
    from analysis.simulate import simulate
    from engine.record import Game, Structure
    from engine.sim.dealer import DealRefused, check_deal

    house = _house_rules(args)
    game = Game(args.game)
    try:  # the dealer's checks, before a file is opened
        check_deal(args.hands, game, args.players, home=args.home, house=house,
                   misdeal_per_mille=args.misdeals)
    except DealRefused as refused:
        print(f"error: {_refused(refused.asked, house)}", file=sys.stderr)
        return 2
    options: dict[str, Any] = {
        "structure": Structure(args.structure) if args.structure else None,
        "tournament": args.tournament, "home": args.home, "house": house,
        "misdeal_per_mille": args.misdeals,
    }
    if args.out is None:  # a reader that stops early (| head) ends it quietly (main)
        simulate(sys.stdout, args.hands, game, args.players, args.seed, args.format, **options)
        return 0
    with open(args.out, "w", encoding="utf-8", newline="\n") as out:
        count = simulate(out, args.hands, game, args.players, args.seed, args.format, **options)
    print(f"{count} hands written to {args.out}", file=sys.stderr)
    return 0


def _refused(asked: str, house: HouseRules | None) -> str:
    """The dealer's refusal (``DealRefused.asked``) in the words of the simulate flags."""
    from engine.sim.dealer import most_players

    most = most_players(house)
    return {
        "home": "--home is five-card draw's home game (--game five_card_draw)",
        "house": "house rules and variants need --home",
        "ace_draws": "--ace-draws must be more than --draw (or 0)",
        "misdeals": "--misdeals is a number per thousand deals, 0 to 1000",
    }.get(asked, f"--hands must be 0 or more and --players 2 to {most}"
                 + ("" if most == 8 else " (7-8 only at home with --no-replacement)"))


def _house_rules(args: argparse.Namespace) -> HouseRules | None:
    """The house rules the simulate flags ask for; ``None`` when none is asked for (the
    documents' home game, as ``--home`` alone has always dealt)."""
    from engine.record import HouseRules

    house = HouseRules(
        jacks_to_open=not args.anything_opens,
        max_draw=args.draw,
        max_draw_with_ace=args.ace_draws or None,
        no_replacement=args.no_replacement,
        ante_again=not args.no_ante_again,
        wild=args.wild or "",
        high_low=args.high_low,
        shotgun=args.shotgun,
    )
    return None if house == HouseRules() else house


def _add_app(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ui.launch import DEFAULT_HOST, DEFAULT_PORT

    p = sub.add_parser(
        "app", help="start the dashboard: overview, replayer, import, drills",
        description="Start the DrawLab dashboard. It listens on 127.0.0.1, so only this "
                    "computer can open it, unless --host names another address.",
    )
    p.add_argument("--db", metavar="FILE", help=DB_HELP)
    p.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="N",
                   help=f"the port to listen on (default: {DEFAULT_PORT})")
    p.add_argument("--host", default=DEFAULT_HOST, metavar="ADDRESS",
                   help=f"the address to listen on (default: {DEFAULT_HOST}, this computer "
                        "only); another address, e.g. 0.0.0.0, lets anyone who can reach it "
                        "read every hand and import files")
    p.set_defaults(handler=_app)


def _app(args: argparse.Namespace) -> int:
    """Replace this process by the Streamlit server, so Ctrl+C or a kill stops it."""
    import os

    from analysis.storage.db import ENV_VAR, resolve_path
    from ui import launch

    if not 0 < args.port < 65536:
        print("error: --port must be 1 to 65535", file=sys.stderr)
        return 2
    env = launch.environment(args.db)
    for line in launch.banner(args.host, args.port, resolve_path(env.get(ENV_VAR) or None)):
        print(line, flush=True)
    argv = launch.command(args.host, args.port)
    os.chdir(launch.ROOT)  # Streamlit reads .streamlit/config.toml from where it runs
    os.execve(argv[0], argv, env)
    return 0  # not reached: execve replaces the process


def _add_tag(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("tag", help="tag stored hands (review, mistake, bad beat...)")
    verbs = p.add_subparsers(dest="verb", required=True, metavar="add|remove|list",
                             help="what to do with the tags")
    for verb, words in (("add", "tag a hand"), ("remove", "take tags off a hand")):
        v = verbs.add_parser(verb, help=words)
        v.add_argument("--db", metavar="FILE", help=DB_HELP)
        v.add_argument("--site", help="the hand's site, when two sites share its number")
        v.add_argument("hand_id", metavar="HAND_ID", help="the hand's number as the site writes it")
        v.add_argument("tags", nargs="+", metavar="TAG", help="e.g. review, 'bad beat'")
    v = verbs.add_parser("list", help="the tagged hands, newest first")
    v.add_argument("--db", metavar="FILE", help=DB_HELP)
    v.add_argument("--tag", help="only hands with this tag")
    v.add_argument("--json", action="store_true",
                   help="one JSON object a line: site, hand_id, tags, note")
    p.set_defaults(handler=_tag)


def _tag(args: argparse.Namespace) -> int:
    from analysis.storage import memory

    def act(db: Connection) -> None:
        if args.verb == "list":
            for hand in memory.remembered_hands(db, args.tag):
                print(_json_line(hand.as_dict()) if args.json else _hand_line(hand))
            return
        key = memory.hand_key(db, args.hand_id, args.site)
        change = memory.add_tags if args.verb == "add" else memory.remove_tags
        tags = change(db, key, args.tags)
        print(f"{key}: {', '.join(tags) if tags else 'no tags'}")

    return _with_memory(args, act)


def _add_note(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from analysis.storage.memory import COLOURS

    p = sub.add_parser("note", help="a note on a stored hand or on a player")
    verbs = p.add_subparsers(dest="verb", required=True, metavar="hand|player|list",
                             help="whose note, or list them")
    v = verbs.add_parser("hand", help="a hand's note (an empty TEXT removes it)")
    v.add_argument("--db", metavar="FILE", help=DB_HELP)
    v.add_argument("--site", help="the hand's site, when two sites share its number")
    v.add_argument("hand_id", metavar="HAND_ID", help="the hand's number as the site writes it")
    v.add_argument("text", metavar="TEXT", help="the note, shown as written")
    v = verbs.add_parser("player", help="a player's note (an empty TEXT, no colour: removed)")
    v.add_argument("--db", metavar="FILE", help=DB_HELP)
    v.add_argument("--colour", "--color", dest="colour", choices=COLOURS,
                   help="a colour label, shown beside the name")
    v.add_argument("site", metavar="SITE", help="the site id (pokerstars) or name (PokerStars)")
    v.add_argument("name", metavar="NAME", help="the player's name at that site")
    v.add_argument("text", metavar="TEXT", help="the note, shown as written")
    v = verbs.add_parser("list", help="every hand note and player note")
    v.add_argument("--db", metavar="FILE", help=DB_HELP)
    v.add_argument("--json", action="store_true",
                   help='one JSON object a line, "kind" "hand" or "player"')
    p.set_defaults(handler=_note)


def _note(args: argparse.Namespace) -> int:
    from analysis.storage import memory

    def act(db: Connection) -> None:
        if args.verb == "hand":
            key = memory.hand_key(db, args.hand_id, args.site)
            memory.set_hand_note(db, key, args.text)
            print(f"{key}: {args.text.strip() or 'note removed'}")
        elif args.verb == "player":
            note = memory.set_player_note(db, args.site, args.name, args.text, args.colour)
            print(f"{memory.site_id(args.site)} {args.name.strip()}: "
                  f"{note.label() if note else 'note removed'}")
        else:
            for hand in memory.remembered_hands(db, noted=True):
                if hand.note:
                    print(_json_line({"kind": "hand", **hand.as_dict()}) if args.json
                          else _hand_line(hand))
            for player in memory.player_notes(db):
                print(_json_line({"kind": "player", **player.as_dict()}) if args.json
                      else f"{player.site} {player.player}: {player.label()}")

    return _with_memory(args, act)


def _add_alias(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("alias", help="the names (site and screen name) that are one person")
    verbs = p.add_subparsers(dest="verb", required=True, metavar="add|remove|list",
                             help="what to do with the names")
    for verb, words in (("add", "this name is this person's"),
                        ("remove", "this name is not this person's")):
        v = verbs.add_parser(verb, help=words)
        v.add_argument("--db", metavar="FILE", help=DB_HELP)
        v.add_argument("person", metavar="PERSON", help="any name you give the person")
        v.add_argument("site", metavar="SITE", help="the site id (pokerstars) or name")
        v.add_argument("name", metavar="NAME", help="the screen name at that site")
    v = verbs.add_parser("list", help="every person and their names")
    v.add_argument("--db", metavar="FILE", help=DB_HELP)
    v.add_argument("--json", action="store_true",
                   help="one JSON object a line: person, site, player")
    p.set_defaults(handler=_alias)


def _alias(args: argparse.Namespace) -> int:
    from analysis.storage import memory

    def act(db: Connection) -> None:
        if args.verb == "add":
            alias = memory.add_alias(db, args.person, args.site, args.name)
            print(f"{alias.person}: {alias.site} {alias.player}")
        elif args.verb == "remove":
            if not memory.remove_alias(db, args.person, args.site, args.name):
                raise memory.MemoryInputError(
                    f"{args.name} at {memory.site_id(args.site)} is not one of "
                    f"{args.person}'s names")
            print(f"{args.person}: {memory.site_id(args.site)} {args.name} removed")
        else:
            for alias in memory.aliases(db):
                print(_json_line(alias.as_dict()) if args.json
                      else f"{alias.person}: {alias.site} {alias.player}")

    return _with_memory(args, act)


def _add_saved_filters(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("filters", help="filter sets saved by name, for --filters NAME")
    verbs = p.add_subparsers(dest="verb", required=True, metavar="save|remove|list",
                             help="what to do with the saved sets")
    v = verbs.add_parser("save", help="save the filter options given under NAME")
    v.add_argument("--db", metavar="FILE", help=DB_HELP)
    v.add_argument("name", metavar="NAME", help="the set's name, for --filters NAME")
    _add_filters(v)
    v = verbs.add_parser("remove", help="forget a saved filter set")
    v.add_argument("--db", metavar="FILE", help=DB_HELP)
    v.add_argument("name", metavar="NAME", help="the set's name")
    v = verbs.add_parser("list", help="every saved filter set")
    v.add_argument("--db", metavar="FILE", help=DB_HELP)
    v.add_argument("--json", action="store_true", help="one JSON object a line: name, filters")
    p.set_defaults(handler=_saved_filters_command)


def _saved_filters_command(args: argparse.Namespace) -> int:
    import json

    from analysis.storage import memory

    filters = _filters(args) if args.verb == "save" else None
    if args.verb == "save" and filters is None:
        return 2

    def act(db: Connection) -> None:
        if filters is not None:
            memory.save_filters(db, args.name, filters)
            print(f"{args.name}: {memory.filters_json(filters)}")
        elif args.verb == "remove":
            memory.saved_filters(db, args.name)  # says so when there is none
            memory.delete_filters(db, args.name)
            print(f"{args.name}: removed")
        else:
            for name in memory.saved_filter_names(db):
                text = memory.filters_json(memory.saved_filters(db, name))
                print(_json_line({"name": name, "filters": json.loads(text)}) if args.json
                      else f"{name}: {text}")

    return _with_memory(args, act)


def _with_memory(args: argparse.Namespace, act: Callable[[Connection], None]) -> int:
    """Run one of the memory commands on the database: 0, or 1 after one sentence on
    what could not be done (an unknown hand, site, person)."""
    from analysis.storage.memory import MemoryInputError

    def acted(db: Connection) -> int:
        try:
            act(db)
        except MemoryInputError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        return 0

    return _on_database(args.db, acted)


def _json_line(data: dict[str, object]) -> str:
    import json

    return json.dumps(data, ensure_ascii=False)


def _hand_line(hand: HandMemory) -> str:
    tags = ", ".join(hand.tags)
    return f"{hand.site} {hand.hand_id}: {tags}" + (f" | {hand.note}" if hand.note else "")


def _add_tournaments(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("tournaments", help="what each tournament cost and paid, and totals")
    p.add_argument("--db", metavar="FILE", help=DB_HELP)
    p.add_argument("--player", help="whose tournaments, a name or a person (drawlab alias) "
                                    "(default: the player of each file)")
    p.add_argument("--site", help="only this site's, e.g. pokerstars")
    p.add_argument("--game", help="a game key (27_single_draw) or the site's name for it")
    p.add_argument("--from", dest="date_from", metavar="YYYY-MM-DD", help="started on or after")
    p.add_argument("--to", dest="date_to", metavar="YYYY-MM-DD", help="started on or before")
    _add_zone(p)
    p.add_argument("--json", action="store_true", help="one JSON object per tournament a line")
    p.set_defaults(handler=_tournaments)


def _tournaments(args: argparse.Namespace) -> int:
    from dataclasses import replace
    from datetime import date

    from analysis import tournament_report
    from analysis.statistics.report import StatsError, open_database
    from analysis.tournaments import TournamentFilters, tournament_results

    try:
        filters = TournamentFilters(
            player=args.player, site=args.site, game=args.game,
            date_from=date.fromisoformat(args.date_from) if args.date_from else None,
            date_to=date.fromisoformat(args.date_to) if args.date_to else None,
        )
        con = open_database(args.db)
    except (ValueError, StatsError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2 if isinstance(e, ValueError) else 1
    try:
        zoned = _zoned(con, filters, args.zone)
        if zoned is None:
            return 2
        filters = zoned
        if args.player is not None:  # a person (drawlab alias): every name of theirs
            from analysis.storage.memory import person_names

            names = person_names(con, args.player)
            filters = replace(filters, names=names) if names else filters
        results = tournament_results(con, filters)
    finally:
        con.close()
    if args.json:
        for line in tournament_report.json_lines(results):
            print(line)
    else:
        print(tournament_report.text(results))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="drawlab", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                title="commands")
    _add_app(sub)
    _add_compare(sub)
    _add_equity(sub)
    _add_stats(sub)
    _add_import(sub)
    _add_reverify(sub)
    _add_samples(sub)
    _add_delete(sub)
    _add_export(sub)
    _add_bulk(sub)
    _add_verify(sub)
    _add_replay(sub)
    _add_review(sub)
    _add_convert(sub)
    _add_simulate(sub)
    _add_tag(sub)
    _add_note(sub)
    _add_alias(sub)
    _add_saved_filters(sub)
    _add_tournaments(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; a failure of the machine or of the database file (a full disk, a
    damaged or read-only file) ends it with one sentence (``analysis.faults``), and a reader
    that stopped early (``| head``) ends it quietly."""
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        status = handler(args)
        sys.stdout.flush()  # inside: a reader gone shows here, not at the interpreter's exit
        return status
    except BrokenPipeError:
        from analysis.faults import closed_output

        return closed_output()
    except Exception as exc:
        from analysis.faults import FAULTS

        if not isinstance(exc, FAULTS):
            raise
        return _fault(exc, args.command, getattr(args, "db", None))


def _fault(exc: BaseException, command: str | None, db: str | None) -> int:
    """Say what failed in one sentence; the command's exit status."""
    from analysis.faults import FAULT_STATUS, sentence
    from analysis.storage.db import resolve_path

    print(f"error: {sentence(exc, command, resolve_path(db))}", file=sys.stderr)
    return FAULT_STATUS


if __name__ == "__main__":
    sys.exit(main())
