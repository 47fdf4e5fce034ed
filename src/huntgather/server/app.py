"""The ASGI application: HTTP API, a websocket per game, and the static client.

The protocol (every route, every message, every error code) is documented in
``docs/protocol.md``.  In short:

================================  ==============================================
``GET  /api/editions``            editions, player ranges, bot levels, colours
``GET  /api/tiles/{edition}``     tile pictures (4 rotations, ?style=painted|clean), anchors
``GET  /api/rules/{edition}``     the rules in short sections, with diagrams of real positions
``GET  /api/games?ids=a,b``       summaries of the games a page knows (no listing of all)
``POST /api/games``               new game; answers its id, creator and seat secrets
``GET  /api/games/{id}``          the public view (what a watcher sees)
``DELETE /api/games/{id}``        delete a game (``Authorization: Bearer <creator secret>``)
``GET  /api/games/{id}/at/{n}``   the position after the first n moves (replay)
``/api/accounts``, ``/api/me``    accounts and sessions (:mod:`~huntgather.server.routes_accounts`)
``WS   /ws/{id}``                 live game: ``hello`` first, then intents; updates pushed
``GET  /api/lobby``               the public games with a seat open; take one, quick match
``GET  /api/puzzles/{ed}/today``  the puzzle of the day; ``/api/puzzles/{ed}/{n}`` puzzle n, without its
                                  answer; ``…/{n}/hint/{k}``, ``…/{n}/solution``, ``POST …/{n}/answer``
                                  (routes_puzzles)
``GET  /healthz``, ``/readyz``    the process lives; it can serve (database, schema, workers)
``/api/passkeys/...``             passkeys: sign up, sign in, add, list, remove (routes_passkeys)
``/api/me/notifications``, ...    turn notifications by mail and Web Push (routes_notify)
================================  ==============================================

A change (POST, PUT, PATCH, DELETE) sent by another site's page is refused, 403 ``cross_site``
(:mod:`huntgather.server.csrf`).

On SIGTERM the process drains (:func:`drain`, called by ``huntgather play``): it takes no
new socket and no HTTP change, lets the messages being handled and the bots' searches under
way store their moves, closes every page with 1012 (``service_restart``, the page reconnects)
and then exits.  Its counts for Prometheus are in :mod:`huntgather.server.metrics`.

The routes are in :mod:`huntgather.server.routes_http` and :mod:`huntgather.server.routes_ws`;
the websocket's messages are declared in :mod:`huntgather.server.messages` and handled by
:mod:`huntgather.server.dispatch`.  Every answer to a bad request is a specific error code with a message in
plain words; no answer ever holds a traceback, SQL or a secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware

from huntgather.bots.review import SAMPLES as REVIEW_SAMPLES
from huntgather.bots.review import SIMULATIONS as REVIEW_SIMULATIONS
from huntgather.server import gc_tuning, protocol
from huntgather.server.accounts import Accounts
from huntgather.server.connection import BUDGET_RATE
from huntgather.server.context import RateLimit, ServerContext
from huntgather.server.csrf import CrossSiteGuard
from huntgather.server.health import health_routes
from huntgather.server.limits import MAX_SOCKETS_PER_ADDRESS, SocketLimit
from huntgather.server.load import LoopLag, ShedLoad
from huntgather.server.logs import LogContext
from huntgather.server.messages import ErrorCode
from huntgather.server.metrics import MetricsServer
from huntgather.server.notify import Notifier, NotifySettings
from huntgather.server.reviews import Reviews
from huntgather.server.rooms import BOT_GAMES_PER_CREATOR, LOBBY_EXPIRY, MAX_WATCHERS, PRESENCE_EVERY, Rooms
from huntgather.server.routes_accounts import SignInLimits, account_routes
from huntgather.server.routes_http import Scope, http_routes, web_dir
from huntgather.server.routes_lobby import lobby_routes
from huntgather.server.routes_notify import notify_routes
from huntgather.server.routes_passkeys import passkey_routes
from huntgather.server.routes_puzzles import puzzle_routes
from huntgather.server.routes_ratings import ratings_routes
from huntgather.server.routes_reviews import review_routes
from huntgather.server.routes_tutorial import tutorial_routes
from huntgather.server.routes_ws import ws_routes
from huntgather.server.storage import Storage
from huntgather.server.workers import REVIEW_NICE, Workers

__all__ = ["create_app", "drain", "serve_metrics", "web_dir"]

log = logging.getLogger("huntgather.server")

#: headers on every HTTP answer: the page may load only its own scripts and talk only to this server
#: (images also from data: and blob: URLs: the board's pictures of its tiles, made by the page)
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; "
     b"frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]

Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
                   Awaitable[None]]


class SecurityHeaders:
    """ASGI middleware: add :data:`SECURITY_HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


class RefuseWhileDraining:
    """ASGI middleware: while the process drains, an HTTP change (any method but GET, HEAD and
    OPTIONS) is answered 503 ``draining``, so that nothing starts that the exit would cut short."""

    _BODY = json.dumps({"type": "error", "code": ErrorCode.DRAINING,
                        "message": "the server is restarting; try again in a moment"}).encode()

    def __init__(self, app: ASGIApp, context: ServerContext) -> None:
        self.app, self.context = app, context

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] == "http" and self.context.draining \
                and scope.get("method") not in ("GET", "HEAD", "OPTIONS"):
            await send({"type": "http.response.start", "status": 503,
                        "headers": [(b"content-type", b"application/json"), (b"retry-after", b"2"),
                                    (b"cache-control", b"no-store")]})
            await send({"type": "http.response.body", "body": self._BODY})
            return
        await self.app(scope, receive, send)


RoomsFactory = Callable[[Storage, Workers], Rooms]


def create_app(db: str = "sqlite://", *, bot_delay: float = 0.6, bot_workers: int = 2,
               max_rooms: int = 64, games_per_minute: int = 30, allowed_origins: tuple[str, ...] = (),
               allowed_hosts: tuple[str, ...] | None = None, worker_processes: bool = True,
               rooms_factory: RoomsFactory | None = None, heartbeat: float = protocol.HEARTBEAT,
               silent_after: float = protocol.SILENT_AFTER, hello_timeout: float = protocol.HELLO_TIMEOUT,
               max_sockets_per_address: int = MAX_SOCKETS_PER_ADDRESS,
               max_watchers: int = MAX_WATCHERS, presence_every: float = PRESENCE_EVERY,
               costly_per_second: float = BUDGET_RATE, shed_after: float = 0.0,
               bot_games_per_creator: int = BOT_GAMES_PER_CREATOR,
               notify: NotifySettings | None = None, push_services: tuple[str, ...] = (),
               lobby_expiry: float = LOBBY_EXPIRY, lobby_per_minute: int = 20, reviews: int = 1,
               review_simulations: int = REVIEW_SIMULATIONS, review_samples: int = REVIEW_SAMPLES,
               review_nice: int = REVIEW_NICE, warm_workers: bool = False,
               bundle_client: bool = True) -> Starlette:
    """The web application, storing games in ``db`` (a SQLAlchemy URL or a SQLite file path).

    At most ``max_rooms`` games stay in memory (see :class:`~huntgather.server.rooms.Rooms`);
    one address may create at most ``games_per_minute`` games a minute.
    ``rooms_factory`` builds the :class:`Rooms` (tests use it to script the draws).
    Bots and hints search in worker processes (threads with ``worker_processes=False``);
    ``warm_workers`` starts the quick bots' worker as the server starts, not at the first move.
    ``allowed_hosts`` lists the Host names requests may carry (``huntgather play``
    passes loopback and what ``--allow-host`` adds); None accepts any.
    Every page is sent a ``ping`` each ``heartbeat`` seconds, and closed once it has said nothing
    (not even ``pong``) for ``silent_after`` seconds, so its seats go offline.
    A socket that has not said ``hello`` within ``hello_timeout`` seconds is closed (4408,
    ``no_hello``).  One client address may hold at most ``max_sockets_per_address`` websockets
    open (0: no limit; one more is answered 429, :mod:`huntgather.server.limits`), and a game
    takes at most ``max_watchers`` watchers (``too_many_watchers``).  With PostgreSQL, each
    process repeats which pages it has every ``presence_every`` seconds, and the pages of a
    process silent three times as long (crashed) stop counting as online on the others.
    Each page may send ``costly_per_second`` costly intents a second (database writes, whole
    views; four seconds' worth at once; 0: no budget), more are answered ``too_fast``.  While
    the event loop runs over ``shed_after`` seconds late (smoothed; 0, the default here: never;
    ``huntgather play`` and :func:`~huntgather.server.app_from_env` shed after
    :data:`~huntgather.server.load.SHED_AFTER`), new games and new websockets are refused with
    503 ``busy`` (:mod:`huntgather.server.load`).  One creator (an account, else an address)
    may have ``bot_games_per_creator`` games of bots alone going at once (0: any); such a game
    rests while no page has it open, unless created with ``"unwatched": true``.
    ``notify`` says how turn notifications go out (:mod:`huntgather.server.notify`; None: no
    mail, pushes only); ``push_services`` are URLs of push services accepted besides the known
    ones (:data:`~huntgather.server.routes_notify.PUSH_SERVICES`).
    A public game stays listed in the lobby for ``lobby_expiry`` seconds; one address or
    account may take ``lobby_per_minute`` lobby seats and quick matches a minute
    (:mod:`huntgather.server.routes_lobby`).
    At most ``reviews`` post-game reviews are computed at once, each turn searched with
    ``review_simulations`` and valued on ``review_samples`` paired samples, in worker processes
    at the niceness ``review_nice`` (:mod:`huntgather.server.reviews`).
    ``bundle_client`` sends the page's entry module as one file with every module it imports,
    where esbuild is installed (:mod:`huntgather.server.client_bundle`); off, they come one by one.
    """
    if not lobby_expiry > 0 or lobby_per_minute < 1:
        raise ValueError("the lobby's expiry and its requests a minute must be positive")
    if not 0 < heartbeat < silent_after:
        raise ValueError("the heartbeat must be positive and shorter than the silence that closes a page")
    if hello_timeout <= 0:
        raise ValueError("the time a socket has to say hello must be positive")
    if shed_after < 0:
        raise ValueError("the lag that sheds load cannot be negative (0: never shed)")
    if costly_per_second < 0:
        raise ValueError("the budget of costly intents cannot be negative (0: no budget)")
    if not presence_every > 0:
        raise ValueError("the presence repeat must be a positive number of seconds")
    if reviews < 1 or review_simulations < 1 or review_samples < 1:
        raise ValueError("reviews at once, and a review's simulations and samples, must be at least 1")
    if not 0 <= review_nice <= 19:
        raise ValueError("the review workers' niceness must be from 0 to 19")
    if max_sockets_per_address < 0 or max_watchers < 0 or bot_games_per_creator < 0:
        raise ValueError("the most sockets per address and watchers per game cannot be negative")
    storage = Storage(db)
    workers = Workers(bot_workers, processes=worker_processes, reviews=reviews, review_nice=review_nice)
    rooms = Rooms(storage, workers, bot_delay, max_rooms) if rooms_factory is None \
        else rooms_factory(storage, workers)
    rooms.max_watchers = max_watchers
    rooms.presence_every = presence_every
    rooms.bot_games_per_creator = bot_games_per_creator
    rooms.lobby_expiry = lobby_expiry
    context = ServerContext(storage, workers, rooms, games_per_minute,
                            {urlsplit(o).netloc.lower() or o.lower() for o in allowed_origins},
                            heartbeat, silent_after, hello_timeout, costly_per_second, lobby_per_minute,
                            reviews=Reviews(rooms, simulations=review_simulations, samples=review_samples),
                            bundle_client=bundle_client)
    lag = LoopLag(shed_after, rooms.tally)
    middleware = [Middleware(SocketLimit, limit=max_sockets_per_address), Middleware(LogContext),
                  Middleware(SecurityHeaders), Middleware(CrossSiteGuard, allowed=context.origins),
                  Middleware(RefuseWhileDraining, context=context),
                  Middleware(GZipMiddleware, minimum_size=2000)]
    if shed_after > 0:   # inside the socket limit, the logs' context and the headers; before any work
        middleware.insert(3, Middleware(ShedLoad, lag=lag))
    if allowed_hosts is not None:   # a page reached under another name (DNS rebinding) is refused
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    notifier = Notifier(storage, notify or NotifySettings())
    rooms.notifier = notifier
    routes = [*http_routes(), *lobby_routes(), *account_routes(), *notify_routes(), *passkey_routes(),
              *ratings_routes(), *review_routes(), *tutorial_routes(), *puzzle_routes(),
              *ws_routes(),
              *health_routes(storage, workers, lambda: context.draining)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=_lifespan)
    app.state.context = context
    app.state.lag = lag
    app.state.storage = storage
    app.state.rooms = rooms
    app.state.warm_workers = warm_workers
    app.state.accounts = Accounts(storage)
    app.state.sign_in_limits = SignInLimits()
    app.state.notifier = notifier
    app.state.push_services = tuple(push_services)
    app.state.notify_limits = {"confirm": RateLimit(10, 3600.0), "links": RateLimit(30, 60.0)}
    return app


def serve_metrics(app: Starlette, port: int, host: str = "127.0.0.1") -> MetricsServer:
    """Serve the app's metrics for Prometheus on ``host:port`` (needs ``prometheus-client``)."""
    ctx: ServerContext = app.state.context
    rooms, workers, storage = ctx.rooms, ctx.workers, ctx.storage
    return MetricsServer(ctx.tally, lambda: rooms.count, lambda: dict(workers.pending),
                         lambda: storage.errors, port, host)


async def drain(app: Starlette, within: float) -> None:
    """Drain the server before it exits: refuse new sockets and HTTP changes (``/readyz`` says
    ``draining``), let each page's message being handled be answered and then close the page
    with 1012, let the bots' searches under way store their moves; give up waiting after
    ``within`` seconds (what is left is cut short by the shutdown: nothing unacknowledged)."""
    ctx: ServerContext = app.state.context
    ctx.tally.draining = True
    pages = len(ctx.pages)
    for restart in list(ctx.pages):
        restart.set()

    async def pages_closed() -> None:
        while ctx.pages:
            await asyncio.sleep(0.05)

    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        async with asyncio.timeout(within):
            await asyncio.gather(ctx.rooms.drain(), pages_closed())
    except TimeoutError:
        log.warning("draining: %d pages and the bots' searches still running after %.0f s are cut short",
                    len(ctx.pages), within)
    else:
        log.info("drained %d pages in %.1f s", pages, loop.time() - started)


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    ctx: ServerContext = app.state.context
    ctx.rooms.start()
    if app.state.warm_workers:
        ctx.workers.warm("light")
    if ctx.reviews is not None:
        ctx.reviews.start()
    try:
        old = await asyncio.to_thread(ctx.storage.open_games)
    except Exception as exc:   # a courtesy to the operator: never a reason not to start
        log.debug("looking for games stored before seats had secrets failed: %s", exc)
        old = []
    if old:   # stored before seats had secrets: any page may play them and delete them
        log.warning("%d games stored before seats had secrets are open to any page: "
                    "`huntgather admin secure-old-games` gives them secrets", len(old))
    watching = asyncio.get_running_loop().create_task(app.state.lag.watch())
    notifying = asyncio.get_running_loop().create_task(app.state.notifier.run())
    if gc_tuning.tuned():   # a serving process (huntgather play, app_from_env), not a test
        gc_tuning.collect_young_every()
    try:
        yield
    finally:
        watching.cancel()
        notifying.cancel()
        await app.state.notifier.close()
        if ctx.reviews is not None:
            await ctx.reviews.close()
        await ctx.rooms.close()
        ctx.workers.shutdown()
        ctx.storage.close()
