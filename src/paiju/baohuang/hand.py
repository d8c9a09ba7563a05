"""The cards of a Baohuang 保皇 hand: the deck, the deal, and taking and giving cards.

:class:`HandState` holds everything a hand is made of — the seats' cards by strength, the
roles, the declaration round, the tribute pool, the trick — and the moves of cards every
phase shares. The phases are the classes built on it: ``declarations.py`` (before play),
``tricks.py`` (the card play) and ``ending.py`` (the end of the hand); ``game.py`` joins
them into :class:`~paiju.baohuang.game.Baohuang`.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections import Counter
from functools import cache
from typing import Any

from paiju.baohuang.options import resolve_options
from paiju.baohuang.plays import BJ, NUM_STRENGTHS, Play, strength, strength_of_text
from paiju.cards import BIG_JOKER, SMALL_JOKER, SUITS, Card, format_cards, packs, parse_cards, take_suited
from paiju.errors import IllegalAction
from paiju.game import Game, new_seed

NUM_SEATS = 5
EMPEROR_CARD = Card(BIG_JOKER, None, True)
"""The marked big joker 皇牌 ``BJ*``: its holder is asked first to be emperor."""
GUARD_CARD = Card(SMALL_JOKER, None, True)
"""The marked small joker ``SJ*``: its holder is the guard 侍卫 when the guard is fixed (guard=card)."""


def deck_cards(deck: str) -> list[Card]:
    """The unmarked cards of a ``deck`` option: full 216, no345 168, weihai 165."""
    if deck == "full":
        return packs(4)
    cards = packs(4, without_ranks=(3, 4, 5))
    if deck == "weihai":
        for suit in "shd":  # weihai: three 6s fewer [decision: 6♠ 6♥ 6♦ of one pack]
            cards.remove(Card(6, suit))
    return cards


@cache
def _deck_copies(deck: str) -> Counter[Card]:
    return Counter(deck_cards(deck))


def _card_key(c: Card) -> tuple[int, int, bool]:
    return (strength(c), SUITS.index(c.suit) if c.suit else -1, c.marked)


class HandState(Game):
    """The state of one hand and the card moves every phase uses (see the module doc).
    The phases call one another through the hooks at the end."""

    name = "baohuang"
    num_players = NUM_SEATS

    def __init__(self, seed: int | None = None, deal: Any = None, **options: Any) -> None:
        super().__init__()
        self.options = resolve_options(**options)
        self.seed = new_seed() if seed is None else int(seed)
        self._rng = random.Random(self.seed)
        o = self.options
        self._kao: bool = o["kao"]
        self._held: int = strength_of_text(str(o["hold_rank"])) if o["hold_sixes"] else -1
        self._final_pass: bool = o["pass_is_final"]
        self._yield: bool = o["yield_turn"]
        self._call: bool = o["guard"] == "call"
        self._deal_text: list[str] | None = None
        self.deals = 0  # how many times cards were dealt this hand (redeals included)
        self._events: list[dict[str, Any]] = []
        self._start_deal(self._explicit_deal(deal) if deal is not None else None)

    # ------------------------------------------------------------------ dealing
    def _explicit_deal(self, deal: Any) -> list[list[Card]]:
        if len(deal) != NUM_SEATS:
            raise IllegalAction(f"a Baohuang deal has {NUM_SEATS} hands, not {len(deal)}", code="bad_deal")
        hands = [parse_cards(h) for h in deal]
        pool = Counter(deck_cards(self.options["deck"]))
        out: list[list[Card]] = [[] for _ in range(NUM_SEATS)]
        bare: list[tuple[int, Card]] = []
        marks = {BIG_JOKER: 0, SMALL_JOKER: 0}
        for seat, hand in enumerate(hands):
            for c in hand:
                if c.marked:
                    marks[c.rank] += 1
                if not c.is_joker and c.suit is None:
                    bare.append((seat, c))
                    continue
                plain = c.unmarked()
                if pool[plain] <= 0:
                    raise IllegalAction(
                        f"the deal holds more {plain} than the {self.options['deck']} deck has", code="bad_deal"
                    )
                pool[plain] -= 1
                out[seat].append(c)
        for seat, c in bare:  # a bare rank takes any suit still in the deck
            card = take_suited(pool, c.rank)
            if card is None:
                raise IllegalAction(f"the deal holds more {c.rank_text} than the deck has", code="bad_deal")
            out[seat].append(card)
        if marks[BIG_JOKER] > 1 or marks[SMALL_JOKER] > 1:
            raise IllegalAction("a deal may mark only one BJ* (emperor card) and one SJ* (guard card)", code="bad_deal")
        if marks[SMALL_JOKER] and self._call:
            raise IllegalAction("SJ* (the guard card) exists only with a fixed guard (guard=card)", code="bad_deal")
        self._mark_first(out, BIG_JOKER, marks[BIG_JOKER], "emperor card BJ*")
        if not self._call:
            self._mark_first(out, SMALL_JOKER, marks[SMALL_JOKER], "guard card SJ*")
        self._deal_text = [format_cards(h) for h in out]
        return out

    @staticmethod
    def _mark_first(hands: list[list[Card]], rank: int, marked: int, what: str) -> None:
        """If the deal marks no joker of ``rank``, mark the first one dealt (seat order)."""
        if marked:
            return
        for hand in hands:
            for i, c in enumerate(hand):
                if c.rank == rank:
                    hand[i] = Card(rank, None, True)
                    return
        raise IllegalAction(f"the deal has no joker to be the {what}", code="bad_deal")

    def _random_deal(self) -> list[list[Card]]:
        cards = deck_cards(self.options["deck"])
        cards[cards.index(Card(BIG_JOKER))] = EMPEROR_CARD
        if not self._call:
            cards[cards.index(Card(SMALL_JOKER))] = GUARD_CARD
        self._rng.shuffle(cards)
        first = self.options["first_seat"]
        hands: list[list[Card]] = [[] for _ in range(NUM_SEATS)]
        for i, c in enumerate(cards):  # one card at a time in seat order
            hands[(first + i) % NUM_SEATS].append(c)
        return hands

    def _start_deal(self, hands: list[list[Card]] | None) -> None:
        if hands is None:
            hands = self._random_deal()
        self.deals += 1
        self._hands: list[list[list[Card]]] = [[[] for _ in range(NUM_STRENGTHS)] for _ in range(NUM_SEATS)]
        for seat, hand in enumerate(hands):
            for c in sorted(hand, key=_card_key):
                self._hands[seat][strength(c)].append(c)
        self._counts = [[len(lst) for lst in h] for h in self._hands]
        self._sizes = [sum(c) for c in self._counts]
        # roles
        self.emperor: int | None = None
        self.guard: int | None = None  # the actual guard (secret unless revealed)
        self.solo: str | None = None  # None | "open" | "hidden"
        self.called: Card | None = None
        self.guard_revealed = False
        self.open_guard = False  # 明保
        self.rebels_declared: list[int] = []  # 锄头
        self.rebellion = False
        self.kicks = 0
        self._reveal_seat: int | None = None  # holder of the role-revealing card, while hidden
        self._reveal_card: Card | None = None
        # the emperor card's journey
        self._holder = self._find(EMPEROR_CARD)
        self._first_holder = self._holder
        self._declines = 0
        self._weihai_passed = False
        self._travel: list[Card] = []  # attached cards travelling with the emperor card
        # questions of the current declaration round: seats still to answer
        self._step = "emperor"
        self._round: list[int] = []
        self._votes: list[int] = []
        # tribute
        self._pool: list[Card] = []
        self._picks: list[int] = []
        self.tribute_given: list[tuple[int, Card]] = []
        # play
        self.finished: list[int] = []
        self._last: Play | None = None
        self._last_seat = -1
        self._circle: list[int] = []
        self._passed: set[int] = set()
        self._yielders: list[int] = []
        self._second = False
        self.trick: list[tuple[int, str]] = []
        self._scores: tuple[int, ...] | None = None
        self.next_tribute: dict[str, Any] | None = None  # Qingdao tribute this hand produced
        self._score_detail: dict[str, Any] | None = None  # the over view's score_detail
        self._to_act: int | None = self._holder
        self._event(event="deal", number=self.deals)
        if self.options["tribute"] and self.options["tribute_due"]:
            self._start_tribute(self.options["tribute_due"])

    def _find(self, card: Card) -> int:
        s = strength(card)
        for seat in range(NUM_SEATS):
            if card in self._hands[seat][s]:
                return seat
        raise AssertionError(f"{card} is in no hand")

    # ------------------------------------------------------------------ cards in hands
    def _is_special(self, c: Card) -> bool:
        """Cards kept back when a play could use another copy (marked cards, called card)."""
        return c.marked or (self.called is not None and c == self.called)

    def _take(self, seat: int, s: int, n: int, include: Card | None = None) -> list[Card]:
        """Remove ``n`` cards of strength ``s`` from ``seat``: ``include`` first when
        given, then ordinary copies before special ones (so a hidden role card stays)."""
        lst = self._hands[seat][s]
        out: list[Card] = []
        if include is not None:
            out.append(lst.pop(lst.index(include)))
            n -= 1
        i = len(lst) - 1
        while n and i >= 0:
            if not self._is_special(lst[i]):
                out.append(lst.pop(i))
                n -= 1
            i -= 1
        while n:
            out.append(lst.pop())
            n -= 1
        self._counts[seat][s] -= len(out)
        self._sizes[seat] -= len(out)
        return out

    def _give(self, seat: int, cards: list[Card]) -> None:
        for c in cards:
            s = strength(c)
            lst = self._hands[seat][s]
            lst.append(c)
            lst.sort(key=_card_key)
            self._counts[seat][s] += 1
            self._sizes[seat] += 1

    def _highest(self, seat: int, jokers: bool = True) -> Card | None:
        """The seat's highest unmarked card (jokers excluded if asked). [decision] The
        marked jokers decide roles, so they are never attached or given as tribute."""
        for s in range(BJ if jokers else 12, -1, -1):
            for c in reversed(self._hands[seat][s]):
                if not c.marked:
                    return c
        return None

    def hand(self, seat: int) -> list[Card]:
        return [c for lst in self._hands[seat] for c in lst]

    def _suited_counts(self, seat: int, extra: list[Card] = ()) -> Counter[Card]:  # type: ignore[assignment]
        """How many copies of each suit+rank the seat holds (2s and jokers excluded)."""
        cnt: Counter[Card] = Counter()
        for lst in self._hands[seat][:12]:
            cnt.update(lst)
        cnt.update(c for c in extra if not c.is_joker and c.rank != 2)
        return cnt

    def _has_suited(self, seat: int, n: int) -> bool:
        return any(v >= n for v in self._suited_counts(seat, self._travel).values())

    def _copies(self, card: Card) -> int:
        """Copies of a suit+rank in this room's deck (4, or 3 for weihai's short 6s)."""
        return _deck_copies(self.options["deck"])[card]

    # ------------------------------------------------------------------ shared state
    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def step(self) -> str:
        """The current decision: tribute, emperor, call, grab, reveal, rebel, kick, play, over."""
        return self._step

    def _event(self, **e: Any) -> None:
        self._events.append(e)

    def _reveal_roles(self) -> None:
        if not self.guard_revealed:
            self.guard_revealed = True
            self._reveal_seat = self._reveal_card = None
            self._event(event="guard_revealed", seat=self.guard, solo=self.solo)

    # ------------------------------------------------------------------ hooks of the phases
    @abstractmethod
    def _start_tribute(self, plan: dict[str, Any]) -> None:
        """Qingdao tribute owed from the previous hand: hand it over (``declarations.py``)."""

    @abstractmethod
    def _start_play(self) -> None:
        """The declarations are over: the emperor leads (``tricks.py``)."""

    @abstractmethod
    def _hand_ended(self) -> bool:
        """Has the hand ended with the last seat to go out (``ending.py``)?"""

    @abstractmethod
    def _end_hand(self) -> None:
        """Places, scores and the next tribute of a finished hand (``ending.py``)."""
