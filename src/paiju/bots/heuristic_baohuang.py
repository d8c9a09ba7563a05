"""The ``heuristic`` bot: a rule-of-thumb Baohuang 保皇 player.

It decides from its seat's view and the legal actions only (never the game):

- **Setup** — a hand is weighed by :func:`hand_power` (jokers, 2s, As, long sets, minus
  the number of distinct ranks, i.e. the tricks it must win or shed). It accepts the
  throne 登基 with a better-than-average hand and abdicates 让位 a weak one (where the
  rules let it), reveals 明保 / rebels 造反 / kicks 踢 only with a strong hand, declares or
  grabs an open solo 明独 / 抢独 only with an exceptional one, calls its highest triple
  and takes the highest tribute card.
- **Play** — it goes out when the whole hand is one play, keeps jokers for control, leads
  its lowest set (or, when every remaining rank can ride on a big joker, runs them out),
  never beats a partner, beats an opponent with the cheapest play that beats, and passes
  rather than spend a joker or break its top sets early.
- **Guard inference** — the emperor and the rebels do not know a hidden guard; the bot
  reads the public events (who beat whom, who passed on whom, who declared a rebellion)
  and treats the most likely seat as the guard: :meth:`HeuristicBot.guard_guess`.

>>> import paiju
>>> from paiju.bots import make_bot
>>> g = paiju.new_game("baohuang", seed=4)
>>> bots = [make_bot("heuristic", game="baohuang") for _ in range(5)]
>>> while not g.is_over:
...     g.apply(bots[g.to_act].act(g.view(g.to_act), g.legal_actions()))
>>> sum(g.scores)
0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from paiju.baohuang.plays import BJ, NUM_STRENGTHS, SJ, STRENGTH_TEXT, Declare, Play
from paiju.errors import IllegalAction
from paiju.game import Pass

_STRENGTH_OF_CHAR = {t: i for i, t in enumerate(STRENGTH_TEXT[:13])}

# hand_power thresholds, calibrated on 2000 random full-deck hands: percentiles
# 10% -4, 25% -2.5, 50% 0, 75% 2, 90% 4.5, 99% 9, max 13.5 (weihai hands run about 2 higher)
ACCEPT_AT = -0.5
REVEAL_AT = 4.5
REBEL_AT = 3.0
KICK_AT = 4.5
SOLO_AT = 12.0

JOKER_SAVE = 10
"""While holding more than this many cards a follower does not spend jokers (unless an
opponent is about to go out)."""
DANGER = 4
"""An opponent holding at most this many cards is about to go out."""
GUESS_MIN = 1.5
"""Evidence needed before a seat is taken for the hidden guard."""


def strength_of(card: str) -> int:
    """Strength index of a card written as in a view (``"Td"``, ``"SJ*"``, ``"BJ"``)."""
    if card.startswith("BJ"):
        return BJ
    if card.startswith("SJ"):
        return SJ
    return _STRENGTH_OF_CHAR[card[0]]


def counts_of(hand: Sequence[str]) -> list[int]:
    """How many cards of each strength index the hand holds."""
    c = [0] * NUM_STRENGTHS
    for card in hand:
        c[strength_of(card)] += 1
    return c


def hand_power(hand: Sequence[str]) -> float:
    """A rough strength of a hand: control cards (jokers, 2s, As) and long sets count for
    it, every distinct ordinary rank (a trick to win or a set to shed) against it.
    Around 0 for an average full-deck hand of 43 cards."""
    c = counts_of(hand)
    ranks = [k for k in c[:13] if k]
    long_sets = sum(max(0, k - 4) for k in ranks)
    return 3.0 * c[BJ] + 2.0 * c[SJ] + 1.0 * c[12] + 0.5 * c[11] + 0.5 * long_sets - 1.0 * len(ranks) + 2.0


def _suited(hand: Sequence[str]) -> Counter[str]:
    return Counter(h.rstrip("*") for h in hand)


def _play_event(e: Mapping[str, Any]) -> bool:
    return "cards" in e


def guard_evidence(view: Mapping[str, Any]) -> dict[int, float]:
    """Evidence, per seat that may be the hidden guard, read from the public events: > 0
    guard-like (passing on the emperor, beating rebels), < 0 rebel-like (beating the
    emperor, declaring 造反: −100, a guard cannot rebel). Empty before there is an emperor."""
    emp = view.get("emperor")
    me = view.get("seat")
    if emp is None:
        return {}
    cands = [s for s in range(5) if s != emp and s != me]
    if not cands:
        return {}
    score = dict.fromkeys(cands, 0.0)
    iam_rebel = me is not None and me != emp
    last: int | None = None
    for e in view.get("events", ()):
        if "event" in e:
            if e["event"] == "trick":
                last = None
            continue
        seat = e.get("seat")
        act = e.get("action")
        if e.get("step") == "rebel":
            if act == "rebel" and seat in score:
                score[seat] -= 100.0  # a guard cannot rebel
            continue
        if "step" in e:
            continue
        if _play_event(e):
            if last is not None and last != seat:
                if seat in score:
                    if last == emp:
                        score[seat] -= 2.0  # beat the emperor: a rebel
                    elif iam_rebel and last == me:
                        score[seat] += 1.5  # beat me, a rebel
                    else:
                        score[seat] += 0.5  # beat a (probable) rebel
                elif seat == emp and last in score:
                    score[last] -= 0.5  # the emperor beat him
            last = seat
        elif act in ("pass", "yield") and last is not None and seat in score:
            if last == emp:
                score[seat] += 0.5  # let the emperor's play stand
            elif iam_rebel and last == me:
                score[seat] -= 0.5
    return score


class HeuristicBot:
    """A club player's rules of thumb for Baohuang (see the module doc); the registered
    ``heuristic`` bot (:mod:`paiju.bots.heuristic`) plays Baohuang with it."""

    name = "heuristic"

    def __init__(self, game: str = "baohuang", seed: int | None = None) -> None:
        if game != "baohuang":
            raise IllegalAction(f"the Baohuang heuristic does not play {game}")

    # ------------------------------------------------------------------ entry
    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        if view["phase"] == "play":
            return self._play(view, legal)
        return self._setup(view, legal)

    # ------------------------------------------------------------------ setup
    def _setup(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        names: dict[str, Any] = {}
        for a in legal:
            if isinstance(a, Declare):
                names.setdefault(a.name, a)
        hand: list[str] = list(view["hand"] or [])
        step = view["step"]
        if step == "tribute":
            takes = [a for a in legal if isinstance(a, Declare) and a.name == "take"]
            return max(takes, key=lambda a: strength_of(a.arg)) if takes else legal[0]
        if step == "call":
            return self._call(hand, legal, names)
        power = hand_power(hand + list(view.get("attached_cards") or []))
        if step == "emperor":
            if "open_solo" in names and power >= SOLO_AT:
                return names["open_solo"]
            if "accept" in names and (power >= ACCEPT_AT or "abdicate" not in names):
                return names["accept"]
            return names.get("abdicate", legal[0])
        if step == "grab":
            return names["grab"] if "grab" in names and power >= SOLO_AT + 1 else names.get("no", legal[0])
        if step == "reveal":
            return names["reveal"] if "reveal" in names and power >= REVEAL_AT else names.get("no", legal[0])
        if step == "rebel":
            return names["rebel"] if "rebel" in names and power >= REBEL_AT else names.get("no", legal[0])
        if step == "kick":
            return names["kick"] if "kick" in names and power >= KICK_AT else names.get("no", legal[0])
        return names.get("no", names.get("accept", legal[0]))

    @staticmethod
    def _call(hand: list[str], legal: Sequence[Any], names: dict[str, Any]) -> Any:
        calls = [a for a in legal if isinstance(a, Declare) and a.name == "call"]
        if "open_solo" in names and hand_power(hand) >= SOLO_AT:
            return names["open_solo"]
        if not calls:
            return legal[0]
        have = _suited(hand)
        triples = [a for a in calls if have[a.arg] == 3]
        # the best triple: the highest rank (its fourth copy sits with a partner)
        return max(triples or calls, key=lambda a: strength_of(a.arg))

    # ------------------------------------------------------------------ roles
    def guard_guess(self, view: Mapping[str, Any]) -> int | None:
        """The seat this bot takes for the guard: the known guard when it is public (or
        this seat itself), else the non-emperor seat with the most guard-like public
        behaviour when the evidence is strong enough, else None (also for solos)."""
        if view.get("solo"):
            return None
        if view.get("guard") is not None:
            return int(view["guard"])
        emp = view.get("emperor")
        me = view.get("seat")
        score = guard_evidence(view)
        if not score:
            return None
        cands = list(score)
        iam_rebel = me is not None and me != emp
        best = max(cands, key=lambda s: score[s])
        ordered = sorted(score.values(), reverse=True)
        margin = ordered[0] - ordered[1] if len(ordered) > 1 else ordered[0]
        if score[best] >= GUESS_MIN and margin >= 1.0:
            return best
        if iam_rebel and len(cands) >= 2:
            # a rebel may also deduce the guard by elimination: every other seat rebel-like
            rebel_like = [s for s in cands if score[s] <= -GUESS_MIN]
            if len(rebel_like) == len(cands) - 1:
                (left,) = [s for s in cands if s not in rebel_like]
                return left
        return None

    def _relation(self, view: Mapping[str, Any], seat: int) -> str:
        """``partner``, ``opponent`` or ``unknown`` for another seat, from this seat's side."""
        me = view["seat"]
        emp = view["emperor"]
        solo = view.get("solo")
        if seat == me:
            return "partner"
        if me == emp:
            if solo:
                return "opponent"
            g = self.guard_guess(view)
            if g is None:
                return "unknown"
            return "partner" if seat == g else "opponent"
        if solo == "open":
            return "opponent" if seat == emp else "partner"
        known = view.get("guard")
        if known == me:  # I am the guard
            return "partner" if seat == emp else "opponent"
        if seat == emp:
            return "opponent"
        g = self.guard_guess(view)
        if g is None:
            return "unknown"
        return "opponent" if seat == g else "partner"

    # ------------------------------------------------------------------ play
    def _play(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        # "counts" (cards per strength index) may stand in for "hand": search rollouts use it
        c = list(view["counts"]) if "counts" in view else counts_of(view["hand"])
        size = sum(c)
        if view.get("leading"):
            return self._lead(view, legal, c, size)
        return self._follow(view, legal, c, size)

    @staticmethod
    def _pick(legal: Sequence[Any], p: Play) -> Play | None:
        """``p`` as a legal action: without the role card if possible, else with it."""
        if p in legal:
            return p
        for a in legal:
            if isinstance(a, Play) and a[:4] == p[:4]:
                return a
        return None

    def _opponents_low(self, view: Mapping[str, Any]) -> list[int]:
        counts = view["hand_counts"]
        me = view["seat"]
        return [
            counts[s]
            for s in range(5)
            if s != me and counts[s] and self._relation(view, s) == "opponent" and counts[s] <= DANGER
        ]

    def _lead(self, view: Mapping[str, Any], legal: Sequence[Any], c: list[int], size: int) -> Any:
        ranks = [r for r in range(13) if c[r]]
        big, small = c[BJ], c[SJ]
        if len(ranks) <= 1:  # the whole hand is one play: go out
            whole = Play(ranks[0] if ranks else -1, c[ranks[0]] if ranks else 0, small, big)
            got = self._pick(legal, whole)
            if got is not None:
                return got
        if ranks and big and len(ranks) <= big + 1:
            # every rank but one rides on a big joker (unbeatable): run them out, highest first
            r = ranks[-1]
            got = self._pick(legal, Play(r, c[r], 0, 1))
            if got is not None:
                return got
        low = self._opponents_low(view)
        choices = ranks
        if low:
            # an opponent about to go out cannot follow a set larger than his hand
            longer = [r for r in ranks if c[r] > max(low)]
            if longer:
                choices = longer
        for r in choices:
            got = self._pick(legal, Play(r, c[r]))
            if got is not None:
                return got
        # only jokers, or the held rank of 憋6: the smallest legal play
        plays = [a for a in legal if isinstance(a, Play)]
        return min(plays, key=lambda p: (p.big, p.small, p.rank, -p.size, p.reveal is not None))

    def _follow(self, view: Mapping[str, Any], legal: Sequence[Any], c: list[int], size: int) -> Any:
        passes = [a for a in legal if isinstance(a, Pass)]
        pass_ = passes[0] if passes else next((a for a in legal if not isinstance(a, Play)), None)
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return pass_ if pass_ is not None else legal[0]
        last = view.get("last_play") or {}
        owner = last.get("seat", -1)
        rel = self._relation(view, owner) if owner >= 0 else "opponent"
        if rel == "partner" and pass_ is not None:
            return pass_
        for p in plays:
            if p.size == size:  # goes out
                return p
        counts = view["hand_counts"]
        danger = (owner >= 0 and counts[owner] <= DANGER) or bool(self._opponents_low(view))
        ranks_left = sum(1 for r in range(13) if c[r])

        def cost(p: Play) -> float:
            k = 0.0
            if p.n:
                k += p.rank
                rest = c[p.rank] - p.n
                if rest:
                    k += 4.0 + (3.0 if p.rank >= 11 else 0.0)  # breaking a set
            else:
                k += 13.0
            k += 20.0 * p.big + 14.0 * p.small
            if p.reveal is not None:
                k += 3.0
            return k

        best = min(plays, key=cost)
        if pass_ is None:
            return best
        jokers = best.big + best.small
        if rel == "unknown":
            if jokers or cost(best) > 10 and not danger:
                return pass_
            return best
        if jokers and size > JOKER_SAVE and not danger and ranks_left > jokers + 1:
            return pass_
        if best.n and best.rank >= 11 and c[best.rank] > best.n and size > 15 and not danger:
            return pass_  # do not break the top sets early
        return best
