"""What loading the page costs: wall time and CPU of a new page, bundled and not.

A real ``huntgather play`` (with ``--bundle``, its default, and with ``--no-bundle``: the page's
modules as one file where esbuild is installed, or one by one; docs/play.md, "How the page is
served") and Debian's headless chromium under Playwright.  One load: a new browser context and
page (1400 x 900), the page opened on the New game screen until it says it is ready
(``body[data-ready='1']``), the context closed: what every browser test and every new visitor
pays.

CPU is counted for every process together (the server and its workers, chromium's processes,
Playwright's driver, this script) by a Linux control group that the script moves itself into
(``--cgroup``, as root; made if missing: cgroup v1's ``cpuacct.usage`` or v2's ``cpu.stat``).
Without one it adds up the CPU of this script's finished children, as the kernel reports them
once they are waited for: chromium leaves some of its renderers to be reaped by others, so that
count misses part of their CPU (about half of a load's, on the development machine) and says so.
Each round starts and stops its own server and browser; a round of ``--loads`` loads less a
round of 2 takes out the start-up and the ending; the rounds of the two ways alternate,
``--rounds`` times.

    python tools/page_load_cost.py [--loads 20] [--rounds 3] [--cgroup /sys/fs/cgroup/cpuacct/pageload]

Prints one line per round and way: requests per load, wall seconds per load (the median of the
round's loads) and CPU seconds per load.  Figures are recorded in docs/play.md and
docs/results/NOTES.md; nothing asserts on them.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cgroup_cpu import usage_reader
from play_process import play_process

#: chromium's options as the browser tests start it (tests/conftest.py, less the features list)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--headless=new", "--disable-dev-shm-usage"]


#: the CPU seconds so far of the control group counted (``--cgroup``), or None: this process and
#: its children
GROUP_USAGE: Callable[[], float] | None = None


def cpu_so_far() -> float:
    """CPU seconds of the control group, or of this process and every finished process below it."""
    if GROUP_USAGE is not None:
        return GROUP_USAGE()
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def one_round(chromium: str, loads: int, bundle: bool) -> tuple[float, list[float], int]:
    """CPU seconds, the loads' wall seconds and the requests of the last load, for one round."""
    from playwright.sync_api import sync_playwright

    before = cpu_so_far()
    with tempfile.TemporaryDirectory() as tmp:
        walls: list[float] = []
        requests: list[str] = []
        way = "--bundle" if bundle else "--no-bundle"
        with play_process(str(Path(tmp) / "games.sqlite"), way) as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            for _ in range(loads):
                requests.clear()
                start = time.perf_counter()
                context = browser.new_context(viewport={"width": 1400, "height": 900})
                page = context.new_page()
                page.on("request", lambda r: requests.append(r.url))
                page.goto(url + "#/new")
                page.wait_for_selector("body[data-ready='1']")
                context.close()
                walls.append(time.perf_counter() - start)
            browser.close()
    return cpu_so_far() - before, walls, len(requests)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--loads", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cgroup", type=Path, help="a control group to count the CPU in (as root)")
    args = ap.parse_args()
    global GROUP_USAGE
    if args.cgroup is not None:
        args.cgroup.mkdir(parents=True, exist_ok=True)
        (args.cgroup / "cgroup.procs").write_text(str(os.getpid()))
        GROUP_USAGE = usage_reader(args.cgroup)
    else:
        print("(no --cgroup: the CPU of chromium's renderers is partly missed)")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("chromium is not installed")
    from huntgather.server.client_bundle import esbuild_program

    if esbuild_program() is None:
        print("(esbuild is not installed: both ways send the modules one by one)")
    for r in range(args.rounds):
        for bundle in (True, False):
            cpu_many, walls, requests = one_round(chromium, args.loads, bundle)
            cpu_few, _, _ = one_round(chromium, 2, bundle)
            per_load = (cpu_many - cpu_few) / (args.loads - 2)
            print(f"round {r + 1} {'bundled  ' if bundle else 'no bundle'}: {requests} requests a load, "
                  f"{statistics.median(walls):.3f} s wall (median), {per_load:.3f} s CPU a load", flush=True)


if __name__ == "__main__":
    main()
