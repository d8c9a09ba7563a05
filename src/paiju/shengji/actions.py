"""Shengji actions: plays of cards, declarations 亮主 during the deal, burying the kitty 扣底.

Text forms (``str(action)``, read back by ``game.parse_action``):

- ``no`` — no declaration now (during the deal);
- ``declare Th`` / ``declare Th Th`` / ``declare SJ SJ`` / ``declare BJ BJ`` — show level
  cards (or a joker pair, for no-trump) to declare, reinforce 自保 or overturn 反主; with
  ``declare_with_joker`` level cards are shown with a joker: ``declare SJ Th``;
- ``bury 7h`` — the declarer buries one card into the kitty (one card per decision);
- ``Ks Ks Qs`` — a play: card text in display order (BJ SJ, then ♠ ♥ ♦ ♣ high to low).
"""

from __future__ import annotations

from typing import NamedTuple

from paiju.shengji.trump import ID_TEXT


class Play(NamedTuple):
    """A play of cards: card ids sorted ascending (display order)."""

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return " ".join([ID_TEXT[c] for c in self.cards])

    @property
    def size(self) -> int:
        return len(self.cards)


def make_play(ids: list[int] | tuple[int, ...]) -> Play:
    return Play(tuple(sorted(ids)))


class Declare(NamedTuple):
    """A decision outside trick play by name: ``no``, ``declare <cards>``, ``bury <card>``."""

    name: str
    arg: str = ""

    def __str__(self) -> str:
        return f"{self.name} {self.arg}" if self.arg else self.name


NO = Declare("no")
