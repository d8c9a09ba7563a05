"""Knockout 淘汰赛: a seeded bracket, and the two-entrant match that decides each pairing.

The bracket has the next power of two of places; seed 1 meets the lowest seed, and seeds 1
and 2 can meet only in the final (the usual order 1-8, 4-5, 2-7, 3-6). Places without an
entrant are byes, and they fall to the top seeds — a bye is earned by the seeding.

A match puts both entrants at one table (Baohuang: the two players and three computer
players) and plays every board in each seating of :func:`paiju.tournament.lineups` — pairs
ABAB then BABA, Baohuang players the five turns of the table — so both held the very same
cards. The match score is the difference of their summed hand scores. A tie is broken by
one extra board (played in every seating), then by the higher seed. A board with a seating
the round clock cut off is left out for both: half a board would favour whoever held the
good side.

>>> [(m.high, m.low) for m in knockout_bracket(["s1", "s2", "s3", "s4", "s5", "s6"])]
[('s1', None), ('s4', 's5'), ('s2', None), ('s3', 's6')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from paiju.errors import IllegalAction
from paiju.server.tournaments.boards import Hand, board_seed, table_lineup
from paiju.server.tournaments.entrants import sides


@dataclass(frozen=True)
class Match:
    """One pairing of the bracket: the better seed first; ``low`` None is a bye."""

    high: str
    low: str | None


@dataclass(frozen=True)
class MatchResult:
    """The winner (None while an extra board is to be played), ``high``'s total minus
    ``low``'s, and whether the extra board is needed."""

    winner: str | None
    margin: int
    extra_board: bool


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for ``size`` places, a power of two.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def knockout_bracket(seeded: Sequence[str]) -> list[Match]:
    """The first round of a knockout of ``seeded`` (best seed first); byes to the top seeds."""
    size = 1
    while size < len(seeded):
        size *= 2
    order = bracket_order(size)
    matches = []
    for a, b in zip(order[::2], order[1::2], strict=True):
        high, low = min(a, b), max(a, b)
        matches.append(Match(seeded[high - 1], seeded[low - 1] if low <= len(seeded) else None))
    return matches


def next_round(matches: Sequence[Match], winners: Sequence[str], seeded: Sequence[str]) -> list[Match]:
    """The next round: the winners of matches 1 and 2 meet, of 3 and 4 … (better seed
    first). Raises IllegalAction (``bad_value``) for a winner who was not in the match."""
    if len(winners) != len(matches):
        raise IllegalAction("the winners are not a value the hall takes", code="bad_value", where="winners")
    for m, w in zip(matches, winners, strict=True):
        if w not in (m.high, m.low):
            raise IllegalAction(f"{w} is not a value the hall takes", code="bad_value", where=w)
    seed = {e: i for i, e in enumerate(seeded)}
    out = []
    for a, b in zip(winners[::2], winners[1::2], strict=True):
        high, low = sorted((a, b), key=seed.__getitem__)
        out.append(Match(high, low))
    return out


def match_plan(game: str, match: Match, boards: Iterable[int], seed: int, round_no: int, table: int = 0) -> list[Hand]:
    """The hands of a match at table ``table``: each board in every seating, the same boards
    at every match of the round. ``boards`` is ``range(n)``, or the extra board ``[n]``."""
    assert match.low is not None, "a bye is not played"
    out = []
    for board in boards:
        for rotation in range(sides(game)):
            lineup = table_lineup(game, [match.high, match.low], rotation)
            out.append(Hand(table, board, board_seed(seed, round_no, board), rotation, lineup))
    return out


def decide_match(match: Match, hands: Iterable[Hand], boards: int) -> MatchResult:
    """The result of a match from its hands (boards ``0…boards-1`` and perhaps the extra
    board ``boards``); only boards whose every seating was played count."""
    if match.low is None:
        return MatchResult(match.high, 0, False)
    by_board: dict[int, list[Hand]] = {}
    for h in hands:
        by_board.setdefault(h.board, []).append(h)
    margin = 0
    for board_hands in by_board.values():
        if any(h.scores is None for h in board_hands):
            continue
        for h in board_hands:
            assert h.scores is not None
            held = h.holdings()
            margin += sum(h.scores[s] for s in held.get(match.high, ()))
            margin -= sum(h.scores[s] for s in held.get(match.low, ()))
    if margin:
        return MatchResult(match.high if margin > 0 else match.low, margin, False)
    if boards not in by_board:
        return MatchResult(None, 0, True)
    return MatchResult(match.high, 0, False)  # still tied after the extra board: the higher seed
