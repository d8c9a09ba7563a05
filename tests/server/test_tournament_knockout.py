"""Knockout 淘汰赛 as pure functions: brackets of 8 and of 6 (byes) played to one winner,
the match over every seating of each board, and its tie-break."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.errors import IllegalAction
from paiju.server.tournaments.boards import Hand
from paiju.server.tournaments.knockout import Match, decide_match, knockout_bracket, match_plan, next_round

BOARDS = 2


def play(game: str, m: Match, rng: random.Random, round_no: int) -> list[Hand]:
    """A match's hands with random scores; the extra board too when it is tied."""
    hands = [h.played([rng.randint(-3, 3) for _ in h.lineup]) for h in match_plan(game, m, range(BOARDS), 7, round_no)]
    if decide_match(m, hands, BOARDS).extra_board:
        hands += [h.played([rng.randint(-3, 3) for _ in h.lineup]) for h in match_plan(game, m, [BOARDS], 7, round_no)]
    return hands


def run_knockout(game: str, seeded: list[str], seed: int) -> tuple[str, list[list[Match]]]:
    rng = random.Random(seed)
    matches = knockout_bracket(seeded)
    rounds = [matches]
    round_no = 1
    while True:
        winners = []
        for m in matches:
            result = decide_match(m, play(game, m, rng, round_no) if m.low else [], BOARDS)
            assert result.winner is not None
            winners.append(result.winner)
        if len(winners) == 1:
            return winners[0], rounds
        matches = next_round(matches, winners, seeded)
        rounds.append(matches)
        round_no += 1


@pytest.mark.parametrize("game", ["baohuang", "shengji", "shuangkou"])
def test_a_knockout_of_eight_ends_with_one_winner(game: str) -> None:
    seeded = [f"s{i}" for i in range(1, 9)]
    first = knockout_bracket(seeded)
    assert [(m.high, m.low) for m in first] == [("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")]
    for seed in range(4):
        winner, rounds = run_knockout(game, seeded, seed)
        assert [len(r) for r in rounds] == [4, 2, 1] and winner in seeded


def test_a_knockout_of_six_gives_the_byes_to_the_top_seeds() -> None:
    seeded = [f"s{i}" for i in range(1, 7)]
    first = knockout_bracket(seeded)
    assert [(m.high, m.low) for m in first] == [("s1", None), ("s4", "s5"), ("s2", None), ("s3", "s6")]
    assert decide_match(first[0], [], BOARDS).winner == "s1"
    for seed in range(4):
        winner, rounds = run_knockout("shengji", seeded, seed)
        assert [len(r) for r in rounds] == [4, 2, 1] and winner in seeded
        # the byes' winners play on, as the higher seeds of the second round
        assert (rounds[1][0].high, rounds[1][1].high) == ("s1", "s2")


def test_both_hold_the_same_cards() -> None:
    """Pairs ABAB then BABA; Baohuang players each seat once; every seating of a board has
    the board's seed."""
    m = Match("A", "B")
    pair = match_plan("shengji", m, range(1), 7, 1)
    assert [h.lineup for h in pair] == [("A", "B", "A", "B"), ("B", "A", "B", "A")]
    solo = match_plan("baohuang", m, range(1), 7, 1)
    assert len(solo) == 5 and len({h.seed for h in solo}) == 1
    for who in "AB":
        assert sorted(s for h in solo for s in h.holdings()[who]) == [0, 1, 2, 3, 4]
    assert all(h.lineup.count(None) == 3 for h in solo)
    # another match of the round: its own table, the same boards
    other = match_plan("baohuang", Match("C", "D"), range(1), 7, 1, table=3)
    assert {h.table for h in other} == {3} and [h.seed for h in other] == [h.seed for h in solo]


def test_the_match_score_is_the_difference_and_a_tie_goes_to_an_extra_board_then_the_seed() -> None:
    m = Match("A", "B")
    plan = match_plan("shengji", m, range(1), 7, 1)
    # with the cards of 0+2 A made +2 a seat, B +1: A +4 - 2, B +2 - 4, margin 2 - (-2) = 4
    won = [plan[0].played([2, -2, 2, -2]), plan[1].played([1, -1, 1, -1])]
    r = decide_match(m, won, 1)
    assert (r.winner, r.margin, r.extra_board) == ("A", 4, False)
    tied = [plan[0].played([2, -2, 2, -2]), plan[1].played([2, -2, 2, -2])]
    assert decide_match(m, tied, 1).extra_board and decide_match(m, tied, 1).winner is None
    extra = match_plan("shengji", m, [1], 7, 1)
    low_wins = [extra[0].played([0, 0, 0, 0]), extra[1].played([1, -1, 1, -1])]
    assert decide_match(m, tied + low_wins, 1).winner == "B"
    still = [extra[0].played([0, 0, 0, 0]), extra[1].played([0, 0, 0, 0])]
    assert decide_match(m, tied + still, 1).winner == "A"  # the higher seed


def test_a_half_played_board_counts_for_neither() -> None:
    m = Match("A", "B")
    plan = match_plan("shuangkou", m, range(2), 7, 1)
    hands = [plan[0].played([1, -1, 1, -1]), plan[1].played([1, -1, 1, -1]), plan[2].played([9, -9, 9, -9]), plan[3]]
    assert decide_match(m, hands, 2).margin == 0


def test_a_winner_from_outside_the_match_is_refused() -> None:
    first = knockout_bracket(["a", "b", "c", "d"])
    with pytest.raises(IllegalAction) as e:
        next_round(first, ["a", "x"], ["a", "b", "c", "d"])
    assert e.value.code == "bad_value"


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 1000))
def test_any_field_plays_down_to_one_winner_with_byes_only_in_round_one(n: int, seed: int) -> None:
    seeded = [f"s{i}" for i in range(1, n + 1)]
    first = knockout_bracket(seeded)
    byes = [m.high for m in first if m.low is None]
    assert len(byes) == (1 << (n - 1).bit_length()) - n  # up to the next power of two
    assert sorted(byes, key=seeded.index) == seeded[: len(byes)]  # the top seeds
    assert sorted(e for m in first for e in (m.high, m.low) if e) == sorted(seeded)
    winner, rounds = run_knockout("shuangkou", seeded, seed)
    assert winner in seeded and len(rounds[-1]) == 1
    assert all(m.low is not None for r in rounds[1:] for m in r)
