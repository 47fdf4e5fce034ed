"""Train the pretrained baseline (:mod:`huntgather.rl.baseline`) by behaviour cloning on self-play
files, and write its weights for NumPy.

Needs PyTorch (``pip install -e '.[train]'``); the network it trains is the one
:class:`huntgather.rl.baseline.Baseline` runs, layer for layer, and before writing the file it
checks that the two give the same logits, margin and outcome on held-out rows.  The shipped
weights were made with (docs/rl.md, "The pretrained baseline")::

    huntgather selfplay --bots greedy:tuned --games 400 --chunk 50 --players 2 --seed 7 --out data/
    python tools/train_baseline.py --data data/ --out src/huntgather/data/baseline.npz

The last ``--valid`` games are held out: the policy's agreement with the moves played there, the
margin head's mean error and the outcome head's accuracy are printed after every epoch and kept
in the file's ``meta`` with the command, the data and the wall time.  One seed gives the same
weights on the same machine and PyTorch version (``torch.use_deterministic_algorithms``).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from huntgather.rl.baseline import ACTIONS, MARGIN_SCALE, WINDOW, Baseline
from huntgather.rl.cells import PLANES
from huntgather.rl.encoding import VECTOR


class Net(nn.Module):
    """:class:`huntgather.rl.baseline.Baseline` in PyTorch (same layers, same names)."""

    def __init__(self, channels: int, hidden: int) -> None:
        super().__init__()
        planes, vector = len(PLANES), len(VECTOR)
        self.film = nn.Linear(vector, channels)
        self.c1 = nn.Conv2d(planes, channels, 3, padding=1)
        self.c2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.c3 = nn.Conv2d(channels, channels, 3, padding=1)
        self.place = nn.Conv2d(channels, 4, 1)
        self.take = nn.Conv2d(channels, 1, 1)
        self.g1 = nn.Linear(2 * channels + vector, hidden)
        self.occupy = nn.Linear(hidden, 21)
        self.choose = nn.Linear(hidden, 8)
        self.margin = nn.Linear(hidden, 1)
        self.outcome = nn.Linear(hidden, 3)

    def forward(self, board: torch.Tensor, vector: torch.Tensor) -> tuple[torch.Tensor, ...]:
        x = torch.log1p(board.float())
        u = torch.sign(vector) * torch.log1p(vector.abs())
        h1 = F.relu(self.c1(x) + self.film(u)[:, :, None, None])
        h2 = F.relu(self.c2(h1))
        h3 = F.relu(self.c3(h2) + h1)
        n = board.shape[0]
        place = self.place(h3).permute(0, 2, 3, 1).reshape(n, -1)
        take = self.take(h3).reshape(n, -1)
        g = F.relu(self.g1(torch.cat([h3.mean(dim=(2, 3)), h3.amax(dim=(2, 3)), u], dim=1)))
        logits = torch.cat([place, self.occupy(g), take, self.choose(g)], dim=1)
        return logits, self.margin(g)[:, 0], self.outcome(g)


def load(folder: Path) -> dict[str, np.ndarray[Any, Any]]:
    """Every chunk of ``folder``, concatenated (rows in game order)."""
    parts: dict[str, list[np.ndarray[Any, Any]]] = {}
    files = sorted(folder.glob("chunk-*.npz"))
    if not files:
        sys.exit(f"no chunk-*.npz files in {folder} (make them with huntgather selfplay)")
    for f in files:
        with np.load(f) as d:
            meta = json.loads(str(d["meta"]))
            if meta["window"] != WINDOW:
                sys.exit(f"{f}: window {meta['window']}, the baseline reads {WINDOW}")
            for key in ("board", "vector", "mask", "action", "margin", "outcome", "game"):
                parts.setdefault(key, []).append(d[key])
    return {k: np.concatenate(v) for k, v in parts.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True, help="folder of huntgather selfplay chunks")
    ap.add_argument("--out", type=Path, required=True, help="weights file to write (.npz)")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--channels", type=int, default=32)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--valid", type=int, default=40, help="games held out (the last ones)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=0, help="PyTorch threads (0: its default)")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True)
    if args.threads:
        torch.set_num_threads(args.threads)
    started = time.time()
    data = load(args.data)
    games = np.unique(data["game"])
    held = data["game"] >= games[-args.valid] if args.valid else np.zeros(len(data["game"]), bool)
    train_rows, valid_rows = np.flatnonzero(~held), np.flatnonzero(held)
    print(f"{len(data['action']):,} decisions of {len(games)} games: {len(train_rows):,} to train on, "
          f"{len(valid_rows):,} held out ({args.valid} games)", flush=True)
    board = torch.from_numpy(data["board"])
    vector = torch.from_numpy(data["vector"])
    action = torch.from_numpy(data["action"].astype(np.int64))
    margin = torch.from_numpy(data["margin"] / MARGIN_SCALE)
    outcome = torch.from_numpy(data["outcome"].astype(np.int64) + 1)   # loss, shared, sole first

    def mask_of(rows: np.ndarray[Any, Any]) -> torch.Tensor:
        return torch.from_numpy(np.unpackbits(data["mask"][rows], axis=1)[:, :ACTIONS].astype(bool))

    net = Net(args.channels, args.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    steps = args.epochs * ((len(train_rows) + args.batch - 1) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=max(steps, 1))
    rng = np.random.default_rng(args.seed)
    history: list[dict[str, float]] = []

    def losses(rows: np.ndarray[Any, Any]) -> tuple[torch.Tensor, ...]:
        logits, m, o = net(board[rows], vector[rows])
        logits = logits.masked_fill(~mask_of(rows), -1e9)
        return (F.cross_entropy(logits, action[rows]), F.mse_loss(m, margin[rows]),
                F.cross_entropy(o, outcome[rows]), logits, m, o)

    for epoch in range(1, args.epochs + 1):
        net.train()
        order = rng.permutation(train_rows)
        total, seen, t0 = 0.0, 0, time.time()
        for i in range(0, len(order), args.batch):
            rows = np.sort(order[i:i + args.batch])
            policy, value, result, *_ = losses(rows)
            loss = policy + 0.5 * value + 0.5 * result
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(rows)
            seen += len(rows)
            if (i // args.batch) % 50 == 0:
                print(f"  epoch {epoch}: {seen:,}/{len(order):,} rows, loss {total / seen:.3f} "
                      f"({time.time() - t0:.0f} s)", flush=True)
        net.eval()
        agree = err = right = 0.0
        with torch.no_grad():
            for i in range(0, len(valid_rows), 512):
                rows = valid_rows[i:i + 512]
                *_, logits, m, o = losses(rows)
                agree += float((logits.argmax(1) == action[rows]).sum())
                err += float((m - margin[rows]).abs().sum()) * MARGIN_SCALE
                right += float((o.argmax(1) == outcome[rows]).sum())
        n = max(len(valid_rows), 1)
        row = {"epoch": epoch, "train_loss": round(total / max(seen, 1), 4),
               "valid_agreement": round(agree / n, 4), "valid_margin_mae": round(err / n, 2),
               "valid_outcome_accuracy": round(right / n, 4)}
        history.append(row)
        print(json.dumps(row), flush=True)

    weights = {k: v.detach().numpy().astype(np.float32) for k, v in net.state_dict().items()}
    meta = {"format": "huntgather-baseline", "version": 1, "window": WINDOW,
            "command": "python tools/train_baseline.py " + " ".join(sys.argv[1:]),
            "data": str(args.data), "decisions": len(data["action"]),
            "games": len(games), "held_out_games": args.valid, "epochs": args.epochs,
            "batch": args.batch, "lr": args.lr, "channels": args.channels, "hidden": args.hidden,
            "seed": args.seed, "wall_seconds": round(time.time() - started),
            "torch": torch.__version__, "machine": platform.machine(), "history": history}
    # the NumPy network must say what the PyTorch one says
    mine = Baseline(weights, meta)
    check = valid_rows[:16] if len(valid_rows) else train_rows[:16]
    with torch.no_grad():
        logits, m, o = net(board[check], vector[check])
    for k, r in enumerate(check):
        lg, mg, oc = mine.evaluate({"board": data["board"][r], "vector": data["vector"][r]})
        assert np.allclose(lg, logits[k].numpy(), atol=1e-3), "NumPy and PyTorch logits differ"
        assert abs(mg - float(m[k]) * MARGIN_SCALE) < 1e-2
        assert np.allclose(oc, F.softmax(o[k], 0).numpy(), atol=1e-4)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, meta=np.array(json.dumps(meta)), **weights)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes) in {meta['wall_seconds']} s", flush=True)


if __name__ == "__main__":
    main()
