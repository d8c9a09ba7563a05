"""The ``search`` bot (paiju.bots.search): determinized search over worlds sampled from
the view, with heuristic rollouts. Budgets here are tiny; its strength is measured by
tournaments (docs/ai.md), not by tests."""

from __future__ import annotations

import random
from typing import Any

import pytest

import paiju
from paiju.bots import Bot, make_bot
from paiju.bots.search import CANDIDATE_MAKERS, SearchBot
from paiju.errors import IllegalAction


def _play(game: str, seed: int, names: list[str], **options: Any) -> tuple[paiju.Game, list[Any]]:
    g = paiju.new_game(game, seed=seed, **options)
    bots = [make_bot(names[s % len(names)], game=game, seed=s) for s in range(g.num_players)]
    while not g.is_over:
        seat = g.to_act
        legal = g.legal_actions()
        action = bots[seat].act(g.view(seat), legal)
        assert action in legal
        g.apply(action)
    return g, bots


@pytest.mark.parametrize("game", ["baohuang", "shuangkou", "shengji"])
def test_search_plays_whole_hands_legally(game: str) -> None:
    g, bots = _play(game, 3, ["search:worlds=2:candidates=3", "heuristic"])
    assert len(g.scores) == g.num_players
    searcher = bots[0]
    assert isinstance(searcher, SearchBot) and isinstance(searcher, Bot)
    assert searcher.stats["searched"] > 0
    assert searcher.stats["worlds"] >= searcher.stats["searched"]


def test_search_is_repeatable_with_a_seed() -> None:
    """Same seed, same world budget: the same choices (the time budget is not reached)."""
    runs = []
    for _ in range(2):
        g, _ = _play("shuangkou", 8, ["search:worlds=3:seconds=60", "random"])
        runs.append([a for a in g.record()["actions"]])
    assert runs[0] == runs[1]


def test_parameters() -> None:
    bot = make_bot("search:seconds=0.25:worlds=7:candidates=4:rollout=greedy", game="baohuang", seed=1)
    assert isinstance(bot, SearchBot)
    assert (bot.seconds, bot.worlds, bot.candidates) == (0.25, 7, 4)
    with pytest.raises(IllegalAction, match="no parameter 'depth'"):
        make_bot("search:depth=3", game="baohuang")
    with pytest.raises(IllegalAction, match="unknown rollout"):
        make_bot("search:rollout=perfect", game="baohuang")
    with pytest.raises(IllegalAction, match="key=value"):
        make_bot("search:7", game="baohuang")
    with pytest.raises(IllegalAction, match="candidates"):
        make_bot("search:candidates=1", game="baohuang")
    with pytest.raises(IllegalAction, match="does not know"):
        make_bot("search", game="chess")


def test_decisions_before_play_are_the_heuristics() -> None:
    g = paiju.new_game("baohuang", seed=5)
    search = make_bot("search:worlds=2", game="baohuang", seed=1)
    heuristic = make_bot("heuristic", game="baohuang", seed=1)
    while g.phase != "play":
        view, legal = g.view(g.to_act), g.legal_actions()
        a = search.act(view, legal)
        assert a == heuristic.act(view, legal)
        g.apply(a)
    assert isinstance(search, SearchBot) and search.stats["searched"] == 0


@pytest.mark.parametrize("game", ["baohuang", "shuangkou", "shengji"])
def test_candidates_are_legal_and_start_with_the_heuristics_choice(game: str) -> None:
    rng = random.Random(2)
    g = paiju.new_game(game, seed=11)
    heuristic = make_bot("heuristic", game=game)
    checked = 0
    while not g.is_over:
        view, legal = g.view(g.to_act), g.legal_actions()
        base = heuristic.act(view, legal)
        if g.phase == "play" and len(legal) > 1:
            cands = CANDIDATE_MAKERS[game](view, legal, base, 6)
            assert cands[0] == base and 1 <= len(cands) <= 6
            assert len(set(map(str, cands))) == len(cands)
            for a in cands:
                g.clone().apply(a)  # legal: applying it raises nothing
            checked += 1
        g.apply(legal[rng.randrange(len(legal))] if rng.random() < 0.3 else base)
    assert checked > 5


def test_cards_limits_search_to_the_end_of_a_hand() -> None:
    g, bots = _play("shuangkou", 4, ["search:worlds=2:cards=12", "heuristic"])
    searcher = bots[0]
    assert isinstance(searcher, SearchBot)
    assert searcher.stats["searched"] > 0
    g2, bots2 = _play("shuangkou", 4, ["search:worlds=2:cards=0", "heuristic"])
    assert isinstance(bots2[0], SearchBot) and bots2[0].stats["searched"] == 0
    # searching nothing, it plays exactly as the heuristic
    g3, _ = _play("shuangkou", 4, ["heuristic", "heuristic"])
    assert g2.record()["actions"] == g3.record()["actions"]


def test_the_gain_must_be_sure_before_the_heuristic_is_overruled() -> None:
    from paiju.bots.search import _lower_bound

    assert _lower_bound([1.0], 0.0) == 0.5  # one world and the prior one
    assert 0 < _lower_bound([1.0] * 20, 1.0) < _lower_bound([1.0] * 80, 1.0) < 1.0  # surer with more worlds
    assert _lower_bound([1.0, 1.0, 1.0], 100.0) < 0  # identical gains are not certainty
    assert _lower_bound([2.0, -1.0, 2.0, -1.0], 1.0) < 0 < _lower_bound([2.0, -1.0, 2.0, -1.0], 0.0)
    assert _lower_bound([0.0] * 10, 0.0) == 0.0  # no gain never overrules
    # an unreachable confidence never overrules: the heuristic's hand, action for action
    g, bots = _play("baohuang", 6, ["search:worlds=3:confidence=1000:cards=99", "heuristic"])
    g2, _ = _play("baohuang", 6, ["heuristic"])
    assert isinstance(bots[0], SearchBot) and bots[0].stats["searched"] > 0 and bots[0].stats["changed"] == 0
    assert g.record()["actions"] == g2.record()["actions"]


def test_shengji_candidates_are_the_heuristics_ranking() -> None:
    from paiju.bots.heuristic_shengji import ShengjiHeuristic

    g = paiju.new_game("shengji", seed=9)
    player = ShengjiHeuristic()
    seen = 0
    while not g.is_over:
        view, legal = g.view(g.to_act), g.legal_actions()
        choice = player.act(view, legal)
        if g.phase == "play":
            ranked = player.ranked(view, legal, 5)
            assert ranked[0] == choice and len(ranked) == len(set(ranked)) <= 5
            seen += len(ranked) > 1
        g.apply(choice)
    assert seen > 10
