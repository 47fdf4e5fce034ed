"""The HTTP routes: editions, tiles, rules, and games (create, list, view, replay, delete).

Every answer to a bad request is a specific error code with a message in plain words
(``docs/protocol.md``); no answer ever holds a traceback, SQL or a secret.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Callable, MutableMapping
from functools import cache
from importlib import resources
from typing import Any

from starlette.datastructures import Headers
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import NotModifiedResponse, StaticFiles

from huntgather.bots.ladder import shipped_ladder
from huntgather.bots.registry import offered_levels, registered
from huntgather.editions import edition_names, get_edition
from huntgather.painted import PIECE_SCALE as PAINTED_PIECE_SCALE
from huntgather.server.auth import signed_in
from huntgather.server.client_bundle import Bundle, client_bundle
from huntgather.server.codec import MAX_MESSAGE, ProtocolError, read_json
from huntgather.server.context import context_of
from huntgather.server.messages import ErrorCode
from huntgather.server.rooms import GAME_ID
from huntgather.server.rules_page import rules_payload
from huntgather.server.seats import GameSetup, RequestError, SeatKind, lister_key
from huntgather.server.words import ROLE_LETTERS, tile_summary, zone_phrase, zone_summary
from huntgather.svg import (
    PLAYER_COLOURS,
    PLAYER_LETTERS,
    PLAYER_NAMES,
    TILE_STYLES,
    defs,
    hut_path,
    ink_on,
    meeple_path,
    tile_fragment,
    zone_anchors,
)
from huntgather.tiles import LAKE, RIVER

log = logging.getLogger("huntgather.server")

Scope = MutableMapping[str, Any]


def web_dir() -> str:
    """The directory of the static client shipped with the package."""
    return str(resources.files("huntgather").joinpath("web"))


class ClientFiles(StaticFiles):
    """The static client: its modules always as ``text/javascript`` (a browser runs a module
    script only with a JavaScript type, and with ``nosniff`` it takes the server's word for it;
    ``mimetypes`` reads the system's tables, which may say otherwise); its entry module, ``app.js``,
    as one file with every module it imports where the server bundles them
    (:mod:`huntgather.server.client_bundle`)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if path == "app.js" and scope["method"] in ("GET", "HEAD") \
                and context_of(HTTPConnection(scope)).bundle_client:
            bundle = await asyncio.to_thread(client_bundle, str(self.directory))
            if bundle is not None:
                return self.bundle_response(bundle, Headers(scope=scope))
        return await super().get_response(path, scope)

    def bundle_response(self, bundle: Bundle, asked: Headers) -> Response:
        """The bundled entry module: 304 if the browser's copy is this one (``If-None-Match``,
        judged as for every other static file), else the bundle, gzip-compressed if the browser
        accepts it; asked again whenever the page loads (``no-cache``: a new server may send a
        new bundle)."""
        headers = Headers({"etag": bundle.etag, "cache-control": "no-cache", "vary": "Accept-Encoding"})
        if self.is_not_modified(headers, asked):
            return NotModifiedResponse(headers)
        sent = {**headers, "content-type": "text/javascript; charset=utf-8"}
        if "gzip" in asked.get("accept-encoding", ""):
            return Response(bundle.gzipped, headers={**sent, "content-encoding": "gzip"})
        return Response(bundle.body, headers=sent)

    def file_response(self, full_path: Any, stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        if str(full_path).endswith((".js", ".mjs")):
            response.headers["content-type"] = "text/javascript; charset=utf-8"
        return response


#: the players' pieces as the board draws them, around (0, 0) (the page moves them into place)
PIECE_SCALE = 1.15


@cache
def tiles_payload(edition: str, style: str = "clean") -> bytes:
    """Every tile of ``edition`` as SVG fragments in 4 rotations, drawn in ``style`` (clean or
    painted), with zone anchors and each zone in words as it lies once turned (``phrases``:
    ``'the river to the north (1 fish)'``, for the board's cells read aloud), each text in English
    and, beside it (``say``, ``phrases_say``), as the catalogues' key and parameters (cached)."""
    ed = get_edition(edition)
    tiles: dict[str, Any] = {}
    for tile in ed.tiles:
        tiles[str(tile.id)] = {
            "kind": tile.kind,
            "svg": [tile_fragment(tile, r, ed.bonus_name, style) for r in range(4)],
            "anchors": [{str(z): list(p) for z, p in zone_anchors(tile, r).items()} for r in range(4)],
            "zones": {str(z.id): {"kind": z.kind, "role": z.kind.role or "hut", "text": zone_summary(z),
                                  "say": zone_summary(z).say.json(),
                                  "phrases": [zone_phrase(tile, z.id, r) for r in range(4)],
                                  "phrases_say": [zone_phrase(tile, z.id, r).say.json() for r in range(4)],
                                  "water": z.kind in (RIVER, LAKE)} for z in tile.zones.values()},
            "text": tile_summary(tile), "say": tile_summary(tile).say.json(),
        }
    return json.dumps({"edition": edition, "style": style, "defs": defs(style), "tiles": tiles}).encode()


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


#: the HTTP status of each refusal an HTTP route may answer (any other code: 400), one table for
#: every route module
_STATUS: dict[str, int] = {
    ErrorCode.UNKNOWN_GAME: 404, ErrorCode.CORRUPT_GAME: 500, ErrorCode.NOT_CREATOR: 403,
    ErrorCode.STORAGE_FAILED: 503, ErrorCode.TOO_LARGE: 413, ErrorCode.BAD_CONTENT_TYPE: 415,
    ErrorCode.TOO_MANY_GAMES: 429, ErrorCode.TOO_MANY_BOT_GAMES: 429, ErrorCode.SIGN_IN_REQUIRED: 401,
    ErrorCode.RATED_GAME_KEPT: 409, ErrorCode.NOT_LISTED: 404, ErrorCode.SEAT_NOT_OPEN: 409,
    ErrorCode.SEAT_TAKEN: 409, ErrorCode.ALREADY_SEATED: 409, ErrorCode.TOO_MANY_REQUESTS: 429,
    ErrorCode.UNKNOWN_EDITION: 404, ErrorCode.UNKNOWN_PUZZLE: 404,
    # accounts, passkeys, notifications
    ErrorCode.NAME_TAKEN: 409, ErrorCode.BAD_LOGIN: 401, ErrorCode.SIGNED_OUT: 401,
    ErrorCode.WRONG_PASSWORD: 403, ErrorCode.TOO_MANY_ATTEMPTS: 429, ErrorCode.MAIL_OFF: 409,
    ErrorCode.TOO_MANY_SUBSCRIPTIONS: 409, ErrorCode.PASSKEY_EXISTS: 409, ErrorCode.LAST_SIGN_IN: 409,
    ErrorCode.ACCOUNT_DISABLED: 403, ErrorCode.UNKNOWN_PASSKEY: 401,
    # ratings and reviews
    ErrorCode.UNKNOWN_PLAYER: 404, ErrorCode.GAME_NOT_OVER: 409, ErrorCode.TOO_MANY_REVIEWS: 429,
}

#: the words of a ``signed_out`` refusal
SIGNED_OUT = "you are not signed in (or your session has ended); sign in again"


def error_response(code: str, message: str, status: int | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    """The JSON error answer of an HTTP route: ``code``'s status (:data:`_STATUS`, else 400) unless
    ``status`` is given; never cached."""
    return JSONResponse({"type": "error", "code": code, "message": message},
                        status_code=status or _STATUS.get(code, 400),
                        headers={"cache-control": "no-store", **(headers or {})})


def refusal(exc: RequestError, status: int | None = None) -> JSONResponse:
    """The JSON error answer of a refusal raised as :class:`RequestError`."""
    return error_response(str(exc.code), exc.message, status)


def signed_out() -> JSONResponse:
    """The answer of a route for a signed-in person to a request without a session."""
    return error_response(ErrorCode.SIGNED_OUT, SIGNED_OUT)


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


async def editions(request: Request) -> Response:
    out = []
    for name in edition_names():
        ed = get_edition(name)
        out.append({"name": name, "title": ed.title, "min_players": ed.min_players,
                    "max_players": ed.max_players, "meeples": ed.meeples, "huts": ed.huts,
                    "bonus_name": ed.bonus_name, "normal_tiles": len(ed.tiles.normal_ids)})
    return JSONResponse({"editions": out, **bot_levels(),
                         "colours": [{"name": n, "rgb": c, "letter": le, "ink": ink_on(c)} for n, c, le
                                     in zip(PLAYER_NAMES, PLAYER_COLOURS, PLAYER_LETTERS, strict=True)],
                         "pieces": {"meeple": meeple_path(0, 0, PIECE_SCALE),
                                    "hut": hut_path(0, 0, PIECE_SCALE)},
                         "tile_styles": {"painted": {"piece_scale": PAINTED_PIECE_SCALE},
                                         "clean": {"piece_scale": 1.0}},
                         "roles": ROLE_LETTERS})

async def per_edition(request: Request, payload: Callable[[str], bytes]) -> Response:
    """A cached JSON document of the edition named in the path (tiles, rules)."""
    edition = request.path_params["edition"]
    if edition not in edition_names():
        return error_response("unknown_edition", "there is no such edition")
    body = await asyncio.to_thread(payload, edition)
    return Response(body, media_type="application/json",
                    headers={"Cache-Control": "max-age=3600"})

async def tiles(request: Request) -> Response:
    style = request.query_params.get("style", "clean")
    if style not in TILE_STYLES:
        return error_response("bad_request", f"the tile style is one of {', '.join(TILE_STYLES)}")
    return await per_edition(request, lambda edition: tiles_payload(edition, style))

async def rules(request: Request) -> Response:
    return await per_edition(request, rules_payload)

async def list_games(request: Request) -> Response:
    ids = [i for i in request.query_params.get("ids", "").split(",") if GAME_ID.fullmatch(i)]
    if len(ids) > 100:
        return error_response("bad_request", "ask for at most 100 games at once")
    try:
        rows = await asyncio.to_thread(context_of(request).storage.summaries, ids)
    except Exception as exc:
        log.error("listing games failed: %s", exc)
        return error_response("storage_failed",
                              "the games could not be read from storage; try again in a moment")
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
        ctx = context_of(request)
        account = await signed_in(request)
        # counted per account when signed in (people behind one address do not share it), else
        # per address (the proxy's word for it only where --forwarded-allow-ips believes it)
        who = f"account:{account.id}" if account is not None else \
            f"address:{request.client.host if request.client else '?'}"
        if not ctx.creations.allow(who):
            raise RequestError("too_many_games", f"at most {ctx.games_per_minute} new games a minute; "
                                                 f"wait a little")
        if setup.rated and account is None:
            raise RequestError(ErrorCode.SIGN_IN_REQUIRED, "sign in to create a rated game")
        rating = None
        if setup.public and account is not None:
            from huntgather.server.routes_lobby import rating_of  # (it imports this module)
            rating = await asyncio.to_thread(rating_of, ctx.storage, account.id, setup.edition)
        room, creator, seat_secrets = await ctx.rooms.create(setup, account, rating=rating, creator_key=who,
                                                             lister=lister_key(who) if setup.public else None)
    except RequestError as exc:
        return error_response(exc.code, exc.message)
    # a public game's open seats are given by the lobby (with new secrets): the creator gets none
    people = {str(i): s for i, s in seat_secrets.items()
              if setup.seats[i].kind == SeatKind.HUMAN and i not in setup.open_seats}
    tokens = {str(i): s for i, s in seat_secrets.items() if setup.seats[i].kind == SeatKind.REMOTE}
    links = {"play": {i: f"/#/play/{room.id}/{s}" for i, s in people.items()},
             "watch": f"/#/watch/{room.id}"}
    answer = {"id": room.id, "version": room.version, "creator": creator, "seats": people, "links": links}
    if tokens:   # each outside bot's token, for the bot to say hello with
        answer["tokens"] = tokens
    return JSONResponse(answer, status_code=201)

async def get_game(request: Request) -> Response:
    try:
        room = await context_of(request).rooms.get(request.path_params["game_id"])
    except RequestError as exc:
        return error_response(exc.code, exc.message)
    async with room.lock:
        view = room.snapshot()
    return JSONResponse(view)

async def delete_game(request: Request) -> Response:
    auth = request.headers.get("authorization", "")
    secret = auth[7:].strip() if auth.lower().startswith("bearer ") else None
    try:
        await context_of(request).rooms.delete(request.path_params["game_id"], secret)
    except RequestError as exc:
        return error_response(exc.code, exc.message)
    return Response(status_code=204)

async def game_at(request: Request) -> Response:
    text = request.path_params["ply"]
    if not text.isdigit() or len(text) > 6:
        return error_response("bad_request", "the move number must be a whole number")
    try:
        view = await context_of(request).rooms.replay_view(request.path_params["game_id"], int(text))
    except RequestError as exc:
        return error_response(exc.code, exc.message)
    return JSONResponse(view)

async def game_chat(request: Request) -> Response:
    try:
        lines = await context_of(request).rooms.chat_of(request.path_params["game_id"])
    except RequestError as exc:
        return error_response(exc.code, exc.message)
    return JSONResponse({"lines": lines})

async def index(request: Request) -> Response:
    return FileResponse(f"{web_dir()}/index.html", headers={"Cache-Control": "no-cache"})


def http_routes() -> list[Route | Mount]:
    """Every HTTP route, and the static client under ``/static``."""
    return [
        Route("/", index),
        Route("/api/editions", editions),
        Route("/api/tiles/{edition}", tiles),
        Route("/api/rules/{edition}", rules),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game, methods=["GET"]),
        Route("/api/games/{game_id}", delete_game, methods=["DELETE"]),
        Route("/api/games/{game_id}/at/{ply}", game_at),
        Route("/api/games/{game_id}/chat", game_chat),
        Mount("/static", ClientFiles(directory=web_dir()), name="static"),
    ]
