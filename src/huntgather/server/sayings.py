"""The words of the game in every language: a :class:`~huntgather.events.Say` (a key of the page's
message catalogues, ``web/i18n/<lang>.json``, and its parameters) made into a sentence.

The server sends each sentence of the game (log lines, choices, hints, scoring explanations, the
decision) twice: as ``say``, the key and parameters a page words in its own language, and as
``text``, the English that this module renders from the same ``en.json`` entries — so that an
English sentence is written once, in the catalogue (``docs/protocol.md``, "Words in every
language").  The page's renderer (``web/js/i18n.js``, ``say()``) follows the same rules:

- ``{name}`` in a text is its parameter; a number as its digits, a phrase rendered first;
- a list of phrases is joined by the catalogue's ``say.sep.<name>`` (``", "`` without one);
- a plural entry picks its form by the parameter ``n`` (the language's plural rules);
- ``{"key": "seat", "params": {"seat": i}}`` is a player: here its colour, on a page the name
  the page shows for that seat.

>>> from huntgather.phrases import Say
>>> say(Say("say.tiles_times", n=3, per=2))
'3 tiles ×2'
>>> say(Say("say.sum", terms=(Say("say.tiles_times", n=1, per=2),), total=2), "cs")
'1 kartička ×2 = 2'
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from huntgather.phrases import Said, Say
from huntgather.server.mail_words import Entry, plural_form
from huntgather.svg import PLAYER_NAMES

CATALOGUES = Path(__file__).resolve().parent.parent / "web" / "i18n"
_PARAM = re.compile(r"\{(\w+)\}")


@cache
def catalogue(lang: str) -> dict[str, Entry]:
    """The page's catalogue of ``lang`` (``en``, ``cs``, ``de``)."""
    data = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def say(phrase: Say, lang: str = "en") -> str:
    """``phrase`` in ``lang``'s words (English by default: a message's ``text``)."""
    words = catalogue(lang)
    if phrase.key == "seat":
        seat = phrase.params["seat"]
        assert isinstance(seat, int)
        name = PLAYER_NAMES[seat] if 0 <= seat < len(PLAYER_NAMES) else str(seat)
        entry = words.get(f"colour.{name}", name)
        return entry if isinstance(entry, str) else name
    found = words.get(phrase.key)
    if found is None:
        raise KeyError(f"{phrase.key} is not in the {lang} catalogue")
    if isinstance(found, dict):
        n = phrase.params.get("n", 0)
        entry = found.get(plural_form(lang, n if isinstance(n, int) else 0), found["other"])
    else:
        entry = found

    def value(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in phrase.params:
            return m.group(0)
        v = phrase.params[name]
        if isinstance(v, Say):
            return say(v, lang)
        if isinstance(v, tuple):
            sep = words.get(f"say.sep.{name}", ", ")
            return (sep if isinstance(sep, str) else ", ").join(say(p, lang) for p in v)
        return str(v)

    return _PARAM.sub(value, entry)


def said(phrase: Say) -> Said:
    """``phrase`` in English, carrying the phrase (:class:`~huntgather.events.Said`)."""
    return Said(say(phrase), phrase)
