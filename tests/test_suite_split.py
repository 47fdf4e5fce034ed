"""scripts/test.sh runs the tests marked ``engine`` and ``lab`` on the compiled build only (the
pure suite deselects them): each of them must then be among the compiled suite's tests, or it
would run nowhere."""

from __future__ import annotations

import ast
import re
import shlex
from pathlib import Path

from _pytest.mark.expression import Expression

ROOT = Path(__file__).resolve().parents[1]
ONE_BUILD = ("engine", "lab")


def compiled_selection() -> tuple[set[str], str]:
    """The compiled suite's test files (and single tests, ``file::name``) and its ``-k``
    expression, read from scripts/test.sh."""
    script = (ROOT / "scripts" / "test.sh").read_text()
    files = re.search(r"^COMPILED_TESTS=\((.*?)^\)", script, re.M | re.S)
    assert files, "no COMPILED_TESTS=( ... ) in scripts/test.sh"
    parts = re.findall(r'^COMPILED_DESELECT\+?=(".*?")$', script, re.M)
    assert parts, "no COMPILED_DESELECT= in scripts/test.sh"
    return set(shlex.split(files.group(1), comments=True)), "".join(shlex.split(p)[0] for p in parts)


def marked_for_one_build() -> list[tuple[str, str]]:
    """(file, test function) of every test marked ``engine`` or ``lab``, by its own decorator or
    by its module's ``pytestmark``, read from the test files' syntax (a collection of the whole
    suite would cost seconds)."""
    def marks(node: ast.expr) -> set[str]:
        return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute) and n.attr in ONE_BUILD
                and isinstance(n.value, ast.Attribute) and n.value.attr == "mark"}

    found = []
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        text = path.read_text()
        if not any(f"mark.{m}" in text for m in ONE_BUILD):
            continue
        tree = ast.parse(text)
        whole = any(marks(node.value) for node in tree.body if isinstance(node, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_") and (
                    whole or any(marks(d) for d in node.decorator_list)):
                found.append((f"tests/{path.name}", node.name))
    return found


def test_every_test_run_on_one_build_only_is_in_the_compiled_suite() -> None:
    files, deselect = compiled_selection()
    keep = Expression.compile(deselect)
    marked = marked_for_one_build()
    assert len(marked) >= 40   # the markers are found: the engine checks alone are 39 functions
    missing = [f"{file}::{name}" for file, name in marked
               if (file not in files and f"{file}::{name}" not in files)
               or not keep.evaluate(lambda word, name=name: word in name)]
    assert not missing, f"marked for the compiled build only, but not in its suite: {missing}"


def test_the_check_above_sees_a_test_left_out() -> None:
    """The reading of scripts/test.sh: a file outside the list, and a name the ``-k`` expression
    deselects, are told apart from the tests it keeps."""
    files, deselect = compiled_selection()
    assert "tests/test_expert.py" in files and "tests/test_server.py" not in files
    keep = Expression.compile(deselect)
    assert not keep.evaluate(lambda word: word in "test_local_and_ray_runs_give_the_same_games")
    assert keep.evaluate(lambda word: word in "test_rounds_of_greedy_turns_are_turns_per_player")
