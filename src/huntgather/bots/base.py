"""The bot protocol, search limits, and helpers shared by every bot.

A bot is an object with a ``name`` and a ``choose(state)`` method that returns
a legal move for the current player decision.  Bots see a
:class:`~huntgather.state.State`, which holds what is left in the stacks but
never their order: a bot cannot peek at the next tile.  A bot never changes
the state it is given; it works on copies.

Choices are reproducible: the random numbers a bot uses for one decision come
from ``random.Random`` seeded with the bot's seed and a fingerprint of the
state, so the same seed and the same state give the same move, whatever the
bot chose before.  The random bot, which needs one number per decision, keys
it more cheaply: on its seed and the state's counters (:func:`decision_key`).

>>> from huntgather import Game
>>> from huntgather.bots.base import RandomBot
>>> g = Game(players=2, seed=3)
>>> RandomBot(seed=1).choose(g.state) == RandomBot(seed=1).choose(g.state)
True
"""

from __future__ import annotations

import operator
import random
import zlib
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

# the plans of a turn live in their own module, compiled in the optional build (this one holds a
# runtime-checkable Protocol, which mypyc cannot compile); re-exported here, where they began
from huntgather.bots.plans import Plan as Plan
from huntgather.bots.plans import estimated_plans as estimated_plans
from huntgather.bots.plans import plan_tile as plan_tile
from huntgather.bots.plans import turn_plans as turn_plans
from huntgather.moves import Move
from huntgather.record import write_position
from huntgather.state import OCCUPY, PLACE, SPECIAL, State


@runtime_checkable
class Bot(Protocol):
    """What the UI, the tournament and the tests need from a bot."""

    name: str

    def choose(self, state: State) -> Move:
        """A legal move for ``state``'s current (non-chance) decision."""
        ...


@dataclass(frozen=True)
class Limits:
    """How much a search may do for one decision.

    ``simulations`` is the budget that makes a choice reproducible; ``seconds``
    is a safety cap on the wall-clock time (when it cuts a search short, the
    choice depends on the machine's speed).  At least one must be given.

    >>> Limits(simulations=100, seconds=2.0).simulations
    100
    """

    simulations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.simulations is None and self.seconds is None:
            raise ValueError("a search limit needs a number of simulations, a time in seconds, or both")
        if self.simulations is not None and self.simulations < 1:
            raise ValueError(f"the number of simulations must be at least 1, not {self.simulations}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"the time limit must be positive, not {self.seconds}")


def fingerprint(state: State) -> str:
    """The position's text (:func:`huntgather.record.write_position`), which tells every two
    different positions apart; it seeds a decision's random numbers."""
    return write_position(state)


def check_decision(state: State) -> None:
    """Raise ``ValueError`` unless a player has a decision to make in ``state``."""
    if state.is_over:
        raise ValueError("the game is over: there is no move to choose")
    if state.is_chance:
        raise ValueError("this is a chance node (a tile is to be drawn): the game driver draws, not a bot")


class SeededBot:
    """Base class: holds the seed and derives each decision's random generator."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        self.seed = seed

    def rng(self, state: State) -> random.Random:
        """The random generator for the decision in ``state`` (reproducible)."""
        return random.Random(f"{self.name}|{self.seed}|{fingerprint(state)}")

    def choose(self, state: State) -> Move:
        check_decision(state)
        work = state.copy()
        moves = work.legal_moves()
        if len(moves) == 1:
            return moves[0]
        return self._choose(work, moves, self.rng(state))

    def _choose(self, state: State, moves: list[Move], rng: random.Random) -> Move:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"


_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_PHASE_NUMBERS = {PLACE: 1, SPECIAL: 2, OCCUPY: 3}
_NAME_NUMBERS: dict[str, int] = {}


def _mix64(z: int) -> int:
    """SplitMix64's finaliser: a 64-bit number whose bits all depend on every bit of ``z``."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def _name_number(name: str) -> int:
    found = _NAME_NUMBERS.get(name)
    if found is None:
        found = _NAME_NUMBERS[name] = zlib.crc32(name.encode())
    return found


def decision_key(seed: int, state: State) -> int:
    """A 64-bit key of a decision for the random bot: a hash of the bot's seed and the state's
    counters, in this order: the edition's name, the number of players, the turn count, the phase,
    the seat to move, the tile (-1 for none), the special asking (its name), the sizes of the
    normal and bonus stacks and of the discards, the number of tiles on the board, and each
    seat's score, meeples and huts left.

    Within one game no two decisions share these counters (the turn count and the phase tell
    them apart), and the hidden order of the stacks is not among them; two games may meet the
    same counters (then the same seed draws the same number, though among other moves).  It
    costs a few arithmetic operations, where the position's text (:func:`fingerprint`) costs a
    walk over the board.

    >>> from huntgather import Game
    >>> g = Game(players=2, seed=3)
    >>> decision_key(1, g.state) == decision_key(1, g.state.copy()) != decision_key(2, g.state)
    True
    """
    values = [_name_number(state.edition.name), state.players, state.turn, _PHASE_NUMBERS.get(state.phase, 0),
              state.player, -1 if state.tile is None else state.tile,
              0 if state.asking is None else _name_number(state.asking),
              len(state.normal), len(state.bonus), len(state.discarded), len(state.board.where),
              *state.scores, *state.meeples, *state.huts]
    found = _POWERS.get(len(values))
    if found is None:
        found = _POWERS[len(values)] = _powers(len(values))
    lead, weights, offset = found
    # the fold h = (h * _FNV + (v & _MASK64) + 1) & _MASK64 over the values from h = seed & _MASK64
    # (tests/test_bots.py keeps that loop as the reference), as one sum: modulo 2**64 (where
    # v & _MASK64 is v) it is seed * _FNV**n plus each (v + 1) * _FNV**(n - 1 - i), the products'
    # loop in C (a third of the loop's time)
    return _mix64(((seed & _MASK64) * lead + sum(map(operator.mul, weights, values)) + offset) & _MASK64)


_FNV = 0x100000001B3
#: the number of decision_key's values -> its sum's constants (see _powers)
_POWERS: dict[int, tuple[int, tuple[int, ...], int]] = {}


def _powers(n: int) -> tuple[int, tuple[int, ...], int]:
    """The seed's weight ``_FNV**n``, the values' weights ``_FNV**(n-1)`` … ``_FNV**0``, and the sum
    of those weights (each value's ``+ 1``), all modulo 2**64."""
    weights = tuple(pow(_FNV, k, 1 << 64) for k in range(n - 1, -1, -1))
    return pow(_FNV, n, 1 << 64), weights, sum(weights) & _MASK64


class KeyedStream(random.Random):
    """A generator whose bits are SplitMix64's sequence from a 64-bit key (:meth:`start`): one
    object serves every decision of a bot, started afresh for each, with no Mersenne Twister
    state to seed.  ``randrange`` and ``random`` draw from these bits (Python's own
    ``randrange`` takes ``n.bit_length()`` bits until they make a number below ``n``).

    >>> a, b = KeyedStream(), KeyedStream()
    >>> a.start(5); b.start(5)
    >>> [a.randrange(10) for _ in range(5)] == [b.randrange(10) for _ in range(5)]
    True
    """

    def __init__(self, key: int = 0) -> None:
        super().__init__(0)
        self._at = key & _MASK64

    def start(self, key: int) -> None:
        """Begin the sequence of ``key``."""
        self._at = key & _MASK64

    def getrandbits(self, k: int, /) -> int:
        out = 0
        got = 0
        while got < k:
            self._at = (self._at + _GOLDEN) & _MASK64
            out = (out << 64) | _mix64(self._at)
            got += 64
        return out >> (got - k)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None and step == 1 and type(start) is int and start > 0:
            # Random.randrange(n) without its two layers of Python calls above getrandbits: the
            # same numbers, taken as _randbelow_with_getrandbits takes them (n.bit_length() bits
            # until they make a number below n)
            k = start.bit_length()
            r = self.getrandbits(k)
            while r >= start:
                r = self.getrandbits(k)
            return r
        return super().randrange(start, stop, step)

    def random(self) -> float:
        return self.getrandbits(53) * (1.0 / (1 << 53))


class RandomBot(SeededBot):
    """Plays a uniformly random legal move.

    Its move is defined by :func:`decision_key`, not by the position's text: the legal move
    numbered ``randrange(len(moves))`` in ``state.legal_moves()``'s order, drawn from a
    :class:`KeyedStream` started at ``decision_key(seed, state)`` (found by
    :meth:`~huntgather.state.State.random_move`, without listing every placement).  It reads
    the state without copying it.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._stream = KeyedStream()

    def rng(self, state: State) -> random.Random:
        """The generator of the decision in ``state``: a :class:`KeyedStream` of its key."""
        return KeyedStream(decision_key(self.seed, state))

    def choose(self, state: State) -> Move:
        check_decision(state)
        stream = self._stream
        stream.start(decision_key(self.seed, state))
        return state.random_move(stream)
