"""The 双扣 Shuangkou state machine: deal → play → scoring, every decision a play or a
pass of the seat to act.

Four seats, partners opposite (team A: seats 0 and 2, team B: seats 1 and 3), turns in
seat order. The first leader is the ``first_lead`` option or a seat drawn from the seed.
A trick ends when the other players still holding cards have all passed since the last
play; the last player to play leads next, and if he has gone out the lead passes to his
partner 接风 (to the next player holding cards if the partner is out too). The hand ends
as soon as both players of a team are out.

Decisions where the spec is silent:

- [decision] The seed deal: the first leader is drawn from the seed *before* the shuffle
  (so a replay from the dealt cards draws the same leader), then the 108 cards are
  shuffled and dealt one at a time from seat 0.
- [decision] ``deal=`` may give any non-empty hands (fewer than 27 cards each is allowed, for
  puzzles and tests); the cards must exist in the 108-card deck; a bare rank takes a
  suit still in the deck (s, h, d, c order); marked jokers (``BJ*``) are Baohuang's and
  refused. The record always holds the dealt cards.
- [decision] A player who passed may play again when the turn comes back to him within
  the same trick (the trick ends only when all others passed *since the last play*).
- [decision] Nobody can beat the four jokers, but the others still pass one by one (no
  automatic pass).
- [decision] Which copies of a rank leave the hand is the engine's choice (suits never
  matter): the last copies in the hand's order. Suited cards written in an action must be
  in the hand, but only the rank composition is the action.
- At the end of the hand views show the result, the finishing order, the scores and
  the cards still held (``hands_left``: public once the hand is over).
- 接风 to "the next player holding cards" cannot happen with four seats: when both
  partners are out the hand is over. :func:`next_leader` implements it anyway.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from paiju.cards import SUITS, Card, format_cards, packs, parse_cards, take_suited
from paiju.errors import IllegalAction, reasons
from paiju.game import Game, action_text, new_seed
from paiju.shuangkou.combos import (
    NUM_STRENGTHS,
    PASS,
    STRENGTH_TEXT,
    LeadPlays,
    Pass,
    Play,
    composition,
    follow_plays,
    play_beats,
    strength,
    valid_plays,
    why_not_beats,
)
from paiju.shuangkou.options import resolve_options
from paiju.shuangkou.scoring import RESULT_NAMES, TEAM_NAMES, TEAMS, hand_result, hand_scores, partner, team_of

NUM_SEATS = 4

reasons(marked_card="{cards}: Shuangkou has no marked cards (BJ* and SJ* are Baohuang's)")


def deck_cards() -> list[Card]:
    """The 108 cards: two packs with their jokers."""
    return packs(2)


def next_leader(winner: int, cards_left: Sequence[int]) -> int:
    """Who leads after a trick whose last play was ``winner``'s: the winner while he holds
    cards; else his partner 接风; else the next seat after him holding cards."""
    if cards_left[winner]:
        return winner
    mate = partner(winner)
    if cards_left[mate]:
        return mate
    for k in range(1, NUM_SEATS):
        s = (winner + k) % NUM_SEATS
        if cards_left[s]:
            return s
    raise IllegalAction("nobody holds cards: there is no next leader", code="bad_argument")


def _card_key(c: Card) -> tuple[int, int]:
    return (strength(c), SUITS.index(c.suit) if c.suit else -1)


class Shuangkou(Game):
    """One hand of 双扣 Shuangkou for four seats. See the module doc for the decisions."""

    name = "shuangkou"
    num_players = NUM_SEATS

    def __init__(self, seed: int | None = None, deal: Any = None, **options: Any) -> None:
        super().__init__()
        self.options = resolve_options(**options)
        self.seed = new_seed() if seed is None else int(seed)
        o = self.options
        self._min_triple_run: int = o["min_triple_run"]
        self._four_jokers: bool = o["four_joker_bomb"]
        self._valid = valid_plays(self._min_triple_run, self._four_jokers)
        rng = random.Random(self.seed)
        lead = o["first_lead"]
        self.first_lead: int = rng.randrange(NUM_SEATS) if lead is None else lead
        hands = self._explicit_deal(deal) if deal is not None else self._random_deal(rng)
        self._dealt = [sorted(h, key=_card_key) for h in hands]
        self._cards: list[list[list[Card]]] = [[[] for _ in range(NUM_STRENGTHS)] for _ in range(NUM_SEATS)]
        for seat, hand in enumerate(self._dealt):
            for c in hand:
                self._cards[seat][strength(c)].append(c)
        self._counts = [[len(lst) for lst in h] for h in self._cards]
        self._sizes = [len(h) for h in self._dealt]
        self.finished: list[int] = []
        self.result: str | None = None
        self._scores: tuple[int, ...] | None = None
        self._events: list[dict[str, Any]] = [{"event": "deal", "first_lead": self.first_lead}]
        # the trick: who leads it, the play to beat and its seat, the seats still to answer
        self.leader = self.first_lead
        self._last: Play | None = None
        self._last_seat = -1
        self._circle: list[int] = []
        self.trick: list[dict[str, Any]] = []  # the plays of the current trick, as in views
        self._to_act: int | None = None
        self._new_trick(self.first_lead)

    # ------------------------------------------------------------------ dealing
    def _random_deal(self, rng: random.Random) -> list[list[Card]]:
        cards = deck_cards()
        rng.shuffle(cards)
        return [cards[s::NUM_SEATS] for s in range(NUM_SEATS)]  # one card at a time from seat 0

    def _explicit_deal(self, deal: Any) -> list[list[Card]]:
        if isinstance(deal, str) or not isinstance(deal, Sequence) or len(deal) != NUM_SEATS:
            raise IllegalAction(
                f"a Shuangkou deal is {NUM_SEATS} hands (one card list or card text per seat)", code="bad_deal"
            )
        hands = [parse_cards(h) for h in deal]
        pool = Counter(deck_cards())
        out: list[list[Card]] = [[] for _ in range(NUM_SEATS)]
        bare: list[tuple[int, Card]] = []
        for seat, hand in enumerate(hands):
            if not hand:
                raise IllegalAction(
                    f"seat {seat} is dealt no cards: every hand needs at least one card", code="bad_deal"
                )
            for c in hand:
                if c.marked:
                    raise IllegalAction(f"{c} is a Baohuang card: Shuangkou has no marked jokers", code="bad_deal")
                if not c.is_joker and c.suit is None:
                    bare.append((seat, c))
                    continue
                if pool[c] <= 0:
                    raise IllegalAction(f"the deal holds more than two {c}: there are two packs", code="bad_deal")
                pool[c] -= 1
                out[seat].append(c)
        for seat, c in bare:  # a bare rank takes a suit still in the deck
            card = take_suited(pool, c.rank)
            if card is None:
                raise IllegalAction(f"the deal holds more than 8 × {c.rank_text}: there are two packs", code="bad_deal")
            out[seat].append(card)
        return out

    # ------------------------------------------------------------------ the interface
    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def phase(self) -> str:
        """``play`` while tricks are played, ``over`` at the end (there is no setup)."""
        return "over" if self.result is not None else "play"

    def is_leading(self) -> bool:
        """Is the seat to act leading a trick (nothing to beat)?"""
        return self._to_act is not None and self._last is None

    @property
    def last_play(self) -> Play | None:
        """The play to beat, None when the seat to act leads."""
        return self._last

    def legal_actions(self) -> Sequence[Any]:
        seat = self._to_act
        if seat is None:
            return []
        if self._last is None:
            return LeadPlays(self._counts[seat], self._min_triple_run, self._four_jokers)
        acts: list[Any] = follow_plays(self._counts[seat], self._last, self._four_jokers)
        acts.append(PASS)
        return acts

    def hand(self, seat: int) -> list[Card]:
        self._check_seat(seat)
        return [c for lst in self._cards[seat] for c in lst]

    @staticmethod
    def _check_seat(seat: Any) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < NUM_SEATS:
            raise IllegalAction(f"seats are 0-{NUM_SEATS - 1}, not {seat!r}", code="bad_seat", seat=repr(seat))

    # ------------------------------------------------------------------ parsing and checking
    def parse_action(self, text: str) -> Any:
        """``pass`` (or ``p``), or a play as card text: bare ranks (``34567``, ``BJ BJ``) or
        suited cards, which must be in the hand of the seat to act."""
        t = action_text(text)
        if t.lower() in ("pass", "p"):
            return PASS
        if not t:
            raise IllegalAction(
                "empty action: type cards to play (e.g. '34567' or '99') or 'pass'", code="empty_action"
            )
        cards = parse_cards(t)
        if any(c.marked for c in cards):
            raise IllegalAction(
                f"{t!r}: Shuangkou has no marked cards (BJ* and SJ* are Baohuang's)", code="marked_card", cards=t
            )
        play = composition(cards, self._min_triple_run, self._four_jokers)
        seat = self._to_act
        named = Counter(c for c in cards if c.suit is not None)
        if named and seat is not None:
            held = Counter(self.hand(seat))
            for c, n in named.items():
                if held[c] < n:
                    text = f"{n} × {c}" if n > 1 else str(c)
                    raise IllegalAction(f"you do not hold {text}", code="not_in_hand", cards=format_cards([c] * n))
        return play

    def _check(self, action: Any) -> None:
        seat = self._to_act
        assert seat is not None
        if isinstance(action, Pass):
            if self._last is None:
                raise IllegalAction(
                    "you lead this trick: play something, you cannot pass", code="must_lead", action="pass"
                )
            return
        if not isinstance(action, Play):
            raise IllegalAction(
                f"{action!r} is not a Shuangkou action: type cards to play (e.g. '34567') or 'pass'",
                code="not_a_decision",
                action=repr(action),
                step=self.phase,
            )
        if action not in self._valid:
            raise self._invalid_reason(action)
        c = self._counts[seat]
        w = action.width
        for r in range(action.high - action.length + 1, action.high + 1):
            if c[r] < w:
                raise IllegalAction(
                    f"you do not hold {action}: you have {c[r]} × {STRENGTH_TEXT[r]}, it needs {w}",
                    code="not_in_hand",
                    cards=str(action),
                )
        if self._last is not None and not play_beats(action, self._last):
            raise why_not_beats(action, self._last)

    def _invalid_reason(self, p: Play) -> IllegalAction:
        """Why a hand-made :class:`Play` is not a play of this room (via its card text): the error to raise."""
        text = str(p)
        if text.startswith("<"):
            return IllegalAction(f"{text} is not a Shuangkou play", "not_a_play", cards=text)
        try:
            composition(parse_cards(text), self._min_triple_run, self._four_jokers)
        except IllegalAction as e:
            return e
        return IllegalAction(f"{p!r} is not a play", "not_a_play", cards=repr(p))

    # ------------------------------------------------------------------ applying
    def _do(self, action: Any) -> None:
        seat = self._to_act
        assert seat is not None
        if action.__class__ is Play:
            self._do_play(seat, action)
        else:
            self._events.append({"seat": seat, "action": "pass"})
            self._circle.pop(0)
            if self._circle:
                self._to_act = self._circle[0]
            else:
                self._end_trick()

    def _do_play(self, seat: int, p: Play) -> None:
        lists = self._cards[seat]
        counts = self._counts[seat]
        w = p.width
        taken: list[Card] = []
        for r in range(p.high - p.length + 1, p.high + 1):
            lst = lists[r]
            taken += lst[-w:]  # the last copies: suits never matter
            del lst[-w:]
            counts[r] -= w
        self._sizes[seat] -= w * p.length
        kind = self._valid[p]
        text, cards = str(p), format_cards(taken)
        self._events.append({"seat": seat, "action": text, "type": kind, "cards": cards})
        self.trick.append({"seat": seat, "play": text, "type": kind, "cards": cards})
        self._last, self._last_seat = p, seat
        if not self._sizes[seat]:
            self.finished.append(seat)
            self._events.append({"event": "finished", "seat": seat, "place": len(self.finished)})
            if partner(seat) in self.finished:  # both of a team are out
                self._end_hand()
                return
        sizes = self._sizes
        self._circle = [s for s in ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4) if sizes[s]]
        if self._circle:
            self._to_act = self._circle[0]
        else:
            self._end_trick()

    def _new_trick(self, leader: int) -> None:
        self.leader = leader
        self._last = None
        self._last_seat = -1
        self._circle = [leader]
        self.trick = []
        self._to_act = leader

    def _end_trick(self) -> None:
        winner = self._last_seat
        leader = next_leader(winner, self._sizes)
        self._events.append({"event": "trick", "winner": winner, "leader": leader})  # leader ≠ winner: 接风
        self._new_trick(leader)

    def _end_hand(self) -> None:
        o = self.options
        self.result = hand_result(self.finished)
        self._scores = hand_scores(
            self.finished,
            points_double=o["points_double"],
            points_single=o["points_single"],
            points_level=o["points_level"],
        )
        self._to_act = None
        self._circle = []
        self._events.append(
            {
                "event": "over",
                "result": self.result,
                "winners": list(self.winners),
                "scores": list(self._scores),
            }
        )

    @property
    def winners(self) -> tuple[int, int]:
        """The seats of the winning team (the first finisher's), once the hand is over."""
        if self.result is None:
            raise IllegalAction("the hand is not over yet: there are no winners", code="not_over")
        return TEAMS[team_of(self.finished[0])]

    # ------------------------------------------------------------------ match support
    def next_hand_options(self, abnormal: bool = False) -> dict[str, Any]:
        """Options of the next hand of a match (spec §2): after 单扣 or 平扣 the first
        finisher leads first; after 双扣, or after a hand that ended abnormally (a player
        left: ``abnormal=True``, for the server), a seat drawn from the next hand's seed."""
        if self.result is None and not abnormal:
            raise IllegalAction("the hand is not over yet", code="not_over")
        o = dict(self.options)
        o["first_lead"] = None if abnormal or self.result == "double" else self.finished[0]
        return o

    # ------------------------------------------------------------------ record, clone
    def _record_setup(self) -> dict[str, Any]:
        return {"options": dict(self.options), "seed": self.seed, "deal": [format_cards(h) for h in self._dealt]}

    def clone(self) -> Shuangkou:
        g = object.__new__(Shuangkou)
        g.__dict__.update(self.__dict__)
        g._log = list(self._log)
        g._events = list(self._events)  # the event dicts are never changed once logged
        g._cards = [[list(lst) for lst in h] for h in self._cards]
        g._counts = [list(c) for c in self._counts]
        g._sizes = list(self._sizes)
        g.finished = list(self.finished)
        g._circle = list(self._circle)
        g.trick = list(self.trick)
        return g

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator): its own cards, everyone's card
        count, the trick, every play with its physical cards, passes, tricks, who is out
        and, at the end, the result and scores — never another seat's cards while the hand goes on.

        When the hand is over: ``result`` / ``result_name``, ``winners``, ``scores``,
        ``hands_left`` (per seat, the card texts still held) and ``score_detail`` =
        ``{"result": "double" | "single" | "level", "factor": n, "winners": [seat, seat],
        "places": [seats in finishing order]}`` — each winner scores +factor, each loser
        −factor."""
        if seat is not None:
            self._check_seat(seat)
        last = self.trick[-1] if self.trick and self._last is not None else None
        v: dict[str, Any] = {
            "game": self.name,
            "seat": seat,
            "phase": self.phase,
            "step": self.phase,
            "to_act": self._to_act,
            "options": dict(self.options),
            "hand": [str(c) for c in self.hand(seat)] if seat is not None else None,
            "hand_counts": list(self._sizes),
            "teams": {name: list(seats) for name, seats in zip(TEAM_NAMES, TEAMS)},
            "team": TEAM_NAMES[team_of(seat)] if seat is not None else None,
            "partner": partner(seat) if seat is not None else None,
            "first_lead": self.first_lead,
            "leader": self.leader if self._to_act is not None else None,
            "trick": [dict(e) for e in self.trick],
            "last_play": dict(last) if last is not None else None,
            "finished": list(self.finished),
            "events": list(self._events),  # public events; the dicts are shared, do not mutate
        }
        if seat is not None and seat == self._to_act:
            v["legal_actions"] = [str(a) for a in self.legal_actions()]
        if self.result is not None:
            v["result"] = self.result
            v["result_name"] = RESULT_NAMES[self.result]
            v["winners"] = list(self.winners)
            v["scores"] = list(self.scores)
            v["hands_left"] = [[str(c) for c in self.hand(s)] for s in range(NUM_SEATS)]
            v["score_detail"] = {
                "result": self.result,
                "factor": abs(self.scores[self.winners[0]]),
                "winners": list(self.winners),
                "places": list(self.finished),
            }
        return v
