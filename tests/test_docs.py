"""The examples in the README and docs/ run and print what they say."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_examples_in_docs_run(path: Path) -> None:
    result = doctest.testfile(str(path), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} example(s) in {path.name} failed"
