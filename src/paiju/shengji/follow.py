"""Following a lead 跟牌 (§6 Follow): the led suit first, then its pairs and tractors.

1. Play as many cards as the lead. Follow the led play-suit while you can; if you hold
   fewer of it than the lead, play all of them plus any others.
2. Structure: when the lead has pairs or tractors, the play's cards of the led suit must
   show as much of the lead's structure as all your cards of the suit can
   (:func:`~paiju.shengji.units.obligation`, lead units largest first). With ``triples``
   a triple or 泰坦尼克 lead is answered by the best of its follow order (§9) the cards of
   the suit allow (:func:`~paiju.shengji.units.triple_level`).
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.shengji.actions import Play
from paiju.shengji.sequences import Combos
from paiju.shengji.trump import ID_TEXT, SUIT_NAMES, TrumpOrder
from paiju.shengji.units import TITANIC_FOLLOW, TRIPLE, TRIPLE_FOLLOW, counts_of, obligation


def suit_counts(hand: list[int], suit: int, t: TrumpOrder) -> dict[int, int]:
    """``{card id: count}`` of the cards of ``suit`` in a hand (a count vector)."""
    return {c: hand[c] for c in t.kinds[suit] if hand[c]}


def follow_problem(
    suit: int, shape: tuple[int, ...], n: int, hand: list[int], play: tuple[int, ...], t: TrumpOrder
) -> str | None:
    """Why ``play`` (card ids) may not answer a lead of ``n`` cards of play-suit ``suit``
    with units ``shape`` from ``hand`` (count vector); None when it may."""
    if len(play) != n:
        return f"play {n} card{'s' if n > 1 else ''}: the lead has {n}, not {len(play)}"
    need = counts_of(play)
    for c, k in need.items():
        if hand[c] < k:
            return f"you do not hold {k} × {ID_TEXT[c]}" if k > 1 else f"you do not hold {ID_TEXT[c]}"
    mine = suit_counts(hand, suit, t)
    held = sum(mine.values())
    name = SUIT_NAMES[suit]
    psuit = t.psuit
    in_suit = {c: k for c, k in need.items() if psuit[c] == suit}
    played = sum(in_suit.values())
    if held < n:
        if played < held:
            return f"you hold {held} {name}: play all of them before other cards (follow the led suit)"
        return None
    if played < n:
        return f"you still hold {name}: follow the led suit with {n} card{'s' if n > 1 else ''}"
    if not shape or shape[0] == 0:
        return None
    must = obligation(mine, shape, t)
    got = obligation(in_suit, shape, t)
    if got >= must:
        return None
    for (tm, pm), (tg, pg), k in zip(must, got, shape):
        if (tg, pg) < (tm, pm):
            if k > TRIPLE + 1:
                return f"you hold {TITANIC_FOLLOW[pm]} of {name}: follow the 泰坦尼克 with the best you hold"
            if k == TRIPLE + 1:
                return f"you hold {TRIPLE_FOLLOW[pm]} of {name}: follow the triple with the best you hold"
            if k == 1:
                return f"you hold a pair of {name}: you must follow the pair"
            if tm:
                return f"you hold a tractor of {k} pairs of {name}: you must follow the tractor"
            return f"you hold {pm} pair{'s' if pm > 1 else ''} of {name}: you must play them to follow the tractor"
    return "your play does not follow the lead's pairs and tractors"  # pragma: no cover


def legal_follows(suit: int, shape: tuple[int, ...], n: int, hand: list[int], t: TrumpOrder) -> Sequence[Play]:
    """Every legal answer to the lead. Unconstrained sets (short of the suit, or no pairs
    to show) are lazy :class:`Combos`; sets with pair obligations are listed."""
    mine = suit_counts(hand, suit, t)
    held = sum(mine.values())
    if held <= n:
        fixed = tuple(c for c, k in mine.items() for _ in range(k))
        psuit = t.psuit
        pool = [(c, hand[c]) for c in range(len(hand)) if hand[c] and psuit[c] != suit]
        return Combos(fixed, pool, n - held)
    pool = sorted(mine.items(), key=lambda ck: (t.order[ck[0]], ck[0]))
    if not shape or shape[0] == 0:
        return Combos((), pool, n)
    must = obligation(mine, shape, t)
    if all(p == 0 for _, p in must):
        return Combos((), pool, n)
    if shape == (1,):  # a pair led, and a pair held: exactly the pairs
        return [Play((c, c)) for c, k in pool if k >= 2]
    out: list[Play] = []
    for p in Combos((), pool, n):
        if obligation(counts_of(p.cards), shape, t) >= must:
            out.append(p)
    return out
