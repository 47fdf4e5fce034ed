"""Seats, secrets and game setups: who may move for which seat.

A seat secret is 128 random bits (:func:`new_secret`); the server keeps only
its SHA-256 hash (:func:`hash_secret`) and compares hashes in constant time
(:func:`secret_matches`).  A fast hash is right here: the secrets are random,
not passwords, so there is nothing to guess from the hash.

>>> s = new_secret()
>>> len(s) >= 22, secret_matches(s, hash_secret(s)), secret_matches("guess", hash_secret(s))
(True, True, False)
>>> clean_name("  Ann\\u0000 \\n Smith ")
'Ann Smith'
>>> GameSetup.from_json({"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot"}]}).seats[1].level
'easy'
>>> GameSetup.from_json({"seats": [{"kind": "human"}, {"kind": "remote", "name": "mybot"}]}).seats[1]
Seat(kind=<SeatKind.REMOTE: 'remote'>, level=None, name='mybot')
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from huntgather.bots.registry import offered_levels
from huntgather.editions import edition_names, get_edition
from huntgather.server.clock import ClockSetup
from huntgather.tutorial import EDITIONS as TUTORIAL_EDITIONS

MAX_NAME = 24


class SeatKind(StrEnum):
    """Who plays a seat: a person, one of the server's bots, or an outside bot.

    An outside bot (``remote``) is a program of someone else's that plays through the public
    protocol: its seat is held by a *bot token*, a secret like a person seat's (random, kept
    hashed), and the server never moves for it; it is present, or not, as a person is.
    """

    HUMAN = "human"
    BOT = "bot"
    REMOTE = "remote"

    @property
    def holder(self) -> bool:
        """Whether a page holds the seat with a secret (a person's, or an outside bot's token)."""
        return self is not SeatKind.BOT


class Deal(StrEnum):
    """How the tiles are drawn: secretly at the moment of the draw, or from a seed the creator chose."""

    SECRET = "secret"
    SEEDED = "seeded"


class RequestError(ValueError):
    """A client request that cannot be honoured; ``code`` is a short machine-readable reason."""

    def __init__(self, code: str, message: str, *, explain: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: the key of the words that explain it to a player, where there are more than the code's
        #: (a guided game's refused move: the coach's ``retry.*``)
        self.explain = explain


def new_secret() -> str:
    """A fresh secret: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def hash_secret(secret: str) -> str:
    """The SHA-256 hex digest kept in storage instead of the secret."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def secret_matches(secret: str, stored_hash: str | None) -> bool:
    """Whether ``secret`` hashes to ``stored_hash``, compared in constant time."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_secret(secret), stored_hash)


def lister_key(who: str) -> str:
    """Who listed a game in the lobby, as stored: the SHA-256 hex digest of the key the rate limits
    count by (``account:ID``, or a guest's ``address:HOST``), never the address itself.

    >>> lister_key("address:203.0.113.9") == lister_key("address:203.0.113.9") != lister_key("account:1")
    True
    """
    return hashlib.sha256(f"huntgather lister {who}".encode("utf-8", "replace")).hexdigest()


def rematch_secret(secret: str, game_id: str) -> str:
    """The secret of a seat (or of the creator) in the rematch of ``game_id``, for the holder of
    its ``secret`` there: HMAC-SHA256 keyed by that secret, URL-safe (22 characters, 128 bits).
    Only the holder of the old secret can compute it; the server stores its hash only.

    >>> new = rematch_secret("old-secret", "g1")
    >>> len(new), new == rematch_secret("old-secret", "g1"), new == rematch_secret("old-secret", "g2")
    (22, True, False)
    """
    digest = hmac.new(secret.encode("utf-8", "replace"), f"huntgather rematch of {game_id}".encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def clean_name(raw: Any) -> str:
    """A display name: control and format characters removed, spaces folded, at most 24 characters.

    Raises :class:`RequestError` (``bad_request``) when nothing is left.
    """
    if not isinstance(raw, str):
        raise RequestError("bad_request", "a name must be text")
    kept = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in raw[:200])
    name = " ".join(kept.split())[:MAX_NAME].strip()
    if not name:
        raise RequestError("bad_request", f"a name needs 1 to {MAX_NAME} visible characters")
    return name


@dataclass(frozen=True)
class Seat:
    """A seat at creation: a person (``human``), a bot of some level, or an outside bot
    (``remote``), and an optional name."""

    kind: SeatKind = SeatKind.HUMAN
    level: str | None = None
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.kind == SeatKind.BOT:
            return {"kind": "bot", "level": self.level}
        return {"kind": str(self.kind)}


@dataclass(frozen=True)
class GameSetup:
    """Everything needed to start a game again exactly: stored with every saved game (never shown
    to a client while the game is on, since it holds the seed)."""

    edition: str = "2020"
    seats: tuple[Seat, ...] = (Seat(), Seat())
    start_player: int = 0
    seed: int = 0
    #: a short game: the normal stack holds only this many tiles (chosen from the seed, or in a
    #: secret deal drawn like the tiles)
    short: int | None = None
    deal: Deal = Deal.SEEDED
    #: the tiles a secret short game's normal stack started with (stored, since no seed tells them)
    stack: tuple[int, ...] | None = None
    #: a mirrored deal: the draws follow deal ``mirror`` of a tournament with this seed
    #: (:func:`huntgather.deals.deal_orders`), the same tiles in the same order however
    #: the seats are turned; a short game takes the first ``short`` tiles of its order
    mirror: int | None = None
    #: a rated game (chosen at creation, never after): every person seat must be held by an
    #: account and the deal is secret; no hints and no take-backs (:mod:`huntgather.server.ratings`)
    rated: bool = False
    #: the game's clock (None: no clock), kept by the server (:mod:`huntgather.server.clock`)
    clock: ClockSetup | None = None
    #: the bot level that takes a seat whose time runs out
    on_timeout: str = "easy"
    #: a game of the server's bots alone plays on while no page has it open (by default it rests
    #: until one does: nobody's CPU is spent on a game nobody watches)
    unwatched: bool = False
    #: the live projection (final scoring if the game ended now) in every view, a rule chosen at
    #: creation, the same for everyone: on by default in unrated games, off in rated ones (a page
    #: may still hide what it is sent)
    projections: bool = True
    #: listed in the public lobby at creation: its person seats but the creator's are open to
    #: anyone (:mod:`huntgather.server.routes_lobby`); the deal is secret
    public: bool = False
    #: the guided first game of this edition (:mod:`huntgather.tutorial`): the script's start and
    #: draws, the learner in seat 0 (yellow) and the coach's opponent (red, seat 1) playing the
    #: script's moves; unrated, no clock, not public
    tutorial: str | None = None

    @property
    def open_seats(self) -> tuple[int, ...]:
        """The seats a public game lists as open: every person seat but the first (the creator's)."""
        if not self.public:
            return ()
        people = [i for i, s in enumerate(self.seats) if s.kind == SeatKind.HUMAN]
        return tuple(people[1:])

    @classmethod
    def from_json(cls, data: Any, *, stored: bool = False) -> GameSetup:
        """Validate a setup sent by a client (or, with ``stored``, read from storage).

        Raise :class:`RequestError` saying what is wrong.  A client's setup
        without a seed gets a secret deal; a stored setup without ``deal`` is
        from before secret deals, so its draws follow its seed.
        """
        if not isinstance(data, dict):
            raise RequestError("bad_setup", "the game setup must be a JSON object")
        known = {"edition", "seats", "start_player", "seed", "short", "mirror", "rated", "clock",
                 "on_timeout", "unwatched", "projections", "public", "tutorial"}
        if stored:
            known |= {"deal", "stack"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RequestError("bad_setup", f"unknown setup field(s): {', '.join(unknown)}")
        tutorial = data.get("tutorial")
        if tutorial is not None and tutorial not in TUTORIAL_EDITIONS:
            raise RequestError("bad_setup", f"tutorial must be one of {', '.join(TUTORIAL_EDITIONS)} "
                                            f"(a guided first game), or null")
        edition = data.get("edition", tutorial or "2020")
        if edition not in edition_names():
            raise RequestError("bad_setup", f"unknown edition {edition!r}; choose one of "
                                            f"{', '.join(edition_names())}")
        ed = get_edition(edition)
        raw_seats = data.get("seats", [{"kind": "human"}, {"kind": "bot" if tutorial else "human"}])
        if not isinstance(raw_seats, list) or not ed.min_players <= len(raw_seats) <= ed.max_players:
            raise RequestError("bad_setup", f"seats must be a list of {ed.min_players} to "
                                            f"{ed.max_players} seats")
        seats = []
        for i, s in enumerate(raw_seats):
            if not isinstance(s, dict) or s.get("kind") not in ("human", "bot", "remote") \
                    or set(s) - {"kind", "level", "name"}:
                raise RequestError("bad_setup", f"seat {i} must be {{\"kind\": \"human\", \"name\": ...}}, "
                                                f"{{\"kind\": \"bot\", \"level\": ...}} "
                                                f"or {{\"kind\": \"remote\", \"name\": ...}}")
            if s["kind"] == "bot":
                level = s.get("level", "easy")
                if level not in offered_levels():
                    raise RequestError("bad_setup", f"seat {i}: unknown bot level {level!r}; choose one "
                                                    f"of {', '.join(offered_levels())}")
                seats.append(Seat(SeatKind.BOT, level))
            else:
                name = s.get("name")
                try:
                    seats.append(Seat(SeatKind(s["kind"]), None,
                                      None if name in (None, "") else clean_name(name)))
                except RequestError as exc:
                    raise RequestError("bad_setup", f"seat {i}: {exc.message}") from None
        start = data.get("start_player", 0)
        if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < len(seats):
            raise RequestError("bad_setup", f"start_player must be a seat from 0 to {len(seats) - 1}")
        seed = data.get("seed")
        if stored:
            deal = Deal(data.get("deal", Deal.SEEDED))
        else:
            deal = Deal.SECRET if seed is None or seed == "" else Deal.SEEDED
        if seed is None or seed == "":
            seed = secrets.randbelow(2**53)   # exact in every JSON reader, also a browser
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise RequestError("bad_setup", "seed must be a whole number from 0 to 2^63-1, or empty")
        short = data.get("short")
        normal = len(ed.tiles.normal_ids)
        if short is not None and (not isinstance(short, int) or isinstance(short, bool)
                                  or not 1 <= short <= normal):
            raise RequestError("bad_setup", f"short must be a number of tiles from 1 to {normal}, or null")
        stack = data.get("stack") if stored else None
        if stack is not None:
            if not isinstance(stack, list) or not all(isinstance(t, int) and t in ed.tiles.normal_ids
                                                      for t in stack):
                raise RequestError("bad_setup", "stack must be a list of tiles of the normal stack")
            stack = tuple(stack)
        mirror = data.get("mirror")
        if mirror is not None:
            if not isinstance(mirror, int) or isinstance(mirror, bool) or not 0 <= mirror < 2**31:
                raise RequestError("bad_setup", "mirror must be a deal number from 0 to 2^31-1, or null")
            if deal != Deal.SEEDED:
                raise RequestError("bad_setup", "a mirrored deal needs a seed (the tournament's)")
        rated = data.get("rated", False)
        if not isinstance(rated, bool):
            raise RequestError("bad_setup", "rated must be true or false")
        if rated and not stored:
            if deal != Deal.SECRET or mirror is not None:
                raise RequestError("bad_setup", "a rated game has a secret deal: leave the seed empty")
            if any(s.kind == SeatKind.REMOTE for s in seats):
                raise RequestError("bad_setup", "a rated game is played by people and the server's bots; "
                                                "an outside bot cannot take a seat in it")
            if not any(s.kind == SeatKind.HUMAN for s in seats):
                raise RequestError("bad_setup", "a rated game needs at least one person")
        public = data.get("public", False)
        if not isinstance(public, bool):
            raise RequestError("bad_setup", "public must be true or false")
        if public and not stored:
            if deal != Deal.SECRET or mirror is not None:
                raise RequestError("bad_setup", "a public game has a secret deal: leave the seed empty")
            if sum(s.kind == SeatKind.HUMAN for s in seats) < 2:
                raise RequestError("bad_setup", "a public game needs a person seat open besides yours")
        raw_clock = data.get("clock")
        clock = None if raw_clock is None else ClockSetup.from_json(raw_clock)
        on_timeout = data.get("on_timeout", "easy")
        if on_timeout not in offered_levels():
            raise RequestError("bad_setup", f"on_timeout: unknown bot level {on_timeout!r}; choose one "
                                            f"of {', '.join(offered_levels())}")
        unwatched = data.get("unwatched", False)
        if not isinstance(unwatched, bool):
            raise RequestError("bad_setup", "unwatched must be true or false")
        projections = data.get("projections", not rated)
        if not isinstance(projections, bool):
            raise RequestError("bad_setup", "projections must be true or false")
        if tutorial is not None:
            _check_tutorial(data, tutorial, seats, stored=stored)
            seed, deal = 0, Deal.SEEDED   # the script's draws: nothing secret, nothing random
        return cls(edition, tuple(seats), start, seed, short, deal, stack, mirror, rated, clock, on_timeout,
                   unwatched, projections, public, tutorial)

    def to_json(self) -> dict[str, Any]:
        """The stored form (names are stored with the seats, not here)."""
        out: dict[str, Any] = {"edition": self.edition, "seats": [s.to_json() for s in self.seats],
                               "start_player": self.start_player, "seed": self.seed, "short": self.short,
                               "deal": str(self.deal)}
        if self.stack is not None:
            out["stack"] = list(self.stack)
        if self.mirror is not None:
            out["mirror"] = self.mirror
        if self.rated:
            out["rated"] = True
        if self.clock is not None:
            out["clock"] = self.clock.to_json()
            out["on_timeout"] = self.on_timeout
        if self.unwatched:
            out["unwatched"] = True
        if self.projections == self.rated:   # not the default (on in unrated games, off in rated)
            out["projections"] = self.projections
        if self.public:
            out["public"] = True
        if self.tutorial is not None:
            out["tutorial"] = self.tutorial
        return out


def _check_tutorial(data: dict[str, Any], tutorial: str, seats: list[Seat], *, stored: bool) -> None:
    """A guided game's setup: its own edition, a person against a bot, nothing else chosen (the
    script fixes the deal, who starts and the stack)."""
    if data.get("edition", tutorial) != tutorial:
        raise RequestError("bad_setup", "a guided game is played in its own edition: leave edition out or "
                                        "give the tutorial's")
    if stored:
        return
    if len(seats) != 2 or seats[0].kind != SeatKind.HUMAN or seats[1].kind != SeatKind.BOT:
        raise RequestError("bad_setup", "a guided game has two seats: you (a person, yellow) and the coach's "
                                        "opponent (a bot, red)")
    chosen = sorted(k for k in ("seed", "short", "mirror", "clock") if data.get(k) not in (None, ""))
    chosen += ["start_player"] if data.get("start_player", 0) != 0 else []
    chosen += [k for k in ("rated", "public", "unwatched") if data.get(k)]
    if chosen:
        raise RequestError("bad_setup", f"a guided game follows its script: leave out {', '.join(chosen)}")
