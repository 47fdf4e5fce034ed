"""An arena: bots from outside and huntgather's own play a tournament's mirrored deals on a server.

Each game is a game on a running ``huntgather play`` server, created through the HTTP API with a
*mirrored deal* (setup ``mirror``): the draws of deal ``d`` of a tournament with the arena's seed
(:func:`huntgather.deals.deal_orders`), so every rotation of a deal's line-up plays the
same tiles in the same order.  The deals, line-ups, seat rotations, bot seeds and the tables
(Elo, head to head) are :mod:`huntgather.lab.tournament`'s; the log is its log
(:class:`huntgather.lab.tournament_log.TournamentLog`), so an arena resumes like a tournament and
``tools/meeting_interval.py`` reads its log.

An :class:`Entrant` is one of three kinds:

* an **outside bot**, ``NAME=COMMAND``: its seat is an outside bot's (``{"kind": "remote"}``) and
  the arena runs ``COMMAND --server=URL --game=ID --token=TOKEN`` for every game it plays (the
  same in the environment: ``HUNTGATHER_SERVER``, ``HUNTGATHER_GAME``, ``HUNTGATHER_TOKEN``;
  ``examples/remote_bot.py`` is such a command), which must play the seat to the end of the game
  and exit 0;
* a **server bot**, ``server:LEVEL``: a bot seat of the server, which plays it itself;
* a **built-in bot**, any bot spec of ``huntgather tournament`` (``greedy``, ``mcts:hard``…):
  the arena plays its seat in this process through :mod:`huntgather.client`, with the seed the
  tournament would give it.

>>> parse_entrant("mine=python examples/remote_bot.py --bot greedy").command
('python', 'examples/remote_bot.py', '--bot', 'greedy')
>>> parse_entrant("server:easy").level, parse_entrant("greedy").kind
('easy', 'builtin')
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import re
import shlex
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from huntgather.bots import make_bot
from huntgather.client.connection import Disconnected, GameConnection, ServerError
from huntgather.client.http import create_game
from huntgather.client.position import bot_turn, state_of, turn_json
from huntgather.editions import get_edition
from huntgather.lab.tournament import (
    GameResult,
    TournamentResult,
    bot_seed,
    games_done,
    line_up,
    seating,
    tournament_result,
)

__all__ = ["ArenaError", "Entrant", "parse_entrant", "play_arena_game", "run_arena"]

#: an outside bot's name: what the log, the tables and the page call it
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,23}")
#: how long an outside bot may take to exit once its game is over
EXIT_GRACE = 30.0


class ArenaError(Exception):
    """A game of the arena could not be played to its end (the message says why)."""


@dataclass(frozen=True)
class Entrant:
    """A bot of the arena: ``name`` in the log and tables; ``kind`` ``outside`` (``command``),
    ``server`` (``level``) or ``builtin`` (``name`` is its spec)."""

    name: str
    kind: str = "builtin"
    command: tuple[str, ...] = ()
    level: str | None = None


def parse_entrant(text: str) -> Entrant:
    """An entrant from its spec on the command line: ``NAME=COMMAND``, ``server:LEVEL`` or a
    built-in bot spec; ``ValueError`` saying what is wrong."""
    text = text.strip()
    name, eq, command = text.partition("=")
    if eq:
        name = name.strip()
        if not NAME.fullmatch(name):
            raise ValueError(f"an outside bot's name is 1 to 24 letters, digits or _.+- (not {name!r})")
        words = tuple(shlex.split(command))
        if not words:
            raise ValueError(f"the outside bot {name} needs a command")
        return Entrant(name, "outside", words)
    if text.startswith("server:"):
        level = text.removeprefix("server:")
        if not level:
            raise ValueError("server:LEVEL needs a level")
        return Entrant(text, "server", level=level)
    make_bot(text, seed=0)   # ValueError for an unknown spec
    return Entrant(text)


def _seat(entrant: Entrant) -> dict[str, Any]:
    if entrant.kind == "outside":
        return {"kind": "remote", "name": entrant.name}
    if entrant.kind == "server":
        return {"kind": "bot", "level": entrant.level}
    return {"kind": "human", "name": entrant.name[:24]}


async def _play_builtin(server: str, game: str, secret: str, spec: str, seed: int, timeout: float) -> None:
    """Play the seat of ``secret`` with huntgather's bot ``spec`` until the game is over."""
    bot = make_bot(spec, seed=seed)
    async with await GameConnection.open(server, game, [secret], timeout=timeout) as page:
        while True:
            await page.wait_until(lambda: page.closed or (page.view is not None
                                                          and (page.view["over"] or page.my_turn)), timeout)
            view = page.view
            if page.closed:
                raise Disconnected(page.close_code, page.close_reason)
            if view is None or view["over"]:
                return
            if not page.my_turn:
                continue
            # in a thread, so that the connection answers the server's pings while the bot thinks
            moves = await asyncio.to_thread(bot_turn, state_of(view), bot.choose)
            try:
                await page.turn(turn_json(moves))
            except ServerError as refused:
                if refused.code != "stale":
                    raise
                await page.resync()


def _tail(handle: IO[bytes], lines: int = 12) -> str:
    handle.seek(0)
    text = handle.read().decode("utf-8", "replace").rstrip()
    return "\n".join(text.splitlines()[-lines:]) or "(it printed nothing on stderr)"


async def play_arena_game(server: str, entrants: Sequence[Entrant], *, seed: int, deal: int, rotation: int,
                          edition: str = "2020", short: int | None = None,
                          timeout: float = 600.0) -> tuple[GameResult, str]:
    """Play one game of a deal on ``server``: ``entrants`` is the deal's line-up, turned ``rotation``
    seats; return its result and the game's id.  Raises :class:`ArenaError` when a bot fails (an
    outside bot exits before the game is over, or a built-in one is refused) or the game takes
    longer than ``timeout`` seconds; the bots' processes never outlive the call."""
    players = len(entrants)
    seats = seating(entrants, rotation)
    setup: dict[str, Any] = {"edition": edition, "seats": [_seat(e) for e in seats], "seed": seed,
                             "mirror": deal}
    if short is not None:
        setup["short"] = short
    made = await create_game(server, setup)
    game = made["id"]
    tasks: dict[str, asyncio.Task[None]] = {}
    procs: dict[str, tuple[asyncio.subprocess.Process, IO[bytes]]] = {}
    watcher: GameConnection | None = None
    try:
        for k, entrant in enumerate(seats):
            index = (k - rotation) % players   # which bot of the line-up: its seed, as in a tournament
            if entrant.kind == "builtin":
                tasks[f"{entrant.name} (seat {k})"] = asyncio.create_task(_play_builtin(
                    server, game, made["seats"][str(k)], entrant.name, bot_seed(seed, deal, index), timeout))
            elif entrant.kind == "outside":
                errors: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed in the finally below
                try:
                    token = made["tokens"][str(k)]
                    # with "=": an id or a token may begin with "-"
                    proc = await asyncio.create_subprocess_exec(
                        *entrant.command, f"--server={server}", f"--game={game}", f"--token={token}",
                        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=errors,
                        env={**os.environ, "HUNTGATHER_SERVER": server, "HUNTGATHER_GAME": game,
                             "HUNTGATHER_TOKEN": token})
                except OSError as error:
                    errors.close()
                    raise ArenaError(f"the outside bot {entrant.name} cannot be started "
                                     f"({shlex.join(entrant.command)}): {error}") from None
                procs[f"{entrant.name} (seat {k})"] = (proc, errors)
        watcher = await GameConnection.open(server, game, [], timeout=timeout, inbox=0)
        deadline = time.monotonic() + timeout
        while not (watcher.view is not None and watcher.view["over"]):
            await watcher.wait_until(lambda: watcher is not None and watcher.view is not None
                                     and bool(watcher.view["over"]), 0.5)
            if watcher.view is not None and watcher.view["over"]:
                break
            for who, task in tasks.items():
                if task.done() and task.exception() is not None:
                    raise ArenaError(f"game {game}: {who} failed: {task.exception()!r}")
            for who, (proc, errors) in procs.items():
                if proc.returncode is not None:
                    raise ArenaError(f"game {game}: the outside bot {who} exited (code {proc.returncode}) "
                                     f"before the game was over; its last words:\n{_tail(errors)}")
            if watcher.closed:
                raise ArenaError(f"game {game}: the server closed the connection "
                                 f"({watcher.close_code} {watcher.close_reason})")
            if time.monotonic() > deadline:
                raise ArenaError(f"game {game} was not over after {timeout:.0f} s "
                                 f"(seat {watcher.to_move} to move)")
        view = watcher.view
        assert view is not None
        scores = tuple(int(p["score"]) for p in view["players"])
        for who, (proc, errors) in procs.items():
            try:
                code = await asyncio.wait_for(proc.wait(), EXIT_GRACE)
            except TimeoutError:
                raise ArenaError(f"game {game}: the outside bot {who} did not exit within {EXIT_GRACE:.0f} s "
                                 f"of the end of the game") from None
            if code != 0:
                raise ArenaError(f"game {game}: the outside bot {who} exited with code {code} at the end; "
                                 f"its last words:\n{_tail(errors)}")
        for who, task in tasks.items():
            try:
                await asyncio.wait_for(task, EXIT_GRACE)
            except Exception as error:
                raise ArenaError(f"game {game}: {who} failed: {error!r}") from None
        return GameResult(deal, rotation, tuple(e.name for e in seats), scores), game
    finally:
        for task in tasks.values():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        for proc, errors in procs.values():
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
            errors.close()
        if watcher is not None:
            await watcher.close()


async def run_arena(server: str, entrants: Sequence[Entrant], games: int, players: int = 2, seed: int = 0,
                    edition: str = "2020", short: int | None = None, timeout: float = 600.0,
                    done: Sequence[GameResult] = (),
                    progress: Callable[[GameResult, str], None] | None = None) -> TournamentResult:
    """Play at least ``games`` games (whole deals, one at a time) of a tournament of ``entrants`` on
    ``server``, and rank them as :func:`huntgather.lab.tournament.run_tournament` does.

    ``done``: games of this same arena already played (from its log), not played again;
    ``progress`` is called with each game and its id as it ends.  ``ValueError`` for settings
    that cannot be played, :class:`ArenaError` when a game cannot be, and the client's errors
    (:class:`~huntgather.client.ApiError`, ``OSError``) when the server refuses or is not there.
    """
    names = [e.name for e in entrants]
    if not entrants:
        raise ValueError("an arena needs at least one bot")
    if len(set(names)) != len(names):
        raise ValueError(f"two bots of the arena have one name: {', '.join(names)}")
    ed = get_edition(edition)
    if not ed.min_players <= players <= ed.max_players:
        raise ValueError(f"the {ed.name} edition is for {ed.min_players}-{ed.max_players} players, "
                         f"not {players}")
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, not {games}")
    by_name = {e.name: e for e in entrants}
    finished = games_done(names, players, done)
    deals = math.ceil(games / players)
    played = [g for (d, _), g in finished.items() if d < deals]
    for deal in range(deals):
        lineup = [by_name[n] for n in line_up(names, players, deal)]
        for rotation in range(players):
            if (deal, rotation) in finished:
                continue
            result, game = await play_arena_game(server, lineup, seed=seed, deal=deal, rotation=rotation,
                                                 edition=ed.name, short=short, timeout=timeout)
            played.append(result)
            if progress is not None:
                progress(result, game)
    return tournament_result(names, ed.name, players, seed, played)
