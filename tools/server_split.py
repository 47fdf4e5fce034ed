"""Where the real server's instructions a turn go: ``huntgather play`` under callgrind, driven by
``tools/loadtest.py``, split by py-spy (docs/performance.md, "The server's CPU a turn").

``tools/server_work.py`` counts the rooms, the update and the writer in process; a real move also
costs the HTTP and websocket layers, the event loop, the reading of each message and the sending
of each one.  This starts the server under ``valgrind --tool=callgrind`` on a new SQLite file, has
the load test keep ``--games`` two-player 20-tile games going at a turn a second each (the server
under callgrind makes about 7 turns a second, so the load is a closed loop at that pace), zeroes
the counters after the warm-up (``callgrind_control -z``), dumps them ``--seconds`` later, and
divides the instructions by the turns the load test saw acknowledged meanwhile.  py-spy samples
the same process over the same seconds: under callgrind its time goes in proportion to its
instructions (the system calls, not counted, are then a sliver of the time), so the share of the
samples in each part is the share of the instructions.  Samples of the writer's commit are left
out (they wait on ``fsync``).  The periodic work (clocks, the notifier, expiries) is per second,
not per turn: at 7 turns a second it weighs far more than at 1,000, so it is shown apart::

    pip install py-spy
    python tools/server_split.py                    # 12 games, 20 s warm-up, 60 s counted
    python tools/server_split.py --warmup 40 --seconds 60 --keep /tmp/split
    PYTHONPATH=/tmp/base/src python tools/server_split.py   # another tree, to compare

Needs valgrind, callgrind_control and py-spy (``--py-spy PATH``); about 4 minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent

PERIODIC = ("Rooms._watch_clocks", "LoopLag.watch", "_Watcher._sweep", "keep_alive.<locals>.beat",
            "send_keepalive_ping", "Notifier.", "NotifyStore.due", "lobby_expired", "Storage._expired",
            "_waiting (huntgather/server/reviews", "DatabaseFile.check", "Rooms._evict")
#: the event loop's parts, in order: a sample goes to the first whose mark is on its stack
#: ("LEAF:" marks the innermost frame only)
MAIN = (
    ("periodic (clocks, notifier, expiries, lag, sweeps)", PERIODIC),
    ("young collections (every 0.1 s)", ("collect_young_every",)),
    ("the turn in its room (Room.submit: check, play, store, update, broadcast)", ("Room.submit",)),
    ("reading a message (read_json, the intent's checks)", ("read_json", "check_intent", "check_envelope")),
    ("acks, pongs, hellos and the other intents", ("handle (huntgather/server/dispatch.py",)),
    ("sending each message (Starlette, uvicorn, websockets' frame, the write)", ("Connection.run",)),
    ("frames in (uvicorn's data_received, websockets' parser)", ("WebSocketsSansIOProtocol.data_received",)),
    ("the reader task (receive, its queue)", ("_read (huntgather/server/routes_ws.py",)),
    ("HTTP (POST /api/games, the upgrade)", ("httptools_impl", "HttpToolsProtocol")),
    ("sockets opened and closed, middleware, rooms loaded", ("WebSocketsSansIOProtocol.run_asgi",
                                                              "game_socket", "_serve")),
    ("the event loop itself (uvloop, C)", ("LEAF:Runner.run",)),
)
THREADS = (
    ("periodic (the notifier's look, expiries)", PERIODIC),
    ("the writer: moves, positions, seats, new games (SQL, SQLite)", ("hg-writer",)),
    ("loads of new rooms (the executor)", ("_worker",)),
)


def _part(frames: list[str], parts: tuple[tuple[str, tuple[str, ...]], ...]) -> str:
    for name, marks in parts:
        for mark in marks:
            if mark.startswith("LEAF:"):
                if frames[-1].startswith(mark[5:]):
                    return name
            elif any(mark in frame for frame in frames):
                return name
    return "other"


def split(spy: Path) -> tuple[Counter[str], Counter[str]]:
    """py-spy's raw samples of the event loop's thread and of the others, by part."""
    main: Counter[str] = Counter()
    others: Counter[str] = Counter()
    for line in spy.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        if "MainThread" in frames[0]:
            main[_part(frames, MAIN)] += int(count)
        elif "do_commit" not in frames[-1]:   # the commit's fsync: waiting, not instructions
            others[_part(frames, THREADS)] += int(count)
    return main, others


def instructions(dump: Path) -> tuple[int, int]:
    """All the instructions of a callgrind dump, and those of the threads other than the first."""
    total = int(re.search(r"^summary: (\d+)", dump.read_text(), re.M).group(1))  # type: ignore[union-attr]
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(dump)],
                               capture_output=True, text=True, check=True).stdout
    started = re.finditer(r"^\s*([\d,]+) .*pthread_create\.c:start_thread \[", annotated, re.M)
    threads = max((int(m.group(1).replace(",", "")) for m in started), default=0)
    return total, threads


def _run(args: argparse.Namespace, work: Path, out: IO[bytes], err: IO[bytes]) -> dict[str, Any]:
    """Run the server under callgrind and the load test; return the load test's figures."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    server = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={work / 'cg.out'}", "--dump-instr=no",
         sys.executable, "-m", "huntgather", "play", "--no-browser", "--host", "127.0.0.1", "--port", "0",
         "--db", str(work / "db.sqlite"), "--bot-delay", "0", "--max-sockets-per-address", "0",
         "--shed-after", "0", "--hello-timeout", "60"],
        stdout=out, stderr=err, env=env)
    try:
        deadline = time.monotonic() + 600
        while not (found := re.search(r"http://[0-9.:]+", (work / "server.out").read_text())):
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start: see {work}")
            time.sleep(0.5)
        load = subprocess.Popen(
            [sys.executable, str(ROOT / "tools" / "loadtest.py"), "--url", found.group(0), "--games",
             str(args.games), "--rate", "1", "--seconds", str(args.seconds), "--warmup", str(args.warmup),
             "--timeout", "60", "--json"], stdout=subprocess.PIPE, env=env)
        time.sleep(args.warmup)
        subprocess.run(["callgrind_control", "-z", str(server.pid)], check=True, capture_output=True)
        spy = subprocess.Popen([args.py_spy, "record", "-p", str(server.pid), "-d", str(int(args.seconds)),
                                "-r", "50", "-f", "raw", "-o", str(work / "spy.txt"), "--threads",
                                "--nonblocking"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(args.seconds)
        subprocess.run(["callgrind_control", "-d", str(server.pid)], check=True, capture_output=True)
        figures: dict[str, Any] = json.loads(load.communicate()[0])
        spy.wait()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=20.0)
    parser.add_argument("--py-spy", default=shutil.which("py-spy") or "py-spy", metavar="PATH")
    parser.add_argument("--keep", metavar="DIR", help="keep the dumps, samples and logs there")
    args = parser.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="server-split-"))
    work.mkdir(parents=True, exist_ok=True)
    with open(work / "server.out", "wb") as out, open(work / "server.err", "wb") as err:
        figures = _run(args, work, out, err)
    turns = int(figures["turns_acknowledged"])
    total, threads = instructions(work / "cg.out.1")
    main_ir = (total - threads) / turns
    threads_ir = threads / turns
    print(f"{turns} turns acknowledged in {args.seconds:g} s ({args.games} games), "
          f"errors {figures['errors']}, missed updates {figures['updates_missed']}")
    print(f"{total / turns / 1e6:.3f} M instructions a turn: the event loop's thread {main_ir / 1e6:.3f} M, "
          f"the others {threads_ir / 1e6:.3f} M")
    main_parts, thread_parts = split(work / "spy.txt")
    for parts, per_turn in ((main_parts, main_ir), (thread_parts, threads_ir)):
        samples = sum(parts.values())
        for name, n in parts.most_common():
            print(f"  {100 * n / samples:5.1f} %  {per_turn * n / samples / 1e3:6.0f} k  {name}")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
