"""The database layout, versioned, so a file made by an older DrawLab opens in a newer one.

Each entry of ``MIGRATIONS`` moves the schema one version forward and is never edited
once released: a change is a new entry.  ``migrate`` applies the missing ones in order,
each in its own transaction, and records it in ``schema_version``.

Conventions the other parts rely on:

- ``hands.id`` is a surrogate ``BIGINT`` given in import order; every child table refers
  to it in its column ``hand``.  Ids only grow, so DuckDB's min/max zone maps prune child
  tables well without extra indexes.
- ``hands.key`` identifies a hand across imports: ``site:hand_id``, or
  ``site:table@time`` where the site has no id, or ``site#<text digest>`` as a last resort.
- Money is ``BIGINT`` hundredths (cents, or chips*100 in tournaments), as in the record.
- Cards are text as sites write them (``7s5d4h3c2s``), ``NULL`` where unknown.
- ``idx`` in actions, draws, shows and payouts is the step's position in the hand, so
  ``ORDER BY hand, idx`` replays the hand's order across those tables.
- Actions hold the posts too (``kind`` ``post_small_blind``... with ``dead``), street 0.
- ``files.checksum`` is the SHA-256 of the file's ``size`` bytes when it was last read in
  full: a file that still starts with them has grown, and is read again from
  ``resume_line``, the first line of its last hand (which may have been half written).
  While a watcher holds back the file's last hand (still being written, never stored), the
  checksum ends with ``+held`` (``analysis.storage.writer.HELD``) and ``resume_line`` is that
  hand's first line: the content is not "read in full" until the hand is stored.
- ``file`` (and ``files.path``) names a file as ``drawlab verify`` does; a member of an
  archive is ``archive.zip/member.txt`` (version 3 renamed the ``archive.zip!/member.txt``
  of earlier imports).
- ``player_hands`` (one row per player dealt in, for the statistics) is not here: its
  columns come from ``analysis.statistics.fact_row.FACT_COLUMNS`` and ``analysis.storage.db``
  keeps it in step.
- ``pots`` (version 4): the main pot (``idx`` 0) and side pots of each replayed hand,
  before rake, with the players eligible and the winners by the cards shown.
- ``decisions`` (version 5, ``analysis.review``): one row per reviewed draw of a player
  (the equity of the keep taken and of the best one, the loss, the pot in big bets, every
  choice weighed as JSON), and ``reviewed_hands`` one row per hand reviewed for a player
  (with or without a draw), each under the ``model`` that computed it; the entry after
  version 7 adds the range ``profile``, the hero's ``line`` and the ``spot`` in full.
- ``drill_*`` (version 2, ``analysis.drills.progress``): one row per drill answer (question
  and answer as JSON), the Leitner box of each (drill, topic), each drill's level.
- ``watched_folders`` (version 6, ``analysis.pipeline.watched``): the folders the dashboard watches,
  when each was added, and its last read: when the watcher last imported from it, the
  files, hands added and problems of that batch.
- Hand texts (``hands.text``, ``quarantine.text``) are stored in zstd (version 7), the
  rest as DuckDB chooses.
- No index on ``hands`` or ``quarantine`` (version 7 laid them out again without the
  ``PRIMARY KEY`` on ``id`` and the ``UNIQUE`` on ``key`` of version 1): the importer
  numbers the rows and checks the keys itself (``analysis.storage.writer.Store``), one
  writer at a time; DuckDB's indexes on them cost every append and 5 MiB a 100,000
  hands on disk (500 MiB at ten million).
- ``hands.time`` is the UTC moment where the history named its zone, the clock as
  written where it did not; ``hands.time_utc`` (the entry after the user's memory) says
  which (``analysis.times`` shows both in the display zone).
- ``hand_tags``, ``hand_notes``, ``player_notes``, ``aliases``, ``saved_filters``
  (``analysis.storage.memory``): what the user writes down, keyed by what survives a
  reverify and a re-import (a hand's ``key``, a player's site and name), never by an id.
"""

from __future__ import annotations

from typing import Any

from analysis.storage.transactions import rollback

# version 7 (in MIGRATIONS): ``hands`` and ``quarantine`` without indexes and with their
# hand texts in zstd, rows and order kept.  Measured on 100,000 dealt hands' ids, keys and
# texts (``python -m benchmarks.bench_store_write --texts 100000``): with the key's index
# and DuckDB's own choice for the texts (FSST and a dictionary), 48.0 MiB, appends 4.18
# and the checkpoint 6.92 us of CPU a hand; without the index and in zstd 13.8 MiB, 2.30
# and 3.30 us.  A full scan of the texts (reverify's) costs 0.6 us a hand more.
_V7_HANDS = """
    CREATE TABLE _hands_v7 (
        id BIGINT NOT NULL,
        key VARCHAR NOT NULL,
        site VARCHAR NOT NULL,
        hand_id VARCHAR,
        table_name VARCHAR,
        game VARCHAR,
        structure VARCHAR,
        small_blind BIGINT,
        big_blind BIGINT,
        small_bet BIGINT,
        big_bet BIGINT,
        ante BIGINT,
        currency VARCHAR,
        time TIMESTAMP,
        button INTEGER,
        max_seats INTEGER,
        players INTEGER,
        hero VARCHAR,
        hero_cards VARCHAR,
        total_pot BIGINT,
        rake BIGINT,
        tournament_id VARCHAR,
        buy_in BIGINT,
        fee BIGINT,
        level VARCHAR,
        status VARCHAR NOT NULL,
        reason VARCHAR,
        errors INTEGER NOT NULL,
        warnings INTEGER NOT NULL,
        file VARCHAR,
        line INTEGER,
        text VARCHAR NOT NULL USING COMPRESSION zstd,
        batch BIGINT
    )
    """
_V7_QUARANTINE = """
    CREATE TABLE _quarantine_v7 (
        id BIGINT NOT NULL,
        key VARCHAR NOT NULL,
        site VARCHAR,
        file VARCHAR,
        line INTEGER,
        error VARCHAR NOT NULL,
        text VARCHAR NOT NULL USING COMPRESSION zstd,
        batch BIGINT
    )
    """
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # version 1
    (
        """
        CREATE TABLE hands (
            id BIGINT PRIMARY KEY,
            key VARCHAR NOT NULL UNIQUE,
            site VARCHAR NOT NULL,
            hand_id VARCHAR,
            table_name VARCHAR,
            game VARCHAR,
            structure VARCHAR,
            small_blind BIGINT,
            big_blind BIGINT,
            small_bet BIGINT,
            big_bet BIGINT,
            ante BIGINT,
            currency VARCHAR,
            time TIMESTAMP,
            button INTEGER,
            max_seats INTEGER,
            players INTEGER,
            hero VARCHAR,
            hero_cards VARCHAR,
            total_pot BIGINT,
            rake BIGINT,
            tournament_id VARCHAR,
            buy_in BIGINT,
            fee BIGINT,
            level VARCHAR,
            status VARCHAR NOT NULL,
            reason VARCHAR,
            errors INTEGER NOT NULL,
            warnings INTEGER NOT NULL,
            file VARCHAR,
            line INTEGER,
            text VARCHAR NOT NULL,
            batch BIGINT
        )
        """,
        """
        CREATE TABLE seats (
            hand BIGINT NOT NULL,
            seat INTEGER,
            player VARCHAR NOT NULL,
            stack BIGINT,
            sitting_out BOOLEAN,
            cards VARCHAR,
            net BIGINT,
            line INTEGER
        )
        """,
        """
        CREATE TABLE actions (
            hand BIGINT NOT NULL,
            idx INTEGER NOT NULL,
            street INTEGER NOT NULL,
            player VARCHAR NOT NULL,
            kind VARCHAR NOT NULL,
            amount BIGINT NOT NULL,
            to_amount BIGINT,
            all_in BOOLEAN NOT NULL,
            dead BIGINT NOT NULL,
            line INTEGER
        )
        """,
        """
        CREATE TABLE draws (
            hand BIGINT NOT NULL,
            idx INTEGER NOT NULL,
            player VARCHAR NOT NULL,
            draw INTEGER NOT NULL,
            count INTEGER NOT NULL,
            discarded VARCHAR,
            kept VARCHAR,
            received VARCHAR,
            run INTEGER NOT NULL,
            line INTEGER
        )
        """,
        """
        CREATE TABLE shows (
            hand BIGINT NOT NULL,
            idx INTEGER NOT NULL,
            player VARCHAR NOT NULL,
            cards VARCHAR,
            mucked BOOLEAN NOT NULL,
            run INTEGER NOT NULL,
            line INTEGER
        )
        """,
        """
        CREATE TABLE payouts (
            hand BIGINT NOT NULL,
            idx INTEGER NOT NULL,
            player VARCHAR NOT NULL,
            kind VARCHAR NOT NULL,
            amount BIGINT NOT NULL,
            pot INTEGER,
            run INTEGER NOT NULL,
            line INTEGER
        )
        """,
        """
        CREATE TABLE problems (
            hand BIGINT NOT NULL,
            code VARCHAR NOT NULL,
            severity VARCHAR NOT NULL,
            line INTEGER,
            message VARCHAR NOT NULL
        )
        """,
        """
        CREATE TABLE quarantine (
            id BIGINT PRIMARY KEY,
            key VARCHAR NOT NULL UNIQUE,
            site VARCHAR,
            file VARCHAR,
            line INTEGER,
            error VARCHAR NOT NULL,
            text VARCHAR NOT NULL,
            batch BIGINT
        )
        """,
        """
        CREATE TABLE import_batches (
            id BIGINT PRIMARY KEY,
            run VARCHAR NOT NULL,
            file VARCHAR NOT NULL,
            size BIGINT,
            checksum VARCHAR,
            hands INTEGER NOT NULL,
            added INTEGER NOT NULL,
            already_present INTEGER NOT NULL,
            ok INTEGER NOT NULL,
            invalid INTEGER NOT NULL,
            parse_error INTEGER NOT NULL,
            unsupported INTEGER NOT NULL,
            incomplete INTEGER NOT NULL,
            rejected VARCHAR,
            started TIMESTAMP NOT NULL,
            finished TIMESTAMP
        )
        """,
        """
        CREATE TABLE files (
            path VARCHAR PRIMARY KEY,
            size BIGINT NOT NULL,
            checksum VARCHAR NOT NULL,
            resume_line BIGINT NOT NULL,
            hands INTEGER NOT NULL,
            updated TIMESTAMP NOT NULL
        )
        """,
        "CREATE TABLE meta (name VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)",
    ),
    # version 2: the drills' progress (analysis.drills.progress)
    (
        """
        CREATE TABLE drill_answers (
            id BIGINT PRIMARY KEY,
            time TIMESTAMP NOT NULL,
            drill VARCHAR NOT NULL,
            topic VARCHAR NOT NULL,
            game VARCHAR NOT NULL,
            level INTEGER NOT NULL,
            correct BOOLEAN NOT NULL,
            seconds DOUBLE,
            points INTEGER NOT NULL,
            question VARCHAR NOT NULL,
            answer VARCHAR NOT NULL
        )
        """,
        """
        CREATE TABLE drill_boxes (
            drill VARCHAR NOT NULL,
            topic VARCHAR NOT NULL,
            box INTEGER NOT NULL,
            due BIGINT NOT NULL,
            seen INTEGER NOT NULL,
            PRIMARY KEY (drill, topic)
        )
        """,
        """
        CREATE TABLE drill_levels (
            drill VARCHAR PRIMARY KEY,
            level INTEGER NOT NULL,
            since BIGINT NOT NULL
        )
        """,
    ),
    # version 3: archive members named as the parser names them, ``a.zip/member.txt``
    # (earlier imports wrote ``a.zip!/member.txt``); the first such separator of a name
    # only, since the importer reads no archive inside an archive
    (
        "UPDATE hands SET file = regexp_replace(file, '(\\.[zZ][iI][pP])!/', '\\1/') "
        "WHERE regexp_matches(file, '\\.[zZ][iI][pP]!/')",
        "UPDATE quarantine SET file = regexp_replace(file, '(\\.[zZ][iI][pP])!/', '\\1/') "
        "WHERE regexp_matches(file, '\\.[zZ][iI][pP]!/')",
        "UPDATE import_batches SET file = regexp_replace(file, '(\\.[zZ][iI][pP])!/', '\\1/') "
        "WHERE regexp_matches(file, '\\.[zZ][iI][pP]!/')",
        "UPDATE files SET path = regexp_replace(path, '(\\.[zZ][iI][pP])!/', '\\1/') "
        "WHERE regexp_matches(path, '\\.[zZ][iI][pP]!/')",
    ),
    # version 4: the pots as the replay builds them (``idx`` 0 the main pot, then the side
    # pots), who could win each and who did by the cards shown (NULL: a hand still in it
    # was never shown); hands imported before it get theirs from ``drawlab reverify``,
    # which the meta row ``replay_suggested`` asks for until it has run
    (
        """
        CREATE TABLE pots (
            hand BIGINT NOT NULL,
            idx INTEGER NOT NULL,
            amount BIGINT NOT NULL,
            eligible VARCHAR[] NOT NULL,
            winners VARCHAR[]
        )
        """,
        "INSERT INTO meta SELECT 'replay_suggested', 'pots' WHERE EXISTS (SELECT 1 FROM hands)",
    ),
    # version 5: the draw review (``analysis.review``): each reviewed draw of a player and
    # the hands reviewed, under the model that computed them (recomputed when it changes)
    (
        """
        CREATE TABLE decisions (
            hand BIGINT NOT NULL,
            draw INTEGER NOT NULL,
            player VARCHAR NOT NULL,
            game VARCHAR NOT NULL,
            position VARCHAR,
            draws_left INTEGER NOT NULL,
            opponents VARCHAR NOT NULL,
            held VARCHAR NOT NULL,
            dead VARCHAR NOT NULL,
            kept VARCHAR NOT NULL,
            discarded VARCHAR NOT NULL,
            best_kept VARCHAR NOT NULL,
            kind VARCHAR NOT NULL,
            equity_chosen DOUBLE NOT NULL,
            equity_best DOUBLE NOT NULL,
            stderr DOUBLE NOT NULL,
            loss DOUBLE NOT NULL,
            exact BOOLEAN NOT NULL,
            pot DOUBLE NOT NULL,
            choices VARCHAR NOT NULL,
            model VARCHAR NOT NULL
        )
        """,
        """
        CREATE TABLE reviewed_hands (
            hand BIGINT NOT NULL,
            player VARCHAR NOT NULL,
            model VARCHAR NOT NULL,
            decisions INTEGER NOT NULL
        )
        """,
    ),
    # version 6: the folders the dashboard watches (``analysis.pipeline.watched``), kept with the
    # hands so that a dashboard started again, on this or another computer, watches them
    (
        """
        CREATE TABLE watched_folders (
            path VARCHAR PRIMARY KEY,
            added TIMESTAMP NOT NULL,
            last_read TIMESTAMP,
            last_files INTEGER,
            last_added INTEGER,
            last_problems INTEGER
        )
        """,
    ),
    # version 7: ``hands`` and ``quarantine`` laid out again without their indexes (DuckDB
    # cannot drop a constraint) and with their texts in zstd: the rows copied in their
    # stored order, which is id order (no ORDER BY: a sort of every hand text would need
    # memory the copy does not); about 1.2 s of CPU a 100,000 hands, once
    (
        _V7_HANDS,
        "INSERT INTO _hands_v7 SELECT * FROM hands",
        "DROP TABLE hands",
        "ALTER TABLE _hands_v7 RENAME TO hands",
        _V7_QUARANTINE,
        "INSERT INTO _quarantine_v7 SELECT * FROM quarantine",
        "DROP TABLE quarantine",
        "ALTER TABLE _quarantine_v7 RENAME TO quarantine",
    ),
    # tournaments as their summaries state them (``analysis.storage.tournaments``): one row
    # a tournament, and one a player with a result in it (the summary's own player, every
    # player it lists, and players whose result only their hands tell)
    (
        """
        CREATE TABLE tournaments (
            site VARCHAR NOT NULL,
            tournament_id VARCHAR NOT NULL,
            name VARCHAR NOT NULL,
            game_text VARCHAR NOT NULL,
            game VARCHAR,
            kinds VARCHAR NOT NULL,
            currency VARCHAR NOT NULL,
            buy_in BIGINT NOT NULL,
            fee BIGINT NOT NULL,
            bounty BIGINT NOT NULL,
            ticket_entry BOOLEAN NOT NULL,
            entrants INTEGER,
            prize_pool BIGINT,
            started TIMESTAMP,
            finished TIMESTAMP,
            running BOOLEAN NOT NULL,
            target VARCHAR NOT NULL,
            rebuy_cost BIGINT NOT NULL,
            addon_cost BIGINT NOT NULL,
            total_rebuys INTEGER,
            total_addons INTEGER,
            source VARCHAR NOT NULL,
            file VARCHAR NOT NULL,
            line INTEGER NOT NULL,
            fingerprint VARCHAR NOT NULL,
            PRIMARY KEY (site, tournament_id)
        )
        """,
        """
        CREATE TABLE tournament_results (
            site VARCHAR NOT NULL,
            tournament_id VARCHAR NOT NULL,
            player VARCHAR NOT NULL,
            place INTEGER,
            prize BIGINT NOT NULL,
            ticket VARCHAR NOT NULL,
            entries INTEGER NOT NULL,
            rebuys INTEGER NOT NULL,
            addons INTEGER NOT NULL,
            paid_extra BIGINT,
            bounties_won BIGINT NOT NULL,
            knockouts INTEGER NOT NULL,
            source VARCHAR NOT NULL,
            file VARCHAR NOT NULL,
            line INTEGER NOT NULL,
            PRIMARY KEY (site, tournament_id, player)
        )
        """,
    ),
    # the draw review's spot in full (``analysis.review``): the range profile it was judged
    # under, the hero's line after the draw (``snow``, ``bet`` or '') and the spot as JSON
    # (each opponent's counts, order, position and bets, the hero's bet, a reshuffle)
    (
        "ALTER TABLE decisions ADD COLUMN profile VARCHAR DEFAULT 'standard'",
        "ALTER TABLE decisions ADD COLUMN line VARCHAR DEFAULT ''",
        "ALTER TABLE decisions ADD COLUMN spot VARCHAR DEFAULT '{}'",
    ),
    # the player's own memory (``analysis.storage.memory``): tags and a note on a hand,
    # keyed by ``hands.key`` (not the id, which reverify and a re-import may give anew), a
    # note and a colour on a player (a name at a site), the names of each person, and the
    # filter sets saved by name (``Filters`` as JSON)
    (
        """
        CREATE TABLE hand_tags (
            key VARCHAR NOT NULL,
            tag VARCHAR NOT NULL,
            added TIMESTAMP NOT NULL,
            PRIMARY KEY (key, tag)
        )
        """,
        """
        CREATE TABLE hand_notes (
            key VARCHAR PRIMARY KEY,
            note VARCHAR NOT NULL,
            updated TIMESTAMP NOT NULL
        )
        """,
        """
        CREATE TABLE player_notes (
            site VARCHAR NOT NULL,
            player VARCHAR NOT NULL,
            note VARCHAR NOT NULL,
            colour VARCHAR,
            updated TIMESTAMP NOT NULL,
            PRIMARY KEY (site, player)
        )
        """,
        """
        CREATE TABLE aliases (
            person VARCHAR NOT NULL,
            site VARCHAR NOT NULL,
            player VARCHAR NOT NULL,
            PRIMARY KEY (site, player)
        )
        """,
        """
        CREATE TABLE saved_filters (
            name VARCHAR PRIMARY KEY,
            filters VARCHAR NOT NULL,
            saved TIMESTAMP NOT NULL
        )
        """,
    ),
    # whether a hand's ``time`` is the UTC moment (the history named its zone: "ET",
    # "CET", "UTC") or the clock as written (no zone, or one we cannot name); hands stored
    # before this version are NULL, read as UTC, as every page read them before
    # (``drawlab reverify`` fills the flag from their texts)
    ("ALTER TABLE hands ADD COLUMN time_utc BOOLEAN",),
)


CURRENT_VERSION = len(MIGRATIONS)


class NewerSchema(RuntimeError):
    """A database a newer DrawLab laid out: refused rather than guessed at."""

    def __init__(self, found: int) -> None:
        super().__init__(
            f"database schema version {found} is newer than this DrawLab "
            f"(knows up to {CURRENT_VERSION}); upgrade DrawLab to open it"
        )
        self.found = found


def version_of(con: Any) -> int:
    """The schema version of an open database; 0 for a new, empty one (which it prepares
    for ``migrate`` by creating ``schema_version``: a writing connection only)."""
    con.execute(
        "CREATE TABLE IF NOT EXISTS schema_version "
        "(version INTEGER PRIMARY KEY, applied TIMESTAMP NOT NULL)"
    )
    return stored_version(con)


def stored_version(con: Any) -> int:
    """The schema version without writing anything, so a read-only connection can ask."""
    found = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'schema_version'"
    ).fetchall()
    if not found or not found[0][0]:
        return 0
    rows = con.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchall()
    return int(rows[0][0]) if rows else 0


def migrate(con: Any) -> int:
    """Bring the database to ``CURRENT_VERSION``; returns the version it started from.

    A database newer than this program is refused rather than guessed at.
    """
    start = version_of(con)
    if start > CURRENT_VERSION:
        raise NewerSchema(start)
    for version in range(start + 1, CURRENT_VERSION + 1):
        con.execute("BEGIN TRANSACTION")
        try:
            for statement in MIGRATIONS[version - 1]:
                con.execute(statement)
            con.execute("INSERT INTO schema_version VALUES (?, current_timestamp)", [version])
            con.execute("COMMIT")
        except BaseException:
            rollback(con)
            raise
    return start
