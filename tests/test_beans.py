"""Beans 游戏豆 (paiju.beans): docs/api.md "Beans", docs/rules/baohuang.md §5, seed 002's split formulas."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import paiju
from paiju.baohuang.scoring import hand_scores
from paiju.beans import leave_penalty, settle, split_penalty
from paiju.shuangkou.scoring import hand_scores as shuangkou_scores


def baohuang_seats(points: dict[str, int], emperor: int, guard: int | None = None) -> list[int]:
    """Five seats' scores from ``hand_scores``' roles."""
    return [points["emperor"] if s == emperor else points["guard"] if s == guard else points["rebel"] for s in range(5)]


# ------------------------------------------------------------------ the spec, sentence by sentence


def test_reachable_from_the_package() -> None:
    assert paiju.beans.settle([1, -1]) == [1, -1]


def test_defaults_move_the_scores_themselves() -> None:
    assert settle([6, -3, -3, 3, -3]) == [6, -3, -3, 3, -3]
    assert settle([3, -3, 3, -3]) == [3, -3, 3, -3]


def test_total_is_room_times_table_times_the_positive_scores() -> None:
    beans = settle([6, -3, -3, 3, -3], room_multiplier=7, table_multiplier=3)
    assert sum(b for b in beans if b > 0) == 7 * 3 * 9
    assert beans == [126, -63, -63, 63, -63]


def test_receivers_share_by_score_times_own() -> None:
    # total 9: stakes 6×1 and 3×2 are equal: 4.5 and 4.5 → 5 and 5, the lowest seat gives one back
    assert settle([6, -3, -3, 3, -3], own=[1, 1, 1, 2, 1]) == [4, -3, -3, 5, -3]
    assert settle([6, -3, -3, 3, -3], room_multiplier=2, own=[1, 1, 1, 2, 1]) == [9, -6, -6, 9, -6]


def test_payers_pay_by_abs_score_times_own() -> None:
    # rebels' stakes 3×1, 3×2, 3×3: 90 × 1/6, 2/6, 3/6
    assert settle([6, -3, -3, 3, -3], room_multiplier=10, own=[1, 1, 2, 1, 3]) == [60, -15, -30, 30, -45]


def test_zero_scores_move_nothing() -> None:
    assert settle([0, 4, 0, -4], own=[4, 1, 3, 1], balances=[0, 0, 0, 100]) == [0, 4, 0, -4]
    assert settle([0, 0, 0, 0, 0], room_multiplier=100) == [0, 0, 0, 0, 0]


def test_a_payer_never_pays_more_than_his_balance() -> None:
    beans = settle([6, -3, -3, 3, -3], room_multiplier=10, balances=[0, 5, 1000, 0, 1000])
    assert beans[1] == -5
    assert beans[2] == beans[4] == -30  # the others do not pay for him


def test_receivers_share_what_was_really_paid_in_the_same_proportions() -> None:
    # 5 + 30 + 30 = 65 paid of 90 due: emperor 65 × 2/3 = 43.33 → 43, guard 21.67 → 22
    assert settle([6, -3, -3, 3, -3], room_multiplier=10, balances=[0, 5, 1000, 0, 1000]) == [43, -5, -30, 22, -30]


def test_capped_payer_whose_balance_is_below_his_rounded_share() -> None:
    # due 11.25 → 11 and 33.75 → 34: seat 2 has 20, pays 20; the receivers get 76, not 90
    beans = settle([6, -3, -3, 3, -3], room_multiplier=10, own=[2, 1, 3, 1, 4], balances=[0, 100, 20, 0, 100])
    assert beans == [61, -11, -20, 15, -45]  # 76 × 12/15 = 60.8 → 61, 76 × 3/15 = 15.2 → 15


def test_balances_of_zero_move_nothing() -> None:
    assert settle([6, -3, -3, 3, -3], room_multiplier=10, balances=[0] * 5) == [0] * 5
    assert settle([6, -3, -3, 3, -3], balances=[500, 0, 0, 500, 0]) == [0] * 5


def test_receivers_balances_do_not_matter() -> None:
    assert settle([6, -3, -3, 3, -3], balances=[0, 10, 10, 0, 10]) == [6, -3, -3, 3, -3]


def test_none_in_balances_is_one_unlimited_seat() -> None:
    assert settle([2, -1, -1], room_multiplier=100, balances=[0, None, 30]) == [130, -100, -30]


def test_rounding_is_half_up() -> None:
    # payers 4 × 11/16, 2/16, 3/16 = 2.75 → 3, 0.5 → 1 (not 0: half up), 0.75 → 1 = 5;
    # one too many: the largest share gives it back
    assert settle([4, -1, -1, -1], own=[1, 11, 2, 3]) == [4, -2, -1, -1]
    # receivers 10 × 1/4, 3/4 = 2.5 → 3, 7.5 → 8 = 11; the largest gives one back
    assert settle([1, 3, -4], room_multiplier=5, balances=[0, 0, 10]) == [3, 7, -10]
    # payers 3.5 and 3.5 → 4 and 4: the largest share on a tie is the lowest seat's
    assert settle([7, -1, -1]) == [7, -3, -4]


def test_remainder_goes_to_the_largest_share() -> None:
    # 8 by stakes 3, 2, 2: 3.43 → 3, 2.29 → 2, 2.29 → 2 = 7; the bean left goes to the largest
    assert settle([3, 2, 2, -7], room_multiplier=2, balances=[0, 0, 0, 8]) == [4, 2, 2, -8]
    # 10 by 1, 1, 1: 3.33 each → 3, 3, 3; the bean left goes to the lowest seat of the tie
    assert settle([1, 1, 1, -3], balances=[0, 0, 0, 10], room_multiplier=10) == [4, 3, 3, -10]
    # 10 by stakes 1, 1, 2: 2.5, 2.5, 5 → 3, 3, 5 = 11: the largest (seat 2) gives one back
    assert settle([1, 1, 2, -4], balances=[0, 0, 0, 10], room_multiplier=10) == [3, 3, 4, -10]
    # payers: 7 by 1, 1, 1: 2.33 → 2 each, the left bean on the lowest seat of the tie
    assert settle([7, -1, -1, -1]) == [7, -3, -2, -2]


def test_overshoot_that_would_give_a_wrong_sign_is_taken_back_bean_by_bean() -> None:
    # 明独 lost, the emperor has 2 beans: 0.5 each → 1 each = 4; the plain rule would leave seat 1 at −1
    scores = baohuang_seats(hand_scores(2, solo="open"), emperor=0)
    assert scores == [-24, 6, 6, 6, 6]
    assert settle(scores, balances=[2, 0, 0, 0, 0]) == [-2, 0, 0, 1, 1]


def test_overshoot_that_would_break_the_order_is_taken_back_from_the_smaller_stake() -> None:
    # (3, 4): 15 due, 5 paid; stakes 4, 3, 3 → 2, 1.5, 1.5 → 2, 2, 2 = 6.
    # The plain rule would give the largest stake 1 and the smaller ones 2 each.
    scores = baohuang_seats(hand_scores(3, 4), emperor=0, guard=1)
    assert scores == [-2, -1, 1, 1, 1]
    beans = settle(scores, room_multiplier=5, own=[1, 1, 4, 3, 3], balances=[3, 2, 0, 0, 0])
    assert beans == [-3, -2, 2, 1, 2]


def test_no_payers_or_no_receivers_move_nothing() -> None:
    assert settle([3, 0, 0]) == [0, 0, 0]
    assert settle([-3, 0, 0]) == [0, 0, 0]
    assert settle([]) == []


def test_scores_that_do_not_sum_to_zero() -> None:
    # the total is the positive scores; the payers share it between them
    assert settle([4, -1, -1]) == [4, -2, -2]
    assert settle([2, -3, -3]) == [2, -1, -1]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"scores": [1, -1], "own": [1]}, "own has 1 entries for 2 seats"),
        ({"scores": [1, -1], "balances": [1, 1, 1]}, "balances has 3 entries"),
        ({"scores": [1, -1], "room_multiplier": 0}, "room_multiplier must be a positive int"),
        ({"scores": [1, -1], "table_multiplier": -2}, "table_multiplier must be a positive int"),
        ({"scores": [1, -1], "room_multiplier": 1.5}, "room_multiplier"),
        ({"scores": [1, -1], "table_multiplier": True}, "table_multiplier"),
        ({"scores": [1, -1], "own": [1, 0]}, "own multiplier must be a positive int"),
        ({"scores": [1, -1], "own": [1, 2.0]}, "own multiplier"),
        ({"scores": [1, -1], "balances": [1, -1]}, "balances must be non-negative"),
        ({"scores": [1, -1], "balances": [1, 0.5]}, "balances must be non-negative"),
        ({"scores": [1.0, -1]}, "scores must be ints"),
    ],
)
def test_bad_arguments(kwargs: dict, message: str) -> None:
    kwargs = dict(kwargs)
    scores = kwargs.pop("scores")
    with pytest.raises(ValueError, match=message):
        settle(scores, **kwargs)


# ------------------------------------------------------------------ the seed's Baohuang split


def test_seed_split_1_2_with_own_multipliers() -> None:
    # emperor seat 0, guard seat 3: 6, 3, rebels −3; room 10 → total 90
    # emperor side 90 × 12/15 = 72, 90 × 3/15 = 18; rebels by own 1, 3, 4: 11.25 → 11, 33.75 → 34, 45
    scores = baohuang_seats(hand_scores(1, 2), emperor=0, guard=3)
    assert settle(scores, room_multiplier=10, own=[2, 1, 3, 1, 4]) == [72, -11, -34, 18, -45]


def test_seed_split_2_5_open_guard() -> None:
    # 明保 (2, 5): emperor −4, guard −2, rebels +2; total 5 × 6 = 30
    # rebels by own 1, 2, 3: 5, 10, 15; emperor side by 4×2, 2×1: 24, 6
    scores = baohuang_seats(hand_scores(2, 5, open_guard=True), emperor=2, guard=4)
    assert scores == [2, 2, -4, 2, -2]
    assert settle(scores, room_multiplier=5, own=[1, 2, 2, 3, 1]) == [5, 10, -24, 15, -6]


def test_seed_split_open_solo_won() -> None:
    # 明独, emperor first: +24, four rebels −6 each; total 3 × 24 = 72
    # rebels by own 1, 2, 3, 4: 7.2 → 7, 14.4 → 14, 21.6 → 22, 28.8 → 29 (sum 72)
    scores = baohuang_seats(hand_scores(1, solo="open"), emperor=0)
    assert settle(scores, table_multiplier=3, own=[4, 1, 2, 3, 4]) == [72, -7, -14, -22, -29]


def test_seed_split_hidden_solo_lost_with_rebellion() -> None:
    # 暗独 third, 造反: emperor −24, rebels +6 each; rebels by own 3, 1, 1, 2 of 24:
    # 10.29 → 10, 3.43 → 3, 3.43 → 3, 6.86 → 7 = 23; the bean left goes to the largest (own 3)
    scores = baohuang_seats(hand_scores(3, solo="hidden", rebellion=True), emperor=2)
    assert scores == [6, 6, -24, 6, 6]
    assert settle(scores, own=[3, 1, 4, 1, 2]) == [11, 3, -24, 3, 7]


def test_seed_split_kick_half_up_and_remainder() -> None:
    # (1, 3) with a kick: emperor and guard 6 each, rebels −4; total 12
    # emperor side by 6×1, 6×2: 4, 8; rebels by 4×2, 4×3, 4×3: 3, 4.5 → 5, 4.5 → 5 = 13:
    # one bean too many, given back by the largest share, lowest seat of the tie (seat 2)
    scores = baohuang_seats(hand_scores(1, 3, kicks=1), emperor=1, guard=3)
    assert scores == [-4, 6, -4, 6, -4]
    assert settle(scores, own=[2, 1, 3, 2, 3]) == [-3, 4, -4, 8, -5]


def test_seed_split_rebels_by_own_alone() -> None:
    # the rebels' points are equal, so their shares follow their own multipliers exactly
    # 明保 (4, 5): emperor −12, guard −6, rebels +6; total 180: rebels by own 1, 2, 3: 30, 60, 90
    scores = baohuang_seats(hand_scores(4, 5, open_guard=True), emperor=0, guard=1)
    assert scores == [-12, -6, 6, 6, 6]
    assert settle(scores, room_multiplier=10, own=[1, 1, 1, 2, 3]) == [-120, -60, 30, 60, 90]


def test_shuangkou_double() -> None:
    # 双扣 3 points: receivers by 3×1, 3×3 of 6: 1.5 → 2, 4.5 → 5 = 7 → the largest gives one back
    scores = list(shuangkou_scores([0, 2]))
    assert scores == [3, -3, 3, -3]
    assert settle(scores, own=[1, 2, 3, 4]) == [2, -2, 4, -4]


# ------------------------------------------------------------------ the leave penalty


def test_leave_penalty() -> None:
    assert leave_penalty(40) == 40
    assert leave_penalty(40, room_multiplier=10, table_multiplier=2) == 800
    assert leave_penalty(0, room_multiplier=10) == 0
    with pytest.raises(ValueError, match="points must be a non-negative int"):
        leave_penalty(-1)
    with pytest.raises(ValueError, match="room_multiplier"):
        leave_penalty(40, room_multiplier=0)
    with pytest.raises(ValueError, match="table_multiplier"):
        leave_penalty(40, table_multiplier=2.5)  # type: ignore[arg-type]


def test_split_penalty() -> None:
    assert split_penalty(800, 4) == [200, 200, 200, 200]
    assert split_penalty(10, 3) == [4, 3, 3]
    assert split_penalty(11, 3) == [4, 4, 3]
    assert split_penalty(0, 2) == [0, 0]
    assert split_penalty(7, 1) == [7]
    with pytest.raises(ValueError, match="receivers must be a positive int"):
        split_penalty(10, 0)
    with pytest.raises(ValueError, match="amount must be a non-negative int"):
        split_penalty(-10, 2)


@given(amount=st.integers(0, 10**6), receivers=st.integers(1, 8))
def test_split_penalty_properties(amount: int, receivers: int) -> None:
    shares = split_penalty(amount, receivers)
    assert len(shares) == receivers and sum(shares) == amount
    assert shares == sorted(shares, reverse=True) and shares[0] - shares[-1] <= 1


# ------------------------------------------------------------------ properties


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[int], int, int, list[int], list[int | None]]:
    """Scores that sum to 0 (like the games'), multipliers, own multipliers and balances."""
    n = draw(st.integers(2, 6))
    head = draw(st.lists(st.integers(-60, 60), min_size=n - 1, max_size=n - 1))
    room = draw(st.sampled_from([1, 1, 2, 3, 5, 10, 100]))
    table = draw(st.integers(1, 4))
    own = draw(st.lists(st.integers(1, 4), min_size=n, max_size=n))
    balance = st.one_of(st.integers(0, 30), st.integers(0, 5000), st.none())
    balances = draw(st.lists(balance, min_size=n, max_size=n))
    return [*head, -sum(head)], room, table, own, balances


def check_order(beans: list[int], stakes: list[int], side: list[int]) -> None:
    """A larger stake score × own never gets (or pays) fewer beans than a smaller one on its side."""
    for i in side:
        for j in side:
            if stakes[i] > stakes[j]:
                assert abs(beans[i]) >= abs(beans[j]), (i, j)


def check_near_exact(beans: list[int], stakes: list[int], side: list[int], amount: int) -> None:
    """Each share is its exact share of ``amount`` give or take the rounding and its remainder."""
    whole = sum(stakes[i] for i in side)
    for i in side:  # |share − amount × stake / whole| ≤ (k + 1) / 2, in integers
        assert 2 * abs(abs(beans[i]) * whole - amount * stakes[i]) <= (len(side) + 1) * whole


def check_settlement(scores: list[int], room: int, table: int, own: list[int], balances: list[int | None]) -> None:
    """Every property of one settlement, without balances and with them."""
    stakes = [abs(s) * o for s, o in zip(scores, own)]
    receivers = [i for i, s in enumerate(scores) if s > 0]
    payers = [i for i, s in enumerate(scores) if s < 0]
    total = room * table * sum(scores[i] for i in receivers)

    free = settle(scores, room_multiplier=room, table_multiplier=table, own=own)
    assert sum(free) == 0
    assert sum(free[i] for i in receivers) == total == -sum(free[i] for i in payers)
    for side in (receivers, payers):
        check_order(free, stakes, side)
        check_near_exact(free, stakes, side, total)

    beans = settle(scores, room_multiplier=room, table_multiplier=table, own=own, balances=balances)
    assert len(beans) == len(scores)
    assert sum(beans) == 0
    for i, (s, b, balance) in enumerate(zip(scores, beans, balances)):
        if s == 0:
            assert b == 0
        elif s > 0:
            assert b >= 0  # receivers receive
        else:
            assert b <= 0  # payers pay
            assert b >= free[i]  # never more than without balances: nobody pays for another
            if balance is not None:
                assert -b <= balance and balance + b >= 0  # never more than he has
    paid = sum(beans[i] for i in receivers)
    assert paid <= total
    check_order(beans, stakes, receivers)  # the receivers stay in order when payers are capped
    if paid:
        check_near_exact(beans, stakes, receivers, paid)


@settings(max_examples=500, deadline=None)
@given(hand=hands())
def test_settlement_properties(hand: tuple) -> None:
    check_settlement(*hand)


def test_settlement_properties_many_hands() -> None:
    """The same properties on 10 000 more seeded random hands (hypothesis' drawing is the slow part)."""
    rng = random.Random(2)
    for _ in range(10_000):
        n = rng.randint(2, 6)
        head = [rng.randint(-60, 60) for _ in range(n - 1)]
        own = [rng.randint(1, 4) for _ in range(n)]
        balances = [rng.choice([None, rng.randint(0, 30), rng.randint(0, 5000)]) for _ in range(n)]
        hand = ([*head, -sum(head)], rng.choice([1, 1, 2, 3, 5, 10, 100]), rng.randint(1, 4), own, balances)
        try:
            check_settlement(*hand)
        except AssertionError as e:
            raise AssertionError(f"{hand}: {e}") from e
