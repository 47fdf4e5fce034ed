"""The SQLite file under a running server: noticed when it is deleted or replaced.

SQLite writes through the file it opened.  If that file is deleted (or another
file is put in its place) while the server runs, the server's connections go
on writing into the old file, which no longer has a name: every write
"succeeds", and all of it is gone at the next start.  And a connection opened
afterwards would silently create a new, empty database under the old name.

So :class:`DatabaseFile` records the file's identity (device and inode) once
the database is open, and the writer compares it with a ``stat`` of the path
before and after each batch of writes (:meth:`DatabaseFile.check`, one system
call): a write made while the file is not the one opened fails with
:class:`DatabaseFileLost` and is not acknowledged.  The loss is final for this
process (its open connections hold the old file) and is logged once as an
ERROR.  :func:`watch_sqlite_file` also makes every connection opened from then
on refuse to create the file (SQLite's ``mode=rw``).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "g.sqlite")
>>> open(path, "w").close()
>>> watched = DatabaseFile(path)
>>> watched.check()
>>> os.remove(path)
>>> watched.check()  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
huntgather.server.dbfile.DatabaseFileLost: .../g.sqlite: the database file was deleted while the ...
>>> watched.problem() is not None
True
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any
from urllib.parse import quote

from sqlalchemy import event
from sqlalchemy.engine import Engine

log = logging.getLogger("huntgather.server")


class DatabaseFileLost(RuntimeError):
    """The SQLite file was deleted or replaced under the server: nothing more can be stored."""


class DatabaseFile:
    """A SQLite file's identity as opened, checked against its path (see the module)."""

    def __init__(self, path: str) -> None:
        self.path = path
        st = os.stat(path)
        self.identity = (st.st_dev, st.st_ino)
        self._lost: str | None = None
        self._lock = threading.Lock()

    def problem(self) -> str | None:
        """Why the file can no longer be written, in plain words (without its path, which only the
        log says), or None while it is the one opened."""
        if self._lost is not None:
            return self._lost
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            why = "was deleted"
        except OSError as exc:
            why = f"cannot be looked at ({exc.strerror or exc})"
        else:
            if (st.st_dev, st.st_ino) == self.identity:
                return None
            why = "was replaced by another file"
        with self._lock:
            if self._lost is None:   # the first to notice says so, once
                self._lost = (f"the database file {why} while the server ran; nothing more is stored: "
                              f"stop the server, restore the file (huntgather restore) and start it again")
                log.error("%s: %s", self.path, self._lost)
        return self._lost

    def check(self) -> None:
        """Raise :class:`DatabaseFileLost` unless the path still names the file that was opened."""
        why = self.problem()
        if why is not None:
            raise DatabaseFileLost(f"{self.path}: {why}")


def sqlite_path(url: str) -> str | None:
    """The file of a plain ``sqlite:///PATH`` URL (None for memory, URI forms and other databases).

    >>> sqlite_path("sqlite:////tmp/g.sqlite"), sqlite_path("sqlite://"), sqlite_path("postgresql://h/db")
    ('/tmp/g.sqlite', None, None)
    """
    if not url.startswith("sqlite:///"):
        return None
    path = url.removeprefix("sqlite:///")
    if not path or path == ":memory:" or "?" in path or path.startswith("file:"):
        return None
    return path


def watch_sqlite_file(engine: Engine, url: str) -> DatabaseFile | None:
    """Watch the file of a SQLite database that is open (and so exists): from now on a connection
    opens it only if it exists (``mode=rw``: never a new empty file).  None for other databases."""
    path = sqlite_path(url)
    if path is None or not os.path.exists(path):
        return None
    watched = DatabaseFile(path)
    uri = "file:" + quote(path) + "?mode=rw"

    def connect_existing(_dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]) -> None:
        watched.check()
        cargs[:] = [uri]
        cparams["uri"] = True

    event.listen(engine, "do_connect", connect_existing)
    return watched
