"""One page of a game over the websocket: hello and welcome, the view kept up to date, intents.

A :class:`GameConnection` speaks the protocol of ``docs/protocol.md`` as the
browser's page does.  It says ``hello`` with the secrets it holds, keeps the
game's view (the ``snapshot``, with every ``update`` applied as
:func:`huntgather.client.view.apply_update` does), asks for a ``resync`` when an
update does not follow on, answers the server's ``ping`` at once, and sends the
intents of the seats it holds (a whole turn, a preview, a hint, a name),
waiting for their answers.  Everything runs on the caller's asyncio loop; a
task of its own reads the socket.

Every message received is also kept, in order, in a bounded inbox that
:meth:`GameConnection.receive` reads (for a client that waits for a particular
message), and handed to ``on_message`` if given (for a client that counts them).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import json
from collections.abc import Callable, Sequence
from typing import Any, Self
from urllib.parse import urlsplit

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from huntgather.client.view import apply_update, follows

__all__ = ["Disconnected", "GameConnection", "Message", "ServerError", "websocket_url"]

#: a message of the protocol: a JSON object with a "type"
Message = dict[str, Any]
#: the messages that answer an intent with a "request" (an error may answer any of them)
ANSWERS = frozenset({"ack", "preview", "hint"})
#: how long an answer may take by default, in seconds
TIMEOUT = 30.0


class ServerError(Exception):
    """An ``error`` message from the server, instead of the answer waited for.

    ``code`` is the protocol's error code (``stale``, ``not_your_turn``...),
    ``msg`` the whole message.
    """

    def __init__(self, msg: Message) -> None:
        super().__init__(f"{msg.get('code')}: {msg.get('message')}")
        self.msg = msg
        self.code: str | None = msg.get("code")


class Disconnected(ConnectionError):
    """The socket closed (``code`` and ``reason`` of the close, when one was received)."""

    def __init__(self, code: int | None, reason: str) -> None:
        super().__init__(f"the connection closed (code {code}{', ' + reason if reason else ''})")
        self.code = code
        self.reason = reason


def websocket_url(base: str, game: str) -> str:
    """The websocket address of a game on the server at ``base`` (``http://host:port``, or
    ``https://…``, or already ``ws://…``).

    >>> websocket_url("http://127.0.0.1:8765/", "Xf3k")
    'ws://127.0.0.1:8765/ws/Xf3k'
    >>> websocket_url("https://example.org/hg", "Xf3k")
    'wss://example.org/hg/ws/Xf3k'
    """
    parts = urlsplit(base)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    return f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}/ws/{game}"


class GameConnection:
    """A page of one game: open it with :meth:`open`, close it with :meth:`close` (or
    ``async with``).

    Its state, kept up to date by the reader task:

    * :attr:`view`: the game's public view (``docs/protocol.md``, ``snapshot``), or None before
      the first snapshot; :attr:`version` is its version (-1 before);
    * :attr:`welcome`: the ``welcome`` message (:attr:`seats`, :attr:`refused`);
    * :attr:`table`: the latest ``table`` (who is there);
    * :attr:`seat_secrets`: new secrets sent to the creator (``seat_secret``), by seat;
    * :attr:`gaps`: how many updates did not follow on (each answered with a ``resync``);
    * :attr:`closed`: the socket is gone (:attr:`close_code`, :attr:`close_reason`).
    """

    def __init__(self, ws: ClientConnection, *, view: Message | None = None, inbox: int = 10_000,
                 on_message: Callable[[Message], None] | None = None, timeout: float = TIMEOUT) -> None:
        """Wrap an open websocket (see :meth:`open`, which also says hello); ``view``: a view of
        the game this page already holds; ``inbox``: how many received messages to keep for
        :meth:`receive` (the oldest go first; 0 keeps none); ``on_message``: called with every
        message received, after it was taken in; ``timeout``: the default wait for an answer."""
        self.ws = ws
        self.view: Message | None = view
        self.welcome: Message | None = None
        self.table: Message | None = None
        self.seat_secrets: dict[int, str] = {}
        self.gaps = 0
        self.closed = False
        self.close_code: int | None = None
        self.close_reason = ""
        self.timeout = timeout
        self.on_message = on_message
        self._inbox: collections.deque[Message] = collections.deque(maxlen=inbox or None)
        self._keep = inbox > 0
        self._pending: dict[int, asyncio.Future[Message]] = {}
        self._requests = itertools.count(1)
        self._changed = asyncio.Event()
        self._welcomed: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    # ------------------------------------------------------------------ opening and closing

    @classmethod
    async def open(cls, base: str, game: str, secrets: Sequence[str] = (), *, name: str | None = None,
                   view: Message | None = None, timeout: float = TIMEOUT, inbox: int = 10_000,
                   on_message: Callable[[Message], None] | None = None, **options: Any) -> Self:
        """Connect to game ``game`` of the server at ``base`` (``http://host:port``), say hello
        with ``secrets`` (the seats' and the creator's; none: a watcher) and wait until the
        page is up to date (its view at the welcome's version).

        ``view``: a view this page holds already (it then receives only what it missed);
        ``name``: the display name of the held seats that have none; ``options`` go to
        :func:`websockets.asyncio.client.connect` (``compression``, ``local_addr``...).  A
        secret that holds nothing is not an error: :attr:`refused` names it.  Raises
        :class:`ServerError` (``unknown_game``...), :class:`Disconnected`, :class:`TimeoutError`,
        or :class:`OSError` when the server cannot be reached.
        """
        settings: dict[str, Any] = {"open_timeout": timeout, "max_size": 2**22,
                                    "user_agent_header": "huntgather-client"} | options
        ws = await connect(websocket_url(base, game), **settings)
        page = cls(ws, view=view, inbox=inbox, on_message=on_message, timeout=timeout)
        try:
            hello: Message = {"type": "hello", "secrets": list(secrets),
                              "version": view["version"] if view is not None else None}
            if name is not None:
                hello["name"] = name
            await page._send(hello)
            welcome = await page._answer(page._welcomed, timeout)
            if not await page.wait_version(welcome["version"], timeout):
                raise TimeoutError(f"no view of version {welcome['version']} within {timeout} s")
        except BaseException:
            await page.close()
            raise
        return page

    async def close(self) -> None:
        """Close the socket (waiting a few seconds at most) and stop reading."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 5)
        self._reader.cancel()
        with contextlib.suppress(BaseException):
            await self._reader

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ what the page knows

    @property
    def version(self) -> int:
        """The version of the view (-1 before the first snapshot)."""
        return int(self.view["version"]) if self.view is not None else -1

    @property
    def seats(self) -> list[int]:
        """The seats this page holds (from ``welcome``)."""
        return list(self.welcome["seats"]) if self.welcome is not None else []

    @property
    def refused(self) -> list[int]:
        """The places in ``hello``'s secrets of those that hold nothing in this game."""
        return list(self.welcome.get("refused", [])) if self.welcome is not None else []

    @property
    def to_move(self) -> int | None:
        """The seat whose decision it is (None when the game is over or before the first view)."""
        if self.view is None or self.view.get("over"):
            return None
        player: int | None = self.view["decision"].get("player")
        return player

    @property
    def my_turn(self) -> bool:
        """Whether the decision is one of this page's seats'."""
        return self.to_move is not None and self.to_move in self.seats

    async def wait_until(self, check: Callable[[], bool], timeout: float | None = None) -> bool:
        """Wait until ``check()`` holds (it is tried after every message); False if it does
        not within ``timeout`` seconds (default: the connection's) or the socket closed first."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.timeout if timeout is None else timeout)
        while not check():
            left = deadline - loop.time()
            if self.closed or left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
        return True

    async def wait_version(self, version: int, timeout: float | None = None) -> bool:
        """Wait until the view reaches ``version``; False if it does not in time."""
        return await self.wait_until(lambda: self.version >= version, timeout)

    async def receive(self, *types: str, timeout: float | None = None) -> Message:
        """The next message kept in the inbox of one of ``types`` (every message before it is
        dropped from the inbox; all were taken in already).  An ``error`` raises
        :class:`ServerError` unless ``"error"`` is one of ``types``; raises
        :class:`Disconnected` once the socket is closed and the inbox read, and
        :class:`TimeoutError`."""
        loop = asyncio.get_running_loop()
        patience = self.timeout if timeout is None else timeout
        deadline = loop.time() + patience
        while True:
            while self._inbox:
                msg = self._inbox.popleft()
                if msg.get("type") in types:
                    return msg
                if msg.get("type") == "error":
                    raise ServerError(msg)
            if self.closed:
                raise Disconnected(self.close_code, self.close_reason)
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"no {' or '.join(types)} within {patience} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    def clear(self) -> None:
        """Drop every message kept in the inbox (so that :meth:`receive` waits for new ones)."""
        self._inbox.clear()

    # ------------------------------------------------------------------ intents

    async def turn(self, moves: Sequence[Message], *, seat: int | None = None, version: int | None = None,
                   timeout: float | None = None) -> Message:
        """Play a whole turn (``moves``: MOVEs, ``docs/protocol.md``) for ``seat`` (default: the
        seat to move) at ``version`` (default: the view's); return the ``ack`` once the view
        has reached its version.  Raises :class:`ServerError` (``stale``, ``illegal_move``,
        ``storage_failed``...): nothing was stored."""
        ack = await self.request(self._intent("turn", seat, version, moves=list(moves)), timeout)
        if not await self.wait_version(ack["version"], timeout):   # its update comes before the ack
            await self.resync()
            await self.wait_version(ack["version"], timeout)
        return ack

    async def preview(self, moves: Sequence[Message], *, seat: int | None = None, version: int | None = None,
                      timeout: float | None = None) -> Message:
        """What ``moves`` (the start of a turn) would lead to: the ``preview`` (``legal``: the
        choices left, ``turn_over``); nothing is stored."""
        return await self.request(self._intent("preview", seat, version, moves=list(moves)), timeout)

    async def hint(self, moves: Sequence[Message] = (), *, seat: int | None = None,
                   timeout: float | None = None) -> Message:
        """The expert bot's best turns for ``seat`` after ``moves`` (the ``hint``; ``busy`` when
        the server's hint helper is)."""
        return await self.request(self._intent("hint", seat, None, moves=list(moves)), timeout)

    async def rename(self, name: str, *, seat: int | None = None, timeout: float | None = None) -> Message:
        """Give ``seat`` (default: the first seat held) a display name; return the ``ack`` (the
        ``table`` that shows the name came before it).  Raises :class:`ServerError`."""
        held = seat if seat is not None else self.seats[0]
        return await self.request({"type": "name", "seat": held, "name": name}, timeout)

    async def resign(self, *, seat: int | None = None, timeout: float | None = None) -> Message:
        """Hand ``seat`` (default: the first held) to an easy bot for the rest of the game; return
        the ``ack``.  Raises :class:`ServerError`."""
        held = seat if seat is not None else self.seats[0]
        return await self.request({"type": "resign", "seat": held, "version": self.version}, timeout)

    async def resync(self, *, full: bool = False) -> None:
        """Ask for what this page missed (an ``update``), or a whole ``snapshot`` with ``full``."""
        await self._send({"type": "resync", "version": None if full or self.view is None else self.version})

    async def request(self, msg: Message, timeout: float | None = None) -> Message:
        """Send an intent with a fresh ``request`` number and return its answer (``ack``,
        ``preview`` or ``hint``); an ``error`` raises :class:`ServerError`, a closed socket
        :class:`Disconnected`, no answer in time :class:`TimeoutError`."""
        number = next(self._requests)
        answer: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._pending[number] = answer
        try:
            await self._send(msg | {"request": number})
            return await self._answer(answer, self.timeout if timeout is None else timeout)
        finally:
            self._pending.pop(number, None)

    async def send(self, msg: Message | str | bytes) -> None:
        """Send a message as it is (a dict as JSON; text or bytes as one frame, for a client
        that sends what the protocol does not, to see the server's answer)."""
        await self._send(msg)

    def _intent(self, kind: str, seat: int | None, version: int | None, **fields: Any) -> Message:
        if self.view is None:
            raise RuntimeError("no view of the game yet")
        held = seat if seat is not None else self.view["decision"]["player"]
        at = version if version is not None else self.version
        return {"type": kind, "seat": held, "version": at, **fields}

    async def _send(self, msg: Message | str | bytes) -> None:
        if self.closed:
            raise Disconnected(self.close_code, self.close_reason)
        try:
            await self.ws.send(json.dumps(msg) if isinstance(msg, dict) else msg)
        except ConnectionClosed:
            self._closed()
            raise Disconnected(self.close_code, self.close_reason) from None

    async def _answer(self, answer: asyncio.Future[Message], timeout: float) -> Message:
        msg = await asyncio.wait_for(asyncio.shield(answer), timeout)
        if msg.get("type") == "error":
            raise ServerError(msg)
        if msg.get("type") == "closed":
            raise Disconnected(self.close_code, self.close_reason)
        return msg

    # ------------------------------------------------------------------ what comes in

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                try:
                    msg = orjson.loads(raw)   # several times faster than json with a big snapshot
                except ValueError:
                    continue
                if isinstance(msg, dict):
                    await self._take(msg)
        except ConnectionClosed:
            pass
        finally:
            self._closed()

    def _closed(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.close_code, self.close_reason = self.ws.close_code, self.ws.close_reason or ""
        gone: Message = {"type": "closed"}
        for answer in [*self._pending.values(), self._welcomed]:
            if not answer.done():
                answer.set_result(gone)
        self._notify()

    async def _take(self, msg: Message) -> None:
        kind = msg.get("type")
        if kind == "ping":   # the server's heartbeat: a page that does not answer is let go
            with contextlib.suppress(ConnectionClosed):
                await self.ws.send('{"type": "pong"}')
        elif kind == "welcome":
            self.welcome = msg
            if not self._welcomed.done():
                self._welcomed.set_result(msg)
        elif kind == "table":
            self.table = msg
        elif kind == "snapshot":
            self.view = msg
        elif kind == "update":
            await self._update(msg)
        elif kind == "seat_secret":
            self.seat_secrets[msg["seat"]] = msg["secret"]
        elif kind in ANSWERS or kind == "error":
            request = msg.get("request")
            answer = self._pending.get(request) if isinstance(request, int) else None
            if answer is not None and not answer.done():
                answer.set_result(msg)
            elif kind == "error" and not self._welcomed.done():   # refused before the welcome
                self._welcomed.set_result(msg)
        if self._keep:
            self._inbox.append(msg)
        if self.on_message is not None:
            self.on_message(msg)
        self._notify()

    async def _update(self, msg: Message) -> None:
        view = self.view
        if view is None:
            with contextlib.suppress(Disconnected):
                await self.resync(full=True)
        elif follows(view, msg):
            self.view = apply_update(view, msg)
        elif msg["version"] > view["version"]:   # a gap: ask for what was missed
            self.gaps += 1
            with contextlib.suppress(Disconnected):
                await self.resync()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()
