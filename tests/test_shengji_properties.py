"""Shengji properties over random hands and matches (1, 2 and 3 packs), with hypothesis.

Actions are drawn by random index into ``legal_actions()`` (a lazy sequence at leads and
for unconstrained follows). Checked along the way:

1. every drawn action is ``in`` its legal sequence and its text reads back to itself;
2. cards are conserved: hands + played cards + buried cards + kitty + undealt = the packs;
3. the defenders' trick points plus the declarers' = the packs' points minus the kitty's;
   scores sum to zero; ``to_act is None`` iff over;
4. ``replay(json round trip of record())`` gives the same record and the same views;
5. no leak: swapping two hidden cards between two other hands changes nothing a seat sees
   (nor the ``to_act`` sequence) until one of them is played or a throw is tried;
6. ``clone()`` is equal and independent;
7. ``hosted_action`` / ``hint`` are legal; a short match carries levels and declarer.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import paiju
from paiju.cards import packs
from paiju.shengji import hint, hosted_action
from paiju.shengji.options import PRESETS
from paiju.shengji.scoring import level_change
from paiju.shengji.trump import BJ_ID, COLOUR_ID, ID_SUIT, NUM_IDS, POINTS, SJ_ID, card_id, ids_of
from paiju.shengji.units import counts_of, decompose

DECKS = st.sampled_from([1, 2, 3])
SEEDS = st.integers(0, 2**32)


def options(draw_int: int, decks: int = 2) -> dict[str, Any]:
    """Random room options; the variants of the spec are each on about half the time."""
    r = random.Random(draw_int)
    o = {
        "declare_with_joker": r.choice([False, True, "by_colour"]),
        "two_colours": decks == 1 and r.random() < 0.5,
        "kitty_steal": r.random() < 0.5,
        "triples": decks == 3 and r.random() < 0.5,
        "twos_trump": r.random() < 0.3,
        "no_bid": r.choice(["kitty_card:3", "kitty_card:1", "no_trump"]),
        "kitty_multiplier": r.choice(["pairs_power", "unit_size", "competition"]),
        "level_table": r.choice(["default", "competition"]),
        "throw_penalty": r.choice([0, 10]),
        "throw_evaluation": r.choice(["largest_unit", "all", "highest"]),
        "self_overturn": r.random() < 0.3,
        "level_step": r.choice([0, 20, 40]),
    }
    if o["level_table"] != "default":
        o["level_step"] = 0  # level_step changes the default table only
    if r.random() < 0.25:  # the competition preset as it is (seed 003's rulebook), the rest random
        o = {k: v for k, v in o.items() if k not in PRESETS["competition"]}
        o.update(variant="competition", level_step=0)
    return o


def played_ids(g: Any) -> list[int]:
    out = [c for t in g.tricks for p in t["plays"] for c in ids_of(p["cards"])]
    out += [c for p in g.view(None)["trick"] for c in ids_of(p["cards"])]
    return out


def check_conservation(g: Any) -> None:
    held = [card_id(c) for s in range(4) for c in g.hand(s)]
    total = Counter(held + played_ids(g) + list(g.buried))
    if g.phase == "deal":
        total.update(g.kitty)
        total.update(c for _, c in g._order_of_deal[g._dealt :])
    colour = COLOUR_ID if g.options["two_colours"] else range(NUM_IDS)
    assert total == Counter(colour[card_id(c)] for c in packs(g.decks))


def random_action(g: Any, rng: random.Random, declare_rate: float = 0.3) -> Any:
    legal = g.legal_actions()
    assert len(legal) > 0
    if g.phase == "deal" and len(legal) > 1 and rng.random() > declare_rate:
        return legal[0]  # "no" most of the time, so hands see every kind of declaration
    a = legal[rng.randrange(len(legal))]
    assert a in legal
    assert g.parse_action(str(a)) == a
    return a


def play_out(g: Any, rng: random.Random, check_every: int = 7) -> None:
    step = 0
    while not g.is_over:
        assert g.to_act is not None and g.phase != "over"
        g.apply(random_action(g, rng))
        step += 1
        if step % check_every == 0:
            check_conservation(g)
    assert g.to_act is None and g.phase == "over"


def check_random_hand(decks: int, seed: int, opts: dict[str, Any]) -> Any:
    """A random full hand with these options: legality, conservation, zero-sum, replay."""
    rng = random.Random(seed)
    g = paiju.new_game("shengji", seed=seed, decks=decks, **opts)
    play_out(g, rng)
    check_conservation(g)
    assert sum(g.scores) == 0
    all_points = sum(t["points"] for t in g.tricks) + sum(POINTS[c] for c in g.buried)
    assert all_points == 100 * decks
    r = g.result
    assert r["defender_points"] == r["trick_points"] + r["kitty_bonus"] + r["penalty_points"]
    side, n = level_change(  # two_colours: one pack's table
        r["defender_points"], decks, g.options["level_table"], g.options["level_step"]
    )
    assert r["levels_up"] == n and r["declarers_hold"] == (side == 0)
    if opts["two_colours"]:
        assert all(
            c.suit in ("s", "h", None)
            for t in g.tricks
            for p in t["plays"]
            for c in paiju.cards.parse_cards(p["cards"])
        )
    for _seat, ids in g.declarations:
        if opts["declare_with_joker"] and any(c > 1 for c in ids):
            assert sum(c <= 1 for c in ids) == 1  # one joker shown with the level cards
            if opts["declare_with_joker"] == "by_colour":  # BJ (id 0) with a red suit, SJ with a black one
                suit = paiju.cards.SUITS[ID_SUIT[max(ids)]]
                assert (min(ids) == BJ_ID) == (suit in "hd")
    for s in range(4):
        v = g.view(s)
        json.dumps(v)
        assert v["kitty"] == [paiju.Card.parse(x).__str__() for x in v["kitty"]]
    rec = json.loads(json.dumps(g.record()))
    g2 = paiju.replay(rec)
    assert g2.record() == g.record()
    assert all(g2.view(s) == g.view(s) for s in (0, 1, 2, 3, None))
    return g


@settings(max_examples=25, deadline=None)
@given(DECKS, SEEDS, st.integers(0, 2**16))
def test_random_hands(decks: int, seed: int, opt: int) -> None:
    check_random_hand(decks, seed, options(opt, decks))


VARIANTS = [
    (1, {"declare_with_joker": True}),
    (2, {"declare_with_joker": True}),
    (3, {"declare_with_joker": True, "twos_trump": True}),
    (1, {"two_colours": True}),
    (1, {"two_colours": True, "declare_with_joker": True, "kitty_steal": True}),
    (1, {"kitty_steal": True}),
    (2, {"kitty_steal": True}),
    (2, {"kitty_steal": True, "self_overturn": True, "no_bid": "no_trump"}),
    (3, {"kitty_steal": True}),
    (3, {"triples": True}),
    (3, {"triples": True, "twos_trump": True, "throw_evaluation": "all"}),
    (3, {"triples": True, "kitty_steal": True, "declare_with_joker": True}),
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(VARIANTS), SEEDS, st.integers(0, 2**16))
def test_random_hands_with_each_variant_on(variant: tuple[int, dict[str, Any]], seed: int, opt: int) -> None:
    decks, on = variant
    opts = {**options(opt, decks), **on}
    g = check_random_hand(decks, seed, opts)
    if opts["kitty_steal"]:
        burials = g._burials
        assert burials[0][0] == g.declarer and all(len(b[2]) == g.kitty_size for b in burials)
        assert list(burials[-1][2]) == g.buried
        for (_, _, buried), (_, received, _) in zip(burials, burials[1:]):
            assert buried == received  # each stealer picks up the kitty just buried
        assert g.tricks[0]["leader"] == g.declarer  # the declarer leads, stolen kitty or not


@settings(max_examples=30, deadline=None)
@given(DECKS, SEEDS, st.integers(0, 3), st.integers(0, 2**16))
def test_later_hands_with_cannot_declare_passes_deal(decks: int, seed: int, declarer: int, opt: int) -> None:
    """亮不起牌 (``cannot_declare_passes_deal``): a later hand is void exactly when neither
    declarer holds a declaration (a level card — with a joker of its colour under
    ``declare_with_joker`` — or two identical jokers); then the other team deals."""
    opts = {**options(opt, decks), "cannot_declare_passes_deal": True, "kitty_steal": False}
    opts["declare_with_joker"] = random.Random(opt).choice([False, True, "by_colour", "by_colour"])
    g = paiju.new_game("shengji", seed=seed, decks=decks, declarer=declarer, team_levels=["A", "K"], **opts)
    dealt = [counts_of(card_id(c) for c in _dealt_hand(g, s)) for s in range(4)]
    play_out(g, random.Random(seed))
    level = g.level

    def could(cnt: Any) -> bool:
        if cnt.get(SJ_ID, 0) >= 2 or cnt.get(BJ_ID, 0) >= 2:
            return True
        for c in cnt:
            if c > 1 and paiju.shengji.trump.ID_RANK[c] == level:
                how, red = opts["declare_with_joker"], paiju.cards.SUITS[ID_SUIT[c]] in "hd"
                if (
                    not how
                    or (cnt.get(BJ_ID) and (how is True or red))
                    or (cnt.get(SJ_ID) and (how is True or not red))
                ):
                    return True
        return False

    passed = not (could(dealt[declarer]) or could(dealt[(declarer + 2) % 4]))
    assert bool(g.result.get("deal_passed")) == passed
    if passed:
        assert g.scores == (0, 0, 0, 0) and g.tricks == [] and g.result["team_levels"] == ["A", "K"]
        assert g.next_hand_options()["declarer"] == (declarer + 1) % 4
        assert paiju.replay(json.loads(json.dumps(g.record()))).view(None) == g.view(None)


@settings(max_examples=20, deadline=None)
@given(DECKS, SEEDS, st.integers(0, 2**16))
def test_replay_and_clone_midway(decks: int, seed: int, opt: int) -> None:
    rng = random.Random(seed)
    g = paiju.new_game("shengji", seed=seed, decks=decks, **options(opt, decks))
    stop = rng.randrange(40, 60 * decks + 80)
    while not g.is_over and len(g.history) < stop:
        g.apply(random_action(g, rng))
    c = g.clone()
    assert c.record() == g.record() and all(c.view(s) == g.view(s) for s in range(4))
    before = (json.dumps(g.record()), [json.dumps(g.view(s)) for s in range(4)])
    rng2 = random.Random(seed + 1)
    while not c.is_over:
        c.apply(random_action(c, rng2))
    assert (json.dumps(g.record()), [json.dumps(g.view(s)) for s in range(4)]) == before
    g2 = paiju.replay(json.loads(json.dumps(g.record())))
    assert g2.record() == g.record() and all(g2.view(s) == g.view(s) for s in (0, 1, 2, 3, None))
    # the same actions on the original reach the clone's end
    for a in c.history[len(g.history) :]:
        g.apply(a)
    assert g.record() == c.record() and g.scores == c.scores


@settings(max_examples=20, deadline=None)
@given(DECKS, SEEDS, st.integers(0, 3), st.integers(0, 10**6), st.integers(0, 2**16))
def test_no_leak_of_hidden_cards(decks: int, seed: int, seat: int, pick: int, opt: int) -> None:
    rng = random.Random(seed)
    opts = options(opt, decks)
    g = paiju.new_game("shengji", seed=seed, decks=decks, **opts)
    deal = [" ".join(str(c) for c in _dealt_hand(g, s)) for s in range(4)] + [
        " ".join(paiju.shengji.trump.ID_TEXT[c] for c in g.kitty)
    ]
    a, b = [s for s in range(4) if s != seat][:2] if pick % 2 else [s for s in range(4) if s != seat][1:]
    ha, hb = deal[a].split(), deal[b].split()
    i, j = pick % len(ha), (pick // 7) % len(hb)
    if ha[i] == hb[j]:
        return
    swapped = [ha[i], hb[j]]
    ha[i], hb[j] = hb[j], ha[i]
    deal2 = list(deal)
    deal2[a], deal2[b] = " ".join(ha), " ".join(hb)
    g1 = paiju.new_game("shengji", seed=seed, decks=decks, deal=deal, **opts)
    g2 = paiju.new_game("shengji", seed=seed, decks=decks, deal=deal2, **opts)
    stop = None
    while not g1.is_over:
        assert g1.to_act == g2.to_act
        assert g1.view(seat) == g2.view(seat)
        act = random_action(g1, rng)
        if g1.phase == "play" and not g1.view(None)["trick"] and len(decompose(counts_of(act.cards), g1.order)) > 1:
            if rng.random() < 0.1:
                stop = "throw"  # checked against the hidden hands, it may show them
                break
            act = g1.parse_action(str(rng.choice(g1.hand(g1.to_act))))  # lead a single and play on
        if any(x in str(act).split() for x in swapped):
            stop = "swapped card"
            break
        try:
            g2.apply(str(act))
        except paiju.IllegalAction:
            # the swap may change what a holder of the swapped cards may do, nobody else
            assert g1.to_act in (a, b), f"seat {g1.to_act} may {act} only with the cards of {a} and {b} as dealt"
            stop = "own cards"
            break
        g1.apply(act)
    # every card in a hand is played (or buried) before the hand ends: the loop cannot run out
    assert stop is not None, f"the hand ended with {swapped} never played"


def _dealt_hand(g: Any, seat: int) -> list[Any]:
    return [paiju.shengji.trump.ID_CARD[c] for s, c in g._order_of_deal if s == seat]


@settings(max_examples=15, deadline=None)
@given(DECKS, SEEDS, st.integers(0, 2**16))
def test_policies_are_legal(decks: int, seed: int, opt: int) -> None:
    g = paiju.new_game("shengji", seed=seed, decks=decks, **options(opt, decks))
    rng = random.Random(seed)
    while not g.is_over:
        a = hosted_action(g)
        assert a in g.legal_actions()
        if g.phase == "play":
            h = hint(g)
            assert h in g.legal_actions()
            a = h if rng.random() < 0.5 else a
        g.apply(a)
    assert sum(g.scores) == 0


@settings(max_examples=6, deadline=None)
@given(DECKS, SEEDS, st.integers(0, 2**16))
def test_match_carries_levels_and_declarer(decks: int, seed: int, opt: int) -> None:
    m = paiju.new_match("shengji", seed=seed, decks=decks, hands=3, **options(opt, decks))
    rng = random.Random(seed)
    total = [0, 0, 0, 0]
    for h in range(3):
        g = m.game
        play_out(g, rng, check_every=50)
        total = [x + y for x, y in zip(total, g.scores)]
        assert m.standings == total and sum(m.standings) == 0
        if h < 2 and not g.match_over:
            r = g.result
            nxt = m.next_hand()
            assert nxt.declarer == r["next_declarer"]
            assert nxt.options["team_levels"] == r["team_levels"]
            up = r["team_up"]
            assert paiju.shengji.trump.rank_of_text(r["team_levels"][up]) >= g.team_levels[up]
        else:
            break


def titanic_or_triple_lead(g: Any, rng: random.Random) -> Any:
    """A lead of a 泰坦尼克 or a triple the leader holds (random leads seldom are), else None."""
    t = g.order
    cnt = g._counts[g.to_act]
    trip = sorted(c for c in range(NUM_IDS) if cnt[c] >= 3)
    pairs = [(a, b) for a in trip for b in trip if t.psuit[a] == t.psuit[b] and t.order[a] == t.order[b] + 1]
    if pairs and rng.random() < 0.7:
        a, b = rng.choice(pairs)
        return paiju.shengji.Play(tuple(sorted((a, a, a, b, b, b))))
    if trip:
        c = rng.choice(trip)
        return paiju.shengji.Play((c, c, c))
    return None


@settings(max_examples=30, deadline=None)
@given(SEEDS, st.integers(0, 2**16))
def test_triples_leads_and_follows(seed: int, opt: int) -> None:
    """3 packs with ``triples``: leaders lead their 泰坦尼克 and triples when they hold some;
    every follow drawn from ``legal_actions()`` is legal, the lead's own play qualifies,
    cards are conserved, scores sum to zero and the record replays."""
    rng = random.Random(seed)
    g = paiju.new_game("shengji", seed=seed, decks=3, **{**options(opt, 3), "triples": True})
    while not g.is_over:
        a = titanic_or_triple_lead(g, rng) if g.phase == "play" and g.is_leading() else None
        if a is None:
            a = random_action(g, rng)
        else:
            assert a in g.legal_actions()
        g.apply(a)
        if g.phase == "play" and not g.is_leading() and g._lead_shape[0] >= 100:
            legal = g.legal_actions()
            assert len(legal) > 0
            for p in list(legal)[:50]:
                assert g._play_problem(g.to_act, p.cards) is None
    check_conservation(g)
    assert sum(g.scores) == 0
    g2 = paiju.replay(json.loads(json.dumps(g.record())))
    assert g2.record() == g.record()
