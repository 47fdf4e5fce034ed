"""The shipped bot levels: their budgets, and one registration each (:mod:`huntgather.bots.registry`).

Every level is defined by a number of simulations only, never by a time, so a
bot with a seed is reproducible: the same seed and position give the same move
on any machine, however fast or loaded.  (The browser's server adds a time
limit as a safety net, each level's :attr:`~huntgather.bots.registry.BotSpec.safety_seconds`.)

To add a level, register it here (or in a module that :mod:`huntgather.bots` imports): its name,
how to make it, its words for the page, and where it is offered.

>>> from huntgather.bots.registry import registered
>>> [(s.name, s.lane, s.safety_seconds) for s in registered() if s.ladder][2:]
[('easy', 'light', 3.0), ('medium', 'heavy', 6.0), ('hard', 'heavy', 12.0), ('expert', 'heavy', 12.0),
 ('master', 'heavy', 24.0)]
"""

from __future__ import annotations

from collections.abc import Callable

from huntgather.bots.base import Bot, Limits, RandomBot
from huntgather.bots.expert import ExpertBot
from huntgather.bots.greedy import GreedyBot
from huntgather.bots.mcts import MctsBot
from huntgather.bots.registry import BotSpec, register
from huntgather.bots.tuned import TunedGreedyBot, weights_for
from huntgather.state import State

#: simulation budget of each tree-search level (no time cap: a level plays the same on any machine)
LEVELS: dict[str, Limits] = {
    "easy": Limits(simulations=10),
    "medium": Limits(simulations=40),
    "hard": Limits(simulations=150),
}
#: simulation budget of the expert level (one simulation: a plan and a greedy turn per player, as hard's)
EXPERT = Limits(simulations=150)
#: from how many players on the expert level's samples play two rounds of greedy turns, not one
EXPERT_TWO_ROUNDS = 4


def expert_rounds(state: State) -> int:
    """Rounds of greedy turns after the plan in the expert level's samples at ``state``: two with
    :data:`EXPERT_TWO_ROUNDS` or more players, one with fewer.

    >>> expert_rounds(State.new(4)), expert_rounds(State.new(3))
    (2, 1)
    """
    return 2 if state.players >= EXPERT_TWO_ROUNDS else 1


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


def _tree(level: str) -> Callable[[int | None], Bot]:
    """How to make the tree search of ``level`` (:data:`LEVELS`), named ``mcts:LEVEL`` whatever
    the spec that asks for it (a bot's random numbers depend on its name)."""
    return lambda seed: MctsBot(LEVELS[level], seed, name=f"mcts:{level}")


register(BotSpec("random", RandomBot, "puts its tiles anywhere they fit; plays at once",
                 lane="light", ladder=True))
register(BotSpec("greedy", GreedyBot,
                 "takes whatever scores best right now and never plans ahead; plays at once",
                 lane="light", ladder=True))
register(BotSpec("greedy:tuned", TunedGreedyBot,
                 "the greedy turn valued with the expert's fitted weights (huntgather.bots.tuned)"))
register(BotSpec("mcts", _tree("medium"), "tree search, the medium level"))
for _level, _limits in LEVELS.items():
    register(BotSpec(f"mcts:{_level}", _tree(_level),
                     f"tree search, {_limits.simulations} simulations a move"))
register(BotSpec("easy", _tree("easy"), "looks a little ahead; plays almost at once",
                 lane="light", safety_seconds=3.0, ladder=True))
register(BotSpec("medium", _tree("medium"), "looks further ahead; thinks for a moment",
                 lane="heavy", safety_seconds=6.0, ladder=True))
register(BotSpec("hard", _tree("hard"), "plans carefully; thinks about a second on each move",
                 lane="heavy", safety_seconds=12.0, ladder=True))
register(BotSpec("expert", expert_bot,
                 "plans carefully and weighs its best ideas against each other; "
                 "thinks a second or two on each move, longer with four or more players",
                 lane="heavy", safety_seconds=12.0, ladder=True))
register(BotSpec("expert:paranoid",
                 lambda seed: ExpertBot(EXPERT, seed, name="expert:paranoid", paranoid=True,
                                        weights=weights_for, meetings=True),
                 "the expert, but in its samples the other seats play against it (paranoid) "
                 "rather than each for itself (max-n)"))
register(BotSpec("expert:margin",
                 lambda seed: ExpertBot(EXPERT, seed, name="expert:margin", weights=weights_for),
                 "the expert valuing, with 3 or more players too, only its margin over the best "
                 "other seat"))


def deep_bot(seed: int | None = None) -> ExpertBot:
    """The expert with two rounds of greedy turns in its samples with 2 and 3 players too (the
    expert plays two from 4 players on): about twice its CPU there.  Named ``expert:deep``
    whichever spec asks for it (``master`` too), so that its measured games stay its own: a bot's
    random numbers depend on its name.

    >>> bot = deep_bot(seed=1)
    >>> bot.name, bot.rounds
    ('expert:deep', 2)
    """
    return ExpertBot(EXPERT, seed, name="expert:deep", weights=weights_for, meetings=True, rounds=2)


register(BotSpec("expert:deep", deep_bot,
                 "the expert with two rounds of greedy turns in its samples with 2 and 3 players "
                 "too (about twice its CPU there)"))
register(BotSpec("master", deep_bot,
                 "the strongest: plays each of its best ideas out two rounds deep; thinks about twice "
                 "as long as the expert (with four or more players it plays as the expert does)",
                 lane="heavy", safety_seconds=24.0, ladder=True))
register(BotSpec("expert:plain", lambda seed: ExpertBot(EXPERT, seed, name="expert:plain"),
                 "the expert with the heuristic's own numbers, valuing its margin over the best "
                 "other seat"))


def _baseline(seed: int | None) -> Bot:
    """The pretrained baseline network's policy (:mod:`huntgather.rl.baseline`), imported when
    asked for: it needs NumPy (the ``rl`` extra), which the players do not."""
    try:
        from huntgather.rl.baseline import BaselineBot
    except ImportError as exc:   # (NumPy missing)
        raise ValueError("the baseline bot needs NumPy: pip install 'huntgather[rl]'") from exc
    return BaselineBot(seed)


register(BotSpec("baseline", _baseline,
                 "the pretrained baseline network's policy, no search (huntgather.rl.baseline; "
                 "needs NumPy)"))
