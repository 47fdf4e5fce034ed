"""The uvicorn server of ``huntgather play``, which drains on SIGTERM (and Ctrl+C) before it exits.

uvicorn alone, on SIGTERM, closes every websocket at once (code 1012) and cancels what runs
after a grace period, then kills itself with the signal again (exit status -15).
:class:`DrainingServer` instead, on the first SIGTERM or SIGINT: stops listening (a new
connection is refused, so a proxy sends it to another process), drains the application
(:func:`huntgather.server.app.drain`: no new socket or HTTP change, each page's message being
handled answered and the page closed with 1012, the bots' searches under way stored) for at
most ``drain_seconds``, then lets uvicorn shut down as usual, and the process exits with
status 0.  A second signal stops it at once, as uvicorn does.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
from types import FrameType

import uvicorn
from starlette.applications import Starlette

from huntgather.server.app import drain

log = logging.getLogger("huntgather.server")


class DrainingServer(uvicorn.Server):
    """A :class:`uvicorn.Server` that drains ``app`` on the first SIGTERM or SIGINT."""

    def __init__(self, config: uvicorn.Config, app: Starlette, drain_seconds: float) -> None:
        super().__init__(config)
        self.app = app
        self.drain_seconds = drain_seconds
        self._loop: asyncio.AbstractEventLoop | None = None
        self._drain: asyncio.Task[None] | None = None

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._loop is None or not self.started or self.should_exit or self._drain is not None \
                or sig not in (signal.SIGTERM, signal.SIGINT):
            super().handle_exit(sig, frame)   # not serving yet, or a second signal: stop now
            return
        log.info("%s: draining (at most %.0f s), then exiting", signal.Signals(sig).name, self.drain_seconds)
        self._loop.call_soon_threadsafe(self._start_drain)

    def _start_drain(self) -> None:
        if self._drain is not None or self.should_exit:
            return
        for server in self.servers:   # take no new connection: a proxy tries the next process
            server.close()
        self._drain = asyncio.get_running_loop().create_task(self._drain_then_exit())

    async def _drain_then_exit(self) -> None:
        try:
            await drain(self.app, self.drain_seconds)
        except Exception:
            log.exception("draining failed; stopping all the same")
        finally:
            self.should_exit = True
