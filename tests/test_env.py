"""The PettingZoo research environments (``paiju.env``): API conformance, exact masks,
seeds, no leak of hidden cards through observations, whole hands."""

from __future__ import annotations

import copy
import random
import re
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from project_scripts import load_script

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import paiju  # noqa: E402
from paiju.env import baohuang_v0, shengji_v0, shuangkou_v0  # noqa: E402
from paiju.env._base import PaijuEnv  # noqa: E402
from paiju.shengji.trump import ID_TEXT  # noqa: E402

CONFIGS: list[tuple[Any, dict[str, Any]]] = [
    (baohuang_v0, {}),
    (baohuang_v0, {"variant": "classic"}),
    (baohuang_v0, {"variant": "weihai"}),
    (baohuang_v0, {"variant": "qingdao", "hold_sixes": True, "kao": True}),
    (baohuang_v0, {"variant": "qingdao", "tribute_due": {"givers": [[2, 1], [3, 2]], "receivers": [[1, 2], [4, 1]]}}),
    (shuangkou_v0, {}),
    (shuangkou_v0, {"min_triple_run": 2, "four_joker_bomb": True}),
    (shengji_v0, {}),
    (shengji_v0, {"decks": 1, "two_colours": True, "declare_with_joker": True, "kitty_steal": True}),
    (shengji_v0, {"decks": 3, "triples": True}),
]


def _config_id(module: Any, options: dict[str, Any]) -> str:
    shown = "-".join(f"{k}={'yes' if k == 'tribute_due' else v}" for k, v in options.items())
    return f"{module.__name__.rsplit('.', 1)[1]}-{shown or 'default'}"


IDS = [_config_id(m, o) for m, o in CONFIGS]
FIXED_TABLE = [c for c in CONFIGS if c[0] is not shengji_v0]
FIXED_IDS = [i for i, c in zip(IDS, CONFIGS) if c[0] is not shengji_v0]


def deal_of(game: paiju.Game) -> list[str]:
    """The hands dealt (Shengji: its record's deal, the kitty last), before any action."""
    deal = game.record()["deal"]
    if deal is not None:
        return deal
    if game.name == "shengji":  # dealt one card per decision: the full deal is the engine's secret
        order = game._order_of_deal  # type: ignore[attr-defined]  # (a test may look)
        hands: list[list[str]] = [[] for _ in range(game.num_players)]
        for seat, c in order:
            hands[seat].append(ID_TEXT[c])
        return [" ".join(h) for h in hands]
    return [paiju.format_cards(game.hand(s)) for s in range(game.num_players)]


def random_step(env: PaijuEnv, rng: random.Random) -> None:
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        env.step(None)
        return
    mask = env.observe(agent)["action_mask"]
    env.step(rng.choice(np.flatnonzero(mask).tolist()))


@pytest.mark.parametrize(("module", "options"), CONFIGS, ids=IDS)
def test_api(module: Any, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pettingzoo's advisory warnings about dict observations
        api_test(module.env(**options), num_cycles=200)


@pytest.mark.parametrize(("module", "options"), FIXED_TABLE, ids=FIXED_IDS)
def test_masks_are_exact(module: Any, options: dict[str, Any]) -> None:
    """Every masked-in index is a legal game action (the game accepts it) and every legal
    game action is masked in, exactly once."""
    env = module.env(**options)
    rng = random.Random(3)
    for hand in range(2):
        env.reset(seed=100 + hand)
        checked = 0
        while env.agents and not env.game.is_over:
            g = env.game
            seat = g.to_act
            agent = f"player_{seat}"
            legal = list(g.legal_actions())
            keys = [env.action_key(a) for a in legal]
            assert len(set(keys)) == len(legal), "two legal actions share one table entry"
            masked = set(np.flatnonzero(env.observe(agent)["action_mask"]).tolist())
            assert masked == {env.action_index[k] for k in keys}
            for other in env.possible_agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            sample = masked if len(masked) <= 40 else rng.sample(sorted(masked), 40)
            for i in sample:
                action = env.decode(i)
                probe = g.clone()
                probe.apply(action)  # raises IllegalAction if the mask were wrong
                assert env.action_key(action) == env.action_table[i]
                assert env.action_key(g.parse_action(str(action))) == env.action_table[i]
            checked += 1
            if checked > 60:  # a sample of positions per hand keeps the test quick
                random_step(env, rng)
                continue
            random_step(env, rng)


@pytest.mark.parametrize(("module", "options"), CONFIGS, ids=IDS)
def test_whole_hand_and_rewards(module: Any, options: dict[str, Any]) -> None:
    env = module.env(**options)
    rng = random.Random(5)
    for hand in range(3):
        env.reset(seed=hand)
        total = {a: 0.0 for a in env.possible_agents}
        steps = 0
        while env.agents:
            agent = env.agent_selection
            total[agent] += env._cumulative_rewards[agent]
            random_step(env, rng)
            steps += 1
            assert steps < 5000
        assert env.game.is_over
        scores = env.game.scores
        assert [total[a] for a in env.possible_agents] == [float(s) for s in scores]
        assert sum(scores) == 0


@pytest.mark.parametrize(("module", "options"), CONFIGS[::3] + CONFIGS[4:5], ids=IDS[::3] + IDS[4:5])
def test_seeds_reproduce(module: Any, options: dict[str, Any]) -> None:
    def run(seed: int | None, env: PaijuEnv | None = None) -> tuple[list[Any], list[bytes]]:
        env = env or module.env(**options)
        env.reset(seed=seed)
        deal = deal_of(env.game)
        rng = random.Random(1)
        obs = []
        for _ in range(40):
            if not env.agents:
                break
            obs.append(env.observe(env.agent_selection)["observation"].tobytes())
            random_step(env, rng)
        return deal, obs

    assert run(7) == run(7)
    assert run(7)[0] != run(8)[0]
    # a seeded sequence of hands repeats: reset(seed) then reset() twice
    a, b = module.env(**options), module.env(**options)
    deals = []
    for env in (a, b):
        env.reset(seed=11)
        env.reset()
        first = deal_of(env.game)
        env.reset()
        deals.append((first, deal_of(env.game)))
    assert deals[0] == deals[1] and deals[0][0] != deals[0][1]


def _swap(deal: list[str], s1: int, s2: int) -> list[str] | None:
    """The deal with one plain card of seat s1 and one of another rank of seat s2 swapped."""
    h1, h2 = paiju.parse_cards(deal[s1]), paiju.parse_cards(deal[s2])
    for i, c in enumerate(h1):
        for j, d in enumerate(h2):
            if not c.is_joker and not d.is_joker and c.rank != d.rank and c.rank != 2 and d.rank != 2:
                h1[i], h2[j] = d, c
                out = list(deal)
                out[s1], out[s2] = paiju.format_cards(h1), paiju.format_cards(h2)
                return out
    return None


@pytest.mark.parametrize(("module", "options"), CONFIGS, ids=IDS)
def test_no_leak_of_hidden_cards(module: Any, options: dict[str, Any]) -> None:
    """Seat 0's observation is the same when two other seats swap hidden cards: at the
    start and along a line of play where the same actions stay legal in both games."""
    for seed in range(3):
        env_a, env_b = module.env(**options), module.env(**options)
        env_a.reset(seed=seed)
        deal = deal_of(env_a.game)
        swapped = _swap(deal, 1, 2)
        assert swapped is not None
        env_b.reset(seed=seed)
        env_b.game = paiju.new_game(env_a.game_name, seed=seed, deal=swapped, **env_a.game_options)
        env_b._legal_at = -1
        env_b._select()
        ga = paiju.new_game(env_a.game_name, seed=seed, deal=deal, **env_a.game_options)
        env_a.game = ga  # the same construction path for both
        env_a._legal_at = -1
        env_a._select()
        assert swapped != deal
        rng = random.Random(seed)
        compared = 0
        for _ in range(300):
            oa, ob = env_a.observe("player_0"), env_b.observe("player_0")
            assert np.array_equal(oa["observation"], ob["observation"])
            assert np.array_equal(oa["action_mask"], ob["action_mask"])
            compared += 1
            if env_a.game.is_over or env_b.game.is_over or env_a.game.to_act != env_b.game.to_act:
                break
            common = sorted(set(env_a.legal_map()) & set(env_b.legal_map()))
            if not common:
                break
            i = rng.choice(common)
            env_a.step(i)
            env_b.step(i)
        assert compared >= 1


def test_import_paiju_does_not_import_env_dependencies() -> None:
    code = (
        "import sys, paiju; paiju.new_game('shuangkou', seed=1); "
        "bad = [m for m in ('numpy', 'pettingzoo', 'gymnasium', 'paiju.env') if m in sys.modules]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


SHENGJI = [c for c in CONFIGS if c[0] is shengji_v0]
SHENGJI_IDS = [i for i, c in zip(IDS, CONFIGS) if c[0] is shengji_v0]


def _expected_pick_mask(plays: list[Counter[int]], pending: Counter[int]) -> set[int]:
    """By brute force over the listed legal plays: the cards that keep ``pending``
    completable, and ``done`` when ``pending`` is a legal play."""
    out = set()
    for q in plays:
        if not pending - q:
            out.update(c for c in q if q[c] > pending[c])
            if q == pending:
                out.add(shengji_v0.DONE)
    return out


@pytest.mark.parametrize(("module", "options"), SHENGJI, ids=SHENGJI_IDS)
def test_shengji_masks_are_exact(module: Any, options: dict[str, Any]) -> None:
    """Outside play the mask is exactly the legal actions; in play, card by card, the mask
    is exactly what a brute force over the legal plays allows, every legal play can be
    picked, and every masked walk ends in a play the game accepts."""
    env = module.env(**options)
    rng = random.Random(4)
    for hand in range(2):
        env.reset(seed=200 + hand)
        while env.agents and not env.game.is_over:
            g = env.game
            agent = f"player_{g.to_act}"
            masked = set(np.flatnonzero(env.observe(agent)["action_mask"]).tolist())
            if g.phase != "play":
                legal = list(g.legal_actions())
                keys = [env.action_key(a) for a in legal]
                assert len(set(keys)) == len(legal)
                assert masked == {env.action_index[k] for k in keys}
                random_step(env, rng)
                continue
            legal_seq = g.legal_actions()
            listed = [Counter(p.cards) for p in legal_seq] if len(legal_seq) <= 3000 else None
            for p in rng.sample(list(range(len(legal_seq))), min(3, len(legal_seq))):
                probe = copy.deepcopy(env)
                for c in legal_seq[p].cards:
                    assert probe.observe(agent)["action_mask"][c] == 1
                    probe.step(c)
                assert probe.observe(agent)["action_mask"][shengji_v0.DONE] == 1
                probe.step(shengji_v0.DONE)  # the game accepts the play
            before = len(g.history)
            while len(g.history) == before:  # a random masked walk to a play
                masked = set(np.flatnonzero(env.observe(agent)["action_mask"]).tolist())
                assert masked, "a dead end: nothing can complete the pending selection"
                if listed is not None:
                    assert masked == _expected_pick_mask(listed, env._pending)
                env.step(rng.choice(sorted(masked)))


ROOT = Path(__file__).resolve().parents[1]


def test_docs_tables_match_the_encoders() -> None:
    """docs/env.md's observation tables are contiguous and as long as each encoder's."""
    text = (ROOT / "docs" / "env.md").read_text()
    sizes = {}
    for section in text.split("\n## ")[1:]:
        rows = re.findall(r"^\| (\d+) \| (\d+) \|", section, flags=re.M)
        if not rows:
            continue
        at = 0
        for offset, size in rows:
            assert int(offset) == at, (section.splitlines()[0], offset)
            at += int(size)
        sizes[section.split("`paiju.env.")[1].split("`")[0]] = at
    assert sizes == {
        "baohuang_v0": baohuang_v0.OBS_SIZE,
        "shuangkou_v0": shuangkou_v0.OBS_SIZE,
        "shengji_v0": shengji_v0.OBS_SIZE,
    }
    for module in (baohuang_v0, shuangkou_v0, shengji_v0):
        env = module.env()
        env.reset(seed=0)
        assert env.observe("player_0")["observation"].shape == (module.OBS_SIZE,)


def _load(path: Path) -> ModuleType:
    return load_script(path)


def test_example_and_benchmark_run() -> None:
    example = _load(ROOT / "examples" / "random_env.py")
    for game in ("baohuang", "shuangkou", "shengji"):
        results = example.play(game, hands=1)
        assert len(results) == 1 and sum(results[0].values()) == 0
    bench = _load(ROOT / "benchmarks" / "env.py")
    r = bench.random_steps(shuangkou_v0, {}, seconds=0.05)
    assert r["steps_per_s"] > 0 and r["steps_per_hand"] > 0
