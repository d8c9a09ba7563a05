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
        raise IllegalAction("the hand is over: nobody is to act", code="hand_over")
    return _lowest_single(game) if game.is_leading() else PASS


MAX_HINTS = 20
"""At most this many suggestions (a hall cycles through them on repeated 提示 presses)."""

_LEAD_KINDS = ("single", "pair", "triple", "straight", "pair_run", "triple_run")


def hints(game: Any) -> list[Any]:
    """提示, every suggestion in the order a hall cycles them: a follower gets the plays
    that beat the one on the table — the same type with the lowest top rank first, then
    bombs smallest first (``[PASS]`` when nothing beats); a leader gets its lowest single,
    then the lowest play of each type (pair, triple, straight, pair run, triple run), then
    its bombs smallest first."""
    if game.to_act is None:
        raise IllegalAction("the hand is over: there is nothing to hint", code="no_hint")
    plays = sorted((a for a in game.legal_actions() if isinstance(a, Play)), key=_hint_key)
    if not game.is_leading():
        return plays[:MAX_HINTS] or [PASS]
    lowest: dict[str, Play] = {}
    for p in sorted((p for p in plays if not p.is_bomb), key=lambda p: (p.low, p.length)):
        lowest.setdefault(str(p.kind), p)
    out = [_lowest_single(game)] + [lowest[k] for k in _LEAD_KINDS if k in lowest]
    out += [p for p in plays if p.is_bomb]
    return list(dict.fromkeys(out))[:MAX_HINTS]


def hint(game: Any) -> Any:
    """提示: the smallest play that beats the one on the table — the same type with the
    lowest top rank first, bombs (smallest first) only when nothing else beats — else
    pass; a leader gets its lowest single (the first of :func:`hints`, found without listing
    the others: 托管 plays by it)."""
    if game.to_act is None:
        raise IllegalAction("the hand is over: there is nothing to hint", code="no_hint")
    if game.is_leading():
        return _lowest_single(game)
    plays = [a for a in game.legal_actions() if isinstance(a, Play)]
    return min(plays, key=_hint_key) if plays else PASS
