#!/usr/bin/env bash
# Set everything up (.venv with the web extra) and play in the browser.
# Usage: scripts/play.sh [huntgather play options]   e.g. scripts/play.sh --port 9000 --no-browser
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh web
exec .venv/bin/huntgather play "$@"
