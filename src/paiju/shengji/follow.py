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

from paiju.errors import IllegalAction, reasons
from paiju.shengji.actions import Play
from paiju.shengji.sequences import Combos
from paiju.shengji.trump import ID_TEXT, SUIT_NAMES, TrumpOrder
from paiju.shengji.units import TITANIC_FOLLOW, TRIPLE, TRIPLE_FOLLOW, counts_of, obligation

reasons(
    mixed_suits="a lead is cards of one suit (all trumps are one suit): this play mixes {suits}",
    must_follow_suit="you still hold {suit}: follow the led suit",
    must_follow_pair="you hold a pair of {suit}: you must follow the pair",
    must_follow_tractor="you hold pairs of {suit}: you must play them to follow the tractor",
    must_follow_best="you hold {held} of {suit}: follow the {unit} with the best you hold",
)


def not_held(need: dict[int, int], hand: list[int]) -> IllegalAction | None:
    """The error for cards (``{card id: count}``) the hand does not hold, if any."""
    for c, k in need.items():
        if hand[c] < k:
            text = f"{k} × {ID_TEXT[c]}" if k > 1 else ID_TEXT[c]
            return IllegalAction(f"you do not hold {text}", "not_in_hand", cards=" ".join([ID_TEXT[c]] * k))
    return None


def suit_counts(hand: list[int], suit: int, t: TrumpOrder) -> dict[int, int]:
    """``{card id: count}`` of the cards of ``suit`` in a hand (a count vector)."""
    return {c: hand[c] for c in t.kinds[suit] if hand[c]}


def follow_problem(
    suit: int, shape: tuple[int, ...], n: int, hand: list[int], play: tuple[int, ...], t: TrumpOrder
) -> IllegalAction | None:
    """Why ``play`` (card ids) may not answer a lead of ``n`` cards of play-suit ``suit``
    with units ``shape`` from ``hand`` (count vector): the error to raise; None when it may."""
    if len(play) != n:
        text = f"play {n} card{'s' if n > 1 else ''}: the lead has {n}, not {len(play)}"
        return IllegalAction(text, "wrong_count", play=" ".join(ID_TEXT[c] for c in play), got=len(play), count=n)
    need = counts_of(play)
    missing = not_held(need, hand)
    if missing is not None:
        return missing
    mine = suit_counts(hand, suit, t)
    held = sum(mine.values())
    name = SUIT_NAMES[suit]
    psuit = t.psuit
    in_suit = {c: k for c, k in need.items() if psuit[c] == suit}
    played = sum(in_suit.values())
    if held < n:
        if played < held:
            text = f"you hold {held} {name}: play all of them before other cards (follow the led suit)"
            return IllegalAction(text, "must_follow_suit", suit=name)
        return None
    if played < n:
        text = f"you still hold {name}: follow the led suit with {n} card{'s' if n > 1 else ''}"
        return IllegalAction(text, "must_follow_suit", suit=name)
    if not shape or shape[0] == 0:
        return None
    must = obligation(mine, shape, t)
    got = obligation(in_suit, shape, t)
    if got >= must:
        return None
    for (tm, pm), (tg, pg), k in zip(must, got, shape):
        if (tg, pg) < (tm, pm):
            if k > TRIPLE:
                held_text, unit = (TITANIC_FOLLOW[pm], "泰坦尼克") if k > TRIPLE + 1 else (TRIPLE_FOLLOW[pm], "triple")
                text = f"you hold {held_text} of {name}: follow the {unit} with the best you hold"
                return IllegalAction(text, "must_follow_best", held=held_text, suit=name, unit=unit)
            if k == 1:
                return IllegalAction(
                    f"you hold a pair of {name}: you must follow the pair", "must_follow_pair", suit=name
                )
            if tm:
                text = f"you hold a tractor of {k} pairs of {name}: you must follow the tractor"
            else:
                text = f"you hold {pm} pair{'s' if pm > 1 else ''} of {name}: you must play them to follow the tractor"
            return IllegalAction(text, "must_follow_tractor", suit=name)
    text = "your play does not follow the lead's pairs and tractors"  # pragma: no cover
    return IllegalAction(text, "must_follow_tractor", suit=name)  # pragma: no cover


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
