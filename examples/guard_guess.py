"""How often the heuristic's guess of a hidden Baohuang guard is right.

Plays all-heuristic hands and, at every play decision of the emperor or a rebel while the
guard is still hidden (not a solo), asks :meth:`HeuristicBot.guard_guess` of that seat's
view and compares the guess with the real guard (read from the game, never given to the
bot). It also counts how the hands ended: the emperor's side ahead, the rebels ahead, or
drawn (every score 0).

    python examples/guard_guess.py --deals 500 --variant standard
"""

from __future__ import annotations

import argparse
from collections import Counter

import paiju
from paiju.bots import make_bot
from paiju.bots.heuristic_baohuang import HeuristicBot


def measure(deals: int, variant: str, seed: int) -> tuple[int, int, int, Counter[str]]:
    """(decisions with a hidden guard, decisions with a guess, right guesses, how the hands
    ended: "emperor" — the emperor's side ahead, "rebels" ahead, or "drawn")."""
    asked = guessed = right = 0
    ends: Counter[str] = Counter()
    judge = HeuristicBot()
    for d in range(deals):
        g = paiju.new_game("baohuang", seed=seed + d, variant=variant)
        bots = [make_bot("heuristic", game="baohuang", seed=s) for s in range(5)]
        while not g.is_over:
            seat = g.to_act
            view = g.view(seat)
            hidden = g.phase == "play" and view["guard"] is None and not view["solo"] and g.guard is not None
            if hidden and seat != g.guard and g.guard != g.emperor:
                asked += 1
                guess = judge.guard_guess(view)
                if guess is not None:
                    guessed += 1
                    right += guess == g.guard
            g.apply(bots[seat].act(view, g.legal_actions()))
        emperor = g.scores[g.emperor]
        ends["drawn" if not any(g.scores) else "emperor" if emperor > 0 else "rebels"] += 1
    return asked, guessed, right, ends


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    asked, guessed, right, ends = measure(a.deals, a.variant, a.seed)
    print(
        f"{a.variant}: {a.deals} hands, {asked} decisions with a hidden guard; "
        f"a guess in {guessed / asked:.0%} of them, right in {right / max(1, guessed):.1%} of the guesses"
    )
    print(
        f"hands: the emperor's side ahead {ends['emperor'] / a.deals:.1%}, the rebels ahead "
        f"{ends['rebels'] / a.deals:.1%}, drawn (every score 0) {ends['drawn'] / a.deals:.1%}"
    )


if __name__ == "__main__":
    main()
