"""Swiss tournaments 瑞士移位 as pure functions: pairing, byes, duplicate boards, standings
worked out by hand, and a property over any field of 2-40 entrants."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju.server.tournaments.boards import Hand, round_plan
from paiju.server.tournaments.entrants import is_pair_game, sides
from paiju.server.tournaments.rounds import finish_round, start_round
from paiju.server.tournaments.scoring import round_percentages
from paiju.server.tournaments.standings import RoundResult, met_tables, standings
from paiju.server.tournaments.swiss import met_counts, swiss_pairing

GAMES = ("baohuang", "shengji", "shuangkou")


def play_round(game: str, plan: list[Hand], seed: int, round_no: int) -> list[Hand]:
    """Every planned hand with random hand scores (what the tables would report)."""
    rng = random.Random(seed * 1000 + round_no)
    out = []
    for h in plan:
        n = len(h.lineup)
        if is_pair_game(game):
            x = rng.randint(-3, 3)
            out.append(h.played([x, -x, x, -x]))
        else:
            out.append(h.played([rng.randint(-4, 4) for _ in range(n)]))
    return out


def run_swiss(
    game: str, entrants: list[str], rounds: int, boards: int, seed: int
) -> list[tuple[RoundResult, list[Hand]]]:
    """A whole Swiss tournament through the hall's two calls a round, random hand scores."""
    done: list[RoundResult] = []
    out = []
    for r in range(1, rounds + 1):
        pairing, plan = start_round(game, entrants, done, seed, r, boards)
        hands = play_round(game, plan, seed, r)
        done.append(finish_round(pairing, plan, hands))
        out.append((done[-1], hands))
    return out


# ---------------------------------------------------------------------------- standings
def test_hand_computed_swiss_standings() -> None:
    """Four Shengji pairs, two rounds of two boards; the numbers worked out by hand.

    An entrant's result on a hand is its two seats' scores summed; on each board it is
    compared with the pair that held the same side at the other table (2 = beat, 1 = tie,
    0 = beaten, out of 2).

    Round 1, tables A-B and C-D:
      board 0 (A and C hold 0+2): A +4 vs C +2 -> A 2, C 0;  B -4 vs D -2 -> D 2, B 0
      board 1 (B and D hold 0+2): B -2 vs D -2 -> 1 each;    A +2 vs C +2 -> 1 each
      A (2+1)/4 = 75 %, B (0+1)/4 = 25 %, C (0+1)/4 = 25 %, D (2+1)/4 = 75 %
    Round 2 (pairing by score, no repeat): A-D and B-C:
      board 0 (A and B hold 0+2): A +6 vs B +6 -> 1 each;    D -6 vs C -6 -> 1 each
      board 1 (D and C hold 0+2): D +2 vs C +4 -> C 2, D 0;  A -2 vs B -4 -> A 2, B 0
      A (1+2)/4 = 75 %, B (1+0)/4 = 25 %, C (1+2)/4 = 75 %, D (1+0)/4 = 25 %
    Totals: A 150, B 50, C 100, D 100.
    Buchholz (the opponent's total, each round): A 50 + 100 = 150, B 150 + 100 = 250,
      C 100 + 50 = 150, D 100 + 150 = 250.
    Standings: A 150; D 100 (Buchholz 250) before C 100 (150); B 50.
    """
    seeded = ["A", "B", "C", "D"]
    r1_tables = [["A", "B"], ["C", "D"]]
    r1 = [
        h.played(s)
        for h, s in zip(
            round_plan("shengji", r1_tables, boards=2, seed=5, round_no=1),
            [(2, -2, 2, -2), (-1, 1, -1, 1), (1, -1, 1, -1), (-1, 1, -1, 1)],
            strict=True,
        )
    ]
    p1 = round_percentages(r1)
    assert p1 == {"A": 75.0, "B": 25.0, "C": 25.0, "D": 75.0}
    rounds = [RoundResult((("A", "B"), ("C", "D")), (), p1)]

    pairing = swiss_pairing({"A": 75, "B": 25, "C": 25, "D": 75}, met_counts(met_tables(rounds)), 2, seed=9)
    assert sorted(map(sorted, pairing.tables)) == [["A", "D"], ["B", "C"]] and pairing.byes == []

    r2_tables = [["A", "D"], ["B", "C"]]
    r2 = [
        h.played(s)
        for h, s in zip(
            round_plan("shengji", r2_tables, boards=2, seed=5, round_no=2),
            [(3, -3, 3, -3), (1, -1, 1, -1), (3, -3, 3, -3), (2, -2, 2, -2)],
            strict=True,
        )
    ]
    p2 = round_percentages(r2)
    assert p2 == {"A": 75.0, "B": 25.0, "C": 75.0, "D": 25.0}
    rounds.append(RoundResult((("A", "D"), ("B", "C")), (), p2))

    rows = standings(seeded, rounds)
    assert [(r.rank, r.entrant, r.score, r.buchholz) for r in rows] == [
        (1, "A", 150.0, 150.0),
        (2, "D", 100.0, 250.0),
        (3, "C", 100.0, 150.0),
        (4, "B", 50.0, 250.0),
    ]


def test_equal_score_and_buchholz_fall_to_the_seed() -> None:
    rounds = [RoundResult((("A", "B"),), (), {"A": 50.0, "B": 50.0})]
    assert [r.entrant for r in standings(["B", "A"], rounds)] == ["B", "A"]


# ---------------------------------------------------------------------------- pairing
def repeats(tables: list[list[str]], counts: Counter[frozenset[str]]) -> int:
    return sum(counts[frozenset(p)] for t in tables for p in itertools.combinations(t, 2))


def test_no_repeat_opponents_in_three_rounds_of_eight_pairs() -> None:
    for game in ("shengji", "shuangkou"):
        entrants = [f"p{i}" for i in range(8)]
        for seed in range(5):
            played = run_swiss(game, entrants, rounds=3, boards=2, seed=seed)
            counts = met_counts(t for r, _ in played for t in r.tables)
            assert max(counts.values()) == 1, (game, seed, counts)
            assert all(not r.byes for r, _ in played)


def test_eight_baohuang_players_meet_again_no_more_than_they_must() -> None:
    """Two tables of four: after round 1 some players must meet again (a table of four
    takes at least two from one table of the last round); each round has the fewest repeat
    meetings of all 35 ways to split the eight."""
    entrants = [f"b{i}" for i in range(8)]
    for seed in range(3):
        played = run_swiss("baohuang", entrants, rounds=3, boards=5, seed=seed)
        for i, (r, _) in enumerate(played):
            assert sorted(map(len, r.tables)) == [4, 4] and not r.byes
            before = met_counts(t for p, _ in played[:i] for t in p.tables)
            best = min(
                repeats([list(half), [e for e in entrants if e not in half]], before)
                for half in itertools.combinations(entrants, 4)
            )
            assert repeats([list(t) for t in r.tables], before) == best, (seed, i)


def test_twenty_five_baohuang_players_never_meet_twice_in_three_rounds() -> None:
    entrants = [f"b{i}" for i in range(25)]
    played = run_swiss("baohuang", entrants, rounds=3, boards=5, seed=1)
    counts = met_counts(t for r, _ in played for t in r.tables)
    assert max(counts.values()) == 1
    assert all(sorted(map(len, r.tables)) == [5] * 5 for r, _ in played)


def test_pairing_groups_by_score() -> None:
    scores = {"a": 300, "b": 250, "c": 200, "d": 150, "e": 100, "f": 50}
    p = swiss_pairing(scores, [], 2, seed=3)
    assert p.tables == [["a", "b"], ["c", "d"], ["e", "f"]]
    # a and b met: a plays the next best who is new to him
    p = swiss_pairing(scores, [("a", "b")], 2, seed=3)
    assert p.tables == [["a", "c"], ["b", "d"], ["e", "f"]]


def test_repeats_when_unavoidable_are_fewest() -> None:
    """Three pairs (a bye each round) after everybody met everybody: one repeat, not more."""
    scores = {"a": 3, "b": 2, "c": 1}
    p = swiss_pairing(scores, [("a", "b"), ("a", "c"), ("b", "c")], 2, seed=0, had_bye=["a", "b", "c"])
    assert p.byes == ["c"] and p.tables == [["a", "b"]]


def test_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    scores = {"a": 200, "b": 150, "c": 100, "d": 50, "e": 0}
    assert swiss_pairing(scores, [], 2, seed=1).byes == ["e"]
    assert swiss_pairing(scores, [], 2, seed=1, had_bye={"e"}).byes == ["d"]
    assert swiss_pairing(scores, [], 2, seed=1, had_bye={"e", "d", "c", "b", "a"}).byes == ["e"]
    # five pairs over five rounds: a bye each round, never twice to the same pair
    played = run_swiss("shuangkou", list("abcde"), rounds=5, boards=2, seed=4)
    byes = [b for r, _ in played for b in r.byes]
    assert sorted(byes) == list("abcde")
    assert all(r.scores[r.byes[0]] == 50.0 for r, _ in played)


def test_baohuang_tables_spread_the_field_and_nobody_sits_out() -> None:
    for n, sizes in ((2, [2]), (6, [3, 3]), (7, [4, 3]), (11, [4, 4, 3]), (12, [4, 4, 4]), (15, [5, 5, 5])):
        p = swiss_pairing({f"x{i}": 0 for i in range(n)}, [], 5, seed=n)
        assert [len(t) for t in p.tables] == sizes and p.byes == []


def test_a_round_cut_off_by_the_clock_scores_what_was_played() -> None:
    """Four Shengji pairs, two tables: table 1 never started (a no-show table), so its pairs
    get 50 % (every board average) and table 0's, with nobody to compare with, 50 % too.
    When table 1 plays, its first pair holds 0+2 on board 0 (+4 against table 0's +2) and
    1+3 on board 1 (+4 against -2): 100 %; its second pair makes -4 against -2 and -4
    against +2: 0 %; table 0's first pair faces those same results the other way: 0 % and
    its second pair 100 %."""
    pairing, plan = start_round("shengji", list("ABCD"), [], seed=2, round_no=1, boards=2)
    played = [h.played([1, -1, 1, -1]) for h in plan if h.table == 0]
    result = finish_round(pairing, plan, played)
    assert result.scores == dict.fromkeys("ABCD", 50.0)
    whole = finish_round(
        pairing,
        plan,
        played + [h.played([2, -2, 2, -2] if h.board == 0 else [-2, 2, -2, 2]) for h in plan if h.table == 1],
    )
    (a, b), (c, d) = pairing.tables
    assert whole.scores == {a: 0.0, b: 100.0, c: 100.0, d: 0.0}


# ---------------------------------------------------------------------------- the property
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    n=st.integers(2, 40),
    rounds=st.integers(1, 4),
    cycles=st.integers(1, 2),
    seed=st.integers(0, 10**6),
)
def test_every_entrant_once_a_round_and_every_side_equally(
    game: str, n: int, rounds: int, cycles: int, seed: int
) -> None:
    entrants = [f"e{i}" for i in range(n)]
    boards = cycles * sides(game)
    for result, hands in run_swiss(game, entrants, rounds, boards, seed):
        seated = [e for t in result.tables for e in t] + list(result.byes)
        assert sorted(seated) == sorted(entrants)
        assert set(result.scores) == set(entrants)
        held: dict[str, Counter[tuple[int, ...]]] = {e: Counter() for e in entrants}
        for h in hands:
            for who, seats in h.holdings().items():
                held[who][seats] += 1
        for e in entrants:
            if e in result.byes:
                assert not held[e]
                continue
            # each side (a pair's 0+2 / 1+3, a Baohuang seat) held equally often
            assert len(held[e]) == sides(game) and len(set(held[e].values())) == 1, (e, held[e])
        # the same board has the same seed at every table
        seeds: dict[int, set[int]] = {}
        for h in hands:
            seeds.setdefault(h.board, set()).add(h.seed)
        assert all(len(s) == 1 for s in seeds.values())
