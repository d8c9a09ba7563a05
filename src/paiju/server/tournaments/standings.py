"""Standings 排名: the ordered table of a Swiss tournament.

The score is the sum of the round scores (matchpoint percentages, a bye 50). Equal scores
are ordered by

1. **Buchholz** (对手分): for each round, the mean total score of the entrants met at the
   table — a pair's one opponent, a Baohuang player's two to four — summed over the rounds;
   a bye round counts the entrant's own total (a bye neither helps nor hurts). The mean
   rather than the sum, so a Baohuang player at a table of three is not behind one at a
   table of five;
2. the **seed** (the order the hall registered the entrants in: rating, then time).

No head-to-head: in duplicate scoring the entrants at one table hold different cards and
are never compared with each other, so "who beat whom" has no meaning. The seed is last,
so every rank is different and a prize is never split.

>>> rounds = [RoundResult((("A", "B"), ("C", "D")), (), {"A": 75.0, "B": 25.0, "C": 50.0, "D": 50.0})]
>>> [(r.rank, r.entrant, r.score, r.buchholz) for r in standings(["A", "B", "C", "D"], rounds)]
[(1, 'A', 75.0, 25.0), (2, 'C', 50.0, 50.0), (3, 'D', 50.0, 50.0), (4, 'B', 25.0, 75.0)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class RoundResult:
    """One finished round: its tables, its byes and every entrant's round score."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]
    scores: Mapping[str, float]


@dataclass(frozen=True)
class Row:
    """One line of the standings."""

    rank: int
    entrant: str
    score: float
    buchholz: float
    seed: int
    """1 for the first registered (best-seeded) entrant."""


def totals(seeded: Sequence[str], rounds: Sequence[RoundResult]) -> dict[str, float]:
    """Each entrant's score: its round scores summed (a round it missed scores 0)."""
    return {e: round(sum(r.scores.get(e, 0.0) for r in rounds), 6) for e in seeded}


def buchholz(seeded: Sequence[str], rounds: Sequence[RoundResult]) -> dict[str, float]:
    """Each entrant's Buchholz (see the module doc)."""
    total = totals(seeded, rounds)
    out = dict.fromkeys(seeded, 0.0)
    for r in rounds:
        for table in r.tables:
            for e in table:
                others = [total[o] for o in table if o != e]
                if others and e in out:
                    out[e] += sum(others) / len(others)
        for e in r.byes:
            if e in out:
                out[e] += total[e]
    return {e: round(v, 6) for e, v in out.items()}


def standings(seeded: Sequence[str], rounds: Sequence[RoundResult]) -> list[Row]:
    """The standings after ``rounds``: score, then Buchholz, then seed."""
    total = totals(seeded, rounds)
    bh = buchholz(seeded, rounds)
    order = sorted(range(len(seeded)), key=lambda i: (-total[seeded[i]], -bh[seeded[i]], i))
    return [Row(rank, seeded[i], total[seeded[i]], bh[seeded[i]], i + 1) for rank, i in enumerate(order, 1)]


def met_tables(rounds: Sequence[RoundResult]) -> list[tuple[str, ...]]:
    """Every table of the past rounds (for :func:`paiju.server.tournaments.swiss.met_counts`)."""
    return [t for r in rounds for t in r.tables]


def had_bye(rounds: Sequence[RoundResult]) -> set[str]:
    """The entrants who have had a bye."""
    return {e for r in rounds for e in r.byes}


def score_map(rows: Sequence[Row]) -> Mapping[str, float]:
    """Entrant → score, the input of the next round's pairing."""
    return {r.entrant: r.score for r in rows}
