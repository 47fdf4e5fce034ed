#!/usr/bin/env bash
# Set everything up (.venv with the web extra) and play in the browser.
# Usage: scripts/play.sh [huntgather play options]   e.g. scripts/play.sh --port 9000 --no-browser
set -euo pipefail
cd "$(dirname "$0")/.."
# As root, Debian's esbuild too (when missing): the server then sends the page's modules as one
# file, so a page loads with 7 requests instead of 41 (docs/play.md, "How the page is served");
# without it the page works as well, its modules fetched one by one
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && ! command -v esbuild >/dev/null 2>&1; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq esbuild) >/dev/null 2>&1 \
    || echo "(esbuild could not be installed: the page's modules will be fetched one by one)"
fi
bash scripts/setup.sh web
exec .venv/bin/huntgather play "$@"
