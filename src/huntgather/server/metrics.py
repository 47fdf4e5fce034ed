"""What a server counts for its operators, and the Prometheus endpoint that shows it.

The counts are kept whether or not the endpoint is on, as plain numbers that cost an
addition each (:class:`Tally`): moves stored, hint refusals, open sockets, and
the acknowledgement latencies (a histogram of fixed buckets).  ``huntgather play
--metrics-port N`` serves them on a port of their own (never the players' port, so a reverse
proxy does not expose them), in Prometheus' text format, through ``prometheus-client``
(:func:`serve`); the gauges (games in memory, sockets, the bots' queues) are read at each
scrape.  Off by default: without the option nothing listens.

The metrics (all named ``huntgather_…``, see ``docs/deploy.md``):

=====================================  ========================================================
``games_live``                         games in memory (:class:`~huntgather.server.rooms.Rooms`)
``sockets_open``                       game websockets open
``moves_stored_total``                 moves this process stored (``rate()`` gives moves a second)
``ack_seconds``                        histogram: from a ``turn`` received to its ``ack`` queued
``bot_queue_depth{lane}``              searches waiting or running in each lane of workers
``storage_errors_total``               writes the database refused (conflicts not counted)
``hint_refusals_total``                hints refused as ``busy``
``draining``                           1 once the process drains (SIGTERM), else 0
``loop_lag_seconds``                   how late the event loop runs, smoothed (:mod:`~huntgather.server.load`)
``shed_total``                         new games and connections refused while overloaded
=====================================  ========================================================

>>> t = Tally()
>>> t.observe_ack(0.003); t.observe_ack(0.2); t.observe_ack(30.0)
>>> t.ack_count, t.ack_buckets[:3], t.ack_buckets[-1]
(3, [0, 1, 0], 1)
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("huntgather.server")

#: the upper bounds (seconds) of the acknowledgement latency histogram's buckets
ACK_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


@dataclass
class Tally:
    """A server's counts, shared by its rooms and sockets (all on its event loop; the storage's
    writer thread counts the refused writes itself, :attr:`~huntgather.server.storage.Storage.errors`)."""

    moves_stored: int = 0
    hint_refusals: int = 0
    sockets_open: int = 0
    draining: bool = False
    #: how late the event loop runs, smoothed (seconds; :class:`~huntgather.server.load.LoopLag`)
    loop_lag: float = 0.0
    #: new games and connections refused while overloaded
    shed: int = 0
    #: the count of acknowledgements in each bucket of :data:`ACK_BUCKETS` (not cumulative), and
    #: one more for those above the last bound
    ack_buckets: list[int] = field(default_factory=lambda: [0] * (len(ACK_BUCKETS) + 1))
    ack_count: int = 0
    ack_sum: float = 0.0

    def observe_ack(self, seconds: float) -> None:
        """One acknowledgement, ``seconds`` after its turn was received."""
        self.ack_buckets[bisect.bisect_left(ACK_BUCKETS, seconds)] += 1
        self.ack_count += 1
        self.ack_sum += seconds


class _Collector:
    """The metrics of one server, made from its :class:`Tally` and gauges at each scrape."""

    def __init__(self, tally: Tally, games_live: Callable[[], int], lanes: Callable[[], Mapping[str, int]],
                 storage_errors: Callable[[], int]) -> None:
        self.tally, self.games_live, self.lanes = tally, games_live, lanes
        self.storage_errors = storage_errors

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily

        t = self.tally
        yield GaugeMetricFamily("huntgather_games_live", "Games in memory", value=self.games_live())
        yield GaugeMetricFamily("huntgather_sockets_open", "Game websockets open", value=t.sockets_open)
        yield CounterMetricFamily("huntgather_moves_stored", "Moves this process stored",
                                  value=t.moves_stored)
        yield CounterMetricFamily("huntgather_storage_errors", "Writes the database refused "
                                  "(conflicts with another process not counted)",
                                  value=self.storage_errors())
        yield CounterMetricFamily("huntgather_hint_refusals", "Hints refused because the helper "
                                  "was busy", value=t.hint_refusals)
        yield GaugeMetricFamily("huntgather_draining", "1 while the process drains before it exits",
                                value=int(t.draining))
        yield GaugeMetricFamily("huntgather_loop_lag_seconds", "How late the event loop wakes a timer, "
                                "smoothed", value=t.loop_lag)
        yield CounterMetricFamily("huntgather_shed", "New games and connections refused while "
                                  "overloaded", value=t.shed)
        depth = GaugeMetricFamily("huntgather_bot_queue_depth",
                                  "Searches waiting or running in each lane of bot workers", labels=["lane"])
        for lane, count in sorted(self.lanes().items()):
            depth.add_metric([lane], count)
        yield depth
        counts = list(t.ack_buckets)
        running, buckets = 0, []
        for bound, count in zip((*map(str, ACK_BUCKETS), "+Inf"), counts, strict=True):
            running += count
            buckets.append((bound, running))
        yield HistogramMetricFamily("huntgather_ack_seconds", "Seconds from a turn received to its "
                                    "acknowledgement queued for the page", buckets=buckets,
                                    sum_value=t.ack_sum)


class MetricsServer:
    """The Prometheus endpoint on its own port (a thread of ``prometheus-client``)."""

    def __init__(self, tally: Tally, games_live: Callable[[], int], lanes: Callable[[], Mapping[str, int]],
                 storage_errors: Callable[[], int], port: int, host: str = "127.0.0.1") -> None:
        from prometheus_client import CollectorRegistry, start_http_server

        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(_Collector(tally, games_live, lanes, storage_errors))
        started = start_http_server(port, host, registry=self.registry)
        self._server = started[0] if isinstance(started, tuple) else None
        self.port: int = self._server.server_port if self._server is not None else port

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
