"""The register of special tiles by name: which specials tile data may print, and where.

It sits low in the rules core (above :mod:`huntgather.kinds` only), so that
:mod:`huntgather.tiles` can check the specials printed in tile data without
importing :mod:`huntgather.specials`, which scores and so sits far above it.
The specials themselves are registered by :func:`huntgather.specials.register_special`
(a class decorator), which keeps them here; read them through
:func:`huntgather.specials.special_named` and :func:`huntgather.specials.known_specials`,
which give them their full type.

>>> "pit_trap" in printable_names()   # once huntgather.specials is imported, as huntgather does
True
"""

from __future__ import annotations

from typing import Protocol


class Printable(Protocol):
    """What the tile data needs of a special: its word and the kinds of zone it may be printed on."""

    @property
    def name(self) -> str: ...
    @property
    def zone_kinds(self) -> tuple[str, ...]: ...


_PRINTABLE: dict[str, Printable] = {}


def keep(special: Printable) -> None:
    """Keep ``special`` under its name (in place of any special of that name)."""
    _PRINTABLE[special.name] = special


def forget(name: str) -> bool:
    """Forget the special called ``name``; whether there was one."""
    return _PRINTABLE.pop(name, None) is not None


def printable(name: str) -> Printable | None:
    """The special registered as ``name``, or None."""
    return _PRINTABLE.get(name)


def printable_names() -> tuple[str, ...]:
    """The names of the registered specials, sorted."""
    return tuple(sorted(_PRINTABLE))
