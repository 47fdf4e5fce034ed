"""Speed figures of the engine on this machine (``huntgather bench``).

Every figure goes through the public API, on one core, for two players:

* ``random_games_per_s``: complete games in which every decision (placement,
  occupant, shaman take-back) is a uniformly random move of
  ``state.legal_moves()`` (:meth:`State.random_move`), played with
  :meth:`Game.play` (``trusted``: the move is legal by construction) in a
  ``Game(quiet=True)``, which makes no events (nobody reads them);
* ``tiles_placed_per_s`` and ``decisions_per_s``: the same rate in tiles placed
  and in decisions (every move a player made: placements, occupants, passes,
  take-backs; not the draws), ``random_games_per_s`` times
  ``placements_per_game`` and ``player_moves_per_game``, counted from the
  histories of the games played: the terms on which engines of other games
  (longer, shorter, with more or fewer decisions a tile) compare;
* ``placements_per_s``: tiles placed per second when the moves of those games
  are applied again to copies of their start (``State.apply``, each move
  checked): the cost of a placement and its scoring without listing moves;
* ``legal_placements_us``: median time of ``Board.placements(tile)`` for the
  drawn tile of a mid-game position: the engine's list of ``(x, y, rotation)``;
* ``legal_moves_us``: median time of ``state.legal_moves()`` at the same
  decisions: the same list made into ``Place`` moves;
* ``copy_us``: median time of ``State.copy()`` of a mid-game position;
* ``mcts_simulations_per_s``: included when :mod:`huntgather.bots` is
  importable (see :func:`optional_figures`);
* ``rl_env_steps_per_s``: steps of the PettingZoo environment with an
  observation and a mask at every step, when ``huntgather[rl]`` is installed;
* ``rl_vector_env_steps_per_s_n1``, ``_n16``, ``_n64``: learner steps of the
  Gymnasium vector environment of 1, 16 and 64 games against the random bot,
  with the batched observations and masks (likewise).

Throughputs are per CPU second of this process (``time.process_time``), so
other programs running on the machine disturb them less; each is the median
over chunks of a few games (``*_best`` is the fastest chunk, ``*_mean`` and
``*_wall_s`` the whole run).  Micro-timings are medians of ``time.perf_counter_ns``.

>>> r = run_bench(seconds=0.2, seed=1)
>>> r["edition"], r["random_games_per_s"] > 0, r["copy_us"] > 0
('2020', True, True)
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from huntgather.board import Board
from huntgather.editions import DEFAULT_EDITION, get_edition
from huntgather.game import Game
from huntgather.moves import Place
from huntgather.state import PLACE, State

#: ``progress(fraction_done, what)``; called between measurements
Progress = Callable[[float, str], None]

#: shares of ``seconds`` given to each measurement (the optional figures get their own share)
SHARES = {"games": 0.5, "replay": 0.15, "placements": 0.15, "copy": 0.1, "optional": 0.1}

#: games (or replays) per timed chunk; rates are the median over chunks, robust to other load
CHUNK = 4
#: games kept (with their histories) for the replay, listing and copy measurements
KEEP = 40

#: optional figures: name -> measure(edition, seconds, seed, positions) -> value or None
OptionalFigure = Callable[[str, float, int, list[State]], float | None]


def cpu_model() -> str:
    """The processor's model name, as the operating system reports it."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def load_average() -> float | None:
    """The 1-minute load average (None where the system has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        return None


def play_random(game: Game, rng: random.Random) -> int:
    """Finish ``game`` with uniformly random legal moves; return the number of moves played.

    Each move is :meth:`State.random_move <huntgather.state.State.random_move>` (the move of
    ``state.legal_moves()`` at ``rng.randrange(len(...))``, found without listing every
    placement), played unchecked since it is legal by construction.
    """
    state = game.state
    played = 0
    while not state.is_over:
        game.play(state.random_move(rng), trusted=True)
        played += 1
    return played


def _mcts_simulations_per_s(edition: str, seconds: float, seed: int,
                            positions: list[State]) -> float | None:
    """Simulations per second of the tree-search bot, when :mod:`huntgather.bots` is there."""
    try:
        from huntgather.bots import Limits, MctsBot
    except ImportError:
        return None
    if not positions:
        return None
    bot = MctsBot(Limits(seconds=max(seconds / len(positions[:4]), 0.01)), seed=seed)
    sims = 0
    spent = 0.0
    for state in positions[:4]:
        result = bot.search(state)
        sims += result.simulations
        spent += result.seconds
    return round(sims / spent, 1) if spent > 0 else None


def _rl_env_steps_per_s(edition: str, seconds: float, seed: int, positions: list[State]) -> float | None:
    """Steps per CPU second of the PettingZoo environment, when huntgather[rl] is installed."""
    try:
        from huntgather.rl.benchmark import env_steps_per_s
    except ImportError:
        return None
    return env_steps_per_s(edition, seconds, seed)


def _rl_vector_env(num_envs: int) -> OptionalFigure:
    def measure(edition: str, seconds: float, seed: int, positions: list[State]) -> float | None:
        """Learner steps per CPU second of the vector environment (against the random bot)."""
        try:
            from huntgather.rl.benchmark import vector_env_steps_per_s
        except ImportError:
            return None
        return vector_env_steps_per_s(num_envs, edition, seconds, seed)
    return measure


#: the hook for figures of modules outside the rules core (the bots add MCTS speed, the
#: learning environments their steps per second)
OPTIONAL_FIGURES: dict[str, OptionalFigure] = {"mcts_simulations_per_s": _mcts_simulations_per_s,
                                               "rl_env_steps_per_s": _rl_env_steps_per_s,
                                               "rl_vector_env_steps_per_s_n1": _rl_vector_env(1),
                                               "rl_vector_env_steps_per_s_n16": _rl_vector_env(16),
                                               "rl_vector_env_steps_per_s_n64": _rl_vector_env(64)}


def optional_figures(edition: str, seconds: float, seed: int, positions: list[State]) -> dict[str, float]:
    """Every figure of :data:`OPTIONAL_FIGURES` that can be measured here."""
    out: dict[str, float] = {}
    share = seconds / max(len(OPTIONAL_FIGURES), 1)
    for name, measure in OPTIONAL_FIGURES.items():
        value = measure(edition, share, seed, positions)
        if value is not None:
            out[name] = value
    return out


def _median_us(samples_ns: list[float]) -> float:
    return round(statistics.median(samples_ns) / 1000, 2)


def run_bench(edition: str = DEFAULT_EDITION, seconds: float = 5.0, seed: int = 0,
              progress: Progress | None = None) -> dict[str, Any]:
    """Measure the engine for about ``seconds`` and return the figures as a dict.

    ``seed`` fixes the games played (draws and moves), so two runs do the same
    work.  ``progress`` is told what is being measured.
    """
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, not {seconds}")
    ed = get_edition(edition)
    note = progress or (lambda fraction, what: None)

    # 1. complete random games ---------------------------------------------------
    note(0.0, "random games")
    budget = seconds * SHARES["games"]
    games: list[Game] = []  # the first KEEP games, for the measurements below
    played = placed = moves = 0
    game_rates: list[float] = []
    cpu_total = wall_total = 0.0
    while cpu_total < budget or len(game_rates) < 3:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for _ in range(CHUNK):
            game = Game(2, edition=ed, seed=seed + played, quiet=True)
            # every move a player made (draws are the game's), and the placements among them
            moves += play_random(game, random.Random(f"bench-{seed + played}"))
            placed += sum(1 for m in game.history if isinstance(m, Place))
            played += 1
            if len(games) < KEEP:
                games.append(game)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        game_rates.append(CHUNK / cpu)
        cpu_total += cpu
        wall_total += wall
        note(SHARES["games"] * min(cpu_total / budget, 1.0), "random games")
    figures: dict[str, Any] = {
        "edition": ed.name,
        "players": 2,
        "seed": seed,
        "random_games": played,
        "random_games_per_s": round(statistics.median(game_rates), 1),
        "random_games_per_s_best": round(max(game_rates), 1),
        "random_games_per_s_mean": round(played / cpu_total, 1),
        "random_games_per_wall_s": round(played / wall_total, 1),
        "player_moves_per_game": round(moves / played, 1),
        "placements_per_game": round(placed / played, 1),
        # the same games' rate in tiles placed and in decisions (player moves), for comparing with
        # engines whose games are longer or shorter, or ask for more or fewer decisions a tile
        "tiles_placed_per_s": round(statistics.median(game_rates) * placed / played),
        "decisions_per_s": round(statistics.median(game_rates) * moves / played),
    }

    # 2. replaying the same moves: placements per second -------------------------
    note(SHARES["games"], "placements (replay)")
    budget = seconds * SHARES["replay"]
    replay_rates: list[float] = []
    cpu_total = 0.0
    i = 0
    while cpu_total < budget or len(replay_rates) < 3:
        cpu0 = time.process_time()
        replayed = 0
        for _ in range(CHUNK):
            game = games[i % len(games)]
            state = game.initial.copy()
            for move in game.history:
                state.apply(move)
            replayed += sum(1 for m in game.history if isinstance(m, Place))
            i += 1
        cpu = time.process_time() - cpu0
        replay_rates.append(replayed / cpu)
        cpu_total += cpu
        note(SHARES["games"] + SHARES["replay"] * min(cpu_total / budget, 1.0), "placements (replay)")
    figures["placements_per_s"] = round(statistics.median(replay_rates))
    figures["placements_per_s_best"] = round(max(replay_rates))

    # mid-game positions at a placement decision (not timed)
    positions = _positions(games)

    # 3. listing legal placements -------------------------------------------------
    note(SHARES["games"] + SHARES["replay"], "legal placements")
    figures.update(_listing_figures(positions, seconds * SHARES["placements"]))

    # 4. copies ----------------------------------------------------------------------
    note(1 - SHARES["copy"] - SHARES["optional"], "copy")
    figures["copy_us"] = _copy_us(positions, seconds * SHARES["copy"])
    figures["game_copy_us"] = _copy_us([g for g in games[:20]], seconds * SHARES["copy"] / 4)

    # 5. figures of optional modules ------------------------------------------------------
    note(1 - SHARES["optional"], "optional figures")
    figures.update(optional_figures(ed.name, seconds * SHARES["optional"], seed, positions))
    note(1.0, "done")

    figures["build"] = build()
    figures["cpu"] = cpu_model()
    figures["python"] = f"{platform.python_implementation()} {platform.python_version()}"
    figures["load_average"] = load_average()
    figures["seconds"] = seconds
    return figures


def _positions(games: list[Game]) -> list[State]:
    """States at a placement decision around the middle of each game."""
    out: list[State] = []
    for game in games:
        state = game.initial.copy()
        middle = len(game.history) // 2
        for k, move in enumerate(game.history):
            state.apply(move)
            if k >= middle and state.phase == PLACE:
                out.append(state.copy())
                break
    return out


def _listing_figures(positions: list[State], budget: float) -> dict[str, float]:
    fresh: list[float] = []
    warm: list[float] = []
    counts: list[int] = []
    clock = time.perf_counter_ns
    end = time.perf_counter() + budget
    while time.perf_counter() < end or not fresh:
        for state in positions:
            board: Board = state.board
            tiles = state.edition.tiles
            assert state.tile is not None
            tile = tiles[state.tile]
            board.placements(tiles.start)  # were an answer ever cached, the next call cannot reuse it
            t0 = clock()
            listed = board.placements(tile)
            t1 = clock()
            fresh.append(t1 - t0)
            counts.append(len(listed))
            t0 = clock()
            state.legal_moves()
            t1 = clock()
            warm.append(t1 - t0)
    return {"legal_placements_us": _median_us(fresh), "legal_moves_us": _median_us(warm),
            "legal_placements_per_position": round(statistics.mean(counts), 1),
            "frontier_cells": round(statistics.mean(len(s.board.frontier) for s in positions), 1)}


def _copy_us(items: list[State] | list[Game], budget: float) -> float:
    """Median time of one ``copy()`` (batches of 10, to dwarf the timer's own cost)."""
    samples: list[float] = []
    clock = time.perf_counter_ns
    end = time.perf_counter() + budget
    while time.perf_counter() < end or not samples:
        for item in items:
            copy = item.copy
            t0 = clock()
            for _ in range(10):
                copy()
            samples.append((clock() - t0) / 10)
    return _median_us(samples)


#: the figures ``huntgather bench`` prints, with their labels and units
LABELS = (
    ("random_games_per_s", "complete random games", "/s"),
    ("tiles_placed_per_s", "  tiles placed in them", "/s"),
    ("decisions_per_s", "  decisions in them", "/s"),
    ("placements_per_s", "tile placements (replay)", "/s"),
    ("legal_placements_us", "list legal placements", "µs"),
    ("legal_moves_us", "legal_moves() at a placement", "µs"),
    ("copy_us", "State.copy()", "µs"),
    ("game_copy_us", "Game.copy()", "µs"),
    ("mcts_simulations_per_s", "MCTS simulations", "/s"),
    ("rl_env_steps_per_s", "RL env steps (AEC, every move)", "/s"),
    ("rl_vector_env_steps_per_s_n1", "RL vector env, 1 game", "/s"),
    ("rl_vector_env_steps_per_s_n16", "RL vector env, 16 games", "/s"),
    ("rl_vector_env_steps_per_s_n64", "RL vector env, 64 games", "/s"),
)


def format_figures(figures: dict[str, Any]) -> str:
    """The figures as aligned text lines, with the machine they were measured on.

    >>> print(format_figures({"edition": "2020", "copy_us": 2.5, "cpu": "X", "python": "CPython 3.11"}))
    edition 2020, 2 players, one core — X, CPython 3.11
      State.copy()                          2.5 µs
    """
    lines = [f"edition {figures['edition']}, 2 players, one core — {figures['cpu']}, {figures['python']}"]
    for key, label, unit in LABELS:
        if key in figures:
            lines.append(f"  {label:<34}{figures[key]:>9} {unit}")
    if figures.get("load_average") is not None:
        lines.append(f"  (load average {figures['load_average']} when measured; rates per CPU second)")
    return "\n".join(lines)


# --------------------------------------------------------------------------- the compiled build

#: how to get the compiled build (see docs/performance.md, "The compiled build")
HOW_TO_COMPILE = ("bash scripts/compiled.sh build (in a checkout: compiles in place; "
                  "bash scripts/compiled.sh clean removes it), or "
                  "HUNTGATHER_COMPILE=1 pip install --no-build-isolation . (needs mypy and a C compiler)")

#: run first in a subprocess to import every ``huntgather`` module from its source even where a
#: compiled one sits next to it: the pure-Python build of the same installation
_PURE_IMPORTS = """
import importlib.util, os, sys
class _SourceFirst:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if not name.startswith("huntgather.") or path is None:
            return None
        for folder in path:
            source = os.path.join(folder, name.rpartition(".")[2] + ".py")
            if os.path.exists(source):
                return importlib.util.spec_from_file_location(name, source)
        return None
sys.meta_path.insert(0, _SourceFirst)
"""


def compiled_modules() -> list[str]:
    """The modules of :mod:`huntgather` installed in compiled form (empty: the pure-Python build).

    >>> isinstance(compiled_modules(), list)
    True
    """
    root = os.path.dirname(os.path.abspath(__file__))
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found: list[str] = []
    for folder, _, files in os.walk(root):
        relative = os.path.relpath(folder, root)
        package = "huntgather" if relative == "." else "huntgather." + relative.replace(os.sep, ".")
        for name in files:
            if name.endswith(suffixes):
                found.append(f"{package}.{name.split('.', 1)[0]}")
    return sorted(found)


def build() -> str:
    """``"compiled"`` if this process runs the compiled rules core, else ``"pure"``.

    >>> build() in ("pure", "compiled")
    True
    """
    from huntgather import state
    return "pure" if (state.__file__ or "").endswith(".py") else "compiled"


def _bench_in_subprocess(pure: bool, edition: str, seconds: float, seed: int) -> dict[str, Any]:
    code = (_PURE_IMPORTS if pure else "") + (
        "import json\nfrom huntgather.bench import run_bench\n"
        f"print(json.dumps(run_bench({edition!r}, {seconds!r}, {seed!r})))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def compare(edition: str = DEFAULT_EDITION, seconds: float = 5.0, seed: int = 0) -> dict[str, Any]:
    """Run the bench once on the pure-Python build and once on the compiled one (each in a fresh
    process of this installation) and return ``{"pure": figures, "compiled": figures or None}``.

    Without a compiled build installed, ``"compiled"`` is None and ``"how_to_compile"`` says how
    to get one.
    """
    out: dict[str, Any] = {"pure": _bench_in_subprocess(True, edition, seconds, seed), "compiled": None}
    if out["pure"].get("build") != "pure":
        raise RuntimeError("the pure-Python run imported compiled modules")
    if compiled_modules():
        out["compiled"] = _bench_in_subprocess(False, edition, seconds, seed)
    else:
        out["how_to_compile"] = HOW_TO_COMPILE
    return out


def format_comparison(result: dict[str, Any]) -> str:
    """The figures of :func:`compare` side by side, with the speed-up of the compiled build.

    >>> fig = {"edition": "2020", "cpu": "X", "python": "CPython 3.11", "copy_us": 2.0}
    >>> print(format_comparison({"pure": fig, "compiled": {**fig, "copy_us": 0.5}}))
    edition 2020, 2 players, one core — X, CPython 3.11
                                              pure   compiled  speed-up
      State.copy()                          2.0 µs     0.5 µs     4.00×
    >>> print(format_comparison({"pure": fig, "compiled": None, "how_to_compile": "make it"}))
    edition 2020, 2 players, one core — X, CPython 3.11
                                              pure
      State.copy()                          2.0 µs
    no compiled build is installed; to get one: make it
    """
    pure, compiled = result["pure"], result.get("compiled")
    lines = [f"edition {pure['edition']}, 2 players, one core — {pure['cpu']}, {pure['python']}",
             f"  {'':<34}{'pure':>10}" + (f"{'compiled':>11}  speed-up" if compiled else "")]
    for key, label, unit in LABELS:
        if key not in pure:
            continue
        line = f"  {label:<34}{pure[key]:>7} {unit:<2}"
        if compiled and key in compiled:
            a, b = float(pure[key]), float(compiled[key])
            ratio = (b / a if unit == "/s" else a / b) if a and b else float("nan")
            line += f"{compiled[key]:>8} {unit:<2}{ratio:>9.2f}×"
        lines.append(line.rstrip())
    if pure.get("load_average") is not None:
        lines.append(f"  (load average {pure['load_average']} when measured; rates per CPU second)")
    if not compiled:
        how = result.get("how_to_compile", HOW_TO_COMPILE)
        lines.append(f"no compiled build is installed; to get one: {how}")
    return "\n".join(lines)
