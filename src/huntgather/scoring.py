"""Pure scoring functions that explain themselves: the one place that says what scores what.

The value functions return ``(points, text)``, the text showing the arithmetic;
the feature functions (:func:`score_completed`, :func:`score_system`,
:func:`score_meadow`) return the event or table row for a whole feature.  The
engine applies what they return; the bots' estimates call the same functions
with ``explain=False``.  Special tiles change meadows and river systems through
their hooks (:mod:`huntgather.specials`), which these functions call.

>>> from huntgather.editions import get_edition
>>> e = get_edition("2020")
>>> river_points(e, tiles=3, river_fish=0, lake_fish=2, lakes=2)
(5, '3 tiles ×1 + 2 fish in 2 lakes = 5')
>>> forest_points(e, tiles=4, mushrooms=0)
(8, '4 tiles ×2 = 8')
>>> animal_points(e, {"mammoth": 2, "aurochs": 2, "deer": 2, "tiger": 1})
(11, '2 mammoths ×3 + 2 aurochs ×2 + 2 deer − 1 eaten by a tiger ×1 = 11')
>>> animal_points(e, {"tiger": 2})      # a hunting trap over tigers only: they are still taken
(0, '2 tigers and no deer = 0')
>>> majority({0: 1, 2: 1, 1: 0})
(0, 2)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, NamedTuple, Protocol

from huntgather.board import ZoneRef
from huntgather.events import FeatureScored, ScoreRow, player_name
from huntgather.kinds import Animal, Kind
from huntgather.phrases import Said, Say, later, say_of

if TYPE_CHECKING:
    from huntgather.board import Board
    from huntgather.features import Feature

_PLURAL = {"mammoth": "mammoths", "aurochs": "aurochs", "deer": "deer", "tiger": "tigers"}
SCORING_ANIMALS = (Animal.MAMMOTH, Animal.AUROCHS, Animal.DEER)
#: ``Kind.FOREST``, read once: a member read off its enum class is an attribute look-up through the
#: class's ``__getattr__`` hook at each use (Python 3.11), in CPython and in the compiled build alike
_FOREST: Final = Kind.FOREST


class Term(NamedTuple):
    """Points with the words that explain them, one part of a sum (``3 fish``)."""

    points: int
    text: str


@dataclass
class AnimalGroup:
    """Animals of a meadow that score ``factor`` times, on ``tiles``, named by ``label``."""

    label: str
    factor: int
    tiles: set[int] = field(default_factory=set)


@dataclass
class MeadowTally:
    """How the animals of one meadow are to be counted at final scoring.

    Specials change it (:meth:`huntgather.specials.Special.adjust_meadow`): ``groups``
    are areas whose animals score a multiple (the first group holding a tile takes
    its animals; tigers eat the deer of the plain meadow first, then of the groups
    in order), ``tigers_gone`` a reason why the tigers eat nothing
    (``"chased away by fire"``).
    """

    groups: list[AnimalGroup] = field(default_factory=list)
    tigers_gone: str | None = None

    def group(self, label: str, factor: int) -> AnimalGroup:
        """The group called ``label`` that scores ``factor`` times (made if new)."""
        for g in self.groups:
            if g.label == label and g.factor == factor:
                return g
        made = AnimalGroup(label, factor)
        self.groups.append(made)
        return made


class ScoringSpecial(Protocol):
    """What scoring asks of a special (:class:`huntgather.specials.Special` is one): its hooks.

    Declared here, below :mod:`huntgather.specials`, so that scoring need not import it."""

    @property
    def name(self) -> str: ...
    def adjust_meadow(self, tally: MeadowTally, board: Board, tiles: Sequence[int]) -> None: ...
    def meadow_holder(self, board: Board, zones: Sequence[ZoneRef]) -> tuple[int, str] | None: ...
    def adjust_system(self, terms: list[Term], fish: int, lakes: int) -> None: ...


class Rules(Protocol):
    """What scoring reads of an edition (:class:`huntgather.editions.Edition` is one): its numbers
    and the specials it honours.

    Declared here, below :mod:`huntgather.editions`, so that scoring need not import it."""

    @property
    def river_tile_points(self) -> int: ...
    @property
    def forest_tile_points(self) -> int: ...
    @property
    def mushroom_points(self) -> int: ...
    @property
    def animal_points(self) -> Mapping[str, int]: ...
    def special(self, name: str | None) -> ScoringSpecial | None: ...


def plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count} {word if count == 1 else (words or word + 's')}"


def sum_said(terms: Sequence[str], total: int) -> Said:
    """``'3 tiles ×1 + 2 fish = 5'``: terms (each a :class:`Said`, not changed afterwards) and
    their total."""
    return later(f"{' + '.join(terms)} = {total}", _sum_say, terms, total)


def _sum_say(terms: Sequence[str], total: int) -> Say:
    return Say("say.sum", terms=tuple([say_of(t) for t in terms]), total=total)


# The explanations' phrases (a Said's ``say``) are made by the functions named ``_..._say`` below
# only when something reads them (the server, a page's catalogue): a game that explains its
# scorings makes their English words only (``phrases.later``).


def majority(counts: Mapping[int, int]) -> tuple[int, ...]:
    """Seats holding the most pieces (at least one); ties all win."""
    if not counts:   # no pieces (most completed features): no call of max and no generator
        return ()
    if len(counts) == 1:   # one seat alone (the usual case)
        for p, c in counts.items():
            return (p,) if c > 0 else ()
    best = max(counts.values(), default=0)
    if best <= 0:
        return ()
    return tuple(sorted(p for p, c in counts.items() if c == best))


def count_holders(pieces: Iterable[tuple[int, object]]) -> dict[int, int]:
    """How many pieces each seat has among ``(seat, where)`` pairs (a feature's meeples or huts).

    >>> count_holders([(0, 31), (2, 40), (0, 55)])
    {0: 2, 2: 1}
    """
    counts: dict[int, int] = {}
    for p, _ in pieces:
        counts[p] = counts.get(p, 0) + 1
    return counts


def award(points: int, winners: tuple[int, ...], players: int) -> tuple[int, ...]:
    """A per-seat tuple giving ``points`` to each winner.

    >>> award(6, (), 3), award(6, (2,), 3), award(6, (0, 2), 3)
    ((0, 0, 0), (0, 0, 6), (6, 0, 6))
    """
    if not winners:   # no one (most completed features)
        return (0,) * players
    out = [0] * players   # (no set and no generator: a generator is a class of its own compiled)
    for w in winners:
        out[w] = points
    return tuple(out)


def who_scores(winners: tuple[int, ...], counts: Mapping[int, int], role: str) -> Said:
    """``'→ red (2 hunters) vs blue (1)'``, or ``'→ no one'`` when unoccupied."""
    if not winners:
        return NO_ONE
    lead = " and ".join([f"{player_name(p)} ({plural(counts[p], role)})" for p in winners])
    others = [p for p in sorted(counts) if p not in winners and counts[p] > 0]
    tail = "".join([f" vs {player_name(p)} ({counts[p]})" for p in others])
    # (``counts``, the caller's own, is not changed afterwards)
    return later(f"→ {lead}{tail}", _who_say, winners, counts, role, others)


NO_ONE = Said("→ no one scores", Say("say.no_one_scores"))


def _who_say(winners: tuple[int, ...], counts: Mapping[int, int], role: str, others: list[int]) -> Say:
    return Say("say.who_scores",
               lead=tuple([Say("say.holder", seat=Say.seat(p), pieces=Say(f"say.pieces.{role}", n=counts[p]))
                           for p in winners]),
               others=tuple([Say("say.versus", seat=Say.seat(p), n=counts[p]) for p in others]))


def river_points(edition: Rules, tiles: int, river_fish: int, lake_fish: int,
                 lakes: int, *, explain: bool = True) -> tuple[int, str]:
    """A completed river: per tile, plus the fish in it and in the lakes at its ends
    (``explain=False``: the points only, with an empty text, for the bots' estimates)."""
    per = edition.river_tile_points
    points = tiles * per + river_fish + lake_fish
    if not explain:
        return points, ""
    text = f"{plural(tiles, 'tile')} ×{per}"
    if river_fish:
        text += f" + {river_fish} fish in the river"
    if lakes:
        text += f" + {lake_fish} fish in {plural(lakes, 'lake')}"
    return points, later(f"{text} = {points}", _river_say, tiles, per, river_fish, lake_fish, lakes, points)


def _river_say(tiles: int, per: int, river_fish: int, lake_fish: int, lakes: int, points: int) -> Say:
    terms = [Say("say.tiles_times", n=tiles, per=per)]
    if river_fish:
        terms.append(Say("say.river_fish", fish=river_fish))
    if lakes:
        terms.append(Say("say.lake_fish", fish=lake_fish, n=lakes))
    return Say("say.sum", terms=tuple(terms), total=points)


def forest_points(edition: Rules, tiles: int, mushrooms: int, *,
                  explain: bool = True) -> tuple[int, str]:
    """A completed forest: per tile, plus per mushroom group."""
    per, mush = edition.forest_tile_points, edition.mushroom_points
    points = tiles * per + mushrooms * mush
    if not explain:
        return points, ""
    text = f"{plural(tiles, 'tile')} ×{per}"
    if mushrooms:
        text += f" + {plural(mushrooms, 'mushroom group')} ×{mush}"
    return points, later(f"{text} = {points}", _forest_say, tiles, per, mushrooms, mush, points)


def _forest_say(tiles: int, per: int, mushrooms: int, mush: int, points: int) -> Say:
    terms = [Say("say.tiles_times", n=tiles, per=per)]
    if mushrooms:
        terms.append(Say("say.mushrooms_times", n=mushrooms, per=mush))
    return Say("say.sum", terms=tuple(terms), total=points)


def animal_points(edition: Rules, outside: Mapping[str, int],
                  inside: Mapping[str, int] | None = None, *, ignore_tigers: bool = False,
                  factor: int = 1, explain: bool = True) -> tuple[int, str]:
    """Animals of a meadow (or of a hunting trap's area).

    ``inside`` holds the animals of a pit trap's area, worth ``factor`` times;
    tigers (counted in both) cancel deer outside that area first.  With
    ``ignore_tigers`` (wild fire) no deer is cancelled.
    """
    groups = [("", outside, 1), (PIT_TRAP_AREA, inside or {}, factor)]
    return tally_animals(edition, groups, FIRE if ignore_tigers else None, explain=explain)


#: the words of the pit trap's group of animals, and of tigers a wild fire chases away
PIT_TRAP_AREA = Said(" in the pit trap's area", Say("say.area.pit_trap"))
FIRE = Said("chased away by fire", Say("say.why.fire"))


def tally_animals(edition: Rules, groups: Sequence[tuple[str, Mapping[str, int], int]],
                  tigers_gone: str | None = None, *, explain: bool = True) -> tuple[int, str]:
    """Animals in ``groups`` of ``(label, counts, factor)``: each animal scores the edition's value
    times its group's factor; every tiger (of any group) cancels a deer, in the first groups first,
    unless ``tigers_gone`` says why they do not.

    >>> from huntgather.editions import get_edition
    >>> tally_animals(get_edition("2020"), [("", {"deer": 1, "tiger": 2}, 1), (" here", {"deer": 3}, 2)])
    (4, '1 deer − 1 eaten by a tiger ×1 + 3 deer − 1 eaten by a tiger here ×2 = 4')
    """
    all_tigers = 0
    for _, counts, _ in groups:   # (a loop, not sum() over a generator: quicker for one group)
        all_tigers += counts.get("tiger", 0)
    tigers = 0 if tigers_gone else all_tigers
    values = edition.animal_points
    points = 0
    parts: list[str] = []
    #: what each part's phrase is made of: (animal, n, cancelled, area, value)
    terms: list[tuple[str, int, int, str, int]] = []
    for area, counts, mult in groups:
        deer = counts.get("deer", 0)
        eaten = min(tigers, deer)
        tigers -= eaten
        for animal in SCORING_ANIMALS:
            n = counts.get(animal, 0)
            if not n:
                continue
            cancel = eaten if animal == "deer" else 0
            value = values[animal] * mult
            points += (n - cancel) * value
            if not explain:
                continue
            name = _PLURAL[animal] if n != 1 else animal
            text = f"{n} {name}"
            if cancel:
                text += f" − {cancel} eaten by {'a tiger' if cancel == 1 else 'tigers'}"
            parts.append(f"{text}{area} ×{value}")
            terms.append((animal, n, cancel, area, value))
    if not explain:
        return points, ""
    if tigers_gone and all_tigers:
        parts.append(f"{plural(all_tigers, 'tiger')} {tigers_gone}")
    if not parts:
        if all_tigers:   # tigers are worth nothing, but they are there
            return 0, later(f"{plural(all_tigers, 'tiger', 'tigers')} and no deer = 0", _no_deer_say,
                            all_tigers)
        return 0, NO_ANIMALS
    return points, later(f"{' + '.join(parts)} = {points}", _animals_say, terms,
                         all_tigers if tigers_gone else 0, tigers_gone, points)


NO_ANIMALS = Said("no animals = 0", Say("say.no_animals"))


def _no_deer_say(tigers: int) -> Say:
    return Say("say.tigers_no_deer", n=tigers)


def _animals_say(terms: list[tuple[str, int, int, str, int]], tigers: int, tigers_gone: str | None,
                 points: int) -> Say:
    """The phrase of :func:`tally_animals`' sum (``tigers``: those gone, said after the animals)."""
    says = []
    for animal, n, cancel, area, value in terms:
        where: str | Say = say_of(area) if area else ""
        animals = Say(f"say.animals.{animal}", n=n)
        if cancel:
            says.append(Say("say.animals_eaten_times", animals=animals, n=cancel, area=where, per=value))
        else:
            says.append(Say("say.animals_times", animals=animals, area=where, per=value))
    if tigers and tigers_gone:
        says.append(Say("say.tigers_gone", n=tigers, why=say_of(tigers_gone)))
    return Say("say.sum", terms=tuple(says), total=points)


# --------------------------------------------------------------------------- whole features


def completed_points(board: Board, edition: Rules, feature: Feature, *,
                     explain: bool = True) -> tuple[int, str]:
    """What a forest or river is worth when complete (its value now, for an open one)."""
    tiles = len(feature.tiles)
    if feature.kind == _FOREST:
        return forest_points(edition, tiles, feature.mushrooms, explain=explain)
    return river_points(edition, tiles, feature.fish, board.lake_fish(feature), len(feature.lakes),
                        explain=explain)


def score_completed(board: Board, edition: Rules, fid: int, players: int, *,
                    explain: bool = True) -> FeatureScored:
    """The scoring of the completed forest or river ``fid``: its points to its meeples' majority
    (``explain=False``: the same points, with an empty explanation and no tiles listed, for a
    search that reads only the points).

    >>> from huntgather.record import load_position
    >>> s = load_position("huntgather record 1\\nplayers 2\\ntile 56 0,0 r0\\ntile 34 1,0 r0\\n"
    ...                   "tile 37 0,1 r0\\noccupant 34.3 meeple 1\\nmoves")
    >>> score_completed(s.board, s.edition, s.board.feature_id(34, 3), 2).explanation
    'Forest of 3 tiles: 3 tiles ×2 = 6 → red (1 gatherer)'
    """
    f = board.feature_by_id(fid)
    points, text = completed_points(board, edition, f, explain=explain)
    counts = count_holders(f.meeples)
    winners = majority(counts)
    if not explain:
        return FeatureScored(f.kind, award(points, winners, players), "", ())
    title, role = ("Forest", "gatherer") if f.kind == _FOREST else ("River", "fisher")
    who = who_scores(winners, counts, role)
    n = len(f.tiles)
    return FeatureScored(f.kind, award(points, winners, players),
                         later(f"{title} of {plural(n, 'tile')}: {text} {who}", _scored_say,
                               f"say.scored.{f.kind}", n, text, who, None),
                         tuple(sorted(f.tiles)))


def _scored_say(key: str, n: int, text: str, who: Said, why: str | None) -> Say:
    """The phrase of a feature's scoring: ``key``, its tiles, its sum, who scores (and why)."""
    if why is None:
        return Say(key, n=n, sum=say_of(text), who=who.say)
    return Say(key, n=n, sum=say_of(text), who=who.say, why=say_of(why))


def _honoured(edition: Rules, names: frozenset[str]) -> list[ScoringSpecial]:
    """The specials among ``names`` that ``edition`` honours, by name."""
    if not names:
        return []
    found = [edition.special(name) for name in sorted(names)]
    return [special for special in found if special is not None]


def system_points(board: Board, edition: Rules, fid: int, *, explain: bool = True) -> tuple[int, str]:
    """A river system at final scoring: its fish, as its specials change them (the raft adds a
    point per lake)."""
    f = board.feature_by_id(fid)
    if not f.specials:   # most systems: their fish
        return f.fish, later(f"{f.fish} fish = {f.fish}", _fish_sum_say, f.fish) if explain else ""
    terms = [Term(f.fish, later(f"{f.fish} fish", _fish_say, f.fish) if explain else "")]
    for special in _honoured(edition, f.specials):
        special.adjust_system(terms, f.fish, len(f.lakes))
    points = sum(t.points for t in terms)
    if not explain:
        return points, ""
    return points, sum_said([t.text for t in terms], points)


def _fish_say(fish: int) -> Say:
    return Say("say.fish", n=fish)


def _fish_sum_say(fish: int) -> Say:
    return Say("say.sum", terms=(Say("say.fish", n=fish),), total=fish)


def score_system(board: Board, edition: Rules, fid: int, players: int, *,
                 explain: bool = True) -> ScoreRow:
    """The final-scoring row of river system ``fid``: its points to its huts' majority
    (``explain=False``: the same points, with an empty text and no tiles listed)."""
    f = board.feature_by_id(fid)
    points, text = system_points(board, edition, fid, explain=explain)
    counts = count_holders(f.huts)
    winners = majority(counts)
    if not explain:
        return ScoreRow("huts", award(points, winners, players), "", ())
    who = who_scores(winners, counts, "hut")
    n = len(f.tiles)
    return ScoreRow("huts", award(points, winners, players),
                    later(f"River system of {plural(n, 'tile')}: {text} {who}", _scored_say,
                          "say.scored.huts", n, text, who, None),
                    tuple(sorted(f.tiles)))


def meadow_points(board: Board, edition: Rules, fid: int, removed: Collection[tuple[int, int]] = (), *,
                  explain: bool = True) -> tuple[int, str]:
    """The animals of meadow ``fid`` as final scoring counts them: its specials (pit trap, wild
    fire ...) and the animals a hunting trap took (``removed`` zones) included.  The one place
    that says so: the engine's final scoring and the bots' estimates both call it."""
    f = board.feature_by_id(fid)
    zones = board.marked_zones(fid)
    specials = _honoured(edition, f.specials)
    if not specials:   # most meadows: every animal counts once, tigers eat deer
        plain: dict[str, int] = {}
        for tile_id, z in zones:
            # (no pair made and hashed when nothing was removed: most games have no hunting trap)
            if z.animals and (not removed or (tile_id, z.id) not in removed):
                for animal in z.animals:
                    plain[animal] = plain.get(animal, 0) + 1
        return tally_animals(edition, (("", plain, 1),), explain=explain)
    tally = MeadowTally()
    for special in specials:
        special.adjust_meadow(tally, board, [t for t, z in zones if z.special == special.name])
    plain = {}
    grouped: list[dict[str, int]] = [{} for _ in tally.groups]
    for tile_id, z in zones:
        if not z.animals or (tile_id, z.id) in removed:
            continue
        bucket = plain
        for g, counts in zip(tally.groups, grouped, strict=True):
            if tile_id in g.tiles:
                bucket = counts
                break
        for animal in z.animals:
            bucket[animal] = bucket.get(animal, 0) + 1
    groups = [("", plain, 1), *((g.label, c, g.factor) for g, c in zip(tally.groups, grouped, strict=True))]
    return tally_animals(edition, groups, tally.tigers_gone, explain=explain)


def meadow_winners(board: Board, edition: Rules,
                   fid: int) -> tuple[tuple[int, ...], dict[int, int], str | None]:
    """Who scores meadow ``fid``: ``(winners, hunters per seat, why or None)``.

    The hunters' majority, unless a special of the meadow gives it to one seat (the 2002
    shrine: a hunter on it takes the meadow alone), saying why.
    """
    f = board.feature_by_id(fid)
    counts = count_holders(f.meeples)
    for special in _honoured(edition, f.specials) if f.specials else ():
        zones = [ZoneRef(t, z.id) for t, z in board.marked_zones(fid) if z.special == special.name]
        held = special.meadow_holder(board, zones)
        if held is not None:
            return (held[0],), counts, held[1]
    return majority(counts), counts, None


def score_meadow(board: Board, edition: Rules, fid: int, removed: Collection[tuple[int, int]],
                 players: int, *, explain: bool = True) -> ScoreRow:
    """The final-scoring row of meadow ``fid``: its animals to its hunters' majority
    (``explain=False``: the same points, with an empty text and no tiles listed)."""
    f = board.feature_by_id(fid)
    points, text = meadow_points(board, edition, fid, removed, explain=explain)
    winners, counts, why = meadow_winners(board, edition, fid)
    if not explain:
        return ScoreRow("hunters", award(points, winners, players), "", ())
    note = "" if why is None else f" ({why})"
    who = who_scores(winners, counts, "hunter")
    n = len(f.tiles)
    return ScoreRow("hunters", award(points, winners, players),
                    later(f"Meadow of {plural(n, 'tile')}: {text} {who}{note}", _scored_say,
                          "say.scored.hunters" if why is None else "say.scored.hunters_why",
                          n, text, who, why),
                    tuple(sorted(f.tiles)))
