#!/usr/bin/env bash
# The optional compiled build (mypyc), in place: compiled modules next to their sources in src/.
#   bash scripts/compiled.sh build   # compile the rules core; .venv then imports the compiled modules
#   bash scripts/compiled.sh prepare # compile it into the cache only (the checkout stays pure)
#   bash scripts/compiled.sh clean   # remove every compiled module: back to the pure-Python build
#   bash scripts/compiled.sh status  # which modules are compiled
#   bash scripts/compiled.sh needs   # what a build needs installed, as pyproject.toml asks for it
# Needs .venv with mypy (huntgather[test]), a C compiler and the Python headers. The build outputs
# (*.so, build/) are ignored by git; builds are cached outside the checkout (see "build" below).
# See docs/performance.md, "The compiled build".
set -euo pipefail
cd "$(dirname "$0")/.."
python=.venv/bin/python
# setup.py is read by setuptools itself, and pyproject's license field needs a recent one (the one
# pyproject.toml's build-system asks for): installed when the one in .venv is older
ensure_setuptools() {
  "$python" -c "import setuptools, sys; sys.exit(int(setuptools.__version__.split('.')[0]) < 77)" 2>/dev/null ||
    "$python" -m pip install --quiet "setuptools>=77" >/dev/null
}
# compile the modules in place in the tree at $1; mypyc's output is shown only when it fails (its
# type errors go to standard output, which a build that succeeds need not show)
compile_in() {
  local log
  log=$(mktemp /tmp/huntgather-compile-log.XXXXXX)
  if ! (cd "$1" && HUNTGATHER_COMPILE=1 "$here/$python" setup.py --quiet build_ext --inplace >"$log" 2>&1); then
    echo "the compiled build failed; the end of mypyc's and the compiler's output:" >&2
    grep -v '^[[:space:]]*$' "$log" | tail -n 40 >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}
case "${1:-}" in
  needs)
    # mypy (mypyc), setuptools, and NumPy's and Gymnasium's types (the RL modules, which the compiled
    # modules' imports reach, use them): the requirements as pyproject.toml writes them, one per line
    "${PYTHON:-python3}" - <<'PY'
import re
import tomllib

with open("pyproject.toml", "rb") as f:
    project = tomllib.load(f)
wanted = {"mypy", "numpy", "gymnasium"}
requirements = [r for extra in project["project"]["optional-dependencies"].values() for r in extra
                if re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() in wanted]
requirements += [r for r in project["build-system"]["requires"] if r.startswith("setuptools")]
assert len(requirements) == 4, requirements
print(*dict.fromkeys(requirements), sep="\n")
PY
    ;;
  prepare|build)
    # A build is kept in a cache keyed by a hash of everything it is made from
    # (scripts/compiled_key.py): any change to a source, to setup.py or pyproject.toml, or to the
    # versions of Python, mypy or the C compiler misses and builds afresh.  "prepare" puts the
    # build in the cache (compiled in a copy of the tree, so the checkout stays pure meanwhile:
    # scripts/test.sh prepares while the pure suite runs); "build" then copies the compiled
    # modules into place.  HUNTGATHER_COMPILED_CACHE names the cache's folder ("" builds in place
    # every time).
    cache_root=${HUNTGATHER_COMPILED_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/huntgather-compiled}
    key=$("$python" scripts/compiled_key.py)
    here=$PWD
    if [ -z "$cache_root" ]; then
      [ "$1" = prepare ] && exit 0   # nothing to prepare without a cache: "build" compiles in place
      ensure_setuptools
      compile_in "$PWD" || exit 1
    else
      if [ -f "$cache_root/$key/complete" ]; then
        echo "compiled build taken from the cache ($cache_root/$key)"
      else
        ensure_setuptools
        work=$(mktemp -d /tmp/huntgather-compile.XXXXXX)
        cp -r src setup.py pyproject.toml README.md LICENSE "$work"/
        find "$work/src" -name '*.so' -delete
        compile_in "$work" || { rm -rf "$work"; exit 1; }
        rm -rf "$cache_root/$key.tmp" && mkdir -p "$cache_root/$key.tmp"
        (cd "$work" && find src -name '*.so' -exec cp --parents {} "$cache_root/$key.tmp" \;)
        rm -rf "$work"
        touch "$cache_root/$key.tmp/complete"
        rm -rf "${cache_root:?}/$key" && mv "$cache_root/$key.tmp" "$cache_root/$key"
        # keep the five newest builds
        ls -1dt "$cache_root"/*/ 2>/dev/null | tail -n +6 | xargs -r rm -rf
        echo "compiled build made and cached ($cache_root/$key)"
      fi
      [ "$1" = prepare ] && exit 0
      (cd "$cache_root/$key" && find src -name '*.so' -exec cp --parents {} "$here" \;)
    fi
    "$python" -c "from huntgather.bench import build, compiled_modules
assert build() == 'compiled', 'the compiled modules are not the ones imported'
print('compiled:', ' '.join(compiled_modules()))"
    ;;
  clean)
    find src -name '*.so' -delete
    rm -rf build
    ;;
  status)
    "$python" -c "from huntgather.bench import build, compiled_modules; print(build(), *compiled_modules())"
    ;;
  *)
    echo "usage: bash scripts/compiled.sh build|prepare|clean|status|needs" >&2
    exit 2
    ;;
esac
