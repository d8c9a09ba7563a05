"""Shengji 升级 kitty bonus 抠底 (§7) through the engine: hands played out to a last trick
that a defender (seat 1) leads and wins, its lead a single, a pair, a tractor or a throw
(with ``triples``: a triple, a 泰坦尼克, a throw of a triple), under each ``kitty_multiplier``.
The bonus added to the defenders' points must be the kitty's points times the multiplier
of §7 — counted on the last lead's *largest* unit (``unit_size``, ``competition``,
``pairs_power_lead``) or on the winning play (``pairs_power``).

Every test quotes its line of ``docs/rules/shengji.md`` §7 or of seed 003.
"""

from __future__ import annotations

from typing import Any

import pytest

from paiju.cards import packs
from paiju.shengji import Shengji
from paiju.shengji.options import PACK_SIZES
from paiju.shengji.trump import ID_TEXT, TRUMP, card_id, ids_of, trump_order
from paiju.shengji.units import counts_of
from shengji_helpers import to_play

# the kitty (its 3rd card, a spade, makes spades trump when nobody declares): 50 / 30 points
KITTY = {2: "5d 5d 4s Td Td Kd Kd 3d", 3: "5d 5d 4s Td Kd 3d"}
KITTY_POINTS = {2: 50, 3: 30}
# what seats 0, 2 and 3 keep for the last trick (void in its suit): its first cards
OTHERS_LAST = ["3c 4c 6c 7c 8c 9c Jc Qc Ac", "3d 4d 6d 7d 8d 9d Jd Qd Ad"]

HOWS = ["pairs_power", "unit_size", "competition", "pairs_power_lead"]


def last_trick_game(lead: str, decks: int = 2, **options: Any) -> Shengji:
    """A hand at level 2, spades trump, declarer seat 0, played out to its last trick, which
    defender seat 1 leads with ``lead`` (spades, jokers or 2s: trumps; or hearts); seats 0, 2
    and 3 then hold only clubs or diamonds, so the lead stands and seat 1 wins it.

    The deal: seat 1 holds ``lead`` and the highest other trumps; seat 3 the lowest trumps
    left; the rest is dealt to seats 0, 2, 3. Seat 0 leads a club, seat 1 ruffs it, then
    leads its trumps one by one (the highest first) until only ``lead`` is left."""
    n, _ = PACK_SIZES[decks]
    m = len(lead.split())
    t = trump_order("s", 2, False, options.get("triples", False))
    pool = counts_of(card_id(c) for c in packs(decks))
    clubs, diamonds = (ids_of(x)[:m] for x in OTHERS_LAST)
    final = [clubs, ids_of(lead), clubs, diamonds]
    for c in [c for h in final for c in h] + ids_of(KITTY[decks]):
        pool[c] -= 1
        assert pool[c] >= 0
    rest = [c for c in sorted(pool, key=lambda c: (t.psuit[c] == TRUMP, t.order[c])) for _ in range(pool[c])]
    hands = [list(h) for h in final]
    trumps = [c for c in rest if t.psuit[c] == TRUMP]
    plain = [c for c in rest if t.psuit[c] != TRUMP]
    hands[1] += trumps[len(trumps) - (n - m) :]  # the highest trumps
    hands[3] += trumps[: len(trumps) - (n - m)]  # the lowest
    plain.sort(key=lambda c: ID_TEXT[c][-1] != "c")  # spare clubs to all (seat 0 leads one first)
    while plain:
        for s in (0, 2, 3):
            if len(hands[s]) < n and plain:
                hands[s].append(plain.pop(0))
    assert not plain and all(len(h) == n for h in hands)
    deal = [*textual(hands), KITTY[decks]]
    g = Shengji(seed=1, deal=deal, decks=decks, start_level="2", **options)
    to_play(g)
    assert g.trump_suit == "s" and g.declarer == 0 and g.to_act == 0
    spare = [counts_of(h[m:]) for h in hands]  # the cards to play before the last trick
    while any(sum(x.values()) for x in spare):
        s = g.to_act
        mine = sorted((c for c in spare[s] for _ in range(spare[s][c])), key=lambda c: t.order[c])
        # seat 1 plays its highest spare card, the others their lowest legal one (a club
        # first, then another plain card: a card of the led suit when they hold one)
        tries = mine[::-1] if s == 1 else sorted(mine, key=lambda c: (t.psuit[c] == TRUMP, ID_TEXT[c][-1] != "c"))
        play = next(c for c in tries if g.check(ID_TEXT[c]) is None)
        g.apply(ID_TEXT[play])
        spare[s][play] -= 1
    assert g.to_act == 1 and g.tricks[-1]["winner"] == 1
    assert [sorted(str(c) for c in g.hand(s)) for s in range(4)] == [sorted(h.split()) for h in textual(final)]
    return g


def textual(hands: list[list[int]]) -> list[str]:
    return [" ".join(ID_TEXT[c] for c in h) for h in hands]


def kitty_bonus(lead: str, how: str, decks: int = 2, **options: Any) -> int:
    """Play the last trick (``lead``, then the others' last cards) and return the points
    added to the defenders' for the kitty."""
    g = last_trick_game(lead, decks, kitty_multiplier=how, **options)
    assert g.check(lead) is None
    g.apply(lead)
    assert g.view(None)["failed_throw"] is None  # the lead stood whole
    while g.to_act is not None:
        g.apply(" ".join(str(c) for c in g.hand(g.to_act)))
    r = g.result
    assert r is not None and r["last_trick_winner"] == 1
    assert r["kitty_points"] == KITTY_POINTS[decks]
    assert r["defender_points"] == r["trick_points"] + r["kitty_bonus"] + r["penalty_points"]
    assert r["kitty_bonus"] == r["kitty_points"] * r["kitty_multiplier"]
    return int(r["kitty_bonus"])


@pytest.mark.parametrize(
    "lead,mult",
    [
        ("BJ", {"pairs_power": 2, "unit_size": 2, "competition": 2, "pairs_power_lead": 2}),
        ("BJ BJ", {"pairs_power": 4, "unit_size": 4, "competition": 4, "pairs_power_lead": 4}),
        ("BJ BJ SJ SJ", {"pairs_power": 8, "unit_size": 8, "competition": 8, "pairs_power_lead": 8}),
        ("BJ BJ SJ SJ 2s 2s", {"pairs_power": 16, "unit_size": 12, "competition": 8, "pairs_power_lead": 16}),
    ],
)
@pytest.mark.parametrize("how", HOWS)
def test_a_trump_lead_of_one_unit(lead: str, mult: dict[str, int], how: str) -> None:
    """§7 Kitty bonus: "if the defenders win the last trick, they add the kitty's points
    times a multiplier": ``pairs_power`` "a single ×2, a pair ×4, a two-pair tractor ×8, a
    three-pair tractor ×16"; ``unit_size`` "2 × the number of cards in the largest unit of
    the last trick's lead (single ×2, pair ×4, … two-pair tractor ×8, three-pair tractor
    ×12)"; ``competition`` "single ×2, pair ×4, any tractor ×8, counted on the last trick's
    lead" (seed 003 rule 十: 单抠加倍，双抠两倍，拖拉机抠底四倍)."""
    assert kitty_bonus(lead, how) == KITTY_POINTS[2] * mult[how]


@pytest.mark.parametrize(
    "lead,mult",
    [
        # a tractor and a single: the tractor, the largest unit, counts
        ("BJ BJ SJ SJ 3s", {"pairs_power": 8, "unit_size": 8, "competition": 2, "pairs_power_lead": 8}),
        # a pair and a single
        ("BJ BJ 3s", {"pairs_power": 4, "unit_size": 4, "competition": 2, "pairs_power_lead": 4}),
        # a three-pair tractor, a pair and a single
        ("BJ BJ SJ SJ 2s 2s As As 3s", {"pairs_power": 16, "unit_size": 12, "competition": 2, "pairs_power_lead": 16}),
    ],
)
@pytest.mark.parametrize("how", HOWS)
def test_a_trump_throw_counts_its_largest_unit(lead: str, mult: dict[str, int], how: str) -> None:
    """§7 Kitty bonus: ``unit_size`` counts "the largest unit of the last trick's lead",
    ``pairs_power`` "the largest unit of that winning trump play" (here the lead itself),
    ``pairs_power_lead`` (the old reading) "the lead's unit"; ``competition``: "a throw
    counts as a single" (seed 003 rule 十: 甩牌抠底按单抠计)."""
    assert kitty_bonus(lead, how) == KITTY_POINTS[2] * mult[how]


@pytest.mark.parametrize(
    "lead,mult",
    [
        ("Ah", {"pairs_power": 1, "unit_size": 2, "competition": 2, "pairs_power_lead": 2}),
        ("Ah Ah", {"pairs_power": 1, "unit_size": 4, "competition": 4, "pairs_power_lead": 4}),
        ("Ah Ah Kh Kh", {"pairs_power": 1, "unit_size": 8, "competition": 8, "pairs_power_lead": 8}),
        ("Ah Ah Kh Kh Qh", {"pairs_power": 1, "unit_size": 8, "competition": 2, "pairs_power_lead": 8}),
    ],
)
@pytest.mark.parametrize("how", HOWS)
def test_a_plain_suit_lead(lead: str, mult: dict[str, int], how: str) -> None:
    """§7 Kitty bonus, ``pairs_power``: "×1 when a plain-suit play wins the last trick"
    (seed 003 answer 九: 如果是副牌胜出…就按该分数乘以一计算); ``unit_size`` and
    ``competition`` count the last trick's lead, trump or not, and so does
    ``pairs_power_lead`` ("the earlier reading counted the lead's unit, trump or not")."""
    assert kitty_bonus(lead, how) == KITTY_POINTS[2] * mult[how]


@pytest.mark.parametrize(
    "lead,mult",
    [
        ("BJ BJ BJ", {"pairs_power": 4, "unit_size": 6, "competition": 4, "pairs_power_lead": 4}),
        ("BJ BJ BJ SJ SJ SJ", {"pairs_power": 8, "unit_size": 12, "competition": 8, "pairs_power_lead": 8}),
        # a triple and a single: the triple counts
        ("BJ BJ BJ 3s", {"pairs_power": 4, "unit_size": 6, "competition": 2, "pairs_power_lead": 4}),
        # a 泰坦尼克, a pair and a single
        ("BJ BJ BJ SJ SJ SJ As As 3s", {"pairs_power": 8, "unit_size": 12, "competition": 2, "pairs_power_lead": 8}),
    ],
)
@pytest.mark.parametrize("how", HOWS)
def test_triples_a_triple_and_a_titanic_lead(lead: str, mult: dict[str, int], how: str) -> None:
    """§7 ``unit_size``: "(single ×2, pair ×4, triple ×6, …)"; with ``triples``
    (``scoring.kitty_multiplier``, **[decision]**) "a triple counts as a pair (× 4, or × 6
    by its 3 cards for ``unit_size``) and a 泰坦尼克 as a tractor of two pairs (× 8; × 12
    for ``unit_size``)"; a throw's largest unit counts, and ``competition`` counts a throw
    as a single."""
    assert kitty_bonus(lead, how, decks=3, triples=True) == KITTY_POINTS[3] * mult[how]
