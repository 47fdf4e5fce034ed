"""The optional compiled build (see docs/performance.md, "The compiled build").

By default this builds the pure-Python package, which needs no C compiler.  With the environment
variable ``HUNTGATHER_COMPILE=1`` the rules core (and the bots' hot loop) is compiled with mypyc,
which must be installed (it comes with mypy, in ``huntgather[test]``) together with a C compiler
and the Python headers::

    HUNTGATHER_COMPILE=1 pip install --no-build-isolation .     # a compiled install
    HUNTGATHER_COMPILE=1 python setup.py build_ext --inplace    # compiled modules next to the sources
    python scripts/compiled.py clean                            # remove them again

The compiled modules are the same source files: they behave the same (scripts/test.sh runs the
tests that can tell the builds apart on both), only faster.  Everything else lives in ``pyproject.toml``.
"""

from __future__ import annotations

import os

from setuptools import setup

#: the modules mypyc compiles (``huntgather.bench.compiled_modules()`` tells which are compiled)
COMPILED_MODULES = [
    "huntgather.moves", "huntgather.features", "huntgather.tiles", "huntgather.board",
    "huntgather.scoring", "huntgather.events", "huntgather.state", "huntgather.game",
    # the search's hot loop: the plans of a turn and their values (bots.plans, not bots.base:
    # that holds a runtime-checkable Protocol, which mypyc cannot compile)
    "huntgather.bots.heuristic", "huntgather.bots.plans",
    # the learning environment's loops: what its incremental planes read of the engine, the columns
    # and side slots they write, and the encoder that keeps the planes and masks (its NumPy calls
    # stay generic, but its own steps between them become native: 10 % fewer instructions a step)
    "huntgather.rl.reading", "huntgather.rl.cells", "huntgather.rl.encoding",
]

#: the C compiler's optimisation level: 3 unless ``HUNTGATHER_COMPILE_OPT`` says otherwise (the
#: test script builds with 1: the same C code, a quarter less CPU to compile, 5 % slower to run)
OPT_LEVEL = os.environ.get("HUNTGATHER_COMPILE_OPT", "3")

ext_modules = []
if os.environ.get("HUNTGATHER_COMPILE", "") not in ("", "0"):
    from mypyc.build import mypycify

    if OPT_LEVEL not in ("0", "1", "2", "3"):
        raise SystemExit(f"HUNTGATHER_COMPILE_OPT must be 0, 1, 2 or 3, not {OPT_LEVEL!r}")
    ext_modules = mypycify([os.path.join("src", *m.split(".")) + ".py" for m in COMPILED_MODULES],
                           opt_level=OPT_LEVEL)

setup(ext_modules=ext_modules)
