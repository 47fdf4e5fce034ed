"""The CPU seconds a Linux control group has used, for the tools that count every process of a
measurement together (``tools/suite_cpu.py``, ``tools/page_load_cost.py``): imported by them, not run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def usage_reader(group: Path) -> Callable[[], float]:
    """A function returning the group's CPU seconds so far (cgroup v1 cpuacct or v2 cpu.stat)."""
    v1 = group / "cpuacct.usage"
    if v1.exists():
        return lambda: int(v1.read_text()) / 1e9
    v2 = group / "cpu.stat"
    if v2.exists():
        def read() -> float:
            for line in v2.read_text().splitlines():
                name, value = line.split()
                if name == "usage_usec":
                    return int(value) / 1e6
            raise RuntimeError(f"no usage_usec in {v2}")
        return read
    raise RuntimeError(f"{group} is not a control group with CPU accounting")
