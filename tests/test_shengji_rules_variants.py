"""Shengji 升级 variants: two_colours (§8), kitty_steal 抢底 (§5) and triples 泰坦尼克 (§9),
through the pure helpers and through the engine.
"""

from __future__ import annotations

import pytest

import paiju
from paiju import IllegalAction
from paiju.shengji import is_legal_follow, kitty_multiplier, level_change, resolve_throw, trick_winner
from paiju.shengji.trump import ids_of, trump_order
from paiju.shengji.units import counts_of, decompose
from shengji_helpers import S10, build_deal, to_play

# ---------------------------------------------------------------------------- two_colours (§8)
C1 = dict(decks=1, two_colours=True)


def test_two_colours_pairs_are_same_rank_same_colour() -> None:
    # ♥K♦K is a pair, ♣K♠K is a pair: following a red pair lead, a red pair must be played
    assert is_legal_follow("5h 5d", "Ah Qh Qd 3s", "Qh Qd", **S10, **C1)
    assert not is_legal_follow("5h 5d", "Ah Qh Qd 3s", "Ah Qh", **S10, **C1)
    assert trick_winner(["5h 5d", "Ah Kd", "6d 6h"], **S10, **C1) == 2  # 66 is a pair, AK is not
    assert trick_winner(["5h 5d", "Kc Ks", "6d 6h"], trump_suit="c", level="T", **C1) == 1  # black pair trumps
    # ♥K♠K is no pair: not even one suit (spades trump) — the follower may not treat it as a pair
    assert trick_winner(["5h 5d", "Kh Ks"], **S10, **C1) == 0
    with pytest.raises(IllegalAction, match="mixes"):
        trick_winner(["5h 5d", "Ah Kd"], **S10, decks=1)  # four suits: ♥5♦5 is not even one suit
    with pytest.raises(IllegalAction, match="mixes"):
        trick_winner(["Kh Ks", "3h 4h"], trump_suit=None, level="T", **C1)


def test_two_colours_spec_examples_kh_kd_and_kc_ks() -> None:
    # ♥K♦K is a pair, ♣K♠K is a pair, ♥K♠K is not (§8)
    assert trick_winner(["Qh Qd", "Kh Kd"], **S10, **C1) == 1
    assert trick_winner(["Qh Qd", "Kc Ks"], **S10, **C1) == 1  # spades trump: the black pair trumps
    assert trick_winner(["Qc Qs", "Kc Ks"], trump_suit="h", level="T", **C1) == 1
    assert trick_winner(["Qh Qd", "Kh 3d"], **S10, **C1) == 0  # a K and a 3: no pair
    assert not is_legal_follow("Qh Qd", "Kh Ks Kd 3c", "Kh Ks", **S10, **C1)  # ♥K♠K: not even one suit
    assert is_legal_follow("Qh Qd", "Kh Ks Kd 3c", "Kh Kd", **S10, **C1)


def test_two_colours_tractors() -> None:
    assert trick_winner(["7d 7h 8d 8h", "Ah Ad Kh Kd"], **S10, **C1) == 1  # ♦7♥7♦8♥8 is a tractor, AAKK higher
    assert trick_winner(["7d 7h 8d 8h", "Ah Ad Qh Qd"], **S10, **C1) == 0  # AAQQ: two pairs, no tractor
    # level cards: ♠T♣T (trump colour) above ♥T♦T, adjacent: a tractor in trumps
    assert trick_winner(["3h 3d 4h 4d", "Ts Tc Th Td"], **S10, **C1) == 1
    assert trick_winner(["3h 3d 4h 4d", "Ts Tc As Ac"], **S10, **C1) == 0  # TT and AA not adjacent (T above K)


def test_two_colours_throw_and_follow() -> None:
    # a red throw AA K: a red KK elsewhere does not beat AA; a single ♦A elsewhere does not exist
    assert len(resolve_throw("Ah Ad Kh", ["Qh Qd", "3s"], **S10, **C1)) == 3
    assert [str(c) for c in resolve_throw("Qh Qd 9h", ["Kh", "3s"], **S10, **C1)] == ["9h"]


def test_two_colours_in_the_engine() -> None:
    with pytest.raises(IllegalAction, match="one pack"):
        paiju.new_game("shengji", two_colours=True)
    g = paiju.new_game("shengji", seed=5, **C1)
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit in ("h", "s", None)  # the colour of the kitty card (♦ → red, ♣ → black)
    for s in range(4):
        assert all(c.suit in ("s", "h", None) for c in g.hand(s))  # cards are shown as their colour card
    deal = build_deal(["Ts Kd", "Th Td"], kitty="3c 4c 5d", decks=1)
    g = paiju.new_game("shengji", seed=1, deal=deal, start_level="T", **C1)
    g.apply("declare Tc")  # ♣T plays as ♠T: black declared (shown as its colour card Ts)
    assert g.view(1)["declaration"] == {"seat": 0, "cards": "Ts"}
    g.apply("no")
    g.apply("no")
    g.apply("no")
    g.apply("no")
    assert [str(a) for a in g.legal_actions()] == ["no", "declare Th Th"]  # ♥T♦T is a pair: red overturns
    g.apply("declare Th Td")
    while g.phase == "deal":
        g.apply("no")
    assert g.trump_suit == "h" and g.declarer == 1
    assert level_change(40, 1) == (1, 0) and level_change(35, 1) == (0, 1)  # thresholds halved (one pack)


# ---------------------------------------------------------------------------- kitty_steal 抢底 (§5)
def bury_all(g: paiju.Game, n: int = 8) -> list[str]:
    """The seat to act buries its n lowest-id cards (as the 托管 policy would, any cards)."""
    seat = g.to_act
    cards = [str(c) for c in g.hand(seat)][-n:]
    for c in cards:
        g.apply(f"bury {c}")
    return cards


def test_kitty_steal_rounds_after_each_burial() -> None:
    deal = build_deal(["2h", "2s 2s", "SJ SJ"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal, kitty_steal=True)
    g.apply("declare 2h")
    while g.phase == "deal":
        g.apply("no")
    assert g.phase == "bury" and g.declarer == 0 and g.trump_suit == "h"
    buried0 = bury_all(g)
    # a round of decisions asked of every seat in order, from the seat after the one who buried
    assert g.phase == "steal" and g.to_act == 1
    assert "declare 2s 2s" in [str(a) for a in g.legal_actions()]
    g.apply("declare 2s 2s")  # 抢底: seat 1 takes the kitty seat 0 buried and buries in turn
    assert g.phase == "bury" and g.to_act == 1 and g.trump_suit == "s" and g.declarer == 0
    assert len(g.hand(1)) == 33 and len(g.hand(0)) == 25
    assert sorted(g.view(1)["kitty_received"]) == sorted(buried0)
    assert "kitty_received" not in g.view(2)
    buried1 = bury_all(g)
    assert g.phase == "steal" and g.to_act == 2
    g.apply("declare SJ SJ")  # a stronger declaration steals again (no-trump)
    assert g.trump_suit is None and sorted(g.view(2)["kitty_received"]) == sorted(buried1)
    buried2 = bury_all(g)
    seats = []
    while g.phase == "steal":
        seats.append(g.to_act)
        assert all(str(a) in ("no", "declare BJ BJ") for a in g.legal_actions())  # only BJ BJ beats SJ SJ
        g.apply("no")
    assert seats == [3, 0, 1, 2]
    # the declarer 庄家 still leads; the kitty is the last one buried
    assert g.phase == "play" and g.to_act == 0 and g.declarer == 0
    assert sorted(g.view(0)["buried"]) == sorted(buried0)  # each seat remembers its own burial
    while not g.is_over:
        g.apply(paiju.shengji.hosted_action(g))
    assert sorted(g.view(3)["kitty"]) == sorted(buried2)
    assert [d["seat"] for d in g.view(3)["declarations"]] == [0, 1, 2]


def test_kitty_steal_needs_a_stronger_declaration_and_is_off_by_default() -> None:
    deal = build_deal(["2h 2h", "2s 2s"], kitty="3c 4c 5d")
    g = paiju.new_game("shengji", seed=1, deal=deal, kitty_steal=True)
    g.apply("no")
    g.apply("no")
    g.apply("no")
    g.apply("no")
    g.apply("declare 2h 2h")
    while g.phase == "deal":
        g.apply("no")
    bury_all(g)
    assert g.to_act == 1 and [str(a) for a in g.legal_actions()] == ["no"]  # 2s 2s is not stronger than 2h 2h
    with pytest.raises(IllegalAction, match="nothing that beats"):
        g.apply("declare 2s 2s")
    with pytest.raises(IllegalAction, match="kitty steal"):
        g.apply("bury 3c")
    for _ in range(4):
        g.apply("no")
    assert g.phase == "play" and g.to_act == 0
    g2 = paiju.new_game("shengji", seed=1, deal=deal)
    to_play(g2)  # without the option, play starts right after the burial


# ---------------------------------------------------------------------------- triples 泰坦尼克 (§9)
T5 = dict(trump_suit="h", level="5", decks=3, triples=True)  # the spec's examples: playing 5


def x3(text: str) -> str:
    return " ".join(c for c in text.split() for _ in range(3))


def units_of(text: str, trump: str | None = "h", level: int = 5) -> list[tuple[int, int]]:
    t = trump_order(trump, level, False, True)
    return [(u.triples, u.pairs) for u in decompose(counts_of(ids_of(text)), t)]


@pytest.mark.parametrize("text", ["3s 4s", "4s 6s", "5s 5h", "SJ BJ", "Ah 5s"])
def test_titanic_examples_at_level_5(text: str) -> None:
    # 333444, 444666, (off-suit 5)×3 (trump 5)×3, SJ×3 BJ×3, AAA + off-suit 5×3
    assert units_of(x3(text)) == [(2, 0)]


def test_not_titanics() -> None:
    assert units_of(x3("5h 6h")) == [(1, 0), (1, 0)]  # 555666 at level 5: two triples
    assert units_of(x3("5s 5c"), trump=None) == [(1, 0), (1, 0)]  # 555555 at no-trump: equal, not adjacent
    assert units_of("3s 3s 3s 4s 4s") == [(1, 0), (0, 1)]  # a triple and a pair
    t = trump_order("h", 5)  # without the option: three identical cards are a pair and a single
    assert [u.pairs for u in decompose(counts_of(ids_of(x3("3s 4s"))), t)] == [2, 0, 0]
    assert units_of(x3("2s 3s 4s")) == [(2, 0), (1, 0)]  # [decision] three adjacent triples: 泰坦尼克 + triple


TITANIC_LEAD = x3("4s 3s")


@pytest.mark.parametrize(
    "hand,good,bad",
    [
        # 泰坦尼克 > two triples
        (x3("Ts 9s Ks"), x3("Ts 9s"), x3("Ts Ks")),
        # two triples > tractor + two singles
        (x3("Ks 9s") + " Qs Qs Js Js", x3("Ks 9s"), "Qs Qs Js Js Ks 9s"),
        # tractor + two singles > triple + pair + single
        ("Ks Ks Qs Qs 3s " + x3("9s"), "Ks Ks Qs Qs 9s 3s", "9s 9s 9s Ks Ks 3s"),
        # triple + pair + single > triple + three singles
        (x3("9s") + " Ks Ks 3s 4s", "9s 9s 9s Ks Ks 3s", "9s 9s 9s Ks 3s 4s"),
        # triple + three singles > two pairs + two singles
        (x3("9s") + " Ks Qs 3s 7s", "9s 9s 9s Ks Qs 3s", "9s 9s Ks Qs 3s 7s"),
        # two pairs + two singles > pair + four singles
        ("9s 9s Ks Ks 3s 7s Js", "9s 9s Ks Ks 3s 7s", "9s 9s Ks 3s 7s Js"),
        # pair + four singles > six singles
        ("9s 9s Ks 3s 7s Js 2s", "9s 9s Ks 3s 7s Js", "Ks 3s 7s Js 2s 9s"),
    ],
)
def test_follow_order_for_a_titanic_lead(hand: str, good: str, bad: str) -> None:
    assert is_legal_follow(TITANIC_LEAD, hand + " 3h", good, **T5)
    assert not is_legal_follow(TITANIC_LEAD, hand + " 3h", bad, **T5)


def test_six_singles_follow_a_titanic_when_nothing_better() -> None:
    assert is_legal_follow(TITANIC_LEAD, "Ks Qs 3s 7s Js 2s 9s", "Ks Qs 3s 7s Js 2s", **T5)


@pytest.mark.parametrize(
    "hand,good,bad",
    [
        (x3("9s") + " Ks Ks 3s", "9s 9s 9s", "Ks Ks 3s"),  # triple > pair + single
        ("Ks Ks 3s 7s", "Ks Ks 3s", "Ks 3s 7s"),  # pair + single > three singles
    ],
)
def test_follow_order_for_a_triple_lead(hand: str, good: str, bad: str) -> None:
    assert is_legal_follow(x3("4s"), hand, good, **T5)
    assert not is_legal_follow(x3("4s"), hand, bad, **T5)
    assert is_legal_follow(x3("4s"), "Ks 3s 7s 2h", "Ks 3s 7s", **T5)


def test_triples_trick_winner() -> None:
    assert trick_winner([x3("4s"), x3("9s"), "Ks Ks As"], **T5) == 1  # a higher triple; a pair + single is not
    assert trick_winner([x3("4s"), x3("3h"), x3("9s")], **T5) == 1  # a trump triple beats the plain suit
    assert trick_winner([x3("4s"), "3h 3h 6h"], **T5) == 0  # no trump triple: a discard
    assert trick_winner([TITANIC_LEAD, x3("3h 4h")], **T5) == 1  # a trump 泰坦尼克 beats it
    assert trick_winner([TITANIC_LEAD, x3("3h 7h")], **T5) == 0  # two trump triples, not adjacent: a discard
    assert trick_winner([TITANIC_LEAD, x3("Qs Ks"), x3("As Ks")], **T5) == 2
    # without the option three 4s are a pair and a single: 99 + 3 beats it
    assert trick_winner([x3("4s"), "9s 9s 3s"], trump_suit="h", level="5", decks=3) == 1


def test_triples_throws_and_kitty() -> None:
    # a triple is beaten by a higher triple only; a 泰坦尼克 by a higher 泰坦尼克
    assert len(resolve_throw(x3("Qs") + " As", ["Ks Ks", "2c"], **T5)) == 4
    assert [str(c) for c in resolve_throw(x3("Qs") + " As", [x3("Ks")], **T5)] == ["Qs"] * 3
    assert len(resolve_throw(x3("Qs Js") + " As", [x3("Ks 9s")], **T5)) == 7
    assert len(resolve_throw(x3("Qs Js") + " As", [x3("Ks As")], **T5)) == 6
    assert kitty_multiplier(1, "unit_size", cards=3) == 6  # triple ×6 (§7)
    assert kitty_multiplier(2, "unit_size", cards=6) == 12
    assert kitty_multiplier(1) == 4 and kitty_multiplier(2) == 8  # [decision] triple as a pair, 泰坦尼克 as a tractor


def test_triples_in_the_engine() -> None:
    with pytest.raises(IllegalAction, match="three packs"):
        paiju.new_game("shengji", triples=True)
    seat1 = x3("Ts 9s") + " Ks " + " ".join(["3c", "4c", "6c", "7c", "8c", "9c", "Jc", "Qc", "Kc", "Ac"] * 3)
    deal = build_deal([x3("4s 3s"), seat1], kitty="3h 4h 6h", decks=3)
    g = paiju.new_game("shengji", seed=1, deal=deal, decks=3, triples=True, start_level="5")
    to_play(g)
    assert g.to_act == 0 and g.trump_suit == "h"  # the 3rd kitty card
    g.apply(TITANIC_LEAD)
    assert g.view(1)["trick"] == [{"seat": 0, "cards": "4s 4s 4s 3s 3s 3s"}]
    with pytest.raises(IllegalAction, match="泰坦尼克"):
        g.apply("Ts Ts Ts 9s 9s Ks")
    assert [str(a) for a in g.legal_actions()] == ["Ts Ts Ts 9s 9s 9s"]
    g.apply("Ts Ts Ts 9s 9s 9s")
