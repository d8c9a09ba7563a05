"""The Baohuang 保皇 state machine: deal → (tribute) → emperor → guard → declarations →
play → scoring, every decision an action of one seat.

:class:`Baohuang` is the game's interface (docs/api.md): what to act on, parsing, checking and
doing an action, the record, the clone and the views. The rules it dispatches to are the
phases, one module each: ``hand.py`` (the deck, the deal, the cards in hands),
``declarations.py`` (every decision before play, in the order of spec §3.4),
``tricks.py`` (the card play) and ``ending.py`` (places, scores, the next hand).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from paiju.baohuang.declarations import ABDICATE, ACCEPT, GRAB, KICK, NO, OPEN_SOLO, REBEL, REVEAL, Declarations
from paiju.baohuang.ending import PLACE_NAMES, HandEnd
from paiju.baohuang.hand import EMPEROR_CARD, GUARD_CARD, NUM_SEATS, HandState, _card_key, deck_cards
from paiju.baohuang.plays import YIELD, Declare, Play
from paiju.baohuang.tricks import LeadPlays, Tricks
from paiju.cards import Card
from paiju.errors import IllegalAction
from paiju.game import PASS, action_text

__all__ = [
    "ABDICATE",
    "ACCEPT",
    "EMPEROR_CARD",
    "GRAB",
    "GUARD_CARD",
    "KICK",
    "NO",
    "NUM_SEATS",
    "OPEN_SOLO",
    "PLACE_NAMES",
    "REBEL",
    "REVEAL",
    "Baohuang",
    "HandState",
    "LeadPlays",
    "_card_key",
    "deck_cards",
]


class Baohuang(Declarations, Tricks, HandEnd):
    """One hand of 保皇 Baohuang for five seats. See the module doc for the decisions."""

    # ------------------------------------------------------------------ the interface
    @property
    def phase(self) -> str:
        """``setup`` (pre-play decisions), ``play`` or ``over``; :attr:`step` is finer."""
        if self._step == "over":
            return "over"
        return "play" if self._step == "play" else "setup"

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

    # ------------------------------------------------------------------ checking and applying
    def _check(self, action: Any) -> None:
        seat = self._to_act
        assert seat is not None
        if self._step == "play":
            problem = self._play_problem(seat, action)
        else:
            problem = self._declaration_problem(seat, action)
        if problem is not None:
            raise problem

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
