#!/usr/bin/env bash
# Set everything up on a fresh machine and run the whole test suite, linters included.
#   bash scripts/test.sh [pytest options]
# As root it also installs what the tests need from Debian (chromium for the browser tests,
# nodejs for the page's module tests, postgresql for the storage tests) and starts a throw-away
# PostgreSQL server on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
# what to undo on exit, whatever happens (a throw-away database, the compiled modules)
on_exit_do=()
on_exit() { for action in "${on_exit_do[@]}"; do eval "$action" || true; done; }
trap on_exit EXIT

is_root() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

# What the tests need from Debian, when missing (as root): chromium for the browser tests (Playwright's
# own browser download is not used); nodejs (Debian's Node 18 will do) for tests/test_js.py, which
# runs the page's modules under Node (node --test tests/js); esbuild, with which the servers send the
# page's modules as one file, as `huntgather play` does where it is installed (the browser tests'
# pages load with 7 requests instead of 41: a sixth less CPU a page); fontconfig and the DejaVu fonts, since
# the page's characters must all be in an installed font (test_web_ui asks fontconfig); postgresql
# for the storage tests, unless HUNTGATHER_TEST_POSTGRES names a server.  One apt-get transaction,
# in the background while .venv is set up (the two take about as long; the suite waits for both).
debian=()
if is_root; then
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || debian+=(chromium)
  command -v node >/dev/null 2>&1 || debian+=(nodejs)
  command -v esbuild >/dev/null 2>&1 || debian+=(esbuild)
  command -v fc-list >/dev/null 2>&1 || debian+=(fontconfig fonts-dejavu-core)
  if [ -z "${HUNTGATHER_TEST_POSTGRES:-}" ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    debian+=(postgresql)
  fi
fi
apt_pid=""
if [ ${#debian[@]} -gt 0 ]; then
  echo "== installing from Debian, beside the setup: ${debian[*]}"
  apt_log=$(mktemp /tmp/huntgather-apt.XXXXXX)
  on_exit_do+=('rm -f "$apt_log"')
  # without the packages they only recommend: chromium alone would bring 107 packages instead of 19
  # (printing, avahi, Samba's libraries, Perl's web modules), 12 s of installing instead of 6.5
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
     "${debian[@]}") \
    >"$apt_log" 2>&1 &
  apt_pid=$!
fi
# Python writes the bytecode of what it imports into the checkout's __pycache__ folders (ignored by
# git) even where the environment says not to: some 150 server processes, their bot workers and the
# command-line tests' processes start during the suite, and each would otherwise compile huntgather
# and the tests from source again (a quarter of a second of CPU for the server's modules alone).
unset PYTHONDONTWRITEBYTECODE
# NumPy's OpenBLAS starts a thread per core for every matrix product big enough (the baseline
# network's layers are): with four test processes on two cores those threads spin against each
# other (a decision of the baseline bot took 65 ms instead of 3.5 on a loaded 2-core machine).
# One thread each.
export OPENBLAS_NUM_THREADS=1

# The compiled build's chain runs beside everything else from here on, and its output is shown,
# and its exit status checked, once the pure suite is done: the build first (compiled into the
# cache; about a minute of one core), then, once the first collection below is done, its tests.
# It is the longest chain of the run, so it starts first, in the middle of the setup (below).
# Built at the C compiler's -O1, not the -O3 of a build for use (setup.py): the same C code from
# mypyc, a quarter less CPU to compile, 5 % slower to run.
side=$(mktemp -d /tmp/huntgather-side.XXXXXX)
on_exit_do+=('kill $(jobs -p) 2>/dev/null; rm -rf "$side"')
export HUNTGATHER_COMPILE_OPT=${HUNTGATHER_COMPILE_OPT:-1}

# The tests that can tell the builds apart, again on the optional compiled build (mypyc;
# docs/performance.md): the rules, records, positions, the digest of 1,000 games, state identity
# (with a state sent to a spawned process), the bots, their search and the RL encoding's reading of
# the state.  The server, the page, the tools and the docs run on the pure build only: they call
# the same compiled functions that these tests check.  Compiled into a copy of the checkout's files
# (or taken from the cache of builds, keyed by a hash of every source it is built from), where these
# tests run with that copy first on the import path, so the checkout itself stays pure for the
# suite running meanwhile.  Set HUNTGATHER_SKIP_COMPILED=1 to leave it out where no C compiler
# exists.
COMPILED_TESTS=(
  tests/test_rulebook_2020.py tests/test_rulebook_2002.py tests/test_rule_edges.py
  tests/test_specials.py tests/test_editions.py tests/test_tiles.py tests/test_reference.py
  tests/test_moves.py tests/test_record.py tests/test_positions.py tests/test_properties.py
  tests/test_game_digest.py tests/test_state_identity.py tests/test_outlook.py
  tests/test_bots.py tests/test_search_pins.py tests/test_expert.py tests/test_tuned.py tests/test_rl.py
  tests/test_rl_vector.py
  # and of other files, the tests marked engine or lab only (the rest run on the pure build)
  tests/test_ladder.py::test_every_pair_plays_the_same_deals_from_both_seats
  tests/test_ladder.py::test_a_ladder_resumes_and_a_pair_log_is_an_ordinary_log_of_a_tournament
  tests/test_rl_baseline.py::test_it_beats_the_random_player_on_mirrored_deals
)
# not the tests of documents, logs and tools among them (they read files and run scripts), nor the
# RL test that compares Ray with local runs: they run on the pure build
COMPILED_DESELECT="not local_and_ray_runs and not documented"
COMPILED_DESELECT+=" and not scale_tool and not interval_tool and not tournament_log"
COMPILED_DESELECT+=" and not no_module_outside_the_specials"   # reads the modules' source text
compiled_suite() {
  local tree="$side/compiled-tree"
  mkdir -p "$tree"
  # the checkout's files (tracked, and new ones git does not ignore), without any build output
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$tree"
    # with the tests' bytecode, assertions rewritten, that the first collection wrote (valid there:
    # the copies keep their sources' times and sizes); the build's own modules are compiled anew
    find tests -name __pycache__ -type d -print0 | tar --null -T - -cf - | tar -xf - -C "$tree"
  else
    tar --exclude=./.venv --exclude=./.git --exclude='*.so' --exclude=./build -cf - . | tar -xf - -C "$tree"
  fi
  ln -s "$PWD/.venv" "$tree/.venv"
  # the rulebooks' reference facts beside the checkout, where some tests look for them
  if [ -d ../shared ]; then ln -s "$(cd ../shared && pwd)" "$side/shared"; fi
  cd "$tree"
  export PYTHONPATH="$tree/src"   # before the editable install's path to the checkout
  bash scripts/compiled.sh build   # (taken from the cache that "prepare" filled)
  echo "== pytest on the compiled build (${#COMPILED_TESTS[@]} test files and tests)"
  # two test processes: once the pure suite is done, this one is all that runs, on two cores
  .venv/bin/python -m pytest -n 2 --dist loadgroup -q -rs -p no:cacheprovider --durations=5 -k "$COMPILED_DESELECT" \
    "${COMPILED_TESTS[@]}" "$@"
}
compiled_chain() {
  bash scripts/compiled.sh prepare
  until [ -e "$side/collected" ]; do sleep 0.5; done
  compiled_suite "$@"
}
# .venv: what the compiled build needs first (mypy, setuptools, and NumPy's and Gymnasium's types;
# a few seconds), so that the build runs on the second core while pip installs the rest on the
# first (half a minute, on one core)
if [ -z "${HUNTGATHER_SKIP_COMPILED:-}" ]; then
  mapfile -t build_needs < <(bash scripts/compiled.sh needs)
  bash scripts/setup.sh --only "${build_needs[@]}"
  (compiled_chain "$@") >"$side/compiled" 2>&1 &
  compiled_pid=$!
fi
bash scripts/setup.sh test,web,ui-test,rl

# One collection of the suite first, beside the steps below (Debian's packages, PostgreSQL, the
# linters): it writes the bytecode of the tests (their assertions rewritten by pytest: 12 s of CPU
# for the whole suite) and of the modules they import, which every test process then reads
# (collecting costs each of them 4 s instead of 12; five of them start at once below, and each
# would otherwise rewrite every test module itself).
collected=$(mktemp /tmp/huntgather-collect.XXXXXX)
on_exit_do+=('rm -f "$collected"')
.venv/bin/python -m pytest --collect-only -q -p no:cacheprovider >"$collected" 2>&1 &
collect_pid=$!
if [ -n "$apt_pid" ]; then
  if ! wait "$apt_pid"; then
    cat "$apt_log"
    echo "installing ${debian[*]} from Debian failed" >&2
    exit 1
  fi
fi

# The storage tests run against PostgreSQL too when HUNTGATHER_TEST_POSTGRES names a server.
if [ -z "${HUNTGATHER_TEST_POSTGRES:-}" ] && is_root; then
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
.venv/bin/ruff check src tests tools examples scripts setup.py
echo "== js lint"
# the page's modules and their tests: oxlint (from PyPI, the `test` extra; rules in .oxlintrc.json)
.venv/bin/oxlint --deny-warnings src/huntgather/web tests/js
# mypy runs beside the pure suite; its output is shown, and its exit status checked, once the
# suite is done.  Its cache lives outside the checkout, so that a fresh clone on this machine reuses
# it (mypy checks every cached module against its source's hash: a changed file is checked again)
.venv/bin/mypy --cache-dir "${XDG_CACHE_HOME:-$HOME/.cache}/huntgather-mypy" >"$side/mypy" 2>&1 &
mypy_pid=$!

# (the collection started above has written the tests' bytecode that the test processes read; the
# compiled build's tests, waiting for it, start now)
if ! wait "$collect_pid"; then cat "$collected"; exit 1; fi
touch "$side/collected"

echo "== pytest"
bash scripts/compiled.sh clean   # the pure-Python build first (a compiled one left in place would hide it)
# --dist loadgroup: the tests that share the corpus of random games (xdist_group "corpus") run in
# one worker, which plays those games once (tests/conftest.py).  Four test processes on two cores:
# the browser tests spend much of their time waiting (animations, timers, bots), so a fourth
# fills the cores better (a browser half of the suite under the same load: 306 s against 323 s).
# The tests marked `engine` (the CPU-heavy checks of the engine and the bots: properties over many
# random games, the naive reference board, the searches) and `lab` (the experiment harness: tuning,
# training, variant tools; see pyproject.toml) run on the compiled build only, beside, where they
# take less than half the time; without it, here.  The pins of the games (test_game_digest) and of
# the bots' moves (test_search_pins) run on both builds; tests/test_suite_split.py checks that
# every test marked so is in the compiled suite's selection above.
one_build=()
if [ -z "${HUNTGATHER_SKIP_COMPILED:-}" ]; then
  one_build=(-m "not lab and not engine")
  echo "(the tests marked engine or lab run on the compiled build, below)"
fi
.venv/bin/python -m pytest -n 4 --dist loadgroup -q -rs --durations=15 "${one_build[@]}" "$@"

echo "== mypy --strict"
mypy_status=0
wait "$mypy_pid" || mypy_status=$?
cat "$side/mypy"
[ "$mypy_status" = 0 ] || exit "$mypy_status"

if [ -z "${HUNTGATHER_SKIP_COMPILED:-}" ]; then
  echo "== compiled build (mypyc) and its tests"
  compiled_status=0
  wait "$compiled_pid" || compiled_status=$?
  cat "$side/compiled"
  [ "$compiled_status" = 0 ] || exit "$compiled_status"
fi
