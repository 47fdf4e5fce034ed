#!/usr/bin/env bash
# Create .venv (if missing) and install huntgather with the given extras.
# Usage: scripts/setup.sh [EXTRAS]                 e.g. scripts/setup.sh test,web
#        scripts/setup.sh --only REQUIREMENT...    these requirements only, not huntgather
#                                                  (scripts/test.sh: what the compiled build needs, first)
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
fi
# --no-compile: pip would byte-compile every module of every package (Ray's alone are thousands)
# at install, a third of the setup's time; Python compiles the ones a program imports, once, when
# it first imports them
if [ "${1:-}" = --only ]; then
  shift
  .venv/bin/python -m pip install --quiet --no-compile "$@"
elif [ -n "${1:-}" ]; then
  .venv/bin/python -m pip install --quiet --no-compile -e ".[$1]"
else
  .venv/bin/python -m pip install --quiet --no-compile -e .
fi
