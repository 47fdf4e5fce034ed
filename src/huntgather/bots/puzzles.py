"""Mining puzzles from expert games (``huntgather puzzles mine``; docs/learn.md, "Puzzles").

A *puzzle* is a position of a game (of 2, 3 or 4 players) in which a tile has just been drawn
and the best whole turn (the placement and the piece,
:func:`~huntgather.bots.plans.turn_plans`) is clearly better than every other one by the
expert's own reckoning.  Mining goes in three steps:

1. **Play**: a game of the expert against itself at a small budget (:data:`PLAY_SIMULATIONS`
   simulations a decision), seeded from the miner's seed and the game's number.
2. **Screen**, at each placement (not the first :data:`SKIP_TURNS` of a seat, nor a turn with a
   shaman question: the page asks for a placement and a piece only):

   * either the search that chooses the expert's move (free: it plays the move) found its best
     finalist :data:`SCREEN_GAP` of the mover's win chance ahead of the best one of a different
     value (:func:`screen_gap`), or the heuristic's best turn leads the next by
     :data:`SCREEN_POINTS` points of margin (:func:`heuristic_gap`);
   * then the search's most sampled plans and the greedy turn are valued on
     :data:`SCREEN_SAMPLES` paired samples, and the best must lead the next value by
     :data:`SCREEN_MARGIN` points of expected margin (:func:`sampled_gap`).

3. **Verify**: a deeper, differently seeded expert search (:data:`VERIFY_SIMULATIONS`); its
   :data:`CANDIDATES` best plans, the greedy turn and every plan with the same heuristic
   estimate as its best are valued on the same :data:`VERIFY_SAMPLES` determinizations, each
   sample by the mover's margin over the other seat after the turn and a round of greedy turns,
   as the expert's samples are (:class:`MarginExpert`).  Plans valued exactly as the best (the
   same value on every one of the same draws: the same turn for the game, such as a meeple on
   another zone of the same meadow) are the *accepted* answers; the best of the others is the
   *runner-up*.  The position is kept when the deeper search's own choice is accepted and the
   best's expected margin beats the runner-up's by at least :data:`THRESHOLD` points.

At most :data:`PER_GAME` puzzles come from one game.  Each keeps the position text, the best
turn, the accepted turns, the runner-up, both expected margins and win chances, both final
margins as the learned evaluation predicts them (:func:`~huntgather.bots.analysis.predict_after`),
the explanation as scoring facts (:func:`facts`: what the turn scores at once, for whom, and
where its piece goes), the numbers its difficulty is graded from (:func:`grading`: whether the
turn that scores the most at once, the greedy turn and shallow searches find it, and the gap)
and the difficulty itself (:func:`grade`).

Deterministic: the same edition, seed and budgets give the same puzzles, in the same order.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from huntgather.bots.analysis import predict_after
from huntgather.bots.base import Limits
from huntgather.bots.expert import ExpertBot
from huntgather.bots.heuristic import advantage
from huntgather.bots.plans import Plan, estimated_plans, reply, turn_plans
from huntgather.bots.search import SearchResult, win_chance
from huntgather.bots.tuned import weights_for
from huntgather.events import BonusTurn, FeatureScored, OccupantPlaced
from huntgather.game import Game
from huntgather.moves import Occupy, Pass, Place
from huntgather.record import write_position
from huntgather.state import PLACE, State

#: the self-play games' budget: simulations of each decision of the expert that plays them
PLAY_SIMULATIONS = 12
#: a candidate's screen: the playing search's best finalist leads the next by this much win chance,
SCREEN_GAP = 0.06
#: ... or the heuristic's best turn leads the next by this many points of margin
SCREEN_POINTS = 2.5
#: then the search's finalists and the greedy turn are valued on this many paired samples, and a
#: candidate's best leads the next by at least :data:`SCREEN_MARGIN` points of expected margin
SCREEN_SAMPLES = 12
SCREEN_MARGIN = 2.0
#: the verifying search's budget
VERIFY_SIMULATIONS = 100
#: how many of the verifying search's best plans are valued on the same draws
CANDIDATES = 5
#: ... on this many determinizations
VERIFY_SAMPLES = 48
#: a puzzle's best turn beats the runner-up by at least this many points of the mover's expected
#: margin over the other seat (the mean over the verification's paired samples)
THRESHOLD = 3.0
#: each seat's first turns are not mined (too little on the board to make a puzzle)
SKIP_TURNS = 2
#: at most this many puzzles from one game
PER_GAME = 5
#: two values on the same draws closer than this are one value (the same turn for the game)
SAME = 1e-9
#: difficulties (:func:`grade`)
DIFFICULTIES = ("easy", "medium", "hard")


def game_seed(edition: str, seed: int, game: int, players: int = 2) -> int:
    """The seed of game number ``game`` (from 0) of a mining run of ``players``-player games.

    >>> game_seed("2020", 1, 0) == game_seed("2020", 1, 0) != game_seed("2002", 1, 0)
    True
    >>> game_seed("2020", 1, 0, players=3) != game_seed("2020", 1, 0)
    True
    """
    seats = "" if players == 2 else f"{players}p|"   # (two-player runs keep their seeds)
    text = f"puzzles|{edition}|{seats}{seed}|{game}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def plain(state: State) -> bool:
    """Whether every turn of ``state`` is a placement and at most a piece (no shaman question)."""
    return all(all(isinstance(m, Place | Occupy | Pass) for m in plan) for plan, _ in turn_plans(state))


def screen_gap(result: SearchResult) -> float:
    """The screen: how far the search's best plan leads the best one of a different value among
    its most sampled plans (0 when there is no such plan)."""
    rows = result.plans
    if not rows:
        return 0.0
    top = max(n for _, _, n in rows)
    finalists = sorted((v for _, v, n in rows if n * 2 >= top), reverse=True)
    for v in finalists[1:]:
        if finalists[0] - v > SAME:
            return finalists[0] - v
    return 0.0


def sampled_gap(state: State, result: SearchResult, seed: int) -> float:
    """The last screen: the search's most sampled plans and the greedy turn valued by their
    margin on :data:`SCREEN_SAMPLES` paired samples; how far the best leads the next value."""
    top = max(n for _, _, n in result.plans)
    plans = [plan for plan, _, n in result.plans if n * 2 >= top]
    greedy = reply(state, weights=weights_for(state))[0]
    if greedy not in plans:
        plans.append(greedy)
    margins = sorted({m for m, _ in margin_expert(seed, 1).compare_both(state, plans, SCREEN_SAMPLES)},
                     reverse=True)
    return margins[0] - margins[1] if len(margins) > 1 else 0.0


def heuristic_gap(state: State) -> float:
    """How many points of margin the heuristic's best turn leads the best of a different value
    by (0 with a single value): the second screen, which costs one estimate of each turn."""
    player = state.player
    margins = sorted({advantage(values, player) for _, values in
                      estimated_plans(state, weights=weights_for(state))}, reverse=True)
    return margins[0] - margins[1] if len(margins) > 1 else 0.0


def facts(state: State, plan: Plan) -> list[dict[str, Any]]:
    """What ``plan`` does at once in ``state`` (unchanged), as scoring facts for the page to word:
    ``{"fact": "scores", "kind": K, "points": [per seat], "tiles": [...]}`` for each feature or
    action scored, ``{"fact": "occupies", "piece": P, "role": R, "tile": T, "zone": Z}`` for the
    piece put, ``{"fact": "bonus"}`` for a bonus turn earned.

    >>> g = Game(players=2, seed=3)
    >>> [f["fact"] for f in facts(g.state, (g.legal_moves()[0],))] in ([], ["bonus"])
    True
    """
    after = state.copy()
    out: list[dict[str, Any]] = []
    for move in plan:
        for event in after.apply(move):
            if isinstance(event, FeatureScored) and any(event.points):
                out.append({"fact": "scores", "kind": event.kind, "points": list(event.points),
                            "tiles": list(event.tiles)})
            elif isinstance(event, OccupantPlaced):
                out.append({"fact": "occupies", "piece": event.piece, "role": event.role,
                            "tile": event.tile, "zone": event.zone})
            elif isinstance(event, BonusTurn) and event.granted:
                out.append({"fact": "bonus"})
    return out


def margin(values: list[float], player: int) -> float:
    """``player``'s predicted final margin over the best other seat, to a tenth of a point."""
    return round(advantage(values, player), 1)


class MarginExpert(ExpertBot):
    """The expert level's search whose samples are valued by the mover's margin in points over
    the other seat (not by a logistic of it): :meth:`compare_both` gives, on the same paired
    samples as the expert's :meth:`~huntgather.bots.expert.ExpertBot.compare`, each plan's mean
    margin and its mean win chance (the logistic of each sample's margin: with two players
    exactly what ``compare`` gives)."""

    def _value(self, values: list[float], player: int) -> float:
        return advantage(values, player)

    def compare_both(self, state: State, plans: list[Plan],
                     samples: int) -> list[tuple[float, float]]:
        """Each plan's (mean margin, mean win chance) over the same first ``samples``
        determinizations of ``state`` (unchanged)."""
        return [(sum(margins) / samples, sum(win_chance(m, self.scale) for m in margins) / samples)
                for margins in self.paired_samples(state, plans, samples)]


def margin_expert(seed: int, simulations: int) -> MarginExpert:
    """:class:`MarginExpert` with the expert level's numbers (:func:`~huntgather.bots.levels.expert_bot`)."""
    from huntgather.bots.levels import expert_rounds
    return MarginExpert(Limits(simulations=simulations), seed, name="expert", weights=weights_for,
                        meetings=True, rounds=expert_rounds)


@dataclass(frozen=True)
class Verdict:
    """What the verification found (:func:`verify`): margins in points, chances in [0, 1]."""

    best: Plan
    accepted: tuple[Plan, ...]
    runner_up: Plan | None
    margin_best: float
    margin_runner_up: float
    chance_best: float
    chance_runner_up: float
    #: whether the deeper search's own choice is among the accepted turns
    agrees: bool

    @property
    def gap(self) -> float:
        """How many points of expected margin the best turn wins over the runner-up."""
        return self.margin_best - self.margin_runner_up

    @property
    def kept(self) -> bool:
        return self.agrees and self.runner_up is not None and self.gap >= THRESHOLD - 1e-9


def verify(state: State, seed: int, simulations: int = VERIFY_SIMULATIONS,
           samples: int = VERIFY_SAMPLES, candidates: int = CANDIDATES) -> Verdict:
    """The deeper search of a candidate (see the module text)."""
    from huntgather.bots.levels import expert_bot

    result = expert_bot(seed, Limits(simulations=simulations)).search(state)
    sampled = sorted((row for row in result.plans if row[2] > 0), key=lambda row: -row[1])
    searched = sampled[0][0] if sampled else result.plans[0][0]
    plans: list[Plan] = [plan for plan, _, _ in sampled[:candidates]]
    estimates = estimated_plans(state, weights=weights_for(state))
    by_plan = {plan: values for plan, values in estimates}
    greedy = reply(state, weights=weights_for(state))[0]
    for plan, estimate in estimates:
        if plan not in plans and (plan == greedy or estimate == by_plan.get(searched)):
            plans.append(plan)
    values = margin_expert(seed, simulations).compare_both(state, plans, samples)
    top = max(m for m, _ in values)
    accepted_at = [i for i, (m, _) in enumerate(values) if top - m <= SAME]
    accepted = tuple(plans[i] for i in accepted_at)
    others = [i for i, (m, _) in enumerate(values) if top - m > SAME]
    best_at = plans.index(searched) if searched in accepted else accepted_at[0]
    best = plans[best_at]
    if not others:
        return Verdict(best, accepted, None, top, top, values[best_at][1], values[best_at][1],
                       searched in accepted)
    runner = max(others, key=lambda i: (values[i][0], -i))
    return Verdict(best, accepted, plans[runner], top, values[runner][0], values[best_at][1],
                   values[runner][1], searched in accepted)


#: the grade's shallow searches: this many expert searches of :data:`PLAY_SIMULATIONS` each
SHALLOW_SEARCHES = 3
#: a gap below this many points is a close call: one point of difficulty more
CLOSE_GAP = 4.0
#: the highest difficulty points of an *easy* puzzle, then of a *medium* one (:func:`grade`)
EASY_POINTS = 1
MEDIUM_POINTS = 3


def grading(state: State, accepted: tuple[Plan, ...], gap: float) -> dict[str, Any]:
    """The miner's numbers a puzzle's difficulty is graded from (:func:`grade`), for the
    position ``state`` (unchanged), its ``accepted`` turns and the ``gap`` in points between
    the best turn and the runner-up:

    * ``scores_most``: an accepted turn scores the most points at once (more than any other
      turn, for the mover over the best other seat, and some);
    * ``traps``: how many turns score more at once than the best accepted one does;
    * ``greedy``: the heuristic's greedy turn (the expert's estimate of each turn, no search)
      is accepted;
    * ``shallow``: how many of :data:`SHALLOW_SEARCHES` shallow expert searches (the self-play
      budget, :data:`PLAY_SIMULATIONS` simulations, seeds 1, 2, ...) choose an accepted turn;
    * ``gap``: the gap, to a hundredth.

    >>> g = Game(players=2, seed=3)
    >>> sorted(grading(g.state, ((g.legal_moves()[0], Pass()),), 3.5))
    ['gap', 'greedy', 'scores_most', 'shallow', 'traps']
    """
    from huntgather.bots.levels import expert_bot

    player = state.player
    now: dict[Plan, int] = {}
    for plan, after in turn_plans(state):
        now[plan] = after.scores[player] - state.scores[player] - max(
            after.scores[p] - state.scores[p] for p in range(state.players) if p != player)
    most = max(now.values())
    best_now = max((now[plan] for plan in accepted if plan in now), default=most)
    shallow = 0
    for seed in range(1, SHALLOW_SEARCHES + 1):
        result = expert_bot(seed, Limits(simulations=PLAY_SIMULATIONS)).search(state)
        sampled = sorted((row for row in result.plans if row[2] > 0), key=lambda row: -row[1])
        shallow += (sampled[0][0] if sampled else result.plans[0][0]) in accepted
    return {"scores_most": most > 0 and best_now == most,
            "traps": sum(1 for v in now.values() if v > best_now),
            "greedy": reply(state, weights=weights_for(state))[0] in accepted,
            "shallow": shallow, "gap": round(gap, 2)}


def difficulty_points(numbers: dict[str, Any]) -> int:
    """How hard the numbers of :func:`grading` make a puzzle: 2 when no accepted turn scores
    the most at once, 1 more when some turn scores more at once than the answer (a trap), 2
    when the greedy turn misses it, 1 for each shallow search that misses it, 1 for a close
    call (a gap under :data:`CLOSE_GAP` points).

    >>> difficulty_points({"scores_most": True, "traps": 0, "greedy": True, "shallow": 3, "gap": 6.0})
    0
    >>> difficulty_points({"scores_most": False, "traps": 2, "greedy": False, "shallow": 0, "gap": 3.0})
    9
    """
    return int(2 * (not numbers["scores_most"]) + (numbers["traps"] > 0) + 2 * (not numbers["greedy"])
            + (SHALLOW_SEARCHES - numbers["shallow"]) + (numbers["gap"] < CLOSE_GAP))


def grade(numbers: dict[str, Any]) -> str:
    """A puzzle's difficulty (:data:`DIFFICULTIES`) from :func:`difficulty_points`: *easy* up to
    :data:`EASY_POINTS`, *medium* up to :data:`MEDIUM_POINTS`, *hard* above.

    >>> grade({"scores_most": True, "traps": 0, "greedy": True, "shallow": 2, "gap": 3.5})
    'medium'
    """
    points = difficulty_points(numbers)
    return DIFFICULTIES[0] if points <= EASY_POINTS else DIFFICULTIES[1] if points <= MEDIUM_POINTS \
        else DIFFICULTIES[2]


def puzzle_data(state: State, verdict: Verdict, source: dict[str, Any]) -> dict[str, Any]:
    """A kept puzzle as JSON-ready data (one line of the shipped data; docs/learn.md)."""
    assert verdict.runner_up is not None and state.tile is not None
    player = state.player
    first = verdict.best[0]
    assert isinstance(first, Place)
    numbers = grading(state, verdict.accepted, verdict.gap)
    return {
        "edition": state.edition.name,
        "position": write_position(state),
        "player": player,
        "tile": state.tile,
        "best": [str(m) for m in verdict.best],
        "accepted": [[str(m) for m in plan] for plan in verdict.accepted],
        "runner_up": [str(m) for m in verdict.runner_up],
        "chance_best": round(verdict.chance_best, 4),
        "chance_runner_up": round(verdict.chance_runner_up, 4),
        "margin_best": round(verdict.margin_best, 2),
        "margin_runner_up": round(verdict.margin_runner_up, 2),
        "predicted_best": margin(predict_after(state, verdict.best), player),
        "predicted_runner_up": margin(predict_after(state, verdict.runner_up), player),
        "facts_best": facts(state, verdict.best),
        "facts_runner_up": facts(state, verdict.runner_up),
        "difficulty": grade(numbers),
        "grading": numbers,
        "source": source,
    }


def verify_seed(edition: str, source: dict[str, Any]) -> int:
    """The seed :func:`mine` verified a puzzle with, from its ``source`` (``seed``, ``game``,
    ``turn``, and ``players`` when not 2): :func:`turn_loss` values a turn on the same draws."""
    return game_seed(edition, int(source.get("seed", 0)), int(source.get("game", 0)),
                     int(source.get("players", 2))) ^ int(source.get("turn", 0))


def turn_loss(state: State, best: Plan, plan: Plan, seed: int,
              samples: int = VERIFY_SAMPLES) -> float:
    """How many points of the mover's expected margin ``plan`` loses against ``best`` in
    ``state`` (unchanged), both valued on the same first ``samples`` determinizations as the
    verification (``seed``: :func:`verify_seed`): 0 when ``plan`` is worth the same on every one
    of them (the same turn for the game), below 0 when it does better on them."""
    values = margin_expert(seed, 1).paired_samples(state, [best, plan], samples)
    if all(abs(a - b) <= SAME for a, b in zip(values[0], values[1], strict=True)):
        return 0.0
    return (sum(values[0]) - sum(values[1])) / samples


@dataclass(frozen=True)
class Candidate:
    """A screened position of a self-play game."""

    game: int
    #: the position's number among the game's placements, from 1
    turn: int
    state: State
    gap: float


def play_game(edition: str, seed: int, game: int, simulations: int = PLAY_SIMULATIONS,
              players: int = 2) -> Iterator[Candidate]:
    """Play game number ``game`` of a mining run of ``players``-player games, yielding its
    candidates as they come."""
    from huntgather.bots.levels import expert_bot

    play = game_seed(edition, seed, game, players)
    g = Game(players=players, edition=edition, seed=play)
    bot = expert_bot(play, Limits(simulations=simulations))
    turn = 0
    placed = [0] * players
    while not g.is_over:
        state = g.state
        if state.phase is PLACE:
            turn += 1
            result = bot.search(state)
            move = result.moves[0][0]
            placed[state.player] += 1
            if placed[state.player] > SKIP_TURNS and state.normal:
                gap = screen_gap(result)
                if ((gap >= SCREEN_GAP or heuristic_gap(state) >= SCREEN_POINTS) and plain(state)
                        and sampled_gap(state, result, play) >= SCREEN_MARGIN):
                    yield Candidate(game, turn, state.copy(), gap)
        else:
            move = bot.choose(state)
        g.play(move)


def mine(edition: str, seed: int, count: int, done: set[tuple[int, int]], finished: set[int],
         per_game: dict[int, int], log: Callable[[dict[str, Any]], None],
         emit: Callable[[dict[str, Any]], None], note: Callable[[str], None],
         simulations: int = PLAY_SIMULATIONS, verify_simulations: int = VERIFY_SIMULATIONS,
         samples: int = VERIFY_SAMPLES, max_games: int = 10_000, players: int = 2) -> int:
    """Mine until ``count`` puzzles are had in all, skipping the games in ``finished`` and the
    candidates in ``done`` (``(game, turn)``, verified before).  ``per_game``: the puzzles had
    from each game of this seed (updated), and those of other seeds' runs under keys below 0.
    ``log`` records each verified candidate and each finished game (the resume file), ``emit``
    each puzzle kept, ``note`` a line of progress; ``players``: the games' seats (a run's games,
    its resume lines and its puzzles' ``source`` name them when not 2).  Returns the puzzles had."""
    run: dict[str, Any] = {"seed": seed} if players == 2 else {"seed": seed, "players": players}
    have = sum(per_game.values())
    for game in range(max_games):
        if have >= count:
            break
        if game in finished:
            continue
        for candidate in play_game(edition, seed, game, simulations, players):
            if per_game.get(game, 0) >= PER_GAME or have >= count:
                break
            key = (game, candidate.turn)
            if key in done:
                continue
            verdict = verify(candidate.state, game_seed(edition, seed, game, players) ^ candidate.turn,
                             verify_simulations, samples)
            if verdict.kept:
                emit(puzzle_data(candidate.state, verdict, {**run, "game": game, "turn": candidate.turn}))
                have += 1
                per_game[game] = per_game.get(game, 0) + 1
            log({**run, "game": game, "turn": candidate.turn, "screen": round(candidate.gap, 4),
                 "gap": round(verdict.gap, 2), "kept": verdict.kept})
            done.add(key)
            note(f"{edition} game {game} turn {candidate.turn}: screen {candidate.gap:.3f}, "
                 f"verified gap {verdict.gap:.2f} points: {'kept' if verdict.kept else 'dropped'} "
                 f"({have} of {count})")
        if have < count:
            log({**run, "game": game, "finished": True})
            finished.add(game)
            note(f"{edition} game {game} done ({have} of {count})")
    return have


def read_progress(path: str, seed: int, players: int = 2) -> tuple[set[tuple[int, int]], set[int]]:
    """The verified candidates and the finished games of the run with ``seed`` (of
    ``players``-player games) in a resume file (empty if none)."""
    done: set[tuple[int, int]] = set()
    finished: set[int] = set()
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue   # a line cut short by an interruption
                if entry.get("seed", seed) != seed or entry.get("players", 2) != players:
                    continue
                if entry.get("finished"):
                    finished.add(int(entry["game"]))
                elif "turn" in entry:
                    done.add((int(entry["game"]), int(entry["turn"])))
    except FileNotFoundError:
        pass
    return done, finished
