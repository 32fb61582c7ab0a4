"""Benchmark-only: time every garbage collection of every Python process started
with this directory on ``PYTHONPATH`` and ``SKYJO_BENCH_GC_DIR`` set.

``benchmarks/doors.py`` starts ``skyjo-server`` so; the server passes its
environment on to its worker processes, so the server and every worker append
``<monotonic time at the end> <generation> <pause> <CPU time of the pause>
<objects freed>`` lines (seconds; a pause longer than its CPU time is the
machine's other work) to
``$SKYJO_BENCH_GC_DIR/<pid>.gc`` (flushed every 0.2 s by a daemon thread, and
at exit).  ``time.monotonic`` is one clock for every process on Linux, so the
benchmark can tell which pauses fell in which phase.  On SIGUSR1 a process
writes its collector's state to ``<pid>.state`` (JSON: thresholds, counts,
frozen objects, objects per generation); SIGUSR2 twice writes the types of
the cyclic garbage made in between to ``<pid>.garbage``.  Nothing is
installed without the variable.
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import signal
import threading
import time
from typing import Any


def _install(directory: str) -> None:
    path = os.path.join(directory, f"{os.getpid()}.gc")
    pending: list[tuple[float, int, float, float, int]] = []
    started = [0.0, 0.0]
    clock, cpu_clock = time.monotonic, time.thread_time

    def on_collection(phase: str, info: dict[str, Any]) -> None:
        now, cpu = clock(), cpu_clock()
        if phase == "start":
            started[:] = now, cpu
        else:
            pending.append(
                (now, info["generation"], now - started[0], cpu - started[1], info["collected"])
            )

    def flush() -> None:
        if not pending:
            return
        batch = pending[:]
        del pending[: len(batch)]
        with open(path, "a") as file:
            file.writelines(
                f"{t:.6f} {gen} {pause:.6f} {cpu:.6f} {collected}\n"
                for t, gen, pause, cpu, collected in batch
            )

    def flusher() -> None:
        while True:
            time.sleep(0.2)
            flush()

    def dump_state(signum: int, frame: Any) -> None:
        state = {
            "threshold": gc.get_threshold(),
            "count": gc.get_count(),
            "frozen": gc.get_freeze_count(),
            "objects": [len(gc.get_objects(generation)) for generation in range(3)],
        }
        with open(os.path.join(directory, f"{os.getpid()}.state"), "w") as file:
            json.dump(state, file)

    def census(signum: int, frame: Any) -> None:
        """First SIGUSR2: collect, then keep what later collections find (DEBUG_SAVEALL);
        second: collect, write the kept garbage's types to ``<pid>.garbage``, stop."""
        if not gc.get_debug() & gc.DEBUG_SAVEALL:
            gc.collect()
            gc.set_debug(gc.DEBUG_SAVEALL)
            return
        gc.collect()
        gc.set_debug(0)
        counts: dict[str, int] = {}
        for item in gc.garbage:
            name = f"{type(item).__module__}.{type(item).__qualname__}"
            counts[name] = counts.get(name, 0) + 1
        gc.garbage.clear()
        with open(os.path.join(directory, f"{os.getpid()}.garbage"), "w") as file:
            json.dump(sorted(counts.items(), key=lambda kv: -kv[1]), file)

    gc.callbacks.insert(0, on_collection)
    signal.signal(signal.SIGUSR1, dump_state)
    signal.signal(signal.SIGUSR2, census)
    threading.Thread(target=flusher, name="bench-gc-flush", daemon=True).start()
    atexit.register(flush)


if _directory := os.environ.get("SKYJO_BENCH_GC_DIR"):
    _install(_directory)
