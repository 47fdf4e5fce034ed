"""huntgather: the open digital edition of Carcassonne: Hunters and Gatherers.

>>> import huntgather
>>> game = huntgather.Game(players=2, seed=1)
>>> game.decision.phase
'place'
"""

from huntgather.editions import Edition, edition_names, get_edition
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
from huntgather.game import Game, random_game
from huntgather.moves import Draw, InvalidMoveError, Move, Occupy, Pass, Place, TakeBack, parse_move
from huntgather.state import Decision, IllegalMoveError, State
from huntgather.tiles import Tile, TileDataError, TileSet, Zone, load_tileset

__version__ = "0.1.0"

__all__ = [
    "BonusTurn", "Decision", "Draw", "Edition", "Event", "FeatureScored", "FinalScoring", "Game",
    "GameOver", "IllegalMoveError", "InvalidMoveError", "MeepleTakenBack", "Move", "OccupantPlaced",
    "OccupantsReturned", "Occupy", "Pass", "Place", "ScoreRow", "State", "TakeBack", "Tile",
    "TileDataError", "TileDiscarded", "TileDrawn", "TilePlaced", "TileSet", "Zone", "edition_names",
    "get_edition", "load_tileset", "parse_move", "random_game",
]
