"""Live games ("rooms"): setup, the one owner that serializes moves, bots, views.

A :class:`Room` owns one :class:`~huntgather.game.Game`.  Every change goes
through :meth:`Room.submit`, under the room's ``asyncio.Lock``: the moves are
tried on a copy of the game, stored, and only then become the room's game and
are broadcast.  An illegal or malformed request raises :class:`RequestError`
and changes nothing.

>>> setup = GameSetup.from_json({"seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
...                              "seed": 5, "short": 6})
>>> game = build_game(setup)
>>> game.players, len(game.state.normal) + 1   # one tile of the six is already drawn
(2, 6)
>>> view = game_view(game, setup)
>>> view["decision"]["phase"], view["players"][1]["kind"]
('place', 'bot')
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Protocol

from huntgather.editions import edition_names, get_edition
from huntgather.events import (
    Event,
    FeatureScored,
    FinalScoring,
    GameOver,
    MeepleTakenBack,
    OccupantPlaced,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
)
from huntgather.game import Game
from huntgather.moves import HUT, Draw, InvalidMoveError, Move, Occupy, Place, TakeBack, parse_move
from huntgather.server.storage import Storage
from huntgather.state import ROLES, SHAMAN, IllegalMoveError, State
from huntgather.svg import PLAYER_COLOURS, PLAYER_LETTERS, PLAYER_NAMES

log = logging.getLogger("huntgather.server")

BOT_LEVELS = ("random", "greedy", "easy", "medium", "hard")


class RequestError(ValueError):
    """A client request that cannot be honoured; ``code`` is a short machine-readable reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --------------------------------------------------------------------------- setup


@dataclass(frozen=True)
class Seat:
    """A seat: a person at this screen (``"human"``) or a bot of some level."""

    kind: str = "human"
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level} if self.kind == "bot" else {"kind": "human"}


@dataclass(frozen=True)
class GameSetup:
    """Everything needed to start a game again exactly: stored with every saved game."""

    edition: str = "2020"
    seats: tuple[Seat, ...] = (Seat(), Seat())
    start_player: int = 0
    seed: int = 0
    #: a short game: the normal stack holds only this many tiles (chosen from the seed)
    short: int | None = None

    @classmethod
    def from_json(cls, data: Any) -> GameSetup:
        """Validate a setup sent by a client; raise :class:`RequestError` saying what is wrong."""
        if not isinstance(data, dict):
            raise RequestError("bad_setup", "the game setup must be a JSON object")
        known = {"edition", "seats", "start_player", "seed", "short"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RequestError("bad_setup", f"unknown setup field(s): {', '.join(unknown)}")
        edition = data.get("edition", "2020")
        if edition not in edition_names():
            raise RequestError("bad_setup", f"unknown edition {edition!r}; choose one of "
                                            f"{', '.join(edition_names())}")
        ed = get_edition(edition)
        raw_seats = data.get("seats", [{"kind": "human"}, {"kind": "human"}])
        if not isinstance(raw_seats, list) or not ed.min_players <= len(raw_seats) <= ed.max_players:
            raise RequestError("bad_setup", f"seats must be a list of {ed.min_players} to "
                                            f"{ed.max_players} seats")
        seats = []
        for i, s in enumerate(raw_seats):
            if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
                raise RequestError("bad_setup", f"seat {i} must be {{\"kind\": \"human\"}} or "
                                                f"{{\"kind\": \"bot\", \"level\": ...}}")
            if s["kind"] == "bot":
                level = s.get("level", "easy")
                if level not in BOT_LEVELS:
                    raise RequestError("bad_setup", f"seat {i}: unknown bot level {level!r}; choose one "
                                                    f"of {', '.join(BOT_LEVELS)}")
                seats.append(Seat("bot", level))
            else:
                seats.append(Seat())
        start = data.get("start_player", 0)
        if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < len(seats):
            raise RequestError("bad_setup", f"start_player must be a seat from 0 to {len(seats) - 1}")
        seed = data.get("seed")
        if seed is None or seed == "":
            seed = secrets.randbelow(2**31)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise RequestError("bad_setup", "seed must be a whole number from 0 to 2^63-1, or empty")
        short = data.get("short")
        normal = len(ed.tiles.normal_ids)
        if short is not None and (not isinstance(short, int) or isinstance(short, bool)
                                  or not 1 <= short <= normal):
            raise RequestError("bad_setup", f"short must be a number of tiles from 1 to {normal}, or null")
        return cls(edition, tuple(seats), start, seed, short)

    def to_json(self) -> dict[str, Any]:
        return {"edition": self.edition, "seats": [s.to_json() for s in self.seats],
                "start_player": self.start_player, "seed": self.seed, "short": self.short}


def build_game(setup: GameSetup) -> Game:
    """The game a setup starts (its first tile already drawn)."""
    state = State.new(len(setup.seats), setup.edition, setup.start_player)
    if setup.short is not None:
        rng = random.Random(f"short-{setup.seed}")
        state.normal = tuple(sorted(rng.sample(state.normal, setup.short)))
    return Game(len(setup.seats), seed=setup.seed, state=state)


def restore_game(setup: GameSetup, history: Sequence[str]) -> Game:
    """Replay a stored game exactly: player moves are played again, draws are checked.

    Raises :class:`ValueError` if the stored draws are not what the seed gives
    (a record from a different engine version).
    """
    game = build_game(setup)
    for i, text in enumerate(history):
        move = parse_move(text)
        if isinstance(move, Draw):
            if i >= len(game.history) or game.history[i] != move:
                raise ValueError(f"stored move {i} ({text}) differs from the replay")
            continue
        if len(game.history) != i:
            raise ValueError(f"stored move {i} ({text}) comes before the draws the replay needs")
        game.play(move)
    if [str(m) for m in game.history] != list(history):
        raise ValueError("the replay does not end where the stored game does")
    return game


# --------------------------------------------------------------------------- views


def event_view(e: Event) -> dict[str, Any]:
    """One log entry: event kind, text, and the seat concerned (if any)."""
    out: dict[str, Any] = {"kind": type(e).__name__, "text": e.describe()}
    if isinstance(e, TilePlaced | OccupantPlaced | MeepleTakenBack):
        out["player"] = e.player
        out["tile"] = e.tile
    if isinstance(e, FeatureScored):
        out["points"] = list(e.points)
        out["tiles"] = list(e.tiles)
    if isinstance(e, TileDrawn | TileDiscarded):
        out["tile"] = e.tile
    return out


def final_view(game: Game) -> dict[str, Any] | None:
    """The final-scoring table: one row per river system (huts) and meadow (hunters)."""
    final = next((e for e in reversed(game.events) if isinstance(e, FinalScoring)), None)
    over = next((e for e in reversed(game.events) if isinstance(e, GameOver)), None)
    if final is None or over is None:
        return None
    return {"rows": [{"kind": r.kind, "points": list(r.points), "explanation": r.explanation,
                      "tiles": list(r.tiles)} for r in final.rows],
            "scores": list(over.scores), "winners": list(over.winners), "text": over.describe()}


def game_view(game: Game, setup: GameSetup, game_id: str = "", replay: bool = False) -> dict[str, Any]:
    """What a client needs to draw a game: board, pieces, players, decision, legal moves, log."""
    state = game.state
    d = state.decision
    board = state.board
    players = []
    for i, seat in enumerate(setup.seats):
        players.append({"seat": i, "colour": PLAYER_NAMES[i], "rgb": PLAYER_COLOURS[i],
                        "letter": PLAYER_LETTERS[i], "kind": seat.kind, "level": seat.level,
                        "score": state.scores[i], "meeples": state.meeples[i], "huts": state.huts[i]})
    last: list[dict[str, Any]] = []
    for e in reversed(game.events):
        if isinstance(e, TilePlaced):
            if last and last[0]["player"] != e.player:
                break
            last.insert(0, {"tile": e.tile, "x": e.x, "y": e.y, "player": e.player})
            if not e.bonus:
                break
    decision = {"phase": d.phase, "player": d.player, "tile": d.tile, "stack": d.stack,
                "text": state.describe_decision()}
    return {
        "type": "state",
        "game": game_id,
        "edition": state.edition.name,
        "setup": setup.to_json(),
        "ply": len(game.history),
        "history": [str(m) for m in game.history],
        "players": players,
        "decision": decision,
        "legal": [] if replay else [str(m) for m in game.legal_moves()],
        "board": [{"x": x, "y": y, "tile": t, "rotation": r} for (x, y), (t, r) in board.cells.items()],
        "occupants": [{"tile": n // 10, "zone": n % 10, "player": p, "piece": piece}
                      for n, (p, piece) in board.occupants.items()],
        "remaining": sorted(state.normal),
        "menhirs": len(state.bonus),
        "bonus_name": state.edition.bonus_name,
        "log": [event_view(e) for e in game.events],
        "last": last,
        "over": state.is_over,
        "final": final_view(game),
        "replay": replay,
    }


# --------------------------------------------------------------------------- bots


class Bot(Protocol):
    def choose(self, state: State) -> Move: ...


class _RandomBot:
    """Fallback while :mod:`huntgather.bots` is missing: a uniformly random legal move."""

    def __init__(self, seed: int | None) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        moves = state.legal_moves()
        return moves[self._rng.randrange(len(moves))]


def make_bot(level: str, seed: int | None = None) -> Bot:
    """The bot of ``level`` from :mod:`huntgather.bots`, or a random mover if that is unavailable."""
    try:
        from huntgather.bots import make_bot as factory  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return _RandomBot(seed)
    try:
        bot: Bot = factory(level, seed=seed)
    except (ValueError, KeyError) as exc:
        log.warning("bot level %r unavailable (%s); using a random mover", level, exc)
        return _RandomBot(seed)
    return bot


def suggest(state: State, seed: int) -> list[tuple[tuple[Move, ...], float, int]]:
    """Up to three hints from the hard bot's search (:func:`huntgather.bots.suggest_turns`)."""
    from huntgather.bots import suggest_turns
    return suggest_turns(state, top=3, seed=seed)


def describe_turn(state: State, moves: Sequence[Move]) -> str:
    """Words for a turn, e.g. ``'tile 30 at (1, 0), turned 90°; gatherer on the forest (1 menhir)'``."""
    tiles = state.edition.tiles
    parts = []
    walk = state.copy()
    for move in moves:
        phase = walk.phase
        walk.apply(move)
        if isinstance(move, Place):
            turned = f", turned {90 * move.rotation}°" if move.rotation else ""
            parts.append(f"tile {move.tile} at ({move.x}, {move.y}){turned}")
        elif isinstance(move, TakeBack):
            parts.append(f"shaman: take back the meeple from tile {move.tile}")
        elif isinstance(move, Occupy):
            zone = tiles[move.tile].zones[move.zone]
            who = "hut" if move.piece == HUT else ROLES[zone.kind]
            parts.append(f"{who} on the {zone.describe()}")
        elif phase == SHAMAN:
            parts.append("shaman: take nothing back")
        else:
            parts.append("no piece")
    return "; ".join(parts)


# --------------------------------------------------------------------------- rooms

Broadcast = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass
class Room:
    """One live game and the clients watching it."""

    id: str
    setup: GameSetup
    game: Game
    storage: Storage
    executor: Executor | None = None
    bot_delay: float = 0.6
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Broadcast] = field(default_factory=set)
    bots: dict[int, Bot] = field(default_factory=dict)
    _bot_task: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        for i, seat in enumerate(self.setup.seats):
            if seat.kind == "bot":
                self.bots[i] = make_bot(seat.level or "easy", seed=self.setup.seed * 7 + i)

    def view(self) -> dict[str, Any]:
        return game_view(self.game, self.setup, self.id)

    def _check_request(self, game: Game, seat: Any, ply: Any, moves: Any, by_bot: bool) -> list[Move]:
        self._check_turn(game, seat, ply, by_bot)
        if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
            raise RequestError("bad_request", "moves must be a non-empty list of move texts")
        if len(moves) > 4:
            raise RequestError("bad_request", "at most one turn (place, shaman, occupant) at a time")
        try:
            return [parse_move(m) for m in moves]
        except InvalidMoveError as exc:
            raise RequestError("invalid_move", str(exc)) from None

    def _check_turn(self, game: Game, seat: Any, ply: Any, by_bot: bool) -> None:
        """The game is on, the request's view is current, and it is this seat's (a person's) turn."""
        if game.is_over:
            raise RequestError("game_over", "the game is over")
        if ply is not None and ply != len(game.history):
            raise RequestError("stale", f"your view is out of date (move {ply}, the game is at move "
                                        f"{len(game.history)}); reload")
        player = game.decision.player
        assert player is not None
        if not by_bot:
            if player in self.bots:
                raise RequestError("not_your_turn", f"it is {PLAYER_NAMES[player]}'s turn, and a bot "
                                                    f"plays {PLAYER_NAMES[player]}")
            if seat is not None and seat != player:
                who = PLAYER_NAMES[seat] if isinstance(seat, int) and 0 <= seat < len(PLAYER_NAMES) \
                    else repr(seat)
                raise RequestError("not_your_turn", f"not your turn: it is {PLAYER_NAMES[player]}'s turn, "
                                                    f"not {who}'s")

    def _trial(self, parsed: list[Move]) -> Game:
        """The game after ``parsed`` (all by the player to move); the room's game is untouched."""
        trial = self.game.copy()
        player = trial.decision.player
        for move in parsed:
            if trial.is_over or trial.decision.player != player:
                raise RequestError("illegal_move", f"{move}: the turn is already over")
            try:
                trial.play(move)
            except IllegalMoveError as exc:
                raise RequestError("illegal_move", f"{move}: {exc}") from None
        return trial

    async def preview(self, seat: Any, ply: Any, moves: Any) -> dict[str, Any]:
        """What the moves would lead to, without storing or sharing anything."""
        async with self.lock:
            parsed = self._check_request(self.game, seat, ply, moves, False)
            trial = self._trial(parsed)
            d = trial.decision
            mid_turn = not trial.is_over and d.phase in ("shaman", "occupy")
            new_events = trial.events[len(self.game.events):]
            return {"type": "preview", "moves": [str(m) for m in parsed],
                    "decision": {"phase": d.phase, "player": d.player, "tile": d.tile, "stack": d.stack},
                    "legal": [str(m) for m in trial.legal_moves()] if mid_turn else [],
                    "turn_over": not mid_turn,
                    "events": [event_view(e) for e in new_events if not isinstance(e, TileDrawn)]}

    async def hint(self, seat: Any, ply: Any, moves: Any = None) -> dict[str, Any]:
        """The hard bot's best turns for the person to move (after ``moves``, if any, of the turn).

        The search sees only what the player may know (the stacks' contents,
        not their order) and runs in the bot executor; nothing is stored.
        """
        async with self.lock:
            if moves is None or moves == []:
                self._check_turn(self.game, seat, ply, False)
                state = self.game.state.copy()
            else:
                parsed = self._check_request(self.game, seat, ply, moves, False)
                trial = self._trial(parsed)
                if trial.is_over or trial.decision.player != self.game.decision.player:
                    raise RequestError("bad_request", "those moves end the turn: nothing left to hint")
                state = trial.state.copy()
            at = len(self.game.history)
        loop = asyncio.get_running_loop()
        turns = await loop.run_in_executor(self.executor, suggest, state, self.setup.seed + at)
        return {"type": "hint", "ply": at, "player": state.player,
                "turns": [{"moves": [str(m) for m in plan], "text": describe_turn(state, plan),
                           "value": round(value, 3), "visits": visits} for plan, value, visits in turns]}

    async def submit(self, seat: Any, ply: Any, moves: Any, by_bot: bool = False) -> list[Event]:
        """Check, store, then apply and broadcast a player's moves."""
        async with self.lock:
            parsed = self._check_request(self.game, seat, ply, moves, by_bot)
            trial = self._trial(parsed)
            start = len(self.game.history)
            new = [str(m) for m in trial.history[start:]]
            status = "over" if trial.is_over else "playing"
            try:
                await asyncio.to_thread(self.storage.append, self.id, start, new, status=status,
                                        scores=list(trial.scores))
            except Exception as exc:  # the database refused: the move does not count
                log.error("game %s: storing moves %s failed: %s", self.id, new, exc)
                raise RequestError("storage_failed", f"the move could not be stored, so it does not "
                                                     f"count: {exc}") from None
            events = trial.events[len(self.game.events):]
            self.game = trial
            view = self.view()
        view["events"] = [event_view(e) for e in events]
        await self.broadcast(view)
        self.wake_bots()
        return events

    async def broadcast(self, message: dict[str, Any]) -> None:
        for send in list(self.listeners):
            try:
                await send(message)
            except Exception:  # a closed socket: forget it
                self.listeners.discard(send)

    def wake_bots(self) -> None:
        """Start the bot loop if a bot is to move and it is not running."""
        d = self.game.decision
        if self.game.is_over or d.player not in self.bots:
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.game.is_over and self.game.decision.player in self.bots:
            player = self.game.decision.player
            assert player is not None
            delay = self.bot_delay if self.game.decision.phase == "place" else self.bot_delay / 2
            await asyncio.sleep(delay)
            state = self.game.state.copy()
            ply = len(self.game.history)
            bot = self.bots[player]
            try:
                move = await loop.run_in_executor(self.executor, bot.choose, state)
                await self.submit(None, ply, [str(move)], by_bot=True)
            except RequestError as exc:
                if exc.code in ("stale", "game_over"):
                    continue
                if exc.code == "storage_failed":
                    return   # the next change (or a reload) wakes the bots again
                log.warning("bot %s chose a move the game refused (%s); playing a random move", player,
                            exc.message)
                await self._fallback(ply)
            except Exception:
                log.exception("bot %s failed; playing a random move", player)
                await self._fallback(ply)

    async def _fallback(self, ply: int) -> None:
        if ply == len(self.game.history) and not self.game.is_over:
            move = _RandomBot(ply).choose(self.game.state)
            with contextlib.suppress(RequestError):
                await self.submit(None, ply, [str(move)], by_bot=True)

    @property
    def idle(self) -> bool:
        """Nobody watching, no bot thinking, no move in progress: safe to drop from memory."""
        return not self.listeners and (self._bot_task is None or self._bot_task.done()) \
            and not self.lock.locked()

    async def close(self) -> None:
        if self._bot_task is not None:
            self._bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._bot_task


class Rooms:
    """The live rooms, loaded from storage on first use.

    At most ``max_rooms`` stay in memory: beyond that, the least recently
    used *idle* rooms (nobody connected, no bot thinking) are dropped.  They
    lose nothing, since every move is stored before it counts, and come back
    from storage on the next request.
    """

    def __init__(self, storage: Storage, executor: Executor | None = None, bot_delay: float = 0.6,
                 max_rooms: int = 64) -> None:
        self.storage = storage
        self.executor = executor
        self.bot_delay = bot_delay
        self.max_rooms = max_rooms
        self._rooms: dict[str, Room] = {}
        self._lock = asyncio.Lock()

    def _room(self, game_id: str, setup: GameSetup, game: Game) -> Room:
        room = Room(game_id, setup, game, self.storage, self.executor, self.bot_delay)
        self._rooms[game_id] = room
        self._evict()
        return room

    def _evict(self) -> None:
        for game_id, room in list(self._rooms.items()):   # least recently used first
            if len(self._rooms) <= self.max_rooms:
                return
            if room.idle:
                del self._rooms[game_id]

    @property
    def live(self) -> list[str]:
        """The ids of the rooms in memory, least recently used first."""
        return list(self._rooms)

    async def delete(self, game_id: str) -> None:
        """Delete a stored game; anyone watching it is told.  Raise :class:`RequestError` if unknown."""
        async with self._lock:
            room = self._rooms.pop(game_id, None)
            if room is not None:
                async with room.lock:   # let a move in progress finish first
                    await room.close()
                    watchers = list(room.listeners)
                    room.listeners.clear()
            else:
                watchers = []
            deleted = await asyncio.to_thread(self.storage.delete, game_id)
        for send in watchers:
            with contextlib.suppress(Exception):
                await send({"type": "error", "code": "deleted", "message": "this game has been deleted"})
        if not deleted:
            raise RequestError("unknown_game", f"no game {game_id!r}")

    async def create(self, setup: GameSetup) -> Room:
        game = await asyncio.to_thread(build_game, setup)
        game_id = secrets.token_hex(6)
        await asyncio.to_thread(self.storage.create, game_id, setup.to_json(), [str(m) for m in game.history])
        async with self._lock:
            room = self._room(game_id, setup, game)
        room.wake_bots()
        return room

    async def get(self, game_id: str) -> Room:
        """The live room of a stored game; raise :class:`RequestError` if there is none."""
        async with self._lock:
            room = self._rooms.pop(game_id, None)
            if room is not None:
                self._rooms[game_id] = room   # now the most recently used
                return room
            if not isinstance(game_id, str) or not game_id.isalnum() or len(game_id) > 40:
                raise RequestError("unknown_game", f"no game {game_id!r}")
            stored = await asyncio.to_thread(self.storage.load, game_id)
            if stored is None:
                raise RequestError("unknown_game", f"no game {game_id!r}")
            setup = GameSetup.from_json(stored[0])
            try:
                game = await asyncio.to_thread(restore_game, setup, stored[1])
            except ValueError as exc:
                raise RequestError("corrupt_game", f"game {game_id} cannot be restored: {exc}") from None
            room = self._room(game_id, setup, game)
        room.wake_bots()
        return room

    async def replay_view(self, game_id: str, ply: int) -> dict[str, Any]:
        """The position of a game after its first ``ply`` moves (for step-by-step replay)."""
        room = await self.get(game_id)
        history = room.game.history
        if not 0 <= ply <= len(history):
            raise RequestError("bad_request", f"ply must be from 0 to {len(history)}")
        game = Game.replay(room.game.initial, history[:ply])
        view = game_view(game, room.setup, game_id, replay=True)
        view["total_ply"] = len(history)
        view["full_history"] = [str(m) for m in history]
        return view

    async def close(self) -> None:
        for room in list(self._rooms.values()):
            await room.close()
