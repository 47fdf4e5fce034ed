"""The ASGI application: HTTP API, websocket per game, and the static client.

HTTP (JSON):

==============================  ==============================================
``GET  /api/editions``          editions, player ranges, bot levels, colours
``GET  /api/tiles/{edition}``   tile pictures (4 rotations) and occupant anchors
``GET  /api/games``             saved games, most recent first
``POST /api/games``             new game from a setup; answers ``{"id": ...}``
``GET  /api/games/{id}``        the game's current view
``DELETE /api/games/{id}``      delete a saved game (204; watchers get a ``deleted`` error)
``GET  /api/games/{id}/at/{n}`` the position after the first n moves (replay)
``WS   /ws/{id}``               live game: intents in, views and errors out
==============================  ==============================================

Websocket messages from the client: ``{"type": "sync"}``,
``{"type": "preview", "seat": s, "ply": n, "moves": [...]}`` (what would
happen, nothing stored) and ``{"type": "turn", "seat": s, "ply": n, "moves":
[...]}`` (play: checked, stored, then broadcast) and ``{"type": "hint",
"seat": s, "ply": n, "moves": [...]}`` (the hard bot's three best turns for
the person to move, after the turn's ``moves`` so far, if any; up to 2 s).
The server answers with ``{"type": "state", ...}`` views (legal moves
included), ``{"type": "preview", ...}``, ``{"type": "hint", "turns": [{"moves",
"text", "value", "visits"}, ...]}`` or ``{"type": "error", "code": ...,
"message": ...}``; an error never changes the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from huntgather.editions import edition_names, get_edition
from huntgather.server.rooms import BOT_LEVELS, GameSetup, RequestError, Rooms
from huntgather.server.storage import Storage
from huntgather.svg import DEFS, PLAYER_COLOURS, PLAYER_LETTERS, PLAYER_NAMES, tile_fragment, zone_anchors
from huntgather.tiles import LAKE, RIVER

ROLES = {"forest": "gatherer", "meadow": "hunter", "river": "fisher", "lake": "hut"}


def web_dir() -> str:
    """The directory of the static client shipped with the package."""
    return str(resources.files("huntgather").joinpath("web"))


@cache
def tiles_payload(edition: str) -> bytes:
    """Every tile of ``edition`` as SVG fragments in 4 rotations, with zone anchors (cached)."""
    ed = get_edition(edition)
    tiles: dict[str, Any] = {}
    for tile in ed.tiles:
        tiles[str(tile.id)] = {
            "kind": tile.kind,
            "svg": [tile_fragment(tile, r) for r in range(4)],
            "anchors": [{str(z): list(p) for z, p in zone_anchors(tile, r).items()} for r in range(4)],
            "zones": {str(z.id): {"kind": z.kind, "role": ROLES[z.kind], "text": z.describe(),
                                  "water": z.kind in (RIVER, LAKE)} for z in tile.zones.values()},
            "text": tile.summary(),
        }
    return json.dumps({"edition": edition, "defs": DEFS, "tiles": tiles}).encode()


def _error(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=status)


_STATUS = {"unknown_game": 404, "corrupt_game": 500}


def create_app(db: str = "sqlite://", *, bot_delay: float = 0.6, bot_workers: int = 2,
               max_rooms: int = 64) -> Starlette:
    """The web application, storing games in ``db`` (a SQLAlchemy URL or a SQLite file path).

    At most ``max_rooms`` games stay in memory (see :class:`~huntgather.server.rooms.Rooms`).
    """
    storage = Storage(db)
    executor = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="hg-bot")
    rooms = Rooms(storage, executor, bot_delay, max_rooms)

    async def editions(request: Request) -> Response:
        out = []
        for name in edition_names():
            ed = get_edition(name)
            out.append({"name": name, "title": ed.title, "min_players": ed.min_players,
                        "max_players": ed.max_players, "meeples": ed.meeples, "huts": ed.huts,
                        "bonus_name": ed.bonus_name})
        return JSONResponse({"editions": out, "bot_levels": list(BOT_LEVELS),
                             "colours": [{"name": n, "rgb": c, "letter": le} for n, c, le
                                         in zip(PLAYER_NAMES, PLAYER_COLOURS, PLAYER_LETTERS, strict=True)]})

    async def tiles(request: Request) -> Response:
        edition = request.path_params["edition"]
        if edition not in edition_names():
            return _error("unknown_edition", f"unknown edition {edition!r}", 404)
        body = await asyncio.to_thread(tiles_payload, edition)
        return Response(body, media_type="application/json",
                        headers={"Cache-Control": "max-age=3600"})

    async def list_games(request: Request) -> Response:
        rows = await asyncio.to_thread(storage.list_games)
        return JSONResponse({"games": [{"id": r.id, "created": r.created, "updated": r.updated,
                                        "setup": r.setup, "status": r.status, "ply": r.ply,
                                        "scores": r.scores} for r in rows],
                             "database": storage.url})

    async def new_game(request: Request) -> Response:
        try:
            data = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return _error("bad_json", "the request body is not valid JSON")
        try:
            setup = GameSetup.from_json(data)
        except RequestError as exc:
            return _error(exc.code, exc.message)
        room = await rooms.create(setup)
        return JSONResponse({"id": room.id, "state": room.view()}, status_code=201)

    async def get_game(request: Request) -> Response:
        try:
            room = await rooms.get(request.path_params["game_id"])
        except RequestError as exc:
            return _error(exc.code, exc.message, _STATUS.get(exc.code, 400))
        return JSONResponse(room.view())

    async def delete_game(request: Request) -> Response:
        try:
            await rooms.delete(request.path_params["game_id"])
        except RequestError as exc:
            return _error(exc.code, exc.message, _STATUS.get(exc.code, 400))
        return Response(status_code=204)

    async def game_at(request: Request) -> Response:
        try:
            ply = int(request.path_params["ply"])
        except ValueError:
            return _error("bad_request", "the move number must be a whole number")
        try:
            view = await rooms.replay_view(request.path_params["game_id"], ply)
        except RequestError as exc:
            return _error(exc.code, exc.message, _STATUS.get(exc.code, 400))
        return JSONResponse(view)

    async def index(request: Request) -> Response:
        return FileResponse(f"{web_dir()}/index.html", headers={"Cache-Control": "no-cache"})

    async def game_socket(ws: WebSocket) -> None:
        await ws.accept()
        game_id = ws.path_params["game_id"]
        try:
            room = await rooms.get(game_id)
        except RequestError as exc:
            await ws.send_json({"type": "error", "code": exc.code, "message": exc.message})
            await ws.close(code=4404)
            return
        send_lock = asyncio.Lock()

        async def send(message: dict[str, Any]) -> None:
            async with send_lock:
                await ws.send_json(message)

        room.listeners.add(send)
        try:
            await send(room.view())
            while True:
                text = await ws.receive_text()
                try:
                    msg = json.loads(text)
                except json.JSONDecodeError:
                    await send({"type": "error", "code": "bad_json",
                                "message": "the message is not valid JSON"})
                    continue
                if not isinstance(msg, dict):
                    await send({"type": "error", "code": "bad_request",
                                "message": "a message must be a JSON object with a 'type'"})
                    continue
                kind = msg.get("type")
                try:
                    if kind == "sync":
                        await send(room.view())
                    elif kind == "preview":
                        reply = await room.preview(msg.get("seat"), msg.get("ply"), msg.get("moves"))
                        reply["request"] = msg.get("request")
                        await send(reply)
                    elif kind == "turn":
                        await room.submit(msg.get("seat"), msg.get("ply"), msg.get("moves"))
                    elif kind == "hint":
                        reply = await room.hint(msg.get("seat"), msg.get("ply"), msg.get("moves"))
                        reply["request"] = msg.get("request")
                        await send(reply)
                    else:
                        raise RequestError("bad_request", f"unknown message type {kind!r}; expected "
                                                          f"'sync', 'preview', 'turn' or 'hint'")
                except RequestError as exc:
                    await send({"type": "error", "code": exc.code, "message": exc.message,
                                "request": msg.get("request")})
        except WebSocketDisconnect:
            pass
        finally:
            room.listeners.discard(send)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await rooms.close()
            executor.shutdown(wait=False, cancel_futures=True)
            storage.close()

    routes = [
        Route("/", index),
        Route("/api/editions", editions),
        Route("/api/tiles/{edition}", tiles),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game, methods=["GET"]),
        Route("/api/games/{game_id}", delete_game, methods=["DELETE"]),
        Route("/api/games/{game_id}/at/{ply}", game_at),
        WebSocketRoute("/ws/{game_id}", game_socket),
        Mount("/static", StaticFiles(directory=web_dir()), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(GZipMiddleware, minimum_size=2000)],
                    lifespan=lifespan)
    app.state.storage = storage
    app.state.rooms = rooms
    return app
