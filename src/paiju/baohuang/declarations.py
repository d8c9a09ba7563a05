"""The decisions of a Baohuang 保皇 hand before play: tribute, emperor, guard and the
declarations, every one an action of one seat.

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

from typing import Any

from paiju.baohuang.hand import EMPEROR_CARD, GUARD_CARD, NUM_SEATS, HandState, _card_key
from paiju.baohuang.plays import BJ, SJ, Declare, strength
from paiju.cards import Card
from paiju.errors import IllegalAction

ACCEPT = Declare("accept")
ABDICATE = Declare("abdicate")
OPEN_SOLO = Declare("open_solo")
GRAB = Declare("grab")
REVEAL = Declare("reveal")
REBEL = Declare("rebel")
KICK = Declare("kick")
NO = Declare("no")


class Declarations(HandState):
    """The pre-play steps of a hand: what each seat may answer, and what an answer does."""

    # ------------------------------------------------------------------ what may be answered
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

    def _declaration_problem(self, seat: int, action: Any) -> IllegalAction | None:
        """Why ``seat`` may not take ``action`` in this declaration step: the error to raise; None when it may."""
        legal = self._declarations(seat)
        if not isinstance(action, Declare):
            return IllegalAction(
                f"{action} is not a decision of this step ({self._step}); choose one of: {', '.join(map(str, legal))}",
                code="not_a_decision",
                action=str(action),
                step=self._step,
            )
        if action not in legal:
            choices = ", ".join(map(str, legal))
            return IllegalAction(
                f"seat {seat} cannot {action} now ({self._step}); choose one of: {choices}",
                code="not_open",
                action=str(action),
                step=self._step,
                choices=choices,
            )
        return None

    # ------------------------------------------------------------------ emperor
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

    # ------------------------------------------------------------------ declaration rounds
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

    # ------------------------------------------------------------------ tribute
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
