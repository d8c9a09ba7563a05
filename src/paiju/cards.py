"""Cards and the one card notation used everywhere (logs, records, CLI, tests, protocol).

A suited card is rank + suit: ``Ts``, ``10♠``, ``Ah``, ``2c``. Jokers are ``SJ`` (small,
black joker 小王) and ``BJ`` (big, red joker 大王). Baohuang marks one big joker as the
emperor card 皇牌 (``BJ*``) and one small joker as the guard card 侍卫牌 (``SJ*``); in play
a marked joker is exactly equal to the other jokers of its kind. In suit-less games a
card may be written as a bare rank (``7``) and a run of bare ranks may be written
together (``7777``, ``34567``).

>>> parse_cards("SJ 777")
[Card('SJ'), Card('7'), Card('7'), Card('7')]
>>> format_cards(parse_cards("10♠ Ah BJ*"))
'Ts Ah BJ*'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from paiju.errors import IllegalAction, reasons

reasons(
    bad_card_text="cannot read {text} as cards",
    not_one_card="{text} is {count} cards, not one card",
)

RANKS = "23456789TJQKA"
"""Ordinary ranks in their written form, 2 … A."""
SUITS = "shdc"
"""Suits: spades, hearts, diamonds, clubs."""
SUIT_SYMBOLS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
SMALL_JOKER = 15
BIG_JOKER = 16

_RANK_OF_CHAR = {c: i + 2 for i, c in enumerate(RANKS)}
_RANK_OF_CHAR.update({c.lower(): _RANK_OF_CHAR[c] for c in "TJQKA"})


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """One playing card.

    ``rank`` is 2 … 14 for 2 … A, 15 for the small joker and 16 for the big joker.
    ``suit`` is one of ``s h d c``, or ``None`` for jokers and for bare ranks written in
    suit-less games. ``marked`` is set on Baohuang's emperor card ``BJ*`` and guard card
    ``SJ*`` only.
    """

    rank: int
    suit: str | None = None
    marked: bool = False
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # the text is asked for constantly (views, records): compute it once
        text = self.rank_text + (self.suit or "") + ("*" if self.marked else "")
        object.__setattr__(self, "_text", text)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse exactly one card, e.g. ``Card.parse("Ts")``."""
        cards = parse_cards(text)
        if len(cards) != 1:
            raise IllegalAction(
                f"{text!r} is {len(cards)} cards, not one card", code="not_one_card", text=text, count=len(cards)
            )
        return cards[0]

    @property
    def is_joker(self) -> bool:
        return self.rank >= SMALL_JOKER

    @property
    def rank_text(self) -> str:
        """The rank alone: ``T``, ``A``, ``SJ``, ``BJ``."""
        if self.rank == SMALL_JOKER:
            return "SJ"
        if self.rank == BIG_JOKER:
            return "BJ"
        return RANKS[self.rank - 2]

    def unmarked(self) -> Card:
        """The same card without a Baohuang mark (how it counts in play)."""
        return Card(self.rank, self.suit) if self.marked else self

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


def _read_card(text: str, i: int) -> tuple[Card, int]:
    """Read one card starting at ``text[i]``; return it and the index after it."""
    head = text[i : i + 2].upper()
    if head in ("SJ", "BJ"):
        rank = SMALL_JOKER if head == "SJ" else BIG_JOKER
        i += 2
        marked = i < len(text) and text[i] == "*"
        return Card(rank, None, marked), i + (1 if marked else 0)
    c = text[i]
    if c == "1" and text[i + 1 : i + 2] == "0":
        rank, i = 10, i + 2
    elif c in _RANK_OF_CHAR:
        rank, i = _RANK_OF_CHAR[c], i + 1
    else:
        raise IllegalAction(
            f"cannot read a card at {text[i:]!r} in {text!r}: a card is a rank "
            f"({' '.join(RANKS)}, or 10) with an optional suit (s h d c), or SJ / BJ",
            code="bad_card_text",
            text=text,
        )
    suit = None
    if i < len(text):
        s = SUIT_SYMBOLS.get(text[i], text[i])
        if s in SUITS:
            suit, i = s, i + 1
    if i < len(text) and text[i] == "*":
        raise IllegalAction(f"only jokers can be marked with '*' (in {text!r})", code="bad_card_text", text=text)
    return Card(rank, suit), i


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Parse card text into a list of cards, in the order written.

    Accepts a string (``"SJ 777"``, ``"Ts Ah"``, ``"10♠"``, ``"34567"``) or an iterable
    of card strings / cards. Raises :class:`paiju.IllegalAction` naming the bad part.
    """
    if not isinstance(text, str):
        out: list[Card] = []
        for item in text:
            if isinstance(item, Card):
                out.append(item)
            elif isinstance(item, str):
                out.extend(parse_cards(item))
            else:
                raise IllegalAction(f"{item!r} is not a card", code="bad_card_text", text=repr(item))
        return out
    cards: list[Card] = []
    for token in text.replace(",", " ").split():
        i = 0
        while i < len(token):
            card, i = _read_card(token, i)
            cards.append(card)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical text of a list of cards, space separated: ``'Ts Ah BJ*'``."""
    return " ".join(str(c) for c in cards)


@cache
def standard_pack(jokers: bool = True) -> tuple[Card, ...]:
    """One pack: 52 suited cards (+ SJ and BJ), ordered by suit then rank."""
    cards = [Card(r, s) for s in SUITS for r in range(2, 15)]
    if jokers:
        cards += [Card(SMALL_JOKER), Card(BIG_JOKER)]
    return tuple(cards)


def packs(n: int, *, without_ranks: Iterable[int] = (), jokers: bool = True) -> list[Card]:
    """``n`` packs together, optionally without some ranks (e.g. Baohuang's no345 deck).

    >>> len(packs(4)), len(packs(2)), len(packs(1)), len(packs(3))
    (216, 108, 54, 162)
    >>> len(packs(4, without_ranks=(3, 4, 5)))
    168
    """
    drop = set(without_ranks)
    return [c for _ in range(n) for c in standard_pack(jokers) if c.rank not in drop]


def take_suited(pool: Counter[Card], rank: int) -> Card | None:
    """A bare rank of an explicit deal takes a suit still in ``pool`` (s, h, d, c order):
    that card, taken out of the pool; None when no card of ``rank`` is left.

    >>> pool = Counter([Card(7, "d"), Card(7, "d")])
    >>> take_suited(pool, 7), pool[Card(7, "d")], take_suited(pool, 8)
    (Card('7d'), 1, None)
    """
    for suit in SUITS:
        card = Card(rank, suit)
        if pool[card] > 0:
            pool[card] -= 1
            return card
    return None


def rank_text_of(text: str) -> str:
    """The rank of a card written in canonical card text, as text, without parsing it:
    ``'Th'`` → ``'T'``, ``'BJ*'`` → ``'BJ'`` (card trackers 记牌器 count by rank)."""
    return text[:2] if text[:2] in ("SJ", "BJ") else text[0]


def count_ranks(counts: dict[str, int], cards: str) -> None:
    """Add the cards of canonical card text ``cards`` to ``counts``, per rank text.

    >>> counts = {"T": 1}
    >>> count_ranks(counts, "Th Ts BJ* 7c")
    >>> counts
    {'T': 3, 'BJ': 1, '7': 1}
    """
    for text in cards.split():
        r = rank_text_of(text)
        counts[r] = counts.get(r, 0) + 1
