"""提示 hints of the three games: every suggestion is legal, the list is ordered smallest
first with no repeats, ``[PASS]`` comes only when nothing beats, ``hint`` is its first
entry, and Shengji's bury hint is what 托管 would bury step by step."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import paiju
from baohuang_helpers import play
from paiju import IllegalAction
from paiju.baohuang import policy as bh_policy
from paiju.game import PASS
from paiju.shengji import bury_hint
from paiju.shengji import policy as sj_policy
from paiju.shengji.sequences import Combos
from paiju.shengji.trump import card_id
from paiju.shuangkou import policy as sk_policy

PRESETS: dict[str, list[dict[str, Any]]] = {
    "baohuang": [
        {},
        {"variant": "classic"},
        {"variant": "qingdao"},
        {"variant": "weihai", "kao": True, "hold_sixes": True},
    ],
    "shengji": [{}, {"decks": 1, "two_colours": True}, {"decks": 3, "triples": True}, {"kitty_steal": True}],
    "shuangkou": [{}, {"min_triple_run": 2, "four_joker_bomb": True}],
}
CASES = [(name, o, seed) for name, presets in PRESETS.items() for o in presets for seed in (1, 2)]


def _module(name: str) -> Any:
    return {"baohuang": bh_policy, "shengji": sj_policy, "shuangkou": sk_policy}[name]


def _beating_plays(g: paiju.Game) -> list[Any]:
    return [a for a in g.legal_actions() if a != PASS and str(a) != "yield"]


def _check_hints(name: str, g: paiju.Game) -> None:
    pol = _module(name)
    hs = pol.hints(g)
    assert hs and len(hs) <= pol.MAX_HINTS
    assert len(set(hs)) == len(hs), hs
    assert pol.hint(g) == hs[0]
    legal = g.legal_actions()
    assert all(h in legal for h in hs), hs
    if PASS in hs:
        assert hs == [PASS] and not g.is_leading() and not _beating_plays(g)
        return
    if not g.is_leading():
        if name == "baohuang":
            keys = [bh_policy._play_key(p) for p in hs]
            assert keys == sorted(keys)
        elif name == "shuangkou":
            keys = [sk_policy._hint_key(p) for p in hs]
            assert keys == sorted(keys)
        elif not isinstance(legal, Combos):
            t = g.order  # type: ignore[attr-defined]
            keys = [sorted((sj_policy._cost(c, t) for c in p.cards), reverse=True) for p in hs]
            assert keys == sorted(keys)


@pytest.mark.parametrize(("name", "options", "seed"), CASES)
def test_hints_in_random_games(name: str, options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    g = paiju.new_game(name, seed=seed, **options)
    checked = 0
    while not g.is_over:
        if g.phase == "play":
            _check_hints(name, g)
            checked += 1
        elif name == "shengji" and g.phase == "bury":
            _check_bury_hint(g)
        legal = g.legal_actions()
        if name == "baohuang" and g.phase == "play" and rng.random() < 0.5:
            g.apply(rng.choice(bh_policy.hints(g)))  # also follow the hints: longer tricks
        else:
            g.apply(legal[rng.randrange(len(legal))])
    assert checked
    with pytest.raises(IllegalAction) as e:
        _module(name).hints(g)
    assert e.value.code == "no_hint"


def _check_bury_hint(g: paiju.Game) -> None:
    seat = g.to_act
    assert seat is not None
    cards = bury_hint(g)
    assert len(cards) == g.kitty_size - len(g.buried)  # type: ignore[attr-defined]
    assert not Counter(str(c) for c in cards) - Counter(str(c) for c in g.hand(seat))
    step = g.clone()
    for c in cards:  # exactly what 托管 buries, one decision after another
        a = sj_policy.hosted_action(step)
        assert card_id(paiju.Card.parse(a.arg)) == card_id(c)
        step.apply(a)
    assert step.phase != "bury" or step.to_act != seat


def test_bury_hint_is_the_whole_kitty_at_first() -> None:
    g = paiju.new_game("shengji", seed=3)
    while g.phase != "bury":
        g.apply("no")
    cards = bury_hint(g)
    assert len(cards) == g.kitty_size  # type: ignore[attr-defined]
    before = g.record()
    g.apply(f"bury {cards[0]}")
    assert bury_hint(g) == cards[1:]
    assert paiju.replay(before).phase == "bury"  # the hint never acts
    with pytest.raises(IllegalAction):
        bury_hint(paiju.new_game("shengji", seed=3))


def test_baohuang_hints_examples() -> None:
    g = play(["BJ 5 5 3", "SJ 9 7 7 Q Q", "3 4", "6 6", "2 2"])
    assert [str(h) for h in bh_policy.hints(g)] == ["3", "55", "BJ"]  # lowest single, pair, then jokers
    g.apply("55")
    assert [str(h) for h in bh_policy.hints(g)] == ["77", "QQ", "SJ* 7", "SJ* 9", "SJ* Q"]  # jokers last
    g.apply("77")
    assert bh_policy.hints(g) == [PASS]  # seat 2 has nothing that beats 77


def test_shuangkou_hints_examples() -> None:
    g = paiju.new_game("shuangkou", seed=7, first_lead=0, deal=["3 3 4 5 6 7 8 8 8 8", "9 Q 2222 BJ 3", "4", "5"])
    assert [str(h) for h in sk_policy.hints(g)] == ["3", "33", "888", "34567", "8888"]
    g.apply("3")
    assert [str(h) for h in sk_policy.hints(g)] == ["9", "Q", "2", "BJ", "2222"]  # bombs last
