"""Baohuang scoring (spec §5) and the Qingdao tribute table 上贡 / 吃贡 (spec §6).

Places are 1 (头客) … 5 (大落).

>>> hand_scores(1, 2)
{'emperor': 6, 'guard': 3, 'rebel': -3}
>>> hand_scores(1, 2, open_guard=True, rebellion=False, kicks=1)
{'emperor': 18, 'guard': 18, 'rebel': -12}
>>> hand_scores(1, solo="open")
{'emperor': 24, 'guard': 0, 'rebel': -6}
"""

from __future__ import annotations

from typing import Any

from paiju.errors import IllegalAction


def _check_place(name: str, place: int) -> None:
    if not isinstance(place, int) or not 1 <= place <= 5:
        raise IllegalAction(f"{name} must be a finishing place 1-5, not {place!r}", code="bad_argument")


def hand_scores(
    emperor_place: int,
    guard_place: int | None = None,
    *,
    solo: str | None = None,
    open_guard: bool = False,
    rebellion: bool = False,
    kicks: int = 0,
    tribute_cards: int = 0,
) -> dict[str, int]:
    """Points of each role for one hand: ``{"emperor": n, "guard": n, "rebel": n}``
    (``rebel`` is per rebel; ``guard`` is 0 when the emperor is solo).

    - emperor + guard: ``g = 6 − (emperor_place + guard_place)``; emperor 2g, guard g,
      each rebel −g;
    - 明独 (``solo="open"``): emperor 1st → +24 / others −6, else −24 / +6;
    - 暗独 (``solo="hidden"``): emperor 1st → +12 / −3; 2nd → 0; 3rd or worse → −12 / +3;
    - multipliers: 明保 ×2, standing rebellion ×2, each kick ×2, tribute ×(2 × cards);
    - with a kick the rebels' points double and emperor and guard share their side's
      total equally instead of 2:1.
    """
    _check_place("emperor_place", emperor_place)
    mult = 1
    if open_guard:
        mult *= 2
    if rebellion:
        mult *= 2
    if kicks < 0:
        raise IllegalAction("kicks cannot be negative", code="bad_argument")
    mult *= 2**kicks
    if tribute_cards < 0 or tribute_cards > 6:
        raise IllegalAction("tribute_cards must be 0-6", code="bad_argument")
    if tribute_cards:
        mult *= 2 * tribute_cards
    if solo is not None:
        if guard_place is not None:
            raise IllegalAction("a solo emperor has no guard place", code="bad_argument")
        if solo == "open":
            rebel = -6 if emperor_place == 1 else 6
        elif solo == "hidden":
            rebel = -3 if emperor_place == 1 else 0 if emperor_place == 2 else 3
        else:
            raise IllegalAction(f"solo must be None, 'open' or 'hidden', not {solo!r}", code="bad_argument")
        return {"emperor": -4 * rebel * mult, "guard": 0, "rebel": rebel * mult}
    if guard_place is None:
        raise IllegalAction("guard_place is needed when the emperor is not solo", code="bad_argument")
    _check_place("guard_place", guard_place)
    if guard_place == emperor_place:
        raise IllegalAction("emperor and guard cannot share a place", code="bad_argument")
    g = 6 - (emperor_place + guard_place)
    if kicks:
        # kick split: rebels doubled (already in mult); the emperor side shares 3g equally
        side = 3 * g * mult
        return {"emperor": side // 2, "guard": side // 2, "rebel": -g * mult}
    return {"emperor": 2 * g * mult, "guard": g * mult, "rebel": -g * mult}


def tribute_plan(
    emperor: int,
    guard: int | None,
    places: list[int],
) -> dict[str, Any] | None:
    """Qingdao tribute owed by the result of a hand (spec §6), or None.

    ``places`` lists all five seats in finishing order (players who had not finished
    after them, as :meth:`Baohuang.places` orders them). Returns ``{"givers": [[seat, n],
    …], "receivers": [[seat, n], …]}``: each giver gives his ``n`` highest cards;
    receivers pick in the listed order, each taking ``n`` cards.
    """
    place = {seat: i + 1 for i, seat in enumerate(places)}
    others = [s for s in places if s != emperor and s != guard]  # rebels in finishing order
    if guard is None:
        if place[emperor] == 1:
            return {"givers": [[s, 1] for s in others], "receivers": [[emperor, 4]]}
        return {"givers": [[emperor, 4]], "receivers": [[s, 1] for s in others]}
    pe, pg = place[emperor], place[guard]
    key = (min(pe, pg), max(pe, pg))
    last, second_last = places[4], places[3]
    if key == (1, 2):
        return {"givers": [[s, 1] for s in others], "receivers": [[emperor, 2], [guard, 1]]}
    if key == (1, 3):
        return {"givers": [[second_last, 1], [last, 1]], "receivers": [[emperor, 1], [guard, 1]]}
    if key in ((1, 4), (2, 3)):
        return {"givers": [[last, 1]], "receivers": [[emperor, 1]]}
    if key in ((1, 5), (2, 4)):
        return None  # draw (2,4): [decision], same place sum as (1,5)
    if key == (2, 5):
        return {"givers": [[emperor, 1]], "receivers": [[places[0], 1]]}
    if key == (3, 4):
        return {"givers": [[emperor, 1], [guard, 1]], "receivers": [[places[0], 1], [places[1], 1]]}
    if key == (3, 5):
        return {"givers": [[emperor, 2], [guard, 1]], "receivers": [[s, 1] for s in others]}
    # (4, 5)
    return {"givers": [[emperor, 4], [guard, 2]], "receivers": [[s, 2] for s in others]}


def tribute_count(plan: dict[str, Any] | None) -> int:
    """Number of tribute cards in a plan (each adds ×2 to the stake, spec §6)."""
    if not plan:
        return 0
    return sum(n for _, n in plan["givers"])
