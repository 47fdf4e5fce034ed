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

import functools
import json
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from typing import Any

from huntgather.game import Game
from huntgather.moves import Draw, Occupy, Place, parse_move
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


@functools.cache
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


#: the languages of the coach's texts (``data/tutorial/coach.<lang>.json``); English has every key
COACH_LANGUAGES = ("en", "cs", "de")


def coach_texts(lang: str = "en") -> dict[str, str]:
    """The coach's text of every step by step key, and of every retry (``retry.*``), in ``lang``
    (a language without its own file, or a key its file lacks, gets the English text)."""
    texts: dict[str, str] = _data("coach.en.json")
    if lang != "en" and lang in COACH_LANGUAGES:
        texts = {**texts, **_data(f"coach.{lang}.json")}
    return texts


def step_at(script: Script, ply: int) -> int | None:
    """The index of the step the game is at once ``ply`` moves (draws included) are played from
    the script's start: the step whose last move is still to come (None: the script is over).

    >>> script = load_script("2020")
    >>> step_at(script, 0), step_at(script, 1), step_at(script, 2), step_at(script, 1000)
    (0, 0, 1, None)
    """
    done = 0
    for i, step in enumerate(script.steps):
        done += len(step.moves)
        if ply < done:
            return i
    return None


def retry_key(step: Step, move: str) -> str:
    """The key of the coach's explanation (``retry.*`` in the coach's texts) of why ``move`` is
    not the one ``step`` asks for.

    >>> step = load_script("2020").steps[0]   # 46@1,0r1
    >>> retry_key(step, "46@1,0r3"), retry_key(step, "46@0,1r1")
    ('retry.rotation', 'retry.square')
    >>> step = load_script("2020").steps[1]   # m46.3
    >>> retry_key(step, "-"), retry_key(step, "h46.3"), retry_key(step, "m46.1")
    ('retry.no_piece', 'retry.piece', 'retry.zone')
    """
    want, got = parse_move(step.moves[-1]), parse_move(move)
    if isinstance(want, Place) and isinstance(got, Place):
        return "retry.rotation" if (want.x, want.y) == (got.x, got.y) else "retry.square"
    if isinstance(want, Occupy):
        if not isinstance(got, Occupy):
            return "retry.no_piece"
        return "retry.zone" if want.piece == got.piece else "retry.piece"
    return "retry.move"


def scripted_move(script: Script, state: State, ply: int) -> str | None:
    """The script's move at ``ply`` (a watch step's, for the coach's opponent) if it is legal in
    ``state``, else None (a free step led elsewhere: the caller plays some legal move)."""
    at = step_at(script, ply)
    if at is None:
        return None
    move = script.steps[at].moves[-1]
    return move if parse_move(move) in state.legal_moves() else None


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
