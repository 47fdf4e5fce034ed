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
``expert:deep``        the expert with two rounds of greedy turns in its samples with 2 and
                       3 players too (about twice its CPU there)
``master``             the same bot, ``expert:deep``, as a level offered in the browser
                       (63 % of 300 two-player games against the expert; with 4 or more
                       players it plays as the expert does)
``expert:plain``       the expert with the heuristic's own numbers (the expert before
                       fitted weights), valuing its margin over the best other seat
``baseline``           the pretrained baseline network's most likely move, no search
                       (:mod:`huntgather.rl.baseline`; needs NumPy, the ``rl`` extra)
``mcts:N``             tree search with exactly N simulations
``mcts:N:K``           N simulations; each greedy roll-out turn tries a sample of
                       K placements (``mcts:N:all``: every placement, the default)
=====================  ======================================================

Each spec with a fixed meaning is registered once, in :mod:`huntgather.bots.levels`, with its
words and where it is offered (the browser's seats and the server's worker lane and safety net,
the ladder): :mod:`huntgather.bots.registry`.  Every level is defined by a number of
simulations only, never by a time, so a bot with a seed is reproducible: the same seed and
position give the same move on any machine, however fast or loaded.
"""

from __future__ import annotations

from huntgather.bots.base import Bot, Limits, Plan, RandomBot, SeededBot, turn_plans
from huntgather.bots.expert import ExpertBot
from huntgather.bots.greedy import GreedyBot
from huntgather.bots.heuristic import estimate
from huntgather.bots.levels import EXPERT, EXPERT_TWO_ROUNDS, LEVELS, expert_bot, expert_rounds
from huntgather.bots.mcts import MctsBot
from huntgather.bots.registry import get_spec, spec_names
from huntgather.bots.search import SearchResult
from huntgather.moves import Move
from huntgather.state import State

__all__ = ["EXPERT", "EXPERT_TWO_ROUNDS", "LEVELS", "Bot", "ExpertBot", "GreedyBot", "Limits", "MctsBot",
           "RandomBot", "SearchResult", "SeededBot", "analyse", "estimate", "expert_bot", "expert_rounds",
           "make_bot", "spec_names", "suggest_turns", "turn_plans"]


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
mcts:medium, mcts:hard, easy, medium, hard, expert, expert:paranoid, expert:margin, expert:deep, \
master, expert:plain, baseline, or mcts:N (N simulations)
    """
    text = spec.strip().lower()
    registered = get_spec(text)
    if registered is not None:
        return registered.factory(seed)
    if text.startswith("mcts:"):
        level = text[5:]
        if level.isdigit() and int(level) > 0:
            return MctsBot(Limits(simulations=int(level)), seed, name=text)
        sims, _, tried = level.partition(":")
        if sims.isdigit() and int(sims) > 0 and (tried == "all" or (tried.isdigit() and int(tried) > 0)):
            return MctsBot(Limits(simulations=int(sims)), seed, name=text,
                           rollout_placements=None if tried == "all" else int(tried))
    known = ", ".join(spec_names())
    raise ValueError(f"unknown bot {spec!r}; expected one of {known}, or mcts:N (N simulations)")


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
