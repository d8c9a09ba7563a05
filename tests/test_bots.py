"""Bots (paiju.bots): the registry, and that ``hosted`` and ``greedy`` — which decide from
a seat's view and legal actions only — agree with the engine's own policy functions."""

from __future__ import annotations

import random

import pytest

import paiju
from paiju import IllegalAction
from paiju.baohuang import Play, hint, hosted_action
from paiju.bots import Bot, LazyView, bot_names, make_bot, suggest
from paiju.bots.simple import JOKER_KEEP


def test_registry() -> None:
    assert {"random", "hosted", "greedy"} <= set(bot_names())
    for name in ("random", "hosted", "greedy"):
        bot = make_bot(name, game="baohuang", seed=1)
        assert isinstance(bot, Bot) and bot.name == name
    with pytest.raises(IllegalAction, match="unknown bot"):
        make_bot("nobody", game="baohuang")
    with pytest.raises(IllegalAction, match="does not know chess"):
        make_bot("hosted", game="chess")
    assert make_bot("random", game="shengji", seed=0).act({}, ["a", "b"]) in ("a", "b")


def test_hosted_and_greedy_play_whole_shengji_hands_from_views_only() -> None:
    for name in ("hosted", "greedy"):
        game = paiju.new_game("shengji", seed=5)
        bots = [make_bot(name, game="shengji", seed=s) for s in range(4)]
        while not game.is_over:
            seat = game.to_act
            action = bots[seat].act(game.view(seat), game.legal_actions())
            assert action in game.legal_actions()
            game.apply(action)
        assert sum(game.scores) == 0


def _random_states(variant: str, seed: int, hands: int = 3):
    """Every decision of a few random hands: (game, legal)."""
    rng = random.Random(seed)
    for h in range(hands):
        g = paiju.new_game("baohuang", seed=seed * 100 + h, variant=variant, kao=h % 2 == 1)
        while not g.is_over:
            legal = g.legal_actions()
            yield g, legal
            g.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("variant", ["standard", "classic", "weihai", "qingdao"])
def test_hosted_bot_is_the_hosted_policy(variant: str) -> None:
    bot = make_bot("hosted", game="baohuang")
    for g, legal in _random_states(variant, 1):
        assert bot.act(LazyView(g, g.to_act), legal) == hosted_action(g)


@pytest.mark.parametrize("variant", ["standard", "classic", "qingdao"])
def test_greedy_bot_plays_the_hint_but_keeps_jokers(variant: str) -> None:
    bot = make_bot("greedy", game="baohuang")
    saved = 0
    for g, legal in _random_states(variant, 2):
        view = g.view(g.to_act)
        got = bot.act(view, legal)
        assert got in legal
        if g.phase != "play":
            assert got == hosted_action(g)
            continue
        h = hint(g)
        keeps = not g.is_leading() and isinstance(h, Play) and (h.small or h.big) and len(g.hand(g.to_act)) > JOKER_KEEP
        assert got == (paiju.baohuang.PASS if keeps else h)
        saved += bool(keeps)
    assert saved > 0


def test_suggest_is_hint_in_play_and_default_before() -> None:
    for g, legal in _random_states("classic", 3, hands=2):
        expected = hint(g) if g.phase == "play" else hosted_action(g)
        assert suggest(g.view(g.to_act), legal) == expected


def test_lazy_view_is_the_view() -> None:
    g = paiju.new_game("baohuang", seed=4)
    v = LazyView(g, g.to_act)
    assert "computed" not in repr(v)
    assert dict(v) == g.view(g.to_act)
    assert "computed" in repr(v)


def test_bots_finish_games() -> None:
    for names in (["greedy"] * 5, ["hosted"] * 5, ["random", "greedy", "hosted", "random", "greedy"]):
        g = paiju.new_game("baohuang", seed=8, variant="qingdao")
        bots = [make_bot(n, game="baohuang", seed=i) for i, n in enumerate(names)]
        while not g.is_over:
            s = g.to_act
            assert s is not None
            g.apply(bots[s].act(LazyView(g, s), g.legal_actions()))
        assert sum(g.scores) == 0


def test_hosted_and_greedy_play_whole_shuangkou_hands_from_views_only() -> None:
    # Shuangkou's view has no "leading" key: the stand-in tells a lead by the empty table
    from paiju.shuangkou import PASS
    from paiju.shuangkou import hosted_action as sk_hosted

    for name in ("hosted", "greedy"):
        game = paiju.new_game("shuangkou", seed=6)
        bots = [make_bot(name, game="shuangkou", seed=s) for s in range(4)]
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            action = bots[seat].act(game.view(seat), game.legal_actions())
            if game.is_leading():
                assert action != PASS
            if name == "hosted":
                assert action == sk_hosted(game)
            game.apply(action)
        assert sum(game.scores) == 0
