"""Shared helpers for the rules tests: build a position, play moves, read events.

A test builds a position with the record text format (``tile ID X,Y rR``,
``occupant T.Z meeple|hut SEAT``, ``normal ...``, ``bonus ...``, ``player S``)
and plays moves in their text form, draws included (``d36 36@3,0r1 -``).
The helpers are reached through the ``rules`` fixture, because test modules are
imported with ``--import-mode=importlib`` and cannot import this file by name.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from huntgather.events import (
    BonusTurn,
    Event,
    FeatureScored,
    FinalScoring,
    OccupantsReturned,
    ScoreRow,
    TileDiscarded,
)
from huntgather.game import Game, random_game
from huntgather.moves import parse_move
from huntgather.record import load_position, write_position
from huntgather.state import State

#: A forest with a menhir that lacks its west end: 35 (forest cap, east) at (0,20) and
#: 40 (straight forest with a menhir) at (1,20).  ``TRIGGER_MOVES`` closes it with 34
#: (forest cap, west) at (2,20): a forest of 3 tiles with a menhir, so the placer takes a
#: menhir turn.  It lies far south of the examples, so it touches none of their features.
TRIGGER = "tile 35 0,20 r0\ntile 40 1,20 r0\n"
TRIGGER_MOVES = "d34 34@2,20r0 -"


class Rules:
    """Helpers for building positions and playing moves (see the module docstring)."""

    TRIGGER = TRIGGER
    TRIGGER_MOVES = TRIGGER_MOVES

    @staticmethod
    def position(body: str, players: int = 2, edition: str = "2020") -> State:
        """The state described by position lines ``body`` (no moves)."""
        text = f"huntgather record 1\nedition {edition}\nplayers {players}\n{body}\nmoves\n"
        return load_position(text)

    @staticmethod
    def run(state: State, moves: str) -> list[Event]:
        """Apply the space-separated ``moves`` to ``state``; return all their events."""
        events: list[Event] = []
        for word in moves.split():
            events.extend(state.apply(parse_move(word)))
        return events

    @staticmethod
    def scored(events: list[Event], kind: str | None = None) -> list[FeatureScored]:
        """The ``FeatureScored`` events, optionally only those of ``kind``."""
        return [e for e in events if isinstance(e, FeatureScored) and (kind is None or e.kind == kind)]

    @staticmethod
    def bonus_turns(events: list[Event]) -> list[BonusTurn]:
        return [e for e in events if isinstance(e, BonusTurn)]

    @staticmethod
    def returned(events: list[Event]) -> list[OccupantsReturned]:
        return [e for e in events if isinstance(e, OccupantsReturned)]

    @staticmethod
    def discarded(events: list[Event]) -> list[TileDiscarded]:
        return [e for e in events if isinstance(e, TileDiscarded)]

    @staticmethod
    def final_rows(events: list[Event]) -> tuple[ScoreRow, ...]:
        """The rows of the (single) ``FinalScoring`` event."""
        finals = [e for e in events if isinstance(e, FinalScoring)]
        assert len(finals) == 1, f"expected one FinalScoring event, got {len(finals)}"
        return finals[0].rows

    @staticmethod
    def row_with(rows: tuple[ScoreRow, ...], tile: int, kind: str | None = None) -> ScoreRow:
        """The final-scoring row (of ``kind``: "huts" or "hunters") whose feature covers ``tile``."""
        found = [r for r in rows if tile in r.tiles and (kind is None or r.kind == kind)]
        assert len(found) == 1, f"expected one row covering tile {tile}, got {found}"
        return found[0]

    @staticmethod
    def snapshot(state: State) -> tuple[Any, ...]:
        """Everything a move could change, to check that an illegal move changed nothing."""
        return snapshot(state)


def snapshot(state: State) -> tuple[Any, ...]:
    """A state to compare before and after: its position's text (every fact of the game) and the
    board's internal bookkeeping (which no move that was refused, nor a copy, may change)."""
    board = state.board
    return (write_position(state), board.links(), dict(board.features), dict(board.frontier),
            dict(board.occupants))


@pytest.fixture
def rules() -> type[Rules]:
    """The :class:`Rules` helpers."""
    return Rules


#: The random games that several tests read (the digest, the meadow scoring of the heuristic):
#: ``random_game(players, seed, edition)`` for each edition, 2-5 players and seeds 0-124.
CORPUS_SEEDS = 125


class Corpus:
    """The shared random games, played once per test process and kept (see :func:`corpus`)."""

    def __init__(self) -> None:
        self._games: dict[tuple[str, int], list[Game]] = {}

    def games(self, edition: str, players: int) -> list[Game]:
        """``random_game(players, seed, edition)`` for seeds ``0 .. CORPUS_SEEDS - 1``."""
        key = (edition, players)
        if key not in self._games:
            self._games[key] = [random_game(players, seed=seed, edition=edition)
                                for seed in range(CORPUS_SEEDS)]
        return self._games[key]


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    """The random games shared by the tests that need many (500 per edition).

    A test that takes it is marked ``xdist_group("corpus")``, and the suite runs with
    ``--dist loadgroup``, so every such test runs in the one worker process that played them.
    """
    return Corpus()


#: Debian's chromium, which the browser tests drive (Playwright's own browser download is not used)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


#: the features Playwright (1.65) turns off in chromium (its ``--disable-features``, which a second
#: ``--disable-features`` would replace, not add to), and what the tests turn off besides: the spare
#: renderer process chromium starts after a page loads, for a next page of that browser context that
#: these tests never open (a renderer started and thrown away per context: 7 % of chromium's CPU in
#: a page-a-context test).  test_web_ui.py checks this copy against the installed Playwright's list.
DISABLED_FEATURES = ("AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,"
                     "HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,"
                     "ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,TcpPortRandomizationWin,"
                     "OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch,"
                     "msForceBrowserSignIn,msEdgeUpdateLaunchServicesPreferredVersion,"
                     "SpareRendererForSitePerProcess")

#: how often (ms) a browser test's ``wait_for_function`` evaluates its condition when the test names
#: no polling: Playwright's default evaluates it at every animation frame, which keeps the page
#: drawing frames at 60 a second for as long as the test waits (a bot's move, a reconnection): an
#: idle page waiting so costs chromium 0.075 s of CPU a second, 0.015 s polled every 100 ms
POLL_MS = 50


class _PlaywrightLoop:
    """Between its calls, Playwright's synchronous API leaves its own event loop marked as running in
    the thread that called it, where ``asyncio.run`` then refuses to start ("cannot be called from a
    running event loop"), and its calls need it marked.  With one chromium kept for a whole test
    process, the loop is marked only while a browser test (or the browser fixtures' own clean-up)
    runs, so that the tests and doctests after it can use ``asyncio.run``."""

    loop: asyncio.AbstractEventLoop | None = None

    @classmethod
    def mark(cls) -> None:
        if cls.loop is not None:
            asyncio.events._set_running_loop(cls.loop)

    @staticmethod
    def unmark() -> None:
        asyncio.events._set_running_loop(None)


@pytest.fixture(scope="session")
def chromium_session() -> Iterator[Any]:
    """A headless chromium under Playwright, one per test process, started by its first browser
    test (a chromium and Playwright's driver cost some 1.5 s of CPU to start: per module and
    test process, as the browser tests once had them, 25 starts in a run of the suite); its pages'
    ``wait_for_function`` polls every :data:`POLL_MS` ms unless told otherwise.  Tests take it as
    :func:`browser`."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if CHROMIUM is None:
        pytest.skip("chromium is not installed")
    with pytest.MonkeyPatch.context() as patch, sync_api.sync_playwright() as p:
        for cls in (sync_api.Page, sync_api.Frame):
            patch.setattr(cls, "wait_for_function", _polled(cls.wait_for_function))
        b = p.chromium.launch(executable_path=CHROMIUM,
                              args=["--no-sandbox", "--disable-gpu", "--headless=new",
                                    "--disable-dev-shm-usage", f"--disable-features={DISABLED_FEATURES}"])
        _PlaywrightLoop.loop = asyncio.events._get_running_loop()
        try:
            yield b
        finally:
            _PlaywrightLoop.mark()
            b.close()
        _PlaywrightLoop.loop = None


@pytest.fixture(scope="module")
def browser(chromium_session: Any) -> Iterator[Any]:
    """The test process's chromium (:func:`chromium_session`) for a module's tests (the browser
    tests, tests/test_web_*.py); the browser contexts they leave open are closed after the module,
    as closing a chromium of its own would."""
    yield chromium_session
    _PlaywrightLoop.mark()
    try:
        for context in list(chromium_session.contexts):
            context.close()
    finally:
        _PlaywrightLoop.unmark()


@pytest.fixture(autouse=True)
def _playwright_loop_marked(request: pytest.FixtureRequest) -> Iterator[None]:
    """Playwright's loop marked as running for a browser test, from before its fixtures to after
    their clean-up (this fixture is set up first and torn down last), and unmarked after it."""
    if "browser" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("browser")
    _PlaywrightLoop.mark()
    try:
        yield
    finally:
        _PlaywrightLoop.unmark()


def _polled(wait_for_function: Any) -> Any:
    """``wait_for_function`` polling every :data:`POLL_MS` ms by default instead of every frame."""
    def wait(self: Any, expression: str, *, arg: Any = None, polling: Any = None, timeout: Any = None) -> Any:
        return wait_for_function(self, expression, arg=arg, polling=POLL_MS if polling is None else polling,
                                 timeout=timeout)
    return wait


@pytest.fixture(scope="session")
def spare_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The test process's :class:`play_server.Spares`: servers started a test ahead."""
    from play_server import Spares

    spares = Spares(tmp_path_factory.mktemp("spare-servers"))
    yield spares
    spares.close()


@pytest.fixture
def server(spare_servers: Any) -> Iterator[Any]:
    """A ``huntgather play`` process with the default options and a database of its own, for this
    test alone (started during the test before: :class:`play_server.Spares`); ``kill -9``ed after
    it with its workers (its database is thrown away, and a stop would first drain: wait for the
    pages to go and a bot's search under way to be stored, seconds that test nothing here; the
    tests of stopping stop their servers themselves)."""
    srv = spare_servers.take()
    yield srv
    srv.kill(grace=0)


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One ``huntgather play`` process with the default options for a whole test module, for the
    tests that each play games of their own on it (or answer its API themselves) and read nothing
    else of it: a server of its own costs a test about a second of CPU (its start, its bot
    worker's).  ``kill -9``ed after the module's last test, with its workers."""
    from play_server import Server

    srv = Server(tmp_path_factory.mktemp("shared-server") / "games.sqlite", args=("--warm-workers",)).start()
    yield srv
    srv.kill(grace=0)


@pytest.fixture
def servers() -> Iterator[list[Any]]:
    """Server processes a test starts (``tests/play_server.py``'s ``Server``): every one still
    running is stopped at the end."""
    started: list[Any] = []
    yield started
    for srv in started:
        srv.stop()


#: the test modules whose tests take seconds each (browsers, server processes, Ray, the shared
#: corpus of random games), longest first: collected first, in this order, so that the test
#: processes share them out from the start and the quick ones fill the end (a long test started
#: last would leave the other processes idle while it runs)
SLOW_MODULES = ("test_rl.py", "test_game_digest.py", "test_sayings.py", "test_web_chat.py",
                "test_web_i18n.py", "test_web_ui.py", "test_web_accounts.py", "test_web_lobby.py",
                "test_web_tutorial.py", "test_server_processes.py", "test_server_faults.py",
                "test_web_review.py", "test_web_clock.py", "test_web_puzzles.py", "test_web_a11y.py",
                "test_positions.py", "test_server_ops.py", "test_remote_bots.py", "test_client.py",
                "test_metrics.py")


def pytest_configure(config: pytest.Config) -> None:
    """Give this test process a PostgreSQL database of its own, when ``HUNTGATHER_TEST_POSTGRES``
    names a server: a new database beside the one named (its name and this process's id), dropped
    at the end.  The test processes of one run (pytest-xdist's workers) would otherwise share one
    database, and a server process of one worker would act on another worker's games: it sweeps
    every stored game whose clock ran out, the games it does not hold too.  The controller of
    several workers runs no test and keeps the URL as it is; a user without the right to create
    databases keeps it too."""
    import os

    url = os.environ.get("HUNTGATHER_TEST_POSTGRES")
    if not url:
        return
    if not hasattr(config, "workerinput") and getattr(config.option, "numprocesses", None):
        return   # the controller of several test processes
    own = _own_database(url)
    if own is not None:
        os.environ["HUNTGATHER_TEST_POSTGRES"] = own
        config.stash[_OWN_DATABASE] = (url, own)


_OWN_DATABASE = pytest.StashKey[tuple[str, str]]()


def _own_database(url: str) -> str | None:
    """A new, empty database on the server of ``url``, as a URL; None if it cannot be made."""
    import os
    from urllib.parse import urlsplit, urlunsplit

    try:
        import psycopg
    except ImportError:
        return None
    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/') or 'postgres'}_test_{os.getpid()}"
    try:
        with psycopg.connect(_libpq(url), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error:
        return None
    return urlunsplit(parts._replace(path="/" + name))


def _libpq(url: str) -> str:
    """``url`` as libpq reads it (SQLAlchemy's ``postgresql+psycopg://`` without its driver)."""
    scheme, rest = url.split("://", 1)
    return "postgresql://" + rest if scheme.startswith("postgresql") else url


def pytest_unconfigure(config: pytest.Config) -> None:
    """Drop the database :func:`pytest_configure` made (the servers using it are stopped by now)."""
    made = config.stash.get(_OWN_DATABASE, None)
    if made is None:
        return
    import contextlib

    import psycopg

    url, own = made
    name = own.rsplit("/", 1)[1]
    with contextlib.suppress(psycopg.Error), psycopg.connect(_libpq(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow modules' tests first (in :data:`SLOW_MODULES`' order), then every other test as
    collected."""
    rank = {name: i for i, name in enumerate(SLOW_MODULES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(SLOW_MODULES)))


@pytest.fixture(scope="session")
def postgres_processes() -> Iterator[tuple[Any, Any]]:
    """Two real ``huntgather play`` processes on the throw-away PostgreSQL of
    ``HUNTGATHER_TEST_POSTGRES`` (logging at ``info``), started once per test process and shared
    by the tests of several processes that leave them running (tests/test_server_processes.py,
    test_clock_processes.py, test_lobby_processes.py); a test that stops or kills processes
    starts its own."""
    import os

    from play_server import Server

    url = os.environ.get("HUNTGATHER_TEST_POSTGRES")
    if not url:
        pytest.skip("set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL (scripts/test.sh starts one "
                    "when run as root)")
    a = Server(url, args=("--log-level", "info")).start()
    try:
        b = Server(url, args=("--log-level", "info")).start()
    except Exception:
        a.stop()
        raise
    yield a, b
    a.stop()
    b.stop()

