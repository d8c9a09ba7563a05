"""OpenSpiel's ISMCTS, unchanged, playing 双扣 Shuangkou through paiju's OpenSpiel game.

Run ``.venv/bin/python examples/openspiel_ismcts.py [--hands N] [--simulations K]``
(needs ``pip install 'paiju[openspiel]'``). Seats 0 and 2 (one team) are OpenSpiel's
``ISMCTSBot`` with ``K`` simulations per decision and random rollouts; seats 1 and 3 are
OpenSpiel's uniform random bot. Each hand is played from the game's chance nodes (the
seed's bytes) to the end, the usual OpenSpiel loop (``evaluate_bots`` would do it, but
OpenSpiel's Python ISMCTS bot has no ``restart_at``). ISMCTS resamples the hidden cards
through the state's ``resample_from_infostate`` — in 双扣 every decision is card play, so
the search runs at every one. The script prints each hand's return and the team's mean
with a 95 % interval.
"""

from __future__ import annotations

import argparse
import math
import statistics

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts
from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

import paiju.openspiel  # noqa: F401 - registers python_paiju_baohuang, _shengji, _shuangkou


def play(hands: int = 4, simulations: int = 50, seed: int = 0) -> list[float]:
    """The ISMCTS team's return in each of ``hands`` hands (points per seat)."""
    game = pyspiel.load_game("python_paiju_shuangkou")
    rng = np.random.RandomState(seed)
    returns = []
    for hand in range(hands):
        searcher = ismcts.ISMCTSBot(
            game, RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=simulations, random_state=rng
        )
        bots = [
            searcher,
            pyspiel.make_uniform_random_bot(1, seed + hand),
            searcher,
            pyspiel.make_uniform_random_bot(3, seed + hand),
        ]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(int(bots[state.current_player()].step(state)))
        returns.append(state.returns()[0])
        print(f"hand {hand + 1}: ISMCTS team {returns[-1]:+.0f}")
    return returns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=4)
    ap.add_argument("--simulations", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    returns = play(a.hands, a.simulations, a.seed)
    mean = statistics.fmean(returns)
    half = 1.96 * statistics.stdev(returns) / math.sqrt(len(returns)) if len(returns) > 1 else math.inf
    print(f"ISMCTS ({a.simulations} simulations) against random: {mean:+.2f} per hand ± {half:.2f} (95 %)")


if __name__ == "__main__":
    main()
