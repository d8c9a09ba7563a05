"""A match: a sequence of hands of one game, with running standings.

What passes from one hand to the next is the game's own business
(``game.next_hand_options()``: Baohuang's deal start and Qingdao tribute); the match
keeps the standings and derives each hand's seed from its own.
"""

from __future__ import annotations

import random
from typing import Any

from paiju.errors import IllegalAction
from paiju.game import Game, new_seed
from paiju.specs import spec


class Match:
    """Several hands of one game. ``hands`` (an option of the match, not of the game)
    ends the match after that many hands; without it the match goes on."""

    def __init__(self, name: str, seed: int | None = None, hands: int | None = None, **options: Any) -> None:
        self.name = name
        self.seed = new_seed() if seed is None else int(seed)
        self.hands = hands
        self._rng = random.Random(self.seed)
        self.options = options
        self.games: list[Game] = []
        self.game: Game = spec(name).new(seed=self._rng.randrange(2**62), **options)
        self.games.append(self.game)

    @property
    def hand_number(self) -> int:
        """1 for the first hand."""
        return len(self.games)

    @property
    def is_over(self) -> bool:
        """Over after ``hands`` hands, or when the game says the match is won (Shengji at A)."""
        if not self.game.is_over:
            return False
        return getattr(self.game, "match_over", False) or (self.hands is not None and len(self.games) >= self.hands)

    def next_hand(self) -> Game:
        """Score the finished hand into the standings and start the next one."""
        if not self.game.is_over:
            raise IllegalAction("the current hand is not over yet")
        if self.is_over:
            raise IllegalAction("the match is over")
        opts = self.game.next_hand_options()  # type: ignore[attr-defined]
        self.game = spec(self.name).new(seed=self._rng.randrange(2**62), **opts)
        self.games.append(self.game)
        return self.game

    @property
    def standings(self) -> list[int]:
        """Points per seat over every finished hand of the match."""
        out = [0] * self.game.num_players
        for g in self.games:
            if g.is_over:
                out = [a + b for a, b in zip(out, g.scores)]
        return out
