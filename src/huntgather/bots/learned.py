"""A learned evaluation: each seat's final score predicted by a linear model over position features.

The features of a seat (:func:`seat_features`) come from the engine's public
state and :mod:`huntgather.scoring`, split by kind where the heuristic
(:mod:`huntgather.bots.heuristic`) adds them up: the score so far, what the
seat's open forests and rivers are worth now and with the heuristic's
completion chance, the animals of the meadows it leads, the fish of the river
systems it leads, its pieces in supply, whether a bonus turn is pending for
it, and how soon it moves.  Most are also given multiplied by the share of the
normal stack still to come, so that one linear model can value a piece or an
open forest differently early and late.

The weights (one vector per edition and number of players) are fitted by
least squares on self-play positions (``huntgather train-eval``, which needs
NumPy) and ship as JSON package data (``data/eval-linear.json``, with a format
version).  Playing needs no NumPy: the prediction is a dot product in plain
Python.  A position whose edition and number of players has no weights falls
back to the heuristic estimate.

>>> from huntgather import Game
>>> g = Game(players=2, seed=4)
>>> model = LinearEval.shipped()
>>> values = model(g.state)
>>> len(values) == 2 and all(isinstance(v, float) for v in values)
True
>>> len(FEATURES) == len(seat_features(g.state)[0])
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from huntgather.bots.heuristic import estimate, share_left, stake
from huntgather.state import BONUS, DRAW, State

#: the format of the weights file; a reader refuses any other
EVAL_FORMAT = "huntgather-eval-linear"
EVAL_FORMAT_VERSION = 1
#: the weights shipped with the package
SHIPPED = "eval-linear.json"

#: names of the features of one seat, in order (``*_late`` = times the share of the normal stack left)
FEATURES: tuple[str, ...] = (
    "bias", "left", "score",
    "forest_now", "forest_expected", "river_now", "river_expected", "open_sides",
    "meadow", "system", "meeples", "huts", "bonus_turn", "turns_until",
    "forest_now_late", "river_now_late", "meadow_late", "system_late", "meeples_late", "huts_late",
    "shared",
)


def seat_features(state: State) -> list[list[float]]:
    """The features (:data:`FEATURES`) of every seat of ``state``; ``state`` is not changed.

    >>> s = State.new(players=3)
    >>> rows = seat_features(s)
    >>> len(rows), rows[0][FEATURES.index("score")], rows[0][FEATURES.index("left")]
    (3, 0.0, 1.0)
    """
    players = state.players
    board = state.board
    left = share_left(state)
    acc = [[0.0] * 8 for _ in range(players)]   # forest now/exp, river now/exp, open, meadow, system, shared
    for root in board.occupied_ids():
        found = stake(state, root)
        if found is None:
            continue
        slot, winners, points, chance = found
        if slot < 5:   # a forest or river: what it pays if completed, and its open sides
            open_sides = board.feature_by_id(root).open
            for w in winners:
                acc[w][slot + 1] += points * chance
                acc[w][4] += open_sides
        for w in winners:
            acc[w][slot] += points
            if len(winners) > 1:
                acc[w][7] += points
    bonus_seat = state.player if state.phase == DRAW and state.stack == BONUS and state.bonus else -1
    rows = []
    for p in range(players):
        a = acc[p]
        meeples, huts = float(state.meeples[p]), float(state.huts[p])
        until = ((p - state.player) % players) / players
        rows.append([
            1.0, left, float(state.scores[p]),
            a[0], a[1], a[2], a[3], a[4],
            a[5], a[6], meeples, huts, 1.0 if p == bonus_seat else 0.0, until,
            a[0] * left, a[2] * left, a[5] * left, a[6] * left, meeples * left, huts * left,
            a[7],
        ])
    return rows


@dataclass(frozen=True)
class LinearEval:
    """Predicted final score of each seat: per (edition, players), a weight per feature.

    ``weights`` maps ``"<edition>/<players>"`` to a list as long as
    :data:`FEATURES`.  Calling the model on a finished game gives the scores.

    >>> m = LinearEval({"2020/2": [0.0, 0.0, 1.0] + [0.0] * (len(FEATURES) - 3)})
    >>> s = State.new(players=2)
    >>> m(s)                      # a model that only counts the score so far
    [0.0, 0.0]
    >>> m.covers(s), m.covers(State.new(players=3))
    (True, False)
    """

    weights: Mapping[str, Sequence[float]]
    version: str = "unversioned"

    def __post_init__(self) -> None:
        for key, w in self.weights.items():
            if len(w) != len(FEATURES):
                raise ValueError(f"weights {key!r} have {len(w)} entries; the features are {len(FEATURES)}")

    @staticmethod
    def key(state: State) -> str:
        return f"{state.edition.name}/{state.players}"

    def covers(self, state: State) -> bool:
        """Whether the model has weights for ``state``'s edition and number of players."""
        return self.key(state) in self.weights

    def __call__(self, state: State) -> list[float]:
        if state.is_over:
            return [float(s) for s in state.scores]
        w = self.weights.get(self.key(state))
        if w is None:
            return estimate(state)
        return [sum(a * b for a, b in zip(w, row, strict=True)) for row in seat_features(state)]

    # ------------------------------------------------------------------ files

    def to_json(self, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The weights file's content (``meta`` adds how it was trained)."""
        return {"format": EVAL_FORMAT, "version": EVAL_FORMAT_VERSION, "model": self.version,
                "features": list(FEATURES), "weights": {k: [round(x, 6) for x in v]
                                                         for k, v in sorted(self.weights.items())},
                "meta": dict(meta or {})}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LinearEval:
        """A model from a weights file's content; ``ValueError`` for another format or features.

        >>> LinearEval.from_json({"format": "other"})
        Traceback (most recent call last):
        ...
        ValueError: not a huntgather-eval-linear file (format 'other', version None)
        """
        if data.get("format") != EVAL_FORMAT or data.get("version") != EVAL_FORMAT_VERSION:
            raise ValueError(f"not a {EVAL_FORMAT} file (format {data.get('format')!r}, "
                             f"version {data.get('version')!r})")
        if tuple(data.get("features", ())) != FEATURES:
            raise ValueError("the file's features are not this version's features")
        weights = {str(k): [float(x) for x in v] for k, v in data["weights"].items()}
        return cls(weights, str(data.get("model", "unversioned")))

    @classmethod
    def load(cls, path: str) -> LinearEval:
        with open(path, encoding="utf-8") as fh:
            return cls.from_json(json.load(fh))

    @classmethod
    def shipped(cls) -> LinearEval:
        """The model shipped with the package (loaded once)."""
        return _shipped()


@cache
def _shipped() -> LinearEval:
    text = resources.files("huntgather.data").joinpath(SHIPPED).read_text(encoding="utf-8")
    return LinearEval.from_json(json.loads(text))
