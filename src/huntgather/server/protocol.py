"""The wire format (see ``docs/protocol.md``): bounded JSON, structured moves, views.

Everything a client sends is read through :func:`~huntgather.server.codec.read_json` (size,
depth and number limits), checked against its declaration (:mod:`huntgather.server.messages`),
and every move read through :func:`move_from_json`; everything the
server sends about a game is built here from the engine's state and events, so
that all pages of a game receive the same public facts.

>>> from huntgather import Game
>>> g = Game(2, seed=3)
>>> move = move_from_json(g.state, {"kind": "place", "x": 1, "y": 0, "rotation": 0})
>>> type(move).__name__, move.tile == g.decision.tile
('Place', True)
>>> move_to_json(g.state, move)
{'kind': 'place', 'x': 1, 'y': 0, 'rotation': 0}
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from huntgather.board import ZoneRef
from huntgather.events import (
    BonusTurn,
    Event,
    FeatureScored,
    FinalScoring,
    GameOver,
    MeepleTakenBack,
    OccupantPlaced,
    OccupantsReturned,
    ScoreRow,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
)
from huntgather.features import Feature
from huntgather.game import Game
from huntgather.kinds import role_of
from huntgather.moves import Choose, Move, Occupy, Pass, Place, TakeBack
from huntgather.outlook import stuck_meeples
from huntgather.phrases import Said, Say, say_of
from huntgather.server import messages as wire
from huntgather.server.codec import ProtocolError
from huntgather.server.fields import checker
from huntgather.server.messages import MOVES
from huntgather.server.sayings import said
from huntgather.server.seats import Deal
from huntgather.server.words import in_case, occupant_phrase, zone_phrase
from huntgather.specials import SHIPPED_SPECIALS, Special
from huntgather.state import DRAW, OCCUPY, PLACE, SPECIAL, State
from huntgather.svg import PLAYER_COLOURS, PLAYER_LETTERS, PLAYER_NAMES


def phrase_json(say: Say) -> wire.Phrase:
    """The wire form of a :class:`~huntgather.events.Say` (``say`` beside a ``text``)."""
    return cast(wire.Phrase, say.json())


#: the most words :func:`_keep` keeps in one of its memories before emptying it
_WORDS_MAX = 50_000


def _keep(memory: dict[tuple[object, ...], tuple[str, wire.Phrase]], key: tuple[object, ...],
          words: tuple[str, wire.Phrase]) -> tuple[str, wire.Phrase]:
    """``words`` kept in ``memory`` under ``key`` (the memory emptied when full); returned.  (The
    callers look their memory up themselves: on the hot path, where the words are mostly known,
    a look-up is all they do.)"""
    if len(memory) >= _WORDS_MAX:
        memory.clear()
    memory[key] = words
    return words


#: the words of phrases already said, by :func:`_phrase_key`
_WORDS: dict[tuple[object, ...], tuple[str, wire.Phrase]] = {}


def _phrase_key(say: Say) -> tuple[object, ...]:
    """What decides a phrase's words: its key and parameters, nested phrases as their own keys
    (a ``bool`` parameter kept apart from the ``int`` it equals)."""
    return (say.key, *[(name, _phrase_key(v) if isinstance(v, Say)
                        else tuple(_phrase_key(p) for p in v) if isinstance(v, tuple)
                        else (bool, v) if type(v) is bool else v)
                       for name, v in say.params.items()])


def words_of(say: Say) -> tuple[str, wire.Phrase]:
    """A phrase's English ``text`` and its wire ``say``, made once for each distinct phrase: every
    update words the decision and each live projection row again, mostly the same ones. The
    ``say`` returned is shared: never change it."""
    key = _phrase_key(say)
    known = _WORDS.get(key)
    return known if known is not None else _keep(_WORDS, key, (str(said(say)), phrase_json(say)))


def error(code: str, message: str, request: Any, version: int | None,
          explain: str | None = None) -> wire.Error:
    """An ``error`` message: its code, the reason in words, the request it answers, the game's
    version, and the key of the words that explain it (where it has one)."""
    out: wire.Error = {"type": wire.MessageType.ERROR, "code": wire.ErrorCode(code), "message": message,
                       "request": request, "version": version}
    if explain is not None:
        out["explain"] = explain
    return out


# --------------------------------------------------------------------------- the connection

#: seconds between two ``ping`` messages of the server to each page; a page answers each with a
#: ``pong``, and a page that hears nothing for about two of them knows its socket is dead
HEARTBEAT = 5.0
#: a page the server has heard nothing from for this many seconds (no ``pong``, nothing) is
#: closed with code 4009 (``silent``): its seats show offline to the others within
#: ``SILENT_AFTER + HEARTBEAT`` seconds of its last word
SILENT_AFTER = 20.0
#: a socket that has not said ``hello`` this many seconds after it opened is closed with code 4408
#: (``no_hello``): a socket holds its game in memory, so none may stay without a page behind it
HELLO_TIMEOUT = 10.0


def welcome(game_id: str, seats: Iterable[int], creator: bool, version: int, refused: Iterable[int],
            heartbeat: float | None) -> wire.Welcome:
    """The answer to ``hello``: the seats this page holds, whether it holds the creator's secret,
    the game's version, the positions in ``hello``'s ``secrets`` of the secrets that hold nothing
    in this game (the page forgets them), and the seconds between the server's pings."""
    return {"type": wire.MessageType.WELCOME, "game": game_id, "seats": sorted(seats), "creator": creator,
            "version": version, "refused": sorted(refused), "heartbeat": heartbeat}


def ping() -> wire.Ping:
    """The server's heartbeat, every :data:`HEARTBEAT` seconds to a page not just heard and told
    (:meth:`~huntgather.server.connection.Connection.keep_alive`); the page answers :func:`pong`
    (and a page may send one too: the server answers it with a ``pong``)."""
    return {"type": wire.MessageType.PING}


def pong() -> wire.Pong:
    """The answer to a ``ping``."""
    return {"type": wire.MessageType.PONG}


# --------------------------------------------------------------------------- moves


def move_from_json(state: State, data: Any) -> Move:
    """The engine move for a structured move at ``state``'s decision.

    The tile is implied: ``place`` places the tile to place, ``occupy`` puts a
    piece on the tile just placed.  Raises :class:`ProtocolError`
    (``invalid_move``) for a move of the wrong shape (its declaration:
    :data:`huntgather.server.messages.MOVES`); whether it is *legal* is the
    engine's business.
    """
    shape = MOVES.get(data.get("kind")) if isinstance(data, dict) else None   # type: ignore[arg-type]
    if shape is None:
        raise ProtocolError("invalid_move", "a move is an object whose 'kind' is 'place', 'occupy', "
                                            "'takeback', 'choose' or 'pass'")
    kind = data["kind"]
    move = checker(shape, "invalid_move", f"{kind} move")(data)
    if kind == "pass":
        return Pass()
    if kind == "takeback":
        return TakeBack(move["tile"], move["zone"])
    if kind == "choose":
        return Choose(move["option"])
    tile = state.tile
    if tile is None or state.phase not in (PLACE, SPECIAL, OCCUPY):
        raise ProtocolError("invalid_move", f"a {kind} move does not answer this decision: "
                                            f"{state.describe_decision()}")
    if kind == "place":
        return Place(tile, move["x"], move["y"], move["rotation"])
    return Occupy(tile, move["zone"], move["piece"])


def _place_json(x: int, y: int, rotation: int) -> wire.PlaceMove:
    """The structured form of a placement (one form for :func:`move_to_json` and :func:`legal_json`)."""
    return {"kind": "place", "x": x, "y": y, "rotation": rotation}


def move_to_json(state: State, move: Move) -> wire.Move:
    """The structured form of an engine move (as :func:`move_from_json` reads it)."""
    if isinstance(move, Place):
        return _place_json(move.x, move.y, move.rotation)
    if isinstance(move, Occupy):
        return {"kind": "occupy", "zone": move.zone, "piece": move.piece}
    if isinstance(move, TakeBack):
        return {"kind": "takeback", "tile": move.tile, "zone": move.zone}
    if isinstance(move, Choose):
        return {"kind": "choose", "option": move.option}
    return {"kind": "pass"}


def legal_json(state: State) -> list[wire.Move]:
    """The legal moves at ``state`` for the player to move, with words for the choices."""
    if state.is_over or state.is_chance:
        return []
    tiles = state.edition.tiles
    if state.phase == PLACE:   # the common case, sent in every update: no Place made for each
        assert state.tile is not None
        # (_place_json's dict, written out: a call a placement is a tenth of this list's cost)
        return [{"kind": "place", "x": x, "y": y, "rotation": r}
                for x, y, r in state.board.placements(tiles.by_id[state.tile])]
    out: list[wire.Move] = []
    for move in state.legal_moves():
        if isinstance(move, Occupy):
            role = role_of(tiles[move.tile].zones[move.zone].kind, move.piece)
            words = _occupy_words(state, move.tile, move.zone, role)
            out.append({"kind": "occupy", "zone": move.zone, "piece": move.piece, "role": role,
                        "text": words, "say": phrase_json(words.say)})
        elif isinstance(move, TakeBack):
            x, y = state.board.where[move.tile]
            words = said(Say("say.choice.takeback", zone=_from(state, move.tile, move.zone)))
            out.append({"kind": "takeback", "tile": move.tile, "zone": move.zone, "x": x, "y": y,
                        "text": words, "say": phrase_json(words.say)})
        elif isinstance(move, Choose):
            words = _option_words(state.asking_special(), move.option)
            out.append({"kind": "choose", "option": move.option, "text": words,
                        "say": phrase_json(words.say)})
        elif isinstance(move, Pass):
            words = _decline_words(state.asking_special()) if state.phase == SPECIAL else \
                said(Say("say.choice.no_piece"))
            out.append({"kind": "pass", "text": words, "say": phrase_json(words.say)})
        else:
            out.append(move_to_json(state, move))
    return out


def _rotation(state: State, tile: int) -> int:
    """How far the tile ``tile`` on the board is turned."""
    return state.board.cells[state.board.where[tile]][1]


def _zone_words(state: State, tile: int, zone: int) -> Said:
    """A zone of a tile on the board, in words (``'the river to the north (1 fish)'``)."""
    return zone_phrase(state.edition.tiles[tile], zone, _rotation(state, tile))


def _occupy_words(state: State, tile: int, zone: int, role: str) -> Said:
    """``'hunter on the meadow to the east (2 deer)'``: a choice of a piece for a zone."""
    return said(Say(f"say.choice.occupy.{role}", zone=in_case(_zone_words(state, tile, zone).say, "on")))


def _from(state: State, tile: int, zone: int) -> Say:
    """A zone a piece is taken from (``'from the river to the north'``)."""
    return in_case(_zone_words(state, tile, zone).say, "from")


def _shipped(special: Special) -> bool:
    return type(special) in SHIPPED_SPECIALS


def _title(special: Special) -> Say:
    return Say(f"say.title.{special.name}") if _shipped(special) else Say.words(special.title)


def _option_words(special: Special, option: str) -> Said:
    """An option of a special's question (a shipped special asks none: its words as they are)."""
    return Said(special.option_words(option), Say.words(special.option_words(option)))


def _decline_words(special: Special) -> Said:
    """The words for declining a special's question (the shaman's ``'take nothing back'``)."""
    if _shipped(special):
        return said(Say(f"say.decline.{special.name}"))
    return Said(special.decline, Say.words(special.decline))


def describe_turn(state: State, moves: Sequence[Move]) -> Said:
    """Words for a turn, e.g. ``'the tile turned 90°; gatherer on the forest to the east (1 menhir)'``.

    No ids or coordinates: the page marks the square on the board.
    """
    tiles = state.edition.tiles
    parts: list[Say] = []
    walk = state.copy()
    for move in moves:
        phase = walk.phase
        special = walk.asking_special() if phase == SPECIAL else None
        walk.apply(move)
        if isinstance(move, Place):
            parts.append(Say("say.turn.turned", deg=90 * move.rotation) if move.rotation
                         else Say("say.turn.as_drawn"))
        elif isinstance(move, TakeBack):
            parts.append(Say("say.turn.takeback", zone=_from(walk, move.tile, move.zone)))
        elif isinstance(move, Occupy):
            who = role_of(tiles[move.tile].zones[move.zone].kind, move.piece)
            parts.append(_occupy_words(walk, move.tile, move.zone, who).say)
        elif isinstance(move, Choose) and special is not None:
            parts.append(Say("say.turn.special", title=_title(special),
                             answer=_option_words(special, move.option).say))
        elif special is not None:
            parts.append(Say("say.turn.special", title=_title(special), answer=_decline_words(special).say))
        else:
            parts.append(Say("say.choice.no_piece"))
    return said(Say("say.turn", parts=tuple(parts)))


# --------------------------------------------------------------------------- views


def _bonus(state: State) -> Say:
    """The edition's bonus tile (``'menhir tile'``)."""
    return Say(f"say.bonus.{state.edition.bonus_name.replace(' ', '_')}")


def event_say(e: Event, state: State) -> Say:
    """A log line as a key and its parameters (no tile or zone ids, no coordinates); ``state`` is
    any state of the game from the event on (it only looks up where tiles lie and the edition)."""
    if isinstance(e, TileDrawn):
        return Say("say.drawn_bonus", bonus=_bonus(state)) if e.stack == "bonus" else Say("say.drawn")
    if isinstance(e, TileDiscarded):
        return Say("say.discarded")
    if isinstance(e, TilePlaced):
        seat = Say.seat(e.player)
        if e.bonus:
            return Say("say.placed_bonus", seat=seat, bonus=_bonus(state))
        return Say("say.placed", seat=seat)
    if isinstance(e, OccupantPlaced):
        phrase = occupant_phrase(state.edition.tiles[e.tile], e.zone, _rotation(state, e.tile), e.role)
        return Say("say.puts", seat=Say.seat(e.player), piece=phrase.say)
    if isinstance(e, MeepleTakenBack):
        return Say("say.taken_back", seat=Say.seat(e.player), zone=_from(state, e.tile, e.zone))
    if isinstance(e, OccupantsReturned):
        back = tuple(Say("say.returned_from", seat=Say.seat(p), zone=_from(state, t, z))
                     for p, t, z in e.returned)
        return Say("say.returned", reason=say_of(e.reason), back=back)
    if isinstance(e, FeatureScored):
        return say_of(e.explanation)
    if isinstance(e, BonusTurn):
        return say_of(e.reason)
    if isinstance(e, FinalScoring):
        if not e.rows:
            return Say("say.final_nothing")
        return Say("say.final_scoring", rows=tuple(say_of(r.explanation) for r in e.rows))
    return game_over_say(e)


def game_over_say(e: GameOver) -> Say:
    """``'game over: yellow 40, red 38; yellow wins'``."""
    table = tuple(Say("say.seat_score", seat=Say.seat(i), n=s) for i, s in enumerate(e.scores))
    winners = tuple(Say.seat(w) for w in e.winners)
    key = "say.game_over_shared" if len(e.winners) > 1 else "say.game_over"
    return Say(key, table=table, winners=winners)


def event_text(e: Event, state: State) -> str:
    """A log line in a player's words: :func:`event_say` in English."""
    return said(event_say(e, state))


#: the words of events already said, by what decides them (:func:`_event_words`)
_EVENT_WORDS: dict[tuple[object, ...], tuple[str, wire.Phrase]] = {}


def _event_words(e: Event, state: State) -> tuple[str, wire.Phrase]:
    """An event's ``text`` and ``say``, made once: they depend only on the event, the edition and
    how the tiles it names lie (a snapshot words its whole log again, and every page's view the
    same events). The ``say`` returned is shared: never change it."""
    # Most of a turn's events are tiles drawn and placed: each one new (its tile, its cell), but
    # said in few ways, so they are looked up by what their words depend on (:func:`event_say`)
    # rather than by the whole event (slower to hash, and found again only when a snapshot words
    # the log).
    key: tuple[object, ...]
    if isinstance(e, TilePlaced):
        key = (state.edition.name, TilePlaced, e.player, e.bonus)
    elif isinstance(e, TileDrawn):
        key = (state.edition.name, TileDrawn, e.stack)
    else:
        if isinstance(e, OccupantPlaced | MeepleTakenBack):
            lie: tuple[int, ...] = (_rotation(state, e.tile),)
        elif isinstance(e, OccupantsReturned):
            lie = tuple(_rotation(state, t) for _p, t, _z in e.returned)
        else:
            lie = ()
        key = (state.edition.name, e, lie)
    known = _EVENT_WORDS.get(key)
    # (its phrase, "red placed a tile", mostly said before: words_of has its words)
    return known if known is not None else _keep(_EVENT_WORDS, key, words_of(event_say(e, state)))


def event_view(e: Event, state: State) -> wire.EventView:
    """One log entry: event kind, text (see :func:`event_text`), its ``say``, and the facts a page
    draws from it."""
    text, phrase = _event_words(e, state)
    out: wire.EventView = {"kind": type(e).__name__, "text": text, "say": phrase}
    if isinstance(e, TilePlaced):
        out |= {"player": e.player, "tile": e.tile, "x": e.x, "y": e.y, "rotation": e.rotation,
                "bonus": e.bonus}
    elif isinstance(e, OccupantPlaced):
        out |= {"player": e.player, "tile": e.tile, "zone": e.zone, "piece": e.piece, "role": e.role}
    elif isinstance(e, MeepleTakenBack):
        out |= {"player": e.player, "tile": e.tile, "zone": e.zone}
    elif isinstance(e, OccupantsReturned):
        out["returned"] = [{"player": p, "tile": t, "zone": z} for p, t, z in e.returned]
    elif isinstance(e, FeatureScored):
        out |= {"points": list(e.points), "tiles": list(e.tiles), "feature": e.kind}
    elif isinstance(e, TileDrawn | TileDiscarded):
        out["tile"] = e.tile
    return out


def final_view(events: Sequence[Event]) -> wire.FinalView | None:
    """The final-scoring table: one row per river system (huts) and meadow (hunters)."""
    final = next((e for e in reversed(events) if isinstance(e, FinalScoring)), None)
    over = next((e for e in reversed(events) if isinstance(e, GameOver)), None)
    if final is None or over is None:
        return None
    text, phrase = words_of(game_over_say(over))
    return {"rows": [_row_view(r) for r in final.rows],
            "scores": list(over.scores), "winners": list(over.winners), "text": text, "say": phrase}


def _row_view(row: ScoreRow) -> wire.FinalRow:
    text, phrase = words_of(say_of(row.explanation))
    return {"kind": row.kind, "points": list(row.points), "explanation": text, "say": phrase,
            "tiles": list(row.tiles)}


class Projected:
    """The live projection's rows of one game as last made (:func:`projection_view`), to make the
    next version's from: a move changes one or two features, and every other row is the same.

    A row is kept with the feature it scores (:class:`~huntgather.features.Feature`, never changed
    once made: a tile that joins it, a piece put on it or taken off makes a new one) and the
    animals a hunting trap took; it is taken again only while the board holds that very feature
    object under that id and those animals are gone (an occupied feature is never one of those
    that a tile's template shares among games: it belongs to one game and its copies).  The
    memory keeps only the rows of the version last projected (and so holds the features they
    read alive: an id is never that of another object)."""

    __slots__ = ("rows",)

    def __init__(self) -> None:
        #: feature id -> (the feature, the animals gone, the row as sent, its points)
        self.rows: dict[int, tuple[Feature, frozenset[ZoneRef], wire.FinalRow, tuple[int, ...]]] = {}


def projection_view(state: State, memory: Projected | None = None) -> wire.ProjectionView:
    """What final scoring would give now, and each seat's score with it (the live projection);
    ``memory``: the rows of this game's last projection, taken again where nothing they read has
    changed (and left holding this one's)."""
    board = state.board
    removed = state.removed_animals
    known = memory.rows if memory is not None else {}
    made: dict[int, tuple[Feature, frozenset[ZoneRef], wire.FinalRow, tuple[int, ...]]] = {}
    scores = list(state.scores)
    rows: list[wire.FinalRow] = []
    for fid in state.final_ids():
        feature = board.feature_by_id(fid)
        entry = known.get(fid)
        if entry is None or entry[0] is not feature or entry[1] != removed:
            row = state.final_row(fid, removed=removed)
            entry = (feature, removed, _row_view(row), row.points)
        made[fid] = entry
        rows.append(entry[2])
        for i, points in enumerate(entry[3]):
            scores[i] += points
    if memory is not None:
        memory.rows = made
    return {"rows": rows, "scores": scores}


def decision_say(state: State) -> Say:
    """The decision as a key and its parameters: ``'red to place a menhir tile'`` (no tile ids)."""
    d = state.decision
    if d.phase == DRAW:   # (a chance node: the game draws at once, so a page rarely sees one)
        return Say("say.decision.draw", seat=Say.seat(state.player), stack=Say(f"say.stack.{state.stack}"))
    if d.player is None:
        return Say("say.decision.over") if state.is_over else Say.words(state.describe_decision())
    seat = Say.seat(d.player)
    if d.phase == PLACE:
        return Say("say.decision.place_bonus", seat=seat, bonus=_bonus(state)) if d.stack == "bonus" \
            else Say("say.decision.place", seat=seat)
    if d.phase == OCCUPY:
        return Say("say.decision.occupy", seat=seat)
    if d.phase == SPECIAL:
        special = state.asking_special()
        if _shipped(special):
            return Say(f"say.decision.{special.name}", seat=seat)
    return Say.words(state.describe_decision())


def decision_text(state: State) -> str:
    """The decision in a player's words: :func:`decision_say` in English."""
    return said(decision_say(state))


#: the words of the decisions to place or occupy (most of those sent), by what decides them
_DECISION_WORDS: dict[tuple[object, ...], tuple[str, wire.Phrase]] = {}


def decision_view(state: State) -> wire.DecisionView:
    d = state.decision
    if d.special is None and (d.phase is PLACE or d.phase is OCCUPY) and d.player is not None:
        # every update says one, mostly said before: looked up by what decision_say reads for these
        key = (state.edition.name, d.phase, d.player, d.stack)
        known = _DECISION_WORDS.get(key)
        text, phrase = known if known is not None \
            else _keep(_DECISION_WORDS, key, words_of(decision_say(state)))
    else:
        text, phrase = words_of(decision_say(state))
    out: wire.DecisionView = {"phase": d.word, "player": d.player, "tile": d.tile, "stack": d.stack,
                              "text": text, "say": phrase}
    if d.special is not None:   # a special's question: "phase" is the special's name ("shaman")
        special = state.asking_special()
        prompt = said(Say(f"say.prompt.{special.name}")) if _shipped(special) else \
            Said(special.prompt, Say.words(special.prompt))
        out |= {"special": d.special, "prompt": prompt, "prompt_say": phrase_json(prompt.say)}
    return out


def players_view(state: State) -> list[wire.PlayerView]:
    return [{"seat": i, "colour": PLAYER_NAMES[i], "rgb": PLAYER_COLOURS[i], "letter": PLAYER_LETTERS[i],
             "score": state.scores[i], "meeples": state.meeples[i], "huts": state.huts[i]}
            for i in range(state.players)]


def occupants_view(state: State) -> list[wire.OccupantView]:
    """The pieces on the board; ``stuck`` marks a fisher or gatherer whose river or forest no
    tile left can complete (:func:`huntgather.outlook.stuck_meeples`)."""
    board = state.board
    stuck = {where for _player, where in stuck_meeples(state)}
    out: list[wire.OccupantView] = []
    for where, player, piece in sorted(board.pieces()):
        x, y = board.where[where.tile]
        role = role_of(board.zone(*where).kind, piece)
        out.append({"tile": where.tile, "zone": where.zone, "x": x, "y": y, "player": player,
                    "piece": piece, "role": role, "stuck": where in stuck})
    return out


def last_view(events: Sequence[Event]) -> list[wire.LastTile]:
    """The tiles placed in the last turn (a menhir turn's two tiles together)."""
    last: list[wire.LastTile] = []
    for e in reversed(events):
        if isinstance(e, TilePlaced):
            if last and last[0]["player"] != e.player:
                break
            last.insert(0, {"tile": e.tile, "x": e.x, "y": e.y, "player": e.player})
            if not e.bonus:
                break
    return last


def _changing(game: Game, seed: int, projections: bool, projected: Projected | None) -> wire.Changing:
    """The parts of a view that are sent whole in snapshots and updates alike (``projections``:
    with the live projection while the game is on, made from ``projected``'s rows)."""
    state = game.state
    return {
        "players": players_view(state),
        "occupants": occupants_view(state),
        "remaining": sorted(state.normal),
        "bonus_left": len(state.bonus),
        "decision": decision_view(state),
        "legal": legal_json(state),
        "last": last_view(game.events),
        "over": state.is_over,
        "final": final_view(game.events) if state.is_over else None,
        "seed": seed if state.is_over else None,   # the seed only once nothing is left to hide
        "projection": projection_view(state, projected) if projections and not state.is_over else None,
    }


def snapshot(game: Game, game_id: str, seed: int, deal: str, *, replay: bool = False,
             version: int | None = None, rated: bool = False, projections: bool = True,
             tutorial: str | None = None, projected: Projected | None = None) -> wire.Snapshot:
    """The whole public view of a game (what a watcher sees), at ``version`` (by default the
    number of moves in its history; a game with turns taken back is further on); ``projections``:
    with the live projection (:func:`projection_view`, made from ``projected``'s rows)."""
    state = game.state
    out: wire.Snapshot = {
           "type": wire.MessageType.SNAPSHOT, "game": game_id,
           "version": len(game.history) if version is None else version,
           "edition": state.edition.name,
           "bonus_name": state.edition.bonus_name, "deal": Deal(deal),
           "board": [{"x": x, "y": y, "tile": t, "rotation": r}
                     for (x, y), (t, r) in state.board.cells.items()],
           "log": [event_view(e, state) for e in game.events], "replay": replay, "rated": rated,
           "tutorial": tutorial, **_changing(game, seed, projections, projected)}
    if replay:
        out["legal"] = []
    return out


def update(game: Game, game_id: str, seed: int, start: int, new_events: Sequence[Event],
           version: int | None = None, *, projections: bool = True,
           projected: Projected | None = None) -> wire.Update:
    """What changed since version ``start``: the new events and tiles, and the new decision
    (``version``: the new version, by default the number of moves in the game's history;
    ``projected``: the memory of the game's last projection, see :func:`projection_view`)."""
    return {"type": wire.MessageType.UPDATE, "game": game_id, "from": start,
            "version": len(game.history) if version is None else version,
           "events": [event_view(e, game.state) for e in new_events],
           "placed": [{"x": e.x, "y": e.y, "tile": e.tile, "rotation": e.rotation}
                      for e in new_events if isinstance(e, TilePlaced)],
            **_changing(game, seed, projections, projected)}
