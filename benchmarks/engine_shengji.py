"""Engine benchmark: how fast the Shengji 升级 rules engine plays, for 1, 2 and 3 packs.

Run ``.venv/bin/python benchmarks/engine_shengji.py`` (``--quick`` for short runs,
``--json FILE`` to keep the numbers). Every figure is the median of several runs timed
with the process's CPU time; the process is pinned to one core when the OS allows it.
This is a measurement script, not a test: it asserts nothing.

What is measured, per number of packs (``decks``):

- random playout: ``new_game`` (dealing included), then ``la = g.legal_actions();
  g.apply(la[rng.randrange(len(la))])`` until the hand is over → hands/s, decisions/s (a
  decision is one ``apply``: declarations during the deal, burying, plays). Leads draw a
  random index into the lazy sequence of every multiset of one suit, so most random leads
  are throws 甩牌 (checked against the other hands, usually failing to one unit);
- the same playout with ``hosted_action`` (lowest singles, lowest follows);
- ``legal_actions()`` at leads: the mean length of the lazy sequence and the cost of the call.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import paiju
from paiju.shengji import hosted_action

TARGET_HANDS_PER_S = 250
"""The issue's target: 2 packs, random play with throws among the leader's choices, one core."""

clock: Callable[[], float] = time.process_time
"""What playouts are timed with (``benchmarks/engine.py --clock wall`` sets the wall clock)."""


@dataclass
class Result:
    decks: int
    hands_per_s: float
    decisions_per_s: float
    decisions_per_hand: float
    hosted_hands_per_s: float
    lead_len: float
    lead_us: float
    runs: dict[str, list[float]] = field(default_factory=dict)


def pin_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def playout(decks: int, seconds: float, rng: random.Random, hosted: bool = False) -> tuple[float, float, float]:
    """Random (or hosted) playouts for ``seconds`` of CPU time (of :data:`clock`): hands/s,
    decisions/s, decisions/hand."""
    hands = decisions = 0
    t0 = clock()
    while True:
        g = paiju.new_game("shengji", seed=rng.randrange(2**62), decks=decks)
        while not g.is_over:
            if hosted:
                g.apply(hosted_action(g))
            else:
                la = g.legal_actions()
                g.apply(la[rng.randrange(len(la))])
            decisions += 1
        hands += 1
        dt = clock() - t0
        if dt >= seconds:
            return hands / dt, decisions / dt, decisions / hands


def lead_cost(decks: int, rng: random.Random, hands: int = 10) -> tuple[float, float]:
    """Mean length of the leader's lazy sequence and the microseconds of the call."""
    lens: list[int] = []
    total = 0.0
    calls = 0
    for _ in range(hands):
        g: Any = paiju.new_game("shengji", seed=rng.randrange(2**62), decks=decks)
        while not g.is_over:
            if g.phase == "play" and g.is_leading():
                t0 = time.perf_counter()
                la = g.legal_actions()
                total += time.perf_counter() - t0
                calls += 1
                lens.append(len(la))
            else:
                la = g.legal_actions()
            g.apply(la[rng.randrange(len(la))])
    return statistics.mean(lens), 1e6 * total / max(1, calls)


def bench(decks: int, repeats: int, seconds: float, seed: int = 1) -> Result:
    rng = random.Random(seed)
    runs: dict[str, list[float]] = {"hands_per_s": [], "decisions_per_s": [], "hosted_hands_per_s": []}
    per_hand: list[float] = []
    for _ in range(repeats):
        h, d, ph = playout(decks, seconds, rng)
        runs["hands_per_s"].append(h)
        runs["decisions_per_s"].append(d)
        per_hand.append(ph)
        runs["hosted_hands_per_s"].append(playout(decks, seconds / 2, rng, hosted=True)[0])
    lead_len, lead_us = lead_cost(decks, rng)
    return Result(
        decks=decks,
        hands_per_s=statistics.median(runs["hands_per_s"]),
        decisions_per_s=statistics.median(runs["decisions_per_s"]),
        decisions_per_hand=statistics.median(per_hand),
        hosted_hands_per_s=statistics.median(runs["hosted_hands_per_s"]),
        lead_len=lead_len,
        lead_us=lead_us,
        runs=runs,
    )


def main(argv: list[str] | None = None) -> list[Result]:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="short runs")
    p.add_argument("--smoke", action="store_true", help="tiny runs (for tests)")
    p.add_argument("--decks", default="1,2,3", help="comma-separated numbers of packs")
    p.add_argument("--json", help="write the results to this file")
    p.add_argument("--no-pin", action="store_true", help="do not pin the process to one core")
    a = p.parse_args(argv)
    repeats, seconds = (5, 2.0)
    if a.quick:
        repeats, seconds = 3, 0.5
    if a.smoke:
        repeats, seconds = 1, 0.02
    if not a.no_pin:
        pin_one_core()
    results = [bench(int(d), repeats, seconds) for d in a.decks.split(",")]
    print(f"Machine: {platform.processor() or platform.machine()}, Python {sys.version.split()[0]}")
    print("| decks | hands/s | decisions/s | decisions/hand | hosted hands/s | lead actions | lead µs |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r.decks} | {r.hands_per_s:.0f} | {r.decisions_per_s:.0f} | {r.decisions_per_hand:.0f} | "
            f"{r.hosted_hands_per_s:.0f} | {r.lead_len:.0f} | {r.lead_us:.1f} |"
        )
    two = [r for r in results if r.decks == 2]
    if two:
        print(f"target: {TARGET_HANDS_PER_S} hands/s (2 packs) — measured {two[0].hands_per_s:.0f}")
    if a.json:
        data: dict[str, Any] = {
            "machine": {"cpu": platform.processor() or platform.machine(), "python": sys.version.split()[0]},
            "target": {"hands_per_s": TARGET_HANDS_PER_S, "measured": two[0].hands_per_s if two else None},
            "results": [asdict(r) for r in results],
        }
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
    return results


if __name__ == "__main__":
    main()
