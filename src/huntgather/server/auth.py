"""Who a request comes from: the session cookie, read and set.

The cookie ``hg_session`` holds a session id (:mod:`huntgather.server.accounts`); it is
``HttpOnly`` (no script reads it), ``SameSite=Lax`` (no other site's request carries it,
but a link followed to this site does) and ``Secure`` when the page came over HTTPS (behind a
proxy, when ``--forwarded-allow-ips`` trusts its ``X-Forwarded-Proto``).  The path is ``/``
so that the websocket's ``hello`` carries it too.
"""

from __future__ import annotations

import asyncio

from starlette.requests import HTTPConnection
from starlette.responses import Response

from huntgather.server.accounts import SESSION_IDLE, Account, Accounts

COOKIE = "hg_session"


def accounts_of(conn: HTTPConnection) -> Accounts:
    """The server's accounts (kept in the app's state by ``create_app``)."""
    accounts: Accounts = conn.app.state.accounts
    return accounts


def session_token(conn: HTTPConnection) -> str | None:
    """The session id the request carries, if any."""
    return conn.cookies.get(COOKIE) or None


async def signed_in(conn: HTTPConnection) -> Account | None:
    """The account whose live session the request carries, or None (a guest)."""
    token = session_token(conn)
    if token is None:
        return None
    session = await asyncio.to_thread(accounts_of(conn).session, token)
    return session.account if session is not None else None


def set_session_cookie(response: Response, conn: HTTPConnection, token: str) -> None:
    """Make ``response`` set the session cookie to ``token``."""
    response.set_cookie(COOKIE, token, max_age=int(SESSION_IDLE), path="/", httponly=True,
                        samesite="lax", secure=conn.url.scheme in ("https", "wss"))


def clear_session_cookie(response: Response, conn: HTTPConnection) -> None:
    """Make ``response`` remove the session cookie."""
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=conn.url.scheme in ("https", "wss"))
