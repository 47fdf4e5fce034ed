"""The ASGI application: HTTP API, a websocket per game, and the static client.

The protocol (every route, every message, every error code) is documented in
``docs/protocol.md``.  In short:

================================  ==============================================
``GET  /api/editions``            editions, player ranges, bot levels, colours
``GET  /api/tiles/{edition}``     tile pictures (4 rotations) and occupant anchors
``GET  /api/rules/{edition}``     the rules in short sections, with diagrams of real positions
``GET  /api/games?ids=a,b``       summaries of the games a page knows (no listing of all)
``POST /api/games``               new game; answers its id, creator and seat secrets
``GET  /api/games/{id}``          the public view (what a watcher sees)
``DELETE /api/games/{id}``        delete a game (``Authorization: Bearer <creator secret>``)
``GET  /api/games/{id}/at/{n}``   the position after the first n moves (replay)
``WS   /ws/{id}``                 live game: ``hello`` first, then intents; updates pushed
``GET  /healthz``, ``/readyz``    the process lives; it can serve (database, schema, workers)
================================  ==============================================

Every answer to a bad request is a specific error code with a message in
plain words; no answer ever holds a traceback, SQL or a secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from huntgather.bots.ladder import shipped_ladder
from huntgather.bots.registry import offered_levels, registered
from huntgather.editions import edition_names, get_edition
from huntgather.server import gc_tuning, protocol
from huntgather.server.connection import CLOSE_BAD_SECRET, CLOSE_GONE, Connection
from huntgather.server.health import health_routes
from huntgather.server.protocol import MAX_MESSAGE, ProtocolError, dumps, read_json
from huntgather.server.rooms import GAME_ID, Room, Rooms
from huntgather.server.rules_page import rules_payload
from huntgather.server.seats import GameSetup, RequestError
from huntgather.server.storage import Storage
from huntgather.server.words import ROLE_LETTERS, tile_summary, zone_phrase, zone_summary
from huntgather.server.workers import Workers
from huntgather.svg import (
    PLAYER_COLOURS,
    PLAYER_LETTERS,
    PLAYER_NAMES,
    defs,
    hut_path,
    ink_on,
    meeple_path,
    tile_fragment,
    zone_anchors,
)
from huntgather.tiles import LAKE, RIVER


def web_dir() -> str:
    """The directory of the static client shipped with the package."""
    return str(resources.files("huntgather").joinpath("web"))


class ClientFiles(StaticFiles):
    """The static client: its modules always as ``text/javascript`` (a browser runs a module
    script only with a JavaScript type, and with ``nosniff`` it takes the server's word for it;
    ``mimetypes`` reads the system's tables, which may say otherwise)."""

    def file_response(self, full_path: Any, stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        if str(full_path).endswith((".js", ".mjs")):
            response.headers["content-type"] = "text/javascript; charset=utf-8"
        return response


#: the players' pieces as the board draws them, around (0, 0) (the page moves them into place)
PIECE_SCALE = 1.15


@cache
def tiles_payload(edition: str) -> bytes:
    """Every tile of ``edition`` as SVG fragments in 4 rotations, with zone anchors and each zone
    in words as it lies once turned (``phrases``: ``'the river to the north (1 fish)'``, for the
    board's cells read aloud) (cached)."""
    ed = get_edition(edition)
    tiles: dict[str, Any] = {}
    for tile in ed.tiles:
        tiles[str(tile.id)] = {
            "kind": tile.kind,
            "svg": [tile_fragment(tile, r, ed.bonus_name) for r in range(4)],
            "anchors": [{str(z): list(p) for z, p in zone_anchors(tile, r).items()} for r in range(4)],
            "zones": {str(z.id): {"kind": z.kind, "role": z.kind.role or "hut", "text": zone_summary(z),
                                  "phrases": [zone_phrase(tile, z.id, r) for r in range(4)],
                                  "water": z.kind in (RIVER, LAKE)} for z in tile.zones.values()},
            "text": tile_summary(tile),
        }
    return json.dumps({"edition": edition, "defs": defs(), "tiles": tiles}).encode()


log = logging.getLogger("huntgather.server")


def _bot_ladder() -> dict[str, dict[str, dict[str, Any]]]:
    """Per edition and offered level: its Elo on the shipped ladder and its CPU time per move."""
    offered = offered_levels()
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for edition, rows in shipped_ladder().items():
        out[edition] = {row.bot: row.as_dict() for row in rows if row.bot in offered}
    return out


def bot_levels() -> dict[str, Any]:
    """The bot levels a seat may be given, as the page's level picker shows them (weakest first):
    their names, their words and their places on the shipped ladder; read from the registry
    (:mod:`huntgather.bots.registry`) when asked."""
    offered = [spec for spec in registered() if spec.lane is not None]
    return {"bot_levels": [spec.name for spec in offered],
            "bot_level_text": {spec.name: spec.description for spec in offered},
            "bot_ladder": _bot_ladder()}


_STATUS = {"unknown_game": 404, "corrupt_game": 500, "not_creator": 403, "storage_failed": 503,
           "too_large": 413, "bad_content_type": 415, "too_many_games": 429}

#: headers on every HTTP answer: the page may load only its own scripts and talk only to this server
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; "
     b"frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
                   Awaitable[None]]


class SecurityHeaders:
    """ASGI middleware: add :data:`SECURITY_HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


def _error(code: str, message: str, status: int | None = None) -> JSONResponse:
    return JSONResponse({"type": "error", "code": code, "message": message},
                        status_code=status or _STATUS.get(code, 400))


class RateLimit:
    """At most ``count`` events per ``window`` seconds for each key (a client address)."""

    def __init__(self, count: int, window: float = 60.0) -> None:
        self.count, self.window = count, window
        self._seen: dict[str, deque[float]] = {}

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        if len(self._seen) > 10_000:   # forget the quiet ones, so the table stays small
            self._seen = {k: q for k, q in self._seen.items() if q and q[-1] > now - self.window}
        seen = self._seen.setdefault(key, deque())
        while seen and seen[0] <= now - self.window:
            seen.popleft()
        if len(seen) >= self.count:
            return False
        seen.append(now)
        return True


async def read_body(request: Request) -> Any:
    """The JSON body of a request: ``application/json``, at most 64 KiB, within the JSON limits."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise RequestError("bad_content_type", "send the body as application/json")
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_MESSAGE:
        raise RequestError("too_large", f"a request body may be at most {MAX_MESSAGE // 1024} KiB")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_MESSAGE:
            raise RequestError("too_large", f"a request body may be at most {MAX_MESSAGE // 1024} KiB")
    try:
        return read_json(bytes(body))
    except ProtocolError as exc:
        raise RequestError(exc.code, exc.message) from None


def _same_origin(ws: WebSocket, allowed: set[str]) -> bool:
    """A browser's websocket must come from a page of this server (or an allowed origin)."""
    origin = ws.headers.get("origin")
    if origin is None:   # not a browser (a bot, a test, a load generator)
        return True
    netloc = urlsplit(origin).netloc.lower()
    return netloc == ws.headers.get("host", "").lower() or netloc in allowed


RoomsFactory = Callable[[Storage, Workers], Rooms]


def create_app(db: str = "sqlite://", *, bot_delay: float = 0.6, bot_workers: int = 2,
               max_rooms: int = 64, games_per_minute: int = 30, allowed_origins: tuple[str, ...] = (),
               allowed_hosts: tuple[str, ...] | None = None, worker_processes: bool = True,
               rooms_factory: RoomsFactory | None = None, heartbeat: float = protocol.HEARTBEAT,
               silent_after: float = protocol.SILENT_AFTER) -> Starlette:
    """The web application, storing games in ``db`` (a SQLAlchemy URL or a SQLite file path).

    At most ``max_rooms`` games stay in memory (see :class:`~huntgather.server.rooms.Rooms`);
    one address may create at most ``games_per_minute`` games a minute.
    ``rooms_factory`` builds the :class:`Rooms` (tests use it to script the draws).
    Bots and hints search in worker processes (threads with ``worker_processes=False``).
    ``allowed_hosts`` lists the Host names requests may carry (``huntgather play``
    passes loopback and what ``--allow-host`` adds); None accepts any.
    Every page is sent a ``ping`` each ``heartbeat`` seconds, and closed once it has said nothing
    (not even ``pong``) for ``silent_after`` seconds, so its seats go offline.
    """
    if not 0 < heartbeat < silent_after:
        raise ValueError("the heartbeat must be positive and shorter than the silence that closes a page")
    ping_text = dumps(protocol.ping())
    storage = Storage(db)
    workers = Workers(bot_workers, processes=worker_processes)
    if rooms_factory is None:
        rooms = Rooms(storage, workers, bot_delay, max_rooms)
    else:
        rooms = rooms_factory(storage, workers)
    creations = RateLimit(games_per_minute)
    origins = {urlsplit(o).netloc.lower() or o.lower() for o in allowed_origins}

    async def editions(request: Request) -> Response:
        out = []
        for name in edition_names():
            ed = get_edition(name)
            out.append({"name": name, "title": ed.title, "min_players": ed.min_players,
                        "max_players": ed.max_players, "meeples": ed.meeples, "huts": ed.huts,
                        "bonus_name": ed.bonus_name})
        return JSONResponse({"editions": out, **bot_levels(),
                             "colours": [{"name": n, "rgb": c, "letter": le, "ink": ink_on(c)} for n, c, le
                                         in zip(PLAYER_NAMES, PLAYER_COLOURS, PLAYER_LETTERS, strict=True)],
                             "pieces": {"meeple": meeple_path(0, 0, PIECE_SCALE),
                                        "hut": hut_path(0, 0, PIECE_SCALE)},
                             "roles": ROLE_LETTERS})

    async def per_edition(request: Request, payload: Callable[[str], bytes]) -> Response:
        """A cached JSON document of the edition named in the path (tiles, rules)."""
        edition = request.path_params["edition"]
        if edition not in edition_names():
            return _error("unknown_edition", "there is no such edition", 404)
        body = await asyncio.to_thread(payload, edition)
        return Response(body, media_type="application/json",
                        headers={"Cache-Control": "max-age=3600"})

    async def tiles(request: Request) -> Response:
        return await per_edition(request, tiles_payload)

    async def rules(request: Request) -> Response:
        return await per_edition(request, rules_payload)

    async def list_games(request: Request) -> Response:
        ids = [i for i in request.query_params.get("ids", "").split(",") if GAME_ID.fullmatch(i)]
        if len(ids) > 100:
            return _error("bad_request", "ask for at most 100 games at once")
        try:
            rows = await asyncio.to_thread(storage.summaries, ids)
        except Exception as exc:
            log.error("listing games failed: %s", exc)
            return _error("storage_failed", "the games could not be read from storage; try again in a moment")
        games = []
        for r in rows:
            players = []
            for i, setup_seat in enumerate(r.setup.get("seats", [])):
                row = r.seats[i] if i < len(r.seats) else None
                players.append({"seat": i, "kind": row.kind if row else setup_seat["kind"],
                                "level": row.level if row else setup_seat.get("level"),
                                "name": row.name if row else None,
                                "score": r.scores[i] if i < len(r.scores) else 0})
            games.append({"id": r.id, "edition": r.setup.get("edition", "2020"), "status": r.status,
                          "version": r.ply, "created": r.created, "updated": r.updated, "players": players})
        return JSONResponse({"games": games})

    async def new_game(request: Request) -> Response:
        try:
            data = await read_body(request)
            setup = GameSetup.from_json(data)
            client = request.client.host if request.client else "?"
            if not creations.allow(client):
                raise RequestError("too_many_games", f"at most {games_per_minute} new games a minute; "
                                                     f"wait a little")
            room, creator, seat_secrets = await rooms.create(setup)
        except RequestError as exc:
            return _error(exc.code, exc.message)
        links = {"play": {str(i): f"/#/play/{room.id}/{s}" for i, s in seat_secrets.items()},
                 "watch": f"/#/watch/{room.id}"}
        return JSONResponse({"id": room.id, "version": room.version, "creator": creator,
                             "seats": {str(i): s for i, s in seat_secrets.items()}, "links": links},
                            status_code=201)

    async def get_game(request: Request) -> Response:
        try:
            room = await rooms.get(request.path_params["game_id"])
        except RequestError as exc:
            return _error(exc.code, exc.message)
        async with room.lock:
            view = room.snapshot()
        return JSONResponse(view)

    async def delete_game(request: Request) -> Response:
        auth = request.headers.get("authorization", "")
        secret = auth[7:].strip() if auth.lower().startswith("bearer ") else None
        try:
            await rooms.delete(request.path_params["game_id"], secret)
        except RequestError as exc:
            return _error(exc.code, exc.message)
        return Response(status_code=204)

    async def game_at(request: Request) -> Response:
        text = request.path_params["ply"]
        if not text.isdigit() or len(text) > 6:
            return _error("bad_request", "the move number must be a whole number")
        try:
            view = await rooms.replay_view(request.path_params["game_id"], int(text))
        except RequestError as exc:
            return _error(exc.code, exc.message)
        return JSONResponse(view)

    async def index(request: Request) -> Response:
        return FileResponse(f"{web_dir()}/index.html", headers={"Cache-Control": "no-cache"})

    async def game_socket(ws: WebSocket) -> None:
        if not _same_origin(ws, origins):
            await ws.close(code=CLOSE_BAD_SECRET, reason="this page's origin may not play here")
            return
        await ws.accept()
        try:
            room = await rooms.get(ws.path_params["game_id"])
        except RequestError as exc:
            await ws.send_text(dumps(protocol.error(exc.code, exc.message, None, None)))
            await ws.close(code=CLOSE_GONE)
            return

        room.sockets += 1   # from now on the room stays in memory until this socket is gone

        async def close(code: int, reason: str) -> None:
            await ws.close(code=code, reason=reason)

        conn = Connection(ws.send_text, close)
        conn.keep_alive(heartbeat, silent_after, ping_text)
        tasks: set[asyncio.Task[None]] = set()

        idle = asyncio.Event()   # set while the reader waits for a message (not while it handles one)
        idle.set()

        async def read() -> None:
            """The page's messages, one after the other, until it goes or the game closes."""
            with contextlib.suppress(WebSocketDisconnect):
                while not conn.dropped:
                    message = await ws.receive()
                    if message["type"] == "websocket.disconnect":
                        return
                    conn.heard(loop.time())
                    if message.get("bytes") is not None:
                        conn.push(_error_text("binary_not_accepted", "send text frames (JSON), not binary "
                                                                     "ones", None, room))
                        continue
                    idle.clear()
                    try:
                        await _handle(room, conn, message.get("text") or "", tasks)
                    finally:
                        idle.set()
                    if room.closed:
                        return

        # Two tasks for the life of the socket (not one per message): the reader, and the writer
        # that sends the page's queue.  Whichever ends first ends both: a page that stopped reading
        # is dropped by its writer even when it sends nothing more.
        loop = asyncio.get_running_loop()
        writer = loop.create_task(conn.run())
        reader = loop.create_task(read())
        try:
            await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
            failure = reader.exception() if reader.done() and not reader.cancelled() else None
            if failure is not None:
                raise failure   # a bug: let the server log it
        finally:
            # a message being handled is finished first (its move may be stored already); the
            # reader is stopped only while it waits for the next one
            while not reader.done():
                await idle.wait()
                if idle.is_set():
                    reader.cancel()
                    await asyncio.wait({reader})
            for task in tasks:
                task.cancel()
            room.sockets -= 1
            room.detach(conn)
            conn.finish()
            with contextlib.suppress(Exception):
                async with asyncio.timeout(conn.timeout + 2):
                    await writer

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        rooms.start()
        if gc_tuning.tuned():   # a serving process (huntgather play, app_from_env), not a test
            gc_tuning.collect_young_every()
        try:
            yield
        finally:
            await rooms.close()
            workers.shutdown()
            storage.close()

    routes = [
        Route("/", index),
        Route("/api/editions", editions),
        Route("/api/tiles/{edition}", tiles),
        Route("/api/rules/{edition}", rules),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game, methods=["GET"]),
        Route("/api/games/{game_id}", delete_game, methods=["DELETE"]),
        Route("/api/games/{game_id}/at/{ply}", game_at),
        WebSocketRoute("/ws/{game_id}", game_socket),
        *health_routes(storage, workers),
        Mount("/static", ClientFiles(directory=web_dir()), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders), Middleware(GZipMiddleware, minimum_size=2000)]
    if allowed_hosts is not None:   # a page reached under another name (DNS rebinding) is refused
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.storage = storage
    app.state.rooms = rooms
    return app


_PONG = dumps(protocol.pong())


def _error_text(code: str, message: str, request: Any, room: Room) -> str:
    return dumps(protocol.error(code, message, request, room.version))


async def _handle(room: Room, conn: Connection, text: str, tasks: set[asyncio.Task[None]]) -> None:
    """Read one message of a page and answer it (errors included)."""
    request: Any = None
    try:
        try:
            msg = read_json(text)
        except ProtocolError as exc:
            raise RequestError(exc.code, exc.message) from None
        if not isinstance(msg, dict):
            raise RequestError("bad_request", "a message must be a JSON object with a 'type'")
        request = msg.get("request")
        if not (request is None or (isinstance(request, str) and len(request) <= 64)
                or (isinstance(request, int) and not isinstance(request, bool))):
            request = None
            raise RequestError("bad_request", "'request' must be a number or a short text")
        kind = msg.get("type")
        if room.closed:
            raise RequestError("deleted", "this game has been deleted")
        if kind == "pong":   # the answer to the server's ping: hearing it was all that counts
            return
        if kind == "ping":
            conn.push(_PONG)
            return
        if not conn.ready:
            if kind != "hello":
                raise RequestError("hello_first", "the first message must be a 'hello'")
            await room.attach(conn, msg)
        elif kind == "turn":
            version = await room.submit(conn, msg)
            conn.push(dumps({"type": "ack", "request": request, "version": version}))
        elif kind == "preview":
            reply = await room.preview(conn, msg)
            conn.push(dumps(reply | {"request": request}))
        elif kind == "hint":
            # a search takes a while: answer it from its own task, so the page can go on meanwhile
            task = asyncio.get_running_loop().create_task(_hint(room, conn, msg, request))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        elif kind == "resync":
            await room.resync(conn, msg)
        elif kind == "name":
            await room.set_name(conn, msg)
        elif kind == "seat":
            await room.change_seat(conn, msg)
        elif kind == "resign":
            await room.resign(conn, msg)
        elif kind == "hello":
            raise RequestError("bad_request", "hello comes once, at the start")
        else:
            raise RequestError("bad_request", "unknown message type; expected 'turn', 'preview', 'hint', "
                                              "'resync', 'name', 'seat', 'resign', 'ping' or 'pong'")
    except RequestError as exc:
        conn.push(_error_text(exc.code, exc.message, request, room))
        if exc.code == "deleted":
            conn.finish(CLOSE_GONE, "deleted")
    except Exception:   # a bug: say so in plain words, keep the details in the server's log
        log.exception("game %s: handling a message failed", room.id)
        conn.push(_error_text("server_error", "the server could not handle that message", request, room))


async def _hint(room: Room, conn: Connection, msg: dict[str, Any], request: Any) -> None:
    try:
        reply = await room.hint(conn, msg)
        conn.push(dumps(reply | {"request": request}))
    except RequestError as exc:
        conn.push(_error_text(exc.code, exc.message, request, room))
    except Exception:
        log.exception("game %s: a hint failed", room.id)
        conn.push(_error_text("server_error", "the hint could not be computed", request, room))
