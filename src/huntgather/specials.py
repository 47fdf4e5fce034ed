"""Special tiles as objects: what each printed special does, in one class each.

Some tiles show a *special* on one of their meadows or lakes (``special=shaman``
in the tile data).  An edition lists the specials it honours, as instances of
the classes below (with their numbers, e.g. ``Logboat(points_per_lake=2)``); a
special printed on a tile that the edition does not list is decoration.

A special does its work through hooks, each optional (the base class does
nothing):

==================  ===========================================================
``on_placed``       the tile was just placed: act at once (logboat, hunting trap)
``question``        then ask its placer a question (shaman: take back a meeple?):
                    ``options`` lists the answers, ``refuse`` says why one is not
                    legal, ``answer`` applies it (``Pass()`` always declines)
``adjust_meadow``   final scoring of a meadow with it: count animals otherwise
                    (pit trap: its area counts double; wild fire: no tigers)
``meadow_holder``   a seat that takes its meadow alone (shrine)
``adjust_system``   final scoring of a river system with it, as explained terms
                    (raft: one more point per lake)
==================  ===========================================================

A special that must remember something through the game keeps it in
``state.special_memory[name]`` (an immutable value: a frozenset, a tuple, a
number), which positions write and read by its hooks ``write_memory`` and
``read_memory`` (the line ``memory NAME ...``, or its own ``memory_line``);
``animals_gone`` says which meadow zones' animals its memory took out of the
game (hunting trap).

It says how it looks and reads: ``words`` (among a zone's facts), ``rule``
(a sentence: what it does; tooltips and the rules screen) and ``symbol`` (an
SVG picture drawn in a 16 × 16 box around (0, 0); none gives a plain badge).

Adding a special tile, a new one or a house rule, is one class here or in your
own module, registered with :func:`register_special`, plus an edition that
lists it and tile data that prints it (see ``docs/editions.md``).  The engine,
records, bots, renderer and explanations need no change:

>>> from dataclasses import dataclass
>>> @register_special
... @dataclass(frozen=True)
... class Flood(Special):
...     '''At the end, the fish of this river system count twice.'''
...     name = "flood"
...     zone_kinds = ("lake",)
...     words = "a flood"
...     def rule(self) -> str:
...         return "Flood: at the end, the fish of this river system count twice"
...     def adjust_system(self, terms: list[Term], fish: int, lakes: int) -> None:
...         terms[0] = Term(2 * fish, f"{fish} fish ×2 (flood)")
>>> special_named("flood").words
'a flood'
>>> unregister_special("flood")
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

from huntgather import registry
from huntgather.board import ZoneRef
from huntgather.events import Event, FeatureScored, MeepleTakenBack, player_name
from huntgather.kinds import Kind, Piece
from huntgather.moves import Choose, Move, TakeBack
from huntgather.phrases import Said, Say, say_of
from huntgather.scoring import FIRE, PIT_TRAP_AREA, MeadowTally, Rules, Term, animal_points, award, plural

if TYPE_CHECKING:
    from huntgather.board import Board


class Table(Protocol):
    """What a special sees of the game when it acts (:class:`huntgather.state.State` is one).

    Declared here, below :mod:`huntgather.state`, so that the specials need not import it.
    """

    @property
    def board(self) -> Board: ...
    @property
    def edition(self) -> Rules: ...
    @property
    def player(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def meeples(self) -> list[int]: ...
    @property
    def special_memory(self) -> dict[str, object]: ...


@dataclass(frozen=True)
class Special:
    """A special printed on some tiles; subclass it and override the hooks it needs."""

    #: the marker in the tile data (``special=NAME``); one word
    name: ClassVar[str] = ""
    #: kinds of zone it may be printed on
    zone_kinds: ClassVar[tuple[str, ...]] = (Kind.MEADOW,)
    #: how it reads among a zone's facts (``"a raft"``)
    words: ClassVar[str] = ""
    #: SVG drawn in a 16 × 16 box centred on (0, 0); empty: a grey badge with "?"
    symbol: ClassVar[str] = ""
    #: the question its placer is asked once the tile is placed and every special on it has
    #: acted, after the player's name (``"may take back one of their meeples (shaman)"``); empty:
    #: none.  It is asked only when :meth:`options` offers something; ``Pass()`` declines it.
    question: ClassVar[str] = ""
    #: the question as the page puts it to the player (``"Shaman: you may take back one of your
    #: meeples."``); empty: the :attr:`question` after "you"
    prompt: ClassVar[str] = ""
    #: the words for declining its question (``Pass()``)
    decline: ClassVar[str] = "pass"
    #: the key of the position line that holds its memory; empty: ``memory NAME``
    memory_line: ClassVar[str] = ""

    def rule(self) -> str:
        """What it does, in one sentence without a full stop (a tooltip)."""
        return f"{self.name.replace('_', ' ').capitalize()}: a special tile"

    def on_placed(self, state: Table, where: ZoneRef, x: int, y: int) -> list[Event]:
        """The tile showing it was just placed at ``(x, y)`` by ``state.player``; act at once."""
        return []

    @property
    def title(self) -> str:
        """Its name in words (``"hunting trap"``)."""
        return self.name.replace("_", " ")

    def option_words(self, option: str) -> str:
        """An option word of its question in words (the default: the word, spaced)."""
        return option.replace("_", " ")

    def options(self, state: Table) -> list[Move]:
        """The answers to its :attr:`question` now (``Pass()`` aside, always allowed): a
        :class:`~huntgather.moves.Choose` per option word, or other moves (the shaman's
        :class:`~huntgather.moves.TakeBack`)."""
        return []

    def refuse(self, state: Table, move: TakeBack | Choose) -> str | None:
        """Why ``move`` does not answer its question now, or None if it does."""
        if move in self.options(state):
            return None
        offered = ", ".join(str(m) for m in self.options(state))
        return f"{move} does not answer the {self.title}'s question (answers: {offered} or -)"

    def answer(self, state: Table, move: TakeBack | Choose) -> list[Event]:
        """Apply ``move``, one of :meth:`options`, for ``state.player``; say what happened."""
        raise NotImplementedError(f"the special {self.name!r} asks a question but applies no answer")

    def write_memory(self, memory: object) -> str:
        """Its memory (``state.special_memory[name]``) as the words of a position line.  A memory
        that holds nothing must not be kept at all (delete the entry): a position read back,
        which then has no line for it, must equal the state written."""
        raise NotImplementedError(f"the special {self.name!r} cannot write its memory")

    def read_memory(self, words: Sequence[str], board: Board) -> object:
        """Its memory from the words :meth:`write_memory` wrote (raise ValueError saying why not)."""
        raise ValueError(f"the special {self.name!r} keeps no memory")

    def animals_gone(self, memory: object) -> frozenset[ZoneRef]:
        """The meadow zones whose animals its ``memory`` took out of the game (they never score)."""
        return frozenset()

    def adjust_meadow(self, tally: MeadowTally, board: Board, tiles: Sequence[int]) -> None:
        """Final scoring of a meadow that shows it on ``tiles``: change how animals count."""

    def meadow_holder(self, board: Board, zones: Sequence[ZoneRef]) -> tuple[int, str] | None:
        """Final scoring of a meadow that shows it on ``zones``: ``(seat, why)`` if one seat takes
        the meadow alone, else None."""
        return None

    def adjust_system(self, terms: list[Term], fish: int, lakes: int) -> None:
        """Final scoring of a river system with huts that shows it: change the ``terms``
        (``terms[0]`` is the fish) of a system with ``fish`` fish and ``lakes`` lakes."""


_NAME = re.compile(r"[a-z][a-z0-9_]*")
#: words that records and the protocol use for the game's own decisions (a special's question is
#: named by the special's name)
_RESERVED = frozenset({"draw", "place", "occupy", "over", "special"})


def register_special(cls: type[Special]) -> type[Special]:
    """Make a special known by its name (a class decorator); its default instance is kept.

    Tile data may print only registered specials.  Registering a second class
    under a name already taken raises :class:`ValueError`.
    """
    if not _NAME.fullmatch(cls.name):
        raise ValueError(f"a special's name must be one lower-case word, not {cls.name!r}")
    if cls.name in _RESERVED:
        raise ValueError(f"{cls.name!r} names a decision of the game: a special cannot be called so")
    known = registry.printable(cls.name)
    if known is not None and type(known) is not cls:
        raise ValueError(f"another special is already registered as {cls.name!r}")
    registry.keep(cls())
    return cls


def unregister_special(name: str) -> None:
    """Forget the special called ``name`` (for tests and experiments)."""
    if not registry.forget(name):
        raise ValueError(f"no special is registered as {name!r}")


def special_named(name: str) -> Special | None:
    """The default instance of the special called ``name``, or None if unknown."""
    found = registry.printable(name)
    return found if isinstance(found, Special) else None


def known_specials() -> tuple[Special, ...]:
    """Every registered special (its default instance), by name."""
    found = (special_named(n) for n in registry.printable_names())
    return tuple(s for s in found if s is not None)


# --------------------------------------------------------------------------- the 2020 edition's


def _disc(fill: str, stroke: str = "#000", width: str = "0.5") -> str:
    return f'<circle r="7.4" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'


@register_special
@dataclass(frozen=True)
class Shaman(Special):
    """Whoever places the tile may take back one of their meeples, without scoring it."""

    name = "shaman"
    words = "a shaman (take one of your meeples back)"
    question = "may take back one of their meeples (shaman)"
    prompt = "Shaman: you may take back one of your meeples."
    decline = "take nothing back"
    symbol = (_disc("#6a1b9a") + '<circle cx="0" cy="-3.6" r="1.5" fill="#fff"/>'
              '<path d="M-2.6 4.8 L-1.6 -1.6 L1.6 -1.6 L2.6 4.8 Z" fill="#fff"/>'
              '<path d="M3.6 -4.6 L3.6 5" stroke="#ffd54f" stroke-width="0.8"/>'
              '<path d="M-1.2 -5 L-2.6 -6.8 M0 -5.2 L0 -7 M1.2 -5 L2.6 -6.8" stroke="#ffd54f" '
              'stroke-width="0.6"/>')

    def rule(self) -> str:
        return ("Shaman: whoever places this tile may take one of their meeples back from the board, "
                "without scoring it")

    def options(self, state: Table) -> list[Move]:
        p = state.player
        return [TakeBack(where.tile, where.zone) for where, owner, piece in state.board.pieces()
                if owner == p and piece == Piece.MEEPLE]

    def refuse(self, state: Table, move: TakeBack | Choose) -> str | None:
        if not isinstance(move, TakeBack):
            return f"{move} does not answer the shaman: take back a meeple (xT.Z) or pass (-)"
        occupant = state.board.occupant(move.tile, move.zone)
        if occupant is None:
            return f"there is no piece on zone {move.zone} of tile {move.tile}"
        owner, piece = occupant
        if piece != Piece.MEEPLE:
            return "the shaman cannot take back a hut"
        if owner != state.player:
            return (f"the meeple on {move.tile}.{move.zone} belongs to {player_name(owner)}, "
                    f"not to {player_name(state.player)}")
        return None

    def answer(self, state: Table, move: TakeBack | Choose) -> list[Event]:
        assert isinstance(move, TakeBack)
        owner = state.board.remove_meeple(move.tile, move.zone)
        state.meeples[owner] += 1
        return [MeepleTakenBack(owner, move.tile, move.zone)]


@register_special
@dataclass(frozen=True)
class HuntingTrap(Special):
    """Whoever places the tile scores at once the animals of its meadow in the 3 × 3 area
    around it; those animals then leave the game."""

    name = "hunting_trap"
    words = "a hunting trap"
    #: its memory (the meadow zones whose animals it took) is the line of record format 1
    memory_line = "removed-animals"
    symbol = (_disc("#795548") + '<path d="M-5 2.5 L5 2.5 M-4 2.5 L-3 -3 L-2 2.5 M-1 2.5 L0 -3 L1 2.5 '
              'M2 2.5 L3 -3 L4 2.5" fill="none" stroke="#fff" stroke-width="0.8" '
              'stroke-linejoin="round"/>')

    def rule(self) -> str:
        return ("Hunting trap: whoever places this tile scores at once the animals of this meadow on "
                "this tile and the 8 around it (a tiger cancels a deer); those animals then leave "
                "the game")

    def on_placed(self, state: Table, where: ZoneRef, x: int, y: int) -> list[Event]:
        board = state.board
        meadow = board.feature_id(where.tile, where.zone)
        removed = self.animals_gone(state.special_memory.get(self.name))
        taken: list[tuple[int, int]] = []
        counts: dict[str, int] = {}
        for tile_id in board.area(x, y):
            for z in board.tiles[tile_id].zones.values():
                if (z.kind != Kind.MEADOW or (tile_id, z.id) in removed
                        or board.feature_id(tile_id, z.id) != meadow):
                    continue
                if z.animals:
                    taken.append((tile_id, z.id))
                for animal in z.animals:
                    counts[animal] = counts.get(animal, 0) + 1
        points, text = animal_points(state.edition, counts)
        p = state.player
        state.scores[p] += points
        if taken:   # (an empty memory is no memory: a position read back has none)
            state.special_memory[self.name] = removed | frozenset(ZoneRef(t, z) for t, z in taken)
        said = Said(f"Hunting trap: {text} → {player_name(p)}; these animals are removed",
                    Say("say.scored.hunting_trap", sum=say_of(text), seat=Say.seat(p)))
        return [FeatureScored(self.name, award(points, (p,), state.players), said,
                              tuple(sorted({t for t, _ in taken})))]

    def animals_gone(self, memory: object) -> frozenset[ZoneRef]:
        return memory if isinstance(memory, frozenset) else frozenset()

    def write_memory(self, memory: object) -> str:
        return " ".join(map(str, sorted(self.animals_gone(memory))))

    def read_memory(self, words: Sequence[str], board: Board) -> object:
        zones = []
        for word in words:
            t, z = ZoneRef.parse(word)
            if t not in board.where:
                raise ValueError(f"tile {t} is not on the board (place it with a 'tile' line before "
                                 f"this one)")
            found = board.tiles[t].zones.get(z)
            if found is None or found.kind != Kind.MEADOW:
                raise ValueError(f"{t}.{z} is not a meadow zone")
            zones.append(ZoneRef(t, z))
        return frozenset(zones)


@register_special
@dataclass(frozen=True)
class PitTrap(Special):
    """At the end, the animals of its meadow in the 3 × 3 area around it count ``factor`` times."""

    name = "pit_trap"
    factor: int = 2
    symbol = (_disc("#263238") + '<path d="M-5.5 -1 L-3.5 4 L3.5 4 L5.5 -1" fill="#000" '
              'stroke="#ffeb3b" stroke-width="0.7"/><path d="M-2 4 L-1.4 0.4 M0 4 L0 0 M2 4 L1.4 0.4" '
              'stroke="#ffeb3b" stroke-width="0.6"/><path d="M-6 -1 L6 -1" stroke="#ffeb3b" '
              'stroke-width="0.7" stroke-dasharray="1.2 0.8"/>')
    words = "a pit trap"

    def rule(self) -> str:
        times = "double" if self.factor == 2 else f"{self.factor} times"
        return (f"Pit trap: at the end, the animals of this meadow on this tile and the 8 around it "
                f"score {times}")

    def adjust_meadow(self, tally: MeadowTally, board: Board, tiles: Sequence[int]) -> None:
        group = tally.group(PIT_TRAP_AREA, self.factor)
        for tile_id in tiles:
            group.tiles.update(board.area(*board.where[tile_id]))


@register_special
@dataclass(frozen=True)
class WildFire(Special):
    """At the end, the tigers of its meadow are ignored (they eat no deer)."""

    name = "wild_fire"
    words = "a wild fire"
    symbol = ('<circle r="7.4" fill="#fff3e0" stroke="#bf360c" stroke-width="0.6"/>'
              '<path d="M0 -5.6 C2.6 -2.6 4 -0.6 3.4 2 C3 4.2 1.4 5.2 0 5.2 C-1.4 5.2 -3 4.2 -3.4 2 '
              'C-3.8 -0.4 -2 -1.6 -1.6 -3.4 C-0.8 -2 -0.4 -1.2 0 -0.6 C0.6 -2 0.8 -3.8 0 -5.6 Z" '
              'fill="#e53935"/><path d="M0 0.6 C1.4 1.6 1.8 2.8 1.2 3.8 C0.6 4.6 -0.6 4.6 -1.2 3.8 '
              'C-1.6 3 -1.2 2 0 0.6 Z" fill="#ffca28"/>')

    def rule(self) -> str:
        return "Wild fire: at the end, the tigers of this meadow are ignored"

    def adjust_meadow(self, tally: MeadowTally, board: Board, tiles: Sequence[int]) -> None:
        tally.tigers_gone = FIRE


@register_special
@dataclass(frozen=True)
class Logboat(Special):
    """Whoever places the tile scores at once ``points_per_lake`` for each lake of its river system."""

    name = "logboat"
    zone_kinds = (Kind.LAKE,)
    points_per_lake: int = 2
    words = "a logboat"
    symbol = ('<circle r="7.4" fill="#d7ecfb" stroke="#1f5f9a" stroke-width="0.6"/>'
              '<path d="M-6 -0.6 L6 -0.6 Q4.8 3.2 0 3.2 Q-4.8 3.2 -6 -0.6 Z" fill="#8d6e63" '
              'stroke="#3e2723" stroke-width="0.5"/><path d="M-1 -4.8 L2.8 1.6" stroke="#3e2723" '
              'stroke-width="0.7"/><path d="M2.2 0.6 L3.6 2.8" stroke="#3e2723" stroke-width="1.4"/>')

    def rule(self) -> str:
        return (f"Logboat: whoever places this tile scores {plural(self.points_per_lake, 'point')} at "
                f"once for each lake of this river system")

    def on_placed(self, state: Table, where: ZoneRef, x: int, y: int) -> list[Event]:
        system = state.board.system_at(where.tile, where.zone)
        per = self.points_per_lake
        lakes = len(system.lakes)
        points = lakes * per
        p = state.player
        state.scores[p] += points
        text = Said(f"Logboat: {plural(lakes, 'lake')} in the river system ×{per} = {points} "
                    f"→ {player_name(p)}",
                    Say("say.scored.logboat", n=lakes, per=per, total=points, seat=Say.seat(p)))
        return [FeatureScored(self.name, award(points, (p,), state.players), text,
                              tuple(sorted(system.tiles)))]


@register_special
@dataclass(frozen=True)
class Raft(Special):
    """At the end, the huts' majority on its river system scores one more point per lake."""

    name = "raft"
    zone_kinds = (Kind.LAKE,)
    words = "a raft"
    symbol = ('<circle r="7.4" fill="#d7ecfb" stroke="#1f5f9a" stroke-width="0.6"/>'
              + "".join(f'<rect x="-5" y="{y}" width="10" height="1.8" rx="0.9" fill="#a1887f" '
                        f'stroke="#4e342e" stroke-width="0.4"/>' for y in ("-3.2", "-1.0", "1.2"))
              + '<path d="M-3 -3.6 L-3 3.4 M3 -3.6 L3 3.4" stroke="#4e342e" stroke-width="0.5"/>')

    def rule(self) -> str:
        return "Raft: at the end, the huts' majority on this river system scores 1 more point per lake"

    def adjust_system(self, terms: list[Term], fish: int, lakes: int) -> None:
        terms.append(Term(lakes, Said(f"{plural(lakes, 'lake')} (raft)", Say("say.raft_lakes", n=lakes))))


# --------------------------------------------------------------------------- the 2002 edition's


@register_special
@dataclass(frozen=True)
class Shrine(Special):
    """At the end, a hunter standing on the shrine's meadow zone takes the meadow alone."""

    name = "shrine"
    words = "a shrine"
    symbol = ('<circle r="7.4" fill="#eceff1" stroke="#37474f" stroke-width="0.6"/>'
              '<path d="M-4.6 -1.6 L0 -5.4 L4.6 -1.6 Z M-3.6 -1.2 L-3.6 4.2 M-1.2 -1.2 L-1.2 4.2 '
              'M1.2 -1.2 L1.2 4.2 M3.6 -1.2 L3.6 4.2 M-4.8 4.6 L4.8 4.6" fill="#90a4ae" '
              'stroke="#37474f" stroke-width="0.8"/>')

    def rule(self) -> str:
        return "Shrine: at the end, a hunter on this meadow takes it alone"

    def meadow_holder(self, board: Board, zones: Sequence[ZoneRef]) -> tuple[int, str] | None:
        for where in sorted(zones):
            occupant = board.occupant(where.tile, where.zone)
            if occupant is not None:
                seat = occupant[0]
                return seat, Said(f"shrine: {player_name(seat)}'s hunter takes the meadow alone",
                                  Say("say.why.shrine", seat=Say.seat(seat)))
        return None


#: the specials of the shipped editions, in a fixed order (for layouts that number them, such as
#: the learning environment's observation planes)
SHIPPED_SPECIALS: tuple[type[Special], ...] = (Shaman, HuntingTrap, PitTrap, WildFire, Shrine, Logboat, Raft)


def acts_when_placed(special: Special) -> bool:
    """Whether ``special`` does something the moment its tile is placed (its own ``on_placed``).

    >>> acts_when_placed(Logboat()), acts_when_placed(Raft())
    (True, False)
    """
    return type(special).on_placed is not Special.on_placed
