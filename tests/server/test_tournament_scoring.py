"""Duplicate scoring 复式计分: matchpoints with ties, unfinished boards, the referee's
correction, and the checks of entrants and settings with their reason codes."""

from __future__ import annotations

import pytest

from paiju.errors import IllegalAction
from paiju.server.tournaments.boards import round_plan
from paiju.server.tournaments.entrants import Entrant, check_entrants, check_format
from paiju.server.tournaments.scoring import correct_hand, matchpoints, round_percentages, with_unfinished

THREE_TABLES = [["A", "B"], ["C", "D"], ["E", "F"]]


def one_board(scores: list[int]) -> list:
    """One Shuangkou board at three tables; ``scores[t]`` is seat 0's (and 2's) hand score
    at table t, seats 1 and 3 the opposite."""
    plan = round_plan("shuangkou", THREE_TABLES, boards=2, seed=3, round_no=1)
    first = [h for h in plan if h.board == 0]
    return [h.played([x, -x, x, -x]) for h, x in zip(first, scores, strict=True)]


def test_matchpoints_with_ties() -> None:
    """Side 0+2 of board 0: A +10, C +10, E +4 (the pair sum: 2 × the seat score).
    A beats E and ties C: 2 + 1 = 3 of 4; C the same; E beaten twice: 0.
    Side 1+3: B -10, D -10, F -4: F beats both (4), B and D tie each other (1)."""
    hands = one_board([5, 5, 2])
    got = {r.entrant: (r.score, r.points, r.top) for r in matchpoints(hands)}
    assert got == {
        "A": (10, 3, 4),
        "C": (10, 3, 4),
        "E": (4, 0, 4),
        "B": (-10, 1, 4),
        "D": (-10, 1, 4),
        "F": (-4, 4, 4),
    }
    assert round_percentages(hands) == {"A": 75.0, "C": 75.0, "E": 0.0, "B": 25.0, "D": 25.0, "F": 100.0}


def test_only_the_same_cards_are_compared() -> None:
    """Board 1 swaps the sides: A holds 1+3 there and is compared with C and E on 1+3, not
    with its own board-0 result."""
    plan = round_plan("shuangkou", THREE_TABLES, boards=2, seed=3, round_no=1)
    hands = [h.played([1, -1, 1, -1]) for h in plan]
    assert {r.entrant: r.points for r in matchpoints(hands)} == dict.fromkeys("ABCDEF", 4 / 2)
    keys = {(r.entrant, r.board): r.seats for r in matchpoints(hands)}
    assert keys[("A", 0)] == (0, 2) and keys[("A", 1)] == (1, 3)


def test_a_lone_table_plays_each_deal_in_every_seating_and_compares_within() -> None:
    """Two pairs (one table): boards 0 and 1 are one deal, ABAB then BABA; A made +3 a seat
    with the cards of 0+2 where B made +1: A beats B on 0+2, and on 1+3 A's -1 beats B's -3."""
    plan = round_plan("shengji", [["A", "B"]], boards=2, seed=3, round_no=1)
    assert [(h.board, h.lineup) for h in plan] == [(0, ("A", "B", "A", "B")), (0, ("B", "A", "B", "A"))]
    assert plan[0].seed == plan[1].seed
    hands = [plan[0].played([3, -3, 3, -3]), plan[1].played([1, -1, 1, -1])]
    assert round_percentages(hands) == {"A": 100.0, "B": 0.0}
    # five Baohuang players at one table: one deal, five seatings, each player every seat
    solo = round_plan("baohuang", [list("ABCDE")], boards=5, seed=3, round_no=1)
    assert {h.board for h in solo} == {0}
    assert all(sorted(s for h in solo for s in h.holdings()[p]) == [0, 1, 2, 3, 4] for p in "ABCDE")


def test_a_bye_scores_half() -> None:
    assert round_percentages(one_board([5, 5, 2]), byes=["G"])["G"] == 50.0


def test_an_unfinished_board_is_average_for_its_table_and_left_out_for_the_others() -> None:
    """Table 2 (E, F) did not finish board 0: E and F get half of the 4 matchpoints the two
    other results offer (2 of 4); A and C are compared only with each other (+10 v +10: a
    tie, 1 of 2 = 50 %), B and D the same."""
    plan = [h for h in round_plan("shuangkou", THREE_TABLES, boards=2, seed=3, round_no=1) if h.board == 0]
    played = one_board([5, 5, 2])[:2]
    hands = with_unfinished(plan, played)
    assert hands[2].scores is None
    got = {r.entrant: (r.points, r.top) for r in matchpoints(hands)}
    assert got == {"A": (1, 2), "C": (1, 2), "B": (1, 2), "D": (1, 2), "E": (2.0, 4), "F": (2.0, 4)}
    assert round_percentages(hands) == dict.fromkeys("ABCDEF", 50.0)


def test_the_referees_correction_scores_the_round_again() -> None:
    hands = one_board([5, 5, 2])
    fixed = correct_hand(hands, table=2, board=0, rotation=0, scores=[6, -6, 6, -6])
    assert round_percentages(fixed)["E"] == 100.0 and round_percentages(fixed)["A"] == 25.0
    assert hands[2].scores == (2, -2, 2, -2)  # the input is not changed
    with pytest.raises(IllegalAction) as e:
        correct_hand(hands, table=3, board=0, rotation=0, scores=[1, -1, 1, -1])
    assert e.value.code == "no_such_board"
    for bad in ([1, -1, 1], [1.5, -1, 1, -1], [True, 0, 0, 0]):
        with pytest.raises(IllegalAction) as e:
            correct_hand(hands, table=0, board=0, rotation=0, scores=bad)
        assert e.value.code == "bad_board_scores"


# ---------------------------------------------------------------------------- bad input
def pairs(*names: str) -> list[Entrant]:
    return [Entrant(n, (f"{n}1", f"{n}2")) for n in names]


@pytest.mark.parametrize(
    ("game", "entrants", "code"),
    [
        ("shengji", pairs("a"), "too_few_entrants"),
        ("shuangkou", [], "too_few_entrants"),
        ("baohuang", [Entrant("solo", ("solo",))], "too_few_entrants"),
        ("shengji", [*pairs("a"), Entrant("b", ("b1",))], "pair_of_one"),
        ("shuangkou", [*pairs("a"), Entrant("b", ("b1", "b1"))], "pair_of_one"),
        ("shengji", [*pairs("a"), Entrant("b", ("a1", "b2"))], "entrant_twice"),
        ("shengji", [*pairs("a"), *pairs("a")], "entrant_twice"),
        ("baohuang", [Entrant("x", ("x",)), Entrant("x", ("x",))], "entrant_twice"),
        ("baohuang", [Entrant("x", ("x", "y")), Entrant("z", ("z",))], "bad_value"),
    ],
)
def test_bad_entrants_are_refused_with_a_reason(game: str, entrants: list[Entrant], code: str) -> None:
    with pytest.raises(IllegalAction) as e:
        check_entrants(game, entrants)
    assert e.value.code == code


def test_good_fields_pass() -> None:
    check_entrants("shengji", pairs("a", "b"))
    check_entrants("baohuang", [Entrant("x", ("x",)), Entrant("y", ("y",))])


@pytest.mark.parametrize(
    ("game", "fmt", "rounds", "boards", "code"),
    [
        ("shengji", "league", 3, 4, "bad_tournament_format"),
        ("shengji", "swiss", 0, 4, "bad_rounds"),
        ("shengji", "swiss", 16, 4, "bad_rounds"),
        ("shengji", "swiss", 3, 3, "bad_boards"),  # an odd number: one pair would hold 0+2 more often
        ("shengji", "swiss", 3, 0, "bad_boards"),
        ("baohuang", "swiss", 3, 4, "bad_boards"),  # not every seat once
        ("shuangkou", "knockout", 0, 21, "bad_boards"),
    ],
)
def test_bad_settings_are_refused_with_a_reason(game: str, fmt: str, rounds: int, boards: int, code: str) -> None:
    with pytest.raises(IllegalAction) as e:
        check_format(game, fmt, rounds, boards)
    assert e.value.code == code


def test_good_settings_pass() -> None:
    check_format("shengji", "swiss", 3, 4)
    check_format("baohuang", "swiss", 5, 10)
    check_format("baohuang", "knockout", 0, 1)  # a knockout match plays each board in every seating
