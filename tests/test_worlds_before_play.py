"""Worlds at every decision before the card play (issue 32): Shengji's deal with its
declarations 亮主/反主 and the burial 扣底 (``paiju.shengji.worlds_deal``), Baohuang's
tribute 吃贡, emperor 登基/让位, call, grab 抢独, 明保, 造反 and 踢 steps
(``paiju.baohuang.worlds``). For random positions of every preset: a world reproduces the
seat's whole view (the public log, its own cards, every card shown), holds every card
once, and plays on legally to a zero-sum end; the world depends on the view alone (the
same view from another game gives the same world); and the hidden cards are spread as the
view allows (a chi-square check on a simple case)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import paiju
from paiju.baohuang import worlds as bh_worlds
from paiju.baohuang.game import EMPEROR_CARD, GUARD_CARD, Baohuang, _card_key, deck_cards
from paiju.cards import Card, packs
from paiju.shengji import worlds as sj_worlds
from paiju.shengji.game import Shengji
from paiju.shengji.worlds_deal import DealSampler


def _key(c: Card) -> tuple[int, int, bool]:
    return _card_key(c)


FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

BH_OPTIONS = [
    {"variant": "standard"},
    {"variant": "classic"},
    {"variant": "weihai", "kao": True},
    {"variant": "qingdao", "hold_sixes": True},
    {"variant": "standard", "kick": True, "solo_grab": True},
]
SJ_OPTIONS = [
    {},
    {"variant": "competition"},
    {"decks": 1},
    {"decks": 3, "triples": True},
    {"decks": 1, "two_colours": True},
    {"no_bid": "kitty_card:1", "twos_trump": True},
    {"no_bid": "no_trump", "declare_with_joker": True},
    {"declarer": 1, "team_levels": ["5", "3"], "cannot_declare_passes_deal": True},
    {"kitty_steal": True, "decks": 1},
    {"kitty_steal": True, "overturn_changes_declarer": False},
]


def _random_actions(g: Any, rng: random.Random, n: int, phases: tuple[str, ...]) -> None:
    """Up to ``n`` random decisions while the game is in ``phases`` (Shengji's deal: mostly ``no``)."""
    for _ in range(n):
        if g.is_over or g.phase not in phases:
            return
        legal = g.legal_actions()
        if g.phase == "deal" and len(legal) > 1 and rng.random() < 0.85:
            g.apply(legal[0])
        else:
            g.apply(legal[rng.randrange(len(legal))])


def _play_out(w: Any, rng: random.Random) -> None:
    """A world plays on to the end by legal random moves, to a zero-sum result (Shengji:
    level changes, equal and opposite for the two teams)."""
    for _ in range(20000):
        if w.is_over:
            break
        legal = w.legal_actions()
        w.apply(legal[rng.randrange(len(legal))] if len(legal) < 2000 else legal[0])
    assert w.is_over
    assert sum(w.scores) == 0


# ---------------------------------------------------------------------- Baohuang
def _bh_position(opt: int, seed: int, steps: int, second_hand: bool) -> Baohuang:
    rng = random.Random(seed)
    g = Baohuang(seed=seed, **BH_OPTIONS[opt])
    if second_hand and g.options["tribute"]:  # a match's second hand: Qingdao tribute first
        _random_actions(g, rng, 10**5, ("setup", "play"))
        g = Baohuang(seed=seed + 1, **g.next_hand_options())
    _random_actions(g, rng, steps, ("setup",))
    return g


@FAST
@given(
    opt=st.integers(0, len(BH_OPTIONS) - 1),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 14),
    seat=st.integers(0, 4),
    second=st.booleans(),
)
def test_baohuang_worlds_before_play_match_the_view(opt: int, seed: int, steps: int, seat: int, second: bool) -> None:
    g = _bh_position(opt, seed, steps, second)
    if g.phase != "setup":
        return
    view = g.view(seat)
    rng = random.Random(seed)
    w = bh_worlds.sample_world(view, rng)
    assert w.view(seat) == view  # the public log, the counts, the roles shown, the legal answers
    assert w.hand(seat) == g.hand(seat)
    held = [c for s in range(5) for c in w.hand(s)] + list(w._travel) + list(w._pool)
    assert Counter(c.unmarked() for c in held) == Counter(deck_cards(view["options"]["deck"]))
    if w.emperor is not None:
        assert EMPEROR_CARD in w.hand(w.emperor)
    if view["options"]["guard"] == "card" and w.guard is not None and not w.solo:
        assert GUARD_CARD in w.hand(w.guard)
    if view["guard"] is not None:
        assert w.guard == view["guard"]
    # no leak: the same view read from the world (another game) gives the same world
    again = bh_worlds.sample_world(w.view(seat), random.Random(seed))
    assert [again.hand(s) for s in range(5)] == [w.hand(s) for s in range(5)]
    _play_out(w, rng)


def test_baohuang_every_step_before_play_is_sampled() -> None:
    """Every step of the presets' setups appears among sampled positions (so the property
    test above is not vacuous for any)."""
    seen: set[str] = set()
    for opt in range(len(BH_OPTIONS)):
        for seed in range(6):
            g = _bh_position(opt, seed, 0, second_hand=True)
            rng = random.Random(seed)
            while g.phase == "setup":
                for seat in range(5):
                    view = g.view(seat)
                    w = bh_worlds.sample_world(view, rng)
                    assert w.view(seat) == view
                    assert w.legal_actions()  # the emperor of a call step holds a triple to call
                seen.add(g._step)
                _random_actions(g, rng, 1, ("setup",))
    assert seen == {"tribute", "emperor", "call", "grab", "reveal", "rebel", "kick"}


def test_baohuang_weihai_abdicator_keeps_the_guard_card() -> None:
    """威海: only a holder of both marked jokers may pass the emperor card on, so in every
    world the seat that passed it holds the guard card."""
    g = Baohuang(seed=0, variant="weihai")
    holder = g.to_act
    assert holder is not None and GUARD_CARD in g.hand(holder)
    g.apply("abdicate")
    rng = random.Random(4)
    for seat in range(5):
        for _ in range(10):
            assert GUARD_CARD in bh_worlds.sample_world(g.view(seat), rng).hand(holder)


def test_baohuang_attached_cards_were_their_givers_highest() -> None:
    """贴牌: the holder sees the cards attached to the emperor card, each its giver's
    highest 2 (else highest card) — so in the holder's worlds no giver holds a higher one."""
    for seed in range(40):
        g = Baohuang(seed=seed)
        givers = []
        while (
            g.phase == "setup"
            and g._step == "emperor"
            and len(givers) < 3
            and "abdicate" in map(str, g.legal_actions())
        ):
            givers.append(g.to_act)
            g.apply("abdicate")
        view = g.view(g.to_act) if g._step == "emperor" else None
        if view is None or not view.get("attached_cards"):
            continue
        rng = random.Random(seed)
        for _ in range(10):
            w = bh_worlds.sample_world(view, rng)
            for giver, card in zip(givers[1:], view["attached_cards"], strict=False):
                top = max(_key(c) for c in w.hand(giver) if not c.is_joker and not c.marked)
                assert top <= _key(Card.parse(card)), (seed, giver, card)
        return
    raise AssertionError("no hand with attached cards")


def test_baohuang_guard_card_is_spread_as_the_view_allows() -> None:
    """Before anyone answers, the guard card 保子 ``SJ*`` is in one of the four other
    hands, each about as likely as its number of cards (chi-square, 3 degrees of freedom)."""
    g = Baohuang(seed=3)
    holder = g.to_act
    seat = next(s for s in range(5) if s != holder and GUARD_CARD not in g.hand(s))
    sampler = bh_worlds.WorldSampler(g.view(seat))
    rng = random.Random(1)
    n = 400
    where = Counter(
        next(s for s in range(5) if GUARD_CARD in w.hand(s)) for w in (sampler.sample(rng) for _ in range(n))
    )
    others = [s for s in range(5) if s != seat]
    sizes = [len(g.hand(s)) for s in others]
    chi2 = sum((where[s] - n * k / sum(sizes)) ** 2 / (n * k / sum(sizes)) for s, k in zip(others, sizes, strict=True))
    assert chi2 < 16.27  # p = 0.001


# ---------------------------------------------------------------------- Shengji
def _sj_position(opt: int, seed: int, steps: int) -> Shengji:
    rng = random.Random(seed)
    g = Shengji(seed=seed, **SJ_OPTIONS[opt])
    _random_actions(g, rng, steps, ("deal", "bury", "steal"))
    return g


@FAST
@given(
    opt=st.integers(0, len(SJ_OPTIONS) - 1),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 115),
    seat=st.integers(0, 3),
)
def test_shengji_worlds_before_play_match_the_view(opt: int, seed: int, steps: int, seat: int) -> None:
    g = _sj_position(opt, seed, steps)
    if g.phase not in ("deal", "bury", "steal"):
        return
    view = g.view(seat)
    rng = random.Random(seed)
    try:
        w = sj_worlds.sample_world(view, rng)
    except sj_worlds.CannotSample:  # the documented limit: 抢底 hands after steals, rarely
        assert g.options["kitty_steal"] and g._burials
        return
    assert w.view(seat) == view  # declarations, counts, trump, the kitty he picked up, the burial
    assert w.hand(seat) == g.hand(seat)
    for d in view["declarations"]:  # a declarer holds what it showed (before any burial)
        if view["phase"] == "deal":
            need = Counter(d["cards"].split())
            have = Counter(map(str, w.hand(d["seat"])))
            assert all(have[c] >= k for c, k in need.items())
    # the world is a whole hand: its record replays to the same view
    assert paiju.replay(w.record()).view(seat) == view
    again = sj_worlds.sample_world(w.view(seat), random.Random(seed))  # no leak: the view alone
    assert again.record()["deal"] == w.record()["deal"]
    _play_out(w, rng)


def test_shengji_the_deal_and_the_burial_are_both_sampled() -> None:
    seen: Counter[str] = Counter()
    for seed in range(4):
        g = Shengji(seed=seed)
        rng = random.Random(seed)
        k = 0
        while g.phase != "play":
            if k % 9 == 0 or g.phase == "bury":
                view = g.view(g.to_act)
                assert sj_worlds.sample_world(view, rng).view(g.to_act) == view
                seen[g.phase] += 1
            _random_actions(g, rng, 1, ("deal", "bury"))
            k += 1
    assert seen["deal"] >= 40 and seen["bury"] >= 30


def test_shengji_a_declarer_holds_its_declared_cards_from_the_start() -> None:
    """Seat 1 declares a pair 2♥ 2♥ after its second card: every world gives it both at once
    (a random deal almost never would)."""
    rest = [c for c in packs(2) if str(c) != "2h"]
    random.Random(0).shuffle(rest)
    hands = [rest[:25], [Card.parse("2h")] * 2 + rest[25:48], rest[48:73], rest[73:98]]
    g = Shengji(seed=0, deal=[" ".join(map(str, h)) for h in hands], kitty=" ".join(map(str, rest[98:])))
    while g.view(None)["cards_dealt"] < 6:
        g.apply("no")
    g.apply("declare 2h 2h")
    rng = random.Random(1)
    for seat in (0, 2, 3):
        for _ in range(5):
            w = sj_worlds.sample_world(g.view(seat), rng)
            assert w.view(seat) == g.view(seat)
            assert Counter(map(str, w.hand(1)))["2h"] == 2


def test_shengji_kitty_steals_are_sampled() -> None:
    """抢底: after steals the view keeps the declarations, the last burier and this seat's own
    last burial; every seat gets worlds that replay to it, after one steal and after two."""
    steals: Counter[int] = Counter()
    refused = 0
    for seed in range(12):
        g = Shengji(seed=seed, kitty_steal=True, decks=1)
        rng = random.Random(seed)
        while g.phase != "play":
            legal = g.legal_actions()
            if g.phase in ("bury", "steal"):
                for seat in range(4):
                    view = g.view(seat)
                    try:
                        assert sj_worlds.sample_world(view, rng).view(seat) == view
                    except sj_worlds.CannotSample as e:  # the documented limit: a seat that buried twice
                        assert "buried more than once" in str(e) or len(g._burials) >= 2, e
                        refused += 1
                steals[len(g._burials)] += 1
            declare = g.phase == "steal" and len(legal) > 1 and rng.random() < 0.6
            g.apply(rng.choice(legal[1:]) if declare else legal[0] if g.phase != "bury" else rng.choice(legal))
    assert steals[1] and steals[2]
    assert refused <= sum(steals.values()) // 10


def test_shengji_undealt_cards_are_spread_as_the_view_allows() -> None:
    """At the first decision of a one-pack deal, seat 0 has one card: the big joker (if not
    that card) is in any of the 53 other places alike — seat 0's eleven cards to come, the
    three other hands, the kitty (chi-square, 4 degrees of freedom)."""
    g = Shengji(seed=5, decks=1)
    view = g.view(0)
    assert view["cards_dealt"] == 1 and view["hand"] != ["BJ"]
    sampler = DealSampler(view)
    rng = random.Random(2)
    n = 500
    where: Counter[str] = Counter()
    for _ in range(n):
        deal = sampler.sample(rng).record()["deal"]
        where[next(str(i) for i, h in enumerate(deal) if "BJ" in h.split())] += 1
    expect = {"0": 11, "1": 12, "2": 12, "3": 12, "4": 6}
    chi2 = sum((where[k] - n * e / 53) ** 2 / (n * e / 53) for k, e in expect.items())
    assert chi2 < 18.47  # p = 0.001


def test_shengji_the_kitty_is_known_to_the_burier_only() -> None:
    """In the burial the declarer's worlds keep the kitty he picked up; the others' worlds
    draw it (it differs from world to world)."""
    g = Shengji(seed=11)
    rng = random.Random(3)
    while g.phase != "bury":
        g.apply(g.legal_actions()[0])
    burier = g.to_act
    kitty = g.view(burier)["kitty_received"]
    for _ in range(5):
        w = sj_worlds.sample_world(g.view(burier), rng)
        assert w.record()["deal"][4].split() == kitty
    other = (burier + 1) % 4
    kitties = {sj_worlds.sample_world(g.view(other), rng).record()["deal"][4] for _ in range(5)}
    assert len(kitties) > 1
