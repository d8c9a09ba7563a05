"""What ``engine.py`` measures instead of the timings: ``--stats`` (what random play's
decisions are), ``--profile`` (cProfile of random play) and ``--encode`` (``json.dumps``
against ``orjson`` on every seat's view), printed as markdown tables.
"""

from __future__ import annotations

import json
import random
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import engine_timing as timing
import paiju
from engine_baohuang import CONFIGS
from engine_timing import Budget, clock_name, measure
from paiju.game import Pass

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
            t = timing.clock()
            for views in positions:
                for v in views:
                    dumps(v)
            return len(positions), timing.clock() - t

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
