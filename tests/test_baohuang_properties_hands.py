"""Property tests of the Baohuang engine over whole random hands: random rooms and deals
played out with every check of ``baohuang_property_checks.py`` (checks 1–8), the four
presets at every position, the deal (§1), 让位 in every variant, follows on joker-rich
deals against the brute-force enumeration, and an explicit deal of a seeded game.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baohuang_property_checks import check_cards, check_legal, check_replay, play_hand
from baohuang_property_helpers import (
    EMPEROR_CARD,
    GUARD_CARD,
    SEATS,
    Chooser,
    choosers,
    dealt_sizes,
    legal_texts,
    new,
    rooms,
    swap,
)
from paiju.baohuang import PRESETS, hosted_action
from paiju.cards import format_cards

# -------------------------------------------------------------------------- the tests


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), opts=rooms(), chooser=choosers)
def test_random_hands(seed: int, opts: dict[str, Any], chooser: Chooser) -> None:
    """Checks 1–8 over whole random hands of random rooms."""
    g = new(seed, opts)
    play_hand(g, chooser, sample=0.15)


@settings(max_examples=16)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(sorted(PRESETS)), chooser=choosers)
def test_presets_every_position(seed: int, variant: str, chooser: Chooser) -> None:
    """The four presets as published, with every check at every position."""
    g = new(seed, {"variant": variant})
    play_hand(g, chooser, sample=1.0)


@given(seed=st.integers(0, 2**32), opts=rooms(tribute_due=False))
def test_deal(seed: int, opts: dict[str, Any]) -> None:
    """§1: the whole deck is dealt one card at a time from the first seat (first seat 44,
    others 43; no345: first three 34, others 33; weihai: 33 each); the holder of the
    emperor card answers first."""
    g = new(seed, opts)
    assert [len(g.hand(s)) for s in SEATS] == dealt_sizes(g.options)
    check_cards(g)
    assert g.phase == "setup" and g.step == "emperor"
    assert EMPEROR_CARD in g.hand(g.to_act)
    assert g.view(None)["emperor_card_holder"] == g.to_act
    assert g.view(None)["roles"] == [None] * 5


@settings(max_examples=40)
@given(
    seed=st.integers(0, 2**32),
    abdication=st.sampled_from(["standard", "classic", "qingdao", "weihai"]),
    chooser=choosers,
    rebellion=st.booleans(),
)
def test_abdication_paths(seed: int, abdication: str, chooser: Chooser, rebellion: bool) -> None:
    """让位 in every variant, pushed hard: the emperor card is declined wherever it may be
    (attachments, 逼庄, redeals after two cycles; in weihai the deal gives the first holder
    both marked jokers so that he may pass the card on), then the hand is played out."""
    opts: dict[str, Any] = {
        "guard": "call" if abdication in ("classic", "qingdao") else "card",
        "abdication": abdication,
        "rebellion": rebellion,
    }
    chooser.setup_random = -1.0  # contrary: abdicate, rebel, kick, reveal
    g = new(seed, opts)
    if abdication == "weihai":
        hands = [g.hand(s) for s in SEATS]
        holder = g.to_act
        guard = next(s for s in SEATS if GUARD_CARD in hands[s])
        if guard != holder:
            hands = swap(hands, holder, hands[holder][0], guard, GUARD_CARD)
        g = new(seed, opts, deal=[format_cards(h) for h in hands])
        assert "abdicate" in legal_texts(g)
    play_hand(g, chooser, sample=0.05)


@settings(max_examples=150)
@given(
    seed=st.integers(0, 2**32),
    kao=st.booleans(),
    hold=st.booleans(),
    sizes=st.tuples(st.integers(1, 9), st.integers(1, 9)),
    ranks=st.lists(st.sampled_from("3456789TJQKA2"), min_size=1, max_size=3, unique=True),
)
def test_follows_on_joker_rich_deals(
    seed: int, kao: bool, hold: bool, sizes: tuple[int, int], ranks: list[str]
) -> None:
    """Small explicit deals from a few ranks and all eight jokers, so that joker plays,
    烤牌 groups, 憋6 and the guard card's twins meet often: every lead and every follow
    of the first tricks is compared with the brute-force enumeration."""
    rng = random.Random(seed)
    pool = [r for r in ranks for _ in range(16)] + ["SJ"] * 3 + ["BJ"] * 3
    rng.shuffle(pool)
    n0, n1 = sizes
    deal = [["BJ*", *pool[:n0]], pool[n0 : n0 + n1]]
    rest = pool[n0 + n1 :]
    deal += [rest[3 * k : 3 * k + 3] for k in range(3)]
    deal[rng.choice([0, 1, 1, 2])].append("SJ*")  # the guard: often the first follower
    opts: dict[str, Any] = {"kao": kao, "hold_sixes": hold, "hold_rank": ranks[0]}
    g = new(seed, opts, deal=[" ".join(h) for h in deal])
    while g.phase == "setup":
        g.apply(hosted_action(g))
    for _ in range(30):
        if g.is_over:
            break
        legal = g.legal_actions()
        check_legal(g, legal, full=True)
        g.apply(legal[rng.randrange(len(legal))])
    check_cards(g)


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), opts=rooms(tribute_due=False), data=st.data())
def test_explicit_deal_of_a_seeded_game_is_the_same_game(seed: int, opts: dict[str, Any], data: Any) -> None:
    """``deal=`` with the hands a seed deals gives the same game (the record of an
    explicit deal carries it)."""
    g = new(seed, opts)
    deal = [format_cards(g.hand(s)) for s in SEATS]
    h = new(seed, opts, deal=deal)
    assert h.record()["deal"] == deal
    chooser = data.draw(choosers)
    while not g.is_over and g.deals == 1:  # a redeal draws from the seed's generator
        assert h.to_act == g.to_act and [h.view(s) for s in SEATS] == [g.view(s) for s in SEATS]
        legal = g.legal_actions()
        a = legal[chooser.index(g, legal)]
        g.apply(a)
        h.apply(str(a))
    if g.is_over:
        assert h.is_over and h.scores == g.scores
    check_replay(h)
