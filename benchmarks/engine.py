"""Engine benchmark: how fast the Baohuang rules engine plays, per preset and toggle set.

Run ``make bench`` or ``.venv/bin/python benchmarks/engine.py`` (``--quick`` for short
runs, ``--markdown`` for tables ready for docs, ``--json FILE`` to keep the numbers; see
``docs/benchmarks.md``). Every figure is the median of several runs timed with the
process's CPU time (``--clock wall`` for wall-clock time); the process is pinned to one
core when the OS allows it. This is a measurement script, not a test: it asserts nothing.

What is measured, per configuration:

- random playout: ``new_game`` (dealing included), then ``la = g.legal_actions();
  g.apply(la[rng.randrange(len(la))])`` until the hand is over → hands/s, decisions/s
  (a decision is one ``apply``);
- ``legal_actions()`` at leads (a lazy ``LeadPlays``) and at follows: at sampled positions
  of random games and at the leads and follows with the most legal actions found by
  scanning random games — the call alone, and the call plus iterating over every action;
- ``apply`` (a legal action object, checks included), ``view(seat)``, ``clone()``,
  ``new_game`` and ``paiju.replay(record)`` of a whole hand.
"""

from __future__ import annotations

import argparse
import gc
import heapq
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import paiju

TARGET_DECISIONS_PER_S = 30_000
"""The issue's target: Baohuang ``standard`` random play on one core."""

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


FULL = Budget()
QUICK = Budget(
    repeats=3, playout_s=0.25, micro_s=0.03, scan_hands=30, timed_hands=10, top_follows=10, sample_positions=40
)
TINY = Budget(repeats=1, playout_s=0.02, micro_s=0.002, scan_hands=2, timed_hands=2, top_follows=3, sample_positions=5)


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
        g = paiju.new_game("baohuang", seed=hand_seed, **options)
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
    global clock
    clock = CLOCKS[name]


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


def _rows(results: Sequence[Result], columns: list[tuple[str, str, str]]) -> list[list[str]]:
    return [[fmt.format(getattr(r, attr)) for _, attr, fmt in columns] for r in results]


def markdown_table(results: Sequence[Result], columns: list[tuple[str, str, str]]) -> str:
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


def budget_line(budget: Budget) -> str:
    return (
        f"{clock_name()}, medians of {budget.repeats} runs ({budget.playout_s:g} s per playout run, "
        f"{budget.micro_s:g} s per per-call run; positions from {budget.scan_hands} random hands per configuration)"
    )


def target_line(results: Sequence[Result]) -> str | None:
    std = next((r for r in results if r.config == "standard"), None)
    if std is None:
        return None
    met = "met" if std.decisions_per_s >= TARGET_DECISIONS_PER_S else "NOT met"
    return (
        f"target: ≥ {TARGET_DECISIONS_PER_S:,} decisions/s for standard random play on one core — "
        f"{std.decisions_per_s:,.0f} ({std.decisions_per_s / TARGET_DECISIONS_PER_S:.1f}×): {met}"
    )


def print_markdown(results: Sequence[Result], info: dict[str, Any], pinning: str, budget: Budget) -> None:
    print(f"Machine: {machine_line(info, pinning)}.")
    print(f"{budget_line(budget)}.\n")
    print(markdown_table(results, THROUGHPUT_COLUMNS))
    print()
    print(markdown_table(results, LEGAL_COLUMNS))
    line = target_line(results)
    if line:
        print(f"\n{line}")


def print_tables(results: Sequence[Result], info: dict[str, Any], pinning: str, budget: Budget) -> None:
    titles = ("Random playout and per-call costs", "legal_actions() per call (n = number of legal actions)")
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # plain text
        print(f"machine: {machine_line(info, pinning)}")
        for title, columns in zip(titles, (THROUGHPUT_COLUMNS, LEGAL_COLUMNS)):
            print(f"\n{title}")
            rows = [[t for t, _, _ in columns], *_rows(results, columns)]
            widths = [max(len(row[i]) for row in rows) for i in range(len(columns))]
            for row in rows:
                cells = (cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
                print("  ".join(cells))
        line = target_line(results)
        if line:
            print(f"\n{line}")
        return
    console = Console() if sys.stdout.isatty() else Console(width=200)  # no wrapping when piped
    console.print(f"[bold]machine[/]: {machine_line(info, pinning)}")
    console.print(budget_line(budget))
    for title, columns in zip(titles, (THROUGHPUT_COLUMNS, LEGAL_COLUMNS)):
        table = Table(title=title)
        for i, (t, _, _) in enumerate(columns):
            table.add_column(t, justify="left" if i == 0 else "right")
        for row in _rows(results, columns):
            table.add_row(*row)
        console.print(table)
    line = target_line(results)
    if line:
        console.print(line)


def to_json(results: Sequence[Result], info: dict[str, Any], pinning: str, budget: Budget) -> dict[str, Any]:
    std = next((r for r in results if r.config == "standard"), None)
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
        "results": [asdict(r) for r in results],
    }


# ---------------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> list[Result]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="short runs (figures are rough)")
    ap.add_argument("--smoke", action="store_true", help="tiny runs that only check that the script works")
    ap.add_argument("--json", metavar="FILE", help="also write every figure (and the raw runs) to FILE")
    ap.add_argument("--markdown", action="store_true", help="print markdown tables ready for docs")
    ap.add_argument("--configs", nargs="+", choices=list(CONFIGS), default=list(CONFIGS), help="default: all")
    ap.add_argument("--repeats", type=int, help="timed runs per figure (default 5, --quick 3)")
    ap.add_argument("--seconds", type=float, help="seconds per random-playout run (default 2, --quick 0.25)")
    ap.add_argument("--clock", choices=list(CLOCKS), default="cpu", help="time with process CPU time (default) or wall")
    ap.add_argument("--no-pin", action="store_true", help="do not pin the process to one core")
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

    log(pinning)
    results = run_benchmarks(args.configs, budget, log)
    log(f"done in {time.perf_counter() - started:.0f} s")

    if args.markdown:
        print_markdown(results, info, pinning, budget)
    else:
        print_tables(results, info, pinning, budget)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(to_json(results, info, pinning, budget), f, indent=2, ensure_ascii=False)
            f.write("\n")
        log(f"wrote {args.json}")
    return results


if __name__ == "__main__":
    main()
