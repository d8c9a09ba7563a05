"""How well the 复盘 analysis (``paiju.analysis``) tells bad play from good.

In each hand one side is played by the ``random`` bot and the other by the ``heuristic``
bot (:func:`random_side`: a partnership in Shengji and Shuangkou; in Baohuang the emperor's
side or the rebels, alternately); the analysis then judges the decisions of one seat of
each side, from that seat's own information (worlds sampled from its view), with the same
budget. An analysis worth reading marks far more of the random seat's decisions
(疑问手 or 失误) than of the heuristic's. Reported per game and side: decisions judged, the
share marked (with a 95 % Wilson interval), the share marked 失误, the mean estimated loss
per decision, and the share the double-dummy play-out (the real deal) marks.

Run ``.venv/bin/python benchmarks/analysis_accuracy.py`` (``--hands N`` per game, default
6; ``--seconds S`` per decision, default 0.25; ``--workers K`` processes, default 2;
``--json FILE`` to keep the numbers). A measurement script: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

import paiju
from paiju.analysis import analyze
from paiju.bots import make_bot

GAMES = ("baohuang", "shengji", "shuangkou")


def random_side(game: str, seed: int, h: int) -> list[int]:
    """The seats of the side ``random`` plays in hand ``h``: a partnership in Shengji and
    Shuangkou (alternately), in Baohuang alternately the emperor's side (the seats dealt
    the emperor card 皇牌 and the guard card 保子 — one seat when both went to one) and the
    rebels (every other seat)."""
    g = paiju.new_game(game, seed=seed)
    if game != "baohuang":
        return [h % 2, h % 2 + 2]
    crown = [s for s in range(g.num_players) if any(c.endswith("*") for c in g.view(s)["hand"])]
    return crown if h % 2 == 0 else [s for s in range(g.num_players) if s not in crown]


def hand(game: str, seed: int, random_seats: list[int]) -> dict[str, Any]:
    """A hand with ``random_seats`` played by ``random`` and every other seat by ``heuristic``."""
    g = paiju.new_game(game, seed=seed)
    bots = [
        make_bot("random" if s in random_seats else "heuristic", game=game, seed=seed + s) for s in range(g.num_players)
    ]
    while not g.is_over:
        s = g.to_act
        assert s is not None
        g.apply(bots[s].act(g.view(s), g.legal_actions()))
    return g.record()


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson interval of a share ``k / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def side_row(game: str, side: str, decisions: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(decisions)
    marked = sum(d["mark"] is not None for d in decisions)
    low, high = wilson(marked, n)
    return {
        "game": game,
        "side": side,
        "decisions": n,
        "marked": marked / n if n else 0.0,
        "marked_low": low,
        "marked_high": high,
        "mistakes": sum(d["mark"] == "mistake" for d in decisions) / n if n else 0.0,
        "loss_per_decision": sum(d["loss"] for d in decisions) / n if n else 0.0,
        "dd_marked": sum(d["dd"]["mark"] is not None for d in decisions) / n if n else 0.0,
        "worlds_median": sorted(d["worlds"] for d in decisions)[n // 2] if n else 0,
    }


def bench_game(
    game: str, hands: int, seconds: float, executor: Executor | None = None, keep: list[Any] | None = None
) -> list[dict[str, Any]]:
    """Both sides' rows of ``game``; ``keep`` collects every judged decision (with its side)."""
    sides: dict[str, list[dict[str, Any]]] = {"random": [], "heuristic": []}
    for h in range(hands):
        n = paiju.new_game(game, seed=0).num_players
        randoms = random_side(game, 700 + h, h)
        others = [s for s in range(n) if s not in randoms]
        record = hand(game, 700 + h, randoms)
        # one seat of each side, a different one from hand to hand
        for side, seat in (("random", randoms[h // 2 % len(randoms)]), ("heuristic", others[h // 2 % len(others)])):
            a = analyze(record, seat, seconds=seconds, double_dummy=True, seed=h, executor=executor)
            sides[side] += a["decisions"]
            if keep is not None:
                keep += [{"game": game, "side": side, "hand": h, **d} for d in a["decisions"]]
    return [side_row(game, side, ds) for side, ds in sides.items()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=6, help="hands per game")
    ap.add_argument("--seconds", type=float, default=0.25, help="search budget per decision")
    ap.add_argument("--workers", type=int, default=2, help="processes judging decisions")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--json", default=None, help="write the rows (and every judged decision) to this file")
    a = ap.parse_args()
    rows: list[dict[str, Any]] = []
    decisions: list[Any] = []
    t0 = time.perf_counter()
    with ProcessPoolExecutor(a.workers) as pool:
        for game in a.games.split(","):
            rows += bench_game(game, a.hands, a.seconds, pool, decisions)
    took = time.perf_counter() - t0
    print(f"{a.hands} hands per game, {a.seconds:g} s per decision, {a.workers} workers, {took:.0f} s in all")
    head = ("game", "side", "decisions", "marked", "95% interval", "失误", "loss/dec", "dd marked", "worlds")
    print("{:10} {:9} {:>9} {:>7} {:>15} {:>6} {:>8} {:>9} {:>6}".format(*head))
    for r in rows:
        interval = f"{r['marked_low']:.1%}–{r['marked_high']:.1%}"
        print(
            f"{r['game']:10} {r['side']:9} {r['decisions']:9d} {r['marked']:7.1%} {interval:>15} {r['mistakes']:6.1%} "
            f"{r['loss_per_decision']:8.3f} {r['dd_marked']:9.1%} {r['worlds_median']:6d}"
        )
    if a.json:
        meta = {"hands": a.hands, "seconds": a.seconds, "workers": a.workers, "python": platform.python_version()}
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"meta": meta, "rows": rows, "decisions": decisions}, f, indent=1)


if __name__ == "__main__":
    main()
