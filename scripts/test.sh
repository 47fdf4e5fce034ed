#!/usr/bin/env bash
# Set everything up on a fresh machine and run the whole test suite, linters included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
echo "== ruff"
.venv/bin/ruff check src tests tools
echo "== mypy --strict"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest -n 2 -q "$@"
