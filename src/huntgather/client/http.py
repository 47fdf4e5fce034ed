"""The HTTP side of the protocol that a bot author needs: create a game, read one.

Both speak to the server at ``base`` (``http://host:port``) with ``httpx``; an
answer other than the one expected raises :class:`ApiError` with the
protocol's error code (``bad_setup``, ``unknown_game``, ``too_many_games``...).
"""

from __future__ import annotations

import functools
import ssl
from typing import Any

import httpx

__all__ = ["ApiError", "create_game", "delete_game", "get_game"]

#: how long a request may take by default, in seconds
TIMEOUT = 30.0


class ApiError(Exception):
    """An HTTP answer other than the one expected: ``status``, and ``code`` from its body."""

    def __init__(self, status: int, body: Any) -> None:
        self.status = status
        self.code: str | None = body.get("code") if isinstance(body, dict) else None
        message = body.get("message") if isinstance(body, dict) else None
        super().__init__(f"HTTP {status}: {self.code or 'no code'}: {message or body!r}")


def _check(response: httpx.Response, status: int) -> Any:
    try:
        body = response.json() if response.content else None
    except ValueError:
        body = response.text
    if response.status_code != status:
        raise ApiError(response.status_code, body)
    return body


def _url(base: str, path: str) -> str:
    return base.rstrip("/") + path


async def create_game(base: str, setup: dict[str, Any] | None = None, *, timeout: float = TIMEOUT,
                      client: httpx.AsyncClient | None = None) -> dict[str, Any]:
    """Create a game (``POST /api/games``, ``setup`` as ``docs/protocol.md`` gives it; none:
    two people) and return the answer: ``id``, ``creator``, the person seats' secrets by seat
    (``seats``: "0", "1"...) and, with outside bots' seats (``"kind": "remote"``), their bot
    tokens (``tokens``), shown this once.  ``client``: an ``httpx.AsyncClient`` to reuse."""
    async with _Session(client, timeout) as http:
        made: dict[str, Any] = _check(await http.post(_url(base, "/api/games"), json=setup or {}), 201)
    return made


async def get_game(base: str, game: str, *, timeout: float = TIMEOUT,
                   client: httpx.AsyncClient | None = None) -> dict[str, Any]:
    """The public view of a game (``GET /api/games/{id}``: a ``snapshot``)."""
    async with _Session(client, timeout) as http:
        view: dict[str, Any] = _check(await http.get(_url(base, f"/api/games/{game}")), 200)
    return view


async def delete_game(base: str, game: str, creator: str, *, timeout: float = TIMEOUT,
                      client: httpx.AsyncClient | None = None) -> None:
    """Delete a game with its creator's secret (``DELETE /api/games/{id}``)."""
    async with _Session(client, timeout) as http:
        _check(await http.delete(_url(base, f"/api/games/{game}"),
                                 headers={"Authorization": f"Bearer {creator}"}), 204)


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    """The verifying SSL context of every client made here (httpx's own default, made once):
    making one reads the certificate authorities, 30 ms of CPU, which a client made for a single
    request would otherwise spend each time (a client with this one: 3 ms)."""
    return httpx.create_ssl_context(trust_env=False)


class _Session:
    """The ``httpx.AsyncClient`` given (left open), or a new one for one request."""

    def __init__(self, given: httpx.AsyncClient | None, timeout: float) -> None:
        self.given = given
        self.own: httpx.AsyncClient | None = None
        self.timeout = timeout

    async def __aenter__(self) -> httpx.AsyncClient:
        if self.given is not None:
            return self.given
        self.own = httpx.AsyncClient(timeout=self.timeout, trust_env=False, verify=_ssl_context())
        return self.own

    async def __aexit__(self, *exc: object) -> None:
        if self.own is not None:
            await self.own.aclose()
