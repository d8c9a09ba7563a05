"""Lazy sequences of plays: they know their length and decode an index on demand.

A leader may attempt any multiset of one play-suit (thousands of throws 甩牌), and a
follower void in the led suit may answer with any cards: such sets are sequences that
count without listing (``len``, ``[i]``, ``in``, iteration), like python-chess's
``LegalMoveGenerator``. ``random.choice`` and bots never pay for the whole list.
"""

from __future__ import annotations

from paiju.lazy import LazySequence
from paiju.shengji.actions import Play


class LeadPlays(LazySequence[Play]):
    """Every lead of a hand: per play-suit, every non-empty multiset of the cards held in
    it. Index order: play-suits in the order given; inside a suit, mixed radix over the
    card kinds (lowest kind least significant), so index 0 is the lowest single."""

    def __init__(self, groups: list[list[tuple[int, int]]]) -> None:
        # groups: per play-suit, (card id, count held) from the lowest order up
        self._groups = [g for g in groups if g]
        self._sizes = []
        for g in self._groups:
            n = 1
            for _, k in g:
                n *= k + 1
            self._sizes.append(n - 1)
        self._len = sum(self._sizes)

    def _decode(self, i: int) -> Play:
        for g, n in zip(self._groups, self._sizes):
            if i < n:
                i += 1
                out: list[int] = []
                for c, k in g:
                    i, d = divmod(i, k + 1)
                    out.extend([c] * d)
                out.sort()
                return Play(tuple(out))
            i -= n
        raise IndexError(i)

    def __contains__(self, p: object) -> bool:
        if not isinstance(p, Play) or not p.cards:
            return False
        for g in self._groups:
            held = dict(g)
            if p.cards[0] in held:
                need: dict[int, int] = {}
                for c in p.cards:
                    need[c] = need.get(c, 0) + 1
                return all(held.get(c, 0) >= n for c, n in need.items())
        return False


class Combos(LazySequence[Play]):
    """Every play made of the ``fixed`` cards plus ``k`` more cards chosen from ``pool``
    (a multiset: ``(card id, count)``). Decoded with a table of multiset counts."""

    def __init__(self, fixed: tuple[int, ...], pool: list[tuple[int, int]], k: int) -> None:
        self._fixed = fixed
        self._pool = pool
        self._k = k
        m = len(pool)
        # ways[i][j]: multisets of size j from pool[i:]
        ways = [[0] * (k + 1) for _ in range(m + 1)]
        ways[m][0] = 1
        for i in range(m - 1, -1, -1):
            cap = pool[i][1]
            nxt = ways[i + 1]
            row = ways[i]
            for j in range(k + 1):
                row[j] = sum(nxt[j - t] for t in range(min(cap, j) + 1))
        self._ways = ways
        self._len = ways[0][k]

    @property
    def fixed(self) -> tuple[int, ...]:
        """Cards every play of the set contains (all the follower's cards of the led suit)."""
        return self._fixed

    @property
    def pool(self) -> list[tuple[int, int]]:
        """``(card id, count)`` the rest is chosen from."""
        return self._pool

    @property
    def k(self) -> int:
        """How many cards are chosen from the pool."""
        return self._k

    def _decode(self, i: int) -> Play:
        out = list(self._fixed)
        j = self._k
        ways = self._ways
        for n, (c, cap) in enumerate(self._pool):
            if j == 0:
                break
            nxt = ways[n + 1]
            for t in range(min(cap, j) + 1):
                w = nxt[j - t]
                if i < w:
                    out.extend([c] * t)
                    j -= t
                    break
                i -= w
        out.sort()
        return Play(tuple(out))

    def __contains__(self, p: object) -> bool:
        if not isinstance(p, Play) or len(p.cards) != len(self._fixed) + self._k:
            return False
        need: dict[int, int] = {}
        for c in p.cards:
            need[c] = need.get(c, 0) + 1
        for c in self._fixed:
            if need.get(c, 0) <= 0:
                return False
            need[c] -= 1
        pool = dict(self._pool)
        return all(pool.get(c, 0) >= n for c, n in need.items() if n)
