"""The rules core is pure: standard library only, no I/O, no global random generator."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "huntgather"
CORE = ["kinds", "tiles", "board", "features", "state", "scoring", "specials", "moves", "events", "game",
        "record", "editions/__init__", "editions/e2020", "editions/e2002"]
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
