"""What every test of the repository needs, doctests of src/huntgather included (tests/conftest.py
holds the tests' fixtures).

Between its calls, Playwright's synchronous API leaves its own event loop marked as running in the
thread that called it, where ``asyncio.run`` then refuses to start ("cannot be called from a running
event loop").  The browser tests keep one chromium for a whole test process (tests/conftest.py,
``chromium_session``), so a test without the browser that runs after one in the same process (the
server tests' clients and many doctests run in ``asyncio.run``) is set up, run and torn down with
no loop marked, and Playwright's is marked again after it, for the next browser test's calls.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest


def _unmarked(item: pytest.Item) -> Iterator[Any]:
    playwright_loop = asyncio.events._get_running_loop()
    if playwright_loop is None or "browser" in getattr(item, "fixturenames", ()):
        return (yield)
    asyncio.events._set_running_loop(None)
    try:
        return (yield)
    finally:
        asyncio.events._set_running_loop(playwright_loop)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[Any]:
    return (yield from _unmarked(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[Any]:
    return (yield from _unmarked(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[Any]:
    return (yield from _unmarked(item))
