"""The rules core is pure: standard library only, no I/O, no global random generator; and layered:
each module imports only from the layers below its own (no cycle, nothing imported upward).  And the
players (``huntgather.bots``) import nothing of the experiment harness (``huntgather.lab``)."""

from __future__ import annotations

import ast
import graphlib
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "huntgather"
CORE = ["kinds", "phrases", "registry", "tiles", "board", "features", "state", "scoring", "specials", "moves",
        "events", "game", "record", "editions/__init__", "editions/base", "editions/e2020", "editions/e2002",
        "__init__"]
#: the rules core's layers, bottom to top (as docs/index.md, "Layers of the rules core", lists them): a
#: module may import only from modules of the layers below its own, at the top of the module, inside
#: a function or under ``if TYPE_CHECKING`` alike; a package's ``__init__`` sits above its modules
LAYERS = [
    ["kinds", "phrases"],
    ["registry", "features", "events", "moves"],
    ["tiles"],
    ["board"],
    ["scoring"],
    ["specials"],
    ["editions.base"],
    ["editions.e2002", "editions.e2020"],
    ["editions"],
    ["state"],
    ["game"],
    ["record"],
    [""],   # the package: huntgather/__init__.py
]
CORE_MODULES = {"huntgather"} | {"huntgather." + name.replace("/__init__", "").replace("/", ".")
                                 for name in CORE} | {"huntgather.data"}
#: module-level functions of `random` that use the hidden global generator
GLOBAL_RANDOM = {"random", "randint", "randrange", "choice", "choices", "shuffle", "sample",
                 "uniform", "seed", "getrandbits", "gauss"}


def _tree(name: str) -> ast.Module:
    return ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", CORE)
def test_core_imports_only_the_standard_library_and_the_core(name: str) -> None:
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module]
        else:
            continue
        for module in modules:
            top = module.split(".")[0]
            if top == "huntgather":
                assert module in CORE_MODULES, f"{name}.py imports {module}, which is not rules core"
            else:
                assert top in sys.stdlib_module_names, f"{name}.py imports third-party {module}"


@pytest.mark.parametrize("name", CORE)
def test_core_uses_no_global_random_generator_and_no_io(name: str) -> None:
    for node in ast.walk(_tree(name)):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "random"):
            assert node.attr not in GLOBAL_RANDOM, f"{name}.py calls random.{node.attr}()"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in ("print", "open", "input"), f"{name}.py calls {node.func.id}()"


def _dotted(name: str) -> str:
    """``"editions/__init__"`` -> ``"huntgather.editions"``; ``"__init__"`` -> ``"huntgather"``."""
    return ".".join(["huntgather", *name.replace("__init__", "").strip("/").split("/")]).rstrip(".")


def _core_imports(name: str) -> set[str]:
    """The core modules that module ``name`` imports anywhere in it (top level, functions,
    ``if TYPE_CHECKING``), each by its dotted name: ``from huntgather import registry`` imports
    ``huntgather.registry``, ``from huntgather.editions import get_edition`` the package."""
    found = set()
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{name}.py has a relative import"
            assert node.module is not None
            targets = [f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in CORE_MODULES
                       else node.module for alias in node.names]
        else:
            continue
        found |= {t for t in targets if t in CORE_MODULES and t != "huntgather.data"}
    return found


def _layer_of() -> dict[str, int]:
    return {("huntgather." + m).rstrip("."): i for i, layer in enumerate(LAYERS) for m in layer}


def test_every_core_module_has_a_layer() -> None:
    assert set(_layer_of()) == {_dotted(name) for name in CORE}


@pytest.mark.parametrize("name", CORE)
def test_core_modules_import_only_from_layers_below(name: str) -> None:
    layer = _layer_of()
    module = _dotted(name)
    upward = sorted(t for t in _core_imports(name) if layer[t] >= layer[module])
    assert upward == [], f"{module} imports {upward}, which are not below it (see LAYERS)"


def test_core_imports_have_no_cycle() -> None:
    graph = {_dotted(name): _core_imports(name) for name in CORE}
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        pytest.fail(f"the core's imports go round in a circle: {' -> '.join(error.args[1])}")


def test_the_layer_checks_see_imports_in_functions_and_under_type_checking(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks are not blind to the imports a cycle used to hide in: one inside a function, one
    under ``if TYPE_CHECKING``."""
    source = """
from typing import TYPE_CHECKING
from huntgather import registry
if TYPE_CHECKING:
    from huntgather.state import State
def f() -> None:
    from huntgather.specials import special_named
"""
    monkeypatch.setattr(sys.modules[__name__], "_tree", lambda name: ast.parse(source))
    assert _core_imports("tiles") == {"huntgather.registry", "huntgather.state", "huntgather.specials"}


def test_the_players_import_nothing_of_the_experiment_harness() -> None:
    """``huntgather.bots`` holds what plays (and what a player reads at runtime); the tournaments,
    the ladder's runner and the weights' fitting are ``huntgather.lab``'s, which the players never
    import, at the top of a module or inside a function."""
    for path in sorted((PACKAGE / "bots").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            assert not any(m == "huntgather.lab" or m.startswith("huntgather.lab.") for m in modules), \
                f"bots/{path.name} imports {modules}"
