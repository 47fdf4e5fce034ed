#!/usr/bin/env bash
# Create .venv (if missing) and install huntgather with the given extras.
# Usage: scripts/setup.sh [EXTRAS]   e.g. scripts/setup.sh test,web
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
# --no-compile: pip would byte-compile every module of every package (Ray's alone are thousands)
# at install, a third of the setup's time; Python compiles the ones a program imports, once, when
# it first imports them
if [ -n "$extras" ]; then
  .venv/bin/python -m pip install --quiet --no-compile -e ".[${extras}]"
else
  .venv/bin/python -m pip install --quiet --no-compile -e .
fi
