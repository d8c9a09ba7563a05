"""The end of a Shuangkou hand and its score (spec §5).

Partners sit opposite: team A is seats 0 and 2, team B seats 1 and 3. The hand ends as
soon as both players of one team have finished. The first finisher's team wins; the
margin is named by the place of the first finisher's partner 对家:

=========  ===========  ==========================
partner    result       default points per winner
=========  ===========  ==========================
2nd        双扣 double   3
3rd        单扣 single   2
4th        平扣 level    1 (the other team took 2nd and 3rd)
=========  ===========  ==========================

Each loser pays what each winner gets, so the scores sum to 0.

>>> hand_result([0, 2]), hand_result([1, 0, 3]), hand_result([2, 1, 3])
('double', 'single', 'level')
>>> hand_scores([2, 1, 3]), hand_scores([0, 2], points_double=5)
((1, -1, 1, -1), (5, -5, 5, -5))
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.errors import IllegalAction

NUM_SEATS = 4
DOUBLE = "double"
SINGLE_KOU = "single"
LEVEL = "level"
RESULTS = (DOUBLE, SINGLE_KOU, LEVEL)
RESULT_NAMES = {DOUBLE: "双扣", SINGLE_KOU: "单扣", LEVEL: "平扣"}
"""The three results 双扣 / 单扣 / 平扣, by the names used in views and events."""
TEAMS = ((0, 2), (1, 3))
TEAM_NAMES = ("A", "B")


def partner(seat: int) -> int:
    """The partner 对家 of a seat: the seat opposite."""
    return (seat + 2) % NUM_SEATS


def team_of(seat: int) -> int:
    """0 for team A (seats 0, 2), 1 for team B (seats 1, 3)."""
    return seat % 2


def hand_is_over(finished: Sequence[int]) -> bool:
    """Have both players of one team finished?"""
    done = set(finished)
    return any(a in done and b in done for a, b in TEAMS)


def _check_finished(finished: Sequence[int]) -> None:
    seats = list(finished)
    if any(not isinstance(s, int) or not 0 <= s < NUM_SEATS for s in seats) or len(set(seats)) != len(seats):
        raise IllegalAction(f"a finishing order lists distinct seats 0-3, not {seats!r}", code="bad_argument")
    if not hand_is_over(seats) or hand_is_over(seats[:-1]):
        raise IllegalAction(
            f"{seats!r} is not the finishing order of an ended hand: "
            "it must end with the player whose partner had already finished",
            code="bad_argument",
        )


def hand_result(finished: Sequence[int]) -> str:
    """``double`` 双扣, ``single`` 单扣 or ``level`` 平扣 for the finishing order of an
    ended hand (the seats that finished, first finisher first)."""
    _check_finished(finished)
    mate = partner(finished[0])
    if mate not in finished:
        return LEVEL
    return DOUBLE if finished.index(mate) == 1 else SINGLE_KOU


def hand_scores(
    finished: Sequence[int], *, points_double: int = 3, points_single: int = 2, points_level: int = 1
) -> tuple[int, ...]:
    """Points per seat for an ended hand: each player of the first finisher's team gets
    the result's points, each player of the other team loses as many."""
    result = hand_result(finished)
    points = {DOUBLE: points_double, SINGLE_KOU: points_single, LEVEL: points_level}[result]
    winners = team_of(finished[0])
    return tuple(points if team_of(s) == winners else -points for s in range(NUM_SEATS))
