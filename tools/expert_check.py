"""Two measurements behind the expert level (docs/bots.md, "expert").

``shape``: how deep is ``hard``'s tree really?  For placement decisions of a
greedy game, one 150-simulation search each, it prints how many nodes the
search made, how many of those below the root were visited more than once,
and the visits of the root's plans.

``cost``: the CPU time (``time.process_time``) of one search by ``mcts:hard``
and by ``expert`` on the same placement decisions, the two alternating which
goes first; the mean per search of each.

    python tools/expert_check.py shape --players 2 --seeds 1
    python tools/expert_check.py cost --players 2 --seeds 1,2 --every 20
"""

from __future__ import annotations

import argparse
import time

from huntgather import Game, State
from huntgather.bots import Limits, MctsBot, make_bot
from huntgather.bots.mcts import _Node
from huntgather.state import PLACE


def placements(players: int, seed: int, every: int) -> list[State]:
    """Every ``every``-th placement decision of a greedy game (from the middle of the first stretch)."""
    game = Game(players, seed=seed)
    bot = make_bot("greedy", seed=seed)
    out: list[State] = []
    k = 0
    while not game.is_over:
        if game.state.phase == PLACE:
            if k % every == every // 2:
                out.append(game.state.copy())
            k += 1
        game.play(bot.choose(game.state))
    return out


class _Counting(MctsBot):
    """``mcts:hard`` that keeps every node it makes."""

    def __init__(self, seed: int) -> None:
        super().__init__(Limits(simulations=150), seed, name="mcts:hard")
        self.nodes: list[_Node] = []

    def _expand(self, state: State) -> _Node:
        node = super()._expand(state)
        self.nodes.append(node)
        return node


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("what", choices=("shape", "cost"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seeds", default="1")
    parser.add_argument("--every", type=int, default=30)
    args = parser.parse_args()
    states = [s for seed in args.seeds.split(",") for s in placements(args.players, int(seed), args.every)]
    if args.what == "shape":
        for i, state in enumerate(states):
            bot = _Counting(seed=i)
            bot.search(state)
            root, below = bot.nodes[0], bot.nodes[1:]
            print(f"position {i}: {len(bot.nodes)} nodes, {sum(n.visits > 1 for n in below)} below the root "
                  f"visited more than once; root plans {len(root.plans)}, visits {[v for v in root.n if v]}")
        return
    total = {"mcts:hard": 0.0, "expert": 0.0}
    for i, state in enumerate(states):
        for spec in (("mcts:hard", "expert") if i % 2 == 0 else ("expert", "mcts:hard")):
            player = make_bot(spec, seed=i)
            start = time.process_time()
            player.choose(state)
            total[spec] += time.process_time() - start
    print(f"{len(states)} placements, {args.players} players: CPU seconds per search "
          + ", ".join(f"{spec} {t / len(states):.2f}" for spec, t in total.items()))


if __name__ == "__main__":
    main()
