"""The guided first game of each edition: a scripted deal, its steps and the coach's texts.

A script (``data/tutorial/<edition>.json``) holds the start position (a position text, see
:mod:`huntgather.record`) and the steps: each step is one decision of one seat, its moves
(the draw that brings the tile, then the move), the kind of ``check`` the coach makes
(``exact``: the learner must play the scripted move; ``free``: any legal move is fine;
``watch``: the opponent's scripted move), the scores and the position text after it.  The
coach's English texts are all in ``data/tutorial/coach.en.json``, one key per step.

>>> script = load_script("2020")
>>> script.edition, len(script.steps) > 10, script.steps[0].check is Check.EXACT
('2020', True, True)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from typing import Any

from huntgather.game import Game
from huntgather.moves import Draw, parse_move
from huntgather.record import load_position
from huntgather.state import State

#: the editions that have a guided first game
EDITIONS = ("2020", "2002")


class Check(StrEnum):
    """What the coach checks at a step (its word in the scripts)."""

    EXACT = "exact"   # the learner must play the scripted move
    FREE = "free"     # any legal move is fine
    WATCH = "watch"   # the opponent's scripted move


@dataclass(frozen=True)
class Step:
    key: str
    player: int
    moves: tuple[str, ...]
    check: Check
    scores: tuple[int, ...]
    position: str


@dataclass(frozen=True)
class Script:
    edition: str
    start: str
    steps: tuple[Step, ...]

    def start_state(self) -> State:
        """The position the guided game starts from."""
        return load_position(self.start, edition=self.edition)


def _data(name: str) -> Any:
    return json.loads(resources.files("huntgather").joinpath("data", "tutorial", name).read_text("utf-8"))


def load_script(edition: str) -> Script:
    """The guided game of ``edition`` (raise ``ValueError`` for an edition without one)."""
    if edition not in EDITIONS:
        raise ValueError(f"no guided game for edition {edition!r}")
    data = _data(f"{edition}.json")
    steps = tuple(Step(key=s["key"], player=s["player"], moves=tuple(s["moves"]), check=Check(s["check"]),
                       scores=tuple(s["scores"]), position=s["position"]) for s in data["steps"])
    return Script(edition=data["edition"], start=data["start"], steps=steps)


def draw_orders(script: Script) -> tuple[list[int], list[int]]:
    """The tiles the script draws, in order: the normal stack's, then the bonus (menhir) stack's."""
    edition = script.start_state().edition
    bonus = set(edition.tiles.bonus_ids)
    drawn = [m.tile for step in script.steps for m in map(parse_move, step.moves) if isinstance(m, Draw)]
    return [t for t in drawn if t not in bonus], [t for t in drawn if t in bonus]


def new_game(edition: str) -> Game:
    """A game at the guided game's start whose draws follow the script (for a server or a page
    that plays it: the learner's free moves change nothing of the tiles that come)."""
    script = load_script(edition)
    normal, bonus = draw_orders(script)
    state = script.start_state()
    return Game(state.players, seed=0, state=state, normal_order=normal, bonus_order=bonus)


def coach_texts() -> dict[str, str]:
    """The coach's English text of every step, by step key."""
    texts: dict[str, str] = _data("coach.en.json")
    return texts


def replay(script: Script) -> list[State]:
    """The position after each step, every scripted move played through the engine."""
    state = script.start_state()
    out: list[State] = []
    for step in script.steps:
        for word in step.moves:
            state.apply(parse_move(word))
        out.append(state.copy())
    return out


def check_step(state: State, step: Step, move: str) -> bool:
    """Whether the learner's ``move`` passes ``step``'s check at ``state`` (its draw made)."""
    if step.check is Check.FREE:
        return parse_move(move) in state.legal_moves()
    return move == step.moves[-1]
