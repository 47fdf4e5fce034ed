"""A fast estimate of what each player will score by the end of the game.

The estimate is the score so far plus, for every feature that holds a piece:

* an open forest or river: its points now, times a guess of the chance that it
  will be completed (fewer open sides and more tiles left make it likelier);
  a complete one has been scored already;
* a meadow with hunters: its animals as final scoring would count them now
  (tigers, wild fire, pit trap, shrine and hunting traps included), to the
  player(s) with the most hunters;
* a river system with huts: its fish (and lakes with the raft), to the
  player(s) with the most huts;

plus a small value for each meeple and hut still in supply, which shrinks as
the normal stack runs out, and a value for a pending bonus (menhir) turn.

It reads the state and never changes it (apart from the board's internal
path halving, which does not change any answer).

>>> from huntgather import State
>>> s = State.new(players=2)
>>> v = estimate(s)
>>> v[0] == v[1] > 0        # supplies only, equal for both players
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from operator import add

from huntgather.board import ZoneRef
from huntgather.features import SYSTEM, Feature
from huntgather.kinds import Piece
from huntgather.scoring import (
    completed_points,
    count_holders,
    majority,
    meadow_points,
    meadow_winners,
    system_points,
)
from huntgather.state import BONUS, DRAW, HUT, State
from huntgather.tiles import FOREST, MEADOW

#: value of a meeple in supply while many tiles remain
MEEPLE_VALUE = 2.5
#: value of a hut in supply while many tiles remain
HUT_VALUE = 1.0
#: value of a bonus (menhir) turn that is about to be drawn
BONUS_TURN_VALUE = 4.0
#: how many of one's own turns it takes before a piece in supply loses value
SUPPLY_HORIZON = 8.0
#: how fast the completion chance falls with open sides per tile left (:func:`completion_chance`)
COMPLETION_RATE = 6.0


@dataclass(frozen=True, slots=True)
class Weights:
    """The numbers of the estimate; :data:`DEFAULT` is the module text's.

    The last four are 0 in :data:`DEFAULT` (which then adds nothing for them) and were fitted
    by play for the expert (:mod:`huntgather.lab.tuning`; it reads them with
    :mod:`huntgather.bots.tuned`): with ``share`` the share of the normal stack still to come,

    * ``meadow_early``: a meadow's points count ``1 + meadow_early * share`` times (below 0:
      a meadow counts less early, when others can still join or outnumber its hunters);
    * ``system_early``: the same for a river system's fish;
    * ``open_early``: the same for an open forest's or river's points (above 0: it grows);
    * ``meeple_back``: a meeple on an open forest or river is expected back: its owner gets
      ``meeple_back`` times the completion chance times a meeple's value in supply.

    >>> Weights() == DEFAULT, Weights(meadow_early=-0.5).meadow_early
    (True, -0.5)
    """

    meeple: float = MEEPLE_VALUE
    hut: float = HUT_VALUE
    bonus_turn: float = BONUS_TURN_VALUE
    horizon: float = SUPPLY_HORIZON
    completion: float = COMPLETION_RATE
    meadow_early: float = 0.0
    system_early: float = 0.0
    open_early: float = 0.0
    meeple_back: float = 0.0

    @property
    def plain(self) -> bool:
        """True if the four fitted terms add nothing (the estimate of the module text)."""
        return not (self.meadow_early or self.system_early or self.open_early or self.meeple_back)


#: the estimate's own numbers
DEFAULT = Weights()


def completion_chance(open_sides: int, remaining: int, rate: float = COMPLETION_RATE) -> float:
    """A rough chance that a forest or river with ``open_sides`` open sides gets completed.

    >>> completion_chance(0, 10)
    1.0
    >>> completion_chance(2, 60) > completion_chance(2, 6) > completion_chance(4, 6)
    True
    """
    if open_sides <= 0:
        return 1.0
    return math.exp(-open_sides * rate / (remaining + 2.0))


Memo = dict[tuple[int, frozenset[int]], int]


def estimate(state: State, memo: Memo | None = None, weights: Weights = DEFAULT) -> list[float]:
    """Expected final score of each seat (see the module text; ``weights``: its numbers).

    ``memo`` may be shared between calls on states whose boards hold the same
    tiles at the same places (they may differ in occupants and scores): it
    keeps the meadows' animal points.
    """
    if state.is_over:
        return [float(s) for s in state.scores]
    values = [float(s) for s in state.scores]
    for root in occupied_roots(state):
        for player, points in contribution(state, root, memo, weights):
            values[player] += points
    _add_supply(state, values, None, weights)
    return values


def occupied_roots(state: State) -> list[int]:
    """Ids of every feature (and river system) that holds a piece."""
    return state.board.occupied_ids()


Stake = tuple[int, tuple[int, ...], float, float]


def stake(state: State, root: int, memo: Memo | None = None, weights: Weights = DEFAULT) -> Stake | None:
    """What the feature with id ``root`` is worth and to whom, or None if it holds no piece that
    scores it: ``(slot, winners, points now, chance that it pays)``; ``slot`` is 0 for a forest,
    2 for a river, 5 for a meadow and 6 for a river system, the chance 1 for the last two (they
    score at the end whatever happens).  The estimate and the learned evaluation read it."""
    board = state.board
    edition = state.edition
    f = board.feature_by_id(root)
    if not f.meeples and not f.huts:   # (most features a placement touches: no piece at all)
        return None
    if f.kind is MEADOW:
        if not f.meeples:
            return None
        slot, winners = 5, meadow_winners(board, edition, root)[0]
    elif root >= SYSTEM:   # (board.is_system(root), without a call)
        if not f.huts:
            return None
        slot, winners = 6, majority(count_holders(f.huts))
    elif not f.meeples:
        return None
    else:
        slot, winners = (0 if f.kind is FOREST else 2), majority(count_holders(f.meeples))
    points, chance = _worth(state, root, f, memo, weights)
    return slot, winners, points, chance


def _worth(state: State, root: int, f: Feature, memo: Memo | None,
           weights: Weights = DEFAULT) -> tuple[float, float]:
    """The points of feature ``root`` (``f``) now and the chance that it pays, whoever holds it
    (:func:`stake`'s last two); the points come from huntgather.scoring, as the engine's own
    scoring does (times ``1 + early * share``, for a ``weights`` with such a term)."""
    board = state.board
    edition = state.edition
    if f.kind is MEADOW:
        if memo is None:
            points = float(meadow_points(board, edition, root, state.removed_animals, explain=False)[0])
        else:
            key = (root, f.tiles)
            cached = memo.get(key)
            if cached is None:
                cached = memo[key] = meadow_points(board, edition, root, state.removed_animals,
                                                   explain=False)[0]
            points = float(cached)
        early = weights.meadow_early
        if early:
            points *= 1.0 + early * share_left(state)
        return points, 1.0
    if root >= SYSTEM:
        points = float(system_points(board, edition, root, explain=False)[0])
        early = weights.system_early
        if early:
            points *= 1.0 + early * share_left(state)
        return points, 1.0
    points = float(completed_points(board, edition, f, explain=False)[0])
    early = weights.open_early
    if early and f.open > 0:
        points *= 1.0 + early * share_left(state)
    return points, completion_chance(f.open, len(state.normal), weights.completion)


def share_left(state: State) -> float:
    """The share of the normal stack still to come (1 at the start, 0 at the end).

    >>> share_left(State.new(2))
    1.0
    """
    return len(state.normal) / len(state.edition.tiles.normal_ids)


def _fade(state: State, weights: Weights) -> float:
    """How much of its value a piece in supply keeps: 1 until the normal stack has
    ``weights.horizon`` turns left for each seat, then less, down to 0."""
    return min(1.0, len(state.normal) / state.players / weights.horizon)


def _back(state: State, f: Feature, weights: Weights) -> float:
    """What a meeple on the open forest or river ``f`` is expected to be worth when it comes back
    (``weights.meeple_back``; 0 for any other feature)."""
    if f.kind is MEADOW or not f.open:
        return 0.0
    chance = completion_chance(f.open, len(state.normal), weights.completion)
    return weights.meeple_back * chance * weights.meeple * _fade(state, weights)


def contribution(state: State, root: int, memo: Memo | None = None,
                 weights: Weights = DEFAULT) -> list[tuple[int, float]]:
    """What the feature with id ``root`` is expected to bring, as ``(seat, points)`` pairs (and,
    for a ``weights`` with ``meeple_back``, its meeples' owners what each meeple brings back)."""
    found = stake(state, root, memo, weights)
    if found is None:
        return []
    _, winners, points, chance = found
    expected = points * chance
    # (one winner is the usual case: no comprehension)
    pairs = [(winners[0], expected)] if len(winners) == 1 else [(w, expected) for w in winners]
    if weights.meeple_back and root < SYSTEM:
        f = state.board.feature_by_id(root)
        back = _back(state, f, weights)
        if back:
            pairs += [(seat, back) for seat, _ in f.meeples]
    return pairs


#: what occupied features bring, kept across the estimates of one search (see :func:`brought`):
#: id of a feature -> (the feature, the animals a hunting trap took, tiles left in the normal
#: stack or -1 for a meadow or a river system, what it brings)
Kept = dict[int, tuple[Feature, frozenset[ZoneRef], int, list[tuple[int, float]]]]
#: :func:`brought` empties a ``Kept`` that grows past this many features
KEPT_LIMIT = 20_000


def brought(state: State, root: int, kept: Kept, weights: Weights = DEFAULT) -> list[tuple[int, float]]:
    """``contribution(state, root, weights=weights)``, kept in ``kept`` for the next state that
    holds the very same (immutable) feature, with the same animals taken (equal sets: a state
    builds the set from its specials' memories) and as many tiles left:
    what it brings depends on nothing else (the same feature object at the same id has the same
    zones), but for a meadow with specials, which may read the tiles around it and is never
    kept.  (One ``kept`` serves one ``weights``.)

    >>> from huntgather import Game
    >>> g = Game(players=2, seed=9)
    >>> while not g.state.board.occupants: _ = g.play(g.legal_moves()[0])
    >>> kept: Kept = {}; root = occupied_roots(g.state)[0]
    >>> brought(g.state, root, kept) == contribution(g.state, root), len(kept)
    (True, 1)
    >>> brought(g.state.copy(), root, kept) is brought(g.state, root, kept)   # a copy shares it
    True
    """
    f = state.board.feature_by_id(root)
    entry = kept.get(id(f))
    # (the tiles left matter to a forest or a river only, the chance that it is completed, but
    # for weights with fitted terms, which count the share of the stack left)
    removed = state.removed_animals
    left = -1 if (root >= SYSTEM or f.kind is MEADOW) and weights.plain else len(state.normal)
    if entry is not None and entry[0] is f and entry[1] == removed and entry[2] == left:
        return entry[3]
    pairs = contribution(state, root, None, weights)
    if not (f.kind is MEADOW and f.specials):
        if len(kept) >= KEPT_LIMIT:   # (a bound on the memory: a kept value is only a shortcut)
            kept.clear()
        kept[id(f)] = (f, removed, left, pairs)
    return pairs


def _joined(state: State, root: int, f: Feature, seat: int, memo: Memo,
            weights: Weights = DEFAULT) -> list[tuple[int, float]] | None:
    """``contribution(state, root, memo)`` once a piece of ``seat`` joins feature ``root`` (``f``,
    which holds no piece of that kind: a meeple on a forest, meadow or river without meeples, a
    hut on a river system without huts), to the last bit, without putting it there: the piece
    makes ``seat`` the one winner, and the points do not depend on the pieces.  None for a
    meadow with specials (one may give the meadow to another seat: put the piece there)."""
    if f.kind is MEADOW and f.specials:
        return None
    points, chance = _worth(state, root, f, memo, weights)
    if weights.meeple_back and root < SYSTEM:
        back = _back(state, f, weights)
        if back:
            return [(seat, points * chance), (seat, back)]
    return [(seat, points * chance)]


def _supply_values(state: State, weights: Weights = DEFAULT) -> list[float]:
    """What each seat's meeples and huts in supply are worth (less as the normal stack runs out)."""
    fade = _fade(state, weights)
    meeples, huts = state.meeples, state.huts   # (by seat, not zip(..., strict=True): quicker)
    meeple, hut = weights.meeple, weights.hut
    return [fade * (meeple * meeples[p] + hut * huts[p]) for p in range(state.players)]


def _add_supply(state: State, values: list[float], supply: list[float] | None = None,
                weights: Weights = DEFAULT) -> None:
    """Add the supplies (``supply``: :func:`_supply_values` of ``state``, if the caller has it),
    then a pending bonus turn."""
    # values[p] += supply[p] for each seat, in one pass
    values[:] = map(add, values, _supply_values(state, weights) if supply is None else supply)
    if state.phase is DRAW and state.stack is BONUS and state.bonus:
        values[state.player] += weights.bonus_turn


class Estimator:
    """:func:`estimate` for many states that follow one position by one placement.

    Built on a position, it remembers what each occupied feature brings; for
    a state reached by placing (and occupying) tile ``tile`` it recomputes
    only the features of that tile, and reuses the rest.  A state reached
    with a shaman take-back (``full``) is estimated as :func:`estimate` does, in
    the same order, to the last bit; but a feature that is still the very
    same (immutable) feature as in the position, and that the tile did not
    touch, keeps what it brought there.

    >>> from huntgather import Game
    >>> from huntgather.bots.base import turn_plans
    >>> g = Game(players=2, seed=9)
    >>> est = Estimator(g.state)
    >>> all(max(abs(a - b) for a, b in zip(est(after, g.state.tile), estimate(after))) < 1e-9
    ...     for _, after in turn_plans(g.state))
    True
    """

    def __init__(self, state: State, kept: Kept | None = None, weights: Weights = DEFAULT) -> None:
        #: the estimate's numbers
        self.weights = weights
        #: per occupied feature of the position: its id and what it brings (``kept``: what
        #: features brought in other states of a search, see :func:`brought`)
        self.base: list[tuple[int, list[tuple[int, float]]]] = [
            (root, contribution(state, root, None, weights) if kept is None
             else brought(state, root, kept, weights))
            for root in occupied_roots(state)]
        self.memos: dict[tuple[int, int, int, int], Memo] = {}
        #: the ids of the features in ``base``
        self.roots = frozenset(root for root, _ in self.base)
        #: (scores, ids of ``base`` left out) -> the scores plus what the others bring (see _start)
        self.starts: dict[tuple[tuple[int, ...], frozenset[int]], list[float]] = {}
        features = state.board.feature_by_id
        #: root -> (its feature in the position, what it brings)
        self.known: dict[int, tuple[Feature, list[tuple[int, float]]]] = {
            root: (features(root), pairs) for root, pairs in self.base}

    def __call__(self, after: State, tile: int | None, full: bool = False) -> list[float]:
        if after.is_over:
            return [float(s) for s in after.scores]
        board = after.board
        if tile is None or tile not in board.where:
            return estimate(after, None, self.weights)
        memo = self._memo(after, tile)
        if full:
            return self._full(after, tile, memo)
        values, touched = self._start(after, tile)
        for pairs in self._parts(after, touched, memo, self.weights):
            for player, points in pairs:
                values[player] += points
        _add_supply(after, values, None, self.weights)
        return values

    def _full(self, after: State, tile: int, memo: Memo) -> list[float]:
        """:func:`estimate` of ``after`` (with ``memo``), reusing what unchanged features bring."""
        values = self._full_start(after, tile, memo)[0]
        _add_supply(after, values, None, self.weights)
        return values

    def _full_start(self, after: State, tile: int, memo: Memo) -> tuple[list[float], list[int]]:
        """The scores plus what every occupied feature brings, in :func:`estimate`'s order (the
        supplies not yet added), and the ids of those features in that order."""
        features = after.board.features
        touched = after.board.tile_feature_ids(after.edition.tiles.by_id[tile])
        known = self.known
        values = [float(s) for s in after.scores]
        roots = occupied_roots(after)
        for root in roots:
            entry = known.get(root)
            if entry is not None and entry[0] is features.get(root) and root not in touched:
                pairs = entry[1]
            else:
                pairs = contribution(after, root, memo, self.weights)
            for player, points in pairs:
                values[player] += points
        return values, roots

    def _full_with_occupants(self, after: State, tile: int, player: int,
                             options: Sequence[tuple[int, Piece]],
                             memo: Memo) -> tuple[list[float], list[list[float]]]:
        """:meth:`with_occupants` for ``full`` estimates: a piece on a feature that held none
        adds that feature last (:func:`occupied_roots` lists them by their first piece), so
        each sum is the one without the piece, plus that feature, plus the supplies."""
        board = after.board
        start, roots = self._full_start(after, tile, memo)
        out: list[list[float]] = []
        worth: dict[bool, list[float]] = {}   # hut or meeple -> the supplies with one fewer
        for zone, piece in options:
            hut = piece == HUT
            root, mine = self._with_piece(after, tile, zone, player, piece, memo, self.weights)
            if root in roots:   # pragma: no cover - the rules put a piece only where none is
                root, was = board.try_occupant(tile, zone, player, piece)
                try:
                    values = self._full_start(after, tile, memo)[0]
                finally:
                    board.untry_occupant(tile, zone, root, was)
            else:
                values = start.copy()
                for seat, points in mine:
                    values[seat] += points
            supplies = worth.get(hut)
            if supplies is None:
                supplies = worth[hut] = self._supplies_less_one(after, player, hut)
            _add_supply(after, values, supplies, self.weights)
            out.append(values)
        _add_supply(after, start, None, self.weights)
        return start, out

    def with_occupants(self, after: State, tile: int, player: int, options: Sequence[tuple[int, Piece]],
                       full: bool = False) -> tuple[list[float], list[list[float]]]:
        """``self(after, tile, full)``, and for each ``(zone, piece)`` of ``options`` the same for
        ``after`` with that piece of ``player`` on zone ``zone`` of ``tile`` (the tile just
        placed) and one fewer in their supply, to the last bit, without copying ``after``.

        Only the feature (or river system) that the piece joins is valued again, most often
        without the piece put on the board (else it is put there and taken off again), so
        ``after`` ends as it began.  For a
        piece that would not change the turn's scoring (the caller checks: the feature it
        joins is not completed by this placement, and the game goes on).

        >>> from huntgather import Game
        >>> from huntgather.moves import Occupy, Pass
        >>> g = Game(players=2, seed=9)
        >>> _ = g.play(g.legal_moves()[0])
        >>> est = Estimator(g.state); s = g.state.copy(); tile = s.tile
        >>> options = [m for m in s.legal_moves() if isinstance(m, Occupy)]
        >>> one = s.copy(); _ = one.apply(options[0], trusted=True)
        >>> _ = s.apply(Pass(), trusted=True)
        >>> est.with_occupants(s, tile, 0, [(options[0].zone, options[0].piece)]) == (est(s, tile),
        ...                                                                          [est(one, tile)])
        True
        """
        memo = self._memo(after, tile)
        if full:
            return self._full_with_occupants(after, tile, player, options, memo)
        # the scores and the untouched features are the same for every piece: add them once
        # (in the order __call__ adds them, so that every sum is the same to the last bit)
        start, touched = self._start(after, tile)
        parts = self._parts(after, touched, memo, self.weights)
        others = any(parts)   # (most often none of the other features brings anything)
        out: list[list[float]] = []
        worth: dict[bool, list[float]] = {}   # hut or meeple -> the supplies with one fewer
        for zone, piece in options:
            hut = piece == HUT
            root, mine = self._with_piece(after, tile, zone, player, piece, memo, self.weights)
            values = start.copy()
            if others:
                k = touched.index(root)
                for pairs in (*parts[:k], mine, *parts[k + 1:]):
                    for seat, points in pairs:
                        values[seat] += points
            else:
                for seat, points in mine:
                    values[seat] += points
            supplies = worth.get(hut)
            if supplies is None:
                supplies = worth[hut] = self._supplies_less_one(after, player, hut)
            _add_supply(after, values, supplies, self.weights)
            out.append(values)
        values = start
        for pairs in parts:
            for seat, points in pairs:
                values[seat] += points
        _add_supply(after, values, None, self.weights)
        return values, out

    def _supplies_less_one(self, after: State, player: int, hut: bool) -> list[float]:
        """:func:`_supply_values` of ``after`` with one hut (or meeple) fewer in ``player``'s
        supply: what follows a piece put on the board (``after`` ends as it began)."""
        supply = after.huts if hut else after.meeples
        supply[player] -= 1
        try:
            return _supply_values(after, self.weights)
        finally:
            supply[player] += 1

    @staticmethod
    def _with_piece(after: State, tile: int, zone: int, player: int, piece: Piece,
                    memo: Memo, weights: Weights) -> tuple[int, list[tuple[int, float]]]:
        """The id of the feature (for a hut: the river system) that a piece of ``player`` on zone
        ``zone`` of ``tile`` would join, and what that feature would bring with it
        (:func:`contribution`); ``after`` ends as it began.  Most often the feature holds no such
        piece yet, and :func:`_joined` values it without the piece put on the board."""
        board = after.board
        hut = piece == HUT
        root = board.find(SYSTEM + tile * 10 + zone if hut else tile * 10 + zone)
        f = board.features[root]
        if not (f.huts if hut else f.meeples):
            found = _joined(after, root, f, player, memo, weights)
            if found is not None:
                return root, found
        root, was = board.try_occupant(tile, zone, player, piece)
        try:
            return root, contribution(after, root, memo, weights)
        finally:
            board.untry_occupant(tile, zone, root, was)

    @staticmethod
    def _parts(after: State, touched: list[int], memo: Memo,
               weights: Weights) -> list[list[tuple[int, float]]]:
        """What each of the features ``touched`` (ids that are roots) brings, in order."""
        features = after.board.features
        # (most hold no piece, and bring nothing: stake() says so first, here without a call)
        return [contribution(after, root, memo, weights) if features[root].meeples or features[root].huts
                else [] for root in touched]

    def _memo(self, after: State, tile: int) -> Memo:
        """The meadow memo for boards with ``tile`` where ``after`` has it (meadows depend on
        where the tile lies and how it is turned)."""
        board = after.board
        x, y = board.where[tile]
        placed = board.tile_at(x, y)
        assert placed is not None
        key = (tile, x, y, placed[1])
        memo = self.memos.get(key)
        if memo is None:
            memo = self.memos[key] = {}
        return memo

    def _start(self, after: State, tile: int) -> tuple[list[float], list[int]]:
        """The scores plus what each feature of the position that placing ``tile`` did not touch
        brings, added in the order of ``base`` (a new list); and the ids of the features the tile
        touched, whose contributions are to be added next.

        A feature of the position is touched if its id is now the id of one of the tile's
        features, or if it is no longer an id of its own: only the tile joins features, so a
        feature that merged went into one of the tile's.  Placements that score the same and
        touch the same features of the position start from the same sums: they are kept."""
        board = after.board
        touched = board.tile_feature_ids(after.edition.tiles.by_id[tile])
        roots = self.roots
        left_out = roots.intersection(touched)
        gone = roots.difference(board.features)
        if gone:   # (most often none: no third set)
            left_out |= gone
        key = (tuple(after.scores), left_out)
        start = self.starts.get(key)
        if start is None:
            start = self.starts[key] = [float(s) for s in after.scores]
            for root, pairs in self.base:
                if root not in left_out:
                    for player, points in pairs:
                        start[player] += points
        return start.copy(), touched


def advantage(values: Sequence[float], player: int) -> float:
    """``player``'s estimate minus the best other player's.

    >>> advantage([10.0, 4.0, 7.0], 0), advantage([10.0, 4.0, 7.0], 1)
    (3.0, -6.0)
    """
    if len(values) == 2:   # (the usual case: the other seat's value itself)
        return values[player] - values[1 - player]
    best_other = max(v for i, v in enumerate(values) if i != player)
    return values[player] - best_other
