"""The web server for playing in the browser (needs the ``web`` extra).

``create_app(db)`` builds the ASGI application; ``huntgather play`` runs it
with uvicorn.  See ``docs/play.md``.
"""

from huntgather.server.app import create_app

__all__ = ["create_app"]
