"""Simple bots: ``random``, ``hosted`` (托管) and ``greedy``.

``hosted`` and ``greedy`` reuse the game's own policy functions (``hosted_action`` and
``hint`` of its :class:`~paiju.specs.GameSpec`). Those are written against a game
object, so they are handed :class:`SeatFromView`: a stand-in that answers the few
questions they ask from the seat's view and legal actions only — never the real game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from paiju.baohuang.plays import Play
from paiju.bots.base import register
from paiju.cards import Card, parse_cards
from paiju.errors import IllegalAction
from paiju.specs import spec

Policy = Callable[[Any], Any]


def _policies(game: str) -> tuple[Policy, Policy] | None:
    """``(hosted_action, hint)`` of a game that has them, else None."""
    try:
        s = spec(game)
    except IllegalAction:  # not a game of paiju
        return None
    return s.hosted_action, s.hint


class SeatFromView:
    """What a policy function may ask of a game, answered from one seat's view and its
    legal actions: ``to_act``, ``phase``, ``legal_actions()``, ``is_leading()`` and
    ``hand(seat)`` (the seat's own hand only)."""

    def __init__(self, view: Mapping[str, Any], legal: Sequence[Any]) -> None:
        self._view = view
        self._legal = legal

    @property
    def to_act(self) -> int | None:
        return self._view["seat"]

    @property
    def phase(self) -> str:
        return self._view["phase"]

    def legal_actions(self) -> Sequence[Any]:
        return self._legal

    def is_leading(self) -> bool:
        v = self._view
        if "leading" in v:
            return bool(v["leading"])
        # a view without the key (Shuangkou's): the seat leads when there is no play to beat
        return v.get("phase") == "play" and v.get("last_play") is None

    @property
    def order(self) -> Any:
        """Shengji's card order of this hand, from the public trump suit and level."""
        from paiju.cards import RANKS
        from paiju.shengji.trump import trump_order

        v = self._view
        level = RANKS.index(v["level"]) + 2
        return trump_order(v["trump_suit"], level, bool(v["options"].get("twos_trump")))

    def hand(self, seat: int) -> list[Card]:
        if seat != self.to_act:
            raise IllegalAction("a bot sees only its own hand")
        return parse_cards(self._view["hand"])


def suggest(view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
    """The action a helper would suggest to a human: the hint during play, the hosted
    (default) answer before it; the first legal action for a game without policies."""
    pol = _policies(view.get("game", ""))
    if pol is None:
        return legal[0]
    hosted_action, hint = pol
    seat = SeatFromView(view, legal)
    return hint(seat) if view.get("phase") == "play" else hosted_action(seat)


@register("random", "a uniformly random legal action (any game)")
class RandomBot:
    """Picks uniformly among the legal actions (works for every game)."""

    name = "random"

    def __init__(self, game: str = "", seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        return legal[self._rng.randrange(len(legal))]


@register("hosted", "托管 auto-play: default answers, the leader plays its lowest single, followers pass")
class HostedBot:
    """The game's 托管 policy (Baohuang spec §7)."""

    name = "hosted"

    def __init__(self, game: str = "baohuang", seed: int | None = None) -> None:
        pol = _policies(game)
        if pol is None:
            raise IllegalAction(f"the hosted bot does not know {game} yet; use random")
        self._hosted = pol[0]

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        return self._hosted(SeatFromView(view, legal))


JOKER_KEEP = 8
"""The greedy bot keeps its jokers while it holds more than this many cards."""


@register("greedy", "plays the hint (smallest beating play) but saves jokers while holding more than 8 cards")
class GreedyBot:
    """Default answers before play, but a Shengji trump declaration whenever one is open
    (the strongest it may make); in play the 提示 hint, except that a Baohuang follower
    passes rather than spend a joker while it still holds more than ``JOKER_KEEP`` cards."""

    name = "greedy"

    def __init__(self, game: str = "baohuang", seed: int | None = None) -> None:
        pol = _policies(game)
        if pol is None:
            raise IllegalAction(f"the greedy bot does not know {game} yet; use random")
        self._hosted, self._hint = pol

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        seat = SeatFromView(view, legal)
        if view["phase"] != "play":
            declarations = [a for a in legal if str(a).startswith("declare ")]
            if declarations:  # legal declarations come weakest first
                return declarations[-1]
            return self._hosted(seat)
        action = self._hint(seat)
        if (
            not seat.is_leading()
            and isinstance(action, Play)
            and (action.small or action.big)
            and len(view["hand"]) > JOKER_KEEP
        ):
            passes = [a for a in legal if str(a) == "pass"]
            if passes:
                return passes[0]
        return action
