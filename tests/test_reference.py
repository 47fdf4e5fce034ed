"""The fast board against naive reference computations, on random positions of both editions.

The board lists legal placements from its incrementally kept frontier and a
memo of fitting rotations, and keeps features with union-find and running
counters.  Here the same answers are recomputed the slow, obvious way, from
nothing but the placed tiles (``board.cells``) and the tile data:

* placements: every cell of the bounding box grown by one, every rotation:
  the cell is empty, it touches a placed tile, and every shared side matches
  (RULINGS.md, "Placing a tile");
* the frontier: every empty cell next to a tile, with the neighbours' side kinds;
* features: flood fill over zones joined across matching sides (meadow1 of
  one river side meets meadow2 of the other), counting tiles, open sides,
  fish, lakes and forest counters; river systems also join rivers to their lakes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from huntgather import board as board_module
from huntgather.bench import play_random
from huntgather.board import GONE, Board
from huntgather.editions import get_edition
from huntgather.features import SYSTEM, Feature
from huntgather.game import Game
from huntgather.kinds import ForestCounter, Kind
from huntgather.moves import Draw
from huntgather.state import PLACE, State
from huntgather.tiles import DELTAS, FOREST, LAKE, MEADOW, RIVER, Tile, Zone

Pos = tuple[int, int]


def naive_placements(board: Board, tile: Tile) -> set[tuple[int, int, int]]:
    cells = board.cells
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    out = set()
    for x in range(min(xs) - 1, max(xs) + 2):
        for y in range(min(ys) - 1, max(ys) + 2):
            if (x, y) in cells:
                continue
            for r in range(4):
                touches = False
                fits = True
                for d, (dx, dy) in enumerate(DELTAS):
                    nb = cells.get((x + dx, y + dy))
                    if nb is None:
                        continue
                    touches = True
                    ntile = board.tiles[nb[0]]
                    if tile.side_at(r, d).kind != ntile.side_at(nb[1], (d + 2) % 4).kind:
                        fits = False
                if touches and fits:
                    out.add((x, y, r))
    return out


def naive_frontier(board: Board) -> dict[Pos, tuple[str | None, ...]]:
    cells = board.cells
    out: dict[Pos, tuple[str | None, ...]] = {}
    for (x, y) in cells:
        for dx, dy in DELTAS:
            pos = (x + dx, y + dy)
            if pos in cells or pos in out:
                continue
            kinds: list[str | None] = []
            for d, (ex, ey) in enumerate(DELTAS):
                nb = cells.get((pos[0] + ex, pos[1] + ey))
                kinds.append(None if nb is None else board.tiles[nb[0]].side_at(nb[1], (d + 2) % 4).kind)
            out[pos] = tuple(kinds)
    return out


def naive_links(board: Board) -> tuple[dict[int, set[int]], dict[int, int]]:
    """Zone graph of the board (land and river links), and open side slots per zone node."""
    links: dict[int, set[int]] = {}
    open_slots: dict[int, int] = {}
    for (x, y), (tid, rot) in board.cells.items():
        tile = board.tiles[tid]
        for z in tile.zones.values():
            links.setdefault(tid * 10 + z.id, set())
            open_slots.setdefault(tid * 10 + z.id, 0)
        for d, (dx, dy) in enumerate(DELTAS):
            side = tile.side_at(rot, d)
            nb = board.cells.get((x + dx, y + dy))
            if nb is None:
                counted = side.zones[1] if side.kind == RIVER else side.zones[0]
                if side.kind != MEADOW:
                    open_slots[tid * 10 + counted] += 1
                continue
            nside = board.tiles[nb[0]].side_at(nb[1], (d + 2) % 4)
            if side.kind == RIVER:
                pairs = zip(side.zones, reversed(nside.zones), strict=True)  # m1-m2, river-river, m2-m1
            else:
                pairs = zip(side.zones, nside.zones, strict=True)
            for a, b in pairs:
                links[tid * 10 + a].add(nb[0] * 10 + b)
    return links, open_slots


def components(nodes: list[int], links: dict[int, set[int]]) -> Iterator[set[int]]:
    seen: set[int] = set()
    for start in nodes:
        if start in seen:
            continue
        group = {start}
        todo = [start]
        while todo:
            n = todo.pop()
            for m in links[n]:
                if m not in group:
                    group.add(m)
                    todo.append(m)
        seen |= group
        yield group


def zone(board: Board, node: int) -> Zone:
    return board.tiles[node // 10].zones[node % 10]


def check_features(board: Board) -> int:
    """Compare every feature with the flood fill; return how many features were compared."""
    links, open_slots = naive_links(board)
    land = [n for n in links if zone(board, n).kind != LAKE]
    compared = 0
    for group in components(land, links):
        kinds = {zone(board, n).kind for n in group}
        assert len(kinds) == 1, f"zones of different kinds joined: {sorted(group)}"
        kind = kinds.pop()
        roots = {board.find(n) for n in group}
        assert len(roots) == 1, f"the board splits the {kind} {sorted(group)} into {len(roots)} features"
        f = board.features[roots.pop()]
        assert f.kind == kind
        assert f.tiles == {n // 10 for n in group}
        if kind in (FOREST, RIVER):
            assert f.open == sum(open_slots[n] for n in group), f"open sides of {kind} {sorted(group)}"
        if kind == FOREST:
            assert f.menhirs == sum(zone(board, n).menhirs for n in group)
            assert f.gold_nuggets == sum(zone(board, n).gold_nuggets for n in group)
            assert f.mushrooms == sum(zone(board, n).mushrooms for n in group)
        if kind == RIVER:
            assert f.fish == sum(zone(board, n).fish for n in group)
            lakes = [(n // 10 * 10, zone(board, n).lake) for n in group]
            assert f.lakes == {base + lake for base, lake in lakes if lake is not None}
        if kind == MEADOW:
            specials = {zone(board, n).special for n in group} - {None}
            assert f.specials == specials
        compared += 1
    # river systems: rivers joined across sides and to the lakes they run into
    system_links: dict[int, set[int]] = {n: set() for n in links if zone(board, n).kind in (RIVER, LAKE)}
    for n in system_links:
        z = zone(board, n)
        if z.kind == RIVER:
            system_links[n] |= {m for m in links[n] if m in system_links}
            if z.lake is not None:
                lake = (n // 10) * 10 + z.lake
                system_links[n].add(lake)
                system_links[lake].add(n)
    for group in components(list(system_links), system_links):
        roots = {board.find(SYSTEM + n) for n in group}
        assert len(roots) == 1, f"the board splits the river system {sorted(group)}"
        f = board.features[roots.pop()]
        assert f.tiles == {n // 10 for n in group}
        assert f.lakes == {n for n in group if zone(board, n).kind == LAKE}
        assert f.fish == sum(zone(board, n).fish for n in group)
        compared += 1
    return compared


def positions(edition: str, seed: int, players: int) -> Iterator[State]:
    """Every placement decision of a random game (the live state: do not keep it)."""
    rng = random.Random(seed)
    game = Game(players, edition=edition, seed=seed)
    while not game.is_over:
        if game.state.phase == PLACE:
            yield game.state
        legal = game.legal_moves()
        game.play(legal[rng.randrange(len(legal))])


SEEDS = [(edition, seed) for edition in ("2020", "2002") for seed in range(6)]


@pytest.mark.engine
@pytest.mark.parametrize(("edition", "seed"), SEEDS)
def test_legal_placements_match_the_naive_check(edition: str, seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for k, state in enumerate(positions(edition, seed, 2 + seed % 4)):
        board = state.board
        tiles = state.edition.tiles
        assert state.tile is not None
        in_hand = tiles[state.tile]
        others = [tiles[t] for t in rng.sample(sorted(state.normal + state.bonus),
                                               min(2, len(state.normal + state.bonus)))]
        for tile in [in_hand, *others, in_hand]:  # the second look at in_hand may come from the memo
            listed = board.placements(tile)
            assert len(set(listed)) == len(listed), "a placement is listed twice"
            assert set(listed) == naive_placements(board, tile), f"tile {tile.id} at decision {k}"
            assert board.can_place(tile) == bool(listed)
            for x, y, r in listed:
                assert board.mismatch(tile, x, y, r) is None
            # one placement by its index, without the list: the same as the list's
            assert board.placement_count(tile) == len(listed)
            assert [board.placement(tile, i) for i in range(len(listed))] == listed
            checked += 1
        # a random move is the legal move at a random index, drawn from the generator alike
        draw = random.Random(k)
        legal = state.legal_moves()
        assert state.random_move(random.Random(k)) == legal[draw.randrange(len(legal))]
        if k % 5 == 0:
            assert {pos: board.constraint(*pos) for pos in board.frontier} == naive_frontier(board)
            # the frontier's lists (covered cells marked GONE until compacted) hold its cells in
            # its order, each at the index the frontier's dict gives it
            kept = [at for at, code in enumerate(board.front_codes) if code != GONE]
            assert [board.front_keys[at] for at in kept] == list(board.front)
            assert [board.front[board.front_keys[at]] for at in kept] == kept
            assert board.front_codes.count(GONE) == board.front_gone
    assert checked > 100


@pytest.mark.engine
@pytest.mark.parametrize(("edition", "seed"), SEEDS)
def test_features_match_a_flood_fill(edition: str, seed: int) -> None:
    compared = 0
    for k, state in enumerate(positions(edition, 100 + seed, 2 + seed % 4)):
        if k % 2 == 0:
            compared += check_features(state.board)
    assert compared > 100


@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_the_side_tables_name_the_zones_that_board_put_joins(edition: str) -> None:
    # Board.put joins a side with its neighbour's through the per-tile tables _sides and _facing:
    # here each entry against the tile's own side data (tiles.Side: ``(zone,)``, or ``(meadow1,
    # river, meadow2)`` for a river side, whose river system put joins too)
    node_of = board_module._NODE_OF
    for tile in get_edition(edition).tiles:
        base = tile.id * 10
        for r in range(4):
            for d, (step, slots, closed, back, _, _) in enumerate(board_module._sides(tile)[r]):
                side = tile.side_at(r, d)
                nodes = [node_of[slot] for slot in slots]
                if side.kind == RIVER:
                    m1, river, m2 = side.zones
                    assert nodes == [base + m1, base + river, base + m2, SYSTEM + base + river]
                else:
                    assert nodes == [base + side.zones[0]]
                assert slots == board_module._facing(tile)[r][d]
                assert closed == (2 if side.kind == FOREST else 0)
                assert back == (d + 2) % 4
                dx, dy = DELTAS[d]
                assert step == board_module.cell_key(dx, dy) - board_module.cell_key(0, 0)


def test_a_features_counters_by_name_are_the_forest_counters() -> None:
    # Feature.counter compares the name itself (quicker compiled): the same as ForestCounter.of
    f = Feature(Kind.FOREST, frozenset({3}), 2, menhirs=1, gold_nuggets=2, mushrooms=3)
    for counter in ForestCounter:
        assert f.counter(counter) == f.counter(counter.value) == counter.of(f)
    assert [f.counter(c) for c in ("menhirs", "gold_nuggets", "mushrooms")] == [1, 2, 3]
    with pytest.raises(ValueError):
        f.counter("fish")


def test_a_placement_out_of_range_is_an_index_error() -> None:
    state = Game(2, seed=5).state
    tile = state.edition.tiles[state.tile or 0]
    count = state.board.placement_count(tile)
    for index in (-1, count):
        with pytest.raises(IndexError, match=rf"^placement {index} of {count}$"):
            state.board.placement(tile, index)


def test_random_move_answers_every_kind_of_decision_as_legal_moves_does() -> None:
    """Occupants, passes and shaman take-backs too: ``random_move`` is ``legal_moves()[i]``."""
    phases = set()
    for seed in range(30):
        game = Game(3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            state = game.state
            phases.add(state.phase)
            legal = state.legal_moves()
            mirror = random.Random()
            mirror.setstate(rng.getstate())
            move = state.random_move(rng)
            assert move == legal[mirror.randrange(len(legal))]
            assert rng.getstate() == mirror.getstate()
            game.play(move, trusted=True)
    assert {"place", "occupy", "special"} <= phases


def test_a_copy_lists_its_own_placements() -> None:
    """After a put on a copy, the copy lists its own placements and the original keeps its own."""
    game = Game(2, seed=5)
    state = game.state
    tiles = state.edition.tiles
    tile = tiles[state.tile or 0]
    listed = state.board.placements(tile)
    cells = {(x, y) for x, y, _ in listed}
    # another tile that fits on a cell where ``tile`` could go: afterwards ``tile`` cannot go there
    other, (x, y, r) = next((tiles[t], p) for t in state.normal for p in state.board.placements(tiles[t])
                            if p[:2] in cells)
    state.board.placements(tile)
    copy = state.copy()
    copy.board.put(other.id, x, y, r)
    relisted = copy.board.placements(tile)
    assert set(relisted) == naive_placements(copy.board, tile)
    assert not any((px, py) == (x, y) for px, py, _ in relisted)
    assert set(state.board.placements(tile)) == naive_placements(state.board, tile) == set(listed)


@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_draws_by_index_are_the_draws_of_their_tiles(edition: str) -> None:
    """A ``Game`` draws by index (``State.draw_at``); at each of its draws, from either stack,
    ``apply(Draw(tile))`` on a copy (the tile looked up in its stack) makes the same position,
    stacks in the same order, and the same events."""
    stacks = set()
    for seed in range(3):
        game = Game(2, edition=edition, seed=seed)
        play_random(game, random.Random(seed))
        state = game.initial.copy()
        for move in game.history:
            if isinstance(move, Draw):
                stacks.add(state.stack)
                other = state.copy()
                events = state.draw_at(state.chance_outcomes().index(move.tile))
                assert other.apply(Draw(move.tile)) == events
                assert (other, other.normal, other.bonus) == (state, state.normal, state.bonus)
            else:
                state.apply(move)
        assert state == game.state
    assert stacks == {"normal", "bonus"}


@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_the_leaving_meeples_are_the_pieces_neither_huts_nor_hunters(edition: str) -> None:
    """``Board.leaving_meeples`` (what the end of the game takes off without scoring) against the
    board's pieces read the plain way, at every placement of random games."""
    found = 0
    for seed in range(3):
        for state in positions(edition, seed, 3):
            board = state.board
            plain = [(where.tile, where.zone, seat) for where, seat, piece in board.pieces()
                     if piece == "meeple" and board.zone(where.tile, where.zone).kind != MEADOW]
            assert board.leaving_meeples() == plain
            found += len(plain)
    assert found > 100
