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


def _anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown text (outside code blocks)."""
    import re

    found: set[str] = set()
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"#{1,6} (.+)", line)):
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            n = 0
            while (slug if n == 0 else f"{slug}-{n}") in found:
                n += 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


@pytest.mark.parametrize("path", [*DOCS, REPO / "docs" / "results" / "NOTES.md"], ids=lambda p: p.name)
def test_links_between_docs_lead_somewhere(path: Path) -> None:
    """Every relative link of a page names a file that exists and, with #anchor, a heading of it."""
    import re

    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists() or (anchor and linked.suffix == ".md"
                                   and anchor not in _anchors(linked.read_text(encoding="utf-8"))):
            broken.append(target)
    assert not broken, f"{path.name}: {broken}"
