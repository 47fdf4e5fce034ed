"""Print the key of the compiled build's cache (scripts/compiled.sh): a hash of everything a build
is made from.  Every source file of the package counts (mypyc reads the types of the modules that
the compiled ones import), and setup.py, pyproject.toml and the versions of Python, mypy and the
C compiler, and the optimisation level asked for (``HUNTGATHER_COMPILE_OPT``, setup.py)."""

import hashlib
import os
import pathlib
import subprocess
import sys

import mypy.version

h = hashlib.sha256()
opt_level = os.environ.get("HUNTGATHER_COMPILE_OPT", "3")
h.update(f"{sys.version}|{mypy.version.__version__}|{opt_level}|".encode())
h.update(subprocess.run(["cc", "--version"], capture_output=True, text=True).stdout.encode())
sources = sorted(pathlib.Path("src").rglob("*.py"))
for path in [*sources, pathlib.Path("setup.py"), pathlib.Path("pyproject.toml")]:
    h.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
print(h.hexdigest()[:24])
