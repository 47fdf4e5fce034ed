"""The post-game review's HTTP routes: ask for a finished game's review, and read it.

``POST /api/games/{id}/review`` asks (idempotent: asking again changes nothing, or tries a
failed review again), ``GET /api/games/{id}/review`` answers ``{"status", "progress",
"review"}`` (:mod:`huntgather.server.reviews`; shapes in docs/protocol.md).  Anyone who may
see the game may ask: a game's page is open to anyone with its id.  An unfinished game is
refused (``game_not_over``); each address may ask :data:`ASKS_PER_MINUTE` times a minute and
read :data:`READS_PER_MINUTE` times (``too_many_reviews``).  The POST is guarded against
other sites like every state-changing request (:mod:`huntgather.server.csrf`).
"""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from huntgather.server.context import RateLimit, context_of, kept_on_app
from huntgather.server.messages import ErrorCode
from huntgather.server.rooms import GAME_ID
from huntgather.server.routes_http import error_response, refusal
from huntgather.server.seats import RequestError

log = logging.getLogger("huntgather.server")

#: review requests one address may make a minute
ASKS_PER_MINUTE = 20
#: review reads (the page polls while one is computed) one address may make a minute
READS_PER_MINUTE = 120

def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


class _Limits:
    def __init__(self) -> None:
        self.asks = RateLimit(ASKS_PER_MINUTE)
        self.reads = RateLimit(READS_PER_MINUTE)


def _limits(request: Request) -> _Limits:
    return kept_on_app(request, "review_limits", _Limits)


async def ask_review(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    if not _limits(request).asks.allow(_address(request)):
        return error_response(ErrorCode.TOO_MANY_REVIEWS,
                              f"at most {ASKS_PER_MINUTE} review requests a minute; "
                              f"wait a little")
    ctx = context_of(request)
    try:
        room = await ctx.rooms.get(game_id)
        async with room.lock:
            if not room.game.is_over:
                raise RequestError(ErrorCode.GAME_NOT_OVER, "the game is not over yet: a game is "
                                                            "reviewed once it is over")
            from huntgather.record import write_record
            record = write_record(room.game, comments=False)
        if ctx.reviews is None:
            raise RequestError(ErrorCode.BAD_REQUEST, "this server reviews no games")
        answer = await ctx.reviews.ask(room.id, record)
    except RequestError as exc:
        return refusal(exc)
    except Exception as exc:
        log.error("asking for a review failed: %s", type(exc).__name__)
        return error_response(ErrorCode.STORAGE_FAILED,
                              "the review could not be asked for; try again in a moment")
    return JSONResponse(answer, status_code=202 if answer["status"] != "done" else 200)


async def get_review(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    if not _limits(request).reads.allow(_address(request)):
        return error_response(ErrorCode.TOO_MANY_REVIEWS,
                              f"at most {READS_PER_MINUTE} review reads a minute; "
                              f"wait a little")
    if not GAME_ID.fullmatch(game_id):
        return error_response(ErrorCode.UNKNOWN_GAME, "there is no such game")
    ctx = context_of(request)
    if ctx.reviews is None:
        return error_response(ErrorCode.BAD_REQUEST, "this server reviews no games")
    try:
        answer = await ctx.reviews.state(game_id)
        if answer["status"] == "none":
            await ctx.rooms.get(game_id)   # unknown_game if there is no such game
    except RequestError as exc:
        return refusal(exc)
    except Exception as exc:
        log.error("reading a review failed: %s", type(exc).__name__)
        return error_response(ErrorCode.STORAGE_FAILED, "the review could not be read; try again in a moment")
    return JSONResponse(answer, headers={"Cache-Control": "no-cache"})


def review_routes() -> list[Route]:
    """The review's routes (:mod:`huntgather.server.app` adds them)."""
    return [Route("/api/games/{game_id}/review", ask_review, methods=["POST"]),
            Route("/api/games/{game_id}/review", get_review, methods=["GET"])]
