"""The end of a Baohuang 保皇 hand: when it ends, the places 头客 … 大落, the scores with
their explanation, and what the next hand of a match inherits."""

from __future__ import annotations

from typing import Any

from paiju.baohuang.hand import NUM_SEATS, HandState
from paiju.baohuang.scoring import hand_scores, tribute_count, tribute_plan
from paiju.errors import IllegalAction

PLACE_NAMES = ("头客", "二客", "三客", "二落", "大落")


class HandEnd(HandState):
    """Places and scores of a finished hand; the options the next hand inherits."""

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

    @property
    def multiplier(self) -> int:
        """The public stake multiplier so far: 明保 ×2, standing rebellion ×2, each kick ×2;
        at the end also Qingdao's ×(2 × tribute cards). (明独's doubling is in its 24.)"""
        m = (2 if self.open_guard else 1) * (2 if self.rebellion else 1) * int(2**self.kicks)
        cards = tribute_count(self.next_tribute)
        return m * 2 * cards if cards else m

    # ------------------------------------------------------------------ match support
    def next_hand_options(self) -> dict[str, Any]:
        """Options the next hand of a match inherits: deal start and Qingdao tribute."""
        if self._step != "over":
            raise IllegalAction("the hand is not over yet", code="not_over")
        o = {k: v for k, v in self.options.items() if k not in ("first_seat", "tribute_due")}
        o["first_seat"] = self.finished[0] if o["deal_start"] == "first_finisher" else self.emperor
        o["tribute_due"] = self.next_tribute
        return o
