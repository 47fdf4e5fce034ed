"""The engine plays the same games as before: a digest of 1,000 random games' records.

The expected digests were recorded at commit c1af7a4 ("docs/index.md: the core's modules after the
redesign"), before any of the Speed II changes (issue 16), with::

    PYTHONPATH=src python tools/game_digest.py --games 125 --bot-games 1

that is 125 random games for each edition (2020, 2002) and each number of players (2-5), 1,000
in all, plus one 3-player game of greedy bots per edition; each record is written with its
comments, so moves, draws, events and their explanation texts all count.  A speed change must keep
every digest.  Only a deliberate change of the rules or of the record format may record new ones
(rerun the command above and say why in the commit).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

EXPECTED = {
    "2020 random 2p": "b06e03f6c8010e93",
    "2020 random 3p": "8883babbb55d7237",
    "2020 random 4p": "54bb154468a4eb44",
    "2020 random 5p": "17ae78e89f5c2ae6",
    "2020 greedy 3p": "0a67c7066dcb6106",
    "2002 random 2p": "28bda8497223c19a",
    "2002 random 3p": "d54de49f163de955",
    "2002 random 4p": "02681145579c5295",
    "2002 random 5p": "a2281f0f38583195",
    "2002 greedy 3p": "e63d22f48d35a3ed",
    "all": "a590357332c3bb68ad66050a68f02cb1fada5afd11c2b6a7e69d3265d9de7704",
}


def _tool() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "tools" / "game_digest.py"
    spec = importlib.util.spec_from_file_location("game_digest", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.xdist_group("corpus")
def test_1000_random_games_and_2_greedy_ones_are_the_same_games_as_before(corpus: Any) -> None:
    # the 1,000 random games are those of the shared corpus (conftest.py: random_game itself)
    assert corpus.games("2020", 2)[0].state.players == 2
    assert _tool().digests(games=125, bot_games=1,
                           play=lambda players, seed, edition: corpus.games(edition, players)[seed]
                           ) == EXPECTED
