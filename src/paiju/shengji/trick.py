"""Who wins a trick 一轮 (§6 Trumping 毙 and Trick winner).

A play *qualifies* when all its cards are of the led play-suit, or all are trumps when a
plain suit was led, and it has the lead's structure (:func:`~paiju.shengji.units.match_value`);
anything else is a discard 垫牌. A qualifying trump play beats every plain play; among
plays of one kind the highest wins, and on a tie the earlier play (equal cards: the one
played first wins).

``throw_evaluation`` decides "highest" between two qualifying plays of one kind:
``largest_unit`` (default) compares the units matched to the lead's largest unit;
``highest`` compares the highest cards; ``all`` needs every matched unit of the later play
to beat its counterpart.
"""

from __future__ import annotations

from paiju.shengji.trump import TRUMP, TrumpOrder
from paiju.shengji.units import counts_of, decompose, match_tops, shape_of


def play_rank(play: tuple[int, ...], suit: int, shape: tuple[int, ...], t: TrumpOrder) -> tuple[int, list[int]] | None:
    """``(1 for a trump beating a plain lead else 0, matched unit tops)`` or None (discard)."""
    psuit = t.psuit
    s = psuit[play[0]]
    if s != suit and s != TRUMP:
        return None
    for c in play:
        if psuit[c] != s:
            return None
    tops = match_tops(counts_of(play), shape, t)
    if tops is None:
        return None
    return (1 if s != suit else 0, tops)


def ranks_above(new: tuple[int, list[int]], old: tuple[int, list[int]], how: str) -> bool:
    """Does a qualifying play (its :func:`play_rank`) rank above the one winning so far?
    ``how`` is the room's ``throw_evaluation`` (all units, the highest, the largest)."""
    if new[0] != old[0]:
        return new[0] > old[0]
    a, b = new[1], old[1]
    if how == "all":
        return all(x > y for x, y in zip(a, b))
    if how == "highest":
        return max(a) > max(b)
    return a[0] > b[0]


def winning_index(plays: list[tuple[int, ...]], t: TrumpOrder, how: str = "largest_unit") -> int:
    """Index (in play order, 0 = the lead) of the play that wins the trick."""
    lead = plays[0]
    suit = t.psuit[lead[0]]
    shape = shape_of(decompose(counts_of(lead), t))
    best = 0
    best_rank = play_rank(lead, suit, shape, t)
    assert best_rank is not None
    for i in range(1, len(plays)):
        r = play_rank(plays[i], suit, shape, t)
        if r is not None and ranks_above(r, best_rank, how):
            best, best_rank = i, r
    return best
