"""Units of play: singles, pairs 对子 and tractors 拖拉机, and how a play is split into them.

All functions work on the cards of **one play-suit**, given as a ``{card id: count}`` dict,
and the hand's :class:`~paiju.shengji.trump.TrumpOrder`. A pair is two identical cards (same
card id); a tractor is two or more pairs whose orders are consecutive (§6). Several pair
kinds may share an order (off-suit level cards): they are equal, never adjacent.

A unit is ``Unit(pairs, top, cards)``: ``pairs`` 0 for a single, 1 for a pair, k ≥ 2 for a
tractor of k pairs; ``top`` its highest order. The *shape* of a play is the tuple of its
units' ``pairs``, largest first.

>>> from paiju.shengji.trump import trump_order, ids_of
>>> t = trump_order("h", 10)
>>> [u.pairs for u in decompose(counts_of(ids_of("Ks Ks Qs Qs 9s")), t)]
[2, 0]
>>> is_tractor(counts_of(ids_of("Js Js 9s 9s")), t), is_tractor(counts_of(ids_of("Ts Ts Tc Tc")), t)
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from paiju.shengji.trump import TrumpOrder


class Unit(NamedTuple):
    """One unit of a play: ``pairs`` (0 single, 1 pair, ≥ 2 tractor), ``top`` order, card ids."""

    pairs: int
    top: int
    cards: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cards)


def counts_of(ids: Iterable[int]) -> dict[int, int]:
    """``{card id: count}`` of a list of card ids."""
    out: dict[int, int] = {}
    for c in ids:
        out[c] = out.get(c, 0) + 1
    return out


def pair_orders(counts: dict[int, int], t: TrumpOrder) -> dict[int, int]:
    """``{order: number of pair kinds}`` (a kind held 2 or 3 times gives one pair)."""
    po: dict[int, int] = {}
    order = t.order
    for c, n in counts.items():
        if n >= 2:
            o = order[c]
            po[o] = po.get(o, 0) + 1
    return po


def runs(po: dict[int, int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive orders holding a pair: ``(top, length)``, highest first."""
    out: list[tuple[int, int]] = []
    for o in sorted((o for o, n in po.items() if n > 0), reverse=True):
        if out and out[-1][0] - out[-1][1] == o:
            top, length = out[-1]
            out[-1] = (top, length + 1)
        else:
            out.append((o, 1))
    return out


def take_tractor(po: dict[int, int], k: int) -> int | None:
    """Remove the highest tractor of ``k`` pairs from ``po``; its top order, or None."""
    for top, length in runs(po):
        if length >= k:
            for o in range(top, top - k, -1):
                po[o] -= 1
            return top
    return None


def take_pair(po: dict[int, int]) -> int | None:
    """Remove the highest pair from ``po``; its order, or None."""
    best = max((o for o, n in po.items() if n > 0), default=None)
    if best is not None:
        po[best] -= 1
    return best


def decompose(counts: dict[int, int], t: TrumpOrder) -> list[Unit]:
    """Split the cards of one play-suit into units: longest tractors first (highest on a
    tie), then pairs, then singles; largest unit first in the result."""
    order = t.order
    left = dict(counts)
    by_order: dict[int, list[int]] = {}
    for c in sorted(counts):
        if counts[c] >= 2:
            by_order.setdefault(order[c], []).append(c)
    units: list[Unit] = []
    while True:
        po = {o: len(v) for o, v in by_order.items()}
        best: tuple[int, int] | None = None
        for top, length in runs(po):
            if length >= 2 and (best is None or length > best[1]):
                best = (top, length)
        if best is None:
            break
        top, length = best
        cards: list[int] = []
        for o in range(top, top - length, -1):
            c = by_order[o].pop(0)
            if not by_order[o]:
                del by_order[o]
            cards += (c, c)
            left[c] -= 2
        units.append(Unit(length, top, tuple(cards)))
    for o, cs in by_order.items():
        for c in cs:
            units.append(Unit(1, o, (c, c)))
            left[c] -= 2
    for c, n in left.items():
        units.extend(Unit(0, order[c], (c,)) for _ in range(n))
    units.sort(key=lambda u: (-u.pairs, -u.top, u.cards))
    return units


def shape_of(units: list[Unit]) -> tuple[int, ...]:
    """The lead's shape: ``pairs`` of each unit, largest first."""
    return tuple(u.pairs for u in units)


def is_tractor(counts: dict[int, int], t: TrumpOrder) -> bool:
    """Are these cards (one play-suit) exactly one tractor?"""
    units = decompose(counts, t)
    return len(units) == 1 and units[0].pairs >= 2


def match_tops(counts: dict[int, int], shape: tuple[int, ...], t: TrumpOrder) -> list[int] | None:
    """Does a play (cards of one play-suit, as many as the lead) have the lead's structure?

    Each of the lead's units, largest first, takes the highest unit of the same shape left
    in the play; singles take the highest cards left. Returns the top order of the unit
    matched to each lead unit (the first is the value compared between plays, §6: the one
    whose largest matching unit is highest wins) — or None when the structure is not
    matched (the play is a discard 垫牌).
    """
    order = t.order
    po = pair_orders(counts, t) if shape and shape[0] else {}
    full = dict(po)
    tops: list[int] = []
    singles = 0
    for k in shape:
        if k == 0:
            singles += 1
            continue
        top = take_tractor(po, k) if k >= 2 else take_pair(po)
        if top is None:
            return None
        tops.append(top)
    if singles:
        used = {o: 2 * (n - po[o]) for o, n in full.items() if n != po[o]}
        left = sorted((order[c] for c, n in counts.items() for _ in range(n)), reverse=True)
        rest: list[int] = []
        for o in left:
            if used.get(o):
                used[o] -= 1
            else:
                rest.append(o)
        tops.extend(rest[:singles])
    return tops


def match_value(counts: dict[int, int], shape: tuple[int, ...], t: TrumpOrder) -> int | None:
    """The top order of the unit matched to the lead's largest unit, None for a discard."""
    tops = match_tops(counts, shape, t)
    return None if tops is None else tops[0]


def obligation(counts: dict[int, int], shape: tuple[int, ...], t: TrumpOrder) -> list[tuple[int, int]]:
    """How much of the lead's structure these cards (one play-suit) can show, per lead unit
    with pairs, largest first: ``(1, k)`` a tractor of k pairs, ``(0, p)`` p pairs.

    A follower must play, from the cards of the led suit, a play whose obligation is at
    least that of all his cards of the suit (§6 Follow 2: a tractor of that length while
    you have one, then pairs, then singles; pairs inside tractors count).
    """
    po = pair_orders(counts, t)
    out: list[tuple[int, int]] = []
    for k in shape:
        if k == 0:
            break
        if k >= 2 and take_tractor(po, k) is not None:
            out.append((1, k))
            continue
        p = 0
        while p < k and take_pair(po) is not None:
            p += 1
        out.append((0, p))
    return out
