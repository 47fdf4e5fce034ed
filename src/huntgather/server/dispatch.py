"""One message of a page, read, checked and handed to its handler: the dispatch table.

:func:`handle` reads the frame (:func:`~huntgather.server.codec.read_json`), checks that the
intent may come now (``hello`` first, the heartbeat at any time), checks its fields against
its declaration (:data:`huntgather.server.messages.INTENTS`) and calls the handler of its type
in :data:`HANDLERS`.  Whatever is refused, by the check or by the handler
(:class:`~huntgather.server.seats.RequestError`), is answered with an ``error`` of its code;
a fault of the server's with ``server_error``, its details only in the server's log.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from huntgather.server import protocol
from huntgather.server.codec import ProtocolError, dumps, read_json
from huntgather.server.connection import CLOSE_GONE, Connection
from huntgather.server.messages import (
    INTENTS,
    Ack,
    ChatIntent,
    ChatWatchersIntent,
    CloseCode,
    ErrorCode,
    Hello,
    HintIntent,
    IntentType,
    MessageType,
    Name,
    PreviewIntent,
    RematchIntent,
    Resign,
    Resync,
    SeatChange,
    Turn,
    Undo,
    When,
    check_envelope,
    check_intent,
)
from huntgather.server.rooms import Room
from huntgather.server.seats import RequestError

log = logging.getLogger("huntgather.server")


@dataclass
class Sender:
    """Where an intent came from: the game, the page, the ``request`` it carries, and the tasks
    of the page's socket (a slow answer runs in one of its own)."""

    room: Room
    conn: Connection
    request: Any
    tasks: set[asyncio.Task[None]]
    #: the loop time the message was received (for the acknowledgement latency)
    received: float = 0.0

    def answer(self, message: dict[str, Any] | Any) -> None:
        """Send the page ``message`` with its ``request``."""
        self.conn.push(dumps({**message, "request": self.request}))

    def ack(self, version: int) -> None:
        """Tell the page its intent is done (the game at ``version``)."""
        self.conn.push(dumps(Ack(type=MessageType.ACK, request=self.request, version=version)))

    def error(self, code: str, message: str, explain: str | None = None) -> None:
        self.conn.push(dumps(protocol.error(code, message, self.request, self.room.version, explain)))


Handler = Callable[[Sender, Any], Awaitable[None]]

_PONG = dumps(protocol.pong())


async def _hello(s: Sender, msg: Hello) -> None:
    await s.room.attach(s.conn, msg)


async def _turn(s: Sender, msg: Turn) -> None:
    s.ack(await s.room.submit(s.conn, msg))
    s.room.tally.observe_ack(asyncio.get_running_loop().time() - s.received)


async def _undo(s: Sender, msg: Undo) -> None:
    version = await s.room.undo(s.conn, msg)
    s.conn.push(dumps(Ack(type=MessageType.ACK, request=s.request, version=version)))


async def _preview(s: Sender, msg: PreviewIntent) -> None:
    s.answer(await s.room.preview(s.conn, msg))


async def _hint(s: Sender, msg: HintIntent) -> None:
    # a search takes a while: answered from its own task, so the page can go on meanwhile
    task = asyncio.get_running_loop().create_task(_hint_task(s, msg))
    s.tasks.add(task)
    task.add_done_callback(s.tasks.discard)


async def _hint_task(s: Sender, msg: HintIntent) -> None:
    try:
        s.answer(await s.room.hint(s.conn, msg))
    except RequestError as exc:
        s.error(exc.code, exc.message)
    except Exception:
        log.exception("game %s: a hint failed", s.room.id)
        s.error(ErrorCode.SERVER_ERROR, "the hint could not be computed")


async def _resync(s: Sender, msg: Resync) -> None:
    await s.room.resync(s.conn, msg.get("version"))


async def _name(s: Sender, msg: Name) -> None:
    await s.room.set_name(s.conn, msg)
    s.ack(s.room.version)


async def _seat(s: Sender, msg: SeatChange) -> None:
    await s.room.change_seat(s.conn, msg)
    s.ack(s.room.version)


async def _resign(s: Sender, msg: Resign) -> None:
    await s.room.resign(s.conn, msg)
    s.ack(s.room.version)


async def _chat(s: Sender, msg: ChatIntent) -> None:
    await s.room.chat(s.conn, msg)
    s.ack(s.room.version)


async def _chat_watchers(s: Sender, msg: ChatWatchersIntent) -> None:
    await s.room.set_watchers_chat(s.conn, msg)
    s.ack(s.room.version)


async def _rematch(s: Sender, msg: RematchIntent) -> None:
    await s.room.rematch(s.conn, msg)
    s.ack(s.room.version)


async def _ping(s: Sender, msg: Any) -> None:
    s.conn.push(_PONG)


async def _pong(s: Sender, msg: Any) -> None:
    """The answer to the server's ping: hearing it (any message) was all that counts."""


#: the handler of each intent (a test checks that every declared intent has one)
HANDLERS: dict[str, Handler] = {
    IntentType.HELLO: _hello,
    IntentType.TURN: _turn,
    IntentType.PREVIEW: _preview,
    IntentType.HINT: _hint,
    IntentType.RESYNC: _resync,
    IntentType.NAME: _name,
    IntentType.SEAT: _seat,
    IntentType.RESIGN: _resign,
    IntentType.UNDO: _undo,
    IntentType.CHAT: _chat,
    IntentType.CHAT_WATCHERS: _chat_watchers,
    IntentType.REMATCH: _rematch,
    IntentType.PING: _ping,
    IntentType.PONG: _pong,
}


def _may_come_now(kind: Any, ready: bool) -> None:
    """Raise unless an intent of type ``kind`` may come now (``hello`` first, and only once)."""
    spec = INTENTS.get(kind) if isinstance(kind, str) else None
    when = spec.when if spec is not None else None
    if when == When.ANYTIME:
        return
    if not ready and when != When.OPENING:
        raise RequestError(ErrorCode.HELLO_FIRST, "the first message must be a 'hello'")
    if ready and when == When.OPENING:
        raise RequestError(ErrorCode.BAD_REQUEST, f"{kind} comes once, at the start")


async def handle(room: Room, conn: Connection, text: str, tasks: set[asyncio.Task[None]],
                 received: float | None = None) -> None:
    """Read one message of a page, received at loop time ``received`` (default: now), and answer
    it (errors included)."""
    sender = Sender(room, conn, None, tasks,
                    asyncio.get_running_loop().time() if received is None else received)
    try:
        data = read_json(text)
        if not isinstance(data, dict):
            raise RequestError(ErrorCode.BAD_REQUEST, "a message must be a JSON object with a 'type'")
        sender.request = check_envelope(data).get("request")
        if room.closed:
            raise RequestError(ErrorCode.DELETED, "this game has been deleted")
        _may_come_now(data.get("type"), conn.ready)
        msg = check_intent(data)
        kind = str(msg["type"])
        budget = conn.budget
        if INTENTS[kind].costly and budget is not None \
                and not budget.take(asyncio.get_running_loop().time()):
            raise RequestError(ErrorCode.TOO_FAST, f"too many {kind} messages at once (at most "
                                                   f"{budget.burst}, then {budget.rate:g} a second, of "
                                                   f"the costly ones); wait a moment")
        await HANDLERS[kind](sender, msg)
    except (RequestError, ProtocolError) as exc:
        sender.error(exc.code, exc.message, getattr(exc, "explain", None))
        if exc.code == ErrorCode.DELETED:
            conn.finish(CLOSE_GONE, "deleted")
        elif exc.code == ErrorCode.TOO_MANY_WATCHERS:
            conn.finish(CloseCode.TOO_MANY_WATCHERS, str(ErrorCode.TOO_MANY_WATCHERS))
    except Exception:   # a bug: say so in plain words, keep the details in the server's log
        log.exception("game %s: handling a message failed", room.id)
        sender.error(ErrorCode.SERVER_ERROR, "the server could not handle that message")
