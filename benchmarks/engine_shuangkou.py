"""Engine benchmark for 双扣 Shuangkou: how fast random play runs, and what
``legal_actions()`` costs at leads and follows.

Run ``.venv/bin/python benchmarks/engine_shuangkou.py`` (``--quick`` for short runs,
``--profile`` for the functions that take the time, ``--json FILE`` to keep the numbers).
Each figure is the median of 5 runs timed with the process's CPU time; the process is
pinned to one core when the OS allows it (``--no-pin`` not to). This is a measurement
script, not a test: it asserts nothing. The target is 30,000 decisions/s on one core.

- ``random_playout(seconds)``: deal a new hand (``new_game``, counted), then
  ``la = g.legal_actions(); g.apply(la[rng.randrange(len(la))])`` until the hand is over
  → hands/s, decisions/s (a decision is one ``apply``).
- ``legal_actions_cost()``: µs per ``legal_actions()`` call at leads (a lazy
  ``LeadPlays``: the call alone, and with iteration over every lead) and at follows, at
  positions sampled from random hands; plus µs per ``apply``, ``view`` and ``clone``.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import paiju
from paiju.shuangkou import Shuangkou

TARGET_DECISIONS_PER_S = 30_000
RUNS = 5
clock: Callable[[], float] = time.process_time


def _new(seed: int, options: dict[str, Any]) -> Shuangkou:
    g = paiju.new_game("shuangkou", seed=seed, **options)
    assert isinstance(g, Shuangkou)
    return g


def random_playout(seconds: float = 2.0, seed: int = 1, **options: Any) -> dict[str, float]:
    """Random legal play, whole hands, for about ``seconds`` of CPU time."""
    rng = random.Random(seed)
    hands = decisions = 0
    start = clock()
    elapsed = 0.0
    while elapsed < seconds:
        g = _new(rng.randrange(2**62), options)
        while g.to_act is not None:
            la = g.legal_actions()
            g.apply(la[rng.randrange(len(la))])
            decisions += 1
        hands += 1
        elapsed = clock() - start
    return {
        "hands": hands,
        "decisions": decisions,
        "seconds": elapsed,
        "hands_per_s": hands / elapsed,
        "decisions_per_s": decisions / elapsed,
        "decisions_per_hand": decisions / hands,
        "us_per_decision": 1e6 * elapsed / decisions,
    }


def _positions(hands: int, seed: int, options: dict[str, Any]) -> tuple[list[Shuangkou], list[Shuangkou]]:
    """Clones of random games at leads and at follows (every third decision)."""
    rng = random.Random(seed)
    leads: list[Shuangkou] = []
    follows: list[Shuangkou] = []
    for _ in range(hands):
        g = _new(rng.randrange(2**62), options)
        n = 0
        while g.to_act is not None:
            if n % 3 == 0:
                (leads if g.is_leading() else follows).append(g.clone())
            la = g.legal_actions()
            g.apply(la[rng.randrange(len(la))])
            n += 1
    return leads, follows


def _per_call(fn: Callable[[], Any], items: int, seconds: float) -> float:
    """µs per item: ``fn()`` handles ``items`` items; repeated for about ``seconds``."""
    rounds = 0
    start = clock()
    while True:
        fn()
        rounds += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return 1e6 * elapsed / (rounds * items)


def legal_actions_cost(seconds: float = 0.2, hands: int = 30, seed: int = 2, **options: Any) -> dict[str, float]:
    """µs per call of ``legal_actions()`` (and of ``apply``, ``view``, ``clone``) at
    positions from ``hands`` random hands; ``*_n`` are mean numbers of legal actions."""
    leads, follows = _positions(hands, seed, options)
    lead_lists = [g.legal_actions() for g in leads]
    follow_lists = [g.legal_actions() for g in follows]
    rng = random.Random(seed)
    chosen = [(g, la[rng.randrange(len(la))]) for g, la in zip(leads + follows, lead_lists + follow_lists)]

    def call(games: list[Shuangkou]) -> Callable[[], None]:
        def run() -> None:
            for g in games:
                g.legal_actions()

        return run

    def call_and_iterate() -> None:
        for g in leads:
            for _ in g.legal_actions():
                pass

    def apply_all() -> None:
        for g, a in chosen:
            g.clone().apply(a)

    def clones() -> None:
        for g, _ in chosen:
            g.clone()

    def views() -> None:
        for g, _ in chosen[:200]:
            g.view(g.to_act)

    clone_us = _per_call(clones, len(chosen), seconds)
    return {
        "lead_n": statistics.fmean(len(la) for la in lead_lists),
        "lead_max": max(len(la) for la in lead_lists),
        "lead_us": _per_call(call(leads), len(leads), seconds),
        "lead_iter_us": _per_call(call_and_iterate, len(leads), seconds),
        "follow_n": statistics.fmean(len(la) for la in follow_lists),
        "follow_max": max(len(la) for la in follow_lists),
        "follow_us": _per_call(call(follows), len(follows), seconds),
        "apply_us": _per_call(apply_all, len(chosen), seconds) - clone_us,  # clone so that every apply is fresh
        "clone_us": clone_us,
        "view_us": _per_call(views, min(200, len(chosen)), seconds),
    }


def _median_runs(fn: Callable[[], dict[str, float]], runs: int) -> tuple[dict[str, float], list[dict[str, float]]]:
    results = [fn() for _ in range(runs)]
    return {k: statistics.median(r[k] for r in results) for k in results[0]}, results


def pin_to_one_core() -> str:
    try:
        allowed = os.sched_getaffinity(0)
        cpu = 0 if 0 in allowed else min(allowed)
        os.sched_setaffinity(0, {cpu})
    except (AttributeError, OSError, ValueError) as e:
        return f"not pinned ({type(e).__name__}: {e})"
    return f"pinned to CPU {cpu}"


def profile(seconds: float = 2.0, top: int = 15) -> None:
    """Print the functions random play spends its time in."""
    prof = cProfile.Profile()
    prof.enable()
    random_playout(seconds)
    prof.disable()
    pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true", help="short runs (rough figures)")
    ap.add_argument("--runs", type=int, default=RUNS, help="timed runs per figure (the median is shown)")
    ap.add_argument("--no-pin", action="store_true", help="do not pin the process to one core")
    ap.add_argument("--profile", action="store_true", help="also profile random play")
    ap.add_argument("--json", help="write every figure and run to this file")
    ap.add_argument(
        "-o", "--option", action="append", default=[], help="a room option key=value, e.g. min_triple_run=2"
    )
    args = ap.parse_args(argv)
    options: dict[str, Any] = {}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = json.loads(value) if value not in ("", "None") else None
    playout_s, micro_s, hands = (0.3, 0.05, 10) if args.quick else (2.0, 0.2, 30)
    pinned = "not pinned" if args.no_pin else pin_to_one_core()
    print(
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"{platform.python_implementation()} {platform.python_version()}; {pinned}"
    )
    print(f"Shuangkou options: {options or 'defaults'}; medians of {args.runs} runs, process CPU time")
    play, play_runs = _median_runs(lambda: random_playout(playout_s, **options), args.runs)
    print(
        f"random playout: {play['hands_per_s']:,.0f} hands/s, {play['decisions_per_s']:,.0f} decisions/s "
        f"({play['decisions_per_hand']:.0f} decisions/hand, {play['us_per_decision']:.1f} µs/decision)"
    )
    cost, cost_runs = _median_runs(lambda: legal_actions_cost(micro_s, hands, **options), args.runs)
    print(
        f"legal_actions: lead {cost['lead_us']:.1f} µs (n = {cost['lead_n']:.0f}, max {cost['lead_max']:.0f}; "
        f"with iteration {cost['lead_iter_us']:.1f} µs), follow {cost['follow_us']:.1f} µs "
        f"(n = {cost['follow_n']:.1f}, max {cost['follow_max']:.0f})"
    )
    print(f"apply {cost['apply_us']:.1f} µs, clone {cost['clone_us']:.1f} µs, view {cost['view_us']:.1f} µs")
    verdict = "met" if play["decisions_per_s"] >= TARGET_DECISIONS_PER_S else "NOT met"
    print(f"target: {TARGET_DECISIONS_PER_S:,} decisions/s — {verdict} ({play['decisions_per_s']:,.0f})")
    if args.profile:
        profile(playout_s)
    out = {
        "options": options,
        "playout": play,
        "legal_actions": cost,
        "runs": {"playout": play_runs, "cost": cost_runs},
    }
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
