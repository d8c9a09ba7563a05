"""托管 auto-play and the 提示 hint as plain functions of a game (spec §7, §8).

Both read only what the seat to act may know: its legal actions and its own cards.
"""

from __future__ import annotations

from typing import Any

from paiju.baohuang.plays import Declare, Play
from paiju.errors import IllegalAction
from paiju.game import PASS

_DEFAULT_ANSWERS = ("accept", "no")


def _lowest_single(legal: Any) -> Play:
    """The leader's lowest single card; under 憋6 the finishing play when only the held
    rank is left. A play without the hidden role card is preferred to one with it."""
    singles = [a for a in legal if isinstance(a, Play) and a.size == 1]
    if singles:
        return min(singles, key=lambda p: (p.sorted_strengths()[0], p.reveal is not None))
    return min(legal, key=_play_key)


def _play_key(p: Play) -> tuple[int, int, int, int, bool]:
    return (p.size, p.big, p.small, p.rank, p.reveal is not None)


def hosted_action(game: Any) -> Any:
    """The seeds' 托管 policy for ``game.to_act``: the default answer in the emperor and
    guard decisions (accept when eligible, call the automatic triple, stay hidden, no
    solo grab, no rebellion, no kick, take the best tribute card); in play the leader
    plays the single lowest card and a follower passes."""
    if game.to_act is None:
        raise IllegalAction("the hand is over: nobody is to act")
    legal = game.legal_actions()
    if game.phase == "play":
        return _lowest_single(legal) if game.is_leading() else PASS
    names = {a.name: a for a in legal}
    for name in _DEFAULT_ANSWERS:
        if name in names:
            return names[name]
    if "call" in names:
        calls = [a for a in legal if a.name == "call"]
        mine = [str(c) for c in game.hand(game.to_act)]
        triples = [a for a in calls if mine.count(a.arg) == 3]
        return (triples or calls)[0]
    if "take" in names:
        from paiju.baohuang.plays import strength
        from paiju.cards import Card

        return max(legal, key=lambda a: strength(Card.parse(a.arg)))
    if "abdicate" in names:
        return names["abdicate"]
    return legal[0]


def hint(game: Any) -> Any:
    """提示: the smallest play that beats the one on the table, else pass; a leader gets
    the lowest single."""
    if game.to_act is None or game.phase != "play":
        raise IllegalAction("a hint is given only during play, to the seat to act")
    legal = game.legal_actions()
    if game.is_leading():
        return _lowest_single(legal)
    plays = [a for a in legal if isinstance(a, Play)]
    return min(plays, key=_play_key) if plays else PASS


__all__ = ["Declare", "hint", "hosted_action"]
