"""paiju's games as OpenSpiel games (paiju.openspiel) and OpenSpiel's ISMCTS as a paiju bot.

OpenSpiel's own checks (``pyspiel.random_sim_test`` with serialization) for every game and
a variant of each; the Python game tests' usual properties (clone, legal actions, returns
at the end, replay from the history); action ids and tensors equal to the PettingZoo
environments' step by step; a seat's strings and tensors the same in every world its view
allows; the parameters; and the ``openspiel-ismcts`` bot playing legal hands.
"""

from __future__ import annotations

import pickle
import random
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs OpenSpiel: pip install 'paiju[openspiel]' (dev installs it)")

import paiju  # noqa: E402
import paiju.openspiel  # noqa: E402, F401 - registers the games
from paiju.bots import make_bot  # noqa: E402
from paiju.errors import IllegalAction  # noqa: E402
from paiju.openspiel.game import SEED_BYTES, PaijuState, options_from_parameters, parameters_from_options  # noqa: E402

GAMES = ("baohuang", "shengji", "shuangkou")
VARIANTS = [
    ("baohuang", {}),
    ("baohuang", {"variant": "qingdao"}),  # tribute, kicks, yield, called guard
    ("baohuang", {"variant": "weihai", "kao": True}),
    ("shengji", {}),
    ("shengji", {"decks": 3, "triples": True}),
    ("shengji", {"decks": 1, "declare_with_joker": True}),
    ("shuangkou", {}),
    ("shuangkou", {"min_triple_run": 2, "four_joker_bomb": True}),
]


def load(name: str, params: dict | None = None):
    return pyspiel.load_game(f"python_paiju_{name}", params or {})


def deal(game, rng: random.Random):
    """A new state past the seed's chance bytes."""
    s = game.new_initial_state()
    for _ in range(SEED_BYTES):
        assert s.is_chance_node()
        s.apply_action(rng.randrange(256))
    return s


def play_randomly(state, rng: random.Random, steps: int = 10**6):
    """Up to ``steps`` random decisions (fewer when the hand ends)."""
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize(("name", "params"), VARIANTS, ids=lambda x: str(x))
def test_openspiel_random_simulations_with_serialization(name: str, params: dict) -> None:
    """OpenSpiel's own game checks: legal actions sorted and empty for other seats, the
    mask, clones equal, the game and state serialized and read back every few moves,
    returns within the utility bounds and equal to the rewards summed, the game length."""
    pyspiel.random_sim_test(load(name, params), num_sims=2 if not params else 1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_state_properties_over_random_hands(name: str) -> None:
    game = load(name)
    n = game.num_players()
    for k in range(3):
        rng = random.Random(k)
        s = game.new_initial_state()
        assert s.is_chance_node() and len(s.chance_outcomes()) == 256
        assert abs(sum(p for _, p in s.chance_outcomes()) - 1) < 1e-9
        s = deal(game, rng)
        while not s.is_terminal():
            p = s.current_player()
            assert p == s.engine.to_act and 0 <= p < n
            legal = s.legal_actions()
            assert legal == sorted(legal) and legal
            assert all(s.legal_actions(q) == [] for q in range(n) if q != p)
            c = s.clone()
            assert str(c) == str(s) and c.history() == s.history()
            a = legal[rng.randrange(len(legal))]
            c.apply_action(a)
            assert str(c) != str(s)  # the clone moved on alone (a Shengji pick shows in its picks line)
            s.apply_action(a)
            assert str(c) == str(s)
        scores = s.engine.scores
        assert s.returns() == [float(x) for x in scores]
        assert sum(s.returns()) == 0
        assert game.min_utility() <= min(s.returns()) and max(s.returns()) <= game.max_utility()
        assert s.current_player() == pyspiel.PlayerId.TERMINAL
        # the history alone gives the state back
        r = game.new_initial_state()
        for a in s.history():
            r.apply_action(a)
        assert str(r) == str(s) and r.returns() == s.returns()


@pytest.mark.parametrize("name", GAMES)
def test_games_and_states_pickle_and_serialize_mid_hand(name: str) -> None:
    game = load(name)
    s = play_randomly(deal(game, random.Random(3)), random.Random(3), 60)
    assert not s.is_terminal()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    back = pickle.loads(pickle.dumps(s))
    assert str(back) == str(s) and back.history() == s.history()
    assert back.information_state_string(1) == s.information_state_string(1)
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, s))
    assert str(again) == str(s) and again.legal_actions() == s.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_action_ids_and_tensors_are_the_environments(name: str) -> None:
    """Step by step, the OpenSpiel state and the PettingZoo environment dealt the same
    hand agree on the legal action ids (the mask) and the observation tensor."""
    env_module = __import__(f"paiju.env.{name}_v0", fromlist=["env"])
    game = load(name)
    rng = random.Random(4)
    s = deal(game, rng)
    seed = int.from_bytes(bytes(s.history()), "big")
    env = env_module.env()
    env.reset(seed=seed)
    assert env.game.record()["seed"] == s.engine.record()["seed"]
    assert game.num_distinct_actions() == env.action_space("player_0").n
    assert game.observation_tensor_size() == env.observation_space("player_0")["observation"].shape[0]
    steps = 0
    while not s.is_terminal():
        p = s.current_player()
        assert env.agent_selection == f"player_{p}"
        obs = env.observe(f"player_{p}")
        assert s.legal_actions() == list(np.flatnonzero(obs["action_mask"]))
        np.testing.assert_array_equal(np.asarray(s.observation_tensor(p), np.float32), obs["observation"])
        np.testing.assert_array_equal(np.asarray(s.information_state_tensor(p), np.float32), obs["observation"])
        a = s.legal_actions()[rng.randrange(len(s.legal_actions()))]
        assert s.action_to_string(p, a) == env.action_text(a)
        s.apply_action(a)
        env.step(a)
        steps += 1
    assert [env.rewards[f"player_{i}"] for i in range(game.num_players())] == s.returns()
    assert steps > 20


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_sees_the_same_in_every_world_its_view_allows(name: str) -> None:
    """No leak: a world resampled for a seat holds other hidden cards, yet the seat's
    information state, observation and tensors are the same, and so are the legal actions."""
    game = load(name)
    rng = random.Random(7)
    checked = differed = before_play = 0
    for _ in range(40):
        s = play_randomly(deal(game, rng), rng, rng.randrange(0, 12 if rng.random() < 0.4 else 400))  # every phase
        if s.is_terminal():
            continue
        for p in range(game.num_players()):
            w = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert w.information_state_string(p) == s.information_state_string(p)
            assert w.observation_string(p) == s.observation_string(p)
            assert w.information_state_tensor(p) == s.information_state_tensor(p)
            assert w.observation_tensor(p) == s.observation_tensor(p)
            if p == s.current_player():
                assert w.legal_actions() == s.legal_actions()
            others = [q for q in range(game.num_players()) if q != p]
            differed += any(w.engine.hand(q) != s.engine.hand(q) for q in others)
            checked += 1
            before_play += s.engine.phase != "play"
    assert checked >= 20 and differed >= checked // 2
    assert before_play >= (0 if name == "shuangkou" else 5)  # the deal, the burial, the calls too


def test_information_state_holds_the_log_and_the_observation_does_not() -> None:
    game = load("shuangkou")
    s = play_randomly(deal(game, random.Random(1)), random.Random(1), 30)
    info, obs = s.information_state_string(0), s.observation_string(0)
    assert '"events"' in info and '"events"' not in obs
    assert '"hand"' in obs and '"trick"' in obs


def test_resampling_before_the_deal_or_at_the_end_is_refused() -> None:
    game = load("shuangkou")
    s = game.new_initial_state()
    with pytest.raises(ValueError, match="before the deal"):
        s.resample_from_infostate(0, None)
    s = play_randomly(deal(game, random.Random(0)), random.Random(0))
    with pytest.raises(ValueError, match="at its end"):
        s.resample_from_infostate(0, None)


def test_parameters_are_the_room_options() -> None:
    g = load("shengji", {"decks": 3, "start_level": 10, "levels": "2/5/T/J/Q/K/A", "win_at": 13})
    assert g.options["start_level"] == "T" and g.options["win_at"] == "K"
    assert g.options["levels"] == "2,5,T,J,Q,K,A"
    again = pyspiel.load_game(str(g))  # the game string reads back (ranks are ints)
    assert str(again) == str(g)
    b = load("baohuang", {"variant": "qingdao", "kick": 0, "kao": True})
    assert b.options["kick"] is False and b.options["kao"] is True and "tribute" not in b.options  # the variant's
    engine = paiju.new_game("baohuang", seed=1, variant="qingdao", kick=False, kao=True)
    state = deal(b, random.Random(0))
    assert {k: state.engine.options[k] for k in engine.options} == engine.options
    assert options_from_parameters("baohuang", parameters_from_options("baohuang", engine.options)) == {
        k: v for k, v in engine.options.items() if k not in ("leave_penalty", "tribute_due")
    }
    sk = load("shuangkou", {"first_lead": 2})
    state = deal(sk, random.Random(0))
    assert state.current_player() == 2
    assert load("shuangkou").options["first_lead"] is None


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("shengji", {"start_level": 15}, "rank as a number"),
        ("baohuang", {"kick": 2}, "the variant's"),
        ("baohuang", {"variant": "nowhere"}, "variant"),
        ("shuangkou", {"min_triple_run": 5}, "min_triple_run"),
    ],
)
def test_bad_parameters_are_refused_with_the_reason(name: str, params: dict, message: str) -> None:
    with pytest.raises((ValueError, IllegalAction, pyspiel.SpielError), match=message):
        load(name, params)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_the_openspiel_ismcts_bot_plays_legal_hands_and_searches(name: str, rollout: str) -> None:
    bot = make_bot(f"openspiel-ismcts:seconds=0.02:rollout={rollout}:cards=99", game=name, seed=3)
    others = make_bot("heuristic", game=name, seed=3)
    searched = 0
    for seed in range(4):
        g = paiju.new_game(name, seed=seed)
        while not g.is_over:
            seat = g.to_act
            player = bot if seat in (0, 2) else others
            g.apply(player.act(g.view(seat), g.legal_actions()))  # an illegal choice raises here
        searched = bot.stats["searched"]
        if searched >= 5:
            break
    assert searched >= 5 and bot.stats["simulations"] >= 2 * bot.stats["searches"]
    assert bot.stats["fallback"] == 0


def test_the_bot_tells_how_to_install_openspiel_when_it_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "paiju.openspiel.ismcts", None)  # as if pyspiel would not import
    with pytest.raises(IllegalAction, match=r"paiju\[openspiel\]"):
        make_bot("openspiel-ismcts", game="baohuang")


def test_bad_bot_parameters_are_refused() -> None:
    with pytest.raises(IllegalAction, match="rollout"):
        make_bot("openspiel-ismcts:rollout=smart", game="shengji")
    with pytest.raises(IllegalAction, match="seconds"):
        make_bot("openspiel-ismcts:seconds=0", game="shengji")


def test_a_world_state_wraps_any_engine_game() -> None:
    game = load("shuangkou")
    engine = paiju.new_game("shuangkou", seed=9)
    s = PaijuState.wrap(game, engine)
    assert s.current_player() == engine.to_act and s.history() == []
    assert s.legal_actions()


def test_the_example_runs_openspiels_own_ismcts_through_a_hand() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent.parent / "examples" / "openspiel_ismcts.py"
    spec = importlib.util.spec_from_file_location("openspiel_ismcts_example", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    (result,) = example.play(hands=1, simulations=3, seed=2)
    assert result in (-3.0, -2.0, -1.0, 1.0, 2.0, 3.0)


def test_a_world_the_sampler_cannot_deal_mid_search_falls_back_to_the_heuristic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sampler gives up after some tries on a rare view (as the search bot knows): a
    simulation that cannot get its world ends the search, and the heuristic's choice is played."""
    from paiju.shengji.worlds import CannotSample

    bot = make_bot("openspiel-ismcts:seconds=0.05:cards=99", game="shengji", seed=1)
    heuristic = make_bot("heuristic", game="shengji", seed=1)
    g = paiju.new_game("shengji", seed=2)
    while g.phase != "play" or len(g.legal_actions()) < 2:
        g.apply(heuristic.act(g.view(g.to_act), g.legal_actions()))

    from paiju.bots.search import sampled_worlds
    from paiju.openspiel import ismcts

    def one_world_only(game, view, rng):
        yield next(sampled_worlds(game, view, rng))  # the search's root
        raise CannotSample("no deal honoured the follows and throws of the hand in 40 tries")

    monkeypatch.setattr(ismcts, "sampled_worlds", one_world_only)
    view, legal = g.view(g.to_act), g.legal_actions()
    assert bot.act(view, legal) == heuristic.act(view, legal)
    assert bot.stats["fallback"] == 1 and bot.stats["searched"] == 0


@pytest.mark.parametrize("name", GAMES)
def test_openspiels_own_ismcts_plays_whole_hands(name: str) -> None:
    """OpenSpiel's unmodified ``ISMCTSBot`` with ``RandomRolloutEvaluator`` plays seat 0 of a
    whole hand, from the seed's chance nodes to the end — Shengji's deal and burial,
    Baohuang's calls included: it resamples the hidden cards at every decision through
    ``resample_from_infostate`` (a tiny budget: the search runs, its strength is docs/ai.md's)."""
    from open_spiel.python.algorithms import ismcts
    from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

    game = load(name)
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=2, random_state=rng)
    others = [pyspiel.make_uniform_random_bot(p, 1) for p in range(game.num_players())]
    s = game.new_initial_state()
    phases = set()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.randint(256)))
        elif s.current_player() == 0:
            phases.add(s.engine.phase)
            s.apply_action(int(bot.step(s)))
        else:
            s.apply_action(int(others[s.current_player()].step(s)))
    assert sum(s.returns()) == 0
    assert phases == ({"play"} if name == "shuangkou" else {"play", "setup" if name == "baohuang" else "deal"})


@pytest.mark.parametrize("name", ["baohuang", "shengji"])
def test_the_bot_searches_the_decisions_before_the_play_when_asked(name: str) -> None:
    """``before=1``: the bot searches Shengji's declarations and burial, Baohuang's calls,
    over worlds of those phases, and plays them legally; by default it leaves them to the
    heuristic (as ``search`` does)."""
    bot = make_bot("openspiel-ismcts:seconds=0.01:before=1", game=name, seed=1)
    default = make_bot("openspiel-ismcts:seconds=0.01", game=name, seed=1)
    searched = 0
    for seed in range(3):
        g = paiju.new_game(name, seed=seed)
        while g.phase not in ("play", "over"):
            view, legal = g.view(g.to_act), g.legal_actions()
            before = bot.stats["searched"]
            action = bot.act(view, legal)
            assert action in legal
            searched += bot.stats["searched"] - before
            default.act(view, legal)
            g.apply(action)
    assert searched >= 3 and default.stats["searched"] == 0
