"""The HTTP routes of passkeys (:mod:`huntgather.server.passkeys`).

================================================  =========================================
``POST   /api/passkeys/signup/options`` {name}     options to make a new account's passkey
``POST   /api/passkeys/signup``                    the account made, signed in (201)
``POST   /api/passkeys/login/options`` {}          options to sign in with any passkey here
``POST   /api/passkeys/login``                     signed in
``POST   /api/passkeys/options`` (signed in)       options to add a passkey to the account
``POST   /api/passkeys`` (signed in)               the passkey added (201)
``GET    /api/passkeys`` (signed in)               the account's passkeys
``DELETE /api/passkeys/{id}`` (signed in)          a passkey removed (204)
================================================  =========================================

Each ``.../options`` answers ``{"options", "challenge_id"}``; the answer that follows sends
``{"challenge_id", "credential"}`` (the credential's ``toJSON()``).  One address may ask for at
most ``per_minute`` options a minute (``too_many_attempts``).  ``docs/protocol.md`` says more.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from huntgather.server.accounts import Account
from huntgather.server.auth import accounts_of, signed_in
from huntgather.server.context import RateLimit
from huntgather.server.messages import ErrorCode
from huntgather.server.routes_accounts import account_json, signed_in_answer
from huntgather.server.routes_http import read_body, refusal
from huntgather.server.seats import RequestError

if TYPE_CHECKING:
    from huntgather.server.passkeys import Passkeys, RelyingParty

#: the most options (of any kind) one address may ask for a minute, by default
OPTIONS_PER_MINUTE = 30

Handler = Callable[[Request], Awaitable[Response]]

log = logging.getLogger("huntgather.server")


# huntgather.server.passkeys (and py_webauthn, a tenth of a second to import) is loaded by the
# first passkey request, not by every server start
def _rp(request: Request) -> RelyingParty:
    from huntgather.server.passkeys import relying_party

    return relying_party(request.url.scheme, request.url.hostname, request.url.port)


def _keys(request: Request) -> Passkeys:
    from huntgather.server.passkeys import Passkeys

    return Passkeys(accounts_of(request))


async def _body(request: Request) -> dict[str, Any]:
    data = await read_body(request)
    if not isinstance(data, dict):
        raise RequestError(ErrorCode.BAD_REQUEST, "send a JSON object")
    return data


async def _account(request: Request) -> Account:
    account = await signed_in(request)
    if account is None:
        raise RequestError(ErrorCode.SIGNED_OUT, "sign in first")
    return account


def _answering(handler: Handler) -> Handler:
    """``handler`` with its refusals (:class:`RequestError`) answered as errors, and a database
    that fails answered ``storage_failed`` (logged; nothing of it in the answer)."""
    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except RequestError as exc:
            return refusal(exc)
        except SQLAlchemyError as exc:
            log.error("a passkey request failed in storage: %s", exc)
            return refusal(RequestError(ErrorCode.STORAGE_FAILED, "the change could not be stored; try "
                                                                 "again in a moment"), 503)
    return run


class PasskeyRoutes:
    """The routes, with the rate limit of one server's option endpoints."""

    def __init__(self, per_minute: int = OPTIONS_PER_MINUTE) -> None:
        self.per_minute = per_minute
        self.limit = RateLimit(per_minute)

    def _limit(self, request: Request) -> None:
        if not self.limit.allow(request.client.host if request.client else "?"):
            raise RequestError(ErrorCode.TOO_MANY_ATTEMPTS, f"at most {self.per_minute} passkey requests "
                                                            f"a minute from one address; wait a little")

    async def signup_options(self, request: Request) -> Response:
        rp = _rp(request)
        self._limit(request)
        data = await _body(request)
        keys = _keys(request)
        return JSONResponse((await asyncio.to_thread(keys.signup_options, rp, data.get("name"))).as_json())

    async def signup(self, request: Request) -> Response:
        rp, data, keys = _rp(request), await _body(request), _keys(request)
        account = await asyncio.to_thread(keys.signup, rp, data.get("name"), data.get("challenge_id"),
                                          data.get("credential"))
        return await signed_in_answer(request, account, 201)

    async def login_options(self, request: Request) -> Response:
        rp = _rp(request)
        self._limit(request)
        await _body(request)
        keys = _keys(request)
        return JSONResponse((await asyncio.to_thread(keys.login_options, rp)).as_json())

    async def login(self, request: Request) -> Response:
        rp, data, keys = _rp(request), await _body(request), _keys(request)
        account = await asyncio.to_thread(keys.login, rp, data.get("challenge_id"), data.get("credential"))
        return await signed_in_answer(request, account, 200)

    async def add_options(self, request: Request) -> Response:
        rp, account = _rp(request), await _account(request)
        self._limit(request)
        keys = _keys(request)
        return JSONResponse((await asyncio.to_thread(keys.add_options, rp, account)).as_json())

    async def add(self, request: Request) -> Response:
        rp, account = _rp(request), await _account(request)
        data, keys = await _body(request), _keys(request)
        passkey = await asyncio.to_thread(keys.add, rp, account, data.get("challenge_id"),
                                          data.get("credential"))
        shown = await asyncio.to_thread(account_json, keys.accounts, account)
        return JSONResponse({"passkey": passkey.as_json(), "account": shown}, status_code=201)

    async def listed(self, request: Request) -> Response:
        account = await _account(request)
        found = await asyncio.to_thread(_keys(request).listed, account.id)
        return JSONResponse({"passkeys": [p.as_json() for p in found]})

    async def remove(self, request: Request) -> Response:
        account = await _account(request)
        try:
            await asyncio.to_thread(_keys(request).remove, account.id,
                                    request.path_params["credential_id"])
        except RequestError as exc:
            if exc.code == ErrorCode.UNKNOWN_PASSKEY:   # not signing in: no such thing to remove
                return refusal(exc, 404)
            raise
        return Response(status_code=204)

    def routes(self) -> list[Route]:
        return [
            Route("/api/passkeys/signup/options", _answering(self.signup_options), methods=["POST"]),
            Route("/api/passkeys/signup", _answering(self.signup), methods=["POST"]),
            Route("/api/passkeys/login/options", _answering(self.login_options), methods=["POST"]),
            Route("/api/passkeys/login", _answering(self.login), methods=["POST"]),
            Route("/api/passkeys/options", _answering(self.add_options), methods=["POST"]),
            Route("/api/passkeys", _answering(self.add), methods=["POST"]),
            Route("/api/passkeys", _answering(self.listed), methods=["GET"]),
            Route("/api/passkeys/{credential_id}", _answering(self.remove), methods=["DELETE"]),
        ]


def passkey_routes(per_minute: int = OPTIONS_PER_MINUTE) -> list[Route]:
    """Every passkey route, one address asking for at most ``per_minute`` options a minute."""
    return PasskeyRoutes(per_minute).routes()
