"""Baohuang before play (spec §1 dealing marks, §2 roles, §3): abdication in every variant,
the guard, 抢独, 明保 / 暗保, rebellion and kick — and that whose turn it is never tells who
the hidden guard is."""

from __future__ import annotations

import pytest

import paiju
from baohuang_helpers import (
    SEATS,
    answer_no,
    apply_all,
    assert_illegal,
    guard_in_views,
    hand,
    legal,
    new,
    ranks,
)
from paiju import IllegalAction

# ---------------------------------------------------------------------------- §1 decks and dealing


@pytest.mark.parametrize(
    ("deck", "sizes", "sixes", "threes"),
    [
        ("full", [44, 43, 43, 43, 43], 16, 16),
        ("no345", [34, 34, 34, 33, 33], 16, 0),
        ("weihai", [33, 33, 33, 33, 33], 13, 0),
    ],
)
def test_decks_and_hand_sizes(deck: str, sizes: list[int], sixes: int, threes: int) -> None:
    g = paiju.new_game("baohuang", seed=11, deck=deck)
    assert [len(g.hand(s)) for s in SEATS] == sizes  # dealt one at a time from seat 0
    cards = [c for s in SEATS for c in g.hand(s)]
    assert len(cards) == {"full": 216, "no345": 168, "weihai": 165}[deck]
    assert sum(c.rank == 6 for c in cards) == sixes and sum(c.rank == 3 for c in cards) == threes
    assert sum(c.rank == 16 for c in cards) == sum(c.rank == 15 for c in cards) == 4
    assert sorted(str(c) for c in cards if c.marked) == ["BJ*", "SJ*"]
    assert g.to_act is not None and "BJ*" in hand(g, g.to_act)


def test_weihai_preset_deck_and_call_variants_mark_only_the_emperor_card() -> None:
    g = paiju.new_game("baohuang", seed=3, variant="weihai")
    assert [len(g.hand(s)) for s in SEATS] == [33] * 5
    g = paiju.new_game("baohuang", seed=3, variant="classic")
    assert sorted(str(c) for s in SEATS for c in g.hand(s) if c.marked) == ["BJ*"]


def test_the_first_dealt_seat_gets_the_extra_card() -> None:
    g = paiju.new_game("baohuang", seed=3, first_seat=3)
    assert [len(g.hand(s)) for s in SEATS] == [43, 43, 43, 44, 43]
    g = paiju.new_game("baohuang", seed=3, deck="no345", first_seat=3)
    assert [len(g.hand(s)) for s in SEATS] == [34, 33, 33, 34, 34]


# ---------------------------------------------------------------------------- §3 presets


# one preset per line, as in the spec table
# fmt: off
@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("standard", dict(deck="full", guard="card", abdication="standard", solo_grab=False, kick=False,
                          yield_turn=False, tribute=False, rebellion=True)),
        ("classic", dict(deck="full", guard="call", abdication="classic", solo_grab=True, kick=False,
                         yield_turn=False, tribute=False, rebellion=True, guard_choice="auto")),
        ("weihai", dict(deck="weihai", guard="card", abdication="weihai", solo_grab=True, kick=True,
                        yield_turn=False, tribute=False, rebellion=True)),
        ("qingdao", dict(deck="full", guard="call", abdication="qingdao", solo_grab=True, grab_needs_four=True,
                         kick=True, yield_turn=True, tribute=True, rebellion=True, guard_choice="choose")),
    ],
)
# fmt: on
def test_presets(variant: str, expected: dict[str, object]) -> None:
    g = paiju.new_game("baohuang", seed=1, variant=variant)
    assert {k: g.options[k] for k in expected} == expected
    common = dict(deal_start="first_finisher", hold_sixes=False, hold_rank="6", kao=False, leave_penalty=40)
    assert {k: g.options[k] for k in common} == common
    assert g.options["pass_is_final"] is (variant == "qingdao")  # forced true by 让牌


def test_a_room_may_override_a_toggle() -> None:
    g = new(["BJ 6", "SJ 7", "8", "9", "T"], kick=True)  # standard with kick
    apply_all(g, "accept", *["no"] * 4, "no", "rebel", "rebel", "no")
    assert g.step == "kick" and g.to_act == 0
    with pytest.raises(IllegalAction, match="option"):
        paiju.new_game("baohuang", seed=1, kick="yes")
    with pytest.raises(IllegalAction, match="variant"):
        paiju.new_game("baohuang", seed=1, variant="beijing")
    with pytest.raises(IllegalAction, match="unknown"):
        paiju.new_game("baohuang", seed=1, no_such_toggle=True)


# ---------------------------------------------------------------------------- explicit deals


def test_bare_ranks_get_suits_and_the_first_jokers_are_marked() -> None:
    g = new(["7 7 7 7 7", "BJ SJ", "BJ SJ", "3", "4"])
    assert hand(g, 0) == ["7s", "7s", "7s", "7s", "7h"]  # four packs: four 7s, then 7h
    assert sorted(hand(g, 1)) == ["BJ*", "SJ*"]  # the first BJ and (fixed guard) first SJ
    assert sorted(hand(g, 2)) == ["BJ", "SJ"]
    assert g.step == "emperor" and g.to_act == 1  # the emperor card's holder decides first


def test_marks_given_by_the_deal_are_kept() -> None:
    g = new(["BJ SJ 3", "BJ* 4", "SJ* 5", "6", "7"])
    assert sorted(hand(g, 0)) == ["3s", "BJ", "SJ"]
    assert "BJ*" in hand(g, 1) and "SJ*" in hand(g, 2)
    assert g.to_act == 1


def test_call_variants_have_no_guard_card() -> None:
    g = new(["BJ SJ 3s 3s 3s", "SJ", "4", "5", "6"], variant="classic")
    assert "SJ" in hand(g, 0) and "SJ*" not in hand(g, 0) + hand(g, 1)
    with pytest.raises(IllegalAction, match="SJ\\*"):
        new(["BJ SJ* 3s 3s 3s", "4", "5", "6", "7"], variant="classic")


@pytest.mark.parametrize(
    ("deal", "options", "word"),
    [
        (["BJ 3", "4", "5", "6"], {}, "5 hands"),
        (["3", "SJ 4", "5", "6", "7"], {}, "emperor card"),
        (["BJ 3", "4", "5", "6", "7"], {}, "guard card"),
        (["BJ SJ 3s 3s 3s 3s 3s", "4", "5", "6", "7"], {}, "more"),
        (["BJ BJ BJ BJ BJ SJ", "4", "5", "6", "7"], {}, "more"),
        (["BJ SJ 3", "4", "5", "6", "7"], {"variant": "weihai"}, "more"),  # no 3s in the weihai deck
        (["BJ* SJ 3", "BJ* 4", "5", "6", "7"], {}, "one"),
        (["BJ SJ Q?", "4", "5", "6", "7"], {}, "card"),
    ],
)
def test_bad_deals_are_refused(deal: list[str], options: dict[str, str], word: str) -> None:
    with pytest.raises(IllegalAction, match=f"(?i){word}"):
        new(deal, **options)


def test_a_deal_is_its_record() -> None:
    g = new(["BJ 3 9", "SJ 4 4", "Q", "K", "A 2"])
    apply_all(g, "accept", "no", "no", "no", "no", "no", "rebel", "no", "no", "3")
    r = paiju.replay(g.record())
    assert r.record() == g.record()
    assert [hand(r, s) for s in SEATS] == [hand(g, s) for s in SEATS]
    assert r.to_act == g.to_act and r.view(2) == g.view(2)


# ---------------------------------------------------------------------------- §3.1 standard abdication

STD_ABDICATE = ["BJ 3 4", "SJ 5 6", "7 8 2 A", "SJ 9 T", "J Q"]


def test_standard_abdication_goes_to_the_upper_player_with_attached_cards() -> None:
    g = new(STD_ABDICATE)
    assert g.to_act == 0 and set(legal(g)) == {"accept", "abdicate"}
    g.apply("abdicate")  # the first holder attaches nothing
    assert g.to_act == 4  # 上家 of seat 0
    assert ranks(g, 0) == ["3", "4"]
    assert g.view(4)["attached"] == 0
    g.apply("abdicate")  # a receiver without a 2 attaches his highest card: Q
    assert g.to_act == 3 and ranks(g, 4) == ["J"]
    g.apply("abdicate")  # highest non-joker: T (the SJ stays)
    assert g.to_act == 2 and ranks(g, 3) == ["9", "SJ"]
    g.apply("abdicate")  # a 2, not the A
    assert g.to_act == 1 and ranks(g, 2) == ["7", "8", "A"]
    assert g.view(1)["attached"] == 3
    assert g.view(1)["emperor_card_holder"] == 1 and g.view(3)["emperor_card_holder"] == 1
    g.apply("accept")  # whoever accepts takes the emperor card and all attached cards
    assert g.emperor == 1
    assert ranks(g, 1) == sorted(["5", "6", "SJ", "BJ", "Q", "T", "2"])
    assert "BJ*" in hand(g, 1)
    assert sum(len(g.hand(s)) for s in SEATS) == 15


def test_standard_first_holder_attaches_when_the_card_comes_back() -> None:
    g = new(["BJ 3 2", "SJ 5", "7", "9", "J"])
    apply_all(g, *["abdicate"] * 5)  # one full cycle: back to seat 0
    assert g.to_act == 0
    g.apply("abdicate")  # now he is a receiver who declines: he attaches
    assert g.to_act == 4
    assert ranks(g, 0) == ["3"]  # his 2 went with the emperor card


def test_standard_two_full_cycles_redeal() -> None:
    g = new(["BJ 3 4", "SJ 5 2", "7 8 2", "9 T", "J Q"])
    apply_all(g, *["abdicate"] * 9)
    assert g.deals == 1 and g.step == "emperor" and g.to_act == 1
    g.apply("abdicate")  # nobody accepted within two full cycles
    assert g.deals == 2
    assert g.step == "emperor" and g.phase == "setup"
    assert sorted(len(g.hand(s)) for s in SEATS) == [43, 43, 43, 43, 44]  # a fresh full deal
    assert g.to_act is not None and "BJ*" in hand(g, g.to_act)
    assert g.view(g.to_act)["attached"] == 0


def test_redeal_is_reproducible_from_the_record() -> None:
    g = new(["BJ 3 4", "SJ 5 2", "7 8 2", "9 T", "J Q"])
    apply_all(g, *["abdicate"] * 10)
    r = paiju.replay(g.record())
    assert [hand(r, s) for s in SEATS] == [hand(g, s) for s in SEATS] and r.deals == 2


# ---------------------------------------------------------------------------- §3.1 classic


def test_classic_accept_needs_a_suited_triple() -> None:
    g = new(["BJ 3s 3h 3d 3c", "4", "5", "6", "7"], variant="classic")
    assert "accept" not in legal(g)  # four 3s of different suits are no suited triple
    assert_illegal(g, "accept", "accept")
    g = new(["BJ 2s 2s 2s", "4", "5", "6", "7"], variant="classic")
    assert "accept" not in legal(g)  # 2s excluded
    g = new(["BJ 3s 3s 3s", "4", "5", "6", "7"], variant="classic")
    assert set(legal(g)) == {"accept", "open_solo", "abdicate"}


def test_classic_abdication_attaches_nothing_then_forced_cycle() -> None:
    deal = ["BJ 3s 3s 3s 9", "Ah Ah Ah Ah", "7c 7c 7c", "T", "J"]
    g = new(deal, variant="classic")
    apply_all(g, "abdicate")
    assert g.to_act == 4 and ranks(g, 0) == ["3", "3", "3", "9"]
    assert set(legal(g)) == {"open_solo", "abdicate"}  # seat 4 has no triple
    apply_all(g, "abdicate", "abdicate", "abdicate", "abdicate")
    assert [ranks(g, s) for s in range(1, 5)] == [["A"] * 4, ["7"] * 3, ["T"], ["J"]]  # nothing attached
    # the card is back at the first holder: the forced cycle 逼庄 starts with him
    assert g.to_act == 0
    assert set(legal(g)) == {"accept", "open_solo"}
    assert_illegal(g, "abdicate", "abdicate")


def test_classic_forced_cycle_four_may_decline_triple_must_accept() -> None:
    deal = ["BJ 9", "T", "7c 7c 7c", "Ah Ah Ah Ah", "J"]
    g = new(deal, variant="classic")
    apply_all(g, *["abdicate"] * 5)  # first cycle: everybody may decline
    assert g.to_act == 0 and set(legal(g)) == {"open_solo", "abdicate"}  # no triple: passes on
    apply_all(g, "abdicate", "abdicate")
    assert g.to_act == 3
    assert {"accept", "abdicate"} <= set(legal(g))  # a suited four may still decline
    g.apply("abdicate")
    assert g.to_act == 2
    assert set(legal(g)) == {"accept", "open_solo"}  # a suited triple must accept
    assert_illegal(g, "abdicate", "abdicate")
    g.apply("accept")
    assert g.emperor == 2 and g.step == "call"


def test_classic_forced_cycle_finding_nobody_redeals() -> None:
    g = new(["BJ 9", "A", "7", "T", "J"], variant="classic")
    apply_all(g, *["abdicate"] * 9)
    assert g.deals == 1
    g.apply("abdicate")
    assert g.deals == 2 and g.step == "emperor"
    assert sorted(len(g.hand(s)) for s in SEATS) == [43, 43, 43, 43, 44]


def test_classic_without_a_triple_may_still_go_solo() -> None:
    g = new(["BJ 9", "A", "7", "T", "J"], variant="classic")
    g.apply("open_solo")  # 独保 needs no triple
    assert g.emperor == 0 and g.solo == "open" and g.phase == "play"
    assert all(g.view(s)["solo"] == "open" for s in [*SEATS, None])


# ---------------------------------------------------------------------------- §3.1 qingdao


def test_qingdao_each_decliner_attaches_his_highest_card() -> None:
    deal = ["BJ SJ 2 3s 3s 3s", "9 9", "A 5", "BJ K", "Kd Kd Kd"]
    g = new(deal, variant="qingdao")
    g.apply("abdicate")  # even the first holder attaches: his SJ (never the emperor card)
    assert g.to_act == 4 and ranks(g, 0) == ["2", "3", "3", "3"]
    assert g.view(4)["attached"] == 1
    g.apply("abdicate")  # K (a suited triple may decline in the first cycle)
    assert ranks(g, 4) == ["K", "K"]
    g.apply("abdicate")  # the plain BJ
    assert ranks(g, 3) == ["K"]
    g.apply("abdicate")  # A
    assert ranks(g, 2) == ["5"]
    assert g.to_act == 1 and set(legal(g)) == {"abdicate"}  # no triple, no four
    g.apply("abdicate")  # 9
    assert g.to_act == 0 and ranks(g, 1) == ["9"]
    assert g.view(0)["attached"] == 5
    assert legal(g) == ["accept"]  # forced cycle: a suited triple, no suited four for 明独
    g.apply("accept")  # forced: his suited triple of 3s
    assert ranks(g, 0) == sorted(["2", "3", "3", "3", "BJ", "SJ", "K", "BJ", "A", "9"])


# ---------------------------------------------------------------------------- §3.1 weihai


def test_weihai_only_a_holder_of_both_marked_jokers_may_abdicate() -> None:
    g = new(["BJ 6 7", "SJ 8", "9 T", "J Q", "K A"], variant="weihai")
    assert "abdicate" not in legal(g)
    assert_illegal(g, "abdicate", "abdicate")
    assert "accept" in legal(g)


@pytest.mark.parametrize(("first", "receiver"), [(0, 2), (4, 1), (3, 0)])
def test_weihai_abdication_skips_one_seat_once(first: int, receiver: int) -> None:
    deal = ["6", "7", "8", "9", "T"]
    deal[first] += " BJ SJ"
    g = new(deal, variant="weihai")
    assert g.to_act == first and "abdicate" in legal(g)
    g.apply("abdicate")
    assert g.to_act == receiver  # 隔一个的下家
    assert all(g.view(s)["emperor_card_holder"] == receiver for s in SEATS)
    assert "SJ*" in hand(g, first) and "BJ*" not in hand(g, first)  # the guard card stays
    assert "abdicate" not in legal(g)  # the receiver cannot pass it on
    assert_illegal(g, "abdicate", "abdicate")
    g.apply("accept")
    assert g.emperor == receiver and g.guard == first and "BJ*" in hand(g, receiver)
    # only a holder of both marked jokers could pass it on: everybody knows who the guard is
    assert g.view(receiver)["guard"] == first and g.guard_revealed


# ---------------------------------------------------------------------------- §3.2 guard


def test_fixed_guard_is_the_guard_card_holder_and_hidden() -> None:
    g = new(["BJ 3", "4", "5", "SJ 6", "7"])
    g.apply("accept")
    assert g.guard == 3
    assert guard_in_views(g) == [None, None, None, 3, None, None]  # only the guard knows
    assert g.view(3)["roles"][3] == "guard" and g.view(1)["roles"][3] is None


def test_fixed_guard_emperor_holding_the_guard_card_is_hidden_solo() -> None:
    g = new(["BJ SJ 3", "4", "5", "6", "7"])
    assert set(legal(g)) == {"accept", "open_solo", "abdicate"}
    g.apply("accept")
    assert g.solo == "hidden"
    assert g.view(0)["solo"] == "hidden"
    assert [g.view(s)["solo"] for s in [1, 2, 3, 4, None]] == [None] * 5


def test_standard_emperor_without_the_guard_card_cannot_declare_solo() -> None:
    g = new(["BJ 3", "SJ 4", "5", "6", "7"])
    assert "open_solo" not in legal(g)  # standard: no 抢独, and he is not solo


CLASSIC_CALL = ["BJ Kd Kd Kd Ah Ah Ah 7c 7c 7c 2s 2s 2s", "Kd 2s", "Ah", "7c", "9"]


def test_classic_calls_the_highest_triple_automatically() -> None:
    g = new(CLASSIC_CALL, variant="classic")
    g.apply("accept")
    assert g.step == "call" and g.to_act == 0
    assert set(legal(g)) == {"call Ah", "open_solo"}  # A > K > 7; 2s never
    for other in ("call Kd", "call 7c", "call 2s"):
        assert_illegal(g, other, "call")
    g.apply("call Ah")
    assert g.guard == 2  # the holder of the fourth Ah
    assert [g.view(s)["called"] for s in SEATS] == ["Ah"] * 5
    assert guard_in_views(g) == [None, None, 2, None, None, None]  # the emperor does not know


def test_classic_never_calls_a_two() -> None:
    g = new(["BJ 2s 2s 2s 7c 7c 7c", "2s", "7c", "9", "T"], variant="classic")
    g.apply("accept")
    assert set(legal(g)) == {"call 7c", "open_solo"}


def test_classic_calling_a_four_is_hidden_solo() -> None:
    g = new(["BJ Kd Kd Kd Kd 3s 3s 3s", "3s", "5", "6", "7"], variant="classic")
    g.apply("accept")
    assert "call Kd" in legal(g) and "call 3s" in legal(g)
    g.apply("call Kd")
    assert g.solo == "hidden" and g.guard == 0
    assert g.view(0)["solo"] == "hidden"
    assert [g.view(s)["solo"] for s in [1, 2, 3, 4, None]] == [None] * 5
    assert guard_in_views(g) == [None] * 6


def test_qingdao_emperor_chooses_the_triple() -> None:
    g = new(["BJ Kd Kd Kd 7c 7c 7c", "Kd", "7c", "9", "T"], variant="qingdao")
    g.apply("accept")
    assert set(legal(g)) == {"call Kd", "call 7c"}  # no suited four: no 明独 in qingdao
    g.apply("call 7c")
    assert g.guard == 2


def test_qingdao_calling_a_four_is_hidden_solo() -> None:
    g = new(["BJ Kd Kd Kd Kd 7c 7c 7c", "7c", "9", "T", "J"], variant="qingdao")
    g.apply("accept")
    assert set(legal(g)) == {"call Kd", "call 7c", "open_solo"}
    g.apply("call Kd")
    assert g.solo == "hidden"


# ---------------------------------------------------------------------------- §3.3 抢独

GRAB_DEAL = ["BJ Kd Kd Kd 9", "Kd 8", "Ah Ah Ah Ah", "T", "Qs Qs Qs Qs J"]


def test_grab_round_goes_in_the_upper_direction_and_the_nearest_wins() -> None:
    g = new(GRAB_DEAL, variant="classic")
    apply_all(g, "accept", "call Kd")
    assert g.step == "grab" and g.to_act == 4  # 上家 of the emperor first
    assert set(legal(g)) == {"grab", "no"}
    g.apply("grab")  # seat 4 is nearest in the 上家 direction: he wins before seat 2 is asked
    assert g.emperor == 4 and g.solo == "open" and g.guard is None
    assert g.phase == "play" and g.to_act == 4  # the new emperor leads
    assert "BJ*" in hand(g, 4) and "BJ*" not in hand(g, 0)
    assert len(g.hand(0)) == 4 and len(g.hand(4)) == 6  # he takes the card, gives nothing back
    assert [g.view(s)["solo"] for s in [*SEATS, None]] == ["open"] * 6
    assert [g.view(s)["emperor"] for s in [*SEATS, None]] == [4] * 6


def test_grab_a_farther_claimant_gets_it_when_the_nearer_ones_decline() -> None:
    g = new(GRAB_DEAL, variant="classic")
    apply_all(g, "accept", "call Kd", "no", "no")
    assert g.to_act == 2
    g.apply("grab")
    assert g.emperor == 2 and g.solo == "open" and "BJ*" in hand(g, 2)


def test_grab_round_order_from_another_emperor() -> None:
    deal = ["Kd", "9", "BJ Kd Kd Kd", "T", "J"]
    g = new(deal, variant="classic")
    apply_all(g, "accept", "call Kd")
    asked = answer_no(g)
    assert [s for step, s in asked if step == "grab"] == [1, 0, 4, 3]


def test_the_emperor_own_solo_comes_first() -> None:
    g = new(GRAB_DEAL, variant="classic")
    g.apply("open_solo")  # at the emperor decision: nobody is asked to grab
    assert g.phase == "play" and g.emperor == 0 and g.solo == "open" and g.to_act == 0
    g = new(GRAB_DEAL, variant="classic")
    apply_all(g, "accept", "open_solo")  # or instead of calling a guard
    assert g.phase == "play" and g.emperor == 0 and g.solo == "open"


def test_qingdao_grab_needs_a_suited_four() -> None:
    g = new(GRAB_DEAL, variant="qingdao")
    apply_all(g, "accept", "call Kd")
    assert g.to_act == 4 and set(legal(g)) == {"grab", "no"}  # Qs x4
    g.apply("no")
    assert g.to_act == 3 and legal(g) == ["no"]
    assert_illegal(g, "grab", "grab")
    g.apply("no")
    assert g.to_act == 2 and set(legal(g)) == {"grab", "no"}  # Ah x4
    g.apply("grab")
    assert g.emperor == 2 and "BJ*" in hand(g, 2)


def test_standard_has_no_grab_round() -> None:
    g = new(["BJ 3", "SJ 4", "5", "6", "7"])
    g.apply("accept")
    assert g.step == "reveal"


# ---------------------------------------------------------------------------- §3.4 whose turn never tells


def _questions(variant: str, deal: list[str], *first: str) -> list[tuple[str, int]]:
    g = new(deal, variant=variant)
    apply_all(g, *first)
    return answer_no(g)


@pytest.mark.parametrize("variant", ["standard", "weihai"])
def test_fixed_guard_questions_are_the_same_wherever_the_guard_sits(variant: str) -> None:
    deals = [
        ["BJ 6", "SJ 7", "8", "9", "T"],  # guard 1
        ["BJ 6", "7", "8", "SJ 9", "T"],  # guard 3
        ["BJ SJ 6", "7", "8", "9", "T"],  # the emperor holds the guard card: 暗独
    ]
    seqs = [_questions(variant, d, "accept") for d in deals]
    assert seqs[0] == seqs[1] == seqs[2]
    steps = [step for step, _ in seqs[0]]
    assert [s for step, s in seqs[0] if step == "reveal"] == [1, 2, 3, 4]  # every non-emperor seat
    assert [s for step, s in seqs[0] if step == "rebel"] == [1, 2, 3, 4]  # the guard too
    assert steps.index("reveal") < steps.index("rebel")


@pytest.mark.parametrize("variant", ["classic", "qingdao"])
def test_called_guard_questions_are_the_same_wherever_the_guard_sits(variant: str) -> None:
    deals = [
        ["BJ 7c 7c 7c 6", "7c", "8", "9", "T"],
        ["BJ 7c 7c 7c 6", "8", "9", "T", "7c"],
        ["BJ 7c 7c 7c 7c 6", "8", "9", "T", "J"],  # calls a four: 暗独
    ]
    seqs = [_questions(variant, d, "accept", "call 7c") for d in deals]
    assert seqs[0] == seqs[1] == seqs[2]
    assert [s for step, s in seqs[0] if step == "reveal"] == [1, 2, 3, 4]
    assert [s for step, s in seqs[0] if step == "rebel"] == [1, 2, 3, 4]


def test_questions_start_after_the_emperor() -> None:
    seq = _questions("standard", ["6", "7", "BJ 8", "SJ 9", "T"], "accept")
    assert seq == [("reveal", s) for s in (3, 4, 0, 1)] + [("rebel", s) for s in (3, 4, 0, 1)]


def test_only_the_guard_can_reveal_and_the_guard_cannot_rebel() -> None:
    g = new(["BJ 6", "7", "SJ 8", "9", "T"])
    g.apply("accept")
    assert g.step == "reveal" and g.to_act == 1 and legal(g) == ["no"]
    assert_illegal(g, "reveal", "reveal")
    g.apply("no")
    assert g.to_act == 2 and set(legal(g)) == {"reveal", "no"}
    apply_all(g, "no", "no", "no")
    assert g.step == "rebel" and g.to_act == 1 and set(legal(g)) == {"rebel", "no"}
    g.apply("no")
    assert g.to_act == 2 and legal(g) == ["no"]  # the guard may only decline
    assert_illegal(g, "rebel", "rebel")


def test_open_guard_is_revealed_to_all_and_skips_the_rebellion() -> None:
    g = new(["BJ 6", "7", "SJ 8", "9", "T"])
    apply_all(g, "accept", "no", "reveal")
    assert g.open_guard
    assert guard_in_views(g) == [2] * 6
    assert g.phase == "play" and g.to_act == 0  # standard: no kick; rebellion only against a hidden guard


# ---------------------------------------------------------------------------- §3.4 rebellion


def test_two_rebels_make_the_rebellion_stand_and_reveal_the_guard() -> None:
    g = new(["BJ 6", "7", "SJ 8", "9", "T"])
    apply_all(g, "accept", *["no"] * 4)
    assert guard_in_views(g) == [None, None, 2, None, None, None]
    apply_all(g, "rebel", "no", "no", "rebel")
    assert g.rebellion and g.rebels_declared == [1, 4]
    assert guard_in_views(g) == [2] * 6
    assert all(g.view(s)["rebellion"] for s in [*SEATS, None])
    assert all(g.view(s)["rebels_declared"] == [1, 4] for s in [*SEATS, None])


def test_one_rebel_is_not_enough_but_is_marked() -> None:
    g = new(["BJ 6", "7", "SJ 8", "9", "T"])
    apply_all(g, "accept", *["no"] * 4, "no", "no", "rebel", "no")
    assert not g.rebellion
    assert g.rebels_declared == [3]
    assert guard_in_views(g) == [None, None, 2, None, None, None]


def test_rebellion_reveals_a_hidden_solo() -> None:
    g = new(["BJ SJ 6", "7", "8", "9", "T"])
    apply_all(g, "accept", *["no"] * 4, "rebel", "rebel", "no", "no")
    assert g.rebellion
    assert [g.view(s)["solo"] for s in [*SEATS, None]] == ["hidden"] * 6


# ---------------------------------------------------------------------------- §3.4 kick (weihai, qingdao)

WEIHAI = ["BJ 6", "SJ 7", "8 9", "T J", "Q K"]


def _weihai_to_rebellion() -> paiju.Game:
    g = new(WEIHAI, variant="weihai")
    apply_all(g, "accept", *["no"] * 4, *["no"] * 4)  # no grab, no reveal
    apply_all(g, "no", "rebel", "rebel", "no")
    assert g.rebellion
    return g


def test_kick_after_rebellion_emperor_first() -> None:
    g = _weihai_to_rebellion()
    assert g.step == "kick" and g.to_act == 0 and set(legal(g)) == {"kick", "no"}
    g.apply("kick")
    assert g.kicks == 1 and g.phase == "play"
    assert all(g.view(s)["kicks"] == 1 for s in [*SEATS, None])


def test_kick_after_rebellion_by_the_guard() -> None:
    g = _weihai_to_rebellion()
    g.apply("no")
    assert g.step == "kick" and g.to_act == 1
    g.apply("kick")
    assert g.kicks == 1 and g.phase == "play"


def test_no_kick_after_rebellion() -> None:
    g = _weihai_to_rebellion()
    apply_all(g, "no", "no")
    assert g.kicks == 0 and g.phase == "play"


def test_no_kick_round_without_rebellion_or_open_guard() -> None:
    g = new(WEIHAI, variant="weihai")
    g.apply("accept")
    asked = answer_no(g)
    assert "kick" not in [step for step, _ in asked]
    assert [step for step, _ in asked] == ["grab"] * 4 + ["reveal"] * 4 + ["rebel"] * 4


def _weihai_open_guard() -> paiju.Game:
    g = new(WEIHAI, variant="weihai")
    apply_all(g, "accept", *["no"] * 4, "reveal")
    assert g.open_guard and g.step == "kick"
    return g


def test_kick_after_open_guard_needs_two_rebels() -> None:
    g = _weihai_open_guard()
    asked = []
    for answer in ("kick", "no", "kick"):
        asked.append(g.to_act)
        g.apply(answer)
    assert asked == [2, 3, 4]  # the rebels, not the open guard
    assert g.kicks == 1 and g.phase == "play"


def test_one_rebel_kick_after_open_guard_does_not_stand() -> None:
    g = _weihai_open_guard()
    apply_all(g, "no", "kick", "no")
    assert g.kicks == 0 and g.phase == "play"


def test_kick_is_off_in_standard_and_classic() -> None:
    g = new(["BJ 6", "SJ 7", "8", "9", "T"])
    apply_all(g, "accept", *["no"] * 4, "no", "rebel", "rebel", "no")
    assert g.rebellion and g.phase == "play"


def test_weihai_abdication_makes_the_guard_known() -> None:
    """Only a holder of both marked jokers may pass the emperor card on (weihai), so the
    passer is known to hold the guard card: views name him, and no rebellion is asked."""
    g = paiju.new_game("baohuang", seed=1, variant="weihai", deal=["BJ* SJ* 7 8", "9 T", "J Q", "K A", "2 SJ"])
    g.apply("abdicate")
    assert g.to_act == 2
    g.apply("accept")
    assert g.emperor == 2 and g.guard == 0
    assert all(g.view(s)["guard"] == 0 for s in range(5)) and g.view(None)["guard"] == 0
    while g.step == "grab":
        g.apply("no")
    asked = []
    while g.step != "play":
        asked.append((g.step, g.to_act))
        g.apply("no")
    assert [st for st, _ in asked] == ["reveal"] * 4  # 明保 is still his to declare; no rebel round
    assert g.multiplier == 1
