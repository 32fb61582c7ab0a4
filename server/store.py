"""SQLite persistence: players, SSH names, tables in play, finished games, statistics,
the latest chat of the lobby and of each table.

The schema and the operations the server needs; ``database.Database`` runs
them in its writer thread, off the event loop, each committed before it
returns.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import sqlite3
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .database import Database, StoreClosed
from .ratings import BOT, PLAYER, Rating, Z, bot_subject, player_subject, rate

logger = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,      -- the name, case-folded: names are unique ignoring case
    token_hash TEXT UNIQUE,
    return_code_hash TEXT,              -- a keyless guest's way back to their seat (guests.py)
    reserved_by TEXT,                   -- the SSH identity that reserved this name
    created REAL NOT NULL,
    last_seen REAL                      -- last login (unix time): unused guests are forgotten
);
CREATE TABLE IF NOT EXISTS identities (
    identity TEXT PRIMARY KEY,          -- e.g. "ssh-key:SHA256:..."
    player_id INTEGER NOT NULL REFERENCES players(id)
);
CREATE TABLE IF NOT EXISTS mutes (
    player_id INTEGER NOT NULL,
    muted_id INTEGER NOT NULL,
    PRIMARY KEY (player_id, muted_id)
);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    meta TEXT NOT NULL,                 -- seats, settings, status (JSON)
    snapshot TEXT,                      -- Game.to_dict() at the start of the current round
    snapshot_at REAL                    -- when the snapshot was taken (unix time)
);
CREATE TABLE IF NOT EXISTS table_actions (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,               -- the game update this action produced
    action TEXT NOT NULL,               -- Action.to_dict() (+ standin), applied after the snapshot
    at REAL,                            -- when it was played (unix time): timers resume
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    finished REAL NOT NULL,
    table_name TEXT NOT NULL,
    names TEXT NOT NULL,                -- JSON list, by seat
    totals TEXT NOT NULL,               -- JSON list, by seat
    winners TEXT NOT NULL,              -- JSON list of seats
    record TEXT NOT NULL,               -- the engine's game record (JSON): a replay
    private INTEGER NOT NULL DEFAULT 0, -- played at a private table: only its viewers see it
    seeded INTEGER NOT NULL DEFAULT 0,  -- dealt from a chosen seed: not rated
    subjects TEXT                       -- JSON list by seat: whose rating it moves (null: not rated)
);
CREATE TABLE IF NOT EXISTS game_viewers (  -- of a private game: who sat or watched there
    game_id INTEGER NOT NULL REFERENCES games(id),
    player_id INTEGER NOT NULL,
    PRIMARY KEY (player_id, game_id)
);
CREATE TABLE IF NOT EXISTS bans (      -- set by the server's admin (skyjo-server admin ban)
    kind TEXT NOT NULL,                 -- "identity" or "name"
    value TEXT NOT NULL,                -- the identity ("ssh-key:SHA256:..."), or the name's key
    shown TEXT NOT NULL,                -- as the admin typed it
    created REAL NOT NULL,
    PRIMARY KEY (kind, value)
);
CREATE TABLE IF NOT EXISTS lobby_chat (  -- the latest lines only (Store.add_lobby_chat)
    id INTEGER PRIMARY KEY,             -- in the order they were said
    line TEXT NOT NULL                  -- the chat push as it was sent (JSON)
);
CREATE TABLE IF NOT EXISTS table_chat (  -- each open table's latest lines (Store.add_table_chat)
    id INTEGER PRIMARY KEY,             -- in the order they were said
    table_id TEXT NOT NULL,
    line TEXT NOT NULL                  -- the chat push as it was sent (JSON)
);
CREATE INDEX IF NOT EXISTS table_chat_by_table ON table_chat (table_id, id);
CREATE TABLE IF NOT EXISTS player_stats (
    player_id INTEGER PRIMARY KEY REFERENCES players(id),
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    rounds INTEGER NOT NULL DEFAULT 0,
    round_points INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS ratings (    -- rebuilt from the rated games when empty
    subject TEXT PRIMARY KEY,           -- "player:<id>" or "bot:<level>" (server.ratings)
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL
);
"""


def hash_token(token: str) -> str:
    """Tokens are stored hashed: a copy of the database does not log anyone in."""
    return hashlib.sha256(token.encode()).hexdigest()


def _return_code_hash(player_id: int, code: str) -> str:
    # Salted with the player: one code's hash says nothing of another player's.
    return hash_token(f"{player_id}:{code}")


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: int
    name: str
    reserved_by: str | None


#: Columns added after the first release: (table, column, type), added when missing.
ADDED_COLUMNS = (
    ("tables", "snapshot_at", "REAL"),
    ("table_actions", "at", "REAL"),
    ("players", "last_seen", "REAL"),
    ("games", "private", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "seeded", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "subjects", "TEXT"),
    ("players", "return_code_hash", "TEXT"),
)
#: The games that move ratings: neither private (friends' rules, friends' games) nor
#: seeded (a deal chosen in advance can be learnt: a private table's host may give a
#: seed, and its games reach ``finish_game`` with ``seeded=True``).
RATED = "private = 0 AND seeded = 0"
#: Who may see a game: any public one, and the private ones they sat or watched at.
VISIBLE_TO = "(private = 0 OR id IN (SELECT game_id FROM game_viewers WHERE player_id = :viewer))"


@dataclass(frozen=True, slots=True)
class LoggedAction:
    seq: int
    action: dict[str, Any]  # engine.movelog.action_entry: the action, and its stand-in if any
    at: float | None  # unix time it was played (None in databases from before it was kept)


@dataclass(frozen=True, slots=True)
class SavedTable:
    table_id: str
    meta: dict[str, Any]
    snapshot: dict[str, Any] | None
    snapshot_at: float | None
    actions: list[LoggedAction]  # played after the snapshot, in order
    chat: list[dict[str, Any]]  # the table's latest chat lines, oldest first


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One person's part in a finished game, for the statistics."""

    player_id: int
    won: bool
    round_scores: list[int]


class Store(Database):
    """Everything the server keeps, reached through the operations below.

    Each awaits its commit (see ``Database``): an operation that returned is on disk.
    """

    def __init__(self, path: Path, sync: str = "full") -> None:
        super().__init__(path, sync, SCHEMA, _migrate)
        self.ratings: dict[str, Rating] = {}
        """The ``ratings`` table as last committed, by subject (``server.ratings``):
        read by the lobby's pushes, which cannot wait for the database. Only
        ``open`` and ``finish_game`` write it, with what they read or committed."""

    async def open(self) -> None:
        await super().open()
        self.ratings = await self.run(_load_ratings)

    def rating_of(self, subject: str) -> Rating | None:
        """A person's or a bot level's rating (None: no rated game yet)."""
        return self.ratings.get(subject)

    def bot_ratings(self) -> list[dict[str, Any]]:
        """Every bot level with a rated game, best first (as the leaderboard orders people)."""
        bots = [(s.removeprefix(BOT), r) for s, r in self.ratings.items() if s.startswith(BOT)]
        bots.sort(key=lambda item: (-item[1].ordinal, item[0]))
        return [{"level": level, "rating": r.shown, "games": r.games} for level, r in bots]

    # -- players ------------------------------------------------------------------

    async def player_by_token(self, token: str) -> PlayerRow | None:
        return await self.run(lambda c: _player(c, "token_hash = ?", hash_token(token)))

    async def player_by_id(self, player_id: int) -> PlayerRow | None:
        return await self.run(lambda c: _player(c, "id = ?", player_id))

    async def player_by_name_key(self, name_key: str) -> PlayerRow | None:
        return await self.run(lambda c: _player(c, "name_key = ?", name_key))

    async def player_by_identity(self, identity: str) -> PlayerRow | None:
        where = "id = (SELECT player_id FROM identities WHERE identity = ?)"
        return await self.run(lambda c: _player(c, where, identity))

    async def claim_name(
        self, player_id: int | None, name: str, name_key: str, token: str, identity: str | None
    ) -> PlayerRow:
        """Become (or rename ``player_id`` to) ``name`` with a new token.

        A free existing player of that name is taken over (its statistics
        continue). With an identity the name becomes reserved for it, if not
        already, and the identity remembers it. The caller checked that the
        name may be taken.
        """

        def claim(conn: sqlite3.Connection) -> PlayerRow:
            row = conn.execute("SELECT id FROM players WHERE name_key = ?", (name_key,)).fetchone()
            if row is not None and player_id is not None and row[0] != player_id:
                # A rename onto an existing offline name: move to that player.
                target = row[0]
            else:
                target = row[0] if row is not None else player_id
            if target is None:
                cursor = conn.execute(
                    "INSERT INTO players (name, name_key, created) VALUES (?, ?, ?)",
                    (name, name_key, time.time()),
                )
                target = cursor.lastrowid
            conn.execute(
                "UPDATE players SET name = ?, name_key = ?, token_hash = ?, last_seen = ?, "
                "reserved_by = COALESCE(reserved_by, ?) WHERE id = ?",
                (name, name_key, hash_token(token), time.time(), identity, target),
            )
            if identity is not None:
                conn.execute(
                    "INSERT OR REPLACE INTO identities (identity, player_id) VALUES (?, ?)",
                    (identity, target),
                )
            found = _player(conn, "id = ?", target)
            assert found is not None
            return found

        return await self.run(claim)

    async def new_token(self, player_id: int, token: str) -> None:
        await self.run(
            lambda c: c.execute(
                "UPDATE players SET token_hash = ? WHERE id = ?", (hash_token(token), player_id)
            )
        )

    async def set_return_code(self, player_id: int, code: str) -> None:
        """``code`` (``guests.new_return_code``) brings this player back from now on; the
        one before no longer does."""
        sql = "UPDATE players SET return_code_hash = ? WHERE id = ?"
        await self.run(lambda c: c.execute(sql, (_return_code_hash(player_id, code), player_id)))

    async def return_code_matches(self, player_id: int, code: str) -> bool:
        def read(conn: sqlite3.Connection) -> bool:
            sql = "SELECT return_code_hash FROM players WHERE id = ?"
            row = conn.execute(sql, (player_id,)).fetchone()
            stored = None if row is None else row[0]
            return stored is not None and hmac.compare_digest(
                stored, _return_code_hash(player_id, code)
            )

        return await self.run(read)

    async def touch_player(self, player_id: int) -> bool:
        """The player logged in now (a guest is forgotten only once unused long enough).

        False when the player is gone (forgotten between finding them and now).
        """

        def touch(conn: sqlite3.Connection) -> bool:
            sql = "UPDATE players SET last_seen = ? WHERE id = ?"
            return conn.execute(sql, (time.time(), player_id)).rowcount == 1

        return await self.run(touch)

    async def forget_guests(self, unused_since: float, keep: set[int]) -> int:
        """Delete the players who never finished a game, hold no reserved name, were
        last seen before ``unused_since`` (unix time) and are not in ``keep``.

        Returns how many were deleted (their mutes, both ways, go with them).
        """

        def forget(conn: sqlite3.Connection) -> int:
            rows = conn.execute(
                "SELECT id FROM players WHERE reserved_by IS NULL "
                "AND COALESCE(last_seen, created) < ? "
                "AND id NOT IN (SELECT player_id FROM player_stats) "
                "AND id NOT IN (SELECT player_id FROM identities) "
                # who watched a private game keeps seeing it (and their id is never reused)
                "AND id NOT IN (SELECT player_id FROM game_viewers)",
                (unused_since,),
            )
            gone = [(r[0],) for r in rows if r[0] not in keep]
            conn.executemany("DELETE FROM mutes WHERE player_id = ?", gone)
            conn.executemany("DELETE FROM mutes WHERE muted_id = ?", gone)
            conn.executemany("DELETE FROM players WHERE id = ?", gone)
            return len(gone)

        return await self.run(forget)

    async def one_person(self, held: Collection[int]) -> int | None:
        """For a server one person alone plays on (the app's local games): every player
        stored is them under a name they once had. Folds them all into the one last seen
        (their statistics and the private games they may see), but for the players in
        ``held`` (a table still refers to them), which are left as they are.

        Returns who that person is (None: nobody yet). A database from an earlier version
        of the app, which renamed by making a new player, finds its games again.
        """

        def fold(conn: sqlite3.Connection) -> int | None:
            ids = [
                row[0]
                for row in conn.execute(
                    "SELECT id FROM players ORDER BY COALESCE(last_seen, created) DESC, id DESC"
                )
            ]
            if not ids:
                return None
            person = ids[0]
            for other in (i for i in ids[1:] if i not in held):
                _fold_player(conn, other, person)
            return person

        return await self.run(fold)

    async def remember_identity(self, identity: str, player_id: int) -> None:
        await self.run(
            lambda c: c.execute(
                "INSERT OR REPLACE INTO identities (identity, player_id) VALUES (?, ?)",
                (identity, player_id),
            )
        )

    # -- mutes ----------------------------------------------------------------------

    async def mutes_of(self, player_id: int) -> set[int]:
        def read(conn: sqlite3.Connection) -> set[int]:
            rows = conn.execute("SELECT muted_id FROM mutes WHERE player_id = ?", (player_id,))
            return {r[0] for r in rows}

        return await self.run(read)

    async def set_mute(self, player_id: int, muted_id: int, muted: bool) -> None:
        sql = (
            "INSERT OR IGNORE INTO mutes (player_id, muted_id) VALUES (?, ?)"
            if muted
            else "DELETE FROM mutes WHERE player_id = ? AND muted_id = ?"
        )
        await self.run(lambda c: c.execute(sql, (player_id, muted_id)))

    # -- bans ---------------------------------------------------------------------------

    async def load_bans(self) -> list[tuple[str, str, str]]:
        """Every ban: (kind, value, shown), oldest first."""
        sql = "SELECT kind, value, shown FROM bans ORDER BY created, kind, value"
        return await self.run(lambda c: [tuple(row) for row in c.execute(sql)])

    async def set_ban(self, kind: str, value: str, shown: str, banned: bool) -> bool:
        """Add (``banned``) or lift a ban; False when there was nothing to change."""

        def change(conn: sqlite3.Connection) -> bool:
            if banned:
                sql = "INSERT OR IGNORE INTO bans (kind, value, shown, created) VALUES (?, ?, ?, ?)"
                return conn.execute(sql, (kind, value, shown, time.time())).rowcount == 1
            sql = "DELETE FROM bans WHERE kind = ? AND value = ?"
            return conn.execute(sql, (kind, value)).rowcount == 1

        return await self.run(change)

    # -- chat: the lobby's, and each table's --------------------------------------------

    async def add_lobby_chat(self, line: dict[str, Any], keep: int) -> None:
        """Store a lobby chat line; only the ``keep`` newest lines stay."""
        text = json.dumps(line)

        def add(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO lobby_chat (line) VALUES (?)", (text,))
            conn.execute(
                "DELETE FROM lobby_chat WHERE id NOT IN "
                "(SELECT id FROM lobby_chat ORDER BY id DESC LIMIT ?)",
                (keep,),
            )

        await self.run(add)

    async def lobby_chat(self, limit: int) -> list[dict[str, Any]]:
        """The ``limit`` newest lobby chat lines, oldest first."""
        sql = "SELECT line FROM (SELECT id, line FROM lobby_chat ORDER BY id DESC LIMIT ?) ORDER BY id"
        return await self.run(lambda c: [json.loads(row[0]) for row in c.execute(sql, (limit,))])

    async def add_table_chat(self, table_id: str, line: dict[str, Any], keep: int) -> None:
        """Store a line of a table's chat; only that table's ``keep`` newest lines stay."""
        text = json.dumps(line)

        def add(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO table_chat (table_id, line) VALUES (?, ?)", (table_id, text))
            conn.execute(
                "DELETE FROM table_chat WHERE table_id = ? AND id NOT IN "
                "(SELECT id FROM table_chat WHERE table_id = ? ORDER BY id DESC LIMIT ?)",
                (table_id, table_id, keep),
            )

        await self.run(add)

    # -- tables -----------------------------------------------------------------------

    async def save_table(self, table_id: str, meta: dict[str, Any]) -> None:
        text = json.dumps(meta)

        def save(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO tables (id, meta) VALUES (?, ?) "
                "ON CONFLICT (id) DO UPDATE SET meta = excluded.meta",
                (table_id, text),
            )

        await self.run(save)

    async def save_snapshot(
        self, table_id: str, meta: dict[str, Any], snapshot: dict[str, Any], at: float
    ) -> None:
        """A new game or round (at unix time ``at``): the game so far replaces the logged actions."""
        meta_text, snapshot_text = json.dumps(meta), json.dumps(snapshot)

        def save(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO tables (id, meta, snapshot, snapshot_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET meta = excluded.meta, "
                "snapshot = excluded.snapshot, snapshot_at = excluded.snapshot_at",
                (table_id, meta_text, snapshot_text, at),
            )
            conn.execute("DELETE FROM table_actions WHERE table_id = ?", (table_id,))

        await self.run(save)

    async def append_action(
        self, table_id: str, seq: int, action: dict[str, Any], at: float
    ) -> None:
        """Log a move played at unix time ``at``; returns once it is on disk."""
        text = json.dumps(action)
        await self.run(
            lambda c: c.execute(
                "INSERT INTO table_actions (table_id, seq, action, at) VALUES (?, ?, ?, ?)",
                (table_id, seq, text, at),
            )
        )

    async def delete_table(self, table_id: str) -> None:
        def delete(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM table_actions WHERE table_id = ?", (table_id,))
            conn.execute("DELETE FROM table_chat WHERE table_id = ?", (table_id,))
            conn.execute("DELETE FROM tables WHERE id = ?", (table_id,))

        await self.run(delete)

    async def load_tables(self) -> list[SavedTable]:
        return await self.run(_load_tables)

    # -- finished games and statistics ------------------------------------------------

    async def finish_game(
        self,
        table_name: str,
        names: list[str],
        totals: list[int],
        winners: list[int],
        record: dict[str, Any],
        results: list[PlayerResult],
        *,
        table_id: str,
        meta: dict[str, Any],
        viewers: Collection[int] | None = None,
        subjects: Sequence[str | None] | None = None,
        seeded: bool = False,
    ) -> int:
        """Store a finished game, add it to its players' statistics and ratings,
        and save the table's new state in the same transaction (a game is never
        counted twice).

        ``viewers`` (for a game at a private table) are the only players who
        will see it in ``recent_games`` and ``game_record``; None: everyone.
        ``subjects`` (by seat, ``server.ratings``) are whose ratings the game
        moves, unless it is private or ``seeded`` (see ``RATED``). A seeded game
        counts in no statistics either (so not on the leaderboard): it is kept
        as a record, to compare players deal for deal, and listed as seeded.
        Returns the game's id."""
        private = viewers is not None

        def finish(conn: sqlite3.Connection) -> tuple[int, dict[str, Rating]]:
            cursor = conn.execute(
                "INSERT INTO games (finished, table_name, names, totals, winners, record, private, "
                "seeded, subjects) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    time.time(),
                    table_name,
                    json.dumps(names),
                    json.dumps(totals),
                    json.dumps(winners),
                    json.dumps(record),
                    private,
                    seeded,
                    None if subjects is None else json.dumps(list(subjects)),
                ),
            )
            for result in () if seeded else results:
                _add_result(conn, result)
            game_id = cursor.lastrowid
            assert game_id is not None
            conn.executemany(
                "INSERT INTO game_viewers (game_id, player_id) VALUES (?, ?)",
                [(game_id, player_id) for player_id in sorted(viewers or ())],
            )
            conn.execute(
                "UPDATE tables SET meta = ? WHERE id = ?",
                (json.dumps({**meta, "game_id": game_id}), table_id),
            )
            if private or seeded or subjects is None:
                return game_id, {}
            return game_id, _rate_game(conn, subjects, totals)

        game_id, ratings = await self.run(finish)
        self.ratings.update(ratings)
        return game_id

    async def stats(self, player_id: int) -> dict[str, Any]:
        return await self.run(lambda c: _stats(c, player_id))

    async def leaderboard(self, limit: int) -> list[dict[str, Any]]:
        return await self.run(lambda c: _leaderboard(c, limit))

    async def recent_games(self, limit: int, viewer: int) -> list[dict[str, Any]]:
        """The latest games ``viewer`` may see (public ones, and private ones they were at)."""
        return await self.run(lambda c: _recent_games(c, limit, viewer))

    async def game_record(self, game_id: int, viewer: int) -> tuple[dict[str, Any], bool] | None:
        """A game's record and whether it was seeded, if ``viewer`` may see it (None
        otherwise, as for no such game)."""

        def read(conn: sqlite3.Connection) -> tuple[dict[str, Any], bool] | None:
            row = conn.execute(
                f"SELECT record, seeded FROM games WHERE id = :game AND {VISIBLE_TO}",
                {"game": game_id, "viewer": viewer},
            ).fetchone()
            return None if row is None else (json.loads(row[0]), bool(row[1]))

        return await self.run(read)


# -- the SQL, run in the writer thread ---------------------------------------------------


def _player(conn: sqlite3.Connection, where: str, value: Any) -> PlayerRow | None:
    row = conn.execute(
        f"SELECT id, name, reserved_by FROM players WHERE {where}", (value,)
    ).fetchone()
    return None if row is None else PlayerRow(row[0], row[1], row[2])


def _migrate(conn: sqlite3.Connection) -> None:
    _add_missing_columns(conn)
    _rebuild_ratings(conn)


def _add_missing_columns(conn: sqlite3.Connection) -> None:
    """Bring a database made by an earlier version up to this schema."""
    for table, column, kind in ADDED_COLUMNS:
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if column not in present:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


def _load_tables(conn: sqlite3.Connection) -> list[SavedTable]:
    saved = []
    rows = conn.execute("SELECT id, meta, snapshot, snapshot_at FROM tables").fetchall()
    for table_id, meta, snapshot, snapshot_at in rows:
        actions = [
            LoggedAction(seq, json.loads(action), at)
            for seq, action, at in conn.execute(
                "SELECT seq, action, at FROM table_actions WHERE table_id = ? ORDER BY seq",
                (table_id,),
            )
        ]
        chat = [
            json.loads(line)
            for (line,) in conn.execute(
                "SELECT line FROM table_chat WHERE table_id = ? ORDER BY id", (table_id,)
            )
        ]
        snapshot_data = None if snapshot is None else json.loads(snapshot)
        saved.append(
            SavedTable(table_id, json.loads(meta), snapshot_data, snapshot_at, actions, chat)
        )
    return saved


def _fold_player(conn: sqlite3.Connection, gone: int, into: int) -> None:
    """Player ``gone`` was ``into`` all along: what is theirs becomes ``into``'s, and they go.

    Ratings are left out: only public games move them, and the one server that folds
    players (``Store.one_person``) plays private games only.
    """
    conn.execute(
        "INSERT INTO player_stats (player_id, games, wins, rounds, round_points) "
        "SELECT ?, games, wins, rounds, round_points FROM player_stats WHERE player_id = ? "
        "ON CONFLICT (player_id) DO UPDATE SET games = games + excluded.games, "
        "wins = wins + excluded.wins, rounds = rounds + excluded.rounds, "
        "round_points = round_points + excluded.round_points",
        (into, gone),
    )
    conn.execute(
        "INSERT OR IGNORE INTO game_viewers (game_id, player_id) "
        "SELECT game_id, ? FROM game_viewers WHERE player_id = ?",
        (into, gone),
    )
    conn.execute("UPDATE identities SET player_id = ? WHERE player_id = ?", (into, gone))
    for table in ("player_stats", "game_viewers"):
        conn.execute(f"DELETE FROM {table} WHERE player_id = ?", (gone,))
    conn.execute("DELETE FROM mutes WHERE player_id = ? OR muted_id = ?", (gone, gone))
    conn.execute("DELETE FROM players WHERE id = ?", (gone,))


def _add_result(conn: sqlite3.Connection, result: PlayerResult) -> None:
    conn.execute(
        "INSERT INTO player_stats (player_id, games, wins, rounds, round_points) "
        "VALUES (?, 1, ?, ?, ?) ON CONFLICT (player_id) DO UPDATE SET "
        "games = games + 1, wins = wins + excluded.wins, rounds = rounds + excluded.rounds, "
        "round_points = round_points + excluded.round_points",
        (result.player_id, int(result.won), len(result.round_scores), sum(result.round_scores)),
    )


# -- ratings ------------------------------------------------------------------------------


def _load_ratings(conn: sqlite3.Connection) -> dict[str, Rating]:
    rows = conn.execute("SELECT subject, mu, sigma, games FROM ratings")
    return {subject: Rating(mu, sigma, games) for subject, mu, sigma, games in rows}


def _rate_game(
    conn: sqlite3.Connection, subjects: Sequence[str | None], totals: Sequence[int]
) -> dict[str, Rating]:
    """Move the ratings of one game's subjects (by seat) by its final totals; the new ones."""
    wanted = sorted({s for s in subjects if s is not None})
    marks = ", ".join("?" * len(wanted))
    rows = conn.execute(
        f"SELECT subject, mu, sigma, games FROM ratings WHERE subject IN ({marks})", wanted
    )
    current = {subject: Rating(mu, sigma, games) for subject, mu, sigma, games in rows}
    new = rate(current, subjects, totals)
    conn.executemany(
        "INSERT INTO ratings (subject, mu, sigma, games) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (subject) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
        "games = excluded.games",
        [(subject, r.mu, r.sigma, r.games) for subject, r in sorted(new.items())],
    )
    return new


def _rebuild_ratings(conn: sqlite3.Connection) -> None:
    """An empty ``ratings`` table (lost, or from before ratings) is rebuilt from the
    rated games, replayed in the order they were stored: the same ratings again."""
    if conn.execute("SELECT 1 FROM ratings LIMIT 1").fetchone() is not None:
        return
    games = conn.execute(
        f"SELECT subjects, totals, record FROM games WHERE {RATED} ORDER BY id"
    ).fetchall()
    if not games:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        for subjects, totals, record in games:
            seats = json.loads(subjects) if subjects is not None else _record_subjects(conn, record)
            _rate_game(conn, seats, json.loads(totals))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    logger.info("ratings rebuilt from %d stored games", len(games))


def _record_subjects(conn: sqlite3.Connection, record: str) -> list[str | None]:
    """Whom a game stored before ratings rates: its record's bots by level and its
    people by the name they had (a person since renamed, or forgotten, is left out)."""
    subjects: list[str | None] = []
    for seat in json.loads(record).get("seats", []):
        if seat.get("bot") is not None:
            subjects.append(bot_subject(seat["bot"]))
            continue
        row = conn.execute("SELECT id FROM players WHERE name = ?", (seat.get("name"),)).fetchone()
        subjects.append(None if row is None else player_subject(row[0]))
    return subjects


def _shown(mu: float | None, sigma: float | None) -> int | None:
    return None if mu is None or sigma is None else Rating(mu, sigma, 0).shown


def _stats(conn: sqlite3.Connection, player_id: int) -> dict[str, Any]:
    row = conn.execute(
        "SELECT p.name, COALESCE(s.games, 0), COALESCE(s.wins, 0), COALESCE(s.rounds, 0), "
        "COALESCE(s.round_points, 0), r.mu, r.sigma, COALESCE(r.games, 0) FROM players p "
        "LEFT JOIN player_stats s ON s.player_id = p.id "
        "LEFT JOIN ratings r ON r.subject = ? WHERE p.id = ?",
        (player_subject(player_id), player_id),
    ).fetchone()
    name, games, wins, rounds, points, mu, sigma, rated_games = row
    return {
        "name": name,
        "games": games,
        "wins": wins,
        "rounds": rounds,
        "mean_round_score": round(points / rounds, 2) if rounds else None,
        "rating": _shown(mu, sigma),
        "rated_games": rated_games,
    }


def _leaderboard(conn: sqlite3.Connection, limit: int) -> list[dict[str, Any]]:
    # By rating (its ordinal, mu - 3 sigma); people with no rated game yet come last.
    rows = conn.execute(
        "SELECT p.name, s.games, s.wins, s.rounds, s.round_points, r.mu, r.sigma "
        "FROM player_stats s JOIN players p ON p.id = s.player_id "
        f"LEFT JOIN ratings r ON r.subject = '{PLAYER}' || p.id WHERE s.games > 0 "
        f"ORDER BY r.subject IS NULL, r.mu - {Z} * r.sigma DESC, "
        "s.wins DESC, CAST(s.wins AS REAL) / s.games DESC, s.games DESC, "
        "CAST(s.round_points AS REAL) / MAX(s.rounds, 1), p.name_key "
        "LIMIT ?",
        (limit,),
    )
    return [
        {
            "rank": rank,
            "name": name,
            "games": games,
            "wins": wins,
            "win_rate": round(wins / games, 3),
            "mean_round_score": round(points / rounds, 2) if rounds else None,
            "rating": _shown(mu, sigma),
        }
        for rank, (name, games, wins, rounds, points, mu, sigma) in enumerate(rows, start=1)
    ]


def _recent_games(conn: sqlite3.Connection, limit: int, viewer: int) -> list[dict[str, Any]]:
    # Which seats were bots is the record's (its seats): read there, not kept twice.
    rows = conn.execute(
        "SELECT id, finished, table_name, names, totals, winners, seeded, "
        "json_extract(record, '$.seats') FROM games "
        f"WHERE {VISIBLE_TO} ORDER BY id DESC LIMIT :limit",
        {"viewer": viewer, "limit": limit},
    )
    return [
        {
            "game_id": game_id,
            "finished_at": finished,
            "table_name": table_name,
            "names": json.loads(names),
            "bots": [seat.get("bot") for seat in json.loads(seats or "[]")],
            "totals": json.loads(totals),
            "winners": json.loads(winners),
            "seeded": bool(seeded),
        }
        for game_id, finished, table_name, names, totals, winners, seeded, seats in rows
    ]


__all__ = ["LoggedAction", "PlayerResult", "PlayerRow", "SavedTable", "Store", "StoreClosed"]
