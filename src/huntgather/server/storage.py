"""Saved games in a SQL database (SQLite by default, PostgreSQL with the same code).

A game is stored as its setup (JSON: edition, seats, start player, seed,
short-stack option) plus its full move list in text form (draws included), one
row per move.  :meth:`Storage.append` writes a turn's moves and the game's new
status in one transaction; the server acknowledges a move only after it returns.

>>> st = Storage("sqlite://")
>>> st.create("g1", {"edition": "2020"}, ["d3"])
>>> st.append("g1", 1, ["3@0,1r0", "-", "d7"], status="playing", scores=[0, 0])
>>> st.load("g1")
({'edition': '2020'}, ['d3', '3@0,1r0', '-', 'd7'])
>>> [g.id for g in st.list_games()]
['g1']
>>> st.delete("g1"), st.delete("g1"), st.load("g1")
(True, False, None)
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

metadata = MetaData()

games = Table(
    "hg_games", metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("setup", Text, nullable=False),
    Column("status", String(16), nullable=False, default="playing"),
    Column("ply", Integer, nullable=False, default=0),
    Column("scores", Text, nullable=False, default="[]"),
)

moves = Table(
    "hg_moves", metadata,
    Column("game_id", String(40), ForeignKey("hg_games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("move", String(40), nullable=False),
)


class StorageError(RuntimeError):
    """The database refused a write (e.g. a move number already stored)."""


@dataclass(frozen=True)
class GameRow:
    """One line of the saved-games list."""

    id: str
    created: float
    updated: float
    setup: dict[str, Any]
    status: str
    ply: int
    scores: list[int]


def database_url(db: str) -> str:
    """A SQLAlchemy URL from a URL or a file path.

    >>> database_url("postgresql://u@h/db")
    'postgresql://u@h/db'
    >>> database_url("/tmp/x.sqlite")
    'sqlite:////tmp/x.sqlite'
    """
    if "://" in db:
        return db
    return "sqlite:///" + str(Path(db).expanduser().resolve())


def _driver_url(url: str) -> str:
    """``postgresql://`` means psycopg2 to SQLAlchemy; use psycopg (3) when only that is installed."""
    if url.startswith(("postgresql://", "postgres://")):
        import importlib.util

        if importlib.util.find_spec("psycopg2") is None and importlib.util.find_spec("psycopg") is not None:
            return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


class Storage:
    """Games and their moves in one database."""

    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
            if self.url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
            else:
                Path(self.url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(_driver_url(self.url), **kwargs)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create(self, game_id: str, setup: dict[str, Any], history: list[str]) -> None:
        """Store a new game with the moves it already has (its first draws)."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(games).values(id=game_id, created=now, updated=now, setup=json.dumps(setup),
                                              status="playing", ply=len(history), scores="[]"))
            if history:
                conn.execute(insert(moves), [{"game_id": game_id, "ply": i, "move": m}
                                             for i, m in enumerate(history)])

    def append(self, game_id: str, start: int, new: list[str], *, status: str, scores: list[int]) -> None:
        """Add ``new`` moves from ply ``start`` on, in one transaction."""
        with self.engine.begin() as conn:
            current = conn.execute(select(games.c.ply).where(games.c.id == game_id)).scalar()
            if current is None:
                raise StorageError(f"no stored game {game_id!r}")
            if current != start:
                raise StorageError(f"game {game_id} has {current} stored moves, not {start}")
            if new:
                conn.execute(insert(moves), [{"game_id": game_id, "ply": start + i, "move": m}
                                             for i, m in enumerate(new)])
            conn.execute(update(games).where(games.c.id == game_id).values(
                ply=start + len(new), status=status, scores=json.dumps(scores), updated=time.time()))

    def load(self, game_id: str) -> tuple[dict[str, Any], list[str]] | None:
        """The setup and move list of a stored game, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games.c.setup).where(games.c.id == game_id)).first()
            if row is None:
                return None
            history = [m for (m,) in conn.execute(
                select(moves.c.move).where(moves.c.game_id == game_id).order_by(moves.c.ply))]
        setup: dict[str, Any] = json.loads(row[0])
        return setup, history

    def delete(self, game_id: str) -> bool:
        """Remove a game and its moves; False if there was no such game."""
        with self.engine.begin() as conn:
            conn.execute(delete(moves).where(moves.c.game_id == game_id))
            gone = conn.execute(delete(games).where(games.c.id == game_id)).rowcount
        return bool(gone)

    def list_games(self, limit: int = 200) -> list[GameRow]:
        """Stored games, most recently played first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(games).order_by(games.c.updated.desc()).limit(limit)).all()
        return [GameRow(r.id, r.created, r.updated, json.loads(r.setup), r.status, r.ply,
                        json.loads(r.scores)) for r in rows]

    def count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(games)).scalar() or 0)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()
