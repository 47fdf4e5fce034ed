"""Logged searches of every bot level from fixed positions: the regression pin of the searches.

    python tools/search_pins.py capture     # (re)write tests/data/search_pins.json
    python tools/search_pins.py check       # compare today's searches with that file

The positions are decisions of seeded random games (2020 and 2002, two and four players: a
placement, an occupant and, where one came up, a shaman decision), stored as position text so
that the pin does not depend on how they were found.  Each case is a bot (a spec of
:func:`huntgather.bots.make_bot`, or one of :data:`VARIANTS`: configurations no spec names), a
seed, and a budget: ``None`` for the level's own, or a smaller number of simulations (the
search's code is the same, only cheaper).  For a search bot the log holds what
:meth:`~huntgather.bots.mcts.SearchBot.search` reports: the simulations, every first move and
every plan with its value and visits; for the others, the move :meth:`choose` gives.

tests/test_search_pins.py replays every case and asks for exactly the same log: a change to the
searches that keeps their moves keeps this file.  Capture it again only where a change is meant
to change the searches, and say so.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from huntgather import Game, State
from huntgather.bots import Limits, make_bot
from huntgather.bots.base import Bot
from huntgather.bots.expert import ExpertBot
from huntgather.bots.heuristic import DEFAULT
from huntgather.bots.learned import LinearEval
from huntgather.bots.mcts import MctsBot, SearchBot
from huntgather.bots.tuned import weights_for
from huntgather.record import load_position, write_position

PINS = Path(__file__).resolve().parents[1] / "tests" / "data" / "search_pins.json"
FORMAT = "huntgather-search-pins"

#: (edition, players, seed of the random game the positions come from, the decisions wanted)
GAMES = (("2020", 2, 11, ("place", "occupy")), ("2020", 4, 12, ("place", "occupy")),
         ("2002", 2, 13, ("place", "occupy")), ("2002", 4, 14, ("place", "occupy")),
         ("2020", 2, 17, ("shaman",)))

#: configurations of the searches that no spec names, by a name of their own
VARIANTS: dict[str, Callable[[int], Bot]] = {
    "mcts+linear": lambda seed: MctsBot(Limits(simulations=8), seed, name="mcts",
                                        evaluate=LinearEval.shipped()),
    "expert+linear": lambda seed: ExpertBot(Limits(simulations=8), seed, name="expert", width=4,
                                            evaluate=LinearEval.shipped()),
    "expert+others": lambda seed: ExpertBot(Limits(simulations=8), seed, name="expert", width=4,
                                            weights=weights_for, meetings=True, others=DEFAULT),
}


def find_positions() -> dict[str, str]:
    """The positions of the pin, by name ``EDITION-pPLAYERS-PHASE``: from each of :data:`GAMES`,
    the first decision of each kind wanted with more than one legal move (a placement or an
    occupant after 20 random moves, a shaman's take-back whenever one comes)."""
    out: dict[str, str] = {}
    for edition, players, seed, phases in GAMES:
        game = Game(players, edition=edition, seed=seed)
        rng = random.Random(seed)
        played = 0
        wanted = set(phases)
        while not game.state.is_over and wanted:
            state = game.state
            if (played >= 20 or state.phase == "shaman") and not state.is_chance \
                    and state.phase in wanted and len(state.legal_moves()) > 1:
                wanted.discard(state.phase)
                out[f"{edition}-p{players}-{state.phase}"] = write_position(state)
            game.play(state.random_move(rng), trusted=True)
            played += 1
    return out


def cases(positions: dict[str, str]) -> list[dict[str, Any]]:
    """The cases: every level at every position with a small budget, the levels' own budgets at a
    few positions (each under about a second), and the other specs and the variants at a few."""
    out: list[dict[str, Any]] = []

    def add(position: str, bot: str, budget: int | None = None, width: int | None = None) -> None:
        if position in positions:
            out.append({"position": position, "bot": bot, "seed": 7, "budget": budget,
                        "width": width})

    for position in positions:
        four = "-p4-" in position
        add(position, "greedy")
        add(position, "mcts:easy", 6 if four else None)
        add(position, "mcts:medium", 8)
        add(position, "mcts:hard", 6)
        # (the expert's first round gives every plan of its field a sample whatever the budget)
        add(position, "expert", 16, 4 if four else None)
    # the levels' own budgets
    add("2020-p2-place", "mcts:medium")
    add("2002-p4-occupy", "mcts:hard")
    add("2002-p2-place", "expert")
    # specs and configurations beside the levels
    for position in ("2002-p4-place", "2020-p4-occupy"):
        add(position, "greedy:tuned")
        add(position, "mcts:8:3")
        for spec in ("expert:paranoid", "expert:margin", "expert:plain"):
            add(position, spec, 8, 4)
        for name in VARIANTS:
            add(position, name)
    return out


def make_case_bot(case: dict[str, Any]) -> Bot:
    """The bot of a case, with the case's budget where it has one."""
    name, seed = case["bot"], case["seed"]
    bot = VARIANTS[name](seed) if name in VARIANTS else make_bot(name, seed=seed)
    if case["budget"] is not None:
        assert isinstance(bot, SearchBot)
        bot.limits = Limits(simulations=case["budget"])
    if case["width"] is not None:
        assert isinstance(bot, ExpertBot)
        bot.width = case["width"]
    return bot


def run_case(case: dict[str, Any], state: State) -> dict[str, Any]:
    """What the case's bot does at ``state``: its move, and a search bot's whole report."""
    bot = make_case_bot(case)
    if not isinstance(bot, SearchBot):
        return {"chosen": str(bot.choose(state))}
    result = bot.search(state)
    return {"chosen": str(result.moves[0][0]), "simulations": result.simulations,
            "moves": [[str(m), v, n] for m, v, n in result.moves],
            # (the plans searched; those never visited keep their heuristic order, which the
            # moves' order shows)
            "plans": [[" ".join(str(m) for m in plan), v, n] for plan, v, n in result.plans if n],
            "plan_count": len(result.plans)}


def load_state(text: str) -> State:
    return load_position(text)


def capture() -> dict[str, Any]:
    positions = find_positions()
    logged = []
    for case in cases(positions):
        logged.append({**case, **run_case(case, load_state(positions[case["position"]]))})
    return {"format": FORMAT, "version": 1, "positions": positions, "cases": logged}


def check(document: dict[str, Any]) -> list[str]:
    """The cases of ``document`` whose search differs today (empty: all the same)."""
    positions = document["positions"]
    wrong = []
    for case in document["cases"]:
        keys = ("position", "bot", "seed", "budget", "width")
        got = run_case({k: case[k] for k in keys}, load_state(positions[case["position"]]))
        if any(case[k] != got[k] for k in got):
            wrong.append(" ".join(str(case[k]) for k in keys))
    return wrong


def dump(document: dict[str, Any]) -> str:
    """The pin's text: a line a position and a line a case (readable in a diff)."""
    lines = ["{" + f'"format": {json.dumps(FORMAT)}, "version": 1,', '"positions": {']
    lines += [f"{json.dumps(k)}: {json.dumps(v)}," for k, v in document["positions"].items()]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["},", '"cases": [']
    lines += [json.dumps(case) + "," for case in document["cases"]]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["]}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if argv == ["capture"]:
        document = capture()
        PINS.write_text(dump(document))
        print(f"{len(document['cases'])} cases at {len(document['positions'])} positions: {PINS}")
        return 0
    if argv == ["check"]:
        wrong = check(json.loads(PINS.read_text()))
        print("\n".join(wrong) if wrong else "all the same")
        return 1 if wrong else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
