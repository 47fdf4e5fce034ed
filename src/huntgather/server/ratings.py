"""Ratings: people and bots on one scale, per edition (OpenSkill's Plackett–Luce model).

The model is Weng and Lin's Bayesian approximation for the Plackett–Luce ranking model
(R. C. Weng and C.-J. Lin, "A Bayesian Approximation Method for Online Ranking", JMLR 12,
2011, Algorithm 4), as the ``openskill`` package implements it with its default constants:
a newcomer has ``mu = 25`` and ``sigma = 25/3``, the performance noise is ``beta = 25/6``,
and ``tau = 25/300`` is added to each sigma before every game (skill drifts).  Every seat of
a rated game is a one-player team; its rank comes from the final scores (ties share a rank),
and a seat a person left (a bot plays it but it still carries that person's account) ranks
last, several such tying for last.

Bots are rated players: each offered level has an account of kind ``bot`` (its name is the
level's), whose first rating, per edition, comes from the shipped ladder (Elo): ``mu = 25 +
(elo - 1500) * K`` with :data:`MU_PER_ELO` ``K = sqrt(2) * beta * ln(10) / 400``, so that
two players whose sigmas have shrunk to nothing beat each other with the Elo probability
(the Plackett–Luce chance of winning a two-player game is ``1 / (1 + exp(-(mu_i - mu_j) /
c))`` with ``c = sqrt(2) * beta`` then, Elo's ``1 / (1 + 10^(-(E_i - E_j) / 400))``), and
a small starting sigma (:data:`BOT_SIGMA`).  The number shown, :func:`display`, is the
same line the other way: ``1500 + (mu - 25) / K``, so a bot starts at its ladder Elo and a
newcomer at 1500; it is marked provisional while ``sigma > PROVISIONAL_SIGMA``.

Every update happens in one transaction that holds the ratings' lock (PostgreSQL: an
advisory lock; SQLite: its write lock, taken by the transaction's first statement), inserts
the game into ``hg_rated_games`` (unique: a game is rated once, whichever process asks
first) and one ``hg_rating_events`` row per seat.  :func:`recompute` replays every rated
game in that order from the starting ratings: the ratings are a function of the games.

>>> round(MU_PER_ELO, 5)
0.03392
>>> display(25.0), display(25.0 + 100 * MU_PER_ELO)
(1500, 1600)
>>> ranks_of([10, 30, 30, 5], [False, False, False, False]), ranks_of([10, 30, 4], [False, True, True])
([3, 1, 1, 4], [1, 2, 2])
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import delete, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from huntgather.bots.ladder import shipped_ladder
from huntgather.bots.registry import offered_levels
from huntgather.server.account_tables import AccountKind, accounts, rated_games, rating_events, ratings
from huntgather.server.seats import SeatKind
from huntgather.server.storage import Storage, games, seats

log = logging.getLogger("huntgather.server")

#: the model, with OpenSkill's default constants (mu 25, sigma 25/3, beta 25/6, tau 25/300)
MODEL = PlackettLuce()
MU0: float = MODEL.mu
SIGMA0: float = MODEL.sigma
BETA: float = MODEL.beta
#: mu per Elo point: two settled players' Plackett–Luce win chance is the Elo one
MU_PER_ELO = math.sqrt(2.0) * BETA * math.log(10.0) / 400.0
#: the Elo (on the shipped ladder's scale) of mu = MU0; the number a newcomer is shown
ELO0 = 1500.0
#: a bot level's sigma when its rating starts from the ladder (about 60 Elo)
BOT_SIGMA = 2.0
#: a rating is provisional while its sigma is above this (about 120 Elo; some twenty two-player games)
PROVISIONAL_SIGMA = 4.0
#: PostgreSQL advisory lock key that serializes every rating update
RATING_LOCK = 4242038
#: the start of a bot level's account's name_key: never a person's (a person's name holds no control
#: character, :func:`~huntgather.server.seats.clean_name`), and not NUL, which PostgreSQL's text refuses
BOT_KEY = "\x01bot:"


def display(mu: float) -> int:
    """The number shown for a rating: Elo-like, ``1500 + (mu - 25) / MU_PER_ELO``."""
    return round(ELO0 + (mu - MU0) / MU_PER_ELO)


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def elo_to_mu(elo: float) -> float:
    """The mu of a ladder Elo (:data:`MU_PER_ELO`)."""
    return MU0 + (elo - ELO0) * MU_PER_ELO


def ranks_of(scores: Sequence[int], left: Sequence[bool]) -> list[int]:
    """Each seat's rank (1 is first): by final score, ties sharing a rank; the seats whose
    person left rank last, together."""
    stayed = [s for s, gone in zip(scores, left, strict=True) if not gone]
    last = len(stayed) + 1
    return [last if gone else 1 + sum(1 for o in stayed if o > s)
            for s, gone in zip(scores, left, strict=True)]


@dataclass
class Rating:
    """One account's rating in one edition."""

    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    def as_json(self) -> dict[str, Any]:
        """The rating object of the endpoints (``R`` in docs/protocol.md)."""
        return {"rating": display(self.mu), "uncertainty": round(self.sigma / MU_PER_ELO),
                "mu": self.mu, "sigma": self.sigma,
                "provisional": provisional(self.sigma), "games": self.games, "wins": self.wins}


@dataclass(frozen=True)
class SeatResult:
    """One seat of a rated game: whose account, its rank and score."""

    seat: int
    account_id: int
    rank: int
    score: int


@dataclass(frozen=True)
class Event:
    """A seat's rating before and after a game (an ``hg_rating_events`` row)."""

    seat: int
    account_id: int
    rank: int
    score: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


class Unrated(Exception):
    """Why a game is not rated."""


# --------------------------------------------------------------------------- starting ratings


@cache
def _ladder_elo(edition: str, level: str) -> float | None:
    for row in shipped_ladder().get(edition, []):
        if row.bot == level:
            return row.elo
    return None


def bot_start(edition: str, level: str) -> Rating:
    """A bot level's first rating in an edition: its shipped ladder Elo as mu, :data:`BOT_SIGMA`
    (a level not on that edition's ladder starts as a newcomer does)."""
    elo = _ladder_elo(edition, level)
    return Rating(MU0, SIGMA0) if elo is None else Rating(elo_to_mu(elo), BOT_SIGMA)


def start_rating(kind: str, name: str, edition: str) -> Rating:
    return bot_start(edition, name) if kind == AccountKind.BOT else Rating(MU0, SIGMA0)


def bot_account(conn: Connection, level: str) -> int:
    """The id of the bot level's account, made when first needed (two processes making it at
    once make one: the second's insert fails on the unique name_key and it reads the first's)."""
    key = BOT_KEY + level
    found = conn.execute(select(accounts.c.id).where(accounts.c.name_key == key)).scalar()
    if found is not None:
        return int(found)
    try:
        with conn.begin_nested():
            conn.execute(insert(accounts).values(kind=str(AccountKind.BOT), name=level, name_key=key,
                                                 password_hash=None, created=time.time(),
                                                 disabled=False, deleted=False))
    except IntegrityError:
        pass
    made = conn.execute(select(accounts.c.id).where(accounts.c.name_key == key)).scalar()
    assert made is not None
    return int(made)


# --------------------------------------------------------------------------- the update


def update_ratings(before: Sequence[Rating], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after a game with these ranks (OpenSkill's Plackett–Luce)."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


def apply_game(state: dict[int, Rating], results: Sequence[SeatResult],
               start: dict[int, Rating]) -> list[Event]:
    """Rate one game: update ``state`` (account id -> rating; a missing one begins at
    ``start[account]``) and return each seat's event.

    An account on several seats (two seats of one bot level) is rated from the same rating on
    each, and its changes add up: mu moves by the sum of the seats' moves, sigma² is scaled by
    the product of their factors; each of its seats' events shows the account's rating before
    and after the game.
    """
    before = {r.account_id: state.get(r.account_id) or start[r.account_id] for r in results}
    after = update_ratings([before[r.account_id] for r in results], [r.rank for r in results])
    seats_of: dict[int, list[tuple[float, float]]] = {}
    for r, new in zip(results, after, strict=True):
        seats_of.setdefault(r.account_id, []).append(new)
    won = {r.account_id for r in results if r.rank == 1}
    for account, news in seats_of.items():
        old = before[account]
        if len(news) == 1:
            mu, sigma = news[0]
        else:   # the model adds tau² to sigma² before the game: each seat's factor is taken on that
            prior = old.sigma ** 2 + MODEL.tau ** 2
            mu = old.mu + sum(m - old.mu for m, _ in news)
            sigma = math.sqrt(prior * math.prod(s ** 2 / prior for _, s in news))
        state[account] = Rating(mu, sigma, old.games + 1, old.wins + (account in won))
    return [Event(r.seat, r.account_id, r.rank, r.score, before[r.account_id].mu,
                  before[r.account_id].sigma, state[r.account_id].mu, state[r.account_id].sigma)
            for r in results]


def game_results(conn: Connection, game_id: str) -> tuple[str, list[SeatResult]]:
    """A finished game's edition and each seat's result; raises :class:`Unrated` (why) when the
    game is not rated."""
    row = conn.execute(select(games.c.setup, games.c.status, games.c.scores)
                       .where(games.c.id == game_id)).first()
    if row is None:
        raise Unrated("no such game")
    setup = json.loads(row.setup)
    if not isinstance(setup, dict) or not setup.get("rated"):
        raise Unrated("not a rated game")
    if row.status != "over":
        raise Unrated("the game is not over")
    scores = json.loads(row.scores)
    seat_rows = conn.execute(select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat)).all()
    if len(seat_rows) < 2 or len(scores) != len(seat_rows):
        raise Unrated("the game's seats or scores are not all stored")
    holders: list[int] = []
    left: list[bool] = []
    for s in seat_rows:
        if s.account_id is not None:
            holders.append(int(s.account_id))
            left.append(s.kind != SeatKind.HUMAN)   # a person's seat a bot plays now: they left
        elif s.kind == SeatKind.BOT and (s.level or "easy") in offered_levels():
            holders.append(bot_account(conn, s.level or "easy"))
            left.append(False)
        else:
            raise Unrated(f"seat {s.seat} ({s.kind}) has no account")
    if all(left):
        raise Unrated("every player left")
    known = set(conn.execute(select(accounts.c.id).where(accounts.c.id.in_(holders))).scalars())
    if lost := sorted(set(holders) - known):
        raise Unrated(f"the accounts {lost} are not stored")
    ranks = ranks_of([int(x) for x in scores], left)
    edition = str(setup.get("edition", "2020"))
    return edition, [SeatResult(s.seat, a, rank, int(x))
                     for s, a, rank, x in zip(seat_rows, holders, ranks, scores, strict=True)]


def _lock(conn: Connection) -> None:
    """Take the ratings' lock for this transaction (released at its end)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": RATING_LOCK})
    else:   # SQLite: a first statement that writes takes the database's write lock now
        conn.execute(text("UPDATE hg_rated_games SET seq = seq WHERE 0 = 1"))


def _starts(conn: Connection, ids: Sequence[int], edition: str) -> dict[int, Rating]:
    rows = conn.execute(select(accounts.c.id, accounts.c.kind, accounts.c.name)
                        .where(accounts.c.id.in_(list(ids)))).all()
    return {int(r.id): start_rating(r.kind, r.name, edition) for r in rows}


def rate_in(conn: Connection, game_id: str) -> bool:
    """:func:`rate_game` in the caller's transaction; True if the game was rated now."""
    _lock(conn)
    if conn.execute(select(rated_games.c.seq).where(rated_games.c.game_id == game_id)).first() is not None:
        return False
    try:
        edition, results = game_results(conn, game_id)
    except Unrated as why:
        log.info("game %s ends unrated: %s", game_id, why)
        return False
    now = time.time()
    seq = conn.execute(insert(rated_games).values(game_id=game_id, edition=edition, at=now)
                       ).inserted_primary_key
    assert seq is not None
    ids = sorted({r.account_id for r in results})
    state = {int(r.account_id): Rating(r.mu, r.sigma, r.games, r.wins) for r in conn.execute(
        select(ratings).where(ratings.c.edition == edition, ratings.c.account_id.in_(ids)))}
    fresh = [a for a in ids if a not in state]
    events = apply_game(state, results, _starts(conn, fresh, edition))
    _write_events(conn, int(seq[0]), game_id, edition, now, events)
    for a in ids:
        r = state[a]
        values = {"mu": r.mu, "sigma": r.sigma, "games": r.games, "wins": r.wins}
        if a in fresh:
            conn.execute(insert(ratings).values(account_id=a, edition=edition, **values))
        else:
            conn.execute(update(ratings).where(ratings.c.account_id == a, ratings.c.edition == edition)
                         .values(**values))
    log.info("game %s rated (%s): %s", game_id, edition,
             ", ".join(f"seat {e.seat} rank {e.rank} {display(e.mu_before)}->{display(e.mu_after)}"
                       for e in events))
    return True


def _write_events(conn: Connection, seq: int, game_id: str, edition: str, at: float,
                  events: Sequence[Event]) -> None:
    conn.execute(insert(rating_events), [
        {"seq": seq, "game_id": game_id, "seat": e.seat, "account_id": e.account_id, "edition": edition,
         "rank": e.rank, "score": e.score, "mu_before": e.mu_before, "sigma_before": e.sigma_before,
         "mu_after": e.mu_after, "sigma_after": e.sigma_after, "at": at} for e in events])


def rate_game(storage: Storage, game_id: str) -> bool:
    """Rate a finished rated game, once: True if this call rated it; False if it was rated
    before (by any process) or is not rated (why is logged)."""
    with storage.engine.begin() as conn:
        return rate_in(conn, game_id)


async def rate_game_async(storage: Storage, game_id: str) -> bool:
    """:func:`rate_game` by the storage's writer thread (never on the event loop, and never
    beside the writer on SQLite's one connection)."""
    return await storage.write(rate_in, game_id)


def unrated_over(conn: Connection) -> list[str]:
    """The finished rated games missing from ``hg_rated_games`` (to rate them now); a game that
    cannot be rated (a person seat with no account) is listed every time, and is refused again."""
    done = select(rated_games.c.game_id)
    rows = conn.execute(select(games.c.id, games.c.setup).where(
        games.c.status == "over", games.c.setup.like('%"rated"%'), games.c.id.not_in(done))
        .order_by(games.c.updated)).all()
    out = []
    for r in rows:
        try:
            setup = json.loads(r.setup)
        except ValueError:
            continue
        if isinstance(setup, dict) and setup.get("rated") is True:
            out.append(str(r.id))
    return out


# --------------------------------------------------------------------------- recompute


@dataclass(frozen=True)
class Recomputed:
    """What :func:`recompute` found: the games replayed, and the rows that differed."""

    games: int
    events_changed: int
    ratings_changed: int

    @property
    def changed(self) -> bool:
        return bool(self.events_changed or self.ratings_changed)


def recompute(storage: Storage, *, write: bool = True) -> Recomputed:
    """Replay every rated game in ``seq`` order from the starting ratings; with ``write``, make
    ``hg_ratings`` and ``hg_rating_events`` what the replay gives.

    A game's result (who sat where, rank and score) is the one recorded when it was rated (its
    events: a later account deletion does not change it); a game with no events left is read
    again from the stored game.
    """
    with storage.engine.begin() as conn:
        _lock(conn)
        played = conn.execute(select(rated_games).order_by(rated_games.c.seq)).all()
        stored_events: dict[str, list[Any]] = {}
        for e in conn.execute(select(rating_events).order_by(rating_events.c.seq, rating_events.c.seat)):
            stored_events.setdefault(e.game_id, []).append(e)
        kinds = {int(r.id): (r.kind, r.name) for r in conn.execute(
            select(accounts.c.id, accounts.c.kind, accounts.c.name))}
        state: dict[tuple[str, int], Rating] = {}
        new_events: list[dict[str, Any]] = []
        for g in played:
            old = stored_events.get(g.game_id)
            if old:
                results = [SeatResult(e.seat, int(e.account_id), e.rank, e.score) for e in old]
            else:
                try:
                    _edition, results = game_results(conn, g.game_id)
                except Unrated as why:
                    log.warning("rated game %s has no events and cannot be read again (%s): skipped",
                                g.game_id, why)
                    continue
            edition = g.edition
            local = {a: r for (ed, a), r in state.items() if ed == edition}
            start = {r.account_id: start_rating(*kinds.get(r.account_id, ("person", "?")), edition)
                     for r in results}
            events = apply_game(local, results, start)
            for a, r in local.items():
                state[(edition, a)] = r
            new_events += [{"seq": g.seq, "game_id": g.game_id, "seat": e.seat, "account_id": e.account_id,
                            "edition": edition, "rank": e.rank, "score": e.score, "mu_before": e.mu_before,
                            "sigma_before": e.sigma_before, "mu_after": e.mu_after,
                            "sigma_after": e.sigma_after, "at": g.at} for e in events]
        old_events = {(e.game_id, e.seat): _event_tuple(e._mapping)
                      for es in stored_events.values() for e in es}
        fresh_events = {(e["game_id"], e["seat"]): _event_tuple(e) for e in new_events}
        events_changed = sum(old_events.get(k) != fresh_events.get(k)
                             for k in old_events.keys() | fresh_events)
        old_ratings = {(r.edition, int(r.account_id)): (r.mu, r.sigma, r.games, r.wins)
                       for r in conn.execute(select(ratings))}
        fresh_ratings = {k: (r.mu, r.sigma, r.games, r.wins) for k, r in state.items()}
        ratings_changed = sum(old_ratings.get(k) != fresh_ratings.get(k)
                              for k in old_ratings.keys() | fresh_ratings)
        if write and (events_changed or ratings_changed):
            conn.execute(delete(rating_events))
            if new_events:
                conn.execute(insert(rating_events), new_events)
            conn.execute(delete(ratings))
            if state:
                conn.execute(insert(ratings), [{"edition": ed, "account_id": a, "mu": r.mu, "sigma": r.sigma,
                                                "games": r.games, "wins": r.wins}
                                               for (ed, a), r in state.items()])
        return Recomputed(len(played), int(events_changed), int(ratings_changed))


def _event_tuple(e: Any) -> tuple[Any, ...]:
    return (e["seq"], int(e["account_id"]), e["edition"], e["rank"], e["score"], e["mu_before"],
            e["sigma_before"], e["mu_after"], e["sigma_after"], e["at"])
