"""The ratings' HTTP routes: a player's public profile and the leaderboard of an edition.

``GET /api/players/{name}`` finds a person's account by its folded name
(:func:`~huntgather.server.accounts.name_key`), or a bot level by its name; a deleted or
disabled account is no player.  ``GET /api/leaderboard?edition=2020&who=all|people|bots``
lists the rated players of an edition, best first (the bot levels too, at their starting
ratings before their first rated game).  Both answer public facts only: names, ratings and
results (never an account's id, a session or a seat's secret), and both are bounded
(:data:`RECENT`, :data:`HISTORY`, :data:`TOP`).  Their shapes are in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import logging
from enum import StrEnum
from typing import Any

from sqlalchemy import and_, case, distinct, func, select
from sqlalchemy.engine import Connection
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from huntgather.bots.ladder import shipped_ladder
from huntgather.bots.registry import offered_levels
from huntgather.editions import DEFAULT_EDITION, edition_names
from huntgather.server.account_tables import AccountKind, accounts, rating_events, ratings
from huntgather.server.accounts import name_key
from huntgather.server.context import context_of
from huntgather.server.messages import ErrorCode
from huntgather.server.ratings import BOT_KEY, Rating, bot_start, display
from huntgather.server.routes_http import error_response
from huntgather.server.storage import Storage

log = logging.getLogger("huntgather.server")

#: the most recent games a profile lists
RECENT = 50
#: the most points of a profile's rating history, per edition (the latest)
HISTORY = 500
#: the most players a leaderboard lists
TOP = 200
#: the name shown for a deleted account's seat
DELETED = "deleted player"


class Who(StrEnum):
    """Whom a leaderboard lists."""

    ALL = "all"
    PEOPLE = "people"
    BOTS = "bots"


def _answer(body: dict[str, Any]) -> JSONResponse:
    return JSONResponse(body, headers={"Cache-Control": "no-cache"})


# --------------------------------------------------------------------------- queries


def _find(conn: Connection, name: str) -> tuple[int | None, str, AccountKind] | None:
    """The player of this name: (account id or None for a bot level without one yet, name, kind)."""
    person = conn.execute(select(accounts.c.id, accounts.c.name).where(
        accounts.c.name_key == name_key(name), accounts.c.kind == str(AccountKind.PERSON),
        accounts.c.deleted.is_(False), accounts.c.disabled.is_(False))).first()
    if person is not None:
        return int(person.id), str(person.name), AccountKind.PERSON
    level = " ".join(name.split()).casefold()
    if level not in offered_levels():
        return None
    bot = conn.execute(select(accounts.c.id).where(accounts.c.name_key == BOT_KEY + level)).scalar()
    return (None if bot is None else int(bot)), level, AccountKind.BOT


def _shown_name(name: str, deleted: bool) -> str:
    return DELETED if deleted else name


def profile(storage: Storage, name: str) -> dict[str, Any] | None:
    """A player's public profile (docs/protocol.md), or None if there is no such player."""
    with storage.engine.connect() as conn:
        found = _find(conn, name)
        if found is None:
            return None
        account, shown, kind = found
        out: dict[str, Any] = {"name": shown, "kind": kind, "ratings": {}, "stats": {}, "recent": [],
                               "bots": {}}
        if kind == AccountKind.BOT:   # before (and beside) its games: the ladder's starting rating
            for edition in shipped_ladder():
                if edition in edition_names() and any(r.bot == shown for r in shipped_ladder()[edition]):
                    out["ratings"][edition] = {**bot_start(edition, shown).as_json(), "history": []}
        if account is None:
            return out
        for r in conn.execute(select(ratings).where(ratings.c.account_id == account)
                              .order_by(ratings.c.edition)):
            out["ratings"][r.edition] = {**Rating(r.mu, r.sigma, r.games, r.wins).as_json(),
                                         "history": _history(conn, account, r.edition)}
        out["stats"] = _stats(conn, account)
        out["recent"] = _recent(conn, account)
        out["bots"] = _against_bots(conn, account)
        return out


def _history(conn: Connection, account: int, edition: str) -> list[dict[str, Any]]:
    """The account's rating after each of its latest :data:`HISTORY` rated games, oldest first."""
    e = rating_events
    rows = conn.execute(select(e.c.game_id, func.max(e.c.seq).label("seq"), func.max(e.c.at).label("at"),
                               func.max(e.c.mu_after).label("mu"))
                        .where(e.c.account_id == account, e.c.edition == edition)
                        .group_by(e.c.game_id).order_by(func.max(e.c.seq).desc()).limit(HISTORY)).all()
    return [{"at": r.at, "rating": display(r.mu), "game": r.game_id} for r in reversed(rows)]


def _stats(conn: Connection, account: int) -> dict[str, dict[str, Any]]:
    """Per edition: rated games played and won, the average score and the average margin (the
    score less the best other seat's)."""
    e = rating_events
    other = rating_events.alias()
    best_other = (select(func.max(other.c.score))
                  .where(other.c.game_id == e.c.game_id, other.c.seat != e.c.seat).scalar_subquery())
    rows = conn.execute(select(e.c.edition, func.count(distinct(e.c.game_id)).label("played"),
                               func.count(distinct(case((e.c.rank == 1, e.c.game_id)))).label("won"),
                               func.avg(e.c.score).label("score"),
                               func.avg(e.c.score - best_other).label("margin"))
                        .where(e.c.account_id == account).group_by(e.c.edition)).all()
    return {r.edition: {"played": int(r.played), "won": int(r.won),
                        "average_score": round(float(r.score), 2),
                        "average_margin": round(float(r.margin or 0.0), 2)} for r in rows}


def _recent(conn: Connection, account: int) -> list[dict[str, Any]]:
    """The account's :data:`RECENT` latest rated games, latest first, with every seat's result."""
    e = rating_events
    latest = conn.execute(select(e.c.game_id).where(e.c.account_id == account).group_by(e.c.game_id)
                          .order_by(func.max(e.c.seq).desc()).limit(RECENT)).scalars().all()
    if not latest:
        return []
    seats: dict[str, list[Any]] = {}
    for r in conn.execute(select(e, accounts.c.name, accounts.c.kind, accounts.c.deleted)
                          .join(accounts, accounts.c.id == e.c.account_id)
                          .where(e.c.game_id.in_(latest)).order_by(e.c.seat)):
        seats.setdefault(r.game_id, []).append(r)
    out = []
    for game_id in latest:
        rows = seats.get(game_id, [])
        mine = [r for r in rows if r.account_id == account]
        if not mine:
            continue
        out.append({"id": game_id, "edition": mine[0].edition, "at": mine[0].at,
                    "rank": min(r.rank for r in mine), "score": max(r.score for r in mine),
                    "players": [{"name": _shown_name(r.name, bool(r.deleted)), "kind": r.kind,
                                 "score": r.score} for r in rows]})
    return out


def _against_bots(conn: Connection, account: int) -> dict[str, dict[str, dict[str, int]]]:
    """Per edition and bot level met: the rated games played against it, and those won (this
    player ranked above every seat of that level)."""
    mine, theirs = rating_events.alias(), rating_events.alias()
    rows = conn.execute(select(mine.c.edition, accounts.c.name.label("level"),
                               func.min(mine.c.rank).label("mine"), func.min(theirs.c.rank).label("theirs"))
                        .join(theirs, and_(theirs.c.game_id == mine.c.game_id,
                                           theirs.c.account_id != mine.c.account_id))
                        .join(accounts, accounts.c.id == theirs.c.account_id)
                        .where(mine.c.account_id == account, accounts.c.kind == str(AccountKind.BOT))
                        .group_by(mine.c.edition, accounts.c.name, mine.c.game_id)).all()
    out: dict[str, dict[str, dict[str, int]]] = {}
    for r in rows:
        tally = out.setdefault(r.edition, {}).setdefault(r.level, {"played": 0, "won": 0})
        tally["played"] += 1
        tally["won"] += int(r.mine < r.theirs)
    return out


def leaderboard(storage: Storage, edition: str, who: Who) -> list[dict[str, Any]]:
    """The :data:`TOP` best rated players of an edition (by rating; ties share a rank)."""
    kinds = {Who.ALL: (AccountKind.PERSON, AccountKind.BOT), Who.PEOPLE: (AccountKind.PERSON,),
             Who.BOTS: (AccountKind.BOT,)}[who]
    with storage.engine.connect() as conn:
        rows = conn.execute(select(ratings, accounts.c.name, accounts.c.kind)
                            .join(accounts, accounts.c.id == ratings.c.account_id)
                            .where(ratings.c.edition == edition, accounts.c.kind.in_([str(k) for k in kinds]),
                                   accounts.c.deleted.is_(False), accounts.c.disabled.is_(False))
                            .order_by(ratings.c.mu.desc(), accounts.c.name).limit(TOP)).all()
    players = [(str(r.name), AccountKind(r.kind), Rating(r.mu, r.sigma, r.games, r.wins)) for r in rows]
    if AccountKind.BOT in kinds:   # a level not rated yet in this edition: at its starting rating
        rated = {name for name, kind, _ in players if kind == AccountKind.BOT}
        players += [(row.bot, AccountKind.BOT, bot_start(edition, row.bot))
                    for row in shipped_ladder().get(edition, [])
                    if row.bot in offered_levels() and row.bot not in rated]
    players.sort(key=lambda p: (-p[2].mu, p[0]))
    players = players[:TOP]
    out: list[dict[str, Any]] = []
    for i, (name, kind, rating) in enumerate(players):
        shown = rating.as_json()
        rank = i + 1 if i == 0 or shown["rating"] != out[-1]["rating"] else out[-1]["rank"]
        out.append({"rank": rank, "name": name, "kind": kind, **shown})
    return out


# --------------------------------------------------------------------------- routes


async def player(request: Request) -> Response:
    name = request.path_params["name"]
    if not name or len(name) > 100:
        return error_response(ErrorCode.UNKNOWN_PLAYER, "there is no player of that name")
    try:
        found = await asyncio.to_thread(profile, context_of(request).storage, name)
    except Exception as exc:
        log.error("reading a player's profile failed: %s", type(exc).__name__)
        return error_response(ErrorCode.STORAGE_FAILED,
                              "the profile could not be read; try again in a moment")
    if found is None:
        return error_response(ErrorCode.UNKNOWN_PLAYER, "there is no player of that name")
    return _answer(found)


async def leaderboard_route(request: Request) -> Response:
    edition = request.query_params.get("edition", DEFAULT_EDITION)
    if edition not in edition_names():
        return error_response(ErrorCode.UNKNOWN_EDITION, "there is no such edition")
    raw = request.query_params.get("who", Who.ALL)
    if raw not in set(Who):
        return error_response(ErrorCode.BAD_REQUEST, "who is one of all, people or bots")
    who = Who(raw)
    try:
        players = await asyncio.to_thread(leaderboard, context_of(request).storage, edition, who)
    except Exception as exc:
        log.error("reading the leaderboard failed: %s", type(exc).__name__)
        return error_response(ErrorCode.STORAGE_FAILED,
                              "the leaderboard could not be read; try again in a moment")
    return _answer({"edition": edition, "who": who, "players": players})


def ratings_routes() -> list[Route]:
    """The ratings' routes (:mod:`huntgather.server.app` adds them)."""
    return [Route("/api/players/{name}", player, methods=["GET"]),
            Route("/api/leaderboard", leaderboard_route, methods=["GET"])]
