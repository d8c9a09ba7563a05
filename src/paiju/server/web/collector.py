"""The garbage collector of a hall process: young collections less often, full ones rarely.

Measured with ``benchmarks/hall_load.py --clients 1000`` (docs/benchmarks.md): with
CPython's default thresholds (700, 10, 10) a full collection ran every 4–5 s under load
and stopped the event loop for 150–200 ms each time, scanning some 300,000 long-lived
objects (the connections' coroutines, tasks and queues, the tables' games) and freeing
none: those pauses were the whole tail of the hall's latency. Nearly everything the hall
frees goes by reference counting; the collector is only needed for reference cycles
(asyncio tasks, exceptions), so it may run far less often. What start-up loads (every
room's table) is frozen out of the collections altogether.
"""

from __future__ import annotations

import gc

THRESHOLDS = (20_000, 20, 100)
"""Allocations before a young collection, young collections before a middle one, middle
ones before a full one (CPython also waits until the long-lived objects grew by 25 %)."""

_tuned = False


def tune() -> None:
    """Set the hall's thresholds (``paiju serve``; tests in one process keep the defaults)."""
    global _tuned
    gc.set_threshold(*THRESHOLDS)
    _tuned = True


def freeze_loaded() -> None:
    """After start-up: move everything loaded so far out of later collections."""
    if _tuned:
        gc.collect()
        gc.freeze()
