"""Which Host names a request may carry (the defence against DNS rebinding).

>>> allowed_hosts("127.0.0.1", ["games.example.org"])
['127.0.0.1', 'localhost', '::1', '[::1]', 'games.example.org']
"""

from __future__ import annotations

import socket

LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: addresses that mean "listen on every address"
EVERYWHERE = ("0.0.0.0", "::", "")


def lan_addresses() -> list[str]:
    """This machine's non-loopback IPv4 addresses, as far as its own name tells (no traffic is sent)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return sorted({str(i[4][0]) for i in infos if not str(i[4][0]).startswith("127.")})


def allowed_hosts(host: str, extra: list[str]) -> list[str]:
    """The Host names a request may carry: loopback, the address listened on (``host``; every
    address of this machine for ``0.0.0.0``), and ``extra``."""
    names = [*LOOPBACK, "[::1]"]
    if host in EVERYWHERE:
        names += lan_addresses()
    elif host not in names:
        names.append(f"[{host}]" if ":" in host else host)
    for name in extra:
        if name not in names:
            names.append(name)
    return names
