"""How much search OpenSpiel's ISMCTS gets through paiju's OpenSpiel games: simulations
per search and time per searched decision of the ``openspiel-ismcts`` bot.

Heuristic self-play with the bot in seat 0 (``--seconds`` per searched decision, default
0.1 s, the budget of the tournaments in docs/ai.md), ``--hands`` hands per game, random
and heuristic rollouts. A Shengji play is searched pick by pick, so it has more searches
than searched decisions. Medians over the searches; ``--profile GAME`` prints a cProfile
of one game instead. A measurement script: it asserts nothing.

Run ``.venv/bin/python benchmarks/openspiel_ismcts.py`` (needs ``paiju[openspiel]``).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

import paiju
from paiju.bots import make_bot

GAMES = ("baohuang", "shengji", "shuangkou")


def measure(game: str, rollout: str, seconds: float, hands: int) -> dict[str, float]:
    bot = make_bot(f"openspiel-ismcts:seconds={seconds}:rollout={rollout}", game=game, seed=1)
    others = make_bot("heuristic", game=game, seed=1)
    sims: list[int] = []
    times: list[float] = []
    for seed in range(hands):
        g = paiju.new_game(game, seed=seed)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            if seat == 0:
                searched, searches, total = bot.stats["searched"], bot.stats["searches"], bot.stats["simulations"]
                t = time.perf_counter()
                action = bot.act(g.view(0), g.legal_actions())
                if bot.stats["searched"] > searched:
                    times.append(time.perf_counter() - t)
                    n = bot.stats["searches"] - searches  # a Shengji play: one search per pick
                    if n:
                        sims += [(bot.stats["simulations"] - total) // n] * n
            else:
                action = others.act(g.view(seat), g.legal_actions())
            g.apply(action)
    return {
        "decisions": len(times),
        "searches": len(sims),
        "simulations": statistics.median(sims) if sims else 0,
        "ms": 1000 * statistics.median(times) if times else 0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=0.1)
    ap.add_argument("--hands", type=int, default=10)
    ap.add_argument("--profile", choices=GAMES)
    a = ap.parse_args()
    if a.profile:
        with cProfile.Profile() as prof:
            measure(a.profile, "random", a.seconds, a.hands)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
        return
    print(f"openspiel-ismcts, {a.seconds:g} s per searched decision, {a.hands} hands per game (medians)")
    print(f"{'game':<11}{'rollout':<11}{'decisions':>10}{'searches':>10}{'simulations/search':>20}{'ms/decision':>13}")
    for game in GAMES:
        for rollout in ("random", "heuristic"):
            r = measure(game, rollout, a.seconds, a.hands)
            print(
                f"{game:<11}{rollout:<11}{r['decisions']:>10}{r['searches']:>10}"
                f"{r['simulations']:>20.0f}{r['ms']:>13.1f}"
            )


if __name__ == "__main__":
    main()
