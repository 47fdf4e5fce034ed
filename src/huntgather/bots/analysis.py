"""Analysing a decision of a game record (the API behind ``huntgather analyse``).

``K`` counts player decisions, from 1: every move of the record that is not a
draw.  The position analysed is the one in which the K-th of them was made.

>>> text = '''huntgather record 1
... edition 2020
... players 2
... moves
... d3 3@0,-1r0
... '''
>>> from huntgather.bots import Limits
>>> report = analyse_record(text, 1, top=2, limits=Limits(simulations=5))
>>> report.played, report.player, len(report.moves) <= 2
(Place(tile=3, x=0, y=-1, rotation=0), 0, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from huntgather.bots.base import Limits, Plan
from huntgather.bots.mcts import MctsBot
from huntgather.bots.search import SearchResult
from huntgather.events import COLOURS as SEAT_NAMES
from huntgather.moves import Draw, Move
from huntgather.record import RecordError, parse_record
from huntgather.state import IllegalMoveError, State


@dataclass
class AnalysisReport:
    """The search's view of one decision."""

    decision: int
    player: int
    description: str
    moves: list[tuple[Move, float, int]]
    played: Move | None
    simulations: int
    seconds: float
    #: per move of :attr:`moves`: each seat's final score as the learned evaluation predicts it
    #: after the move's most visited whole turn (:func:`predict_after`)
    predictions: list[list[float]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"decision": self.decision, "player": self.player, "description": self.description,
                "played": None if self.played is None else str(self.played),
                "simulations": self.simulations, "seconds": round(self.seconds, 3),
                "moves": [{"move": str(m), "value": round(v, 4), "visits": n,
                           **({"predicted": [round(x, 1) for x in self.predictions[i]]}
                              if i < len(self.predictions) else {})}
                          for i, (m, v, n) in enumerate(self.moves)]}

    def describe(self) -> str:
        """A few lines for the terminal."""
        lines = [f"decision {self.decision}: {self.description} "
                 f"({self.simulations} simulations, {self.seconds:.2f} s)",
                 f"{'move':<16}{'value':>8}{'visits':>8}"
                 + ("  predicted final scores (" + ", ".join(f"{SEAT_NAMES[p]}" for p in
                                                              range(len(self.predictions[0]))) + ")"
                    if self.predictions else "")]
        for i, (move, value, visits) in enumerate(self.moves):
            mark = "  ← played" if move == self.played else ""
            predicted = ("  " + " ".join(f"{x:.0f}" for x in self.predictions[i])
                         if i < len(self.predictions) else "")
            lines.append(f"{move!s:<16}{value:>8.3f}{visits:>8}{predicted}{mark}")
        if self.played is not None and all(m != self.played for m, _, _ in self.moves):
            lines.append(f"played: {self.played} (not among the top {len(self.moves)})")
        return "\n".join(lines)


def position_before(text: str, decision: int | None) -> tuple[State, Move | None, int]:
    """The position of the K-th player decision of a record, the move played there, and K.

    With ``decision`` None: the position after the last move.  Raises
    :class:`~huntgather.record.RecordError` for a bad record or K.
    """
    record = parse_record(text)
    state = record.state.copy()
    if decision is not None and decision < 1:
        raise RecordError(0, f"the decision number K counts from 1, not {decision}")
    count = 0
    played: Move | None = None
    for move, line in zip(record.moves, record.lines, strict=True):
        if not isinstance(move, Draw):
            count += 1
            if count == decision:
                played = move
                break
        try:
            state.apply(move)
        except IllegalMoveError as err:
            raise RecordError(line, f"move {move} is illegal: {err}") from None
    if decision is not None and played is None and count + 1 != decision:
        raise RecordError(record.lines[-1] if record.lines else 0,
                          f"the record has {count} player decisions; there is no decision {decision}")
    if state.is_over:
        raise RecordError(record.lines[-1] if record.lines else 0, "the game is over: nothing to analyse")
    if state.is_chance:
        raise RecordError(record.lines[-1] if record.lines else 0,
                          "the record stops where a tile is to be drawn: nothing to analyse")
    return state, played, decision if decision is not None else count + 1


def analyse_record(text: str, decision: int | None, top: int = 5, limits: Limits | None = None,
                   seed: int = 0, bot: str = "expert") -> AnalysisReport:
    """Replay a record to its K-th player decision and search it with ``bot`` (``expert`` or
    ``hard``; ``limits`` replaces its budget); each move shown comes with the learned
    evaluation's predicted final scores (:func:`predict_after`)."""
    from huntgather.bots import EXPERT, LEVELS, expert_bot
    if top < 1:
        raise ValueError(f"--top must be at least 1, not {top}")
    if bot not in ANALYSTS:
        raise ValueError(f"the analysis bot is one of {', '.join(ANALYSTS)}, not {bot!r}")
    state, played, number = position_before(text, decision)
    searcher = (expert_bot(seed, limits or EXPERT) if bot == "expert"
                else MctsBot(limits or LEVELS["hard"], seed))
    result = searcher.search(state)
    moves = result.moves[:top]
    return AnalysisReport(number, state.player, state.describe_decision(), moves, played,
                          result.simulations, result.seconds,
                          [predict_after(state, best_plan(result, move)) for move, _, _ in moves])


#: the searches ``analyse_record`` can use
ANALYSTS = ("expert", "hard")


def best_plan(result: SearchResult, move: Move) -> Plan:
    """The most visited whole turn of a search that begins with ``move`` (just ``move`` if none)."""
    for plan, _, _ in result.plans:   # most visited first
        if plan[0] == move:
            return plan
    return (move,)


def predict_after(state: State, plan: Sequence[Move],
                  evaluate: Callable[[State], list[float]] | None = None) -> list[float]:
    """Each seat's final score as ``evaluate`` predicts it once ``plan`` is played from ``state``
    (which is not changed).  By default the learned evaluation,
    :meth:`~huntgather.bots.learned.LinearEval.shipped`: a model fitted by ``huntgather
    train-eval`` to each seat's final score, whose predictions are far closer to the final scores
    than the heuristic estimate's (which counts only the points in sight); the expert's search
    itself ranks turns by the heuristic with weights fitted by play (docs/bots.md).

    >>> from huntgather import Game
    >>> g = Game(players=2, seed=4)
    >>> plan = g.legal_moves()[0],
    >>> values = predict_after(g.state, plan)
    >>> len(values), all(v >= 0 for v in values)
    (2, True)
    """
    if evaluate is None:
        from huntgather.bots.learned import LinearEval
        evaluate = LinearEval.shipped()
    after = state.copy()
    for move in plan:
        after.apply(move)
    return [float(v) for v in evaluate(after)]

