"""Worlds for determinized search (paiju.baohuang.worlds, paiju.shuangkou.worlds): a world
sampled from a seat's view is a whole game in the state the view describes — same seat to
act, same hand, same public facts, same legal actions — whose hidden cards are a random
guess consistent with what is public."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import paiju
from paiju.baohuang import worlds as bh_worlds
from paiju.baohuang.game import EMPEROR_CARD, GUARD_CARD, deck_cards
from paiju.bots import make_bot
from paiju.cards import Card, packs
from paiju.shuangkou import worlds as sk_worlds


def _positions(game: str, seeds: range, every: int = 7, **options: Any) -> Any:
    """(game, seat, view) at every ``every``-th play decision of heuristic-played hands."""
    for seed in seeds:
        g = paiju.new_game(game, seed=seed, **options)
        bots = [make_bot("heuristic", game=game, seed=s) for s in range(g.num_players)]
        k = 0
        while not g.is_over:
            seat = g.to_act
            view = g.view(seat)
            if g.phase == "play":
                k += 1
                if k % every == 0:
                    yield g, seat, view
            g.apply(bots[seat].act(view, g.legal_actions()))


def _kinds(cards: list[Card]) -> Counter[str]:
    return Counter(str(c) if c.is_joker else str(c)[0] for c in cards)


@pytest.mark.parametrize("variant", ["standard", "weihai", "classic"])
def test_baohuang_world_matches_the_view(variant: str) -> None:
    rng = random.Random(1)
    built = refused = 0
    for g, seat, view in _positions("baohuang", range(8), variant=variant):
        try:
            w = bh_worlds.sample_world(view, rng)
        except bh_worlds.CannotSample:
            refused += 1
            continue
        built += 1
        mine = w.view(seat)
        for key in bh_worlds.CHECKED:
            assert mine[key] == view[key], key
        assert _kinds(w.hand(seat)) == _kinds(g.hand(seat))
        # every card of the deck is somewhere: in a hand or played
        held = [c for s in range(5) for c in w.hand(s)]
        played = [c for e in w.view(None)["events"] if "cards" in e for c in paiju.parse_cards(e["cards"])]
        plain = Counter(c.unmarked() for c in held + played)
        assert plain == Counter(deck_cards(view["options"]["deck"]))
        # the emperor card is the emperor's (held or played)
        if EMPEROR_CARD not in played:
            assert EMPEROR_CARD in w.hand(view["emperor"])
        # a known guard holds the guard card
        if view["guard"] is not None and view["options"]["guard"] == "card" and GUARD_CARD not in played:
            assert GUARD_CARD in w.hand(view["guard"])
    assert built > 20
    if variant != "classic":
        assert refused <= built // 4


def test_baohuang_hidden_guard_is_a_guess() -> None:
    """Asked many times, the sampler puts a hidden guard card in more than one seat: it
    does not know where the real one is."""
    for g, seat, view in _positions("baohuang", range(20), every=5):
        if view["guard"] is None and not view["solo"] and seat != g.guard and g.guard is not None:
            seen = set()
            for i in range(40):
                w = bh_worlds.sample_world(view, random.Random(i))
                seen.add(w.guard)
            assert len(seen) >= 2
            return
    pytest.fail("no position with a hidden guard")


def test_baohuang_guard_weights_steer_the_guess() -> None:
    for _g, seat, view in _positions("baohuang", range(20), every=5):
        if view["guard"] is None and not view["solo"] and seat == view["emperor"]:
            others = [s for s in range(5) if s != seat and view["hand_counts"][s] > 0]
            target = others[-1]
            weights = {s: (1000.0 if s == target else 0.001) for s in others}
            guards = Counter(bh_worlds.sample_world(view, random.Random(i), weights).guard for i in range(30))
            assert guards[target] >= 27
            return
    pytest.fail("no position where the emperor looks for a hidden guard")


def test_baohuang_worlds_differ_and_play_out() -> None:
    for _g, seat, view in _positions("baohuang", range(3), every=11):
        a = bh_worlds.sample_world(view, random.Random(1))
        b = bh_worlds.sample_world(view, random.Random(2))
        others = [s for s in range(5) if s != seat and view["hand_counts"][s] > 3]
        if others:
            assert any(_kinds(a.hand(s)) != _kinds(b.hand(s)) for s in others)
        x = a.clone()
        while not x.is_over:
            x.apply(x.legal_actions()[0])
        assert sum(x.scores) == 0


def test_baohuang_refuses_attachments() -> None:
    view = {
        "seat": 0,
        "options": dict(paiju.new_game("baohuang", seed=1).options),
        "events": [
            {"event": "deal", "number": 1},
            {"seat": 0, "action": "abdicate", "step": "emperor"},
            {"seat": 4, "action": "abdicate", "step": "emperor"},
            {"seat": 3, "action": "accept", "step": "emperor"},
        ],
        "hand": [],
    }
    with pytest.raises(bh_worlds.CannotSample, match="attachments"):
        bh_worlds.sample_world(view, random.Random(1))


def test_shuangkou_world_matches_the_view() -> None:
    rng = random.Random(3)
    n = 0
    for g, seat, view in _positions("shuangkou", range(10), every=5):
        w = sk_worlds.sample_world(view, rng)
        mine = w.view(seat)
        for key in sk_worlds.CHECKED:
            assert mine[key] == view[key], key
        assert sorted(map(str, w.hand(seat))) == sorted(map(str, g.hand(seat)))
        assert [len(w.hand(s)) for s in range(4)] == view["hand_counts"]
        held = [c for s in range(4) for c in w.hand(s)]
        played = [c for e in mine["events"] if "cards" in e for c in paiju.parse_cards(e["cards"])]
        assert Counter(held + played) == Counter(packs(2))
        n += 1
    assert n > 50


def test_shuangkou_worlds_differ() -> None:
    for _g, _seat, view in _positions("shuangkou", range(1), every=3):
        a = sk_worlds.sample_world(view, random.Random(1))
        b = sk_worlds.sample_world(view, random.Random(2))
        assert [sorted(map(str, a.hand(s))) for s in range(4)] != [sorted(map(str, b.hand(s))) for s in range(4)]
        return


def test_spectators_get_no_world() -> None:
    g = paiju.new_game("shuangkou", seed=1)
    with pytest.raises(sk_worlds.CannotSample):
        sk_worlds.sample_world(g.view(None), random.Random(1))
