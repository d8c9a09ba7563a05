"""The pairing of a Swiss round 瑞士移位: entrants of like score at one table, no repeat
opponents where possible, byes to the lowest-ranked.

Entrants are ranked by score (equal scores in an order drawn from the round's seed, so the
first round is a random draw) and the tables are filled in rank order: the best-placed
entrant left leads the next table, joined by the best-placed ones who have not met anybody
at it yet. A small backtracking search finds a whole round without a repeat meeting; when
there is none (or the search runs out of its budget) the allowed number of repeat
meetings grows one at a time, so the round has the fewest repeats the search finds.

Tables: 2 entrants each in the partnership games (pair against pair), an odd entrant out
with a bye; Baohuang tables of 5 players where the field divides, else as many tables as
5 per table needs with the players spread evenly (4 or 3 at some tables, computer players
in the empty seats) — no Baohuang player sits out a round.

>>> p = swiss_pairing({"a": 2, "b": 0, "c": 1, "d": 1, "e": 0}, met=[("a", "c")], table_size=2, seed=1)
>>> p.tables, p.byes
([['a', 'd'], ['c', 'e']], ['b'])
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations

SEARCH_BUDGET = 4000
"""Search steps per allowed number of repeats before allowing one more."""
EXACT_LEVELS = 6
"""Allowed repeats tried one by one; past them the tables are filled greedily."""


@dataclass(frozen=True)
class Pairing:
    """One round: its tables (entrants, best-ranked first) and its byes."""

    tables: list[list[str]]
    byes: list[str]


def table_sizes(count: int, table_size: int) -> tuple[list[int], int]:
    """The sizes of a round's tables and its number of byes, for ``count`` entrants.

    >>> table_sizes(7, 2), table_sizes(12, 5), table_sizes(3, 5)
    (([2, 2, 2], 1), ([4, 4, 4], 0), ([3], 0))
    """
    if table_size == 2:
        return [2] * (count // 2), count % 2
    tables = -(-count // table_size)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra), 0


def met_counts(tables: Iterable[Iterable[str]]) -> Counter[frozenset[str]]:
    """How often each two entrants sat at one table, from the tables of past rounds."""
    out: Counter[frozenset[str]] = Counter()
    for table in tables:
        for a, b in combinations(sorted(set(table)), 2):
            out[frozenset((a, b))] += 1
    return out


def rank_order(scores: Mapping[str, float], seed: int) -> list[str]:
    """Entrants best first; equal scores in an order drawn from ``seed``."""
    order = sorted(scores)
    random.Random(seed).shuffle(order)
    return sorted(order, key=lambda e: -scores[e])


def choose_byes(order: list[str], count: int, had_bye: Collection[str]) -> list[str]:
    """The ``count`` lowest-ranked entrants who have not had a bye (then the lowest-ranked)."""
    fresh = [e for e in reversed(order) if e not in had_bye]
    rest = [e for e in reversed(order) if e in had_bye]
    return (fresh + rest)[:count]


def swiss_pairing(
    scores: Mapping[str, float],
    met: Iterable[tuple[str, str]] | Mapping[frozenset[str], int],
    table_size: int,
    seed: int,
    had_bye: Collection[str] = (),
) -> Pairing:
    """The tables and byes of the next Swiss round.

    ``scores``: every entrant's score so far; ``met``: the pairs who have sat at one table
    (a pair listed twice met twice) or their counts (:func:`met_counts`); ``table_size``: 2
    (partnership games) or 5 (Baohuang); ``had_bye``: entrants who had a bye already.
    """
    counts = met if isinstance(met, Mapping) else Counter(frozenset(p) for p in met)
    order = rank_order(scores, seed)
    sizes, bye_count = table_sizes(len(order), table_size)
    byes = choose_byes(order, bye_count, had_bye)
    playing = [e for e in order if e not in byes]
    for allowed in range(EXACT_LEVELS):
        tables = _search(playing, sizes, counts, allowed)
        if tables is not None:
            return Pairing(tables, byes)
    return Pairing(_greedy(playing, sizes, counts), byes)


def _cost(entrant: str, table: list[str], counts: Mapping[frozenset[str], int]) -> int:
    return sum(counts.get(frozenset((entrant, other)), 0) for other in table)


def _search(
    order: list[str], sizes: list[int], counts: Mapping[frozenset[str], int], allowed: int
) -> list[list[str]] | None:
    """Tables of ``sizes`` from ``order`` with at most ``allowed`` repeat meetings, filled in
    rank order (members of a table in rank order, so no table is tried twice); None if the
    search finds none within its budget."""
    rank = {e: i for i, e in enumerate(order)}
    left = list(order)
    tables: list[list[str]] = []
    steps = 0

    def fill(repeats: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > SEARCH_BUDGET:
            return False
        if not left:
            return True
        if not tables or len(tables[-1]) == sizes[len(tables) - 1]:
            # the best-placed entrant left leads the next table
            first = left.pop(0)
            tables.append([first])
            if fill(repeats):
                return True
            tables.pop()
            left.insert(0, first)
            return False
        table = tables[-1]
        for i, cand in enumerate(list(left)):
            if rank[cand] < rank[table[-1]]:
                continue
            cost = _cost(cand, table, counts)
            if repeats + cost > allowed:
                continue
            left.pop(i)
            table.append(cand)
            if fill(repeats + cost):
                return True
            table.pop()
            left.insert(i, cand)
            if steps > SEARCH_BUDGET:
                return False
        return False

    return [list(t) for t in tables] if fill(0) else None


def _greedy(order: list[str], sizes: list[int], counts: Mapping[frozenset[str], int]) -> list[list[str]]:
    """Each table led by the best-placed entrant left, each seat to the entrant who adds the
    fewest repeat meetings (the better-placed of equals): the fallback of a crowded field."""
    left = list(order)
    tables = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(range(len(left)), key=lambda i: (_cost(left[i], table, counts), i))
            table.append(left.pop(best))
        tables.append(table)
    return tables
