"""``huntgather play``: play in the browser against bots or hotseat.

Starts the web server (needs the ``web`` extra: ``pip install huntgather[web]``),
prints its address and the database that keeps every game, and opens a browser
where one is available.

>>> parser = argparse.ArgumentParser(); sub = parser.add_subparsers()
>>> register(sub)
>>> args = parser.parse_args(["play", "--port", "9000", "--no-browser"])
>>> args.host, args.port, args.no_browser
('127.0.0.1', 9000, True)
>>> args.metrics_port, args.log_format, args.drain_seconds
(None, 'text', 6.0)
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import threading
import webbrowser
from pathlib import Path
from typing import Any

from huntgather.cli import CommandError


def default_db() -> str:
    """The SQLite file in the user's data directory (via platformdirs)."""
    try:
        from platformdirs import user_data_dir
    except ImportError:
        return str(Path.home() / ".huntgather" / "games.sqlite")
    return str(Path(user_data_dir("huntgather", appauthor=False)) / "games.sqlite")


def _reason(exc: Exception) -> str:
    """Why a database could not be opened, in words that never hold a password or SQL."""
    name = type(exc).__name__
    if name == "NoSuchModuleError":
        return "unknown database kind (use a file path, sqlite:///… or postgresql://…)"
    if name == "ModuleNotFoundError":
        missing = getattr(exc, "name", "?")
        return f"a driver is missing: {missing} (pip install 'psycopg[binary]' for PostgreSQL)"
    if name == "OperationalError":
        return "the database cannot be reached or opened (check the address, the user and the permissions)"
    return name


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "play", help="play in the browser (against bots or hotseat)",
        description="Start the local web server for playing in the browser. Every move is stored "
                    "before it counts, so a game survives a restart of the server.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    parser.add_argument("--db", default=None, metavar="URL|PATH",
                        help="database: a SQLite file path or a SQLAlchemy URL such as "
                             "postgresql://user@host/db (default: games.sqlite in the user data directory)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                        help="pause before each bot move, so that it can be followed (default 0.6)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                        help="another origin whose pages may open game sockets, e.g. "
                             "https://games.example.org behind a reverse proxy (repeatable)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="another host name (or address) pages may use to reach this server, e.g. "
                             "games.example.org; loopback names are always allowed (repeatable)")
    parser.add_argument("--forwarded-allow-ips", default="", metavar="ADDRESSES",
                        help="comma-separated addresses of reverse proxies whose X-Forwarded-For and "
                             "X-Forwarded-Proto headers are believed, e.g. 127.0.0.1 when nginx runs on "
                             "this machine (default: none, so a client cannot pick the address its rate "
                             "limits count against)")
    ops = parser.add_argument_group("operations (docs/deploy.md)")
    ops.add_argument("--metrics-port", type=int, default=None, metavar="N",
                     help="serve Prometheus metrics on this port, at /metrics (default: off); on "
                          "127.0.0.1 unless --metrics-host says otherwise; needs prometheus-client")
    ops.add_argument("--metrics-host", default="127.0.0.1", metavar="ADDRESS",
                     help="the address the metrics port listens on (default 127.0.0.1)")
    ops.add_argument("--log-format", choices=["text", "json"], default="text",
                     help="the log on stderr: plain lines, or one JSON object a line with time, level, "
                          "logger, message and the request and game ids (default text)")
    ops.add_argument("--log-level", choices=["debug", "info", "warning", "error"], default=None,
                     help="the least important records logged (default: warning, info with --log-format "
                          "json)")
    ops.add_argument("--drain-seconds", type=float, default=6.0, metavar="SECONDS",
                     help="on SIGTERM, how long to wait at most for the moves being made and the bots "
                          "thinking before exiting (default 6; the process exits within about 4 s more)")
    ops.add_argument("--max-sockets-per-address", type=int, default=32, metavar="N",
                     help="the most game connections (websockets) one client address may hold open; "
                          "one more is refused with HTTP 429 (default 32; 0: no limit)")
    ops.add_argument("--max-watchers", type=int, default=200, metavar="N",
                     help="the most watchers one game takes; one more is refused with the error "
                          "too_many_watchers (default 200; 0: no limit)")
    ops.add_argument("--costly-per-second", type=float, default=5.0, metavar="N",
                     help="how many costly messages (renames, seat changes, resyncs: database writes "
                          "and whole views) one page may send a second, four seconds' worth at once; "
                          "more are answered too_fast (default 5; 0: no budget)")
    ops.add_argument("--shed-after", type=float, default=0.1, metavar="SECONDS",
                     help="while the event loop runs this late (smoothed), new games and connections "
                          "are refused with 503 busy so that the games in progress keep their pace "
                          "(default 0.1; 0: never)")
    ops.add_argument("--presence-every", type=float, default=10.0, metavar="SECONDS",
                     help="with PostgreSQL: how often each process tells the others which pages it "
                          "has; the pages of a process silent three times as long (crashed) go "
                          "offline on the others (default 10; the same on every process)")
    ops.add_argument("--hello-timeout", type=float, default=10.0, metavar="SECONDS",
                     help="a game connection that has not said hello this long after it opened is "
                          "closed (code 4408, no_hello; default 10)")
    ops.add_argument("--reviews", type=int, default=1, metavar="N",
                     help="post-game reviews computed at once, each in a worker process at the "
                          "lowest CPU priority (default 1; docs/review.md)")
    ops.add_argument("--review-simulations", type=int, default=150, metavar="N",
                     help="a review's search budget per turn (default 150, the expert's)")
    ops.add_argument("--review-samples", type=int, default=48, metavar="N",
                     help="a review's paired samples per turn that value the played and the best "
                          "turn (default 48)")
    parser.set_defaults(run=run)


def _announcer(json_log: bool) -> Any:
    """How the server says where it plays: printed lines, or log records with ``--log-format json``
    (so that every line of its output is JSON)."""
    if not json_log:
        return lambda text: print(f"huntgather: {text}", flush=True)
    import logging

    logger = logging.getLogger("huntgather.play")
    logger.setLevel(logging.INFO)   # said whatever --log-level is

    def say(text: str) -> None:
        if text.startswith("WARNING: "):
            logger.warning(text.removeprefix("WARNING: "))
        else:
            logger.info(text)

    return say


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from huntgather.server import create_app
        from huntgather.server.app import serve_metrics
        from huntgather.server.codec import MAX_MESSAGE
        from huntgather.server.gc_tuning import tune_gc
        from huntgather.server.hosts import EVERYWHERE, LOOPBACK, allowed_hosts, lan_addresses
        from huntgather.server.logs import configure
        from huntgather.server.serving import DrainingServer
        from huntgather.server.storage import SchemaError, public_url
    except ImportError as exc:
        raise CommandError(f"browser play needs the web extra ({exc.name} is missing): "
                           f"pip install 'huntgather[web]'", 1) from None
    if not 0 <= args.port < 65536:
        raise CommandError(f"--port must be from 0 to 65535, not {args.port}")
    if args.bot_delay < 0:
        raise CommandError("--bot-delay cannot be negative")
    if args.metrics_port is not None and not 0 <= args.metrics_port < 65536:
        raise CommandError(f"--metrics-port must be from 0 to 65535, not {args.metrics_port}")
    if args.drain_seconds < 0:
        raise CommandError("--drain-seconds cannot be negative")
    if args.max_sockets_per_address < 0:
        raise CommandError("--max-sockets-per-address cannot be negative (0: no limit)")
    if args.max_watchers < 0:
        raise CommandError("--max-watchers cannot be negative (0: no limit)")
    if args.shed_after < 0:
        raise CommandError("--shed-after cannot be negative (0: never shed)")
    if args.costly_per_second < 0:
        raise CommandError("--costly-per-second cannot be negative (0: no budget)")
    if not args.presence_every > 0:
        raise CommandError("--presence-every must be a positive number of seconds")
    if not args.hello_timeout > 0:
        raise CommandError("--hello-timeout must be a positive number of seconds")
    for option, value in (("--reviews", args.reviews), ("--review-simulations", args.review_simulations),
                          ("--review-samples", args.review_samples)):
        if value < 1:
            raise CommandError(f"{option} must be at least 1")
    proxies = [a.strip() for a in args.forwarded_allow_ips.split(",") if a.strip()]
    for proxy in proxies:
        try:
            if proxy != "*":
                ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise CommandError(f"--forwarded-allow-ips: {proxy!r} is not an address or a network such as "
                               f"127.0.0.1 or 10.0.0.0/8") from None
    db = args.db or default_db()
    json_log = args.log_format == "json"
    configure(args.log_format, args.log_level or ("info" if json_log else "warning"))
    say = _announcer(json_log)
    try:
        app = create_app(db, bot_delay=args.bot_delay, allowed_origins=tuple(args.allow_origin),
                         allowed_hosts=tuple(allowed_hosts(args.host, args.allow_host)),
                         hello_timeout=args.hello_timeout,
                         max_sockets_per_address=args.max_sockets_per_address,
                         max_watchers=args.max_watchers, presence_every=args.presence_every,
                         costly_per_second=args.costly_per_second, shed_after=args.shed_after,
                         reviews=args.reviews, review_simulations=args.review_simulations,
                         review_samples=args.review_samples)
    except SchemaError as exc:
        raise CommandError(f"cannot use the database {public_url(db)}: {exc}", 1) from None
    except Exception as exc:  # a bad URL or an unreachable database
        raise CommandError(f"cannot open the database {public_url(db)}: {_reason(exc)}", 1) from None
    metrics = None
    if args.metrics_port is not None:
        try:
            metrics = serve_metrics(app, args.metrics_port, args.metrics_host)
        except ImportError:
            raise CommandError("--metrics-port needs prometheus-client: pip install 'huntgather[web]'",
                               1) from None
        except OSError as exc:
            raise CommandError(f"cannot serve the metrics on {args.metrics_host}:{args.metrics_port}: "
                               f"{exc.strerror or exc}", 1) from None
    # frames over 64 KiB are refused by the websocket layer itself (close code 1009)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            log_config=None if json_log else uvicorn.config.LOGGING_CONFIG,
                            ws_max_size=MAX_MESSAGE, ws_max_queue=8, ws_per_message_deflate=False,
                            # after the drain (DrainingServer), what is left is cut short: a page
                            # that never reads must not keep the server from stopping
                            timeout_graceful_shutdown=2,
                            # X-Forwarded-For is believed only from the proxies listed (never by default:
                            # uvicorn's own default believes any client on 127.0.0.1)
                            proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None)
    server = DrainingServer(config, app, args.drain_seconds)
    opened = threading.Event()

    def announce() -> None:
        while not server.started:
            if server.should_exit:
                return
            threading.Event().wait(0.05)
        port = args.port
        for s in getattr(server, "servers", []):
            for sock in s.sockets:
                port = sock.getsockname()[1]
                break
        everywhere = args.host in EVERYWHERE
        host = "127.0.0.1" if everywhere else "[" + args.host + "]" if ":" in args.host else args.host
        url = f"http://{host}:{port}/"
        say(f"playing at {url}")
        if everywhere or args.host not in LOOPBACK:
            for lan in lan_addresses() if everywhere else []:
                say(f"others on your network: http://{lan}:{port}/")
            say("WARNING: anyone who can reach this machine on that port can create games "
                "and watch the games whose links they have; put it behind a reverse proxy with HTTPS "
                "(docs/deploy.md) before opening it to the internet")
        if metrics is not None:
            say(f"metrics for Prometheus at http://{args.metrics_host}:{metrics.port}/metrics")
        url_db = app.state.storage.url
        where = url_db.removeprefix("sqlite:///") if url_db.startswith("sqlite:///") else public_url(url_db)
        say(f"games are stored in {where}")
        say("press Ctrl+C to stop (games are kept)")
        if not args.no_browser and not opened.is_set():
            opened.set()
            with contextlib.suppress(webbrowser.Error):
                webbrowser.open(url)

    threading.Thread(target=announce, daemon=True).start()
    tune_gc()   # after the app is built: what exists now is frozen out of every collection
    try:
        server.run()
    finally:
        if metrics is not None:
            metrics.close()
    return 0
