"""The one-step gain of a search bot over the heuristic, position by position.

Plays hands of heuristic self-play; at sampled play decisions (with more than one legal
action and at most ``--cards`` cards in the hand) it asks the search bot too. When the two
differ, both actions are played out on the *true* cards, every seat continuing with the
heuristic, and the difference of the acting seat's scores is the gain of that decision
(0 when they agree). Cheaper than a tournament, and it shows where search pays.

    python examples/search_gain.py baohuang --bot search:worlds=32 --hands 40 --cards 6
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import paiju
from paiju.bots import LazyView, make_bot


def measure(game: str, bot: str, hands: int, every: int, cards: int, seed: int) -> tuple[list[float], int]:
    """The gain of every sampled decision, and how many times the search differed."""
    gains: list[float] = []
    differed = 0
    spent = 0.0
    for h in range(hands):
        g = paiju.new_game(game, seed=seed + h)
        players = [make_bot("heuristic", game=game, seed=s) for s in range(g.num_players)]
        searcher = make_bot(bot, game=game, seed=seed + h)
        k = 0
        while not g.is_over:
            seat = g.to_act
            view, legal = g.view(seat), g.legal_actions()
            choice = players[seat].act(view, legal)
            if g.phase == "play" and len(legal) > 1 and len(view["hand"]) <= cards:
                k += 1
                if k % every == 0:
                    t0 = time.perf_counter()
                    other = searcher.act(view, legal)
                    spent += time.perf_counter() - t0
                    differed += other != choice
                    gains.append(_value(g, other, players) - _value(g, choice, players) if other != choice else 0.0)
            g.apply(choice)
    print(f"{spent / max(1, len(gains)) * 1000:.0f} ms per searched decision")
    return gains, differed


def _value(g: paiju.Game, action: object, players: list[Any]) -> float:
    """The acting seat's score after ``action``, the heuristic playing on."""
    seat = g.to_act
    x = g.clone()
    x.apply(action)
    while not x.is_over:
        s = x.to_act
        x.apply(players[s].act(LazyView(x, s), x.legal_actions()))
    return x.scores[seat]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--bot", default="search")
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--every", type=int, default=1, help="ask at every k-th eligible decision")
    ap.add_argument("--cards", type=int, default=6, help="only decisions with at most this many cards in hand")
    ap.add_argument("--seed", type=int, default=1000)
    a = ap.parse_args()
    gains, changed = measure(a.game, a.bot, a.hands, a.every, a.cards, a.seed)
    n = len(gains)
    mean = statistics.mean(gains)
    half = 1.96 * statistics.stdev(gains) / n**0.5 if n > 1 else float("nan")
    print(
        f"{a.game} {a.bot}: {n} decisions, the search differed at {changed}; "
        f"mean gain {mean:+.3f} ± {half:.3f} (95 %) per decision"
    )


if __name__ == "__main__":
    main()
