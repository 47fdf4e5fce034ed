"""Forks ``huntgather play`` servers for the tests, from a process that has imported them once.

The suite starts some 150 servers.  Each one started as ``python -m huntgather play`` spends most
of half a second of CPU importing Python, Starlette, uvicorn, SQLAlchemy and huntgather before it
serves; on the test machine's two cores that is over a minute of the suite's time.  This process
(one per test process, started by :mod:`play_server` on its first server) imports those modules
once, and makes the documents every server makes at its first page (``tiles_payload`` and
``rules_payload``, and the page's bundled modules, ``client_bundle``: cached per process, the
children have them).  Then for each request it forks
a child that runs ``huntgather play`` as the command line does (``huntgather.cli.main`` with the
request's arguments, environment and working folder), its output written to the request's FIFO.
The children are real, separate server processes: their own pid, signals, sockets, database and
bot workers (which start as fresh interpreters, as always).  Nothing of the servers' own code is
changed or skipped, and the servers that need a program started (``LD_PRELOAD``) and the command
line's own tests still start ``python -m huntgather play``.

The protocol, one JSON line each way on stdin and stdout:

* ``{"argv": [...], "env": {...}, "cwd": "...", "output": "/path/to/fifo"}`` — fork a server;
  answered ``{"pid": N}``;
* whenever a child ends: ``{"exit": N, "code": C}`` (``C`` negative for a signal, as
  :class:`subprocess.Popen` has it).

It exits when its stdin closes (the test process ended), leaving its children to the test
process's own clean-up.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import sys


def _child(request: dict[str, object]) -> None:
    """In the forked child: become ``huntgather play`` with the request's arguments; never returns."""
    code: object = 1
    try:
        out = os.open(str(request["output"]), os.O_WRONLY)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(out)
        os.close(null)
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", buffering=1, encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1, encoding="utf-8", closefd=False)  # noqa: SIM115
        env = request["env"]
        assert isinstance(env, dict)
        os.environ.clear()
        os.environ.update(env)
        os.chdir(str(request["cwd"]))
        argv = request["argv"]
        assert isinstance(argv, list)
        sys.argv = ["huntgather", *argv]
        # as under ``python -m huntgather``: the bot workers (started by spawning fresh
        # interpreters) must not import this script as their main module
        main = sys.modules["__main__"]
        main.__spec__ = None
        if hasattr(main, "__file__"):
            del main.__file__
        from huntgather.cli import main as cli_main

        code = cli_main(argv)
    except SystemExit as exc:
        code = exc.code
    except BaseException:   # what the command line would print before exiting 1
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        import atexit

        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
    os._exit(code if isinstance(code, int) else (0 if code is None else 1))


def serve() -> None:
    # what every ``huntgather play`` imports before it serves (see commands/play.py)
    import uvicorn  # noqa: F401

    import huntgather.cli
    import huntgather.commands.play
    import huntgather.server
    import huntgather.server.app
    import huntgather.server.logs
    import huntgather.server.serving
    import huntgather.server.storage

    # and the documents every server makes once, at its first page (each edition's tiles in both
    # styles, its rules: a fifth of a second of CPU apiece; the page's modules as one file), made
    # here once for all of them
    from huntgather.editions import edition_names
    from huntgather.server.client_bundle import client_bundle
    from huntgather.server.routes_http import rules_payload, tiles_payload, web_dir
    from huntgather.svg import TILE_STYLES

    client_bundle(web_dir())   # the page's modules bundled (where esbuild is installed)
    for edition in edition_names():
        rules_payload(edition)
        for style in TILE_STYLES:
            tiles_payload(edition, style)
    del huntgather
    pending = b""
    while True:
        readable, _, _ = select.select([0], [], [], 0.05)
        if readable:
            chunk = os.read(0, 65536)
            if not chunk:
                return
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                request = json.loads(line)
                sys.stdout.flush()
                pid = os.fork()
                if pid == 0:
                    _child(request)
                sys.stdout.write(json.dumps({"pid": pid}) + "\n")
                sys.stdout.flush()
        while True:   # every child that ended since
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:   # none running
                break
            if not pid:
                break
            sys.stdout.write(json.dumps({"exit": pid, "code": os.waitstatus_to_exitcode(status)}) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    serve()
