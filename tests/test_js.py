"""The page's pure modules (the reducer and store, the selectors, the secrets kept in the
browser, the words and formats) tested without a browser: ``node --test`` runs tests/js/*.test.mjs
(node:test and node:assert only, so that Debian's Node 18 runs them as well as a newer one).

Node is required, not optional: ``scripts/test.sh`` installs Debian's ``nodejs`` where it is missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
JS_TESTS = sorted((REPO / "tests" / "js").glob("*.test.mjs"))


def test_the_page_modules_pass_their_node_tests() -> None:
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "Node.js is needed for tests/js (scripts/test.sh installs Debian's nodejs as root)"
    assert JS_TESTS, "no tests/js/*.test.mjs found"
    # the files named one by one: how a directory argument is read differs between Node versions
    result = subprocess.run([node, "--test", *map(str, JS_TESTS)], cwd=REPO, capture_output=True,
                            text=True, timeout=120)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    passed = re.search(r"^# pass (\d+)$", out, re.MULTILINE)
    failed = re.search(r"^# fail (\d+)$", out, re.MULTILINE)
    assert passed and failed, out
    assert int(failed.group(1)) == 0, out
    assert int(passed.group(1)) >= 3 * len(JS_TESTS), out   # every file ran its tests, not nothing
