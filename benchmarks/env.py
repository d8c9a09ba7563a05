"""Benchmark of the research environments (``paiju.env``): environment steps per second
under a random masked policy, the usual PettingZoo loop::

    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        action = None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]))
        env.step(action)

A *step* is one ``env.step`` of a live agent (the finished agents' ``None`` steps at the
end of a hand are not counted); every step builds one observation (``env.last``) and its
mask. Shengji's steps include its card-by-card picks. Each figure is the median of
``--runs`` runs (default 5) of about ``--seconds`` CPU seconds each, on one core.

With ``--openspiel`` it also runs the same games as OpenSpiel states (``paiju.openspiel``):
per step ``state.observation_tensor(player)`` (the same encoding), ``state.legal_actions()``
and ``state.apply_action``, the chance bytes of the deal not counted as steps.

Run ``.venv/bin/python benchmarks/env.py`` (``--quick`` for short runs, ``--json FILE``
to keep the numbers). A measurement script: it asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import statistics
import sys
import time
from typing import Any

import numpy as np

from paiju.env import baohuang_v0, shengji_v0, shuangkou_v0

ENVS: dict[str, tuple[Any, dict[str, Any]]] = {
    "baohuang (standard)": (baohuang_v0, {}),
    "baohuang (qingdao)": (baohuang_v0, {"variant": "qingdao"}),
    "shuangkou": (shuangkou_v0, {}),
    "shengji": (shengji_v0, {}),
}


def figures(steps: int, hands: int, elapsed: float, actions: int, obs_size: int) -> dict[str, float]:
    """A run's figures: steps and hands per CPU second, steps per hand, the sizes."""
    return {
        "steps_per_s": steps / elapsed,
        "hands_per_s": hands / elapsed,
        "steps_per_hand": steps / hands,
        "actions": float(actions),
        "obs_size": float(obs_size),
    }


def random_steps(module: Any, options: dict[str, Any], seconds: float = 2.0, seed: int = 1) -> dict[str, float]:
    """Random masked play, whole hands, for about ``seconds`` of CPU time."""
    env = module.env(**options)
    rng = random.Random(seed)
    steps = hands = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        env.reset(seed=rng.randrange(2**62))
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
        hands += 1
        elapsed = time.process_time() - start
    return figures(steps, hands, elapsed, env.action_space(env.possible_agents[0]).n, env.obs_size)


def openspiel_steps(module: Any, options: dict[str, Any], seconds: float = 2.0, seed: int = 1) -> dict[str, float]:
    """:func:`random_steps` through the OpenSpiel game of the same options."""
    import pyspiel

    from paiju.openspiel.game import parameters_from_options

    name = module.__name__.rsplit(".", 1)[-1].removesuffix("_v0")
    probe = module.env(**options)
    game = pyspiel.load_game(f"python_paiju_{name}", parameters_from_options(name, probe.game.options))
    rng = random.Random(seed)
    steps = hands = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(256))
                continue
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        hands += 1
        elapsed = time.process_time() - start
    return figures(steps, hands, elapsed, game.num_distinct_actions(), game.observation_tensor_size())


def median_runs(module: Any, options: dict[str, Any], seconds: float, runs: int, how: Any = random_steps) -> dict:
    results = [how(module, options, seconds, seed=i + 1) for i in range(runs)]
    return {k: statistics.median(r[k] for r in results) for k in results[0]}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per run")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="short runs (0.3 s × 3)")
    ap.add_argument("--json", metavar="FILE", help="write the figures to FILE")
    ap.add_argument("--openspiel", action="store_true", help="also the OpenSpiel games (needs paiju[openspiel])")
    args = ap.parse_args(argv)
    seconds, runs = (0.3, 3) if args.quick else (args.seconds, args.runs)
    if hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):  # one core, as the engine benchmarks
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    out: dict[str, Any] = {"python": sys.version.split()[0], "machine": platform.machine(), "envs": {}}
    print(f"random masked policy, median of {runs} runs × {seconds:g} CPU s (Python {out['python']})")
    print(f"{'environment':<32}{'steps/s':>10}{'hands/s':>10}{'steps/hand':>12}{'actions':>9}{'obs':>6}")
    kinds = [("", random_steps)] + ([("openspiel ", openspiel_steps)] if args.openspiel else [])
    if args.openspiel:
        import paiju.openspiel  # noqa: F401 - registers the games
    for prefix, how in kinds:
        for name, (module, options) in ENVS.items():
            r = median_runs(module, options, seconds, runs, how)
            out["envs"][prefix + name] = r
            print(
                f"{prefix + name:<32}{r['steps_per_s']:>10,.0f}{r['hands_per_s']:>10.1f}{r['steps_per_hand']:>12.0f}"
                f"{r['actions']:>9,.0f}{r['obs_size']:>6.0f}"
            )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)
    return out


if __name__ == "__main__":
    main()
