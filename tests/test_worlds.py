"""Worlds for determinized search (paiju.baohuang.worlds, paiju.shuangkou.worlds): a world
sampled from a seat's view is a whole game in the state the view describes — same seat to
act, same hand, same public facts, same legal actions — whose hidden cards are a random
guess consistent with what is public."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

import paiju
from paiju.baohuang import worlds as bh_worlds
from paiju.baohuang.game import EMPEROR_CARD, GUARD_CARD, _card_key, deck_cards
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


def _bh_positions(seeds: range, every: int = 5, hands: int = 1, wild: float = 0.0, **options: Any) -> Any:
    """(game, seat, view) at every ``every``-th play decision of Baohuang matches of
    ``hands`` hands (the later hands carry Qingdao tribute), heuristic-played; with
    ``wild`` > 0 that share of the setup answers is random (abdications 让位 with their
    attachments 贴牌, solos, grabs, rebellions …)."""
    for seed in seeds:
        rnd = random.Random(seed)
        match = paiju.new_match("baohuang", seed=seed, **options)
        for h in range(hands):
            g = match.game
            bots = [make_bot("heuristic", game="baohuang", seed=s) for s in range(5)]
            k = 0
            while not g.is_over:
                seat = g.to_act
                view = g.view(seat)
                legal = g.legal_actions()
                if g.phase == "play":
                    k += 1
                    if k % every == 0:
                        yield g, seat, view
                    g.apply(bots[seat].act(view, legal))
                else:
                    g.apply(legal[rnd.randrange(len(legal))] if rnd.random() < wild else bots[seat].act(view, legal))
            if h + 1 < hands:
                match.next_hand()


def _check_world(g: Any, seat: int, view: dict[str, Any], w: Any, rng: random.Random) -> None:
    """A world reproduces the whole view, deals every card once, puts the role cards where
    the roles say, and plays out to a zero-sum result."""
    assert w.view(seat) == view
    assert w.hand(seat) == g.hand(seat)
    assert [str(a) for a in w.legal_actions()] == [str(a) for a in g.legal_actions()]
    held = [c for s in range(5) for c in w.hand(s)]
    played = [c for e in view["events"] if isinstance(e.get("cards"), str) for c in paiju.parse_cards(e["cards"])]
    assert Counter(c.unmarked() for c in held + played) == Counter(deck_cards(view["options"]["deck"]))
    if EMPEROR_CARD not in played:
        assert EMPEROR_CARD in w.hand(w.emperor)
    if view["options"]["guard"] == "card" and GUARD_CARD not in played and w.solo != "open":
        assert GUARD_CARD in w.hand(w.guard)  # the world's guard (the emperor in a hidden solo)
    if view["guard"] is not None:
        assert w.guard == view["guard"]
    x = w.clone()
    while not x.is_over:
        legal = x.legal_actions()
        x.apply(legal[rng.randrange(len(legal))])
    assert sum(x.scores) == 0


def _truth(g: Any, seat: int) -> tuple[dict[int, list[Card]], int | None]:
    return {s: g.hand(s) for s in range(5) if s != seat}, (None if g.solo == "open" else g.guard)


@pytest.mark.parametrize("variant", ["standard", "classic", "weihai", "qingdao"])
def test_baohuang_world_matches_the_view(variant: str) -> None:
    """Every preset, first and second hands (Qingdao tribute), wild setups (abdications
    with attachments, solos, grabs): a world for every play position, equal views."""
    rng = random.Random(1)
    built = refused = 0
    for g, seat, view in _bh_positions(range(3), every=6, hands=2, wild=0.5, variant=variant):
        try:
            sampler = bh_worlds.WorldSampler(view)
        except bh_worlds.CannotSample:
            refused += 1
            continue
        assert sampler.admits(*_truth(g, seat))  # the true hands fit the facts used
        _check_world(g, seat, view, sampler.sample(rng), rng)
        built += 1
    assert refused == 0
    assert built > 60


@pytest.mark.parametrize(
    "options",
    [
        dict(kao=True, hold_sixes=True),
        dict(variant="qingdao", kao=True, hold_sixes=True, hold_rank="7"),
        dict(variant="classic", yield_turn=True),
        dict(pass_is_final=True, deck="no345", solo_grab=True),
        dict(tribute=True, rebellion=False, kick=True),
        dict(variant="weihai", tribute=True, solo_grab=False),
        dict(variant="qingdao", guard_choice="auto", deck="weihai"),
    ],
)
def test_baohuang_world_matches_the_view_with_options(options: dict[str, Any]) -> None:
    rng = random.Random(2)
    built = refused = 0
    for g, seat, view in _bh_positions(range(2), every=7, hands=2, wild=0.3, **options):
        try:
            w = bh_worlds.sample_world(view, rng)
        except bh_worlds.CannotSample:
            refused += 1
            continue
        _check_world(g, seat, view, w, rng)
        built += 1
    assert refused == 0
    assert built > 20


def test_baohuang_attachments_and_tribute_get_a_world() -> None:
    """Hidden transfers before play — abdication attachments 贴牌 (standard from the second
    abdication, qingdao every one) and Qingdao tribute — no longer stop the sampler."""
    rng = random.Random(3)
    for variant in ("standard", "qingdao"):
        g = paiju.new_game("baohuang", seed=1, variant=variant)
        g.apply("abdicate")
        g.apply("abdicate")
        while g.phase != "play":
            g.apply(g.legal_actions()[0])
        assert g._declines == 2
        for _ in range(11):
            g.apply(g.legal_actions()[0])
        view = g.view(g.to_act)
        _check_world(g, g.to_act, view, bh_worlds.sample_world(view, rng), rng)
    # the second hand of a Qingdao match: tribute cards are with the seats that took them,
    # and a giver (its highest cards given) holds nothing higher
    seen = 0
    for g, seat, view in _bh_positions(range(4), every=3, hands=2, variant="qingdao"):
        if not g.tribute_given:
            continue
        events = view["events"]
        takes = [(e["seat"], e["action"].split()[1]) for e in events if e.get("step") == "tribute"]
        abdicated = {e["seat"] for e in events if e.get("action") == "abdicate"}  # may have attached it
        lowest = {giver: card for giver, card in g.tribute_given}
        for _ in range(5):
            w = bh_worlds.sample_world(view, rng)
            _check_world(g, seat, view, w, rng)
            for s, text in takes:
                shown = [str(c) for e in events if e.get("seat") == s for c in _cards(e)]
                if s != seat and s not in abdicated and text not in shown:
                    assert text in map(str, w.hand(s))
            for s, card in lowest.items():
                if s not in (seat, w.emperor):
                    assert all(c.marked or _card_key(c) <= _card_key(card) for c in w.hand(s))
            seen += 1
    assert seen > 20


def test_baohuang_role_cards_are_where_the_roles_say() -> None:
    """Called guard (classic): the emperor held three copies of the called card, the guard
    the fourth — in every world the guard holds it (unless played) and no rebel holds one."""
    rng = random.Random(4)
    hidden = 0
    for _g, _seat, view in _bh_positions(range(4), every=5, variant="classic"):
        if view["called"] is None:
            continue
        called = Card.parse(view["called"])
        for _ in range(4):
            w = bh_worlds.sample_world(view, rng)
            emp, guard = w.emperor, w.guard
            for s in range(5):
                n = w.hand(s).count(called)
                if s not in (emp, guard):
                    assert n == 0
            by = Counter(e["seat"] for e in view["events"] for c in _cards(e) if c == called)
            if guard != emp:  # three copies went to the emperor, the fourth to the guard
                assert w.hand(emp).count(called) + by[emp] == 3
                assert w.hand(guard).count(called) + by[guard] == 1
            if view["guard"] is None and not view["solo"]:
                hidden += 1
                assert w._reveal_seat == guard != emp or w.solo == "hidden"
    assert hidden > 10


def _cards(e: dict[str, Any]) -> list[Card]:
    return paiju.parse_cards(e["cards"]) if isinstance(e.get("cards"), str) else []


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


@pytest.mark.parametrize("variant", ["standard", "classic"])
def test_baohuang_guard_weights_steer_the_guess(variant: str) -> None:
    for _g, seat, view in _positions("baohuang", range(20), every=5, variant=variant):
        if view["guard"] is None and not view["solo"] and seat == view["emperor"]:
            rebels = set(view["rebels_declared"])
            others = [s for s in range(5) if s != seat and view["hand_counts"][s] > 0 and s not in rebels]
            target = others[-1]
            weights = {s: (1000.0 if s == target else 0.001) for s in others}
            guards = Counter(bh_worlds.sample_world(view, random.Random(i), weights).guard for i in range(30))
            assert guards[target] >= 27
            # without weights the odds follow the hidden cards: every candidate comes up
            plain = Counter(bh_worlds.sample_world(view, random.Random(i)).guard for i in range(200))
            assert set(plain) == set(others)
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


def test_baohuang_refuses_what_it_cannot_build() -> None:
    g = paiju.new_game("baohuang", seed=1)
    with pytest.raises(bh_worlds.CannotSample, match="spectator"):
        bh_worlds.sample_world(g.view(None), random.Random(1))
    while g.phase != "play":
        g.apply(g.legal_actions()[0])
    view = g.view(g.to_act)
    view["hand_counts"] = [n + 1 for n in view["hand_counts"]]
    with pytest.raises(bh_worlds.CannotSample):
        bh_worlds.sample_world(view, random.Random(1))


def test_baohuang_many_worlds_from_one_view() -> None:
    """Ten worlds in a row from one view (Qingdao, second hands with tribute): each
    reproduces the view, and sampling leaves the view as it was. (The cost of a world is a
    benchmark figure: ``benchmarks/search.py`` prints it.)"""
    rng = random.Random(5)
    n = 0
    for _g, seat, view in _bh_positions(range(2), every=9, variant="qingdao", hands=2):
        before = copy.deepcopy(view)
        for _ in range(10):
            assert bh_worlds.sample_world(view, rng).view(seat) == before
            n += 1
        assert view == before
    assert n >= 100


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
