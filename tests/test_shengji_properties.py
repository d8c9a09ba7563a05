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
from paiju.shengji.trump import POINTS, card_id, ids_of

DECKS = st.sampled_from([1, 2, 3])
SEEDS = st.integers(0, 2**32)


def options(draw_int: int) -> dict[str, Any]:
    r = random.Random(draw_int)
    return {
        "twos_trump": r.random() < 0.3,
        "no_bid": r.choice(["kitty_card:3", "kitty_card:1", "no_trump"]),
        "kitty_multiplier": r.choice(["pairs_power", "unit_size", "competition"]),
        "level_table": r.choice(["default", "competition"]),
        "throw_penalty": r.choice([0, 10]),
        "throw_evaluation": r.choice(["largest_unit", "all", "highest"]),
        "self_overturn": r.random() < 0.3,
    }


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
    assert total == Counter(card_id(c) for c in packs(g.decks))


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


@settings(max_examples=25, deadline=None)
@given(DECKS, SEEDS, st.integers(0, 2**16))
def test_random_hands(decks: int, seed: int, opt: int) -> None:
    rng = random.Random(seed)
    g = paiju.new_game("shengji", seed=seed, decks=decks, **options(opt))
    play_out(g, rng)
    check_conservation(g)
    assert sum(g.scores) == 0
    all_points = sum(t["points"] for t in g.tricks) + sum(POINTS[c] for c in g.buried)
    assert all_points == 100 * decks
    r = g.result
    assert r["defender_points"] == r["trick_points"] + r["kitty_bonus"] + r["penalty_points"]
    for s in range(4):
        v = g.view(s)
        json.dumps(v)
        assert v["kitty"] == [paiju.Card.parse(x).__str__() for x in v["kitty"]]
    rec = json.loads(json.dumps(g.record()))
    g2 = paiju.replay(rec)
    assert g2.record() == g.record()
    assert all(g2.view(s) == g.view(s) for s in (0, 1, 2, 3, None))


@settings(max_examples=20, deadline=None)
@given(DECKS, SEEDS)
def test_replay_and_clone_midway(decks: int, seed: int) -> None:
    rng = random.Random(seed)
    g = paiju.new_game("shengji", seed=seed, decks=decks)
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
@given(DECKS, SEEDS, st.integers(0, 3), st.integers(0, 10**6))
def test_no_leak_of_hidden_cards(decks: int, seed: int, seat: int, pick: int) -> None:
    rng = random.Random(seed)
    g = paiju.new_game("shengji", seed=seed, decks=decks)
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
    g1 = paiju.new_game("shengji", seed=seed, decks=decks, deal=deal)
    g2 = paiju.new_game("shengji", seed=seed, decks=decks, deal=deal2)
    steps = 0
    while not g1.is_over:
        assert g1.to_act == g2.to_act
        assert g1.view(seat) == g2.view(seat)
        act = random_action(g1, rng)
        if g1.phase == "play" and not g1.view(None)["trick"] and len(act.cards) > 1:
            break  # a throw: checked against the hidden hands, it may show them
        if any(x in str(act).split() for x in swapped):
            break
        try:
            g2.apply(str(act))
        except paiju.IllegalAction:
            break  # the swap changed what that seat may do (its own cards)
        g1.apply(act)
        steps += 1
    assert steps >= 0


def _dealt_hand(g: Any, seat: int) -> list[Any]:
    return [paiju.shengji.trump.ID_CARD[c] for s, c in g._order_of_deal if s == seat]


@settings(max_examples=15, deadline=None)
@given(DECKS, SEEDS)
def test_policies_are_legal(decks: int, seed: int) -> None:
    g = paiju.new_game("shengji", seed=seed, decks=decks)
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
@given(DECKS, SEEDS)
def test_match_carries_levels_and_declarer(decks: int, seed: int) -> None:
    m = paiju.new_match("shengji", seed=seed, decks=decks, hands=3)
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
