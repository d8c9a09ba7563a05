"""Scoring a hand (§7): the kitty bonus 抠底, the level table 升级 and the match's levels.

Thresholds are those of two packs scaled by the number of packs (× 0.5 for one pack,
× 1.5 for three): the *step* is 40 points for two packs, 20 for one, 60 for three.

>>> level_change(0, 2), level_change(35, 2), level_change(80, 2), level_change(240, 2)
((0, 3), (0, 2), (1, 0), (1, 4))
>>> kitty_multiplier(2, "pairs_power"), kitty_multiplier(3, "unit_size"), kitty_multiplier(3, "competition")
(8, 12, 8)
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.errors import IllegalAction
from paiju.shengji.trump import TRUMP, TrumpOrder
from paiju.shengji.units import counts_of, decompose


def step_points(decks: int, level_step: int = 0) -> int:
    """Points per level step: ``level_step`` when set, else 20, 40 or 60 for 1, 2 or 3 packs."""
    return level_step or 20 * decks


def take_over_points(decks: int) -> int:
    """The defenders' points from which they take over 上台: 40, 80 or 120 for 1, 2 or 3 packs
    (whatever the level step)."""
    return 40 * decks


def level_change(points: int, decks: int = 2, table: str = "default", level_step: int = 0) -> tuple[int, int]:
    """``(side, levels)`` for the defenders' points: side 0 = the declarers 庄家 go up
    (or hold), side 1 = the defenders take over 上台 and go up ``levels`` (0: take over
    without a level). **[decision]** Points at or below 0 (after throw penalties) count as 0.

    ``level_step`` (seed 003: 按40为一个级别（有的约定是20分，可以自行约定）): the points
    per level, both ways from the take-over point, which stays (80 with two packs); 0
    points is one level more than the lowest band. **[decision]** With 20 for two packs:
    60–75 → +1, 40–55 → +2, 20–35 → +3, 5–15 → +4, 0 → +5; 80–95 take over, 100–115 +1 ….

    >>> level_change(60, 2, level_step=20), level_change(5, 2, level_step=20), level_change(100, 2, level_step=20)
    ((0, 1), (0, 4), (1, 1))
    """
    u = step_points(decks, level_step)
    top = take_over_points(decks)
    if points < top:
        return (0, 1 + (top - 1 - max(points, 1)) // u + (1 if points <= 0 else 0))
    if points < top + u:
        return (1, 0)
    if table == "competition":
        return (1, 2) if points * 4 < 15 * u else (1, 3)  # 120–145 → 2; 150+ → 3 (2 packs)
    if table != "default":
        raise IllegalAction(f"unknown level_table {table!r}", code="bad_option", option="level_table")
    return (1, 1 + (points - top - u) // u)


def kitty_multiplier(
    pairs: int, how: str = "pairs_power", throw: bool = False, cards: int = 0, trump: bool = True
) -> int:
    """Multiplier of the kitty's points when the defenders win the last trick.

    ``pairs``: the pairs of the largest unit (0 single, 1 pair, k a k-pair tractor) — of
    the *winning* play for ``pairs_power``, of the last trick's lead for the others.
    ``trump``: the winning play is a trump play; ``pairs_power`` gives ×1 when it is not
    (seed 003: 如果是副牌胜出…乘以一), else single ×2, pair ×4, 2-pair tractor ×8, 3-pair ×16.
    ``throw``: the last lead had several units (``competition`` counts it as a single).
    ``cards``: the cards of that unit, for ``unit_size`` (default: 2 per pair, 1 for a single).
    ``pairs_power_lead`` is what ``pairs_power`` meant in records of version 1: 2^(pairs+1)
    on the lead's largest unit, trump or not.

    With ``triples`` **[decision]** a triple counts as a pair (``pairs`` 1: × 4, or × 6 by
    its 3 cards for ``unit_size``) and a 泰坦尼克 as a tractor of two pairs (× 8; × 12 for
    ``unit_size``).

    >>> kitty_multiplier(0, trump=False), kitty_multiplier(0), kitty_multiplier(1), kitty_multiplier(3)
    (1, 2, 4, 16)
    >>> kitty_multiplier(0, "pairs_power_lead", trump=False)
    2
    """
    if how == "pairs_power":
        return int(2 ** (pairs + 1)) if trump else 1
    if how == "pairs_power_lead":
        return int(2 ** (pairs + 1))
    if how == "unit_size":
        return 2 * (cards or max(1, 2 * pairs))
    if how == "competition":
        if throw or pairs == 0:
            return 2
        return 4 if pairs == 1 else 8
    raise IllegalAction(f"unknown kitty_multiplier {how!r}", code="bad_option", option="kitty_multiplier")


def last_trick_multiplier(
    how: str, lead_top: tuple[int, int], throw: bool, winning_play: Sequence[int], t: TrumpOrder
) -> int:
    """The kitty multiplier of a last trick won by the defenders with ``winning_play`` (card
    ids): ``lead_top`` is the (pairs, cards) of the resolved lead's largest unit, ``throw``
    whether that lead had several units. ``pairs_power`` counts the winning play's own
    largest unit (revised): a trump tractor that ruffs a throw of two pairs is a tractor.

    >>> from paiju.shengji.trump import trump_order, ids_of
    >>> t = trump_order("h", 2)
    >>> last_trick_multiplier("pairs_power", (1, 2), True, ids_of("5h 5h 6h 6h"), t)
    8
    >>> last_trick_multiplier("pairs_power_lead", (1, 2), True, ids_of("5h 5h 6h 6h"), t)
    4
    >>> last_trick_multiplier("pairs_power", (1, 2), True, ids_of("As As Ks Ks"), t)
    1
    """
    pairs, cards = lead_top
    if how == "pairs_power":
        top = decompose(counts_of(winning_play), t)[0]
        pairs = top.triples or top.pairs
    trump = all(t.psuit[c] == TRUMP for c in winning_play)
    return kitty_multiplier(pairs, how, throw=throw, cards=cards, trump=trump)


def climb(rungs: list[int], level: int, steps: int) -> int:
    """The level after climbing ``steps`` rungs from ``level`` (never past the last rung)."""
    i = rungs.index(level) if level in rungs else max(i for i, r in enumerate(rungs) if r <= level)
    return rungs[min(len(rungs) - 1, i + steps)]
