"""Bots: random, greedy and Monte Carlo tree search players, and an analysis API.

>>> from huntgather import Game
>>> from huntgather.bots import make_bot
>>> g = Game(players=2, seed=4)
>>> bot = make_bot("greedy", seed=1)
>>> bot.name, bot.choose(g.state) in g.legal_moves()
('greedy', True)

Specs understood by :func:`make_bot`:

=====================  ======================================================
``random``             a uniformly random legal move
``greedy``             the best turn by the heuristic estimate (fast)
``greedy:tuned``       the same with the expert's fitted weights (:mod:`huntgather.bots.tuned`)
``mcts`` / ``medium``  tree search, medium level
``mcts:easy`` ``easy``     tree search, 10 simulations
``mcts:medium``            tree search, 40 simulations
``mcts:hard`` ``hard``     tree search, 150 simulations
``expert``             sequential halving over the best plans on paired draws
                       (:mod:`huntgather.bots.expert`), :data:`EXPERT` simulations,
                       the heuristic with weights fitted by play (:mod:`huntgather.bots.tuned`);
                       with 3 or more players it plays for its share of meetings won,
                       with 4 or more its samples play two rounds of greedy turns
``expert:paranoid``    the same, but in its samples the other seats play against it
                       (paranoid) rather than each for itself (max-n)
``expert:margin``      the expert valuing, with 3 or more players too, only its margin over
                       the best other seat (the expert before 24 Nov's ninth session; with
                       two players the same as ``expert``)
``expert:plain``       the expert with the heuristic's own numbers (the expert before
                       fitted weights), valuing its margin over the best other seat
``mcts:N``             tree search with exactly N simulations
``mcts:N:K``           N simulations; each greedy roll-out turn tries a sample of
                       K placements (``mcts:N:all``: every placement, the default)
=====================  ======================================================

Every level is defined by a number of simulations only, never by a time, so a
bot with a seed is reproducible: the same seed and position give the same move
on any machine, however fast or loaded.  (The browser's server adds a time
limit as a safety net, :data:`huntgather.server.workers.SAFETY_SECONDS`.)
"""

from __future__ import annotations

from huntgather.bots.base import Bot, Limits, Plan, RandomBot, SeededBot, turn_plans
from huntgather.bots.expert import ExpertBot
from huntgather.bots.greedy import GreedyBot
from huntgather.bots.heuristic import estimate
from huntgather.bots.mcts import MctsBot
from huntgather.bots.search import SearchResult
from huntgather.bots.tuned import TunedGreedyBot, weights_for
from huntgather.moves import Move
from huntgather.state import State

#: simulation budget of each tree-search level (no time cap: a level plays the same on any machine)
LEVELS: dict[str, Limits] = {
    "easy": Limits(simulations=10),
    "medium": Limits(simulations=40),
    "hard": Limits(simulations=150),
}
#: simulation budget of the expert level (one simulation: a plan and a greedy turn per player, as hard's)
EXPERT = Limits(simulations=150)

__all__ = ["EXPERT", "EXPERT_TWO_ROUNDS", "LEVELS", "Bot", "ExpertBot", "GreedyBot", "Limits", "MctsBot",
           "RandomBot", "SearchResult", "SeededBot", "analyse", "estimate", "expert_bot", "expert_rounds",
           "make_bot", "spec_names", "suggest_turns", "turn_plans"]

#: from how many players on the expert level's samples play two rounds of greedy turns, not one
EXPERT_TWO_ROUNDS = 4


def expert_rounds(state: State) -> int:
    """Rounds of greedy turns after the plan in the expert level's samples at ``state``: two with
    :data:`EXPERT_TWO_ROUNDS` or more players, one with fewer.

    >>> expert_rounds(State.new(4)), expert_rounds(State.new(3))
    (2, 1)
    """
    return 2 if state.players >= EXPERT_TWO_ROUNDS else 1


def spec_names() -> tuple[str, ...]:
    """The bot specs with a fixed meaning (``mcts:N`` is accepted as well).

    >>> spec_names()[:3]
    ('random', 'greedy', 'greedy:tuned')
    """
    return ("random", "greedy", "greedy:tuned", "mcts", *(f"mcts:{lv}" for lv in LEVELS), *LEVELS, "expert",
            "expert:paranoid", "expert:margin", "expert:plain")


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from its spec (see the module text); raise ``ValueError`` for an unknown spec.

    >>> make_bot("hard").name
    'mcts:hard'
    >>> make_bot("mcts:25").limits
    Limits(simulations=25, seconds=None)
    >>> make_bot("clever")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'clever'; expected one of random, greedy, greedy:tuned, mcts, mcts:easy, \
mcts:medium, mcts:hard, easy, medium, hard, expert, expert:paranoid, expert:margin, expert:plain, or mcts:N \
(N simulations)
    """
    text = spec.strip().lower()
    if text == "random":
        return RandomBot(seed)
    if text == "greedy":
        return GreedyBot(seed)
    if text == "greedy:tuned":
        return TunedGreedyBot(seed)
    if text == "expert":
        return expert_bot(seed)
    if text == "expert:paranoid":
        return ExpertBot(EXPERT, seed, name=text, paranoid=True, weights=weights_for, meetings=True)
    if text == "expert:plain":
        return ExpertBot(EXPERT, seed, name=text)
    if text == "expert:margin":
        return ExpertBot(EXPERT, seed, name=text, weights=weights_for)
    if text in LEVELS:
        text = f"mcts:{text}"
    if text == "mcts":
        text = "mcts:medium"
    if text.startswith("mcts:"):
        level = text[5:]
        if level in LEVELS:
            return MctsBot(LEVELS[level], seed, name=text)
        if level.isdigit() and int(level) > 0:
            return MctsBot(Limits(simulations=int(level)), seed, name=text)
        sims, _, tried = level.partition(":")
        if sims.isdigit() and int(sims) > 0 and (tried == "all" or (tried.isdigit() and int(tried) > 0)):
            return MctsBot(Limits(simulations=int(sims)), seed, name=text,
                           rollout_placements=None if tried == "all" else int(tried))
    known = ", ".join(spec_names())
    raise ValueError(f"unknown bot {spec!r}; expected one of {known}, or mcts:N (N simulations)")


def expert_bot(seed: int | None = None, limits: Limits = EXPERT) -> ExpertBot:
    """The expert level: sequential halving over the root's best plans on paired draws.

    See :mod:`huntgather.bots.expert`.  It has ``hard``'s budget, and with two
    or three players its simulations cost what ``hard``'s do (a plan, then a
    greedy turn per player, valued by the heuristic with the weights fitted by
    play for the position's edition and number of players,
    :func:`~huntgather.bots.tuned.weights_for`); with four or more players each
    plays two rounds of greedy turns (:func:`expert_rounds`), about twice the
    CPU.  With three or more players it plays for its expected share of
    meetings won (:func:`~huntgather.bots.expert.meeting_share`), with two for
    its margin.

    >>> bot = expert_bot(seed=1)
    >>> bot.name, bot.limits.seconds is None
    ('expert', True)
    """
    return ExpertBot(limits, seed, name="expert", weights=weights_for, meetings=True, rounds=expert_rounds)


def analyse(state: State, top: int = 5, limit: Limits | int | None = None,
            seed: int = 0) -> list[tuple[Move, float, int]]:
    """The search's view of the current decision: the best ``top`` moves.

    Each entry is ``(move, estimated value, visits)``; the value is the mover's
    mean search value in (0, 1), a win-probability proxy (0.5 = even).
    ``limit`` is a :class:`Limits`, a number of simulations, or None for the
    hard level.  ``state`` is not changed.

    >>> from huntgather import Game
    >>> g = Game(players=2, seed=4)
    >>> rows = analyse(g.state, top=3, limit=10)
    >>> len(rows) <= 3 and all(m in g.legal_moves() for m, _, _ in rows)
    True
    """
    if top < 1:
        raise ValueError(f"top must be at least 1, not {top}")
    return MctsBot(_limits(limit), seed).search(state).moves[:top]


def _limits(limit: Limits | int | None) -> Limits:
    if limit is None:
        return LEVELS["hard"]
    if isinstance(limit, Limits):
        return limit
    return Limits(simulations=int(limit))


def suggest_turns(state: State, top: int = 3, limit: Limits | int | None = None,
                  seed: int = 0, bot: str = "hard") -> list[tuple[Plan, float, int]]:
    """Hints: the best ``top`` whole turns for the player to move, by the search of ``bot``:
    ``hard`` (the same search as :func:`analyse`) or ``expert`` (:func:`expert_bot`; ``limit``
    None is then its own budget).

    A turn is the moves the player makes before the next draw: the placement,
    then the shaman's take-back and the occupant (or ``Pass``) where the rules
    ask for them; in the middle of a turn, what is left of it.  The turns
    begin with different moves, in the order of :func:`analyse`; each is the
    most visited turn that begins with its move.  Each entry is ``(moves,
    estimated value of that turn, its visits)``.

    >>> from huntgather import Game
    >>> g = Game(players=2, seed=4)
    >>> turns = suggest_turns(g.state, top=2, limit=10)
    >>> first, value, visits = turns[0]
    >>> first[0] in g.legal_moves() and 0 < value < 1
    True
    >>> [turn[0][0] in g.legal_moves() for turn in suggest_turns(g.state, 2, 12, bot="expert")]
    [True, True]
    """
    if top < 1:
        raise ValueError(f"top must be at least 1, not {top}")
    if bot == "expert":
        result = expert_bot(seed, EXPERT if limit is None else _limits(limit)).search(state)
    elif bot == "hard":
        result = MctsBot(_limits(limit), seed).search(state)
    else:
        raise ValueError(f"hints come from the hard or the expert search, not {bot!r}")
    best: dict[Move, tuple[Plan, float, int]] = {}
    for plan, value, visits in result.plans:  # most visited first
        best.setdefault(plan[0], (plan, value, visits))
    return [best[move] for move, _, _ in result.moves[:top]]
