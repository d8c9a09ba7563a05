"""Worlds for determinized search in Shengji (paiju.shengji.worlds): a world sampled from a
seat's play-phase view is a whole game in exactly the state the view describes, whose
hidden hands and kitty are a random guess that explains everything the hand has shown —
every follow legal, every throw standing or failing as it did, the declared cards held."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import paiju
from paiju.bots import make_bot
from paiju.cards import Card, packs
from paiju.shengji import Shengji
from paiju.shengji import worlds as sj_worlds
from paiju.shengji.follow import follow_problem, suit_counts
from paiju.shengji.throw import failed_unit
from paiju.shengji.trump import COLOUR_ID, ID_CARD, NUM_IDS, TrumpOrder, card_id, rank_of_text, trump_order
from paiju.shengji.units import counts_of, decompose, shape_of

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"decks": 1},
    {"decks": 3},
    {"decks": 3, "triples": True},
    {"decks": 1, "two_colours": True},
    {"twos_trump": True, "team_levels": ["6", "6"], "throw_penalty": 10},
    {"no_bid": "kitty_card:1", "declarer": 3, "team_levels": ["4", "J"]},
    {"no_bid": "no_trump", "declare_with_joker": True},
    {"kitty_steal": True},
    {"kitty_steal": True, "declarer": 1, "team_levels": ["3", "Q"], "overturn_changes_declarer": False},
]


def _positions(
    options: dict[str, Any], seeds: range, every: int, declare: bool = True
) -> Iterator[tuple[Shengji, int, dict[str, Any]]]:
    """(game, seat to act, its view) at every ``every``-th play decision of hands played by
    greedy and random bots (random plays bring failed throws and odd follows; steals are
    taken when offered, half the time; nobody declares unless ``declare``)."""
    for seed in seeds:
        g = paiju.new_game("shengji", seed=1000 + seed, **options)
        assert isinstance(g, Shengji)
        rng = random.Random(seed)
        bots = [make_bot("greedy" if s % 2 == seed % 2 else "random", game="shengji", seed=seed + s) for s in range(4)]
        k = 0
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            view = g.view(seat)
            legal = g.legal_actions()
            if g.phase == "play":
                k += 1
                if k % every == 0:
                    yield g, seat, view
            if g.phase in ("deal", "steal") and not declare:
                g.apply("no")
            elif g.phase == "steal" and len(legal) > 1 and rng.random() < 0.5:
                g.apply(legal[-1])
            else:
                g.apply(bots[seat].act(view, legal))


def _ids(g: Shengji, cards: list[Card] | str) -> list[int]:
    """Card ids as the game plays them (colour cards with ``two_colours``)."""
    cs = paiju.parse_cards(cards) if isinstance(cards, str) else cards
    return [COLOUR_ID[card_id(c)] if g.options["two_colours"] else card_id(c) for c in cs]


def _order(view: dict[str, Any]) -> TrumpOrder:
    o = view["options"]
    return trump_order(view["trump_suit"], rank_of_text(view["level"]), o["twos_trump"], o["triples"])


def _tricks(view: dict[str, Any]) -> list[tuple[list[tuple[int, str]], str | None]]:
    """(plays, failed throw) of every trick of the view, the current one last."""
    out = [([(p["seat"], p["cards"]) for p in t["plays"]], t.get("failed_throw")) for t in view["tricks"]]
    if view["trick"]:
        out.append(([(p["seat"], p["cards"]) for p in view["trick"]], view["failed_throw"]))
    return out


def _explains_history(w: Shengji, view: dict[str, Any]) -> None:
    """The world's hands, with the cards each seat played since, make every play of the
    view legal and every throw stand or fail exactly as it did (the engine's own rules)."""
    t = _order(view)
    now = [[0] * NUM_IDS for _ in range(4)]
    for s in range(4):
        for c in _ids(w, w.hand(s)):
            now[s][c] += 1
    tricks = _tricks(view)
    for i, (plays, failed) in enumerate(tricks):
        held = [list(row) for row in now]  # the hands when trick i began
        for later in tricks[i:]:
            for s, cards in later[0]:
                for c in _ids(w, cards):
                    held[s][c] += 1
        leader, lead_text = plays[0]
        lead = tuple(sorted(_ids(w, lead_text)))
        tried = sorted(_ids(w, failed)) if failed else list(lead)
        units = decompose(counts_of(tried), t)
        suit = t.psuit[lead[0]]
        others = [suit_counts(held[s], suit, t) for s in range(4) if s != leader]
        fu = failed_unit(units, others, t)
        if failed:
            assert fu is not None and tuple(sorted(fu.cards)) == lead, (i, failed, lead_text)
        else:
            assert fu is None, (i, lead_text)
        shape = shape_of(decompose(counts_of(lead), t))
        for s, cards in plays[1:]:
            play = tuple(sorted(_ids(w, cards)))
            assert follow_problem(suit, shape, len(lead), held[s], play, t) is None, (i, s, cards)


def _voids(view: dict[str, Any]) -> set[tuple[int, int]]:
    """(seat, play-suit) pairs the view shows void: a seat that followed short of the led suit."""
    t = _order(view)
    out = set()
    for plays, _ in _tricks(view):
        lead = paiju.parse_cards(plays[0][1])
        suit = t.psuit[card_id(lead[0])]
        for s, cards in plays[1:]:
            cs = paiju.parse_cards(cards)
            if sum(1 for c in cs if t.psuit[card_id(c)] == suit) < len(lead):
                out.add((s, suit))
    return out


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_world_is_the_view_with_a_guess_that_explains_the_hand(options: dict[str, Any]) -> None:
    rng = random.Random(7)
    built = 0
    for g, seat, view in _positions(options, range(3), every=9):
        w = sj_worlds.sample_world(view, rng)
        built += 1
        assert w.to_act == view["to_act"] == seat and w.phase == "play"
        mine = w.view(seat)
        for key in sj_worlds.CHECKED:
            assert mine.get(key) == view.get(key), key
        assert mine == view  # in fact the whole view
        # and the public state behind it (the tests may look at the real game)
        public = ["level", "team_levels", "declarer", "trump_suit", "declarations", "_bid", "_t", "tricks"]
        public += ["trick_points", "penalty_points", "revealed_kitty_card", "_trick"]
        if view["trick"]:
            public += ["_lead_suit", "_lead_shape", "_lead_top", "_lead_n", "_attempt"]
        for name in public:
            assert getattr(w, name) == getattr(g, name), name
        assert Counter(map(str, w.hand(seat))) == Counter(map(str, g.hand(seat)))
        assert [len(w.hand(s)) for s in range(4)] == view["hand_counts"]
        assert len(w.buried) == view["kitty_size"]
        # the packs exactly: hands, cards played, kitty
        played = [c for plays, _ in _tricks(view) for _, cards in plays for c in _ids(w, cards)]
        held = [c for s in range(4) for c in _ids(w, w.hand(s))]
        pack = Counter(_ids(w, list(packs(w.decks))))
        assert Counter(held + played + list(w.buried)) == pack
        # voids are honoured
        t = _order(view)
        for s, suit in _voids(view):
            assert not any(t.psuit[c] == suit for c in _ids(w, w.hand(s))), (s, suit)
        # and more: every follow legal, every throw as it went, the declared cards held
        _explains_history(w, view)
        if not options.get("kitty_steal"):
            for d in view["declarations"]:
                s = d["seat"]
                has = Counter(_ids(w, w.hand(s)))
                has += Counter(c for plays, _ in _tricks(view) for p, cards in plays if p == s for c in _ids(w, cards))
                if s == w.declarer:
                    has += Counter(w.buried)
                assert not Counter(_ids(w, d["cards"])) - has, d
            if view["revealed_kitty_card"] is not None:
                _check_revealed(w, view)
        # the world plays on to the end
        x = w.clone()
        while not x.is_over:
            legal = x.legal_actions()
            x.apply(legal[rng.randrange(len(legal))])
        assert sum(x.scores) == 0 and x.result is not None
    assert built >= 10


def _check_revealed(w: Shengji, view: dict[str, Any]) -> None:
    """no_bid ``kitty_card:n``: the declarer picked the revealed kitty card up — it is in its
    hand, among its plays or in the kitty, and its view shows it at its place."""
    r = view["revealed_kitty_card"]
    d = w.declarer
    assert d is not None
    seen = Counter(_ids(w, w.hand(d))) + Counter(w.buried)
    seen += Counter(c for plays, _ in _tricks(view) for p, cards in plays if p == d for c in _ids(w, cards))
    assert seen[_ids(w, r)[0]] > 0
    at = int(view["options"]["no_bid"].split(":")[1]) - 1
    assert w.view(d)["kitty_received"][at] == r


@pytest.mark.parametrize("options", [{}, {"no_bid": "kitty_card:1", "decks": 1}, {"kitty_steal": True, "decks": 3}])
def test_nobody_declared_the_revealed_kitty_card(options: dict[str, Any]) -> None:
    rng = random.Random(9)
    n = 0
    for _, seat, view in _positions(options, range(2), every=7, declare=False):
        assert view["revealed_kitty_card"] is not None and not view["declarations"]
        w = sj_worlds.sample_world(view, rng)
        assert w.view(seat) == view
        _check_revealed(w, view)
        _explains_history(w, view)
        n += 1
    assert n >= 4


@pytest.mark.parametrize("options", [{}, {"decks": 3, "triples": True}, {"kitty_steal": True}, {"decks": 1}])
def test_the_true_deal_is_always_possible(options: dict[str, Any]) -> None:
    """The sampler's inferences never rule out the real hidden cards (of every seat's view)."""
    n = 0
    for g, _, _ in _positions(options, range(4, 8), every=4):
        for seat in range(4):
            sampler = sj_worlds.WorldSampler(g.view(seat))
            kitty = [ID_CARD[c] for c in g.buried]
            assert sampler.admits({s: g.hand(s) for s in range(4)}, kitty), (seat, g.record())
            n += 1
    assert n > 100


def test_the_guess_is_random() -> None:
    """Two seeds give different hidden hands; over many worlds an unconstrained card is
    seen in every hidden place, and sampling again from one view gives fresh worlds."""
    g, seat, view = next(_positions({}, range(1), every=2))
    a = sj_worlds.sample_world(view, random.Random(1))
    b = sj_worlds.sample_world(view, random.Random(2))
    others = [s for s in range(4) if s != seat]
    assert any(Counter(map(str, a.hand(s))) != Counter(map(str, b.hand(s))) for s in others)
    assert Counter(map(str, a.hand(seat))) == Counter(map(str, b.hand(seat)))
    rng = random.Random(3)
    places: dict[int, Counter[str]] = {}
    for _ in range(200):
        w = sj_worlds.sample_world(view, rng)
        for s in others:
            for c in _ids(w, w.hand(s)):
                places.setdefault(c, Counter())[str(s)] += 1
        for c in w.buried:
            places.setdefault(c, Counter())["kitty"] += 1
    spread = [len(p) for p in places.values()]
    assert max(spread) == 4  # some card went to all three hidden hands and to the kitty
    assert sum(1 for x in spread if x == 4) > len(spread) // 2


def _throw_position() -> tuple[Shengji, dict[str, Any]]:
    """Seat 0 (declarer, 2 packs, no-trump from the kitty card) throws ♠A ♠K, and the throw
    stands: the other ♠A was buried. Seat 1 is to follow: for it, that ♠A is in the kitty or
    with the leader."""
    pack = list(packs(2))
    kitty_cards = ["BJ", "As", "SJ", "3c", "3c", "4c", "4c", "5c"]  # 3rd card a joker: no-trump
    rest = Counter(map(str, pack)) - Counter(kitty_cards)
    hand0 = ["As", "Ks", "Qs"]
    rest -= Counter(hand0)
    cards = list(rest.elements())
    random.Random(5).shuffle(cards)
    hand0 += [c for c in cards if c[1] != "s"][:22]
    left = Counter(cards) - Counter(hand0[3:])
    pool = list(left.elements())
    random.Random(6).shuffle(pool)
    deal = [" ".join(hand0)] + [" ".join(pool[i * 25 : (i + 1) * 25]) for i in range(3)]
    g = Shengji(seed=1, deal=deal, kitty=" ".join(kitty_cards), declarer=0)
    while g.phase == "deal":
        g.apply("no")
    for c in ["As", "3c", "3c", "4c", "4c", "5c", "Qs", "SJ"]:
        g.apply(f"bury {c}")
    assert g.phase == "play" and g.trump_suit is None
    g.apply("As Ks")
    view = g.view(1)
    assert view["trick"] == [{"seat": 0, "cards": "As Ks"}] and view["failed_throw"] is None
    return g, view


def test_a_throw_that_stood_shows_who_lacks_the_higher_card() -> None:
    g, view = _throw_position()
    rng = random.Random(1)
    for _ in range(50):
        w = sj_worlds.sample_world(view, rng)
        for s in (2, 3):  # nobody could beat ♠K: the other ♠A is not in a hand
            assert "As" not in map(str, w.hand(s))
        assert "As" in [str(ID_CARD[c]) for c in w.buried] + [str(c) for c in w.hand(0)]  # kitty or leader
        _explains_history(w, view)


def _scripted(hands: dict[int, str], plays: list[str]) -> Shengji:
    """A 2-pack hand at level 2, no-trump (a joker is the 3rd kitty card), seat 0 declarer:
    the given cards in the given hands, every other card dealt round the table in a fixed
    shuffle, the kitty buried back as it came, then ``plays``."""
    kitty = "3c 4c BJ 5c 6c 7c 8c 9c"
    rest = Counter(map(str, packs(2))) - Counter(kitty.split())
    for h in hands.values():
        rest -= Counter(h.split())
    filler = sorted(rest.elements())
    random.Random(4).shuffle(filler)
    deal = []
    for s in range(4):
        mine = hands.get(s, "").split()
        more, filler = filler[: 25 - len(mine)], filler[25 - len(mine) :]
        deal.append(" ".join(mine + more))
    g = Shengji(seed=1, deal=deal, kitty=kitty, declarer=0)
    while g.phase == "deal":
        g.apply("no")
    for c in kitty.split():
        g.apply(f"bury {c}")
    for p in plays:
        g.apply(p)
    return g


def test_a_tractor_thrown_that_stood_shows_nobody_had_a_higher_one() -> None:
    """Seat 0's throw ♠TT99 + ♠A stood: neither seat 2 nor seat 3 held ♠KKQQ or ♠QQJJ."""
    g = _scripted(
        {
            0: "Ts Ts 9s 9s As",
            1: "8s 7s 6s 5s 4s 3s",
            2: "Ks Qs Js 8s 6s 4s",
            3: "Ks Qs Js 7s 5s 3s As",
        },
        ["As Ts Ts 9s 9s"],
    )
    view = g.view(1)
    assert view["trick"][0]["cards"] == "As Ts Ts 9s 9s" and view["failed_throw"] is None
    rng = random.Random(2)
    for _ in range(150):
        w = sj_worlds.sample_world(view, rng)
        for s in (2, 3):
            n = Counter(map(str, w.hand(s)))
            assert not (n["Qs"] == 2 and (n["Ks"] == 2 or n["Js"] == 2)), (s, n)
        _explains_history(w, view)


def test_two_pairs_on_a_tractor_show_the_follower_had_no_tractor() -> None:
    """Seat 1 answered ♥8877 with ♥AA55: it held no ♥ tractor, so not ♥KK (AAKK)."""
    g = _scripted(
        {
            0: "8h 8h 7h 7h",
            1: "Ah Ah 5h 5h Kh Qh 9h 3h",
            2: "Jh Th 6h 4h",
            3: "Kh Qh Jh Th 9h 6h 4h 3h",
        },
        ["8h 8h 7h 7h", "Ah Ah 5h 5h"],
    )
    view = g.view(2)
    rng = random.Random(3)
    for _ in range(150):
        w = sj_worlds.sample_world(view, rng)
        assert Counter(map(str, w.hand(1)))["Kh"] < 2
        _explains_history(w, view)


def test_a_failed_throw_shows_the_cards_the_leader_kept() -> None:
    for _, seat, view in _positions({}, range(12), every=1):
        for tr in view["tricks"]:
            if tr.get("failed_throw") and tr["leader"] != seat:
                leader = tr["leader"]
                kept = Counter(tr["failed_throw"].split())
                for t in view["tricks"][view["tricks"].index(tr) :]:
                    kept -= Counter(c for p in t["plays"] if p["seat"] == leader for c in p["cards"].split())
                kept -= Counter(c for p in view["trick"] if p["seat"] == leader for c in p["cards"].split())
                if not kept:
                    continue
                for i in range(10):
                    w = sj_worlds.sample_world(view, random.Random(i))
                    assert not kept - Counter(map(str, w.hand(leader)))
                return
    pytest.fail("no failed throw with cards kept")


def test_refusals() -> None:
    g = paiju.new_game("shengji", seed=2)
    with pytest.raises(sj_worlds.CannotSample, match="during play"):
        sj_worlds.WorldSampler(g.view(g.to_act))  # the play's sampler; the deal's is worlds_deal
    _, _, view = next(_positions({}, range(1), every=3))
    with pytest.raises(sj_worlds.CannotSample, match="spectator"):
        sj_worlds.sample_world(dict(view, seat=None), random.Random(1))
    bad = dict(view, hand=view["hand"] + ["BJ", "BJ", "BJ"])
    with pytest.raises(sj_worlds.CannotSample):
        sj_worlds.sample_world(bad, random.Random(1))


def test_many_worlds_from_one_view() -> None:
    """Ten worlds in a row from one view (the search samples hundreds per decision): each
    reproduces the view, and sampling leaves the view as it was. (The cost of a world is a
    benchmark figure: ``benchmarks/search.py`` prints it.)"""
    rng = random.Random(1)
    n = 0
    for _, seat, v in _positions({}, range(2), every=5):
        before = copy.deepcopy(v)
        for _ in range(10):
            assert sj_worlds.sample_world(v, rng).view(seat) == before
            n += 1
        assert v == before
    assert n >= 100
