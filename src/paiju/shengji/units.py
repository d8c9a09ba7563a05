"""Units of play: singles, pairs 对子 and tractors 拖拉机, and how a play is split into them.

All functions work on the cards of **one play-suit**, given as a ``{card id: count}`` dict,
and the hand's :class:`~paiju.shengji.trump.TrumpOrder`. A pair is two identical cards (same
card id); a tractor is two or more pairs whose orders are consecutive (§6). Several pair
kinds may share an order (off-suit level cards): they are equal, never adjacent.

A unit is ``Unit(pairs, top, cards)``: ``pairs`` 0 for a single, 1 for a pair, k ≥ 2 for a
tractor of k pairs; ``top`` its highest order. The *shape* of a play is the tuple of its
units' ``pairs``, largest first.

With the ``triples`` option (3 packs, §9, ``TrumpOrder.triples``) a triple 三同张 (three
identical cards) is a unit ``Unit(0, top, cards, triples=1)`` and two adjacent triples a
泰坦尼克 ``Unit(0, top, cards, triples=2)``; their shape code is :data:`TRIPLE` + triples
(101, 102), so they come first in a shape. **[decision]** A 泰坦尼克 is exactly two adjacent
triples (seed: 两副大小相临…的三同张): three adjacent triples are the higher two as a
泰坦尼克 plus a triple. A play is split into 泰坦尼克 (highest first), then triples, then
tractors, pairs and singles from the cards left. Without the option three identical cards
are a pair and a single.

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

TRIPLE = 100
"""Shape code of triple units: 101 a triple, 102 a 泰坦尼克 (``triples`` option)."""


class Unit(NamedTuple):
    """One unit of a play: ``pairs`` (0 single, 1 pair, ≥ 2 tractor), ``top`` order, card ids;
    ``triples`` 1 for a triple, 2 for a 泰坦尼克 (then ``pairs`` is 0)."""

    pairs: int
    top: int
    cards: tuple[int, ...]
    triples: int = 0

    @property
    def code(self) -> int:
        """The unit's shape code: ``pairs``, or :data:`TRIPLE` + ``triples``."""
        return TRIPLE + self.triples if self.triples else self.pairs

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


def triple_orders(counts: dict[int, int], t: TrumpOrder) -> dict[int, list[int]]:
    """``{order: card ids held three times}``."""
    out: dict[int, list[int]] = {}
    order = t.order
    for c, n in counts.items():
        if n >= 3:
            out.setdefault(order[c], []).append(c)
    return out


def take_titanic(counts: dict[int, int], t: TrumpOrder) -> tuple[int, tuple[int, ...]] | None:
    """Remove the highest 泰坦尼克 (two triples of adjacent orders) from ``counts``:
    ``(top order, cards)``, or None."""
    to = triple_orders(counts, t)
    for o in sorted(to, reverse=True):
        if o - 1 in to:
            a, b = min(to[o]), min(to[o - 1])
            counts[a] -= 3
            counts[b] -= 3
            return o, (a, a, a, b, b, b)
    return None


def take_triple(counts: dict[int, int], t: TrumpOrder) -> tuple[int, tuple[int, ...]] | None:
    """Remove the highest triple from ``counts``: ``(order, cards)``, or None."""
    to = triple_orders(counts, t)
    if not to:
        return None
    o = max(to)
    a = min(to[o])
    counts[a] -= 3
    return o, (a, a, a)


def _held(counts: dict[int, int]) -> dict[int, int]:
    return {c: n for c, n in counts.items() if n > 0}


def decompose(counts: dict[int, int], t: TrumpOrder) -> list[Unit]:
    """Split the cards of one play-suit into units: longest tractors first (highest on a
    tie), then pairs, then singles; largest unit first in the result. With ``triples``:
    泰坦尼克 and triples first."""
    if t.triples and any(n >= 3 for n in counts.values()):
        left = dict(counts)
        units: list[Unit] = []
        while (got := take_titanic(left, t)) is not None:
            units.append(Unit(0, got[0], got[1], 2))
        while (got := take_triple(left, t)) is not None:
            units.append(Unit(0, got[0], got[1], 1))
        units += _decompose_pairs(_held(left), t)
        units.sort(key=lambda u: (-u.code, -u.top, u.cards))
        return units
    return _decompose_pairs(counts, t)


def _decompose_pairs(counts: dict[int, int], t: TrumpOrder) -> list[Unit]:
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
    """The lead's shape: ``pairs`` of each unit (:data:`TRIPLE` + triples for triple units),
    largest first."""
    return tuple(TRIPLE + u.triples if u.triples else u.pairs for u in units)


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
    matched (the play is a discard 垫牌). Triple units (``triples``) take the highest
    泰坦尼克 or triple of the play first.
    """
    if shape and shape[0] >= TRIPLE:
        rem = dict(counts)
        ttops: list[int] = []
        i = 0
        while i < len(shape) and shape[i] >= TRIPLE:
            got = take_titanic(rem, t) if shape[i] > TRIPLE + 1 else take_triple(rem, t)
            if got is None:
                return None
            ttops.append(got[0])
            i += 1
        more = match_tops(_held(rem), shape[i:], t)
        return None if more is None else ttops + more
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

    A triple unit (``triples``, §9) gives ``(0, level)``, the best of its follow order the
    cards show (:func:`triple_level`).
    """
    if shape and shape[0] >= TRIPLE:
        left = dict(counts)
        out3: list[tuple[int, int]] = []
        i = 0
        while i < len(shape) and shape[i] >= TRIPLE:
            out3.append((0, triple_level(left, shape[i], t)))
            i += 1
        return out3 + obligation(_held(left), shape[i:], t)
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


def _take_pairs(counts: dict[int, int], t: TrumpOrder, k: int, tractor: bool) -> bool:
    """Remove the highest tractor of ``k`` pairs (``tractor``) or ``k`` highest pairs from
    ``counts``; False (``counts`` unchanged) when there are none."""
    by_order: dict[int, list[int]] = {}
    order = t.order
    for c, n in counts.items():
        if n >= 2:
            by_order.setdefault(order[c], []).append(c)
    if tractor:
        po = {o: len(v) for o, v in by_order.items()}
        top = take_tractor(po, k)
        if top is None:
            return False
        chosen = [min(by_order[o]) for o in range(top, top - k, -1)]
    else:
        kinds = sorted((c for v in by_order.values() for c in v), key=lambda c: -order[c])
        if len(kinds) < k:
            return False
        chosen = kinds[:k]
    for c in chosen:
        counts[c] -= 2
    return True


TITANIC_FOLLOW = (
    "six singles",
    "a pair",
    "two pairs",
    "a triple",
    "a triple and a pair",
    "a tractor",
    "two triples",
    "a 泰坦尼克",
)
"""What each level of :func:`triple_level` shows, for a 泰坦尼克 lead."""
TRIPLE_FOLLOW = ("three singles", "a pair", "a triple")
"""What each level of :func:`triple_level` shows, for a triple lead."""


def triple_level(counts: dict[int, int], code: int, t: TrumpOrder) -> int:
    """How far down its follow order (§9) the cards can answer a triple unit; the cards
    used are removed from ``counts``. Best first, for a 泰坦尼克 lead: 泰坦尼克 7, two
    triples 6, tractor + two singles 5, triple + pair + single 4, triple + three singles 3,
    two pairs + two singles 2, pair + four singles 1, six singles 0; for a triple lead:
    triple 2, pair + single 1, three singles 0. Singles are any cards (the follower holds
    enough cards of the suit when this matters). See :data:`TITANIC_FOLLOW`.
    """
    if code == TRIPLE + 1:
        if take_triple(counts, t) is not None:
            return 2
        return 1 if _take_pairs(counts, t, 1, False) else 0
    trial = dict(counts)
    if take_titanic(trial, t) is not None:
        counts.update(trial)
        return 7
    trial = dict(counts)
    if take_triple(trial, t) is not None and take_triple(trial, t) is not None:
        counts.update(trial)
        return 6
    trial = dict(counts)
    if _take_pairs(trial, t, 2, True):
        counts.update(trial)
        return 5
    trial = dict(counts)
    if take_triple(trial, t) is not None:
        after = dict(trial)
        if _take_pairs(after, t, 1, False):
            counts.update(after)
            return 4
        counts.update(trial)
        return 3
    for level, k in ((2, 2), (1, 1)):
        if _take_pairs(counts, t, k, False):
            return level
    return 0
