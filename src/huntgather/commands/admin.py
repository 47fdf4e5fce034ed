"""``huntgather admin``: the accounts of a server's database, for its operator.

``list`` shows every person's account; ``reset-password NAME`` sets a new password (printed, or
read from standard input with ``--stdin``) and ends the account's sessions; ``disable NAME``
stops an account signing in and ends its sessions, ``enable NAME`` lets it sign in again;
``delete NAME`` removes its personal data as ``DELETE /api/me`` does (docs/accounts.md);
``secure-old-games`` gives the games stored before seats had secrets (open to any page) new
secrets and prints their links; ``recompute`` replays every rated game, in the order it was
rated, from the starting ratings (:func:`huntgather.server.ratings.recompute`) and stores the
ratings that gives, or with ``--check`` changes nothing and exits 1 if they differ.
The database is given as to ``huntgather play`` (``--db``; a server may be running on it).

A subcommand is a function ``run(args, accounts) -> int`` and one :func:`add` call in
:func:`register`: the parser, the ``--db`` option and the opening of the database come with it.

>>> parser = argparse.ArgumentParser(); sub = parser.add_subparsers()
>>> register(sub)
>>> args = parser.parse_args(["admin", "reset-password", "Ann Lee", "--stdin", "--db", "g.sqlite"])
>>> args.name, args.stdin, args.db, args.action.__name__
('Ann Lee', True, 'g.sqlite', 'reset_password')
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from huntgather.cli import CommandError

if TYPE_CHECKING:
    from huntgather.server.accounts import Account, Accounts

Action = Callable[[argparse.Namespace, "Accounts"], int]

DB_HELP = ("the server's database: a SQLite file path or a postgresql://… URL "
           "(default: games.sqlite in the user data directory, as huntgather play)")


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "admin", help="manage the accounts of a server's database",
        description="Manage the accounts stored in a server's database: list them, set a new "
                    "password, disable, enable or delete one.")
    actions = parser.add_subparsers(dest="admin_command", metavar="ACTION")
    parser.set_defaults(run=lambda args: _usage(parser))
    add(actions, "list", "list every person's account", list_accounts)
    reset = add(actions, "reset-password", "set a new password (printed) and end the account's sessions",
                reset_password, name=True)
    reset.add_argument("--stdin", action="store_true",
                       help="read the new password from the first line of standard input instead")
    add(actions, "disable", "stop the account signing in, and end its sessions", disable, name=True)
    add(actions, "enable", "let a disabled account sign in again", enable, name=True)
    add(actions, "delete", "delete the account's personal data (its games stay, under 'deleted player')",
        delete, name=True)
    add(actions, "secure-old-games", "give every game stored before seats had secrets (open to any "
                                     "page) new secrets, and print their links", secure_old_games)
    recompute = add(actions, "recompute", "recompute every rating from the rated games, in the order "
                                          "they were rated (the ratings are a function of the games)",
                    recompute_ratings)
    recompute.add_argument("--check", action="store_true",
                           help="only compare: change nothing, exit 1 if the stored ratings differ")


def add(actions: Any, command: str, help_text: str, action: Action, *, name: bool = False
        ) -> argparse.ArgumentParser:
    """Add the subcommand ``command`` doing ``action``; with ``name``, it takes an account's NAME."""
    parser: argparse.ArgumentParser = actions.add_parser(command, help=help_text, description=help_text)
    if name:
        parser.add_argument("name", metavar="NAME",
                            help="the account's name (compared folded, as at sign-in)")
    parser.add_argument("--db", default=None, metavar="URL|PATH", help=DB_HELP)
    parser.set_defaults(run=_runner, action=action)
    return parser


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _runner(args: argparse.Namespace) -> int:
    """Open the database and its accounts, then run the subcommand's action."""
    from huntgather.commands.play import _reason, default_db
    try:
        from huntgather.server.accounts import Accounts
        from huntgather.server.storage import Storage
    except ImportError as exc:
        raise CommandError(f"the web extra is needed: pip install 'huntgather[web]' ({exc.name})",
                           1) from None
    db = args.db or default_db()
    try:
        storage = Storage(db)
    except Exception as exc:
        raise CommandError(f"cannot open the database: {_reason(exc)}", 1) from None
    try:
        action: Action = args.action
        return action(args, Accounts(storage))
    finally:
        storage.close()


def _person(accounts: Accounts, name: str) -> Account:
    from huntgather.server.account_tables import AccountKind
    account = accounts.by_name(name)
    if account is None or account.kind != AccountKind.PERSON:
        raise CommandError(f"no account is named {name!r}", 1)
    return account


def list_accounts(args: argparse.Namespace, accounts: Accounts) -> int:
    rows = accounts.people()
    print(f"{'id':>6}  {'name':<24}  {'state':<8}  {'sign-in':<17}  {'sessions':>8}  created")
    for account, created, sessions in rows:
        state = "deleted" if account.deleted else "disabled" if account.disabled else "active"
        passkeys = accounts.passkey_count(account.id)
        ways = ", ".join(w for w in ("password" if account.has_password else "",
                                     f"{passkeys} passkey{'s' if passkeys != 1 else ''}" if passkeys else "")
                         if w) or "none"
        when = time.strftime("%Y-%m-%d", time.gmtime(created))
        print(f"{account.id:>6}  {account.name:<24}  {state:<8}  {ways:<17}  {sessions:>8}  {when}")
    print(f"{len(rows)} account{'s' if len(rows) != 1 else ''}")
    return 0


def reset_password(args: argparse.Namespace, accounts: Accounts) -> int:
    from huntgather.server.accounts import check_password_text
    from huntgather.server.seats import RequestError
    account = _person(accounts, args.name)
    # from standard input, or 96 random bits (16 characters)
    password = sys.stdin.readline().rstrip("\r\n") if args.stdin else secrets.token_urlsafe(12)
    try:
        check_password_text(password)
    except RequestError as exc:
        raise CommandError(exc.message, 2) from None
    accounts.set_password(account.id, password)
    ended = accounts.end_sessions(account.id)
    if not args.stdin:
        print(password)
    print(f"{account.name}: new password set; {ended} session{'s' if ended != 1 else ''} ended",
          file=sys.stderr)
    return 0


def disable(args: argparse.Namespace, accounts: Accounts) -> int:
    account = _person(accounts, args.name)
    accounts.set_disabled(account.id, True)
    print(f"{account.name}: disabled (it cannot sign in; its sessions ended)")
    return 0


def enable(args: argparse.Namespace, accounts: Accounts) -> int:
    account = _person(accounts, args.name)
    accounts.set_disabled(account.id, False)
    print(f"{account.name}: enabled")
    return 0


def delete(args: argparse.Namespace, accounts: Accounts) -> int:
    account = _person(accounts, args.name)
    playing = accounts.delete(account.id)
    print(f"{account.name}: deleted (its personal data removed; {len(playing)} game"
          f"{'s' if len(playing) != 1 else ''} in play go on under 'deleted player')")
    return 0


def recompute_ratings(args: argparse.Namespace, accounts: Accounts) -> int:
    """Replay every rated game from the starting ratings (:func:`huntgather.server.ratings.recompute`);
    store what that gives, or with ``--check`` only say whether the stored ratings differ."""
    from huntgather.server.ratings import recompute
    found = recompute(accounts.storage, write=not args.check)
    what = (f"{found.events_changed} rating events and {found.ratings_changed} ratings differ"
            if found.changed else "every stored rating is what the games give")
    print(f"{found.games} rated games replayed: {what}"
          + (" (rewritten)" if found.changed and not args.check else ""))
    return 1 if args.check and found.changed else 0


def secure_old_games(args: argparse.Namespace, accounts: Accounts) -> int:
    """Games stored before seats had secrets (schema 0001) are open to any page: each gets a
    creator's secret and one per person seat, stored hashed as a new game's are; their links
    are printed (only here, once) for the operator to hand to the players."""
    from huntgather.server.seats import SeatKind, hash_secret, new_secret
    from huntgather.server.storage import SeatRow

    storage = accounts.storage
    found = storage.open_games()
    for game_id, setup in found:
        if not isinstance(setup.get("seats"), list) or not setup["seats"]:
            print(f"game {game_id}: its stored setup cannot be read; left as it is")
            continue
        creator = new_secret()
        seat_secrets: dict[int, str] = {}
        rows = []
        for i, seat in enumerate(setup.get("seats", [])):
            if seat.get("kind") == SeatKind.BOT:
                rows.append(SeatRow(i, str(SeatKind.BOT), seat.get("level") or "easy", None, None, True))
            else:   # a person seat (the only other kind before secrets)
                seat_secrets[i] = new_secret()
                rows.append(SeatRow(i, str(SeatKind.HUMAN), None, None, hash_secret(seat_secrets[i]), False))
        if not storage.secure(game_id, rows, hash_secret(creator)):
            continue   # secured meanwhile (another run)
        print(f"game {game_id}: creator's secret {creator}")
        for i, secret in seat_secrets.items():
            print(f"  seat {i}: /#/play/{game_id}/{secret}")
    print(f"{len(found)} game{'s' if len(found) != 1 else ''} stored before seats had secrets "
          f"{'were' if len(found) != 1 else 'was'} given secrets")
    return 0
