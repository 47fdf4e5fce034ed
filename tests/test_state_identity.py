"""State equality and its readable repr (issue 13: positions comparable without hand-made snapshots)."""

from __future__ import annotations

import pickle
import random
import re
from typing import Any

import pytest

from huntgather import State
from huntgather.events import BonusTurn, FeatureScored, FinalScoring, ScoreRow
from huntgather.game import Game, random_game


@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_the_same_moves_make_equal_states_and_any_other_move_does_not(edition: str) -> None:
    for seed in range(20):
        a = random_game(2 + seed % 4, seed=seed, edition=edition)
        b = State.new(2 + seed % 4, edition)
        for move in a.history:          # replaying the record, draws included, ends equal
            b.apply(move)
        assert b == a.state and b is not a.state
    game = Game(2, edition=edition, seed=3)
    for _ in range(10):
        state = game.state
        twin = state.copy()
        assert twin == state
        moves = list(state.legal_moves())
        if len(moves) > 1:
            one, other = twin.copy(), twin.copy()
            one.apply(moves[0])
            other.apply(moves[-1])
            assert one != other and one != state
        game.play(moves[0])


def test_states_are_not_hashable_and_compare_only_with_states() -> None:
    state = State.new(players=2)
    with pytest.raises(TypeError, match=r"^unhashable type: 'State'$"):
        hash(state)
    assert state != "a state" and state != None   # noqa: E711
    assert repr(state).startswith("<State 2020, 2 players, turn 0: ")


@pytest.mark.engine
@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_a_quiet_apply_changes_the_state_as_the_normal_one_does(edition: str, rules: Any) -> None:
    # apply(quiet=True) makes no events; the state it leaves must be the same in every respect,
    # the board's internal bookkeeping included, at every move of whole random games
    events = 0
    for seed in range(12):
        loud = State.new(2 + seed % 4, edition)
        quiet = loud.copy()
        rng = random.Random(seed)
        while not loud.is_over:
            moves = loud.legal_moves()
            assert quiet.legal_moves() == moves
            move = moves[rng.randrange(len(moves))]
            events += len(loud.apply(move))
            assert quiet.apply(move, quiet=True) == []
            assert quiet == loud and rules.snapshot(quiet) == rules.snapshot(loud)
            assert quiet.decision == loud.decision
        # the rows a quiet end of the game scores are the same, without their texts
        rows, bare = loud.final_rows(), loud.final_rows(explain=False)
        assert [(r.kind, r.points) for r in bare] == [(r.kind, r.points) for r in rows]
        assert all(r.explanation for r in rows) and not any(r.explanation for r in bare)
    assert events > 1000   # (the normal apply made them)


def test_a_quiet_game_plays_the_same_game_without_events() -> None:
    # Game(quiet=True), as the bench plays: the same draws, moves and positions, no events made;
    # its copies and pickles stay quiet
    for seed in range(6):
        loud, quiet = Game(2 + seed % 4, seed=seed), Game(2 + seed % 4, seed=seed, quiet=True)
        a, b = random.Random(seed), random.Random(seed)
        while not loud.is_over:
            assert loud.play(loud.state.random_move(a), trusted=True) != []
            assert quiet.play(quiet.state.random_move(b), trusted=True) == []
            assert quiet.state == loud.state and quiet.history == loud.history
        assert quiet.events == [] and loud.events
        again = pickle.loads(pickle.dumps(quiet))
        assert again.quiet and quiet.copy().quiet and not pickle.loads(pickle.dumps(loud)).quiet
        assert again.follow([]) == [] and again.state == loud.state


def test_a_game_that_keeps_no_events_returns_the_same_events() -> None:
    # Game(keep_events=False), as the learning environments play: play and follow return the
    # very events a game that keeps them returns, but events stays empty; copies and pickles
    # keep the choice
    for seed in range(6):
        players = 2 + seed % 4
        kept, returned = Game(players, seed=seed), Game(players, seed=seed, keep_events=False)
        follower = Game.replay(kept.initial, kept.history)
        follower.keep_events = False   # (from here: the replay kept the first draws')
        replayed = list(follower.events)
        a, b = random.Random(seed), random.Random(seed)
        got: list[Any] = list(kept.events)   # the first draws'
        assert returned.events == [] and got
        while not kept.is_over:
            new = kept.play(kept.state.random_move(a), trusted=True)
            assert returned.play(returned.state.random_move(b), trusted=True) == new != []
            assert follower.follow(kept.history[len(follower.history):]) == new
            got += new
            assert returned.state == kept.state and returned.history == kept.history
        assert kept.events == got and returned.events == []
        assert follower.events == replayed == got[:len(replayed)]
        again = pickle.loads(pickle.dumps(returned))
        assert not again.keep_events and not returned.copy().keep_events
        assert pickle.loads(pickle.dumps(kept)).keep_events and kept.copy().keep_events


def _without_words(event: Any) -> Any:
    """An event as explain=False makes it: the words that explain it empty, no tiles listed."""
    if isinstance(event, (FeatureScored, ScoreRow)):
        return type(event)(event.kind, event.points, "", ())
    if isinstance(event, BonusTurn):
        return BonusTurn(event.player, event.granted, "")
    if isinstance(event, FinalScoring):
        return FinalScoring(tuple(_without_words(row) for row in event.rows))
    return event


@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_events_without_their_words_are_the_same_events(edition: str) -> None:
    # Game(explain=False) and State.apply(explain=False), as the learning environments play: the
    # same game, and each event the one a game that explains makes, but for its words
    kinds: set[str] = set()
    for seed in range(8):
        players = 2 + seed % 4
        loud, bare = Game(players, edition=edition, seed=seed), Game(players, edition=edition, seed=seed,
                                                                     explain=False)
        assert bare.events == [_without_words(e) for e in loud.events]
        a, b = random.Random(seed), random.Random(seed)
        while not loud.is_over:
            said = loud.play(loud.state.random_move(a), trusted=True)
            made = bare.play(bare.state.random_move(b), trusted=True)
            assert made == [_without_words(e) for e in said]
            assert bare.state == loud.state and bare.history == loud.history
            kinds |= {type(e).__name__ for e in said if _without_words(e) != e}
        again = pickle.loads(pickle.dumps(bare))
        assert not again.explain and not bare.copy().explain and loud.copy().explain
    assert kinds == {"FeatureScored", "BonusTurn", "FinalScoring"}   # (each kind of words was met)


@pytest.mark.engine
@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_the_occupy_options_kept_for_the_decision_are_those_listed_afresh(edition: str) -> None:
    # the rules keep the occupant options they found when they asked; a copy shares them and an
    # unpickled state (which has not kept them) lists them again: all must agree
    occupy_decisions = 0
    for seed in range(12):
        game = Game(2 + seed % 4, edition=edition, seed=seed)
        rng = random.Random(seed)
        while not game.state.is_over:
            state = game.state
            if state.phase == "occupy":
                occupy_decisions += 1
                moves = state.legal_moves()
                assert moves == state.copy().legal_moves() == pickle.loads(pickle.dumps(state)).legal_moves()
            game.play(state.random_move(rng), trusted=True)
    assert occupy_decisions > 100


def test_randbelow_and_choose_draw_what_random_draws() -> None:
    """The core's own ``randrange(n)`` and ``choice`` (compiled in the compiled build) give the very
    numbers of :class:`random.Random` and leave the generator where it leaves it."""
    from huntgather.state import choose, randbelow
    sizes = [*range(1, 300), 511, 512, 513, 1000, 2**20 - 1, 2**20, 2**20 + 1, 2**31 - 1, 2**32 + 5, 2**62,
             3**50]
    for seed in range(25):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in sizes:
            assert randbelow(ours, n) == theirs.randrange(n)
        for length in (1, 2, 3, 7, 78, 300):
            items = tuple(range(100, 100 + length))
            assert choose(ours, items) == theirs.choice(items)
        assert ours.getstate() == theirs.getstate()
    for bad in (0, -3):
        with pytest.raises(ValueError) as theirs_error:
            random.Random(1).randrange(bad)
        with pytest.raises(ValueError, match=f"^{re.escape(str(theirs_error.value))}$"):   # as random says
            randbelow(random.Random(1), bad)
    with pytest.raises(IndexError, match=r"^Cannot choose from an empty sequence$"):
        choose(random.Random(1), ())
    system = random.SystemRandom()   # another generator: asked for randrange itself
    assert all(0 <= randbelow(system, 5) < 5 for _ in range(20))


def test_taking_a_tile_out_of_a_stack_in_any_order() -> None:
    from huntgather.state import _without
    assert _without((1, 3, 5, 8), 5) == (1, 3, 8) and _without((1, 3, 5, 8), 1) == (3, 5, 8)
    assert _without((8, 1, 5, 3), 3) == (8, 1, 5) and _without((8, 1, 5, 3), 8) == (1, 5, 3)
    assert _without((9,), 9) == ()
    with pytest.raises(ValueError, match=r"^tuple.index\(x\): x not in tuple$"):
        _without((1, 2), 7)


@pytest.mark.engine
def test_a_placement_found_from_either_end_is_the_listed_one() -> None:
    """``Board.placement(tile, i, count=...)`` walks from the nearer end of the frontier; it finds
    ``placements(tile)[i]`` for every ``i``, as the walk from the start does."""
    from huntgather.state import PLACE
    for seed in range(6):
        game = Game(2, seed=seed)
        rng = random.Random(seed)
        state = game.state
        while not state.is_over:
            if state.phase == PLACE:
                board = state.board
                for tile in list(board.tiles.by_id.values())[seed::9]:
                    listed, count = board.placements(tile), board.placement_count(tile)
                    assert count == len(listed)
                    assert [board.placement(tile, i, count=count) for i in range(count)] == listed
                    assert [board.placement(tile, i) for i in range(count)] == listed
                    for outside in (-1, count):
                        with pytest.raises(IndexError, match=rf"^placement {outside} of {count}$"):
                            board.placement(tile, outside, count=count)
            game.play(state.random_move(rng), trusted=True)


def test_board_slots_are_given_out_once_when_threads_make_games_at_once() -> None:
    """Union-find slots are given out per process the first time a tile's template is made; a
    server makes games in worker threads too. In a fresh process, eight threads play games of
    both editions at once: every node has one slot (the tables agree both ways) and every game
    ends as the same game played alone does."""
    import subprocess
    import sys
    code = (
        "import random, threading\n"
        "from huntgather import Game\n"
        "from huntgather import board\n"
        "def play(seed, edition, out):\n"
        "    g = Game(3, edition=edition, seed=seed); rng = random.Random(seed)\n"
        "    while not g.state.is_over:\n"
        "        g.play(g.state.random_move(rng))\n"
        "    out[(seed, edition)] = g.scores\n"
        "together = {}\n"
        "threads = [threading.Thread(target=play, args=(s, e, together))\n"
        "           for s in range(4) for e in ('2020', '2002')]\n"
        "for t in threads: t.start()\n"
        "for t in threads: t.join()\n"
        "nodes = board._NODE_OF\n"
        "assert len(set(nodes)) == len(nodes), 'a node with two slots'\n"
        "assert all(board._SLOT_OF[n] == i for i, n in enumerate(nodes))\n"
        "assert sum(s >= 0 for s in board._SLOT_OF) == len(nodes)\n"
        "alone = {}\n"
        "for s in range(4):\n"
        "    for e in ('2020', '2002'):\n"
        "        play(s, e, alone)\n"
        "assert alone == together, (alone, together)\n"
        "print('ok', len(nodes))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok ")


def test_a_state_sent_to_a_spawned_process_plays_on_alike() -> None:
    """The server sends states to spawned worker processes, pickled (server/workers.py).  The
    worker here played a 2002 game first, so its tiles' union-find slots were given out in
    another order than in this process: over a whole game of each edition, every move a greedy
    bot chooses there is the one it chooses here, and every state comes back equal."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from huntgather.server.workers import choose_move

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context, initializer=random_game,
                             initargs=(3, 7, "2002")) as pool:
        for edition in ("2020", "2002"):
            game = Game(3, edition=edition, seed=11)
            moves = 0
            while not game.is_over:
                state = game.state
                there = pool.submit(choose_move, "greedy", moves, state).result(timeout=60)
                assert there == choose_move("greedy", moves, state)
                assert pool.submit(pickle.loads, pickle.dumps(state)).result(timeout=60) == state
                game.play(there)
                moves += 1
            assert moves > 80
