"""The HTTP routes of accounts: sign up, sign in and out, the signed-in account and its games.

================================  ==============================================
``POST   /api/accounts``          a new account {name, password}; signs it in (201)
``POST   /api/session``           sign in {name, password}: a new session id always
``DELETE /api/session``           sign out (this session)
``DELETE /api/sessions``          sign out everywhere (every session of the account)
``GET    /api/me``                the account, its ratings and its games (your turn first)
``PUT    /api/me/password``       a new password {old?, new}: the other sessions end
``DELETE /api/me``                delete the account {password?} (personal data removed)
================================  ==============================================

Guessing is slowed by :class:`SignInLimits` (kept in memory, per server process): failed
sign-ins are counted per account name (folded) and per client address, and once either count
is full within its window every sign-in for that name or from that address is answered 429
``too_many_attempts`` without checking the password, whether the name exists or not and
whether the password is right or not.  New accounts are counted per address alike.  Behind
several processes each counts its own (the limits are per process: docs/accounts.md).

Shapes and codes: ``docs/protocol.md`` (*Accounts*); policy: ``docs/accounts.md``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from huntgather.server.account_tables import ratings
from huntgather.server.accounts import (
    MAX_PASSWORD,
    Account,
    Accounts,
    Session,
    check_password_text,
    name_key,
)
from huntgather.server.auth import accounts_of, clear_session_cookie, session_token, set_session_cookie
from huntgather.server.context import RateLimit, context_of
from huntgather.server.mail_words import check_language
from huntgather.server.messages import ErrorCode
from huntgather.server.ratings import Rating
from huntgather.server.routes_http import error_response, read_body, refusal, signed_out
from huntgather.server.seats import RequestError, SeatKind
from huntgather.server.storage import Storage, games, seats

log = logging.getLogger("huntgather.server")

#: the most games ``GET /api/me`` lists (the most recently played)
MAX_GAMES = 200
_PLAYER = re.compile(r"^player (\d+)$", re.MULTILINE)


class FailureLimit:
    """At most ``count`` failures per ``window`` seconds for each key: once full, the key is
    refused (:meth:`blocked`) until its oldest failure is ``window`` seconds old.  Successes are
    not counted.  Kept in memory: a process forgets it when it restarts."""

    def __init__(self, count: int, window: float) -> None:
        self.count, self.window = count, window
        self._seen: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float]:
        seen = self._seen.get(key)
        if seen is None:
            return deque()
        while seen and seen[0] <= now - self.window:
            seen.popleft()
        if not seen:
            del self._seen[key]
        return seen

    def blocked(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: it may now)."""
        now = time.monotonic()
        seen = self._recent(key, now)
        return seen[0] + self.window - now if len(seen) >= self.count else 0.0

    def failed(self, key: str) -> None:
        now = time.monotonic()
        if len(self._seen) > 50_000:   # forget the quiet ones, so the table stays small
            self._seen = {k: q for k, q in self._seen.items() if q and q[-1] > now - self.window}
        seen = self._seen.setdefault(key, deque())
        seen.append(now)
        if len(seen) > self.count:
            seen.popleft()


@dataclass
class SignInLimits:
    """The guards against guessing and mass sign-ups, one set per server process."""

    #: failed sign-ins (and wrong present passwords) per account name, folded
    names: FailureLimit = field(default_factory=lambda: FailureLimit(10, 15 * 60.0))
    #: failed sign-ins per client address
    addresses: FailureLimit = field(default_factory=lambda: FailureLimit(50, 15 * 60.0))
    #: new accounts per client address
    sign_ups: RateLimit = field(default_factory=lambda: RateLimit(20, 3600.0))
    #: changes of an account's language per account
    languages: RateLimit = field(default_factory=lambda: RateLimit(20, 60.0))


def limits_of(request: Request) -> SignInLimits:
    limits: SignInLimits = request.app.state.sign_in_limits
    return limits


def _too_many(wait: float) -> JSONResponse:
    minutes = max(1, round(wait / 60))
    return error_response(ErrorCode.TOO_MANY_ATTEMPTS,
                          f"too many tries; try again in {minutes} minute{'s' if minutes > 1 else ''}",
                          headers={"retry-after": str(max(1, int(wait + 0.999)))})


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def _text_field(data: Any, key: str, *, optional: bool = False) -> str | None:
    """``data[key]`` as text (None if absent and ``optional``); raises ``bad_request``."""
    if not isinstance(data, dict):
        raise RequestError(ErrorCode.BAD_REQUEST, "send a JSON object")
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise RequestError(ErrorCode.BAD_REQUEST, f"'{key}' is required: text")
    return value


def account_json(accounts: Accounts, account: Account) -> dict[str, Any]:
    """The account object A of the protocol."""
    return {"id": account.id, "name": account.name, "has_password": account.has_password,
            "passkeys": accounts.passkey_count(account.id), "language": account.language or "en"}


async def signed_in_answer(request: Request, account: Account, status: int) -> Response:
    """``{"account": A}`` and a new session's cookie; any session the request carried is ended
    first (no id chosen before signing in survives it: session fixation).  Every way of signing
    in answers with this (a password here, a passkey in :mod:`huntgather.server.passkeys`)."""
    accounts = accounts_of(request)
    old = session_token(request)

    def work() -> tuple[str, dict[str, Any]]:
        if old is not None:
            accounts.end_session(old)
        return accounts.new_session(account.id), account_json(accounts, account)

    token, shown = await asyncio.to_thread(work)
    response = JSONResponse({"account": shown}, status_code=status, headers={"cache-control": "no-store"})
    set_session_cookie(response, request, token)
    return response


async def current_session(request: Request) -> Session | None:
    """The live session the request carries (rotated to a new id once a day), or None."""
    token = session_token(request)
    if token is None:
        return None
    return await asyncio.to_thread(accounts_of(request).session, token, rotate=True)


def _with_rotation(response: Response, request: Request, session: Session) -> Response:
    if session.rotated is not None:
        set_session_cookie(response, request, session.rotated)
    return response



# --------------------------------------------------------------------------- sign up, in, out


async def _name_and_password(request: Request) -> tuple[str, str, str | None]:
    """The ``name`` and ``password`` of a sign-up or sign-in body, and its ``language`` (a
    sign-up's, optional: the page's language); raises ``bad_request``, ``bad_language``."""
    data = await read_body(request)
    name = _text_field(data, "name")
    password = _text_field(data, "password")
    assert name is not None and password is not None   # not optional: _text_field raised otherwise
    given = data.get("language") if isinstance(data, dict) else None
    return name, password, None if given is None else check_language(given)


async def sign_up(request: Request) -> Response:
    try:
        name, password, language = await _name_and_password(request)
    except RequestError as exc:
        return refusal(exc)
    if not limits_of(request).sign_ups.allow(_client(request)):
        return _too_many(limits_of(request).sign_ups.window)
    try:
        account = await asyncio.to_thread(accounts_of(request).create, name, password, language=language)
    except RequestError as exc:
        return refusal(exc)
    log.info("account %d made", account.id)
    return await signed_in_answer(request, account, 201)


async def sign_in(request: Request) -> Response:
    try:
        name, password, _language = await _name_and_password(request)
    except RequestError as exc:
        return refusal(exc)
    limits, accounts = limits_of(request), accounts_of(request)
    client = _client(request)
    name = name[:200]   # no name is longer; the key of the limit stays small
    key = await asyncio.to_thread(_name_limit_key, name)
    wait = max(limits.names.blocked(key), limits.addresses.blocked(client))
    if wait:
        return _too_many(wait)
    account = await asyncio.to_thread(accounts.check_password, name, password[: MAX_PASSWORD * 4])
    if account is None:
        limits.names.failed(key)
        limits.addresses.failed(client)
        return error_response(ErrorCode.BAD_LOGIN, "that name and password do not sign in")
    log.info("account %d signed in", account.id)
    return await signed_in_answer(request, account, 200)


def _name_limit_key(name: str) -> str:
    return "name:" + name_key(name)


async def sign_out(request: Request) -> Response:
    token = session_token(request)
    if token is not None:
        await asyncio.to_thread(accounts_of(request).end_session, token)
    response = Response(status_code=204)
    clear_session_cookie(response, request)
    return response


async def sign_out_everywhere(request: Request) -> Response:
    session = await current_session(request)
    if session is None:
        return signed_out()
    ended = await asyncio.to_thread(accounts_of(request).end_sessions, session.account.id)
    log.info("account %d signed out everywhere (%d sessions)", session.account.id, ended)
    response = Response(status_code=204)
    clear_session_cookie(response, request)
    return response


# --------------------------------------------------------------------------- the account


def _rating(row: Any) -> dict[str, Any]:
    """The rating object R of a row of ``hg_ratings`` (:meth:`huntgather.server.ratings.Rating.as_json`)."""
    return Rating(row.mu, row.sigma, row.games, row.wins).as_json()


def _turn_of(position: str | None) -> int | None:
    """The seat to move in a stored position (its ``player`` line), None if unknown."""
    found = _PLAYER.search(position or "")
    return int(found.group(1)) if found else None


def account_games(storage: Storage, account_id: int, live: dict[str, int | None]) -> list[dict[str, Any]]:
    """Every game with a seat of the account (at most :data:`MAX_GAMES`, the most recently
    played), the games where it is the account's turn first.  ``live``: the seat to move of the
    games this process has in memory (fresher than the stored position)."""
    with storage.engine.connect() as conn:
        mine: dict[str, list[int]] = {}
        for seat_of in conn.execute(select(seats.c.game_id, seats.c.seat)
                                 .where(seats.c.account_id == account_id)):
            mine.setdefault(seat_of.game_id, []).append(seat_of.seat)
        rows = conn.execute(select(games.c.id, games.c.setup, games.c.status, games.c.scores,
                                   games.c.updated, games.c.position)
                            .where(games.c.id.in_(list(mine))).order_by(games.c.updated.desc())
                            .limit(MAX_GAMES)).all()
        found = [r.id for r in rows]
        seat_rows: dict[str, list[Any]] = {}
        for row in conn.execute(select(seats).where(seats.c.game_id.in_(found)).order_by(seats.c.seat)):
            seat_rows.setdefault(row.game_id, []).append(row)
    out = []
    for r in rows:
        try:
            setup, scores = json.loads(r.setup), json.loads(r.scores)
        except ValueError:   # a damaged row: left out (GET /api/games lists it as damaged)
            continue
        if not isinstance(setup, dict) or not isinstance(scores, list):
            continue
        playing = r.status == "playing"
        to_move = live[r.id] if r.id in live else _turn_of(r.position)
        held = sorted(mine[r.id])
        people = {s.seat for s in seat_rows.get(r.id, []) if s.kind == SeatKind.HUMAN}
        out.append({
            "id": r.id, "edition": str(setup.get("edition", "2020")),
            "status": "playing" if playing else "over", "rated": bool(setup.get("rated", False)),
            "your_turn": playing and to_move in held and to_move in people,
            "seats": held, "updated": r.updated,
            "players": [{"seat": s.seat, "name": s.name, "kind": s.kind, "level": s.level,
                         "score": scores[s.seat] if s.seat < len(scores) else 0}
                        for s in seat_rows.get(r.id, [])]})
    out.sort(key=lambda g: not g["your_turn"])   # stable: most recent first within each
    return out


def _me(accounts: Accounts, account: Account, live: dict[str, int | None]) -> dict[str, Any]:
    with accounts.storage.engine.connect() as conn:
        rows = conn.execute(select(ratings).where(ratings.c.account_id == account.id)).all()
    return {"account": account_json(accounts, account),
            "ratings": {r.edition: _rating(r) for r in rows},
            "games": account_games(accounts.storage, account.id, live)}


def _live_turns(request: Request) -> dict[str, int | None]:
    """The seat to move of each game this process has in memory."""
    out: dict[str, int | None] = {}
    rooms = context_of(request).rooms
    for game_id in rooms.live:
        room = rooms.loaded(game_id)
        if room is not None and not room.closed:
            out[game_id] = None if room.game.is_over else room.game.state.current_player
    return out


async def me(request: Request) -> Response:
    session = await current_session(request)
    if session is None:
        return signed_out()
    answer = await asyncio.to_thread(_me, accounts_of(request), session.account, _live_turns(request))
    response = JSONResponse(answer, headers={"cache-control": "no-store"})
    return _with_rotation(response, request, session)


async def _check_present_password(request: Request, account: Account,
                                  given: str | None) -> JSONResponse | None:
    """None if ``given`` is the account's password (or it has none); else the answer refusing."""
    if not account.has_password:
        return None
    limits = limits_of(request)
    key = f"account:{account.id}"
    wait = limits.names.blocked(key)
    if wait:
        return _too_many(wait)
    if given is None:
        return error_response(ErrorCode.BAD_REQUEST, "'old' is required: your present password")
    if not await asyncio.to_thread(accounts_of(request).verify, account.id, given[: MAX_PASSWORD * 4]):
        limits.names.failed(key)
        return error_response(ErrorCode.WRONG_PASSWORD, "that is not your present password")
    return None


async def change_password(request: Request) -> Response:
    session = await current_session(request)
    if session is None:
        return signed_out()
    account = session.account
    try:
        data = await read_body(request)
        old = _text_field(data, "old", optional=True)
        new = _text_field(data, "new")
        check_password_text(new)
    except RequestError as exc:
        return refusal(exc)
    refused = await _check_present_password(request, account, old)
    if refused is not None:
        return refused
    accounts = accounts_of(request)
    assert new is not None

    def work() -> str:
        accounts.set_password(account.id, new)
        accounts.end_sessions(account.id)   # whoever knew the old password is signed out
        return accounts.new_session(account.id)

    token = await asyncio.to_thread(work)
    log.info("account %d changed its password", account.id)
    response = Response(status_code=204)
    set_session_cookie(response, request, token)
    return response


async def set_language(request: Request) -> Response:
    """``PUT /api/me/language`` ``{"language"}``: the language of the account's mails."""
    session = await current_session(request)
    if session is None:
        return signed_out()
    try:
        data = await read_body(request)
        language = check_language(data.get("language") if isinstance(data, dict) else None)
    except RequestError as exc:
        return refusal(exc)
    if not limits_of(request).languages.allow(f"account:{session.account.id}"):
        return _too_many(limits_of(request).languages.window)
    await asyncio.to_thread(accounts_of(request).set_language, session.account.id, language)
    return _with_rotation(Response(status_code=204), request, session)


async def delete_me(request: Request) -> Response:
    session = await current_session(request)
    if session is None:
        return signed_out()
    account = session.account
    given: str | None = None
    if account.has_password:
        try:
            given = _text_field(await read_body(request), "password")
        except RequestError as exc:
            return refusal(exc)
    refused = await _check_present_password(request, account, given)
    if refused is not None:
        return refused
    await delete_account(request, account.id)
    log.info("account %d deleted", account.id)
    response = Response(status_code=204)
    clear_session_cookie(response, request)
    return response


async def delete_account(request: Request, account_id: int) -> None:
    """Delete the account (:meth:`Accounts.delete`) and show its seats' new name in the games
    this process has in memory; its pages there hold no seat by the account any more."""
    playing = await asyncio.to_thread(accounts_of(request).delete, account_id)
    rooms = context_of(request).rooms
    for game_id in playing:
        room = rooms.loaded(game_id)
        if room is None or room.closed:
            continue
        for conn in list(room.conns):
            if conn.account_id == account_id:
                conn.forget_account()
        await room.follow_seats()


def account_routes() -> list[Route]:
    return [
        Route("/api/accounts", sign_up, methods=["POST"]),
        Route("/api/session", sign_in, methods=["POST"]),
        Route("/api/session", sign_out, methods=["DELETE"]),
        Route("/api/sessions", sign_out_everywhere, methods=["DELETE"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me/password", change_password, methods=["PUT"]),
        Route("/api/me/language", set_language, methods=["PUT"]),
        Route("/api/me", delete_me, methods=["DELETE"]),
    ]
