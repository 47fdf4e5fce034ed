"""One digest of many complete games, to show that a change of the engine plays the same games.

    python tools/game_digest.py [--games N] [--bot-games M]

Plays ``N`` random games for each edition and each number of players (2-5) and ``M`` games of
greedy bots per edition, writes each game's record *with its comments* (so the scoring texts count
too), and prints one SHA-256 over all of them, plus one per group.  Run it on two trees (for example
``PYTHONPATH=/tmp/other/src python tools/game_digest.py``): equal digests mean the same moves, the
same draws, the same events and the same explanations.  ``tests/test_game_digest.py`` pins the
digests of ``--games 125 --bot-games 1`` (1,000 random games and 2 greedy ones).
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Callable

from huntgather.bots import make_bot
from huntgather.editions import edition_names
from huntgather.game import Game, random_game
from huntgather.record import write_record


def bot_game(edition: str, seed: int) -> Game:
    game = Game(players=3, edition=edition, seed=seed)
    bots = [make_bot("greedy", seed=seed + i) for i in range(3)]
    while not game.is_over:
        game.play(bots[game.decision.player or 0].choose(game.state))
    return game


def digests(games: int, bot_games: int,
            play: Callable[[int, int, str], Game] | None = None) -> dict[str, str]:
    """``{group: digest}`` in the order printed: 16 hex digits per group, then ``"all"``
    (the full SHA-256 over every record of every group).

    ``play(players, seed, edition)`` gives each random game (by default ``random_game`` plays
    it; a test passes games it already has)."""
    if play is None:
        play = lambda players, seed, edition: random_game(players=players, seed=seed, edition=edition)  # noqa: E731
    out: dict[str, str] = {}
    total = hashlib.sha256()
    for edition in ("2020", "2002"):
        assert edition in edition_names()
        for players in range(2, 6):
            group = hashlib.sha256()
            for seed in range(games):
                text = write_record(play(players, seed, edition)).encode()
                group.update(text)
                total.update(text)
            out[f"{edition} random {players}p"] = group.hexdigest()[:16]
        group = hashlib.sha256()
        for seed in range(bot_games):
            text = write_record(bot_game(edition, seed)).encode()
            group.update(text)
            total.update(text)
        out[f"{edition} greedy 3p"] = group.hexdigest()[:16]
    out["all"] = total.hexdigest()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="random games per edition and player count")
    parser.add_argument("--bot-games", type=int, default=5, help="greedy 3-player games per edition")
    args = parser.parse_args()
    for name, value in digests(args.games, args.bot_games).items():
        print(f"{name:<16} {value}")


if __name__ == "__main__":
    main()
