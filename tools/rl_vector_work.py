"""A fixed amount of vector-environment stepping, for instruction counts (issue 36).

    python tools/rl_vector_work.py STEPS              # 16 games against the random bot, STEPS calls
                                                      # of step, random legal actions (fixed seeds)
    python tools/rl_vector_work.py STEPS --envs 64    # another number of games
    python tools/rl_vector_work.py STEPS --digest     # and a digest of what step returned

Run it under ``valgrind --tool=callgrind`` (with ``PYTHONHASHSEED=0``, and
``OPENBLAS_NUM_THREADS=1``: NumPy's idle OpenBLAS threads would add a varying count of their own
to the totals) with STEPS = 60 and
STEPS = 20, and divide the difference by 40 × 16 learner steps: the instructions of one learner
step of ``huntgather.rl.vector_env`` with batched observations and masks (``copy=True``),
autoresets included, import, set-up and the first steps' filling of per-tile tables excluded
(docs/rl.md, "Speed")::

    PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.60 \\
        python tools/rl_vector_work.py 60
    PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.20 \\
        python tools/rl_vector_work.py 20
    # instructions per learner step: (total of cg.60 - total of cg.20) / 640

``--digest`` hashes the observations, masks, rewards and terminations of every step (made
outside the measured work only when both runs print it: leave it out under callgrind), so two
trees that behave alike print the same line.
"""

from __future__ import annotations

import argparse
import hashlib

import numpy as np

from huntgather.rl.benchmark import random_legal_actions
from huntgather.rl.vector import vector_env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("steps", type=int, nargs="?", default=60)
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--edition", default="2020")
    parser.add_argument("--copy", type=int, default=1, help="1: copy=True (the default), 0: copy=False")
    parser.add_argument("--digest", action="store_true")
    args = parser.parse_args()
    envs = vector_env(num_envs=args.envs, edition=args.edition, opponents=["random"], copy=bool(args.copy))
    rng = np.random.default_rng(0)
    digest = hashlib.sha256()
    obs, _ = envs.reset(seed=0)
    ended = 0
    for _ in range(args.steps):
        obs, rewards, terminations, _, _ = envs.step(random_legal_actions(obs["action_mask"], rng))
        ended += int(terminations.sum())
        if args.digest:
            for key in ("board", "vector", "action_mask"):
                digest.update(np.ascontiguousarray(obs[key]).tobytes())
            digest.update(rewards.tobytes())
            digest.update(terminations.tobytes())
    shown = digest.hexdigest()[:16] if args.digest else ""
    print(args.steps, "steps of", args.envs, "games,", ended, "ended", shown)


if __name__ == "__main__":
    main()
