"""Real ``huntgather play`` processes and pages of their games, for the tests that need them.

:class:`Server` starts, stops and ``kill -9``s a server process (and tells which of its
worker processes outlived it); :class:`Page` is a page of a game over a real websocket,
built on :class:`huntgather.client.GameConnection` with what the tests look at (every
``table`` and each update's tiles) and a whole turn played from the server's own legal
moves.  Test modules import this file by name (``from play_server import ...``).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: the longest any single step may take before a test gives up (never a measure of speed)
PATIENCE = 30.0


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


#: where :func:`free_port` marks the ports it has handed out, for every test process of the machine
PORTS_HANDED_OUT = Path(tempfile.gettempdir()) / "huntgather-test-ports"

#: how long a port handed out stays another test process's to avoid (its server started by then)
PORT_HELD = 300.0


def _hand_out(port: int) -> bool:
    """Mark ``port`` handed out (a file named after it, made only if missing: atomic across
    processes); False if another test process of this machine had it in the last
    :data:`PORT_HELD` seconds."""
    PORTS_HANDED_OUT.mkdir(exist_ok=True)
    mark = PORTS_HANDED_OUT / str(port)
    try:
        os.close(os.open(mark, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        with contextlib.suppress(OSError):
            if time.time() - mark.stat().st_mtime > PORT_HELD:   # long ago: the port is free again
                os.utime(mark)
                return True
        return False


def free_port() -> int:
    """A port free on 127.0.0.1 now, for a server a test starts next.  Chosen at random below the
    system's ephemeral range: a port the kernel hands out itself (to ``bind(0)`` or to any outgoing
    connection, of which the suite's processes make thousands) could be taken by another test's
    socket before the server binds it ("address already in use").  And not one that another test
    process picked in the last few minutes (:func:`_hand_out`): two of the four test processes
    picking the same port before either server had bound it failed a run ("address already in
    use" at a server's start)."""
    high = max(_ephemeral_low(), 20_001)
    for _ in range(200):
        port = random.randrange(20_000, high)
        if not _hand_out(port):
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:   # (a system whose low ports are all taken: the kernel's choice)
        s.bind(("127.0.0.1", 0))
        chosen: int = s.getsockname()[1]
        return chosen


def take_output(out: Iterable[str], lines: list[str], ready: threading.Event) -> None:
    """Append each line a server prints to ``lines``, and set ``ready`` once it says it serves."""
    for line in out:
        lines.append(line)
        if "playing at" in line:
            ready.set()


class Forked:
    """A server that the :class:`Zygote` forked: what the tests use of :class:`subprocess.Popen`
    (``pid``, ``returncode``, ``poll``, ``wait``, ``send_signal``, ``terminate``, ``kill``)."""

    def __init__(self, zygote: Zygote, pid: int, args: list[str]) -> None:
        self.zygote, self.pid, self.args = zygote, pid, args
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.zygote.exits.get(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        with self.zygote.ended:
            if not self.zygote.ended.wait_for(lambda: self.pid in self.zygote.exits, timeout):
                raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
            self.returncode = self.zygote.exits[self.pid]
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Zygote:
    """tests/server_zygote.py, started once per test process: it has imported what ``huntgather
    play`` imports, and forks each server from there (about half a second of CPU less a server;
    the suite starts some 150).  Set ``HUNTGATHER_TEST_ZYGOTE=0`` to start every server as its
    own ``python -m huntgather play`` instead."""

    _here: Zygote | None = None
    _lock = threading.Lock()

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("server_zygote.py"))],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.asking = threading.Lock()
        self.pids: queue.Queue[int] = queue.Queue()
        self.exits: dict[int, int] = {}
        self.ended = threading.Condition()
        self.fifos = Path(tempfile.mkdtemp(prefix="huntgather-servers-"))
        self.made = 0
        threading.Thread(target=self._read, daemon=True).start()

    @classmethod
    def here(cls) -> Zygote:
        """This test process's zygote (started at the first call)."""
        with cls._lock:
            if cls._here is None or cls._here.proc.poll() is not None:
                cls._here = Zygote()
            return cls._here

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            said = json.loads(line)
            if "pid" in said:
                self.pids.put(said["pid"])
            else:
                with self.ended:
                    self.exits[said["exit"]] = said["code"]
                    self.ended.notify_all()

    def fork(self, argv: list[str], env: dict[str, str], lines: list[str], ready: threading.Event) -> Forked:
        """A server running ``huntgather`` with ``argv`` and environment ``env``; what it prints is
        appended to ``lines``, and ``ready`` set once it says it serves."""
        with self.asking:
            self.made += 1
            fifo = self.fifos / f"server-{self.made}"
            os.mkfifo(fifo)

            def read() -> None:
                with open(fifo, encoding="utf-8", errors="replace") as out:   # once the server opens it
                    take_output(out, lines, ready)
                fifo.unlink(missing_ok=True)

            threading.Thread(target=read, daemon=True).start()
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps({"argv": argv, "env": env, "cwd": os.getcwd(),
                                              "output": str(fifo)}).encode() + b"\n")
            self.proc.stdin.flush()
            return Forked(self, self.pids.get(timeout=PATIENCE), argv)


def spawn(db: str, port: int, bot_delay: float = 0.05, env: dict[str, str] | None = None,
          output: list[str] | None = None, args: tuple[str, ...] = ()
          ) -> tuple[subprocess.Popen[str] | Forked, threading.Event]:
    """Start ``huntgather play`` on 127.0.0.1:``port`` with database ``db`` (and ``args``) without
    waiting for it: the process, and an event set once it serves (see :func:`launch`).  Its quick
    bots' worker starts at the first bot move unless ``args`` has ``--warm-workers``: most of
    these servers never seat a bot, and a worker costs a second or two of CPU to start.
    Forked by this test process's :class:`Zygote`, unless ``HUNTGATHER_TEST_ZYGOTE=0`` or ``env``
    sets what acts at a program's start (``LD_*``, ``PYTHON*``)."""
    lines = output if output is not None else []
    warm = () if "--warm-workers" in args else ("--no-warm-workers",)
    argv = ["play", "--no-browser", "--host", "127.0.0.1", "--port", str(port), "--db", db,
            "--bot-delay", str(bot_delay), "--shed-after", "0", *warm, *args]
    full_env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    ready = threading.Event()
    # what acts when a program starts (a preloaded library, the interpreter's own settings) needs
    # a program started: those servers are not forked
    at_exec = [k for k in env or {} if k.startswith(("LD_", "PYTHON"))]
    if os.environ.get("HUNTGATHER_TEST_ZYGOTE", "1") != "0" and not at_exec:
        return Zygote.here().fork(argv, full_env, lines, ready), ready
    proc = subprocess.Popen([sys.executable, "-m", "huntgather", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=full_env)
    threading.Thread(target=take_output, args=(proc.stdout, lines, ready), daemon=True).start()
    return proc, ready


def serving(proc: subprocess.Popen[str] | Forked, ready: threading.Event, lines: list[str],
            wait: float = 60.0) -> subprocess.Popen[str] | Forked:
    """``proc`` once it serves; raises :class:`RuntimeError`, with what it printed, if it exits or
    does not serve within ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while not ready.wait(0.1):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            proc.wait(5)
            raise RuntimeError("the server did not start:\n" + "".join(lines[-60:]))
    return proc


def launch(db: str, port: int, bot_delay: float = 0.05, env: dict[str, str] | None = None,
           output: list[str] | None = None, wait: float = 60.0, args: tuple[str, ...] = ()
           ) -> subprocess.Popen[str] | Forked:
    """Start ``huntgather play`` on 127.0.0.1:``port`` with database ``db`` (and ``args``); return
    once it serves.

    It sheds no load (``--shed-after 0``) unless ``args`` say otherwise: the test machine's
    own load (browsers, other tests' servers) would make it refuse new games now and then, and
    shedding has tests of its own (tests/test_load_shedding.py).

    Every line it prints is appended to ``output``.  Raises :class:`RuntimeError`, with what it
    printed, if it exits or does not serve within ``wait`` seconds.
    """
    lines = output if output is not None else []
    proc, ready = spawn(db, port, bot_delay, env, lines, args)
    return serving(proc, ready, lines, wait)


def stop(proc: subprocess.Popen[str] | Forked) -> None:
    """SIGTERM (as Ctrl+C), then SIGKILL if the server has not exited within 15 s."""
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


# --------------------------------------------------------------------------- the server's workers


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (from /proc), or None if it is gone (or a zombie)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return None if fields[0] in ("Z", "X") else fields[19]


def descendants(pid: int) -> dict[int, str]:
    """The processes descended from ``pid`` (its workers), each with its start time."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry.name))
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        for kid in children.get(todo.pop(), []):
            start = _start_time(kid)
            if start is not None and kid not in found:
                found[kid] = start
                todo.append(kid)
    return found


def outliving(procs: dict[int, str], grace: float) -> list[int]:
    """Which of ``procs`` still run ``grace`` seconds from now (or as soon as none does)."""
    deadline = time.monotonic() + grace
    while True:
        alive = [pid for pid, start in procs.items() if _start_time(pid) == start]
        if not alive or time.monotonic() >= deadline:
            return alive
        time.sleep(0.1)


def end(procs: dict[int, str], pids: list[int]) -> None:
    """``kill -9`` the processes a test's server left behind (checking they are the same processes)."""
    for pid in pids:
        if _start_time(pid) == procs[pid]:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


class Server:
    """A ``huntgather play`` subprocess on a fixed port and database (so it can be restarted)."""

    def __init__(self, db: Path | str, port: int | None = None, bot_delay: float = 0.05,
                 env: dict[str, str] | None = None, args: tuple[str, ...] = ()) -> None:
        self.db, self.port, self.bot_delay = str(db), port or free_port(), bot_delay
        self.env = env or {}
        #: more options of ``huntgather play``
        self.args = args
        self.proc: subprocess.Popen[str] | Forked | None = None
        self.output: list[str] = []
        self._ready = threading.Event()

    def start(self) -> Server:
        self.proc = launch(self.db, self.port, self.bot_delay, self.env, self.output, args=self.args)
        return self

    def begin(self) -> Server:
        """Start the process without waiting for it to serve (:meth:`wait_serving` waits)."""
        self.proc, self._ready = spawn(self.db, self.port, self.bot_delay, self.env, self.output, self.args)
        return self

    def wait_serving(self) -> Server:
        """Once the process :meth:`begin` started serves."""
        assert self.proc is not None
        serving(self.proc, self._ready, self.output)
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self, grace: float = 0.5) -> list[int]:
        """``kill -9``: no shutdown code runs.  Returns the server's worker processes that still ran
        ``grace`` s later (and ends them: a test leaves no process behind)."""
        if self.proc is None:
            return []
        workers = descendants(self.proc.pid)
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(15)
        self.proc = None
        left = outliving(workers, grace)
        end(workers, left)
        return left

    def stop(self, grace: float = 2.0) -> list[int]:
        """SIGTERM (as Ctrl+C): the server shuts down; killed if it takes over 15 s.  Returns the
        worker processes that still ran ``grace`` s after it exited (and ends them)."""
        if self.proc is None:
            return []
        workers = descendants(self.proc.pid)
        stop(self.proc)
        self.proc = None
        left = outliving(workers, grace)
        end(workers, left)
        return left

    def log(self) -> str:
        return "".join(self.output[-60:])

    def said(self, text: str, patience: float = PATIENCE) -> list[str]:
        """The lines of the server's output that hold ``text``, once there is one, or none after
        ``patience`` seconds: its output is read by a thread of this process, which may not yet
        have read what the server has just written."""
        deadline = time.monotonic() + patience
        while True:
            found = [line for line in self.output if text in line]
            if found or time.monotonic() > deadline:
                return found
            time.sleep(0.02)

    @property
    def http(self) -> str:
        """The server's address, ``http://127.0.0.1:PORT`` (the client's ``base``)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """The page's address, ``http://127.0.0.1:PORT/``."""
        return self.http + "/"


class Spares:
    """Servers with the default options, each started one test ahead of the test that takes it.

    A server takes about a second to start (Python, the imports, the database's migrations), and
    its quick bots' worker a second or two more; most tests that take one spend their time waiting
    on a browser and seat a quick bot: handing out a server started beforehand, worker warm, and
    starting the next one at once lets those seconds pass during the test before.
    Each server has a database of its own in ``folder``; :meth:`close` stops the one left over.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.made = 0
        self.next: Server | None = None

    def _begin(self) -> Server:
        self.made += 1
        home = self.folder / f"server-{self.made}"
        home.mkdir(parents=True)
        return Server(home / "games.sqlite", args=("--warm-workers",)).begin()

    def take(self) -> Server:
        """A serving server, all the test's own (stop it when done)."""
        srv, self.next = self.next or self._begin(), None
        try:
            srv.wait_serving()
        finally:
            self.next = self._begin()
        return srv

    def close(self) -> None:
        if self.next is not None:
            self.next.stop()
            self.next = None


# --------------------------------------------------------------------------- a page


def whole_turn_after(place: dict[str, object], preview: dict[str, Any]) -> list[dict[str, object]]:
    """A whole turn from a placement and the server's preview of it: the first piece offered, and
    with a shaman tile first "take nothing back"."""
    moves = [place]
    if not preview["turn_over"]:
        moves.append(preview["legal"][0])
        if preview["decision"]["phase"] == "shaman":
            moves.append({"kind": "pass"})
    return moves


def hotseat_secrets(made: dict[str, Any]) -> list[str]:
    """The creator's secret and every seat's, as the page that created the game holds them."""
    return [made["creator"], *made["seats"].values()]


try:
    from huntgather.client import GameConnection
except ImportError:   # no web extra: the modules that open pages skip before they do
    GameConnection = object


class Page(GameConnection):  # type: ignore[misc,valid-type]
    """A page of a game over a real websocket, as :class:`huntgather.client.GameConnection`, that
    also keeps every ``table`` (:attr:`tables`) and the tiles each update placed (:attr:`updates`,
    by the version it came from), and plays a whole turn from the server's legal moves."""

    def __init__(self, ws: Any, **options: Any) -> None:
        super().__init__(ws, **options)
        self.tables: list[dict[str, Any]] = []
        self.updates: dict[int, list[dict[str, Any]]] = {}
        self.on_message = self._record

    @classmethod
    async def join(cls, srv: Server, game_id: str, secrets: list[str], **options: Any) -> Page:
        """Open a page of ``game_id`` on ``srv`` with ``secrets``, up to date; uncompressed unless
        ``compression`` says otherwise (so that a frame's size on the wire is its size)."""
        page: Page = await cls.open(srv.http, game_id, secrets, timeout=PATIENCE,
                                    **{"compression": None, **options})
        return page

    def _record(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "table":
            self.tables.append(msg)
        elif msg["type"] == "update":
            self.updates[msg["from"]] = msg["placed"]

    async def whole_turn(self) -> list[dict[str, Any]]:
        """A whole turn for the player to move: the first placement, then the first choice offered."""
        view = self.view
        assert view is not None and view["legal"], f"nothing legal to play at version {self.version}"
        place = view["legal"][0]
        return whole_turn_after(place, await self.preview([place]))

    async def play(self, moves: list[dict[str, Any]] | None = None) -> tuple[int, float]:
        """Play a whole turn; return the acknowledged version and the seconds from sending to the ack."""
        if moves is None:
            moves = await self.whole_turn()
        sent = time.monotonic()
        ack = await self.turn(moves)
        return int(ack["version"]), time.monotonic() - sent

    async def until_to_move(self, seat: int, patience: float = PATIENCE) -> None:
        """Wait until ``seat`` is to move (bots at the other seats play meanwhile)."""
        if not await self.wait_until(lambda: self.to_move == seat, patience):
            raise AssertionError(f"after {patience:.0f} s seat {self.to_move} is to move, not {seat}")

    async def wait_for_table(self, check: Any, what: str, patience: float = PATIENCE) -> None:
        """Wait until ``check(table)`` holds for the latest ``table``; fail with ``what`` if not."""
        if not await self.wait_until(lambda: bool(self.tables) and check(self.tables[-1]), patience):
            raise AssertionError(f"{what}: after {patience:.0f} s the table says "
                                 f"{self.tables[-1] if self.tables else None}")
