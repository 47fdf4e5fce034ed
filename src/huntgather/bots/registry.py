"""The registry of bot specs: each spec with a fixed meaning registered once, with everything that
offers it.

A :class:`BotSpec` is a name (what :func:`~huntgather.bots.make_bot` and the command line
accept), how to make the bot from a seed, a description in plain words (the browser's level
picker shows it), and where it is offered: a ``lane`` of the server's workers if players may
seat it in the browser (:mod:`huntgather.server.seats`, :mod:`huntgather.server.workers`), with
the server's safety net in seconds, and whether it stands on the ladder (played by
:mod:`huntgather.lab.ladder`; the published one is read by :mod:`huntgather.bots.ladder`).  The
command line (:func:`spec_names`), the server
(:func:`offered_levels`, :func:`get_spec`) and the ladder (:func:`ladder_specs`) all read it
here, when asked, so adding a level is one :func:`register` call: the shipped levels are
registered by :mod:`huntgather.bots.levels`, which :mod:`huntgather.bots` imports.

The server searches in spawned worker processes, which see the registrations made when
:mod:`huntgather.bots` is imported, not those made later in the server's process.

>>> from huntgather.bots.greedy import GreedyBot
>>> spec = register(BotSpec("doubtful", GreedyBot, "a made-up level", lane="light", ladder=True))
>>> "doubtful" in spec_names(), "doubtful" in offered_levels(), "doubtful" in ladder_specs()
(True, True, True)
>>> unregister("doubtful") is spec, get_spec("doubtful") is None
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from huntgather.bots.base import Bot

#: the server's worker lanes a bot may search in (:class:`huntgather.server.workers.Workers`)
LANES = ("light", "heavy")
Lane = Literal["light", "heavy"]


@dataclass(frozen=True)
class BotSpec:
    """One bot spec: its name, how to make it, its words, and where it is offered."""

    #: what :func:`~huntgather.bots.make_bot` accepts (lower case, no spaces)
    name: str
    #: the bot from a seed (None: a random seed)
    factory: Callable[[int | None], Bot]
    #: what it does, in plain words (the browser shows them where a level is chosen)
    description: str
    #: the server's worker lane if players may seat it in the browser (``light`` for the quick
    #: bots, so that they never wait behind a long search; ``heavy``); None: not offered there
    lane: Lane | None = None
    #: the server's safety net: its search stops after this many seconds whatever its budget
    #: (None: no limit, for a bot that does not search)
    safety_seconds: float | None = None
    #: whether it stands on the published ladder (``huntgather ladder``'s default levels)
    ladder: bool = False

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip().lower() or " " in self.name:
            raise ValueError(f"a bot spec's name is lower case without spaces, not {self.name!r}")
        if self.lane is not None and self.lane not in LANES:
            raise ValueError(f"unknown lane {self.lane!r}; expected one of {', '.join(LANES)}")
        if self.safety_seconds is not None and (self.lane is None or self.safety_seconds <= 0):
            raise ValueError("safety seconds are positive, for a bot the server offers")


_SPECS: dict[str, BotSpec] = {}


def register(spec: BotSpec) -> BotSpec:
    """Add ``spec`` (after those registered before it: the order of every list here); raise
    ``ValueError`` if its name is taken."""
    if spec.name in _SPECS:
        raise ValueError(f"a bot spec named {spec.name!r} is registered already")
    _SPECS[spec.name] = spec
    return spec


def unregister(name: str) -> BotSpec:
    """Remove the spec named ``name`` and return it (``KeyError`` if there is none)."""
    return _SPECS.pop(name)


def get_spec(name: str) -> BotSpec | None:
    """The spec named ``name``, or None."""
    return _SPECS.get(name)


def registered() -> tuple[BotSpec, ...]:
    """Every spec, in the order of registration."""
    return tuple(_SPECS.values())


def spec_names() -> tuple[str, ...]:
    """The bot specs with a fixed meaning (``mcts:N`` is accepted as well).

    >>> spec_names()[:3]
    ('random', 'greedy', 'greedy:tuned')
    """
    return tuple(_SPECS)


def offered_levels() -> tuple[str, ...]:
    """The levels a seat may be given in the browser, weakest first.

    >>> offered_levels()
    ('random', 'greedy', 'easy', 'medium', 'hard', 'expert', 'master')
    """
    return tuple(name for name, spec in _SPECS.items() if spec.lane is not None)


def ladder_specs() -> tuple[str, ...]:
    """The levels of the published ladder, weakest first.

    >>> ladder_specs()
    ('random', 'greedy', 'easy', 'medium', 'hard', 'expert', 'master')
    """
    return tuple(name for name, spec in _SPECS.items() if spec.ladder)
