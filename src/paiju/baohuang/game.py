"""The Baohuang 保皇 state machine: deal → (tribute) → emperor → guard → declarations →
play → scoring, every decision an action of one seat.

The order of pre-play decisions (spec §3.4) and what each seat is asked:

1. ``tribute`` (Qingdao, from the previous hand): receivers pick tribute cards 吃贡.
2. ``emperor``: the holder of the emperor card 皇牌 answers ``accept`` 登基, ``open_solo``
   明独 or ``abdicate`` 让位 (with the variant's attachments, forced cycle and redeal).
3. ``call`` (called-guard variants): the emperor calls a suit+rank 叫侍卫 (calling one he
   holds four of is 暗独), or declares ``open_solo``.
4. ``grab`` (``solo_grab``): the other seats, nearest to the emperor in the 上家 direction
   first, may ``grab`` 抢独 an open solo; the first to grab wins.
5. ``reveal``: every non-emperor seat, from the emperor's next player, is asked 明保;
   only the guard can answer ``reveal``, everybody else answers ``no`` — so whose turn
   it is never tells who the guard is.
6. ``rebel`` (``rebellion``, guard still hidden): every non-emperor seat, the guard
   included (who can only answer ``no``), may ``rebel`` 造反; two or more stand.
7. ``kick`` (``kick``): after a standing rebellion the emperor, then the guard, may
   ``kick`` 踢; after 明保 the rebels vote and two kicks stand.

The emperor's own open-solo declaration comes first (step 2/3), so it takes precedence
over any grab.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any

from paiju.baohuang.options import resolve_options
from paiju.baohuang.plays import (
    BJ,
    NUM_STRENGTHS,
    SJ,
    STRENGTH_TEXT,
    YIELD,
    Declare,
    Play,
    Yield,
    composition,
    kao_fits,
    play_beats,
    strength,
    strength_of_text,
    why_not_beats,
)
from paiju.baohuang.scoring import hand_scores, tribute_count, tribute_plan
from paiju.cards import BIG_JOKER, SMALL_JOKER, SUITS, Card, format_cards, packs, parse_cards, take_suited
from paiju.errors import IllegalAction, reasons
from paiju.game import PASS, Game, Pass, action_text, new_seed
from paiju.lazy import LazySequence

NUM_SEATS = 5

reasons(
    no_yield="yielding (让牌) is not allowed in this room",
    already_yielded="you already yielded this circle: play or pass",
    reveals_nothing="{card} in this play reveals nothing: you do not hold a hidden role card",
    not_part_of_play="{card} is not part of {play}",
    needs_role_card="{play} needs your {card}: write it as {written}",
    hold_rank_last="憋{rank}: you may play {rank}s only in the play that empties your hand",
)
PLACE_NAMES = ("头客", "二客", "三客", "二落", "大落")
EMPEROR_CARD = Card(BIG_JOKER, None, True)
GUARD_CARD = Card(SMALL_JOKER, None, True)

ACCEPT = Declare("accept")
ABDICATE = Declare("abdicate")
OPEN_SOLO = Declare("open_solo")
GRAB = Declare("grab")
REVEAL = Declare("reveal")
REBEL = Declare("rebel")
KICK = Declare("kick")
NO = Declare("no")


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


class Baohuang(Game):
    """One hand of 保皇 Baohuang for five seats. See the module doc for the decisions."""

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

    # ------------------------------------------------------------------ the interface
    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def phase(self) -> str:
        """``setup`` (pre-play decisions), ``play`` or ``over``; :attr:`step` is finer."""
        if self._step == "over":
            return "over"
        return "play" if self._step == "play" else "setup"

    @property
    def step(self) -> str:
        """The current decision: tribute, emperor, call, grab, reveal, rebel, kick, play, over."""
        return self._step

    def legal_actions(self) -> Sequence[Any]:
        seat = self._to_act
        if seat is None:
            return []
        step = self._step
        if step == "play":
            if self._last is None:
                return LeadPlays(self, seat)
            acts: list[Any] = self._follows(seat)
            acts.append(PASS)
            if self._yield and not self._second:
                acts.append(YIELD)
            return acts
        return self._declarations(seat)

    def _declarations(self, seat: int) -> list[Declare]:
        step = self._step
        if step == "emperor":
            return self._emperor_options(seat)
        if step == "call":
            return self._call_options(seat) + ([OPEN_SOLO] if self._may_open_solo(seat) else [])
        if step == "tribute":
            seen: dict[str, Declare] = {}
            for c in self._pool:
                seen.setdefault(str(c), Declare("take", str(c)))
            return list(seen.values())
        if step == "grab":
            ok = not self.options["grab_needs_four"] or self._has_suited(seat, 4)
            return [GRAB, NO] if ok else [NO]
        if step == "reveal":
            return [REVEAL, NO] if seat == self.guard and seat != self.emperor else [NO]
        if step == "rebel":
            return [NO] if seat == self.guard else [REBEL, NO]
        if step == "kick":
            return [KICK, NO]
        raise AssertionError(step)

    def _may_open_solo(self, seat: int) -> bool:
        o = self.options
        if not self._call:
            return o["solo_grab"] or GUARD_CARD in self._hands[seat][SJ]
        if o["grab_needs_four"]:
            return self._has_suited(seat, 4)
        return True

    def _emperor_options(self, seat: int) -> list[Declare]:
        o = self.options
        solo = [OPEN_SOLO] if self._may_open_solo(seat) else []
        if o["abdication"] == "weihai":
            both = GUARD_CARD in self._hands[seat][SJ]
            return [ACCEPT, *solo] + ([ABDICATE] if both and not self._weihai_passed else [])
        if not self._call:
            return [ACCEPT, *solo, ABDICATE]
        triple = self._has_suited(seat, 3)
        if self._declines >= NUM_SEATS and triple:  # forced cycle 逼庄: a suited triple must accept …
            if not (o["forced_four_exempts"] and self._has_suited(seat, 4)):  # … unless a four exempts (经典玩法)
                return [ACCEPT, *solo]
        return ([ACCEPT] if triple else []) + solo + [ABDICATE]

    def _call_options(self, seat: int) -> list[Declare]:
        """Calls open to the emperor: ``classic`` picks the triple automatically in the
        order A > K > … > 3 (and, for 暗独, the best suited four); ``qingdao`` lets him
        choose any suit+rank he holds three or four of. 2s are never called."""
        cnt = self._suited_counts(seat)
        held = sorted((c for c, v in cnt.items() if v >= 3), key=_card_key, reverse=True)
        if self.options["guard_choice"] == "choose":
            return [Declare("call", str(c)) for c in held]
        triples = [c for c in held if cnt[c] < self._copies(c)]
        fours = [c for c in held if cnt[c] >= self._copies(c)]
        return [Declare("call", str(c)) for c in (triples[:1] + fours[:1])]

    def _copies(self, card: Card) -> int:
        """Copies of a suit+rank in this room's deck (4, or 3 for weihai's short 6s)."""
        return _deck_copies(self.options["deck"])[card]

    # ------------------------------------------------------------------ parsing
    def parse_action(self, text: str) -> Any:
        t = " ".join(action_text(text).split())
        low = t.lower()
        if low in ("pass", "p"):
            return PASS
        if low == "yield":
            return YIELD
        word, _, arg = t.partition(" ")
        if word.lower() in (
            "accept",
            "abdicate",
            "open_solo",
            "grab",
            "reveal",
            "rebel",
            "kick",
            "no",
        ):
            if arg:
                raise IllegalAction(f"{word} takes no argument", code="no_argument", word=word)
            return Declare(word.lower())
        if word.lower() in ("call", "take"):
            card = Card.parse(arg) if arg else None
            if card is None:
                raise IllegalAction(
                    f"{word} needs a card, e.g. '{word} Ah'", code="needs_card", word=word, example="Ah"
                )
            return Declare(word.lower(), str(card))
        if not t:
            raise IllegalAction("empty action: type cards to play (e.g. 'SJ 777') or 'pass'", code="empty_action")
        return self._parse_play(t)

    def _parse_play(self, text: str) -> Play:
        cards = parse_cards(text)
        play = composition(cards)
        seat = self._to_act
        if seat is None:
            return play
        reveal: Card | None = None
        named = Counter(c for c in cards if c.suit is not None or c.marked)  # cards written exactly
        hand = Counter(self.hand(seat)) if named else Counter()
        for c, n in named.items():
            if hand[c] < n:
                text = f"{n} × {c}" if n > 1 else str(c)
                raise IllegalAction(f"you do not hold {text}", code="not_in_hand", cards=format_cards([c] * n))
            if self._reveal_seat == seat and c == self._reveal_card:
                reveal = c
        if reveal is None and self._reveal_seat == seat and not self._can_exclude(seat, play):
            reveal = self._reveal_card  # the only way to make this play uses the role card
        return play._replace(reveal=reveal)

    def _can_exclude(self, seat: int, play: Play) -> bool:
        """Can ``seat`` make ``play`` without its hidden role card?"""
        rc = self._reveal_card
        if rc is None:
            return True
        c = self._counts[seat]
        if rc.rank == SMALL_JOKER:
            return play.small <= c[SJ] - 1
        rs = strength(rc)
        return play.rank != rs or play.n <= c[rs] - 1

    # ------------------------------------------------------------------ checking
    def _check(self, action: Any) -> None:
        seat = self._to_act
        assert seat is not None
        if self._step == "play":
            problem = self._play_problem(seat, action)
            if problem is not None:
                raise problem
            return
        if not isinstance(action, Declare):
            raise IllegalAction(
                f"{action} is not a decision of this step ({self._step}); "
                f"choose one of: {', '.join(map(str, self.legal_actions()))}",
                code="not_a_decision",
                action=str(action),
                step=self._step,
            )
        legal = self._declarations(seat)
        if action not in legal:
            choices = ", ".join(map(str, legal))
            raise IllegalAction(
                f"seat {seat} cannot {action} now ({self._step}); choose one of: {choices}",
                code="not_open",
                action=str(action),
                step=self._step,
                choices=choices,
            )

    def _play_problem(self, seat: int, a: Any) -> IllegalAction | None:
        """Why ``seat`` may not take play-phase action ``a`` now (the error to raise); None when it may."""
        leading = self._last is None
        if isinstance(a, Pass):
            if leading:
                return IllegalAction("you lead this trick: play something, you cannot pass", "must_lead", action="pass")
            return None
        if isinstance(a, Yield):
            if not self._yield:
                return IllegalAction("yielding (让牌) is not allowed in this room", "no_yield")
            if leading:
                return IllegalAction(
                    "you lead this trick: play something, you cannot yield", "must_lead", action="yield"
                )
            return (
                IllegalAction("you already yielded this circle: play or pass", "already_yielded")
                if self._second
                else None
            )
        if not isinstance(a, Play):
            return IllegalAction(
                f"{a} is not a play; during play type cards (e.g. 'SJ 777') or 'pass'",
                "not_a_decision",
                action=str(a),
                step=self._step,
            )
        if a.small < 0 or a.big < 0 or a.n < 0 or a.size == 0 or (a.n and not 0 <= a.rank <= 12):
            return IllegalAction(f"{a!r} is not a play", "not_a_play", cards=repr(a))
        c = self._counts[seat]
        if a.big > c[BJ] or a.small > c[SJ] or (a.n and a.n > c[a.rank]):
            return IllegalAction(f"you do not hold {a}", "not_in_hand", cards=str(a))
        rc = a.reveal
        if rc is not None:
            if seat != self._reveal_seat or rc != self._reveal_card:
                text = f"{rc} in this play reveals nothing: you do not hold a hidden role card"
                return IllegalAction(text, "reveals_nothing", card=str(rc))
            if (rc.rank == SMALL_JOKER and not a.small) or (not rc.is_joker and a.rank != strength(rc)):
                return IllegalAction(f"{rc} is not part of {a}", "not_part_of_play", card=str(rc), play=str(a))
        elif seat == self._reveal_seat and not self._can_exclude(seat, a):
            card, written = str(self._reveal_card), str(a._replace(reveal=self._reveal_card))
            return IllegalAction(
                f"{a} needs your {card}: write it as {written}",
                "needs_role_card",
                play=str(a),
                card=card,
                written=written,
            )
        held = self._held
        if held >= 0 and a.n and a.rank == held and a.size != self._sizes[seat]:
            rank = STRENGTH_TEXT[held]
            return IllegalAction(
                f"憋{rank}: you may play {rank}s only in the play that empties your hand", "hold_rank_last", rank=rank
            )
        if not leading:
            assert self._last is not None
            if not play_beats(a, self._last, self._kao):
                return why_not_beats(a, self._last, self._kao)
        return None

    # ------------------------------------------------------------------ legal plays
    def _variants(self, seat: int, p: Play, out: list[Any]) -> None:
        """Append ``p`` and/or its twin with the hidden role card (for its holder)."""
        if seat != self._reveal_seat:
            out.append(p)
            return
        rc = self._reveal_card
        assert rc is not None
        c = self._counts[seat]
        if rc.rank == SMALL_JOKER:
            uses = p.small >= 1
            spare = c[SJ] - 1 >= p.small
        else:
            rs = strength(rc)
            uses = p.rank == rs and p.n >= 1
            spare = not uses or c[rs] - 1 >= p.n
        if spare:
            out.append(p)
        if uses:
            out.append(p._replace(reveal=rc))

    def _follows(self, seat: int) -> list[Any]:
        """Every play of ``seat`` that beats the play on the table."""
        old = self._last
        assert old is not None
        c = self._counts[seat]
        B, S = c[BJ], c[SJ]
        held, size = self._held, self._sizes[seat]
        out: list[Any] = []
        lo = old.rank + 1 if old.n else 13
        if self._kao and (old.small or old.big):
            for b in range(B + 1):
                for s in range(S + 1):
                    if b + s and kao_fits(b, s, 0, old):
                        self._variants(seat, Play(-1, 0, s, b), out)
                    for n in range(1, old.n + 1):
                        if not kao_fits(b, s, n, old):
                            continue
                        for r in range(lo, 13):
                            if c[r] >= n and (r != held or n + s + b == size):
                                self._variants(seat, Play(r, n, s, b), out)
            return out
        if old.big:
            return out
        n = old.size
        for b in range(old.small, min(n, B) + 1):
            for s in range(min(n - b, S) + 1):
                k = n - b - s
                if k == 0:
                    self._variants(seat, Play(-1, 0, s, b), out)
                    continue
                for r in range(lo, 13):
                    if c[r] >= k and (r != held or k + s + b == size):
                        self._variants(seat, Play(r, k, s, b), out)
        return out

    # ------------------------------------------------------------------ applying
    def _event(self, **e: Any) -> None:
        self._events.append(e)

    def _do(self, action: Any) -> None:
        seat = self._to_act
        assert seat is not None
        step = self._step
        if step == "play":
            self._event(seat=seat, action=str(action))
            if isinstance(action, Play):
                self._do_play(seat, action)
            else:
                self._do_pass(seat, action)
            return
        self._event(seat=seat, action=str(action), step=step)
        getattr(self, "_answer_" + step)(seat, action)

    # emperor -------------------------------------------------------------------------
    def _answer_emperor(self, seat: int, a: Declare) -> None:
        if a.name in ("accept", "open_solo"):
            self._crown(seat, open_solo=a.name == "open_solo")
            return
        o = self.options
        if o["abdication"] == "weihai":
            self._move_emperor_card(seat, (seat + 2) % NUM_SEATS)  # 隔一个的下家, once
            self._weihai_passed = True
            return
        self._move_emperor_card(seat, (seat - 1) % NUM_SEATS)  # to 上家
        if o["abdication"] == "standard" and self._declines >= 1:
            card = self._highest(seat, jokers=False)  # a 2, else the highest non-joker: 贴牌
            if card is not None:
                self._travel += self._take(seat, strength(card), 1, include=card)
        elif o["abdication"] == "qingdao":
            card = self._highest(seat)
            if card is not None:
                self._travel += self._take(seat, strength(card), 1, include=card)
        self._declines += 1
        if self._declines >= 2 * NUM_SEATS:  # two cycles (or cycle + forced cycle): redeal
            self._event(event="redeal")
            self._start_deal(None)

    def _move_emperor_card(self, seat: int, to: int) -> None:
        if EMPEROR_CARD in self._hands[seat][BJ]:
            self._travel.insert(0, self._take(seat, BJ, 1, include=EMPEROR_CARD)[0])
        self._holder = self._to_act = to

    def _crown(self, seat: int, open_solo: bool) -> None:
        self._give(seat, self._travel)
        self._travel = []
        self.emperor = seat
        self._holder = seat
        self._event(event="emperor", seat=seat)
        if open_solo:
            self._declare_open_solo(seat)
            return
        if self._call:
            self._step = "call"
            self._to_act = seat
            return
        self.guard = self._find(GUARD_CARD)
        self._reveal_seat, self._reveal_card = self.guard, GUARD_CARD
        if self.guard == seat:
            self.solo = "hidden"
        elif self._weihai_passed:
            # [decision] only a holder of both marked jokers may pass the emperor card on
            # (weihai), so everybody knows he kept the guard card: he is a known guard
            # (no 明保 doubling unless he declares it, and no rebellion to unmask him)
            self._reveal_roles()
        self._start_rounds()

    def _declare_open_solo(self, seat: int) -> None:
        self.solo = "open"
        self.guard = None
        self.called = None
        self._reveal_seat = self._reveal_card = None
        self._event(event="open_solo", seat=seat)
        self._start_play()

    def _answer_call(self, seat: int, a: Declare) -> None:
        if a.name == "open_solo":
            self._declare_open_solo(seat)
            return
        card = Card.parse(a.arg)
        self.called = card
        holders = [s for s in range(NUM_SEATS) if s != seat and card in self._hands[s][strength(card)]]
        if holders:
            self.guard = holders[0]
            self._reveal_seat, self._reveal_card = self.guard, card
        else:  # he holds every copy: 暗独
            self.guard = seat
            self.solo = "hidden"
        self._start_rounds()

    # declaration rounds ------------------------------------------------------------
    def _start_rounds(self) -> None:
        emp = self.emperor
        assert emp is not None
        if self.options["solo_grab"]:
            self._begin_round("grab", [(emp - k) % NUM_SEATS for k in range(1, NUM_SEATS)])
        else:
            self._next_round("grab")

    def _begin_round(self, step: str, seats: list[int]) -> None:
        if not seats:
            self._next_round(step)
            return
        self._step = step
        self._round = seats
        self._votes = []
        self._to_act = seats[0]

    def _next_round(self, done: str) -> None:
        emp = self.emperor
        assert emp is not None
        others = [(emp + k) % NUM_SEATS for k in range(1, NUM_SEATS)]
        if done == "grab":
            self._begin_round("reveal", others)
        elif done == "reveal":
            if self.options["rebellion"] and not self.guard_revealed:
                self._begin_round("rebel", others)
            else:
                self._next_round("rebel")
        elif done == "rebel":
            if not self.options["kick"]:
                self._start_play()
            elif self.rebellion:
                side = [emp] + ([self.guard] if self.guard is not None and self.guard != emp else [])
                self._begin_round("kick", side)
            elif self.open_guard:
                self._begin_round("kick", [s for s in others if s != self.guard])
            else:
                self._start_play()
        else:
            self._start_play()

    def _after_answer(self, seat: int, stop: bool = False) -> None:
        self._round.pop(0)
        if stop or not self._round:
            self._finish_round()
        else:
            self._to_act = self._round[0]

    def _finish_round(self) -> None:
        step = self._step
        if step == "rebel" and len(self.rebels_declared) >= 2:
            self.rebellion = True  # 造反成功: the hidden guard (or hidden solo) is shown
            self._reveal_roles()
        if step == "kick" and not self.rebellion and len(self._votes) >= 2:
            self.kicks = 1
        self._next_round(step)

    def _answer_grab(self, seat: int, a: Declare) -> None:
        if a.name != "grab":
            self._after_answer(seat)
            return
        old = self.emperor
        assert old is not None
        holder = self._find(EMPEROR_CARD)
        if holder != seat:  # takes the emperor card and gives nothing back
            self._give(seat, self._take(holder, BJ, 1, include=EMPEROR_CARD))
        self.emperor = seat
        self._event(event="emperor", seat=seat)
        self._round = []
        self._declare_open_solo(seat)

    def _answer_reveal(self, seat: int, a: Declare) -> None:
        if a.name == "reveal":
            self.open_guard = True
            self._reveal_roles()
            self._after_answer(seat, stop=True)
        else:
            self._after_answer(seat)

    def _answer_rebel(self, seat: int, a: Declare) -> None:
        if a.name == "rebel":
            self.rebels_declared.append(seat)
        self._after_answer(seat)

    def _answer_kick(self, seat: int, a: Declare) -> None:
        if a.name == "kick":
            self._votes.append(seat)
            if self.rebellion:  # the emperor side kicks once
                self.kicks = 1
                self._after_answer(seat, stop=True)
                return
        self._after_answer(seat)

    def _reveal_roles(self) -> None:
        if not self.guard_revealed:
            self.guard_revealed = True
            self._reveal_seat = self._reveal_card = None
            self._event(event="guard_revealed", seat=self.guard, solo=self.solo)

    # tribute --------------------------------------------------------------------------
    def _start_tribute(self, plan: dict[str, Any]) -> None:
        for giver, n in plan["givers"]:
            for _ in range(n):
                card = self._highest(giver)
                if card is None:
                    break
                self._take(giver, strength(card), 1, include=card)
                self._pool.append(card)
                self.tribute_given.append((giver, card))
        self._event(event="tribute", cards=[[g, str(c)] for g, c in self.tribute_given])
        self._picks = [seat for seat, n in plan["receivers"] for _ in range(n)]
        self._step = "tribute"
        self._advance_tribute()

    def _advance_tribute(self) -> None:
        """Hand out tribute cards where the receiver has no real choice; ask otherwise."""
        while self._picks and self._pool:
            seat = self._picks[0]
            if len(set(self._picks)) > 1 and len({str(c) for c in self._pool}) > 1:
                self._to_act = seat
                return
            self._picks.pop(0)
            self._give(seat, [self._pool.pop(0)])
        self._pool, self._picks = [], []
        self._step = "emperor"
        self._holder = self._first_holder = self._find(EMPEROR_CARD)
        self._to_act = self._holder

    def _answer_tribute(self, seat: int, a: Declare) -> None:
        card = next(c for c in self._pool if str(c) == a.arg)
        self._pool.remove(card)
        self._picks.pop(0)
        self._give(seat, [card])
        self._advance_tribute()

    # play -----------------------------------------------------------------------------
    def _start_play(self) -> None:
        self._step = "play"
        emp = self.emperor
        assert emp is not None
        self._new_trick(emp)

    def _new_trick(self, leader: int) -> None:
        self._last = None
        self._last_seat = -1
        self._passed = set()
        self._yielders = []
        self._second = False
        self._circle = [leader]
        self.trick = []
        self._to_act = leader

    def _next_holder(self, seat: int) -> int:
        for k in range(1, NUM_SEATS + 1):
            s = (seat + k) % NUM_SEATS
            if self._sizes[s]:
                return s
        raise AssertionError("nobody holds cards")

    def _do_play(self, seat: int, p: Play) -> None:
        cards: list[Card] = []
        if p.big:
            cards += self._take(seat, BJ, p.big)
        if p.small:
            cards += self._take(
                seat,
                SJ,
                p.small,
                include=p.reveal if p.reveal is not None and p.reveal.is_joker else None,
            )
        if p.n:
            inc = p.reveal if p.reveal is not None and not p.reveal.is_joker else None
            cards += self._take(seat, p.rank, p.n, include=inc)
        self.trick.append((seat, format_cards(cards)))
        self._events[-1]["cards"] = format_cards(cards)
        if p.reveal is not None:
            self._reveal_roles()
        elif (
            self.solo == "hidden"
            and self._call
            and seat == self.emperor
            and not self.guard_revealed
            and self.called is not None
            and self.called not in self._hands[seat][strength(self.called)]
            and self.called in cards
        ):
            self._reveal_roles()  # the emperor showed every copy of the called card: 暗独
        self._last, self._last_seat = p, seat
        if not self._sizes[seat]:
            self.finished.append(seat)
            self._event(event="finished", seat=seat, place=len(self.finished))
            if self._hand_ended():
                self._end_hand()
                return
        if p.big and not self._kao:  # nothing beats a big joker: everyone passes 自动Pass
            self._end_trick()
            return
        self._circle = [
            s for s in ((seat + k) % NUM_SEATS for k in range(1, NUM_SEATS)) if self._sizes[s] and s not in self._passed
        ]
        self._yielders = []
        self._second = False
        if not self._circle:
            self._end_trick()
        else:
            self._to_act = self._circle[0]

    def _do_pass(self, seat: int, a: Any) -> None:
        if isinstance(a, Yield):
            self._yielders.append(seat)
        elif self._final_pass:
            self._passed.add(seat)
        self._circle.pop(0)
        if not self._circle and self._yielders and not self._second:
            self._second = True  # 让牌: each yielder gets one more turn
            last = self._last_seat
            self._circle = sorted(self._yielders, key=lambda s: (s - last) % NUM_SEATS)
            self._yielders = []
        if self._circle:
            self._to_act = self._circle[0]
        else:
            self._end_trick()

    def _end_trick(self) -> None:
        last = self._last_seat
        # 接风: a player who went out leaves the lead to the next player holding cards
        self._event(event="trick", winner=last)
        self._new_trick(last if self._sizes[last] else self._next_holder(last))

    def _hand_ended(self) -> bool:
        done = set(self.finished)
        emp = self.emperor
        if self.solo == "open":
            return True
        if self.solo == "hidden":
            return emp in done or len(done) >= 2
        return (emp in done and self.guard in done) or all(
            s in done for s in range(NUM_SEATS) if s != emp and s != self.guard
        )

    def is_leading(self) -> bool:
        """Is the seat to act leading a trick (nothing to beat)?"""
        return self._step == "play" and self._last is None

    def places(self) -> list[int]:
        """Seats in finishing order, then the players still holding cards: fewer cards
        place better; with equal counts the one who would play sooner after the last
        finisher (spec §4, revised; the 大落 gives the Qingdao tribute). With
        ``unfinished_places="seat"`` (records of version 1) they follow in seat order."""
        left = [s for s in range(NUM_SEATS) if s not in self.finished]
        if self.options["unfinished_places"] == "seat" or not self.finished:
            return self.finished + left
        last = self.finished[-1]
        return self.finished + sorted(left, key=lambda s: (self._sizes[s], (s - last) % NUM_SEATS))

    def _end_hand(self) -> None:
        self._step = "over"
        self._to_act = None
        self._circle = []
        emp = self.emperor
        assert emp is not None
        order = self.places()
        place = {s: i + 1 for i, s in enumerate(order)}
        solo = self.solo
        guard = None if solo else self.guard
        plan = tribute_plan(emp, guard, order) if self.options["tribute"] else None
        self.next_tribute = plan
        res = hand_scores(
            place[emp],
            None if guard is None else place[guard],
            solo=solo,
            open_guard=self.open_guard,
            rebellion=self.rebellion,
            kicks=self.kicks,
            tribute_cards=tribute_count(plan),
        )
        self._scores = tuple(
            res["emperor"] if s == emp else res["guard"] if s == guard else res["rebel"] for s in range(NUM_SEATS)
        )
        self._score_detail = self._explain_scores(place[emp], None if guard is None else place[guard], plan)
        self._event(event="over", scores=list(self._scores), places=order)

    def _explain_scores(
        self, emperor_place: int, guard_place: int | None, plan: dict[str, Any] | None
    ) -> dict[str, Any]:
        """The over view's ``score_detail``: each seat scores share × base × multiplier."""
        solo = self.solo
        if solo is None:
            assert guard_place is not None
            kind, base = "pair", 6 - (emperor_place + guard_place)
        elif solo == "open":
            kind, base = "open_solo", 6 if emperor_place == 1 else -6
        else:
            kind, base = "hidden_solo", 3 if emperor_place == 1 else 0 if emperor_place == 2 else -3
        factors: list[dict[str, Any]] = [{"name": "open_guard", "factor": 2}] if self.open_guard else []
        if self.rebellion:
            factors.append({"name": "rebellion", "factor": 2})
        factors += [{"name": "kick", "factor": 2}] * self.kicks
        cards = tribute_count(plan)
        if cards:
            factors.append({"name": "tribute", "factor": 2 * cards})
        split = bool(self.kicks) and solo is None  # 踢: the emperor side shares 3 × base equally
        shares = (
            {"emperor": 1.5, "guard": 1.5} if split else {"emperor": 2, "guard": 1} if solo is None else {"emperor": 4}
        )
        multiplier = 1
        for f in factors:
            multiplier *= f["factor"]
        return {
            "kind": kind,
            "base": base,
            "factors": factors,
            "multiplier": multiplier,
            "places": {"emperor": emperor_place, "guard": guard_place},
            "kick_split": split,
            "shares": {**shares, "rebel": -1},
        }

    # ------------------------------------------------------------------ match support
    def next_hand_options(self) -> dict[str, Any]:
        """Options the next hand of a match inherits: deal start and Qingdao tribute."""
        if self._step != "over":
            raise IllegalAction("the hand is not over yet", code="not_over")
        o = {k: v for k, v in self.options.items() if k not in ("first_seat", "tribute_due")}
        o["first_seat"] = self.finished[0] if o["deal_start"] == "first_finisher" else self.emperor
        o["tribute_due"] = self.next_tribute
        return o

    # ------------------------------------------------------------------ record, clone
    def _record_setup(self) -> dict[str, Any]:
        return {"options": dict(self.options), "seed": self.seed, "deal": self._deal_text}

    def clone(self) -> Baohuang:
        g = object.__new__(Baohuang)
        d = g.__dict__
        d.update(self.__dict__)
        g._log = list(self._log)
        g._rng = random.Random(0)  # (a seedless Random would read os.urandom first)
        g._rng.setstate(self._rng.getstate())
        g._events = list(self._events)
        g._hands = [[list(lst) for lst in h] for h in self._hands]
        g._counts = [list(c) for c in self._counts]
        g._sizes = list(self._sizes)
        for name in (
            "rebels_declared",
            "_travel",
            "_round",
            "_votes",
            "_pool",
            "_picks",
            "tribute_given",
            "finished",
            "_circle",
            "_yielders",
            "trick",
        ):
            d[name] = list(d[name])
        g._passed = set(self._passed)
        return g

    # ------------------------------------------------------------------ views
    @property
    def multiplier(self) -> int:
        """The public stake multiplier so far: 明保 ×2, standing rebellion ×2, each kick ×2;
        at the end also Qingdao's ×(2 × tribute cards). (明独's doubling is in its 24.)"""
        m = (2 if self.open_guard else 1) * (2 if self.rebellion else 1) * 2**self.kicks
        cards = tribute_count(self.next_tribute)
        return m * 2 * cards if cards else m

    def role_of(self, seat: int) -> str | None:
        """The true role of a seat (emperor, guard, rebel), None before it is decided."""
        if self.emperor is None or self._step == "call":
            return None
        if seat == self.emperor:
            return "emperor"
        return "guard" if seat == self.guard else "rebel"

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator): own cards, everyone's card
        counts, every action and play so far, public roles — never another seat's cards,
        never a hidden guard or hidden solo before the rules reveal it.

        In the ``call`` step the emperor's own view has ``solo_calls``: the calls (action
        text) of a card he holds every copy of — such a call makes him play 暗独 alone.

        When the hand is over: ``scores``, ``places`` (seats in finishing order),
        ``hands_left`` (per seat, the card texts still held — public at the end) and
        ``score_detail`` = ``{"kind": "pair" | "open_solo" | "hidden_solo", "base": n,
        "factors": [{"name": "open_guard" | "rebellion" | "kick" | "tribute", "factor": n}],
        "multiplier": product of the factors, "places": {"emperor": p, "guard": p | None},
        "kick_split": bool, "shares": {"emperor": s, "guard": s, "rebel": -1}}`` — each
        seat scores its role's share × base × multiplier (a pair 2 : 1, a solo 4, a kick
        1.5 : 1.5; every rebel −1)."""
        over = self._step == "over"
        emp = self.emperor
        guard: int | None = None
        solo: str | None = self.solo if self.solo == "open" else None
        known = over or self.guard_revealed
        if known:
            guard = None if self.solo else self.guard
            solo = self.solo
        elif seat is not None and self.guard is not None and self.role_of(seat) is not None:
            if seat == self.guard and seat != emp:
                guard = seat  # the guard knows himself
            if seat == emp and self.solo == "hidden":
                solo = "hidden"  # the emperor knows he is alone
        roles: list[str | None] = []
        for s in range(NUM_SEATS):
            if emp is None:
                roles.append(None)
            elif s == emp:
                roles.append("emperor")
            elif self._step == "call":
                roles.append(None)  # the guard is not called yet
            elif s == guard:
                roles.append("guard")
            elif known or solo == "open" or (seat is not None and s == seat):
                roles.append(self.role_of(s))
            else:
                roles.append(None)
        v: dict[str, Any] = {
            "game": self.name,
            "seat": seat,
            "phase": self.phase,
            "step": self._step,
            "to_act": self._to_act,
            "options": {k: v for k, v in self.options.items() if k != "tribute_due"},
            "deals": self.deals,
            "hand": [str(c) for c in self.hand(seat)] if seat is not None else None,
            "hand_counts": list(self._sizes),
            "emperor_card_holder": self._holder if emp is None else emp,
            "attached": max(0, len(self._travel) - 1) if emp is None else 0,
            "emperor": emp,
            "guard": guard,
            "solo": solo,
            "called": str(self.called) if self.called is not None and solo != "open" else None,
            "roles": roles,
            "open_guard": self.open_guard,
            "rebels_declared": list(self.rebels_declared),
            "rebellion": self.rebellion,
            "kicks": self.kicks,
            "multiplier": self.multiplier,
            "tribute_pool": [str(c) for c in self._pool],
            "trick": [{"seat": s, "cards": t} for s, t in self.trick],
            "last_play": {"seat": self._last_seat, "play": str(self._last)} if self._last else None,
            "leader": self._circle[0] if self._last is None and self._circle else None,
            "leading": self.is_leading(),
            "finished": list(self.finished),
            "events": list(self._events),  # public events; the dicts are shared, do not mutate
        }
        if seat is not None and seat == self._holder and emp is None:
            v["attached_cards"] = [str(c) for c in self._travel if not c.marked]
        if seat is not None and seat == self._to_act:
            v["legal_actions"] = [str(a) for a in self.legal_actions()]
        if over:
            v["scores"] = list(self.scores)
            v["places"] = self.places()
            v["hands_left"] = [[str(c) for c in self.hand(s)] for s in range(NUM_SEATS)]
            v["score_detail"] = self._score_detail
        elif self._step == "call" and seat is not None and seat == emp:
            cnt = self._suited_counts(seat)
            v["solo_calls"] = [
                str(a) for a in self._call_options(seat) if cnt[Card.parse(a.arg)] >= self._copies(Card.parse(a.arg))
            ]
        return v


class LeadPlays(LazySequence[Play]):
    """Every lead of a seat, as a lazy sequence: a rank part (``n`` cards of one rank)
    times a joker part, then the jokers alone, then the 憋6 finishing play. It knows its
    length and decodes an index on demand, so random play never builds the whole list."""

    def __init__(self, game: Baohuang, seat: int) -> None:
        c = game._counts[seat]
        held = game._held
        rc = game._reveal_card if seat == game._reveal_seat else None
        ranks: list[tuple[int, int, Card | None]] = []
        rs = strength(rc) if rc is not None and not rc.is_joker else -1
        for r in range(13):
            k = c[r]
            if not k or r == held:
                continue
            for n in range(1, k + 1):
                if r == rs:
                    if n <= k - 1:
                        ranks.append((r, n, None))
                    ranks.append((r, n, rc))
                else:
                    ranks.append((r, n, None))
        jokers: list[tuple[int, int, Card | None]] = []
        sj_rc = rc if rc is not None and rc.is_joker else None
        for b in range(c[BJ] + 1):
            for s in range(c[SJ] + 1):
                if sj_rc is not None and s:
                    if s <= c[SJ] - 1:
                        jokers.append((s, b, None))
                    jokers.append((s, b, sj_rc))
                else:
                    jokers.append((s, b, None))
        self._ranks = ranks
        self._jokers = jokers
        self._alone = jokers[1:]  # jokers[0] is (0, 0, None): no jokers
        self._extra: list[Play] = []
        if held >= 0 and c[held] and all(not c[r] for r in range(13) if r != held):
            whole = Play(held, c[held], c[SJ], c[BJ])  # 憋6: the held rank goes out last
            if rc is not None:
                whole = whole._replace(reveal=rc)
            self._extra.append(whole)
        self._nr = len(ranks) * len(jokers)
        self._len = self._nr + len(self._alone) + len(self._extra)

    def _decode(self, i: int) -> Play:
        if i < self._nr:
            r, n, rv = self._ranks[i // len(self._jokers)]
            s, b, jv = self._jokers[i % len(self._jokers)]
            return Play(r, n, s, b, rv or jv)
        i -= self._nr
        if i < len(self._alone):
            s, b, jv = self._alone[i]
            return Play(-1, 0, s, b, jv)
        return self._extra[i - len(self._alone)]

    def __contains__(self, p: object) -> bool:
        if not isinstance(p, Play):
            return False
        if p in self._extra:
            return True
        rv = p.reveal
        jv = rv if rv is not None and rv.is_joker else None
        if p.n == 0:
            return (p.small, p.big, jv) in self._alone
        return (p.rank, p.n, None if jv else rv) in self._ranks and (
            p.small,
            p.big,
            jv,
        ) in self._jokers
