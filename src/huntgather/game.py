"""A game with its own draw source and history: what players and bots talk to.

:class:`Game` wraps a pure :class:`~huntgather.state.State`.  It resolves every
chance node itself, from its own ``random.Random(seed)`` or from an explicit
draw order, so that callers only ever see player decisions.  Every move,
draws included, is kept in ``history``; that list replays the game without any
random number generator.

>>> g = Game(players=2, seed=7)
>>> g.decision.phase, g.decision.player
('place', 0)
>>> move = g.legal_moves()[0]
>>> events = g.play(move)
>>> Game(players=2, seed=7).decision == Game(players=2, seed=7).decision   # same seed, same game
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from huntgather.board import TILE_IDS
from huntgather.editions import DEFAULT_EDITION, Edition
from huntgather.events import Event
from huntgather.moves import Draw, Move, parse_move
from huntgather.state import BONUS, DRAW, Decision, IllegalMoveError, State, randbelow

#: the draw of each tile id, one move shared by every game's history (moves are never changed once
#: made): a game makes some 80 draws, and making each and freeing it with the game cost 1.5 % of a
#: random game's instructions, pure (0.25 % compiled)
_DRAWS: Final[list[Draw | None]] = [None] * TILE_IDS
#: the generator class whose choices :meth:`Game._next_index` draws by index itself (Final: the
#: compiled build reads it without looking ``Random`` up in the ``random`` module at each draw)
_PLAIN: Final = random.Random


class Game:
    """A game in progress: a state, a draw source and the history of moves."""

    def __init__(self, players: int = 2, *, edition: str | Edition = DEFAULT_EDITION,
                 seed: int | None = None, start_player: int = 0,
                 normal_order: Sequence[int] | None = None, bonus_order: Sequence[int] | None = None,
                 state: State | None = None, rng: random.Random | None = None,
                 quiet: bool = False, keep_events: bool = True, explain: bool = True,
                 _blank: bool = False) -> None:
        """Start a game.

        ``seed`` seeds this game's own random generator (a random seed when
        None; it is kept in ``seed``).  ``normal_order`` and ``bonus_order``
        fix the draw order: each draw takes the first tile of the order still
        in its stack, and falls back to the generator once the order is used up.
        ``state`` starts from a given position (see :mod:`huntgather.record`).
        ``rng`` is the draw source instead of ``random.Random(seed)``: a server
        passes ``random.SystemRandom()`` so that no seed predicts the draws
        (a stateless source like that one is shared by copies, not copied).
        ``quiet`` makes a game nobody listens to (self-play, benchmarks): :meth:`play` and
        :meth:`follow` return no events and :attr:`events` stays empty, because the events and
        their explanations are not made (``State.apply(..., quiet=True)``); the game goes
        exactly as it would otherwise.  ``keep_events=False`` makes a game whose caller reads each
        move's events as :meth:`play` and :meth:`follow` return them (a learning environment):
        they are not kept in :attr:`events`, which stays empty, so that a long game holds no
        log of them (less memory, and fewer objects for Python's garbage collector to walk).
        ``explain=False`` makes the events without the words that explain them
        (``State.apply(..., explain=False)``), for a caller that reads only what happened.
        """
        if _blank:   # copy(), resume() and replay() set every field (the compiled build has no __new__)
            return
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        self.seed = seed
        self.quiet = quiet
        self.keep_events = keep_events
        self.explain = explain
        self._rng = rng if rng is not None else random.Random(seed)
        self.state = state if state is not None else State.new(players, edition, start_player)
        self.initial = self.state.copy()
        self._orders = {"normal": list(normal_order or ()), BONUS: list(bonus_order or ())}
        self.history: list[Move] = []
        self.events: list[Event] = []
        self._advance()

    # ------------------------------------------------------------------ queries

    @property
    def decision(self) -> Decision:
        return self.state.decision

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.state.scores)

    @property
    def players(self) -> int:
        return self.state.players

    def winners(self) -> tuple[int, ...]:
        return self.state.winners()

    def legal_moves(self) -> list[Move]:
        return self.state.legal_moves()

    # ------------------------------------------------------------------ playing

    def play(self, move: Move | str, *, trusted: bool = False) -> list[Event]:
        """Apply a player's move (a :class:`Move` or its text); return the events.

        The draws that follow are made at once and their events included.
        An illegal move raises :class:`~huntgather.state.IllegalMoveError` and
        changes nothing.  ``trusted`` skips that check, as in
        :meth:`State.apply <huntgather.state.State.apply>`: only for a move the
        caller has just checked on this very position.
        """
        if isinstance(move, str):
            move = parse_move(move)
        if isinstance(move, Draw):
            raise IllegalMoveError("draws are made by the game itself, not played")
        events = self.state.apply(move, trusted=trusted, quiet=self.quiet, explain=self.explain)
        self.history.append(move)
        if events and self.keep_events:
            self.events.extend(events)
        if self.state.phase is DRAW:
            events += self._advance()
        return events

    def follow(self, moves: Iterable[Move]) -> list[Event]:
        """Apply moves made elsewhere, draws included, exactly as given; return their events.

        This is how a second copy of a game (another server process) catches
        up with the first.  Each move is checked; an illegal one raises
        :class:`~huntgather.state.IllegalMoveError` after the moves before it.

        >>> a = Game(2, seed=1)
        >>> b = a.copy()
        >>> _ = a.play(a.legal_moves()[0])
        >>> _ = b.follow(a.history[len(b.history):])
        >>> b.history == a.history and b.decision == a.decision
        True
        """
        events: list[Event] = []
        for move in moves:
            new = self.state.apply(move, quiet=self.quiet, explain=self.explain)
            self.history.append(move)
            if self.keep_events:
                self.events.extend(new)
            events.extend(new)
        return events

    def _advance(self) -> list[Event]:
        events: list[Event] = []
        state = self.state
        quiet = self.quiet
        while state.phase is DRAW:
            outcomes = state.chance_outcomes()
            at = self._next_index(state.stack, outcomes)
            tile = outcomes[at]
            draw = _DRAWS[tile]
            if draw is None:
                draw = _DRAWS[tile] = Draw(tile)
            # (one of the chance outcomes, so legal; by its index: no search of the stack for it)
            new = state.draw_at(at, quiet, self.explain)
            self.history.append(draw)
            if new:
                events.extend(new)
        if events and self.keep_events:
            self.events.extend(events)
        return events

    def _next_index(self, stack: str, outcomes: tuple[int, ...]) -> int:
        """The index in ``outcomes`` of the next tile drawn from ``stack``: the next of its given
        order still there, or else the generator's ``rng.choice(outcomes)``."""
        order = self._orders[stack]
        while order:
            tile = order.pop(0)
            if tile in outcomes:
                return outcomes.index(tile)
        # (rng.choice(outcomes) by its index, drawn by compiled code; another kind of generator
        # is asked for the choice itself)
        rng = self._rng
        if outcomes and type(rng) is _PLAIN:
            return randbelow(rng, len(outcomes))
        return outcomes.index(rng.choice(outcomes))

    def copy(self, *, share_draws: bool = False) -> Game:
        """An independent copy, including the draw generator's position.

        ``share_draws``: the copy draws from this game's generator itself, not from a copy of it
        (a seeded generator's state is 625 numbers to copy), as copies of a game drawing from the
        operating system always do: for a caller that goes on with one of the two games only, or
        whose draws are secret anyway (a server's secret deal), since a draw by either game moves
        the other's generator on.

        >>> a = Game(2, seed=1); b = a.copy(share_draws=True); c = a.copy()
        >>> b._rng is a._rng, c._rng is a._rng
        (True, False)
        """
        new = Game(_blank=True)
        new.seed = self.seed
        new.quiet = self.quiet
        new.keep_events = self.keep_events
        new.explain = self.explain
        if share_draws or isinstance(self._rng, random.SystemRandom):
            new._rng = self._rng   # no state to copy (every draw comes from the OS), or shared
        else:
            new._rng = type(self._rng).__new__(type(self._rng))  # not Random(): it would seed from the OS
            new._rng.setstate(self._rng.getstate())
        new.state = self.state.copy()
        new.initial = self.initial
        new._orders = {k: list(v) for k, v in self._orders.items()}
        new.history = list(self.history)
        new.events = list(self.events)
        return new

    # pickling through the constructor (the compiled build cannot make a bare instance)
    def __reduce__(self) -> tuple[Callable[[], Game], tuple[()], dict[str, object]]:
        return _blank_game, (), {"seed": self.seed, "_rng": self._rng, "state": self.state,
                                 "initial": self.initial, "_orders": self._orders, "history": self.history,
                                 "events": self.events, "quiet": self.quiet, "keep_events": self.keep_events,
                                 "explain": self.explain}

    def __setstate__(self, fields: dict[str, Any]) -> None:
        self.seed = fields["seed"]
        self._rng = fields["_rng"]
        self.state = fields["state"]
        self.initial = fields["initial"]
        self._orders = fields["_orders"]
        self.history = fields["history"]
        self.events = fields["events"]
        self.quiet = fields.get("quiet", False)
        self.keep_events = fields.get("keep_events", True)
        self.explain = fields.get("explain", True)

    @classmethod
    def resume(cls, initial: State, history: Sequence[Move], state: State, *, seed: int = 0,
               rng: random.Random | None = None) -> Game:
        """A game continued from ``state`` (e.g. a stored position), which ``history`` reached
        from ``initial``; nothing is replayed, so :attr:`events` holds only what happens from now.
        Draws still due are made from ``rng`` (by default ``random.Random(seed)``).

        >>> from huntgather.record import load_position, write_position
        >>> g = Game(2, seed=3); _ = g.play(g.legal_moves()[0])
        >>> again = Game.resume(g.initial, g.history, load_position(write_position(g.state)))
        >>> again.state == g.state, again.history == g.history, again.events
        (True, True, [])
        """
        game = cls(_blank=True)
        game.seed = seed
        game.quiet = False
        game.keep_events = True
        game.explain = True
        game._rng = rng if rng is not None else random.Random(seed)
        game.state = state.copy()
        game.initial = initial.copy()
        game._orders = {"normal": [], BONUS: []}
        game.history = list(history)
        game.events = []
        game._advance()
        return game

    @classmethod
    def replay(cls, initial: State, moves: Iterable[Move]) -> Game:
        """Rebuild a game from a start position and its full history (draws included)."""
        game = cls(_blank=True)
        game.seed = 0
        game.quiet = False
        game.keep_events = True
        game.explain = True
        game._rng = random.Random(0)
        game.state = initial.copy()
        game.initial = initial.copy()
        game._orders = {"normal": [], BONUS: []}
        game.history = []
        game.events = []
        for move in moves:
            game.events.extend(game.state.apply(move))
            game.history.append(move)
        return game


def _blank_game() -> Game:
    """A game with no fields set, for unpickling."""
    return Game(_blank=True)


def random_game(players: int = 2, seed: int = 0, edition: str | Edition = DEFAULT_EDITION) -> Game:
    """Play a complete game in which every decision is a uniformly random legal move.

    Draws come from ``random.Random(seed)``, moves from a second generator
    derived from the same seed, so the game is reproducible.

    >>> g = random_game(players=3, seed=1)
    >>> g.is_over, len(g.scores)
    (True, 3)
    """
    game = Game(players, edition=edition, seed=seed)
    rng = random.Random(f"moves-{seed}")
    state = game.state
    while not state.is_over:
        game.play(state.random_move(rng), trusted=True)   # the move of legal_moves() at a random index
    return game
