#!/usr/bin/env bash
# The optional compiled build (mypyc), in place: compiled modules next to their sources in src/.
#   bash scripts/compiled.sh build   # compile the rules core; .venv then imports the compiled modules
#   bash scripts/compiled.sh clean   # remove every compiled module: back to the pure-Python build
#   bash scripts/compiled.sh status  # which modules are compiled
# Needs .venv with mypy (huntgather[test]), a C compiler and the Python headers. The build outputs
# (*.so, build/) are ignored by git. See docs/performance.md, "The compiled build".
set -euo pipefail
cd "$(dirname "$0")/.."
python=.venv/bin/python
case "${1:-}" in
  build)
    # setup.py is read by setuptools itself here, and pyproject's license field needs setuptools >= 77
    "$python" -m pip install --quiet "setuptools>=77" >/dev/null
    HUNTGATHER_COMPILE=1 "$python" setup.py --quiet build_ext --inplace >/dev/null
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
    echo "usage: bash scripts/compiled.sh build|clean|status" >&2
    exit 2
    ;;
esac
