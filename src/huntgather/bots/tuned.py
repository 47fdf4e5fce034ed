"""The expert's evaluation: the heuristic's numbers fitted by play, and the file that ships them.

A regression of final scores on positions (:mod:`huntgather.bots.learned`)
predicts scores well and orders moves badly (docs/bots.md).  What a search
needs is that order, so the expert's :class:`~huntgather.bots.heuristic.Weights`
are fitted by what they win, in duels of greedy players (:mod:`huntgather.lab.tuning`,
``huntgather tune-eval``).

The fitted weights ship as ``data/eval-weights.json`` (format
``huntgather-eval-weights``, version 1), one set per edition and number of
players, each with the command that made it; :func:`weights_for` gives those
of a position, or the heuristic's own numbers where none were fitted.

>>> w = shipped_weights("2020", 2)
>>> isinstance(w, Weights)
True
>>> shipped_weights("2020", 9) == DEFAULT     # no weights fitted for 9 players
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import asdict, fields, replace
from functools import cache
from importlib import resources
from typing import Any

from huntgather.bots.greedy import GreedyBot
from huntgather.bots.heuristic import DEFAULT, Weights
from huntgather.moves import Move
from huntgather.state import State

#: the format of the weights file; a reader refuses any other
WEIGHTS_FORMAT = "huntgather-eval-weights"
WEIGHTS_FORMAT_VERSION = 1
#: the weights shipped with the package
SHIPPED = "eval-weights.json"
#: the fields of :class:`Weights`, in order
FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Weights))


def key(edition: str, players: int) -> str:
    """The key of an edition and number of players in a weights file.

    >>> key("2020", 3)
    '2020/3'
    """
    return f"{edition}/{players}"


def weights_from(values: Mapping[str, Any]) -> Weights:
    """Weights from a JSON object of field names to numbers (the missing ones: the default's).

    >>> weights_from({"meadow_early": -0.5}) == replace(DEFAULT, meadow_early=-0.5)
    True
    >>> weights_from({"speed": 1})
    Traceback (most recent call last):
    ...
    ValueError: unknown weight 'speed'; expected some of meeple, hut, bonus_turn, horizon, completion, \
meadow_early, system_early, open_early, meeple_back
    """
    out: dict[str, float] = {}
    for name, value in values.items():
        if name not in FIELDS:
            raise ValueError(f"unknown weight {name!r}; expected some of {', '.join(FIELDS)}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"weight {name!r} must be a number, not {value!r}")
        out[name] = float(value)
    weights = replace(DEFAULT, **out)
    if weights.horizon <= 0:
        raise ValueError(f"weight 'horizon' must be above 0, not {weights.horizon}")
    return weights


def read_entries(text: str) -> dict[str, tuple[Weights, dict[str, Any]]]:
    """The entries of a weights file's text, by :func:`key`: the weights and what else the entry
    says of them (its command, its duel); ValueError if it is not a weights file."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not a weights file (not JSON: {error.msg})") from None
    if not isinstance(data, dict) or data.get("format") != WEIGHTS_FORMAT:
        raise ValueError(f"not a weights file (format {WEIGHTS_FORMAT!r} expected)")
    if data.get("version") != WEIGHTS_FORMAT_VERSION:
        raise ValueError(f"weights file version {data.get('version')!r}; this huntgather reads "
                         f"version {WEIGHTS_FORMAT_VERSION}")
    table = data.get("weights")
    if not isinstance(table, dict):
        raise ValueError("a weights file holds its weights under 'weights'")
    out: dict[str, tuple[Weights, dict[str, Any]]] = {}
    for name, entry in table.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("weights"), dict):
            raise ValueError(f"weights {name!r}: an object with 'weights' expected")
        out[name] = (weights_from(entry["weights"]), {k: v for k, v in entry.items() if k != "weights"})
    return out


def read_weights(text: str) -> dict[str, Weights]:
    """The weights of a weights file's text, by :func:`key`; ValueError if it is not one."""
    return {name: weights for name, (weights, _) in read_entries(text).items()}


def weights_document(table: Mapping[str, tuple[Weights, Mapping[str, Any]]]) -> dict[str, Any]:
    """The JSON object of a weights file: for each key, the weights and what is known of them.

    >>> doc = weights_document({"2020/2": (DEFAULT, {"command": "x"})})
    >>> read_weights(json.dumps(doc)) == {"2020/2": DEFAULT}
    True
    """
    return {"format": WEIGHTS_FORMAT, "version": WEIGHTS_FORMAT_VERSION,
            "weights": {name: {"weights": asdict(weights), **dict(meta)}
                        for name, (weights, meta) in sorted(table.items())}}


@cache
def _shipped() -> dict[str, Weights]:
    text = resources.files("huntgather.data").joinpath(SHIPPED).read_text(encoding="utf-8")
    return read_weights(text)


def shipped_weights(edition: str, players: int) -> Weights:
    """The shipped weights of an edition and number of players (the default where none ship)."""
    return _shipped().get(key(edition, players), DEFAULT)


def weights_for(state: State) -> Weights:
    """The shipped weights for ``state``'s edition and number of players (what the expert uses)."""
    return shipped_weights(state.edition.name, state.players)


class TunedGreedyBot(GreedyBot):
    """Greedy with the shipped weights of the position's edition and number of players.

    >>> from huntgather import Game
    >>> g = Game(players=2, seed=5)
    >>> TunedGreedyBot(seed=0).choose(g.state) in g.legal_moves()
    True
    """

    name = "greedy:tuned"

    def _choose(self, state: State, moves: list[Move], rng: random.Random) -> Move:
        self.weights = weights_for(state)
        return super()._choose(state, moves, rng)
