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
Its parts are modules beside it: ``engine_timing.py`` (budgets, the clock, timed passes),
``engine_baohuang.py``, ``engine_games.py`` (Shengji and Shuangkou), ``engine_extras.py``
(``--stats``, ``--profile``, ``--encode``) and ``engine_report.py`` (tables, targets, JSON).

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
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import paiju

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its modules, also when this file is loaded by path
from engine_baohuang import CONFIGS, Result, bench_config, run_benchmarks  # noqa: F401 (bench_config: for the tests)
from engine_extras import print_extras, run_extras, subjects
from engine_games import bench_shengji, bench_shuangkou
from engine_report import GAMES, Report, machine_line, print_markdown, print_tables, to_json
from engine_timing import CLOCKS, FULL, QUICK, TINY, Budget, use_clock
from machine import cpu_model


# ---------------------------------------------------------------------------- machine
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
