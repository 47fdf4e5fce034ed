"""The load benchmark: how many people can play at once on one server.

    python tools/loadtest.py [--games N] [--rate R] [--seconds S] [--processes P] [--db URL] [--url URL] ...

Starts ``huntgather play`` as real server processes on loopback (or uses
running servers, ``--url``), then keeps ``--games`` two-player games going at
once.  Both seats of every game are websocket clients, as a browser page would
be, and each game makes ``--rate`` turns a second.  Short games that end are
replaced by new ones, so the load stays steady.  After a warm-up it measures,
for ``--seconds``: the time from sending each turn to its ``ack``, whether the
other seat's page saw the ``update`` (and how soon), every error, and the CPU
time and peak memory of the server processes.  See ``docs/performance.md``,
"Load benchmark".  Every page is a :class:`huntgather.client.GameConnection`, so
the benchmark speaks the protocol exactly as any client of ``huntgather.client``
does; it needs the ``web`` extra.

Only loopback addresses, or the ``--url`` given, are ever contacted.  Each
client connection comes from its own loopback address (127.x.y.z) when the
server is on IPv4 loopback, as the players of a real server would: the server
lets one address create at most 30 games a minute (``--one-address`` turns
this off).

>>> args = build_parser().parse_args(["--games", "4", "--seconds", "3"])
>>> args.games, args.rate, args.short, args.processes, args.client_workers
(4, 1.0, 20, 1, 1)
>>> percentiles([5.0, 1.0, 3.0, 2.0, 4.0])
{'p50': 3.0, 'p95': 5.0, 'p99': 5.0, 'max': 5.0, 'mean': 3.0}
>>> percentiles([])
{'p50': None, 'p95': None, 'p99': None, 'max': None, 'mean': None}
>>> source_address(0, 0), source_address(1, 250), source_address(0, 62_499)
('127.10.1.1', '127.11.2.1', '127.10.250.250')
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import ipaddress
import json
import math
import os
import random
import re
import resource
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from huntgather.cli import CommandError
from huntgather.editions import DEFAULT_EDITION, edition_names

if TYPE_CHECKING:
    from huntgather.client import GameConnection

T = TypeVar("T")

#: how long a server process may take to start listening
START_TIMEOUT = 60.0
#: how long a server process may take to stop after SIGINT before it is killed
STOP_TIMEOUT = 15.0
#: the message of a server that listens (printed by ``huntgather play``)
PLAYING_AT = re.compile(r"playing at (https?://\S+?)/?$", re.MULTILINE)


def build_parser() -> argparse.ArgumentParser:
    """The command line of the load test."""
    parser = argparse.ArgumentParser(
        prog="loadtest",
        description="Start the web server (huntgather play) as separate processes on loopback, keep "
                    "--games two-player games going at once (both seats played by websocket clients, "
                    "each game making --rate turns a second; short games that end are replaced by new "
                    "ones) and measure, after a warm-up, how long each turn takes to be acknowledged, "
                    "whether the other seat sees every move, the errors, and the servers' CPU and "
                    "memory. Exit code 0 on a clean run, 1 if anything went wrong.")
    parser.add_argument("--games", "-n", type=int, default=100,
                        help="two-player games going at once (default 100)")
    parser.add_argument("--rate", type=float, default=1.0,
                        help="turns a second in each game (default 1.0)")
    parser.add_argument("--seconds", "-s", type=float, default=30.0,
                        help="how long to measure, after the warm-up, in seconds (default 30)")
    parser.add_argument("--warmup", type=float, default=10.0, metavar="SECONDS",
                        help="warm-up before measuring, in seconds; the games start during its first "
                             "half (default 10)")
    parser.add_argument("--short", type=int, default=20, metavar="TILES",
                        help="tiles in each game's normal stack: short games end sooner and are "
                             "replaced, so game creation is part of the load (default 20; 0 for the "
                             "whole stack)")
    parser.add_argument("--edition", "-e", choices=edition_names(), default=DEFAULT_EDITION,
                        help=f"edition of the games (default {DEFAULT_EDITION})")
    parser.add_argument("--processes", "-p", type=int, default=1,
                        help="server processes on the same database (several share moves only on "
                             "PostgreSQL); game g's seats connect to process g mod N and g+1 mod N, so "
                             "moves cross processes (default 1)")
    parser.add_argument("--db", default=None, metavar="URL|PATH",
                        help="database of the servers: a SQLite file or a SQLAlchemy URL such as "
                             "postgresql://user@localhost/db (default: a new temporary SQLite file, "
                             "removed afterwards)")
    parser.add_argument("--url", action="append", default=[], metavar="URL",
                        help="use this running server (http://host:port) instead of starting one; "
                             "repeat it to spread the games over several (no CPU or memory figures then)")
    parser.add_argument("--client-workers", "-w", type=int, default=1, metavar="K",
                        help="client processes to spread the games over, for when one client process "
                             "cannot keep up (default 1)")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                        help="how long to wait for an answer (an ack, a game, a connection) or for "
                             "the other seat's update before counting it as an error (default 10)")
    parser.add_argument("--one-address", action="store_true",
                        help="connect from 127.0.0.1 only, instead of one loopback address per "
                             "connection (the server's limit of 30 new games a minute per address then "
                             "applies)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the clients' move choices (default 0)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    return parser


def main(argv: Sequence[str] | None = None, *, tune_gc: bool = False) -> int:
    """Run the load test with ``argv`` (default: ``sys.argv[1:]``); return the exit code: 0 for a
    clean run, 1 if anything went wrong, 2 for bad arguments, 130 when interrupted.

    ``tune_gc`` (the command line's, not a caller's who shares its process): tune this process's
    garbage collector as the servers' is, when the clients run in it (see :func:`run`)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:   # --help, or a usage error already printed by argparse
        return exit_.code if isinstance(exit_.code, int) else 2
    try:
        return run(args, tune_gc=tune_gc)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except CommandError as err:
        print(f"loadtest: error: {err}", file=sys.stderr)
        return err.code


# --------------------------------------------------------------------------- figures


def percentiles(values: Sequence[float]) -> dict[str, float | None]:
    """p50, p95, p99 (nearest rank), max and mean of ``values``, rounded to 0.01; None when empty."""
    if not values:
        return {"p50": None, "p95": None, "p99": None, "max": None, "mean": None}
    ordered = sorted(values)
    n = len(ordered)

    def rank(q: float) -> float:
        return round(ordered[max(0, math.ceil(q * n) - 1)], 2)

    return {"p50": rank(0.50), "p95": rank(0.95), "p99": rank(0.99), "max": round(ordered[-1], 2),
            "mean": round(sum(ordered) / n, 2)}


@dataclass
class Tally:
    """What one client process saw.  Times in milliseconds; counts of the measured window unless said."""

    ack_ms: list[float] = field(default_factory=list)
    update_ms: list[float] = field(default_factory=list)
    create_ms: list[float] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)
    #: each garbage collection of the client process(es), its pause
    gc_ms: list[float] = field(default_factory=list)
    turns: int = 0
    #: moves stored by those turns (the server's draws included)
    stored_moves: int = 0
    #: errors by code, over the whole run (warm-up and the end included)
    errors: Counter[str] = field(default_factory=Counter)
    #: acknowledged turns whose update the other seat had to see, and those it did not see in time
    updates_expected: int = 0
    updates_missed: int = 0
    games_started: int = 0
    games_finished: int = 0
    games_abandoned: int = 0
    #: CPU seconds of the client process(es) during the measured window
    cpu_seconds: float = 0.0
    event_loop: str = "asyncio"
    #: the first unexpected exception of a client, for the report
    crash: str | None = None

    def merge(self, other: Tally) -> None:
        for name in ("ack_ms", "update_ms", "create_ms", "lag_ms", "gc_ms"):
            getattr(self, name).extend(getattr(other, name))
        for name in ("turns", "stored_moves", "updates_expected", "updates_missed", "games_started",
                     "games_finished", "games_abandoned", "cpu_seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.errors.update(other.errors)
        self.event_loop = other.event_loop
        self.crash = self.crash or other.crash


@dataclass(frozen=True)
class Plan:
    """What the clients do; picklable, for the client worker processes."""

    urls: tuple[str, ...]
    games: int
    rate: float
    seconds: float
    warmup: float
    short: int | None
    edition: str
    timeout: float
    seed: int
    spread: bool
    #: when the run starts (``time.time()``); every process counts its phases from here
    start: float


def source_address(worker: int, n: int) -> str:
    """The ``n``-th loopback address of client process ``worker``: 127.W.B.D, never .0 or .255."""
    return f"127.{10 + worker % 200}.{n // 250 % 250 + 1}.{n % 250 + 1}"


# --------------------------------------------------------------------------- HTTP


_TLS: ssl.SSLContext | None = None


async def post_json(base: str, path: str, body: Any, *, local: str | None, timeout: float) -> tuple[int, Any]:
    """POST ``body`` as JSON to ``base + path``, from the loopback address ``local`` if given (so
    that each request can come from its own address); the status and the decoded answer.

    One connection per request, spoken with h11 over asyncio's streams: an HTTP client object per
    request (needed for its own source address) cost a fifth of the load client's CPU, which the
    servers under test share the machine with.  Proxy settings of the environment are ignored.
    Raises :class:`OSError` (no connection, not an HTTP answer) or :class:`TimeoutError`.
    """
    import h11

    # one TLS context for every request: building one loads the CA store, which takes milliseconds of
    # the clients' event loop, and so would show in the latencies measured
    global _TLS
    parts = urlsplit(base)
    https = parts.scheme == "https"
    if https and _TLS is None:
        _TLS = ssl.create_default_context()
    host = parts.hostname or "127.0.0.1"
    data = json.dumps(body).encode()
    http = h11.Connection(h11.CLIENT)
    request = h11.Request(method="POST", target=parts.path.rstrip("/") + path, headers=[
        ("Host", parts.netloc), ("User-Agent", "huntgather-loadtest"), ("Content-Type", "application/json"),
        ("Content-Length", str(len(data))), ("Connection", "close")])
    status, chunks = 0, []
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(
                host, parts.port or (443 if https else 80), ssl=_TLS if https else None,
                local_addr=(local, 0) if local else None)
            try:
                for part in (request, h11.Data(data=data), h11.EndOfMessage()):
                    writer.write(http.send(part) or b"")
                while True:
                    event = http.next_event()
                    if event is h11.NEED_DATA:
                        http.receive_data(await reader.read(1 << 16))
                    elif isinstance(event, h11.Response):
                        status = event.status_code
                    elif isinstance(event, h11.Data):
                        chunks.append(bytes(event.data))
                    elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
                        break
            finally:
                writer.close()
    except h11.ProtocolError as exc:
        raise OSError(f"{base}: not an HTTP answer ({exc})") from None
    if not status:
        raise OSError(f"{base}: the connection closed without an answer")
    content = b"".join(chunks)
    try:
        answer = json.loads(content) if content else None
    except ValueError:
        answer = None
    return status, answer


# --------------------------------------------------------------------------- clients


class Link:
    """One seat's page (a :class:`huntgather.client.GameConnection`), and what the load test
    measures on it: the turns of the other seat it must see, and when it saw them."""

    def __init__(self, client: Client, seat: int) -> None:
        self.client = client
        self.seat = seat
        self.page: GameConnection | None = None
        #: we are closing it: a close is not an error
        self.closing = False
        #: turns of the other seat this page must see: (version, sent at, measured)
        self.expected: list[tuple[int, float, bool]] = []
        #: the last few versions this page reached, and when
        self.arrivals: list[tuple[int, float]] = []

    @property
    def version(self) -> int:
        return self.page.version if self.page is not None else -1

    @property
    def decision(self) -> dict[str, Any] | None:
        view = self.page.view if self.page is not None else None
        return view["decision"] if view is not None else None

    @property
    def legal(self) -> list[dict[str, Any]]:
        view = self.page.view if self.page is not None else None
        return view["legal"] if view is not None else []

    @property
    def over(self) -> bool:
        view = self.page.view if self.page is not None else None
        return bool(view is not None and view["over"])

    @property
    def dead(self) -> bool:
        """The connection is gone."""
        return self.page is None or self.page.closed

    async def open(self, base: str, game: str, secret: str) -> bool:
        """Connect, say hello, and wait for the game's state; False (the error counted) if that fails."""
        from websockets.exceptions import InvalidHandshake, InvalidURI

        from huntgather.client import Disconnected, GameConnection, ServerError

        client = self.client
        local = client.next_address()
        extra: dict[str, Any] = {"local_addr": (local, 0)} if local else {}
        try:
            self.page = await GameConnection.open(
                base, game, [secret], timeout=client.plan.timeout, inbox=0, on_message=self._seen,
                proxy=None, compression="deflate", ping_interval=None, close_timeout=2, max_size=1 << 20,
                user_agent_header="huntgather-loadtest", **extra)
        except ServerError:   # counted as it came
            return False
        except Disconnected:
            client.error("connection_lost")
            return False
        except TimeoutError:
            client.error("no_welcome")
            return False
        except (OSError, InvalidHandshake, InvalidURI):
            client.error("connect_failed")
            return False
        return True

    async def close(self) -> None:
        """Close the page; a connection lost before (not by us) is counted as an error."""
        page = self.page
        if page is None:
            return
        if page.closed and not self.closing and page.close_reason not in ("bad_secret", "deleted"):
            self.client.error("too_slow" if page.close_reason == "too_slow" else "connection_lost")
        self.closing = True
        if page.gaps:
            self.client.tally.errors["update_gap"] += page.gaps
        await page.close()

    def _seen(self, msg: dict[str, Any]) -> None:
        """Every message, once the page took it in: errors counted, new versions timed."""
        kind = msg.get("type")
        if kind == "error":
            self.client.error(str(msg.get("code")))
        elif kind in ("snapshot", "update") and self.page is not None:
            self._arrived(self.page.version)

    def _arrived(self, version: int) -> None:
        now = time.monotonic()
        if self.arrivals and self.arrivals[-1][0] == version:
            return   # an update already seen
        self.arrivals = [*self.arrivals[-7:], (version, now)]
        if self.expected:
            keep = []
            for v, sent, measured in self.expected:
                if v > version:
                    keep.append((v, sent, measured))
                elif measured:
                    self.client.tally.update_ms.append((now - sent) * 1000)
            self.expected = keep

    def expect(self, version: int, sent: float, measured: bool) -> None:
        """This page must see ``version`` (a turn of the other seat, sent at ``sent``)."""
        self.client.tally.updates_expected += 1
        for v, at in self.arrivals:
            if v >= version:   # it came before the ack did
                if measured:
                    self.client.tally.update_ms.append((at - sent) * 1000)
                return
        self.expected.append((version, sent, measured))

    def expire(self, before: float) -> None:
        """Count the updates expected before ``before`` (monotonic) that never came as missed."""
        if self.expected:
            keep = [e for e in self.expected if e[1] >= before]
            self.client.tally.updates_missed += len(self.expected) - len(keep)
            self.expected = keep

    async def wait_version(self, version: int, deadline: float) -> bool:
        """Wait (until ``deadline``, monotonic) for this page to reach ``version``."""
        if self.page is None:
            return False
        return await self.page.wait_version(version, max(0.0, deadline - time.monotonic()))

    async def ask(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        """Send an intent and wait for its answer (an ack, a preview or an error); None on timeout."""
        from huntgather.client import Disconnected, ServerError

        if self.page is None or self.page.closed:
            return {"type": "error", "code": "connection_lost"}
        try:
            return await self.page.request(msg, self.client.plan.timeout)
        except ServerError as refused:   # counted as it came
            return refused.msg
        except TimeoutError:
            return None
        except Disconnected:   # counted when the page is closed
            return {"type": "error", "code": "connection_lost"}


#: answers after which a game cannot go on
FATAL = {"connection_lost", "game_over", "deleted", "unknown_game", "bad_secret", "corrupt_game"}


class Client:
    """The clients of one process: a game loop per slot, each playing one game at a time."""

    def __init__(self, plan: Plan, worker: int, should_stop: Callable[[], bool]) -> None:
        self.plan = plan
        self.worker = worker
        self.should_stop = should_stop
        self.tally = Tally()
        #: the monotonic time of ``plan.start``
        self.zero = time.monotonic() - (time.time() - plan.start)
        self.end = plan.warmup + plan.seconds
        self._addresses = 0

    def now(self) -> float:
        """Seconds since the start of the run."""
        return time.monotonic() - self.zero

    def measured(self, t: float) -> bool:
        return self.plan.warmup <= t < self.end

    @property
    def stopping(self) -> bool:
        return self.now() >= self.end or self.should_stop()

    def error(self, code: str) -> None:
        self.tally.errors[code] += 1

    def next_address(self) -> str | None:
        if not self.plan.spread:
            return None
        self._addresses += 1
        return source_address(self.worker, self._addresses)

    async def sleep_until(self, t: float) -> None:
        """Sleep until ``t`` (seconds since the start), waking early when the run stops."""
        while not self.stopping:
            left = min(t, self.end) - self.now()
            if left <= 0:
                return
            await asyncio.sleep(min(left, 0.25))

    async def run_slot(self, slot: int) -> None:
        """Keep one game going in ``slot`` until the run ends."""
        rng = random.Random(f"{self.plan.seed}-{slot}")
        start = self.plan.warmup * 0.5 * slot / self.plan.games
        await self.sleep_until(start)
        # when the slot's next turn is due: one every 1/rate seconds, across the games it plays
        pace = [start + rng.uniform(0, 1.0 / self.plan.rate)]
        # the slot's first game is shorter by a random amount, so that games end (and new ones are
        # created) at a steady rate rather than all at once
        short = rng.randint(1, self.plan.short) if self.plan.short else None
        while not self.stopping:
            started = await self.play_game(slot, rng, pace, short)
            short = self.plan.short
            if not started:
                await self.sleep_until(self.now() + 1.0)   # the server may be down: do not hammer it

    async def create_game(self, base: str, short: int | None) -> dict[str, Any] | None:
        plan = self.plan
        body: dict[str, Any] = {"edition": plan.edition, "seats": [{"kind": "human"}, {"kind": "human"}]}
        if short:
            body["short"] = short
        t = self.now()
        try:
            status, answer = await post_json(base, "/api/games", body, local=self.next_address(),
                                             timeout=plan.timeout)
        except TimeoutError:
            self.error("no_answer")
            return None
        except OSError:
            self.error("connect_failed")
            return None
        if status != 201 or not isinstance(answer, dict):
            code = answer.get("code") if isinstance(answer, dict) else None
            self.error(str(code) if code else f"http_{status}")
            return None
        seats = answer.get("seats")
        if not (isinstance(answer.get("id"), str) and isinstance(seats, dict) and {"0", "1"} <= set(seats)):
            self.error("bad_answer")
            return None
        if self.measured(t):
            self.tally.create_ms.append((self.now() - t) * 1000)
        return answer

    async def play_game(self, slot: int, rng: random.Random, pace: list[float], short: int | None) -> bool:
        """Create a game and play it until it ends or the run stops; False if it could not start."""
        urls = self.plan.urls
        base = urls[slot % len(urls)], urls[(slot + 1) % len(urls)]
        game = await self.create_game(base[0], short)
        if game is None:
            return False
        links = [Link(self, 0), Link(self, 1)]
        try:
            opened = await asyncio.gather(*(links[i].open(base[i], game["id"], game["seats"][str(i)])
                                            for i in range(2)))
            if not all(opened):
                return False
            self.tally.games_started += 1
            await self.play(links, rng, pace)
        finally:
            await self.settle(links)
            await asyncio.gather(*(link.close() for link in links))
        return True

    async def settle(self, links: list[Link]) -> None:
        """Give every page until the timeout to see the turns it has not seen yet; count the rest missed."""
        deadline = time.monotonic() + self.plan.timeout
        for link in links:
            if link.expected and not link.dead:
                await link.wait_version(max(v for v, _, _ in link.expected), deadline)
            link.expire(math.inf)

    async def play(self, links: list[Link], rng: random.Random, pace: list[float]) -> None:
        plan = self.plan
        interval = 1.0 / plan.rate
        failures = 0
        while not self.stopping:
            for link in links:
                link.expire(time.monotonic() - plan.timeout)
            lead = max(links, key=lambda link: link.version)
            if lead.over:
                await self.settle(links)
                self.tally.games_finished += 1
                return
            player = (lead.decision or {}).get("player")
            if player not in (0, 1) or failures >= 3 or any(link.dead for link in links):
                self.tally.games_abandoned += 1
                return
            mover, other = links[player], links[1 - player]
            if not await mover.wait_version(lead.version, time.monotonic() + plan.timeout):
                mover.expire(math.inf)   # the updates it did not see are missed
                self.tally.games_abandoned += 1
                return
            await self.sleep_until(pace[0])
            if self.stopping:
                return
            pace[0] = max(pace[0] + interval, self.now())   # late: no burst to catch up
            version = mover.version
            moves = self.turn(mover, rng)
            sent = self.now()
            msg = {"type": "turn", "seat": player, "version": version, "moves": moves}
            reply = await mover.ask(msg)
            if reply is not None and reply.get("code") == "illegal_move" and moves[0].get("kind") == "place":
                completed = await self.complete(mover, player, version, moves[0])   # e.g. a shaman tile
                if completed is not None:
                    sent = self.now()
                    reply = await mover.ask(msg | {"moves": completed})
            if reply is None:
                self.error("no_ack")
                self.tally.games_abandoned += 1
                return
            if reply.get("type") == "ack" and isinstance(reply.get("version"), int):
                if self.measured(sent):
                    self.tally.ack_ms.append((self.now() - sent) * 1000)
                    self.tally.turns += 1
                    self.tally.stored_moves += reply["version"] - version
                other.expect(reply["version"], self.zero + sent, self.measured(sent))
                failures = 0
                continue
            code = reply.get("code")
            if code in FATAL:
                self.tally.games_abandoned += 1
                return
            failures += 1   # counted by the reader; stale, storage_failed...: look again in a moment
            await asyncio.sleep(0.2)

    @staticmethod
    def turn(link: Link, rng: random.Random) -> list[dict[str, Any]]:
        """A whole turn: a random placement, then no piece."""
        if (link.decision or {}).get("phase") == "place":
            places = [m for m in link.legal if m.get("kind") == "place"]
            if places:
                place = rng.choice(places)
                return [{k: place[k] for k in ("kind", "x", "y", "rotation") if k in place},
                        {"kind": "pass"}]
        return [{"kind": "pass"}]

    async def complete(self, link: Link, seat: int, version: int,
                       place: dict[str, Any]) -> list[dict[str, Any]] | None:
        """The placement followed by as many passes as the turn asks for (asked with previews)."""
        moves = [place]
        for _ in range(3):
            reply = await link.ask({"type": "preview", "seat": seat, "version": version, "moves": moves})
            if reply is None or reply.get("type") != "preview":
                return None
            if reply.get("turn_over"):
                return moves
            moves.append({"kind": "pass"})
        return None

    async def watch_loop(self) -> None:
        """Measure the event loop's lag (how late a 100 ms sleep wakes) and the CPU time of the window."""
        started: float | None = None
        while not self.stopping:
            before = time.monotonic()
            await asyncio.sleep(0.1)
            t = self.now()
            if self.measured(t):
                if started is None:
                    started = _cpu_self()
                self.tally.lag_ms.append(max(0.0, (time.monotonic() - before - 0.1) * 1000))
        if started is not None:
            self.tally.cpu_seconds = _cpu_self() - started


def _cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def run_clients(plan: Plan, worker: int, slots: Sequence[int],
                      should_stop: Callable[[], bool]) -> Tally:
    """Play the games of ``slots`` for the whole run; what this process saw."""
    client = Client(plan, worker, should_stop)
    loop = asyncio.get_running_loop()
    client.tally.event_loop = "uvloop" if type(loop).__module__.startswith("uvloop") else "asyncio"
    from huntgather.server import gc_tuning
    if gc_tuning.tuned():   # a client process of its own (see _worker_main)
        gc_tuning.collect_young_every()
    watcher = loop.create_task(client.watch_loop())
    started: list[float] = []

    def collected(phase: str, info: dict[str, int]) -> None:   # the collector's own pauses
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started and client.measured(client.now()):
            client.tally.gc_ms.append((time.perf_counter() - started[0]) * 1000)

    gc.callbacks.append(collected)
    # At the end every page is closed at once, which leaves the whole run's pages as cyclic
    # garbage: a collection of it took a client 1.4-1.8 s at 1,000 games and held up the acks of
    # the turns sent last in the window (each run's max was one such pause). So once the window
    # ends the collector waits (reference counting still frees almost everything) until the
    # slots are done.
    collecting = gc.isenabled()
    pause = loop.call_later(max(client.end - client.now(), 0.0), gc.disable)
    try:
        tasks = [loop.create_task(client.run_slot(slot)) for slot in slots]
        await _play_slots(client, tasks)
    finally:
        pause.cancel()
        if collecting:
            gc.enable()
        gc.callbacks.remove(collected)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(watcher, 1.0)
    return client.tally


async def _play_slots(client: Client, tasks: list[asyncio.Task[None]]) -> None:
    """Wait for the slots' tasks to end (those stuck past every timeout are cancelled)."""
    plan = client.plan
    # every step waits at most the timeout, and the end waits for the last answers
    limit = client.end + 3 * plan.timeout + 15 - client.now()
    done, stuck = await asyncio.wait(tasks, timeout=max(limit, 1.0))
    for task in stuck:
        task.cancel()
        client.error("client_stuck")
    await asyncio.gather(*stuck, return_exceptions=True)
    for task in done:
        exc = task.exception()
        if exc is not None:
            client.error("client_crashed")
            client.tally.crash = client.tally.crash or "".join(traceback.format_exception(exc))


def run_loop(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on uvloop when it is installed (it comes with ``uvicorn[standard]``), else asyncio."""
    try:
        import uvloop
        factory: Callable[[], asyncio.AbstractEventLoop] | None = uvloop.new_event_loop
    except ImportError:
        factory = None
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(coro)


def _worker_main(plan: Plan, worker: int, slots: list[int], stop: Any, results: Any) -> None:
    """A client process: play ``slots``, put ``(worker, tally)`` on ``results``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent stops the run
    # the clients' own collector pauses would count as the server's latency: tuned as the server is
    from huntgather.server import gc_tuning
    gc_tuning.tune_gc()
    try:
        tally = run_loop(run_clients(plan, worker, slots, stop.is_set))
    except BaseException:
        tally = Tally()
        tally.errors["client_crashed"] += 1
        tally.crash = traceback.format_exc()
    results.put((worker, tally))


# --------------------------------------------------------------------------- servers


class Server:
    """A ``huntgather play`` process started by the load test."""

    def __init__(self, index: int, db: str, workdir: Path) -> None:
        self.index = index
        self.db = db
        self.out = workdir / f"server-{index}.out"
        self.err = workdir / f"server-{index}.err"
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = ""

    def start(self) -> None:
        command = [sys.executable, "-m", "huntgather", "play", "--no-browser", "--host", "127.0.0.1",
                   "--port", "0", "--db", self.db, "--bot-delay", "0",
                   # every simulated player comes from this one address
                   "--max-sockets-per-address", "0"]
        with open(self.out, "wb") as out, open(self.err, "wb") as err:
            self.proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=err)

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        """Wait until the server says where it listens; :class:`CommandError` if it does not."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = PLAYING_AT.search(self.out.read_text(errors="replace"))
            if found:
                self.url = found.group(1).rstrip("/")
                return
            if self.proc.poll() is not None:
                raise CommandError(f"server process {self.index} stopped at start (exit code "
                                   f"{self.proc.returncode}): {self.log_tail(3) or 'no message'}", 1)
            time.sleep(0.05)
        raise CommandError(f"server process {self.index} did not start listening within {timeout:.0f} s", 1)

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def cpu_seconds(self) -> float | None:
        """User and system CPU time of the process so far (all its threads), from /proc/PID/stat."""
        try:
            stat = Path(f"/proc/{self.pid}/stat").read_text()
        except OSError:
            return None
        fields = stat[stat.rfind(")") + 2:].split()   # fields from the 3rd (state) on
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def memory_mb(self) -> tuple[float, float] | None:
        """Resident memory now and at its peak (VmRSS, VmHWM of /proc/PID/status), in MB."""
        try:
            status = Path(f"/proc/{self.pid}/status").read_text()
        except OSError:
            return None
        found = {k: int(v) for k, v in re.findall(r"^(VmRSS|VmHWM):\s+(\d+) kB", status, re.MULTILINE)}
        if len(found) < 2:
            return None
        return found["VmRSS"] / 1024, found["VmHWM"] / 1024

    def log_lines(self) -> list[str]:
        try:
            return [line for line in self.err.read_text(errors="replace").splitlines() if line.strip()]
        except OSError:
            return []

    def log_tail(self, n: int) -> str:
        return " / ".join(self.log_lines()[-n:])

    def stop(self) -> None:
        """SIGINT (uvicorn then shuts down cleanly); killed if it takes longer than STOP_TIMEOUT."""
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@dataclass
class ServerFigures:
    """CPU and memory of one server process over the measured window."""

    cpu_start: float | None = None
    cpu_end: float | None = None
    wall_start: float = 0.0
    wall_end: float = 0.0
    rss_mb: float | None = None
    peak_rss_mb: float | None = None
    exit_code: int | None = None

    def cpu_percent(self) -> float | None:
        if self.cpu_start is None or self.cpu_end is None or self.wall_end <= self.wall_start:
            return None
        return round(100 * (self.cpu_end - self.cpu_start) / (self.wall_end - self.wall_start), 1)


# --------------------------------------------------------------------------- the run


@dataclass
class Outcome:
    tally: Tally
    figures: list[ServerFigures]
    measured_seconds: float
    server_died: bool


async def drive(plan: Plan, servers: list[Server], workers: int,
                progress: Callable[[float, str], None] | None) -> Outcome:
    """Run the clients (here or in worker processes) while watching the servers; gather the figures."""
    import multiprocessing

    loop = asyncio.get_running_loop()
    zero = time.monotonic() - (time.time() - plan.start)
    end = plan.warmup + plan.seconds
    slots = list(range(plan.games))
    processes: list[Any] = []
    stop: Any
    results: Any = None
    if workers == 1:
        stop = threading.Event()
        clients: Awaitable[Tally] = loop.create_task(run_clients(plan, 0, slots, stop.is_set))
    else:
        ctx = multiprocessing.get_context("spawn")
        stop = ctx.Event()
        results = ctx.Queue()
        for k in range(workers):
            p = ctx.Process(target=_worker_main, args=(plan, k, slots[k::workers], stop, results),
                            name=f"huntgather-loadtest-client-{k}", daemon=True)
            p.start()
            processes.append(p)
        clients = loop.run_in_executor(None, _collect, results, processes,
                                       end + 3 * plan.timeout + 40 - (time.monotonic() - zero))
    task = asyncio.ensure_future(clients)
    figures = [ServerFigures() for _ in servers]
    died = False
    stopped_at: float | None = None
    phase = 0   # 0 warm-up, 1 measuring, 2 finishing
    try:
        while not task.done():
            t = time.monotonic() - zero
            if phase == 0 and t >= plan.warmup:
                phase = 1
                for server, fig in zip(servers, figures, strict=True):
                    fig.cpu_start, fig.wall_start = server.cpu_seconds(), time.monotonic()
            if phase == 1:
                _sample(servers, figures)
                if t >= end or died:
                    phase = 2
                    stopped_at = min(t, end)
            if not died and servers and not all(s.alive for s in servers):
                died = True
                stop.set()
            if progress is not None:
                what = ("warming up", "measuring", "finishing")[phase]
                progress(min(t, end) / end if end > 0 else 1.0, what)
            await asyncio.wait([task], timeout=0.2)
        tally = await task
    finally:
        stop.set()
        for p in processes:
            p.join(5)
            if p.is_alive():
                p.terminate()
                p.join(5)
    if phase == 1:   # the clients ended before the window did
        stopped_at = time.monotonic() - zero
        _sample(servers, figures)
    for server, fig in zip(servers, figures, strict=True):
        if not server.alive and server.proc is not None:
            fig.exit_code = server.proc.returncode
    measured = max(0.0, min(stopped_at if stopped_at is not None else 0.0, end) - plan.warmup)
    return Outcome(tally, figures, measured, died)


def _sample(servers: list[Server], figures: list[ServerFigures]) -> None:
    """Read the servers' CPU time and memory now; a server that is gone keeps its last reading."""
    for server, fig in zip(servers, figures, strict=True):
        cpu = server.cpu_seconds()
        memory = server.memory_mb()
        if cpu is not None and memory is not None:
            fig.cpu_end, fig.wall_end = cpu, time.monotonic()
            fig.rss_mb, fig.peak_rss_mb = round(memory[0], 1), round(memory[1], 1)


def _collect(results: Any, processes: list[Any], timeout: float) -> Tally:
    """The merged tallies of the client worker processes (a missing one counts as an error)."""
    import queue

    total = Tally()
    deadline = time.monotonic() + timeout
    got: set[int] = set()
    while len(got) < len(processes):
        try:
            worker, tally = results.get(timeout=max(0.1, min(1.0, deadline - time.monotonic())))
        except queue.Empty:
            if time.monotonic() > deadline or not any(p.is_alive() for p in processes):
                break
            continue
        got.add(worker)
        total.merge(tally)
    for k in range(len(processes)):
        if k not in got:
            total.errors["client_crashed"] += 1
    return total


def build_report(args: argparse.Namespace, plan: Plan, outcome: Outcome, servers: list[Server],
                 db_text: str, load_before: Sequence[float] = ()) -> dict[str, Any]:
    tally = outcome.tally
    seconds = outcome.measured_seconds
    per_process: list[dict[str, Any]] = []
    for server, fig in zip(servers, outcome.figures, strict=True):
        per_process.append({"pid": server.pid, "url": server.url, "cpu_percent": fig.cpu_percent(),
                            "rss_mb": fig.rss_mb, "peak_rss_mb": fig.peak_rss_mb,
                            "exit_code": fig.exit_code, "log_lines": len(server.log_lines())})
    cpus = [p["cpu_percent"] for p in per_process if p["cpu_percent"] is not None]
    peaks = [p["peak_rss_mb"] for p in per_process if p["peak_rss_mb"] is not None]
    errors = dict(sorted(tally.errors.items(), key=lambda kv: (-kv[1], kv[0])))
    if outcome.server_died:
        errors["server_exited"] = errors.get("server_exited", 0) + 1
    lag = percentiles(tally.lag_ms)
    pauses = sorted(tally.gc_ms)
    report: dict[str, Any] = {
        "games": plan.games, "rate": plan.rate, "seconds": plan.seconds, "warmup": plan.warmup,
        "measured_seconds": round(seconds, 2), "short": plan.short, "edition": plan.edition,
        "processes": len(plan.urls), "db": db_text, "urls": list(plan.urls) if args.url else None,
        "turns_acknowledged": tally.turns,
        "moves_per_s": round(tally.turns / seconds, 1) if seconds else 0.0,
        "target_moves_per_s": round(plan.games * plan.rate, 1),
        "stored_moves_per_s": round(tally.stored_moves / seconds, 1) if seconds else 0.0,
        "ack_latency_ms": percentiles(tally.ack_ms),
        "errors": errors, "error_count": sum(errors.values()),
        "updates_expected": tally.updates_expected, "updates_missed": tally.updates_missed,
        "update_latency_ms": percentiles(tally.update_ms),
        "games_started": tally.games_started, "games_finished": tally.games_finished,
        "games_abandoned": tally.games_abandoned,
        "create_latency_ms": percentiles(tally.create_ms),
        "server_cpu_percent": round(sum(cpus), 1) if cpus else None,
        "server_peak_rss_mb": max(peaks) if peaks else None,
        "server_processes": per_process if servers else None,
        "client_workers": args.client_workers,
        "client_cpu_percent": round(100 * tally.cpu_seconds / seconds, 1) if seconds else None,
        "client_event_loop": tally.event_loop,
        "client_loop_lag_ms": {"p99": lag["p99"], "max": lag["max"]},
        "client_gc_ms": {"collections": len(pauses), "max": round(pauses[-1], 2) if pauses else None,
                         "total": round(sum(pauses), 1)},
        "cpus": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    report["clean"] = report["error_count"] == 0 and tally.updates_missed == 0 and tally.turns > 0
    return report


def _ms(value: float | None) -> str:
    return _num(value, "ms")


def _num(value: float | None, unit: str) -> str:
    return "-" if value is None else f"{value:.1f} {unit}"


def format_report(report: dict[str, Any], log_tails: Sequence[str] = ()) -> str:
    ack, upd, create = report["ack_latency_ms"], report["update_latency_ms"], report["create_latency_ms"]
    n = report["processes"]
    where = (f"{n} server process{'es' if n != 1 else ''}, {report['db']}" if report["server_processes"]
             else f"{n} running server{'s' if n != 1 else ''} (--url)")
    lines = [
        f"load test: {report['games']} games at {report['rate']:g} turns/s each, measured "
        f"{report['measured_seconds']:g} s after a {report['warmup']:g} s warm-up; {where}",
        f"games          {report['games']} at once; {report['games_started']} started, "
        f"{report['games_finished']} finished, {report['games_abandoned']} abandoned",
        f"turns          {report['turns_acknowledged']} acknowledged: {report['moves_per_s']:g} moves/s "
        f"(target {report['target_moves_per_s']:g}), {report['stored_moves_per_s']:g} stored moves/s",
        f"ack latency    p50 {_ms(ack['p50'])}, p95 {_ms(ack['p95'])}, p99 {_ms(ack['p99'])}, "
        f"max {_ms(ack['max'])}",
        f"other seat     {report['updates_expected']} updates expected, {report['updates_missed']} missed; "
        f"seen after p50 {_ms(upd['p50'])}, p99 {_ms(upd['p99'])}",
        f"new game       p50 {_ms(create['p50'])}, p99 {_ms(create['p99'])}, max {_ms(create['max'])}",
        "errors         " + (", ".join(f"{code} {n}" for code, n in report["errors"].items()) or "none"),
    ]
    if report["server_processes"]:
        lines.append(f"server         CPU {_num(report['server_cpu_percent'], '%')} (100 % = one core), "
                     f"peak RSS {_num(report['server_peak_rss_mb'], 'MB')}")
        if len(report["server_processes"]) > 1:
            for p in report["server_processes"]:
                lines.append(f"  pid {p['pid']:<8} CPU {_num(p['cpu_percent'], '%')}, peak RSS "
                             f"{_num(p['peak_rss_mb'], 'MB')}, {p['log_lines']} log lines")
    else:
        lines.append("server         not started here: no CPU or memory figures")
    lag = report["client_loop_lag_ms"]
    lines.append(f"client         CPU {_num(report['client_cpu_percent'], '%')} in "
                 f"{report['client_workers']} process(es) ({report['client_event_loop']}), "
                 f"event-loop lag p99 {_ms(lag['p99'])}, max {_ms(lag['max'])}; "
                 f"{report['client_gc_ms']['collections']} garbage collections, longest "
                 f"{_ms(report['client_gc_ms']['max'])}, {_ms(report['client_gc_ms']['total'])} in all")
    lines.append(f"machine        {report['cpus']} CPUs, load average "
                 f"{' '.join(f'{x:g}' for x in report['load_average_before'])} before, "
                 f"{' '.join(f'{x:g}' for x in report['load_average'])} after")
    lines.append("result         " + ("clean" if report["clean"] else "NOT clean"))
    lines.extend(f"server log     {tail}" for tail in log_tails if tail)
    return "\n".join(lines)


def _check(args: argparse.Namespace) -> None:
    if not 1 <= args.games <= 100_000:
        raise CommandError(f"--games must be from 1 to 100000, not {args.games}")
    if not (args.rate > 0 and math.isfinite(args.rate)):
        raise CommandError(f"--rate must be positive, not {args.rate}")
    if not (args.seconds > 0 and math.isfinite(args.seconds)):
        raise CommandError(f"--seconds must be positive, not {args.seconds}")
    if not (args.warmup >= 0 and math.isfinite(args.warmup)):
        raise CommandError(f"--warmup cannot be negative, not {args.warmup}")
    if args.short < 0:
        raise CommandError(f"--short must be a number of tiles, or 0 for the whole stack, not {args.short}")
    if not 1 <= args.processes <= 64:
        raise CommandError(f"--processes must be from 1 to 64, not {args.processes}")
    if not 1 <= args.client_workers <= min(64, args.games):
        raise CommandError(f"--client-workers must be from 1 to min(64, --games), not {args.client_workers}")
    if not (args.timeout > 0 and math.isfinite(args.timeout)):
        raise CommandError(f"--timeout must be positive, not {args.timeout}")
    if args.url and (args.processes != 1 or args.db is not None):
        raise CommandError("--url uses running servers: --processes and --db are for servers started here")
    for url in args.url:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
            raise CommandError(f"--url must be a server's address such as http://127.0.0.1:8765, not {url!r}")


def _loopback_v4(url: str) -> bool:
    try:
        address = ipaddress.ip_address(urlsplit(url).hostname or "")
    except ValueError:
        return False
    return address.version == 4 and address.is_loopback


def _raise_file_limit(needed: int) -> None:
    """Let this process (and the servers it starts) open ``needed`` files, up to the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def run(args: argparse.Namespace, *, tune_gc: bool = False) -> int:
    """Run the load test of ``args``; the exit code.  With ``tune_gc`` and the clients in this
    process (one client worker), its garbage collector is tuned as a server's is
    (:mod:`huntgather.server.gc_tuning`) just before they start: every page holds its game's whole
    view, so a thousand pages keep a few hundred thousand objects that Python's default collector
    walked again and again, stopping every client for 100 ms and more at a time; those pauses
    were counted as the server's latency."""
    _check(args)
    try:
        import h11  # noqa: F401
        import orjson  # noqa: F401
        import websockets  # noqa: F401

        import huntgather.client  # noqa: F401
        from huntgather.server.storage import public_url
    except ImportError as exc:
        raise CommandError(f"the load test needs the web extra ({exc.name} is missing): "
                           f"pip install 'huntgather[web]'", 1) from None
    _raise_file_limit(4 * args.games + 256)
    load_before = os.getloadavg()   # what else the machine was doing
    previous = signal.getsignal(signal.SIGTERM)

    def terminated(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    main_thread = threading.current_thread() is threading.main_thread()
    if main_thread:
        signal.signal(signal.SIGTERM, terminated)   # so that the servers are stopped on the way out
    servers: list[Server] = []
    with tempfile.TemporaryDirectory(prefix="huntgather-loadtest-") as workdir:
        try:
            if args.url:
                urls = tuple(u.rstrip("/") for u in args.url)
                db_text = "running server" + ("s" if len(urls) > 1 else "")
            else:
                db = args.db or str(Path(workdir) / "games.sqlite")
                db_text = public_url(args.db) if args.db else "SQLite (a new temporary file)"
                servers = [Server(i, db, Path(workdir)) for i in range(args.processes)]
                servers[0].start()   # the first one creates the tables; then the others
                servers[0].wait_ready()
                for server in servers[1:]:
                    server.start()
                for server in servers[1:]:
                    server.wait_ready()
                urls = tuple(s.url for s in servers)
            spread = not args.one_address and all(_loopback_v4(u) for u in urls)
            workers = args.client_workers
            plan = Plan(urls, args.games, args.rate, args.seconds, args.warmup, args.short or None,
                        args.edition, args.timeout, args.seed, spread,
                        time.time() + (1.0 if workers > 1 else 0.0))
            if tune_gc and workers == 1:   # worker processes tune themselves (_worker_main)
                from huntgather.server import gc_tuning
                gc_tuning.tune_gc()
            if args.json or not sys.stderr.isatty():
                outcome = run_loop(drive(plan, servers, workers, None))
            else:
                outcome = _with_progress(plan, servers, workers)
            report = build_report(args, plan, outcome, servers, db_text, load_before)
            tails = [s.log_tail(3) for s in servers] if not report["clean"] else []
            crash = outcome.tally.crash
        finally:
            for server in servers:
                server.stop()
            if main_thread:
                signal.signal(signal.SIGTERM, previous)
    if crash:
        print(f"loadtest: a client failed:\n{crash}", file=sys.stderr)
    print(json.dumps(report) if args.json else format_report(report, tails))
    return 0 if report["clean"] else 1


def _with_progress(plan: Plan, servers: list[Server], workers: int) -> Outcome:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description:<12}"), BarColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("starting", total=1.0)

        def note(done: float, what: str) -> None:
            bar.update(task, completed=done, description=what)

        return run_loop(drive(plan, servers, workers, note))


if __name__ == "__main__":
    sys.exit(main(tune_gc=True))
