"""The calibration of the review's labels (docs/review.md): expert self-play, reviewed.

Plays ``--games`` games of ``expert`` against ``expert`` (``--bot``: another level against
itself; game ``i`` has seed ``--seed + i``), reviews each with
:func:`huntgather.bots.review.review_record` at the given budget, and prints, for the unforced
turns of all games together, the distribution of the win-chance loss (percentiles) and the
share of turns that each label's threshold would mark.  The thresholds are chosen so that the
expert, playing itself, is labelled rarely.

    python tools/review_calibration.py --games 4 --players 2 > review-calibration.log
    python tools/review_calibration.py --bot greedy --games 2 --short 40
"""

from __future__ import annotations

import argparse
import sys
import time

from huntgather import Game, State
from huntgather.bots import make_bot
from huntgather.bots.review import SAMPLES, SIMULATIONS, THRESHOLDS, review_record
from huntgather.record import write_record


def selfplay(players: int, seed: int, short: int | None, bot: str = "expert") -> str:
    """The record of one self-play game of ``bot`` (its normal stack cut to ``short`` tiles)."""
    start = State.new(players)
    if short is not None:
        start.normal = start.normal[:short]
    game = Game(state=start, seed=seed)
    bots = [make_bot(bot, seed=seed * 10 + p) for p in range(players)]
    while not game.is_over:
        game.play(bots[game.state.player].choose(game.state))
    return write_record(game)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="expert", help="the level that plays itself (default: expert)")
    parser.add_argument("--short", type=int, default=None, help="tiles in the normal stack (default: all)")
    parser.add_argument("--simulations", type=int, default=SIMULATIONS)
    parser.add_argument("--samples", type=int, default=SAMPLES)
    args = parser.parse_args()
    losses: list[float] = []
    for i in range(args.games):
        began = time.perf_counter()
        text = selfplay(args.players, args.seed + i, args.short, args.bot)
        played = time.perf_counter() - began
        review = review_record(text, simulations=args.simulations, samples=args.samples)
        mine = [t.loss for t in review.turns if not t.forced]
        losses += mine
        print(f"game {i + 1}: seed {args.seed + i}, {len(review.turns)} turns ({len(mine)} unforced), "
              f"played in {played:.0f} s, reviewed in {time.perf_counter() - began - played:.0f} s, "
              f"accuracy " + ", ".join(f"{s.accuracy:.1f}" for s in review.summaries)
              + f", mean loss {sum(mine) / max(1, len(mine)):.4f}", flush=True)
    losses.sort()
    n = len(losses)
    if not n:
        print("no unforced turns", file=sys.stderr)
        return 1
    print(f"{n} unforced turns; loss percentiles: " + ", ".join(
        f"p{q} {losses[min(n - 1, int(q / 100 * n))]:.3f}" for q in (50, 75, 90, 95, 98, 99)))
    print(f"zero loss (the expert's own choice or as good): {sum(v == 0.0 for v in losses) / n:.1%}")
    for name, threshold in THRESHOLDS:
        print(f"loss >= {threshold:.2f} ({name} or worse): {sum(v >= threshold for v in losses) / n:.1%}")
    for threshold in (0.02, 0.03, 0.04, 0.05, 0.075, 0.10, 0.15, 0.20, 0.30):
        print(f"  share of turns with loss >= {threshold:.3f}: {sum(v >= threshold for v in losses) / n:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
