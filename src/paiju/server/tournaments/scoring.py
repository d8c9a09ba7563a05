"""Duplicate scoring 复式计分: matchpoints among those who held the same cards.

An entrant's result on a hand is the sum of its seats' hand scores (a pair's two seats).
It is compared only with the results of the same board *and* the same seats — the same
cards — at the other tables (or, at a lone table, in the other seatings): 2 matchpoints
for each result it beat, 1 for each tie, out of 2 per result compared. A round's score is
the entrant's matchpoints as a percentage of its maximum, so a round is worth 100 whatever
the number of tables; a bye, and a round with nothing to compare, score 50 %.

Matchpoints rather than the difference of scores: a single wild hand (a Baohuang 暗独 ×4,
a Shengji kitty ×8) would otherwise decide a whole round, and the three games' score scales
differ; matchpoints ask only "who did better with these cards".

An unfinished board (the round clock ran out, ``scores`` None) is *average* for the
entrants of that table — half the matchpoints of the comparison — and is left out of
everybody else's comparison, so nobody gains or loses by a slow table.

>>> from paiju.server.tournaments.boards import round_plan
>>> plan = round_plan("shengji", [["A", "B"], ["C", "D"]], boards=2, seed=1, round_no=1)
>>> played = [h.played(s) for h, s in zip(plan, [(3, -3, 3, -3), (-1, 1, -1, 1), (1, -1, 1, -1), (1, -1, 1, -1)])]
>>> round_percentages(played)
{'A': 100.0, 'B': 0.0, 'C': 0.0, 'D': 100.0}
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from paiju.errors import IllegalAction
from paiju.server.tournaments.boards import Hand

BYE_PERCENT = 50.0
"""A bye's round score: the average, neither a gift nor a loss."""


@dataclass(frozen=True)
class BoardScore:
    """One entrant's result on one hand and its matchpoints out of ``top``."""

    entrant: str
    table: int
    board: int
    rotation: int
    seats: tuple[int, ...]
    score: int | None
    """The sum of its seats' hand scores; None for an unfinished board."""
    points: float
    top: int


def matchpoints(hands: Iterable[Hand]) -> list[BoardScore]:
    """Every entrant's matchpoints on every hand of a round (computer players' seats are
    not compared)."""
    groups: dict[tuple[int, tuple[int, ...]], list[tuple[Hand, str]]] = defaultdict(list)
    for h in hands:
        for who, seats in h.holdings().items():
            groups[(h.board, seats)].append((h, who))
    out = []
    for (board, seats), entries in groups.items():
        played = [sum(h.scores[s] for s in seats) for h, _ in entries if h.scores is not None]
        for h, who in entries:
            if h.scores is None:
                top = 2 * len(played)
                out.append(BoardScore(who, h.table, board, h.rotation, seats, None, top / 2, top))
                continue
            mine = sum(h.scores[s] for s in seats)
            beaten = sum(1 for p in played if p < mine)
            tied = sum(1 for p in played if p == mine) - 1  # not itself
            top = 2 * (len(played) - 1)
            out.append(BoardScore(who, h.table, board, h.rotation, seats, mine, 2 * beaten + tied, top))
    return sorted(out, key=lambda r: (r.table, r.board, r.rotation, r.seats))


def round_percentages(hands: Iterable[Hand], byes: Iterable[str] = ()) -> dict[str, float]:
    """Each entrant's round score: matchpoints in % of the maximum (50 for a bye, or when
    nothing of its could be compared)."""
    got: dict[str, float] = defaultdict(float)
    tops: dict[str, int] = defaultdict(int)
    for r in matchpoints(hands):
        got[r.entrant] += r.points
        tops[r.entrant] += r.top
    out = {who: (100 * got[who] / tops[who] if tops[who] else BYE_PERCENT) for who in tops}
    for who in byes:
        out[who] = BYE_PERCENT
    return out


def with_unfinished(plan: Sequence[Hand], played: Iterable[Hand]) -> list[Hand]:
    """The round as it stands when its clock runs out: every planned hand, with its scores
    where it was played and ``None`` (average, see the module doc) where it was not."""
    done = {(h.table, h.board, h.rotation): h.scores for h in played}
    return [replace(h, scores=done.get((h.table, h.board, h.rotation))) for h in plan]


def correct_hand(hands: Sequence[Hand], table: int, board: int, rotation: int, scores: Sequence[int]) -> list[Hand]:
    """The referee's correction 更正: the round's hands with one hand's seat scores replaced
    (score it again with :func:`round_percentages`). Raises IllegalAction (``no_such_board``,
    ``bad_board_scores``) and changes nothing on a hand that does not exist or scores that do
    not fit it."""
    found = [i for i, h in enumerate(hands) if (h.table, h.board, h.rotation) == (table, board, rotation)]
    if not found:
        raise IllegalAction(
            f"table {table} has no board {board} in seating {rotation}",
            code="no_such_board",
            table=table,
            board=board,
            rotation=rotation,
        )
    i = found[0]
    seats = len(hands[i].lineup)
    if len(scores) != seats or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
        raise IllegalAction(
            f"a corrected hand has {seats} seat scores, whole numbers", code="bad_board_scores", seats=seats
        )
    out = list(hands)
    out[i] = hands[i].played(scores)
    return out
