"""Card identities and the card order of one Shengji hand: trumps 主牌 and plain suits 副牌.

Every card kind (suit + rank, or a joker) has a fixed *card id* 0 … 53, numbered in display
order: ``BJ`` 0, ``SJ`` 1, then spades A … 2, hearts A … 2, diamonds, clubs. Hands are count
vectors indexed by card id; plays are sorted tuples of card ids, so sorting a play is
sorting ints and two equal plays are equal tuples whatever the trump.

Once trump and level are known, :func:`trump_order` maps each card id to its *play-suit*
(0–3 for the plain suits s h d c, :data:`TRUMP` for all trumps) and its *order* inside that
play-suit (higher beats lower; equal orders are equal cards, e.g. the off-suit level cards).
Orders are consecutive integers along the §3 ranking, so two ranks are adjacent for a
tractor exactly when their orders differ by one — the level rank (and the 2s when
``twos_trump``) are simply not in the plain suits.

>>> t = trump_order("h", 10, False)
>>> [t.order[card_id(Card.parse(x))] for x in ("Jh", "9h")]  # 10 skipped: J and 9 adjacent
[8, 7]
>>> t.order[card_id(Card.parse("Ts"))] == t.order[card_id(Card.parse("Tc"))]
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from paiju.cards import BIG_JOKER, RANKS, SMALL_JOKER, SUITS, Card, parse_cards
from paiju.errors import IllegalAction, reasons

reasons(needs_suit="{card} needs a suit in Shengji", bad_level="{text} is not a level rank")

TRUMP = 4
"""Play-suit index of the trumps (the plain suits are 0–3 in ``SUITS`` order)."""
NUM_IDS = 54
BJ_ID = 0
SJ_ID = 1
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs", "trumps")


def card_id(card: Card) -> int:
    """The card id 0 … 53 of a card (display order: BJ, SJ, then ♠A … ♣2)."""
    if card.rank == BIG_JOKER:
        return BJ_ID
    if card.rank == SMALL_JOKER:
        return SJ_ID
    if card.suit is None:
        raise IllegalAction(f"{card} needs a suit in Shengji (e.g. {card}h)", code="needs_suit", card=str(card))
    return 2 + SUITS.index(card.suit) * 13 + (14 - card.rank)


ID_CARD: tuple[Card, ...] = (Card(BIG_JOKER), Card(SMALL_JOKER)) + tuple(
    Card(r, s) for s in SUITS for r in range(14, 1, -1)
)
"""The card of each id."""
ID_TEXT: tuple[str, ...] = tuple(str(c) for c in ID_CARD)
ID_RANK: tuple[int, ...] = tuple(c.rank for c in ID_CARD)
ID_SUIT: tuple[int, ...] = tuple(-1 if c.suit is None else SUITS.index(c.suit) for c in ID_CARD)
POINTS: tuple[int, ...] = tuple(5 if c.rank == 5 else 10 if c.rank in (10, 13) else 0 for c in ID_CARD)
"""Points 分 of each card id: 5 = 5, 10 and K = 10."""


COLOUR_ID: tuple[int, ...] = tuple(
    c - 13 if ID_SUIT[c] == 2 else c - 39 if ID_SUIT[c] == 3 else c for c in range(NUM_IDS)
)
"""``two_colours`` (§8): the card id a card plays as — ♦ cards as ♥ (red), ♣ cards as ♠
(black), so two same-rank cards of one colour are identical cards (a pair)."""


def ids_of(text: str | list[Card] | list[str]) -> list[int]:
    """Card ids of card text (``"Th Th 9s"``), in the order written."""
    return [card_id(c) for c in parse_cards(text)]


def rank_of_text(text: str | int) -> int:
    """A level rank written as ``"T"``, ``"10"``, ``"4"``, ``"A"`` or an int 2 … 14."""
    if isinstance(text, int) and not isinstance(text, bool):
        if 2 <= text <= 14:
            return text
        raise IllegalAction(f"level {text} is not a rank 2 … 14", code="bad_level", text=str(text))
    t = str(text).strip().upper()
    if t == "10":
        t = "T"
    if len(t) == 1 and t in RANKS:
        return RANKS.index(t) + 2
    raise IllegalAction(f"{text!r} is not a level rank ({' '.join(RANKS)})", code="bad_level", text=str(text))


def rank_text(rank: int) -> str:
    return RANKS[rank - 2]


@dataclass(frozen=True)
class TrumpOrder:
    """The order tables of one hand (trump suit, level, ``twos_trump``)."""

    trump_suit: str | None
    level: int
    twos_trump: bool
    psuit: tuple[int, ...]
    """Play-suit of each card id: 0–3 plain suits, 4 trumps."""
    order: tuple[int, ...]
    """Order of each card id inside its play-suit (higher beats lower)."""
    kinds: tuple[tuple[int, ...], ...]
    """Per play-suit, its card ids from the lowest order up (ties by id)."""
    triples: bool = False
    """``triples`` (3 packs, §9): triples 三同张 and 泰坦尼克 are units of play."""

    def is_trump(self, cid: int) -> bool:
        return self.psuit[cid] == TRUMP

    def sort_key(self, cid: int) -> tuple[int, int, int]:
        """Trumps first, high to low, then the plain suits high to low."""
        ps = self.psuit[cid]
        return (0 if ps == TRUMP else ps + 1, -self.order[cid], cid)


@cache
def trump_order(trump_suit: str | None, level: int, twos_trump: bool = False, triples: bool = False) -> TrumpOrder:
    """The order tables for a hand (cached: there are few distinct hands' orders)."""
    if trump_suit is not None and trump_suit not in SUITS:
        raise IllegalAction(
            f"trump suit {trump_suit!r} is not one of s h d c (or None for no-trump)", code="bad_argument"
        )
    ts = -1 if trump_suit is None else SUITS.index(trump_suit)
    twos = twos_trump and level != 2
    plain_ranks = [r for r in range(2, 15) if r != level and not (twos and r == 2)]
    psuit = [0] * NUM_IDS
    order = [0] * NUM_IDS
    for cid in range(2, NUM_IDS):
        r, s = ID_RANK[cid], ID_SUIT[cid]
        if r == level or (twos and r == 2) or s == ts:
            psuit[cid] = TRUMP
        else:
            psuit[cid] = s
            order[cid] = plain_ranks.index(r)
    # trumps: trump-suit plain cards, then (off 2s, trump 2), (off level, trump level), SJ, BJ
    top = len(plain_ranks) if ts >= 0 else 0
    for cid in range(2, NUM_IDS):
        if psuit[cid] == TRUMP and ID_RANK[cid] != level and not (twos and ID_RANK[cid] == 2):
            order[cid] = plain_ranks.index(ID_RANK[cid])
    specials = ([2] if twos else []) + [level]
    for r in specials:
        for cid in range(2, NUM_IDS):
            if ID_RANK[cid] == r:
                order[cid] = top + (1 if ID_SUIT[cid] == ts else 0)
        top += 2 if ts >= 0 else 1
    psuit[SJ_ID] = psuit[BJ_ID] = TRUMP
    order[SJ_ID] = top
    order[BJ_ID] = top + 1
    kinds = tuple(
        tuple(sorted((c for c in range(NUM_IDS) if psuit[c] == p), key=lambda c: (order[c], c))) for p in range(5)
    )
    return TrumpOrder(trump_suit, level, twos_trump, tuple(psuit), tuple(order), kinds, triples)
