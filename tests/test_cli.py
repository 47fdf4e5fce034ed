"""The ``huntgather`` command line: a few real subprocesses, the rest through ``main(argv)``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from huntgather.cli import main
from huntgather.game import random_game
from huntgather.record import read_record, write_record

# The hand-checked record (its arithmetic is in the file): yellow 6 (forest) + 5 (meadow) = 11.
EXAMPLE = (Path(__file__).parent / "data" / "hand-checked.hgr").read_text(encoding="utf-8")


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "huntgather", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, check=False)


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def json_lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


# ---------------------------------------------------------------- real subprocesses


def test_subprocess_simulate_json_then_replay_from_stdin(tmp_path: Path) -> None:
    done = run("simulate", "--games", "2", "--players", "3", "--seed", "7", "--json",
               "--records", str(tmp_path / "recs"))
    assert done.returncode == 0, done.stderr
    games = json_lines(done.stdout)
    assert [g["seed"] for g in games] == [7, 8]
    record = (tmp_path / "recs" / "game-8.hgr").read_text(encoding="utf-8")
    replayed = run("replay", "--json", "-", stdin=record)
    assert replayed.returncode == 0, replayed.stderr
    facts = json.loads(replayed.stdout)
    assert facts["scores"] == games[1]["scores"] and facts["winners"] == games[1]["winners"]


def test_subprocess_bad_record_exits_2_with_the_line_and_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "bad.hgr"
    path.write_text(EXAMPLE.replace("37@0,1r0", "37@0,1r2"), encoding="utf-8")
    done = run("replay", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert "line 8: move 37@0,1r2 is illegal" in done.stderr
    assert "Traceback" not in done.stderr


def test_subprocess_version_and_help() -> None:
    done = run("--version")
    assert done.returncode == 0 and done.stdout.startswith("huntgather ")
    done = run("--help")
    assert done.returncode == 0
    for command in ("simulate", "replay", "show", "tiles"):
        assert command in done.stdout


def test_every_command_help_reads_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    """Each command's help prints (argparse %-formats only argument help, so a description must
    not escape a percent sign: "95%%" would print as it is)."""
    from huntgather.cli import COMMANDS
    assert len(COMMANDS) >= 10
    for name in COMMANDS:
        assert main([name, "--help"]) == 0, name
        text = capsys.readouterr().out
        assert text.startswith(f"usage: huntgather {name}"), name
        assert "%%" not in text and "%(" not in text, name


# ---------------------------------------------------------------- simulate


def test_simulate_json_shape_and_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(capsys, "simulate", "-n", "3", "-p", "2", "-s", "40", "-e", "2002", "--json")
    assert code == 0
    games = json_lines(out)
    assert len(games) == 3
    for i, game in enumerate(games):
        assert {"seed", "scores", "winners", "edition", "players", "turns"} <= set(game)
        assert game["seed"] == 40 + i and game["edition"] == "2002" and game["players"] == 2
        expected = random_game(2, 40 + i, "2002")  # game i uses seed S+i
        assert game["scores"] == list(expected.scores)
        assert game["winners"] == list(expected.winners())
        assert isinstance(game["turns"], int) and game["turns"] > 0
    assert "games/s" in err


def test_simulate_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "simulate", "-n", "4", "-p", "3", "-s", "2")
    assert code == 0
    games = [random_game(3, seed) for seed in range(2, 6)]
    lines = out.splitlines()
    assert lines[0] == "4 random games: 2020 edition, 3 players, seeds 2-5"
    for seat in range(3):
        mean = sum(g.scores[seat] for g in games) / 4
        share = sum(1 / len(g.winners()) for g in games if seat in g.winners()) / 4
        assert lines[2 + seat].split()[2:] == [f"{mean:.2f}", f"{share:.1%}"]
    assert "games/s" in lines[-1]


def test_simulate_records_are_written_and_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "a" / "b"
    code, out, _ = call(capsys, "simulate", "-n", "2", "-s", "5", "--json", "--records", str(folder))
    assert code == 0
    assert sorted(p.name for p in folder.iterdir()) == ["game-5.hgr", "game-6.hgr"]
    for game in json_lines(out):
        text = (folder / f"game-{game['seed']}.hgr").read_text(encoding="utf-8")
        replayed = read_record(text)
        assert list(replayed.scores) == game["scores"]
        assert text == write_record(random_game(2, int(str(game["seed"]))))
        code, out2, _ = call(capsys, "replay", "--json", str(folder / f"game-{game['seed']}.hgr"))
        assert code == 0 and json.loads(out2)["scores"] == game["scores"]


def test_simulate_workers_give_the_same_results(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ("simulate", "-n", "6", "-p", "4", "-s", "100", "--json")
    code1, out1, _ = call(capsys, *args, "--workers", "1", "--records", str(tmp_path / "w1"))
    code2, out2, err2 = call(capsys, *args, "--workers", "2", "--records", str(tmp_path / "w2"))
    assert code1 == code2 == 0
    assert out1 == out2
    assert "2 workers" in err2
    for name in (f"game-{s}.hgr" for s in range(100, 106)):
        assert (tmp_path / "w1" / name).read_text() == (tmp_path / "w2" / name).read_text()


def test_simulate_progress_bar_on_a_terminal(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm")   # rich draws no bar on a dumb terminal
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, _ = call(capsys, "simulate", "-n", "2")
    assert code == 0
    bar, summary = out.split("2 random games: 2020 edition", 1)
    assert "simulating" in bar and "100%" in bar    # drawn, and full once both games are played
    assert bar.endswith("\x1b[2K")                  # then erased (transient) before the summary
    assert "simulating" not in summary
    # not on a terminal: no bar at all
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    code, out, _ = call(capsys, "simulate", "-n", "2")
    assert code == 0
    assert out.startswith("2 random games: 2020 edition")


@pytest.mark.parametrize(("args", "message"), [
    (("-n", "0"), "--games must be at least 1, not 0"),
    (("-w", "0"), "--workers must be at least 1, not 0"),
    (("-p", "6"), "--players: the 2020 edition is for 2-5 players, not 6"),
    (("-p", "1", "-e", "2002"), "--players: the 2002 edition is for 2-5 players, not 1"),
    (("-e", "2021"), "argument --edition/-e: invalid choice: '2021'"),
    (("-n", "many"), "argument --games/-n: invalid int value: 'many'"),
])
def test_simulate_bad_arguments(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                message: str) -> None:
    code, out, err = call(capsys, "simulate", *args)
    assert code == 2
    assert out == ""
    assert message in err


def test_simulate_records_folder_that_is_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = call(capsys, "simulate", "-n", "1", "--records", str(blocker))
    assert code == 1
    assert "cannot create the folder" in err


# ---------------------------------------------------------------- replay


def test_replay_text_and_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "example.hgr"
    path.write_text(EXAMPLE, encoding="utf-8")
    code, out, _ = call(capsys, "replay", str(path))
    assert code == 0
    assert out.splitlines() == [f"{path}: valid 2020 record, 2 players, 9 moves",
                                "final scores: yellow 11, red 0", "yellow wins"]
    code, out, _ = call(capsys, "replay", "--json", str(path))
    assert code == 0
    facts = json.loads(out)
    assert facts["scores"] == [11, 0] and facts["winners"] == [0]
    assert (facts["edition"], facts["players"], facts["moves"], facts["over"]) == ("2020", 2, 9, True)


def test_replay_game_in_progress(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "part.hgr"
    path.write_text(EXAMPLE.split("d37")[0], encoding="utf-8")
    code, out, _ = call(capsys, "replay", str(path))
    assert code == 0
    assert "game in progress: a tile is to be drawn from the normal stack for red" in out
    code, out, _ = call(capsys, "replay", "--json", str(path))
    assert json.loads(out)["winners"] == [] and json.loads(out)["over"] is False


def test_replay_edition_check(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "old.hgr"
    path.write_text(write_record(random_game(2, 3, "2002")), encoding="utf-8")
    code, _, _ = call(capsys, "replay", "--edition", "2002", str(path))
    assert code == 0
    code, out, err = call(capsys, "replay", "--edition", "2020", str(path))
    assert code == 2 and out == ""
    assert "line 2: this is a 2002 record" in err and "cannot be replayed under the 2020 rules" in err


@pytest.mark.parametrize(("text", "message"), [
    ("hello\n", "line 1: expected the first line 'huntgather record 1' (or 2), got 'hello'"),
    (EXAMPLE.replace("result 11 0", "result 12 0"), "line 10: the record says the result is 12 0"),
    (EXAMPLE.replace("m34.3", "m34.9"), "line 7: move m34.9 is illegal: tile 34 has no zone 9"),
    (EXAMPLE.replace("d34 34@1,0r0", "d34 34@1,0"), "line 7: '34@1,0' is not a move"),
])
def test_replay_malformed(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str,
                          message: str) -> None:
    path = tmp_path / "bad.hgr"
    path.write_text(text, encoding="utf-8")
    code, out, err = call(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert err.startswith(f"huntgather replay: error: {message}")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_and_unreadable_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for command in ("replay", "show"):
        code, _, err = call(capsys, command, str(tmp_path / "nope.hgr"))
        assert code == 1
        assert err.strip() == f"huntgather {command}: error: {tmp_path / 'nope.hgr'}: no such file"
    code, _, err = call(capsys, "replay", str(tmp_path))
    assert code == 1 and "is a directory" in err
    binary = tmp_path / "binary.hgr"
    binary.write_bytes(b"\xff\xfe\x00bad")
    code, _, err = call(capsys, "replay", str(binary))
    assert code == 2 and "not a UTF-8 text file" in err


# ---------------------------------------------------------------- show


def test_show_turns_and_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "example.hgr"
    path.write_text(EXAMPLE, encoding="utf-8")
    code, out, _ = call(capsys, "show", str(path))
    assert code == 0
    assert "turn 2 (red): d37 37@0,1r0 -" in out
    assert "  Forest of 3 tiles: 3 tiles ×2 = 6 → yellow (1 gatherer)" in out
    assert "no menhir tile left: no extra turn" in out
    assert "Meadow of 2 tiles: 1 mammoth ×3 + 1 aurochs ×2 = 5 → yellow (1 hunter)" in out
    table = out.split("final table:\n")[1].splitlines()
    assert table[0].split() == ["seat", "colour", "rivers", "forests", "actions", "huts", "hunters", "total"]
    # forests 6, hunters 5, total 11, and the winner mark
    assert table[1].split() == ["0", "yellow", "0", "6", "0", "0", "5", "11", "winner"]
    assert table[2].split() == ["1", "red", "0", "0", "0", "0", "0", "0"]


def test_show_random_game_table_adds_up(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = random_game(3, 12)
    path = tmp_path / "g.hgr"
    path.write_text(write_record(game), encoding="utf-8")
    code, out, _ = call(capsys, "show", str(path))
    assert code == 0
    assert out.count("\nturn ") == game.state.turn + 1
    rows = out.split("final table:\n")[1].splitlines()[1:]
    for seat, row in enumerate(rows):
        cells = [int(c) for c in row.split()[2:8]]
        assert sum(cells[:5]) == cells[5] == game.scores[seat]


# ---------------------------------------------------------------- tiles


def test_tiles_lists_every_tile(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "tiles")
    assert code == 0
    lines = [line for line in out.splitlines() if not line.startswith("#")]
    assert len(lines) == 95  # RULINGS.md: the 2020 set has 95 tiles
    assert lines[56].split()[:2] == ["56", "start"]
    assert "medium" not in out


def test_tiles_2002_flags_the_uncertain_tiles(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "tiles", "--edition", "2002")
    assert code == 0
    lines = [line for line in out.splitlines() if not line.startswith("#")]
    assert len(lines) == 91  # RULINGS.md: 91 tiles in the 2002 set ...
    assert sum("[medium confidence]" in line for line in lines) == 11  # ... 11 of medium confidence
    code, out, _ = call(capsys, "tiles", "-e", "2002", "--uncertain")
    flagged = [line for line in out.splitlines() if line.endswith("[medium confidence]")
               and not line.startswith("#")]
    assert len(flagged) == 11
    assert "Gold nugget drawn on the volcano" in out


def test_tiles_json_and_selection(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "tiles", "--json", "56", "34")
    assert code == 0
    data = json.loads(out)
    assert data["edition"] == "2020"
    start, tile = data["tiles"][1], data["tiles"][0]
    assert (start["id"], start["kind"]) == (56, "start")
    # tiles-2020.json: 56 has sides meadow 0 / forest 1 / forest 1 / river 2 3 0
    assert start["sides"]["W"] == {"kind": "river", "zones": [2, 3, 0]}
    assert {"id": 1, "kind": "forest", "menhirs": 1} in start["zones"]
    assert tile["id"] == 34
    code, out, _ = call(capsys, "tiles", "--kind", "bonus", "--json")
    assert len(json.loads(out)["tiles"]) == 16  # 2020: 16 menhir tiles


def test_tiles_unknown_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(capsys, "tiles", "-e", "2002", "92")
    assert code == 2 and out == ""
    assert "edition 2002 has no tile 92 (its ids run from 1 to 91)" in err


# ---------------------------------------------------------------- the command itself


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys)
    assert code == 2
    assert "usage: huntgather" in out


def test_unknown_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = call(capsys, "fly")
    assert code == 2
    assert "invalid choice: 'fly'" in err


# ---------------------------------------------------------------- the documentation says what happens

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_cli_doc_show_example_is_the_real_output(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("example.hgr").write_text(EXAMPLE, encoding="utf-8")
    code, out, _ = call(capsys, "show", "example.hgr")
    assert code == 0
    doc = (DOCS / "cli.md").read_text(encoding="utf-8")
    shown = doc.split("$ huntgather show example.hgr\n", 1)[1].split("```", 1)[0]
    assert shown == out


def test_tiles_doc_lists_every_uncertain_2002_tile() -> None:
    from huntgather.tiles import load_tileset

    doc = (DOCS / "tiles.md").read_text(encoding="utf-8")
    section = doc.split("## 2002 tiles of medium confidence", 1)[1]
    uncertain = [t for t in load_tileset("2002") if t.confidence == "medium"]
    headings = [line for line in section.splitlines() if line.startswith("### Tile ")]
    assert headings == [f"### Tile {t.id} ({t.kind})" for t in uncertain]
    for tile in uncertain:
        assert tile.uncertainty is not None and tile.uncertainty in section


def test_cli_doc_has_a_section_for_every_command() -> None:
    from huntgather.cli import COMMANDS

    doc = (DOCS / "cli.md").read_text(encoding="utf-8")
    headings = {line.lstrip("#").strip() for line in doc.splitlines() if line.startswith("##")}
    assert set(COMMANDS) <= headings
