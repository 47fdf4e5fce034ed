"""``huntgather restore``: put a backup in place of the games database (see :mod:`.backup`)."""

from huntgather.commands.backup import register_restore as register

__all__ = ["register"]
