"""The card play of a Baohuang 保皇 hand: leads, follows, passes and yields 让牌, tricks.

A play is checked here (:meth:`Tricks._play_problem`), listed here (:class:`LeadPlays`
and :meth:`Tricks._follows`) and carried out here; the every-card-beats rule itself is in
``plays.py``. The holder of a hidden role card (the guard card, or the called card) has
two versions of a play that can include it: with the card shown, and without.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from paiju.baohuang.hand import NUM_SEATS, HandState
from paiju.baohuang.plays import (
    BJ,
    SJ,
    STRENGTH_TEXT,
    Play,
    Yield,
    composition,
    kao_fits,
    play_beats,
    strength,
    why_not_beats,
)
from paiju.cards import SMALL_JOKER, Card, format_cards, parse_cards
from paiju.errors import IllegalAction, reasons
from paiju.game import Pass
from paiju.lazy import LazySequence

reasons(
    no_yield="yielding (让牌) is not allowed in this room",
    already_yielded="you already yielded this circle: play or pass",
    reveals_nothing="{card} in this play reveals nothing: you do not hold a hidden role card",
    not_part_of_play="{card} is not part of {play}",
    needs_role_card="{play} needs your {card}: write it as {written}",
    hold_rank_last="憋{rank}: you may play {rank}s only in the play that empties your hand",
)


class Tricks(HandState):
    """Plays, passes and tricks: from the emperor's first lead to the last card."""

    # ------------------------------------------------------------------ reading a play
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
    def is_leading(self) -> bool:
        """Is the seat to act leading a trick (nothing to beat)?"""
        return self._step == "play" and self._last is None

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

    # ------------------------------------------------------------------ playing
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


class LeadPlays(LazySequence[Play]):
    """Every lead of a seat, as a lazy sequence: a rank part (``n`` cards of one rank)
    times a joker part, then the jokers alone, then the 憋6 finishing play. It knows its
    length and decodes an index on demand, so random play never builds the whole list."""

    def __init__(self, game: HandState, seat: int) -> None:
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
