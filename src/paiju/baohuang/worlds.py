"""Worlds: whole games consistent with what one seat knows (for determinized search).

At any decision a seat of 保皇 knows its own hand, every card count, every public action
and play, and the roles the rules have revealed. :func:`sample_world` deals the cards it
cannot see (the deck less its hand and every card played) at random among the other
hands, in the numbers ``hand_counts`` gives, honouring what the hand has shown:

- the emperor card 皇牌 ``BJ*`` is the emperor's (he took it with the crown or the grab);
- ``guard=card``: a known guard — revealed, or this seat — holds the guard card ``SJ*``,
  a known hidden solo 暗独 the emperor; an open solo declared without ``solo_grab`` had it
  too. A hidden guard card goes to a seat drawn with odds = its hidden cards × the
  caller's ``guard_weights`` (1 for seats not named) among the seats that may hold it:
  not this seat, not a declared rebel 锄头, the emperor too (暗独) unless he is asking;
- ``guard=call``: the called suit+rank was one the emperor held three of (the guard holds
  the fourth: the first holder in seat order is the only one) or all of (暗独). The copies
  still unseen are where that puts them — the guard's one (unless he played it), the
  emperor's the rest, nobody else's; a hidden guard is drawn as above. When an open solo
  followed the call, the caller still held three copies;
- Qingdao tribute 进贡: a receiver holds the tribute cards it took (the handed-out ones
  too: the public card counts tell who got them), less what it played or may have
  attached 贴牌 since; a giver gave its highest cards, so it holds none higher (unless a
  crown brought it attached cards). Attached cards 贴牌 are the emperor's hidden cards:
  only the counts show them.

Before the play (:data:`STEPS`) the same facts hold as far as the hand has gone, and:

- tribute picks 吃贡: the cards still in the pool are in no hand; who picks after the seat
  to act is drawn when the view does not tell (the previous hand's places are not in it);
- the crown 登基/让位: the emperor card and the attached cards 贴牌 travel in no hand —
  the holder sees them, and a giver whose attached card he sees holds no higher 2 (or
  card) than it; for the other seats they are unseen cards of the holder's deal, taken
  out of it; the emperor card is the holder's until he passes it; 威海: the seat that
  passed it on holds the guard card (only a holder of both may);
- the call step: no guard yet; the emperor accepted, so he holds a suited triple — a
  deal without one is drawn again (:data:`MAX_TRIES`);
- 抢独, 明保, 造反, 踢: the guard as in the play; the round's seats still to answer are the
  view's.

The facts become per-seat bounds (a seat holds at least ``k`` of a card; holds none of the
cards above a bound): the bound copies go first, each to a seat drawn with odds its free
room among the seats that keep the rest possible (Hall's condition over the four hidden
hands), then the free copies are shuffled into the room left. The world is built
directly in the play state (like :meth:`Baohuang.clone`, no replay): roles, the trick on
the table with its circle of seats to answer, passes and yields 让牌, finished players,
multiplier inputs and the events are the view's, and ``world.view(seat) == view``
entirely. :class:`WorldSampler` reads one view once and deals many worlds of it.

Not honoured (inferences, not facts the view states): what the setup answers imply about
hands (a grab needing a suited four, a classic call picking the best triple …), that an
attached card the seat does not see was its giver's highest, and what the play itself
suggests — the search bot passes that as ``guard_weights``. A world's
``record()`` is not a replayable record (its action log starts at the sampled state).
Raises :class:`CannotSample` for a spectator, for a view no deal matches (more cards
than the deck holds, counts that do not add up), and in a call step no deal fits.

>>> import random, paiju
>>> g = paiju.new_game("baohuang", seed=4)
>>> while g.phase != "play":
...     g.apply(g.legal_actions()[0])
>>> for _ in range(7):
...     g.apply(g.legal_actions()[0])
>>> view = g.view(g.to_act)
>>> w = sample_world(view, random.Random(1))
>>> w.view(g.to_act) == view and w.hand(g.to_act) == g.hand(g.to_act)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from paiju.baohuang.game import EMPEROR_CARD, GUARD_CARD, NUM_SEATS, Baohuang, _card_key, deck_cards
from paiju.baohuang.plays import NUM_STRENGTHS, Play, composition, strength
from paiju.cards import Card, parse_cards
from paiju.errors import IllegalAction, reasons

reasons(cannot_sample="no world can be sampled from this view")


class CannotSample(IllegalAction):
    """The view describes a state this module cannot reconstruct."""

    def __init__(self, message: str = "", code: str = "cannot_sample", **params: Any) -> None:
        super().__init__(message, code, **params)


STEPS = ("tribute", "emperor", "call", "grab", "reveal", "rebel", "kick", "play")
"""The steps whose views are sampled: every decision."""

MAX_TRIES = 200
"""Deals drawn for one world of the call step before giving up."""

GuardWeights = Callable[[Mapping[str, Any]], Mapping[int, float]]

CHECKED = ("to_act", "phase", "hand_counts", "emperor", "guard", "solo", "roles", "finished", "legal_actions")
"""View entries a world must reproduce exactly (in fact the whole view is reproduced)."""


# ---------------------------------------------------------------------- dealing under masks
# The hidden places are the other four seats, bits of a mask; a card copy may go to the
# places of its mask. _CHECK[mask][p]: the subsets S holding p but not the whole mask —
# the Hall slacks a copy of that mask put at p uses up.
_PLACES = NUM_SEATS - 1
_FULL = (1 << _PLACES) - 1
_BITS = [tuple(p for p in range(_PLACES) if m >> p & 1) for m in range(1 << _PLACES)]
_CHECK = [
    [tuple(S for S in range(1, 1 << _PLACES) if S >> p & 1 and mask & ~S) for p in range(_PLACES)]
    for mask in range(1 << _PLACES)
]


def _slacks(room: list[int], masked: list[tuple[int, int]]) -> list[int] | None:
    """Hall's slack of every set of places for the masked copies (None: no deal fits)."""
    demand = [0] * (1 << _PLACES)
    for _, m in masked:
        demand[m] += 1
    slack = [0] * (1 << _PLACES)
    for S in range(1, 1 << _PLACES):
        slack[S] = sum(room[p] for p in _BITS[S]) - sum(demand[A] for A in range(1, 1 << _PLACES) if not A & ~S)
        if slack[S] < 0:
            return None
    return slack


def _deal_masked(
    masked: list[tuple[int, int]], room: list[int], slack: list[int], out: list[list[int]], rng: random.Random
) -> None:
    """Put every ``(card, mask)`` copy at a place of its mask (most constrained first), each
    drawn with odds the free room among the places that keep the rest possible; ``room``
    and ``out`` are updated."""
    slack = list(slack)
    tight = list(masked)
    rng.shuffle(tight)
    tight.sort(key=lambda cm: len(_BITS[cm[1]]))
    for c, m in tight:
        check = _CHECK[m]
        cands = [p for p in _BITS[m] if room[p] and all(slack[S] > 0 for S in check[p])]
        x = rng.random() * sum(room[p] for p in cands)
        p = cands[-1]
        for q in cands:
            x -= room[q]
            if x < 0:
                p = q
                break
        for S in check[p]:
            slack[S] -= 1
        room[p] -= 1
        out[p].append(c)


# ---------------------------------------------------------------------- cards as text
# The sampler counts cards by their text (``Ah``, ``BJ*``: a str hashes once), the world
# holds the cards themselves.
_BJ_STAR = str(EMPEROR_CARD)
_SJ_STAR = str(GUARD_CARD)


@cache
def _card(text: str) -> Card:
    return Card.parse(text)


@cache
def _key(text: str) -> tuple[int, int, bool]:
    """The engine's order of cards in a hand (:func:`_card_key`), by text."""
    return _card_key(_card(text))


@cache
def _deck(deck: str, call: bool) -> tuple[tuple[str, int], ...]:
    """The deck's cards with their copies, the role cards marked (``SJ*`` with ``guard=card``)."""
    cnt = Counter(deck_cards(deck))
    marked = [EMPEROR_CARD] if call else [EMPEROR_CARD, GUARD_CARD]
    for c in marked:
        cnt[c.unmarked()] -= 1
        cnt[c] = 1
    return tuple((str(c), n) for c, n in cnt.items())


_BLANKS: dict[str, Baohuang] = {}


def _blank(options: Mapping[str, Any]) -> Baohuang:
    """A fresh game with these options (a clone of one kept per options)."""
    key = repr(sorted(options.items()))
    g = _BLANKS.get(key)
    if g is None:
        try:
            g = Baohuang(seed=0, **{k: v for k, v in options.items() if k != "tribute_due"})
        except IllegalAction as e:
            raise CannotSample(f"the view's options are not a Baohuang room: {e}") from None
        if len(_BLANKS) > 64:
            _BLANKS.clear()
        _BLANKS[key] = g
    return g.clone()


def _play_of(action: str, cards: str) -> Play:
    """The play an event records (its composition, and the role card it revealed)."""
    p = composition(parse_cards(cards))
    for c in parse_cards(action):
        if c.marked or c.suit is not None:
            return p._replace(reveal=c)
    return p


class _Roles:
    """One hypothesis about the roles: the world's guard fields and where it puts cards."""

    def __init__(self, guard: int | None, solo: str | None, reveal: tuple[int | None, Card | None]) -> None:
        self.guard, self.solo = guard, solo
        self.reveal_seat, self.reveal_card = reveal
        self.lo: dict[tuple[int, str], int] = {}  # (seat, card): at least this many
        self.exact: set[str] = set()  # cards whose unseen copies lo places entirely
        self.weight = 1.0  # the odds of this hypothesis before the caller's weights
        self.seat: int | None = None  # whose guard_weights entry scales the odds
        # filled by WorldSampler._prepare
        self.room: list[int] = []
        self.forced: list[list[int]] = []
        self.masked: list[tuple[int, int]] = []
        self.free: list[int] = []
        self.slack: list[int] = []
        self.closed: dict[str, int] = {}  # card → places that hold only the forced copies


# ---------------------------------------------------------------------- the sampler
class WorldSampler:
    """What one view shows about the hidden cards, ready to deal many worlds.

    ``WorldSampler(view).sample(rng, guard_weights)`` is :func:`sample_world` without
    reading the view again (a search samples many worlds of one view)."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        me = view.get("seat")
        if me is None:
            raise CannotSample("a spectator has no seat to sample a world for")
        step = view.get("step")
        if step not in STEPS:
            raise CannotSample(f"worlds are not sampled in the {step} step")
        emp: int | None = view.get("emperor")
        if emp is None and step not in ("tribute", "emperor"):
            raise CannotSample("the view has no emperor")
        self.step = step
        self.me = me
        template = _blank(view["options"])
        o = template.options
        call = o["guard"] == "call"
        events = view["events"]
        start = max((i for i, e in enumerate(events) if e.get("event") == "deal"), default=-1)
        ev = events[start + 1 :]

        # ---- what the events of this deal say
        played: list[Counter[str]] = [Counter() for _ in range(NUM_SEATS)]
        tribute: list[tuple[int, str]] = []
        takes: list[tuple[int, str]] = []
        abdicators: list[int] = []
        crowned: int | None = None
        crown_travel = 0
        grab: int | None = None
        caller: tuple[int, str] | None = None
        revealed = False
        votes: list[int] = []
        attach = o["abdication"] in ("standard", "qingdao")
        attached = [0] * NUM_SEATS  # cards each seat attached 贴牌
        travel = 0
        for e in ev:
            name = e.get("event")
            if name is not None:
                if name == "tribute":
                    tribute = [(g, c) for g, c in e["cards"]]
                elif name == "guard_revealed":
                    revealed = True
                continue
            step = e.get("step")
            seat, act = e["seat"], e["action"]
            if step is None:
                if "cards" in e:
                    played[seat].update(e["cards"].split())
            elif step == "tribute":
                takes.append((seat, act.partition(" ")[2]))
            elif step == "emperor":
                if act == "abdicate":
                    k = len(abdicators)
                    abdicators.append(seat)
                    travel += k == 0  # the emperor card leaves the first holder's hand
                    if attach and (k >= 1 or o["abdication"] == "qingdao"):
                        attached[seat] += 1
                        travel += 1
                else:
                    crowned, crown_travel = seat, travel
            elif step == "call":
                if act.startswith("call "):
                    caller = (seat, act[5:])
            elif step == "grab":
                if act == "grab":
                    grab = seat
            elif step == "kick" and act == "kick":
                votes.append(seat)

        # ---- the unseen cards and the hidden places
        mine: list[str] = view["hand"]
        counts = list(view["hand_counts"])
        if len(mine) != counts[me]:
            raise CannotSample("the hand does not have the size hand_counts gives it")
        unseen = Counter(dict(_deck(o["deck"], call)))
        unseen.subtract(mine)
        for p in played:
            unseen.subtract(p)
        if any(n < 0 for n in unseen.values()):
            raise CannotSample("the view shows more copies of a card than the deck has")
        unseen = +unseen
        self.seats = [s for s in range(NUM_SEATS) if s != me]
        place = {s: i for i, s in enumerate(self.seats)}
        room = [counts[s] for s in self.seats]
        # before the crown: the emperor card travels with the attached cards 贴牌, in no hand;
        # the holder sees them, for the others they are unseen cards dealt with his hand
        # and taken out of it again (self.hidden_travel)
        holder: int = view.get("emperor_card_holder", emp)
        self.holder, self.hidden_travel = holder, 0
        travelling: list[str] = []
        self.waiting = [_card(t) for t in view.get("tribute_pool") or ()]  # tribute cards not picked yet
        unseen.subtract(view.get("tribute_pool") or ())
        if emp is None and abdicators:
            travelling = [_BJ_STAR] + list(view.get("attached_cards") or ())
            unseen.subtract(travelling)
        if any(n < 0 for n in unseen.values()):
            raise CannotSample("the view shows more copies of a card than the deck has")
        unseen = +unseen
        if travelling:
            if holder != me:
                self.hidden_travel = view.get("attached", 0)
                room[place[holder]] += self.hidden_travel
            elif len(travelling) - 1 != view.get("attached", 0):
                raise CannotSample("the holder's view does not show the attached cards")
        self.travel = [_card(t) for t in travelling]
        if sum(unseen.values()) != sum(room):
            raise CannotSample(f"{sum(unseen.values())} unseen cards for {sum(room)} hidden cards")

        # ---- facts that hold whatever the roles
        lo: dict[tuple[int, str], int] = {}
        closed_attach: dict[str, int] = {}

        def need(seat: int, card: str, n: int) -> None:
            if seat != me and n > 0:
                lo[seat, card] = max(lo.get((seat, card), 0), n)

        if unseen[_BJ_STAR]:
            if (emp if emp is not None else holder) == me:
                raise CannotSample("the emperor's view misses the emperor card")
            need(emp if emp is not None else holder, _BJ_STAR, 1)
        if o["abdication"] == "weihai" and abdicators and crowned is None:
            need(abdicators[0], _SJ_STAR, unseen[_SJ_STAR])  # only a holder of both jokers passes on
        if emp is None:
            # attached cards the holder sees: each was its giver's highest 2 or card then
            jokers = o["abdication"] == "qingdao"
            for k, seat in enumerate(abdicators[1 if o["abdication"] == "standard" else 0 :]):
                if seat == me or k + 1 >= len(travelling):
                    continue
                key = _key(travelling[k + 1])
                for card in unseen:
                    if _key(card) > key and not card.endswith("*") and (jokers or not card.endswith("J")):
                        closed_attach[card] = closed_attach.get(card, 0) | 1 << place[seat]
        closed: dict[str, int] = dict(closed_attach)  # card → places that hold no more of it than lo says
        if tribute:
            self._tribute(
                o, counts, played, tribute, takes, abdicators, attached, crowned, crown_travel, grab, emp, need
            )
            last_given = dict(tribute)
            for g, c in last_given.items():  # a giver gave its highest cards: it holds none higher
                if g == me or (g == crowned and crown_travel > 1):
                    continue
                key = _key(c)
                for card in unseen:
                    if _key(card) > key and not card.endswith("*"):
                        closed[card] = closed.get(card, 0) | 1 << place[g]

        # ---- the role hypotheses
        vg, vsolo = view.get("guard"), view.get("solo")
        hyps: list[_Roles] = []
        rebels = set(view.get("rebels_declared") or ())
        called: str | None = None
        if emp is None or self.step == "call":  # no guard yet (the call decides it)
            hyps.append(_Roles(None, None, (None, None)))
        elif vsolo == "open":
            hyps.append(_Roles(None, "open", (None, None)))
            if not call and not o["solo_grab"]:  # only the holder of the guard card may declare it
                need(emp, _SJ_STAR, unseen[_SJ_STAR])
            if caller is not None:  # the caller held three copies (or four) of the called card
                cs, cc = caller
                need(cs, cc, 3 - played[cs][cc])
        else:
            if call:
                if view.get("called") is None:
                    raise CannotSample("a called-guard hand without a called card")
                called = view["called"]
            known: int | None = vg if vg is not None else emp if vsolo == "hidden" else None
            cands = [known] if known is not None else [s for s in self.seats if s not in rebels and s != emp]
            if known is None and emp != me:
                cands.append(emp)  # 暗独
            for g in cands:
                solo = "hidden" if g == emp else None
                if revealed:
                    rv: tuple[int | None, Card | None] = (None, None)
                elif call:
                    rv = (None, None) if g == emp or called is None else (g, _card(called))
                else:
                    rv = (g, GUARD_CARD)
                h = _Roles(g, solo, rv)
                if called is None:
                    if unseen[_SJ_STAR]:
                        if g == me:
                            raise CannotSample("the guard's view misses the guard card")
                        h.lo[g, _SJ_STAR] = 1
                else:  # the guard held the one copy the emperor lacked, or the emperor held all
                    u = unseen[called]
                    share = 0 if g in (me, emp) else 1 - played[g][called]
                    if share > 0:
                        h.lo[g, called] = share
                    if emp != me and u - share > 0:
                        h.lo[emp, called] = u - share
                    h.exact.add(called)
                if known is None:
                    h.seat = g
                hyps.append(h)
        if not hyps:
            raise CannotSample("no seat may hold the hidden guard card")

        # ---- per hypothesis: forced, masked and free copies, and whether a deal fits
        kinds = sorted(unseen, key=_key)
        self.kinds = [_card(t) for t in kinds]
        self.strengths = [strength(c) for c in self.kinds]
        index = {c: i for i, c in enumerate(kinds)}
        base_room = list(room)
        for (s, _c), n in lo.items():
            base_room[place[s]] -= n
        ok: list[_Roles] = []
        for h in hyps:
            if h.seat is not None:
                h.weight = max(0, base_room[place[h.seat]])
            if self._prepare(h, unseen, lo, closed, room, place, index):
                ok.append(h)
        if not ok:
            raise CannotSample("no deal of the unseen cards fits the roles and the cards shown")
        self.hyps = ok

        # ---- the world without its hidden cards
        self.mine_lists: list[list[Card]] = [[] for _ in range(NUM_STRENGTHS)]
        for held in map(_card, sorted(mine, key=_key)):
            self.mine_lists[strength(held)].append(held)
        self._template = self._build(
            template, view, ev, emp, None if called is None else _card(called), revealed, crowned, abdicators, votes
        )
        self._template.tribute_given = [(g, _card(c)) for g, c in tribute]

    # ------------------------------------------------------------------ tribute
    def _tribute(
        self,
        o: Mapping[str, Any],
        counts: list[int],
        played: list[Counter[str]],
        tribute: list[tuple[int, str]],
        takes: list[tuple[int, str]],
        abdicators: list[int],
        attached: list[int],
        crowned: int | None,
        crown_travel: int,
        grab: int | None,
        emp: int | None,
        need: Callable[[int, str, int], None],
    ) -> None:
        """Put the tribute cards with their receivers: the picks the events show, then the
        cards handed out without a question — to the seats whose card counts grew by them."""
        pool = [c for _, c in tribute]
        for waiting in map(str, self.waiting):  # still in the pool (the tribute step)
            if waiting in pool:
                pool.remove(waiting)
        got: list[list[str]] = [[] for _ in range(NUM_SEATS)]
        for seat, text in takes:
            if text not in pool:
                return
            pool.remove(text)
            got[seat].append(text)
        if pool:  # handed out: count what each seat received since the deal
            n = len(deck_cards(o["deck"]))
            first = o["first_seat"]
            auto = []
            for s in range(NUM_SEATS):
                dealt = n // NUM_SEATS + ((s - first) % NUM_SEATS < n % NUM_SEATS)
                moved = attached[s] + (1 if abdicators and abdicators[0] == s else 0)
                moved -= crown_travel if s == crowned else 0
                if grab is not None:
                    moved += (s == crowned) - (s == grab)
                given = sum(1 for g, _ in tribute if g == s)
                received = counts[s] + sum(played[s].values()) - dealt + given + moved
                auto.append(received - len(got[s]))
            if any(a < 0 for a in auto) or sum(auto) != len(pool):
                return
            if len(set(pool)) > 1 and sum(1 for a in auto if a) > 1:
                return  # not how the engine hands cards out: the counts do not say who got them
            i = 0
            for s in range(NUM_SEATS):
                got[s] += pool[i : i + auto[s]]
                i += auto[s]
        for s in range(NUM_SEATS):
            if not got[s]:
                continue
            # an abdication since may have attached the highest of them: not counted
            kept = sorted(got[s], key=_key)[: max(0, len(got[s]) - attached[s])]
            for c, k in Counter(kept).items():
                need(s, c, k - played[s][c])

    # ------------------------------------------------------------------ hypotheses
    def _prepare(
        self,
        h: _Roles,
        unseen: Counter[str],
        lo: dict[tuple[int, str], int],
        closed: dict[str, int],
        room: list[int],
        place: dict[int, int],
        index: dict[str, int],
    ) -> bool:
        """Split the unseen copies into forced, masked and free ones under ``h``; False
        when no deal fits it."""
        both = dict(lo)
        for key, n in h.lo.items():
            both[key] = max(both.get(key, 0), n)
        by_card: dict[str, list[tuple[int, int]]] = {}
        for (s, c), n in both.items():
            by_card.setdefault(c, []).append((place[s], n))
        forced: list[list[int]] = [[] for _ in range(_PLACES)]
        masked: list[tuple[int, int]] = []
        free: list[int] = []
        rest_room = list(room)
        for c, m in unseen.items():
            i = index[c]
            for p, n in by_card.get(c, ()):
                forced[p] += [i] * n
                rest_room[p] -= n
                m -= n
            if m < 0:
                return False
            if not m:
                continue
            mask = 0 if c in h.exact else _FULL & ~closed.get(c, 0)
            if not mask:
                return False
            if mask == _FULL:
                free += [i] * m
            else:
                masked += [(i, mask)] * m
        if any(r < 0 for r in rest_room):
            return False
        slack = _slacks(rest_room, masked)
        if slack is None:
            return False
        h.room, h.forced, h.masked, h.free, h.slack = rest_room, forced, masked, free, slack
        h.closed = {**closed, **dict.fromkeys(h.exact, _FULL)}
        return True

    # ------------------------------------------------------------------ the template
    def _build(
        self,
        w: Baohuang,
        view: Mapping[str, Any],
        ev: list[dict[str, Any]],
        emp: int | None,
        called: Card | None,
        revealed: bool,
        crowned: int | None,
        abdicators: list[int],
        votes: list[int],
    ) -> Baohuang:
        o = w.options
        if self.step != "play":
            self._setup_state(w, view, ev, emp, abdicators, votes)
        else:
            self._trick_state(w, view, ev)
            w._votes = list(votes)
        # roles and stakes
        w.emperor = emp
        w.called = called
        w.guard_revealed = revealed
        w.open_guard = view["open_guard"]
        w.rebels_declared = list(view["rebels_declared"])
        w.rebellion = view["rebellion"]
        w.kicks = view["kicks"]
        # the setup, as far as play can tell
        w.deals = view["deals"]
        w._holder = crowned if crowned is not None else emp if emp is not None else self.holder
        w._first_holder = abdicators[0] if abdicators else w._holder
        w._declines = len(abdicators)
        w._weihai_passed = bool(abdicators) and o["abdication"] == "weihai"
        w._travel = list(self.travel)
        if self.step != "tribute":
            w._pool, w._picks = [], []
        w._scores = None
        w.next_tribute = None
        w._deal_text = None
        w._log = []
        w._events = list(view["events"])
        w._hands = [[[] for _ in range(NUM_STRENGTHS)] for _ in range(NUM_SEATS)]
        return w

    def _setup_state(
        self,
        w: Baohuang,
        view: Mapping[str, Any],
        ev: list[dict[str, Any]],
        emp: int | None,
        abdicators: list[int],
        votes: list[int],
    ) -> None:
        """A declaration step's question round: the seats still to answer, from the one to act."""
        step, to_act = self.step, view["to_act"]
        w._step, w._to_act = step, to_act
        w._sizes = list(view["hand_counts"])
        w._last, w._last_seat = None, -1
        w._circle, w._passed, w._yielders, w._second = [], set(), [], False
        w.trick, w.finished = [], []
        w._round, w._votes = [], []
        if step == "tribute":
            w._pool = list(self.waiting)
            w._picks = self._picks(view, ev)
        if step in ("tribute", "emperor", "call"):
            return
        assert emp is not None
        others = [(emp + k) % NUM_SEATS for k in range(1, NUM_SEATS)]
        if step == "grab":
            seats = [(emp - k) % NUM_SEATS for k in range(1, NUM_SEATS)]
        elif step == "kick":
            if view["rebellion"]:
                guard = view.get("guard")
                seats = [emp] + ([guard] if guard is not None and guard != emp else [])
            else:
                seats = [s for s in others if s != view.get("guard")]
            w._votes = list(votes)
        else:
            seats = others
        if to_act not in seats:
            raise CannotSample(f"the {step} round does not ask seat {to_act}")
        w._round = seats[seats.index(to_act) :]

    def _picks(self, view: Mapping[str, Any], ev: list[dict[str, Any]]) -> list[int]:
        """The receivers still to pick tribute 吃贡, from the one to act. The plans that ask
        (spec §6): the seats that gave nothing each take the same number — but for three
        givers of one card (the first receiver takes two, the other one) and two givers of
        one card (two of the three others take one). Who picks after the seat to act is
        not always public: drawn then (one guess, like the cards)."""
        tribute = next(e["cards"] for e in ev if e.get("event") == "tribute")
        givers = {g for g, _ in tribute}
        done = [e["seat"] for e in ev if e.get("step") == "tribute"]
        seats: list[int] = []
        for s in done + [view["to_act"]]:
            if s not in seats:
                seats.append(s)
        rest = [s for s in range(NUM_SEATS) if s not in givers and s not in seats]
        random.Random(repr(view["hand_counts"])).shuffle(rest)  # the draw of a guess, not of a card
        total = len(tribute)
        if len(givers) == 3 and total == 3:
            seats = (seats + rest)[:2]
            order = [seats[0], seats[0], seats[1]]
        else:
            takers = 2 if (len(givers), total) == (2, 2) else NUM_SEATS - len(givers)
            seats = (seats + rest)[:takers]
            order = [s for s in seats for _ in range(total // takers)]
        return order[len(done) :]

    def _trick_state(self, w: Baohuang, view: Mapping[str, Any], ev: list[dict[str, Any]]) -> None:
        """The trick on the table: its actions replayed on the circle of seats to answer."""
        o = w.options
        t0 = 0
        for i, e in enumerate(ev):
            if e.get("event") == "trick" or "step" in e:
                t0 = i + 1
        finished = {e["seat"] for e in ev[:t0] if e.get("event") == "finished"}
        acts = [e for e in ev[t0:] if "action" in e or e.get("event") == "finished"]
        leader = next((e["seat"] for e in acts if "action" in e), view["to_act"])
        last: Play | None = None
        last_seat = -1
        passed: set[int] = set()
        yielders: list[int] = []
        second = False
        circle = [leader]
        for e in acts:
            seat = e["seat"]
            if "action" not in e:
                finished.add(seat)
                continue
            if not circle or circle[0] != seat:
                raise CannotSample("the current trick's actions do not follow the turn order")
            if "cards" in e:
                last, last_seat = _play_of(e["action"], e["cards"]), seat
                circle = [
                    s
                    for s in ((seat + k) % NUM_SEATS for k in range(1, NUM_SEATS))
                    if s not in finished and s not in passed
                ]
                yielders, second = [], False
            else:
                if e["action"] == "yield":
                    yielders.append(seat)
                elif o["pass_is_final"]:
                    passed.add(seat)
                circle.pop(0)
                if not circle and yielders and not second:
                    second = True
                    circle = sorted(yielders, key=lambda s: (s - last_seat) % NUM_SEATS)
                    yielders = []
        if not circle or circle[0] != view["to_act"]:
            raise CannotSample("the current trick does not come to the seat the view names")
        w._step = "play"
        w._to_act = view["to_act"]
        w._last, w._last_seat = last, last_seat
        w._circle, w._passed, w._yielders, w._second = circle, passed, yielders, second
        w.trick = [(t["seat"], t["cards"]) for t in view["trick"]]
        w.finished = list(view["finished"])
        w._sizes = list(view["hand_counts"])
        w._round, w._votes = [], []

    def admits(self, hands: Mapping[int, list[Card]], guard: int | None) -> bool:
        """Could the hidden seats hold ``hands`` (seat → cards) with ``guard`` the guard
        (the emperor for a hidden solo, None for an open one)? The facts of the module doc,
        for tests: the true hands of a game are always admitted."""
        for h in self.hyps:
            if h.guard != guard:
                continue
            held = [Counter(map(str, hands[s])) for s in self.seats]
            need = [Counter(str(self.kinds[i]) for i in f) for f in h.forced]
            if any(held[p][c] < n for p in range(_PLACES) for c, n in need[p].items()):
                continue
            if all(held[p][c] <= need[p][c] for c, m in h.closed.items() for p in _BITS[m]):
                return True
        return False

    # ------------------------------------------------------------------ sampling
    def sample(self, rng: random.Random, guard_weights: Mapping[int, float] | None = None) -> Baohuang:
        """A world: the view's state, the hidden cards dealt at random within the facts.
        In the call step the emperor accepted, so he holds a suited triple: a deal where he
        has nothing to call is drawn again (at most :data:`MAX_TRIES` deals)."""
        for _ in range(MAX_TRIES):
            w = self._draw(rng, guard_weights)
            if self.step != "call" or w.legal_actions():
                return w
        raise CannotSample(f"no deal gave the emperor a card to call in {MAX_TRIES} tries")

    def _draw(self, rng: random.Random, guard_weights: Mapping[int, float] | None) -> Baohuang:
        hyps = self.hyps
        h = hyps[0]
        if len(hyps) > 1:
            odds = [
                x.weight * (1.0 if guard_weights is None or x.seat is None else guard_weights.get(x.seat, 1.0))
                for x in hyps
            ]
            total = sum(odds)
            if total > 0:
                r = rng.random() * total
                for x, q in zip(hyps, odds):
                    r -= q
                    if r < 0:
                        h = x
                        break
                else:
                    h = hyps[-1]
            else:
                h = rng.choice(hyps)
        out = [list(f) for f in h.forced]
        room = list(h.room)
        if h.masked:
            _deal_masked(h.masked, room, h.slack, out, rng)
        free = list(h.free)
        rng.shuffle(free)
        i = 0
        for p in range(_PLACES):
            out[p] += free[i : i + room[p]]
            i += room[p]
        w = self._template.clone()
        kinds, st = self.kinds, self.strengths
        if self.hidden_travel:  # the attached cards the holder took out of the deal
            p = self.seats.index(self.holder)
            spare = out[p][len(h.forced[p]) :]
            rng.shuffle(spare)
            w._travel += [kinds[j] for j in spare[: self.hidden_travel]]
            out[p] = out[p][: len(h.forced[p])] + spare[self.hidden_travel :]
        hands = w._hands
        hands[self.me] = [list(x) for x in self.mine_lists]
        for p, s in enumerate(self.seats):
            lists: list[list[Card]] = [[] for _ in range(NUM_STRENGTHS)]
            for j in sorted(out[p]):
                lists[st[j]].append(kinds[j])
            hands[s] = lists
        w._counts = [[len(x) for x in hand] for hand in hands]
        w.guard, w.solo = h.guard, h.solo
        w._reveal_seat, w._reveal_card = h.reveal_seat, h.reveal_card
        return w


def sample_world(
    view: Mapping[str, Any], rng: random.Random, guard_weights: Mapping[int, float] | None = None
) -> Baohuang:
    """A game in the state ``view`` (a seat's view during play) describes, the cards it
    hides dealt at random consistently with what the hand has shown (module doc).

    ``guard_weights``: relative odds per seat of being a hidden guard (seats not named
    count 1; the odds are multiplied by the number of hidden cards the seat may hold,
    which is the chance of a random deal). To sample many worlds of one view, make one
    :class:`WorldSampler` and call its ``sample``. Raises :class:`CannotSample` (module doc)."""
    return WorldSampler(view).sample(rng, guard_weights)


def rollout_view(world: Baohuang) -> dict[str, Any]:
    """The few facts a play policy reads, for the seat to act in a *sampled world*, cheaply
    (no copy of the event log) and with every role of the world known: a world is one guess
    of everything, so its players need not guess again. Never for a real game: it shows a
    hidden guard. ``counts`` are the seat's cards per strength index."""
    seat = world.to_act
    assert seat is not None
    return {
        "seat": seat,
        "phase": "play",
        "counts": world._counts[seat],
        "hand_counts": world._sizes,
        "leading": world.is_leading(),
        "last_play": {"seat": world._last_seat} if world._last is not None else None,
        "emperor": world.emperor,
        "guard": world.guard if not world.solo else None,
        "solo": world.solo,
    }
