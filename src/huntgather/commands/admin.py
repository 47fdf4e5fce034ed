"""``huntgather admin``: look after a server's accounts and ratings.

``huntgather admin recompute`` replays every rated game, in the order it was rated, from the
starting ratings (:func:`huntgather.server.ratings.recompute`) and makes the stored ratings
what that gives; with ``--check`` it changes nothing and exits 1 if they differ.

>>> parser = argparse.ArgumentParser(); sub = parser.add_subparsers()
>>> register(sub)
>>> args = parser.parse_args(["admin", "recompute", "--db", "g.sqlite", "--check"])
>>> args.action, args.db, args.check
('recompute', 'g.sqlite', True)
"""

from __future__ import annotations

import argparse
from typing import Any

from huntgather.cli import CommandError
from huntgather.commands.backup import DB_HELP
from huntgather.commands.play import default_db


def register(sub: Any) -> None:
    admin = sub.add_parser("admin", help="look after the server's accounts and ratings",
                           description="Look after the accounts and ratings in a server's database.")
    actions = admin.add_subparsers(dest="action", metavar="ACTION", required=True)
    register_recompute(actions)


def register_recompute(actions: Any) -> None:
    """``huntgather admin recompute [--check]``."""
    recompute = actions.add_parser(
        "recompute", help="recompute every rating from the rated games",
        description="Replay every rated game, in the order it was rated, from the starting ratings, "
                    "and store the ratings that gives (the ratings are a function of the games). "
                    "With --check, change nothing and exit 1 if the stored ratings differ.")
    recompute.add_argument("--db", default=None, metavar="URL|PATH", help=DB_HELP)
    recompute.add_argument("--check", action="store_true",
                           help="only compare: exit 1 if the stored ratings differ, 0 if not")
    recompute.set_defaults(run=run_recompute)


def run_recompute(args: argparse.Namespace) -> int:
    try:
        from huntgather.server.ratings import recompute
        from huntgather.server.storage import Storage
    except ImportError as exc:
        raise CommandError(f"the server's packages are missing ({exc.name}): pip install 'huntgather[web]'",
                           1) from None
    storage = Storage(args.db or str(default_db()))
    try:
        found = recompute(storage, write=not args.check)
    finally:
        storage.close()
    what = (f"{found.events_changed} rating events and {found.ratings_changed} ratings differ"
            if found.changed else "every stored rating is what the games give")
    print(f"{found.games} rated games replayed: {what}"
          + (" (rewritten)" if found.changed and not args.check else ""))
    return 1 if args.check and found.changed else 0
