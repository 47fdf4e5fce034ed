"""A game's public view as the server sends it, and how an ``update`` changes it.

A view is the ``snapshot`` message (``docs/protocol.md``): a plain dict with
``version``, ``board``, ``log``, ``players``, ``decision``, ``legal`` and the rest.
An ``update`` from version ``from`` carries the new tiles (``placed``) and log
entries (``events``), which are appended, and every other changing part whole,
which replaces the old one: exactly what the page's reducer does
(``applyUpdate`` in ``web/js/game.js``).

>>> view = {"version": 1, "board": [{"x": 0, "y": 0, "tile": 1, "rotation": 0}], "log": [], "over": False}
>>> update = {"type": "update", "from": 1, "version": 4, "events": [{"kind": "TilePlaced"}],
...           "placed": [{"x": 1, "y": 0, "tile": 7, "rotation": 2}], "over": True}
>>> new = apply_update(view, update)
>>> new["version"], len(new["board"]), new["log"], new["over"], view["version"]
(4, 2, [{'kind': 'TilePlaced'}], True, 1)
>>> follows(view, update), follows(new, update)
(True, False)
"""

from __future__ import annotations

from typing import Any

__all__ = ["REPLACED", "GapError", "apply_update", "follows"]

#: the parts of a view that an update gives whole (the board and the log only grow): the server's
#: ``messages.UPDATE_KEYS``, copied so that the client needs no server (a test checks they agree)
REPLACED = ("players", "occupants", "remaining", "bonus_left", "decision", "legal", "last", "over", "final",
            "seed", "projection")


class GapError(ValueError):
    """An update that does not start at the view's version: the view must be resynced."""


def follows(view: dict[str, Any], update: dict[str, Any]) -> bool:
    """Whether ``update`` starts at ``view``'s version (so that it can be applied)."""
    return bool(update.get("from") == view.get("version"))


def apply_update(view: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """The view after ``update`` (a new dict; ``view`` is left as it was).

    The new tiles and log entries are appended, the parts of :data:`REPLACED`
    that the update holds replace the old ones, and the version becomes the
    update's.  Raises :class:`GapError` when the update does not start at the
    view's version (the page missed something: it resyncs).
    """
    if not follows(view, update):
        raise GapError(f"an update from version {update.get('from')} does not follow version "
                       f"{view.get('version')}")
    new = dict(view)
    new["board"] = [*view.get("board", []), *update.get("placed", [])]
    new["log"] = [*view.get("log", []), *update.get("events", [])]
    for key in REPLACED:
        if key in update:
            new[key] = update[key]
    new["version"] = update["version"]
    return new
