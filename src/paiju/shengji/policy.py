"""托管 auto-play and the 提示 hint as plain functions of a game.

Both read only what the seat to act may know: its legal actions and its own cards.

- deal (and the ``kitty_steal`` round): ``no`` (never declare); bury: the lowest card (plain before trump, non-point
  before point cards) **[decision]**;
- lead: the lowest single (plain suits before trumps);
- follow: the lowest legal cards (the play whose highest card is lowest, and so on).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.cards import Card
from paiju.errors import IllegalAction
from paiju.shengji.actions import NO, Declare, Play
from paiju.shengji.sequences import Combos
from paiju.shengji.trump import POINTS, TRUMP, TrumpOrder, card_id
from paiju.shengji.units import counts_of, decompose


def _cost(c: int, t: TrumpOrder) -> tuple[int, int, int]:
    return (1 if t.psuit[c] == TRUMP else 0, t.order[c], c)


def _lowest_single(game: Any, t: TrumpOrder) -> Play:
    ids = [card_id(c) for c in game.hand(game.to_act)]
    return Play((min(ids, key=lambda c: _cost(c, t)),))


def _lowest_follow(legal: Sequence[Play], t: TrumpOrder) -> Play:
    if isinstance(legal, Combos):
        pool = sorted((c for c, k in legal.pool for _ in range(k)), key=lambda c: _cost(c, t))
        return Play(tuple(sorted(legal.fixed + tuple(pool[: legal.k]))))
    return min(legal, key=lambda p: sorted((_cost(c, t) for c in p.cards), reverse=True))


def hosted_action(game: Any) -> Any:
    """The 托管 policy for ``game.to_act`` (see the module doc)."""
    if game.to_act is None:
        raise IllegalAction("the hand is over: nobody is to act", code="hand_over")
    if game.phase in ("deal", "steal"):
        return NO
    t = game.order
    if game.phase == "bury":
        legal = game.legal_actions()
        return min(
            legal,
            key=lambda a: (lambda c: (1 if t.psuit[c] == TRUMP else 0, POINTS[c] > 0, t.order[c], c))(
                card_id(Card.parse(a.arg))
            ),
        )
    return hint(game)


MAX_HINTS = 20
"""At most this many suggestions (a hall cycles through them on repeated 提示 presses)."""
_WINDOWS = 10
"""Follows offered from an unconstrained set: the cheapest cards, then this many steps up."""


def _lead_hints(game: Any, t: TrumpOrder) -> list[Play]:
    """The lowest single, the hand's pairs, triples and tractors (plain suits first, short
    and low first), then the lowest single of every other play-suit."""
    cnt = counts_of(card_id(c) for c in game.hand(game.to_act))
    units = []
    singles = []
    for suit in range(5):
        mine = {c: k for c, k in cnt.items() if t.psuit[c] == suit}
        if mine:
            units += [u for u in decompose(mine, t) if len(u.cards) > 1]
            singles.append(Play((min(mine, key=lambda c: _cost(c, t)),)))
    units.sort(key=lambda u: (_cost(u.cards[0], t)[0], len(u.cards), u.top, u.cards))
    return [_lowest_single(game, t), *(Play(tuple(sorted(u.cards))) for u in units), *singles]


def _follow_hints(legal: Any, t: TrumpOrder) -> list[Play]:
    """The cheapest legal follows, cheapest first (:func:`_lowest_follow` is the first)."""
    if not isinstance(legal, Combos):
        return sorted(legal, key=lambda p: sorted((_cost(c, t) for c in p.cards), reverse=True))
    pool = sorted((c for c, k in legal.pool for _ in range(k)), key=lambda c: _cost(c, t))
    k, fixed = legal.k, legal.fixed
    if not k:
        return [Play(tuple(sorted(fixed)))]
    starts = list(range(min(_WINDOWS, len(pool) - k + 1)))
    picks = [pool[i : i + k] for i in [*starts, len(pool) - k]]  # step up, then the strongest
    trumps = [c for c in pool if t.psuit[c] == TRUMP]
    if not fixed and len(trumps) >= k and len(trumps) < len(pool):  # void in the led suit: a ruff
        picks.insert(1, trumps[:k])
    return [Play(tuple(sorted(fixed + tuple(p)))) for p in picks]


def hints(game: Any) -> list[Any]:
    """提示, every suggestion in the order a hall cycles them: a leader gets the lowest
    single, then the pairs and tractors he holds, then the lowest single of each other
    suit; a follower the cheapest legal follows (the play whose highest card is lowest …),
    a few steps up from them and a ruff when he may trump."""
    if game.to_act is None or game.phase != "play":
        raise IllegalAction("a hint is given only during play, to the seat to act", code="no_hint")
    t = game.order
    plays = _lead_hints(game, t) if game.is_leading() else _follow_hints(game.legal_actions(), t)
    return list(dict.fromkeys(plays))[:MAX_HINTS]


def hint(game: Any) -> Any:
    """提示: the smallest legal play; a leader gets the lowest single (the first of :func:`hints`,
    found without listing the others: 托管 plays by it)."""
    if game.to_act is None or game.phase != "play":
        raise IllegalAction("a hint is given only during play, to the seat to act", code="no_hint")
    t = game.order
    if game.is_leading():
        return _lowest_single(game, t)
    return _lowest_follow(game.legal_actions(), t)


def bury_hint(game: Any) -> list[Card]:
    """The cards the 托管 policy would bury 扣底 over the burying seat's remaining ``bury``
    decisions (the whole kitty when none is buried yet), in burying order."""
    if game.to_act is None or game.phase != "bury":
        raise IllegalAction("a bury hint is given only while the kitty is buried, to the declarer", code="no_hint")
    g = game.clone()
    seat = g.to_act
    out: list[Card] = []
    while g.phase == "bury" and g.to_act == seat:
        a = hosted_action(g)
        g.apply(a)
        out.append(Card.parse(a.arg))
    return out


__all__ = ["Declare", "bury_hint", "hint", "hints", "hosted_action"]
