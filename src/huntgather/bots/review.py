"""The post-game review: the expert's view of every turn of a finished game (``huntgather
review``, the page's Review; docs/review.md).

A *turn* here is what a search compares: the moves a player makes between two draws (place, then
possibly the shaman's take-back and the occupant: a plan, :mod:`huntgather.bots.plans`).  For
each turn of the record in which the player had a choice, :func:`review_record`

* searches the position with the expert's search (:class:`~huntgather.bots.expert.ExpertBot`,
  the same search as ``huntgather analyse``, ``simulations`` per turn) and takes its best turn;
* values the played turn and the best one on the same ``samples`` determinizations
  (:meth:`~huntgather.bots.expert.ExpertBot.compare`: paired draws, so the difference is the
  moves' and not the draws'): each a *win chance* for the mover in [0, 1] (with two players a
  logistic of the predicted margin, with more the expected share of the other seats outscored);
* the *loss* is the best turn's chance less the played one's (never below 0: a played turn that
  the paired samples value above the search's choice is the best), and a *label* from
  :data:`THRESHOLDS` (calibrated on expert self-play, docs/review.md);
* adds each seat's final score as the learned evaluation predicts it after either turn
  (:func:`~huntgather.bots.analysis.predict_after`).

Per seat an *accuracy* in percent (:func:`move_accuracy`, lichess's formula) averaged over its
turns, and the *turning points*: the turns whose mover's win chance changed the most since
that seat's previous turn.  Turns with a single way to play are listed as forced, unsearched.

Reproducible: every search is seeded from the game (its start and moves, not the record's
comments or layout) and the turn, and no time limit
applies, so the same record, level and budget give the same review on any machine.

>>> from huntgather.game import Game
>>> from huntgather.state import State
>>> from huntgather.bots.greedy import GreedyBot
>>> start = State.new(2)
>>> start.normal = start.normal[:3]
>>> game = Game(state=start, seed=3)
>>> while not game.is_over:
...     _ = game.play(GreedyBot().choose(game.state))
>>> from huntgather.record import write_record
>>> review = review_record(write_record(game), simulations=6, samples=2)
>>> len(review.turns) >= 3, all(0.0 <= t.loss <= 1.0 for t in review.turns)
(True, True)
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from huntgather.bots.base import Limits
from huntgather.bots.plans import Plan, turn_plans
from huntgather.events import COLOURS as SEAT_NAMES
from huntgather.moves import Draw, Move
from huntgather.record import RecordError, parse_record
from huntgather.state import OCCUPY, SPECIAL, IllegalMoveError, State

#: the levels whose search can review a game
REVIEWERS = ("expert",)
#: the default budget of a turn: the expert's own search (150 simulations) ...
SIMULATIONS = 150
#: ... then the played and the best turn, each valued on this many paired determinizations
SAMPLES = 48
#: labels by win-chance loss, worst first: a turn losing at least this much of the mover's win
#: chance (calibrated on expert self-play: docs/review.md)
THRESHOLDS = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
#: at most this many turning points are named
TURNING_POINTS = 3
#: a turning point moves its seat's win chance by at least this much
TURNING_SWING = 0.15


def label(loss: float) -> str | None:
    """The label of a turn that loses ``loss`` of the mover's win chance, None below the least.

    >>> label(0.25), label(0.12), label(0.05), label(0.049)
    ('blunder', 'mistake', 'inaccuracy', None)
    """
    for name, threshold in THRESHOLDS:
        if loss >= threshold - 1e-12:
            return name
    return None


def move_accuracy(before: float, after: float) -> float:
    """A turn's accuracy in percent from the mover's win chance with the best turn (``before``)
    and with the played one (``after``), both in [0, 1]: lichess's formula
    (https://lichess.org/page/accuracy), ``103.1668 exp(-0.04354 (before - after) * 100) -
    3.1669``, clamped to [0, 100].

    >>> [round(move_accuracy(best, played), 1) for best, played in ((0.6, 0.6), (0.6, 0.5), (0.9, 0.1))]
    [100.0, 63.6, 0.0]
    """
    loss = max(0.0, before - after) * 100.0
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))


@dataclass(frozen=True)
class TurnReview:
    """The expert's view of one turn."""

    #: the turn's number among the record's turns, from 1
    turn: int
    #: record moves (draws included) before the turn: ``GET /api/games/{id}/at/{ply}`` shows
    #: the position in which it was played
    ply: int
    #: the ``huntgather analyse --move K`` number of the turn's first move
    decision: int
    player: int
    played: tuple[str, ...]
    best: tuple[str, ...]
    #: the mover's win chance after the played turn and after the best one (paired samples)
    chance_played: float
    chance_best: float
    loss: float
    label: str | None
    #: each seat's final score predicted (learned evaluation) after the played and the best turn
    predicted_played: tuple[float, ...]
    predicted_best: tuple[float, ...]
    #: one way to play only: not searched (chances are the previous estimate, loss 0)
    forced: bool = False


@dataclass(frozen=True)
class PlayerSummary:
    player: int
    #: mean of :func:`move_accuracy` over the seat's unforced turns (100 with none)
    accuracy: float
    inaccuracies: int
    mistakes: int
    blunders: int
    #: mean win-chance loss per unforced turn
    average_loss: float


@dataclass(frozen=True)
class Review:
    """A game's review (:func:`review_record`)."""

    level: str
    simulations: int
    samples: int
    players: int
    turns: tuple[TurnReview, ...]
    summaries: tuple[PlayerSummary, ...]
    #: turn numbers (:attr:`TurnReview.turn`) of the turning points, in game order
    turning_points: tuple[int, ...]
    #: the final scores, if the record ends the game
    scores: tuple[int, ...] | None = None
    #: per seat, its win chance after each turn (the last known figure: its own turns' played
    #: chance; with two players the other's turns count as one less theirs); one row a turn
    chances: tuple[tuple[float, ...], ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        """The review as JSON-ready data (the CLI's ``--json`` and the server's ``review``)."""
        out = asdict(self)
        out["turns"], out["summaries"] = list(out["turns"]), list(out["summaries"])
        for turn in out["turns"]:
            for key in ("chance_played", "chance_best", "loss"):
                turn[key] = round(turn[key], 4)
            for key in ("predicted_played", "predicted_best"):
                turn[key] = [round(v, 1) for v in turn[key]]
            turn["played"], turn["best"] = list(turn["played"]), list(turn["best"])
        for summary in out["summaries"]:
            summary["accuracy"] = round(summary["accuracy"], 1)
            summary["average_loss"] = round(summary["average_loss"], 4)
        out["turning_points"] = list(self.turning_points)
        out["scores"] = None if self.scores is None else list(self.scores)
        out["chances"] = [[round(v, 4) for v in row] for row in self.chances]
        return out

    def describe(self) -> str:
        """A table for the terminal."""
        names = [SEAT_NAMES[p] for p in range(self.players)]
        lines = [f"review by {self.level} ({self.simulations} simulations and {self.samples} "
                 f"paired samples a turn)",
                 f"{'turn':>4} {'ply':>4} {'player':<7}{'played':<22}{'best':<22}"
                 f"{'chance':>7}{'best':>7}{'loss':>7}  label"]
        points = set(self.turning_points)
        for t in self.turns:
            mark = "  ← turning point" if t.turn in points else ""
            best = "(forced)" if t.forced else ("=" if t.best == t.played else " ".join(t.best))
            lines.append(f"{t.turn:>4} {t.ply:>4} {names[t.player]:<7}{' '.join(t.played):<22}"
                         f"{best:<22}{t.chance_played:>7.2f}{t.chance_best:>7.2f}"
                         f"{t.loss:>7.2f}  {t.label or ''}{mark}")
        lines.append("")
        for s in self.summaries:
            lines.append(f"{names[s.player]}: accuracy {s.accuracy:.1f} %, average loss "
                         f"{s.average_loss:.3f}; inaccuracies {s.inaccuracies}, mistakes {s.mistakes}, "
                         f"blunders {s.blunders}")
        if self.scores is not None:
            lines.append("final scores: "
                         + ", ".join(f"{n} {v}" for n, v in zip(names, self.scores, strict=True)))
        return "\n".join(lines)


@dataclass(frozen=True)
class _Turn:
    ply: int
    decision: int
    state: State
    played: Plan


def record_turns(text: str) -> tuple[list[_Turn], State, str]:
    """The turns of a record (the position before each, its number of record moves, and the
    moves played), the position at its end, and the game's text for the seed (its start and its
    moves: neither comments nor layout count).  Raises :class:`RecordError`."""
    from huntgather.record import write_position
    record = parse_record(text)
    key = write_position(record.state) + "\n" + " ".join(map(str, record.moves))
    state = record.state.copy()
    turns: list[_Turn] = []
    decisions = 0
    current: list[Move] = []
    start: tuple[int, int, State] | None = None
    for ply, (move, line) in enumerate(zip(record.moves, record.lines, strict=True)):
        if not isinstance(move, Draw) and start is None:
            start = (ply, decisions + 1, state.copy())
        if not isinstance(move, Draw):
            decisions += 1
            current.append(move)
        mover = state.player
        try:
            state.apply(move)
        except IllegalMoveError as err:
            raise RecordError(line, f"move {move} is illegal: {err}") from None
        if start is not None and not (state.phase in (SPECIAL, OCCUPY) and state.player == mover
                                      and not state.is_over):
            turns.append(_Turn(start[0], start[1], start[2], tuple(current)))
            start, current = None, []
    # (a record that stops in mid-turn: that turn is not reviewed)
    return turns, state, key


def _seed(key: str, level: str) -> int:
    return int.from_bytes(hashlib.sha256(f"review|{level}|{key}".encode()).digest()[:8], "big")


@dataclass(frozen=True)
class TurnSearch:
    """What the search found for one turn (:func:`search_turns`; plain data, as a worker
    process returns it)."""

    turn: int
    ply: int
    decision: int
    player: int
    played: tuple[str, ...]
    best: tuple[str, ...]
    #: None for a forced turn (one way to play: not searched)
    chance_played: float | None
    chance_best: float | None
    predicted_played: tuple[float, ...]
    predicted_best: tuple[float, ...]


@dataclass(frozen=True)
class RecordFacts:
    """What the review needs to know of a record besides its turns."""

    players: int
    turns: int
    #: the final scores, None if the record does not end the game
    scores: tuple[int, ...] | None


def record_facts(text: str) -> RecordFacts:
    """The record's players, number of turns and final scores (:class:`RecordError` if it
    cannot be replayed)."""
    turns, end, _ = record_turns(text)
    return RecordFacts(end.players, len(turns), tuple(end.scores) if end.is_over else None)


def _check(level: str, simulations: int, samples: int) -> None:
    if level not in REVIEWERS:
        raise ValueError(f"the review's level is one of {', '.join(REVIEWERS)}, not {level!r}")
    if simulations < 1 or samples < 1:
        raise ValueError("the review needs at least one simulation and one sample a turn")


def search_turns(text: str, level: str = "expert", simulations: int = SIMULATIONS,
                 samples: int = SAMPLES, first: int = 0, count: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> list[TurnSearch]:
    """Search the turns ``first`` to ``first + count`` (0-based; all by default) of the record
    ``text``: the costly part of :func:`review_record`, which a server spreads over several
    calls to report its progress.  Each turn's result depends only on the record, the level,
    the budget and the turn, never on the slice."""
    from huntgather.bots.analysis import best_plan, predict_after
    from huntgather.bots.levels import expert_bot

    _check(level, simulations, samples)
    turns, _, key = record_turns(text)
    seed = _seed(key, level)
    stop = len(turns) if count is None else min(len(turns), first + count)
    out: list[TurnSearch] = []
    for index in range(first, stop):
        turn, number = turns[index], index + 1
        state = turn.state
        played = tuple(map(str, turn.played))
        predicted = tuple(predict_after(state, turn.played))
        if len({plan for plan, _ in turn_plans(state)}) <= 1:
            out.append(TurnSearch(number, turn.ply, turn.decision, state.player, played, played,
                                  None, None, predicted, predicted))
        else:
            bot = expert_bot(seed + number, Limits(simulations=simulations))
            result = bot.search(state)
            best = best_plan(result, result.moves[0][0])
            if best == turn.played:
                played_value = best_value = bot.compare(state, [best], samples)[0]
            else:
                best_value, played_value = bot.compare(state, [best, turn.played], samples)
                if played_value >= best_value:   # the paired samples value the played turn as high
                    best, best_value = turn.played, played_value
            out.append(TurnSearch(number, turn.ply, turn.decision, state.player, played,
                                  tuple(map(str, best)), played_value, best_value, predicted,
                                  predicted if best == turn.played else tuple(predict_after(state, best))))
        if progress is not None:
            progress(number, len(turns))
    return out


def assemble(facts: RecordFacts, searched: list[TurnSearch], level: str = "expert",
             simulations: int = SIMULATIONS, samples: int = SAMPLES) -> Review:
    """The review from every turn's search (:func:`search_turns`, in order): losses, labels,
    the win-chance rows, the turning points and each seat's accuracy."""
    players = facts.players
    chance = [1.0 / players if players > 2 else 0.5] * players
    reviewed: list[TurnReview] = []
    chances: list[tuple[float, ...]] = []
    swings: list[float] = []
    for t in searched:
        me = t.player
        if t.chance_played is None or t.chance_best is None:
            reviewed.append(TurnReview(t.turn, t.ply, t.decision, me, t.played, t.best, chance[me],
                                       chance[me], 0.0, None, t.predicted_played, t.predicted_best,
                                       True))
            swings.append(0.0)
        else:
            loss = t.chance_best - t.chance_played
            reviewed.append(TurnReview(t.turn, t.ply, t.decision, me, t.played, t.best, t.chance_played,
                                       t.chance_best, loss, label(loss), t.predicted_played,
                                       t.predicted_best))
            before = chance[me]
            chance[me] = t.chance_played
            if players == 2:
                chance[1 - me] = 1.0 - t.chance_played
            swings.append(abs(chance[me] - before))
        chances.append(tuple(chance))
    ranked = sorted((i for i in range(len(reviewed)) if swings[i] >= TURNING_SWING),
                    key=lambda i: (-swings[i], i))[:TURNING_POINTS]
    summaries = []
    for p in range(players):
        own = [t for t in reviewed if t.player == p and not t.forced]
        accuracy = (sum(move_accuracy(t.chance_best, t.chance_played) for t in own) / len(own)
                    if own else 100.0)
        summaries.append(PlayerSummary(
            p, accuracy, sum(t.label == "inaccuracy" for t in own), sum(t.label == "mistake" for t in own),
            sum(t.label == "blunder" for t in own),
            sum(t.loss for t in own) / len(own) if own else 0.0))
    return Review(level, simulations, samples, players, tuple(reviewed), tuple(summaries),
                  tuple(sorted(reviewed[i].turn for i in ranked)), facts.scores, tuple(chances))


def review_record(text: str, level: str = "expert", simulations: int = SIMULATIONS,
                  samples: int = SAMPLES,
                  progress: Callable[[int, int], None] | None = None) -> Review:
    """Review every turn of the record ``text`` with ``level``'s search (see the module text).

    ``progress(done, total)`` is called after each turn.  Raises :class:`RecordError` for a
    record that cannot be replayed, :class:`ValueError` for a bad level or budget.
    """
    _check(level, simulations, samples)
    facts = record_facts(text)
    return assemble(facts, search_turns(text, level, simulations, samples, progress=progress),
                    level, simulations, samples)
