"""The 提示 hint of a table: repeated presses at the same turn cycle through the suggestions.

The suggestions are the game's own (``paiju.<game>.policy``): ``hints(game)`` during play,
smallest first as the halls do (``[pass]`` when nothing beats — the hint says so and never
passes for the player); while the Shengji declarer buries, ``bury_hint(game)``, the whole
set 托管 would bury; in other decisions (declarations, the emperor's questions) 托管's
answer. A hint reads only what the seat may know and never acts.
"""

from __future__ import annotations

from typing import Any

from paiju.cards import parse_cards
from paiju.errors import IllegalAction
from paiju.specs import spec

NO_CARDS = ("pass", "yield")  # actions that show no cards


def cards_of(action: Any) -> list[str]:
    """The card texts a play shows (to raise in the hand); [] for a pass or a decision."""
    text = str(action)
    if text in NO_CARDS or hasattr(action, "name"):  # Declare-like decisions: call Ah, accept, bury 7h …
        return []
    try:
        return [str(c) for c in parse_cards(text)]
    except IllegalAction:
        return []


class Hints:
    """Per seat, the suggestions of the turn it last asked at and the one it was shown."""

    def __init__(self, game_name: str) -> None:
        parts = spec(game_name)
        self._hints, self._hint = parts.hints, parts.hint
        self._bury, self._hosted = parts.bury_hint, parts.hosted_action
        self._shown: dict[int, tuple[Any, list[tuple[str, list[str]]], int]] = {}

    def answer(self, game: Any, seat: int, key: Any) -> dict[str, Any]:
        """The ``hint`` message for ``seat`` (to act) at ``key`` (hand, turn): the next
        suggestion when it asked at this same turn before, else the first."""
        shown = self._shown.get(seat)
        if shown is not None and shown[0] == key:
            options, index = shown[1], (shown[2] + 1) % len(shown[1])
        else:
            options, index = self.suggestions(game), 0
        self._shown[seat] = (key, options, index)
        action, cards = options[index]
        return {
            "type": "hint",
            "action": action,
            "cards": cards,
            "index": index,
            "count": len(options),
            "pass": [a for a, _ in options] == ["pass"],
        }

    def suggestions(self, game: Any) -> list[tuple[str, list[str]]]:
        """Every suggestion for the seat to act: (action text, cards to raise)."""
        if game.phase == "bury" and self._bury is not None:
            cards = [str(c) for c in self._bury(game)]
            if cards:
                return [(f"bury {cards[0]}", cards)]
        if game.phase != "play":
            return [(str(self._hosted(game)), [])]
        plays = list(self._hints(game)) if self._hints is not None else [self._hint(game)]
        return [(str(a), cards_of(a)) for a in plays] or [(str(self._hint(game)), [])]
