"""Bot games written as training data: observations, masks, actions and outcomes.

Games are grouped in chunks of ``chunk`` games; chunk ``c`` is written to
``OUT/chunk-00000c.npz`` (``numpy.savez_compressed``) with one row per
decision:

============  ===============  ==============================================
array         shape, dtype     meaning
============  ===============  ==============================================
``board``     (N, 74, W, W) u8 the mover's observation planes (``PLANES``)
``vector``    (N, 154) f32     the mover's global vector (``VECTOR``)
``mask``      (N, ⌈A/8⌉) u8    the action mask, ``numpy.packbits`` of A actions
``action``    (N,) i32         the action the bot chose
``seat``      (N,) i8          the mover's seat
``game``      (N,) i32         the game's index in the run
``margin``    (N,) f32         the mover's final score minus the best other seat's
``outcome``   (N,) i8          +1 sole best, 0 shared best, -1 otherwise
``scores``    (G, P) i32       final scores of the chunk's games
``bots``      (G, P) str       the bot of each seat
``meta``      () str           JSON: edition, players, seed, window, chunk, first game
============  ===============  ==============================================

Game ``i`` uses ``Game(seed=seed * 1_000_003 + i)`` and bot seeds derived
from the same numbers, so the same settings write the same files wherever
the chunks run (local processes or a Ray cluster).

>>> import tempfile, numpy as np
>>> with tempfile.TemporaryDirectory() as out:
...     paths = run_selfplay(["random"], games=2, out=out, chunk=2)
...     data = np.load(paths[0])
...     data["board"].shape[1:], len(data["action"]) == len(data["margin"]), data["scores"].shape
((74, 33, 33), True, (2, 2))
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from huntgather.editions import DEFAULT_EDITION, get_edition
from huntgather.game import Game
from huntgather.lab.tournament import run_jobs
from huntgather.rl.aec import DEFAULT_WINDOW
from huntgather.rl.encoding import Encoder


def play_game(specs: Sequence[str], edition: str, players: int, seed: int, index: int,
              window: int = DEFAULT_WINDOW) -> dict[str, Any]:
    """One recorded game: seat ``k`` is bot ``specs[(index + k) % len(specs)]``."""
    from huntgather.bots import make_bot
    seats = [specs[(index + k) % len(specs)] for k in range(players)]
    game = Game(players, edition=edition, seed=seed * 1_000_003 + index)
    bots = [make_bot(spec, seed=(seed * 7919 + index * 104_729 + k) % 2**32) for k, spec in enumerate(seats)]
    enc = Encoder(game.state, window)
    boards, vectors, masks, actions, movers = [], [], [], [], []
    state = game.state
    while not state.is_over:
        _, mask = enc.legal()
        seat = state.player
        obs = enc.observe(seat)
        move = bots[seat].choose(state)
        boards.append(obs["board"])
        vectors.append(obs["vector"])
        masks.append(np.packbits(mask))
        actions.append(enc.encode(move))
        movers.append(seat)
        tile = state.tile
        events = game.play(move, trusted=True)
        enc.update(move, tile, events)
    scores = game.scores
    margins = [s - max(o for k, o in enumerate(scores) if k != p) for p, s in enumerate(scores)]
    return {"board": np.stack(boards), "vector": np.stack(vectors), "mask": np.stack(masks),
            "action": np.array(actions, dtype=np.int32), "seat": np.array(movers, dtype=np.int8),
            "margin": np.array([margins[p] for p in movers], dtype=np.float32),
            "outcome": np.array([(m > 0) - (m < 0) for m in (margins[p] for p in movers)], dtype=np.int8),
            "scores": scores, "bots": seats}


def _write_job(job: tuple[Any, ...]) -> str:
    """:func:`write_chunk` of one job's arguments (a module-level function, for process pools)."""
    return write_chunk(*job)


def write_chunk(specs: Sequence[str], edition: str, players: int, seed: int, first: int, count: int,
                window: int, path: str) -> str:
    """Play games ``first .. first + count - 1`` and write them to ``path``; return ``path``."""
    games = [play_game(specs, edition, players, seed, i, window) for i in range(first, first + count)]
    arrays = {key: np.concatenate([g[key] for g in games]) for key in
              ("board", "vector", "mask", "action", "seat", "margin", "outcome")}
    arrays["game"] = np.concatenate([np.full(len(g["action"]), first + k, dtype=np.int32)
                                     for k, g in enumerate(games)])
    meta = {"edition": edition, "players": players, "seed": seed, "window": window,
            "first_game": first, "games": count, "format": "huntgather-selfplay", "version": 1}
    tmp = path + ".tmp.npz"
    arrays["scores"] = np.array([g["scores"] for g in games], dtype=np.int32)
    arrays["bots"] = np.array([g["bots"] for g in games])
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
    os.replace(tmp, path)
    return path


def run_selfplay(specs: Sequence[str], games: int, out: str | Path, players: int = 2, seed: int = 0,
                 edition: str = DEFAULT_EDITION, chunk: int = 50, window: int = DEFAULT_WINDOW,
                 workers: int = 1, executor: Any = None,
                 progress: Callable[[str], None] | None = None) -> list[str]:
    """Write ``games`` recorded games in chunks under ``out``; return the chunk paths in order.

    Chunks already in ``out`` are kept (an interrupted run resumes).  With
    ``executor`` (e.g. :class:`huntgather.rl.cluster.RayExecutor`) the chunks
    run there; else in ``workers`` local processes.
    """
    from huntgather.bots import make_bot
    for spec in specs:
        make_bot(spec, seed=0)
    ed = get_edition(edition)
    if not ed.min_players <= players <= ed.max_players:
        raise ValueError(f"the {ed.name} edition is for {ed.min_players}-{ed.max_players} players, "
                         f"not {players}")
    if games < 1 or chunk < 1:
        raise ValueError("the numbers of games and of games per chunk must be at least 1")
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    jobs = []
    paths = []
    for c, first in enumerate(range(0, games, chunk)):
        path = str(folder / f"chunk-{c:06d}.npz")
        paths.append(path)
        if Path(path).exists():
            if progress:
                progress(path)
            continue
        jobs.append((tuple(specs), ed.name, players, seed, first, min(chunk, games - first), window, path))
    for done in run_jobs(_write_job, jobs, workers, executor):
        if progress:
            progress(done)
    return paths
