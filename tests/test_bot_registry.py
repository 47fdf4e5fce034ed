"""Issue 36: a bot level is one registration (huntgather.bots.registry), read by the command line,
the server (seats, worker lanes, safety nets, the page's level list) and the ladder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from huntgather import Game
from huntgather.bots import Limits, MctsBot, make_bot, spec_names
from huntgather.bots.registry import BotSpec, get_spec, ladder_specs, offered_levels, register, unregister
from huntgather.cli import main
from huntgather.server import workers
from huntgather.server.seats import GameSetup, RequestError

MADE_UP = "patient"


def _patient(seed: int | None) -> MctsBot:
    return MctsBot(Limits(simulations=3), seed, name=MADE_UP)


@pytest.fixture
def made_up_level() -> Iterator[BotSpec]:
    spec = register(BotSpec(MADE_UP, _patient, "a made-up level that thinks three times",
                            lane="heavy", safety_seconds=5.0, ladder=True))
    try:
        yield spec
    finally:
        unregister(MADE_UP)


def test_a_registered_level_is_offered_by_the_command_line(made_up_level: BotSpec,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert MADE_UP in spec_names()
    bot = make_bot(" Patient ", seed=1)
    assert isinstance(bot, MctsBot) and bot.name == MADE_UP and bot.limits.simulations == 3
    with pytest.raises(ValueError, match=f"expert:plain, baseline, {MADE_UP}, or mcts:N"):   # the specs told
        make_bot("clever")
    assert main(["tournament", "--help"]) == 0
    assert f"expert:plain, baseline, {MADE_UP}, mcts:N" in " ".join(capsys.readouterr().out.split())


def test_a_registered_level_is_offered_by_the_server(made_up_level: BotSpec) -> None:
    from starlette.testclient import TestClient

    from huntgather.server import create_app
    assert MADE_UP in offered_levels()
    setup = GameSetup.from_json({"seats": [{"kind": "human"}, {"kind": "bot", "level": MADE_UP}]})
    assert setup.seats[1].level == MADE_UP
    assert workers.Workers.lane_of(MADE_UP) == "heavy"
    bot = workers.server_bot(MADE_UP, 2)
    assert isinstance(bot, MctsBot) and bot.limits == Limits(simulations=3, seconds=5.0)
    game = Game(2, seed=4)
    assert workers.choose_move(MADE_UP, 2, game.state) in game.legal_moves()
    # the page's level picker (newgame.js) lists what /api/editions says, with the level's words
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as client:
        meta = client.get("/api/editions").json()
    assert meta["bot_levels"][-1] == MADE_UP
    assert meta["bot_level_text"][MADE_UP] == "a made-up level that thinks three times"


def test_a_registered_level_is_on_the_ladder(made_up_level: BotSpec,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert ladder_specs()[-1] == MADE_UP
    assert main(["ladder", "--help"]) == 0
    assert f"master,{MADE_UP}" in "".join(capsys.readouterr().out.split())


def test_a_level_removed_is_offered_nowhere() -> None:
    spec = register(BotSpec(MADE_UP, _patient, "for a moment", lane="light", ladder=True))
    assert unregister(MADE_UP) is spec and get_spec(MADE_UP) is None
    assert MADE_UP not in spec_names() + offered_levels() + ladder_specs()
    with pytest.raises(RequestError, match="unknown bot level"):
        GameSetup.from_json({"seats": [{"kind": "human"}, {"kind": "bot", "level": MADE_UP}]})
    assert workers.Workers.lane_of(MADE_UP) == "heavy"   # (an unknown level's search is not quick)


def test_a_registration_is_checked() -> None:
    with pytest.raises(ValueError, match="registered already"):
        register(BotSpec("greedy", _patient, "a second greedy"))
    with pytest.raises(ValueError, match="lower case"):
        BotSpec("Patient", _patient, "a capital")
    with pytest.raises(ValueError, match="unknown lane"):
        BotSpec(MADE_UP, _patient, "no such lane", lane="fast")   # type: ignore[arg-type]
    with pytest.raises(ValueError, match="for a bot the server offers"):
        BotSpec(MADE_UP, _patient, "a net without a lane", safety_seconds=3.0)
    assert get_spec("greedy") is not None and get_spec("greedy").factory is not _patient   # type: ignore[union-attr]
