"""Every message of the protocol, declared once: its fields, their bounds, and what it is for.

Three families, each a table from its ``type`` to a spec:

* :data:`INTENTS`: what a page sends on the game's websocket (``hello``, ``turn``, …); the
  server checks each against its shape (:func:`check_intent`) and hands it to the handler of
  its type (:data:`huntgather.server.dispatch.HANDLERS`);
* :data:`MESSAGES`: what the server sends a page (``welcome``, ``update``, ``error``, …); the
  builders in :mod:`huntgather.server.protocol` and :mod:`huntgather.server.rooms` return
  these shapes (mypy holds them to it);
* :data:`NOTICES`: what one server process tells the others through PostgreSQL
  (``NOTIFY``), encoded like every message (:func:`encode_notice`, :func:`decode_notice`).

A shape is a ``TypedDict`` with bounds in ``Annotated`` (:mod:`huntgather.server.fields`).
The same declarations make ``docs/protocol.schema.json`` and the tables of
``docs/protocol.md`` (``python tools/protocol_docs.py``; a test fails when those files and the
declarations differ).  ``docs/contributing.md`` has the recipe for a new message.

>>> check_intent({"type": "turn", "seat": 0, "version": 3, "moves": [{"kind": "pass"}]})["seat"]
0
>>> check_intent({"type": "name", "seat": 0})
Traceback (most recent call last):
...
huntgather.server.codec.ProtocolError: 'name' is required: text of at most 200 characters
>>> decode_notice(encode_notice(DeleteNotice(type=NoticeType.DELETE, game="abc")))
{'type': <NoticeType.DELETE: 'delete'>, 'game': 'abc'}
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Annotated, Any, Literal, NotRequired, TypedDict, get_args

from huntgather.bots.registry import offered_levels
from huntgather.editions import edition_names, get_edition
from huntgather.kinds import Piece
from huntgather.server.clock import ClockKind
from huntgather.server.codec import ProtocolError, dumps, read_json
from huntgather.server.fields import (
    Check,
    Doc,
    Later,
    Length,
    OneOf,
    Range,
    Says,
    checker,
    close,
    fields_of,
)
from huntgather.server.seats import Deal, SeatKind

# --------------------------------------------------------------------------- bounds

#: the largest whole number every JSON reader holds exactly (JavaScript's)
JS_SAFE = 2**53 - 1
#: no game has a version beyond this (a page may name a version it never saw: a snapshot answers)
MAX_VERSION = 1_000_000
#: coordinates beyond this cannot be reached in any game (95 tiles in a row reach 95)
MAX_COORD = 1000
#: the most seat secrets (and a creator's) one ``hello`` may hold
MAX_SECRETS = 8
#: the most moves one turn has (a shaman tile: place, take back, occupy; and a spare)
MAX_TURN = 4
#: the longest name a page may send (it is cleaned and cut to ``seats.MAX_NAME``)
MAX_NAME_SENT = 200
#: the longest chat line kept (visible characters, once cleaned)
MAX_CHAT = 300
#: the longest chat text a page may send at all (more is refused as a frame's field out of bounds)
MAX_CHAT_SENT = 60_000
#: the chat lines sent with a page's welcome (the latest)
CHAT_HISTORY = 100
#: the highest seat number of any edition
MAX_SEAT = max(get_edition(name).max_players for name in edition_names()) - 1

Seat = Annotated[int, Range(0, MAX_SEAT), Doc("a seat, from 0")]
Version = Annotated[int, Range(-MAX_VERSION, MAX_VERSION),
                    Doc("a game's version: the number of entries in its stored history (moves, draws "
                        "included, and turns taken back); it only grows")]
GameId = Annotated[str, Length(1, 40)]
Request = Annotated[int | Annotated[str, Length(0, 64)] | None,
                    Says("'request' must be a number or a short text"),
                    Doc("any number or short text of the page's, echoed in the answer")]
Coord = Annotated[int, Range(-MAX_COORD, MAX_COORD)]
TileId = Annotated[int, Range(0, 999)]
ZoneId = Annotated[int, Range(0, 9)]


class IntentType(StrEnum):
    HELLO = "hello"
    TURN = "turn"
    PREVIEW = "preview"
    HINT = "hint"
    RESIGN = "resign"
    UNDO = "undo"
    NAME = "name"
    SEAT = "seat"
    RESYNC = "resync"
    PING = "ping"
    PONG = "pong"
    CHAT = "chat"
    CHAT_WATCHERS = "chat_watchers"
    REMATCH = "rematch"


class MessageType(StrEnum):
    WELCOME = "welcome"
    TABLE = "table"
    SNAPSHOT = "snapshot"
    UPDATE = "update"
    ACK = "ack"
    PREVIEW = "preview"
    HINT = "hint"
    SEAT_SECRET = "seat_secret"
    TIMEOUT = "timeout"
    PING = "ping"
    PONG = "pong"
    ERROR = "error"
    CHAT = "chat"
    CHAT_LOG = "chat_log"
    CHAT_WATCHERS = "chat_watchers"
    REMATCH = "rematch"


class NoticeType(StrEnum):
    MOVE = "move"
    SEAT = "seat"
    DELETE = "delete"
    PRESENCE = "presence"
    ASK = "ask"
    CHAT = "chat"
    TIMEOUT = "timeout"
    REMATCH = "rematch"


class ChatChannel(StrEnum):
    """Who a chat line is for: the players' table talk (every page reads it), or the watchers'
    channel (written by watchers; the players may hide it, the creator may close it)."""

    PLAYERS = "players"
    WATCHERS = "watchers"


class When(StrEnum):
    """When a page may send an intent."""

    OPENING = "first"          #: the first message, and only then (``hello``)
    ANYTIME = "any time"       #: also before ``hello`` (the heartbeat)
    JOINED = "after hello"     #: once the page is welcomed


class ErrorCode(StrEnum):
    """Every ``code`` of an ``error`` (websocket and HTTP); :data:`ERROR_MEANINGS` says each."""

    BAD_JSON = "bad_json"
    BAD_REQUEST = "bad_request"
    TOO_LARGE = "too_large"
    BINARY_NOT_ACCEPTED = "binary_not_accepted"
    HELLO_FIRST = "hello_first"
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_CREATOR = "not_creator"
    STALE = "stale"
    ILLEGAL_MOVE = "illegal_move"
    INVALID_MOVE = "invalid_move"
    GAME_OVER = "game_over"
    BUSY = "busy"
    STORAGE_FAILED = "storage_failed"
    UNKNOWN_GAME = "unknown_game"
    DELETED = "deleted"
    TOO_SLOW = "too_slow"
    SERVER_ERROR = "server_error"
    CORRUPT_GAME = "corrupt_game"
    BAD_SETUP = "bad_setup"
    BAD_CONTENT_TYPE = "bad_content_type"
    TOO_MANY_GAMES = "too_many_games"
    TOO_MANY_BOT_GAMES = "too_many_bot_games"
    UNKNOWN_EDITION = "unknown_edition"
    DRAINING = "draining"
    TOO_MANY_SOCKETS = "too_many_sockets"
    TOO_MANY_WATCHERS = "too_many_watchers"
    NO_UNDO = "no_undo"
    TOO_FAST = "too_fast"
    TIME_OUT = "time_out"
    # accounts (server/accounts.py, routes_accounts.py, csrf.py)
    CROSS_SITE = "cross_site"
    BAD_NAME = "bad_name"
    BAD_PASSWORD = "bad_password"
    NAME_TAKEN = "name_taken"
    BAD_LOGIN = "bad_login"
    WRONG_PASSWORD = "wrong_password"
    TOO_MANY_ATTEMPTS = "too_many_attempts"
    SIGNED_OUT = "signed_out"
    SIGN_IN_REQUIRED = "sign_in_required"
    ACCOUNT_SEAT = "account_seat"
    # passkeys (server/passkeys.py)
    PASSKEY_NEEDS_HOST_NAME = "passkey_needs_host_name"
    BAD_CHALLENGE = "bad_challenge"
    PASSKEY_REFUSED = "passkey_refused"
    UNKNOWN_PASSKEY = "unknown_passkey"
    PASSKEY_EXISTS = "passkey_exists"
    LAST_SIGN_IN = "last_sign_in"
    ACCOUNT_DISABLED = "account_disabled"
    RATED_NO_HINTS = "rated_no_hints"
    RATED_NO_UNDO = "rated_no_undo"
    UNKNOWN_PLAYER = "unknown_player"
    RATED_GAME_KEPT = "rated_game_kept"
    # chat and rematch (rooms.py)
    CHAT_EMPTY = "chat_empty"
    CHAT_TOO_LONG = "chat_too_long"
    CHAT_TOO_FAST = "chat_too_fast"
    CHAT_CLOSED = "chat_closed"
    NOT_OVER = "not_over"
    # turn notifications (notify.py, routes_notify.py)
    BAD_EMAIL = "bad_email"
    BAD_LANGUAGE = "bad_language"
    MAIL_OFF = "mail_off"
    BAD_SUBSCRIPTION = "bad_subscription"
    TOO_MANY_SUBSCRIPTIONS = "too_many_subscriptions"
    # the public lobby and quick match (rooms.py, routes_lobby.py)
    NOT_LISTED = "not_listed"
    SEAT_NOT_OPEN = "seat_not_open"
    SEAT_TAKEN = "seat_taken"
    ALREADY_SEATED = "already_seated"
    WAITING_FOR_PLAYERS = "waiting_for_players"
    TOO_MANY_REQUESTS = "too_many_requests"
    # post-game reviews (reviews.py, routes_reviews.py)
    GAME_NOT_OVER = "game_not_over"
    TOO_MANY_REVIEWS = "too_many_reviews"
    # the guided first game (rooms.py)
    TUTORIAL_MOVE = "tutorial_move"
    # puzzles (routes_puzzles.py)
    UNKNOWN_PUZZLE = "unknown_puzzle"


ERROR_MEANINGS: dict[ErrorCode, str] = {
    ErrorCode.BAD_JSON: "not JSON, nested too deep, or a number too long",
    ErrorCode.BAD_REQUEST: "not an object, an unknown `type`, a field missing or out of its bounds "
                           "(the message names the field)",
    ErrorCode.TOO_LARGE: "a frame or request body over 64 KiB",
    ErrorCode.BINARY_NOT_ACCEPTED: "a binary frame",
    ErrorCode.HELLO_FIRST: "the first message was not `hello`",
    ErrorCode.NOT_YOUR_SEAT: "the intent names a seat this page does not hold (watchers hold none)",
    ErrorCode.NOT_YOUR_TURN: "it is another seat's turn",
    ErrorCode.NOT_CREATOR: "a `seat` change or a delete without the creator's secret",
    ErrorCode.STALE: "the intent was made at an older version; `version` says the current one",
    ErrorCode.ILLEGAL_MOVE: "the engine refused the move (the message says why)",
    ErrorCode.INVALID_MOVE: "a MOVE of the wrong shape",
    ErrorCode.GAME_OVER: "the game is over",
    ErrorCode.BUSY: "a hint refused: one at a time per visitor (address or account), and none came "
                    "free within the wait (a few at once in all); try again in a moment. Also HTTP "
                    "503 (with `Retry-After`) for a new game or websocket while the server is "
                    "overloaded (its games in progress play on)",
    ErrorCode.STORAGE_FAILED: "the change could not be stored, so it does not count; try again "
                              "(every change fails while the database is unreachable, and for good "
                              "once the server's SQLite file was deleted or replaced)",
    ErrorCode.UNKNOWN_GAME: "no such game (the socket closes)",
    ErrorCode.DELETED: "the game was deleted (the socket closes)",
    ErrorCode.TOO_SLOW: "this page did not read its messages in time; the socket closes, and a "
                        "reconnect resyncs",
    ErrorCode.SERVER_ERROR: "a fault of the server's (logged there); nothing changed",
    ErrorCode.CORRUPT_GAME: "the game's stored record cannot be read",
    ErrorCode.BAD_SETUP: "HTTP: a new game's setup is wrong (the message says which field)",
    ErrorCode.BAD_CONTENT_TYPE: "HTTP: a body that is not `application/json`",
    ErrorCode.TOO_MANY_GAMES: "HTTP: more new games a minute than allowed (per account when signed in, "
                              "else per address)",
    ErrorCode.TOO_MANY_BOT_GAMES: "HTTP: a new game of bots alone while its creator (an account, else "
                                  "an address) has as many going as `--bot-games-per-creator` allows",
    ErrorCode.UNKNOWN_EDITION: "HTTP: no such edition",
    ErrorCode.NO_UNDO: "no turn to take back: `undo` is only for a person playing against bots alone "
                       "(an outside bot counts as a person), once they have played a turn, and "
                       "while the game is on",
    ErrorCode.TIME_OUT: "the seat's time on the game's clock ran out before its move came; a bot "
                        "plays the seat now (see `timeout`)",
    ErrorCode.PASSKEY_NEEDS_HOST_NAME: "HTTP: passkeys need the page opened under a host name "
                                       "(`localhost`, a domain), not an IP address",
    ErrorCode.BAD_CHALLENGE: "HTTP: the passkey request's `challenge_id` is unknown, used already, "
                             "expired (5 minutes) or made for something else; ask for new options",
    ErrorCode.PASSKEY_REFUSED: "HTTP: the passkey's answer could not be verified (signature, site, "
                               "challenge or sign count); nothing changed",
    ErrorCode.UNKNOWN_PASSKEY: "HTTP: no such passkey here (401 when signing in with it, 404 when "
                               "removing it)",
    ErrorCode.PASSKEY_EXISTS: "HTTP 409: that passkey is registered already",
    ErrorCode.LAST_SIGN_IN: "HTTP 409: the account's last way to sign in (no password, one passkey) "
                            "cannot be removed",
    ErrorCode.ACCOUNT_DISABLED: "HTTP 403: the account is disabled and cannot sign in",
    ErrorCode.RATED_NO_HINTS: "a rated game gives no hints (`hint`)",
    ErrorCode.RATED_NO_UNDO: "a rated game takes no turn back (`undo`)",
    ErrorCode.UNKNOWN_PLAYER: "HTTP 404: no player (account or bot level) of that name",
    ErrorCode.RATED_GAME_KEPT: "HTTP 409: a finished rated game cannot be deleted (the ratings are "
                               "computed from it)",
    ErrorCode.DRAINING: "HTTP: the server is restarting and takes no more changes (503); try again "
                        "in a moment (behind a proxy, another process answers)",
    ErrorCode.TOO_MANY_SOCKETS: "HTTP 429, instead of opening a websocket: this address has as many "
                                "open websockets as one address may have (`max_sockets_per_address`, "
                                "32 by default); close one first",
    ErrorCode.TOO_FAST: "a costly intent (one that writes to the database or sends a whole view) "
                        "beyond the page's budget (see Limits); nothing was done, wait a moment",
    ErrorCode.TOO_MANY_WATCHERS: "the game has as many watchers as it takes (`max_watchers`, 200 by "
                                 "default); the socket closes (4429), a page may try again later",
    ErrorCode.CROSS_SITE: "HTTP 403: a change (POST, PUT, PATCH, DELETE) sent by another site's page "
                          "(its `Origin` is not this server's nor an allowed one, or "
                          "`Sec-Fetch-Site: cross-site`); nothing changed",
    ErrorCode.BAD_NAME: "HTTP: an account's name is not one (at least 2 visible characters, at most 24)",
    ErrorCode.BAD_PASSWORD: "HTTP: a new password is not one (8 to 256 characters)",
    ErrorCode.NAME_TAKEN: "HTTP 409: another account has that name (names are compared folded: case, "
                          "look-alike letters and spaces do not make a new name)",
    ErrorCode.BAD_LOGIN: "HTTP 401: the name and password do not sign in (the same answer for an "
                         "unknown name, a wrong password and an account that is disabled)",
    ErrorCode.WRONG_PASSWORD: "HTTP 403: the account's present password, asked for before a change "
                              "to it or its deletion, was wrong",
    ErrorCode.TOO_MANY_ATTEMPTS: "HTTP 429: too many failed sign-ins for this name or from this address, "
                                 "or too many new accounts from this address; wait (`Retry-After`)",
    ErrorCode.SIGNED_OUT: "HTTP 401: this needs a signed-in session and the request has none (or it "
                          "has ended)",
    ErrorCode.SIGN_IN_REQUIRED: "HTTP 401: a rated game can be created, joined from the lobby or asked "
                                "for by quick match only while signed in",
    ErrorCode.ACCOUNT_SEAT: "`name` for a seat an account holds: it goes by the account's name",
    ErrorCode.CHAT_EMPTY: "a chat line with no visible character once control characters are removed",
    ErrorCode.CHAT_TOO_LONG: "a chat line of more than 300 characters (once cleaned); nothing was sent",
    ErrorCode.CHAT_TOO_FAST: "more chat lines than a page may send (5 in 10 seconds); nothing was sent, "
                             "wait a moment",
    ErrorCode.CHAT_CLOSED: "the creator has closed the watchers' chat",
    ErrorCode.NOT_OVER: "a rematch is offered once the game is over",
    ErrorCode.BAD_EMAIL: "not an email address mail may be sent to (HTTP 400)",
    ErrorCode.BAD_LANGUAGE: "a `language` that is not one the page and the mails speak (`en`, `cs`, `de`; "
                            "HTTP 400)",
    ErrorCode.MAIL_OFF: "an address or turn mails asked of a server started without `--smtp` (HTTP 409)",
    ErrorCode.BAD_SUBSCRIPTION: "a push subscription of the wrong shape, or whose endpoint is not a "
                                "known push service (HTTP 400)",
    ErrorCode.TOO_MANY_SUBSCRIPTIONS: "an account keeps at most 10 browsers for push notifications "
                                      "(HTTP 409)",
    ErrorCode.NOT_LISTED: "a seat asked for in a game that is not in the public lobby (never listed, "
                          "filled, expired or deleted)",
    ErrorCode.SEAT_NOT_OPEN: "a seat asked for that is not open in the lobby (the creator's, a bot's, "
                             "or no such seat)",
    ErrorCode.SEAT_TAKEN: "someone else took the open seat first",
    ErrorCode.ALREADY_SEATED: "the account holds a seat of that game already",
    ErrorCode.WAITING_FOR_PLAYERS: "a move or hint in a public game whose open seats are not all taken "
                                   "yet",
    ErrorCode.TOO_MANY_REQUESTS: "too many seats taken, quick matches asked for or puzzle answers sent "
                                 "a minute from one address or account; wait a little",
    ErrorCode.GAME_NOT_OVER: "HTTP 409: a game is reviewed once it is over",
    ErrorCode.TOO_MANY_REVIEWS: "HTTP 429: more review requests or polls from one address a minute "
                                "than the server answers (see Limits); wait a little",
    ErrorCode.TUTORIAL_MOVE: "in a guided game, a move that is not the one the coach asks for at that "
                             "step (`explain` names the coach's words for it); nothing changes, try again",
    ErrorCode.UNKNOWN_PUZZLE: "HTTP 404: no puzzle of that number in that edition",
}


class CloseCode(IntEnum):
    """Every code with which the server closes a game's websocket (4000-4999 are for
    applications); :data:`CLOSE_MEANINGS` says each.  The reason sent with each is its name in
    lower case (``too_slow``), except where the table says otherwise."""

    TOO_BIG = 1009
    RESTART = 1012
    TOO_SLOW = 4008
    SILENT = 4009
    BAD_ORIGIN = 4403
    GONE = 4404
    NO_HELLO = 4408
    TOO_MANY_WATCHERS = 4429


CLOSE_MEANINGS: dict[CloseCode, str] = {
    CloseCode.TOO_BIG: "a frame over 64 KiB (refused by the websocket layer itself)",
    CloseCode.RESTART: "`service_restart`: the server process is stopping (SIGTERM, a rolling restart); "
                       "every move acknowledged is stored: reconnect (to another process, or to this "
                       "address in a moment) and the game goes on",
    CloseCode.TOO_SLOW: "`too_slow`: the page fell 64 messages behind, or a message took it over 5 s to "
                        "take; the connection is cut 2 s later if the page has not closed it (even "
                        "one that never reads); a reconnect resyncs",
    CloseCode.SILENT: "`silent`: no word from the page (not even `pong`) for `silent_after` seconds "
                      "(20; see Heartbeat); the connection is cut 2 s later if still open",
    CloseCode.BAD_ORIGIN: "another site's page (its `Origin`); closed before it opens",
    CloseCode.GONE: "`deleted`: the game was deleted; without a reason: there is no such game",
    CloseCode.NO_HELLO: "`no_hello`: no `hello` within `hello_timeout` seconds (10) of the socket opening",
    CloseCode.TOO_MANY_WATCHERS: "`too_many_watchers`: after the `error` of that code",
}


def literal_of(shape: type, field: str) -> str:
    """The one value a shape's ``field`` may have (its ``Literal[…]``)."""
    for name, annotation, _required in fields_of(shape):
        if name == field:
            (value,) = get_args(annotation)
            return str(value.value if isinstance(value, enum.Enum) else value)
    raise TypeError(f"{shape.__name__} declares no {field!r}")


def type_of(shape: type) -> str:
    """The ``type`` a shape declares (its ``type: Literal[…]`` field)."""
    return literal_of(shape, "type")


# --------------------------------------------------------------------------- words


class Phrase(TypedDict):
    """Words in every language: a key of the page's message catalogues (``web/i18n/<lang>.json``)
    and its parameters, each a number, a name, a phrase, or a list of phrases (joined by the
    catalogue's ``say.sep.<parameter>``); the key ``seat`` with ``{"seat": i}`` is a player. Sent as
    ``say`` beside the English ``text`` rendered from the same English entries (protocol.md, "Words
    in every language")."""

    key: Annotated[str, Length(1, 80)]
    params: Annotated[dict[str, Any], Doc("by name: a number, a name, a phrase (``{key, params}``) or a list "
                                          "of phrases")]


# --------------------------------------------------------------------------- moves


class _Shown(TypedDict):
    """Words a page may leave on a move it took from ``legal`` (ignored by the server)."""

    text: NotRequired[str]
    say: NotRequired[Phrase]
    role: NotRequired[str]


class PlaceMove(_Shown):
    """Put the tile to place (the decision's ``tile``) at (x, y), turned ``rotation`` quarter
    turns clockwise."""

    kind: Literal["place"]
    x: Coord
    y: Coord
    rotation: Annotated[int, Range(0, 3)]
    tile: NotRequired[int]


class OccupyMove(_Shown):
    """Put a piece on a zone of the tile just placed."""

    kind: Literal["occupy"]
    zone: ZoneId
    piece: Piece
    x: NotRequired[int]
    y: NotRequired[int]
    tile: NotRequired[int]


class TakebackMove(_Shown):
    """The shaman's answer: your meeple on ``zone`` of ``tile`` comes back."""

    kind: Literal["takeback"]
    tile: TileId
    zone: ZoneId
    x: NotRequired[int]
    y: NotRequired[int]


class ChooseMove(_Shown):
    """A special's question answered with one of its options (a word of the special's own)."""

    kind: Literal["choose"]
    option: Annotated[str, Length(1, 40), Doc("one lower-case word: an option of the question")]


class PassMove(_Shown):
    """No piece, or decline a special's question (the shaman: take nothing back)."""

    kind: Literal["pass"]
    x: NotRequired[int]
    y: NotRequired[int]
    tile: NotRequired[int]


Move = PlaceMove | OccupyMove | TakebackMove | ChooseMove | PassMove
#: each kind of MOVE and its shape
MOVES: dict[str, type] = {literal_of(m, "kind"): m for m in get_args(Move)}
close(*MOVES.values())

Moves = Annotated[list[Annotated[Any, Later(Move)]], Length(0, MAX_TURN),
                  Says(f"'moves' must be a list of at most {MAX_TURN} moves (one turn)")]


# --------------------------------------------------------------------------- intents


class IntentBase(TypedDict):
    """What every intent may carry (each intent's shape derives from this)."""

    request: NotRequired[Request]


class Hello(IntentBase):
    """The page's first message: the secrets it holds (an outside bot's token is one), the version
    it has, its name."""

    type: Literal[IntentType.HELLO]
    secrets: NotRequired[Annotated[list[Annotated[str, Length(1, 100)]], Length(0, MAX_SECRETS),
                                   Says(f"'secrets' must be a list of at most {MAX_SECRETS} secrets")]]
    version: NotRequired[Version | None]
    name: NotRequired[Annotated[str, Length(0, MAX_NAME_SENT)] | None]


class Turn(IntentBase):
    type: Literal[IntentType.TURN]
    seat: Seat
    version: Version
    moves: Annotated[Moves, Doc("the turn's moves, at least one (a seat it does not hold is refused first)")]


class PreviewIntent(IntentBase):
    type: Literal[IntentType.PREVIEW]
    seat: Seat
    version: Version
    moves: Moves


class HintIntent(IntentBase):
    type: Literal[IntentType.HINT]
    seat: Seat
    version: Version
    moves: NotRequired[Moves | None]


class Resign(IntentBase):
    type: Literal[IntentType.RESIGN]
    seat: Seat
    version: Version


class Undo(IntentBase):
    type: Literal[IntentType.UNDO]
    seat: Seat
    version: Version


class Name(IntentBase):
    type: Literal[IntentType.NAME]
    seat: Seat
    name: Annotated[str, Length(0, MAX_NAME_SENT)]


class SeatChange(IntentBase):
    type: Literal[IntentType.SEAT]
    seat: Seat
    kind: SeatKind
    level: NotRequired[Annotated[str, OneOf(offered_levels)]]
    name: NotRequired[Annotated[str, Length(0, MAX_NAME_SENT), Doc("an outside bot's name")]]


class Resync(IntentBase):
    type: Literal[IntentType.RESYNC]
    version: NotRequired[Version | None]


class ChatIntent(IntentBase):
    type: Literal[IntentType.CHAT]
    seat: NotRequired[Annotated[Seat, Doc("the seat that speaks (the players' channel); without it "
                                          "the line goes to the watchers' channel")]]
    text: Annotated[str, Length(0, MAX_CHAT_SENT),
                    Doc(f"the line: 1 to {MAX_CHAT} visible characters once control characters are "
                        f"removed and spaces folded")]


class ChatWatchersIntent(IntentBase):
    type: Literal[IntentType.CHAT_WATCHERS]
    open: Annotated[bool, Doc("whether watchers may write in their channel")]


class RematchIntent(IntentBase):
    type: Literal[IntentType.REMATCH]
    seat: Seat


class PingIntent(IntentBase):
    type: Literal[IntentType.PING]


class PongIntent(IntentBase):
    type: Literal[IntentType.PONG]


@dataclass(frozen=True)
class IntentSpec:
    """An intent: its shape, when it may come, who may send it and what it does (for the docs)."""

    shape: type
    when: When
    who: str
    does: str
    #: whether it counts against the page's budget of costly intents (a database write, or a
    #: whole view built and sent: :class:`~huntgather.server.connection.Budget`)
    costly: bool = False
    #: the ``type`` its shape declares
    type: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", type_of(self.shape))


INTENTS: dict[str, IntentSpec] = {spec.type: spec for spec in [
    IntentSpec(Hello, When.OPENING, "anyone",
               "`welcome`, `table`, then a `snapshot`, an `update` from `version`, or nothing more "
               "(see Opening)"),
    IntentSpec(Turn, When.JOINED, "the seat's holder, on its turn",
               "the moves are checked, stored, then an `update` goes to every page and an `ack` "
               "to the sender"),
    IntentSpec(PreviewIntent, When.JOINED, "the seat's holder, on its turn",
               "a `preview`: what the moves would lead to; nothing is stored or shared"),
    IntentSpec(HintIntent, When.JOINED, "the seat's holder, on its turn",
               "a `hint`: the expert bot's three best turns (after `moves`, which may be empty); "
               "refused with `rated_no_hints` in a rated game"),
    IntentSpec(Resign, When.JOINED, "the seat's holder",
               "the seat is handed to an `easy` bot for the rest of the game; its secret stops "
               "working; a `table` goes to every page, an `ack` to the sender; in a rated game "
               "the seat's person ranks last", costly=True),
    IntentSpec(Undo, When.JOINED, "the seat's holder, in a game where every other seat is a bot",
               "the seat's last turn and the bots' turns after it are taken back (stored as a new "
               "version); a `snapshot` goes to every page and an `ack` to the sender; refused "
               "with `no_undo` in a game with other people or outside bots, before the seat's "
               "first turn, or once the game is over; with `rated_no_undo` in a rated game", costly=True),
    IntentSpec(Name, When.JOINED, "the seat's holder",
               "the display name (1–24 characters once control characters are removed and spaces "
               "folded); a `table` goes to every page, an `ack` to the sender", costly=True),
    IntentSpec(SeatChange, When.JOINED, "the creator",
               "`kind` `bot`: a bot of `level` (default `easy`) plays the seat from now on; "
               "`kind` `human`: the seat becomes a person seat with a new secret, sent back "
               "as `seat_secret`; `kind` `remote`: an outside bot (`name`) plays the seat, with "
               "a new bot token sent back as `seat_secret`; in every case the old secret stops "
               "working, and every page open with it, on every process, loses the seat at once; "
               "a `table` goes to every page, an `ack` to the sender", costly=True),
    IntentSpec(Resync, When.JOINED, "anyone",
               "an `update` from `version`, or a `snapshot` (`version` null or unknown), or "
               "nothing (up to date)", costly=True),
    IntentSpec(ChatIntent, When.JOINED, "with `seat`: the seat's holder; without: a watcher (or anyone)",
               "the line is cleaned (control characters removed, spaces folded), stored, and sent to "
               "every page of the game, on every process, as a `chat`, then an `ack` to the sender; "
               "refused with `chat_empty`, `chat_too_long` (over 300 characters), `chat_too_fast` "
               "(over 5 lines in 10 seconds from one page) or, in the watchers' channel once the "
               "creator closed it, `chat_closed`", costly=True),
    IntentSpec(ChatWatchersIntent, When.JOINED, "the creator",
               "opens or closes the watchers' channel (stored); a `chat_watchers` goes to every page, "
               "an `ack` to the sender", costly=True),
    IntentSpec(RematchIntent, When.JOINED, "the seat's holder, once the game is over",
               "the seat wants a rematch: the `table` shows it (`rematch`); once every person seat "
               "wants one (bots always do), a new game is made with the same seats, the same bots, "
               "the next start player, a new secret deal (rated if this one was), and each page "
               "gets a `rematch` with the new game's id and the secrets of the seats it holds; "
               "refused with `not_over` while the game is on", costly=True),
    IntentSpec(PongIntent, When.ANYTIME, "anyone",
               "the answer to the server's `ping` (see Heartbeat); nothing is sent back"),
    IntentSpec(PingIntent, When.ANYTIME, "anyone", "a `pong`"),
]}


class _Envelope(TypedDict):
    type: NotRequired[Any]
    request: NotRequired[Request]


#: what is read of every intent before its type is known
check_envelope: Check = checker(_Envelope)


def check_intent(data: Any) -> Any:
    """An intent checked against the shape of its ``type`` (raises :class:`ProtocolError`,
    ``bad_request``, for an unknown type or a field that does not fit)."""
    kind = data.get("type") if isinstance(data, dict) else None
    spec = INTENTS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"unknown message type; expected {known_intents()}")
    return checker(spec.shape, name=f"{kind} message")(data)


def known_intents() -> str:
    names = [f"'{t}'" for t, spec in INTENTS.items() if spec.when != When.OPENING]
    return f"{', '.join(names[:-1])} or {names[-1]}"


# --------------------------------------------------------------------------- views


class Cell(TypedDict):
    """A tile on the board."""

    x: int
    y: int
    tile: int
    rotation: Annotated[int, Range(0, 3)]


class Returned(TypedDict):
    player: int
    tile: int
    zone: int


class EventView(TypedDict):
    """One log entry: every event has ``kind`` and ``text`` (words for players, without ids or
    coordinates); the rest depends on the kind."""

    kind: str
    text: str
    say: Phrase
    player: NotRequired[int]
    tile: NotRequired[int]
    x: NotRequired[int]
    y: NotRequired[int]
    rotation: NotRequired[int]
    bonus: NotRequired[bool]
    zone: NotRequired[int]
    piece: NotRequired[str]
    role: NotRequired[str]
    returned: NotRequired[list[Returned]]
    points: NotRequired[list[int]]
    tiles: NotRequired[list[int]]
    feature: NotRequired[str]


class PlayerView(TypedDict):
    seat: int
    colour: str
    rgb: str
    letter: str
    score: int
    meeples: int
    huts: int


class OccupantView(TypedDict):
    """A piece on the board; ``stuck``: a fisher or gatherer whose feature no tile left can
    complete."""

    tile: int
    zone: int
    x: int
    y: int
    player: int
    piece: str
    role: str
    stuck: bool


class DecisionView(TypedDict):
    #: ``place``, ``occupy``, or at a special's question the special's name (``shaman``)
    phase: str
    player: int | None
    tile: int | None
    stack: str
    text: str
    say: Phrase
    #: at a special's question: its name, and the question in words (``prompt_say``: in every language)
    special: NotRequired[str]
    prompt: NotRequired[str]
    prompt_say: NotRequired[Phrase]


class LastTile(TypedDict):
    tile: int
    x: int
    y: int
    player: int


class FinalRow(TypedDict):
    kind: str
    points: list[int]
    explanation: str
    say: Annotated[Phrase, Doc("``explanation`` in every language, with its arithmetic")]
    tiles: list[int]


class FinalView(TypedDict):
    rows: list[FinalRow]
    scores: list[int]
    winners: list[int]
    text: str
    say: Annotated[Phrase, Doc("``text`` in every language")]


class ProjectionView(TypedDict):
    """What final scoring would give if the game ended now (:meth:`huntgather.state.State.final_rows`,
    the one scoring module's): each river system with huts and each meadow with hunters, and each
    seat's score with those points added."""

    rows: list[FinalRow]
    scores: Annotated[list[int], Doc("each seat's score now plus its points in ``rows``")]


class Changing(TypedDict):
    """The parts of a view sent whole in snapshots and updates alike (:data:`UPDATE_KEYS`)."""

    players: list[PlayerView]
    occupants: list[OccupantView]
    remaining: Annotated[list[int], Doc("the normal stack's tiles, sorted: what is left, never "
                                        "the order")]
    bonus_left: int
    decision: DecisionView
    legal: list[Move]
    last: list[LastTile]
    over: bool
    final: FinalView | None
    seed: Annotated[int | None, Doc("the seed, once the game is over")]
    projection: Annotated[ProjectionView | None,
                          Doc("final scoring if the game ended now; null once it is over, and in a "
                              "rated game created without `projections`")]


#: the keys an ``update`` replaces whole in a page's view (the board and log only grow)
UPDATE_KEYS: tuple[str, ...] = tuple(name for name, _, _ in fields_of(Changing))


# --------------------------------------------------------------------------- server messages


class Welcome(TypedDict):
    type: Literal[MessageType.WELCOME]
    game: str
    seats: list[int]
    creator: bool
    version: int
    refused: list[int]
    heartbeat: float | None
    rated: NotRequired[Annotated[bool, Doc("true in a rated game (absent otherwise)")]]


class TableSeat(TypedDict):
    seat: int
    kind: SeatKind
    level: str | None
    name: str | None
    joined: bool
    online: bool
    account: Annotated[bool, Doc("held by an account (its name is the account's: `name` refuses it)")]


class ClockView(TypedDict):
    """A game's clock (the server's judgement): each seat's time left at `version` (`left`,
    seconds, as of the server's `now`, a Unix timestamp), the seat whose time runs (`running`,
    null while a bot is to move or the game is over) and when it runs out (`deadline`, a
    server timestamp: a page counts down `deadline - now` from when it got the message, without
    trusting its own clock); `out`: the seats whose time ran out (bots play them now)."""

    kind: ClockKind
    left: list[float]
    running: int | None
    deadline: float | None
    now: float
    version: int
    out: list[int]


class LobbyView(TypedDict):
    """A public game waiting in the lobby: its seats still `open` there, and when the listing
    `expires` (a server timestamp; then the game is deleted unless its seats are taken).  No
    move is made, no bot moves and no clock runs until they are taken."""

    open: list[int]
    expires: float


class Table(TypedDict):
    type: Literal[MessageType.TABLE]
    watchers: int
    rated: Annotated[bool, Doc("a rated game (chosen at creation): no hints, no take-backs")]
    seats: list[TableSeat]
    rematch: NotRequired[Annotated[list[int], Doc("once the game is over: the seats that want a "
                                                  "rematch")]]
    clock: NotRequired[ClockView]
    lobby: NotRequired[LobbyView]


class Timeout(TypedDict):
    """A seat's time ran out: the `on_timeout` bot of level `level` plays it from `version` on."""

    type: Literal[MessageType.TIMEOUT]
    seat: int
    level: str
    version: int


class Snapshot(Changing):
    type: Literal[MessageType.SNAPSHOT]
    game: str
    version: int
    edition: str
    bonus_name: str
    deal: Deal
    board: list[Cell]
    log: list[EventView]
    replay: bool
    rated: Annotated[bool, Doc("a rated game (chosen at creation): no hints, no take-backs")]
    tutorial: Annotated[str | None, Doc("a guided first game: its edition (`GET /api/tutorial/{edition}`), "
                                        "whose steps the coach checks; null in any other game")]


class ReplayView(Snapshot):
    """A position of a game's past (``GET /api/games/{id}/at/{n}``): ``replay`` is true, and
    ``total`` is the game's version."""

    total: int


_From = TypedDict("_From", {"from": int})


class Update(_From, Changing):
    type: Literal[MessageType.UPDATE]
    game: str
    version: int
    events: list[EventView]
    placed: list[Cell]


class Ack(TypedDict):
    type: Literal[MessageType.ACK]
    request: Request
    version: int


class Preview(TypedDict):
    type: Literal[MessageType.PREVIEW]
    request: NotRequired[Request]
    version: int
    decision: DecisionView | None
    legal: list[Move]
    turn_over: bool
    events: list[EventView]


class HintTurn(TypedDict):
    moves: list[Move]
    text: str
    say: Phrase
    value: float
    visits: int
    #: a placement's square in the words a player uses ("north of the meadow with an aurochs")
    where: NotRequired[str]
    where_say: NotRequired[Phrase]
    predicted: NotRequired[list[float]]


class Hint(TypedDict):
    type: Literal[MessageType.HINT]
    request: NotRequired[Request]
    version: int
    player: int
    turns: list[HintTurn]


class SeatSecret(TypedDict):
    type: Literal[MessageType.SEAT_SECRET]
    seat: int
    secret: Annotated[str, Doc("a person seat's secret, or an outside bot's token")]
    kind: Annotated[SeatKind, Doc("the seat's new kind: `human` or `remote`")]


class Ping(TypedDict):
    type: Literal[MessageType.PING]


class Pong(TypedDict):
    type: Literal[MessageType.PONG]


class ChatLine(TypedDict):
    """One line of chat as every page sees it."""

    number: Annotated[int, Doc("the line's number: it only grows (a page that has it already may "
                               "drop it)")]
    channel: ChatChannel
    seat: Annotated[int | None, Doc("the seat that spoke (the players' channel), or null (a watcher)")]
    name: Annotated[str | None, Doc("the seat's name or the watcher's account name, when known")]
    text: str
    at: Annotated[float, Doc("when it was said: seconds since 1970 (UTC)")]


class Chat(ChatLine):
    type: Literal[MessageType.CHAT]


class ChatLog(TypedDict):
    type: Literal[MessageType.CHAT_LOG]
    lines: Annotated[list[ChatLine], Doc(f"the latest {CHAT_HISTORY} lines, oldest first")]
    watchers_open: bool


class ChatWatchers(TypedDict):
    type: Literal[MessageType.CHAT_WATCHERS]
    open: bool


class Rematch(TypedDict):
    type: Literal[MessageType.REMATCH]
    game: Annotated[str, Doc("the new game's id")]
    seats: Annotated[dict[str, str], Doc("the new game's secrets of the seats this page held, by seat "
                                         "number (empty for a watcher)")]
    creator: Annotated[str | None, Doc("the new game's creator secret, to the old game's creator page")]
    again: NotRequired[Annotated[bool, Doc("true when sent after `welcome`: the rematch was made "
                                           "before this page opened the old game (the page offers "
                                           "to open it rather than moving at once)")]]


class Error(TypedDict):
    type: Literal[MessageType.ERROR]
    code: ErrorCode
    message: str
    request: NotRequired[Request]
    version: NotRequired[int | None]
    explain: NotRequired[Annotated[str, Doc("in a guided game, for `tutorial_move`: the key of the coach's "
                                            "words for the mistake (`retry.square`, `retry.rotation`, "
                                            "`retry.no_piece`, `retry.piece`, `retry.zone`, `retry.move`)")]]


@dataclass(frozen=True)
class MessageSpec:
    """A server message: its shape, and when the server sends it (for the docs)."""

    shape: type
    when: str
    #: the ``type`` its shape declares
    type: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", type_of(self.shape))


MESSAGES: dict[str, MessageSpec] = {spec.type: spec for spec in [
    MessageSpec(Welcome, "the answer to `hello`"),
    MessageSpec(Table, "after `welcome`, and to every page whenever the seats or who is there change, "
                       "and in a game with a clock after every stored move (a "
                       "`table` not yet sent when the next one comes is replaced by it: only the "
                       "latest counts)"),
    MessageSpec(Snapshot, "the whole public game: after `welcome` or `resync` when the page's version "
                          "is null or too old; also `GET /api/games/{id}`"),
    MessageSpec(Update, "to every page after each stored move; after `welcome` or `resync` to a page "
                        "that missed a few"),
    MessageSpec(Ack, "to the sender of a `turn` or an `undo`, once it is stored; of a `name`, `resign` or "
                     "`seat`, once done (after the `table` that shows it)"),
    MessageSpec(Preview, "the answer to `preview`"),
    MessageSpec(Hint, "the answer to `hint`"),
    MessageSpec(SeatSecret, "to the creator, after turning a seat into a person seat or an outside "
                            "bot's seat"),
    MessageSpec(Timeout, "to every page when a seat's time on the clock runs out (after the `table` "
                         "that shows the bot in it)"),
    MessageSpec(Ping, "every `heartbeat` seconds (5) unless the page spoke since and was just sent a "
                      "message; answer it with `pong`"),
    MessageSpec(Pong, "the answer to a page's `ping`"),
    MessageSpec(Error, "the answer to an intent that cannot be honoured; nothing changed"),
    MessageSpec(Chat, "to every page, a line of chat once stored (the sender's page too)"),
    MessageSpec(ChatLog, "after `welcome`: the latest chat lines, and whether watchers may write"),
    MessageSpec(ChatWatchers, "to every page when the creator opens or closes the watchers' channel"),
    MessageSpec(Rematch, "to every page, on every process, once every person seat wants a rematch: "
                         "the new game (see `rematch`); after `welcome` to a page of a game whose "
                         "rematch is made (`again`)"),
]}
close(*(spec.shape for spec in MESSAGES.values()), ReplayView, Cell, Returned, EventView, PlayerView,
      OccupantView, DecisionView, LastTile, FinalRow, FinalView, TableSeat, HintTurn, ChatLine, ClockView)


# --------------------------------------------------------------------------- between processes


class SeatNoticeRow(TypedDict):
    seat: Seat
    kind: SeatKind
    level: str | None
    name: str | None
    secret_hash: str | None
    joined: bool
    account_id: NotRequired[int | None]


class MoveNotice(TypedDict):
    """Moves stored, up to `version`; `start` and `moves` ride along when they fit in a
    notification (none of the three after a process's listening connection came back: read
    the moves from the database)."""

    type: Literal[NoticeType.MOVE]
    game: GameId
    version: NotRequired[int]
    start: NotRequired[int]
    moves: NotRequired[list[str]]


class SeatNotice(TypedDict):
    """A seat stored (`seat`: its row; absent: read them all back)."""

    type: Literal[NoticeType.SEAT]
    game: GameId
    seat: NotRequired[SeatNoticeRow]


class DeleteNotice(TypedDict):
    """A game deleted: every process closes its pages of it."""

    type: Literal[NoticeType.DELETE]
    game: GameId


class PresenceNotice(TypedDict):
    """The pages a process has on a game: the seats they hold and how many watch."""

    type: Literal[NoticeType.PRESENCE]
    game: GameId
    process: str
    held: list[int]
    watchers: int


class AskNotice(TypedDict):
    """A process that just loaded a game asks the others who is connected to it."""

    type: Literal[NoticeType.ASK]
    game: GameId
    process: str


class ChatNotice(TypedDict):
    """A chat line stored (`line`), or the watchers' channel opened or closed (`watchers_open`):
    every process sends it to its pages of the game."""

    type: Literal[NoticeType.CHAT]
    game: GameId
    line: NotRequired[ChatLine]
    watchers_open: NotRequired[bool]



class TimeoutNotice(TypedDict):
    """A seat's time ran out (its new row comes as a `seat` notice first): every process tells its
    pages and reads the game's clock back."""

    type: Literal[NoticeType.TIMEOUT]
    game: GameId
    seat: Seat
    version: int


class RematchNotice(TypedDict):
    """A seat asked for a rematch of the game, or its rematch was made: every process reads it back
    from the database (`hg_rematch`), shows the offers in its pages' `table` and, once made, sends
    its pages their `rematch`."""

    type: Literal[NoticeType.REMATCH]
    game: GameId


Notice = (MoveNotice | SeatNotice | DeleteNotice | PresenceNotice | AskNotice | ChatNotice
          | TimeoutNotice | RematchNotice)
NOTICES: dict[str, type] = {type_of(shape): shape for shape in get_args(Notice)}
close(*NOTICES.values(), SeatNoticeRow)


def encode_notice(notice: Notice) -> str:
    """The text of a notice (compact JSON, as every message)."""
    return dumps(dict(notice))


def decode_notice(text: str) -> Notice:
    """A notice read back; raises :class:`ProtocolError` for text that is not one."""
    data = read_json(text)
    kind = data.get("type") if isinstance(data, dict) else None
    shape = NOTICES.get(kind) if isinstance(kind, str) else None
    if shape is None:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"not a notice: {text[:80]!r}")
    notice: Notice = checker(shape, name="notice")(data)
    return notice
