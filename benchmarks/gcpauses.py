"""The garbage collector's pauses in a worker, as players arrive, sit down and play.

    python benchmarks/gcpauses.py [--sessions N] [--keys K] [--thresholds A,B,C]
                                  [--freeze-after G]

CPython's collector stops the whole process while it runs: in a worker, every
player it hosts waits.  This runs what ``appcpu.py`` runs (a real lobby, N
hosted sessions one after another, each to a table against a bot, then K
keys each) under a collector policy (the default, ``GCPolicy`` in
``server/termhost/gcpolicy.py``, or the thresholds and freezing given), and
reports each generation's collections: their CPU time in all, and each's
(mean, p50, p90, the longest, how many) (``time.process_time`` around each collection, from
``gc.callbacks``).  Compare policies run one after another:

    python benchmarks/gcpauses.py --sessions 60
    python benchmarks/gcpauses.py --sessions 60 --thresholds 10000,3,2 --freeze-after 2
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import time
from dataclasses import replace

from appcpu import describe, run

from server.termhost.gcpolicy import DEFAULT_GC_POLICY


class Pauses:
    """Each collection's CPU time, by generation (a ``gc.callbacks`` entry)."""

    def __init__(self) -> None:
        self.by_generation: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            spent = time.process_time() - self._started
            self.by_generation[info["generation"]].append(spent)

    def report(self) -> None:
        for generation, pauses in self.by_generation.items():
            spent = sum(pauses) * 1000
            print(f"gen {generation}: {spent:.0f} ms in all; each {describe(pauses)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--sessions", type=int, default=60)
    parser.add_argument("--keys", type=int, default=3, help="keys each session presses")
    parser.add_argument("--thresholds", default=None, help="gen0,gen1,gen2 (default: the policy's)")
    parser.add_argument("--freeze-after", type=int, default=None)
    args = parser.parse_args()
    policy = DEFAULT_GC_POLICY
    if args.thresholds:
        a, b, c = (int(n) for n in args.thresholds.split(","))
        policy = replace(policy, thresholds=(a, b, c))
    if args.freeze_after is not None:
        policy = replace(policy, freeze_after=args.freeze_after)
    print(f"policy: thresholds {policy.thresholds}, freeze after gen {policy.freeze_after}")
    pauses = Pauses()
    gc.callbacks.append(pauses)
    run_args = argparse.Namespace(
        sessions=args.sessions, keys=args.keys, profile=None, top=0, callers=[], gc_policy=policy
    )
    try:
        asyncio.run(run(run_args))
    finally:
        gc.callbacks.remove(pauses)
    pauses.report()
    if policy.freeze_at_start:
        print("(the first gen-2 collection is the policy's own, before it freezes the imports)")


if __name__ == "__main__":
    main()
