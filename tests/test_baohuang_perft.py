"""Perft for cards: the number of legal actions at fixed positions, pinned.

Like python-chess's perft node counts, a pinned count catches missing and extra actions
at once. Two kinds of pins:

* small explicit deals whose counts are derived by hand in the comments (so each pin is
  a statement of the rules, not a snapshot), and
* fixed seeds of every preset: the count at the first lead and at the first follows is
  checked against a closed formula computed from the hand *and* pinned; the number of
  decisions of a random playout with a fixed generator is pinned (a snapshot: any change
  in any legal list along the way moves it).

Lead-count formula (no 憋6, no hidden role card): a lead is ``n`` cards of one ordinary
rank (1 ≤ n ≤ count of that rank) plus ``s`` small and ``b`` big jokers, or jokers alone:

    leads = Σ_r c_r · (S+1)(B+1) + (S+1)(B+1) − 1

where ``c_r`` is the count of ordinary rank ``r``, ``S``/``B`` the small/big jokers held
(the −1 removes "no cards at all"). Reveal twins: the holder of a hidden role card has two
actions for each play that can be made both with and without it, and one (with it) for
a play that needs every copy — for the guard card SJ* the joker factor ``S+1`` becomes
``2S``. 憋6: the held rank is left out of Σ, plus one whole-hand play when only the held
rank (and jokers) remain.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import paiju
from paiju.baohuang import PASS, YIELD, hosted_action
from paiju.baohuang.plays import BJ, SJ, strength
from paiju.cards import BIG_JOKER, SMALL_JOKER, Card

GUARD_CARD = Card(SMALL_JOKER, None, True)


def to_play(g: Any) -> Any:
    """Answer every pre-play question with the 托管 default (accept, call the automatic
    triple, no to everything else)."""
    while g.phase != "play":
        g.apply(hosted_action(g))
    return g


def legal(g: Any) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def lead_formula(hand: list[Card], *, twin_sj: bool = False) -> int:
    c = Counter(strength(x) for x in hand)
    S, B = c[SJ], c[BJ]
    ordinary = sum(v for r, v in c.items() if r < SJ)
    jokers = (B + 1) * (2 * S if twin_sj and S else S + 1)
    return ordinary * jokers + jokers - 1


def single_follow_formula(g: Any, lead_strength: int) -> int:
    """Actions of the seat to act facing a single ordinary card: one single per distinct
    higher rank, SJ and BJ if held, the twin with a hidden role card if a plain copy
    exists too, pass (and 让牌)."""
    seat = g.to_act
    hand = g.hand(seat)
    c = Counter(strength(x) for x in hand)
    n = len({r for r in c if lead_strength < r < SJ}) + (c[SJ] > 0) + (c[BJ] > 0)
    if not g.guard_revealed and g.solo != "open":
        if GUARD_CARD in hand:
            n += c[SJ] >= 2  # "SJ" and "SJ*"; with one SJ only "SJ*"
        elif g.called is not None and seat != g.emperor and g.called in hand:
            rs = strength(g.called)
            n += rs > lead_strength and c[rs] >= 2
    return n + 1 + (g.options["yield_turn"] and 1)


# ------------------------------------------------------------ small deals, by hand


def test_small_deal_standard() -> None:
    deal = ["BJ* SJ 7 7 7 9", "SJ* 8 8 T", "BJ K K", "SJ 2 3", "A A A A"]
    g = paiju.new_game("baohuang", seed=1, deal=deal)
    # setup: seat 0 holds BJ* and accepts; no 抢独 in standard; 明保 asked of seats
    # 1-4, then 造反 asked of seats 1-4 (the guard, seat 1, too): 1 + 4 + 4 = 9
    to_play(g)
    assert len(g.history) == 9 and g.emperor == 0 and g.guard == 1
    # lead of seat 0: ordinary 7,7,7,9 → Σc = 4; S = 1, B = 1 → 4·2·2 + 2·2 − 1 = 19
    assert len(g.legal_actions()) == 19 == lead_formula(g.hand(0))
    assert legal(g)[:4] == ["7", "SJ 7", "BJ 7", "BJ SJ 7"]
    g.apply("77")
    # seat 1 (SJ* 8 8 T) beats 77 with two cards each higher than 7: 88; SJ+8 and SJ+T
    # exist only with the guard card (his one SJ), so only as "SJ* 8", "SJ* T"; + pass
    assert legal(g) == ["88", "SJ* 8", "SJ* T", "pass"]
    g.apply("pass")
    # seat 2 (BJ K K): KK, BJ K; + pass
    assert legal(g) == ["KK", "BJ K", "pass"]
    g.apply("pass")
    # seat 3 (SJ 2 3): SJ 2 (a 2 beats a 7); SJ 3 does not (3 < 7); + pass
    assert legal(g) == ["SJ 2", "pass"]
    g.apply("pass")
    # seat 4 (A A A A): only AA has two cards; + pass
    assert legal(g) == ["AA", "pass"]


def test_small_deal_kao_and_passing_twice() -> None:
    deal = ["BJ* SJ 5 5", "SJ* SJ SJ 9 9", "BJ BJ BJ Q", "3 3", "A"]
    g = to_play(paiju.new_game("baohuang", seed=1, deal=deal, kao=True))
    # lead: Σc = 2, S = 1, B = 1 → 2·4 + 4 − 1 = 11
    assert len(g.legal_actions()) == 11 == lead_formula(g.hand(0))
    g.apply("BJ")  # with 烤牌 a big joker can be beaten: the trick goes on
    # an old BJ is faced by BJ BJ or SJ SJ SJ; seat 1 has one BJ and three SJ, the
    # three SJ include the guard card → only "SJ* SJ SJ"; + pass
    assert legal(g) == ["SJ* SJ SJ", "pass"]
    g.apply("pass")
    # seat 2: BJ BJ; BJ BJ BJ would leave a card outside every group; + pass
    assert legal(g) == ["BJ BJ", "pass"]
    g.apply("BJ BJ")
    # nobody has four BJ or six SJ: seats 3, 4, 0 pass, and seat 1, who passed
    # before, is asked again (pass_is_final is off) → 4 one-action positions
    for seat in (3, 4, 0, 1):
        assert g.to_act == seat and legal(g) == ["pass"]
        g.apply("pass")
    # seat 2 leads with BJ Q: Σc = 1, S = 0, B = 1 → 1·2 + 2 − 1 = 3
    assert g.to_act == 2 and legal(g) == ["Q", "BJ Q", "BJ"]


def test_small_deal_hold_sixes() -> None:
    deal = ["BJ* 5 6 6 8", "SJ* 6 9", "6", "SJ 6 6", "BJ 4"]
    g = to_play(paiju.new_game("baohuang", seed=1, deal=deal, hold_sixes=True))
    # 憋6: the 6s are left out while other cards remain: Σc = 2 (5, 8), S = 0, B = 1
    # → 2·2 + 2 − 1 = 5
    assert legal(g) == ["5", "BJ 5", "8", "BJ 8", "BJ"]
    g.apply("5")
    # seat 1: 6 is held back, 9; SJ only as the guard card; + pass
    assert legal(g) == ["9", "SJ*", "pass"]
    g.apply("pass")
    # seat 2: its single 6 empties its hand, so it may be played
    assert legal(g) == ["6", "pass"]
    g.apply("pass")
    assert legal(g) == ["SJ", "pass"]  # seat 3: SJ, but not a 6 of two
    g.apply("pass")
    assert legal(g) == ["BJ", "pass"]  # seat 4
    g.apply("pass")
    assert legal(g) == ["8", "BJ 8", "BJ"]  # seat 0 leads again: 1·2 + 2 − 1
    g.apply("8")
    for _ in range(4):
        g.apply("pass")
    # BJ* 6 6 left: the jokers alone, or everything at once (the whole-hand play)
    assert legal(g) == ["BJ", "BJ 66"]
    g.apply("BJ")  # nothing beats a big joker: the others pass by themselves
    assert g.to_act == 0 and legal(g) == ["66"]


def test_small_deal_hidden_solo_twins() -> None:
    deal = ["BJ* SJ* SJ 9 9 K", "8", "7", "5", "4"]
    g = to_play(paiju.new_game("baohuang", seed=1, deal=deal))
    assert g.solo == "hidden" and g.view(1)["solo"] is None
    # Σc = 3, S = 2, B = 1. Joker parts per BJ count: no SJ (1), one SJ plain or SJ*
    # (2), both SJ = needs SJ* (1) → 2S = 4; (B+1)·2S = 8 → 3·8 + 8 − 1 = 31
    # (23 without the twins)
    assert len(g.legal_actions()) == 31 == lead_formula(g.hand(0), twin_sj=True)
    assert lead_formula(g.hand(0)) == 23


def test_small_deal_called_guard_twins() -> None:
    deal = ["BJ* Ah Ah Ah 9 9", "Ah Ad K", "BJ SJ", "SJ 3", "Q Q"]
    g = paiju.new_game("baohuang", seed=1, variant="classic", deal=deal)
    to_play(g)
    # accept, call Ah, 抢独 asked of 4, 1, 2, 3 … (4 seats), 明保 4, 造反 4: 14
    assert [str(a) for a in g.history[:2]] == ["accept", "call Ah"] and len(g.history) == 14
    assert g.guard == 1
    # lead: Σc = 5 (Ah Ah Ah 9 9), S = 0, B = 1 → 5·2 + 2 − 1 = 11
    assert len(g.legal_actions()) == 11 == lead_formula(g.hand(0))
    single = g.clone()
    single.apply("9")
    # seat 1 (Ah Ad K) over a 9: K; A with the plain Ad; "Ah" shows the guard; pass
    assert legal(single) == ["K", "A", "Ah", "pass"] and len(single.legal_actions()) == single_follow_formula(
        single, strength(Card.parse("9"))
    )
    pair = g.clone()
    pair.apply("99")
    # AA needs both aces, the called Ah among them: only "Ah A"; pass
    assert legal(pair) == ["Ah A", "pass"]


# ------------------------------------------------------------ seeded presets

# (variant, seed): setup decisions, leads of the emperor, actions of the followers of
# the hosted lead (the lowest single) while they pass, decisions of a uniform random
# playout with random.Random(seed)
PINS = {
    ("standard", 7): (9, 245, [14, 14, 14, 13], 390),
    ("standard", 2024): (9, 167, [14, 14, 14, 15], 329),
    ("classic", 7): (15, 89, [15, 14, 14, 14], 309),
    ("classic", 2024): (14, 167, [14, 14, 14, 15], 340),
    ("weihai", 7): (13, 185, [11, 10, 10, 12], 294),
    ("weihai", 2024): (13, 127, [11, 10, 12, 12], 169),
    ("qingdao", 7): (15, 179, [16, 15, 15, 15], 403),
    ("qingdao", 2024): (14, 167, [15, 15, 15, 16], 331),
}


@pytest.mark.parametrize(("variant", "seed"), sorted(PINS))
def test_seeded_counts(variant: str, seed: int) -> None:
    setup, leads, follows, playout = PINS[variant, seed]
    g = to_play(paiju.new_game("baohuang", seed=seed, variant=variant))
    assert len(g.history) == setup
    emp = g.to_act
    assert emp == g.emperor
    hidden_solo_card = g.solo == "hidden" and GUARD_CARD in g.hand(emp)
    assert len(g.legal_actions()) == leads == lead_formula(g.hand(emp), twin_sj=hidden_solo_card)
    lead = hosted_action(g)
    assert lead.n == lead.size == 1  # an ordinary single (the formula below assumes it)
    g.apply(lead)
    got = []
    while len(got) < 4 and not g.is_leading():
        n = len(g.legal_actions())
        assert n == single_follow_formula(g, lead.rank)
        assert PASS in g.legal_actions() and (YIELD in g.legal_actions()) == g.options["yield_turn"]
        got.append(n)
        g.apply(PASS)
    assert got == follows

    h = paiju.new_game("baohuang", seed=seed, variant=variant)
    rng = random.Random(seed)
    n = 0
    while not h.is_over:
        actions = h.legal_actions()
        h.apply(actions[rng.randrange(len(actions))])
        n += 1
    assert n == playout
    assert sum(h.scores) == 0


def test_lead_formula_on_every_seat_of_a_deal() -> None:
    """Every seat's lead count on one deal follows the formula — each seat is made the
    emperor by giving it the emperor card (deal=), so that it leads."""
    base = paiju.new_game("baohuang", seed=99)
    hands = [base.hand(s) for s in range(5)]
    holder = next(s for s in range(5) if Card(BIG_JOKER, None, True) in hands[s])
    counts = []
    for seat in range(5):
        deal = [list(h) for h in hands]
        # swap the emperor card with one card of seat ``seat`` if it is elsewhere
        if seat != holder:
            give = deal[seat][0]
            deal[holder][deal[holder].index(Card(BIG_JOKER, None, True))] = give
            deal[seat][0] = Card(BIG_JOKER, None, True)
        g = to_play(paiju.new_game("baohuang", seed=99, deal=[" ".join(map(str, h)) for h in deal]))
        assert g.to_act == seat
        twin = g.solo == "hidden"
        assert len(g.legal_actions()) == lead_formula(g.hand(seat), twin_sj=twin)
        counts.append(len(g.legal_actions()))
    assert counts == [87, 167, 167, 245, 319]
