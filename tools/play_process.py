"""A real ``huntgather play`` process, for the tools that measure the server or the page from outside
(``tools/render_cost.py``, ``tools/page_load_cost.py``): imported by them, not run."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def play_process(db: str, *options: str) -> Iterator[str]:
    """``huntgather play`` on a free loopback port with the database ``db`` and ``options``, once it
    answers (at most a minute); yields its address, ``http://127.0.0.1:PORT/``, and stops it
    (SIGTERM, then waited for) after."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "huntgather", "play", "--no-browser",
                               "--host", "127.0.0.1", "--port", str(port), "--db", db, *options],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(url + "api/editions", timeout=1).close()
                break
            except OSError:
                if server.poll() is not None:
                    raise RuntimeError(f"huntgather play exited with {server.returncode}") from None
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(30)
