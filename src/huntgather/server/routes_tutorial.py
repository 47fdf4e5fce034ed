"""The guided first game's HTTP route: the script and the coach's words a page follows.

``GET /api/tutorial/{edition}?lang=cs`` answers the steps of the edition's guided game (each
one's key, seat, check and scripted move: the page highlights that move and counts the steps
from the game's version) and the coach's text of every step and retry, in ``lang`` where
``data/tutorial/coach.<lang>.json`` has it, else in English (:mod:`huntgather.tutorial`).  It
reads shipped data only: public, the same for everyone, cached by the browser.  The shape is in
docs/protocol.md.
"""

from __future__ import annotations

import json
from functools import cache

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from huntgather import tutorial
from huntgather.server.messages import ErrorCode
from huntgather.server.routes_http import error_response


@cache
def _payload(edition: str, lang: str) -> bytes:
    script = tutorial.load_script(edition)
    steps = [{"key": s.key, "player": s.player, "check": str(s.check), "move": s.moves[-1],
              "moves": len(s.moves), "scores": list(s.scores)} for s in script.steps]
    texts = tutorial.coach_texts(lang)
    coach = {k: v for k, v in texts.items() if k.startswith(f"{edition}.") or k.startswith("retry.")}
    return json.dumps({"edition": edition, "lang": lang if lang in tutorial.COACH_LANGUAGES else "en",
                       "steps": steps, "coach": coach}, ensure_ascii=False).encode()


async def tutorial_script(request: Request) -> Response:
    edition = request.path_params["edition"]
    if edition not in tutorial.EDITIONS:
        return error_response(ErrorCode.UNKNOWN_EDITION, f"no guided game for that edition; there is one "
                                                         f"for {', '.join(tutorial.EDITIONS)}")
    lang = request.query_params.get("lang", "en")
    if lang not in tutorial.COACH_LANGUAGES:
        lang = "en"   # a language the coach does not speak yet (never an error: the page asks for its own)
    return Response(_payload(edition, lang), media_type="application/json",
                    headers={"Cache-Control": "max-age=3600"})


def tutorial_routes() -> list[Route]:
    """The guided game's route (:mod:`huntgather.server.app` adds it)."""
    return [Route("/api/tutorial/{edition}", tutorial_script, methods=["GET"])]
