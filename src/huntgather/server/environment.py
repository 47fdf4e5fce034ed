"""The application from environment variables: ``app_from_env``, for uvicorn's own command
line (``uvicorn --factory huntgather.server:app_from_env``; docs/deploy.md)."""

from __future__ import annotations

import os

from starlette.applications import Starlette

from huntgather.server.app import create_app
from huntgather.server.gc_tuning import tune_gc
from huntgather.server.hosts import allowed_hosts
from huntgather.server.limits import MAX_SOCKETS_PER_ADDRESS
from huntgather.server.load import SHED_AFTER
from huntgather.server.notify import NotifySettings
from huntgather.server.protocol import HEARTBEAT, HELLO_TIMEOUT
from huntgather.server.rooms import BOT_GAMES_PER_CREATOR, MAX_WATCHERS


def app_from_env() -> Starlette:
    """The application configured by ``HUNTGATHER_DB`` (required), ``HUNTGATHER_ALLOW_HOST`` and
    ``HUNTGATHER_ALLOW_ORIGIN`` (comma-separated), ``HUNTGATHER_BOT_DELAY``,
    ``HUNTGATHER_HELLO_TIMEOUT``, ``HUNTGATHER_HEARTBEAT``, ``HUNTGATHER_PRESENCE_EVERY`` and
    ``HUNTGATHER_SHED_AFTER``
    (seconds), ``HUNTGATHER_COSTLY_PER_SECOND``,
    ``HUNTGATHER_MAX_SOCKETS_PER_ADDRESS``, ``HUNTGATHER_MAX_WATCHERS``,
    ``HUNTGATHER_BOT_GAMES_PER_CREATOR``, ``HUNTGATHER_BUNDLE`` (0: ``--no-bundle``),
    ``HUNTGATHER_REVIEWS``, ``HUNTGATHER_REVIEW_SIMULATIONS``
    and ``HUNTGATHER_REVIEW_SAMPLES``, and for turn notifications ``HUNTGATHER_SMTP``,
    ``HUNTGATHER_MAIL_FROM``, ``HUNTGATHER_PUBLIC_URL``, ``HUNTGATHER_NOTIFY_DELAY``,
    ``HUNTGATHER_VAPID_KEY`` and ``HUNTGATHER_PUSH_SERVICE`` (comma-separated) (``huntgather
    play``'s options of the same names).

    For ``uvicorn --factory huntgather.server:app_from_env --workers 4 --ws-max-size 65536``.
    """
    db = os.environ.get("HUNTGATHER_DB")
    if not db:
        raise RuntimeError("set HUNTGATHER_DB to the database URL, e.g. postgresql://huntgather@/games")
    hosts = [h.strip() for h in os.environ.get("HUNTGATHER_ALLOW_HOST", "").split(",") if h.strip()]
    origins = [o.strip() for o in os.environ.get("HUNTGATHER_ALLOW_ORIGIN", "").split(",") if o.strip()]
    env = os.environ.get
    notify = _notify_from_env()
    app = create_app(db, notify=notify,
                     push_services=tuple(p.strip() for p in env("HUNTGATHER_PUSH_SERVICE", "").split(",")
                                         if p.strip()), bot_delay=float(env("HUNTGATHER_BOT_DELAY", "0.6")),
                     allowed_hosts=tuple(allowed_hosts("127.0.0.1", hosts)),
                     allowed_origins=tuple(origins),
                     hello_timeout=float(env("HUNTGATHER_HELLO_TIMEOUT", str(HELLO_TIMEOUT))),
                     heartbeat=float(env("HUNTGATHER_HEARTBEAT", str(HEARTBEAT))),
                     max_sockets_per_address=int(env("HUNTGATHER_MAX_SOCKETS_PER_ADDRESS",
                                                     str(MAX_SOCKETS_PER_ADDRESS))),
                     max_watchers=int(env("HUNTGATHER_MAX_WATCHERS", str(MAX_WATCHERS))),
                     presence_every=float(env("HUNTGATHER_PRESENCE_EVERY", "10")),
                     costly_per_second=float(env("HUNTGATHER_COSTLY_PER_SECOND", "5")),
                     shed_after=float(env("HUNTGATHER_SHED_AFTER", str(SHED_AFTER))),
                     bot_games_per_creator=int(env("HUNTGATHER_BOT_GAMES_PER_CREATOR",
                                                   str(BOT_GAMES_PER_CREATOR))),
                     reviews=int(env("HUNTGATHER_REVIEWS", "1")),
                     review_simulations=int(env("HUNTGATHER_REVIEW_SIMULATIONS", "150")),
                     review_samples=int(env("HUNTGATHER_REVIEW_SAMPLES", "48")),
                     review_nice=int(env("HUNTGATHER_REVIEW_NICE", "19")),
                     warm_workers=env("HUNTGATHER_WARM_WORKERS", "1") != "0",
                     bundle_client=env("HUNTGATHER_BUNDLE", "1") != "0")
    tune_gc()   # a serving process, not a test: see huntgather.server.gc_tuning
    return app


def _notify_from_env() -> NotifySettings:
    """The turn notifications' settings from the environment (checked as ``huntgather play``'s
    options are; a mistake raises RuntimeError saying which)."""
    from argparse import Namespace

    from huntgather.cli import CommandError
    from huntgather.commands.play import notify_settings

    env = os.environ.get
    try:
        args = Namespace(smtp=env("HUNTGATHER_SMTP") or None, mail_from=env("HUNTGATHER_MAIL_FROM") or None,
                         public_url=env("HUNTGATHER_PUBLIC_URL") or None,
                         notify_delay=float(env("HUNTGATHER_NOTIFY_DELAY", "300")),
                         vapid_key=env("HUNTGATHER_VAPID_KEY") or None)
        settings: NotifySettings = notify_settings(args)
    except (CommandError, ValueError) as exc:
        raise RuntimeError(f"turn notifications: {exc}") from None
    return settings
