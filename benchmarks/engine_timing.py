"""How ``engine.py`` times: the budgets (``--quick``, ``--smoke``), the clock (process CPU
time, or wall-clock time with ``--clock wall``; also set in the Shengji and Shuangkou
scripts), repeated timed passes, and the scripts beside this one loaded by path.
"""

from __future__ import annotations

import gc
import importlib.util
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class Budget:
    """How long to measure: ``repeats`` timed runs of ``playout_s`` (random playout) or
    ``micro_s`` (per-call costs) seconds each, after scanning ``scan_hands`` random hands
    for positions."""

    repeats: int = 5
    playout_s: float = 2.0
    micro_s: float = 0.12
    scan_hands: int = 150
    timed_hands: int = 40  # hands (of those scanned) re-dealt for apply, new_game and replay
    top_follows: int = 20  # how many of the largest follows (and leads) are kept
    sample_positions: int = 150
    cost_hands: int = 30  # Shuangkou: random hands the per-call positions come from
    throw_hands: int = 200  # Shengji: random hands scanned for throws
    stats_hands: int = 300  # --stats, --profile: random hands per configuration
    encode_hands: int = 30  # --encode: random hands the views come from


FULL = Budget()
QUICK = Budget(
    repeats=3,
    playout_s=0.25,
    micro_s=0.03,
    scan_hands=30,
    timed_hands=10,
    top_follows=10,
    sample_positions=40,
    cost_hands=10,
    throw_hands=40,
    stats_hands=50,
    encode_hands=5,
)
TINY = Budget(
    repeats=1,
    playout_s=0.02,
    micro_s=0.002,
    scan_hands=2,
    timed_hands=2,
    top_follows=3,
    sample_positions=5,
    cost_hands=2,
    throw_hands=2,
    stats_hands=2,
    encode_hands=1,
)


# ---------------------------------------------------------------------------- timing
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
clock: Callable[[], float] = time.process_time
"""What the figures are timed with: this process's CPU time by default, so that other
processes competing for the core do not count (``--clock wall`` for wall-clock time).
Runs stop after a budget of wall time either way."""


def use_clock(name: str) -> None:
    """Time with ``name`` here and in the Shengji and Shuangkou scripts."""
    global clock
    clock = CLOCKS[name]
    for script in ("engine_shengji", "engine_shuangkou"):
        setattr(sibling(script), "clock", clock)  # noqa: B010 (a module attribute mypy cannot see)


def measure(run_pass: Callable[[], tuple[int, float]], seconds: float, repeats: int) -> list[float]:
    """Per-repeat cost in µs per unit. ``run_pass()`` does some work and returns (units
    done, seconds spent on them) — so set-up can be left out of the timed part; passes are
    repeated until ``seconds`` of wall time have gone by (at least one pass)."""
    out = []
    for _ in range(repeats):
        gc.collect()
        units, spent = 0, 0.0
        start = time.perf_counter()
        while True:
            n, t = run_pass()
            units += n
            spent += t
            if time.perf_counter() - start >= seconds:
                break
        out.append(spent / units * 1e6 if units else float("nan"))
    return out


def per_call(fn: Callable[[Any], Any], items: Sequence[Any]) -> Callable[[], tuple[int, float]]:
    """A pass calling ``fn(item)`` once for every item."""

    def run() -> tuple[int, float]:
        t = clock()
        for it in items:
            fn(it)
        return len(items), clock() - t

    return run


def sibling(name: str) -> ModuleType:
    """A benchmark script beside this one (``benchmarks/`` is not a package), loaded once."""
    key = f"paiju_benchmarks_{name}"
    module = sys.modules.get(key)
    if module is None:
        spec = importlib.util.spec_from_file_location(key, Path(__file__).with_name(f"{name}.py"))
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module  # dataclasses look their module up by name
        spec.loader.exec_module(module)
    return module


class CpuShare:
    """CPU time over wall time of a block: well below 1, something else used the core."""

    def __enter__(self) -> CpuShare:
        self._wall, self._cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        wall = time.perf_counter() - self._wall
        self.share = (time.process_time() - self._cpu) / wall if wall > 0 else float("nan")


def clock_name() -> str:
    return "process CPU time" if clock is time.process_time else "wall-clock time"
