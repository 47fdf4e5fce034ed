"""Storage that fails clearly and recovers: migrations, a newer schema, damaged rows.

``tests/data/games-layout1.sqlite`` was written by the release before online
play (commit 8b5a461) with its own ``Storage`` and ``build_game``: a finished
2-player game, a 3-player game in progress with a bot, and a 2002 game just
started.  It has the first table layout and no ``alembic_version``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import sqlite3
import warnings
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("alembic")
pytest.importorskip("starlette")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from huntgather.cli import main as cli_main
from huntgather.server import create_app
from huntgather.server.rooms import GameSetup, restore_game
from huntgather.server.storage import SCHEMA, SchemaError, Storage, _driver_url, move_notice

FIXTURE = Path(__file__).parent / "data" / "games-layout1.sqlite"


def old_rows(db: Path) -> dict[str, tuple[dict[str, object], list[str], list[int], str]]:
    """Each game of an old database read with plain SQL: setup, moves, scores, status."""
    with sqlite3.connect(db) as conn:
        games = conn.execute("SELECT id, setup, scores, status FROM hg_games").fetchall()
        return {gid: (json.loads(setup),
                      [m for (m,) in conn.execute("SELECT move FROM hg_moves WHERE game_id = ? ORDER BY ply",
                                                  (gid,))],
                      json.loads(scores), status)
                for gid, setup, scores, status in games}


def test_a_database_of_the_first_layout_is_upgraded_and_loses_no_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    shutil.copy(FIXTURE, db)
    before = old_rows(db)
    assert set(before) == {"oldfinished", "oldplaying", "old2002"}
    storage = Storage(str(db))
    assert storage.schema == "0001"   # recognised as the first layout, then upgraded
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == (SCHEMA,)
    for gid, (_setup, moves, scores, _status) in before.items():
        stored = storage.load(gid)
        assert stored is not None and stored.history == moves and stored.seats == []
        game = restore_game(GameSetup.from_json(stored.setup, stored=True), stored.history)
        assert list(game.scores) == (scores or [0] * game.players)   # a game with no turn yet stored []
    storage.close()
    assert Storage(str(db)).schema == SCHEMA   # a second start changes nothing
    # the server serves them all: the finished one as it ended, the others playable
    with TestClient(create_app(str(db), bot_delay=0.0)) as c:
        for gid, (_setup, moves, scores, status) in before.items():
            view = c.get(f"/api/games/{gid}").json()
            assert view["version"] == len(moves)
            assert [p["score"] for p in view["players"]] == (scores or [0] * len(view["players"]))
            assert view["over"] is (status == "over")
        listed = c.get("/api/games?ids=oldfinished,oldplaying,old2002").json()["games"]
        assert sorted(g["id"] for g in listed) == sorted(before)


def test_a_database_of_a_newer_huntgather_is_refused_and_left_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite"
    Storage(str(db)).close()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    with pytest.raises(SchemaError, match="newer huntgather"):
        Storage(str(db))
    assert cli_main(["play", "--db", str(db), "--no-browser", "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert "newer huntgather" in err and "Traceback" not in err
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == ("9999",)


def test_a_damaged_row_affects_only_its_own_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    shutil.copy(FIXTURE, db)
    Storage(str(db)).close()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE hg_games SET setup = '{not json' WHERE id = 'oldplaying'")
        conn.execute("UPDATE hg_moves SET move = 'zzz' WHERE game_id = 'old2002'")
    with TestClient(create_app(str(db), bot_delay=0.0)) as c:
        for gid in ("oldplaying", "old2002"):
            r = c.get(f"/api/games/{gid}")
            assert r.status_code == 500 and r.json()["code"] == "corrupt_game"
            assert "zzz" not in r.text and "Traceback" not in r.text
        assert c.get("/api/games/oldfinished").status_code == 200
        listed = {g["id"]: g["status"] for g in c.get("/api/games?ids=oldfinished,oldplaying,old2002")
                  .json()["games"]}
        assert listed == {"oldfinished": "over", "oldplaying": "damaged", "old2002": "playing"}
        made = c.post("/api/games", json={"seats": [{"kind": "human"}] * 2})
        assert made.status_code == 201   # new games are unaffected


def test_the_writer_commits_together_and_a_bad_write_undoes_only_itself(tmp_path: Path) -> None:
    import asyncio

    from sqlalchemy import insert

    from huntgather.server.storage import ConflictError, moves

    storage = Storage(str(tmp_path / "games.sqlite"))
    for gid in ("a", "b", "c"):
        storage.create(gid, {"edition": "2020"}, ["d1"])

    def half_then_fail(conn: object, game_id: str) -> None:
        conn.execute(insert(moves).values(game_id=game_id, ply=1, move="1@0,1r0"))  # type: ignore[attr-defined]
        raise RuntimeError("failed after writing")

    async def at_once() -> list[object]:
        return await asyncio.gather(
            storage.append_async("a", 1, ["1@0,1r0", "-"], status="playing", scores=[0, 0]),
            storage.write(half_then_fail, "b"),
            storage.append_async("c", 5, ["-"], status="playing", scores=[0, 0]),   # a conflict
            storage.append_async("c", 1, ["2@0,1r0"], status="playing", scores=[0, 0]),
            return_exceptions=True)

    results = asyncio.run(at_once())
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], RuntimeError) and isinstance(results[2], ConflictError)
    assert storage.load("a").history == ["d1", "1@0,1r0", "-"]  # type: ignore[union-attr]
    assert storage.load("b").history == ["d1"]   # its half-write was undone  # type: ignore[union-attr]
    assert storage.load("c").history == ["d1", "2@0,1r0"]  # type: ignore[union-attr]
    storage.close()


def test_an_in_memory_database_serves_the_writer_and_direct_reads_from_other_threads_at_once() -> None:
    """The one connection of an in-memory database is lent to one thread at a time: the writer's
    transactions and a sweep's or a request's own transactions from other threads never nest."""
    import threading

    storage = Storage("sqlite://")
    failures: list[BaseException] = []
    games_per_thread = 150

    def create_and_count(prefix: str) -> None:
        try:
            for i in range(games_per_thread):
                storage.create(f"{prefix}{i}", {"edition": "2020"}, ["d1"])   # a transaction of its own
                storage.count()                                                # a read beside it
        except BaseException as exc:   # reported by the assertion below
            failures.append(exc)

    async def through_the_writer() -> None:
        for i in range(games_per_thread):
            await storage.create_async(f"w{i}", {"edition": "2020"}, ["d1"])

    threads = [threading.Thread(target=create_and_count, args=(p,)) for p in "ab"]
    for t in threads:
        t.start()
    asyncio.run(through_the_writer())
    for t in threads:
        t.join()
    assert failures == []
    assert storage.count() == 3 * games_per_thread     # not one write rolled back by another's return
    storage.close()


POSTGRES = os.environ.get("HUNTGATHER_TEST_POSTGRES")


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL to test PostgreSQL"))])
def test_moves_of_many_games_are_written_by_one_statement_per_table_and_a_conflict_fails_alone(
        tmp_path: Path, kind: str) -> None:
    import threading
    import uuid
    from concurrent.futures import Future

    from sqlalchemy import event

    from huntgather.server.storage import ConflictError

    storage = Storage(str(tmp_path / "games.sqlite") if kind == "sqlite" else str(POSTGRES))
    a, b, c = (f"{name}-{uuid.uuid4().hex[:8]}" for name in "abc")   # PostgreSQL's database is shared
    for gid in (a, b, c):
        storage.create(gid, {"edition": "2020"}, ["d1"])
    heard: list[str] = []
    all_heard = threading.Event()

    def ours(payload: str) -> bool:   # (other tests share the channel, some with text that is no notice)
        mine = any(f'"{gid}"' in payload for gid in (a, b, c))
        return mine and json.loads(payload).get("game") in (a, b, c)

    def hear(payload: str) -> None:
        heard.append(payload)
        if len([p for p in heard if ours(p)]) >= 5:
            all_heard.set()

    # another process listens (a process does not hear its own writer's notifications)
    other = Storage(str(POSTGRES)) if storage.shared else None
    listening = threading.Event()
    stop_listening = other.listen(hear, lambda: None, listening.set) if other is not None else None
    assert listening.wait(10) if other is not None else True
    calls: list[tuple[str, Any, bool]] = []   # each call into the driver: its verb, parameters, many

    def executing(_conn: Any, _cursor: Any, sql: str, params: Any, _context: Any, many: bool) -> None:
        calls.append((sql.split()[0], params, many))

    event.listen(storage.engine, "before_cursor_execute", executing)

    def call(gid: str, start: int, new: list[str]) -> tuple[Any, tuple[Any, ...], Future[Any]]:
        return (storage._append, (gid, start, new, "playing", [0, 0]), Future())

    batch = [call(a, 1, ["1@0,1r0", "-"]), call(b, 1, ["-"]), call(c, 1, ["2@0,1r0"])]
    storage._writer._commit(batch)
    assert [future.result() for _fn, _args, future in batch] == [None, None, None]
    statements = [verb for verb, _params, _many in calls]
    if storage.shared:   # PostgreSQL: update, insert and notifications of all three in one statement
        assert statements == ["WITH"]
    else:
        assert statements.count("UPDATE") == 1 and statements.count("INSERT") == 1
        # SQLite: the four moves' rows in one statement, not an executemany of four (each row of
        # which would be two calls into SQLite, each giving up the GIL; see _insert_moves_sql)
        assert [(params, many) for verb, params, many in calls if verb == "INSERT"] == [
            ((a, 1, "1@0,1r0", a, 2, "-", b, 1, "-", c, 1, "2@0,1r0"), False)]
    # b is at 2 moves, not 7: its call fails alone, the others are stored
    batch = [call(a, 3, ["d4"]), call(b, 7, ["-"]), call(c, 2, ["-", "d9"])]
    storage._writer._commit(batch)
    assert batch[0][2].result() is None and batch[2][2].result() is None
    assert isinstance(batch[1][2].exception(), ConflictError)
    assert [storage.load(g).history for g in (a, b, c)] == [  # type: ignore[union-attr]
        ["d1", "1@0,1r0", "-", "d4"], ["d1", "-"], ["d1", "2@0,1r0", "-", "d9"]]
    if stop_listening is not None:   # every stored append was announced, with the game's new
        assert all_heard.wait(5)     # version, where it started and the moves themselves
        assert sorted(p for p in heard if ours(p)) == sorted(
            [move_notice(a, 1, ["1@0,1r0", "-"]), move_notice(b, 1, ["-"]), move_notice(c, 1, ["2@0,1r0"]),
             move_notice(a, 3, ["d4"]), move_notice(c, 2, ["-", "d9"])])
        stop_listening()
    if other is not None:
        other.close()
    storage.close()


def test_a_long_run_of_moves_goes_to_sqlite_in_statements_of_at_most_500_rows(tmp_path: Path) -> None:
    from sqlalchemy import event

    from huntgather.server import storage as storage_module

    storage = Storage(str(tmp_path / "games.sqlite"))
    history = [f"d{i}" for i in range(1101)]   # (SQLite takes at most 32,766 parameters a statement)
    inserts: list[int] = []

    def executing(_conn: Any, _cursor: Any, sql: str, params: Any, _context: Any, many: bool) -> None:
        if sql.startswith("INSERT INTO hg_moves"):
            inserts.append(len(params) // 3)

    event.listen(storage.engine, "before_cursor_execute", executing)
    storage.create("long", {"edition": "2020"}, history)
    assert inserts == [storage_module._MOVES_A_STATEMENT] * 2 + [101]
    assert storage.load("long").history == history  # type: ignore[union-attr]
    storage.close()


@pytest.mark.skipif(not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL")
def test_notifications_wait_for_the_writes_of_their_batch_and_go_out_as_one_statement() -> None:
    import threading
    import uuid
    from concurrent.futures import Future

    from sqlalchemy import event

    storage = Storage(str(POSTGRES))
    a, b = (f"{name}-{uuid.uuid4().hex[:8]}" for name in "ab")
    for gid in (a, b):
        storage.create(gid, {"edition": "2020"}, ["d1"])
    heard: list[str] = []
    done = threading.Event()

    def hear(payload: str) -> None:
        if a in payload or b in payload:
            heard.append(payload)
            if len(heard) == 4:
                done.set()

    other = Storage(str(POSTGRES))   # another process listens
    listening = threading.Event()
    stop_listening = other.listen(hear, lambda: None, listening.set)
    assert listening.wait(10)
    statements: list[str] = []
    event.listen(storage.engine, "before_cursor_execute",
                 lambda _conn, _cursor, sql, *_rest: statements.append(sql.split()[0]))

    def call(fn: Any, *args: Any) -> tuple[Any, tuple[Any, ...], Future[Any]]:
        return (fn, args, Future())

    # one batch as the writer takes it from its queue: presence notices between two games' moves
    batch = [call(storage._append, a, 1, ["-"], "playing", [0, 0]),
             call(storage._notify, f"presence {a} p1 0 1"),
             call(storage._append, b, 1, ["-"], "playing", [0, 0]),
             call(storage._notify, f"presence {b} p1 - 2")]
    storage._writer._commit(batch)
    assert [future.result() for _fn, _args, future in batch] == [None] * 4
    assert done.wait(5)
    # the two appends as one statement, then the two notifications as one
    assert statements == ["WITH", "SELECT"]
    assert sorted(heard) == sorted([move_notice(a, 1, ["-"]), move_notice(b, 1, ["-"]),
                                    f"presence {a} p1 0 1", f"presence {b} p1 - 2"])
    stop_listening()
    other.close()
    storage.close()


@pytest.mark.skipif(not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL")
def test_a_process_does_not_hear_its_own_writers_notifications() -> None:
    # Two processes on one database: each writes a move through its writer; each hears only the
    # other's notification (its own would only wake its event loop to find nothing new).
    import threading
    import uuid

    first, second = Storage(str(POSTGRES)), Storage(str(POSTGRES))
    a, b = (f"{name}-{uuid.uuid4().hex[:8]}" for name in "ab")
    first.create(a, {"edition": "2020"}, ["d1"])
    first.create(b, {"edition": "2020"}, ["d1"])
    heard: dict[str, list[str]] = {"first": [], "second": []}
    both = threading.Event()

    marks = {"first": threading.Event(), "second": threading.Event()}

    def hear(who: str) -> Any:
        def callback(payload: str) -> None:
            if payload.startswith('{"mark"') and json.loads(payload).get("mark") == a:
                marks[who].set()
            elif a in payload or b in payload:
                heard[who].append(payload)
                if heard["first"] and heard["second"]:
                    both.set()
        return callback

    listening = [threading.Event(), threading.Event()]
    stops = [first.listen(hear("first"), lambda: None, listening[0].set),
             second.listen(hear("second"), lambda: None, listening[1].set)]
    assert all(event.wait(10) for event in listening)
    asyncio.run(first.append_async(a, 1, ["-"], status="playing", scores=[0, 0]))
    asyncio.run(second.append_async(b, 1, ["-"], status="playing", scores=[0, 0]))
    assert both.wait(5)
    # PostgreSQL delivers notifications in the order their transactions committed: once each
    # process hears a mark the other sent after both moves, a wrongly delivered notification of
    # its own move would have come before it
    asyncio.run(second.notify_async(json.dumps({"mark": a, "from": "second"})))
    asyncio.run(first.notify_async(json.dumps({"mark": a, "from": "first"})))
    assert marks["first"].wait(5) and marks["second"].wait(5)
    assert heard == {"first": [move_notice(b, 1, ["-"])], "second": [move_notice(a, 1, ["-"])]}
    assert first._writer.backend_pid is not None and first._writer.backend_pid != second._writer.backend_pid
    for stop in stops:
        stop()
    first.close()
    second.close()
    assert first._writer.backend_pid is None   # cleared when the writer let its connection go


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL to test PostgreSQL"))])
def test_each_write_stores_the_position_it_leads_to(tmp_path: Path, kind: str) -> None:
    import uuid

    from huntgather.record import load_position, write_position
    from huntgather.server.rooms import build_game

    storage = Storage(str(tmp_path / "games.sqlite") if kind == "sqlite" else str(POSTGRES))
    setup = GameSetup.from_json({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 5})
    game = build_game(setup)
    gid = f"pos-{uuid.uuid4().hex[:8]}"
    storage.create(gid, setup.to_json(), [str(m) for m in game.history], position=write_position(game.state))
    stored = storage.load(gid)
    assert stored is not None and load_position(str(stored.position)) == game.state
    start = len(game.history)
    game.play(game.legal_moves()[0])
    game.play(game.legal_moves()[-1])   # the placement, then the occupant (or none), then the draw
    new = [str(m) for m in game.history[start:]]
    # through the writer, whose bulk form stores the moves of many games at once
    storage._writer._commit([(storage._append, (gid, start, new, "playing", list(game.scores),
                                                write_position(game.state)), Future())])
    stored = storage.load(gid)
    assert stored is not None and stored.history == [str(m) for m in game.history]
    assert load_position(str(stored.position)) == game.state
    storage.close()


def test_a_game_whose_moves_no_longer_replay_goes_on_from_its_stored_position(tmp_path: Path) -> None:
    """A game stored by another version of huntgather whose moves this one would not replay (here:
    a stored placement changed behind its back) is continued from its position, not lost."""
    from huntgather.record import write_position
    from huntgather.server.rooms import build_game

    db = tmp_path / "games.sqlite"
    storage = Storage(str(db))
    setup = GameSetup.from_json({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 7})
    game = build_game(setup)
    for _ in range(6):
        game.play(game.legal_moves()[0])
    history = [str(m) for m in game.history]
    storage.create("moved", setup.to_json(), history, position=write_position(game.state))
    storage.create("lost", setup.to_json(), history)   # stored with no position, as before revision 0003
    place = next(i for i, m in enumerate(history) if "@" in m)
    with sqlite3.connect(db) as conn:   # the first placement now reads as a tile rotated wrongly
        for gid in ("moved", "lost"):
            conn.execute("UPDATE hg_moves SET move = ? WHERE game_id = ? AND ply = ?",
                         (history[place].replace("@0,", "@9,"), gid, place))
    stored = storage.load("moved")
    assert stored is not None
    setup = GameSetup.from_json(stored.setup, stored=True)
    again = restore_game(setup, stored.history, None, stored.position)
    assert again.state == game.state and again.events == [] and len(again.history) == len(history)
    storage.close()
    with TestClient(create_app(str(db), bot_delay=0.0)) as c:
        view = c.get("/api/games/moved").json()
        assert view["version"] == len(history) and [p["score"] for p in view["players"]] == list(game.scores)
        answer = c.get("/api/games/lost")
        assert answer.status_code == 500 and answer.json()["code"] == "corrupt_game"


def test_a_stored_position_is_the_game_even_where_the_moves_replay_otherwise() -> None:
    """Under a huntgather whose rules differ from the one that stored a game, its moves may replay
    to another position: the stored one wins (nobody's score changes under them), and the log of
    what came before is left out.  A seeded deal's replay wins instead: its draws follow its seed."""
    from huntgather.record import write_position
    from huntgather.server.rooms import build_game

    for deal in ("secret", "seeded"):
        setup = GameSetup.from_json({"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 7,
                                     "deal": deal}, stored=True)
        game = build_game(setup, random.Random(5))   # the secret deal's draws: fixed for the test
        for _ in range(6):
            game.play(game.legal_moves()[0])
        history = [str(m) for m in game.history]
        # seat 1's score doctored to 41 (a score line of its own, if it has one, taken out first)
        lines = [line for line in write_position(game.state).split("\n") if not line.startswith("score 1 ")]
        stored = "\n".join(lines).replace("\nplayer ", "\nscore 1 41\nplayer ", 1)
        stored_setup = GameSetup.from_json(setup.to_json(), stored=True)
        again = restore_game(stored_setup, history, None, stored)
        if deal == "secret":
            assert again.scores[1] == 41 and again.events == [] and len(again.history) == len(history)
        else:
            assert again.scores == game.scores and again.events == game.events
        # a position that matches the replay: the replayed game, log and all
        same = restore_game(stored_setup, history, None, write_position(game.state))
        assert same.events == game.events and same.state == game.state


@contextlib.contextmanager
def _empty_database(kind: str, tmp_path: Path, name: str) -> Iterator[str]:
    """The URL of a database with no table: a new SQLite file, or a new PostgreSQL database beside
    the tests' one (dropped after)."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / name}.sqlite"
        return
    from sqlalchemy import create_engine, text

    server = create_engine(_driver_url(str(POSTGRES)), isolation_level="AUTOCOMMIT")
    database = f"hg_empty_{name}_{os.getpid()}"
    with server.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {database}"))
        conn.execute(text(f"CREATE DATABASE {database}"))
    try:
        yield _driver_url(str(POSTGRES)).rsplit("/", 1)[0] + "/" + database
    finally:
        with server.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)"))
        server.dispose()


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL to test PostgreSQL"))])
def test_a_new_database_gets_at_once_exactly_the_tables_the_migrations_make(tmp_path: Path,
                                                                           kind: str) -> None:
    """A new database's tables are made at once from the declared tables and stamped with the
    schema (not by replaying every migration): so the migrations, replayed one by one on an empty
    database, must make exactly the declared tables, columns, types, defaults and indexes."""
    from alembic import command
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext
    from sqlalchemy import create_engine, inspect

    from huntgather.server.storage import _alembic_config, metadata, migrate

    options = {"compare_type": True, "compare_server_default": True}

    def stamp_table(conn: Any) -> tuple[Any, ...]:
        columns = [(c["name"], str(c["type"]), c["nullable"], c["default"])
                   for c in inspect(conn).get_columns("alembic_version")]
        return columns, inspect(conn).get_pk_constraint("alembic_version")

    with _empty_database(kind, tmp_path, "replayed") as replayed, \
            _empty_database(kind, tmp_path, "new") as new:
        engine = create_engine(replayed)
        with engine.begin() as conn:
            command.upgrade(_alembic_config(conn), SCHEMA)
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn, opts=options), metadata) == []
            replayed_tables = {t: sorted(i["name"] or "" for i in inspect(conn).get_indexes(t))
                               for t in inspect(conn).get_table_names()}
            replayed_stamp = stamp_table(conn)
        engine.dispose()
        engine = create_engine(new)
        assert migrate(engine) == "new"
        with engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() == SCHEMA
            assert {t: sorted(i["name"] or "" for i in inspect(conn).get_indexes(t))
                    for t in inspect(conn).get_table_names()} == replayed_tables
            # the stamp, written without Alembic, in the very table Alembic makes
            assert stamp_table(conn) == replayed_stamp
        assert migrate(engine) == SCHEMA   # and the next start has nothing to do
        engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL to test PostgreSQL"))])
def test_an_account_keeps_the_language_of_its_mails(tmp_path: Path, kind: str) -> None:
    """Schema 0011: ``hg_accounts.language``, NULL (English) unless given at sign-up or set later."""
    import uuid

    from argon2 import PasswordHasher

    from huntgather.server.accounts import Accounts

    storage = Storage(str(tmp_path / "games.sqlite") if kind == "sqlite" else str(POSTGRES))
    assert SCHEMA == "0011"   # (storage.schema: what the database had before, "new" for an empty one)
    accounts = Accounts(storage, hasher=PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1))
    tag = uuid.uuid4().hex[:8]
    jana = accounts.create(f"Jana {tag}", "a good long password", language="cs")
    old = accounts.create(f"Old {tag}", "a good long password")
    found = [accounts.by_id(a.id) for a in (jana, old)]
    assert [a.language if a else "?" for a in found] == ["cs", None]
    accounts.set_language(old.id, "de")
    token = accounts.new_session(old.id)
    session = accounts.session(token)
    assert session is not None and session.account.language == "de"
    storage.close()
