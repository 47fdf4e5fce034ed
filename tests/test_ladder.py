"""The ladder (``huntgather ladder``): a round-robin of the levels, a resumable log per pair, one Elo fit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from huntgather.bots.ladder import ladder_levels, shipped_ladder
from huntgather.cli import main as cli_main
from huntgather.lab.ladder import ladder_file, ladder_rows, pair_file, read_ladder, run_ladder
from huntgather.lab.tournament import GameResult, run_tournament
from huntgather.lab.tournament_log import read_log

CHEAP = ["random", "greedy", "mcts:1"]


@pytest.mark.lab
def test_every_pair_plays_the_same_deals_from_both_seats(tmp_path: Path) -> None:
    games: list[GameResult] = []
    ladder = run_ladder(CHEAP, rounds=2, directory=str(tmp_path), seed=5, progress=games.append)
    assert sorted(ladder.pairs) == [("greedy", "mcts:1"), ("random", "greedy"), ("random", "mcts:1")]
    # 3 pairs × 2 deals × 2 seatings
    assert len(games) == 12 and ladder.games == 12
    for pair, played in ladder.pairs.items():
        assert sorted((g.deal, g.rotation) for g in played) == [(0, 0), (0, 1), (1, 0), (1, 1)]
        for g in played:
            assert set(g.bots) == set(pair)
            # timed: every seat decided, and its CPU time is kept
            assert len(g.seconds) == 2 and all(d > 0 for d in g.decisions)
    # the games go round by round: every pair's deal 0 before any deal 1
    assert [g.deal for g in games] == [0] * 6 + [1] * 6
    rows = {row.bot: row for row in ladder.rows}
    assert rows["greedy"].elo > rows["random"].elo
    assert all(row.games == 8 for row in ladder.rows)      # each bot meets two others, 4 games each
    # the time per move is measured (which bot is quicker is no test's business: a loaded machine
    # can turn two fast bots round)
    assert rows["random"].seconds_per_move is not None and rows["greedy"].seconds_per_move is not None
    assert rows["random"].seconds_per_move > 0 and rows["greedy"].seconds_per_move > 0


@pytest.mark.lab
def test_a_ladder_resumes_and_a_pair_log_is_an_ordinary_log_of_a_tournament(tmp_path: Path) -> None:
    run_ladder(["random", "greedy"], rounds=1, directory=str(tmp_path), seed=2)
    path = pair_file(str(tmp_path), "random", "greedy")
    before = Path(path).read_text()
    added: list[GameResult] = []
    ladder = run_ladder(["random", "greedy"], rounds=2, directory=str(tmp_path), seed=2,
                        progress=added.append)
    assert [(g.deal, g.rotation) for g in added] == [(1, 0), (1, 1)]   # only the new deal is played
    assert Path(path).read_text().startswith(before) and ladder.games == 4
    # `huntgather tournament --bots random,greedy --seed 2 --log <pair log>` would play nothing more
    header, games = read_log(path)
    assert header["bots"] == ["random", "greedy"] and header["seed"] == 2
    again: list[GameResult] = []
    result = run_tournament(["random", "greedy"], games=4, seed=2, done=games, progress=again.append)
    assert again == [] and result.games == sorted(games, key=lambda g: (g.deal, g.rotation))
    # a level added later plays only its own pairs
    grown: list[GameResult] = []
    run_ladder(["random", "greedy", "mcts:1"], rounds=1, directory=str(tmp_path), seed=2,
               progress=grown.append)
    assert len(grown) == 4 and all("mcts:1" in g.bots for g in grown)


def test_ladders_refuse_mixed_settings(tmp_path: Path) -> None:
    run_ladder(["random", "greedy"], rounds=1, directory=str(tmp_path), seed=1)
    with pytest.raises(ValueError, match="seed 1, not 2"):
        run_ladder(["random", "greedy"], rounds=1, directory=str(tmp_path), seed=2)
    with pytest.raises(ValueError, match="seed 1, not 3"):
        read_ladder(str(tmp_path), seed=3)
    with pytest.raises(ValueError, match="no ladder games"):
        read_ladder(str(tmp_path / "empty"))
    with pytest.raises(ValueError, match="two different bots"):
        run_ladder(["greedy", "greedy"], directory=str(tmp_path))
    with pytest.raises(ValueError, match="unknown bot"):
        run_ladder(["greedy", "clever"], directory=str(tmp_path))


def test_time_per_move_is_cpu_seconds_over_decisions() -> None:
    # a: 1.0 s over 10 decisions and 1.0 s over 10 → 0.1 s a move; b: (4 + 2) s over 20 → 0.3;
    # c played only untimed games (an older log): no figure rather than zero
    games = [GameResult(0, 0, ("a", "b"), (9, 3), (1.0, 4.0), (10, 10)),
             GameResult(0, 1, ("b", "a"), (2, 8), (2.0, 1.0), (10, 10)),
             GameResult(1, 0, ("a", "c"), (5, 4))]
    rows = {r.bot: r for r in ladder_rows(["a", "b", "c"], games)}
    assert rows["a"].seconds_per_move == pytest.approx(0.1)
    assert rows["b"].seconds_per_move == pytest.approx(0.3)
    assert rows["c"].seconds_per_move is None
    assert (rows["a"].games, rows["a"].wins, rows["b"].wins, rows["c"].wins) == (3, 3, 0, 0)


def test_the_command_plays_reports_and_writes_one_file_for_both_editions(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ladder.json"
    assert cli_main(["ladder", "--bots", "random,greedy", "--rounds", "1", "--dir", str(tmp_path / "a"),
                     "--out", str(out), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["edition"] == "2020" and shown["games"] == 2
    assert cli_main(["ladder", "--bots", "random,greedy", "--rounds", "1", "--edition", "2002",
                     "--dir", str(tmp_path / "b"), "--out", str(out), "--markdown"]) == 0
    assert "| greedy |" in capsys.readouterr().out
    levels = ladder_levels(json.loads(out.read_text()))
    assert sorted(levels) == ["2002", "2020"]
    assert [r.bot for r in levels["2020"]] == ["greedy", "random"]   # strongest first
    # --report plays nothing
    assert cli_main(["ladder", "--bots", "random,greedy", "--dir", str(tmp_path / "a"), "--report",
                     "--rounds", "9", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2
    # errors are one line, no traceback
    assert cli_main(["ladder", "--dir", str(tmp_path / "nothing"), "--report"]) == 2
    assert "no ladder games" in capsys.readouterr().err
    (tmp_path / "junk.json").write_text("{}")
    assert cli_main(["ladder", "--bots", "random,greedy", "--dir", str(tmp_path / "a"), "--report",
                     "--out", str(tmp_path / "junk.json")]) == 2
    assert "is not a ladder file" in capsys.readouterr().err


def test_a_ladder_file_keeps_other_editions() -> None:
    old = {"format": "huntgather-ladder", "version": 1, "editions": {"2002": {"levels": []}}}
    assert sorted(ladder_file({}, base=old)["editions"]) == ["2002"]


def test_the_shipped_ladder_rates_every_level_the_browser_offers() -> None:
    from huntgather.bots.registry import ladder_specs, offered_levels
    shipped = shipped_ladder()
    assert sorted(shipped) == ["2002", "2020"]
    for edition, rows in shipped.items():
        rated = {r.bot for r in rows}
        assert set(offered_levels()) <= rated, (edition, set(offered_levels()) - rated)
        assert rated <= set(ladder_specs())
        for row in rows:
            assert row.elo_low <= row.elo <= row.elo_high and row.games > 0
            assert row.seconds_per_move is not None and row.seconds_per_move > 0   # measured
        # the levels that search think longer than those that do not
        seconds = {r.bot: r.seconds_per_move or 0.0 for r in rows}
        searching = ("easy", "medium", "hard", "expert")
        assert max(seconds["random"], seconds["greedy"]) < min(seconds[b] for b in searching)
        # the ladder's order: random at the bottom, greedy above it
        assert rows[-1].bot == "random" and {r.bot: r.elo for r in rows}["greedy"] > rows[-1].elo


def test_the_published_ladder_is_what_its_logs_say(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/bots.md's ladder tables and the shipped ladder.json both come from the committed logs."""
    import shlex
    root = Path(__file__).resolve().parents[1]
    doc = (root / "docs" / "bots.md").read_text()
    commands = [line.strip() for line in doc.splitlines()
                if line.startswith("    huntgather ladder") and "--report" in line]
    assert len(commands) == 2
    monkeypatch.chdir(root)
    shipped = shipped_ladder()
    for command in commands:
        args = shlex.split(command)[1:]
        assert cli_main(args) == 0, command
        printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
        assert printed and all(line in doc for line in printed), command
        ladder = read_ladder(args[args.index("--dir") + 1])
        assert [(r.bot, round(r.elo, 1), r.games) for r in shipped[ladder.edition]] == \
            [(r.bot, round(r.elo, 1), r.games) for r in ladder.rows]
