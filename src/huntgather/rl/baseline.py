"""The pretrained baseline: a small convolutional network with a policy and a value (score) head
over the environment's own observations and actions, run in NumPy.

A researcher starts from it: it reads exactly what :class:`~huntgather.rl.encoding.Encoder`
gives a seat (the board planes and the vector of a 33-cell window) and answers with one logit
for each of the :data:`ACTIONS` actions of that window (the mask selects the legal ones), the
seat's predicted final margin (the score head) and the chances of its outcome (win, shared
first place, loss).  The shipped weights (``data/baseline.npz``) were trained by behaviour
cloning on games of ``greedy:tuned`` (two players, 2020 edition) with
``tools/train_baseline.py``, which needs PyTorch (the ``train`` extra); playing and reading
them needs NumPy only.  How it was made and how strong it is: docs/rl.md ("The pretrained
baseline").

The network (every layer's weights are in the file under the names below)::

    x  = log1p(board)                                  (74, W, W)
    u  = signed_log1p(vector)                          (154,)
    h1 = relu(conv3(x; c1) + lin(u; film)[:, None, None])          (C, W, W)
    h2 = relu(conv3(h1; c2))
    h3 = relu(conv3(h2; c3) + h1)
    place  = conv1(h3; place)    (4, W, W)   -> action 4 * (row * W + col) + r
    take   = conv1(h3; take)     (1, W, W)   -> action 4 W² + 21 + cell
    g  = relu(lin([mean(h3), max(h3), u]; g1))          (H,)
    occupy = lin(g; occupy)      (21,)       -> actions 4 W² … 4 W² + 20
    choose = lin(g; choose)      (8,)        -> actions 5 W² + 21 …
    margin = lin(g; margin) * MARGIN_SCALE   (the seat's final margin over the best other)
    outcome = softmax(lin(g; outcome))       (loss, shared first, sole first)

>>> net = Baseline.load()
>>> from huntgather.game import Game
>>> from huntgather.rl.encoding import Encoder
>>> enc = Encoder(Game(2, seed=1).state)
>>> moves, mask = enc.legal()
>>> logits, margin, outcome = net.evaluate(enc.observe(0))
>>> logits.shape, round(float(outcome.sum()), 3)
((5474,), 1.0)
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from huntgather.moves import Move
from huntgather.rl.cells import PLANES
from huntgather.rl.encoding import OPTIONS, VECTOR, Encoder
from huntgather.rl.reading import ZONE_IDS
from huntgather.state import State

#: the window the network was made for (the environment's default)
WINDOW = 33
#: the actions of that window (:class:`~huntgather.rl.encoding.Encoder`'s ``actions``)
ACTIONS = 5 * WINDOW * WINDOW + 2 * ZONE_IDS + 1 + OPTIONS
#: the margin head predicts the final margin divided by this
MARGIN_SCALE = 50.0
#: the layers and their shapes, given the channels C and the hidden width H
LAYERS = ("film", "c1", "c2", "c3", "place", "take", "g1", "occupy", "choose", "margin", "outcome")

Array = np.ndarray[Any, np.dtype[np.float32]]


def signed_log1p(v: Array) -> Array:
    """``sign(v) * log(1 + |v|)``: scores and counts of any size in a range a network likes."""
    return np.sign(v) * np.log1p(np.abs(v))


def conv3(x: Array, w: Array, b: Array) -> Array:
    """A 3×3 convolution with zero padding (stride 1): ``x`` (Cin, H, W), ``w`` (Cout, Cin, 3, 3),
    ``b`` (Cout,) -> (Cout, H, W); the same as PyTorch's ``Conv2d(Cin, Cout, 3, padding=1)``."""
    cin, height, width = x.shape
    padded = np.zeros((cin, height + 2, width + 2), dtype=np.float32)
    padded[:, 1:-1, 1:-1] = x
    # the 9 shifted copies of the input, stacked as (Cin * 9, H * W) in the weights' order
    cols = np.empty((cin, 3, 3, height, width), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            cols[:, i, j] = padded[:, i:i + height, j:j + width]
    out = w.reshape(w.shape[0], -1) @ cols.reshape(cin * 9, height * width)
    return (out + b[:, None]).reshape(w.shape[0], height, width)


def conv1(x: Array, w: Array, b: Array) -> Array:
    """A 1×1 convolution: ``x`` (Cin, H, W), ``w`` (Cout, Cin, 1, 1) -> (Cout, H, W)."""
    cin, height, width = x.shape
    out = w.reshape(w.shape[0], cin) @ x.reshape(cin, height * width)
    return (out + b[:, None]).reshape(w.shape[0], height, width)


def relu(x: Array) -> Array:
    return np.maximum(x, 0)


class Baseline:
    """The network with its weights (:meth:`load`), and what it says of an observation."""

    def __init__(self, weights: dict[str, Array], meta: dict[str, Any]) -> None:
        self.w = {k: np.asarray(v, dtype=np.float32) for k, v in weights.items()}
        #: how the weights were made: the training command, data, epochs, losses (``meta`` in the file)
        self.meta = meta
        channels = self.w["c1.weight"].shape[1]
        vector = self.w["film.weight"].shape[1]
        if channels != len(PLANES) or vector != len(VECTOR):
            raise ValueError(f"these weights read {channels} planes and {vector} vector entries; "
                             f"this version's observations have {len(PLANES)} and {len(VECTOR)}")

    @classmethod
    def load(cls, path: str | Path | None = None) -> Baseline:
        """The weights in ``path`` (a file :mod:`tools/train_baseline.py` wrote), or the shipped ones."""
        if path is None:
            with resources.as_file(resources.files("huntgather") / "data" / "baseline.npz") as shipped:
                return cls._read(shipped)
        return cls._read(Path(path))

    @classmethod
    def _read(cls, path: Path) -> Baseline:
        with np.load(path, allow_pickle=False) as data:
            weights = {k: data[k] for k in data.files if k != "meta"}
            meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
        return cls(weights, meta)

    def _lin(self, name: str, x: Array) -> Array:
        return self.w[f"{name}.weight"] @ x + self.w[f"{name}.bias"]

    def _conv3(self, name: str, x: Array) -> Array:
        return conv3(x, self.w[f"{name}.weight"], self.w[f"{name}.bias"])

    def _conv1(self, name: str, x: Array) -> Array:
        return conv1(x, self.w[f"{name}.weight"], self.w[f"{name}.bias"])

    def evaluate(self, observation: dict[str, Any]) -> tuple[Array, float, Array]:
        """For one observation (``{"board": uint8 (74, W, W), "vector": float32 (154,)}``, W = 33):
        the logits of every action (mask them), the seat's predicted final margin, and the
        chances of (loss, shared first place, sole first place)."""
        board = np.asarray(observation["board"])
        if board.shape != (len(PLANES), WINDOW, WINDOW):
            raise ValueError(f"the baseline reads a {WINDOW}-cell window, not {board.shape[1:]}")
        x = np.log1p(board.astype(np.float32))
        u = signed_log1p(np.asarray(observation["vector"], dtype=np.float32))
        h1 = relu(self._conv3("c1", x) + self._lin("film", u)[:, None, None])
        h2 = relu(self._conv3("c2", h1))
        h3 = relu(self._conv3("c3", h2) + h1)
        place = self._conv1("place", h3)                     # (4, W, W)
        take = self._conv1("take", h3)[0]                    # (W, W)
        g = relu(self._lin("g1", np.concatenate([h3.mean(axis=(1, 2)), h3.max(axis=(1, 2)), u])))
        logits = np.concatenate([place.transpose(1, 2, 0).reshape(-1), self._lin("occupy", g),
                                 take.reshape(-1), self._lin("choose", g)])
        margin = float(self._lin("margin", g)[0]) * MARGIN_SCALE
        o = self._lin("outcome", g)
        o = np.exp(o - o.max())
        return logits.astype(np.float32), margin, (o / o.sum()).astype(np.float32)


_SHIPPED: Baseline | None = None


def shipped() -> Baseline:
    """The shipped network, read once per process."""
    global _SHIPPED
    if _SHIPPED is None:
        _SHIPPED = Baseline.load()
    return _SHIPPED


class BaselineBot:
    """Plays the baseline policy's most likely legal move (no search, no randomness: the seed is
    accepted and ignored, so every seed plays alike)."""

    name = "baseline"

    def __init__(self, seed: int | None = None, net: Baseline | None = None) -> None:
        self.net = net or shipped()

    def choose(self, state: State) -> Move:
        enc = Encoder(state, WINDOW)
        legal = np.flatnonzero(enc.legal_mask())
        if len(legal) == 1:
            return enc.decode(int(legal[0]))
        logits, _margin, _outcome = self.net.evaluate(enc.observe(state.player))
        return enc.decode(int(legal[np.argmax(logits[legal])]))
