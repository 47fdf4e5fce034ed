"""A client of huntgather's online protocol (``docs/protocol.md``), for bots and tools.

Async and typed, on ``websockets`` and ``httpx`` (both in the ``web`` extra)::

    from huntgather.client import GameConnection, create_game

    made = await create_game("http://127.0.0.1:8765", {"seats": [{"kind": "human"}, {"kind": "bot"}]})
    async with await GameConnection.open("http://127.0.0.1:8765", made["id"], [made["seats"]["0"]]) as page:
        if page.my_turn:
            await page.turn([page.view["legal"][0], {"kind": "pass"}])

* :mod:`huntgather.client.connection`: :class:`GameConnection`, one page of a game;
* :mod:`huntgather.client.http`: :func:`create_game`, :func:`get_game`, :func:`delete_game`;
* :mod:`huntgather.client.view`: :func:`apply_update`, what an ``update`` does to a view;
* :mod:`huntgather.client.position`: :func:`state_of`, the engine position behind a view, and
  :func:`bot_turn`, a whole turn chosen by one of :mod:`huntgather.bots`.

``docs/client.md`` shows a whole bot (``examples/client_bot.py``) and a whole outside bot,
one that plays a seat held by a bot token (``examples/remote_bot.py``).
"""

from __future__ import annotations

from huntgather.client.connection import Disconnected, GameConnection, Message, ServerError, websocket_url
from huntgather.client.http import ApiError, create_game, delete_game, get_game
from huntgather.client.position import bot_turn, move_json, state_of, turn_json
from huntgather.client.view import GapError, apply_update, follows

__all__ = ["ApiError", "Disconnected", "GameConnection", "GapError", "Message", "ServerError", "apply_update",
           "bot_turn", "create_game", "delete_game", "follows", "get_game", "move_json", "state_of",
           "turn_json", "websocket_url"]
