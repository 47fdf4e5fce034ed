"""The game state: whose decision it is, the legal moves, and applying them.

A :class:`State` is pure: it holds the board, the players' supplies and
scores, and the *contents* of the stacks (never their order).  Drawing a tile
is an explicit chance move (:class:`~huntgather.moves.Draw`); a driver with its
own ``random.Random`` chooses it (see :class:`huntgather.game.Game`).

>>> s = State.new(players=2)
>>> s.decision
Decision(phase='draw', player=None, tile=None, stack='normal')
>>> events = s.apply(Draw(0))
>>> s.decision.phase, s.decision.player, s.decision.tile
('place', 0, 0)
>>> len(s.legal_moves()) > 0
True
"""

from __future__ import annotations

from bisect import bisect_left
from random import Random
from typing import Any, Final

from huntgather.board import TILE_IDS, Board, ZoneRef, remember_for_tile
from huntgather.editions import DEFAULT_EDITION, Edition, get_edition
from huntgather.events import (
    BonusTurn,
    Event,
    FinalScoring,
    GameOver,
    OccupantPlaced,
    OccupantsReturned,
    ScoreRow,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
    player_name,
)
from huntgather.kinds import Phase, Piece, Stack, role_of
from huntgather.moves import Choose, Draw, Move, Occupy, Pass, Place, TakeBack
from huntgather.phrases import Said, Say, later
from huntgather.scoring import score_completed, score_meadow, score_system
from huntgather.specials import Special
from huntgather.tiles import FOREST, LAKE, MEADOW, RIVER, Tile

# (one name a line, each Final: the compiled build reads a Final constant without a dict look-up)
DRAW: Final = Phase.DRAW
PLACE: Final = Phase.PLACE
SPECIAL: Final = Phase.SPECIAL
OCCUPY: Final = Phase.OCCUPY
OVER: Final = Phase.OVER
NORMAL: Final = Stack.NORMAL
BONUS: Final = Stack.BONUS
MEEPLE: Final = Piece.MEEPLE
HUT: Final = Piece.HUT
#: the kinds of move that answer each decision
_ANSWERS: Final[dict[str, tuple[type, ...]]] = {DRAW: (Draw,), PLACE: (Place,),
                                                SPECIAL: (TakeBack, Choose, Pass), OCCUPY: (Occupy, Pass)}


_Occupants = tuple[tuple[tuple[int, Occupy], ...], tuple[tuple[int, Occupy], ...]]
#: id(tile) -> (tile, (its meeple moves, its hut moves)), for every tile set's tiles
_OCCUPANTS: Final[dict[int, tuple[Tile, _Occupants]]] = {}
#: the same entries by tile id (the last tile set's tile of that id): found without hashing id(tile),
#: much quicker in the compiled build (a per-tile memo as those of :mod:`huntgather.board`)
_OCCUPANTS_BY_ID: Final[list[tuple[Tile, _Occupants] | None]] = [None] * TILE_IDS


def _occupants(tile: Tile) -> _Occupants:
    """The pieces ``tile``'s zones may take, as ``(zone id, move)`` pairs in zone order: a meeple on
    each zone but a lake, and a hut on each river and lake (made once per tile: moves never change)."""
    entry = _OCCUPANTS_BY_ID[tile.id]
    if entry is not None and entry[0] is tile:
        return entry[1]
    return remember_for_tile(_OCCUPANTS_BY_ID, _OCCUPANTS, tile, _make_occupants)


def _make_occupants(tile: Tile) -> _Occupants:
    t = tile.id
    zones = tile.zones.values()
    meeples = tuple((z.id, Occupy(t, z.id, MEEPLE)) for z in zones if z.kind is not LAKE)
    huts = tuple((z.id, Occupy(t, z.id, HUT)) for z in zones if z.kind is RIVER or z.kind is LAKE)
    return meeples, huts


#: the generator class whose draws :func:`randbelow` makes itself (Final: the compiled build reads
#: it without a dict look-up)
_PLAIN: Final = Random
#: its C method that draws the bits, read once and called with the generator: no look-up of the
#: method on the generator at each draw (only ever called on a plain :class:`random.Random`)
_GETRANDBITS: Final = Random.getrandbits


def randbelow(rng: Random, n: int) -> int:
    """``rng.randrange(n)``: the same number, the generator left in the same state (for
    ``n > 0``; the same error otherwise), drawn by compiled code in the compiled build.

    CPython's ``Random.randrange(n)`` is Python code (it takes ``k = n.bit_length()`` random bits
    until they make a number below ``n``); this is that loop for a plain :class:`random.Random`,
    whose ``getrandbits`` is C.  Any other generator (a subclass such as
    :class:`random.SystemRandom`, which may draw otherwise) is asked for ``randrange(n)`` itself.

    >>> from random import Random
    >>> a, b = Random(7), Random(7)
    >>> [randbelow(a, n) for n in (1, 2, 3, 100, 2**40)] == [b.randrange(n) for n in (1, 2, 3, 100, 2**40)]
    True
    """
    if n <= 0 or type(rng) is not _PLAIN:
        return rng.randrange(n)
    k = n.bit_length()
    r = _GETRANDBITS(rng, k)
    while r >= n:
        r = _GETRANDBITS(rng, k)
    return r


def choose(rng: Random, items: tuple[int, ...]) -> int:
    """``rng.choice(items)``: the same item, the generator left in the same state (see
    :func:`randbelow`)."""
    if not items or type(rng) is not _PLAIN:
        return rng.choice(items)
    return items[randbelow(rng, len(items))]


def _without(stack: tuple[int, ...], tile_id: int, at: int = -1) -> tuple[int, ...]:
    """``stack`` less ``tile_id`` (tile ids are unique; slicing beats a filtering loop), which is
    ``stack[at]`` when ``at`` is given (not negative).

    A stack is in id order (as the tile set lists it; taking tiles out keeps the order), so the
    tile is found by bisection; in a stack put in another order, where that misses, by a search.
    """
    i = at
    if i < 0:
        i = bisect_left(stack, tile_id)
        if i == len(stack) or stack[i] != tile_id:
            i = stack.index(tile_id)
    return stack[:i] + stack[i + 1:]


#: no zones (what :attr:`State.removed_animals` is while no special remembers any): one object
NO_ZONES: frozenset[ZoneRef] = frozenset()


def _scored(kind: str) -> Said:
    """Why meeples come back from a completed feature of ``kind`` (``'forest scored'``)."""
    return Said(f"{kind} scored", Say("say.reason.scored", kind=Say(f"say.kind.{kind}")))


# The words said again and again, made once (a :class:`Said` is never changed); the others' phrases
# are made only when read (``phrases.later``): a game that makes its events makes their English only.
_FOREST_SCORED: Final = _scored(FOREST)
_RIVER_SCORED: Final = _scored(RIVER)
_END: Final = Said("end of the game, without scoring", Say("say.reason.end"))


def _bonus_turn_say(player: int, counter: str, name: str) -> Say:
    return Say("say.bonus_turn", seat=Say.seat(player), counter=Say(f"say.counter.{counter}"),
               bonus=Say(f"say.bonus.{name.replace(' ', '_')}"))


def _no_bonus_turn_say(name: str) -> Say:
    return Say("say.no_bonus_turn", bonus=Say(f"say.bonus.{name.replace(' ', '_')}"))


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow now; the state is unchanged."""


class Decision:
    """Whose decision it is and of what kind.

    ``phase`` is ``"draw"`` (chance: ``player`` is None), ``"place"``,
    ``"special"`` (a special tile's question, such as the shaman's optional take-back:
    ``special`` names the special), ``"occupy"`` or ``"over"``.  ``tile`` is
    the tile to place, or the tile just placed; ``stack`` tells whether this
    placement comes from the normal or the bonus (menhir) stack.

    A plain class with slots, never changed once made (like the moves: a frozen dataclass would
    not unpickle in the compiled build).

    >>> Decision(PLACE, 0, 17, NORMAL) == Decision(PLACE, 0, 17, NORMAL)
    True
    """

    __slots__ = ("phase", "player", "special", "stack", "tile")

    def __init__(self, phase: Phase, player: int | None, tile: int | None, stack: Stack,
                 special: str | None = None) -> None:
        self.phase: Final = phase
        self.player: Final = player
        self.tile: Final = tile
        self.stack: Final = stack
        #: the name of the special that asks (phase ``"special"``), else None
        self.special: Final = special

    @property
    def word(self) -> str:
        """The decision's word in records and the protocol: the phase, or the name of the special
        that asks (``"shaman"``)."""
        return self.special if self.special is not None else str(self.phase)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Decision) and self.phase == other.phase and self.player == other.player
                and self.tile == other.tile and self.stack == other.stack
                and self.special == other.special)

    def __hash__(self) -> int:
        return hash((self.phase, self.player, self.tile, self.stack, self.special))

    def __repr__(self) -> str:
        asks = "" if self.special is None else f", special={self.special!r}"
        return (f"Decision(phase={self.phase!r}, player={self.player!r}, tile={self.tile!r}, "
                f"stack={self.stack!r}{asks})")

    def __reduce__(self) -> tuple[type[Decision], tuple[Phase, int | None, int | None, Stack, str | None]]:
        return Decision, (self.phase, self.player, self.tile, self.stack, self.special)


class State:
    """A position of the game, with the rules to move on from it."""

    __slots__ = ("_asked", "asking", "board", "bonus", "bonus_turn", "discarded", "edition", "huts",
                 "meeples", "normal", "phase", "player", "players", "scores", "special_memory", "stack",
                 "tile", "turn")

    board: Board
    scores: list[int]
    meeples: list[int]
    huts: list[int]
    normal: tuple[int, ...]
    bonus: tuple[int, ...]
    discarded: tuple[int, ...]
    #: what the specials remember, by the special's name (each value immutable: a copy shares it)
    special_memory: dict[str, object]
    phase: Phase
    #: the name of the special whose question is asked (phase SPECIAL), else None
    asking: str | None
    player: int
    stack: Stack
    tile: int | None
    bonus_turn: bool
    #: number of turns begun so far
    turn: int
    #: the occupant options of the current occupy decision, as the rules found them when they
    #: asked for it (:meth:`legal_moves` lists them without looking again); None: not known
    _asked: list[Move] | None

    def __init__(self, edition: Edition, players: int, _copy_of: State | None = None) -> None:
        self.edition = edition
        self.players = players
        if _copy_of is not None:   # copy(): one constructor for both (the compiled build has no __new__)
            old = _copy_of
            self.board = old.board.copy()
            self.scores = old.scores.copy()
            self.meeples = old.meeples.copy()
            self.huts = old.huts.copy()
            self.normal = old.normal
            self.bonus = old.bonus
            self.discarded = old.discarded
            self.special_memory = old.special_memory.copy()
            self.phase = old.phase
            self.asking = old.asking
            self.player = old.player
            self.stack = old.stack
            self.tile = old.tile
            self.bonus_turn = old.bonus_turn
            self.turn = old.turn
            self._asked = old._asked   # (never changed in place: shared)
            return
        self.board = Board(edition.tiles)
        self.scores = [0] * players
        self.meeples = [edition.meeples] * players
        self.huts = [edition.huts] * players
        tiles = edition.tiles
        self.normal = tiles.normal_ids
        self.bonus = tiles.bonus_ids
        self.discarded = ()
        self.special_memory = {}
        self.phase = DRAW
        self.asking = None
        self.player = 0
        self.stack = NORMAL
        self.tile = None
        self.bonus_turn = False
        self.turn = 0
        self._asked = None

    @classmethod
    def new(cls, players: int = 2, edition: str | Edition = DEFAULT_EDITION,
            start_player: int = 0) -> State:
        """A new game: the start tile at (0, 0), full stacks, ``start_player`` to draw."""
        ed = get_edition(edition)
        if not ed.min_players <= players <= ed.max_players:
            raise ValueError(f"the {ed.name} edition is for {ed.min_players}-{ed.max_players} players, "
                             f"not {players}")
        if not 0 <= start_player < players:
            raise ValueError(f"start player must be a seat from 0 to {players - 1}, not {start_player}")
        state = cls(ed, players)
        state.board.put(ed.tiles.start.id, 0, 0, 0)
        state.player = start_player
        return state

    def copy(self) -> State:
        """An independent copy (features and tiles are immutable and shared)."""
        return State(self.edition, self.players, self)

    # pickling by the constructor and the fields (the compiled build cannot make a bare instance)
    def __reduce__(self) -> tuple[type[State], tuple[Edition, int], tuple[object, ...]]:
        """>>> import pickle; s = State.new(players=3); pickle.loads(pickle.dumps(s)) == s
        True
        """
        return State, (self.edition, self.players), (
            self.board, self.scores, self.meeples, self.huts, self.normal, self.bonus, self.discarded,
            self.special_memory, self.phase, self.asking, self.player, self.stack, self.tile,
            self.bonus_turn, self.turn)

    def __setstate__(self, state: Any) -> None:
        (self.board, self.scores, self.meeples, self.huts, self.normal, self.bonus,
         self.discarded, self.special_memory, self.phase, self.asking, self.player, self.stack, self.tile,
         self.bonus_turn, self.turn) = state
        self._asked = None

    def _key(self) -> tuple[object, ...]:
        board = self.board
        return (self.edition.name, self.players, self.phase, self.asking, self.player, self.tile,
                self.stack, self.bonus_turn, self.turn, tuple(self.scores), tuple(self.meeples),
                tuple(self.huts), tuple(sorted(self.normal)), tuple(sorted(self.bonus)),
                tuple(sorted(self.discarded)), self.special_memory, board.grid, board.occupants)

    def __eq__(self, other: object) -> bool:
        """The same position: edition, decision, scores, supplies, stacks' contents, turn count,
        tiles on the board and pieces on them (the board's internal bookkeeping aside).

        >>> a = State.new(players=2); b = a.copy()
        >>> a == b, a == State.new(players=3)
        (True, False)
        """
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]   # a state changes: it cannot be a dict key

    def __repr__(self) -> str:
        """``<State 2020, 2 players, turn 0: a tile is to be drawn …; scores [0, 0], 1 tile on the
        board, 78 + 16 left>``

        >>> State.new(players=2)
        <State 2020, 2 players, turn 0: a tile is to be drawn from the normal stack for yellow;
         scores [0, 0], 1 tile on the board, 78 + 16 left>
        """
        tiles = len(self.board.grid)
        return (f"<State {self.edition.name}, {self.players} players, turn {self.turn}: "
                f"{self.describe_decision()}; scores {self.scores}, {tiles} tile{'s' if tiles != 1 else ''} "
                f"on the board, {len(self.normal)} + {len(self.bonus)} left>")

    # ------------------------------------------------------------------ queries

    @property
    def decision(self) -> Decision:
        player = None if self.phase in (DRAW, OVER) else self.player
        return Decision(self.phase, player, self.tile, self.stack, self.asking)

    @property
    def removed_animals(self) -> frozenset[ZoneRef]:
        """The meadow zones whose animals the specials took out of the game (a hunting trap's), as
        their memories say (:meth:`~huntgather.specials.Special.animals_gone`)."""
        memory = self.special_memory
        if not memory:
            return NO_ZONES
        gone: frozenset[ZoneRef] = NO_ZONES
        for name, value in memory.items():
            special = self.edition.special(name)
            if special is not None:
                gone |= special.animals_gone(value)
        return gone

    def asking_special(self) -> Special:
        """The special whose question is asked (phase ``"special"`` only)."""
        special = self.edition.special(self.asking)
        assert special is not None, f"no special {self.asking!r} asks in the {self.edition.name} edition"
        return special

    @property
    def is_chance(self) -> bool:
        return self.phase is DRAW

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    @property
    def current_player(self) -> int:
        """The seat whose turn it is (also during its draws)."""
        return self.player

    def chance_outcomes(self) -> tuple[int, ...]:
        """Tiles that the due draw may bring, each equally likely."""
        if self.phase is not DRAW:
            return ()
        return self.normal if self.stack is NORMAL else self.bonus

    def winners(self) -> tuple[int, ...]:
        """Seats with the most points (shared ties); meaningful once the game is over."""
        best = max(self.scores)
        return tuple(i for i, s in enumerate(self.scores) if s == best)

    def legal_moves(self) -> list[Move]:
        """The legal moves for the current decision (draws at a chance node)."""
        phase = self.phase
        if phase is PLACE:
            assert self.tile is not None
            t = self.tile
            return [Place(t, x, y, r) for x, y, r in self.board.placements(self.board.tiles.by_id[t])]
        if phase is OCCUPY:
            return [*self._occupy_choices(), Pass()]
        if phase is SPECIAL:
            return [*self.asking_special().options(self), Pass()]
        if phase is DRAW:
            return [Draw(t) for t in self.chance_outcomes()]
        return []

    def random_move(self, rng: Random) -> Move:
        """A uniformly random legal move: ``moves[rng.randrange(len(moves))]`` with ``moves =
        self.legal_moves()``, the same move for the same generator state, but a placement is
        found without making a :class:`Place` of every other one (and the index drawn by
        :func:`randbelow`, which gives the same number).

        >>> from random import Random
        >>> s = State.new(players=2); _ = s.apply(Draw(3))
        >>> s.random_move(Random(5)) == s.legal_moves()[Random(5).randrange(len(s.legal_moves()))]
        True
        """
        if self.phase is PLACE:
            assert self.tile is not None
            t = self.tile
            board = self.board
            tile = board.tiles.listed[t]
            assert tile is not None
            count = board.placement_count(tile)
            x, y, r = board.placement(tile, randbelow(rng, count), count=count)
            return Place(t, x, y, r)
        if self.phase is OCCUPY:   # (legal_moves() is these options and a Pass: not listed again)
            options = self._occupy_choices()
            i = randbelow(rng, len(options) + 1)
            return options[i] if i < len(options) else Pass()
        moves = self.legal_moves()
        return moves[randbelow(rng, len(moves))]

    def _occupy_choices(self) -> list[Move]:
        """The occupy decision's options but its Pass: those listed when it was asked (kept), or
        looked up (a state that was not brought to the decision by a move, as a position read)."""
        asked = self._asked
        return self._occupy_options() if asked is None else asked

    def _occupy_options(self) -> list[Move]:
        assert self.tile is not None
        p, t = self.player, self.tile
        board = self.board
        tile = board.tiles.listed[t]
        assert tile is not None
        meeples, huts = _occupants(tile)
        out: list[Move] = []
        if self.meeples[p] > 0:
            out = [move for z, move in meeples if not board.feature_at(t, z).meeples]
        if self.huts[p] > 0:
            out += [move for z, move in huts if not board.system_at(t, z).huts]
        return out

    # ------------------------------------------------------------------ checking

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` saying why ``move`` is not legal now."""
        phase = self.phase
        if phase is OVER:
            raise IllegalMoveError("the game is over")
        if not isinstance(move, _ANSWERS[phase]):
            if isinstance(move, Occupy):
                self._check_skipped_occupy(move)
            raise IllegalMoveError(f"{move} does not answer this decision: {self.describe_decision()}")
        if isinstance(move, Draw):
            stack = self.chance_outcomes()
            if move.tile not in stack:
                raise IllegalMoveError(f"tile {move.tile} is not in the {self.stack} stack")
        elif isinstance(move, Place):
            if move.tile != self.tile:
                raise IllegalMoveError(f"the tile to place is {self.tile}, not {move.tile}")
            why = self.board.mismatch(self.edition.tiles[move.tile], move.x, move.y, move.rotation)
            if why:
                raise IllegalMoveError(why)
        elif isinstance(move, Occupy):
            self._check_occupy(move)
        elif isinstance(move, (TakeBack, Choose)):   # (a tuple: see apply)
            why = self.asking_special().refuse(self, move)
            if why is not None:
                raise IllegalMoveError(why)

    def _check_skipped_occupy(self, move: Occupy) -> None:
        """An occupant for the tile just placed, after the game skipped that decision: say why
        when the placer had no such piece left (else the caller's general message stands)."""
        board = self.board
        if self.phase is PLACE or not board.where or move.tile != next(reversed(board.where)):
            return
        # the placer: still to move in a bonus turn or once the game is over, else the seat before
        placer = self.player if self.stack is BONUS or self.phase is OVER \
            else (self.player - 1) % self.players
        supply = self.huts if move.piece == HUT else self.meeples
        if move.piece in (MEEPLE, HUT) and supply[placer] == 0:
            raise IllegalMoveError(f"{player_name(placer)} has no {move.piece} left, so nothing could "
                                   f"go on tile {move.tile}; the turn went on without it")

    def _check_occupy(self, move: Occupy) -> None:
        if move.piece not in (MEEPLE, HUT):
            raise IllegalMoveError(f"a piece is a {MEEPLE!r} or a {HUT!r}, not {move.piece!r}")
        if move.tile != self.tile:
            raise IllegalMoveError(f"pieces go on the tile just placed ({self.tile}), "
                                   f"not on tile {move.tile}")
        zone = self.edition.tiles[move.tile].zones.get(move.zone)
        if zone is None:
            raise IllegalMoveError(f"tile {move.tile} has no zone {move.zone}")
        p = self.player
        board = self.board
        if move.piece == MEEPLE:
            if zone.kind is LAKE:
                raise IllegalMoveError("meeples cannot go on a lake (only huts can)")
            if self.meeples[p] == 0:
                raise IllegalMoveError(f"{player_name(p)} has no meeple left in supply")
            holders = board.feature_at(move.tile, move.zone).meeples
            if holders:
                owners = " and ".join(sorted({player_name(o) for o, _ in holders}))
                raise IllegalMoveError(f"that {zone.kind} already holds a meeple ({owners})")
        else:
            if zone.kind not in (RIVER, LAKE):
                raise IllegalMoveError(f"huts go on a river or a lake, not on a {zone.kind}")
            if self.huts[p] == 0:
                raise IllegalMoveError(f"{player_name(p)} has no hut left in supply")
            holders = board.system_at(move.tile, move.zone).huts
            if holders:
                owners = " and ".join(sorted({player_name(o) for o, _ in holders}))
                raise IllegalMoveError(f"that river system already holds a hut ({owners})")

    def describe_decision(self) -> str:
        """A sentence for the current decision, e.g. ``'red to place tile 17'``."""
        name = player_name(self.player)
        if self.phase is DRAW:
            return f"a tile is to be drawn from the {self.stack} stack for {name}"
        if self.phase is PLACE:
            return f"{name} to place tile {self.tile}"
        if self.phase is SPECIAL:
            return f"{name} {self.asking_special().question}"
        if self.phase is OCCUPY:
            return f"{name} may put a meeple or a hut on tile {self.tile}"
        return "the game is over"

    # ------------------------------------------------------------------ applying

    def apply(self, move: Move, *, trusted: bool = False, quiet: bool = False,
              explain: bool = True) -> list[Event]:
        """Check and apply ``move``; return what happened.

        Raises :class:`IllegalMoveError` (and changes nothing) if the move is
        not legal for the current decision.  With ``trusted=True`` the check
        is skipped: only for a move just taken from :meth:`legal_moves` (bots
        and searches do this); any other move may corrupt the state.

        With ``quiet=True`` the list returned is empty, and the events and their explanations
        are not made (but those of a special tile's action, which are rare, are made and
        dropped): for a search, which never reads them.  The state is changed exactly as
        without it.

        With ``explain=False`` the events are made without the words that explain them: a scoring's
        explanation (and the rows' texts of the final scoring) empty and no tiles listed, a bonus
        turn's text empty (the specials' own events keep theirs): for a caller that reads only
        what happened (a learning environment).  The events are otherwise the same.

        >>> s = State.new(players=2); t = s.copy()
        >>> s.apply(Draw(3)) != [] and t.apply(Draw(3), quiet=True) == [] and s == t
        True
        """
        if not trusted:
            self.check(move)
        if isinstance(move, Draw):
            return self._draw(move.tile, quiet, -1, explain)
        if isinstance(move, Place):
            return self._place(move, quiet, explain)
        # (a tuple, not ``TakeBack | Choose``: that union would be made anew at every call, in
        # CPython and in the compiled build alike)
        if isinstance(move, (TakeBack, Choose)):
            answered = self.asking_special().answer(self, move)
            after = self._after_question(quiet, explain)
            return after if quiet else answered + after
        if isinstance(move, Occupy):
            return self._occupy(move, quiet, explain)
        # Pass
        if self.phase is SPECIAL:
            return self._after_question(quiet, explain)
        return self._score_turn(quiet, explain)

    def draw_at(self, index: int, quiet: bool = False, explain: bool = True) -> list[Event]:
        """``self.apply(Draw(tile), trusted=True, quiet=quiet, explain=explain)`` for ``tile =
        self.chance_outcomes()[index]`` (``0 <= index < len(...)``, at a draw), without looking the
        tile up in its stack: for a caller that has drawn the index (:class:`~huntgather.game.Game`).

        >>> s = State.new(players=2); t = s.copy()
        >>> s.draw_at(4) == t.apply(Draw(t.chance_outcomes()[4])) and s == t
        True
        """
        tile_id = (self.normal if self.stack is NORMAL else self.bonus)[index]
        return self._draw(tile_id, quiet, index, explain)

    def _draw(self, tile_id: int, quiet: bool = False, at: int = -1, explain: bool = True) -> list[Event]:
        """The draw of ``tile_id`` (``at``: its index in its stack, when the caller knows it)."""
        events: list[Event] = [] if quiet else [TileDrawn(tile_id, self.stack)]
        if self.stack is NORMAL:
            self.normal = _without(self.normal, tile_id, at)
            remaining = self.normal
        else:
            self.bonus = _without(self.bonus, tile_id, at)
            remaining = self.bonus
        # (counted, not Board.can_place, which stops at the first cell that fits: the random move
        # that places the tile asks this count again, and finds it kept)
        tile = self.board.tiles.listed[tile_id]
        assert tile is not None
        if self.board.placement_count(tile):
            self.phase = PLACE
            self.tile = tile_id
            return events
        if not quiet:
            events.append(TileDiscarded(tile_id, self.stack))
        self.discarded = (*self.discarded, tile_id)
        if not remaining:
            events.extend(self._end_turn(quiet, explain))
        return events

    def _place(self, move: Place, quiet: bool = False, explain: bool = True) -> list[Event]:
        board = self.board
        board.put(move.tile, move.x, move.y, move.rotation)
        events: list[Event] = [] if quiet else [TilePlaced(self.player, move.tile, move.x, move.y,
                                                           move.rotation, self.stack is BONUS)]
        edition = self.edition
        asks = False
        tile = board.tiles.listed[move.tile]
        assert tile is not None
        for z in tile.special_zones:
            assert z.special is not None
            special = edition.special(z.special)
            if special is None:   # printed, but not a rule of this edition
                continue
            done = special.on_placed(self, ZoneRef(move.tile, z.id), move.x, move.y)
            if not quiet:
                events.extend(done)
            asks = asks or bool(special.question)
        if asks:
            events.extend(self._after_question(quiet, explain, first=True))
        else:
            events.extend(self._after_actions(quiet, explain))
        return events

    def _after_question(self, quiet: bool = False, explain: bool = True, *,
                        first: bool = False) -> list[Event]:
        """Ask the next question of the specials on the tile just placed (in zone order, each
        special once, only one with an option to offer): the first with ``first``, else the one
        after the special that asked; when none is left, go on to the occupant."""
        assert self.tile is not None
        asked = None if first else self.asking
        passed = asked is None
        seen: set[str] = set()
        for z in self.board.tiles.by_id[self.tile].special_zones:
            special = self.edition.special(z.special)
            if special is None or not special.question or special.name in seen:
                continue
            seen.add(special.name)
            if not passed:
                passed = special.name == asked
                continue
            if special.options(self):
                self.phase = SPECIAL
                self.asking = special.name
                return []
        self.asking = None
        return self._after_actions(quiet, explain)

    def _after_actions(self, quiet: bool = False, explain: bool = True) -> list[Event]:
        """After immediate actions: ask for an occupant, or score straight away."""
        # the whole list, not a stop at the first option: it is kept for legal_moves(), which
        # lists the options of this decision without looking them up again
        options = self._occupy_options()
        if options:
            self.phase = OCCUPY
            self._asked = options
            return []
        return self._score_turn(quiet, explain)

    def _occupy(self, move: Occupy, quiet: bool = False, explain: bool = True) -> list[Event]:
        p = self.player
        piece = HUT if move.piece == HUT else MEEPLE
        if piece == MEEPLE:
            self.meeples[p] -= 1
        else:
            self.huts[p] -= 1
        self.board.add_occupant(move.tile, move.zone, p, piece)
        if quiet:
            return self._score_turn(quiet)
        kind = self.board.tiles.by_id[move.tile].zones[move.zone].kind
        events: list[Event] = [OccupantPlaced(p, move.tile, move.zone, piece, role_of(kind, piece))]
        events.extend(self._score_turn(False, explain))
        return events

    # ------------------------------------------------------------------ scoring

    def _score_turn(self, quiet: bool = False, explain: bool = True) -> list[Event]:
        """Score what the placement completed, then grant a bonus turn or end the turn (``quiet``:
        the same, without making the events; ``explain=False``: the events without their words)."""
        assert self.tile is not None
        self._asked = None   # (the occupy decision, if any, is answered)
        board = self.board
        events: list[Event] = []
        bonus_earned = False
        tile = board.tiles.listed[self.tile]
        assert tile is not None
        for fid, f in board.completed(tile):
            scored = score_completed(board, self.edition, fid, self.players, explain=explain and not quiet)
            self._add(scored.points)
            if not quiet:
                events.append(scored)
            if f.meeples:
                returned = board.clear_meeples(fid)
                for p, _ in returned:
                    self.meeples[p] += 1
                if not quiet:
                    back = tuple((p, where.tile, where.zone) for p, where in returned)
                    kind = f.kind
                    reason = _FOREST_SCORED if kind is FOREST else _RIVER_SCORED if kind is RIVER \
                        else _scored(kind)
                    events.append(OccupantsReturned(back, reason))
            if f.kind is FOREST and f.counter(self.edition.bonus_counter) > 0:
                bonus_earned = True
        if bonus_earned and not self.bonus_turn:
            name = self.edition.bonus_name
            if self.bonus:
                if not quiet:
                    events.append(BonusTurn(self.player, True, "" if not explain else later(
                        f"{player_name(self.player)} completed a forest with a "
                        f"{self.edition.bonus_counter_label} and takes a {name} turn",
                        _bonus_turn_say, self.player, self.edition.bonus_counter, name)))
                self.phase = DRAW
                self.stack = BONUS
                self.bonus_turn = True
                self.tile = None
                return events
            if not quiet:
                events.append(BonusTurn(self.player, False, "" if not explain else later(
                    f"no {name} left: no extra turn", _no_bonus_turn_say, name)))
        events.extend(self._end_turn(quiet, explain))
        return events

    def _add(self, points: tuple[int, ...]) -> None:
        scores = self.scores
        for i, pts in enumerate(points):
            scores[i] += pts

    def _end_turn(self, quiet: bool = False, explain: bool = True) -> list[Event]:
        self.bonus_turn = False
        self.stack = NORMAL
        self.tile = None
        if not self.normal:
            return self._finish(quiet, explain)
        self.player = (self.player + 1) % self.players
        self.phase = DRAW
        self.turn += 1
        return []

    def _finish(self, quiet: bool = False, explain: bool = True) -> list[Event]:
        """End of the game: fishers and gatherers leave, then huts and hunters score (``quiet``:
        the same, without making the events)."""
        board = self.board
        events: list[Event] = []
        leaving = board.leaving_meeples()
        for t, z, p in leaving:
            board.remove_meeple(t, z)
            self.meeples[p] += 1
        if leaving and not quiet:
            events.append(OccupantsReturned(tuple((p, t, z) for t, z, p in leaving), _END))
        rows = self.final_rows(explain=explain and not quiet)
        for row in rows:
            self._add(row.points)
        self.phase = OVER
        if quiet:
            return events
        events.append(FinalScoring(tuple(rows)))
        events.append(GameOver(tuple(self.scores), self.winners()))
        return events

    def final_ids(self) -> list[int]:
        """The features final scoring would score now, in its order: each river system that holds
        a hut, then each meadow that holds a hunter, each in id order (as board.feature_ids(MEADOW)
        lists them)."""
        board = self.board
        # the occupied features found once each
        occupied = board.occupied_ids()
        systems = sorted([fid for fid in occupied if board.is_system(fid)])
        meadows = sorted([fid for fid in occupied
                          if not board.is_system(fid) and board.feature_by_id(fid).kind is MEADOW])
        return systems + meadows

    def final_row(self, fid: int, *, explain: bool = True,
                  removed: frozenset[ZoneRef] | None = None) -> ScoreRow:
        """The final-scoring row of ``fid``, one of :meth:`final_ids` (``removed``: the
        :attr:`removed_animals`, when the caller has them)."""
        board = self.board
        if board.is_system(fid):
            return score_system(board, self.edition, fid, self.players, explain=explain)
        return score_meadow(board, self.edition, fid, self.removed_animals if removed is None else removed,
                            self.players, explain=explain)

    def final_rows(self, *, explain: bool = True) -> list[ScoreRow]:
        """What final scoring would give now: the :meth:`final_row` of each of :meth:`final_ids`
        (fishers and gatherers still on the board are not counted: they leave first).
        ``explain=False``: the same points, the rows without their texts (see
        :func:`~huntgather.scoring.score_system`)."""
        removed = self.removed_animals
        return [self.final_row(fid, explain=explain, removed=removed) for fid in self.final_ids()]
