"""Helpers for tests that drive the server's app in process (Starlette's TestClient).

Test modules import this file by name (``from app_helpers import ...``), as they do
play_server.py for real server processes.
"""

from __future__ import annotations

import warnings
from typing import Any

from argon2 import PasswordHasher
from starlette.applications import Starlette

with warnings.catch_warnings():   # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from huntgather.server import create_app
from huntgather.server.accounts import Accounts

PASSWORD = "correct horse"


class CountingHasher(PasswordHasher):
    """Cheap argon2id that counts how many passwords it verified."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8192, parallelism=1)
        self.verified = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.verified += 1
        return super().verify(hash, password)


def make_app(**options: Any) -> Starlette:
    """An app on an in-memory database, bots answering at once, accounts with a cheap hasher."""
    app = create_app("sqlite://", bot_delay=0.0, worker_processes=False, **options)
    app.state.accounts = Accounts(app.state.storage, hasher=CountingHasher())
    return app


def device(app: Starlette, address: str = "testclient", base_url: str = "http://testserver") -> TestClient:
    """Another browser (its own cookies), from ``address``."""
    return TestClient(app, client=(address, 50000), base_url=base_url)


def sign_up(c: TestClient, name: str = "Ann Lee", password: str = PASSWORD) -> dict[str, Any]:
    r = c.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()["account"]
    return made


def recv(ws: Any, *types: str, skip: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The next message of one of ``types``, the server's pings answered (as a page does).

    With ``skip``, only messages of those types may come before it; without, any may except
    an ``error`` (unless ``types`` names it): anything else fails the test."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] in types:
            return msg
        if msg["type"] == "ping":
            ws.send_json({"type": "pong"})
            continue
        if skip is None:
            assert msg["type"] != "error", msg
        else:
            assert msg["type"] in skip, f"expected {types}, got {msg}"
