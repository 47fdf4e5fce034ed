"""Issue 36: the searches' regression pin.  Every level (and the specs and configurations beside
them) searches fixed positions exactly as the searches did when tests/data/search_pins.json was
captured (tools/search_pins.py, before the two searches were built on one core): the same
moves, the same values and visits of every move and of every plan searched."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from huntgather.record import write_position

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("search_pins", ROOT / "tools" / "search_pins.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _tool()
PINS: dict[str, Any] = json.loads((ROOT / "tests" / "data" / "search_pins.json").read_text())
KEYS = ("position", "bot", "seed", "budget", "width")


def test_the_pin_covers_every_level_both_editions_and_two_and_four_player_experts() -> None:
    cases = PINS["cases"]
    assert PINS["format"] == TOOL.FORMAT
    for bot in ("greedy", "mcts:easy", "mcts:medium", "mcts:hard", "expert"):
        assert {c["position"][:4] for c in cases if c["bot"] == bot} == {"2020", "2002"}
        # each level once at its own budget at least
        assert any(c["budget"] is None and c["width"] is None for c in cases if c["bot"] == bot), bot
    assert {c["position"].split("-")[1] for c in cases if c["bot"] == "expert"} == {"p2", "p4"}
    assert {c["position"].split("-")[2] for c in cases} == {"place", "occupy", "shaman"}


@pytest.mark.parametrize("name", sorted(PINS["positions"]))
def test_a_stored_position_is_read_back_exactly(name: str) -> None:
    # (a bot's random numbers are seeded by the position's text: a position read back differently
    # would search differently)
    text = PINS["positions"][name]
    assert write_position(TOOL.load_state(text)) == text


@pytest.mark.parametrize("case", PINS["cases"], ids=lambda c: "-".join(str(c[k]) for k in KEYS))
def test_a_search_logs_today_what_it_logged_when_pinned(case: dict[str, Any]) -> None:
    got = TOOL.run_case({k: case[k] for k in KEYS}, TOOL.load_state(PINS["positions"][case["position"]]))
    assert got == {k: case[k] for k in got}


def test_a_search_bot_plays_the_first_move_its_search_reports() -> None:
    # (the pin logs searches; a decision is the first move of its search's report)
    for case in PINS["cases"][:6]:
        bot = TOOL.make_case_bot(case)
        assert str(bot.choose(TOOL.load_state(PINS["positions"][case["position"]]))) == case["chosen"]
