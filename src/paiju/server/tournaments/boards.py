"""Duplicate boards 复式牌: every table of a round plays the same deals.

A *board* is one deal: the seed :func:`board_seed` gives ``paiju.new_game(game, seed=...)``
the same cards at every table. The seats turn from board to board as in
:func:`paiju.tournament.lineups`: rotation ``r`` seats the table's position ``(s + r) % n``
in seat ``s``. In a partnership game the two pairs take sides 0+2 / 1+3 on odd boards and
swap on even ones (ABAB, BABA); at a Baohuang table the five positions (players, then
computer players in the empty seats) turn one seat a board. Over a whole cycle of boards
(2, or 5) every entrant holds every side once, and at board ``b`` the same table position
holds the same cards at every table — the results that are compared (:mod:`.scoring`).

A round with one table (two or three pairs, up to five Baohuang players) has nobody else
to compare with, so it plays each deal in every seating of the cycle instead: the same
number of hands, a new deal every cycle, and the entrants compared with one another.

>>> [h.lineup for h in round_plan("shengji", [["A", "B"], ["C", "D"]], boards=2, seed=7, round_no=1)]
[('A', 'B', 'A', 'B'), ('B', 'A', 'B', 'A'), ('C', 'D', 'C', 'D'), ('D', 'C', 'D', 'C')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from paiju.server.tournaments.entrants import is_pair_game, sides
from paiju.specs import spec
from paiju.tournament import derive_seed

Lineup = tuple[str | None, ...]
"""The entrant in each seat (``None``: a computer player)."""


@dataclass(frozen=True)
class Hand:
    """One hand of a round: table ``table`` plays board ``board`` (seeded ``seed``) in
    ``lineup``; ``scores`` are the seats' hand scores once played (``None`` before, and for
    a board the round clock cut off)."""

    table: int
    board: int
    seed: int
    rotation: int
    lineup: Lineup
    scores: tuple[int, ...] | None = None

    def played(self, scores: Sequence[int]) -> Hand:
        """This hand with its result."""
        return replace(self, scores=tuple(scores))

    def holdings(self) -> dict[str, tuple[int, ...]]:
        """Entrant → the seats it holds in this hand."""
        out: dict[str, tuple[int, ...]] = {}
        for seat, who in enumerate(self.lineup):
            if who is not None:
                out[who] = (*out.get(who, ()), seat)
        return out


def board_seed(tournament_seed: int, round_no: int, board: int) -> int:
    """The deal seed of board ``board`` of round ``round_no`` (the same at every table)."""
    return derive_seed(tournament_seed, round_no, board)


def table_lineup(game: str, entrants: Sequence[str], rotation: int) -> Lineup:
    """The seats of one table's entrants (best-ranked first) in seating ``rotation``.

    >>> table_lineup("shuangkou", ["A", "B"], 1), table_lineup("baohuang", ["A", "B", "C"], 1)
    (('B', 'A', 'B', 'A'), ('B', 'C', None, None, 'A'))
    """
    seats = spec(game).seats
    if is_pair_game(game):
        return tuple(entrants[(s + rotation) % 2] for s in range(seats))
    base = [*entrants, *[None] * (seats - len(entrants))]
    return tuple(base[(s + rotation) % seats] for s in range(seats))


def round_plan(game: str, tables: Sequence[Sequence[str]], boards: int, seed: int, round_no: int) -> list[Hand]:
    """Every hand of a Swiss round, table by table in playing order."""
    cycle = sides(game)
    single = len(tables) == 1
    out = []
    for t, table in enumerate(tables):
        for b in range(boards):
            # one table: a new deal every cycle, played in each seating; else a deal a board
            board = b // cycle if single else b
            out.append(
                Hand(t, board, board_seed(seed, round_no, board), b % cycle, table_lineup(game, table, b % cycle))
            )
    return out
