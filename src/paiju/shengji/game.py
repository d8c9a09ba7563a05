"""The Shengji 升级 / 拖拉机 state machine: deal with declarations → burying the kitty →
trick play → scoring. Every decision is an action of one seat.

Phases (``game.phase``):

1. ``deal`` — the engine deals one card at a time, starting with the declarer seat of the
   hand when it is known (later hands of a match), else seat 0 **[decision]**. After each
   card the seat that received it decides: ``no`` or ``declare <cards>`` (§4). After the
   last card every seat, from the one after the last receiver, gets one more decision.
   Who is asked never depends on the cards.
2. ``bury`` — the declarer 庄家 has picked up the kitty 底牌 (automatically: there is
   nothing to choose) and buries cards one per decision: ``bury 7h`` 扣底, until the kitty
   is full again. **[decision]** one card per decision keeps every legal list short and
   is what a UI shows (tap a card); any card may be buried.
   With ``kitty_steal`` 抢底 (§5), a ``steal`` round follows each burial: every seat in
   turn, from the one after the seat that buried, answers ``no`` or ``declare <cards>`` (a
   declaration stronger than the one standing, as during the deal; **[decision]** with no
   declaration standing — trump from the kitty card or no-trump — any declaration). Who is
   asked never depends on the cards. A declaration steals: trump changes, that seat picks
   up the buried kitty and buries as many cards (``bury`` again), then a new round starts
   after it. The round ends after four ``no``. **[decision]** The declarer 庄家 stays the
   declarer and leads (seed 003: 无论是有没有人抢底，庄家都是第一个出牌); the kitty scored at
   the end is the last one buried.
3. ``play`` — the declarer leads the first trick, the winner of a trick leads the next.
   A lead is any multiset of one play-suit (a lazy :class:`LeadPlays`); a throw 甩牌 that
   another hand can beat is reduced to its smallest beatable unit (``throw.py``).
4. ``over`` — ``scores`` is the level change (§7), ``result`` the details.

Variants: ``declare_with_joker`` (``declare.py``), ``kitty_steal`` (above), ``two_colours``
(one pack, §8: each card is dealt as the card it plays as, :data:`~paiju.shengji.trump.COLOUR_ID`
— ♦ as ♥ and ♣ as ♠ — so hands, plays and views show colour cards, and card text of either
suit of a colour is read as its colour card **[decision]**; trump is then ``h`` for red and
``s`` for black), ``triples`` (three packs, §9: ``units.py``).

Explicit deals: ``deal=[h0, h1, h2, h3]`` with ``kitty=...`` (or ``deal`` with a 5th entry,
the kitty — how records store it). Seat ``s`` receives its cards in the order given.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from paiju.cards import SUITS, Card, packs, parse_cards
from paiju.errors import IllegalAction, reasons
from paiju.game import Game, action_text, new_seed
from paiju.shengji.actions import NO, Declare, Play, make_play
from paiju.shengji.declare import Bid, joker_may_show, strength
from paiju.shengji.follow import follow_problem, legal_follows, not_held, suit_counts
from paiju.shengji.options import PACK_SIZES, ladder, resolve_options
from paiju.shengji.scoring import climb, last_trick_multiplier, level_change, step_points, take_over_points
from paiju.shengji.sequences import LeadPlays
from paiju.shengji.throw import failed_unit
from paiju.shengji.trick import winning_index
from paiju.shengji.trump import (
    BJ_ID,
    COLOUR_ID,
    ID_CARD,
    ID_RANK,
    ID_SUIT,
    ID_TEXT,
    NUM_IDS,
    POINTS,
    SJ_ID,
    SUIT_NAMES,
    TrumpOrder,
    card_id,
    rank_of_text,
    rank_text,
    trump_order,
)
from paiju.shengji.units import counts_of, decompose, shape_of

NUM_SEATS = 4

reasons(
    bury_one="bury one card at a time",
    bad_declaration="{cards} is not a declaration",
    wrong_level="{cards} is not a declaration: the level is {level}",
    single_joker="a single joker declares nothing",
    own_declaration="you may not overturn your own declaration (自反 is off): only reinforce it",
    weak_declaration="{cards} does not beat the declaration standing",
    joker_colour="{cards}: the big joker declares a red suit (♥ ♦), the small joker a black suit (♠ ♣)",
)
MAX_LISTED = 300
"""``view`` lists the legal actions of the seat to act when there are at most this many."""


def team_of(seat: int) -> int:
    """Team 0 is seats 0 and 2, team 1 seats 1 and 3 (partners sit opposite)."""
    return seat % 2


class Shengji(Game):
    """One hand of 升级 Shengji for four seats. See the module doc for the phases."""

    name = "shengji"
    num_players = NUM_SEATS

    def __init__(self, seed: int | None = None, deal: Any = None, kitty: Any = None, **options: Any) -> None:
        super().__init__()
        self.options = o = resolve_options(**options)
        self.seed = new_seed() if seed is None else int(seed)
        self._rng = random.Random(self.seed)
        self.decks: int = o["decks"]
        self.hand_size, self.kitty_size = PACK_SIZES[self.decks]
        self.team_levels = [rank_of_text(x) for x in o["team_levels"]]
        self._fixed_declarer: int | None = o["declarer"]
        first = self._fixed_declarer if self._fixed_declarer is not None else 0
        self.level: int = self.team_levels[team_of(first)]
        """The level rank 打几 of this hand: that of the declarer's team."""
        self._level_ids = [card_id(Card(self.level, s)) for s in SUITS]
        self._deal_text: list[str] | None = None
        self._colours = bool(o["two_colours"])
        """``two_colours`` (§8): every card plays as its colour card (:data:`COLOUR_ID`)."""
        hands, kitty_ids = self._explicit_deal(deal, kitty) if deal is not None else self._random_deal()
        self._order_of_deal = [
            (s, hands[s][i]) for i in range(self.hand_size) for s in ((first + k) % NUM_SEATS for k in range(4))
        ]
        self.kitty: list[int] = kitty_ids
        self._counts = [[0] * NUM_IDS for _ in range(NUM_SEATS)]
        self._sizes = [0] * NUM_SEATS
        self._dealt = 0
        self._final_left = -1  # decisions left in the round after the last card; -1 while dealing
        self.declarations: list[tuple[int, tuple[int, ...]]] = []
        self._bid: Bid | None = None
        self._first_bidder: int | None = None
        self.trump_suit: str | None = None
        self.declarer: int | None = self._fixed_declarer
        self._t: TrumpOrder | None = None
        self.revealed_kitty_card: int | None = None
        self.buried: list[int] = []
        self._burier: int | None = None  # the seat burying / that buried the kitty last
        self._kitty_in: tuple[int, ...] = ()  # the kitty that seat picked up
        self._burials: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...] = ()
        """Finished burials: (seat, kitty picked up, cards buried) — several with ``kitty_steal``."""
        self._steal_left = 0  # decisions left in the kitty_steal round
        self._step = "deal"
        self._to_act: int | None = None
        # play
        self._trick: list[tuple[int, tuple[int, ...]]] = []
        self._lead_suit = -1
        self._lead_shape: tuple[int, ...] = ()
        self._lead_top = (0, 1)  # the lead's largest unit: pairs (a triple 1, a 泰坦尼克 2), cards
        self._lead_n = 0
        self._attempt: tuple[int, ...] | None = None  # a failed throw of this trick
        self.tricks: list[dict[str, Any]] = []
        self.trick_points = 0  # points the defenders took in tricks
        self.penalty_points = 0  # points to the defenders from failed throws (− for their own)
        self._scores: tuple[int, ...] | None = None
        self.result: dict[str, Any] | None = None
        self._deal_one()

    # ------------------------------------------------------------------ dealing
    def _random_deal(self) -> tuple[list[list[int]], list[int]]:
        ids = [card_id(c) for c in packs(self.decks)]
        self._rng.shuffle(ids)
        if self._colours:
            ids = [COLOUR_ID[c] for c in ids]
        n = self.hand_size
        hands = [ids[s * n : (s + 1) * n] for s in range(NUM_SEATS)]
        return hands, ids[NUM_SEATS * n :]

    def _explicit_deal(self, deal: Any, kitty: Any) -> tuple[list[list[int]], list[int]]:
        deal = list(deal)
        if len(deal) == NUM_SEATS + 1 and kitty is None:
            deal, kitty = deal[:NUM_SEATS], deal[NUM_SEATS]
        if len(deal) != NUM_SEATS:
            raise IllegalAction(
                f"a Shengji deal has {NUM_SEATS} hands (and kitty=...), not {len(deal)}", code="bad_deal"
            )
        pool = counts_of(self._cid(c) for c in packs(self.decks))
        hands: list[list[int]] = []
        for seat, h in enumerate(deal):
            ids = [self._cid(c) for c in parse_cards(h)]
            if len(ids) != self.hand_size:
                raise IllegalAction(
                    f"seat {seat} is dealt {len(ids)} cards; with {self.decks} pack(s) each gets {self.hand_size}",
                    code="bad_deal",
                )
            hands.append(ids)
        given = [c for h in hands for c in h]
        if kitty is not None:
            kitty_ids = [self._cid(c) for c in parse_cards(kitty)]
            if len(kitty_ids) != self.kitty_size:
                raise IllegalAction(f"the kitty has {self.kitty_size} cards, not {len(kitty_ids)}", code="bad_deal")
            given += kitty_ids
        for c in given:
            if pool.get(c, 0) <= 0:
                raise IllegalAction(f"the deal holds more {ID_TEXT[c]} than {self.decks} pack(s) have", code="bad_deal")
            pool[c] -= 1
        if kitty is None:  # the cards left over, in an order drawn from the seed
            kitty_ids = [c for c in sorted(pool) for _ in range(pool[c])]
            self._rng.shuffle(kitty_ids)
        self._deal_text = [" ".join(ID_TEXT[c] for c in h) for h in hands] + [" ".join(ID_TEXT[c] for c in kitty_ids)]
        return hands, kitty_ids

    def _cid(self, card: Card) -> int:
        """The card id a card plays as (its colour card with ``two_colours``)."""
        c = card_id(card)
        return COLOUR_ID[c] if self._colours else c

    def _deal_one(self) -> None:
        seat, c = self._order_of_deal[self._dealt]
        self._dealt += 1
        self._counts[seat][c] += 1
        self._sizes[seat] += 1
        self._to_act = seat

    # ------------------------------------------------------------------ the interface
    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def phase(self) -> str:
        """``deal`` (declarations), ``bury``, ``steal`` (``kitty_steal`` round), ``play`` or ``over``."""
        return self._step

    @property
    def order(self) -> TrumpOrder | None:
        """The hand's card order, once trump is settled (after the deal)."""
        return self._t

    @property
    def declaration(self) -> Bid | None:
        """The declaration standing now."""
        return self._bid

    def hand(self, seat: int) -> list[Card]:
        cnt = self._counts[seat]
        ids = [c for c in range(NUM_IDS) for _ in range(cnt[c])]
        if self._t is not None:
            ids.sort(key=self._t.sort_key)
        return [ID_CARD[c] for c in ids]

    def is_leading(self) -> bool:
        """Is the seat to act leading a trick?"""
        return self._step == "play" and not self._trick

    def legal_actions(self) -> Sequence[Any]:
        seat = self._to_act
        if seat is None:
            return []
        step = self._step
        if step == "play":
            t = self._t
            assert t is not None
            cnt = self._counts[seat]
            if not self._trick:
                return LeadPlays([[(c, cnt[c]) for c in t.kinds[s] if cnt[c]] for s in range(5)])
            return legal_follows(self._lead_suit, self._lead_shape, self._lead_n, cnt, t)
        if step == "deal" or step == "steal":
            return [NO, *self._declarations(seat)]
        if step == "bury":
            cnt = self._counts[seat]
            return [Declare("bury", ID_TEXT[c]) for c in range(NUM_IDS) if cnt[c]]
        return []

    def _declarations(self, seat: int) -> list[Declare]:
        """Declarations ``seat`` may make now (§4)."""
        cnt = self._counts[seat]
        bid = self._bid
        floor = bid.strength if bid is not None else 0
        own = bid is not None and bid.seat == seat and not self.options["self_overturn"]
        out: list[Declare] = []
        for si, c in enumerate(self._level_ids):
            k = cnt[c]
            shown = self._jokers_shown(cnt, SUITS[si])
            if not k or not shown or (own and bid is not None and bid.suit != SUITS[si]):
                continue
            for n in range(1, k + 1):
                if strength(n, False, False) > floor:
                    for j in shown:
                        out.append(Declare("declare", " ".join(([j] if j else []) + [ID_TEXT[c]] * n)))
        if own and bid is not None and bid.suit is not None:
            return out
        for c, big in ((SJ_ID, False), (BJ_ID, True)):
            for n in range(2, cnt[c] + 1):
                if strength(n, True, big) > floor:
                    out.append(Declare("declare", " ".join([ID_TEXT[c]] * n)))
        return out

    def _jokers_shown(self, cnt: list[int], suit: str) -> list[str]:
        """The jokers ``cnt`` may show with level cards of ``suit`` (``[""]``: none needed)."""
        how = self.options["declare_with_joker"]
        if not how:
            return [""]
        return [ID_TEXT[j] for j in (BJ_ID, SJ_ID) if cnt[j] and joker_may_show(how, j == BJ_ID, suit)]

    def _could_declare(self, seat: int) -> bool:
        """Does ``seat`` hold a declaration at all — one that would stand on an empty table?"""
        cnt = self._counts[seat]
        if cnt[SJ_ID] >= 2 or cnt[BJ_ID] >= 2:
            return True
        return any(cnt[c] and self._jokers_shown(cnt, SUITS[si]) for si, c in enumerate(self._level_ids))

    # ------------------------------------------------------------------ parsing
    def parse_action(self, text: str) -> Any:
        t = " ".join(action_text(text).split())
        word, _, arg = t.partition(" ")
        low = word.lower()
        if low == "no":
            if arg:
                raise IllegalAction("no takes no argument", code="no_argument", word="no")
            return NO
        if low == "declare":
            ids = sorted(self._cid(c) for c in parse_cards(arg))
            if not ids:
                raise IllegalAction(
                    "declare needs the cards shown, e.g. 'declare Th' or 'declare SJ SJ'",
                    code="needs_card",
                    word="declare",
                    example="SJ SJ",
                )
            return Declare("declare", " ".join(ID_TEXT[c] for c in ids))
        if low == "bury":
            cards = parse_cards(arg)
            if len(cards) != 1:
                raise IllegalAction("bury one card at a time, e.g. 'bury 7h'", code="bury_one")
            return Declare("bury", ID_TEXT[self._cid(cards[0])])
        if not t:
            raise IllegalAction(
                "empty action: type cards to play (e.g. 'Ks Ks'), 'no', 'declare …' or 'bury …'", code="empty_action"
            )
        return make_play([self._cid(c) for c in parse_cards(t)])

    # ------------------------------------------------------------------ checking
    def _check(self, action: Any) -> None:
        seat = self._to_act
        assert seat is not None
        step = self._step
        if step == "play":
            if not isinstance(action, Play):
                raise IllegalAction(
                    f"{action} is not a play: during play type cards, e.g. 'Ks Ks'",
                    code="not_a_decision",
                    action=str(action),
                    step=step,
                )
            problem = self._play_problem(seat, action.cards)
            if problem is not None:
                raise problem
            return
        if not isinstance(action, Declare):
            what = "'bury <card>'" if step == "bury" else "'no' or 'declare <cards>'"
            raise IllegalAction(
                f"{action} is not a decision of the {step} phase: answer {what}",
                code="not_a_decision",
                action=str(action),
                step=step,
            )
        if step == "deal" or step == "steal":
            if action == NO:
                return
            if action.name != "declare":
                when = "deal" if step == "deal" else "kitty steal 抢底 round"
                raise IllegalAction(
                    f"{action} is not a decision of the {when}: answer 'no' or 'declare <cards>'",
                    code="not_a_decision",
                    action=str(action),
                    step=step,
                )
            legal = self._declarations(seat)
            if action not in legal:
                raise self._declare_problem(seat, action, legal)
            return
        if action.name != "bury":
            raise IllegalAction(
                f"{action} is not a decision now: the declarer buries cards, e.g. 'bury 7h'",
                code="not_a_decision",
                action=str(action),
                step=step,
            )
        if not self._counts[seat][card_id(Card.parse(action.arg))]:
            raise IllegalAction(f"you do not hold {action.arg}", code="not_in_hand", cards=action.arg)

    def _declare_problem(self, seat: int, a: Declare, legal: list[Declare]) -> IllegalAction:
        """Why the declaration ``a`` is not among ``legal``: the error to raise."""
        ids = [card_id(c) for c in parse_cards(a.arg)]
        cnt = self._counts[seat]
        shown = a.arg
        level_text = rank_text(self.level)
        if self.options["declare_with_joker"]:
            level = [c for c in ids if c not in (SJ_ID, BJ_ID)]
            if level and (len(ids) - len(level) != 1 or len(set(level)) != 1):
                text = (
                    f"{shown} is not a declaration: with declare_with_joker show one joker plus level cards "
                    "of one suit (or identical jokers for no-trump)"
                )
                return IllegalAction(text, "bad_declaration", cards=shown)
            if level and ID_RANK[level[0]] != self.level:
                text = f"{shown} is not a declaration: the level is {level_text}"
                return IllegalAction(text, "wrong_level", cards=shown, level=level_text)
            if not level and len(ids) == 1:
                text = "a single joker declares nothing: show it with a level card, or show a pair of identical jokers"
                return IllegalAction(text, "single_joker")
            if any(cnt[c] < k for c, k in counts_of(ids).items()):
                return IllegalAction(f"you do not hold {shown}", "not_in_hand", cards=shown)
            jokers = [c for c in ids if c in (SJ_ID, BJ_ID)]
            suit = SUITS[ID_SUIT[level[0]]] if level else ""
            if level and not joker_may_show(self.options["declare_with_joker"], jokers[0] == BJ_ID, suit):
                text = (
                    f"{shown}: the big joker declares a red suit (♥ ♦), the small joker a black suit (♠ ♣)"
                    " (declare_with_joker=by_colour)"
                )
                return IllegalAction(text, "joker_colour", cards=shown)
            if level:
                ids = level
        if len(set(ids)) != 1:
            text = f"{shown} is not a declaration: show identical level cards (or a joker pair)"
            return IllegalAction(text, "bad_declaration", cards=shown)
        c = ids[0]
        if c not in (SJ_ID, BJ_ID) and ID_RANK[c] != self.level:
            text = f"{shown} is not a declaration: the level is {level_text}"
            return IllegalAction(text, "wrong_level", cards=shown, level=level_text)
        if c in (SJ_ID, BJ_ID) and len(ids) < 2:
            text = "a single joker declares nothing: no-trump needs a pair of identical jokers"
            return IllegalAction(text, "single_joker")
        if cnt[c] < len(ids):
            return IllegalAction(f"you do not hold {shown}", "not_in_hand", cards=shown)
        bid = self._bid
        if bid is not None and bid.seat == seat and not self.options["self_overturn"]:
            text = "you may not overturn your own declaration (自反 is off): only reinforce it with more of its cards"
            return IllegalAction(text, "own_declaration")
        if not legal:
            text = "you have nothing that beats the declaration standing"
            return IllegalAction(text, "weak_declaration", cards=shown)
        text = f"{shown} does not beat the declaration standing: a declaration must be strictly stronger"
        return IllegalAction(text, "weak_declaration", cards=shown)

    def _play_problem(self, seat: int, play: tuple[int, ...]) -> IllegalAction | None:
        """Why ``seat`` may not play ``play`` (card ids) now: the error to raise; None when it may."""
        t = self._t
        assert t is not None
        cnt = self._counts[seat]
        if not play:
            return IllegalAction("a play needs at least one card", "empty_play")
        if self._trick:
            return follow_problem(self._lead_suit, self._lead_shape, self._lead_n, cnt, play, t)
        missing = not_held(counts_of(play), cnt)
        if missing is not None:
            return missing
        suits = {t.psuit[c] for c in play}
        if len(suits) > 1:
            names = " and ".join(SUIT_NAMES[s] for s in sorted(suits))
            text = f"a lead is cards of one suit (all trumps are one suit): this play mixes {names}"
            return IllegalAction(text, "mixed_suits", suits=names)
        return None

    # ------------------------------------------------------------------ applying
    def _do(self, action: Any) -> None:
        seat = self._to_act
        assert seat is not None
        step = self._step
        if step == "play":
            self._do_play(seat, action.cards)
        elif step == "deal":
            if action != NO:
                self._do_declare(seat, action)
            self._next_deal_decision()
        elif step == "steal":
            if action != NO:
                self._do_declare(seat, action)
                self._steal(seat)
            else:
                self._steal_left -= 1
                self._to_act = (seat + 1) % NUM_SEATS
                if not self._steal_left:
                    self._start_play()
        else:
            c = card_id(Card.parse(action.arg))
            self._counts[seat][c] -= 1
            self._sizes[seat] -= 1
            self.buried.append(c)
            if len(self.buried) == self.kitty_size:
                self._burials += ((seat, self._kitty_in, tuple(self.buried)),)
                if self.options["kitty_steal"]:
                    self._step = "steal"
                    self._steal_left = NUM_SEATS
                    self._to_act = (seat + 1) % NUM_SEATS
                else:
                    self._start_play()

    def _start_play(self) -> None:
        """The declarer 庄家 leads the first trick (also after a kitty steal 抢底)."""
        self._step = "play"
        self._to_act = self._declarer_seat

    def _steal(self, seat: int) -> None:
        """``kitty_steal`` 抢底: the stronger declaration just made changes trump; its maker
        picks up the buried kitty and buries in turn. The declarer 庄家 stays."""
        bid = self._bid
        assert bid is not None
        self.trump_suit = bid.suit
        self._t = trump_order(self.trump_suit, self.level, self.options["twos_trump"], self.options["triples"])
        self._take_kitty(seat, self.buried)
        self.buried = []

    def _take_kitty(self, seat: int, kitty: list[int]) -> None:
        for c in kitty:
            self._counts[seat][c] += 1
        self._sizes[seat] += len(kitty)
        self._burier = seat
        self._kitty_in = tuple(kitty)
        self._step = "bury"
        self._to_act = seat

    def _do_declare(self, seat: int, a: Declare) -> None:
        ids = tuple(card_id(c) for c in parse_cards(a.arg))
        level = [c for c in ids if c not in (SJ_ID, BJ_ID)]  # with declare_with_joker: one joker + level cards
        c = level[0] if level else ids[0]
        joker = c in (SJ_ID, BJ_ID)
        suit = None if joker else SUITS[ID_SUIT[c]]
        self._bid = Bid(seat, suit, strength(len(level) if level else len(ids), joker, c == BJ_ID), ids)
        if self._first_bidder is None:
            self._first_bidder = seat
        self.declarations.append((seat, ids))

    def _next_deal_decision(self) -> None:
        if self._final_left < 0:
            if self._dealt < len(self._order_of_deal):
                self._deal_one()
                return
            self._final_left = NUM_SEATS
        if self._final_left == 0:
            self._settle_trump()
            return
        assert self._to_act is not None
        self._final_left -= 1
        if self._final_left == NUM_SEATS - 1:
            last = self._order_of_deal[-1][0]
            self._to_act = (last + 1) % NUM_SEATS
        else:
            self._to_act = (self._to_act + 1) % NUM_SEATS

    def _settle_trump(self) -> None:
        bid = self._bid
        o = self.options
        d = self._fixed_declarer
        if o["cannot_declare_passes_deal"] and d is not None:
            if not (self._could_declare(d) or self._could_declare((d + 2) % NUM_SEATS)):
                self._pass_deal(d)
                return
        if bid is not None:
            self.trump_suit = bid.suit
            if self._fixed_declarer is None:
                assert self._first_bidder is not None
                self.declarer = bid.seat if o["overturn_changes_declarer"] else self._first_bidder
        else:
            if o["no_bid"].startswith("kitty_card:"):
                c = self.kitty[int(o["no_bid"].split(":")[1]) - 1]
                self.revealed_kitty_card = c
                self.trump_suit = None if c in (SJ_ID, BJ_ID) else SUITS[ID_SUIT[c]]
            if self._fixed_declarer is None:
                self.declarer = 0
        d = self.declarer
        assert d is not None
        self._t = trump_order(self.trump_suit, self.level, o["twos_trump"], o["triples"])
        self._take_kitty(d, self.kitty)

    def _do_play(self, seat: int, play: tuple[int, ...]) -> None:
        t = self._t
        assert t is not None
        if not self._trick:
            self._attempt = None
            units = decompose(counts_of(play), t)
            if len(units) > 1:
                suit = t.psuit[play[0]]
                others = [suit_counts(self._counts[s], suit, t) for s in range(NUM_SEATS) if s != seat]
                fu = failed_unit(units, others, t)
                if fu is not None:
                    self._attempt = play
                    play = tuple(sorted(fu.cards))
                    units = [fu]
                    pen = self.options["throw_penalty"]
                    self.penalty_points += -pen if team_of(seat) != team_of(self._declarer_seat) else pen
            self._lead_suit = t.psuit[play[0]]
            self._lead_shape = shape_of(units)
            self._lead_top = (units[0].triples or units[0].pairs, units[0].size)
            self._lead_n = len(play)
        cnt = self._counts[seat]
        for c in play:
            cnt[c] -= 1
        self._sizes[seat] -= len(play)
        self._trick.append((seat, play))
        if len(self._trick) < NUM_SEATS:
            self._to_act = (seat + 1) % NUM_SEATS
            return
        self._end_trick()

    @property
    def _declarer_seat(self) -> int:
        d = self.declarer
        assert d is not None
        return d

    def _end_trick(self) -> None:
        t = self._t
        assert t is not None
        plays = [p for _, p in self._trick]
        w = winning_index(plays, t, self.options["throw_evaluation"])
        winner = self._trick[w][0]
        points = sum(POINTS[c] for p in plays for c in p)
        defenders = team_of(winner) != team_of(self._declarer_seat)
        if defenders:
            self.trick_points += points
        entry: dict[str, Any] = {
            "leader": self._trick[0][0],
            "plays": [{"seat": s, "cards": " ".join(ID_TEXT[c] for c in p)} for s, p in self._trick],
            "winner": winner,
            "points": points,
        }
        if self._attempt is not None:
            entry["failed_throw"] = " ".join(ID_TEXT[c] for c in self._attempt)
        self.tricks.append(entry)
        last_trick = self._trick
        self._trick = []
        if self._sizes[winner]:
            self._to_act = winner
            return
        self._end_hand(winner, defenders, last_trick[w][1])

    def _end_hand(self, winner: int, defenders: bool, winning_play: tuple[int, ...]) -> None:
        t = self._t
        assert t is not None
        o = self.options
        d = self._declarer_seat
        kitty_points = sum(POINTS[c] for c in self.buried)
        mult = last_trick_multiplier(o["kitty_multiplier"], self._lead_top, len(self._lead_shape) > 1, winning_play, t)
        bonus = kitty_points * mult if defenders else 0
        total = self.trick_points + bonus + self.penalty_points
        side, n = level_change(total, self.decks, o["level_table"], o["level_step"])
        up_team = team_of(d) if side == 0 else 1 - team_of(d)
        self._scores = tuple(n if team_of(s) == up_team else -n for s in range(NUM_SEATS))
        rungs = ladder(o["levels"])
        levels = list(self.team_levels)
        levels[up_team] = climb(rungs, levels[up_team], n)
        jack = o["jack_reset"] and self.level == 11 and defenders and any(ID_RANK[c] == 11 for c in winning_play)
        if jack:
            levels[team_of(d)] = rungs[0]
        won = side == 0 and self.level == rank_of_text(o["win_at"])
        self.result = {
            "declarer": d,
            "defender_points": total,
            "trick_points": self.trick_points,
            "kitty_points": kitty_points,
            "kitty_multiplier": mult,
            "kitty_bonus": bonus,
            "penalty_points": self.penalty_points,
            "last_trick_winner": winner,
            "team_up": up_team,
            "levels_up": n,
            "declarers_hold": side == 0,
            "team_levels": [rank_text(x) for x in levels],
            "jack_reset": bool(jack),
            "next_declarer": (d + 2) % NUM_SEATS if side == 0 else (d + 1) % NUM_SEATS,
            "match_winner": team_of(d) if won else None,
        }
        self._step = "over"
        self._to_act = None

    def _pass_deal(self, d: int) -> None:
        """``cannot_declare_passes_deal`` 亮不起牌: the declarer's team holds no declaration,
        so the hand is void — nobody scores, no level changes, every declaration of the deal
        lapses — and the declarer's next player 下家 (the other team) declares the next hand,
        at that team's own level (as after a take-over 上台 without a level)."""
        self.declarer = d
        self._scores = (0,) * NUM_SEATS
        self.result = {
            "declarer": d,
            "deal_passed": True,
            "defender_points": 0,
            "trick_points": 0,
            "kitty_points": 0,
            "kitty_multiplier": 1,
            "kitty_bonus": 0,
            "penalty_points": 0,
            "last_trick_winner": None,
            "team_up": 1 - team_of(d),
            "levels_up": 0,
            "declarers_hold": False,
            "team_levels": [rank_text(x) for x in self.team_levels],
            "jack_reset": False,
            "next_declarer": (d + 1) % NUM_SEATS,
            "match_winner": None,
        }
        self._step = "over"
        self._to_act = None

    # ------------------------------------------------------------------ match support
    @property
    def match_over(self) -> bool:
        """Has a team won the match in this hand (declarers winning at ``win_at``)?"""
        return self.result is not None and self.result["match_winner"] is not None

    def next_hand_options(self) -> dict[str, Any]:
        """Options of the next hand of a match: the new team levels and declarer (§5)."""
        if self.result is None:
            raise IllegalAction("the hand is not over yet", code="not_over")
        if self.match_over:
            team = self.result["match_winner"]
            raise IllegalAction(
                f"the match is over: team {team}+{team + 2} won at {self.options['win_at']}", code="match_over"
            )
        o = dict(self.options)
        o["team_levels"] = list(self.result["team_levels"])
        o["declarer"] = self.result["next_declarer"]
        return o

    # ------------------------------------------------------------------ record, clone
    def _record_setup(self) -> dict[str, Any]:
        opts = dict(self.options)
        opts["team_levels"] = list(opts["team_levels"])
        return {"options": opts, "seed": self.seed, "deal": self._deal_text}

    def clone(self) -> Shengji:
        g = object.__new__(Shengji)
        d = g.__dict__
        d.update(self.__dict__)
        g._log = list(self._log)
        g._rng = random.Random(0)
        g._rng.setstate(self._rng.getstate())
        g._counts = [list(c) for c in self._counts]
        g._sizes = list(self._sizes)
        g.declarations = list(self.declarations)
        g.buried = list(self.buried)
        g._trick = list(self._trick)
        g.tricks = list(self.tricks)
        g.team_levels = list(self.team_levels)
        g.options = dict(self.options)
        return g

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator): its own cards, every card count,
        the declarations shown, trump and levels, every trick played, the defenders'
        points; the declarer also sees the kitty he picked up and what he buried. At the
        end the buried kitty is shown to all with its multiplier. Never another hand.

        When the hand is over: ``kitty`` (the buried cards), ``result`` (the details of
        :meth:`_end_hand`), ``scores``, ``hands_left`` (per seat, the cards still held:
        all empty) and ``score_detail`` = ``{"defender_points": n, "trick_points": n,
        "penalty_points": n, "kitty_points": n, "kitty_multiplier": m, "kitty_counted": n,
        "step": n, "take_over_at": n, "level_changes": {"team": t, "levels": n,
        "declarers_hold": bool}}`` — the defenders' points are trick points + kitty counted
        (kitty points × multiplier when they won the last trick, else 0) + penalties; from
        ``take_over_at`` points they take over, and each ``step`` points more is a level
        (:func:`~paiju.shengji.scoring.level_change`)."""
        over = self._step == "over"
        d = self.declarer
        v: dict[str, Any] = {
            "game": self.name,
            "seat": seat,
            "phase": self._step,
            "to_act": self._to_act,
            "options": {k: (list(x) if isinstance(x, list) else x) for k, x in self.options.items()},
            "level": rank_text(self.level),
            "team_levels": [rank_text(x) for x in self.team_levels],
            "declarer": d if self._step != "deal" or self._fixed_declarer is not None else None,
            "trump_suit": self.trump_suit if self._t is not None else None,
            "trump_settled": self._t is not None,
            "hand": [str(c) for c in self.hand(seat)] if seat is not None else None,
            "hand_counts": list(self._sizes),
            "cards_dealt": self._dealt,
            "declarations": [{"seat": s, "cards": " ".join(ID_TEXT[c] for c in ids)} for s, ids in self.declarations],
            "declaration": (
                {"seat": self._bid.seat, "cards": " ".join(ID_TEXT[c] for c in self._bid.cards)}
                if self._bid is not None
                else None
            ),
            "revealed_kitty_card": (
                ID_TEXT[self.revealed_kitty_card] if self.revealed_kitty_card is not None else None
            ),
            "kitty_size": self.kitty_size,
            "burier": self._burier,  # whose burial the kitty is (public: every burial is seen made)
            "trick": [{"seat": s, "cards": " ".join(ID_TEXT[c] for c in p)} for s, p in self._trick],
            "failed_throw": (
                " ".join(ID_TEXT[c] for c in self._attempt) if self._trick and self._attempt is not None else None
            ),
            "tricks": list(self.tricks),  # the dicts are shared: do not mutate
            "defender_points": self.trick_points,
            "leading": self.is_leading(),
            "penalty_points": self.penalty_points,
        }
        if seat is not None and seat == self._burier:
            v["kitty_received"] = [ID_TEXT[c] for c in self._kitty_in]
            v["buried"] = [ID_TEXT[c] for c in self.buried]
        elif seat is not None:
            mine = [b for b in self._burials if b[0] == seat]
            if mine:  # an earlier burial of this seat (kitty_steal): what it picked up and buried
                v["kitty_received"] = [ID_TEXT[c] for c in mine[-1][1]]
                v["buried"] = [ID_TEXT[c] for c in mine[-1][2]]
        if seat is not None and seat == self._to_act:
            legal = self.legal_actions()
            v["legal_count"] = len(legal)
            if len(legal) <= MAX_LISTED:
                v["legal_actions"] = [str(a) for a in legal]
        if over:
            assert self.result is not None
            v["kitty"] = [ID_TEXT[c] for c in self.buried]
            v["result"] = dict(self.result)
            v["scores"] = list(self.scores)
            v["hands_left"] = [[str(c) for c in self.hand(s)] for s in range(NUM_SEATS)]
            r = self.result
            step = step_points(self.decks, self.options["level_step"])
            v["score_detail"] = {
                "defender_points": r["defender_points"],
                "trick_points": r["trick_points"],
                "penalty_points": r["penalty_points"],
                "kitty_points": r["kitty_points"],
                "kitty_multiplier": r["kitty_multiplier"],
                "kitty_counted": r["kitty_bonus"],
                "step": step,
                "take_over_at": take_over_points(self.decks),
                "level_changes": {
                    "team": r["team_up"],
                    "levels": r["levels_up"],
                    "declarers_hold": r["declarers_hold"],
                },
            }
        return v
