"""Phrases: a sentence as the message catalogues hold it (a key and its parameters), and English
words that carry one.

The rules core explains its scorings in English (records and the command line print them); each
explanation is a :class:`Said`, a ``str`` that also carries its :class:`Say`, the same sentence as
a key of the page's catalogues (``web/i18n/<lang>.json``) with its parameters, so that the server
can send it for a page to word in its own language (``docs/protocol.md``, "Words in every
language").  The core reads no catalogue: ``huntgather.server.sayings`` renders a :class:`Say`.

Not compiled by mypyc (``setup.py``): :class:`Said` subclasses ``str``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

#: a parameter of a :class:`Say`: a number, a word that needs no translation (a name), a seat
#: (``Say.seat``), a phrase of its own, or a list of phrases (joined by the catalogue's
#: ``say.sep.<parameter>``)
Param: TypeAlias = "int | str | Say | tuple[Say, ...]"


class Say:
    """A sentence as the catalogues hold it: ``key`` and its ``params`` (which may be phrases).

    >>> Say("say.fish", n=3).json()
    {'key': 'say.fish', 'params': {'n': 3}}
    >>> Say("say.seat_score", seat=Say.seat(1), n=7).json()["params"]["seat"]
    {'key': 'seat', 'params': {'seat': 1}}
    """

    __slots__ = ("key", "params")

    def __init__(self, key: str, **params: Param) -> None:
        self.key = key
        self.params: Mapping[str, Param] = params

    @staticmethod
    def seat(seat: int) -> Say:
        """A player by seat: each page names it as it names the seat (its colour, or its name)."""
        return Say("seat", seat=seat)

    @staticmethod
    def words(text: str) -> Say:
        """Words that have no key (a special tile of a third party's edition): said as they are."""
        return Say("say.raw", text=text)

    def json(self) -> dict[str, object]:
        """The wire form: ``{"key": ..., "params": {...}}``, phrases nested the same way."""
        return {"key": self.key, "params": {name: _param_json(v) for name, v in self.params.items()}}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Say) and self.json() == other.json()

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Say({self.key!r}, {dict(self.params)!r})"


def _param_json(value: Param) -> object:
    if isinstance(value, Say):
        return value.json()
    if isinstance(value, tuple):
        return [v.json() for v in value]
    return value


class Said(str):
    """English words that also carry their :class:`Say` (``.say``): a ``str`` everywhere else.

    >>> text = Said("3 fish", Say("say.fish", n=3))
    >>> text == "3 fish", text.say.key
    (True, 'say.fish')

    :func:`later` makes one whose :class:`Say` is made only when ``.say`` is first read: most
    games that explain their scorings (a record, a test) never read it.
    """

    __slots__ = ("_say",)
    #: the phrase, or what makes it (a function and its arguments) until ``.say`` is read
    _say: Say | tuple[Callable[..., Say], tuple[Any, ...]]

    def __new__(cls, text: str, say: Say) -> Said:
        made = super().__new__(cls, text)
        made._say = say
        return made

    @property
    def say(self) -> Say:
        """The same sentence as a key of the catalogues and its parameters."""
        said = self._say
        if isinstance(said, Say):
            return said
        make, args = said
        phrase = self._say = make(*args)
        return phrase

    def __reduce__(self) -> tuple[object, ...]:
        return Said, (str(self), self.say)


def later(text: str, make: Callable[..., Say], *args: Any) -> Said:
    """``Said(text, make(*args))``, ``make`` called only when ``.say`` is first read: ``args``
    must not change meanwhile (numbers, strings, tuples, :class:`Said` words).

    >>> text = later("3 fish", lambda n: Say("say.fish", n=n), 3)
    >>> text == "3 fish", text.say == Say("say.fish", n=3)
    (True, True)
    """
    made = str.__new__(Said, text)
    made._say = (make, args)
    return made


def say_of(text: str) -> Say:
    """The :class:`Say` of ``text`` (its own, or its words as they are)."""
    return text.say if isinstance(text, Said) else Say.words(text)


def says(texts: Sequence[str]) -> tuple[Say, ...]:
    return tuple(say_of(t) for t in texts)
