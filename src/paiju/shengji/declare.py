"""Declaring trump 亮主 during the deal (§4): what a seat may show, and what beats what.

A declaration shows ``n`` identical cards: level cards of one suit (that suit becomes
trump) or jokers of one kind (no-trump 无主). Strength order, a declaration replacing
only a strictly weaker one:

- 1 or 2 packs: single level card < pair of level cards < pair of SJ < pair of BJ;
- 3 packs (泰坦尼克): single < two level cards < two SJ < two BJ < three level cards <
  three SJ < three BJ **[decision: within "two jokers" and "three jokers", SJ < BJ]**.

The seat whose declaration stands may only reinforce it 自保 (show more cards for the
same trump) unless ``self_overturn`` 自反; every other seat may overturn 反主 with any
stronger declaration.

``declare_with_joker`` (seed 003, last answer): level cards are shown together with one
joker — a joker plus a level card declares, a joker plus two level cards of one suit
overturns or reinforces (plus three, with 3 packs); identical jokers alone still declare
no-trump. The joker adds nothing to the strength, which is that of the level cards.
**[decision]** Either joker will do (the seed's stricter house rule, BJ for red suits and
SJ for black, is not adopted), and with 3 packs a joker plus three level cards is the
"three level cards" declaration.

>>> strength(1, False, False), strength(2, False, False), strength(2, True, False), strength(2, True, True)
(1, 2, 3, 4)
"""

from __future__ import annotations

from typing import NamedTuple


def strength(n: int, joker: bool, big: bool) -> int:
    """Strength of showing ``n`` identical cards (level cards, or jokers small/big)."""
    if not joker:
        return {1: 1, 2: 2, 3: 5}[n]
    base = {2: 3, 3: 6}[n]
    return base + (1 if big else 0)


class Bid(NamedTuple):
    """The declaration standing: who, which trump (None: no-trump), strength, cards shown."""

    seat: int
    suit: str | None
    strength: int
    cards: tuple[int, ...]
