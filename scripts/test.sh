#!/usr/bin/env bash
# Set everything up on a fresh machine and run the whole test suite, linters included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test,web,ui-test
# The browser tests drive Debian's chromium (Playwright's own browser download is not used).
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
echo "== ruff"
.venv/bin/ruff check src tests tools
echo "== mypy --strict"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest -n 2 -q "$@"
