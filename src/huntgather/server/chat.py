"""Chat at a game's table: cleaning a line, and how many lines a page may send.

A line is cleaned as a name is (:func:`huntgather.server.seats.clean_name`): control and format
characters go, runs of spaces and line breaks become one space; what is left must hold 1 to
:data:`~huntgather.server.messages.MAX_CHAT` characters.  A page may send
:data:`CHAT_BURST` lines at once, then one every ``1 / CHAT_RATE`` seconds
(:func:`chat_budget`): 5 lines in any 10 seconds.  Pages render lines as text only.

>>> clean_chat("  good\\u0000 luck\\n\\n have   fun ")
'good luck have fun'
>>> clean_chat("\\u200b\\u0007 ")
Traceback (most recent call last):
...
huntgather.server.seats.RequestError: a chat line needs at least one visible character
>>> b = chat_budget()
>>> [b.take(0.0) for _ in range(6)], b.take(2.0)
([True, True, True, True, True, False], True)
"""

from __future__ import annotations

import unicodedata

from huntgather.server.connection import Budget
from huntgather.server.messages import MAX_CHAT, ErrorCode
from huntgather.server.seats import RequestError

#: the chat lines a page may send at once, and then a second
CHAT_BURST = 5
CHAT_RATE = 0.5


def clean_chat(raw: str) -> str:
    """A chat line as stored and shown; :class:`RequestError` (``chat_empty``, ``chat_too_long``)
    when it is not one."""
    kept = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in raw)
    text = " ".join(kept.split())
    if not text:
        raise RequestError(ErrorCode.CHAT_EMPTY, "a chat line needs at least one visible character")
    if len(text) > MAX_CHAT:
        raise RequestError(ErrorCode.CHAT_TOO_LONG, f"a chat line holds at most {MAX_CHAT} characters "
                                                    f"(this one has {len(text)}); nothing was sent")
    return text


def chat_budget() -> Budget:
    """A page's budget of chat lines."""
    return Budget(burst=CHAT_BURST, rate=CHAT_RATE)
