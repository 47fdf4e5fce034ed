"""`huntgather replay` (to be written)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser("replay", help="(not yet available)")
    parser.set_defaults(run=lambda args: 1)
