"""A random masked policy on paiju's research environments, for a few hands (no training).

Run ``.venv/bin/python examples/random_env.py [baohuang|shuangkou|shengji] [--hands N]``
(needs ``pip install 'paiju[env]'``). It shows the usual PettingZoo loop: read the
observation of the agent to act, choose among the actions its ``action_mask`` allows,
step; at the end of a hand every agent's reward is its score.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from paiju.env import baohuang_v0, shengji_v0, shuangkou_v0

MODULES = {"baohuang": baohuang_v0, "shuangkou": shuangkou_v0, "shengji": shengji_v0}


def play(game: str = "shuangkou", hands: int = 3, seed: int = 0) -> list[dict[str, float]]:
    """Play ``hands`` hands with a random masked policy; the rewards of each hand."""
    env = MODULES[game].env()
    rng = random.Random(seed)
    results = []
    for hand in range(hands):
        env.reset(seed=seed + hand)  # the same seed deals the same hand
        totals = dict.fromkeys(env.possible_agents, 0.0)
        steps = 0
        for agent in env.agent_iter():
            obs, reward, termination, truncation, _info = env.last()
            totals[agent] += reward
            if termination or truncation:
                action = None  # a finished agent steps with None
            else:
                legal = np.flatnonzero(obs["action_mask"])  # exactly the legal actions
                action = int(rng.choice(legal.tolist()))
                steps += 1
            env.step(action)
        print(f"{game} hand {hand + 1}: {steps} steps, rewards {totals}")
        results.append(totals)
    env.close()
    return results


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="random masked play on a paiju environment")
    ap.add_argument("game", nargs="?", default="shuangkou", choices=sorted(MODULES))
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    play(args.game, args.hands, args.seed)
