"""Steps per CPU second of the learning environments, measured in interleaved rounds.

Each round measures, one after the other in this process: the AEC environment (every
move a step, as ``huntgather bench``'s ``rl_env_steps_per_s``), one ``SingleAgentEnv``
against the random bot, and the vector environment of 1, 16 and 64 games against the
random bot (learner steps; ``copy=True``, and 64 games with ``copy=False``).  Rounds
interleave them so that a machine whose load changes disturbs all alike; the table
gives each one's median over the rounds.  It names the build it ran on (``pure``, or
``compiled``: see docs/performance.md).

    python tools/rl_env_speed.py --rounds 3 --seconds 2
"""

from __future__ import annotations

import argparse
import json
import os
import statistics

from huntgather.bench import build
from huntgather.rl.benchmark import env_steps_per_s, single_env_steps_per_s, vector_env_steps_per_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="per figure per round")
    parser.add_argument("--edition", default="2020")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    s, ed = args.seconds, args.edition
    runs = {
        "AEC env (every move a step)": lambda: env_steps_per_s(ed, s),
        "SingleAgentEnv vs random": lambda: single_env_steps_per_s(ed, s),
        "vector env N=1": lambda: vector_env_steps_per_s(1, ed, s),
        "vector env N=16": lambda: vector_env_steps_per_s(16, ed, s),
        "vector env N=64": lambda: vector_env_steps_per_s(64, ed, s),
        "vector env N=64, copy=False": lambda: vector_env_steps_per_s(64, ed, s, copy=False),
    }
    found: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            found[name].append(run())
    table = {name: {"median": statistics.median(v), "runs": v} for name, v in found.items()}
    if args.json:
        print(json.dumps({"build": build(), "load_average": os.getloadavg()[0], "figures": table}))
        return
    print(f"| environment | steps / CPU s (median of {args.rounds}) | rounds |\n|---|---:|---|")
    for name, row in table.items():
        print(f"| {name} | {row['median']:,.0f} | {', '.join(f'{x:,.0f}' for x in row['runs'])} |")
    print(f"\n({build()} build; load average {os.getloadavg()[0]:.2f} at the end)")


if __name__ == "__main__":
    main()
