"""The public lobby's HTTP routes: the open public games, taking a seat, and quick match.

``GET /api/lobby`` lists the public games with a seat open (anyone may ask: no secret, no
account id in it; at most :data:`LIMIT`, newest first).  ``POST /api/lobby/{id}/seats/{seat}``
takes an open seat: the seat gets a new secret, answered once, and the signed-in account (a
rated game takes only signed-in people).  ``POST /api/quickmatch`` takes a seat in the open
public game asking the same (edition, players, clock, rated) whose creator's rating is nearest
the asker's, or lists a new one with the asker in its first seat, and names the bot level of
the nearest rating to offer after a wait.  A listing records who listed it (``lister``: the
hash of the rate limits' key, :func:`~huntgather.server.seats.lister_key`): quick match never
pairs anyone with their own listing, and someone asking again while theirs waits gets it back
(their seat with a new secret, :meth:`~huntgather.server.rooms.Room.hand_back`).  The rows
are read from storage, so that every process of one database lists the same games, and a seat
is given by one conditional DELETE (:meth:`~huntgather.server.storage.Storage.take_seat`): of
two people taking one seat, on any processes, one wins, the other is answered 409
``seat_taken``.  Their shapes are in
docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from huntgather.bots.registry import offered_levels
from huntgather.editions import edition_names
from huntgather.server.account_tables import ratings
from huntgather.server.accounts import Account
from huntgather.server.auth import signed_in
from huntgather.server.context import context_of
from huntgather.server.messages import ErrorCode
from huntgather.server.ratings import ELO0, bot_start, display
from huntgather.server.rooms import GAME_ID, Rooms
from huntgather.server.routes_http import error_response, read_body
from huntgather.server.seats import GameSetup, RequestError, SeatKind, clean_name, lister_key
from huntgather.server.storage import Listing, Storage, clock_key

log = logging.getLogger("huntgather.server")

#: the most games the lobby lists
LIMIT = 100
#: the most open games quick match tries to sit down in before it lists a new one
TRIES = 5
#: the rating a guest is matched with (a newcomer's)
GUEST_RATING = round(ELO0)


def rating_of(storage: Storage, account: int | None, edition: str) -> int | None:
    """An account's rating in ``edition`` as shown (a newcomer's before its first rated game);
    None for a guest."""
    if account is None:
        return None
    with storage.engine.connect() as conn:
        mu = conn.execute(select(ratings.c.mu).where(ratings.c.account_id == account,
                                                     ratings.c.edition == edition)).scalar()
    return round(ELO0) if mu is None else display(float(mu))


def nearest_bot(edition: str, rating: int) -> tuple[str, int]:
    """The offered bot level whose starting rating (its ladder Elo) is nearest ``rating``.

    >>> strongest = max(offered_levels(), key=lambda lv: display(bot_start("2020", lv).mu))
    >>> nearest_bot("2020", 100000)[0] == strongest
    True
    """
    rated = [(level, display(bot_start(edition, level).mu)) for level in offered_levels()]
    return min(rated, key=lambda lr: (abs(lr[1] - rating), lr[1]))


def listing_json(row: Listing) -> dict[str, Any]:
    """A lobby row as ``GET /api/lobby`` answers it (public facts only)."""
    seats = []
    for s in row.seats:
        is_open = s.seat in row.open_seats
        seats.append({"seat": s.seat, "kind": s.kind, "level": s.level,
                      "name": None if is_open else s.name, "open": is_open})
    return {"id": row.game_id, "edition": row.edition, "players": row.players, "seats": seats,
            "clock": None if row.clock is None else json.loads(row.clock), "rated": row.rated,
            "creator": {"name": row.creator_name, "rating": row.creator_rating},
            "created": row.created, "expires": row.expires}


async def _read_lobby(storage: Storage, now: float, **match: Any) -> list[Listing]:
    if storage.in_memory:   # one connection: the writer's and the readers' in turn
        return await storage.lobby_async(now, LIMIT, **match)
    return await asyncio.to_thread(lambda: storage.lobby(now, LIMIT, **match))


async def lobby_list(request: Request) -> Response:
    storage = context_of(request).storage
    try:
        rows = await _read_lobby(storage, time.time())
    except Exception as exc:
        log.error("listing the lobby failed: %s", exc)
        return error_response(ErrorCode.STORAGE_FAILED, "the lobby could not be read; try again in a moment")
    return JSONResponse({"games": [listing_json(r) for r in rows]}, headers={"Cache-Control": "no-store"})


def _who(request: Request, account: Account | None) -> str:
    return f"account:{account.id}" if account is not None else \
        f"address:{request.client.host if request.client else '?'}"


def _guest_name(data: Any) -> str | None:
    if not isinstance(data, dict):
        raise RequestError(ErrorCode.BAD_REQUEST, "the body must be a JSON object")
    raw = data.get("name")
    return None if raw in (None, "") else clean_name(raw)


def _answer_seat(game_id: str, seat: int, secret: str, **more: Any) -> dict[str, Any]:
    return {"id": game_id, "seat": seat, "secret": secret,
            "links": {"play": f"/#/play/{game_id}/{secret}", "watch": f"/#/watch/{game_id}"}, **more}


async def take_seat(request: Request) -> Response:
    ctx = context_of(request)
    game_id = request.path_params["game_id"]
    text = request.path_params["seat"]
    try:
        if not GAME_ID.fullmatch(game_id):
            raise RequestError(ErrorCode.NOT_LISTED, "there is no such game in the lobby")
        if not text.isdigit() or len(text) > 2:
            raise RequestError(ErrorCode.SEAT_NOT_OPEN, "a seat is a number from 0 to 4")
        data = await read_body(request)
        if isinstance(data, dict) and set(data) - {"name"}:
            raise RequestError(ErrorCode.BAD_REQUEST, "the body may hold only a name: {\"name\": ...}")
        name = _guest_name(data)
        account = await signed_in(request)
        if not ctx.lobby_requests.allow(_who(request, account)):
            raise RequestError(ErrorCode.TOO_MANY_REQUESTS, f"at most {ctx.lobby_per_minute} seats or "
                                                            f"quick matches a minute; wait a little")
        seat = int(text)
        try:
            secret = await ctx.rooms.take_seat(game_id, seat, account, name)
        except RequestError as exc:
            if exc.code == ErrorCode.UNKNOWN_GAME:
                raise RequestError(ErrorCode.NOT_LISTED, "there is no such game in the lobby") from None
            raise
    except RequestError as exc:
        return error_response(exc.code, exc.message)
    return JSONResponse(_answer_seat(game_id, seat, secret))


_QUICK_FIELDS = {"edition", "players", "clock", "rated", "name"}


def _quick_setup(data: Any, name: str | None) -> GameSetup:
    """The setup quick match lists when nothing matches (every seat a person's, the asker first)."""
    if not isinstance(data, dict):
        raise RequestError(ErrorCode.BAD_REQUEST, "the body must be a JSON object")
    unknown = sorted(set(data) - _QUICK_FIELDS)
    if unknown:
        raise RequestError(ErrorCode.BAD_REQUEST, f"unknown field(s): {', '.join(unknown)}")
    edition = data.get("edition", "2020")
    if edition not in edition_names():
        raise RequestError(ErrorCode.BAD_SETUP, f"unknown edition; choose one of "
                                                f"{', '.join(edition_names())}")
    players = data.get("players", 2)
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 5:
        raise RequestError(ErrorCode.BAD_SETUP, "players must be a whole number from 2 to 5")
    first: dict[str, Any] = {"kind": "human"}
    if name:
        first["name"] = name
    setup: dict[str, Any] = {"edition": edition, "seats": [first] + [{"kind": "human"}] * (players - 1),
                             "rated": data.get("rated", False), "public": True}
    if data.get("clock") is not None:
        setup["clock"] = data["clock"]
    return GameSetup.from_json(setup)


async def quick_match(request: Request) -> Response:
    ctx = context_of(request)
    try:
        data = await read_body(request)
        name = _guest_name(data)
        account = await signed_in(request)
        if account is not None:   # a signed-in person's seat goes by the account's name
            name = None
        setup = _quick_setup(data, name)
        if setup.rated and account is None:
            raise RequestError(ErrorCode.SIGN_IN_REQUIRED, "sign in to play a rated game")
        who = _who(request, account)
        if not ctx.lobby_requests.allow(who):
            raise RequestError(ErrorCode.TOO_MANY_REQUESTS, f"at most {ctx.lobby_per_minute} seats or "
                                                            f"quick matches a minute; wait a little")
        mine = await asyncio.to_thread(rating_of, ctx.storage, None if account is None else account.id,
                                       setup.edition)
        target = GUEST_RATING if mine is None else mine
        rows = await _read_lobby(ctx.storage, time.time(), edition=setup.edition, players=len(setup.seats),
                                 clock=clock_key(None if setup.clock is None else setup.clock.to_json()),
                                 rated=setup.rated)
        lister = lister_key(who)
        for row in rows:   # their own listing still waits: handed back to them, not listed twice
            if row.lister == lister:
                answer = await _hand_back(ctx.rooms, row, setup.edition, target)
                if answer is not None:
                    return JSONResponse(answer)
        # never their own listing (a guest's by their address), nor a game they sit in
        rows = [r for r in rows if r.lister != lister and (account is None or (
            r.creator_account != account.id and all(s.account_id != account.id for s in r.seats)))]
        rows.sort(key=lambda r: (abs((GUEST_RATING if r.creator_rating is None else r.creator_rating)
                                     - target), r.created))
        for row in rows[:TRIES]:
            seat = min(row.open_seats)
            try:
                secret = await ctx.rooms.take_seat(row.game_id, seat, account, name)
            except RequestError as exc:
                if exc.code in (ErrorCode.SEAT_TAKEN, ErrorCode.NOT_LISTED, ErrorCode.UNKNOWN_GAME,
                                ErrorCode.ALREADY_SEATED, ErrorCode.SEAT_NOT_OPEN):
                    continue   # taken meanwhile: the next nearest
                raise
            return JSONResponse(_answer_seat(row.game_id, seat, secret, matched=True))
        if not ctx.creations.allow(who):
            raise RequestError(ErrorCode.TOO_MANY_GAMES, f"at most {ctx.games_per_minute} new games a "
                                                         f"minute; wait a little")
        room, creator, seat_secrets = await ctx.rooms.create(setup, account, rating=mine, lister=lister)
    except RequestError as exc:
        return error_response(exc.code, exc.message)
    level, bot_rating = nearest_bot(setup.edition, target)
    answer = _answer_seat(room.id, 0, seat_secrets[0], matched=False, creator=creator,
                          bot={"level": level, "rating": bot_rating})
    return JSONResponse(answer, status_code=201)


async def _hand_back(rooms: Rooms, row: Listing, edition: str, target: int) -> dict[str, Any] | None:
    """The answer that hands a waiting listing back to its lister: their seat (the first person
    seat not open) with a new secret (the pages open with the old one lose it; the creator's
    secret is not sent again); None if it is no longer listed."""
    seat = next((s.seat for s in row.seats if s.kind == SeatKind.HUMAN and s.seat not in row.open_seats),
                None)
    if seat is None:
        return None
    try:
        secret = await rooms.hand_back(row.game_id, seat)
    except RequestError as exc:
        if exc.code in (ErrorCode.NOT_LISTED, ErrorCode.UNKNOWN_GAME):
            return None   # its last seat was taken meanwhile, or it expired
        raise
    level, bot_rating = nearest_bot(edition, target)
    return _answer_seat(row.game_id, seat, secret, matched=False, again=True,
                        bot={"level": level, "rating": bot_rating})


def lobby_routes() -> list[Route]:
    return [
        Route("/api/lobby", lobby_list, methods=["GET"]),
        Route("/api/lobby/{game_id}/seats/{seat}", take_seat, methods=["POST"]),
        Route("/api/quickmatch", quick_match, methods=["POST"]),
    ]
