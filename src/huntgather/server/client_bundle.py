"""The page's modules sent as one file: ``/static/app.js`` bundled by esbuild, where it is installed.

The page's entry module (``web/app.js``) imports some forty small ES modules (``web/js/*.js``).
Served as they are, a browser asks for each one, and each answer costs the page's renderer, the
browser and the server a little: a new page loads in about 0.44 s of wall time and 0.83 s of CPU
on loopback with 41 requests, 0.33 s and 0.63 s with 7 when the modules come as one file
(docs/play.md, "How the page is served").  Over a real network the difference is larger: a
module's imports are found only once it has arrived, so each level of imports costs a round
trip.

esbuild (Debian's package ``esbuild``; any ``esbuild`` on the ``PATH``, or the program that
``HUNTGATHER_ESBUILD`` names) bundles the modules as they are, once per server process, at the
first request for ``/static/app.js``: the same code, in the order the browser would run it, with
a comment naming each module; not minified.  The answer is sent compressed when the browser
accepts gzip (compressed once, not at each request), with an ETag so that a reload asks only
whether it changed.  Without esbuild, or with ``huntgather play --no-bundle`` (a page's module
edited shows at the next reload, without restarting the server), the modules are served one by
one as before; every module stays served under ``/static/js/`` in both cases.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import os
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache

log = logging.getLogger(__name__)

#: the environment variable naming the esbuild program (else ``esbuild`` on the ``PATH``)
ESBUILD_VARIABLE = "HUNTGATHER_ESBUILD"

#: the longest a bundling may take before the modules are served one by one instead
BUNDLE_TIMEOUT = 60.0


@dataclass(frozen=True)
class Bundle:
    """The entry module with every module it imports, as sent."""

    #: the bundle's JavaScript (UTF-8)
    body: bytes
    #: the same, gzip-compressed
    gzipped: bytes
    #: a strong ETag (quoted) of ``body``
    etag: str


def esbuild_program() -> str | None:
    """The esbuild program to bundle with: ``HUNTGATHER_ESBUILD`` if set, else ``esbuild`` on
    the ``PATH``; None where there is none."""
    named = os.environ.get(ESBUILD_VARIABLE, "").strip()
    if named:
        return named
    return shutil.which("esbuild")


def bundle_command(program: str) -> list[str]:
    """The command that prints the bundle of ``app.js`` (run in the client's directory)."""
    return [program, "app.js", "--bundle", "--format=esm", "--charset=utf8", "--log-level=error"]


@cache
def client_bundle(web: str) -> Bundle | None:
    """The bundle of ``web/app.js`` and its imports (made once per process and directory), or
    None where esbuild is missing or fails (said once in the log, as a warning when it failed)."""
    program = esbuild_program()
    if program is None:
        log.info("esbuild is not installed: the page's modules are served one by one")
        return None
    try:
        done = subprocess.run(bundle_command(program), cwd=web, capture_output=True,
                              timeout=BUNDLE_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("could not bundle the page's modules with %s (%s): serving them one by one",
                    program, exc)
        return None
    if done.returncode != 0 or not done.stdout:
        said = done.stderr.decode("utf-8", "replace").strip()[:500]
        log.warning("esbuild (%s) failed to bundle the page's modules (exit %s: %s): serving them "
                    "one by one", program, done.returncode, said)
        return None
    body = done.stdout
    return Bundle(body, gzip.compress(body, compresslevel=9, mtime=0),
                  '"' + hashlib.sha256(body).hexdigest()[:32] + '"')
