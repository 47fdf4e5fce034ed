"""Ratings: the Plackett–Luce update against Weng and Lin's algorithm worked here by hand, ranks
(ties, leavers last), a game rated once, recompute, the endpoints, and the rated-game rules.

The model's expected numbers come from the paper (R. C. Weng and C.-J. Lin, "A Bayesian
Approximation Method for Online Ranking", JMLR 12, 2011, Algorithm 4 with OpenSkill's
gamma = sqrt(sigma_i²)/c and tau added before the game), written out in :func:`weng_lin`,
never from the code under test.
"""

from __future__ import annotations

import json
import logging
import math
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("openskill")

from app_helpers import recv
from argon2 import PasswordHasher
from sqlalchemy import select, update

with warnings.catch_warnings():   # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from huntgather.bots.ladder import shipped_ladder
from huntgather.bots.registry import offered_levels
from huntgather.cli import main as cli_main
from huntgather.record import write_position
from huntgather.server import create_app
from huntgather.server.account_tables import accounts, rated_games, rating_events, ratings
from huntgather.server.accounts import Accounts
from huntgather.server.ratings import (
    Rating,
    bot_start,
    display,
    ranks_of,
    rate_game,
    recompute,
    update_ratings,
)
from huntgather.server.rooms import build_game
from huntgather.server.seats import GameSetup, hash_secret, new_secret
from huntgather.server.storage import SeatRow, Storage

# OpenSkill's (and the paper's) constants, written out
MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25.0 / 3, 25.0 / 6, 25.0 / 300, 1e-4
#: mu per Elo point such that two settled players' PL win chance is Elo's
K = math.sqrt(2) * BETA * math.log(10) / 400


def weng_lin(mus: list[float], sigmas: list[float], ranks: list[int]) -> list[tuple[float, float]]:
    """Weng and Lin (2011), Algorithm 4 (Plackett–Luce), one player per team, tau added first."""
    s2 = [s * s + TAU * TAU for s in sigmas]
    c = math.sqrt(sum(v + BETA * BETA for v in s2))
    n = len(mus)
    a = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]   # A_q: tied with q
    big_c = [sum(math.exp(mus[s] / c) for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = math.exp(mus[i] / c) / big_c[q]
                omega += ((1.0 if q == i else 0.0) - p) / a[q]
                delta += p * (1 - p) / a[q]
        gamma = math.sqrt(s2[i]) / c
        out.append((mus[i] + s2[i] / c * omega,
                    math.sqrt(s2[i] * max(1 - gamma * s2[i] / c ** 2 * delta, KAPPA))))
    return out


def close(got: list[tuple[float, float]], want: list[tuple[float, float]]) -> None:
    assert len(got) == len(want)
    for (gm, gs), (wm, ws) in zip(got, want, strict=True):
        assert gm == pytest.approx(wm, rel=1e-12, abs=1e-12)
        assert gs == pytest.approx(ws, rel=1e-12, abs=1e-12)


# --------------------------------------------------------------------------- the model


def test_two_equal_players_move_as_the_closed_form_says() -> None:
    # two newcomers: c² = 2(σ²+τ²+β²), each wins with p = 1/2; the winner gains (σ²+τ²)/(2c)
    s2 = SIGMA ** 2 + TAU ** 2
    c = math.sqrt(2 * (s2 + BETA ** 2))
    gain = s2 / (2 * c)
    shrink = math.sqrt(s2 * (1 - math.sqrt(s2) / c * s2 / c ** 2 * 0.25))
    close(update_ratings([Rating(MU, SIGMA), Rating(MU, SIGMA)], [1, 2]),
          [(MU + gain, shrink), (MU - gain, shrink)])
    assert gain == pytest.approx(2.635389, abs=1e-6)   # worked on paper: 69.45/(2·13.18)


def test_two_players_of_different_strength() -> None:
    close(update_ratings([Rating(30.0, 4.0), Rating(22.0, 7.0)], [2, 1]),
          weng_lin([30.0, 22.0], [4.0, 7.0], [2, 1]))


def test_three_players_in_order_and_with_a_tie() -> None:
    mus, sigmas = [30.0, 25.0, 20.0], [5.0, 8.0, 2.0]
    close(update_ratings([Rating(m, s) for m, s in zip(mus, sigmas, strict=True)], [2, 1, 3]),
          weng_lin(mus, sigmas, [2, 1, 3]))
    tied = update_ratings([Rating(m, s) for m, s in zip(mus, sigmas, strict=True)], [1, 1, 3])
    close(tied, weng_lin(mus, sigmas, [1, 1, 3]))
    assert tied[1][0] > 25.0 and tied[2][0] < 20.0   # the tied leaders gain, the last loses


def test_ranks_follow_the_scores_ties_share_and_leavers_come_last() -> None:
    assert ranks_of([10, 30, 30, 5], [False] * 4) == [3, 1, 1, 4]
    assert ranks_of([10, 99, 4], [False, True, False]) == [1, 3, 2]   # the best score, but left
    assert ranks_of([10, 99, 50, 4], [False, True, True, False]) == [1, 3, 3, 2]


def test_a_bot_starts_at_its_ladder_elo_with_the_elo_win_chance() -> None:
    for edition, rows in shipped_ladder().items():
        for row in rows:
            start = bot_start(edition, row.bot)
            assert start.mu == pytest.approx(MU + (row.elo - 1500) * K)
            assert display(start.mu) == round(row.elo)
            assert not start.as_json()["provisional"]
    rows = shipped_ladder()["2020"]
    a, b = bot_start("2020", rows[0].bot), bot_start("2020", rows[-1].bot)
    pl = 1 / (1 + math.exp(-(a.mu - b.mu) / (math.sqrt(2) * BETA)))   # σ → 0: c = √2·β
    elo = 1 / (1 + 10 ** (-(rows[0].elo - rows[-1].elo) / 400))
    assert pl == pytest.approx(elo)
    newcomer = Rating(MU, SIGMA).as_json()
    assert newcomer["rating"] == 1500 and newcomer["provisional"]
    # the uncertainty in rating points: sigma 25/3 over sqrt(2)·(25/6)·ln 10 / 400 = 0.03393 mu a point
    assert newcomer["uncertainty"] == 246


# --------------------------------------------------------------------------- rating stored games


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[Storage]:
    st = Storage(str(tmp_path / "g.sqlite"))
    yield st
    st.close()


def people(storage: Storage, *names: str) -> list[int]:
    acc = Accounts(storage, hasher=PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1))
    return [acc.create(n).id for n in names]


def finished(storage: Storage, seats: list[tuple[str, str | None, int | None]], scores: list[int], *,
             rated: bool = True, over: bool = True, edition: str = "2020", gid: str | None = None) -> str:
    """A stored game with these seats (kind, level, account) that ended with these scores."""
    gid = gid or new_secret()[:12]
    setup = {"edition": edition,
             "seats": [{"kind": k, **({"level": lv} if lv else {})} for k, lv, _ in seats],
             "start_player": 0, "seed": 0, "short": 2, **({"rated": True} if rated else {})}
    storage.create(gid, setup, [], [SeatRow(i, k, lv, f"seat {i}", None, True, a)
                                    for i, (k, lv, a) in enumerate(seats)])
    storage.append(gid, 0, [], status="over" if over else "playing", scores=scores)
    return gid


def rows(storage: Storage, table: Any) -> list[Any]:
    with storage.engine.connect() as conn:
        return list(conn.execute(select(table)).all())


def rating_of(storage: Storage, account: int, edition: str = "2020") -> Rating:
    with storage.engine.connect() as conn:
        r = conn.execute(select(ratings).where(ratings.c.account_id == account,
                                               ratings.c.edition == edition)).one()
    return Rating(r.mu, r.sigma, r.games, r.wins)


def bot_id(storage: Storage, level: str) -> int:
    with storage.engine.connect() as conn:
        found = conn.execute(select(accounts).where(accounts.c.name_key == "\x01bot:" + level)).one()
    assert found.kind == "bot" and found.name == level and found.password_hash is None
    return int(found.id)


def test_a_game_is_rated_once_bots_as_their_levels(storage: Storage) -> None:
    (ann,) = people(storage, "Ann")
    gid = finished(storage, [("human", None, ann), ("bot", "easy", None), ("bot", "hard", None)],
                   [20, 30, 30])
    assert rate_game(storage, gid) is True
    assert rate_game(storage, gid) is False   # a second call does nothing
    assert len(rows(storage, rated_games)) == 1
    events = sorted(rows(storage, rating_events), key=lambda e: e.seat)
    assert [e.rank for e in events] == [3, 1, 1] and [e.score for e in events] == [20, 30, 30]
    easy, hard = bot_id(storage, "easy"), bot_id(storage, "hard")
    assert [e.account_id for e in events] == [ann, easy, hard]
    starts = [Rating(MU, SIGMA), bot_start("2020", "easy"), bot_start("2020", "hard")]
    want = weng_lin([s.mu for s in starts], [s.sigma for s in starts], [3, 1, 1])
    close([(e.mu_after, e.sigma_after) for e in events], want)
    assert [(e.mu_before, e.sigma_before) for e in events] == [(s.mu, s.sigma) for s in starts]
    # (the stored numbers are the formula's to the last bit or two: compared as close, as above)
    for account, (mu, sigma), wins in ((ann, want[0], 0), (easy, want[1], 1)):
        stored = rating_of(storage, account)
        close([(stored.mu, stored.sigma)], [(mu, sigma)])
        assert (stored.games, stored.wins) == (1, wins)
    # the next game starts from the stored ratings
    gid2 = finished(storage, [("human", None, ann), ("bot", "easy", None)], [40, 10])
    assert rate_game(storage, gid2)
    close([(rating_of(storage, ann).mu, rating_of(storage, ann).sigma)],
          weng_lin([want[0][0], want[1][0]], [want[0][1], want[1][1]], [1, 2])[:1])
    assert rating_of(storage, ann).games == 2 and rating_of(storage, ann).wins == 1


def test_a_person_who_left_ranks_last_whatever_their_score(storage: Storage) -> None:
    ann, bob = people(storage, "Ann", "Bob")
    # Bob's seat is played by an easy bot now, and still carries his account: he left
    gid = finished(storage, [("human", None, ann), ("bot", "easy", bob), ("bot", "easy", None)], [10, 50, 20])
    assert rate_game(storage, gid)
    events = {e.seat: e for e in rows(storage, rating_events)}
    assert (events[0].rank, events[1].rank, events[2].rank) == (2, 3, 1)
    assert events[1].account_id == bob and events[1].mu_after < MU


def test_a_game_with_a_person_seat_without_account_ends_unrated(storage: Storage,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    (ann,) = people(storage, "Ann")
    gid = finished(storage, [("human", None, ann), ("human", None, None)], [10, 20])
    with caplog.at_level(logging.INFO, logger="huntgather.server"):
        assert rate_game(storage, gid) is False
    assert f"game {gid} ends unrated: seat 1 (human) has no account" in caplog.text
    playing = finished(storage, [("human", None, ann), ("bot", "easy", None)], [1, 2], over=False)
    casual = finished(storage, [("human", None, ann), ("bot", "easy", None)], [1, 2], rated=False)
    assert not rate_game(storage, playing) and not rate_game(storage, casual)
    assert rows(storage, rated_games) == rows(storage, rating_events) == rows(storage, ratings) == []


def test_two_seats_of_one_level_make_one_game_of_its_account(storage: Storage) -> None:
    (ann,) = people(storage, "Ann")
    gid = finished(storage, [("human", None, ann), ("bot", "easy", None), ("bot", "easy", None)],
                   [30, 20, 10])
    assert rate_game(storage, gid)
    easy = bot_id(storage, "easy")
    start = bot_start("2020", "easy")
    each = weng_lin([MU, start.mu, start.mu], [SIGMA, start.sigma, start.sigma], [1, 2, 3])
    got = rating_of(storage, easy)
    assert got.games == 1 and got.wins == 0
    # the two seats' moves add up; sigma² shrinks by both seats' factors
    assert got.mu == pytest.approx(start.mu + (each[1][0] - start.mu) + (each[2][0] - start.mu))
    prior = start.sigma ** 2 + TAU ** 2
    assert got.sigma ** 2 == pytest.approx(prior * (each[1][1] ** 2 / prior) * (each[2][1] ** 2 / prior))
    seats = [e for e in rows(storage, rating_events) if e.account_id == easy]
    assert len(seats) == 2 and {(e.mu_after, e.sigma_after) for e in seats} == {(got.mu, got.sigma)}


def test_recompute_gives_the_stored_numbers_and_repairs_a_tampered_row(storage: Storage,
                                                                        capsys: pytest.CaptureFixture[str]
                                                                        ) -> None:
    ann, bob = people(storage, "Ann", "Bob")
    games = []
    played: list[tuple[list[tuple[str, str | None, int | None]], list[int]]] = [
        ([("human", None, ann), ("bot", "easy", None)], [30, 20]),
        ([("human", None, bob), ("human", None, ann), ("bot", "hard", None)], [5, 5, 9]),
        ([("human", None, ann), ("bot", "easy", bob)], [1, 2])]
    for seats, scores in played:
        games.append(finished(storage, seats, scores))
        assert rate_game(storage, games[-1])
    before_ratings, before_events = rows(storage, ratings), rows(storage, rating_events)
    found = recompute(storage, write=False)
    assert found.games == 3 and not found.changed
    db = storage.url.removeprefix("sqlite:///")
    assert cli_main(["admin", "recompute", "--db", db, "--check"]) == 0
    with storage.engine.begin() as conn:
        conn.execute(update(ratings).where(ratings.c.account_id == ann).values(mu=40.0))
        conn.execute(update(rating_events).where(rating_events.c.game_id == games[2],
                                                 rating_events.c.seat == 1).values(sigma_after=1.0))
    found = recompute(storage, write=False)
    assert (found.ratings_changed, found.events_changed) == (1, 1)
    assert cli_main(["admin", "recompute", "--db", db, "--check"]) == 1
    assert "1 rating events and 1 ratings differ" in capsys.readouterr().out
    assert recompute(storage).changed
    assert sorted(rows(storage, ratings)) == sorted(before_ratings)   # exactly, to the last bit
    assert sorted(rows(storage, rating_events)) == sorted(before_events)
    assert cli_main(["admin", "recompute", "--db", db]) == 0
    assert not recompute(storage, write=False).changed


# --------------------------------------------------------------------------- the endpoints


def test_profile_and_leaderboard_shapes(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    st = Storage(str(db))
    ann, bob = people(st, "Ann Lee", "Bob")
    g1 = finished(st, [("human", None, ann), ("bot", "easy", None)], [30, 20])
    g2 = finished(st, [("human", None, ann), ("human", None, bob), ("bot", "easy", None)], [10, 25, 18])
    assert rate_game(st, g1) and rate_game(st, g2)
    with st.engine.begin() as conn:   # a secret that must never show
        conn.execute(update(accounts).where(accounts.c.id == bob).values(password_hash="$argon2id$SECRET"))
    st.close()
    with TestClient(create_app(str(db), bot_delay=30.0)) as c:
        me = c.get("/api/players/ANN  lee")   # looked up folded
        assert me.status_code == 200, me.text
        body = me.json()
        assert set(body) == {"name", "kind", "ratings", "stats", "recent", "bots"}
        assert body["name"] == "Ann Lee" and body["kind"] == "person"
        r = body["ratings"]["2020"]
        assert set(r) == {"rating", "uncertainty", "mu", "sigma", "provisional", "games", "wins", "history"}
        assert (r["games"], r["wins"], r["provisional"]) == (2, 1, True)
        assert [h["game"] for h in r["history"]] == [g1, g2]
        assert r["history"][-1]["rating"] == r["rating"] == display(r["mu"])
        assert body["stats"] == {"2020": {"played": 2, "won": 1, "average_score": 20.0,
                                          "average_margin": (10 + (10 - 25)) / 2}}
        assert [g["id"] for g in body["recent"]] == [g2, g1]   # latest first
        assert body["recent"][0]["rank"] == 3 and body["recent"][0]["score"] == 10
        assert body["recent"][0]["players"] == [{"name": "Ann Lee", "kind": "person", "score": 10},
                                                {"name": "Bob", "kind": "person", "score": 25},
                                                {"name": "easy", "kind": "bot", "score": 18}]
        assert body["bots"] == {"2020": {"easy": {"played": 2, "won": 1}}}

        easy = c.get("/api/players/Easy").json()
        assert easy["kind"] == "bot" and easy["ratings"]["2020"]["games"] == 2
        assert easy["bots"] == {}
        expert = c.get("/api/players/expert").json()   # no rated game yet: its ladder rating
        assert expert["ratings"]["2020"]["rating"] == round(
            next(r.elo for r in shipped_ladder()["2020"] if r.bot == "expert"))
        missing = c.get("/api/players/Nobody")
        assert missing.status_code == 404 and missing.json()["code"] == "unknown_player"

        board = c.get("/api/leaderboard?edition=2020").json()
        assert board["edition"] == "2020" and board["who"] == "all"
        for p in board["players"]:
            assert set(p) == {"rank", "name", "kind", "rating", "uncertainty", "mu", "sigma", "provisional",
                              "games", "wins"}
        ratings_shown = [p["rating"] for p in board["players"]]
        assert ratings_shown == sorted(ratings_shown, reverse=True)
        assert {p["name"] for p in board["players"] if p["kind"] == "bot"} == set(offered_levels()) & {
            r.bot for r in shipped_ladder()["2020"]}
        people_only = c.get("/api/leaderboard?edition=2020&who=people").json()["players"]
        assert {p["name"] for p in people_only} == {"Ann Lee", "Bob"}
        assert [p["rank"] for p in people_only] == [1, 2]
        assert all(p["kind"] == "bot" for p in c.get("/api/leaderboard?who=bots").json()["players"])
        assert c.get("/api/leaderboard?who=robots").json()["code"] == "bad_request"
        assert c.get("/api/leaderboard?edition=1999").status_code == 404
        for text in (me.text, easy and c.get("/api/players/Bob").text, json.dumps(board)):
            assert "SECRET" not in text and "argon2" not in text and "secret" not in text.lower()
            assert "\\u0001" not in text and "password" not in text


# --------------------------------------------------------------------------- rated games live


def stored_rated_game(storage: Storage, account: int | None, short: int = 2) -> tuple[str, str, str]:
    """A new rated game stored as the server stores one: Ann (``account``) against an easy bot;
    returns its id, Ann's secret and the creator's."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
    setup = GameSetup.from_json({"seats": seats, "short": short, "rated": True})
    game = build_game(setup)
    setup = replace(setup, stack=game.initial.normal)
    gid, secret, creator = new_secret()[:12], new_secret(), new_secret()
    storage.create(gid, setup.to_json(), [str(m) for m in game.history],
                   [SeatRow(0, "human", None, "Ann", hash_secret(secret), False, account),
                    SeatRow(1, "bot", "easy", None, None, False)], hash_secret(creator),
                   write_position(game.state))
    return gid, secret, creator


def wait_for(check: Callable[[], bool], what: str, patience: float = 30.0) -> None:
    deadline = time.monotonic() + patience
    while not check():
        assert time.monotonic() < deadline, f"after {patience:.0f} s: {what}"
        time.sleep(0.05)


def test_a_rated_game_says_so_and_refuses_hints_and_take_backs(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    st = Storage(str(db))
    (ann,) = people(st, "Ann")
    gid, secret, _ = stored_rated_game(st, ann, short=6)
    st.close()
    with TestClient(create_app(str(db), bot_delay=30.0)) as c, c.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "secrets": [secret], "version": None})
        recv(ws, "welcome")
        assert recv(ws, "table")["rated"] is True
        view = recv(ws, "snapshot")
        assert view["rated"] is True and c.get(f"/api/games/{gid}").json()["rated"] is True
        ws.send_json({"type": "hint", "request": 1, "seat": 0, "version": view["version"], "moves": []})
        assert recv(ws, "error")["code"] == "rated_no_hints"
        ws.send_json({"type": "undo", "request": 2, "seat": 0, "version": view["version"]})
        assert recv(ws, "error")["code"] == "rated_no_undo"


def test_a_rated_game_played_to_its_end_is_rated_once(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    st = Storage(str(db))
    (ann,) = people(st, "Ann")
    gid, secret, creator = stored_rated_game(st, ann, short=2)
    with TestClient(create_app(str(db), bot_delay=0.0)) as c, c.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "secrets": [secret], "version": None})
        view = recv(ws, "snapshot")
        while not view["over"]:   # Ann plays whole turns; the bot answers
            if view["decision"]["player"] == 0:
                place = view["legal"][0]
                ws.send_json({"type": "preview", "seat": 0, "version": view["version"], "moves": [place]})
                preview = recv(ws, "preview")
                moves = [place] if preview["turn_over"] else [place, preview["legal"][0]]
                if not preview["turn_over"] and preview["decision"]["phase"] == "shaman":
                    moves.append({"kind": "pass"})
                ws.send_json({"type": "turn", "seat": 0, "version": view["version"], "moves": moves})
            view = {**view, **recv(ws, "update")}
        wait_for(lambda: len(rows(st, rated_games)) == 1, "the game is rated")
        scores = [p["score"] for p in view["players"]]
        kept = c.delete(f"/api/games/{gid}", headers={"Authorization": f"Bearer {creator}"})
        assert kept.status_code == 409 and kept.json()["code"] == "rated_game_kept"
    (played,) = rows(st, rated_games)
    assert played.game_id == gid
    events = sorted(rows(st, rating_events), key=lambda e: e.seat)
    assert [e.score for e in events] == scores
    assert [e.rank for e in events] == ranks_of(scores, [False, False])
    assert rating_of(st, ann).games == 1
    assert rate_game(st, gid) is False
    st.close()


def test_a_person_who_resigns_a_rated_game_is_rated_last(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    st = Storage(str(db))
    (ann,) = people(st, "Ann")
    gid, secret, _ = stored_rated_game(st, ann, short=3)
    with TestClient(create_app(str(db), bot_delay=0.0)) as c, c.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "secrets": [secret], "version": None})
        view = recv(ws, "snapshot")
        ws.send_json({"type": "resign", "request": 1, "seat": 0, "version": view["version"]})
        recv(ws, "ack")
        wait_for(lambda: len(rows(st, rated_games)) == 1, "the game is rated")   # two bots finish it
    events = {e.seat: e for e in rows(st, rating_events)}
    assert events[0].account_id == ann and events[0].rank == 2 and events[1].rank == 1
    st.close()


def test_a_finished_rated_game_missed_is_rated_at_start(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    st = Storage(str(db))
    (ann,) = people(st, "Ann")
    gid = finished(st, [("human", None, ann), ("bot", "medium", None)], [12, 30])   # stopped before rating
    with TestClient(create_app(str(db), bot_delay=30.0)):
        wait_for(lambda: len(rows(st, rated_games)) == 1, "the sweep rated the game")
    assert rows(st, rated_games)[0].game_id == gid
    assert rating_of(st, ann).games == 1
    st.close()


def test_a_rating_that_fails_is_logged_and_retried(storage: Storage, monkeypatch: pytest.MonkeyPatch,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    import asyncio

    from huntgather.server import ratings as module
    from huntgather.server.rooms import Rooms

    (ann,) = people(storage, "Ann")
    gid = finished(storage, [("human", None, ann), ("bot", "easy", None)], [3, 4])
    real, calls = module.rate_in, []

    def flaky(conn: Any, game_id: str) -> bool:
        calls.append(game_id)
        if len(calls) <= 2:   # the writer's batch, then the writer's one retry alone, fail
            raise OSError("the database went away")
        return real(conn, game_id)

    monkeypatch.setattr(module, "rate_in", flaky)

    async def scenario() -> None:
        rooms = Rooms(storage)
        rooms.rating_retry = 0.01
        rooms._rated_end(gid)   # as Room._write calls it when the game's last move is stored
        deadline = time.monotonic() + 30
        while not rows(storage, rated_games):
            assert time.monotonic() < deadline, "the rating was not retried"
            await asyncio.sleep(0.02)
        await rooms.close()

    with caplog.at_level(logging.ERROR, logger="huntgather.server"):
        asyncio.run(scenario())
    assert f"game {gid}: rating it failed (OSError); it is tried again later" in caplog.text
    assert calls == [gid, gid, gid] and rating_of(storage, ann).games == 1
