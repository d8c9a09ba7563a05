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
With ``True`` either joker will do; ``"by_colour"`` is the seed's stricter house rule
(有的规则更严要求要大鬼亮红桃和方块的牌，小鬼亮黑桃和梅花的花式牌): the big joker shows
only hearts or diamonds, the small joker only spades or clubs (:func:`joker_may_show`;
with ``two_colours`` the red colour is ``h``, the black ``s``). Identical jokers alone
declare no-trump under either value. **[decision]** With 3 packs a joker plus three level
cards is the "three level cards" declaration.

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


RED = "hd"


def joker_may_show(how: object, big: bool, suit: str) -> bool:
    """May a big (or small) joker be shown with level cards of ``suit`` under
    ``declare_with_joker=how``? Any joker unless ``how`` is ``"by_colour"``: then the big
    joker 大鬼 for a red suit, the small joker 小鬼 for a black one.

    >>> joker_may_show(True, False, "h"), joker_may_show("by_colour", True, "d"), joker_may_show("by_colour", True, "s")
    (True, True, False)
    """
    return how != "by_colour" or big == (suit in RED)


class Bid(NamedTuple):
    """The declaration standing: who, which trump (None: no-trump), strength, cards shown."""

    seat: int
    suit: str | None
    strength: int
    cards: tuple[int, ...]
