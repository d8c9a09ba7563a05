"""Baohuang as ``engine.py`` measures it, per configuration: positions collected from random
hands, random playout, and the per-call costs of ``legal_actions()`` at leads and
follows, ``apply``, ``view``, ``clone``, ``new_game`` and ``paiju.replay``.
"""

from __future__ import annotations

import gc
import heapq
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine_timing as timing
import paiju
from engine_timing import Budget, measure, per_call

CONFIGS: dict[str, dict[str, Any]] = {
    "standard": {"variant": "standard"},
    "classic": {"variant": "classic"},
    "weihai": {"variant": "weihai"},
    "qingdao": {"variant": "qingdao"},
    "standard+kao": {"variant": "standard", "kao": True},
    "standard+hold_sixes": {"variant": "standard", "hold_sixes": True},
    "qingdao+kao+hold_sixes": {"variant": "qingdao", "kao": True, "hold_sixes": True},
}
"""Benchmarked configurations: the four presets and toggle sets (options of ``new_game``)."""


# ---------------------------------------------------------------------------- positions
@dataclass
class Positions:
    """Game states and finished hands collected from random games of one configuration."""

    leads: list[Any] = field(default_factory=list)  # games where the seat to act leads
    follows: list[Any] = field(default_factory=list)  # games where the seat to act follows
    largest: list[Any] = field(default_factory=list)  # follows with the most legal actions
    largest_leads: list[Any] = field(default_factory=list)  # leads with the most legal actions
    anywhere: list[Any] = field(default_factory=list)  # any decision, for view/clone
    hands: list[tuple[int, list[Any]]] = field(default_factory=list)  # (seed, actions)
    records: list[dict[str, Any]] = field(default_factory=list)


def random_hand(options: dict[str, Any], seed: int, rng: random.Random) -> Any:
    """One hand of random play to the end (the benchmark's policy)."""
    g = paiju.new_game("baohuang", seed=seed, **options)
    while g.to_act is not None:
        la = g.legal_actions()
        g.apply(la[rng.randrange(len(la))])
    return g


def collect_positions(options: dict[str, Any], budget: Budget, seed: int = 2024) -> Positions:
    """Scan ``budget.scan_hands`` random hands: sample leads, follows and any decision,
    keep the follows with the most legal actions, the action lists and the records."""
    rng = random.Random(seed)
    pos = Positions()
    keep = budget.sample_positions
    seen = {"lead": 0, "follow": 0, "any": 0}
    heaps: dict[str, list[tuple[int, int, Any]]] = {"lead": [], "follow": []}  # (legal actions, tiebreak, game)
    tick = 0

    def top(kind: str, n: int, g: Any) -> None:
        nonlocal tick
        tick += 1
        heap = heaps[kind]
        if len(heap) < budget.top_follows:
            heapq.heappush(heap, (n, tick, g.clone()))
        elif n > heap[0][0]:
            heapq.heapreplace(heap, (n, tick, g.clone()))

    def reservoir(kind: str, bucket: list[Any], g: Any) -> None:
        seen[kind] += 1
        if len(bucket) < keep:
            bucket.append(g.clone())
        else:
            j = rng.randrange(seen[kind])
            if j < keep:
                bucket[j] = g.clone()

    for _ in range(budget.scan_hands):
        hand_seed = rng.randrange(2**62)
        g: Any = paiju.new_game("baohuang", seed=hand_seed, **options)
        while g.to_act is not None:
            la = g.legal_actions()
            reservoir("any", pos.anywhere, g)
            if g.phase == "play":
                kind = "lead" if g.is_leading() else "follow"
                reservoir(kind, pos.leads if kind == "lead" else pos.follows, g)
                top(kind, len(la), g)
            g.apply(la[rng.randrange(len(la))])
        if len(pos.hands) < budget.timed_hands:
            pos.hands.append((hand_seed, g.history))
            pos.records.append(g.record())
    pos.largest = [g for _, _, g in sorted(heaps["follow"], key=lambda t: (-t[0], t[1]))]
    pos.largest_leads = [g for _, _, g in sorted(heaps["lead"], key=lambda t: (-t[0], t[1]))]
    return pos


def legal_and_iterate(g: Any) -> None:
    for _ in g.legal_actions():
        pass


def playout(options: dict[str, Any], seconds: float, repeats: int, seed: int = 7) -> list[dict[str, float]]:
    """Random playout runs: hands/s and decisions/s, dealing included, per repeat.
    ``cpu_share`` is CPU time over wall time: well below 1, something else used the core."""
    runs = []
    for rep in range(repeats):
        rng = random.Random(seed * 1000 + rep)
        gc.collect()
        hands = decisions = 0
        start, start_cpu, start_clock = time.perf_counter(), time.process_time(), timing.clock()
        while True:
            g = paiju.new_game("baohuang", seed=rng.randrange(2**62), **options)
            while g.to_act is not None:
                la = g.legal_actions()
                g.apply(la[rng.randrange(len(la))])
                decisions += 1
            hands += 1
            if time.perf_counter() - start >= seconds:
                break
        elapsed = timing.clock() - start_clock
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        runs.append(
            {
                "hands_per_s": hands / elapsed,
                "decisions_per_s": decisions / elapsed,
                "decisions_per_hand": decisions / hands,
                "cpu_share": cpu / wall,
            }
        )
    return runs


def apply_pass(options: dict[str, Any], hands: list[tuple[int, list[Any]]]) -> Callable[[], tuple[int, float]]:
    """A pass that deals each recorded hand again (untimed) and times its applies."""

    def run() -> tuple[int, float]:
        n, spent = 0, 0.0
        for seed, actions in hands:
            g = paiju.new_game("baohuang", seed=seed, **options)
            t = timing.clock()
            for a in actions:
                g.apply(a)
            spent += timing.clock() - t
            n += len(actions)
        return n, spent

    return run


def view_all_seats(g: Any) -> None:
    for seat in range(5):
        g.view(seat)


# ---------------------------------------------------------------------------- one config
@dataclass
class Result:
    """Medians (and the raw runs) for one configuration."""

    config: str
    options: dict[str, Any]
    hands_per_s: float = 0.0
    decisions_per_s: float = 0.0
    decisions_per_hand: float = 0.0
    us_per_decision: float = 0.0
    cpu_share: float = 0.0  # CPU time / wall time during the playout runs (1.0: the core was ours)
    lead_n: float = 0.0  # mean legal actions at sampled leads
    lead_us: float = 0.0  # legal_actions() at a lead
    lead_iter_us: float = 0.0  # legal_actions() + iterating over every lead
    largest_lead_n: int = 0  # most legal leads found
    largest_lead_iter_us: float = 0.0  # legal_actions() + iterating, on the largest leads
    follow_n: float = 0.0  # mean legal actions at sampled follows
    follow_us: float = 0.0
    largest_n: int = 0  # most legal follows found
    largest_mean_n: float = 0.0  # mean over the kept largest follows
    largest_us: float = 0.0
    largest_iter_us: float = 0.0
    apply_us: float = 0.0
    view_us: float = 0.0
    clone_us: float = 0.0
    new_game_us: float = 0.0
    replay_ms: float = 0.0  # paiju.replay(record) of a whole hand
    replay_actions: float = 0.0  # mean actions per replayed record
    runs: dict[str, list[Any]] = field(default_factory=dict)


def bench_config(
    name: str, options: dict[str, Any], budget: Budget, log: Callable[[str], None] = lambda s: None
) -> Result:
    """Every measurement of one configuration."""
    res = Result(config=name, options=dict(options))
    med = statistics.median
    reps, micro = budget.repeats, budget.micro_s

    log(f"{name}: warm-up and position scan ({budget.scan_hands} random hands)")
    pos = collect_positions(options, budget)

    log(f"{name}: random playout, {reps} × {budget.playout_s:g} s")
    runs = playout(options, budget.playout_s, reps)
    res.runs["playout"] = runs
    res.hands_per_s = med(r["hands_per_s"] for r in runs)
    res.decisions_per_s = med(r["decisions_per_s"] for r in runs)
    res.decisions_per_hand = med(r["decisions_per_hand"] for r in runs)
    res.us_per_decision = 1e6 / res.decisions_per_s
    res.cpu_share = med(r["cpu_share"] for r in runs)

    log(f"{name}: per-call costs, {reps} × {micro:g} s each")

    def timed(key: str, run: Callable[[], tuple[int, float]]) -> float:
        values = measure(run, micro, reps)
        res.runs[key] = values
        return med(values)

    if pos.leads:
        res.lead_n = statistics.fmean(len(g.legal_actions()) for g in pos.leads)
        res.lead_us = timed("lead_us", per_call(lambda g: g.legal_actions(), pos.leads))
        res.lead_iter_us = timed("lead_iter_us", per_call(legal_and_iterate, pos.leads))
    if pos.largest_leads:
        res.largest_lead_n = max(len(g.legal_actions()) for g in pos.largest_leads)
        res.largest_lead_iter_us = timed("largest_lead_iter_us", per_call(legal_and_iterate, pos.largest_leads))
    if pos.follows:
        res.follow_n = statistics.fmean(len(g.legal_actions()) for g in pos.follows)
        res.follow_us = timed("follow_us", per_call(lambda g: g.legal_actions(), pos.follows))
    if pos.largest:
        sizes = [len(g.legal_actions()) for g in pos.largest]
        res.largest_n = max(sizes)
        res.largest_mean_n = statistics.fmean(sizes)
        res.largest_us = timed("largest_us", per_call(lambda g: g.legal_actions(), pos.largest))
        res.largest_iter_us = timed("largest_iter_us", per_call(legal_and_iterate, pos.largest))
    res.apply_us = timed("apply_us", apply_pass(options, pos.hands))
    res.view_us = timed("view_us", _per_seat(per_call(view_all_seats, pos.anywhere)))
    res.clone_us = timed("clone_us", per_call(lambda g: g.clone(), pos.anywhere))
    seeds = [seed for seed, _ in pos.hands]
    res.new_game_us = timed("new_game_us", per_call(lambda s: paiju.new_game("baohuang", seed=s, **options), seeds))
    res.replay_ms = timed("replay_us", per_call(paiju.replay, pos.records)) / 1000
    res.replay_actions = statistics.fmean(len(r["actions"]) for r in pos.records)
    return res


def _per_seat(run: Callable[[], tuple[int, float]]) -> Callable[[], tuple[int, float]]:
    """``view_all_seats`` makes five calls per position."""

    def wrapped() -> tuple[int, float]:
        n, t = run()
        return 5 * n, t

    return wrapped


def run_benchmarks(configs: Sequence[str], budget: Budget, log: Callable[[str], None] = lambda s: None) -> list[Result]:
    return [bench_config(name, CONFIGS[name], budget, log) for name in configs]
