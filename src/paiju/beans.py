"""Beans 游戏豆: the hall's settlement of a scored hand, as pure functions (docs/api.md "Beans",
``docs/rules/baohuang.md`` §5; the same rule for every game).

游戏豆总输赢 = 房间倍数 × 游戏倍数 × 赢家积分总和 × 玩家自定义倍数: the total is the room
multiplier × the table multiplier × the sum of the positive scores (the game multiplier is
already in the points). The seats with a positive score receive it in proportion to
score × own multiplier; the seats with a negative score pay it in proportion to
|score| × own multiplier. For Baohuang that is the seed's split: the emperor and the guard
by 积分 × 倍数, the rebels — whose points are equal — by 倍数 alone.

>>> settle([6, -3, -3, 3, -3])  # (1, 2): emperor seat 0, guard seat 3
[6, -3, -3, 3, -3]
>>> settle([6, -3, -3, 3, -3], room_multiplier=10, own=[2, 1, 3, 1, 4])
[72, -11, -34, 18, -45]
>>> settle([6, -3, -3, 3, -3], balances=[0, 1, 100, 0, 100])  # seat 1 has only 1 bean
[5, -1, -3, 2, -3]

How a side's share is made (:func:`_split`, **[decision]** where the spec is silent):

- each share is its exact value (integer arithmetic, never floats) rounded half up 四舍五入;
- what the roundings leave over goes to the side's largest share (the largest stake
  score × own; ties: the lowest seat), so every settlement sums to exactly 0;
- the roundings can overshoot (several shares ending in ½ all rounded up): then the largest
  share gives the surplus back — unless that would leave it below 0 or below the share of a
  smaller stake (only when shares are a bean or two). Then the surplus is taken back one
  bean at a time, each from the largest share at that moment (among equal ones the smallest
  stake, then the lowest seat). So a share never has the wrong sign, and a larger stake
  never gets fewer beans than a smaller one on the same side.

Balances: the payers' shares are rounded first and then capped at each payer's balance;
a payer short of his share pays what he has, the other payers do not pay for him, and the
receivers share only what was really paid, in the same proportions. So nobody pays more
than he has, a balance of 0 pays nothing, and when every payer has 0 nothing moves. A hand
whose scores are all 0 moves nothing; so does a hand without payers or without receivers
(scores that do not sum to 0 are allowed: the payers pay the total between them).

Leaving a game in progress costs the leaver the hall's penalty points (the room's
``leave_penalty`` option) in beans: :func:`leave_penalty` = points × room × table. The hall
caps it at his balance, like :func:`settle`, and splits what he pays equally among the other
human seats with :func:`split_penalty`.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["cap_house_winnings", "leave_penalty", "settle", "split_penalty"]


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_multiplier(name: str, value: int) -> None:
    if not _is_int(value) or value < 1:
        raise ValueError(f"{name} must be a positive int, not {value!r}")


def _round_half_up(numerator: int, denominator: int) -> int:
    """numerator / denominator (≥ 0) rounded half up 四舍五入, in exact integer arithmetic:
    floor(n/d + 1/2) = floor((2n + d) / 2d)."""
    return (2 * numerator + denominator) // (2 * denominator)


def _split(amount: int, stakes: Sequence[int]) -> list[int]:
    """``amount`` beans (≥ 0) shared in proportion to ``stakes`` (≥ 0, at least one > 0):
    rounded half up, the remainder on the largest share (see the module docstring).

    >>> _split(90, [12, 3]), _split(24, [3, 1, 1, 2]), _split(12, [2, 3, 3])
    ([72, 18], [11, 3, 3, 7], [3, 4, 5])
    >>> _split(5, [4, 3, 3]), _split(2, [1, 1, 1, 1])  # overshoots taken back bean by bean
    ([2, 1, 2], [0, 0, 1, 1])
    """
    whole = sum(stakes)
    shares = [_round_half_up(amount * s, whole) for s in stakes]
    left = amount - sum(shares)
    largest = min(range(len(stakes)), key=lambda i: (-stakes[i], i))
    kept = shares[largest] + left
    if kept >= 0 and all(kept >= shares[i] for i in range(len(stakes)) if stakes[i] < stakes[largest]):
        shares[largest] = kept  # the usual case: the largest share takes the remainder
        return shares
    for _ in range(-left):  # overshoot: one bean back at a time from the largest share at that moment
        i = min(range(len(stakes)), key=lambda j: (-shares[j], stakes[j], j))  # ties: smallest stake, lowest seat
        shares[i] -= 1
    return shares


def settle(
    scores: Sequence[int],
    *,
    room_multiplier: int = 1,
    table_multiplier: int = 1,
    own: Sequence[int] | None = None,
    balances: Sequence[int | None] | None = None,
) -> list[int]:
    """Beans each seat wins (> 0) or pays (< 0) for one hand; the list sums to exactly 0.

    ``scores``: the hand's points per seat (``game.scores``); ``own``: each seat's own
    multiplier 倍数 (default all 1); ``balances``: each seat's beans before the hand
    (default: unlimited; an entry ``None`` leaves that one seat unlimited, e.g. a
    computer player). Raises ValueError on arguments of the wrong length or kind.

    >>> settle([2, 2, -4, 2, -2], room_multiplier=5, own=[1, 2, 2, 3, 1])  # (2, 5) 明保
    [5, 10, -24, 15, -6]
    >>> settle([0, 0, 0, 0]), settle([3, -3, 3, -3], balances=[0, 0, 0, 0])
    ([0, 0, 0, 0], [0, 0, 0, 0])
    """
    n = len(scores)
    if any(not _is_int(s) for s in scores):
        raise ValueError(f"scores must be ints, not {list(scores)!r}")
    _check_multiplier("room_multiplier", room_multiplier)
    _check_multiplier("table_multiplier", table_multiplier)
    own = [1] * n if own is None else list(own)
    if len(own) != n:
        raise ValueError(f"own has {len(own)} entries for {n} seats")
    for m in own:
        _check_multiplier("each own multiplier", m)
    if balances is not None:
        if len(balances) != n:
            raise ValueError(f"balances has {len(balances)} entries for {n} seats")
        if any(b is not None and (not _is_int(b) or b < 0) for b in balances):
            raise ValueError(f"balances must be non-negative ints (or None: unlimited), not {list(balances)!r}")

    receivers = [i for i in range(n) if scores[i] > 0]
    payers = [i for i in range(n) if scores[i] < 0]
    beans = [0] * n
    if not receivers or not payers:
        return beans
    total = room_multiplier * table_multiplier * sum(scores[i] for i in receivers)
    due = _split(total, [-scores[i] * own[i] for i in payers])
    paid = 0
    for i, d in zip(payers, due):
        balance = None if balances is None else balances[i]
        pays = d if balance is None else min(d, balance)  # capped; the others do not cover it
        beans[i] = -pays
        paid += pays
    if paid:
        for i, share in zip(receivers, _split(paid, [scores[i] * own[i] for i in receivers])):
            beans[i] = share
    return beans


def leave_penalty(points: int, *, room_multiplier: int = 1, table_multiplier: int = 1) -> int:
    """Beans a player pays for leaving a game in progress: the room's penalty points
    (Baohuang's 40 by default) × room multiplier × table multiplier.

    >>> leave_penalty(40, room_multiplier=10, table_multiplier=2)
    800
    """
    if not _is_int(points) or points < 0:
        raise ValueError(f"points must be a non-negative int, not {points!r}")
    _check_multiplier("room_multiplier", room_multiplier)
    _check_multiplier("table_multiplier", table_multiplier)
    return points * room_multiplier * table_multiplier


def split_penalty(amount: int, receivers: int) -> list[int]:
    """A leave penalty of ``amount`` beans shared equally by ``receivers`` seats (the other
    human seats, in seat order); the beans that do not divide go one each to the lowest seats.

    >>> split_penalty(800, 4), split_penalty(10, 3), split_penalty(2, 4)
    ([200, 200, 200, 200], [4, 3, 3], [1, 1, 0, 0])
    """
    if not _is_int(amount) or amount < 0:
        raise ValueError(f"amount must be a non-negative int, not {amount!r}")
    if not _is_int(receivers) or receivers < 1:
        raise ValueError(f"receivers must be a positive int, not {receivers!r}")
    each, extra = divmod(amount, receivers)
    return [each + 1 if i < extra else each for i in range(receivers)]


def cap_house_winnings(beans: Sequence[int], house: Sequence[bool], limits: Sequence[int | None]) -> list[int]:
    """The house never pays a person more than he could have lost: ``beans`` as
    :func:`settle` gave them (sum 0), ``house`` marks the seats the house stands in for
    (guests, computer players, accounts with no beans at stake), ``limits`` each other
    seat's most it could have lost (its balance before the hand, at most the hand's cost;
    None: no limit). A winner's share is paid by the payers in proportion to what each
    paid; the part the house paid is cut to the winner's limit, and the house
    pays that much less (taken from its largest payments first). Still sums to 0.
    The persons' part of each share is :func:`_split` of what the persons paid.

    >>> cap_house_winnings([30, -30], [False, True], [10, None])  # a broke account against a bot
    [10, -10]
    >>> cap_house_winnings([40, -20, -20], [False, False, True], [10, 100, None])  # half from a person
    [30, -20, -10]
    >>> cap_house_winnings([6, -3, -3], [False, True, True], [100, None, None])
    [6, -3, -3]
    """
    n = len(beans)
    if len(house) != n or len(limits) != n:
        raise ValueError(f"beans, house and limits need one entry per seat ({n})")
    if any(not _is_int(b) for b in beans) or sum(beans) != 0:
        raise ValueError(f"beans must be ints summing to 0, not {list(beans)!r}")
    if any(lim is not None and (not _is_int(lim) or lim < 0) for lim in limits):
        raise ValueError(f"limits must be non-negative ints or None, not {list(limits)!r}")
    out = list(beans)
    paid = -sum(b for b in beans if b < 0)
    by_house = -sum(b for b, h in zip(beans, house) if b < 0 and h)
    if not paid or not by_house:
        return out
    receivers = [i for i in range(n) if beans[i] > 0]
    people = _split(paid - by_house, [beans[i] for i in receivers])  # what the persons paid, as shared
    excess = 0
    for i, part in zip(receivers, people):
        limit = limits[i]
        if house[i] or limit is None:
            continue
        cut = min(max(0, beans[i] - part - limit), by_house - excess)  # the house's part over the limit
        out[i] -= cut
        excess += cut
    for j in sorted((k for k in range(n) if house[k] and out[k] < 0), key=lambda k: (out[k], k)):
        back = min(excess, -out[j])  # the house pays less, from its largest payment first
        out[j] += back
        excess -= back
    return out
