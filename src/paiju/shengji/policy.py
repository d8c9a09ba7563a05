"""托管 auto-play and the 提示 hint as plain functions of a game.

Both read only what the seat to act may know: its legal actions and its own cards.

- deal (and the ``kitty_steal`` round): ``no`` (never declare); bury: the lowest card (plain before trump, non-point
  before point cards) **[decision]**;
- lead: the lowest single (plain suits before trumps);
- follow: the lowest legal cards (the play whose highest card is lowest, and so on).
"""

from __future__ import annotations

from typing import Any

from paiju.cards import Card
from paiju.errors import IllegalAction
from paiju.shengji.actions import NO, Declare, Play
from paiju.shengji.sequences import Combos
from paiju.shengji.trump import POINTS, TRUMP, TrumpOrder, card_id


def _cost(c: int, t: TrumpOrder) -> tuple[int, int, int]:
    return (1 if t.psuit[c] == TRUMP else 0, t.order[c], c)


def _lowest_single(game: Any, t: TrumpOrder) -> Play:
    ids = [card_id(c) for c in game.hand(game.to_act)]
    return Play((min(ids, key=lambda c: _cost(c, t)),))


def _lowest_follow(legal: Any, t: TrumpOrder) -> Play:
    if isinstance(legal, Combos):
        pool = sorted((c for c, k in legal.pool for _ in range(k)), key=lambda c: _cost(c, t))
        return Play(tuple(sorted(legal.fixed + tuple(pool[: legal.k]))))
    return min(legal, key=lambda p: sorted((_cost(c, t) for c in p.cards), reverse=True))


def hosted_action(game: Any) -> Any:
    """The 托管 policy for ``game.to_act`` (see the module doc)."""
    if game.to_act is None:
        raise IllegalAction("the hand is over: nobody is to act")
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


def hint(game: Any) -> Any:
    """提示: the smallest legal play; a leader gets the lowest single."""
    if game.to_act is None or game.phase != "play":
        raise IllegalAction("a hint is given only during play, to the seat to act")
    t = game.order
    if game.is_leading():
        return _lowest_single(game, t)
    return _lowest_follow(game.legal_actions(), t)


__all__ = ["Declare", "hint", "hosted_action"]
