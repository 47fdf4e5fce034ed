"""Saved games in a SQL database (SQLite by default, PostgreSQL with the same code).

A game is stored as its setup (JSON: edition, seats, start player, seed,
deal, short-stack option) plus its full move list in text form (draws
included), one row per move.  :meth:`Storage.append` writes a turn's moves and
the game's new status in one transaction; the server acknowledges a move only
after it returns.  Each seat has a row in ``hg_seats`` (who plays it, the
display name and the SHA-256 hash of its secret, never the secret), and the
creator's secret hash is in ``hg_creators``.  Games stored before seats had
secrets have no seat rows: :meth:`Storage.load` says so (``seats`` is empty).

>>> st = Storage("sqlite://")
>>> st.create("g1", {"edition": "2020"}, ["d3"], [SeatRow(0, "human", None, "Ann", "ab12", False)], "cd34")
>>> st.append("g1", 1, ["3@0,1r0", "-", "d7"], status="playing", scores=[0, 0])
>>> stored = st.load("g1")
>>> stored.setup, stored.history, stored.seats[0].name, stored.creator_hash
({'edition': '2020'}, ['d3', '3@0,1r0', '-', 'd7'], 'Ann', 'cd34')
>>> [g.id for g in st.summaries(["g1", "nope"])]
['g1']
>>> st.delete("g1"), st.delete("g1"), st.load("g1")
(True, False, None)
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool

from huntgather.server import account_tables  # noqa: F401  (its tables are declared on metadata)
from huntgather.server.dbfile import watch_sqlite_file
from huntgather.server.messages import (
    ChatChannel,
    ChatLine,
    MoveNotice,
    NoticeType,
    SeatNoticeRow,
    encode_notice,
)
from huntgather.server.metadata import metadata  # every table: a new database gets them at once (migrate)
from huntgather.server.seats import SeatKind

log = logging.getLogger("huntgather.server")
_T = TypeVar("_T")
_Bulk = Callable[[Connection, list[tuple[Any, ...]]], list[Any]]


games = Table(
    "hg_games", metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("setup", Text, nullable=False),
    Column("status", String(16), nullable=False, default="playing"),
    Column("ply", Integer, nullable=False, default=0),
    Column("scores", Text, nullable=False, default="[]"),
    #: the position after the last stored move (record text), or NULL for games stored before it
    Column("position", Text, nullable=True),
    #: the clock's state (JSON, :class:`~huntgather.server.clock.ClockState`; NULL: no clock) and
    #: when the running seat's time runs out (NULL: none runs); schema 0006
    Column("clock", Text, nullable=True),
    Column("deadline", Float, nullable=True, index=True),
)

moves = Table(
    "hg_moves", metadata,
    Column("game_id", String(40), ForeignKey("hg_games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("move", String(40), nullable=False),
)


seats = Table(
    "hg_seats", metadata,
    Column("game_id", String(40), ForeignKey("hg_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("level", String(16), nullable=True),
    Column("name", String(64), nullable=True),
    Column("secret_hash", String(64), nullable=True),
    Column("joined", Boolean, nullable=False, default=False),
    #: the account holding the seat (None: a guest's seat or a bot's; schema 0004)
    Column("account_id", Integer, nullable=True, index=True),
)

creators = Table(
    "hg_creators", metadata,
    Column("game_id", String(40), ForeignKey("hg_games.id"), primary_key=True),
    Column("secret_hash", String(64), nullable=False),
)

#: the lines said at each game's table (schema 0005); ``id`` numbers them (it only grows)
chat = Table(
    "hg_chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(40), ForeignKey("hg_games.id"), nullable=False, index=True),
    Column("channel", String(16), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=True),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)

#: the games whose watchers' chat the creator closed (a row: closed; schema 0005)
chat_closed = Table(
    "hg_chat_closed", metadata,
    Column("game_id", String(40), ForeignKey("hg_games.id"), primary_key=True),
)


#: the games listed in the public lobby (schema 0008): what the lobby shows without reading
#: the setup, and ``clock_key`` (:func:`clock_key`), the clock in one word, for quick match
lobby = Table(
    "hg_lobby", metadata,
    Column("game_id", String(40), ForeignKey("hg_games.id"), primary_key=True),
    Column("edition", String(8), nullable=False),
    Column("players", Integer, nullable=False),
    Column("clock", Text, nullable=True),
    Column("clock_key", String(40), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("creator_account", Integer, nullable=True),
    Column("creator_name", String(64), nullable=True),
    Column("creator_rating", Integer, nullable=True),
    Column("created", Float, nullable=False, index=True),
    Column("expires", Float, nullable=False, index=True),
    #: the SHA-256 hash of who listed it (an account, or a guest's address; schema 0010), so that
    #: quick match never pairs them with their own listing, and hands it back to them
    Column("lister", String(64), nullable=True),
)

#: the seats of a listed game still open (a row: open); taking one deletes its row
lobby_seats = Table(
    "hg_lobby_seats", metadata,
    Column("game_id", String(40), ForeignKey("hg_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
)


#: the rematch of a finished game (schema 0010): the new game once made (NULL until then: one
#: conditional UPDATE sets it, so exactly one process makes it) and the hash of its creator secret
rematches = Table(
    "hg_rematch", metadata,
    Column("game_id", String(40), ForeignKey("hg_games.id"), primary_key=True),
    Column("new_game", String(40), nullable=True),
    Column("creator_hash", String(64), nullable=True),
    Column("updated", Float, nullable=False),
)

#: the seats that want the rematch, each with the hash of its new seat's secret (derived from the
#: old seat's secret, :func:`~huntgather.server.seats.rematch_secret`; NULL: asked for by a page
#: that held the seat by its account only)
rematch_seats = Table(
    "hg_rematch_seats", metadata,
    Column("game_id", String(40), ForeignKey("hg_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("secret_hash", String(64), nullable=True),
)


#: the games' post-game reviews (schema 0009; :mod:`huntgather.server.reviews`)
reviews = Table(
    "hg_reviews", metadata,
    Column("game_id", String(40), ForeignKey("hg_games.id"), primary_key=True),
    Column("level", String(16), nullable=False),
    #: queued, running, done or failed
    Column("status", String(8), nullable=False, index=True),
    #: turns searched so far, of ``total``
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    #: the turns searched so far (JSON), so that a restarted server goes on from there
    Column("partial", Text, nullable=True),
    #: the review once done (JSON)
    Column("review", Text, nullable=True),
    Column("requested", Float, nullable=False),
    #: the process computing it and when it last said so (a claim: computed once)
    Column("owner", String(40), nullable=True),
    Column("heartbeat", Float, nullable=True),
)


#: :meth:`Storage._append` for one or many games on PostgreSQL, as one statement (psycopg's
#: named parameters; the rows travel as arrays): the games whose stored ply is still the call's
#: start move on, and only theirs get their moves inserted and their notification (sent at
#: commit).  Its one row holds the number of games updated (and of notifications, so that they
#: are made).
_APPEND_POSTGRES = f"""
WITH updated AS (
    UPDATE {games.name} AS g
    SET ply = v.ply, status = v.status, scores = v.scores, updated = %(now)s, position = v.position,
        clock = v.clock, deadline = v.deadline
    FROM unnest(%(ids)s::text[], %(starts)s::int[], %(plies)s::int[], %(statuses)s::text[],
                %(scores)s::text[], %(positions)s::text[], %(clocks)s::text[],
                %(deadlines)s::float8[], %(befores)s::float8[])
         AS v(id, start, ply, status, scores, position, clock, deadline, before)
    WHERE g.id = v.id AND g.ply = v.start AND g.deadline IS NOT DISTINCT FROM v.before
    RETURNING g.id
), inserted AS (
    INSERT INTO {moves.name} (game_id, ply, move)
    SELECT m.game_id, m.ply, m.move
    FROM unnest(%(move_games)s::text[], %(move_plies)s::int[], %(move_texts)s::text[])
         AS m(game_id, ply, move)
    JOIN updated ON updated.id = m.game_id
), notified AS (
    SELECT pg_notify(%(channel)s, n.payload)
    FROM unnest(%(ids)s::text[], %(payloads)s::text[]) AS n(id, payload)
    JOIN updated ON updated.id = n.id
)
SELECT (SELECT count(*) FROM updated), (SELECT count(*) FROM notified)
"""


#: :meth:`Storage._append` on SQLite, for one game or many (``executemany``): its games row,
#: only where the stored ply is still the call's start and the deadline the one it expects.
#: Built once: a statement built per call costs SQLAlchemy more than SQLite's work (its
#: construction and cache key, about 0.25 ms a call; the same statement object keeps its key).
_APPEND_SQLITE = (
    update(games).where(games.c.id == bindparam("b_id"), games.c.ply == bindparam("b_start"),
                        games.c.deadline.is_not_distinct_from(bindparam("b_before")))
    .values(ply=bindparam("b_ply"), status=bindparam("b_status"), scores=bindparam("b_scores"),
            updated=bindparam("b_updated"), position=bindparam("b_position"), clock=bindparam("b_clock"),
            deadline=bindparam("b_deadline")))
#: the moves' rows of :data:`_APPEND_SQLITE` (and of a new game, :meth:`Storage._create`, with
#: its other rows')
_INSERT_MOVES = insert(moves)
_INSERT_GAME = insert(games)
_INSERT_SEATS = insert(seats)
_INSERT_CREATOR = insert(creators)
#: :meth:`Storage._set_seat`'s two statements, built once like :data:`_APPEND_SQLITE`
_SET_SEAT = (
    update(seats).where(seats.c.game_id == bindparam("b_game"), seats.c.seat == bindparam("b_seat"))
    .values(kind=bindparam("b_kind"), level=bindparam("b_level"), name=bindparam("b_name"),
            secret_hash=bindparam("b_secret_hash"), joined=bindparam("b_joined"),
            account_id=bindparam("b_account_id")))
_UNLIST_SEAT = delete(lobby_seats).where(lobby_seats.c.game_id == bindparam("b_game"),
                                         lobby_seats.c.seat == bindparam("b_seat"))
#: the most rows one :func:`_insert_moves_sql` statement takes (3 parameters a row, far under
#: SQLite's 32,766)
_MOVES_A_STATEMENT = 500


@functools.lru_cache(maxsize=64)
def _insert_moves_sql(rows: int) -> str:
    """SQLite's INSERT of ``rows`` moves' rows as one statement (``?`` parameters, three a row).

    Each row of an ``executemany`` is two calls into SQLite (the step and the reset), and the
    writer thread gives up the GIL at each and must wait for the event loop to get it back; one
    statement for a batch's moves is one call, and less of the SQL layer's work a row
    (docs/results/NOTES.md, "One process at 1,000 games").

    >>> _insert_moves_sql(2)
    'INSERT INTO hg_moves (game_id, ply, move) VALUES (?, ?, ?), (?, ?, ?)'
    """
    columns = ", ".join(c.name for c in (moves.c.game_id, moves.c.ply, moves.c.move))
    return f"INSERT INTO {moves.name} ({columns}) VALUES " + ", ".join(["(?, ?, ?)"] * rows)


def _insert_moves(conn: Connection, rows: list[tuple[str, int, str]]) -> None:
    """Insert moves' rows ``(game id, ply, move)``: on SQLite as few statements as
    :data:`_MOVES_A_STATEMENT` allows (:func:`_insert_moves_sql`), elsewhere one ``executemany``."""
    if conn.dialect.name != "sqlite":
        conn.execute(_INSERT_MOVES, [{"game_id": g, "ply": ply, "move": m} for g, ply, m in rows])
        return
    for i in range(0, len(rows), _MOVES_A_STATEMENT):
        chunk = rows[i:i + _MOVES_A_STATEMENT]
        conn.exec_driver_sql(_insert_moves_sql(len(chunk)), tuple(v for row in chunk for v in row))


def _append_row(game_id: str, start: int, new: list[str], status: str, scores: list[int],
                position: str | None, clock: ClockWrite, now: float) -> dict[str, Any]:
    """The parameters of :data:`_APPEND_SQLITE` for one :meth:`Storage._append` call."""
    return {"b_id": game_id, "b_start": start, "b_ply": start + len(new), "b_status": status,
            "b_scores": json.dumps(scores), "b_updated": now, "b_position": position,
            "b_clock": clock.state, "b_deadline": clock.deadline, "b_before": clock.before}


class StorageError(RuntimeError):
    """The database refused a write (e.g. a move number already stored)."""


class ConflictError(StorageError):
    """Another process stored moves of this game first: this copy of the game is out of date."""


class TimedOutError(ConflictError):
    """Another process recorded a timeout of this game's running seat: the moves were not stored."""


#: the PostgreSQL channel on which processes tell each other what they stored
CHANNEL = "huntgather"
#: PostgreSQL refuses notifications of 8000 bytes or more
MAX_NOTICE = 7900


def move_notice(game_id: str, start: int, new: list[str]) -> str:
    """The notification of moves stored (:class:`~huntgather.server.messages.MoveNotice`).

    The moves themselves ride along when they fit (the whole notice in :data:`MAX_NOTICE`
    bytes), so that the other processes need not read them back from the database.

    >>> move_notice("abc", 4, ["d17", "17@-1,0r3"])
    '{"type":"move","game":"abc","version":6,"start":4,"moves":["d17","17@-1,0r3"]}'
    >>> move_notice("abc", 4, ["x" * 8000])
    '{"type":"move","game":"abc","version":5}'
    """
    short: MoveNotice = {"type": NoticeType.MOVE, "game": game_id, "version": start + len(new)}
    full = encode_notice({**short, "start": start, "moves": new})
    return full if len(full.encode()) <= MAX_NOTICE else encode_notice(short)


def seat_notice(game_id: str, row: SeatRow) -> str:
    """The notification of a seat stored, with its row, so that the other processes need not
    read it back (:func:`seat_row`).

    >>> from huntgather.server.messages import decode_notice
    >>> notice = decode_notice(seat_notice("abc", SeatRow(1, "human", None, "Ann Lee", "9f2c", True, 7)))
    >>> seat_row(notice["seat"])
    SeatRow(seat=1, kind='human', level=None, name='Ann Lee', secret_hash='9f2c', joined=True, account_id=7)
    """
    carried: SeatNoticeRow = {"seat": row.seat, "kind": SeatKind(row.kind), "level": row.level,
                              "name": row.name, "secret_hash": row.secret_hash, "joined": row.joined,
                              "account_id": row.account_id}
    return encode_notice({"type": NoticeType.SEAT, "game": game_id, "seat": carried})


def seat_row(carried: SeatNoticeRow) -> SeatRow:
    """The row a :func:`seat_notice` carries."""
    return SeatRow(carried["seat"], str(carried["kind"]), carried["level"], carried["name"],
                   carried["secret_hash"], carried["joined"], carried.get("account_id"))


def timeout_notice(game_id: str, seat: int, version: int) -> str:
    """The notification of a seat's time run out (the seat itself comes as a :func:`seat_notice`)."""
    return encode_notice({"type": NoticeType.TIMEOUT, "game": game_id, "seat": seat, "version": version})


def rematch_notice(game_id: str) -> str:
    """The notification that a game's rematch offers, or its rematch made, changed (the others read
    it back: the hashes it holds are not sent)."""
    return encode_notice({"type": NoticeType.REMATCH, "game": game_id})


def delete_notice(game_id: str) -> str:
    """The notification of a game deleted."""
    return encode_notice({"type": NoticeType.DELETE, "game": game_id})


@dataclass(frozen=True)
class SeatRow:
    """One seat as stored: who plays it, its name, and the hash of its secret (None for a bot)."""

    seat: int
    kind: str
    level: str | None
    name: str | None
    secret_hash: str | None
    joined: bool
    #: the account that holds the seat (:mod:`huntgather.server.accounts`); a seat handed to a bot
    #: keeps it, so that the person who left is known (rated games count them last)
    account_id: int | None = None


@dataclass(frozen=True)
class ClockWrite:
    """A game's clock as an append stores it: its state (JSON), the new deadline, and the deadline
    the writer saw (the append is refused, as a conflict, if the stored one differs: another
    process recorded a timeout).  All None for a game without a clock."""

    state: str | None = None
    deadline: float | None = None
    before: float | None = None


NO_CLOCK = ClockWrite()


@dataclass(frozen=True)
class Listing:
    """A game as the public lobby lists it (``hg_lobby``), and its open seats."""

    game_id: str
    edition: str
    players: int
    #: the clock's setup (JSON, :class:`~huntgather.server.clock.ClockSetup`), None: no clock
    clock: str | None
    clock_key: str
    rated: bool
    creator_account: int | None
    creator_name: str | None
    creator_rating: int | None
    created: float
    expires: float
    open_seats: tuple[int, ...] = ()
    #: every seat of the game (filled in by :meth:`Storage.lobby`)
    seats: tuple[SeatRow, ...] = ()
    #: the hash of who listed it (:func:`~huntgather.server.routes_lobby.lister_key`), if known
    lister: str | None = None


@dataclass(frozen=True)
class RematchState:
    """A finished game's rematch as stored: the seats that want it (each with the hash of its new
    seat's secret, or None), the new game once made, and the hash of its creator secret."""

    wants: dict[int, str | None]
    new_game: str | None = None
    creator_hash: str | None = None

    def seat_hash(self, seat: int, own: str | None) -> str | None:
        """The secret hash of ``seat`` in the rematch: its offer's, else the seat's ``own``."""
        return self.wants.get(seat) or own


def clock_key(clock: dict[str, Any] | None) -> str:
    """A clock setup (its JSON form) in one word, equal for equal clocks.

    >>> clock_key(None), clock_key({"base": 600.0, "increment": 10.0}), clock_key({"days_per_move": 2})
    ('none', 'live:600+10', 'days:2')
    """
    if clock is None:
        return "none"
    if "days_per_move" in clock:
        return f"days:{int(clock['days_per_move'])}"
    return f"live:{float(clock.get('base', 0)):g}+{float(clock.get('increment', 0)):g}"


@dataclass(frozen=True)
class StoredGame:
    """Everything stored of one game."""

    setup: dict[str, Any]
    history: list[str]
    seats: list[SeatRow]
    creator_hash: str | None
    #: the position after the last move (record text); None for games stored without one
    position: str | None = None
    #: the clock's state (JSON, :class:`~huntgather.server.clock.ClockState`), None without a clock
    clock: str | None = None


@dataclass(frozen=True)
class Summary:
    """A game in a list: public facts only."""

    id: str
    created: float
    updated: float
    setup: dict[str, Any]
    status: str
    ply: int
    scores: list[int]
    seats: list[SeatRow]


def public_url(url: str) -> str:
    """A database URL fit to show: the password hidden.

    >>> public_url("postgresql://hg:s3cret@db.example/games")
    'postgresql://hg:***@db.example/games'
    >>> public_url("sqlite:////tmp/g.sqlite")
    'sqlite:////tmp/g.sqlite'
    """
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:   # not a URL SQLAlchemy can read: show only its scheme
        return url.split("://", 1)[0] + "://…"


def database_url(db: str) -> str:
    """A SQLAlchemy URL from a URL or a file path.

    >>> database_url("postgresql://u@h/db")
    'postgresql://u@h/db'
    >>> database_url("/tmp/x.sqlite")
    'sqlite:////tmp/x.sqlite'
    """
    if "://" in db:
        return db
    return "sqlite:///" + str(Path(db).expanduser().resolve())


def _driver_url(url: str) -> str:
    """``postgresql://`` means psycopg2 to SQLAlchemy; use psycopg (3) when only that is installed."""
    if url.startswith(("postgresql://", "postgres://")):
        import importlib.util

        if importlib.util.find_spec("psycopg2") is None and importlib.util.find_spec("psycopg") is not None:
            return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


class _OneConnectionPool(StaticPool):
    """The one connection of an in-memory database, lent to one thread at a time.

    An in-memory SQLite database lives in one connection, so every part of the
    server shares it: the writer thread, the lobby's expiry sweep, a request's
    direct read. :class:`StaticPool` hands it to all of them at once, and one
    thread's ``BEGIN`` or its return-time rollback then lands inside another
    thread's transaction ("cannot start a transaction within a transaction",
    or a write silently rolled back). This pool makes a second thread wait
    until the first has given the connection back; the same thread may take
    it again while it holds it, as with :class:`StaticPool`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._turn = threading.RLock()

    def _do_get(self) -> ConnectionPoolEntry:
        self._turn.acquire()
        try:
            return super()._do_get()
        except BaseException:
            self._turn.release()
            raise

    def _do_return_conn(self, record: ConnectionPoolEntry) -> None:
        super()._do_return_conn(record)
        self._turn.release()


class Storage:
    """Games and their moves in one database."""

    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
            if self.url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = _OneConnectionPool
            else:
                Path(self.url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(_driver_url(self.url), **kwargs)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
            # SQLAlchemy's recipe for working savepoints with pysqlite: we say BEGIN, not the driver
            event.listen(self.engine, "begin", _sqlite_begin)
        self.schema = migrate(self.engine)
        #: the SQLite file, watched for being deleted or replaced (None for other databases)
        self.file = watch_sqlite_file(self.engine, self.url)
        self._writer = Writer(self.engine, bulk={self._append: self._append_many,
                                                 self._notify: self._notify_many},
                              last={self._notify}, check=self.file.check if self.file else None)

    def close(self) -> None:
        self._writer.stop()
        self.engine.dispose()

    @property
    def errors(self) -> int:
        """How many writes the writer thread failed (a conflict with another process not counted)."""
        return self._writer.failed

    def _write(self, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(conn, *args)`` in a transaction of its own (the synchronous way to write)."""
        try:
            with self.engine.begin() as conn:
                return fn(conn, *args)
        except IntegrityError:   # a move number another process stored at the same moment
            raise ConflictError("another process stored the same rows first") from None

    async def write(self, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(conn, *args)`` (one of the ``_create``, ``_append``, … bodies) by the writer thread.

        The writer commits the writes waiting for it together (one commit and
        one disk sync for all, see :class:`Writer`), so that many games writing
        at once do not fight over the database's write lock.
        """
        waiter: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._writer.submit(fn, args, waiter)
        return await waiter

    async def create_async(self, game_id: str, setup: dict[str, Any], history: list[str],
                           seat_rows: list[SeatRow] | None = None, creator_hash: str | None = None,
                           position: str | None = None, clock: ClockWrite = NO_CLOCK,
                           listing: Listing | None = None) -> None:
        """:meth:`create` by the writer thread."""
        await self.write(self._create, game_id, setup, history, seat_rows, creator_hash, position, clock,
                         listing)

    async def append_async(self, game_id: str, start: int, new: list[str], *, status: str,
                           scores: list[int], position: str | None = None,
                           clock: ClockWrite = NO_CLOCK) -> None:
        """:meth:`append` by the writer thread."""
        await self.write(self._append, game_id, start, new, status, scores, position, clock)

    async def set_seat_async(self, game_id: str, row: SeatRow, start_clock: ClockWrite = NO_CLOCK) -> None:
        """:meth:`set_seat` by the writer thread (``start_clock``: :meth:`_set_seat`)."""
        await self.write(self._set_seat, game_id, row, start_clock)

    async def delete_async(self, game_id: str) -> bool:
        """:meth:`delete` by the writer thread."""
        return await self.write(self._delete, game_id)

    def create(self, game_id: str, setup: dict[str, Any], history: list[str],
               seat_rows: list[SeatRow] | None = None, creator_hash: str | None = None,
               position: str | None = None, clock: ClockWrite = NO_CLOCK,
               listing: Listing | None = None) -> None:
        """Store a new game with the moves it already has (its first draws), its seats and creator,
        the position those moves lead to, its clock, and its ``listing`` in the public lobby
        (a public game's)."""
        self._write(self._create, game_id, setup, history, seat_rows, creator_hash, position, clock, listing)

    def _create(self, conn: Connection, game_id: str, setup: dict[str, Any], history: list[str],
                seat_rows: list[SeatRow] | None = None, creator_hash: str | None = None,
                position: str | None = None, clock: ClockWrite = NO_CLOCK,
                listing: Listing | None = None) -> None:
        now = time.time()
        conn.execute(_INSERT_GAME, {"id": game_id, "created": now, "updated": now, "setup": json.dumps(setup),
                                    "status": "playing", "ply": len(history), "scores": "[]",
                                    "position": position, "clock": clock.state, "deadline": clock.deadline})
        if history:
            _insert_moves(conn, [(game_id, i, m) for i, m in enumerate(history)])
        if seat_rows:
            conn.execute(_INSERT_SEATS, [{"game_id": game_id, "seat": r.seat, "kind": r.kind,
                                          "level": r.level, "name": r.name,
                                          "secret_hash": r.secret_hash, "joined": r.joined,
                                          "account_id": r.account_id}
                                         for r in seat_rows])
        if creator_hash is not None:
            conn.execute(_INSERT_CREATOR, {"game_id": game_id, "secret_hash": creator_hash})
        if listing is not None and listing.open_seats:
            conn.execute(insert(lobby).values(
                game_id=game_id, edition=listing.edition, players=listing.players, clock=listing.clock,
                clock_key=listing.clock_key, rated=listing.rated, creator_account=listing.creator_account,
                creator_name=listing.creator_name, creator_rating=listing.creator_rating,
                created=listing.created, expires=listing.expires, lister=listing.lister))
            conn.execute(insert(lobby_seats), [{"game_id": game_id, "seat": i} for i in listing.open_seats])

    def set_seat(self, game_id: str, row: SeatRow) -> None:
        """Store a seat's new state (a name, a bot taking over, a new secret)."""
        self._write(self._set_seat, game_id, row)

    def _set_seat(self, conn: Connection, game_id: str, row: SeatRow,
                  start_clock: ClockWrite = NO_CLOCK) -> None:
        """Store a seat (and tell the other processes); a seat open in the lobby is no longer
        (whoever changed it, the creator or a link's holder, it is spoken for), and the game
        leaves the lobby with its last open seat: then ``start_clock``, if given, is stored as
        the game's clock (a listed game's clock waits for its players)."""
        done = conn.execute(_SET_SEAT, {"b_game": game_id, "b_seat": row.seat, "b_kind": row.kind,
                                        "b_level": row.level, "b_name": row.name,
                                        "b_secret_hash": row.secret_hash, "b_joined": row.joined,
                                        "b_account_id": row.account_id}).rowcount
        if not done:
            raise StorageError(f"no seat {row.seat} stored for game {game_id!r}")
        if conn.execute(_UNLIST_SEAT, {"b_game": game_id, "b_seat": row.seat}).rowcount:
            self._close_listing(conn, game_id, start_clock)
        self._notify(conn, seat_notice(game_id, row))

    def _close_listing(self, conn: Connection, game_id: str, start_clock: ClockWrite) -> None:
        """After a seat left the lobby: if it was the game's last open one, unlist the game and
        start its clock (only where none has run yet)."""
        if conn.execute(select(lobby_seats.c.seat).where(lobby_seats.c.game_id == game_id)).first():
            return
        conn.execute(delete(lobby).where(lobby.c.game_id == game_id))
        if start_clock.state is not None:
            conn.execute(update(games).where(games.c.id == game_id, games.c.deadline.is_(None))
                         .values(clock=start_clock.state, deadline=start_clock.deadline))

    async def take_seat_async(self, game_id: str, row: SeatRow, start_clock: ClockWrite = NO_CLOCK) -> bool:
        """:meth:`take_seat` by the writer thread."""
        return await self.write(self._take_seat, game_id, row, start_clock)

    def take_seat(self, game_id: str, row: SeatRow, start_clock: ClockWrite = NO_CLOCK) -> bool:
        """Give a seat open in the lobby to the person who took it (``row``: a new secret's hash,
        their account and name); False, and nothing written, unless the seat was open (one
        conditional DELETE: of two people taking it at once, one wins).  With the last open
        seat the game leaves the lobby and ``start_clock`` is stored (:meth:`_set_seat`)."""
        return self._write(self._take_seat, game_id, row, start_clock)

    def _take_seat(self, conn: Connection, game_id: str, row: SeatRow, start_clock: ClockWrite) -> bool:
        if not conn.execute(delete(lobby_seats).where(lobby_seats.c.game_id == game_id,
                                                      lobby_seats.c.seat == row.seat)).rowcount:
            return False
        conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == row.seat)
                     .values(kind=row.kind, level=row.level, name=row.name, secret_hash=row.secret_hash,
                             joined=row.joined, account_id=row.account_id))
        self._close_listing(conn, game_id, start_clock)
        self._notify(conn, seat_notice(game_id, row))
        return True

    async def rekey_listed_seat_async(self, game_id: str, row: SeatRow, old_hash: str | None) -> bool:
        """Give a seat of a game still listed in the lobby a new secret (``row``'s hash), if its
        secret's hash is still ``old_hash`` (one conditional UPDATE: of two at once, one wins), and
        tell the other processes; False, and nothing written, otherwise (by the writer thread)."""
        def rekey(conn: Connection) -> bool:
            listed = select(lobby.c.game_id).where(lobby.c.game_id == game_id).exists()
            if not conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == row.seat,
                                                    seats.c.secret_hash == old_hash, listed)
                                .values(secret_hash=row.secret_hash)).rowcount:
                return False
            self._notify(conn, seat_notice(game_id, row))
            return True
        return await self.write(rekey)

    def lobby_open(self, game_id: str) -> tuple[list[int], float | None]:
        """A game's seats open in the lobby and when its listing expires (``[]`` and None: not
        listed)."""
        with self.engine.connect() as conn:
            expires = conn.execute(select(lobby.c.expires).where(lobby.c.game_id == game_id)).scalar()
            if expires is None:
                return [], None
            open_ = [s for (s,) in conn.execute(select(lobby_seats.c.seat)
                                                .where(lobby_seats.c.game_id == game_id)
                                                .order_by(lobby_seats.c.seat))]
        return open_, float(expires)

    async def lobby_async(self, now: float, limit: int = 100, *, edition: str | None = None,
                          players: int | None = None, clock: str | None = None,
                          rated: bool | None = None) -> list[Listing]:
        """:meth:`lobby` by the writer thread (in its turn: an in-memory database has one
        connection)."""
        return await self.write(self._lobby, now, limit, edition, players, clock, rated)

    def lobby(self, now: float, limit: int = 100, *, edition: str | None = None,
              players: int | None = None, clock: str | None = None,
              rated: bool | None = None) -> list[Listing]:
        """The games listed and not expired at ``now``, newest first, with their open seats (only
        those of ``edition``, ``players``, ``clock`` (:func:`clock_key`) and ``rated``, if given)."""
        with self.engine.connect() as conn:
            return self._lobby(conn, now, limit, edition, players, clock, rated)

    @staticmethod
    def _lobby(conn: Connection, now: float, limit: int = 100, edition: str | None = None,
               players: int | None = None, clock: str | None = None,
               rated: bool | None = None) -> list[Listing]:
        query = select(lobby).where(lobby.c.expires > now)
        if edition is not None:
            query = query.where(lobby.c.edition == edition)
        if players is not None:
            query = query.where(lobby.c.players == players)
        if clock is not None:
            query = query.where(lobby.c.clock_key == clock)
        if rated is not None:
            query = query.where(lobby.c.rated == rated)
        rows = conn.execute(query.order_by(lobby.c.created.desc(), lobby.c.game_id).limit(limit)).all()
        ids = [r.game_id for r in rows]
        if not ids:
            return []
        open_: dict[str, list[int]] = {}
        for game_id, seat in conn.execute(select(lobby_seats.c.game_id, lobby_seats.c.seat)
                                          .where(lobby_seats.c.game_id.in_(ids))
                                          .order_by(lobby_seats.c.seat)):
            open_.setdefault(game_id, []).append(seat)
        by_game: dict[str, list[Any]] = {}
        for r in conn.execute(select(seats).where(seats.c.game_id.in_(ids)).order_by(seats.c.seat)):
            by_game.setdefault(r.game_id, []).append(r)
        return [Listing(r.game_id, r.edition, r.players, r.clock, r.clock_key, bool(r.rated),
                        r.creator_account, r.creator_name, r.creator_rating, r.created, r.expires,
                        tuple(open_.get(r.game_id, ())), tuple(_seat_rows(by_game.get(r.game_id, []))),
                        r.lister)
                for r in rows if open_.get(r.game_id)]

    async def lobby_expired_async(self, now: float, limit: int = 100) -> list[str]:
        """The listed games whose listing expired by ``now`` (by the writer thread)."""
        def expired(conn: Connection) -> list[str]:
            return [g for (g,) in conn.execute(select(lobby.c.game_id).where(lobby.c.expires <= now)
                                               .order_by(lobby.c.expires).limit(limit))]
        return await self.write(expired)

    async def expire_listing_async(self, game_id: str, now: float) -> bool:
        """Delete a listed game whose listing expired by ``now`` (never played: its moves wait
        for its players), telling the other processes; False, and nothing done, if it is no
        longer listed or not yet expired (its last seat was just taken)."""
        def expire(conn: Connection) -> bool:
            if not conn.execute(delete(lobby).where(lobby.c.game_id == game_id,
                                                    lobby.c.expires <= now)).rowcount:
                return False
            return self._delete(conn, game_id)
        return await self.write(expire)

    def append(self, game_id: str, start: int, new: list[str], *, status: str, scores: list[int],
               position: str | None = None, clock: ClockWrite = NO_CLOCK) -> None:
        """Add ``new`` moves from ply ``start`` on, the ``position`` they lead to and the game's
        ``clock``, in one transaction.

        Optimistic concurrency on (game, ply): if the game no longer has
        ``start`` moves stored (another process was first), nothing is written
        and :class:`ConflictError` is raised; likewise if the stored deadline is not
        ``clock.before`` (another process recorded a timeout).  On PostgreSQL the other
        processes are notified when the transaction commits.
        """
        self._write(self._append, game_id, start, new, status, scores, position, clock)

    def _append(self, conn: Connection, game_id: str, start: int, new: list[str], status: str,
                scores: list[int], position: str | None = None, clock: ClockWrite = NO_CLOCK) -> None:
        if self.shared:   # PostgreSQL: one statement; nothing is written unless the ply was `start`
            if not self._append_postgres(conn, [(game_id, start, new, status, scores, position, clock)]):
                self._refuse_append(conn, game_id, start)
            return
        done = conn.execute(_APPEND_SQLITE, _append_row(game_id, start, new, status, scores, position, clock,
                                                        time.time())).rowcount
        if not done:
            self._refuse_append(conn, game_id, start)
        if new:
            _insert_moves(conn, [(game_id, start + i, m) for i, m in enumerate(new)])
        self._notify(conn, move_notice(game_id, start, new))

    @staticmethod
    def _refuse_append(conn: Connection, game_id: str, start: int) -> None:
        """Raise why an append from ply ``start`` wrote nothing: no such game, or other moves."""
        current = conn.execute(select(games.c.ply).where(games.c.id == game_id)).scalar()
        if current is None:
            raise StorageError(f"no stored game {game_id!r}")
        if current == start:
            raise TimedOutError(f"game {game_id}: another process recorded a timeout")
        raise ConflictError(f"game {game_id} has {current} stored moves, not {start}")

    def _append_many(self, conn: Connection, calls: list[tuple[Any, ...]]) -> list[None]:
        """:meth:`_append` for several games at once: one UPDATE and one INSERT for all of them
        (on PostgreSQL one statement that also sends their notifications).

        If any game no longer has the moves its call expects, :class:`MixedBatch`
        is raised before anything is committed, and the writer takes the calls one
        by one (so that only those calls fail).
        """
        if self.shared:
            done = self._append_postgres(conn, calls)
            if done != len(calls):
                raise MixedBatch(f"{len(calls) - done} of {len(calls)} games had other moves stored")
            return [None] * len(calls)
        now = time.time()
        done = conn.execute(_APPEND_SQLITE,
                            [_append_row(game_id, start, new, status, scores, position, clock, now)
                             for game_id, start, new, status, scores, position, clock
                             in map(_with_position, calls)]).rowcount
        if done != len(calls):
            raise MixedBatch(f"{len(calls) - done} of {len(calls)} games had other moves stored")
        rows = [(game_id, start + i, m) for game_id, start, new, *_ in calls for i, m in enumerate(new)]
        if rows:
            _insert_moves(conn, rows)
        return [None] * len(calls)

    def _append_postgres(self, conn: Connection, calls: list[tuple[Any, ...]]) -> int:
        """:meth:`_append` for each of ``calls`` on PostgreSQL in one statement
        (:data:`_APPEND_POSTGRES`); returns how many games were updated: those whose stored ply
        was the call's start.  The others are left as they were."""
        full = [_with_position(call) for call in calls]
        rows = [(game_id, start + i, m) for game_id, start, new, *_ in full for i, m in enumerate(new)]
        params = {
            "channel": CHANNEL, "now": time.time(),
            "ids": [c[0] for c in full], "starts": [c[1] for c in full],
            "plies": [c[1] + len(c[2]) for c in full], "statuses": [c[3] for c in full],
            "scores": [json.dumps(c[4]) for c in full], "positions": [c[5] for c in full],
            "clocks": [c[6].state for c in full], "deadlines": [c[6].deadline for c in full],
            "befores": [c[6].before for c in full],
            "move_games": [r[0] for r in rows], "move_plies": [r[1] for r in rows],
            "move_texts": [r[2] for r in rows],
            "payloads": [move_notice(c[0], c[1], c[2]) for c in full],
        }
        return int(conn.exec_driver_sql(_APPEND_POSTGRES, params).scalar() or 0)

    def history_from(self, game_id: str, start: int) -> list[str]:
        """The stored moves of a game from ply ``start`` on (to catch up with another process)."""
        with self.engine.connect() as conn:
            return _moves_of(conn, game_id, start)

    def load_clock(self, game_id: str) -> tuple[int, str | None] | None:
        """A game's stored ply and clock state (JSON), or None if there is no such game."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games.c.ply, games.c.clock).where(games.c.id == game_id)).first()
        return None if row is None else (row[0], row[1])

    def expired(self, now: float, limit: int = 100) -> list[str]:
        """The games on whose clock the running seat's time ran out by ``now`` (soonest first)."""
        with self.engine.connect() as conn:
            return self._expired(conn, now, limit)

    async def expired_async(self, now: float, limit: int = 100) -> list[str]:
        """:meth:`expired` by the writer thread (in its turn: an in-memory database has one
        connection, which no other thread may use while the writer does)."""
        return await self.write(self._expired, now, limit)

    @staticmethod
    def _expired(conn: Connection, now: float, limit: int = 100) -> list[str]:
        return [r for (r,) in conn.execute(
            select(games.c.id).where(games.c.deadline <= now, games.c.status == "playing")
            .order_by(games.c.deadline).limit(limit))]

    async def expire_async(self, game_id: str, ply: int, now: float, clock: str, row: SeatRow) -> bool:
        """:meth:`_expire` by the writer thread."""
        return await self.write(self._expire, game_id, ply, now, clock, row)

    def _expire(self, conn: Connection, game_id: str, ply: int, now: float, clock: str,
                row: SeatRow) -> bool:
        """Record a timeout: the game at ``ply`` whose deadline passed by ``now`` gets its new
        ``clock`` (no deadline) and the seat's new ``row`` (a bot's), and the other processes are
        told.  Returns False, having written nothing, unless this call is the one that changed the
        stored game (one UPDATE conditioned on the ply and a deadline passed: of two processes
        trying at once, the second finds the deadline gone)."""
        done = conn.execute(update(games).where(
            games.c.id == game_id, games.c.ply == ply, games.c.deadline.is_not(None),
            games.c.deadline <= now).values(clock=clock, deadline=None, updated=now)).rowcount
        if not done:
            return False
        self._set_seat(conn, game_id, row)
        self._notify(conn, timeout_notice(game_id, row.seat, ply))
        return True

    def load_seats(self, game_id: str) -> list[SeatRow]:
        with self.engine.connect() as conn:
            return _seats_of(conn, game_id)

    @property
    def in_memory(self) -> bool:
        """Whether the database is SQLite in memory: one connection, gone with the process."""
        return self.url in ("sqlite://", "sqlite:///:memory:")

    # ------------------------------------------------------------------ several processes

    @property
    def shared(self) -> bool:
        """Whether other processes may use this database at the same time (PostgreSQL)."""
        return self.engine.dialect.name == "postgresql"

    def _notify(self, conn: Connection, payload: str) -> None:
        if self.shared:
            conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                         {"channel": CHANNEL, "payload": payload})

    async def notify_async(self, payload: str) -> None:
        """Tell the other processes something that is not stored (e.g. who is connected), by the
        writer thread: sent with the writes waiting there, in their transaction, after them
        (all the notifications of a batch as one statement, :meth:`_notify_many`).  Nothing is
        sent with SQLite (one process)."""
        if self.shared:
            await self.write(self._notify, payload)

    def _notify_many(self, conn: Connection, calls: list[tuple[Any, ...]]) -> list[None]:
        conn.execute(text("SELECT pg_notify(:channel, p) FROM unnest(CAST(:payloads AS text[])) AS p"),
                     {"channel": CHANNEL, "payloads": [payload for (payload,) in calls]})
        return [None] * len(calls)

    def listen(self, callback: Callable[[str], None], on_reconnect: Callable[[], None],
               on_listening: Callable[[], None] | None = None) -> Callable[[], None]:
        """Call ``callback(payload)`` from a thread for every notification of the other processes
        (PostgreSQL ``LISTEN``); ``on_reconnect()`` after the listening connection was lost and is
        back (notifications may have been missed); ``on_listening()``, if given, each time the
        connection listens (the first time too): a notification sent after it is heard.  Returns a
        function that stops listening.  With SQLite (one process) nothing is listened to (and
        ``on_listening`` is called at once).

        The notifications this process's writer sent are left out (told apart by the sending
        backend's process id, :attr:`Writer.backend_pid`): the process made those changes
        itself.  Those sent from another of its connections (a write retried alone after a
        failed batch) still come, and are harmless: a process that gets a notice of what it
        already has ignores it.
        """
        stop = threading.Event()
        if not self.shared:
            if on_listening is not None:
                on_listening()
            return stop.set
        import psycopg

        url = make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)

        def deliver(payload: str) -> None:
            # a notification the callback cannot take is its own matter: the connection goes on
            try:
                callback(payload)
            except Exception:
                log.exception("a notification from another process (%d characters) could not be taken",
                              len(payload))

        def run() -> None:
            delay = 0.2
            first = True
            while not stop.is_set():
                try:
                    with psycopg.connect(url, autocommit=True) as conn:
                        conn.execute(f"LISTEN {CHANNEL}")
                        if on_listening is not None:
                            on_listening()
                        if not first:
                            on_reconnect()
                        first, delay = False, 0.2
                        while not stop.is_set():
                            for note in conn.notifies(timeout=0.5):
                                # this process's own notices (sent by its writer's connection) tell it
                                # nothing new: dropped here, so they do not wake the event loop
                                if note.pid != self._writer.backend_pid:
                                    deliver(note.payload)
                except Exception as exc:   # the database went away: listen again when it is back
                    log.warning("listening for other processes failed (%s); retrying", type(exc).__name__)
                    stop.wait(delay)
                    delay = min(delay * 2, 10.0)

        threading.Thread(target=run, name="hg-listen", daemon=True).start()
        return stop.set

    def load(self, game_id: str) -> StoredGame | None:
        """The setup, move list, seats and creator of a stored game, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games.c.setup, games.c.position, games.c.clock)
                               .where(games.c.id == game_id)).first()
            if row is None:
                return None
            history = _moves_of(conn, game_id)
            seat_rows = _seats_of(conn, game_id)
            creator = conn.execute(select(creators.c.secret_hash)
                                   .where(creators.c.game_id == game_id)).scalar()
        setup: dict[str, Any] = json.loads(row[0])
        return StoredGame(setup, history, seat_rows, creator, row[1], row[2])

    def delete(self, game_id: str) -> bool:
        """Remove a game, its moves and seats; False if there was no such game."""
        return self._write(self._delete, game_id)

    def _delete(self, conn: Connection, game_id: str) -> bool:
        conn.execute(delete(lobby_seats).where(lobby_seats.c.game_id == game_id))
        conn.execute(delete(lobby).where(lobby.c.game_id == game_id))
        conn.execute(delete(reviews).where(reviews.c.game_id == game_id))
        conn.execute(delete(rematch_seats).where(rematch_seats.c.game_id == game_id))
        conn.execute(delete(rematches).where(rematches.c.game_id == game_id))
        conn.execute(delete(chat).where(chat.c.game_id == game_id))
        conn.execute(delete(chat_closed).where(chat_closed.c.game_id == game_id))
        conn.execute(delete(moves).where(moves.c.game_id == game_id))
        conn.execute(delete(seats).where(seats.c.game_id == game_id))
        conn.execute(delete(creators).where(creators.c.game_id == game_id))
        waiting = metadata.tables.get("hg_notify_waiting")   # declared by account_tables (schema 0007)
        if waiting is not None:
            conn.execute(delete(waiting).where(waiting.c.game_id == game_id))
        gone = conn.execute(delete(games).where(games.c.id == game_id)).rowcount
        self._notify(conn, delete_notice(game_id))
        return bool(gone)

    # ------------------------------------------------------------------ chat

    async def add_chat_async(self, game_id: str, channel: ChatChannel, seat: int | None,
                             name: str | None, said: str) -> ChatLine:
        """:meth:`add_chat` by the writer thread."""
        return await self.write(self._add_chat, game_id, channel, seat, name, said)

    def add_chat(self, game_id: str, channel: ChatChannel, seat: int | None, name: str | None,
                 said: str) -> ChatLine:
        """Store a chat line (numbered by the database) and tell the other processes; return it."""
        return self._write(self._add_chat, game_id, channel, seat, name, said)

    def _add_chat(self, conn: Connection, game_id: str, channel: ChatChannel, seat: int | None,
                  name: str | None, said: str) -> ChatLine:
        now = time.time()
        key = conn.execute(insert(chat).values(game_id=game_id, channel=str(channel), seat=seat,
                                               name=name, text=said, at=now)).inserted_primary_key
        assert key is not None
        line: ChatLine = {"number": int(key[0]), "channel": channel, "seat": seat, "name": name,
                          "text": said, "at": now}
        self._notify(conn, encode_notice({"type": NoticeType.CHAT, "game": game_id, "line": line}))
        return line

    # ------------------------------------------------------------------ rematch

    async def rematch_offer_async(self, game_id: str, seat: int, secret_hash: str | None,
                                  creator_hash: str | None) -> RematchState:
        """:meth:`rematch_offer` by the writer thread."""
        return await self.write(self._rematch_offer, game_id, seat, secret_hash, creator_hash)

    def rematch_offer(self, game_id: str, seat: int, secret_hash: str | None,
                      creator_hash: str | None) -> RematchState:
        """Record that ``seat`` of a finished game wants a rematch, with the hash of its new seat's
        secret (None: not known; a hash given once is kept) and, from the creator's page, the hash
        of the new creator secret; tell the other processes; return the rematch as it now stands.
        Nothing changes once the rematch is made.

        The offers of one game are recorded one after the other, on any processes (each takes the
        row of ``hg_rematch`` first): the last offer sees every other one, so that it is the one
        that makes the rematch."""
        return self._write(self._rematch_offer, game_id, seat, secret_hash, creator_hash)

    def _rematch_offer(self, conn: Connection, game_id: str, seat: int, secret_hash: str | None,
                       creator_hash: str | None) -> RematchState:
        now = time.time()
        from sqlalchemy.dialects import postgresql, sqlite

        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        conn.execute(dialect.insert(rematches).values(game_id=game_id, updated=now).on_conflict_do_nothing())
        # the row's lock (PostgreSQL): offers of one game wait for each other
        conn.execute(update(rematches).where(rematches.c.game_id == game_id).values(updated=now))
        state = _rematch_of(conn, game_id)
        if state.new_game is not None:
            return state
        if creator_hash is not None and state.creator_hash is None:
            conn.execute(update(rematches).where(rematches.c.game_id == game_id)
                         .values(creator_hash=creator_hash))
        if seat not in state.wants:
            conn.execute(insert(rematch_seats).values(game_id=game_id, seat=seat, secret_hash=secret_hash))
        elif state.wants[seat] is None and secret_hash is not None:
            conn.execute(update(rematch_seats).where(rematch_seats.c.game_id == game_id,
                                                     rematch_seats.c.seat == seat)
                         .values(secret_hash=secret_hash))
        self._notify(conn, rematch_notice(game_id))
        return _rematch_of(conn, game_id)

    async def rematch_make_async(self, game_id: str, new_id: str, setup: dict[str, Any],
                                 history: list[str], seat_rows: list[SeatRow], creator_hash: str,
                                 position: str | None, clock: ClockWrite) -> RematchState:
        """:meth:`rematch_make` by the writer thread."""
        return await self.write(self._rematch_make, game_id, new_id, setup, history, seat_rows,
                                creator_hash, position, clock)

    def rematch_make(self, game_id: str, new_id: str, setup: dict[str, Any], history: list[str],
                     seat_rows: list[SeatRow], creator_hash: str, position: str | None = None,
                     clock: ClockWrite = NO_CLOCK) -> RematchState:
        """Store the rematch of ``game_id`` as the new game ``new_id`` (as :meth:`create`), unless
        it is made already: one conditional UPDATE, so that of two processes making it at once
        exactly one does; the other's game is not stored.  The new game's seats get the secret
        hashes of the offers (:meth:`rematch_offer`; ``seat_rows``' own where an offer has none) and
        its creator the offered creator hash (else ``creator_hash``).  Returns the rematch as
        stored: ``new_game`` says who made it."""
        return self._write(self._rematch_make, game_id, new_id, setup, history, seat_rows, creator_hash,
                           position, clock)

    def _rematch_make(self, conn: Connection, game_id: str, new_id: str, setup: dict[str, Any],
                      history: list[str], seat_rows: list[SeatRow], creator_hash: str,
                      position: str | None, clock: ClockWrite) -> RematchState:
        if not conn.execute(update(rematches).where(rematches.c.game_id == game_id,
                                                    rematches.c.new_game.is_(None))
                            .values(new_game=new_id, updated=time.time())).rowcount:
            return _rematch_of(conn, game_id)
        state = _rematch_of(conn, game_id)
        if state.creator_hash is None:
            conn.execute(update(rematches).where(rematches.c.game_id == game_id)
                         .values(creator_hash=creator_hash))
        self._create(conn, new_id, setup, history, rematch_rows(seat_rows, state),
                     state.creator_hash or creator_hash, position, clock)
        self._notify(conn, rematch_notice(game_id))
        return _rematch_of(conn, game_id)

    def rematch_of(self, game_id: str) -> RematchState | None:
        """A game's rematch as stored (None: no seat asked for one)."""
        with self.engine.connect() as conn:
            asked = select(rematches.c.game_id).where(rematches.c.game_id == game_id)
            if conn.execute(asked).first() is None:
                return None
            return _rematch_of(conn, game_id)

    def chat_lines(self, game_id: str, last: int | None = None) -> list[ChatLine]:
        """A game's chat lines, oldest first (only the ``last`` ones, if given)."""
        query = select(chat).where(chat.c.game_id == game_id).order_by(chat.c.id.desc())
        if last is not None:
            query = query.limit(last)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [{"number": r.id, "channel": ChatChannel(r.channel), "seat": r.seat, "name": r.name,
                 "text": r.text, "at": r.at} for r in reversed(rows)]

    def watchers_chat_open(self, game_id: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(chat_closed.c.game_id)
                                .where(chat_closed.c.game_id == game_id)).first() is None

    async def set_watchers_chat_async(self, game_id: str, open_: bool) -> None:
        """Open or close a game's watchers' chat (by the writer thread), and tell the others."""
        await self.write(self._set_watchers_chat, game_id, open_)

    def _set_watchers_chat(self, conn: Connection, game_id: str, open_: bool) -> None:
        conn.execute(delete(chat_closed).where(chat_closed.c.game_id == game_id))
        if not open_:
            conn.execute(insert(chat_closed).values(game_id=game_id))
        self._notify(conn, encode_notice({"type": NoticeType.CHAT, "game": game_id,
                                          "watchers_open": open_}))

    def summaries(self, ids: list[str]) -> list[Summary]:
        """The games among ``ids`` that exist, most recently played first (public facts only)."""
        if not ids:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(select(games).where(games.c.id.in_(ids))
                                .order_by(games.c.updated.desc())).all()
            found = [r.id for r in rows]
            by_game: dict[str, list[Any]] = {}
            for r in conn.execute(select(seats).where(seats.c.game_id.in_(found)).order_by(seats.c.seat)):
                by_game.setdefault(r.game_id, []).append(r)
        out = []
        for r in rows:
            try:
                setup, scores = json.loads(r.setup), json.loads(r.scores)
                if not isinstance(setup, dict) or not isinstance(scores, list):
                    raise ValueError("not a setup and a score list")
            except ValueError:   # a damaged row: listed as such, the others are unaffected
                setup, scores, status = {}, [], "damaged"
            else:
                status = r.status
            out.append(Summary(r.id, r.created, r.updated, setup, status, r.ply, scores,
                               _seat_rows(by_game.get(r.id, []))))
        return out

    def count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(games)).scalar() or 0)

    def open_games(self) -> list[tuple[str, dict[str, Any]]]:
        """The games stored before seats had secrets (no seat rows): every page may play them.
        Each as its id and setup (empty when the stored setup cannot be read), oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(games.c.id, games.c.setup)
                                .where(~select(seats.c.seat).where(seats.c.game_id == games.c.id).exists())
                                .order_by(games.c.created)).all()
        out: list[tuple[str, dict[str, Any]]] = []
        for r in rows:
            try:
                setup = json.loads(r.setup)
            except ValueError:
                setup = {}
            out.append((r.id, setup if isinstance(setup, dict) else {}))
        return out

    def secure(self, game_id: str, seat_rows: list[SeatRow], creator_hash: str) -> bool:
        """Give a game stored before seats had secrets its seats and creator (their secrets'
        hashes); False, and nothing written, when it has seats already (or is gone)."""
        def write(conn: Connection) -> bool:
            exists = conn.execute(select(games.c.id).where(games.c.id == game_id)).first() is not None
            taken = conn.execute(select(seats.c.seat).where(seats.c.game_id == game_id)).first()
            if not exists or taken is not None:
                return False
            conn.execute(insert(seats), [{"game_id": game_id, "seat": r.seat, "kind": r.kind,
                                          "level": r.level, "name": r.name, "secret_hash": r.secret_hash,
                                          "joined": r.joined, "account_id": r.account_id}
                                         for r in seat_rows])
            conn.execute(delete(creators).where(creators.c.game_id == game_id))
            conn.execute(insert(creators).values(game_id=game_id, secret_hash=creator_hash))
            return True

        return self._write(write)


#: the schema revision this version of huntgather reads and writes
SCHEMA = "0011"


def _alembic_config(connection: Any) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "huntgather.server:migrations")
    config.attributes["connection"] = connection
    return config


@functools.cache
def _migrations() -> Any:
    """The migrations' ``ScriptDirectory``, read once a process (reading them compiles every script)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_alembic_config(None))


#: the table in which Alembic keeps a database's revision, declared as Alembic's MigrationContext
#: declares it (not on :data:`metadata`: the migrations do not make it, Alembic does)
_alembic_version = Table("alembic_version", MetaData(),
                         Column("version_num", String(32), nullable=False),
                         PrimaryKeyConstraint("version_num", name="alembic_version_pkc"))


def migrate(engine: Engine) -> str:
    """Bring the database to :data:`SCHEMA` (Alembic); return the revision it had before.

    A new database gets every table at once, from :data:`metadata` (the tables
    the migrations make, as tests/test_storage.py checks on both dialects), and
    is stamped :data:`SCHEMA`: Alembic's recipe for a database built from scratch,
    quicker than replaying every migration.  A database from before migrations
    (``hg_games`` without an ``alembic_version``) is the first layout, ``0001``,
    and is upgraded.  A database at :data:`SCHEMA` is left as it is.  A database
    written by a newer huntgather is refused with :class:`SchemaError`, and
    nothing is changed.  On PostgreSQL an advisory lock keeps two processes that
    start at once from migrating twice.

    Alembic itself (a fifth of a second to import) is loaded only when there is
    something to upgrade: the revision is read, and a new database stamped, in
    :data:`_alembic_version`, the table Alembic reads (tests/test_storage.py
    checks that Alembic reads the stamp as :data:`SCHEMA`).
    """
    from sqlalchemy import inspect

    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(4242001)"))
        tables = set(inspect(conn).get_table_names())
        current: str | None = None
        if _alembic_version.name in tables:
            current = conn.execute(select(_alembic_version.c.version_num)).scalar()
        if current == SCHEMA:
            return SCHEMA
        if current is None and not tables:
            metadata.create_all(conn)
            _alembic_version.create(conn)
            conn.execute(insert(_alembic_version).values(version_num=SCHEMA))
            return "new"
        from alembic import command

        known = {s.revision for s in _migrations().walk_revisions()}
        if current is not None and current not in known:
            raise SchemaError(f"the database was written by a newer huntgather (schema {current}; this "
                              f"version knows up to {SCHEMA}): upgrade huntgather, or use another database")
        before = current
        config = _alembic_config(conn)
        if current is None and "hg_games" in tables:
            command.stamp(config, "0001")   # the tables of the first layout, from before migrations
            before = "0001"
        command.upgrade(config, SCHEMA)
    return before or "new"


class MixedBatch(Exception):
    """A bulk write found that some of its calls cannot be made together (see :class:`Writer`)."""


class SchemaError(RuntimeError):
    """The database's tables are of a layout this version cannot use."""


_Waiter = Future[Any] | asyncio.Future[Any]
_Item = tuple[Callable[..., Any], tuple[Any, ...], _Waiter]
_Outcome = tuple[_Waiter, bool, Any]


class Writer:
    """One thread that makes every write, committing those that wait for it together.

    The writes waiting for it run in one transaction: one commit, one disk sync
    for all.  Consecutive calls of a write that has a bulk form (the moves of
    many games, :meth:`Storage._append_many`) are made as one statement per
    table, for the SQL layer's cost is mostly per statement.  A write refused
    by its own check (a conflict) has written nothing and fails alone.  If
    anything else fails part-way (or a bulk write raises :class:`MixedBatch`),
    the batch is rolled back and its writes are taken again, each in a
    savepoint of its own, so a bad write undoes only itself; if the commit
    fails (a full disk, a read-only file), every write of the batch fails and
    none is stored.

    The writer keeps one connection open between batches (a new one after any
    failure).  Each write is awaited through a waiter: an asyncio future (all
    those of one batch are settled by one call into their event loop) or a
    ``concurrent.futures.Future``.
    """

    BATCH = 64

    def __init__(self, engine: Engine, bulk: dict[Callable[..., Any], _Bulk] | None = None,
                 last: set[Callable[..., Any]] | None = None,
                 check: Callable[[], None] | None = None) -> None:
        """``bulk`` maps a write function to one that makes several calls of it at once
        (``bulk_fn(conn, [args, ...])`` returns their results, or raises
        :class:`MixedBatch` when they cannot all be made together).  The calls of
        the functions in ``last`` (whose order among the other writes does not
        matter, such as notifications, which are all sent at the commit) are made
        after the others of their batch, together, so that they do not split the
        runs of a bulk write.  ``check()``, if given, runs before and after each batch: if it raises,
        every write of the batch fails with its exception (the SQLite file vanished, :mod:`.dbfile`)."""
        self.engine = engine
        self.check = check
        self.bulk = dict(bulk or {})
        self.last = set(last or ())
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._conn: Connection | None = None
        #: the writes that failed (not counting conflicts), for the metrics; only this thread adds
        self.failed = 0
        #: the PostgreSQL backend process of the connection the writer holds (None without one,
        #: or on another database); set before the connection is used, cleared before it closes,
        #: so no other backend can have this id while it is set
        self.backend_pid: int | None = None

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...], waiter: _Waiter) -> None:
        """Queue ``fn(conn, *args)``; its result or exception goes to ``waiter``.

        A waiter cancelled before its write starts is not written.
        """
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="hg-writer", daemon=True)
                self._thread.start()
        self._queue.put((fn, args, waiter))

    def stop(self) -> None:
        with self._lock:
            if self._thread is not None:
                self._queue.put(None)
                self._thread.join(10)
                self._thread = None

    def _run(self) -> None:
        try:
            while True:
                item = self._queue.get()
                if item is None:
                    return
                batch = [item]
                stop = False
                while len(batch) < self.BATCH:
                    try:
                        more = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        stop = True
                        break
                    batch.append(more)
                self._commit(batch)
                if isinstance(self.engine.pool, _OneConnectionPool):
                    self._drop_connection()   # the in-memory database's one connection: others' turn
                if stop:
                    return
        finally:
            self._drop_connection()

    def _connection(self) -> Connection:
        if self._conn is None:
            self._conn = self.engine.connect()
            driver = self._conn.connection.driver_connection
            if self.engine.dialect.name == "postgresql" and driver is not None:
                self.backend_pid = driver.info.backend_pid
        return self._conn

    def _drop_connection(self) -> None:
        self.backend_pid = None
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None

    def _commit(self, batch: list[_Item]) -> None:
        batch = [item for item in batch if _start(item[2])]
        if not batch:
            return
        if self._checked([(waiter, True, None) for _fn, _args, waiter in batch]) is not None:
            return
        if self.last:
            batch = ([item for item in batch if item[0] not in self.last]
                     + [item for item in batch if item[0] in self.last])
        outcomes: list[_Outcome] = []
        try:   # the fast way: the whole batch in one transaction, runs of one bulk write as one call
            conn = self._connection()
            with conn.begin():
                i = 0
                while i < len(batch):
                    fn, args, waiter = batch[i]
                    bulk = self.bulk.get(fn)
                    run = 1
                    while bulk is not None and i + run < len(batch) and batch[i + run][0] == fn:
                        run += 1
                    if run > 1:
                        assert bulk is not None
                        results = bulk(conn, [args for _fn, args, _waiter in batch[i:i + run]])
                        outcomes.extend((waiter, True, result) for (_fn, _args, waiter), result
                                        in zip(batch[i:i + run], results, strict=True))
                    else:
                        try:
                            outcomes.append((waiter, True, fn(conn, *args)))
                        except StorageError as exc:   # raised by a check before the write wrote anything
                            outcomes.append((waiter, False, exc))
                    i += run
        except Exception:
            # something failed part-way: take each write again (in a savepoint of its own)
            self._drop_connection()
            outcomes = [self._alone(batch[0])] if len(batch) == 1 else self._one_by_one(batch)
        if self._checked(outcomes) is None:
            _settle(outcomes, self)

    def _checked(self, outcomes: list[_Outcome]) -> Exception | None:
        """Fail every one of ``outcomes`` (and return why) if :attr:`check` raises."""
        try:
            if self.check is not None:
                self.check()
        except Exception as exc:
            _settle([(waiter, False, exc) for waiter, _ok, _value in outcomes], self)
            return exc
        return None

    def _alone(self, item: _Item) -> _Outcome:
        fn, args, waiter = item
        try:
            with self.engine.begin() as conn:
                return (waiter, True, fn(conn, *args))
        except IntegrityError:
            return (waiter, False, ConflictError("another process stored the same rows first"))
        except Exception as exc:
            return (waiter, False, exc)

    def _one_by_one(self, batch: list[_Item]) -> list[_Outcome]:
        outcomes: list[_Outcome] = []
        try:
            with self.engine.begin() as conn:
                for fn, args, waiter in batch:
                    try:
                        with conn.begin_nested():
                            outcomes.append((waiter, True, fn(conn, *args)))
                    except IntegrityError:
                        outcomes.append((waiter, False, ConflictError("another process stored the same "
                                                                      "rows first")))
                    except Exception as exc:
                        outcomes.append((waiter, False, exc))
        except Exception as exc:   # the commit failed: nothing of the batch is stored
            return [(waiter, False, exc) for _fn, _args, waiter in batch]
        return outcomes


def _start(waiter: _Waiter) -> bool:
    """Whether a write is still wanted (its waiter was not cancelled); from then on it cannot be."""
    if isinstance(waiter, Future):
        return waiter.set_running_or_notify_cancel()
    return not waiter.cancelled()


def _settle(outcomes: list[_Outcome], writer: Writer | None = None) -> None:
    """Hand each write's result to its waiter: one call into each event loop for all its waiters
    (and count the failures, but for conflicts, in ``writer``)."""
    if writer is not None:
        writer.failed += sum(1 for _waiter, ok, value in outcomes
                             if not ok and not isinstance(value, ConflictError))
    by_loop: dict[asyncio.AbstractEventLoop, list[_Outcome]] = {}
    for outcome in outcomes:
        waiter = outcome[0]
        if isinstance(waiter, Future):
            _resolve([outcome])
        else:
            by_loop.setdefault(waiter.get_loop(), []).append(outcome)
    for loop, some in by_loop.items():
        with contextlib.suppress(RuntimeError):   # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_resolve, some)


def _resolve(outcomes: list[_Outcome]) -> None:
    for waiter, ok, value in outcomes:
        if waiter.done():   # cancelled meanwhile
            continue
        if ok:
            waiter.set_result(value)
        else:
            waiter.set_exception(value)


def _with_position(call: tuple[Any, ...]) -> tuple[Any, ...]:
    """An :meth:`Storage._append` call's arguments with the position and clock (None and
    :data:`NO_CLOCK` when not given)."""
    return (*call, None, NO_CLOCK)[:7] if len(call) == 5 else (*call, NO_CLOCK)[:7]


def _moves_of(conn: Connection, game_id: str, start: int = 0) -> list[str]:
    return [m for (m,) in conn.execute(select(moves.c.move).where(
        moves.c.game_id == game_id, moves.c.ply >= start).order_by(moves.c.ply))]


def _seats_of(conn: Connection, game_id: str) -> list[SeatRow]:
    return _seat_rows(conn.execute(select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat)))


def _rematch_of(conn: Connection, game_id: str) -> RematchState:
    row = conn.execute(select(rematches.c.new_game, rematches.c.creator_hash)
                       .where(rematches.c.game_id == game_id)).first()
    wants = {int(seat): h for seat, h in conn.execute(
        select(rematch_seats.c.seat, rematch_seats.c.secret_hash)
        .where(rematch_seats.c.game_id == game_id).order_by(rematch_seats.c.seat))}
    return RematchState(wants, None if row is None else row[0], None if row is None else row[1])


def rematch_rows(seat_rows: list[SeatRow], state: RematchState) -> list[SeatRow]:
    """The rematch's seats with the secret hashes its offers carry (their own where none).

    >>> rows = [SeatRow(0, "human", None, "Ann", "aa", False), SeatRow(1, "bot", "easy", None, None, False)]
    >>> [r.secret_hash for r in rematch_rows(rows, RematchState({0: "cc", 1: None}))]
    ['cc', None]
    """
    return [replace(r, secret_hash=state.seat_hash(r.seat, r.secret_hash)) for r in seat_rows]


def _seat_rows(rows: Any) -> list[SeatRow]:
    return [SeatRow(r.seat, r.kind, r.level, r.name, r.secret_hash, bool(r.joined), r.account_id)
            for r in rows]


def _sqlite_begin(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None   # no implicit BEGIN by the driver (see _sqlite_begin)
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    # WAL: readers never wait for the writer; a busy database waits up to 5 s instead of failing
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()
