"""Running a server for many players (issue 37): the real ``huntgather play`` process.

A database file deleted under the server is noticed (no move is acknowledged
into a file that no longer has a name), a backup taken during play restores
into a server that goes on with the game, ``X-Forwarded-For`` counts only from
the proxies named, and ``/healthz`` / ``/readyz`` say what they should when
the database goes away (SQLite deleted, PostgreSQL unreachable).  With the options for
operators, the metrics count what a page does and are off by default, and a JSON log is one
object a line that never holds a secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from play_server import free_port, launch
from test_server_faults import (
    HTTP,
    PATIENCE,
    Page,
    Server,
    assert_plain_words,
    create_game,
    creation_refused,
    game_view,
    hotseat_secrets,
    refused_turn,
    stored_version,
)

httpx = pytest.importorskip("httpx")
from huntgather.client import ServerError  # noqa: E402

POSTGRES = os.environ.get("HUNTGATHER_TEST_POSTGRES")
HOTSEAT = {"seats": [{"kind": "human"}, {"kind": "human"}]}


class OpsServer(Server):
    """A :class:`Server` started with more options of ``huntgather play``."""

    def __init__(self, db: Path | str, args: tuple[str, ...] = ()) -> None:
        super().__init__(db)
        self.args = args

    def start(self) -> OpsServer:
        self.proc = launch(self.db, self.port, self.bot_delay, self.env, self.output, args=self.args)
        return self


def ready(srv: Server) -> httpx.Response:
    return HTTP.get(f"{srv.http}/readyz")


def healthy(srv: Server) -> None:
    r = HTTP.get(f"{srv.http}/healthz")
    assert (r.status_code, r.json()) == (200, {"status": "ok"})


def not_ready(srv: Server, code: str = "storage_failed") -> str:
    """``/readyz`` answers 503 with ``code`` and a plain reason; returns the reason."""
    r = ready(srv)
    assert r.status_code == 503, r.text
    body = r.json()
    assert body["code"] == code, body
    assert_plain_words(body["message"])
    return str(body["message"])


def huntgather(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "huntgather", *args], capture_output=True, text=True,
                          timeout=120, check=False)


# --------------------------------------------------------------------------- 1. the file deleted


def test_a_deleted_database_file_refuses_every_write_and_says_why(tmp_path: Path,
                                                                  servers: list[Server]) -> None:
    """``rm games.sqlite*`` under a running server: the next turn is refused with storage_failed (not
    acknowledged into a file that is gone), creating and deleting games answer 503, the log says
    why in an ERROR line, no new empty file appears, /readyz says 503 while /healthz stays 200."""
    folder = tmp_path / "x"
    db = folder / "g.sqlite"
    srv = OpsServer(db).start()
    servers.append(srv)
    assert (ready(srv).status_code, ready(srv).json()["status"]) == (200, "ready")

    async def scenario() -> None:
        made = create_game(srv, HOTSEAT)
        other = create_game(srv, HOTSEAT)
        page = await Page.join(srv, made["id"], hotseat_secrets(made))
        acked = [(await page.play())[0] for _ in range(3)]
        assert stored_version(db, made["id"]) == acked[-1]

        for f in folder.glob("g.sqlite*"):
            f.unlink()
        moves = await page.whole_turn()
        error = await refused_turn(page, moves)
        assert error["code"] == "storage_failed", error
        assert_plain_words(error["message"])
        assert error["version"] == acked[-1]
        creation_refused(srv)
        gone = HTTP.delete(f"{srv.http}/api/games/{other['id']}",
                           headers={"Authorization": f"Bearer {other['creator']}"})
        assert gone.status_code == 503 and gone.json()["code"] == "storage_failed", gone.text
        error = await refused_turn(page, moves)   # still refused: the loss is for good
        assert error["code"] == "storage_failed"
        assert game_view(srv, made["id"])["version"] == acked[-1]
        await page.close()

    asyncio.run(scenario())
    assert not list(folder.glob("g.sqlite*")), "a new database file was created silently"
    assert "deleted" in not_ready(srv)
    healthy(srv)
    noticed = srv.said(f"ERROR huntgather.server: {db}: the database file was deleted while the server ran")
    assert len(noticed) == 1, srv.log()   # said once, when noticed; then each refused write says it
    assert any(" ERROR " in line for line in srv.said("storing moves")), srv.log()
    assert "Traceback" not in srv.log()


def test_a_replaced_database_file_is_noticed(tmp_path: Path, servers: list[Server]) -> None:
    """Another file moved into place (an older copy, say) is not written to through the old one:
    refused, and said so."""
    db = tmp_path / "g.sqlite"
    srv = OpsServer(db).start()
    servers.append(srv)

    async def scenario() -> None:
        made = create_game(srv, HOTSEAT)
        page = await Page.join(srv, made["id"], hotseat_secrets(made))
        await page.play()
        copy = tmp_path / "copy.sqlite"
        copy.write_bytes(db.read_bytes())
        copy.replace(db)
        error = await refused_turn(page, await page.whole_turn())
        assert error["code"] == "storage_failed", error
        await page.close()

    asyncio.run(scenario())
    assert "replaced" in not_ready(srv)
    assert srv.said("was replaced by another file"), srv.log()


# --------------------------------------------------------------------------- 3. X-Forwarded-For


def create_as(srv: Server, forwarded: str) -> int:
    r = HTTP.post(f"{srv.http}/api/games", json=HOTSEAT, headers={"X-Forwarded-For": forwarded})
    assert r.status_code in (201, 429), r.text
    if r.status_code == 429:
        assert r.json()["code"] == "too_many_games"
    return r.status_code


def test_x_forwarded_for_counts_only_from_the_proxies_named(tmp_path: Path, servers: list[Server]) -> None:
    """45 creations from loopback, each with another forged X-Forwarded-For: by default the header is
    ignored and the 31st is refused (30 a minute per address); with ``--forwarded-allow-ips 127.0.0.1``
    (nginx on the same machine) each address has its own count and all 45 are created."""
    plain = OpsServer(tmp_path / "a.sqlite").start()
    servers.append(plain)
    codes = [create_as(plain, f"203.0.113.{i}") for i in range(45)]
    assert codes[:30] == [201] * 30 and codes[30:] == [429] * 15, codes

    behind = OpsServer(tmp_path / "b.sqlite", ("--forwarded-allow-ips", "127.0.0.1")).start()
    servers.append(behind)
    codes = [create_as(behind, f"203.0.113.{i}") for i in range(45)]
    assert codes == [201] * 45, codes
    # the address given by the proxy is the one counted: one address still gets 30 a minute
    codes = [create_as(behind, "198.51.100.7") for _ in range(31)]
    assert codes == [201] * 30 + [429], codes


def test_forwarded_allow_ips_must_be_addresses(tmp_path: Path) -> None:
    done = huntgather("play", "--no-browser", "--db", str(tmp_path / "g.sqlite"),
                      "--forwarded-allow-ips", "127.0.0.1,nginx")
    assert done.returncode == 2, done.stderr
    assert "'nginx' is not an address" in done.stderr and "Traceback" not in done.stderr


def test_a_heartbeat_must_be_shorter_than_the_silence_that_closes_a_page(tmp_path: Path) -> None:
    for heartbeat in ("0", "20"):
        done = huntgather("play", "--no-browser", "--db", str(tmp_path / "g.sqlite"),
                          "--heartbeat", heartbeat)
        assert done.returncode == 2, done.stderr
        assert "--heartbeat must be a positive number of seconds under 20" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_the_review_workers_niceness_is_from_0_to_19(tmp_path: Path) -> None:
    for nice in ("-1", "20"):
        done = huntgather("play", "--no-browser", "--db", str(tmp_path / "g.sqlite"), "--review-nice", nice)
        assert done.returncode == 2, done.stderr
        assert "--review-nice must be from 0 to 19" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


# --------------------------------------------------------------------------- 4. PostgreSQL gone


class Gateway:
    """A TCP relay to the test's PostgreSQL; :meth:`cut` stops it (as if PostgreSQL were stopped: new
    connections refused, open ones dropped), :meth:`restore` starts it again on the same port."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener: socket.socket | None = None
        self.port = 0
        self.links: list[socket.socket] = []
        self.lock = threading.Lock()

    def open(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=10)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self.lock:
                self.links += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := a.recv(65536):
                b.sendall(data)
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        assert self.listener is not None
        with contextlib.suppress(OSError):   # wakes the thread blocked in accept(), frees the port
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        self.listener = None
        with self.lock:
            for s in self.links:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self.links.clear()


@pytest.mark.skipif(not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL")
def test_readyz_fails_while_postgresql_is_unreachable(servers: list[Server]) -> None:
    from sqlalchemy.engine import make_url

    assert POSTGRES
    url = make_url(POSTGRES)
    gateway = Gateway(url.host or "127.0.0.1", url.port or 5432)
    gateway.open()
    try:
        srv = OpsServer(url.set(host="127.0.0.1", port=gateway.port).render_as_string(hide_password=False))
        servers.append(srv.start())
        r = ready(srv)
        from huntgather.server.storage import SCHEMA
        assert r.status_code == 200 and r.json() == {"status": "ready", "schema": SCHEMA}, r.text
        gateway.cut()
        reason = not_ready(srv)
        assert "cannot be reached" in reason or "did not answer" in reason, reason
        healthy(srv)
        gateway.open()   # PostgreSQL is back: ready again
        assert ready(srv).status_code == 200
        assert create_game(srv, HOTSEAT)["id"]
    finally:
        if gateway.listener is not None:
            gateway.cut()



# --------------------------------------------------------------------------- 2. backup and restore


def test_a_backup_taken_during_play_restores_into_a_server_that_goes_on(tmp_path: Path,
                                                                        servers: list[Server]) -> None:
    """``huntgather backup`` while the server plays a game (and a bot game runs on): the backup,
    restored into a new file, serves the game from its last acknowledged move, and it goes on.
    ``restore`` refuses the database the running server has open (even with --force) and an
    existing file without --force."""
    db, backup, restored = tmp_path / "g.sqlite", tmp_path / "backup.sqlite", tmp_path / "new" / "r.sqlite"
    srv = OpsServer(db).start()
    servers.append(srv)

    async def scenario() -> None:
        made = create_game(srv, HOTSEAT)
        create_game(srv, {"seats": [{"kind": "bot", "level": "random"}] * 2, "unwatched": True})   # writes
        page = await Page.join(srv, made["id"], hotseat_secrets(made))
        last = [(await page.play())[0] for _ in range(4)][-1]
        done = huntgather("backup", str(backup), "--db", str(db))
        assert done.returncode == 0, done.stderr
        from huntgather.server.storage import SCHEMA
        assert f"backed up 2 games (schema {SCHEMA})" in done.stdout, done.stdout
        assert not list(tmp_path.glob("backup.sqlite?*")), "the backup is not one file"

        refused = huntgather("restore", str(backup), "--db", str(db), "--force")
        assert refused.returncode == 1, refused.stderr
        assert "in use" in refused.stderr and "stop the server" in refused.stderr, refused.stderr
        assert "Traceback" not in refused.stderr
        assert (await page.play())[0] > last   # the refused restore changed nothing under the server
        await page.close()

        done = huntgather("restore", str(backup), "--db", str(restored))
        assert done.returncode == 0, done.stderr
        again = huntgather("restore", str(backup), "--db", str(restored))
        assert again.returncode == 1 and "add --force" in again.stderr, again.stderr

        other = OpsServer(restored).start()
        servers.append(other)
        assert ready(other).status_code == 200
        assert game_view(other, made["id"])["version"] == last
        page = await Page.join(other, made["id"], hotseat_secrets(made))
        version, _ = await page.play()
        assert version > last
        assert stored_version(restored, made["id"]) == version
        await page.close()

    asyncio.run(scenario())


def test_backup_and_restore_refuse_in_plain_words(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    out, db, none = str(tmp_path / "b.sqlite"), str(tmp_path / "g.sqlite"), str(tmp_path / "none.sqlite")
    for args, said in [
        (("backup", out, "--db", none), "there is no database"),
        (("backup", out, "--db", str(junk)), "is not a SQLite database"),
        (("restore", str(junk), "--db", db), "is not a SQLite database"),
        (("restore", none, "--db", db), "there is no backup"),
    ]:
        done = huntgather(*args)
        assert done.returncode == 1, (args, done.stderr)
        assert said in done.stderr and "Traceback" not in done.stderr, (args, done.stderr)
    assert not (tmp_path / "g.sqlite").exists() and not (tmp_path / "b.sqlite").exists()


def test_backup_knows_the_schema_the_server_writes() -> None:
    from huntgather.commands import backup
    from huntgather.server import storage

    assert backup.SCHEMA == storage.SCHEMA


@pytest.mark.skipif(not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL")
def test_postgresql_backup_and_restore_use_pg_dump_and_pg_restore(tmp_path: Path) -> None:
    """A database of its own is dumped (pg_dump) and restored (pg_restore) into another empty one,
    which then holds the game; a second restore over it is refused without --force."""
    import shutil

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from huntgather.server.storage import Storage, _driver_url

    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("needs pg_dump and pg_restore")
    assert POSTGRES
    admin = create_engine(_driver_url(POSTGRES), isolation_level="AUTOCOMMIT")
    names = ("hg_ops_source", "hg_ops_target")
    with admin.connect() as conn:
        for name in names:
            conn.execute(text(f"DROP DATABASE IF EXISTS {name}"))
            conn.execute(text(f"CREATE DATABASE {name}"))
    source, target = (make_url(POSTGRES).set(database=n).render_as_string(hide_password=False) for n in names)
    try:
        st = Storage(source)
        st.create("g1", {"edition": "2020"}, ["d3"], [], "cd34")
        st.append("g1", 1, ["3@0,1r0", "-", "d7"], status="playing", scores=[0, 0])
        st.close()
        dump = tmp_path / "games.dump"
        done = huntgather("backup", str(dump), "--db", source)
        assert done.returncode == 0, done.stderr
        done = huntgather("restore", str(dump), "--db", target)
        assert done.returncode == 0, done.stderr
        st = Storage(target)
        stored = st.load("g1")
        st.close()
        assert stored is not None and stored.history == ["d3", "3@0,1r0", "-", "d7"]
        again = huntgather("restore", str(dump), "--db", target)
        assert again.returncode == 1 and "add --force" in again.stderr, again.stderr
    finally:
        with admin.connect() as conn:
            for name in names:
                conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


# --------------------------------------------------------------------------- 6. metrics and JSON logs


def listening_ports(pid: int) -> set[int]:
    """The TCP ports process ``pid`` listens on (from /proc: its sockets in state LISTEN)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] == "0A" and fields[9] in inodes:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def scrape(port: int) -> dict[str, float]:
    """The metrics at ``http://127.0.0.1:PORT/metrics``, each sample by its name and labels."""
    from prometheus_client.parser import text_string_to_metric_families

    r = HTTP.get(f"http://127.0.0.1:{port}/metrics")
    assert r.status_code == 200, r.text
    samples = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            samples[f"{s.name}{{{labels}}}" if labels else s.name] = s.value
    return samples


def test_metrics_count_what_the_server_does_and_are_off_by_default(tmp_path: Path,
                                                                  servers: list[Server]) -> None:
    """With ``--metrics-port`` a real server counts what a page does: games live, sockets open, moves
    stored, acknowledgements (the latency histogram), a hint refused as busy, a write refused (the
    database file deleted), and the bots' lanes; the metrics are on their own port, not the players'.
    Without the option, nothing more listens and ``/metrics`` is no route."""
    pytest.importorskip("prometheus_client")
    folder = tmp_path / "m"
    metrics_port = free_port()
    srv = OpsServer(folder / "g.sqlite", args=("--metrics-port", str(metrics_port))).start()
    servers.append(srv)
    assert listening_ports(srv.pid) == {srv.port, metrics_port}
    assert HTTP.get(f"{srv.http}/metrics").status_code == 404   # not on the players' port
    before = scrape(metrics_port)
    assert before["huntgather_moves_stored_total"] == 0 and before["huntgather_ack_seconds_count"] == 0
    lanes = {f"huntgather_bot_queue_depth{{lane={lane}}}" for lane in ("light", "heavy", "hints")}
    assert lanes <= set(before) and not any(before[lane] for lane in lanes)

    async def scenario() -> None:
        made = create_game(srv, HOTSEAT)
        page = await Page.join(srv, made["id"], hotseat_secrets(made))
        acked = [(await page.play())[0] for _ in range(4)]
        during = scrape(metrics_port)
        assert during["huntgather_games_live"] >= 1
        assert during["huntgather_sockets_open"] == 1
        # each turn stored its moves (a placement, maybe a piece, the next draw)
        assert during["huntgather_moves_stored_total"] == acked[-1] - 1, (during, acked)
        assert during["huntgather_ack_seconds_count"] == 4
        assert during["huntgather_ack_seconds_bucket{le=+Inf}"] == 4
        assert 0 < during["huntgather_ack_seconds_sum"] < 4 * PATIENCE
        # two hints at once from one page: the second is refused (busy)
        first = asyncio.create_task(page.hint())
        await asyncio.sleep(0.05)
        with pytest.raises(ServerError) as busy:
            await page.hint()
        assert busy.value.code == "busy"
        first.cancel()
        assert scrape(metrics_port)["huntgather_hint_refusals_total"] == 1
        # the database file deleted: the next turn is refused, a storage error counted
        for f in folder.glob("g.sqlite*"):
            f.unlink()
        await refused_turn(page, await page.whole_turn())
        after = scrape(metrics_port)
        assert after["huntgather_storage_errors_total"] >= 1
        assert after["huntgather_moves_stored_total"] == during["huntgather_moves_stored_total"]
        await page.close()
        for _ in range(100):
            if scrape(metrics_port)["huntgather_sockets_open"] == 0:
                break
            await asyncio.sleep(0.05)
        assert scrape(metrics_port)["huntgather_sockets_open"] == 0

    asyncio.run(scenario())
    # SIGTERM ends it although the first hint's search may still be under way (the bug: its worker
    # was not ended, and the server's exit waited for the search until it was killed)
    proc = srv.proc
    assert proc is not None
    srv.stop()
    assert proc.returncode == 0, f"the server did not exit by itself after SIGTERM: {proc.returncode}"
    off = OpsServer(tmp_path / "off.sqlite").start()
    servers.append(off)
    assert listening_ports(off.pid) == {off.port}
    assert HTTP.get(f"{off.http}/metrics").status_code == 404
    assert "metrics for Prometheus" not in off.log()


def test_json_logs_are_one_object_a_line_with_ids_and_no_secret(tmp_path: Path,
                                                               servers: list[Server]) -> None:
    """``--log-format json --log-level debug``: a game played, a secret refused, a wrong creator's
    secret, a rename and a delete; every line the server wrote is one JSON object with time, level,
    logger and message, the page's lines carry the game's and the request's ids, and no seat's
    secret nor the creator's appears anywhere in the log."""
    srv = OpsServer(tmp_path / "g.sqlite", args=("--log-format", "json", "--log-level", "debug")).start()
    servers.append(srv)
    made = create_game(srv, HOTSEAT)
    versus = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]})
    secrets = [made["creator"], *made["seats"].values(), versus["creator"], *versus["seats"].values()]

    async def scenario() -> None:
        page = await Page.join(srv, made["id"], hotseat_secrets(made))
        for _ in range(3):
            await page.play()
        await page.rename("Ann")
        stranger = await Page.join(srv, made["id"], ["not-a-secret", versus["creator"]])
        assert stranger.refused == [0, 1]
        await stranger.close()
        bot_page = await Page.join(srv, versus["id"], [versus["creator"], versus["seats"]["0"]])
        await bot_page.play()
        await bot_page.until_to_move(0)
        await bot_page.close()
        wrong = HTTP.delete(f"{srv.http}/api/games/{made['id']}",
                            headers={"Authorization": f"Bearer {versus['creator']}"})
        assert wrong.status_code == 403, wrong.text
        gone = HTTP.delete(f"{srv.http}/api/games/{made['id']}",
                           headers={"Authorization": f"Bearer {made['creator']}", "X-Request-ID": "req-42"})
        assert gone.status_code in (200, 204), gone.text
        await page.wait_until(lambda: page.closed, PATIENCE)
        await page.close()

    asyncio.run(scenario())
    srv.stop()
    lines = [line for line in srv.output if line.strip()]
    records = []
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            raise AssertionError(f"a line of the log is not JSON: {line!r}\n{srv.log()}") from None
        assert isinstance(record, dict) and {"time", "level", "logger", "message"} <= set(record), line
        records.append(record)
    assert any("playing at" in r["message"] for r in records)
    opened = [r for r in records if r["message"] == "a page opened"]
    assert {r.get("game") for r in opened} == {made["id"], versus["id"]}, opened
    assert all(r.get("request") for r in opened)
    assert any(r["message"].startswith("a page closed (code 4404)") and r.get("game") == made["id"]
               for r in records), srv.log()
    log = "".join(srv.output)
    for secret in secrets:
        assert secret not in log, "a secret is in the log"


# --------------------------------------------------------------------------- the package's imports


def test_a_bot_worker_imports_the_engine_and_the_bots_but_not_the_web_stack() -> None:
    """A worker process of the server unpickles functions of huntgather.server.workers: importing it
    must not import Starlette, SQLAlchemy or the accounts' libraries (a second or more of every
    worker's start-up), which the package's ``create_app`` and ``app_from_env`` need."""
    heavy = ("starlette", "sqlalchemy", "uvicorn", "webauthn", "argon2", "huntgather.server.app")
    code = ("import sys, huntgather.server.workers; "
            f"print(sorted(m for m in {heavy!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_app_from_env_builds_the_app_uvicorn_serves(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``uvicorn --factory huntgather.server:app_from_env`` (docs/deploy.md): the package gives it
    by name, built from the environment; without HUNTGATHER_DB it says what to set."""
    import huntgather.server as package
    from huntgather.server import environment

    called: list[bool] = []   # (the collector's tuning for a serving process: not this test's)
    monkeypatch.setattr(environment, "tune_gc", lambda: called.append(True))
    monkeypatch.delenv("HUNTGATHER_DB", raising=False)
    with pytest.raises(RuntimeError, match="set HUNTGATHER_DB"):
        package.app_from_env()
    monkeypatch.setenv("HUNTGATHER_DB", str(tmp_path / "games.sqlite"))
    monkeypatch.setenv("HUNTGATHER_MAX_WATCHERS", "7")
    app = package.app_from_env()
    assert app.state.rooms.max_watchers == 7 and called == [True]
    with pytest.raises(AttributeError, match="no attribute 'serve'"):
        package.serve  # noqa: B018
