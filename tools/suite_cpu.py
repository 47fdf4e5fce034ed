"""A pytest plugin: the CPU time of every test, with every process it starts (servers, chromium,
Playwright's driver, workers), from the Linux control group the run is in.

A test's wall time says little on a loaded machine, and the CPU time of the test process alone
misses the browser and the servers, which are most of a browser test's cost.  A control group
counts every process started inside it, so run the tests, one at a time (no ``-n``), in a group
of their own (as root)::

    mkdir -p /sys/fs/cgroup/cpuacct/suite          # cgroup v1; v2: mkdir /sys/fs/cgroup/suite
    sh -c 'echo $$ > /sys/fs/cgroup/cpuacct/suite/cgroup.procs
           exec env PYTHONPATH=tools SUITE_CPU_GROUP=/sys/fs/cgroup/cpuacct/suite \\
             SUITE_CPU_OUT=/tmp/suite-cpu.tsv .venv/bin/python -m pytest -p suite_cpu -q -m "not lab"'
    python tools/suite_cpu.py /tmp/suite-cpu.tsv   # the totals by file, biggest first

Each line of the output file is ``CPU seconds, wall seconds, test id``, tab-separated; a
module-scoped fixture (a file's browser) is counted in the first test that uses it.
"""

from __future__ import annotations

import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest
from cgroup_cpu import usage_reader

_GROUP = os.environ.get("SUITE_CPU_GROUP")
_usage = usage_reader(Path(_GROUP)) if _GROUP else None
_out = Path(os.environ.get("SUITE_CPU_OUT", "suite-cpu.tsv"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    if _usage is None:
        yield
        return
    cpu, wall = _usage(), time.monotonic()
    yield
    with _out.open("a", encoding="utf-8") as f:
        f.write(f"{_usage() - cpu:.2f}\t{time.monotonic() - wall:.2f}\t{item.nodeid}\n")


def main(path: str) -> None:
    """Print the CPU and wall seconds by test file, biggest first, and the totals."""
    cpu: dict[str, float] = defaultdict(float)
    wall: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        c, w, node = line.split("\t")
        name = node.split("::")[0]
        cpu[name] += float(c)
        wall[name] += float(w)
        count[name] += 1
    print(f"{'CPU s':>8} {'wall s':>8} {'tests':>6}  file")
    for name in sorted(cpu, key=lambda n: -cpu[n]):
        print(f"{cpu[name]:8.1f} {wall[name]:8.1f} {count[name]:6d}  {name}")
    print(f"{sum(cpu.values()):8.1f} {sum(wall.values()):8.1f} {sum(count.values()):6d}  in all")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tools/suite_cpu.py FILE.tsv")
    main(sys.argv[1])
