"""``huntgather backup`` and ``huntgather restore``: a copy of the games database, and back.

A SQLite database is copied with SQLite's online backup API
(:meth:`sqlite3.Connection.backup`): a consistent copy, safe while the server
runs and plays (in WAL mode it reads one snapshot and never stops the server's
writes).  The copy is checked (``PRAGMA quick_check``), is one self-contained
file (no ``-wal`` beside it), and is written under a temporary name first, so
that a half-written backup never bears the name asked for.

``restore`` copies a backup into place.  It refuses a database that a server
has open (stop the server first: its connections would go on with the old
file), and an existing database unless ``--force``; with ``--force`` the old
file is kept beside it as ``NAME.before-restore-TIME``.

PostgreSQL is dumped and restored by its own tools: ``backup`` runs
``pg_dump --format=custom`` and ``restore`` runs ``pg_restore`` where they are
installed (and says to install them where not); see ``docs/deploy.md``.

>>> parser = argparse.ArgumentParser(); sub = parser.add_subparsers()
>>> register(sub); register_restore(sub)
>>> args = parser.parse_args(["restore", "b.sqlite", "--db", "g.sqlite", "--force"])
>>> args.source, args.db, args.force
('b.sqlite', 'g.sqlite', True)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

from huntgather.cli import CommandError
from huntgather.commands.play import default_db

#: the schema revision this version writes (as :data:`huntgather.server.storage.SCHEMA`, which
#: needs the web extra's SQLAlchemy; a test keeps the two equal)
SCHEMA = "0011"


DB_HELP = ("the server's database: a SQLite file path or a postgresql://… URL "
           "(default: games.sqlite in the user data directory, as huntgather play)")


def register(sub: Any) -> None:
    """``huntgather backup`` (``huntgather restore`` is registered by :func:`register_restore`)."""
    backup = sub.add_parser(
        "backup", help="copy the games database to a file (safe while the server runs)",
        description="Copy the games database to DEST. A SQLite database is copied with SQLite's online "
                    "backup API, consistent and safe while the server plays; PostgreSQL with pg_dump "
                    "(custom format, for pg_restore or huntgather restore).")
    backup.add_argument("dest", metavar="DEST", help="the backup file to write")
    backup.add_argument("--db", default=None, metavar="URL|PATH", help=DB_HELP)
    backup.add_argument("--force", action="store_true", help="replace DEST if it exists")
    backup.set_defaults(run=run_backup)


def register_restore(sub: Any) -> None:
    restore = sub.add_parser(
        "restore", help="put a backup in place of the games database (server stopped)",
        description="Copy the backup SRC into the games database. Refuses while a server has the "
                    "database open, and refuses to replace an existing database without --force "
                    "(the old SQLite file is then kept as NAME.before-restore-TIME).")
    restore.add_argument("source", metavar="SRC", help="a file written by huntgather backup")
    restore.add_argument("--db", default=None, metavar="URL|PATH", help=DB_HELP)
    restore.add_argument("--force", action="store_true", help="replace the database that is there")
    restore.set_defaults(run=run_restore)


def _database(db: str | None) -> tuple[str, str]:
    """(``"sqlite"`` and the file, or ``"postgresql"`` and the URL) of ``--db``."""
    db = db or default_db()
    if db.startswith(("postgresql:", "postgresql+", "postgres:")):
        return "postgresql", db
    if "://" in db:
        if not db.startswith("sqlite:///") or "?" in db or db == "sqlite:///:memory:":
            raise CommandError(f"--db: only a SQLite file or a postgresql:// database can be backed up and "
                               f"restored, not {db.split('://', 1)[0]}://…", 2)
        db = db.removeprefix("sqlite:///")
    return "sqlite", str(Path(db).expanduser().resolve())


def _open(path: str, mode: str, timeout: float = 30.0) -> sqlite3.Connection:
    """A connection to the existing SQLite file ``path`` (never creating it), autocommit."""
    return sqlite3.connect(f"file:{quote(path)}?mode={mode}", uri=True, timeout=timeout,
                           isolation_level=None)


def _describe(conn: sqlite3.Connection, what: str) -> tuple[int, str]:
    """(games, schema revision) of a huntgather database; :class:`CommandError` if it is none."""
    try:
        check = conn.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise CommandError(f"{what} is damaged (SQLite's check says: {check[0] if check else '?'})", 1)
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "hg_games" not in tables:
            raise CommandError(f"{what} is a SQLite database, but not one of huntgather's games", 1)
        (games,) = conn.execute("SELECT count(*) FROM hg_games").fetchone()
        schema = "0001"
        if "alembic_version" in tables:
            row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
            schema = str(row[0]) if row else "0001"
    except sqlite3.DatabaseError:
        raise CommandError(f"{what} is not a SQLite database (or cannot be read)", 1) from None
    return int(games), schema


def _copy(source: sqlite3.Connection, dest: str, what: str) -> tuple[int, str]:
    """Copy ``source`` into a new file ``dest`` (online backup API), checked; (games, schema)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(dest)
    target = sqlite3.connect(dest, isolation_level=None)
    try:
        source.backup(target)
        target.execute("PRAGMA journal_mode=DELETE")   # one self-contained file, no -wal beside it
        return _describe(target, what)
    finally:
        target.close()


def _games(count: int) -> str:
    """>>> _games(1), _games(3)
    ('1 game', '3 games')
    """
    return f"{count} game" if count == 1 else f"{count} games"


def _os_error(exc: OSError, path: str) -> CommandError:
    return CommandError(f"{path}: {exc.strerror or exc}", 1)


def run_backup(args: argparse.Namespace) -> int:
    kind, db = _database(args.db)
    dest = str(Path(args.dest).expanduser().resolve())
    if os.path.isdir(dest):
        raise CommandError(f"{args.dest} is a folder: name the backup file, e.g. {args.dest}/games.sqlite", 2)
    if os.path.exists(dest) and not args.force:
        raise CommandError(f"{args.dest} exists already; add --force to replace it", 1)
    if kind == "postgresql":
        return _pg_dump(db, dest)
    if not os.path.isfile(db):
        raise CommandError(f"there is no database at {db}", 1)
    if dest == db:
        raise CommandError("the backup must go to another file than the database", 2)
    part = dest + ".part"
    try:
        source = _open(db, "ro")
    except sqlite3.DatabaseError:
        raise CommandError(f"{db} cannot be opened", 1) from None
    try:
        games, schema = _copy(source, part, f"the copy of {db}")
        os.replace(part, dest)
    except OSError as exc:
        raise _os_error(exc, args.dest) from None
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc):
            raise CommandError(f"{db} is not a SQLite database", 1) from None
        raise CommandError(f"{db} could not be copied (SQLite refused to read it or to write "
                           f"{args.dest})", 1) from None
    finally:
        source.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(part)
    print(f"huntgather: backed up {_games(games)} (schema {schema}) from {db} to {dest}")
    return 0


def run_restore(args: argparse.Namespace) -> int:
    kind, db = _database(args.db)
    source_path = str(Path(args.source).expanduser().resolve())
    if not os.path.isfile(source_path):
        raise CommandError(f"there is no backup at {args.source}", 1)
    if kind == "postgresql":
        return _pg_restore(db, source_path, args.force)
    if source_path == db:
        raise CommandError("the backup and the database are the same file", 2)
    try:
        source = _open(source_path, "ro")
        games, schema = _describe(source, args.source)
    except sqlite3.DatabaseError:
        raise CommandError(f"{args.source} is not a SQLite database (or cannot be read)", 1) from None
    try:
        if schema > SCHEMA:
            raise CommandError(f"{args.source} was written by a newer huntgather (schema {schema}; this "
                               f"version knows up to {SCHEMA}): restore it with that version", 1)
        with _unused(db, args.force):
            part = db + ".restoring"
            try:
                Path(db).parent.mkdir(parents=True, exist_ok=True)
                _copy(source, part, "the restored copy")
                os.replace(part, db)
            except OSError as exc:
                raise _os_error(exc, db) from None
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(part)
    finally:
        source.close()
    print(f"huntgather: restored {_games(games)} (schema {schema}) from {source_path} into {db}; "
          f"start the server with --db {db}")
    return 0


@contextlib.contextmanager
def _unused(db: str, force: bool) -> Any:
    """While the block runs: ``db`` is not in use (a server would hold it open) and may be replaced.

    A database in WAL mode (as the server keeps it) can be switched back to a rollback journal
    only by its one connection: if another has it open the switch fails, and so that is the test.
    The switch also folds the ``-wal`` file into the database, so no stale one is left to be
    read with the restored file.  The old file is then held (an exclusive lock, so that a server
    starting meanwhile waits) and moved aside.
    """
    if not os.path.exists(db):
        for extra in ("-wal", "-shm", "-journal"):   # left by a file deleted by hand: not to be read
            with contextlib.suppress(FileNotFoundError):
                os.unlink(db + extra)
        yield
        return
    try:
        old = _open(db, "rw", timeout=0)
    except sqlite3.DatabaseError:
        raise CommandError(f"{db} cannot be opened to be replaced", 1) from None
    try:
        try:
            old.execute("PRAGMA journal_mode=DELETE").fetchone()
            old.execute("BEGIN EXCLUSIVE")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise CommandError(f"the database {db} is in use (a server has it open): stop the server "
                                   f"first, then restore", 1) from None
            raise CommandError(f"{db} is not a SQLite database; it is not replaced", 1) from None
        except sqlite3.DatabaseError:
            raise CommandError(f"{db} is not a SQLite database; it is not replaced", 1) from None
        if not force:
            games = old.execute("SELECT count(*) FROM hg_games").fetchone()[0] if _has_games(old) else 0
            raise CommandError(f"there is already a database at {db} ({_games(games)}): add --force to "
                               f"replace it (the old file is kept beside it)", 1)
        aside = f"{db}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}"
        try:
            os.rename(db, aside)
        except OSError as exc:
            raise _os_error(exc, db) from None
        print(f"huntgather: the old database is kept as {aside}")
        yield
    finally:
        with contextlib.suppress(sqlite3.Error):
            old.execute("ROLLBACK")
        old.close()


def _has_games(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'hg_games'").fetchone() \
        is not None


# --------------------------------------------------------------------------- PostgreSQL


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """A URL for PostgreSQL's own programs (no SQLAlchemy driver, no password) and their environment
    (the password as ``PGPASSWORD``, never on a command line others can read)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    env = dict(os.environ)
    if parsed.password is not None:
        env["PGPASSWORD"] = str(parsed.password)
    plain = parsed.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise CommandError(f"{name} was not found: install PostgreSQL's client programs (e.g. "
                           f"apt install postgresql-client), or run {name} yourself (docs/deploy.md)", 1)
    return found


def _run_tool(cmd: list[str], env: dict[str, str], what: str) -> None:
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = [line for line in done.stderr.splitlines() if line.strip()]
        raise CommandError(f"{what} failed: {said[-1] if said else f'exit status {done.returncode}'}", 1)


def _pg_dump(url: str, dest: str) -> int:
    tool = _tool("pg_dump")
    libpq, env = _libpq(url)
    part = dest + ".part"
    try:
        _run_tool([tool, "--format=custom", "--no-owner", "--file", part, "--dbname", libpq], env, "pg_dump")
        os.replace(part, dest)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(part)
    print(f"huntgather: backed up the database to {dest} (pg_dump, custom format)")
    return 0


def _pg_restore(url: str, source: str, force: bool) -> int:
    tool = _tool("pg_restore")
    from sqlalchemy import create_engine, text

    from huntgather.server.storage import _driver_url

    engine = create_engine(_driver_url(url))
    try:
        with engine.connect() as conn:
            others = conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                                       "current_database() AND pid <> pg_backend_pid()")).scalar() or 0
            has_games = conn.execute(text("SELECT to_regclass('hg_games') IS NOT NULL")).scalar()
    except Exception as exc:
        raise CommandError(f"the database cannot be reached ({type(exc).__name__})", 1) from None
    finally:
        engine.dispose()
    if others:
        raise CommandError(f"the database is in use ({others} other connections): stop the servers first, "
                           f"then restore", 1)
    if has_games and not force:
        raise CommandError("the database already holds games: add --force to replace them", 1)
    libpq, env = _libpq(url)
    _run_tool([tool, "--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error",
               "--dbname", libpq, source], env, "pg_restore")
    print(f"huntgather: restored {source} into the database (pg_restore)")
    return 0
