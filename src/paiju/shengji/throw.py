"""Throws 甩牌: a lead of several units of one play-suit, and the failed-throw rule (§6 Lead).

A throw stands only if no other player can beat any of its units *in that play-suit*: a
higher single than a thrown single, a higher pair than a thrown pair, a tractor of at
least the same length with a higher top than a thrown tractor. If some unit can be beaten,
the leader plays instead the smallest unit that can be beaten.

**[decision]** The beaten unit *type* decides first: among the units some hand can beat,
those with the most cards (tractors before pairs before singles), then the lowest of them.
This is what the seed's examples require: with 98844, a J elsewhere forces the 9, but QQ
elsewhere forces the 44 although a Q also beats the 9 (55 elsewhere: the 44 too). So a J
*and* 55 elsewhere force the 44. Every other player counts, the partner included ("no
other player"). With ``triples`` a triple is beaten by a higher triple and a 泰坦尼克 by a
higher 泰坦尼克; the beaten unit is chosen by its cards as above (a 泰坦尼克 has 6, a
triple 3: a beaten tractor of two pairs is played before a beaten triple).
"""

from __future__ import annotations

from paiju.shengji.trump import TrumpOrder
from paiju.shengji.units import Unit, pair_orders, runs, triple_orders


def can_beat(unit: Unit, counts: dict[int, int], t: TrumpOrder) -> bool:
    """Can a hand whose cards of the unit's play-suit are ``counts`` beat ``unit``?"""
    if not counts:
        return False
    if unit.triples:  # a higher triple / 泰坦尼克 (``triples``)
        to = triple_orders(counts, t)
        return any(o > unit.top and (unit.triples == 1 or o - 1 in to) for o in to)
    if unit.pairs == 0:
        order = t.order
        return max(order[c] for c in counts) > unit.top
    po = pair_orders(counts, t)
    if unit.pairs == 1:
        return any(o > unit.top for o in po)
    return any(top > unit.top and length >= unit.pairs for top, length in runs(po))


def failed_unit(units: list[Unit], others: list[dict[int, int]], t: TrumpOrder) -> Unit | None:
    """The unit a failed throw is reduced to, or None when the throw stands."""
    if len(units) < 2:
        return None
    beaten = [u for u in units if any(can_beat(u, h, t) for h in others)]
    if not beaten:
        return None
    return min(beaten, key=lambda u: (-u.size, u.top, u.cards))
