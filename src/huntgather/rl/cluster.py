"""Spreading jobs over a Ray cluster with the ``concurrent.futures`` interface.

:class:`RayExecutor` has ``submit`` and ``shutdown`` like a
``ProcessPoolExecutor``, and its futures are real ``concurrent.futures``
futures, so the code that runs jobs in local processes runs them on Ray
unchanged (``huntgather tournament --ray``, ``huntgather selfplay --ray``).
Jobs must be module-level functions of an installed package: every machine
of the cluster needs the same version of huntgather installed.

Addresses: ``auto`` (the cluster this machine belongs to, as started with
``ray start``), ``ray://HOST:10001`` (a Ray client connection), ``HOST:6379``
(a head node), or ``local`` (start a private Ray instance on this machine).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import Any


def ray_module() -> Any:
    """``import ray``, with a clear message when the extra is missing."""
    try:
        import ray
    except ImportError:
        raise ImportError("Ray is not installed: pip install 'huntgather[rl]'") from None
    return ray


class RayExecutor:
    """Submit functions as Ray tasks (one CPU each); connects on creation.

    >>> RayExecutor.__name__
    'RayExecutor'
    """

    def __init__(self, address: str, num_cpus: int | None = None) -> None:
        ray = ray_module()
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            if address == "local":
                ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
            self._started = True
        self._remote: dict[Callable[..., Any], Any] = {}

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(num_cpus=1)(fn)
        future: Future[Any] = remote.remote(*args).future()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Disconnect (and stop a private instance) if this executor connected."""
        if self._started:
            self._ray.shutdown()
            self._started = False

    def cpus(self) -> int:
        """CPUs the cluster offers."""
        return int(self._ray.cluster_resources().get("CPU", 1))
