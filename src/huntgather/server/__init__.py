"""The web server for playing in the browser (needs the ``web`` extra).

``create_app(db)`` builds the ASGI application; ``huntgather play`` runs it
with uvicorn.  :func:`app_from_env` builds it from environment variables, for
uvicorn's own command line (several workers on one PostgreSQL: see
``docs/deploy.md``).  See ``docs/play.md`` and ``docs/protocol.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from huntgather.server.app import create_app
    from huntgather.server.environment import app_from_env

__all__ = ["app_from_env", "create_app"]


def __getattr__(name: str) -> Any:
    """``create_app`` and ``app_from_env``, imported when first asked for.  A bot's worker process
    imports this package only for :mod:`huntgather.server.workers`: it need not import the web
    stack (Starlette, SQLAlchemy, the accounts' libraries), a second or more of its start-up."""
    if name == "create_app":
        from huntgather.server.app import create_app
        return create_app
    if name == "app_from_env":
        from huntgather.server.environment import app_from_env
        return app_from_env
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
