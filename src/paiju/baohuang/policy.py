"""托管 auto-play and the 提示 hint as plain functions of a game (spec §7, §8).

Both read only what the seat to act may know: its legal actions and its own cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.baohuang.plays import Declare, Play
from paiju.errors import IllegalAction
from paiju.game import PASS

_DEFAULT_ANSWERS = ("accept", "no")


def _lowest_single(legal: Sequence[Play]) -> Play:
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
        raise IllegalAction("the hand is over: nobody is to act", code="hand_over")
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


MAX_HINTS = 20
"""At most this many suggestions (a hall cycles through them on repeated 提示 presses)."""


def _distinct(plays: Any) -> list[Play]:
    """The plays in order, one per composition (the first: without the role card when both exist)."""
    seen: set[tuple[int, int, int, int]] = set()
    out: list[Play] = []
    for p in plays:
        key = (p.rank, p.n, p.small, p.big)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out[:MAX_HINTS]


def hints(game: Any) -> list[Any]:
    """提示, every suggestion in the order a hall cycles them: a follower gets the plays
    that beat the one on the table, smallest first (``[PASS]`` when nothing beats); a
    leader gets the lowest single, then the lowest play of each size (pair, triple …), then
    each whole rank low to high, then the jokers alone."""
    if game.to_act is None or game.phase != "play":
        raise IllegalAction("a hint is given only during play, to the seat to act", code="no_hint")
    legal = game.legal_actions()
    plays = sorted((a for a in legal if isinstance(a, Play)), key=_play_key)
    if not game.is_leading():
        return list(_distinct(plays)) or [PASS]
    plain = [p for p in plays if not p.small and not p.big]
    by_size: dict[int, Play] = {}
    whole: dict[int, Play] = {}
    for p in plain:  # sorted by size, then rank: the first of a size is its lowest
        by_size.setdefault(p.n, p)
        if p.rank not in whole or p.n > whole[p.rank].n:
            whole[p.rank] = p
    jokers = [p for p in plays if not p.n]
    size = len(game.hand(game.to_act))
    rest = [p for p in plays if p.n and (p.small or p.big) and p.size == size]  # 憋6's finishing play
    return _distinct([_lowest_single(legal), *by_size.values(), *sorted(whole.values()), *jokers, *rest])


def hint(game: Any) -> Any:
    """提示: the smallest play that beats the one on the table, else pass; a leader gets
    the lowest single (the first of :func:`hints`, found without listing the others: 托管
    plays by it)."""
    if game.to_act is None or game.phase != "play":
        raise IllegalAction("a hint is given only during play, to the seat to act", code="no_hint")
    legal = game.legal_actions()
    if game.is_leading():
        return _lowest_single(legal)
    plays = [a for a in legal if isinstance(a, Play)]
    return min(plays, key=_play_key) if plays else PASS


__all__ = ["Declare", "hint", "hints", "hosted_action"]
