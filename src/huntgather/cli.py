"""The ``huntgather`` command.

Each sub-command lives in its own module under :mod:`huntgather.commands` and
exposes ``register(subparsers)``; this module only assembles them.

>>> build_parser().prog
'huntgather'
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: sub-command modules, in the order ``huntgather --help`` lists them
COMMANDS = ("simulate", "replay", "show", "tiles")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="huntgather",
        description="Carcassonne: Hunters and Gatherers — rules engine, bots and browser play.",
    )
    from huntgather import __version__
    parser.add_argument("--version", action="version", version=f"huntgather {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"huntgather.commands.{name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        result: int = args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return result


if __name__ == "__main__":
    sys.exit(main())
