"""The puzzles' HTTP routes (docs/protocol.md, docs/learn.md "Puzzles").

``GET /api/puzzles/{edition}/today`` is the puzzle of the day (the same for everyone on a UTC
date, :func:`~huntgather.puzzles.of_the_day`) and ``GET /api/puzzles/{edition}/{n}`` puzzle
number ``n`` (from 1) of the edition's shipped puzzles.  Both answer
:func:`~huntgather.puzzles.puzzle_view`; the puzzles are shipped data, so every answer is made
once (at most one per shipped puzzle) and may be cached by the browser.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import cache

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from huntgather.puzzles import EDITIONS, of_the_day, puzzle_view, shipped
from huntgather.server.messages import ErrorCode
from huntgather.server.routes_http import error_response

#: how long a browser may keep a numbered puzzle (shipped data: it changes only with a release)
MAX_AGE = 3600
#: ... and the puzzle of the day (it changes at midnight UTC)
TODAY_MAX_AGE = 300


@cache
def _body(edition: str, number: int) -> bytes:
    found = shipped(edition)
    return json.dumps(puzzle_view(found[number - 1], len(found))).encode()


def _edition(request: Request) -> str | None:
    edition = str(request.path_params["edition"])
    return edition if edition in EDITIONS else None


async def puzzle_today(request: Request) -> Response:
    edition = _edition(request)
    if edition is None:
        return error_response(ErrorCode.UNKNOWN_EDITION, "no puzzles for this edition")
    number = of_the_day(edition, datetime.now(UTC).date()).number
    return Response(_body(edition, number), media_type="application/json",
                    headers={"Cache-Control": f"public, max-age={TODAY_MAX_AGE}"})


async def puzzle_number(request: Request) -> Response:
    edition = _edition(request)
    if edition is None:
        return error_response(ErrorCode.UNKNOWN_EDITION, "no puzzles for this edition")
    text = str(request.path_params["number"])
    count = len(shipped(edition))
    if not (text.isascii() and text.isdigit() and len(text) <= 6 and 1 <= int(text) <= count):
        return error_response(ErrorCode.UNKNOWN_PUZZLE, f"the puzzles of {edition} are numbered 1 to {count}")
    return Response(_body(edition, int(text)), media_type="application/json",
                    headers={"Cache-Control": f"public, max-age={MAX_AGE}"})


def puzzle_routes() -> list[Route]:
    return [Route("/api/puzzles/{edition}/today", puzzle_today, methods=["GET"]),
            Route("/api/puzzles/{edition}/{number}", puzzle_number, methods=["GET"])]
