"""记牌器 card tracker: ``paiju.<game>.tracker(view)`` equals, per rank, the copies the
seat has not seen, counted from the engine's state: the other hands, plus the cards out of
every hand hidden from that seat (Baohuang's travelling emperor card and 贴牌 for all but
their holder; Shengji's kitty for all but its burier, all of it during the deal)."""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest

import paiju
from paiju.baohuang.game import Baohuang, deck_cards
from paiju.shengji.game import Shengji
from paiju.shengji.trump import ID_TEXT

SEEDS = range(4)
CHECK = 0.15  # the share of decision points checked (every seat's view there)


def ranks(cards: Iterable[Any]) -> Counter[str]:
    out: Counter[str] = Counter()
    for c in cards:
        t = str(c)
        out[t[:2] if t[:2] in ("SJ", "BJ") else t[0]] += 1
    return out


def others(g: paiju.Game, seat: int) -> Counter[str]:
    out: Counter[str] = Counter()
    for s in range(g.num_players):
        if s != seat:
            out += ranks(g.hand(s))
    return out


def truth_baohuang(g: Baohuang, seat: int) -> Counter[str]:
    out = others(g, seat)
    if g.emperor is None and g._holder != seat:
        out += ranks(g._travel)  # travelling with the emperor card: only its holder sees them
    return out


def truth_shengji(g: Shengji, seat: int) -> Counter[str]:
    out = others(g, seat)
    if g.phase == "deal":  # the cards still to deal and the kitty: nobody has seen them
        out += ranks(ID_TEXT[c] for _, c in g._order_of_deal[g._dealt :]) + ranks(ID_TEXT[c] for c in g.kitty)
    elif g.phase != "over" and g._burier != seat:
        out += ranks(ID_TEXT[c] for c in g.buried)
    return out


def truth_shuangkou(g: paiju.Game, seat: int) -> Counter[str]:
    return others(g, seat)


def check(g: paiju.Game, truth: Callable[[Any, int], Counter[str]], view_of: Callable[[int], dict[str, Any]]) -> None:
    track = getattr(paiju, g.name).tracker
    for seat in range(g.num_players):
        t = track(view_of(seat))
        want = truth(g, seat)
        assert all(n >= 0 for n in t.values())
        assert {r: n for r, n in t.items() if n} == dict(want), (seat, g.phase)


def play(g: paiju.Game, rng: random.Random, truth: Callable[[Any, int], Counter[str]], **kw: Any) -> paiju.Game:
    view_of = kw.get("view_of", g.view)
    check(g, truth, view_of)
    while not g.is_over:
        legal = g.legal_actions()
        if g.phase == "steal" and len(legal) > 1 and rng.random() < 0.5:
            g.apply(legal[rng.randrange(1, len(legal))])  # 抢底 more often than chance: every steal is a case
        elif g.phase == "deal" and g.options.get("kitty_steal") and rng.random() < 0.9:
            g.apply(legal[0])  # few declarations in the deal leave room for steals
        else:
            g.apply(legal[rng.randrange(len(legal))])
        if rng.random() < CHECK:
            check(g, truth, view_of)
    check(g, truth, view_of)
    return g


BAOHUANG = [
    {},
    {"variant": "classic"},
    {"variant": "weihai"},
    {"variant": "qingdao"},
    {"deck": "no345", "kao": True},
]


@pytest.mark.parametrize("options", BAOHUANG, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "standard")
def test_baohuang(options: dict[str, Any]) -> None:
    for seed in SEEDS:
        rng = random.Random(seed)
        g = play(paiju.new_game("baohuang", seed=seed, **options), rng, truth_baohuang)
        if options.get("variant") == "qingdao":  # the next hand opens with the tribute 上贡
            play(paiju.new_game("baohuang", seed=seed + 50, **g.next_hand_options()), rng, truth_baohuang)


@pytest.mark.parametrize("variant", ["standard", "qingdao"])
def test_baohuang_abdications_and_redeal(variant: str) -> None:
    """让位 ten times: the emperor card travels with its 贴牌 (seen by its holder only),
    then the cards are dealt again and the count starts over."""
    g = paiju.new_game("baohuang", seed=5, variant=variant)
    rng = random.Random(5)
    abdicate = paiju.baohuang.Declare("abdicate")
    while g.emperor is None and g.deals == 1:
        check(g, truth_baohuang, g.view)
        legal = g.legal_actions()
        g.apply(abdicate if abdicate in legal else legal[rng.randrange(len(legal))])
    if variant == "standard":  # (qingdao's forced cycle 逼庄 makes someone accept)
        assert g.deals == 2
    play(g, rng, truth_baohuang)


def test_baohuang_start_and_order() -> None:
    g = paiju.new_game("baohuang", seed=3, variant="weihai")
    deck = ranks(deck_cards("weihai"))
    for seat in range(5):
        t = paiju.baohuang.tracker(g.view(seat))
        assert list(t) == ["6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ"]  # no 3 4 5 in weihai
        assert Counter(t) == deck - ranks(g.hand(seat))
        assert sum(t.values()) == 165 - len(g.hand(seat))


SHENGJI = [
    {"decks": 1},
    {"decks": 2},
    {"decks": 3},
    {"decks": 1, "two_colours": True},
    {"decks": 3, "triples": True, "no_bid": "no_trump"},
    {"decks": 2, "kitty_steal": True},
]


@pytest.mark.parametrize("options", SHENGJI, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_shengji(options: dict[str, Any]) -> None:
    for seed in SEEDS:
        play(paiju.new_game("shengji", seed=seed, **options), random.Random(seed), truth_shengji)


def test_shengji_steal_with_a_fixed_declarer() -> None:
    """A fixed declarer (a match's later hand) with 抢底: whose burial is the kitty now is
    read from the view's ``burier``."""
    for seed in SEEDS:
        g = paiju.new_game("shengji", seed=seed, decks=2, kitty_steal=True, declarer=1)
        play(g, random.Random(seed), truth_shengji)


def test_shengji_start() -> None:
    for decks, size, kitty in ((1, 12, 6), (2, 25, 8), (3, 39, 6)):
        g = paiju.new_game("shengji", seed=decks, decks=decks)
        while g.phase == "deal":
            g.apply(paiju.shengji.NO)
        d = g.view(0)["declarer"]
        assert sum(paiju.shengji.tracker(g.view(d)).values()) == 3 * size  # the kitty picked up is in his hand
        while g.phase == "bury":
            g.apply(g.legal_actions()[0])
        for seat in range(4):
            t = paiju.shengji.tracker(g.view(seat))
            assert list(t) == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "SJ", "BJ"]
            deck = Counter({r: 4 * decks for r in "23456789TJQKA"} | {"SJ": decks, "BJ": decks})
            buried = ranks(g.view(seat)["buried"]) if seat == d else Counter()
            assert Counter(t) == deck - ranks(g.hand(seat)) - buried
            hidden = 0 if seat == d else kitty  # the burier sees his kitty; the others do not
            assert sum(t.values()) == sum(len(g.hand(s)) for s in range(4) if s != seat) + hidden
            assert len(g.hand(seat)) == size


def test_shuangkou() -> None:
    for seed in range(8):
        g = paiju.new_game("shuangkou", seed=seed)
        for seat in range(4):
            t = paiju.shuangkou.tracker(g.view(seat))
            assert list(t)[0] == "3" and list(t)[-3:] == ["2", "SJ", "BJ"]
            assert sum(t.values()) == 81 and all(t[r] == 8 - ranks(g.hand(seat))[r] for r in "3456789TJQKA2")
        play(g, random.Random(seed), truth_shuangkou)


def test_spectator_counts_only_what_is_played() -> None:
    g = paiju.new_game("shuangkou", seed=1)
    assert sum(paiju.shuangkou.tracker(g.view(None)).values()) == 108


@pytest.mark.parametrize("name", ["baohuang", "shuangkou"])
def test_played_counts_of_any_seat_serve_every_seat(name: str) -> None:
    """The hall counts the public part once per update (from one seat's view) and passes it
    for every seat: the result is the tracker each seat's own view gives."""
    module = sys.modules[f"paiju.{name}.tracker"]
    for seed in SEEDS[:3]:
        g = paiju.new_game(name, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            views = [g.view(s) for s in range(g.num_players)]
            played = module.played_counts(views[rng.randrange(len(views))])
            for v in views:
                assert module.tracker(v, played) == module.tracker(v)
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("name", ["baohuang", "shuangkou"])
def test_counting_on_from_an_earlier_count_is_counting_afresh(name: str) -> None:
    """The hall keeps the counts of the growing event log and reads only the new events:
    counting ``events[start:]`` on top of the count of ``events[:start]`` gives the count of
    the whole log at every split point (a Baohuang redeal in the new part starts again)."""
    module = sys.modules[f"paiju.{name}.tracker"]
    for seed in range(12):
        g = paiju.new_game(name, seed=seed)
        rng = random.Random(seed)
        counts: dict[str, int] = {}
        counted = 0
        while not g.is_over:
            events = g.view(None)["events"]
            if rng.random() < 0.3:  # count on from the last count, a few events at a time
                counts = module.count_played(events, counted, counts)
                counted = len(events)
                assert counts == module.played_counts(g.view(None))
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
        events = g.view(None)["events"]
        assert module.count_played(events, counted, counts) == module.played_counts(g.view(None))


def test_a_redeal_in_the_new_events_starts_the_count_again() -> None:
    from paiju.baohuang.tracker import count_played

    first = [{"event": "deal", "number": 1}, {"seat": 0, "cards": "3s 3h"}]
    later = [{"event": "redeal"}, {"event": "deal", "number": 2}, {"seat": 1, "cards": "BJ"}]
    assert count_played(first) == {"3": 2}
    assert count_played(first + later, 2, {"3": 2}) == {"BJ": 1} == count_played(first + later)
