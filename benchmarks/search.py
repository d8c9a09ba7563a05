"""Benchmark of the search bot (``paiju.bots.search``): the cost of a world and of a
searched decision, per game.

* *world*: ``WorldSampler(view).sample(rng)`` — reading the view once, then one world —
  at play decisions of heuristic self-play (median over the positions, milliseconds);
* *decision*: the wall time of ``bot.act`` of the default ``search`` bot (1 s budget, the
  end of a hand) at the decisions it searches, with the worlds it managed in that time
  (median and maximum);
* *heuristic*: the wall time of ``bot.act`` of the ``heuristic`` bots at every other
  decision of those hands (mean, milliseconds) — the figure the bot tests once bounded.

Run ``.venv/bin/python benchmarks/search.py`` (``--hands N`` per game, default 4;
``--json FILE`` to keep the numbers). A measurement script: it asserts nothing. Times are
wall times: on a busy machine a decision still ends near its budget, with fewer worlds.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import random
import statistics
import time
from typing import Any

import paiju
from paiju.bots import make_bot
from paiju.bots.search import SearchBot

GAMES = ("baohuang", "shengji", "shuangkou")


def bench_game(game: str, hands: int, bot: str = "search") -> dict[str, Any]:
    """World and decision costs of ``bot`` in ``hands`` hands of ``game``."""
    worlds = importlib.import_module(f"paiju.{game}.worlds")
    rng = random.Random(1)
    first: list[float] = []
    more: list[float] = []
    decisions: list[float] = []
    per_decision: list[int] = []
    heuristic: list[float] = []
    for h in range(hands):
        g = paiju.new_game(game, seed=100 + h)
        players = [make_bot("heuristic", game=game, seed=s) for s in range(g.num_players)]
        searcher = make_bot(bot, game=game, seed=h)
        assert isinstance(searcher, SearchBot)
        while not g.is_over:
            seat = g.to_act
            view, legal = g.view(seat), g.legal_actions()
            if g.phase == "play" and seat == 0:
                t0 = time.perf_counter()
                sampler = worlds.WorldSampler(view)
                sampler.sample(rng)
                t1 = time.perf_counter()
                sampler.sample(rng)
                t2 = time.perf_counter()
                first.append(t1 - t0)
                more.append(t2 - t1)
                before = searcher.stats["worlds"], searcher.stats["searched"]
                t0 = time.perf_counter()
                action = searcher.act(view, legal)
                spent = time.perf_counter() - t0
                if searcher.stats["searched"] > before[1]:
                    decisions.append(spent)
                    per_decision.append(searcher.stats["worlds"] - before[0])
            else:
                t0 = time.perf_counter()
                action = players[seat].act(view, legal)
                heuristic.append(time.perf_counter() - t0)
            g.apply(action)
    return {
        "game": game,
        "positions": len(first),
        "first_world_ms": statistics.median(first) * 1000,
        "next_world_ms": statistics.median(more) * 1000,
        "searched_decisions": len(decisions),
        "decision_ms_median": statistics.median(decisions) * 1000 if decisions else None,
        "decision_ms_max": max(decisions) * 1000 if decisions else None,
        "worlds_per_decision_median": statistics.median(per_decision) if per_decision else None,
        "heuristic_decisions": len(heuristic),
        "heuristic_decision_ms_mean": statistics.fmean(heuristic) * 1000,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=4)
    ap.add_argument("--bot", default="search", help="the search bot with its parameters")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    rows = [bench_game(game, a.hands, a.bot) for game in GAMES]
    print(
        f"`{a.bot}`, {a.hands} hands per game, seat 0 searching; {platform.python_implementation()} "
        f"{platform.python_version()}"
    )
    print()
    print(
        "| game | positions | first world ms | next world ms | searched decisions | decision ms (median / max) "
        "| worlds per decision | heuristic decision ms (mean) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        med = r["decision_ms_median"]
        dec = f"{med:.0f} / {r['decision_ms_max']:.0f}" if med is not None else "—"
        wpd = r["worlds_per_decision_median"]
        print(
            f"| {r['game']} | {r['positions']} | {r['first_world_ms']:.2f} | {r['next_world_ms']:.2f} "
            f"| {r['searched_decisions']} | {dec} | {wpd if wpd is not None else '—'} "
            f"| {r['heuristic_decision_ms_mean']:.2f} |"
        )
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
