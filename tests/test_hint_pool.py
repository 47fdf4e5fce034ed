"""The hint pool shares the hint searches fairly: one at a time per visitor, the rest in order."""

from __future__ import annotations

import asyncio

import pytest

from huntgather.server.hint_pool import HintPool
from huntgather.server.seats import RequestError


async def _hold(pool: HintPool, visitor: str, release: asyncio.Event, log: list[str]) -> None:
    async with pool.slot(visitor):
        log.append(visitor)
        await release.wait()


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_one_visitor_holds_one_slot_however_many_pages_ask() -> None:
    async def run() -> tuple[str, int, list[str]]:
        pool = HintPool(limit=2, wait=5.0)
        release, log = asyncio.Event(), []
        first = asyncio.create_task(_hold(pool, "address:a", release, log))
        await _settle()
        with pytest.raises(RequestError) as second:
            async with pool.slot("address:a"):
                pass
        # the second slot is still free for someone else, at once
        other = asyncio.create_task(_hold(pool, "address:b", release, log))
        await _settle()
        running = pool.running
        release.set()
        await asyncio.gather(first, other)
        return second.value.code, running, log

    code, running, log = asyncio.run(run())
    assert code == "busy"
    assert running == 2 and log == ["address:a", "address:b"]


def test_when_every_slot_is_taken_requests_wait_their_turn_in_order() -> None:
    async def run() -> tuple[list[str], int, int]:
        pool = HintPool(limit=1, wait=5.0)
        gates = {v: asyncio.Event() for v in "abc"}
        log: list[str] = []
        tasks = [asyncio.create_task(_hold(pool, v, gates[v], log)) for v in "abc"]
        await _settle()
        waiting = pool.waiting
        for v in "abc":   # each one done lets the next one in
            gates[v].set()
            await _settle()
        await asyncio.gather(*tasks)
        return log, waiting, pool.running

    log, waiting, running = asyncio.run(run())
    assert log == ["a", "b", "c"]
    assert waiting == 2
    assert running == 0   # every slot given back


def test_a_request_that_waits_too_long_or_finds_the_queue_full_is_busy_and_leaves_no_trace() -> None:
    async def run() -> tuple[str, str, int, int, list[str]]:
        pool = HintPool(limit=1, wait=0.05, queue=1)
        release, log = asyncio.Event(), []
        holder = asyncio.create_task(_hold(pool, "a", release, log))
        await _settle()
        waiter = asyncio.create_task(_hold(pool, "b", release, log))
        await _settle()
        with pytest.raises(RequestError) as full:   # the queue holds one
            async with pool.slot("c"):
                pass
        with pytest.raises(RequestError) as late:
            await waiter
        after_timeout = pool.waiting
        release.set()
        await holder
        # b may ask again: its timed-out request left nothing behind
        release2 = asyncio.Event()
        release2.set()
        await _hold(pool, "b", release2, log)
        return full.value.code, late.value.code, after_timeout, pool.running, log

    full, late, waiting, running, log = asyncio.run(run())
    assert (full, late) == ("busy", "busy")
    assert waiting == 0 and running == 0
    assert log == ["a", "b"]


def test_a_page_gone_while_waiting_gives_its_turn_on() -> None:
    async def run() -> tuple[list[str], int]:
        pool = HintPool(limit=1, wait=5.0)
        gate, log = asyncio.Event(), []
        holder = asyncio.create_task(_hold(pool, "a", gate, log))
        await _settle()
        gone = asyncio.create_task(_hold(pool, "b", gate, log))
        after = asyncio.create_task(_hold(pool, "c", gate, log))
        await _settle()
        gone.cancel()
        await _settle()
        gate.set()
        await asyncio.gather(holder, after)
        return log, pool.running

    log, running = asyncio.run(run())
    assert log == ["a", "c"] and running == 0
