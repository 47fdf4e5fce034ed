"""``huntgather play``: play in the browser against bots or hotseat.

Starts the web server (needs the ``web`` extra: ``pip install huntgather[web]``),
prints its address and the database that keeps every game, and opens a browser
where one is available.

>>> parser = argparse.ArgumentParser(); sub = parser.add_subparsers()
>>> register(sub)
>>> args = parser.parse_args(["play", "--port", "9000", "--no-browser"])
>>> args.host, args.port, args.no_browser
('127.0.0.1', 9000, True)
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
    parser.add_argument("--max-sockets-per-address", type=int, default=32, metavar="N",
                        help="the most game connections (websockets) one client address may hold open; "
                             "one more is refused with HTTP 429 (default 32; 0: no limit)")
    parser.add_argument("--max-watchers", type=int, default=200, metavar="N",
                        help="the most watchers one game takes; one more is refused with the error "
                             "too_many_watchers (default 200; 0: no limit)")
    parser.add_argument("--hello-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="a game connection that has not said hello this long after it opened is "
                             "closed (code 4408, no_hello; default 10)")
    parser.set_defaults(run=run)


def log_to_stderr() -> None:
    """The server's warnings and errors on stderr, each line with its level (``ERROR ...``)."""
    import logging

    logger = logging.getLogger("huntgather")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.WARNING)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from huntgather.server import create_app
        from huntgather.server.codec import MAX_MESSAGE
        from huntgather.server.gc_tuning import tune_gc
        from huntgather.server.hosts import EVERYWHERE, LOOPBACK, allowed_hosts, lan_addresses
        from huntgather.server.storage import SchemaError, public_url
    except ImportError as exc:
        raise CommandError(f"browser play needs the web extra ({exc.name} is missing): "
                           f"pip install 'huntgather[web]'", 1) from None
    if not 0 <= args.port < 65536:
        raise CommandError(f"--port must be from 0 to 65535, not {args.port}")
    if args.bot_delay < 0:
        raise CommandError("--bot-delay cannot be negative")
    if args.max_sockets_per_address < 0:
        raise CommandError("--max-sockets-per-address cannot be negative (0: no limit)")
    if args.max_watchers < 0:
        raise CommandError("--max-watchers cannot be negative (0: no limit)")
    if not args.hello_timeout > 0:
        raise CommandError("--hello-timeout must be a positive number of seconds")
    proxies = [a.strip() for a in args.forwarded_allow_ips.split(",") if a.strip()]
    for proxy in proxies:
        try:
            if proxy != "*":
                ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise CommandError(f"--forwarded-allow-ips: {proxy!r} is not an address or a network such as "
                               f"127.0.0.1 or 10.0.0.0/8") from None
    db = args.db or default_db()
    log_to_stderr()
    try:
        app = create_app(db, bot_delay=args.bot_delay, allowed_origins=tuple(args.allow_origin),
                         allowed_hosts=tuple(allowed_hosts(args.host, args.allow_host)),
                         hello_timeout=args.hello_timeout,
                         max_sockets_per_address=args.max_sockets_per_address,
                         max_watchers=args.max_watchers)
    except SchemaError as exc:
        raise CommandError(f"cannot use the database {public_url(db)}: {exc}", 1) from None
    except Exception as exc:  # a bad URL or an unreachable database
        raise CommandError(f"cannot open the database {public_url(db)}: {_reason(exc)}", 1) from None
    # frames over 64 KiB are refused by the websocket layer itself (close code 1009)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            ws_max_size=MAX_MESSAGE, ws_max_queue=8, ws_per_message_deflate=False,
                            # a page that never reads must not keep the server from stopping
                            timeout_graceful_shutdown=5,
                            # X-Forwarded-For is believed only from the proxies listed (never by default:
                            # uvicorn's own default believes any client on 127.0.0.1)
                            proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None)
    server = uvicorn.Server(config)
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
        print(f"huntgather: playing at {url}", flush=True)
        if everywhere or args.host not in LOOPBACK:
            for lan in lan_addresses() if everywhere else []:
                print(f"huntgather: others on your network: http://{lan}:{port}/", flush=True)
            print("huntgather: WARNING: anyone who can reach this machine on that port can create games "
                  "and watch the games whose links they have; put it behind a reverse proxy with HTTPS "
                  "(docs/deploy.md) before opening it to the internet", flush=True)
        url_db = app.state.storage.url
        where = url_db.removeprefix("sqlite:///") if url_db.startswith("sqlite:///") else public_url(url_db)
        print(f"huntgather: games are stored in {where}", flush=True)
        print("huntgather: press Ctrl+C to stop (games are kept)", flush=True)
        if not args.no_browser and not opened.is_set():
            opened.set()
            with contextlib.suppress(webbrowser.Error):
                webbrowser.open(url)

    threading.Thread(target=announce, daemon=True).start()
    tune_gc()   # after the app is built: what exists now is frozen out of every collection
    server.run()
    return 0
