"""The puzzles' HTTP routes (docs/protocol.md, docs/learn.md "Puzzles").

``GET /api/puzzles/{edition}`` lists the difficulty and the number of players of every puzzle
of the edition (:func:`~huntgather.puzzles.index_view`: the page's filter);
``GET /api/puzzles/{edition}/today`` is the puzzle of the day (the same for everyone on a UTC
date, :func:`~huntgather.puzzles.of_the_day`) and ``GET /api/puzzles/{edition}/{n}`` puzzle
number ``n`` (from 1) of the edition's shipped puzzles: the position, the turns it offers and
the first hint, never the answer (:func:`~huntgather.puzzles.puzzle_view`).
``GET …/{n}/hint/{k}`` is hint ``k``; ``GET …/{n}/solution`` the answer and its explanation
(the player gives up); ``POST …/{n}/answer`` checks a turn: right (with the solution), or wrong
with how many points of expected margin it loses (valued by the expert on the verification's
own draws, in the ``hints`` lane of the workers; a turn's value is kept once computed).

The GETs answer shipped data, made once per process and cacheable by the browser.  The POST is
guarded against other sites like every change (:mod:`huntgather.server.csrf`), takes
``application/json`` of at most :data:`MAX_ANSWER_BYTES`, and each address may send
:data:`ANSWERS_PER_MINUTE` a minute (``too_many_requests``).
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from datetime import UTC, datetime
from functools import cache
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from huntgather.puzzles import (
    EDITIONS,
    HINTS,
    Puzzle,
    PuzzleError,
    hint_view,
    index_view,
    moves_of,
    of_the_day,
    play_turn,
    puzzle_view,
    shipped,
    solution_view,
)
from huntgather.server.codec import ProtocolError, read_json
from huntgather.server.context import RateLimit, context_of, kept_on_app
from huntgather.server.messages import ErrorCode
from huntgather.server.routes_http import error_response
from huntgather.server.workers import Priority

log = logging.getLogger("huntgather.server")

#: how long a browser may keep a numbered puzzle (shipped data: it changes only with a release)
MAX_AGE = 3600
#: ... and the puzzle of the day (it changes at midnight UTC: never kept past it)
TODAY_MAX_AGE = 300
#: answers one address may send a minute (a wrong one may cost a valuation: ~0.2 to 1 s of a
#: worker)
ANSWERS_PER_MINUTE = 30
#: the largest answer body: a turn is two short move texts
MAX_ANSWER_BYTES = 512
#: the longest move text a turn may hold (``"90@-12,-11r3"``, ``"m90.12"``: far less)
MAX_MOVE_TEXT = 32
#: wrong turns' losses kept (edition, number, turn): each is computed once per process
KEPT_LOSSES = 4096


@cache
def _body(edition: str, number: int) -> bytes:
    found = shipped(edition)
    return json.dumps(puzzle_view(found[number - 1], len(found))).encode()


@cache
def _solution(edition: str, number: int) -> bytes:
    return json.dumps(solution_view(shipped(edition)[number - 1])).encode()


@cache
def _hint(edition: str, number: int, k: int) -> bytes:
    return json.dumps(hint_view(shipped(edition)[number - 1], k)).encode()


@cache
def _index(edition: str) -> bytes:
    return json.dumps(index_view(edition)).encode()


def _json(body: bytes, max_age: int = MAX_AGE) -> Response:
    return Response(body, media_type="application/json",
                    headers={"Cache-Control": f"public, max-age={max_age}"})


def _edition(request: Request) -> str | None:
    edition = str(request.path_params["edition"])
    return edition if edition in EDITIONS else None


def _puzzle(request: Request) -> Puzzle | Response:
    """The puzzle a path names, or the error answer."""
    edition = _edition(request)
    if edition is None:
        return error_response(ErrorCode.UNKNOWN_EDITION, "no puzzles for this edition")
    text = str(request.path_params["number"])
    found = shipped(edition)
    if not (text.isascii() and text.isdigit() and len(text) <= 6 and 1 <= int(text) <= len(found)):
        return error_response(ErrorCode.UNKNOWN_PUZZLE,
                              f"the puzzles of {edition} are numbered 1 to {len(found)}")
    return found[int(text) - 1]


async def puzzle_index(request: Request) -> Response:
    edition = _edition(request)
    if edition is None:
        return error_response(ErrorCode.UNKNOWN_EDITION, "no puzzles for this edition")
    return _json(_index(edition))


async def puzzle_today(request: Request) -> Response:
    edition = _edition(request)
    if edition is None:
        return error_response(ErrorCode.UNKNOWN_EDITION, "no puzzles for this edition")
    now = datetime.now(UTC)
    number = of_the_day(edition, now.date()).number
    # (never kept past midnight UTC, when the puzzle of the day changes)
    to_midnight = 86_400 - (now.hour * 3600 + now.minute * 60 + now.second)
    return _json(_body(edition, number), max(0, min(TODAY_MAX_AGE, to_midnight - 1)))


async def puzzle_number(request: Request) -> Response:
    puzzle = _puzzle(request)
    if isinstance(puzzle, Response):
        return puzzle
    return _json(_body(puzzle.edition, puzzle.number))


async def puzzle_hint(request: Request) -> Response:
    puzzle = _puzzle(request)
    if isinstance(puzzle, Response):
        return puzzle
    k = str(request.path_params["k"])
    if not (k.isascii() and k.isdigit() and len(k) == 1 and 1 <= int(k) <= HINTS):
        return error_response(ErrorCode.UNKNOWN_PUZZLE, f"a puzzle's hints are numbered 1 to {HINTS}")
    return _json(_hint(puzzle.edition, puzzle.number, int(k)))


async def puzzle_solution(request: Request) -> Response:
    puzzle = _puzzle(request)
    if isinstance(puzzle, Response):
        return puzzle
    return _json(_solution(puzzle.edition, puzzle.number))


class _Answers:
    """An app's rate limit of answers and the losses of wrong turns computed so far."""

    def __init__(self) -> None:
        self.limit = RateLimit(ANSWERS_PER_MINUTE)
        self.losses: OrderedDict[tuple[str, int, tuple[str, ...]], float] = OrderedDict()


def _answers(request: Request) -> _Answers:
    return kept_on_app(request, "puzzle_answers", _Answers)


def _loss(edition: str, number: int, plan: tuple[str, ...]) -> float:
    """How many points ``plan`` loses against puzzle ``number``'s best turn (in a worker)."""
    from huntgather.bots.puzzles import turn_loss, verify_seed

    puzzle = shipped(edition)[number - 1]
    return turn_loss(puzzle.state(), tuple(moves_of(puzzle.best)), tuple(moves_of(plan)),
                     verify_seed(edition, puzzle.source))


async def _read_turn(request: Request, puzzle: Puzzle) -> tuple[str, ...] | Response:
    """The turn of an answer's body (``{"turn": ["90@1,1r2", "m90.1"]}``), or the error answer."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        return error_response(ErrorCode.BAD_CONTENT_TYPE, "send the body as application/json")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_ANSWER_BYTES:
            return error_response(ErrorCode.TOO_LARGE, f"an answer is at most {MAX_ANSWER_BYTES} bytes")
    try:
        data: Any = read_json(bytes(body))
    except ProtocolError as exc:
        return error_response(exc.code, exc.message)
    turn = data.get("turn") if isinstance(data, dict) else None
    if (not isinstance(data, dict) or set(data) != {"turn"} or not isinstance(turn, list)
            or not 1 <= len(turn) <= 2
            or not all(isinstance(m, str) and 1 <= len(m) <= MAX_MOVE_TEXT for m in turn)):
        return error_response(ErrorCode.BAD_REQUEST, "send {\"turn\": [placement, piece]}: one or "
                                                     "two move texts (docs/records.md)")
    try:
        plan = tuple(str(m) for m in moves_of(tuple(turn)))
    except PuzzleError as err:
        return error_response(ErrorCode.INVALID_MOVE, str(err))
    try:
        play_turn(puzzle.state(), plan)
    except PuzzleError as err:
        return error_response(ErrorCode.ILLEGAL_MOVE, str(err))
    return plan


async def puzzle_answer(request: Request) -> Response:
    puzzle = _puzzle(request)
    if isinstance(puzzle, Response):
        return puzzle
    answers = _answers(request)
    address = request.client.host if request.client else "?"
    if not answers.limit.allow(address):
        return error_response(ErrorCode.TOO_MANY_REQUESTS,
                              f"at most {ANSWERS_PER_MINUTE} answers a minute; wait a little")
    plan = await _read_turn(request, puzzle)
    if isinstance(plan, Response):
        return plan
    headers = {"Cache-Control": "no-store"}
    if plan in puzzle.accepted:
        return JSONResponse({"right": True, "loss": 0.0, "solution": solution_view(puzzle)}, headers=headers)
    key = (puzzle.edition, puzzle.number, plan)
    loss = answers.losses.get(key)
    if loss is None:
        if plan == puzzle.runner_up:
            loss = puzzle.margin_best - puzzle.margin_runner_up
        else:
            try:
                loss = await context_of(request).workers.run(
                    "hints", _loss, puzzle.edition, puzzle.number, plan, priority=Priority.PERSON,
                    who=address)
            except Exception as exc:
                log.error("valuing a puzzle's answer failed: %s", type(exc).__name__)
                return error_response(ErrorCode.SERVER_ERROR, "the answer could not be checked; try again",
                                      status=503)
        answers.losses[key] = loss
        while len(answers.losses) > KEPT_LOSSES:
            answers.losses.popitem(last=False)
    if loss <= 0.0:
        # (as good as the best on the verification's draws: the same turn for the game, or one
        # the verification did not compare and that does no worse)
        return JSONResponse({"right": True, "loss": 0.0, "solution": solution_view(puzzle)}, headers=headers)
    return JSONResponse({"right": False, "loss": round(loss, 1), "runner_up": plan == puzzle.runner_up},
                        headers=headers)


def puzzle_routes() -> list[Route]:
    base = "/api/puzzles/{edition}"
    return [Route(base, puzzle_index, methods=["GET"]),
            Route(f"{base}/today", puzzle_today, methods=["GET"]),
            Route(f"{base}/{{number}}", puzzle_number, methods=["GET"]),
            Route(f"{base}/{{number}}/hint/{{k}}", puzzle_hint, methods=["GET"]),
            Route(f"{base}/{{number}}/solution", puzzle_solution, methods=["GET"]),
            Route(f"{base}/{{number}}/answer", puzzle_answer, methods=["POST"])]
