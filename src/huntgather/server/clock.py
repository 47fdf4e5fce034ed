"""Game clocks kept by the server: live (Fischer) and correspondence.

A clock's setup (:class:`ClockSetup`) is chosen at creation and stored with the game's setup.
Its state (:class:`ClockState`) is stored with the game (``hg_games.clock``, and the deadline
in ``hg_games.deadline`` so that expired games can be found by a query) and changes only in
the transaction that stores moves, or in the one that records a timeout.

The state is the time each seat had left when the clock last changed (``since``, a server
timestamp), and the seat whose time runs from then on (None while a bot is to move, or the game
is over).  The running seat's deadline is ``since + left[seat]``.

Live clock, 60 s and 5 s a turn: seat 0 plays a turn in 20 s, then seat 1 is to move.

>>> clock = ClockSetup.from_json({"base": 60, "increment": 5})
>>> state = ClockState.start(clock, 2, running=0, now=100.0)
>>> state.deadline
160.0
>>> state = state.after_turn(clock, now=120.0, turn_over=True, running=1)
>>> state.left, state.seat, state.deadline
((45.0, 60.0), 1, 180.0)
>>> state.left_now(130.0)
(45.0, 50.0)

Correspondence, 2 days a move: every turn starts with the whole allowance.

>>> post = ClockSetup.from_json({"days_per_move": 2})
>>> s = ClockState.start(post, 2, running=0, now=0.0)
>>> s.after_turn(post, now=3600.0, turn_over=True, running=1).left
(172800.0, 172800.0)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

#: the shortest and longest live base time, and the longest increment (seconds)
MIN_BASE = 1
MAX_BASE = 24 * 3600
MAX_INCREMENT = 3600
#: the days a correspondence move may take
MIN_DAYS, MAX_DAYS = 1, 14
DAY = 86400.0


class ClockKind(StrEnum):
    """A live clock (base time and an increment per turn, Fischer) or a correspondence one."""

    LIVE = "live"
    CORRESPONDENCE = "correspondence"


@dataclass(frozen=True)
class ClockSetup:
    """The clock a game was created with."""

    kind: ClockKind
    #: live: the time each seat starts with, and the time added after each of its turns (seconds)
    base: float = 0.0
    increment: float = 0.0
    #: correspondence: the days each move may take
    days_per_move: int = 0

    @classmethod
    def from_json(cls, data: Any) -> ClockSetup:
        """``{"base": SECONDS, "increment": SECONDS}`` or ``{"days_per_move": N}``; raise
        :class:`RequestError` (``bad_setup``) saying what is wrong.

        >>> ClockSetup.from_json({"base": 300})
        ClockSetup(kind=<ClockKind.LIVE: 'live'>, base=300.0, increment=0.0, days_per_move=0)
        >>> ClockSetup.from_json({"days_per_move": 15})
        Traceback (most recent call last):
        ...
        huntgather.server.seats.RequestError: days_per_move must be a whole number of days from 1 to 14
        """
        from huntgather.server.seats import RequestError  # seats.py imports this module

        if not isinstance(data, dict):
            raise RequestError("bad_setup", "clock must be {\"base\": SECONDS, \"increment\": SECONDS} "
                                            "or {\"days_per_move\": DAYS}")
        if "days_per_move" in data:
            if set(data) != {"days_per_move"}:
                raise RequestError("bad_setup", "a correspondence clock has days_per_move only")
            days = data["days_per_move"]
            if not isinstance(days, int) or isinstance(days, bool) or not MIN_DAYS <= days <= MAX_DAYS:
                raise RequestError("bad_setup", f"days_per_move must be a whole number of days from "
                                                f"{MIN_DAYS} to {MAX_DAYS}")
            return cls(ClockKind.CORRESPONDENCE, days_per_move=days)
        unknown = sorted(set(data) - {"base", "increment"})
        if unknown or "base" not in data:
            raise RequestError("bad_setup", "a live clock is {\"base\": SECONDS, \"increment\": SECONDS}")
        base, increment = data["base"], data.get("increment", 0)
        if not _number(base) or not MIN_BASE <= base <= MAX_BASE:
            raise RequestError("bad_setup", f"clock base must be from {MIN_BASE} to {MAX_BASE} seconds")
        if not _number(increment) or not 0 <= increment <= MAX_INCREMENT:
            raise RequestError("bad_setup", f"clock increment must be from 0 to {MAX_INCREMENT} seconds")
        return cls(ClockKind.LIVE, base=float(base), increment=float(increment))

    def to_json(self) -> dict[str, Any]:
        """The form :meth:`from_json` reads (stored in the game's setup).

        >>> ClockSetup.from_json({"base": 5, "increment": 2}).to_json()
        {'base': 5.0, 'increment': 2.0}
        """
        if self.kind == ClockKind.CORRESPONDENCE:
            return {"days_per_move": self.days_per_move}
        return {"base": self.base, "increment": self.increment}

    @property
    def per_move(self) -> float:
        """Correspondence: the seconds each move may take."""
        return self.days_per_move * DAY


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


@dataclass(frozen=True)
class ClockState:
    """Each seat's time left at ``since`` (a server timestamp) and the seat whose time runs."""

    left: tuple[float, ...]
    seat: int | None
    since: float
    #: the seats whose time ran out (a bot plays them now)
    out: tuple[int, ...] = ()

    @classmethod
    def start(cls, setup: ClockSetup, seats: int, *, running: int | None, now: float) -> ClockState:
        """A new game's clock: every seat has its whole time; ``running`` is to move (None: a bot)."""
        first = setup.per_move if setup.kind == ClockKind.CORRESPONDENCE else setup.base
        return cls(tuple(first for _ in range(seats)), running, now)

    @property
    def deadline(self) -> float | None:
        """When the running seat's time runs out (None: no time runs)."""
        return None if self.seat is None else self.since + self.left[self.seat]

    def left_now(self, now: float) -> tuple[float, ...]:
        """The time each seat has left at ``now`` (never below 0)."""
        if self.seat is None:
            return self.left
        left = list(self.left)
        left[self.seat] = max(0.0, left[self.seat] - max(0.0, now - self.since))
        return tuple(left)

    def expired(self, now: float) -> bool:
        """Whether the running seat's time has run out at ``now``."""
        deadline = self.deadline
        return deadline is not None and now >= deadline

    def after_turn(self, setup: ClockSetup, *, now: float, turn_over: bool,
                   running: int | None) -> ClockState:
        """The clock after moves stored at ``now``: the seat whose time ran is charged (and, if its
        turn is over, gets the increment; a correspondence seat gets its whole allowance back),
        and ``running`` (None: a bot, or nobody) is to move from ``now``.

        A seat that moves again (an unfinished turn, or a bonus turn) keeps running.

        >>> live = ClockSetup.from_json({"base": 10, "increment": 3})
        >>> s = ClockState((10.0, 10.0), 0, 0.0)
        >>> s.after_turn(live, now=4.0, turn_over=False, running=0).left
        (6.0, 10.0)
        >>> s.after_turn(live, now=4.0, turn_over=True, running=None)
        ClockState(left=(9.0, 10.0), seat=None, since=4.0, out=())
        """
        left = list(self.left_now(now))
        if self.seat is not None and turn_over:
            if setup.kind == ClockKind.CORRESPONDENCE:
                left[self.seat] = setup.per_move
            else:
                left[self.seat] += setup.increment
        if running is not None and setup.kind == ClockKind.CORRESPONDENCE and running != self.seat:
            left[running] = setup.per_move
        return replace(self, left=tuple(left), seat=running, since=now)

    def timed_out(self, now: float) -> ClockState:
        """The clock once the running seat's time ran out: 0 left, counted in :attr:`out`, and no
        time runs (a bot takes the seat).

        >>> ClockState((0.5, 3.0), 0, 10.0).timed_out(11.0)
        ClockState(left=(0.0, 3.0), seat=None, since=11.0, out=(0,))
        """
        assert self.seat is not None
        left = list(self.left)
        left[self.seat] = 0.0
        return ClockState(tuple(left), None, now, (*self.out, self.seat))

    def to_json(self) -> str:
        """The stored form (``hg_games.clock``).

        >>> ClockState.from_json(ClockState((1.5, 2.0), 1, 3.0, (0,)).to_json())
        ClockState(left=(1.5, 2.0), seat=1, since=3.0, out=(0,))
        """
        return json.dumps({"left": list(self.left), "seat": self.seat, "since": self.since,
                           "out": list(self.out)})

    @classmethod
    def from_json(cls, text: str) -> ClockState:
        data = json.loads(text)
        return cls(tuple(float(x) for x in data["left"]), data["seat"], float(data["since"]),
                   tuple(data.get("out", ())))
