"""Property tests of a Baohuang match (check 9 of ``baohuang_property_checks.py``): over
three hands the standings are the sum of the hands' scores and sum to 0; the next hand's
deal start and Qingdao's tribute (§6).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import paiju
from baohuang_property_checks import check_cards, play_hand
from baohuang_property_helpers import SEATS, Chooser, choosers, dealt_sizes
from paiju.baohuang import PRESETS, tribute_plan
from paiju.baohuang.plays import strength
from paiju.cards import Card

# -------------------------------------------------------------------------- match


def check_tribute(g: Any, rng: random.Random) -> None:
    """§6: right after the deal each giver gives its highest cards, as many as the plan
    says; once the receivers have picked, every receiver holds its share."""
    plan = g.options["tribute_due"]
    ev = [e for e in g.view(None)["events"] if e.get("event") == "tribute"][-1]
    given = Counter(giver for giver, _ in ev["cards"])
    assert given == Counter({giver: n for giver, n in plan["givers"]})
    for giver, card in ev["cards"]:
        rest = [strength(c) for c in g.hand(giver) if not c.marked]
        assert strength(Card.parse(card)) >= max(rest)
    while g.step == "tribute":  # receivers pick 吃贡
        picks = g.legal_actions()
        assert all(a.name == "take" for a in picks)
        g.apply(picks[rng.randrange(len(picks))])
    expect = dealt_sizes(g.options)
    for giver, n in plan["givers"]:
        expect[giver] -= n
    for receiver, n in plan["receivers"]:
        expect[receiver] += n
    assert g.view(None)["hand_counts"] == expect
    check_cards(g)


@settings(max_examples=12)
@given(
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(sorted(PRESETS)),
    chooser=choosers,
    kao=st.booleans(),
    deal_start=st.sampled_from(["first_finisher", "previous_emperor"]),
)
def test_match_of_three_hands(seed: int, variant: str, chooser: Chooser, kao: bool, deal_start: str) -> None:
    """Check 9: standings are the sum of the hands' scores and sum to 0; the next hand
    is dealt from the previous first finisher (or emperor) and carries Qingdao's
    tribute."""
    m = paiju.new_match("baohuang", seed=seed, variant=variant, kao=kao, deal_start=deal_start, hands=3)
    for k in range(3):
        g = m.game
        play_hand(g, chooser, sample=0.05)
        if k < 2:
            assert not m.is_over
            nxt = m.next_hand()
            assert nxt is m.game and m.hand_number == k + 2
            pub = g.view(None)
            first = pub["finished"][0] if deal_start == "first_finisher" else pub["emperor"]
            assert nxt.options["first_seat"] == first
            due = nxt.options["tribute_due"]
            if variant == "qingdao":
                assert due == tribute_plan(pub["emperor"], pub["guard"], pub["places"])
            else:
                assert due is None
            if due:
                check_tribute(nxt, chooser.rng)
            else:
                assert [len(nxt.hand(s)) for s in SEATS] == dealt_sizes(nxt.options)
            check_cards(nxt)
    assert m.is_over
    assert m.hand_number == 3
    standings = m.standings
    assert sum(standings) == 0
    assert standings == [sum(h.scores[s] for h in m.games) for s in SEATS]
    with pytest.raises(paiju.IllegalAction):
        m.next_hand()
