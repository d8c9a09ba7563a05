"""托管 auto-play and the 提示 hint as plain functions of a game.

Both read only what the seat to act may know: its legal actions, its own cards and
whether it leads, so they also work on a stand-in built from the seat's view.
"""

from __future__ import annotations

from typing import Any

from paiju.errors import IllegalAction
from paiju.shuangkou.combos import PASS, ROW, Play, strength


def _lowest_single(game: Any) -> Play:
    """The leader's lowest card, as a single."""
    return ROW[1][1][min(strength(c) for c in game.hand(game.to_act))]


def _hint_key(p: Play) -> tuple[int, int, int]:
    # same-type plays before bombs, lowest rank first; bombs smallest first, four jokers last
    if p.is_bomb:
        return (1, p.size if p.length == 1 else 99, p.high)
    return (0, 0, p.high)


def hosted_action(game: Any) -> Any:
    """The 托管 policy for ``game.to_act``: a leader plays its lowest single card, a
    follower passes."""
    if game.to_act is None:
        raise IllegalAction("the hand is over: nobody is to act")
    return _lowest_single(game) if game.is_leading() else PASS


def hint(game: Any) -> Any:
    """提示: the smallest play that beats the one on the table — the same type with the
    lowest top rank first, bombs (smallest first) only when nothing else beats — else
    pass; a leader gets its lowest single."""
    if game.to_act is None:
        raise IllegalAction("the hand is over: there is nothing to hint")
    if game.is_leading():
        return _lowest_single(game)
    plays = [a for a in game.legal_actions() if isinstance(a, Play)]
    return min(plays, key=_hint_key) if plays else PASS
