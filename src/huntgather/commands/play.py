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
    parser.add_argument("--warm-workers", action=argparse.BooleanOptionalAction, default=True,
                        help="start the quick bots' worker process with the server, so that the first "
                             "quick bot move does not wait a second or two for it (default: on)")
    parser.add_argument("--bundle", action=argparse.BooleanOptionalAction, default=True,
                        help="send the page's modules as one file where esbuild is installed (Debian's "
                             "package esbuild, or the program HUNTGATHER_ESBUILD names): a page loads "
                             "with 7 requests instead of 41; --no-bundle serves them one by one, so an "
                             "edited module shows at the next reload (default: on)")
    parser.add_argument("--lobby-expiry", type=float, default=30.0, metavar="MINUTES",
                        help="how long a public game stays listed in the lobby; one whose open seats "
                             "are not all taken by then is deleted (never played) (default 30)")
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
    ops.add_argument("--bot-games-per-creator", type=int, default=4, metavar="N",
                     help="how many games of the server's bots alone one creator (an account, else "
                          "an address) may have going at once in this process; more are refused "
                          "with 429 too_many_bot_games (default 4; 0: no limit)")
    ops.add_argument("--hello-timeout", type=float, default=10.0, metavar="SECONDS",
                     help="a game connection that has not said hello this long after it opened is "
                          "closed (code 4408, no_hello; default 10)")
    ops.add_argument("--heartbeat", type=float, default=None, metavar="SECONDS",
                     help="seconds between the server's pings to each page; a page that hears "
                          "nothing for two of them and 2 s more reconnects (default 5; under 20, "
                          "the silence after which the server closes a page)")
    ops.add_argument("--reviews", type=int, default=1, metavar="N",
                     help="post-game reviews computed at once, each in a worker process at the "
                          "lowest CPU priority (default 1; docs/review.md)")
    ops.add_argument("--review-simulations", type=int, default=150, metavar="N",
                     help="a review's search budget per turn (default 150, the expert's)")
    ops.add_argument("--review-samples", type=int, default=48, metavar="N",
                     help="a review's paired samples per turn that value the played and the best "
                          "turn (default 48)")
    ops.add_argument("--review-nice", type=int, default=19, metavar="N",
                     help="the niceness of the review workers, from 0 (the bots' own priority) to "
                          "19 (the lowest: reviews get only CPU to spare; the default)")
    mail = parser.add_argument_group("turn notifications (docs/deploy.md#turn-notifications)")
    mail.add_argument("--smtp", default=None, metavar="URL",
                      help="send turn mails through this SMTP server: smtp://user:password@host:port "
                           "(STARTTLS when offered), smtp+starttls://… (STARTTLS required) or "
                           "smtps://… (TLS from the start); default: no mail")
    mail.add_argument("--mail-from", default=None, metavar="ADDRESS",
                      help="the From address of the mails (required with --smtp)")
    mail.add_argument("--public-url", default=None, metavar="URL",
                      help="the address players reach the server at, e.g. https://games.example.org/ "
                           "(the links in mails are built from it; required with --smtp)")
    mail.add_argument("--notify-delay", type=float, default=300.0, metavar="SECONDS",
                      help="how long a turn waits before it is mailed or pushed, so that one mail tells "
                           "every game waiting and none comes while the player is on the page (default 300)")
    mail.add_argument("--vapid-key", default=None, metavar="KEY",
                      help="the Web Push (VAPID) private key, raw P-256 in base64url (default: one made at "
                           "the first start and kept in the database); also HUNTGATHER_VAPID_KEY")
    mail.add_argument("--push-service", action="append", default=[], metavar="URL",
                      help="accept push subscriptions whose endpoint starts with this URL, besides the "
                           "browsers' own push services (repeatable; for a test or a private service)")
    parser.set_defaults(run=run)


def notify_settings(args: argparse.Namespace) -> Any:
    """The :class:`~huntgather.server.notify.NotifySettings` of ``--smtp`` and its friends;
    raises :class:`CommandError` saying what is wrong (never echoing a password)."""
    import os

    from huntgather.server.notify import NotifySettings, SmtpSettings, check_vapid_key, clean_email
    from huntgather.server.seats import RequestError

    if not args.notify_delay >= 0:
        raise CommandError("--notify-delay cannot be negative")
    smtp = None
    mail_from = "huntgather@localhost"
    public = args.public_url or ""
    if public:
        parts = public.split("://", 1)
        if len(parts) != 2 or parts[0] not in ("http", "https") or not parts[1].strip("/"):
            raise CommandError("--public-url must be an http:// or https:// address, e.g. "
                               "https://games.example.org/")
    if args.smtp:
        try:
            smtp = SmtpSettings.from_url(args.smtp)
        except ValueError as exc:
            raise CommandError(f"--smtp: {exc}") from None
        if not args.mail_from or not public:
            raise CommandError("--smtp needs --mail-from (the From address) and --public-url (the "
                               "address the links in mails lead to)")
    if args.mail_from:
        try:
            mail_from = clean_email(args.mail_from)
        except RequestError:
            raise CommandError(f"--mail-from: {args.mail_from!r} is not an email address") from None
    vapid = args.vapid_key or os.environ.get("HUNTGATHER_VAPID_KEY") or None
    if vapid:
        try:
            vapid = check_vapid_key(vapid)
        except ValueError as exc:
            raise CommandError(f"--vapid-key: {exc}") from None
    return NotifySettings(smtp, mail_from, public, args.notify_delay, vapid)


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
        from huntgather.server.protocol import HEARTBEAT, SILENT_AFTER
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
    if args.bot_games_per_creator < 0:
        raise CommandError("--bot-games-per-creator cannot be negative (0: no limit)")
    if args.shed_after < 0:
        raise CommandError("--shed-after cannot be negative (0: never shed)")
    if args.costly_per_second < 0:
        raise CommandError("--costly-per-second cannot be negative (0: no budget)")
    if not args.presence_every > 0:
        raise CommandError("--presence-every must be a positive number of seconds")
    if not args.lobby_expiry > 0:
        raise CommandError("--lobby-expiry must be a positive number of minutes")
    if not args.hello_timeout > 0:
        raise CommandError("--hello-timeout must be a positive number of seconds")
    heartbeat = HEARTBEAT if args.heartbeat is None else args.heartbeat
    if not 0 < heartbeat < SILENT_AFTER:
        raise CommandError(f"--heartbeat must be a positive number of seconds under {SILENT_AFTER:g}")
    for option, value in (("--reviews", args.reviews), ("--review-simulations", args.review_simulations),
                          ("--review-samples", args.review_samples)):
        if value < 1:
            raise CommandError(f"{option} must be at least 1")
    if not 0 <= args.review_nice <= 19:
        raise CommandError("--review-nice must be from 0 to 19")
    proxies = [a.strip() for a in args.forwarded_allow_ips.split(",") if a.strip()]
    for proxy in proxies:
        try:
            if proxy != "*":
                ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise CommandError(f"--forwarded-allow-ips: {proxy!r} is not an address or a network such as "
                               f"127.0.0.1 or 10.0.0.0/8") from None
    notify = notify_settings(args)
    db = args.db or default_db()
    json_log = args.log_format == "json"
    configure(args.log_format, args.log_level or ("info" if json_log else "warning"))
    say = _announcer(json_log)
    try:
        app = create_app(db, notify=notify, push_services=tuple(args.push_service),
                         bot_delay=args.bot_delay, allowed_origins=tuple(args.allow_origin),
                         allowed_hosts=tuple(allowed_hosts(args.host, args.allow_host)),
                         hello_timeout=args.hello_timeout, heartbeat=heartbeat,
                         max_sockets_per_address=args.max_sockets_per_address,
                         max_watchers=args.max_watchers, presence_every=args.presence_every,
                         costly_per_second=args.costly_per_second, shed_after=args.shed_after,
                         bot_games_per_creator=args.bot_games_per_creator,
                         lobby_expiry=args.lobby_expiry * 60.0,
                         reviews=args.reviews, review_simulations=args.review_simulations,
                         review_samples=args.review_samples, review_nice=args.review_nice,
                         warm_workers=args.warm_workers, bundle_client=args.bundle)
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
        if notify.smtp is not None:
            say(f"turn mails go through {notify.smtp.describe()}, from {notify.mail_from}")
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
