"""Engine benchmark: how fast the rules engines play — 保皇 Baohuang per preset and toggle
set, 升级 Shengji for 1, 2 and 3 packs, 双扣 Shuangkou.

Run ``make bench`` or ``.venv/bin/python benchmarks/engine.py`` (``--games shengji,shuangkou``
for some games only, ``--quick`` for short runs, ``--markdown`` for tables ready for docs,
``--json FILE`` to keep the numbers; see ``docs/benchmarks.md``). Every figure is the median
of several runs timed with the process's CPU time (``--clock wall`` for wall-clock time);
the process is pinned to one core when the OS allows it. This is a measurement script, not
a test: it asserts nothing.

This script is the one entry point; Shengji and Shuangkou are measured by the functions of
``engine_shengji.py`` and ``engine_shuangkou.py`` beside it (each also runs on its own).

Instead of the timings, ``--stats`` counts what random play's decisions are (one legal
action, passes, phases), ``--profile [TOP]`` prints a cProfile table of random play, and
``--encode`` times ``json.dumps`` against ``orjson`` on every seat's view.

What is measured for Baohuang, per configuration:

- random playout: ``new_game`` (dealing included), then ``la = g.legal_actions();
  g.apply(la[rng.randrange(len(la))])`` until the hand is over → hands/s, decisions/s
  (a decision is one ``apply``);
- ``legal_actions()`` at leads (a lazy ``LeadPlays``) and at follows: at sampled positions
  of random games and at the leads and follows with the most legal actions found by
  scanning random games — the call alone, and the call plus iterating over every action;
- ``apply`` (a legal action object, checks included), ``view(seat)``, ``clone()``,
  ``new_game`` and ``paiju.replay(record)`` of a whole hand.

For Shengji, per number of packs (``engine_shengji.bench``): random playout (leads draw a
random index into the lazy sequence of every multiset of one suit, so most random leads
are throws 甩牌), the same with the 托管 policy, and ``legal_actions()`` at leads; plus,
here, how many random leads were throws and how many of those failed. For Shuangkou
(``engine_shuangkou.random_playout`` and ``legal_actions_cost``): random playout, and
``legal_actions()``, ``apply``, ``clone``, ``view`` at positions of random hands.
"""

from __future__ import annotations

import argparse
import gc
import heapq
import importlib.util
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import paiju
from paiju.game import Pass

TARGET_DECISIONS_PER_S = 30_000
"""The issue's target: Baohuang ``standard`` random play on one core."""
TARGET_SHENGJI_HANDS_PER_S = 250
"""Shengji, 2 packs, random play with throws among the leader's choices, one core."""
TARGET_SHUANGKOU_DECISIONS_PER_S = 30_000
"""Shuangkou random play, one core."""
GAMES = ("baohuang", "shengji", "shuangkou")

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


# ---------------------------------------------------------------------------- machine
def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo (Linux), else what ``platform`` knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith(("model name", "hardware", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        usable = os.cpu_count() or 0
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "paiju": paiju.__version__,
    }


def pin_to_one_core() -> str:
    """Pin this process to one CPU (the first allowed, CPU 0 when allowed); say what happened."""
    try:
        allowed = os.sched_getaffinity(0)
        cpu = 0 if 0 in allowed else min(allowed)
        os.sched_setaffinity(0, {cpu})
    except (AttributeError, OSError, ValueError) as e:
        return f"not pinned ({type(e).__name__}: {e})"
    return f"pinned to CPU {cpu} (os.sched_setaffinity)"


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
        start, start_cpu, start_clock = time.perf_counter(), time.process_time(), clock()
        while True:
            g = paiju.new_game("baohuang", seed=rng.randrange(2**62), **options)
            while g.to_act is not None:
                la = g.legal_actions()
                g.apply(la[rng.randrange(len(la))])
                decisions += 1
            hands += 1
            if time.perf_counter() - start >= seconds:
                break
        elapsed = clock() - start_clock
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
            t = clock()
            for a in actions:
                g.apply(a)
            spent += clock() - t
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


# ---------------------------------------------------------------------------- Shengji, Shuangkou
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


def throw_stats(decks: int, hands: int, seed: int = 11) -> dict[str, float]:
    """Random play as in the playout: of the leads, how many were throws 甩牌 (several
    units of one suit), and how many of those failed (were cut to one unit)."""
    from paiju.shengji.trump import card_id
    from paiju.shengji.units import counts_of, decompose

    rng = random.Random(seed)
    leads = throws = failed = 0
    for _ in range(hands):
        g: Any = paiju.new_game("shengji", seed=rng.randrange(2**62), decks=decks)
        while g.to_act is not None:
            la = g.legal_actions()
            g.apply(la[rng.randrange(len(la))])
        t = g.order
        for trick in g.tricks:
            leads += 1
            if trick.get("failed_throw"):
                throws += 1
                failed += 1
            elif len(decompose(counts_of(card_id(c) for c in paiju.parse_cards(trick["plays"][0]["cards"])), t)) > 1:
                throws += 1
    return {
        "leads_per_hand": leads / hands,
        "throw_share": throws / leads if leads else 0.0,
        "failed_share": failed / throws if throws else 0.0,
    }


@dataclass
class ShengjiResult:
    """Medians for one number of packs (``engine_shengji.Result``, plus throws and CPU share)."""

    decks: int
    hands_per_s: float
    decisions_per_s: float
    decisions_per_hand: float
    us_per_decision: float
    hosted_hands_per_s: float
    lead_len: float  # mean length of the leader's lazy sequence of plays
    lead_us: float  # legal_actions() at a lead, wall-clock µs per call
    leads_per_hand: float
    throw_share: float  # random leads that were throws
    failed_share: float  # throws that failed
    cpu_share: float
    runs: dict[str, list[float]] = field(default_factory=dict)


def bench_shengji(
    decks_list: Sequence[int], budget: Budget, log: Callable[[str], None] = lambda s: None
) -> list[ShengjiResult]:
    module = sibling("engine_shengji")
    out = []
    for decks in decks_list:
        log(f"shengji {decks} pack(s): {budget.repeats} × {budget.playout_s:g} s random + hosted playouts")
        with CpuShare() as share:
            r = module.bench(decks, budget.repeats, budget.playout_s)
        throws = throw_stats(decks, budget.throw_hands)
        out.append(
            ShengjiResult(
                decks=decks,
                hands_per_s=r.hands_per_s,
                decisions_per_s=r.decisions_per_s,
                decisions_per_hand=r.decisions_per_hand,
                us_per_decision=1e6 / r.decisions_per_s,
                hosted_hands_per_s=r.hosted_hands_per_s,
                lead_len=r.lead_len,
                lead_us=r.lead_us,
                cpu_share=share.share,
                runs=r.runs,
                **throws,
            )
        )
    return out


@dataclass
class ShuangkouResult:
    """Medians of ``engine_shuangkou.random_playout`` and ``legal_actions_cost`` runs."""

    config: str  # the room options measured ("defaults")
    options: dict[str, Any]
    hands_per_s: float
    decisions_per_s: float
    decisions_per_hand: float
    us_per_decision: float
    lead_n: float
    lead_max: float
    lead_us: float
    lead_iter_us: float
    follow_n: float
    follow_max: float
    follow_us: float
    apply_us: float
    clone_us: float
    view_us: float
    cpu_share: float
    runs: dict[str, list[dict[str, float]]] = field(default_factory=dict)


def bench_shuangkou(
    budget: Budget, options: dict[str, Any] | None = None, log: Callable[[str], None] = lambda s: None
) -> ShuangkouResult:
    module = sibling("engine_shuangkou")
    opts = dict(options or {})
    med = statistics.median
    log(f"shuangkou: {budget.repeats} × {budget.playout_s:g} s random playout, then per-call costs")
    with CpuShare() as share:
        plays = [module.random_playout(budget.playout_s, **opts) for _ in range(budget.repeats)]
    costs = [module.legal_actions_cost(budget.micro_s, budget.cost_hands, **opts) for _ in range(budget.repeats)]
    play = {k: med(r[k] for r in plays) for k in plays[0]}
    cost = {k: med(r[k] for r in costs) for k in costs[0]}
    return ShuangkouResult(
        config=",".join(f"{k}={v}" for k, v in opts.items()) or "defaults",
        options=opts,
        hands_per_s=play["hands_per_s"],
        decisions_per_s=play["decisions_per_s"],
        decisions_per_hand=play["decisions_per_hand"],
        us_per_decision=play["us_per_decision"],
        cpu_share=share.share,
        runs={"playout": plays, "cost": costs},
        **{k: cost[k] for k in cost},
    )


# ---------------------------------------------------------------------------- --stats, --profile, --encode
Subject = tuple[str, str, dict[str, Any]]
"""(game, label, options of ``new_game``): what an extra measures."""


def subjects(games: Sequence[str], configs: Sequence[str], decks: Sequence[int]) -> list[Subject]:
    """The Baohuang configurations, Shengji pack counts and Shuangkou asked for."""
    out: list[Subject] = []
    if "baohuang" in games:
        out += [("baohuang", name, dict(CONFIGS[name])) for name in configs]
    if "shengji" in games:
        out += [("shengji", f"{d} pack{'s' if d > 1 else ''}", {"decks": d}) for d in decks]
    if "shuangkou" in games:
        out.append(("shuangkou", "defaults", {}))
    return out


def random_hands(game: str, options: dict[str, Any], hands: int, rng: random.Random) -> Any:
    """Play ``hands`` hands as the playout does; yield (game, legal actions, action) at every decision."""
    for _ in range(hands):
        g: Any = paiju.new_game(game, seed=rng.randrange(2**62), **options)
        while g.to_act is not None:
            la = g.legal_actions()
            a = la[rng.randrange(len(la))]
            yield g, la, a
            g.apply(a)


def decision_stats(game: str, options: dict[str, Any], hands: int, seed: int = 5) -> dict[str, Any]:
    """What the decisions of random play are: how many had one legal action only, how
    many were passes, and how they split over the phases (counts, not timings)."""
    decisions = forced = passes = forced_passes = 0
    phases: dict[str, int] = {}
    for g, la, a in random_hands(game, options, hands, random.Random(seed)):
        decisions += 1
        phases[g.phase] = phases.get(g.phase, 0) + 1
        is_pass = isinstance(a, Pass)
        forced += len(la) == 1
        passes += is_pass
        forced_passes += is_pass and len(la) == 1
    return {
        "hands": hands,
        "decisions_per_hand": decisions / hands,
        "forced_share": forced / decisions,
        "pass_share": passes / decisions,
        "forced_pass_share": forced_passes / decisions,
        "passes_per_hand": passes / hands,
        "phase_shares": {p: n / decisions for p, n in phases.items()},
    }


def _where(code: Any) -> str:
    """A profiled function as ``paiju/module.py:Class.function`` (builtins as cProfile names them)."""
    if isinstance(code, str):
        return code
    parts = Path(code.co_filename).parts
    if "paiju" in parts:
        path = "/".join(parts[len(parts) - 1 - parts[::-1].index("paiju") :])
    else:
        path = Path(code.co_filename).name
    return f"{path}:{code.co_qualname}"


def profile_rows(game: str, options: dict[str, Any], hands: int, top: int, seed: int = 9) -> dict[str, Any]:
    """cProfile of ``hands`` hands of random play: the ``top`` functions by cumulative time,
    as shares of the total (cProfile overstates code made of many small calls)."""
    import cProfile

    rng = random.Random(seed)

    def play() -> None:
        for _ in random_hands(game, options, hands, rng):
            pass

    prof = cProfile.Profile()
    prof.runcall(play)
    entries = [e for e in prof.getstats() if not (isinstance(e.code, str) and "_lsprof" in e.code)]
    total = sum(e.inlinetime for e in entries)
    rows = [
        {
            "function": _where(e.code),
            "calls": e.callcount,
            "own": e.inlinetime / total,
            "cumulative": e.totaltime / total,
        }
        for e in entries
        if isinstance(e.code, str) or e.code not in (play.__code__, random_hands.__code__)
    ]
    rows.sort(key=lambda r: -r["cumulative"])
    return {"hands": hands, "seconds": total, "rows": rows[:top]}


def encode_cost(game: str, options: dict[str, Any], budget: Budget, every: int = 25, seed: int = 13) -> dict[str, Any]:
    """JSON text of every seat's view, as the hall sends one update per seat after an
    action: ``json.dumps`` (``ensure_ascii=False``) against ``orjson.dumps(...).decode()``
    (what the hall uses), µs for all seats' views at positions every ``every`` decisions
    of random hands. *full*: the whole view; *update*: the event log cut to its last event
    (the hall sends the log incrementally; Shengji's view keeps no event log)."""
    import orjson

    full: list[list[dict[str, Any]]] = []
    for k, (g, _la, _a) in enumerate(random_hands(game, options, budget.encode_hands, random.Random(seed))):
        if k % every == 0:
            full.append([g.view(seat) for seat in range(g.num_players)])
    update = [[{**v, "events": v["events"][-1:]} if "events" in v else v for v in views] for views in full]

    def cost(positions: list[list[dict[str, Any]]], dumps: Callable[[Any], str]) -> float:
        def run() -> tuple[int, float]:
            t = clock()
            for views in positions:
                for v in views:
                    dumps(v)
            return len(positions), clock() - t

        return statistics.median(measure(run, budget.micro_s, budget.repeats))

    def std(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False)

    def fast(v: Any) -> str:
        return orjson.dumps(v).decode()

    out: dict[str, Any] = {"positions": len(full), "views_per_position": len(full[0]) if full else 0}
    for name, positions in (("full", full), ("update", update)):
        sizes = [len(fast(v).encode()) for views in positions for v in views]
        out[name] = {
            "kib_per_view": statistics.fmean(sizes) / 1024,
            "json_us": cost(positions, std),
            "orjson_us": cost(positions, fast),
        }
        out[name]["ratio"] = out[name]["json_us"] / out[name]["orjson_us"]
    return out


def _pct(x: float) -> str:
    return f"{x:.0%}"


def print_extras(extras: dict[str, list[dict[str, Any]]], budget: Budget) -> None:
    """Markdown tables of ``--stats``, ``--profile`` and ``--encode``."""
    if "stats" in extras:
        print(f"\n### Decisions of random play ({budget.stats_hands} hands each; counts, not timings)\n")
        print(
            "| game | options | decisions/hand | one legal action | passes | forced passes | passes/hand | by phase |"
        )
        print("|---|---|---:|---:|---:|---:|---:|---|")
        for r in extras["stats"]:
            phases = ", ".join(f"{p} {_pct(s)}" for p, s in r["phase_shares"].items())
            print(
                f"| {r['game']} | {r['label']} | {r['decisions_per_hand']:.0f} | {_pct(r['forced_share'])} "
                f"| {_pct(r['pass_share'])} | {_pct(r['forced_pass_share'])} | {r['passes_per_hand']:.0f} "
                f"| {phases} |"
            )
    for r in extras.get("profile", []):
        print(
            f"\n### cProfile: {r['game']} {r['label']}, {r['hands']} random hands "
            f"({r['seconds']:.2f} s under the profiler)\n"
        )
        print("| cumulative | own | calls | function |")
        print("|---:|---:|---:|---|")
        for row in r["rows"]:
            print(f"| {_pct(row['cumulative'])} | {_pct(row['own'])} | {row['calls']:,} | `{row['function']}` |")
    if "encode" in extras:
        print(f"\n### JSON of every seat's view ({clock_name()}, medians of {budget.repeats} runs)\n")
        print(
            "| game | options | positions | full KiB/view | full json µs | full orjson µs | json/orjson "
            "| update KiB/view | update json µs | update orjson µs | json/orjson |"
        )
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in extras["encode"]:
            f, u = r["full"], r["update"]
            print(
                f"| {r['game']} | {r['label']} | {r['positions']} | {f['kib_per_view']:.1f} | {f['json_us']:,.0f} "
                f"| {f['orjson_us']:,.0f} | {f['ratio']:.1f}× | {u['kib_per_view']:.1f} | {u['json_us']:,.0f} "
                f"| {u['orjson_us']:,.0f} | {u['ratio']:.1f}× |"
            )
        print("\nµs are per position: all seats' views (5 in Baohuang, 4 in Shengji and Shuangkou).")


def run_extras(
    which: dict[str, int], subs: Sequence[Subject], budget: Budget, log: Callable[[str], None] = lambda s: None
) -> dict[str, list[dict[str, Any]]]:
    """``which``: "stats", "profile" (its value: rows per table), "encode"."""
    out: dict[str, list[dict[str, Any]]] = {}
    for game, label, options in subs:
        head = {"game": game, "label": label, "options": options}
        if "stats" in which:
            log(f"{game} {label}: decisions of {budget.stats_hands} random hands")
            out.setdefault("stats", []).append({**head, **decision_stats(game, options, budget.stats_hands)})
        if "profile" in which:
            log(f"{game} {label}: cProfile of {budget.stats_hands} random hands")
            rows = profile_rows(game, options, budget.stats_hands, which["profile"])
            out.setdefault("profile", []).append({**head, **rows})
        if "encode" in which:
            log(f"{game} {label}: json against orjson, views of {budget.encode_hands} random hands")
            out.setdefault("encode", []).append({**head, **encode_cost(game, options, budget)})
    return out


# ---------------------------------------------------------------------------- output
THROUGHPUT_COLUMNS = [
    ("config", "config", "{}"),
    ("hands/s", "hands_per_s", "{:,.0f}"),
    ("decisions/s", "decisions_per_s", "{:,.0f}"),
    ("decisions/hand", "decisions_per_hand", "{:,.0f}"),
    ("µs/decision", "us_per_decision", "{:.2f}"),
    ("CPU share", "cpu_share", "{:.0%}"),
    ("new_game µs", "new_game_us", "{:,.0f}"),
    ("apply µs", "apply_us", "{:.2f}"),
    ("view µs", "view_us", "{:,.0f}"),
    ("clone µs", "clone_us", "{:,.1f}"),
    ("replay ms/hand", "replay_ms", "{:.2f}"),
]
LEGAL_COLUMNS = [
    ("config", "config", "{}"),
    ("lead n", "lead_n", "{:.1f}"),
    ("lead µs", "lead_us", "{:.2f}"),
    ("lead+iter µs", "lead_iter_us", "{:.2f}"),
    ("largest lead n", "largest_lead_n", "{}"),
    ("largest lead+iter µs", "largest_lead_iter_us", "{:.1f}"),
    ("follow n", "follow_n", "{:.1f}"),
    ("follow µs", "follow_us", "{:.2f}"),
    ("largest follow n", "largest_n", "{}"),
    ("largest follow µs", "largest_us", "{:.2f}"),
    ("largest follow+iter µs", "largest_iter_us", "{:.2f}"),
]


SHENGJI_COLUMNS = [
    ("packs", "decks", "{}"),
    ("hands/s", "hands_per_s", "{:,.0f}"),
    ("decisions/s", "decisions_per_s", "{:,.0f}"),
    ("decisions/hand", "decisions_per_hand", "{:,.0f}"),
    ("µs/decision", "us_per_decision", "{:.1f}"),
    ("hosted hands/s", "hosted_hands_per_s", "{:,.0f}"),
    ("lead n", "lead_len", "{:,.0f}"),
    ("lead µs", "lead_us", "{:.1f}"),
    ("throws/lead", "throw_share", "{:.0%}"),
    ("failed/throw", "failed_share", "{:.0%}"),
    ("CPU share", "cpu_share", "{:.0%}"),
]
SHUANGKOU_COLUMNS = [
    ("options", "config", "{}"),
    ("hands/s", "hands_per_s", "{:,.0f}"),
    ("decisions/s", "decisions_per_s", "{:,.0f}"),
    ("decisions/hand", "decisions_per_hand", "{:,.0f}"),
    ("µs/decision", "us_per_decision", "{:.2f}"),
    ("lead n", "lead_n", "{:.1f}"),
    ("lead µs", "lead_us", "{:.2f}"),
    ("lead+iter µs", "lead_iter_us", "{:.2f}"),
    ("follow n", "follow_n", "{:.1f}"),
    ("follow µs", "follow_us", "{:.2f}"),
    ("apply µs", "apply_us", "{:.2f}"),
    ("clone µs", "clone_us", "{:.1f}"),
    ("view µs", "view_us", "{:.1f}"),
    ("CPU share", "cpu_share", "{:.0%}"),
]


def _rows(results: Sequence[Any], columns: list[tuple[str, str, str]]) -> list[list[str]]:
    return [[fmt.format(getattr(r, attr)) for _, attr, fmt in columns] for r in results]


def markdown_table(results: Sequence[Any], columns: list[tuple[str, str, str]]) -> str:
    head = [title for title, _, _ in columns]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in _rows(results, columns)]
    return "\n".join(lines)


def machine_line(info: dict[str, Any], pinning: str) -> str:
    return (
        f"{info['cpu']}, {info['cores']} cores ({info['usable_cores']} usable), {info['python']}, "
        f"{info['platform']}; {pinning}"
    )


def clock_name() -> str:
    return "process CPU time" if clock is time.process_time else "wall-clock time"


def budget_line(budget: Budget, games: Sequence[str] = ("baohuang",)) -> str:
    where = []
    if "baohuang" in games:
        where.append(f"Baohuang positions from {budget.scan_hands} random hands per configuration")
    if "shengji" in games:
        where.append(f"Shengji throws counted over {budget.throw_hands} random hands per number of packs")
    if "shuangkou" in games:
        where.append(f"Shuangkou positions from {budget.cost_hands} random hands")
    return (
        f"{clock_name()}, medians of {budget.repeats} runs ({budget.playout_s:g} s per playout run, "
        f"{budget.micro_s:g} s per per-call run; {'; '.join(where)})"
    )


def shengji_target_line(results: Sequence[ShengjiResult]) -> str | None:
    two = next((r for r in results if r.decks == 2), None)
    if two is None:
        return None
    met = "met" if two.hands_per_s >= TARGET_SHENGJI_HANDS_PER_S else "NOT met"
    return (
        f"target: ≥ {TARGET_SHENGJI_HANDS_PER_S} hands/s for Shengji with 2 packs, random play with throws "
        f"among the leader's choices, one core — {two.hands_per_s:,.0f} "
        f"({two.hands_per_s / TARGET_SHENGJI_HANDS_PER_S:.1f}×): {met}"
    )


def shuangkou_target_line(result: ShuangkouResult | None) -> str | None:
    if result is None:
        return None
    d = result.decisions_per_s
    met = "met" if d >= TARGET_SHUANGKOU_DECISIONS_PER_S else "NOT met"
    return (
        f"target: ≥ {TARGET_SHUANGKOU_DECISIONS_PER_S:,} decisions/s for Shuangkou random play on one core — "
        f"{d:,.0f} ({d / TARGET_SHUANGKOU_DECISIONS_PER_S:.1f}×): {met}"
    )


Columns = list[tuple[str, str, str]]
TableSpec = tuple[str, Sequence[Any], Columns]
Section = tuple[str, list[TableSpec], str | None]


@dataclass
class Report:
    """Everything one run measured, per game (empty for the games not asked for)."""

    baohuang: list[Result] = field(default_factory=list)
    shengji: list[ShengjiResult] = field(default_factory=list)
    shuangkou: ShuangkouResult | None = None
    extras: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # --stats, --profile, --encode

    @property
    def games(self) -> list[str]:
        return [g for g, got in zip(GAMES, (self.baohuang, self.shengji, self.shuangkou)) if got]

    def sections(self) -> list[Section]:
        """Per game measured: (heading, [(table title, rows, columns)], target line)."""
        out: list[Section] = []
        tables: list[TableSpec]
        if self.baohuang:
            tables = [
                ("Random playout and per-call costs", self.baohuang, THROUGHPUT_COLUMNS),
                ("legal_actions() per call (n = number of legal actions)", self.baohuang, LEGAL_COLUMNS),
            ]
            out.append(("保皇 Baohuang", tables, target_line(self.baohuang)))
        if self.shengji:
            tables = [("Random playout per number of packs", self.shengji, SHENGJI_COLUMNS)]
            out.append(("升级 Shengji", tables, shengji_target_line(self.shengji)))
        if self.shuangkou is not None:
            tables = [("Random playout and per-call costs", [self.shuangkou], SHUANGKOU_COLUMNS)]
            out.append(("双扣 Shuangkou", tables, shuangkou_target_line(self.shuangkou)))
        return out


def target_line(results: Sequence[Result]) -> str | None:
    std = next((r for r in results if r.config == "standard"), None)
    if std is None:
        return None
    met = "met" if std.decisions_per_s >= TARGET_DECISIONS_PER_S else "NOT met"
    return (
        f"target: ≥ {TARGET_DECISIONS_PER_S:,} decisions/s for standard random play on one core — "
        f"{std.decisions_per_s:,.0f} ({std.decisions_per_s / TARGET_DECISIONS_PER_S:.1f}×): {met}"
    )


def _as_report(results: Sequence[Result] | Report) -> Report:
    return results if isinstance(results, Report) else Report(baohuang=list(results))


def print_markdown(results: Sequence[Result] | Report, info: dict[str, Any], pinning: str, budget: Budget) -> None:
    report = _as_report(results)
    print(f"Machine: {machine_line(info, pinning)}.")
    print(f"{budget_line(budget, report.games)}.")
    for heading, tables, line in report.sections():
        print(f"\n### {heading}")
        for _, rows, columns in tables:
            print()
            print(markdown_table(rows, columns))
        if line:
            print(f"\n{line}")


def print_tables(results: Sequence[Result] | Report, info: dict[str, Any], pinning: str, budget: Budget) -> None:
    report = _as_report(results)
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # plain text
        print(f"machine: {machine_line(info, pinning)}")
        for heading, tables, line in report.sections():
            for title, results_, columns in tables:
                print(f"\n{heading} · {title}")
                rows = [[t for t, _, _ in columns], *_rows(results_, columns)]
                widths = [max(len(row[i]) for row in rows) for i in range(len(columns))]
                for row in rows:
                    cells = (cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
                    print("  ".join(cells))
            if line:
                print(f"\n{line}")
        return
    console = Console() if sys.stdout.isatty() else Console(width=200)  # no wrapping when piped
    console.print(f"[bold]machine[/]: {machine_line(info, pinning)}")
    console.print(budget_line(budget, report.games))
    for heading, tables, line in report.sections():
        for title, results_, columns in tables:
            table = Table(title=f"{heading} · {title}")
            for i, (t, _, _) in enumerate(columns):
                table.add_column(t, justify="left" if i == 0 else "right")
            for row in _rows(results_, columns):
                table.add_row(*row)
            console.print(table)
        if line:
            console.print(line)


def to_json(results: Sequence[Result] | Report, info: dict[str, Any], pinning: str, budget: Budget) -> dict[str, Any]:
    """Every figure. ``target`` and ``results`` are Baohuang's (as before); ``games`` has
    Shengji and Shuangkou, ``targets`` every game's target."""
    report = _as_report(results)
    std = next((r for r in report.baohuang if r.config == "standard"), None)
    two = next((r for r in report.shengji if r.decks == 2), None)
    sk = report.shuangkou
    return {
        "machine": info,
        "pinning": pinning,
        "budget": asdict(budget),
        "clock": clock_name(),
        "target": {
            "decisions_per_s": TARGET_DECISIONS_PER_S,
            "config": "standard",
            "measured": std.decisions_per_s if std else None,
            "met": (std.decisions_per_s >= TARGET_DECISIONS_PER_S) if std else None,
        },
        "results": [asdict(r) for r in report.baohuang],
        "games": {
            "shengji": [asdict(r) for r in report.shengji],
            "shuangkou": asdict(sk) if sk is not None else None,
        },
        "targets": {
            "baohuang": {
                "decisions_per_s": TARGET_DECISIONS_PER_S,
                "measured": std.decisions_per_s if std else None,
                "met": (std.decisions_per_s >= TARGET_DECISIONS_PER_S) if std else None,
            },
            "shengji": {
                "hands_per_s": TARGET_SHENGJI_HANDS_PER_S,
                "decks": 2,
                "measured": two.hands_per_s if two else None,
                "met": (two.hands_per_s >= TARGET_SHENGJI_HANDS_PER_S) if two else None,
            },
            "shuangkou": {
                "decisions_per_s": TARGET_SHUANGKOU_DECISIONS_PER_S,
                "measured": sk.decisions_per_s if sk else None,
                "met": (sk.decisions_per_s >= TARGET_SHUANGKOU_DECISIONS_PER_S) if sk else None,
            },
        },
    }


# ---------------------------------------------------------------------------- main
def _games(text: str) -> list[str]:
    games = [g.strip() for g in text.split(",") if g.strip()]
    unknown = [g for g in games if g not in GAMES]
    if unknown or not games:
        raise argparse.ArgumentTypeError(f"games are {','.join(GAMES)}, not {text!r}")
    return games


def _decks(text: str) -> list[int]:
    try:
        decks = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        decks = []
    if not decks or any(d not in (1, 2, 3) for d in decks):
        raise argparse.ArgumentTypeError(f"packs are 1, 2 or 3 (comma-separated), not {text!r}")
    return decks


def run(argv: Sequence[str] | None = None) -> Report:
    """Parse the arguments, measure, print (and write the JSON); return every result."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--games",
        type=_games,
        help=f"comma-separated games to measure (default: {','.join(GAMES)}; only baohuang when --configs is given)",
    )
    ap.add_argument("--quick", action="store_true", help="short runs (figures are rough)")
    ap.add_argument("--smoke", action="store_true", help="tiny runs that only check that the script works")
    ap.add_argument("--json", metavar="FILE", help="also write every figure (and the raw runs) to FILE")
    ap.add_argument("--markdown", action="store_true", help="print markdown tables ready for docs")
    ap.add_argument("--configs", nargs="+", choices=list(CONFIGS), help="Baohuang configurations (default: all)")
    ap.add_argument("--decks", type=_decks, default=[1, 2, 3], help="Shengji: comma-separated packs (default 1,2,3)")
    ap.add_argument("--repeats", type=int, help="timed runs per figure (default 5, --quick 3)")
    ap.add_argument("--seconds", type=float, help="seconds per random-playout run (default 2, --quick 0.25)")
    ap.add_argument("--clock", choices=list(CLOCKS), default="cpu", help="time with process CPU time (default) or wall")
    ap.add_argument("--no-pin", action="store_true", help="do not pin the process to one core")
    extra = ap.add_argument_group("instead of the timings (markdown tables; with --games, --configs, --decks)")
    extra.add_argument(
        "--stats", action="store_true", help="decisions of random play: one legal action, passes, phases (counts)"
    )
    extra.add_argument(
        "--profile", type=int, nargs="?", const=20, metavar="TOP", help="cProfile of random play, TOP functions (20)"
    )
    extra.add_argument("--encode", action="store_true", help="json.dumps against orjson of every seat's view")
    args = ap.parse_args(argv)

    budget = TINY if args.smoke else QUICK if args.quick else FULL
    if args.repeats is not None:
        budget = Budget(**{**asdict(budget), "repeats": max(1, args.repeats)})
    if args.seconds is not None:
        budget = Budget(**{**asdict(budget), "playout_s": args.seconds})
    use_clock(args.clock)
    pinning = "not pinned (--no-pin)" if args.no_pin else pin_to_one_core()
    info = machine()

    started = time.perf_counter()

    def log(msg: str) -> None:
        print(f"[bench {time.perf_counter() - started:5.1f} s] {msg}", file=sys.stderr, flush=True)

    games = args.games or (["baohuang"] if args.configs else list(GAMES))
    log(pinning)
    report = Report()
    which = {k: v for k, v in (("stats", args.stats), ("profile", args.profile), ("encode", args.encode)) if v}
    if which:
        report.extras = run_extras(which, subjects(games, args.configs or list(CONFIGS), args.decks), budget, log)
        log(f"done in {time.perf_counter() - started:.0f} s")
        print(f"Machine: {machine_line(info, pinning)}.")
        print_extras(report.extras, budget)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump({"machine": info, "pinning": pinning, "budget": asdict(budget), **report.extras}, f, indent=2)
                f.write("\n")
            log(f"wrote {args.json}")
        return report
    if "baohuang" in games:
        report.baohuang = run_benchmarks(args.configs or list(CONFIGS), budget, log)
    if "shengji" in games:
        report.shengji = bench_shengji(args.decks, budget, log)
    if "shuangkou" in games:
        report.shuangkou = bench_shuangkou(budget, log=log)
    log(f"done in {time.perf_counter() - started:.0f} s")

    if args.markdown:
        print_markdown(report, info, pinning, budget)
    else:
        print_tables(report, info, pinning, budget)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(to_json(report, info, pinning, budget), f, indent=2, ensure_ascii=False)
            f.write("\n")
        log(f"wrote {args.json}")
    return report


def main(argv: Sequence[str] | None = None) -> list[Result]:
    """The command line; returns the Baohuang results (``run`` returns every game's)."""
    return run(argv).baohuang


if __name__ == "__main__":
    main()
