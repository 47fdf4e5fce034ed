#!/usr/bin/env bash
# Set everything up on a fresh machine and run the whole test suite, linters included.
#   bash scripts/test.sh [pytest options]
# As root it also installs what the tests need from Debian (chromium for the browser tests,
# postgresql for the storage tests) and starts a throw-away PostgreSQL server on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test,web,ui-test,rl

# what to undo on exit, whatever happens (a throw-away database, the compiled modules)
on_exit_do=()
on_exit() { for action in "${on_exit_do[@]}"; do eval "$action" || true; done; }
trap on_exit EXIT

apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
is_root() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

# The browser tests drive Debian's chromium (Playwright's own browser download is not used).
if ! command -v chromium >/dev/null 2>&1 && is_root; then
  echo "== installing chromium"
  apt_install chromium
fi

# The page's characters must all be in an installed font (test_web_ui asks fontconfig).
if ! command -v fc-list >/dev/null 2>&1 && is_root; then
  echo "== installing fontconfig and the DejaVu fonts"
  apt_install fontconfig fonts-dejavu-core
fi

# The storage tests run against PostgreSQL too when HUNTGATHER_TEST_POSTGRES names a server.
if [ -z "${HUNTGATHER_TEST_POSTGRES:-}" ] && is_root; then
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "== installing postgresql"
    apt_install postgresql
  fi
  pgbin=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")
  pgdir=$(mktemp -d /tmp/huntgather-pg.XXXXXX)
  chown postgres "$pgdir"
  pgport=$(.venv/bin/python -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
  su postgres -c "$pgbin/initdb -D $pgdir/data -A trust -U postgres" >/dev/null
  su postgres -c "$pgbin/pg_ctl -D $pgdir/data -l $pgdir/log -w -o '-p $pgport -k $pgdir -c listen_addresses=127.0.0.1' start" >/dev/null
  on_exit_do+=('su postgres -c "$pgbin/pg_ctl -D $pgdir/data -m fast -w stop" >/dev/null 2>&1; rm -rf "$pgdir"')
  export HUNTGATHER_TEST_POSTGRES="postgresql://postgres@127.0.0.1:$pgport/postgres"
  echo "== PostgreSQL for the storage tests on 127.0.0.1:$pgport"
fi

echo "== ruff"
.venv/bin/ruff check src tests tools
echo "== mypy --strict"
.venv/bin/mypy
echo "== pytest"
bash scripts/compiled.sh clean   # the pure-Python build first (a compiled one left in place would hide it)
.venv/bin/python -m pytest -n 2 -q -rs "$@"

# The same suite again on the optional compiled build (mypyc; docs/performance.md), compiled in
# place and removed afterwards, whatever happens. Set HUNTGATHER_SKIP_COMPILED=1 to leave it out
# where no C compiler exists.
if [ -z "${HUNTGATHER_SKIP_COMPILED:-}" ]; then
  echo "== compiled build (mypyc)"
  on_exit_do+=('bash scripts/compiled.sh clean')
  bash scripts/compiled.sh build
  echo "== pytest on the compiled build"
  echo "   (the doctests of the compiled modules run on the pure build only: doctest cannot see"
  echo "    into compiled functions, so this run collects their 51 tests fewer)"
  # pytest imports each module it collects doctests from by its .py path: let it accept the
  # compiled module found under that name instead of complaining that the files differ
  PY_IGNORE_IMPORTMISMATCH=1 .venv/bin/python -m pytest -n 2 -q -rs -p no:cacheprovider "$@"
fi
