"""The pure rule functions of docs/api.md, on card text: ``trick_winner``, ``is_legal_follow``,
``resolve_throw``. ``trump_suit`` is ``"s" | "h" | "d" | "c"`` or None (no-trump), ``level`` a
rank (``"T"``, ``"4"``); other options are the game's (``twos_trump``, ``throw_evaluation``;
``two_colours`` with ``decks=1``: ♦ cards play as ♥ and ♣ as ♠, and the cards returned by
``resolve_throw`` are written as their colour cards).

>>> trick_winner(["5h 4h 4h", "9s 7s 7s", "8s 8s 4s", "6h 3h 2h"], trump_suit="s", level="T")
2
>>> is_legal_follow("8h 8h", "Ah 9h 9h 3c", "Ah 3c", trump_suit="s", level="T")
False
>>> [str(c) for c in resolve_throw("9h 8h 8h 4h 4h", ["Jh 2c", "", "3s"], trump_suit="s", level="T")]
['9h']
"""

from __future__ import annotations

from typing import Any

from paiju.cards import Card, parse_cards
from paiju.errors import IllegalAction
from paiju.shengji.follow import follow_problem, suit_counts
from paiju.shengji.options import resolve_options
from paiju.shengji.throw import failed_unit
from paiju.shengji.trick import winning_index
from paiju.shengji.trump import COLOUR_ID, ID_CARD, NUM_IDS, SUIT_NAMES, TrumpOrder, card_id, rank_of_text, trump_order
from paiju.shengji.units import counts_of, decompose, shape_of


def _setup(trump_suit: str | None, level: str | int, options: dict[str, Any]) -> tuple[TrumpOrder, dict[str, Any]]:
    o = resolve_options(**options)
    if o["two_colours"] and trump_suit in ("d", "c"):
        trump_suit = {"d": "h", "c": "s"}[trump_suit]  # the colour of the suit is trump
    return trump_order(trump_suit, rank_of_text(level), o["twos_trump"], o["triples"]), o


def _ids(text: Any, o: dict[str, Any]) -> list[int]:
    """Card ids of card text (with ``two_colours``: the colour card each card plays as)."""
    if o["two_colours"]:
        return [COLOUR_ID[card_id(c)] for c in parse_cards(text)]
    return [card_id(c) for c in parse_cards(text)]


def _lead(text: Any, t: TrumpOrder, o: dict[str, Any]) -> list[int]:
    ids = _ids(text, o)
    if not ids:
        raise IllegalAction("a lead needs at least one card", code="empty_play")
    suits = {t.psuit[c] for c in ids}
    if len(suits) > 1:
        names = " and ".join(SUIT_NAMES[s] for s in sorted(suits))
        raise IllegalAction(
            f"{text} is not a lead: it mixes {names} (a lead is cards of one suit; all trumps are one suit)",
            code="mixed_suits",
            suits=names,
        )
    return ids


def trick_winner(
    plays: list[Any], *, trump_suit: str | None, level: str | int, lead_seat: int = 0, **options: Any
) -> int:
    """The seat winning a trick: ``plays`` are card text per seat in play order from
    ``lead_seat`` (the lead first)."""
    t, o = _setup(trump_suit, level, options)
    if not plays:
        raise IllegalAction("a trick needs at least the lead", code="bad_argument")
    lead = _lead(plays[0], t, o)
    ids = [tuple(lead)] + [tuple(_ids(p, o)) for p in plays[1:]]
    for i, p in enumerate(ids):
        if len(p) != len(lead):
            raise IllegalAction(
                f"play {i + 1} has {len(p)} cards; every play of a trick has {len(lead)}", code="bad_argument"
            )
    return (lead_seat + winning_index(ids, t, o["throw_evaluation"])) % 4


def is_legal_follow(
    lead: Any, hand: Any, play: Any, *, trump_suit: str | None, level: str | int, **options: Any
) -> bool:
    """May a player holding ``hand`` answer ``lead`` with ``play``? (The lead as played.)"""
    t, o = _setup(trump_suit, level, options)
    lead_ids = _lead(lead, t, o)
    cnt = [0] * NUM_IDS
    for c in _ids(hand, o):
        cnt[c] += 1
    units = decompose(counts_of(lead_ids), t)
    play_ids = tuple(_ids(play, o))
    return follow_problem(t.psuit[lead_ids[0]], shape_of(units), len(lead_ids), cnt, play_ids, t) is None


def resolve_throw(
    lead: Any, other_hands: list[Any], *, trump_suit: str | None, level: str | int, **options: Any
) -> list[Card]:
    """What the leader actually plays: the whole throw 甩牌 if no other hand can beat any of
    its units, else the smallest unit that can be beaten."""
    t, o = _setup(trump_suit, level, options)
    lead_ids = _lead(lead, t, o)
    suit = t.psuit[lead_ids[0]]
    others = []
    for h in other_hands:
        cnt = [0] * NUM_IDS
        for c in _ids(h, o):
            cnt[c] += 1
        others.append(suit_counts(cnt, suit, t))
    fu = failed_unit(decompose(counts_of(lead_ids), t), others, t)
    if fu is None:
        return [ID_CARD[c] for c in lead_ids]
    return [ID_CARD[c] for c in sorted(fu.cards, key=lambda c: -t.order[c])]
