"""Property tests over random seeded games of both editions, 2 to 5 players.

Each game is a complete game in which every decision is a uniformly random
legal move (:func:`huntgather.random_game`).  Its history (draws included) is
replayed from the start position with checks at every step:

* every move was among ``legal_moves()`` at that point;
* pieces are conserved: per player, the edition's meeples (and huts) are in
  supply or on the board, and the features hold exactly the board's meeples;
* tiles are conserved: placed + discarded + in the stacks = the whole set, and
  a chance node's outcomes are exactly the stack that is due;
* scores never decrease, and stay within a bound derived from the tile data;
* once a turn has resolved, no complete forest or river still holds a meeple.

Then: record -> replay gives the same events and scores; ``copy()`` is
independent of its original; the same seed gives the same game; and an
OpenSpiel-style harness (legal moves unique, applying each never raises).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from huntgather.editions import get_edition
from huntgather.features import SYSTEM
from huntgather.game import Game, random_game
from huntgather.moves import HUT, MEEPLE, Draw, Move
from huntgather.record import read_record, write_position, write_record
from huntgather.specials import Logboat, PitTrap
from huntgather.state import DRAW, NORMAL, OVER, PLACE, State
from huntgather.tiles import FOREST, LAKE, RIVER

EDITIONS = st.sampled_from(["2020", "2002"])
PLAYERS = st.integers(min_value=2, max_value=5)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)

#: every test here plays many random games: on the compiled build only, where there is one (the
#: `engine` marker, pyproject.toml)
pytestmark = pytest.mark.engine

# A game takes a few milliseconds; the checked replay a few tens.  Keep the whole file well
# under 40 seconds on a loaded 2-core machine.
FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def score_bound(edition: str) -> int:
    """An upper bound on one player's final score, derived from the tile data and the rules.

    Per tile, summed over the whole set (every tile could be placed):
    a forest scores per tile once per forest zone, plus its mushrooms; a river
    scores per tile once per river zone, plus its fish, plus the fish of the lake
    it runs into; huts score every fish of a river system once (plus 1 per lake
    with the raft); a logboat scores per lake of its system, at most every lake
    of the set; every animal scores at most the best animal value, doubled by
    the pit trap, and once only (a hunting trap removes what it scores).
    """
    ed = get_edition(edition)
    tiles = list(ed.tiles)
    lakes = sum(1 for t in tiles for z in t.zones.values() if z.kind == LAKE)
    pit = ed.special("pit_trap")
    best_animal = max(ed.animal_points.values()) * (pit.factor if isinstance(pit, PitTrap) else 1)
    logboat = ed.special("logboat")
    bound = 0
    for t in tiles:
        for z in t.zones.values():
            if z.kind == FOREST:
                bound += ed.forest_tile_points + ed.mushroom_points * z.mushrooms
            elif z.kind == RIVER:
                lake_fish = t.zones[z.lake].fish if z.lake is not None else 0
                bound += ed.river_tile_points + z.fish + lake_fish  # fisher
                bound += z.fish  # huts
            elif z.kind == LAKE:
                bound += z.fish + 1  # huts, raft
                if z.special == "logboat" and isinstance(logboat, Logboat):
                    bound += logboat.points_per_lake * lakes
            bound += best_animal * len(z.animals)
    return bound


BOUNDS = {name: score_bound(name) for name in ("2020", "2002")}


def check_invariants(state: State, total_tiles: int) -> None:
    """Everything that must hold after any move of a game."""
    ed = state.edition
    board = state.board
    for p in range(state.players):
        on_board = [piece for owner, piece in board.occupants.values() if owner == p]
        assert state.meeples[p] + on_board.count(MEEPLE) == ed.meeples, f"seat {p} meeples not conserved"
        assert state.huts[p] + on_board.count(HUT) == ed.huts, f"seat {p} huts not conserved"
        assert state.meeples[p] >= 0 and state.huts[p] >= 0
    in_features = sorted(n for root, f in board.features.items() if root < SYSTEM for _, n in f.meeples)
    assert in_features == sorted(n for n, (_, piece) in board.occupants.items() if piece == MEEPLE)
    huts_in_systems = sorted(n for f in board.features.values() for _, n in f.huts)
    assert huts_in_systems == sorted(n for n, (_, piece) in board.occupants.items() if piece == HUT)
    # tiles: on the board, discarded, in a stack, or the one in hand
    in_hand = [state.tile] if state.phase != DRAW and state.tile is not None and \
        state.tile not in board.where else []
    accounted = [*board.where, *state.discarded, *state.normal, *state.bonus, *in_hand]
    assert sorted(accounted) == sorted(t.id for t in ed.tiles), "tiles not conserved"
    assert len(accounted) == total_tiles
    if state.phase == DRAW:
        due = state.normal if state.stack == NORMAL else state.bonus
        assert sorted(state.chance_outcomes()) == sorted(due) and len(due) > 0
    if state.phase in (DRAW, PLACE, OVER):  # the turn has resolved: nothing is pending
        for root, f in board.features.items():
            if root < SYSTEM and f.kind in (FOREST, RIVER) and f.open == 0:
                assert not f.meeples, f"a complete {f.kind} still holds {f.meeples}"
    for s in state.scores:
        assert 0 <= s <= BOUNDS[ed.name]


def checked_replay(game: Game) -> list[object]:
    """Replay ``game`` from its start with every check; return the events."""
    state = game.initial.copy()
    total = len(list(state.edition.tiles))
    check_invariants(state, total)
    events: list[object] = []
    for move in game.history:
        legal = state.legal_moves()
        assert move in legal, f"{move} was not a legal move in {state.describe_decision()}"
        before = list(state.scores)
        events.extend(state.apply(move))
        assert all(a >= b for a, b in zip(state.scores, before, strict=True)), "a score decreased"
        check_invariants(state, total)
    assert state.is_over
    assert state.scores == list(game.scores)
    return events


@FAST
@given(EDITIONS, PLAYERS, SEEDS)
def test_random_games_keep_the_invariants(edition: str, players: int, seed: int) -> None:
    game = random_game(players, seed, edition)
    assert game.is_over
    assert checked_replay(game) == game.events


@FAST
@given(EDITIONS, PLAYERS, SEEDS)
def test_record_round_trip(edition: str, players: int, seed: int) -> None:
    game = random_game(players, seed, edition)
    again = read_record(write_record(game))
    assert again.history == game.history
    assert again.events == game.events
    assert again.scores == game.scores
    assert write_record(again) == write_record(game)


@FAST
@given(EDITIONS, PLAYERS, SEEDS)
def test_same_seed_same_game(edition: str, players: int, seed: int) -> None:
    a, b = random_game(players, seed, edition), random_game(players, seed, edition)
    assert a.history == b.history and a.events == b.events and a.scores == b.scores
    assert Game(players, edition=edition, seed=seed).decision == Game(players, edition=edition,
                                                                       seed=seed).decision


def play_on(game: Game, rng: random.Random, moves: int | None = None) -> None:
    n = 0
    while not game.is_over and (moves is None or n < moves):
        legal = game.legal_moves()
        game.play(legal[rng.randrange(len(legal))])
        n += 1


def snapshot(game: Game) -> tuple[object, ...]:
    """The game's record, its position's text and the board's internal bookkeeping."""
    board = game.state.board
    return (write_record(game), write_position(game.state), game.state.legal_moves(),
            dict(board.features), dict(board.occupants), dict(board.frontier), board.links())


@FAST
@given(EDITIONS, PLAYERS, SEEDS, st.integers(min_value=0, max_value=150))
def test_copy_is_independent(edition: str, players: int, seed: int, moves: int) -> None:
    rng = random.Random(seed)
    game = Game(players, edition=edition, seed=seed)
    play_on(game, rng, moves)
    before = snapshot(game)
    copy = game.copy()
    assert snapshot(copy) == before
    play_on(copy, rng)  # mutate the copy to the end of its game
    state_copy = game.state.copy()
    while not state_copy.is_over:  # and a bare state copy, drawing from the state's own outcomes
        legal: list[Move] = state_copy.legal_moves()
        state_copy.apply(legal[rng.randrange(len(legal))])
    assert snapshot(game) == before
    # the original still plays on normally, and its own copy agrees with it move for move
    twin = game.copy()
    play_on(game, random.Random(1))
    play_on(twin, random.Random(1))
    assert game.history == twin.history and game.scores == twin.scores


@FAST
@given(EDITIONS, PLAYERS, SEEDS)
def test_trusted_apply_matches_checked_apply(edition: str, players: int, seed: int) -> None:
    """``apply(move, trusted=True)`` skips only the check: same events, same state, move for move."""
    rng = random.Random(seed)
    checked = State.new(players, edition=edition)
    trusted = checked.copy()
    while not checked.is_over:
        legal = checked.legal_moves()
        assert trusted.legal_moves() == legal
        move = legal[rng.randrange(len(legal))]
        assert trusted.apply(move, trusted=True) == checked.apply(move)
        assert (trusted.scores, trusted.meeples, trusted.huts, trusted.decision) == \
            (checked.scores, checked.meeples, checked.huts, checked.decision)
        assert trusted.board.features == checked.board.features
        assert trusted.board.occupants == checked.board.occupants


@SLOW
@given(EDITIONS, PLAYERS, SEEDS)
def test_openspiel_style_harness(edition: str, players: int, seed: int) -> None:
    """Legal moves unique; applying each one to a clone never raises; returns bounded."""
    rng = random.Random(seed)
    game = Game(players, edition=edition, seed=seed)
    state = game.state
    step = 0
    while not state.is_over:
        legal = state.legal_moves()
        assert legal, f"no legal move in {state.describe_decision()}"
        assert len(set(legal)) == len(legal), "legal moves are not unique"
        assert all(not isinstance(m, Draw) for m in legal), "the game resolves chance itself"
        if step % 7 == 0:  # every legal move of every 7th decision: a clone accepts it
            for move in legal:
                clone = state.copy()
                assert clone.legal_moves() == legal
                clone.apply(move)
        game.play(legal[rng.randrange(len(legal))])
        step += 1
        for s in state.scores:
            assert 0 <= s <= BOUNDS[edition]
    assert state.legal_moves() == []
    assert set(state.winners()) == {p for p, s in enumerate(state.scores) if s == max(state.scores)}
