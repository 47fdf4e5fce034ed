"""The ``huntgather`` command.

Each sub-command lives in its own module under :mod:`huntgather.commands` and
exposes ``register(subparsers)``; this module only assembles them.  A
command's ``run(args)`` returns the exit code; it may raise
:class:`CommandError` (or :class:`~huntgather.record.RecordError`) to stop
with a one-line message on stderr and no traceback.

Exit codes: 0 success, 1 a file could not be read or written, 2 bad
arguments or invalid input (e.g. a malformed or illegal record), 130
interrupted.

>>> build_parser().prog
'huntgather'
>>> main(["tiles", "--edition", "1999"])
2
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

#: sub-command modules, in the order ``huntgather --help`` lists them
COMMANDS = ("simulate", "replay", "show", "tiles", "play", "backup", "restore", "bench",
            "tournament", "arena", "ladder", "analyse", "review", "puzzles", "selfplay", "train-eval",
            "tune-eval", "admin")


class CommandError(Exception):
    """Stop a command with ``message`` on stderr and exit code ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def read_text(path: str) -> str:
    """The text of ``path`` (``-`` for standard input); :class:`CommandError` if unreadable."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        raise CommandError(f"{path}: no such file", 1) from None
    except IsADirectoryError:
        raise CommandError(f"{path}: is a directory, not a file", 1) from None
    except UnicodeDecodeError:
        raise CommandError(f"{path}: not a UTF-8 text file", 2) from None
    except OSError as err:
        raise CommandError(f"{path}: {err.strerror or err}", 1) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="huntgather",
        description="Carcassonne: Hunters and Gatherers — rules engine, bots and browser play.",
    )
    from huntgather import __version__
    parser.add_argument("--version", action="version", version=f"huntgather {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"huntgather.commands.{name.replace('-', '_')}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    from huntgather.record import RecordError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version, or a usage error already printed by argparse
        return exit_.code if isinstance(exit_.code, int) else 2
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    prog = f"huntgather {args.command}"
    try:
        result: int = args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except CommandError as err:
        print(f"{prog}: error: {err}", file=sys.stderr)
        return err.code
    except RecordError as err:
        print(f"{prog}: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `huntgather show game.hgr | head`
        try:  # silence the flush at exit, as the Python documentation advises
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    return result


if __name__ == "__main__":
    sys.exit(main())
