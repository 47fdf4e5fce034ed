"""Starting ``huntgather play`` as a real process, for the tests that need one."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def launch(db: str, port: int, bot_delay: float = 0.05, env: dict[str, str] | None = None,
           output: list[str] | None = None, wait: float = 60.0, args: tuple[str, ...] = ()
           ) -> subprocess.Popen[str]:
    """Start ``huntgather play`` on 127.0.0.1:``port`` with database ``db`` (and ``args``); return
    once it serves.

    Every line it prints is appended to ``output``.  Raises :class:`RuntimeError`, with what it
    printed, if it exits or does not serve within ``wait`` seconds.
    """
    lines = output if output is not None else []
    proc = subprocess.Popen(
        [sys.executable, "-m", "huntgather", "play", "--no-browser", "--host", "127.0.0.1",
         "--port", str(port), "--db", db, "--bot-delay", str(bot_delay), *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if "playing at" in line:
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + wait
    while not ready.wait(0.1):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            proc.wait(5)
            raise RuntimeError("the server did not start:\n" + "".join(lines[-60:]))
    return proc


def stop(proc: subprocess.Popen[str]) -> None:
    """SIGTERM (as Ctrl+C), then SIGKILL if the server has not exited within 15 s."""
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def whole_turn_after(place: dict[str, object], preview: dict[str, Any]) -> list[dict[str, object]]:
    """A whole turn from a placement and the server's preview of it: the first piece offered, and
    with a shaman tile first "take nothing back"."""
    moves = [place]
    if not preview["turn_over"]:
        moves.append(preview["legal"][0])
        if preview["decision"]["phase"] == "shaman":
            moves.append({"kind": "pass"})
    return moves
