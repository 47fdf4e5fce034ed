"""Live games ("rooms"): seats and who holds them, the one owner that serializes moves, bots, hints.

A :class:`Room` owns one :class:`~huntgather.game.Game`.  Every change goes
through the room's ``asyncio.Lock``: moves are checked on a copy, stored, and
only then become the room's game and are pushed to every connected page as an
``update`` (see ``docs/protocol.md``).  Pushing never waits on a page (each has
a bounded outbox, :mod:`huntgather.server.connection`).  A request that cannot
be honoured raises :class:`RequestError` and changes nothing.

Tiles are drawn when they are due, from ``random.SystemRandom`` (or the
``draws`` source given to :class:`Rooms`), unless the creator chose a seed
(a seeded deal).  Nothing sent to a page before the game is over holds the seed.

>>> setup = GameSetup.from_json({"seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
...                              "seed": 5, "short": 6})
>>> game = build_game(setup)
>>> game.players, len(game.state.normal) + 1   # one tile of the six is already drawn
(2, 6)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import re
import secrets as system_secrets
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

from huntgather import tutorial
from huntgather.bots import make_bot
from huntgather.bots.base import Limits
from huntgather.deals import deal_orders
from huntgather.editions import get_edition
from huntgather.events import Event
from huntgather.game import Game
from huntgather.moves import Draw, Move, Place, parse_move
from huntgather.record import RecordError, load_position, write_position
from huntgather.server import protocol, ratings
from huntgather.server.chat import chat_budget, clean_chat
from huntgather.server.clock import ClockState
from huntgather.server.codec import ProtocolError, dumps
from huntgather.server.connection import CLOSE_GONE, Budget, Connection
from huntgather.server.hint_pool import HintPool
from huntgather.server.messages import (
    CHAT_HISTORY,
    AskNotice,
    ChatChannel,
    ChatIntent,
    ChatLine,
    ChatNotice,
    ChatWatchersIntent,
    ClockView,
    DeleteNotice,
    ErrorCode,
    Hello,
    Hint,
    HintIntent,
    HintTurn,
    LobbyView,
    MessageType,
    MoveNotice,
    Name,
    NoticeType,
    PresenceNotice,
    Preview,
    PreviewIntent,
    Rematch,
    RematchIntent,
    RematchNotice,
    ReplayView,
    Resign,
    SeatChange,
    SeatNotice,
    SeatSecret,
    Snapshot,
    Table,
    TableSeat,
    Timeout,
    TimeoutNotice,
    Turn,
    Undo,
    Update,
    decode_notice,
    encode_notice,
)
from huntgather.server.messages import Move as MoveJson
from huntgather.server.metrics import Tally
from huntgather.server.protocol import move_from_json, move_to_json
from huntgather.server.seats import (
    Deal,
    GameSetup,
    RequestError,
    Seat,
    SeatKind,
    clean_name,
    hash_secret,
    new_secret,
    rematch_secret,
    secret_matches,
)
from huntgather.server.storage import (
    NO_CLOCK,
    ClockWrite,
    ConflictError,
    Listing,
    RematchState,
    SeatRow,
    Storage,
    StoredGame,
    TimedOutError,
    clock_key,
    seat_row,
)
from huntgather.server.words import square_words
from huntgather.server.workers import Priority, Workers, choose_move, suggest
from huntgather.state import IllegalMoveError, State
from huntgather.svg import PLAYER_NAMES

if TYPE_CHECKING:
    from huntgather.server.accounts import Account
    from huntgather.server.notify import Notifier

log = logging.getLogger("huntgather.server")

__all__ = ["GameSetup", "RequestError", "Room", "Rooms", "build_game", "replay_game",
           "restore_game"]

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
#: a page further behind than this many events gets a snapshot instead of the missed events
MAX_CATCH_UP = 400
#: the most watchers a game takes, by default (every one costs each change a message to send)
MAX_WATCHERS = 200
#: the most games of bots alone one creator may have going at once in a process (``--bot-games-per-creator``)
BOT_GAMES_PER_CREATOR = 4
#: the seconds before a rating that failed is tried again (doubling while it fails)
RATING_RETRY = 5.0


# --------------------------------------------------------------------------- games


def build_game(setup: GameSetup, rng: random.Random | None = None) -> Game:
    """The game a setup starts (its first tile already drawn).

    A seeded deal draws from ``random.Random(seed)``; a secret deal from
    ``rng`` (by default the operating system's random source); a mirrored deal
    (``setup.mirror``) in the order of that deal of a tournament with the seed.
    """
    if setup.tutorial is not None:   # the guided game's start, its draws in the script's order
        return tutorial.new_game(setup.tutorial)
    state = State.new(len(setup.seats), setup.edition, setup.start_player)
    if setup.mirror is not None:   # a tournament's deal: both stacks' orders fixed by the seed
        normal, bonus = deal_orders(setup.edition, setup.seed, setup.mirror)
        if setup.short is not None:
            state.normal = tuple(sorted(normal[:setup.short]))
        return Game(len(setup.seats), seed=setup.seed, state=state, normal_order=normal, bonus_order=bonus)
    seeded = setup.deal == Deal.SEEDED
    draws = rng or random.SystemRandom()
    if setup.short is not None:
        short_rng = random.Random(f"short-{setup.seed}") if seeded else draws
        state.normal = tuple(sorted(short_rng.sample(state.normal, setup.short)))
    if seeded:
        return Game(len(setup.seats), seed=setup.seed, state=state)
    return Game(len(setup.seats), seed=setup.seed, state=state, rng=draws)


#: the start of a stored entry that takes turns back: ``undo 17`` cuts the moves back to the first 17
UNDO = "undo "


def undo_entry(keep: int) -> str:
    """The stored entry that cuts a game's moves back to its first ``keep``.

    >>> undo_entry(17), effective_history(["d3", "3@0,1r0", "-", "d7", undo_entry(1), "3@1,0r0"])
    ('undo 17', (['d3', '3@1,0r0'], [7]))
    """
    return f"{UNDO}{keep}"


def effective_history(stored: Sequence[str]) -> tuple[list[str], list[int]]:
    """The moves of a stored history once its ``undo`` entries are applied, and the tiles the undone
    draws had brought, the last undo's first (they are drawn again first, in that order, so that
    taking a turn back brings no new luck)."""
    moves: list[str] = []
    undone: list[int] = []
    for entry in stored:
        if entry.startswith(UNDO):
            keep = int(entry[len(UNDO):])
            if not 0 <= keep <= len(moves):
                raise ValueError(f"{entry!r} takes back more moves than there are ({len(moves)})")
            undone = [m.tile for m in map(parse_move, moves[keep:]) if isinstance(m, Draw)] + undone
            del moves[keep:]
        else:
            moves.append(entry)
    return moves, undone


def restore_game(setup: GameSetup, history: Sequence[str], rng: random.Random | None = None,
                 position: str | None = None) -> Game:
    """Rebuild a stored game from its stored ``position`` and its moves.

    A game stored with its position *is* that position: the board, scores and pieces come from
    it, so a game in progress keeps them even under a huntgather whose rules or tiles differ from
    the one that stored it.  Its moves are replayed to rebuild its log; when they lead to the
    same position, the replayed game (with its log) is the game.  When they no longer replay, or
    lead elsewhere, the game goes on from the position, with no log of what came before, drawing
    its next tiles from ``rng`` (a warning is logged).  A seeded deal must draw what its seed
    gives, so its replay wins whenever it succeeds.  A game stored without a position (before
    schema 0003) is its replay.  Raises :class:`ValueError` when nothing works.
    """
    state = None
    if position is not None:
        try:
            state = load_position(position, edition=setup.edition)
        except RecordError as bad:
            log.warning("a stored position cannot be read (%s): the moves alone rebuild the game", bad)
    try:
        game = replay_game(setup, history, rng)
    except (ValueError, IllegalMoveError) as exc:
        if state is None:
            raise
        log.warning("stored moves no longer replay (%s): the game goes on from its stored position", exc)
        return _resume(setup, history, state, rng)
    if state is None or game.state == state or setup.deal == Deal.SEEDED:
        return game
    log.warning("stored moves replay to another position than the stored one (a rule or tile changed "
                "since): the game goes on from its stored position")
    return _resume(setup, history, state, rng)


def _resume(setup: GameSetup, history: Sequence[str], state: State, rng: random.Random | None) -> Game:
    """The stored game at ``state``, its moves kept (for versions and replays) but not replayed."""
    moves, _ = effective_history(history)
    return Game.resume(_start(setup), [parse_move(m) for m in moves], state, seed=setup.seed,
                       rng=rng or random.SystemRandom())


def _start(setup: GameSetup) -> State:
    """The position a stored game started from (a secret deal's short stack as stored)."""
    if setup.deal == Deal.SEEDED:
        return build_game(setup).initial
    state = State.new(len(setup.seats), setup.edition, setup.start_player)
    if setup.stack is not None:
        state.normal = setup.stack
    return state


def replay_game(setup: GameSetup, history: Sequence[str], rng: random.Random | None = None) -> Game:
    """Replay a stored game exactly: player moves are played again, the stored draws are taken.

    A seeded deal's stored draws must be what its seed gives (raises
    :class:`ValueError` otherwise: a record from a different engine version);
    a secret deal's draws are taken as stored, and the tiles still to come are
    drawn from ``rng`` when they are due, after the tiles of the draws taken back
    (:func:`effective_history`).  ``undo`` entries are applied: the game is the one they leave.
    """
    kept, undone = effective_history(history)
    parsed = [parse_move(text) for text in kept]
    if setup.deal == Deal.SEEDED:
        game = build_game(setup)
    else:
        state = _start(setup)
        bonus_ids = set(get_edition(setup.edition).tiles.bonus_ids)
        draws = [m.tile for m in parsed if isinstance(m, Draw)] + undone
        game = Game(len(setup.seats), seed=setup.seed, state=state, rng=rng or random.SystemRandom(),
                    normal_order=[t for t in draws if t not in bonus_ids],
                    bonus_order=[t for t in draws if t in bonus_ids])
    for i, move in enumerate(parsed):
        if isinstance(move, Draw):
            if i >= len(game.history) or game.history[i] != move:
                raise ValueError(f"stored move {i} ({move}) differs from the replay")
            continue
        if len(game.history) != i:
            raise ValueError(f"stored move {i} ({move}) comes before the draws the replay needs")
        try:
            game.play(move)
        except IllegalMoveError as exc:
            raise ValueError(f"stored move {i} ({move}) is illegal: {exc}") from None
    if [str(m) for m in game.history] != kept:
        raise ValueError("the replay does not end where the stored game does")
    return game


def _plan_json(state: State, plan: Sequence[Move]) -> list[MoveJson]:
    walk = state.copy()
    out = []
    for move in plan:
        out.append(move_to_json(walk, move))
        walk.apply(move)
    return out


# --------------------------------------------------------------------------- rooms


#: the default of :attr:`Rooms.lobby_expiry`, seconds (``huntgather play --lobby-expiry``, minutes)
LOBBY_EXPIRY = 30 * 60.0
#: the default of :attr:`Rooms.presence_every`, seconds
PRESENCE_EVERY = 10.0


def open_access_secret(game_id: str, seat: int | None) -> str:
    """What a page holds a seat (or, ``None``, the creator's place) of a game stored before seats
    had secrets by: the game's id, which holds every seat of it; a rematch's secrets are derived
    from it as from a secret (:func:`rematch_secret`), so the rematch is as open as the game was
    to whoever has its id, and no more."""
    return f"open access {game_id} {'creator' if seat is None else seat}"


class _MadeElsewhere(Exception):
    """Another process made the rematch first (:meth:`Rooms.create`): ``state`` is it."""

    def __init__(self, state: RematchState) -> None:
        super().__init__("the rematch was made elsewhere")
        self.state = state


@dataclass
class SeatState:
    """A seat now: who plays it, its name, whether its link was opened, and its secret's hash."""

    kind: SeatKind
    level: str | None
    name: str | None
    secret_hash: str | None
    joined: bool = False
    #: the account holding the seat (kept when a bot takes it over: the person who left)
    account_id: int | None = None

    def row(self, seat: int) -> SeatRow:
        return SeatRow(seat, str(self.kind), self.level, self.name, self.secret_hash, self.joined,
                       self.account_id)


@dataclass
class Room:
    """One live game, its seats and the pages connected to it."""

    id: str
    setup: GameSetup
    game: Game
    storage: Storage
    seats: list[SeatState]
    creator_hash: str | None
    #: a game stored before seats had secrets: every page holds every person seat
    open_access: bool = False
    workers: Workers = field(default_factory=lambda: Workers(processes=False))
    hints: HintPool = field(default_factory=HintPool)
    bot_delay: float = 0.6
    #: the most watchers (pages holding no seat, nor the creator's secret) this game takes; 0: any
    max_watchers: int = MAX_WATCHERS
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Connection] = field(default_factory=set)
    #: the bot level of each bot seat
    bots: dict[int, str] = field(default_factory=dict)
    #: counts seat changes, so a bot's search made for a seat that changed hands is dropped
    seat_changes: int = 0
    #: version -> number of events at that version, to send a page exactly what it missed
    marks: dict[int, int] = field(default_factory=dict)
    closed: bool = False
    #: open sockets on this game (also before their hello): a room with any is never dropped
    sockets: int = 0
    #: pages on other processes: process id -> (seats held, watchers)
    remote: dict[str, tuple[set[int], int]] = field(default_factory=dict)
    #: when each process in :attr:`remote` last told its pages (event loop time)
    remote_heard: dict[str, float] = field(default_factory=dict)
    #: called when this process's pages change (to tell the other processes)
    on_presence: Callable[[Room], None] | None = None
    #: the server's counts (moves stored, hints refused), shared by its rooms
    tally: Tally = field(default_factory=Tally)
    #: the process is stopping: no bot starts another search (:meth:`Rooms.drain`)
    draining: bool = False
    #: stored entries beyond the game's moves: ``undo`` entries and the moves they took back
    undone: int = 0
    #: the draw source of a secret deal rebuilt after an undo
    draws: Callable[[], random.Random] = random.SystemRandom
    #: called with the game's id when this process stores the move that ends a rated game
    on_rated_end: Callable[[str], None] | None = None
    #: the latest chat lines (at most :data:`CHAT_HISTORY`), oldest first
    chat_log: list[ChatLine] = field(default_factory=list)
    #: whether watchers may write in their chat channel
    watchers_open: bool = True
    #: each page's budget of chat lines
    chat_budgets: weakref.WeakKeyDictionary[Connection, Budget] = field(
        default_factory=weakref.WeakKeyDictionary)
    #: once the game is over: its rematch as stored (the seats that want one, the new game once
    #: made), None while no seat asked
    rematch_state: RematchState | None = None
    #: held while a rematch is asked for and made
    rematch_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: makes the rematch's game (:meth:`Rooms.create_rematch`), returns the rematch as stored
    on_rematch: Callable[[Room], Awaitable[RematchState]] | None = None
    #: the game's clock as stored (None: the game has none), :mod:`huntgather.server.clock`
    clock: ClockState | None = None
    #: called when the turn passes to a seat held by an account with no page on it:
    #: ``(game, seat, account, version)`` (:meth:`huntgather.server.notify.Notifier.turn_passed`)
    on_turn: Callable[[str, int, int, int], None] | None = None
    #: called when a page holding an account's seat opens the game: ``(game, account)``
    on_seen: Callable[[str, int], None] | None = None
    #: a game listed in the public lobby: its seats still open there (no move is made, no bot
    #: moves and no clock runs until they are taken), and when the listing expires
    open_seats: set[int] = field(default_factory=set)
    lobby_expires: float | None = None
    #: who created the game (``account:ID`` or ``address:IP``, as the creation limits count), while
    #: this process remembers it; its bots' searches take turns with other creators' by it
    creator_key: str | None = None
    _bot_task: asyncio.Task[None] | None = None
    #: the catch-ups already encoded at this version of this game (:meth:`_catch_up_text`), by the
    #: version they start from (None: a snapshot), and the game and version they are of
    _catch_ups: dict[int | None, str] = field(default_factory=dict, init=False, repr=False)
    _catch_ups_of: tuple[Game | None, int] = field(default=(None, -1), init=False, repr=False)
    #: the rows of the game's last live projection, the next one's made from them (a move changes
    #: one or two of them: :class:`~huntgather.server.protocol.Projected`)
    _projected: protocol.Projected = field(default_factory=protocol.Projected, init=False, repr=False)

    def __post_init__(self) -> None:
        self._make_bots()
        self.marks[self.version] = len(self.game.events)

    def _make_bots(self) -> None:
        self.bots = {i: s.level or "easy" for i, s in enumerate(self.seats) if s.kind == SeatKind.BOT}
        self.seat_changes += 1

    @property
    def version(self) -> int:
        """The number of entries stored: the game's moves, and any undo entries and the moves they
        took back (so that a version, once seen, never comes again)."""
        return len(self.game.history) + self.undone

    # ------------------------------------------------------------------ views

    def snapshot(self) -> Snapshot:
        return protocol.snapshot(self.game, self.id, self.setup.seed, str(self.setup.deal),
                                 version=self.version, rated=self.setup.rated,
                                 projections=self.setup.projections, tutorial=self.setup.tutorial,
                                 projected=self._projected)

    def table(self) -> Table:
        online, watchers = self.presence()
        for held, count in self.remote.values():   # pages connected to other processes
            online |= held
            watchers += count
        seats: list[TableSeat] = [{"seat": i, "kind": s.kind, "level": s.level, "name": s.name,
                                   "joined": s.joined, "online": s.kind == SeatKind.BOT or i in online,
                                   "account": s.account_id is not None}
                                  for i, s in enumerate(self.seats)]
        table: Table = {"type": MessageType.TABLE, "watchers": watchers, "rated": self.setup.rated,
                       "seats": seats}
        if self.rematch_state is not None and self.rematch_state.wants:
            table["rematch"] = sorted(self.rematch_state.wants)
        clock = self.clock_view()
        if clock is not None:
            table["clock"] = clock
        if self.open_seats and self.lobby_expires is not None:
            table["lobby"] = LobbyView(open=sorted(self.open_seats), expires=self.lobby_expires)
        return table

    def clock_view(self) -> ClockView | None:
        """The clock as the pages see it, now (None: the game has no clock)."""
        if self.clock is None or self.setup.clock is None:
            return None
        now = time.time()
        return {"kind": self.setup.clock.kind, "left": [round(x, 3) for x in self.clock.left_now(now)],
                "running": self.clock.seat, "deadline": self.clock.deadline, "now": now,
                "version": self.version, "out": list(self.clock.out)}

    def _running(self, game: Game) -> int | None:
        """The seat whose time runs in ``game``: the player to move, unless a bot plays it."""
        if game.is_over:
            return None
        player = game.state.current_player
        return None if player in self.bots else player

    def _next_clock(self, game: Game, now: float) -> ClockWrite:
        """The clock once ``game`` (this game with more moves) is stored at ``now``."""
        if self.clock is None or self.setup.clock is None:
            return NO_CLOCK
        played = game.history[len(self.game.history):]
        before = self.game.state.current_player
        turn_over = game.is_over or any(isinstance(m, Draw) for m in played) \
            or game.state.current_player != before
        new = self.clock.after_turn(self.setup.clock, now=now, turn_over=turn_over,
                                    running=self._running(game))
        return ClockWrite(new.to_json(), new.deadline, self.clock.deadline)

    def broadcast(self, message: Mapping[str, Any]) -> None:
        """Queue ``message`` for every page (encoded once; never waits)."""
        text = dumps(message)
        for conn in list(self.conns):
            conn.push(text)

    def broadcast_table(self) -> None:
        """Queue the :meth:`table` for every page, in place of one still waiting in its outbox (a
        table only says who is there now: one superseded before it went out is never sent)."""
        text = dumps(self.table())
        for conn in list(self.conns):
            conn.push(text, latest=MessageType.TABLE)

    def _catch_up_text(self, since: int | None) -> str | None:
        """What a page at version ``since`` needs, as sent: nothing, an update, or a snapshot (when
        ``since`` is unknown or too far back). Built and encoded once per version of the game for
        every page that needs the same one (the pages of a game that open or resync at one
        version, a watcher storm), not once per page."""
        if since == self.version:
            return None
        if self._catch_ups_of[0] is not self.game or self._catch_ups_of[1] != self.version:
            self._catch_ups.clear()
            self._catch_ups_of = (self.game, self.version)
        start = self.marks.get(since) if since is not None else None
        if start is not None and len(self.game.events) - start > MAX_CATCH_UP:
            start = None
        key = None if start is None else since   # None: a snapshot
        text = self._catch_ups.get(key)
        if text is None:
            if start is None:
                catch_up: Snapshot | Update = self.snapshot()
            else:
                assert since is not None
                catch_up = protocol.update(self.game, self.id, self.setup.seed, since,
                                           self.game.events[start:], self.version,
                                           projections=self.setup.projections, projected=self._projected)
            text = self._catch_ups[key] = dumps(catch_up)
        return text

    # ------------------------------------------------------------------ joining

    async def attach(self, conn: Connection, msg: Hello) -> None:
        """Answer a page's ``hello``: bind its seats, send what it needs, tell the others.

        A secret that holds nothing in this game costs only itself: the page holds the seats of
        the others, and ``welcome`` names the refused ones by their place in ``secrets`` (nothing
        more: not whether the secret was ever valid, nor for what).  A seat counts as joined once
        a page holds it, except the page that holds the creator's secret and several seats: that
        is the creator's page before it hands the links out (a hotseat), not a player who came.
        """
        raw = msg.get("secrets", [])
        since = msg.get("version")
        given = msg.get("name")
        name = clean_name(given) if given else None
        async with self.lock:
            held: set[int] = set()
            creator = False
            refused: list[int] = []
            secrets_given: dict[int, str] = {}
            creator_secret: str | None = None
            for k, secret in enumerate(raw):
                seats = [i for i, s in enumerate(self.seats) if secret_matches(secret, s.secret_hash)]
                is_creator = secret_matches(secret, self.creator_hash)
                if not seats and not is_creator:
                    refused.append(k)
                held.update(seats)
                secrets_given.update(dict.fromkeys(seats, secret))
                if is_creator:
                    creator_secret = secret
                creator = creator or is_creator
            by_secret = set(held)
            account = conn.account_id
            if self.open_access:
                held = {i for i, s in enumerate(self.seats) if s.kind == SeatKind.HUMAN}
                creator, refused = True, []
                # no secrets: the game's id is what every page holds it by (its rematch's secrets
                # are derived from that, :func:`open_access_secret`)
                secrets_given = {i: open_access_secret(self.id, i) for i in held}
                creator_secret = open_access_secret(self.id, None)
            elif account is not None:   # a signed-in page holds its account's seats, secret or not
                held |= {i for i, s in enumerate(self.seats)
                         if s.account_id == account and s.kind == SeatKind.HUMAN}
            if not held and not creator and self.max_watchers:
                watchers = self.table()["watchers"]   # of every process
                if watchers >= self.max_watchers:
                    raise RequestError(ErrorCode.TOO_MANY_WATCHERS,
                                       f"this game has {watchers} watchers, as many as it takes; "
                                       f"try again later")
            hotseat = creator and len(by_secret) > 1
            claims = set() if hotseat or self.open_access else self._claims(account, by_secret)
            for i in sorted(held):
                seat = self.seats[i]
                new = replace(seat, joined=seat.joined or not hotseat, name=seat.name or name)
                if i in claims:
                    new = replace(new, account_id=account, name=conn.account_name)
                if new != seat:
                    await self._store_seat(i, new, required=False)
            conn.held, conn.creator, conn.ready = held, creator, True
            conn.secrets, conn.creator_secret = secrets_given, creator_secret
            if self.on_seen is not None:
                for account_id in {self.seats[i].account_id for i in held} - {None}:
                    assert account_id is not None
                    self.on_seen(self.id, account_id)
            conn.by_account = held - by_secret
            welcome = protocol.welcome(self.id, held, creator, self.version, refused, conn.heartbeat)
            if self.setup.rated:
                welcome["rated"] = True
            conn.push(dumps(welcome))
            self.conns.add(conn)
            catch_up = self._catch_up_text(since)
        self.broadcast_table()
        if self.on_presence is not None:
            self.on_presence(self)
        if catch_up is not None:
            conn.push(catch_up)
        self.wake_bots()   # a resting game of bots alone goes on now that a page watches it
        if self.chat_log or not self.watchers_open:
            conn.push(dumps({"type": MessageType.CHAT_LOG, "lines": self.chat_log[-CHAT_HISTORY:],
                             "watchers_open": self.watchers_open}))
        if self.rematch_state is not None and self.rematch_state.new_game is not None:
            self._send_rematch(conn, again=True)   # made while this page was away

    def _claims(self, account: int | None, by_secret: set[int]) -> set[int]:
        """The seats a signed-in page holding ``by_secret`` takes for its account: the person
        seats of no account yet (in a rated game, one at most, and none if the account holds a
        seat of the game already).  Not a hotseat's: its creator hands the links out."""
        if account is None:
            return set()
        free = sorted(i for i in by_secret
                      if self.seats[i].account_id is None and self.seats[i].kind == SeatKind.HUMAN)
        if not self.setup.rated:
            return set(free)
        if any(s.account_id == account for s in self.seats):
            return set()
        return set(free[:1])

    def detach(self, conn: Connection) -> None:
        if conn in self.conns:
            self.conns.discard(conn)
            if not self.closed:
                self.broadcast_table()
                if self.on_presence is not None:
                    self.on_presence(self)

    async def _store_seat(self, seat: int, new: SeatState, *, required: bool = True) -> None:
        """Store and apply a seat's new state; if storing fails, raise (or, unless ``required``, keep
        the change in memory only and log it).  A seat open in the lobby is spoken for then
        (:meth:`Storage._set_seat`); with the last one the game leaves the lobby and its clock
        starts."""
        start = self._filled_clock(seat, new)
        try:
            await self.storage.set_seat_async(self.id, new.row(seat),
                                              NO_CLOCK if start is None else ClockWrite(start.to_json(),
                                                                                       start.deadline))
        except Exception as exc:
            log.error("game %s: storing seat %d failed: %s", self.id, seat, exc)
            if required:
                raise RequestError("storage_failed", "the change could not be stored, so it was not "
                                                     "made; try again in a moment") from None
        else:
            self._left_lobby(seat, start)
        self.seats[seat] = new

    # ------------------------------------------------------------------ the public lobby

    def _filled_clock(self, seat: int, new: SeatState) -> ClockState | None:
        """The clock that starts if ``seat``, taking ``new``, is the last seat open in the lobby
        (None: it is not, or the game has no clock): the player to move's time runs from now,
        unless a bot plays it."""
        if self.open_seats != {seat} or self.clock is None or self.clock.seat is not None \
                or self.game.is_over:
            return None
        player = self.game.state.current_player
        kind = new.kind if player == seat else self.seats[player].kind
        return replace(self.clock, seat=None if kind == SeatKind.BOT else player, since=time.time())

    def _left_lobby(self, seat: int, start: ClockState | None) -> None:
        """``seat`` is no longer open in the lobby (stored); the game starts with the last one."""
        if seat not in self.open_seats:
            return
        self.open_seats.discard(seat)
        if not self.open_seats:
            self.lobby_expires = None
            if start is not None:
                self.clock = start
            log.info("game %s: its open seats are taken; it leaves the lobby and starts", self.id)

    async def take_seat(self, seat: int, account: Account | None, name: str | None) -> str:
        """A person takes a seat open in the lobby: the seat gets a new secret (returned), their
        account (if signed in) and name; every page is told.  Refused unless the seat is open
        (of two people taking it at once, on any processes, one wins: ``seat_taken``), in a
        rated game unless signed in, and for an account holding a seat of the game already."""
        async with self.lock:
            if not 0 <= seat < len(self.seats):
                raise RequestError(ErrorCode.SEAT_NOT_OPEN, f"there is no seat {seat}")
            if not self.open_seats:
                raise RequestError(ErrorCode.NOT_LISTED, "this game is not in the lobby any more: its "
                                                         "seats are taken, or it expired")
            if seat not in self.open_seats:
                if seat in self.setup.open_seats:
                    raise RequestError(ErrorCode.SEAT_TAKEN, "someone took this seat first")
                raise RequestError(ErrorCode.SEAT_NOT_OPEN, f"seat {seat} is not open to take")
            if self.setup.rated and account is None:
                raise RequestError(ErrorCode.SIGN_IN_REQUIRED, "sign in to take a seat in a rated game")
            if account is not None and any(s.account_id == account.id for s in self.seats):
                raise RequestError(ErrorCode.ALREADY_SEATED, "you hold a seat of this game already")
            secret = new_secret()
            new = SeatState(SeatKind.HUMAN, None, account.name if account is not None else name,
                            hash_secret(secret), True, None if account is None else account.id)
            start = self._filled_clock(seat, new)
            try:
                taken = await self.storage.take_seat_async(
                    self.id, new.row(seat), NO_CLOCK if start is None
                    else ClockWrite(start.to_json(), start.deadline))
            except Exception as exc:
                log.error("game %s: taking seat %d failed: %s", self.id, seat, exc)
                raise RequestError(ErrorCode.STORAGE_FAILED, "the seat could not be taken; try again in "
                                                             "a moment") from None
            if not taken:   # another process gave it first (its notice may still be on its way)
                await self._read_lobby()
                raise RequestError(ErrorCode.SEAT_TAKEN, "someone took this seat first")
            self.seats[seat] = new
            self._left_lobby(seat, start)
            for other in self.conns:   # nobody held it, but a page may have kept its first secret
                other.held.discard(seat)
        self.broadcast_table()
        self.wake_bots()
        return secret

    async def hand_back(self, seat: int) -> str:
        """The lister's seat of a game still waiting in the lobby, for its lister asking again
        (quick match): the seat gets a new secret (returned; one conditional UPDATE, so of two
        asking at once one wins); the pages that held it by the old one no longer do."""
        async with self.lock:
            old = self.seats[seat] if 0 <= seat < len(self.seats) else None
            if not self.open_seats or old is None or seat in self.open_seats or old.kind != SeatKind.HUMAN:
                raise RequestError(ErrorCode.NOT_LISTED, "this game is not in the lobby any more")
            secret = new_secret()
            new = replace(old, secret_hash=hash_secret(secret))
            try:
                done = await self.storage.rekey_listed_seat_async(self.id, new.row(seat), old.secret_hash)
            except Exception as exc:
                log.error("game %s: handing seat %d back failed: %s", self.id, seat, exc)
                raise RequestError(ErrorCode.STORAGE_FAILED, "the seat could not be handed back; try "
                                                             "again in a moment") from None
            if not done:
                raise RequestError(ErrorCode.NOT_LISTED, "this game is not in the lobby any more")
            self.seats[seat] = new
            for other in self.conns:   # a re-keyed seat: the pages open with the old secret lose it
                other.held.discard(seat)
                other.secrets.pop(seat, None)
        self.broadcast_table()
        return secret

    async def _read_lobby(self) -> None:
        """Read back which seats are open in the lobby, and the clock (another process changed
        them)."""
        open_, expires = await asyncio.to_thread(self.storage.lobby_open, self.id)
        self.open_seats, self.lobby_expires = set(open_), expires
        await self._read_clock(self.version)

    # ------------------------------------------------------------------ checks

    def _holder(self, conn: Connection, seat: int) -> int:
        if seat not in conn.held:
            if conn.watcher:
                raise RequestError("not_your_seat", "you are watching this game: only its players can move")
            raise RequestError("not_your_seat", f"you do not hold seat {seat}; your seats: "
                                                f"{', '.join(map(str, sorted(conn.held)))}")
        return seat

    def _check_current(self, version: int) -> None:
        """The game is on and the request was made at its current version."""
        if self.game.is_over:
            raise RequestError("game_over", "the game is over")
        if version != self.version:
            raise RequestError("stale", f"your view is out of date (version {version}; the game is at "
                                        f"{self.version})")

    def _check_turn(self, seat: int, version: int) -> None:
        """:meth:`_check_current`, and it is ``seat``'s turn (a person's), and no seat waits in the
        lobby."""
        self._check_current(version)
        if self.open_seats:
            raise RequestError(ErrorCode.WAITING_FOR_PLAYERS, "the game starts once its open seats are "
                                                              "taken in the lobby")
        player = self.game.state.current_player
        if player in self.bots:
            raise RequestError("not_your_turn", f"it is {PLAYER_NAMES[player]}'s turn, and a bot "
                                                f"plays {PLAYER_NAMES[player]}")
        if seat != player:
            raise RequestError("not_your_turn", f"it is {PLAYER_NAMES[player]}'s turn, not "
                                                f"{PLAYER_NAMES[seat]}'s")

    def _trial(self, raw: list[Any]) -> tuple[State, list[Move], list[Event]]:
        """The state after the structured ``raw`` moves by the player to move, the moves, their events.

        Nothing is drawn: a trial stops where the turn ends.
        """
        trial = self.game.state.copy()
        player = trial.current_player
        parsed: list[Move] = []
        events: list[Event] = []
        for data in raw:
            if trial.is_over or trial.is_chance or trial.current_player != player:
                raise RequestError("illegal_move", "the turn is already over: too many moves")
            try:
                move = move_from_json(trial, data)
                events.extend(trial.apply(move))
            except ProtocolError as exc:
                raise RequestError(exc.code, exc.message) from None
            except IllegalMoveError as exc:
                raise RequestError("illegal_move", str(exc)) from None
            parsed.append(move)
        return trial, parsed, events

    # ------------------------------------------------------------------ intents

    async def preview(self, conn: Connection, msg: PreviewIntent) -> Preview:
        """What the moves would lead to, without storing, drawing or sharing anything."""
        seat = self._holder(conn, msg["seat"])
        async with self.lock:
            self._check_turn(seat, msg["version"])
            trial, parsed, events = self._trial(msg["moves"])
            self._check_script(parsed)
            turn_over = trial.is_over or trial.is_chance or trial.current_player != seat
            return {"type": MessageType.PREVIEW, "version": self.version,
                    "decision": None if turn_over else protocol.decision_view(trial),
                    "legal": [] if turn_over else protocol.legal_json(trial),
                    "turn_over": turn_over,
                    "events": [protocol.event_view(e, trial) for e in events]}

    async def submit(self, conn: Connection, msg: Turn) -> int:
        """Check, store, then apply and push a person's moves; return the new version.

        The moves are checked and played once, on a copy of the game (the draws
        that end the turn included); the copy becomes the game once it is stored.
        """
        seat = self._holder(conn, msg["seat"])
        async with self.lock:
            self._check_turn(seat, msg["version"])
            if self.clock is not None and self.clock.seat == seat and self.clock.expired(time.time()):
                raise RequestError(ErrorCode.TIME_OUT, f"{PLAYER_NAMES[seat]}'s time ran out before "
                                                       f"the move came; a bot plays the seat now")
            raw = msg["moves"]
            if not raw:
                raise RequestError("bad_request", "'moves' is empty")
            game = self._turn_copy()
            start = self.version
            for data in raw:
                drawn = len(game.history) > start and isinstance(game.history[-1], Draw)
                if game.is_over or drawn or game.state.current_player != seat:
                    raise RequestError("illegal_move", "the turn is already over: too many moves")
                try:
                    move = move_from_json(game.state, data)
                    self._check_script([move], game)
                    game.play(move)
                except ProtocolError as exc:
                    raise RequestError(exc.code, exc.message) from None
                except IllegalMoveError as exc:
                    raise RequestError("illegal_move", str(exc)) from None
            await self._store(game, start)
            return self.version

    def _turn_copy(self) -> Game:
        """A copy of the game to play a turn on.  A secret deal's copy draws from the game's own
        source (``Game.copy(share_draws=True)``): a failed store then leaves the game as it was but
        for where that secret source stands, as it always did with the operating system's; a seeded
        or mirrored deal, or a guided game, has its generator copied, since its draws must follow
        the seed whatever fails."""
        secret = self.setup.deal != Deal.SEEDED and self.setup.mirror is None and self.setup.tutorial is None
        return self.game.copy(share_draws=secret)

    def _check_script(self, moves: Sequence[Move], game: Game | None = None) -> None:
        """In a guided game, the coach's check of the learner's ``moves``, made from ``game`` (by
        default the room's): each one must pass its step's (:func:`huntgather.tutorial.check_step`);
        one that does not is refused with ``tutorial_move`` and the key of the coach's words."""
        if self.setup.tutorial is None:
            return
        script = tutorial.load_script(self.setup.tutorial)
        walk = (game or self.game).state.copy()
        ply = len((game or self.game).history)
        for move in moves:
            at = tutorial.step_at(script, ply)
            if at is not None and not tutorial.check_step(walk, script.steps[at], str(move)):
                step = script.steps[at]
                raise RequestError(ErrorCode.TUTORIAL_MOVE,
                                   f"step {step.key} asks for {step.moves[-1]}, not {move}",
                                   explain=tutorial.retry_key(step, str(move)))
            walk.apply(move)
            ply += 1

    async def _commit(self, parsed: list[Move]) -> None:
        """Play moves checked on this very position (a bot's) on a copy, store them, adopt the copy.

        Called under the lock, with moves the caller has checked on this very
        position (``State.check``), so they are not checked again.
        """
        game = self._turn_copy()
        start = self.version
        for move in parsed:
            game.play(move, trusted=True)
        await self._store(game, start)

    async def _store(self, game: Game, start: int) -> None:
        """Store the moves ``game`` has beyond version ``start``, then make it the room's game.

        A failed write raises ``storage_failed`` and changes nothing.
        """
        new = [str(m) for m in game.history[len(self.game.history):]]
        await self._write(game, start, new)
        self._adopt(game, start)

    async def _write(self, game: Game, start: int, new: list[str]) -> None:
        """Store the entries ``new`` after version ``start`` and the position of ``game`` they lead to.

        Raises ``stale`` (after catching up) when another process stored first, ``storage_failed``
        when the database refused; nothing changes then.
        """
        status = "over" if game.is_over else "playing"
        clock = self._next_clock(game, time.time())
        try:
            await self.storage.append_async(self.id, start, new, status=status, scores=list(game.scores),
                                            position=write_position(game.state), clock=clock)
        except TimedOutError:   # another process recorded the running seat's timeout (its notice follows)
            await self._read_clock(self.version)
            raise RequestError(ErrorCode.TIME_OUT, "the time ran out before the move was stored; a bot "
                                                   "plays the seat now") from None
        except ConflictError:   # another process stored a move first: catch up, then the request is stale
            await self.follow_storage()
            raise RequestError("stale", f"the game moved on (it is at version {self.version}); your move "
                                        f"was not played") from None
        except Exception as exc:  # the database refused: the move does not count
            log.error("game %s: storing moves %s failed: %s", self.id, new, exc)
            raise RequestError("storage_failed", "the move could not be stored, so it does not count; "
                                                 "try again in a moment") from None
        self.tally.moves_stored += len(new)
        if status == "playing":
            self._tell_turn(game, start + len(new))
        if status == "over" and not self.game.is_over and self.setup.rated and self.on_rated_end is not None:
            self.on_rated_end(self.id)
        if clock.state is not None:
            self.clock = ClockState.from_json(clock.state)

    def _tell_turn(self, game: Game, version: int) -> None:
        """If ``game`` (just stored at ``version``) passes the turn to a seat of an account and no
        page holds that seat (here or on another process), tell :attr:`on_turn`."""
        seat = game.state.current_player
        if self.on_turn is None or seat == self.game.state.current_player or not 0 <= seat < len(self.seats):
            return
        held = self.seats[seat]
        if held.kind != SeatKind.HUMAN or held.account_id is None:
            return
        online, _ = self.presence()
        for seats_held, _count in self.remote.values():
            online |= seats_held
        if seat not in online:
            self.on_turn(self.id, seat, held.account_id, version)

    def _adopt(self, game: Game, start: int) -> None:
        """Make ``game`` (this game at a later version) the room's game; push what changed since
        version ``start`` to every page; let the bots move.  With no page open here (a game of
        bots alone, a correspondence game between visits, a game whose pages are on another
        process) no update is made: the words of its events and its live projection are the
        costliest part of a turn, and a page that opens later gets what it needs then
        (:meth:`_catch_up_text`)."""
        first = self.marks[start]
        self.game = game
        self.marks[self.version] = len(game.events)
        if self.conns:
            self.broadcast(protocol.update(game, self.id, self.setup.seed, start, game.events[first:],
                                           self.version, projections=self.setup.projections,
                                           projected=self._projected))
        if self.clock is not None:
            self.broadcast_table()
        self.wake_bots()

    def _adopt_undone(self, game: Game, stored: int) -> None:
        """Make ``game`` (rebuilt from ``stored`` entries that end with an undo) the room's game;
        every page gets a snapshot (its older versions are no more: they get snapshots too)."""
        self.game = game
        self.undone = stored - len(game.history)
        self.marks = {self.version: len(game.events)}
        if self.conns:
            self.broadcast(self.snapshot())
        if self.clock is not None:
            self.broadcast_table()
        self.wake_bots()

    async def follow_storage(self, carried: tuple[int, list[str]] | None = None) -> None:
        """Take the moves another process stored (caller holds the lock); push them as an update.

        ``carried`` is ``(start, moves)`` from the notification; they are used without reading the
        database when they reach this room's version: the part this room lacks is taken, and when
        it lacks none (this process's own notification, which every listener gets, arriving before
        the move was adopted here), nothing is done.
        """
        start = self.version
        if carried is not None and carried[0] <= start:
            new = carried[1][start - carried[0]:]
        else:
            new = await asyncio.to_thread(self.storage.history_from, self.id, start)
        if not new:
            return
        if any(entry.startswith(UNDO) for entry in new):   # turns taken back: the game is rebuilt
            stored = await asyncio.to_thread(self.storage.load, self.id)
            if stored is None:
                return
            game = await asyncio.to_thread(restore_game, self.setup, stored.history, self.draws(),
                                           stored.position)
            await self._read_clock(len(stored.history))
            self._adopt_undone(game, len(stored.history))
            return
        if self.setup.deal == Deal.SEEDED:   # rebuilt from the seed, so the next draws follow it too
            stored = await asyncio.to_thread(self.storage.load, self.id)
            if stored is None:
                return
            game = await asyncio.to_thread(restore_game, self.setup, stored.history, None, stored.position)
        else:   # (the moves given, draws included: the copy draws nothing, and replaces the game)
            game = self.game.copy(share_draws=True)
            game.follow([parse_move(m) for m in new])
        await self._read_clock(start + len(new))
        self._adopt(game, start)

    async def _read_clock(self, version: int) -> None:
        """Take the stored clock, if the stored game is at ``version`` (another process changed it)."""
        if self.setup.clock is None:
            return
        stored = await asyncio.to_thread(self.storage.load_clock, self.id)
        if stored is not None and stored[0] == version and stored[1] is not None:
            self.clock = ClockState.from_json(stored[1])

    async def expire(self) -> bool:
        """If the running seat's time has run out, hand the seat to the setup's ``on_timeout`` bot
        (keeping its account: a rated game counts the player who timed out last), record it, tell
        every page; True if this process did.  Of several processes trying at once only one
        does (:meth:`Storage._expire`); the others read the stored clock back."""
        async with self.lock:
            now = time.time()
            clock = self.clock
            if clock is None or clock.seat is None or self.closed or self.game.is_over \
                    or not clock.expired(now):
                return False
            seat = clock.seat
            old = self.seats[seat]
            if old.kind == SeatKind.BOT:   # resigned or handed over: its bot's move stops the clock
                return False
            level = self.setup.on_timeout
            new_seat = SeatState(SeatKind.BOT, level, old.name, None, old.joined, old.account_id)
            new_clock = clock.timed_out(now)
            try:
                done = await self.storage.expire_async(self.id, self.version, now, new_clock.to_json(),
                                                       new_seat.row(seat))
            except Exception as exc:
                log.error("game %s: recording seat %d's timeout failed: %s", self.id, seat, exc)
                return False
            if not done:   # another process did (its notices follow), or this copy is behind
                await self._read_clock(self.version)
                return False
            log.info("game %s: seat %d's time ran out; a %s bot plays it", self.id, seat, level)
            self.clock = new_clock
            self.seats[seat] = new_seat
            self._make_bots()
            for other in self.conns:
                other.held.discard(seat)
        self.tell_timeout(seat)
        return True

    def tell_timeout(self, seat: int) -> None:
        """Tell every page that ``seat``'s time ran out (the table first, with the bot in it)."""
        self.broadcast_table()
        level = self.seats[seat].level or self.setup.on_timeout
        self.broadcast(Timeout(type=MessageType.TIMEOUT, seat=seat, level=level, version=self.version))
        self.wake_bots()

    async def follow_seats(self, rows: list[SeatRow] | None = None) -> None:
        """Take the seats another process changed (``rows``, or all of them read from storage);
        pages lose seats whose secret no longer holds."""
        if rows is None:
            rows = await asyncio.to_thread(self.storage.load_seats, self.id)
        async with self.lock:
            for r in rows:
                if 0 <= r.seat < len(self.seats):
                    old = self.seats[r.seat]
                    self.seats[r.seat] = SeatState(SeatKind(r.kind), r.level, r.name, r.secret_hash, r.joined,
                                                   r.account_id)
                    if r.secret_hash != old.secret_hash:
                        for conn in self.conns:
                            conn.held.discard(r.seat)
            self._make_bots()
            if self.open_seats:   # a seat taken, or handed out, by another process
                await self._read_lobby()
        self.broadcast_table()
        self.wake_bots()

    def presence(self) -> tuple[set[int], int]:
        """The seats held and the watchers on this process."""
        held: set[int] = set()
        watchers = 0
        for conn in self.conns:
            held |= conn.held
            watchers += conn.watcher
        return held, watchers

    async def hint(self, conn: Connection, msg: HintIntent) -> Hint:
        """The hard bot's best turns for the seat to move (after ``moves`` of the turn, if any).

        The search sees only what the player may know (the stacks' contents,
        not their order) and runs on the hint pool; nothing is stored.
        """
        seat = self._holder(conn, msg["seat"])
        if self.setup.rated:
            raise RequestError(ErrorCode.RATED_NO_HINTS, "this is a rated game: it gives no hints")
        async with self.lock:
            self._check_turn(seat, msg["version"])
            trial, _, _ = self._trial(msg.get("moves") or [])
            if trial.is_over or trial.is_chance or trial.current_player != seat:
                raise RequestError("bad_request", "those moves end the turn: nothing left to hint")
            at = self.version
        try:
            async with self.hints.slot(conn.visitor):
                # seeded by the position, not the game's secret seed: the same position gets the same hint
                turns = await self.workers.run("hints", suggest, trial, at, self.hints.search,
                                               self.setup.short is None)
        except RequestError as exc:
            if exc.code == ErrorCode.BUSY:
                self.tally.hint_refusals += 1
            raise
        best_first = sorted(turns, key=lambda t: (-t[1], -t[2]))   # by the estimate shown, then visits
        # each placement's square in words, no two alike ("next to your forest, at the top")
        squares = [(p.x, p.y) for p in (plan[0] for plan, _, _, _ in best_first) if isinstance(p, Place)]
        named = dict(zip(squares, square_words(trial.board, squares, seat), strict=True))
        shown: list[HintTurn] = []
        for plan, value, visits, predicted in best_first:
            words = protocol.describe_turn(trial, plan)
            turn: HintTurn = {"moves": _plan_json(trial, plan), "text": words,
                              "say": protocol.phrase_json(words.say), "value": round(value, 3),
                              "visits": visits}
            first = plan[0]
            if isinstance(first, Place):
                turn["where"] = named[(first.x, first.y)]
                turn["where_say"] = protocol.phrase_json(named[(first.x, first.y)].say)
            if predicted is not None:
                turn["predicted"] = [round(x, 1) for x in predicted]
            shown.append(turn)
        return {"type": MessageType.HINT, "version": at, "player": seat, "turns": shown}

    async def set_name(self, conn: Connection, msg: Name) -> None:
        seat = self._holder(conn, msg["seat"])
        name = clean_name(msg["name"])
        async with self.lock:
            if self.seats[seat].account_id is not None:
                raise RequestError(ErrorCode.ACCOUNT_SEAT, "this seat is held by an account: it goes by "
                                                           "the account's name")
            await self._store_seat(seat, replace(self.seats[seat], name=name))
        self.broadcast_table()

    async def resign(self, conn: Connection, msg: Resign) -> None:
        """The seat leaves the game: an easy bot plays it from now on, and its secret stops working."""
        seat = self._holder(conn, msg["seat"])
        async with self.lock:
            self._check_current(msg["version"])
            await self._to_bot(seat, "easy")
        self.broadcast_table()
        self.wake_bots()

    # ------------------------------------------------------------------ chat

    async def chat(self, conn: Connection, msg: ChatIntent) -> None:
        """Store a line of chat and send it to every page (:mod:`huntgather.server.chat`)."""
        seat = msg.get("seat")
        if seat is not None:
            self._holder(conn, seat)
            channel, name = ChatChannel.PLAYERS, self.seats[seat].name
        else:
            if not self.watchers_open and not conn.creator:
                raise RequestError(ErrorCode.CHAT_CLOSED, "the creator has closed the watchers' chat")
            channel, name = ChatChannel.WATCHERS, conn.account_name
        text = clean_chat(msg["text"])
        budget = self.chat_budgets.get(conn)
        if budget is None:
            budget = self.chat_budgets[conn] = chat_budget()
        if not budget.take(asyncio.get_running_loop().time()):
            raise RequestError(ErrorCode.CHAT_TOO_FAST, f"at most {budget.burst} chat lines in "
                                                        f"{budget.burst / budget.rate:g} seconds; "
                                                        f"wait a moment")
        try:
            line = await self.storage.add_chat_async(self.id, channel, seat, name, text)
        except Exception as exc:
            log.error("game %s: storing a chat line failed: %s", self.id, exc)
            raise RequestError(ErrorCode.STORAGE_FAILED, "the line could not be stored, so it was not "
                                                         "sent; try again in a moment") from None
        self.hear_chat(line)

    def hear_chat(self, line: ChatLine) -> None:
        """A line stored (here or by another process): kept and sent to every page, once."""
        if any(old["number"] == line["number"] for old in self.chat_log):
            return
        self.chat_log.append(line)
        self.chat_log.sort(key=lambda old: old["number"])
        del self.chat_log[:-CHAT_HISTORY]
        self.broadcast({"type": MessageType.CHAT, **line})

    async def set_watchers_chat(self, conn: Connection, msg: ChatWatchersIntent) -> None:
        if not conn.creator:
            raise RequestError(ErrorCode.NOT_CREATOR, "only the game's creator can open or close the "
                                                      "watchers' chat")
        try:
            await self.storage.set_watchers_chat_async(self.id, msg["open"])
        except Exception as exc:
            log.error("game %s: storing the watchers' chat failed: %s", self.id, exc)
            raise RequestError(ErrorCode.STORAGE_FAILED, "the change could not be stored; try again "
                                                         "in a moment") from None
        self.hear_watchers_chat(msg["open"])

    def hear_watchers_chat(self, open_: bool) -> None:
        self.watchers_open = open_
        self.broadcast({"type": MessageType.CHAT_WATCHERS, "open": open_})

    # ------------------------------------------------------------------ rematch

    async def rematch(self, conn: Connection, msg: RematchIntent) -> None:
        """The seat wants a rematch (stored, with the hash of its new seat's secret); once every
        seat that is not a bot does, the new game is made, and every page of the game, on every
        process, is sent its secrets of it (:class:`~huntgather.server.messages.Rematch`)."""
        seat = self._holder(conn, msg["seat"])
        if not self.game.is_over:
            raise RequestError(ErrorCode.NOT_OVER, "a rematch is offered once the game is over")
        secret = conn.secrets.get(seat)
        if secret is not None and not self.open_access \
                and not secret_matches(secret, self.seats[seat].secret_hash):
            secret = None   # the seat was given a new secret since (the page holds it by its account)
        seat_hash = None if secret is None else hash_secret(rematch_secret(secret, self.id))
        creator_hash = None if conn.creator_secret is None \
            else hash_secret(rematch_secret(conn.creator_secret, self.id))
        made_now = False
        # not under the game's lock: making the new game takes the rooms' lock, which a delete
        # holds while it waits for this game's
        async with self.rematch_lock:
            state = self.rematch_state
            if state is None or state.new_game is None:
                try:
                    state = await self.storage.rematch_offer_async(self.id, seat, seat_hash, creator_hash)
                    people = {i for i, s in enumerate(self.seats) if s.kind != SeatKind.BOT}
                    if state.new_game is None and people <= set(state.wants) \
                            and self.on_rematch is not None:
                        state = await self.on_rematch(self)
                except RequestError:
                    raise
                except Exception as exc:
                    log.error("game %s: storing a rematch offer failed: %s", self.id, exc)
                    raise RequestError(ErrorCode.STORAGE_FAILED, "the rematch could not be stored; try "
                                                                 "again in a moment") from None
                made_now = state.new_game is not None
            self.rematch_state = state
        self.broadcast_table()
        if state.new_game is not None:
            for page in list(self.conns) if made_now else [conn]:
                self._send_rematch(page)

    async def hear_rematch(self, state: RematchState | None) -> None:
        """Another process stored an offer, or made the rematch: the pages are told."""
        if state is None:
            return
        async with self.rematch_lock:
            was_made = self.rematch_state is not None and self.rematch_state.new_game is not None
            self.rematch_state = state
        self.broadcast_table()
        if state.new_game is not None and not was_made:
            for page in list(self.conns):
                self._send_rematch(page)

    def _send_rematch(self, page: Connection, *, again: bool = False) -> None:
        """Send ``page`` the rematch made: the new secrets of the seats (and of the creator) whose
        old secrets it gave, each derived from its old one (:func:`rematch_secret`) and checked
        against the hash the new game stores."""
        state = self.rematch_state
        if state is None or state.new_game is None:
            return
        seats: dict[str, str] = {}
        for i in sorted(page.held):
            old = page.secrets.get(i)
            if old is not None:
                new = rematch_secret(old, self.id)
                if secret_matches(new, state.wants.get(i)):
                    seats[str(i)] = new
        creator = None
        if page.creator_secret is not None:
            new = rematch_secret(page.creator_secret, self.id)
            if secret_matches(new, state.creator_hash):
                creator = new
        offer: Rematch = {"type": MessageType.REMATCH, "game": state.new_game, "seats": seats,
                          "creator": creator}
        if again:
            offer["again"] = True
        page.push(dumps(offer))

    def rematch_setup(self) -> tuple[GameSetup, dict[int, int]]:
        """The setup of this game's rematch (same seats and bots, the next start player, a new
        secret deal, rated if this one was), and the account of each seat."""
        seats = tuple(Seat(s.kind, s.level if s.kind == SeatKind.BOT else None, s.name)
                      for s in self.seats)
        setup = replace(self.setup, seats=seats, start_player=(self.setup.start_player + 1) % len(seats),
                        seed=system_secrets.randbelow(2**53), deal=Deal.SECRET, stack=None, mirror=None,
                        public=False, tutorial=None)
        accounts = {i: s.account_id for i, s in enumerate(self.seats)
                    if s.account_id is not None and s.kind == SeatKind.HUMAN}
        return setup, accounts

    async def change_seat(self, conn: Connection, msg: SeatChange) -> None:
        """The creator hands a seat to a bot, turns a bot seat into a person seat (new secret), or
        hands any seat to an outside bot (new token); a new secret or token goes to the creator."""
        seat = msg["seat"]
        if not conn.creator:
            raise RequestError("not_creator", "only the game's creator can change who plays a seat")
        if not 0 <= seat < len(self.seats):
            raise RequestError("bad_request", f"there is no seat {seat}")
        kind = msg["kind"]
        async with self.lock:
            if kind == SeatKind.BOT:
                await self._to_bot(seat, msg.get("level", "easy"))
            elif kind == SeatKind.REMOTE:
                token = new_secret()
                name = clean_name(msg["name"]) if msg.get("name") else None
                await self._store_seat(seat, SeatState(SeatKind.REMOTE, None, name, hash_secret(token)))
                self._make_bots()
                for other in self.conns:   # the old secret no longer holds the seat
                    other.held.discard(seat)
                conn.push(dumps(SeatSecret(type=MessageType.SEAT_SECRET, seat=seat, secret=token,
                                           kind=SeatKind.REMOTE)))
            else:
                secret = new_secret()
                await self._store_seat(seat, SeatState(SeatKind.HUMAN, None, None, hash_secret(secret)))
                self._make_bots()
                for other in self.conns:   # a re-keyed seat: the pages open with the old secret lose it
                    other.held.discard(seat)
                conn.held.add(seat)
                conn.push(dumps(SeatSecret(type=MessageType.SEAT_SECRET, seat=seat, secret=secret,
                                           kind=SeatKind.HUMAN)))
        self.broadcast_table()
        self.wake_bots()

    async def undo(self, conn: Connection, msg: Undo) -> int:
        """Take back the seat's last turn and the bots' turns after it; return the new version.

        Only a person playing alone against bots may (an outside bot counts as a person), and
        only while the game is on.  The game goes back to where that turn began, the seat's
        tile in hand; the stored history gets an ``undo`` entry (:func:`undo_entry`), so that
        versions only grow, and every page gets a snapshot.  The tiles the undone draws brought
        come again first, in the same order.  A bot's search under way is dropped when it ends
        (its version is gone).
        """
        seat = self._holder(conn, msg["seat"])
        if self.setup.rated:
            raise RequestError(ErrorCode.RATED_NO_UNDO, "this is a rated game: no turn can be taken back")
        if self.setup.tutorial is not None:
            raise RequestError(ErrorCode.NO_UNDO, "a guided game takes no turn back: the coach lets you try "
                                                  "a move again instead")
        async with self.lock:
            self._check_current(msg["version"])
            if self.seats[seat].kind != SeatKind.HUMAN or any(
                    s.kind != SeatKind.BOT for i, s in enumerate(self.seats) if i != seat):
                raise RequestError(ErrorCode.NO_UNDO, "a turn can be taken back only in a game "
                                                      "against bots alone, not with other people")
            keep = self._last_turn(seat)
            if keep is None:
                raise RequestError(ErrorCode.NO_UNDO, "you have no turn to take back yet")
            start = self.version
            stored = await asyncio.to_thread(self.storage.load, self.id)
            if stored is None or len(stored.history) != start:   # another process moved first
                await self.follow_storage()
                raise RequestError(ErrorCode.STALE, f"the game moved on (it is at version "
                                                    f"{self.version}); nothing was taken back")
            entries = [*stored.history, undo_entry(keep)]
            try:
                game = await asyncio.to_thread(replay_game, self.setup, entries, self.draws())
            except (ValueError, IllegalMoveError) as exc:   # a game that goes on from a stored position
                log.warning("game %s: the moves do not replay, so no turn is taken back (%s)", self.id, exc)
                raise RequestError(ErrorCode.NO_UNDO, "this game's moves cannot be played again, so "
                                                      "no turn can be taken back") from None
            await self._write(game, start, [undo_entry(keep)])
            self._adopt_undone(game, len(entries))
            return self.version

    def _last_turn(self, seat: int) -> int | None:
        """How many moves come before the seat's last turn (its tile's draw included), or None."""
        state = self.game.initial.copy()
        last = None
        previous: Move | None = None
        try:
            for i, move in enumerate(self.game.history):
                turn_starts = not isinstance(move, Draw) and (previous is None or isinstance(previous, Draw))
                if turn_starts and state.current_player == seat:
                    last = i
                state.apply(move)
                previous = move
        except IllegalMoveError:   # a game resumed from a stored position its moves do not reach
            return None
        return last

    async def _to_bot(self, seat: int, level: str) -> None:
        old = self.seats[seat]
        await self._store_seat(seat, SeatState(SeatKind.BOT, level, old.name, None, old.joined,
                                               old.account_id))
        self._make_bots()
        for other in self.conns:
            other.held.discard(seat)

    async def resync(self, conn: Connection, since: int | None) -> None:
        """Send a page at version ``since`` (None: none) what it missed."""
        async with self.lock:
            catch_up = self._catch_up_text(since)
        if catch_up is not None:
            conn.push(catch_up)

    # ------------------------------------------------------------------ bots

    @property
    def search_priority(self) -> Priority:
        """Whose bot searches go first (:class:`~huntgather.server.workers.LaneGate`): a game a
        person or an outside bot plays in, before a game of the server's bots alone."""
        people = any(s.kind != SeatKind.BOT for s in self.seats)
        return Priority.PERSON if people else Priority.BOTS_ONLY

    @property
    def search_turns(self) -> str:
        """Whose turns this game's bot searches take among those of their priority (round-robin,
        :class:`~huntgather.server.workers.LaneGate`): its creator's, so that one creator's many
        games share one creator's turns; a game whose creator this process does not know (loaded
        after a restart, or made as a rematch) takes turns on its own."""
        return self.creator_key or f"game:{self.id}"

    @property
    def bots_only(self) -> bool:
        """Every seat is the server's bot's (no person, no outside bot)."""
        return all(s.kind == SeatKind.BOT for s in self.seats)

    @property
    def resting(self) -> bool:
        """A game of the server's bots alone that no page has open, on any process: its bots wait
        until one does (unless it was created ``unwatched``)."""
        if not self.bots_only or self.setup.unwatched or self.conns:
            return False
        return not any(held or count for held, count in self.remote.values())

    def wake_bots(self) -> None:
        """Start the bot loop if a bot is to move and it is not running (nor resting, nor waiting
        for players in the lobby)."""
        if self.closed or self.draining or self.game.is_over or self.open_seats \
                or self.game.state.current_player not in self.bots or self.resting:
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        backoff = 0.5
        while not (self.closed or self.draining or self.game.is_over) \
                and self.game.state.current_player in self.bots:
            player = self.game.state.current_player
            delay = self.bot_delay if self.game.decision.phase == "place" else self.bot_delay / 2
            await asyncio.sleep(delay)
            if self.draining:   # the process stops: the next one resumes this bot (same seed, same move)
                return
            if self.resting:    # the last page closed: go on when one opens (attach wakes the bots)
                return
            if self.closed or self.game.is_over or self.game.state.current_player != player:
                continue   # the game changed meanwhile (a turn taken back): look again
            state = self.game.state.copy()
            version, changes = self.version, self.seat_changes
            level = self.bots.get(player)
            if level is None:
                continue
            # a seed of this game, seat and moment: the same position always gets the same move
            seed = (self.setup.seed * 7 + player) * 100_003 + version
            scripted = self._scripted(state)
            try:
                if scripted is not None:   # the coach's opponent in a guided game: the script's move
                    move = scripted
                else:
                    move = await self.workers.run(Workers.lane_of(level), choose_move, level, seed, state,
                                                  priority=self.search_priority, who=self.search_turns)
            except Exception:
                log.exception("game %s: bot %s failed; playing a random move", self.id, player)
                move = make_bot("random", seed=version).choose(state)
            try:
                async with self.lock:
                    if self.version != version or self.closed or self.seat_changes != changes:
                        continue   # the game moved on (or the seat changed hands) while the bot thought
                    state.check(move)
                    await self._commit([move])
                backoff = 0.5
            except RequestError as exc:
                if exc.code in ("stale", ErrorCode.TIME_OUT):   # another process moved first, or
                    continue                                     # recorded a timeout: followed now
                if exc.code != "storage_failed":
                    raise
                # storage is down: try again later, and carry on once it works again
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 30.0)
            except IllegalMoveError as exc:
                log.error("game %s: bot %s chose an illegal move (%s); playing a random move",
                          self.id, player, exc)
                async with self.lock:
                    if self.version == version:   # a random bot's move comes from legal_moves()
                        with contextlib.suppress(RequestError):
                            await self._commit([make_bot("random", seed=version).choose(state)])

    def _scripted(self, state: State) -> Move | None:
        """A guided game's scripted move for the bot to move in ``state`` (the room's game's), if
        the script has one that is legal there (else the seat's level plays)."""
        if self.setup.tutorial is None:
            return None
        script = tutorial.load_script(self.setup.tutorial)
        word = tutorial.scripted_move(script, state, len(self.game.history))
        return None if word is None else parse_move(word)

    @property
    def idle(self) -> bool:
        """No open socket (every page has one), no bot thinking, no move in progress: safe to drop."""
        return not self.sockets and (self._bot_task is None or self._bot_task.done()) \
            and not self.lock.locked()

    async def finish_bots(self) -> None:
        """Let a bot whose search is under way store its move, and start no other (the process
        drains); cancelled by the caller if it takes too long."""
        self.draining = True
        if self._bot_task is not None and not self._bot_task.done():
            await asyncio.wait({self._bot_task})

    async def close(self) -> None:
        self.closed = True
        if self._bot_task is not None:
            self._bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._bot_task


class Rooms:
    """The live rooms, loaded from storage on first use.

    At most ``max_rooms`` stay in memory: beyond that, the least recently
    used *idle* rooms (nobody connected, no bot thinking) are dropped.  They
    lose nothing, since every move is stored before it counts, and come back
    from storage on the next request.  ``draws`` makes the draw source of a
    secret deal (tests pass a scripted one).
    """

    def __init__(self, storage: Storage, workers: Workers | None = None, bot_delay: float = 0.6,
                 max_rooms: int = 64, *, hint_limit: int = 2,
                 hint_search: Limits | int | None = None,
                 draws: Callable[[], random.Random] = random.SystemRandom) -> None:
        self.storage = storage
        self.workers = workers or Workers(processes=False)
        self.hints = HintPool(hint_limit, search=hint_search)
        self.bot_delay = bot_delay
        self.max_rooms = max_rooms
        #: the most watchers each game takes (0: any)
        self.max_watchers = MAX_WATCHERS
        self.draws = draws
        self._rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self._lock = asyncio.Lock()
        #: this process's name in notifications to the others
        self.process = new_secret()[:8]
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_listening: Callable[[], None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        #: the counts of every room (:mod:`huntgather.server.metrics`)
        self.tally = Tally()
        #: seconds between two repeats of this process's presence to the others (PostgreSQL); a
        #: process not heard from for three times as long counts as crashed.  Every process of
        #: one database must use the same value.
        self.presence_every = PRESENCE_EVERY
        #: the seconds before a failed rating is tried again (by a sweep)
        self.rating_retry = RATING_RETRY
        self._rating_retry: asyncio.Task[None] | None = None
        #: seconds between two looks at the clocks of the games in memory, and between two looks
        #: at the stored deadlines (:meth:`_watch_clocks`)
        self.clock_tick = 0.2
        self.clock_sweep = 5.0
        #: the most games of bots alone one creator (an account, else an address) may have going at
        #: once in this process (0: any)
        self.bot_games_per_creator = BOT_GAMES_PER_CREATOR
        #: the games of bots alone each creator made in this process
        self._bot_games: dict[str, list[str]] = {}
        #: records the turns that wait for someone, and tells them (:mod:`huntgather.server.notify`)
        self.notifier: Notifier | None = None
        #: the seconds a public game stays listed in the lobby before it expires (``--lobby-expiry``)
        self.lobby_expiry = LOBBY_EXPIRY

    # ------------------------------------------------------------------ other processes

    def start(self) -> None:
        """Listen for what other processes store (PostgreSQL), and rate the finished rated games
        not rated yet (:meth:`sweep_ratings`); call from the running event loop."""
        self._loop = asyncio.get_running_loop()
        self._stop_listening = self.storage.listen(self._notified, self._reconnected)
        if self.storage.shared:
            self._spawn(self._keep_presence())
        url = self.storage.engine.url
        if url.get_backend_name() != "sqlite" or url.database not in (None, "", ":memory:"):
            self._spawn(self.sweep_ratings())   # (a database in memory is new: nothing to sweep)
        self._spawn(self._watch_clocks())

    async def _watch_clocks(self) -> None:
        """Act on the clocks' deadlines: every :attr:`clock_tick` seconds those of the games in
        memory, and every :attr:`clock_sweep` seconds (and at once, at start) the stored ones,
        which finds the games whose deadline passed while no process ran, or that no process
        holds (a correspondence game nobody has open); an in-memory database (tests) has only
        the games in memory watched.  Every :attr:`clock_sweep` seconds too, the public games
        whose listing expired are deleted (:meth:`_expire_listings`).  Nothing is kept in memory
        that a restart would lose: each deadline is stored, and :meth:`Room.expire` acts on it
        once."""
        loop = asyncio.get_running_loop()
        next_sweep = next_lobby = loop.time()
        busy: set[str] = set()
        #: games whose record cannot be read: said once, then left alone (as every other request
        #: for them is answered ``corrupt_game``)
        unreadable: set[str] = set()

        async def expire(game_id: str, room: Room | None) -> None:
            try:
                if room is None:
                    room = await self.get(game_id)
                await room.expire()
            except RequestError as exc:
                if exc.code == ErrorCode.CORRUPT_GAME:
                    unreadable.add(game_id)
                log.warning("game %s: its clock ran out, but the game cannot be loaded (%s)", game_id,
                            exc.code)
            except Exception:
                log.exception("game %s: acting on its clock failed", game_id)
            finally:
                busy.discard(game_id)

        while True:
            now = time.time()
            for room in list(self._rooms.values()):
                if room.clock is not None and room.clock.expired(now) and room.id not in busy \
                        and not room.closed:
                    busy.add(room.id)
                    self._spawn(expire(room.id, room))
            # an in-memory database is this process's alone, and its one connection is the
            # writer's and the readers' in turn: only the games in memory are watched there
            if loop.time() >= next_lobby:   # the public games whose listing expired unfilled
                next_lobby = loop.time() + self.clock_sweep
                await self._expire_listings(now)
            if loop.time() >= next_sweep and not self.storage.in_memory:
                next_sweep = loop.time() + self.clock_sweep
                try:
                    due = await self.storage.expired_async(now)
                except Exception as exc:
                    log.warning("finding the games whose clock ran out failed: %s", exc)
                    due = []
                for game_id in due:
                    if game_id not in busy and game_id not in unreadable:
                        busy.add(game_id)
                        self._spawn(expire(game_id, self._rooms.get(game_id)))
            await asyncio.sleep(self.clock_tick)

    async def _expire_listings(self, now: float) -> None:
        """Delete the public games whose listing expired unfilled (never played: their moves wait
        for their players); every page of one is told why and closed."""
        try:
            due = await self.storage.lobby_expired_async(now)
            for game_id in due:
                if await self.storage.expire_listing_async(game_id, now):
                    log.info("game %s: nobody took its open seats in time; it is deleted", game_id)
                    room = self._rooms.get(game_id)
                    if room is not None:
                        await self._close_deleted(room, "nobody took the open seats in time, so the "
                                                        "game was taken out of the lobby and deleted")
        except Exception as exc:
            log.warning("expiring the lobby's games failed: %s", exc)

    async def _keep_presence(self) -> None:
        """Every :attr:`presence_every` seconds, tell the other processes again which pages this
        one has (each game with pages here), and forget the pages of a process not heard from for
        three times as long: it has crashed (kill -9, a lost machine), and its pages are gone, so
        its seats go offline and its watchers stop counting."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.presence_every)
            stale = loop.time() - 3 * self.presence_every
            for room in list(self._rooms.values()):
                if room.closed:
                    continue
                if room.conns:
                    self._announce(room)
                gone = [p for p, heard in room.remote_heard.items() if heard < stale]
                for process in gone:
                    room.remote.pop(process, None)
                    room.remote_heard.pop(process, None)
                    log.warning("game %s: no word from process %s for %.0f s: its pages count as gone",
                                room.id, process, 3 * self.presence_every)
                if gone:
                    room.broadcast_table()

    # ------------------------------------------------------------------ ratings

    def _rated_end(self, game_id: str) -> None:
        """A rated game ended here: rate it (off the event loop; a failure is retried by a sweep)."""
        self._spawn(self._rate(game_id))

    async def _rate(self, game_id: str) -> None:
        try:
            await ratings.rate_game_async(self.storage, game_id)
        except Exception as exc:
            log.error("game %s: rating it failed (%s); it is tried again later", game_id, type(exc).__name__)
            self._retry_ratings()

    def _retry_ratings(self) -> None:
        """Sweep again after :attr:`rating_retry` seconds (doubling while sweeps fail, up to 10
        minutes), unless a retry is already waiting."""
        if self._rating_retry is not None and not self._rating_retry.done():
            return
        delay = self.rating_retry
        self.rating_retry = min(self.rating_retry * 2, 600.0)

        async def later() -> None:
            await asyncio.sleep(delay)
            await self.sweep_ratings()

        self._rating_retry = asyncio.get_running_loop().create_task(later())
        self._tasks.add(self._rating_retry)
        self._rating_retry.add_done_callback(self._tasks.discard)

    async def sweep_ratings(self) -> int:
        """Rate every finished rated game missing from ``hg_rated_games`` (a process that stopped
        between a game's last move and its rating loses nothing); returns how many were rated."""
        try:
            missing = await self.storage.write(ratings.unrated_over)
            done = 0
            for game_id in missing:
                done += await ratings.rate_game_async(self.storage, game_id)
        except Exception as exc:
            log.error("rating the finished games failed (%s); tried again later", type(exc).__name__)
            self._retry_ratings()
            return 0
        self.rating_retry = RATING_RETRY
        if done:
            log.info("rated %d finished games that were not rated yet", done)
        return done

    def _notified(self, payload: str) -> None:   # from the listening thread
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):   # the loop has closed: the server is stopping
                self._loop.call_soon_threadsafe(self._dispatch, payload)

    def _dispatch(self, payload: str) -> None:
        self._spawn(self._on_notice(payload))

    def _reconnected(self) -> None:   # notifications may have been missed: catch up every live game
        for game_id in list(self._rooms):
            self._notified(encode_notice({"type": NoticeType.MOVE, "game": game_id}))
            self._notified(encode_notice({"type": NoticeType.SEAT, "game": game_id}))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _on_notice(self, payload: str) -> None:
        """Follow what another process did (:data:`~huntgather.server.messages.NOTICES`)."""
        try:
            notice = decode_notice(payload)
        except ProtocolError as exc:
            log.warning("a notification that is not one was ignored (%s)", exc.message)
            return
        room = self._rooms.get(notice["game"])
        if room is None or room.closed:
            return
        try:
            await self._NOTICE_HANDLERS[notice["type"]](self, room, notice)
        except Exception:
            log.exception("game %s: following another process (%s) failed", room.id, payload[:200])

    async def _on_move(self, room: Room, notice: MoveNotice) -> None:
        version = notice.get("version")
        if version is None or version > room.version:
            # the moves ride along (storage.move_notice) unless they were too long
            start, moves = notice.get("start"), notice.get("moves")
            carried = (start, moves) if start is not None and moves is not None else None
            async with room.lock:
                await room.follow_storage(carried)

    async def _on_seat(self, room: Room, notice: SeatNotice) -> None:
        # the seat rides along (storage.seat_notice), except after a reconnect
        carried = notice.get("seat")
        await room.follow_seats(None if carried is None else [seat_row(carried)])

    async def _on_delete(self, room: Room, notice: DeleteNotice) -> None:
        await self._close_deleted(room)

    async def _on_presence(self, room: Room, notice: PresenceNotice) -> None:
        if notice["process"] == self.process:
            return
        held = set(notice["held"])
        process = notice["process"]
        if held or notice["watchers"]:
            unchanged = room.remote.get(process) == (held, notice["watchers"])
            room.remote[process] = (held, notice["watchers"])
            room.remote_heard[process] = asyncio.get_running_loop().time()
            if unchanged:   # the periodic repeat (:meth:`_keep_presence`): nothing to tell the pages
                return
        else:
            room.remote.pop(process, None)
            room.remote_heard.pop(process, None)
        room.broadcast_table()
        room.wake_bots()   # a page on another process may be what a resting game waited for

    async def _on_timeout(self, room: Room, notice: TimeoutNotice) -> None:
        async with room.lock:
            if notice["version"] != room.version:
                await room.follow_storage()
            await room._read_clock(room.version)
        await room.follow_seats()   # the seat's bot (its notice may not have been followed yet)
        room.tell_timeout(notice["seat"])

    async def _on_ask(self, room: Room, notice: AskNotice) -> None:
        if notice["process"] != self.process and room.conns:
            self._announce(room)

    async def _on_chat(self, room: Room, notice: ChatNotice) -> None:
        line = notice.get("line")
        if line is not None:
            room.hear_chat(line)
        open_ = notice.get("watchers_open")
        if open_ is not None and open_ != room.watchers_open:
            room.hear_watchers_chat(open_)

    async def _on_rematch(self, room: Room, notice: RematchNotice) -> None:
        await room.hear_rematch(await asyncio.to_thread(self.storage.rematch_of, room.id))

    #: the handler of each notice (a test checks that every declared notice has one)
    _NOTICE_HANDLERS: ClassVar[dict[str, Callable[[Rooms, Room, Any], Awaitable[None]]]] = {
        NoticeType.MOVE: _on_move, NoticeType.SEAT: _on_seat, NoticeType.DELETE: _on_delete,
        NoticeType.PRESENCE: _on_presence, NoticeType.ASK: _on_ask, NoticeType.CHAT: _on_chat,
        NoticeType.TIMEOUT: _on_timeout, NoticeType.REMATCH: _on_rematch,
    }

    def _announce(self, room: Room) -> None:
        held, watchers = room.presence()
        self._spawn(self._notify_quietly(encode_notice({
            "type": NoticeType.PRESENCE, "game": room.id, "process": self.process, "held": sorted(held),
            "watchers": watchers})))

    async def _notify_quietly(self, payload: str) -> None:
        try:
            await self.storage.notify_async(payload)
        except Exception as exc:   # presence is a courtesy: never fail a page over it
            log.warning("telling the other processes failed: %s", type(exc).__name__)

    def _room(self, game_id: str, setup: GameSetup, game: Game, seats: list[SeatState],
              creator_hash: str | None, open_access: bool) -> Room:
        room = Room(game_id, setup, game, self.storage, seats, creator_hash, open_access, self.workers,
                    self.hints, self.bot_delay, self.max_watchers, tally=self.tally,
                    draining=self.tally.draining, draws=self.draws)
        self._live(room)
        return room

    def _live(self, room: Room) -> None:
        room.on_presence = self._announce if self.storage.shared else None
        if self.notifier is not None:
            room.on_turn, room.on_seen = self.notifier.turn_passed, self.notifier.seen
        room.on_rated_end = self._rated_end
        room.on_rematch = self.create_rematch
        self._rooms[room.id] = room
        self._evict(keep=room.id)
        if self.storage.shared:   # who is connected to this game on the other processes?
            self._spawn(self._notify_quietly(encode_notice({"type": NoticeType.ASK, "game": room.id,
                                                            "process": self.process})))

    def _evict(self, keep: str) -> None:
        """Drop the least recently used idle rooms beyond ``max_rooms`` (never ``keep``, just added)."""
        excess = len(self._rooms) - self.max_rooms
        if excess <= 0:
            return
        victims = []
        for game_id, room in self._rooms.items():   # least recently used first; stops when enough
            if room.idle and game_id != keep:
                victims.append(game_id)
                if len(victims) == excess:
                    break
        for game_id in victims:
            del self._rooms[game_id]

    @property
    def count(self) -> int:
        """How many rooms are in memory."""
        return len(self._rooms)

    @property
    def live(self) -> list[str]:
        """The ids of the rooms in memory, least recently used first."""
        return list(self._rooms)

    def loaded(self, game_id: str) -> Room | None:
        """The room of ``game_id`` if it is in memory now (loads nothing)."""
        return self._rooms.get(game_id)

    async def create_rematch(self, room: Room) -> RematchState:
        """The rematch of ``room``'s game, made and stored unless another process made it first
        (:meth:`~huntgather.server.storage.Storage.rematch_make`); the rematch as stored."""
        setup, accounts = room.rematch_setup()
        try:
            await self.create(setup, accounts=accounts, rematch_of=room.id)
        except _MadeElsewhere as made:
            return made.state
        state = await asyncio.to_thread(self.storage.rematch_of, room.id)
        assert state is not None and state.new_game is not None
        return state

    def _going(self, game_id: str) -> bool:
        """A game of bots alone that plays on: in memory, not over and not resting."""
        room = self._rooms.get(game_id)
        return room is not None and not room.closed and not room.game.is_over and not room.resting

    def _check_bot_games(self, setup: GameSetup, creator: str | None) -> None:
        """Refuse a game of bots alone from a creator who has :attr:`bot_games_per_creator` going."""
        if creator is None or not self.bot_games_per_creator \
                or not all(s.kind == SeatKind.BOT for s in setup.seats):
            return
        going = [g for g in self._bot_games.get(creator, []) if self._going(g)]
        self._bot_games[creator] = going
        if len(going) >= self.bot_games_per_creator:
            raise RequestError(ErrorCode.TOO_MANY_BOT_GAMES,
                               f"you have {len(going)} games of bots alone going, as many as one "
                               f"person may; close one (or let one finish) first")

    async def create(self, setup: GameSetup, account: Account | None = None, *,
                     accounts: Mapping[int, int] | None = None,
                     creator_key: str | None = None,
                     rating: int | None = None,
                     lister: str | None = None,
                     rematch_of: str | None = None) -> tuple[Room, str, dict[int, str]]:
        """A new stored game; returns the room, the creator's secret and the secret of each seat a
        page holds (a person seat's secret, an outside bot's token).  The creator's ``account``
        (signed in) holds the first person seat, under its name unless the setup names it;
        ``accounts`` gives seats their accounts (a rematch's).  ``creator_key`` names who asks
        (an account or an address), for the cap on games of bots alone
        (:attr:`bot_games_per_creator`).  A public game is listed in the lobby (with the
        creator's ``rating``, and ``lister``, the hash of who asks) for :attr:`lobby_expiry`
        seconds, and its clock waits for its players.  With ``rematch_of``, the game is that game's
        rematch (:meth:`~huntgather.server.storage.Storage.rematch_make`: its seats take the
        secret hashes of the offers); :class:`_MadeElsewhere` if another process made it first."""
        self._check_bot_games(setup, creator_key)
        game = await asyncio.to_thread(build_game, setup, self.draws())
        if setup.deal == Deal.SECRET and setup.short is not None:
            setup = replace(setup, stack=game.initial.normal)
        game_id = new_secret()[:12]
        creator = new_secret()
        secrets_by_seat = {i: new_secret() for i, s in enumerate(setup.seats) if s.kind.holder}
        seats = [SeatState(s.kind, s.level, s.name,
                           hash_secret(secrets_by_seat[i]) if i in secrets_by_seat else None)
                 for i, s in enumerate(setup.seats)]
        first = next((i for i, s in enumerate(seats) if s.kind == SeatKind.HUMAN), None)
        if account is not None and first is not None:
            seats[first] = replace(seats[first], account_id=account.id,
                                   name=seats[first].name or account.name)
        for i, account_id in (accounts or {}).items():
            seats[i] = replace(seats[i], account_id=account_id)
        clock: ClockState | None = None
        now = time.time()
        listing = None
        if setup.open_seats:
            first_seat = seats[first] if first is not None else None
            listing = Listing(
                "", setup.edition, len(seats),
                None if setup.clock is None else json.dumps(setup.clock.to_json()),
                clock_key(None if setup.clock is None else setup.clock.to_json()), setup.rated,
                None if account is None else account.id,
                None if first_seat is None else first_seat.name, rating, now, now + self.lobby_expiry,
                setup.open_seats, lister=lister)
        if setup.clock is not None:
            player = None if game.is_over else game.state.current_player
            running = None if player is None or seats[player].kind == SeatKind.BOT or listing \
                else player
            clock = ClockState.start(setup.clock, len(seats), running=running, now=now)
        creator_hash = hash_secret(creator)
        clock_write = NO_CLOCK if clock is None else ClockWrite(clock.to_json(), clock.deadline, None)
        made: RematchState | None = None
        try:
            if rematch_of is None:
                await self.storage.create_async(game_id, setup.to_json(), [str(m) for m in game.history],
                                                [s.row(i) for i, s in enumerate(seats)], creator_hash,
                                                write_position(game.state), clock_write, listing)
            else:
                made = await self.storage.rematch_make_async(
                    rematch_of, game_id, setup.to_json(), [str(m) for m in game.history],
                    [s.row(i) for i, s in enumerate(seats)], creator_hash, write_position(game.state),
                    clock_write)
        except Exception as exc:
            log.error("storing a new game failed: %s", exc)
            raise RequestError("storage_failed", "the game could not be stored, so it was not created; "
                                                 "try again in a moment") from None
        if made is not None:
            if made.new_game != game_id:
                raise _MadeElsewhere(made)
            seats = [replace(s, secret_hash=made.seat_hash(i, s.secret_hash)) for i, s in enumerate(seats)]
            creator_hash = made.creator_hash or creator_hash
        async with self._lock:
            room = self._room(game_id, setup, game, seats, creator_hash, False)
            room.clock = clock
            room.creator_key = creator_key
            if listing is not None:
                room.open_seats, room.lobby_expires = set(listing.open_seats), listing.expires
        if creator_key is not None and room.bots_only:
            self._bot_games.setdefault(creator_key, []).append(game_id)
        room.wake_bots()
        return room, creator, secrets_by_seat

    async def get(self, game_id: str) -> Room:
        """The live room of a stored game; raise :class:`RequestError` if there is none.

        A game is loaded once, however many pages ask for it at the same
        moment, and loading one game never holds up another.
        """
        room = self._rooms.pop(game_id, None)
        if room is not None:
            self._rooms[game_id] = room   # now the most recently used
            return room
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            raise RequestError("unknown_game", "there is no such game")
        pending = self._loading.get(game_id)
        if pending is not None:   # someone else is loading it: wait for the same room
            return await asyncio.shield(pending)
        pending = asyncio.get_running_loop().create_future()
        self._loading[game_id] = pending
        try:
            room = await self._load(game_id)
        except BaseException as exc:
            pending.set_exception(exc)
            pending.exception()   # retrieved: the waiters get it, nobody else need
            raise
        else:
            self._live(room)
            pending.set_result(room)
        finally:
            del self._loading[game_id]
        room.wake_bots()
        return room

    async def _load(self, game_id: str) -> Room:
        try:
            stored = await asyncio.to_thread(self.storage.load, game_id)
        except ValueError as exc:   # the row is there, but damaged (its JSON)
            log.error("game %s cannot be read: %s", game_id, exc)
            raise RequestError("corrupt_game", "this game's stored record is damaged") from None
        except Exception as exc:
            log.error("game %s: loading failed: %s", game_id, exc)
            raise RequestError("storage_failed", "the game could not be read from storage; try again "
                                                 "in a moment") from None
        if stored is None:
            raise RequestError("unknown_game", "there is no such game")
        try:
            room = await asyncio.to_thread(self._restore, game_id, stored)
        except (ValueError, RequestError, KeyError, TypeError) as exc:
            log.error("game %s cannot be restored: %s", game_id, exc)
            raise RequestError("corrupt_game", "this game's stored record cannot be read by this "
                                               "version of huntgather") from None
        return room

    def _restore(self, game_id: str, stored: StoredGame) -> Room:
        setup = GameSetup.from_json(stored.setup, stored=True)
        game = restore_game(setup, stored.history, self.draws(), stored.position)
        if stored.seats:
            seats = [SeatState(SeatKind(r.kind), r.level, r.name, r.secret_hash, r.joined, r.account_id)
                     for r in stored.seats]
            open_access = False
        else:   # stored before seats had secrets
            seats = [SeatState(s.kind, s.level, None, None, False) for s in setup.seats]
            open_access = True
        open_seats, expires = self.storage.lobby_open(game_id) if setup.public else ([], None)
        return Room(game_id, setup, game, self.storage, seats, stored.creator_hash, open_access,
                    self.workers, self.hints, self.bot_delay, self.max_watchers, tally=self.tally,
                    draining=self.tally.draining, undone=len(stored.history) - len(game.history),
                    draws=self.draws, chat_log=self.storage.chat_lines(game_id, CHAT_HISTORY),
                    watchers_open=self.storage.watchers_chat_open(game_id),
                    clock=None if stored.clock is None or setup.clock is None
                    else ClockState.from_json(stored.clock),
                    open_seats=set(open_seats), lobby_expires=expires,
                    rematch_state=self.storage.rematch_of(game_id) if game.is_over else None)

    async def delete(self, game_id: str, secret: str | None) -> None:
        """Delete a stored game (with the creator's secret); every page of it is told and closed."""
        room = await self.get(game_id)
        if not room.open_access and (secret is None or not secret_matches(secret, room.creator_hash)):
            raise RequestError("not_creator", "only the game's creator can delete it")
        if room.setup.rated and room.game.is_over:   # the ratings are computed from it
            raise RequestError(ErrorCode.RATED_GAME_KEPT, "a finished rated game is kept: the players' "
                                                          "ratings are computed from it")
        async with self._lock, room.lock:   # let a move in progress finish first
            try:
                await self.storage.delete_async(game_id)
            except Exception as exc:
                log.error("game %s: deleting failed: %s", game_id, exc)
                raise RequestError("storage_failed", "the game could not be deleted; try again in "
                                                     "a moment") from None
            await self._close_deleted(room)

    async def _close_deleted(self, room: Room, why: str = "this game has been deleted") -> None:
        """Close a deleted game: every page is told (``why``) and its socket closed."""
        if self._rooms.get(room.id) is room:
            del self._rooms[room.id]
        if room.closed:
            return
        await room.close()
        room.broadcast(protocol.error("deleted", why, None, room.version))
        for conn in list(room.conns):
            conn.finish(CLOSE_GONE, "deleted")

    async def hand_back(self, game_id: str, seat: int) -> str:
        """:meth:`Room.hand_back` of a stored game (``unknown_game`` if there is none)."""
        room = await self.get(game_id)
        return await room.hand_back(seat)

    async def take_seat(self, game_id: str, seat: int, account: Account | None,
                        name: str | None) -> str:
        """:meth:`Room.take_seat` of a stored game (``unknown_game`` if there is none)."""
        room = await self.get(game_id)
        return await room.take_seat(seat, account, name)

    async def chat_of(self, game_id: str) -> list[ChatLine]:
        """Every chat line of a stored game, oldest first (for its replay)."""
        await self.get(game_id)   # an unknown game is refused
        return await asyncio.to_thread(self.storage.chat_lines, game_id)

    async def replay_view(self, game_id: str, ply: int) -> ReplayView:
        """The position of a game after its first ``ply`` moves (for step-by-step replay)."""
        room = await self.get(game_id)
        history = room.game.history
        if not 0 <= ply <= len(history):
            raise RequestError("bad_request", f"the move number must be from 0 to {len(history)}")
        game = Game.replay(room.game.initial, history[:ply])
        view = protocol.snapshot(game, game_id, room.setup.seed, str(room.setup.deal), replay=True,
                                 rated=room.setup.rated, projections=room.setup.projections)
        return {**view, "total": len(history)}

    async def drain(self) -> None:
        """The process stops: every bot whose search is under way stores its move, and no bot
        starts another (the caller bounds the wait, then :meth:`close` cancels what is left)."""
        self.tally.draining = True
        rooms = list(self._rooms.values())
        if rooms:
            await asyncio.gather(*(room.finish_bots() for room in rooms))

    async def close(self) -> None:
        if self._stop_listening is not None:
            self._stop_listening()
        for task in list(self._tasks):
            task.cancel()
        for room in list(self._rooms.values()):
            await room.close()
