"""Baohuang scoring (spec §5), the Qingdao tribute table (spec §6), the end of a hand
(spec §4 "The hand ends") with its scores, and matches (deal start, tribute carried over,
standings)."""

from __future__ import annotations

import itertools
import random

import pytest

import paiju
from baohuang_helpers import SEATS, apply_all, hand, legal, new, play, ranks, start_play
from paiju import IllegalAction
from paiju.baohuang import hand_scores, hosted_action, tribute_plan

PAIRS = [(e, g) for e in range(1, 6) for g in range(1, 6) if e != g]

# ---------------------------------------------------------------------------- §5 base points


@pytest.mark.parametrize(
    ("places", "emperor", "guard", "rebel"),
    [((1, 2), 6, 3, -3), ((1, 5), 0, 0, 0), ((2, 3), 2, 1, -1), ((4, 5), -6, -3, 3)],
)
def test_spec_examples(places: tuple[int, int], emperor: int, guard: int, rebel: int) -> None:
    assert hand_scores(*places) == {"emperor": emperor, "guard": guard, "rebel": rebel}


@pytest.mark.parametrize(("pe", "pg"), PAIRS)
def test_two_person_side_formula(pe: int, pg: int) -> None:
    g = 6 - (pe + pg)
    assert hand_scores(pe, pg) == {"emperor": 2 * g, "guard": g, "rebel": -g}
    assert hand_scores(pe, pg) == hand_scores(pg, pe)  # only the place sum matters


def test_all_rebels_first_is_minus_three() -> None:
    # the emperor side holds places 4 and 5 whichever of them is "4th"
    assert hand_scores(4, 5) == hand_scores(5, 4) == {"emperor": -6, "guard": -3, "rebel": 3}


@pytest.mark.parametrize("place", range(1, 6))
def test_open_solo(place: int) -> None:
    expected = {"emperor": 24, "rebel": -6} if place == 1 else {"emperor": -24, "rebel": 6}
    res = hand_scores(place, solo="open")
    assert (res["emperor"], res["rebel"]) == (expected["emperor"], expected["rebel"])
    assert res["emperor"] + 4 * res["rebel"] == 0


@pytest.mark.parametrize(("place", "emperor", "rebel"), [(1, 12, -3), (2, 0, 0), (3, -12, 3), (4, -12, 3), (5, -12, 3)])
def test_hidden_solo(place: int, emperor: int, rebel: int) -> None:
    res = hand_scores(place, solo="hidden")
    assert (res["emperor"], res["rebel"]) == (emperor, rebel)


# ---------------------------------------------------------------------------- §5 multipliers


@pytest.mark.parametrize(("pe", "pg"), [(1, 2), (2, 3), (4, 5), (1, 4)])
def test_open_guard_and_rebellion_double(pe: int, pg: int) -> None:
    base = hand_scores(pe, pg)
    doubled = {k: 2 * v for k, v in base.items()}
    quadrupled = {k: 4 * v for k, v in base.items()}
    assert hand_scores(pe, pg, open_guard=True) == doubled
    assert hand_scores(pe, pg, rebellion=True) == doubled
    assert hand_scores(pe, pg, open_guard=True, rebellion=True) == quadrupled


@pytest.mark.parametrize("solo", ["open", "hidden"])
@pytest.mark.parametrize("place", [1, 2, 3, 5])
def test_rebellion_doubles_solo_too(solo: str, place: int) -> None:
    base = hand_scores(place, solo=solo)
    assert hand_scores(place, solo=solo, rebellion=True) == {k: 2 * v for k, v in base.items()}


@pytest.mark.parametrize("cards", range(1, 7))
def test_tribute_multiplies_by_two_per_card(cards: int) -> None:
    base = hand_scores(1, 3)
    assert hand_scores(1, 3, tribute_cards=cards) == {k: 2 * cards * v for k, v in base.items()}
    solo = hand_scores(1, solo="open")
    assert hand_scores(1, solo="open", tribute_cards=cards) == {k: 2 * cards * v for k, v in solo.items()}


def test_six_tribute_cards_is_times_twelve() -> None:
    assert hand_scores(4, 5, tribute_cards=6) == {"emperor": -72, "guard": -36, "rebel": 36}


def test_kick_split_rebels_doubled_emperor_and_guard_equal() -> None:
    # (1,2): g = 3; kick: rebels -3 x 2 = -6 each, the side's +18 split 9 / 9 (not 12 / 6)
    assert hand_scores(1, 2, kicks=1) == {"emperor": 9, "guard": 9, "rebel": -6}
    # (4,5): g = -3; rebels +6 each, the side's -18 shared -9 / -9
    assert hand_scores(4, 5, kicks=1) == {"emperor": -9, "guard": -9, "rebel": 6}
    # kick after a standing rebellion: x2 x2; the seed's "rebels doubled", side split equally
    assert hand_scores(1, 2, rebellion=True, kicks=1) == {"emperor": 18, "guard": 18, "rebel": -12}
    # kick after 明保: x2 x2
    assert hand_scores(2, 3, open_guard=True, kicks=1) == {"emperor": 6, "guard": 6, "rebel": -4}


def test_each_kick_doubles() -> None:
    one = hand_scores(1, 3, kicks=1)
    two = hand_scores(1, 3, kicks=2)
    assert two == {k: 2 * v for k, v in one.items()}
    assert hand_scores(1, solo="open", kicks=1) == {"emperor": 48, "guard": 0, "rebel": -12}


@pytest.mark.parametrize(
    ("open_guard", "rebellion", "kicks", "tribute"),
    list(itertools.product([False, True], [False, True], [0, 1, 2], [0, 1, 3, 6])),
)
def test_every_combination_is_zero_sum(open_guard: bool, rebellion: bool, kicks: int, tribute: int) -> None:
    opts = dict(open_guard=open_guard, rebellion=rebellion, kicks=kicks, tribute_cards=tribute)
    for pe, pg in PAIRS:  # 5 seats: emperor + guard + 3 rebels
        r = hand_scores(pe, pg, **opts)
        assert r["emperor"] + r["guard"] + 3 * r["rebel"] == 0, (pe, pg, opts, r)
        if kicks:
            assert r["emperor"] == r["guard"]
        else:
            assert r["emperor"] == 2 * r["guard"]
    for solo in ("open", "hidden"):  # 5 seats: emperor + 4 rebels
        for pe in range(1, 6):
            r = hand_scores(pe, solo=solo, **opts)
            assert r["guard"] == 0
            assert r["emperor"] + 4 * r["rebel"] == 0, (pe, solo, opts, r)


@pytest.mark.parametrize(
    ("args", "kwargs", "word"),
    [
        ((0, 2), {}, "place"),
        ((1, 6), {}, "place"),
        ((2, 2), {}, "place"),
        ((1,), {}, "guard"),
        ((1, 2), {"solo": "open"}, "solo"),
        ((1,), {"solo": "maybe"}, "solo"),
        ((1, 2), {"kicks": -1}, "kick"),
        ((1, 2), {"tribute_cards": 7}, "tribute"),
        ((1, 2), {"tribute_cards": -1}, "tribute"),
    ],
)
def test_hand_scores_rejects_nonsense(args: tuple[int, ...], kwargs: dict[str, object], word: str) -> None:
    with pytest.raises(IllegalAction, match=f"(?i){word}"):
        hand_scores(*args, **kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- §6 tribute table
# emperor is seat 0, guard seat 1, rebels 2 3 4; ``places`` lists seats in finishing order.


def _plan(places: list[int], guard: int | None = 1) -> dict[str, list[list[int]]] | None:
    return tribute_plan(0, guard, places)


def _total(side: list[list[int]]) -> int:
    return sum(n for _, n in side)


def test_tribute_solo_win_each_other_gives_the_emperor_one() -> None:
    plan = _plan([0, 3, 1, 4, 2], guard=None)
    assert plan is not None
    assert sorted(plan["givers"]) == [[1, 1], [2, 1], [3, 1], [4, 1]]
    assert plan["receivers"] == [[0, 4]]


@pytest.mark.parametrize("places", [[3, 0, 1, 2, 4], [1, 2, 3, 4, 0], [4, 3, 0, 2, 1]])
def test_tribute_solo_loss_the_emperor_gives_each_other_one(places: list[int]) -> None:
    plan = _plan(places, guard=None)
    assert plan is not None
    assert plan["givers"] == [[0, 4]]
    assert sorted(plan["receivers"]) == [[1, 1], [2, 1], [3, 1], [4, 1]]


@pytest.mark.parametrize("places", [[0, 1, 3, 2, 4], [1, 0, 4, 3, 2]])
def test_tribute_1_2(places: list[int]) -> None:
    plan = _plan(places)
    assert plan is not None
    assert sorted(plan["givers"]) == [[2, 1], [3, 1], [4, 1]]  # the 3 rebels give one each
    assert plan["receivers"] == [[0, 2], [1, 1]]  # emperor picks two (first), guard one


@pytest.mark.parametrize("places", [[0, 2, 1, 3, 4], [1, 4, 0, 2, 3]])
def test_tribute_1_3(places: list[int]) -> None:
    plan = _plan(places)
    assert plan is not None
    assert sorted(plan["givers"]) == sorted([[places[3], 1], [places[4], 1]])  # 4th and 5th
    assert plan["receivers"] == [[0, 1], [1, 1]]  # emperor picks first, guard takes the other


@pytest.mark.parametrize(
    "places",
    [[0, 2, 3, 1, 4], [1, 2, 3, 0, 4], [2, 0, 1, 3, 4], [2, 1, 0, 4, 3]],  # (1,4) and (2,3)
)
def test_tribute_1_4_and_2_3_the_last_gives_the_emperor_one(places: list[int]) -> None:
    plan = _plan(places)
    assert plan == {"givers": [[places[4], 1]], "receivers": [[0, 1]]}


@pytest.mark.parametrize(
    "places",
    [[0, 2, 3, 4, 1], [1, 2, 3, 4, 0], [2, 0, 3, 1, 4], [2, 1, 3, 0, 4]],  # (1,5) and (2,4)
)
def test_tribute_draws(places: list[int]) -> None:
    assert _plan(places) is None


@pytest.mark.parametrize("places", [[2, 0, 3, 4, 1], [3, 1, 2, 4, 0]])
def test_tribute_2_5_the_emperor_gives_the_first_one(places: list[int]) -> None:
    assert _plan(places) == {"givers": [[0, 1]], "receivers": [[places[0], 1]]}


@pytest.mark.parametrize("places", [[2, 3, 0, 1, 4], [4, 2, 1, 0, 3]])
def test_tribute_3_4(places: list[int]) -> None:
    plan = _plan(places)
    assert plan is not None
    assert sorted(plan["givers"]) == [[0, 1], [1, 1]]  # emperor and guard one each
    assert plan["receivers"] == [[places[0], 1], [places[1], 1]]  # the 1st picks first


@pytest.mark.parametrize("places", [[2, 3, 0, 4, 1], [4, 2, 1, 3, 0]])
def test_tribute_3_5(places: list[int]) -> None:
    plan = _plan(places)
    assert plan is not None
    assert sorted(plan["givers"]) == [[0, 2], [1, 1]]  # emperor two, guard one
    rebels = [s for s in places if s not in (0, 1)]
    assert plan["receivers"] == [[s, 1] for s in rebels]  # rebels pick in finishing order


@pytest.mark.parametrize("places", [[2, 3, 4, 0, 1], [4, 3, 2, 1, 0]])
def test_tribute_4_5(places: list[int]) -> None:
    plan = _plan(places)
    assert plan is not None
    assert sorted(plan["givers"]) == [[0, 4], [1, 2]]  # emperor four, guard two
    assert plan["receivers"] == [[s, 2] for s in places[:3]]  # two each, in finishing order


def test_tribute_cards_given_equal_cards_taken_and_at_most_six() -> None:
    for order in itertools.permutations(SEATS):
        for guard in (1, None):
            plan = _plan(list(order), guard=guard)
            if plan is None:
                continue
            assert _total(plan["givers"]) == _total(plan["receivers"]) <= 6
            givers = {s for s, _ in plan["givers"]}
            takers = {s for s, _ in plan["receivers"]}
            assert not givers & takers


# ---------------------------------------------------------------------------- §4 end of hand + §5 in the engine

# seat 0 emperor (BJ*), seat 1 guard (SJ*), seats 2-4 rebels
END_DEAL = ["BJ 3", "SJ 4", "5 6", "7 8", "9 T"]


def test_emperor_and_guard_first_end_the_hand_1_2() -> None:
    g = play(END_DEAL)
    apply_all(g, "3", "4", "pass", "pass", "pass", "BJ")  # emperor out 1st; BJ: all pass
    assert g.finished == [0] and not g.is_over
    assert g.to_act == 1  # 接风: the next player holding cards leads
    g.apply("SJ")  # guard out 2nd: both finished, the hand ends
    assert g.is_over and g.phase == "over" and g.to_act is None
    assert g.legal_actions() == []
    assert g.scores == (6, 3, -3, -3, -3)
    assert g.view(3)["scores"] == [6, 3, -3, -3, -3]


def test_all_rebels_first_end_the_hand_minus_three() -> None:
    g = play(["BJ 3 3", "SJ 4 4", "Q", "K", "A"])
    apply_all(g, "3", "pass", "Q", "K", "A")  # Q, K, A: every rebel is out (places 1-3)
    assert g.is_over
    assert g.finished == [2, 3, 4]
    assert g.scores == (-6, -3, 3, 3, 3)
    assert sum(g.scores) == 0


def test_guard_first_and_emperor_last_is_1_5() -> None:
    g = play(["BJ 3 3", "SJ", "4", "5", "6"])
    apply_all(g, "3", "SJ", "pass", "pass", "pass", "pass")  # the guard is out 1st
    assert g.to_act == 2  # 接风
    apply_all(g, "4", "5", "6")  # every rebel is out: the emperor is last
    assert g.is_over and g.finished == [1, 2, 3, 4]
    assert g.scores == (0, 0, 0, 0, 0)


def test_hand_goes_on_while_one_side_is_incomplete() -> None:
    g = play(["BJ 3 9", "SJ 4 4", "Q", "K", "A 2"])
    apply_all(g, "3", "pass", "Q", "K", "A")  # seat 4 still holds a 2
    assert g.finished == [2, 3] and not g.is_over
    assert g.to_act == 0


def test_places_2_3_score() -> None:
    g = play(["BJ 3 5", "SJ 4", "A", "9 9", "8 8"])
    # 0: 3; 1: 4; 2: A (out 1st); 3 passes; 4 passes; 0 passes; 1 passes -> 2 is out: 接风 -> 3
    apply_all(g, "3", "4", "A", "pass", "pass", "pass", "pass")
    assert g.finished == [2] and g.to_act == 3
    apply_all(g, "9", "pass", "BJ")  # emperor: BJ (all pass), leads again
    assert g.to_act == 0
    g.apply("5")  # emperor out 2nd
    g.apply("SJ")  # guard beats and is out 3rd
    assert g.is_over
    assert g.finished == [2, 0, 1]
    assert g.scores == (2, 1, -1, -1, -1)


def test_unfinished_seats_place_by_the_cards_they_hold() -> None:
    """The places of the players still holding cards at the end (§4, revised): fewer cards,
    better place; equal counts, the one who would play sooner after the last finisher. The
    order matters for the Qingdao tribute: the 大落 gives. ``unfinished_places="seat"``
    (records of version 1) keeps them in seat order."""
    opening = ("3", "4", "A", "pass", "pass", "pass", "pass", "9", "pass", "BJ", "5", "SJ")
    g = play(["BJ 3 5", "SJ 4", "A", "9 9 7", "8"], tribute=True)
    apply_all(g, *opening)
    assert g.is_over and g.finished == [2, 0, 1]
    assert [len(g.hand(s)) for s in (3, 4)] == [2, 1]  # seat 4 holds fewer cards …
    assert g.places() == g.view(None)["places"] == [2, 0, 1, 4, 3]  # … and places 4th
    assert g.next_tribute == {"givers": [[3, 1]], "receivers": [[0, 1]]}  # (2,3): the 大落 gives
    assert g.scores == (4, 2, -2, -2, -2)  # places (2,3), ×2 for the tribute card
    old = play(["BJ 3 5", "SJ 4", "A", "9 9 7", "8"], tribute=True, unfinished_places="seat")
    apply_all(old, *opening)
    assert old.places() == [2, 0, 1, 3, 4] and old.next_tribute == {"givers": [[4, 1]], "receivers": [[0, 1]]}

    # the guard (seat 3) finishes last; seats 1 and 4 hold two cards each: seat 4 plays
    # sooner after seat 3, so it places 4th
    g = play(["BJ 3 5", "6 6", "A", "SJ 4", "7 7"])
    assert g.view(None)["guard"] is None and g.view(3)["guard"] == 3
    apply_all(g, "3", "pass", "A", "pass", "pass", "pass", "pass", "4", "pass", "BJ", "5", "pass", "SJ")
    assert g.is_over and g.finished == [2, 0, 3]
    assert [len(g.hand(s)) for s in (1, 4)] == [2, 2]
    assert g.places() == g.view(None)["places"] == [2, 0, 3, 4, 1]
    assert g.scores == (2, -1, -1, 1, -1)


def test_open_solo_ends_at_the_first_finisher() -> None:
    # standard: the emperor holding SJ* may declare 明独
    g = new(["BJ SJ 3 3", "4", "5 5", "6 6", "7 7"])
    assert "open_solo" in legal(g)
    g.apply("open_solo")
    assert g.phase == "play" and g.to_act == 0  # no guard questions after an open solo
    apply_all(g, "3", "4")  # seat 1 is out first: the solo emperor lost
    assert g.is_over
    assert g.scores == (-24, 6, 6, 6, 6)


def test_open_solo_win() -> None:
    g = new(["BJ SJ", "4", "5 5", "6 6", "7 7"])
    g.apply("open_solo")
    apply_all(g, "BJ SJ")
    assert g.is_over and g.scores == (24, -6, -6, -6, -6)


def test_hidden_solo_ends_when_the_emperor_finishes() -> None:
    g = play(["BJ SJ 3", "4 4", "5 5", "6 6", "7 7"])  # accepts holding SJ*: 暗独
    assert g.view(0)["solo"] == "hidden"
    assert all(g.view(s)["solo"] is None for s in (1, 2, 3, 4, None))
    apply_all(g, "BJ SJ")  # BJ: all pass, emperor leads again
    assert g.to_act == 0
    g.apply("3")
    assert g.is_over
    assert g.scores == (12, -3, -3, -3, -3)
    assert all(g.view(s)["solo"] == "hidden" for s in (1, None))  # known at the end


def test_hidden_solo_second_scores_zero() -> None:
    g = play(["BJ SJ 3", "4", "5 5", "6 6", "7 7"])
    apply_all(g, "3", "4", "pass", "pass", "pass", "BJ")  # seat 1 out 1st; BJ: all pass
    assert g.to_act == 0 and not g.is_over
    g.apply("SJ")  # the emperor is out 2nd
    assert g.is_over
    assert g.finished == [1, 0]
    assert g.scores == (0, 0, 0, 0, 0)


def test_hidden_solo_ends_when_two_others_finish_first() -> None:
    g = play(["BJ SJ 3 3", "4", "5", "6 6", "7 7"])
    apply_all(g, "3", "4")  # seat 1 out: the hand goes on (暗独)
    assert not g.is_over
    apply_all(g, "5")  # seat 2 out: two others before the emperor
    assert g.is_over
    assert g.finished == [1, 2]
    assert g.scores == (-12, 3, 3, 3, 3)


def test_open_guard_doubles_the_hand() -> None:
    g = new(END_DEAL)
    apply_all(g, "accept", "reveal")  # seat 1 is asked 明保 first
    start_play(g)
    apply_all(g, "3", "4", "pass", "pass", "pass", "BJ", "SJ")
    assert g.open_guard
    assert g.scores == (12, 6, -6, -6, -6)


def test_standing_rebellion_doubles_the_hand() -> None:
    g = new(END_DEAL)
    apply_all(g, "accept", "no", "no", "no", "no")  # nobody reveals
    apply_all(g, "no", "rebel", "rebel", "no")  # seats 2 and 3 rebel: it stands
    assert g.phase == "play"
    apply_all(g, "3", "4", "pass", "pass", "pass", "BJ", "SJ")
    assert g.scores == (12, 6, -6, -6, -6)


def test_kick_after_rebellion_in_the_engine() -> None:
    # weihai deck: no 3, 4, 5
    g = new(["BJ 6", "SJ 7", "8 9", "T J", "Q K"], variant="weihai")
    apply_all(g, "accept", *["no"] * 4)  # 抢独 round (weihai): nobody grabs
    apply_all(g, *["no"] * 4)  # 明保 round
    apply_all(g, "no", "rebel", "rebel", "no")  # rebellion stands
    assert g.step == "kick" and g.to_act == 0
    apply_all(g, "kick")
    assert g.phase == "play" and g.kicks == 1
    apply_all(g, "6", "7", "pass", "pass", "pass", "BJ", "SJ")
    # g = 3; rebellion x2, kick x2: rebels -3 x4 = -12; the side's +36 split equally
    assert g.scores == (18, 18, -12, -12, -12)


def test_hidden_solo_rebellion_and_kick_in_the_engine() -> None:
    g = new(["BJ SJ 6", "7", "8", "9", "T"], variant="weihai")
    apply_all(g, "accept", *["no"] * 8, "rebel", "rebel", "no", "no")
    assert g.rebellion and g.step == "kick" and g.to_act == 0  # the solo emperor is his own guard
    g.apply("kick")
    assert g.phase == "play"
    apply_all(g, "BJ SJ", "6")
    # 暗独 1st: +12 / -3, rebellion x2, kick x2
    assert g.scores == (48, -12, -12, -12, -12)


def test_open_guard_and_rebel_kick_in_the_engine() -> None:
    g = new(["BJ 6", "SJ 7", "8 9", "T J", "Q K"], variant="weihai")
    apply_all(g, "accept", *["no"] * 4, "reveal", "kick", "kick", "no")
    assert g.open_guard and g.kicks == 1 and g.phase == "play"
    apply_all(g, "6", "7", "pass", "pass", "pass", "BJ", "SJ")
    # (1,2): g = 3; 明保 x2, kick x2: rebels -12; the side's +36 shared equally
    assert g.scores == (18, 18, -12, -12, -12)


def test_the_leave_penalty_is_not_applied_by_the_engine() -> None:
    g = play(END_DEAL)
    assert g.options["leave_penalty"] == 40
    apply_all(g, "3", "4", "pass", "pass", "pass", "BJ", "SJ")
    assert sum(g.scores) == 0


# ---------------------------------------------------------------------------- Qingdao tribute in a hand


def test_tribute_due_is_paid_right_after_the_deal_and_picked_in_priority() -> None:
    plan = {"givers": [[2, 1], [3, 1], [4, 1]], "receivers": [[0, 2], [1, 1]]}  # result (1,2)
    deal = ["BJ 3s 3s 3s", "3s 6", "9 2 7", "A 8", "SJ 5 K"]
    g = new(deal, variant="qingdao", tribute_due=plan)
    assert g.phase == "setup" and g.step == "tribute"
    assert g.to_act == 0  # the emperor of the previous hand picks first
    assert sorted(g.view(0)["tribute_pool"]) == sorted(["2s", "As", "SJ"])  # each giver's highest card
    assert ranks(g, 2) == ["7", "9"] and ranks(g, 3) == ["8"] and ranks(g, 4) == ["5", "K"]
    assert sorted(legal(g)) == sorted(["take 2s", "take As", "take SJ"])
    g.apply("take SJ")
    assert g.to_act == 0  # he picks two
    g.apply("take 2s")
    # the guard takes the last card without a choice; then the emperor card's holder decides
    assert g.step == "emperor" and g.to_act == 0
    assert "SJ" in hand(g, 0) and "2s" in hand(g, 0) and "As" in hand(g, 1)
    assert sum(len(g.hand(s)) for s in SEATS) == sum(len(paiju.parse_cards(h)) for h in deal)


def test_no_tribute_step_without_a_plan() -> None:
    g = new(["BJ 3s 3s 3s", "3s", "9", "A", "K"], variant="qingdao", tribute_due=None)
    assert g.step == "emperor"


# ---------------------------------------------------------------------------- matches


def _finish_hosted(g: paiju.Game) -> None:
    for _ in range(5000):
        if g.is_over:
            return
        g.apply(hosted_action(g))
    raise AssertionError("hand did not end")


def _finish_random(g: paiju.Game, rng: random.Random) -> None:
    for _ in range(5000):
        if g.is_over:
            return
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    raise AssertionError("hand did not end")


def _tribute_cards(g: paiju.Game) -> list[list[object]]:
    ev = [e for e in g.view(None)["events"] if e.get("event") == "tribute"]
    return ev[0]["cards"] if ev else []


@pytest.mark.parametrize("driver", ["hosted", "random"])
def test_qingdao_match_tribute_deal_start_and_standings(driver: str) -> None:
    m = paiju.new_match("baohuang", seed=1, variant="qingdao")
    rng = random.Random(5)
    totals = [0] * 5
    saw_tribute = saw_choice = False
    for _ in range(4):
        g = m.game
        if driver == "hosted":
            _finish_hosted(g)
        else:
            _finish_random(g, rng)
        assert sum(g.scores) == 0
        totals = [a + b for a, b in zip(totals, g.scores)]
        assert m.standings == totals
        first = g.finished[0]
        plan = g.next_tribute
        nxt = m.next_hand()
        assert nxt is m.game and nxt is not g
        assert nxt.options["first_seat"] == first  # deal_start=first_finisher
        if plan is None:
            assert _tribute_cards(nxt) == [] and nxt.step == "emperor"
            assert sorted(len(nxt.hand(s)) for s in SEATS) == [43, 43, 43, 43, 44]
            assert len(nxt.hand(first)) == 44
            continue
        saw_tribute = True
        given = _tribute_cards(nxt)
        n_cards = sum(n for _, n in plan["givers"])
        assert len(given) == n_cards
        assert sorted({s for s, _ in given}) == sorted(s for s, _ in plan["givers"])
        if nxt.step == "tribute":
            saw_choice = True
            assert nxt.to_act == plan["receivers"][0][0]  # the first receiver picks first
            while nxt.step == "tribute":
                nxt.apply(hosted_action(nxt))
        # after the tribute: sizes = dealt - given + taken
        sizes = {s: (44 if s == first else 43) for s in SEATS}
        for s, n in plan["givers"]:
            sizes[s] -= n
        for s, n in plan["receivers"]:
            sizes[s] += n
        assert {s: len(nxt.hand(s)) for s in SEATS} == sizes
    if driver == "hosted":
        assert saw_tribute and saw_choice, "seed 1 should produce a tribute with a choice"
    assert sum(m.standings) == 0


def test_previous_emperor_deal_start() -> None:
    m = paiju.new_match("baohuang", seed=3, variant="standard", deal_start="previous_emperor")
    for _ in range(3):
        g = m.game
        _finish_hosted(g)
        emperor = g.emperor
        nxt = m.next_hand()
        assert nxt.options["first_seat"] == emperor
        assert len(nxt.hand(emperor)) == 44  # dealing starts at the previous emperor
    assert sum(m.standings) == 0


def test_first_finisher_deal_start_standard() -> None:
    m = paiju.new_match("baohuang", seed=4)
    g = m.game
    assert len(g.hand(0)) == 44  # the first hand starts at seat 0
    _finish_hosted(g)
    first = g.finished[0]
    nxt = m.next_hand()
    assert len(nxt.hand(first)) == 44
    assert [len(nxt.hand(s)) for s in SEATS].count(43) == 4


def test_next_hand_needs_a_finished_hand() -> None:
    m = paiju.new_match("baohuang", seed=2)
    with pytest.raises(IllegalAction, match="not over"):
        m.next_hand()


def test_match_with_a_hand_limit_ends() -> None:
    m = paiju.new_match("baohuang", seed=2, hands=1)
    assert not m.is_over
    _finish_hosted(m.game)
    assert m.is_over
    with pytest.raises(IllegalAction, match="over"):
        m.next_hand()
    assert m.standings == list(m.game.scores)
