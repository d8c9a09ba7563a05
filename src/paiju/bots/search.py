"""The ``search`` bot: determinized search — perfect-information Monte Carlo (PIMC).

At a decision of the card play with more than one sensible action, once its hand is down
to ``cards`` cards (default 6: the end of a hand, where search pays), the bot

1. draws a *world*: the hidden cards (other hands, an unseen kitty) dealt at random but
   consistently with the view — the card counts, every card played, the voids shown in
   play, the role cards where the roles say (Baohuang's hidden guard card goes to a seat
   drawn with the odds the public play gives it) — in a game set in the view's state
   (``paiju.<game>.worlds.sample_world``);
2. for each candidate action, plays the world out from that action with every seat
   played by the rollout policy (the ``heuristic`` bot's play, or ``greedy`` for speed)
   and notes its own seat's score;
3. repeats with new worlds until the budget is spent (``seconds``, default 1 s, or
   ``worlds``). All candidates are scored on the same worlds, so what is measured is
   each one's *gain* over the heuristic's choice, world by world; the bot takes the
   candidate whose mean gain is surest to be positive (mean less ``confidence``
   standard errors, default 1) and keeps the heuristic's choice when none is.

Everything else — the decisions before play, a forced move, a position the sampler
cannot rebuild (none is known in a consistent view) — is the heuristic's choice;
:attr:`SearchBot.stats` counts searched decisions, worlds, overruled choices and
fallbacks.

Parameters come with the name in the registry: ``search:seconds=0.2:worlds=32:confidence=1.5``.

>>> import paiju
>>> from paiju.bots import make_bot
>>> g = paiju.new_game("shuangkou", seed=5)
>>> bot = make_bot("search:worlds=2:cards=99", game="shuangkou", seed=1)
>>> for _ in range(8):
...     g.apply(bot.act(g.view(g.to_act), g.legal_actions()))
>>> bot.stats["searched"] > 0
True
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from paiju.bots.base import LazyView, make_bot, register
from paiju.bots.heuristic_baohuang import HeuristicBot
from paiju.bots.heuristic_shengji import ShengjiHeuristic
from paiju.errors import IllegalAction
from paiju.game import Game, Pass
from paiju.specs import spec

SECONDS = 1.0
"""Default time budget per searched decision."""
MAX_WORLDS = 400
"""Default cap on worlds per decision (the time budget usually ends the search first)."""
CANDIDATES = 6
"""At most this many actions are compared at one decision."""
ENDGAME_CARDS = 6
"""By default the bot searches only once its hand is down to this many cards: there the
rollouts are short and the worlds close to the truth, and that is where the measured gain
over the heuristic is (docs/ai.md); earlier, a second of rollouts showed no measurable
gain.
``cards=99`` searches every decision of the play."""
CONFIDENCE = 1.0
"""How sure the search must be before it overrules the heuristic: an action replaces the
heuristic's choice only when its mean gain over it, less this many standard errors, is
above zero. Scores are coarse and worlds few, so without this margin the search would
swap a sound choice for one that won a few more lucky worlds."""

Policy = Callable[[Game], Any]


@register(
    "search",
    "determinized search (PIMC): samples hidden hands consistent with the view and plays each candidate out "
    "with heuristic rollouts at the end of a hand; parameters "
    "search:seconds=1:worlds=400:candidates=6:confidence=1:cards=6:rollout=heuristic",
)
class SearchBot:
    """Perfect-information Monte Carlo over worlds consistent with the view (module doc)."""

    name = "search"

    def __init__(
        self,
        game: str = "baohuang",
        seed: int | None = None,
        seconds: float = SECONDS,
        worlds: int = MAX_WORLDS,
        candidates: int = CANDIDATES,
        rollout: str = "heuristic",
        confidence: float = CONFIDENCE,
        cards: int | None = None,
    ) -> None:
        if game not in ROLLOUTS:
            raise IllegalAction(f"the search bot does not know {game}")
        if rollout not in ROLLOUTS[game]:
            raise IllegalAction(f"unknown rollout {rollout!r}; rollouts are {', '.join(ROLLOUTS[game])}")
        if seconds <= 0 or worlds < 1 or candidates < 2:
            raise IllegalAction("search needs seconds > 0, worlds ≥ 1 and candidates ≥ 2")
        self.game = game
        self.seconds = float(seconds)
        self.worlds = int(worlds)
        self.candidates = int(candidates)
        self.confidence = float(confidence)
        self.cards = ENDGAME_CARDS if cards is None else int(cards)
        self._rng = random.Random(seed)
        self._heuristic = make_bot("heuristic", game=game, seed=seed)
        self._rollout = ROLLOUTS[game][rollout]
        self.stats: Counter[str] = Counter()
        """``searched`` decisions, ``worlds`` played, ``changed`` (the heuristic's choice
        overruled), ``fallback`` (no world could be built)."""

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        base = self._heuristic.act(view, legal)
        if view["phase"] != "play" or len(legal) < 2 or len(view["hand"]) > self.cards:
            return base
        cands = CANDIDATE_MAKERS[self.game](view, legal, base, self.candidates)
        if len(cands) < 2:
            return base
        seat = view["seat"]
        try:
            worlds = sampled_worlds(self.game, view, self._rng)
            scores = play_outs(worlds, cands, seat, self._rollout, self.seconds, self.worlds)
        except IllegalAction:
            self.stats["fallback"] += 1
            return base
        # gains[i][w]: candidate i's score minus the heuristic's choice's score in world w
        gains = [[x - y for x, y in zip(row, scores[0], strict=True)] for row in scores]
        n = len(scores[0])
        self.stats["searched"] += 1
        self.stats["worlds"] += n
        best, best_low = 0, 0.0
        for i in range(1, len(cands)):
            low = _lower_bound(gains[i], self.confidence)
            if low > best_low:
                best, best_low = i, low
        if best:
            self.stats["changed"] += 1
        return cands[best]


def sampled_worlds(game: str, view: Mapping[str, Any], rng: random.Random) -> Iterator[Game]:
    """Worlds without end, each dealt at random consistently with ``view`` (module doc, step 1):
    a hidden Baohuang guard card goes to a seat with the odds its public play gives it.
    Raises :class:`IllegalAction` at once, or when drawn, if no world can be built."""
    sampler = spec(game).world_sampler(view)
    hidden_guard = game == "baohuang" and view.get("guard") is None and not view.get("solo")
    odds = _guard_odds(view) if hidden_guard else None

    def draw() -> Iterator[Game]:
        while True:
            yield sampler.sample(rng, odds) if odds is not None else sampler.sample(rng)

    return draw()


def final_score(game: Game, seat: int) -> float:
    """The seat's score in a finished game (what the search bot plays for)."""
    return float(game.scores[seat])


def play_outs(
    worlds: Iterable[Game],
    cands: Sequence[Any],
    seat: int,
    rollout: Policy,
    seconds: float,
    most: int,
    value: Callable[[Game, int], float] = final_score,
) -> list[list[float]]:
    """``scores[i][w]``: ``seat``'s final score (or ``value``) when candidate ``i`` is
    played in world ``w`` and the rest of the hand by ``rollout``. Worlds are taken until
    ``most`` are played or ``seconds`` have passed (at least one); every candidate is played
    in each, so the scores pair up world by world (a world's luck cancels in their
    differences)."""
    scores: list[list[float]] = [[] for _ in cands]
    deadline = time.perf_counter() + seconds
    it, n = iter(worlds), 0
    while n < most and (n == 0 or time.perf_counter() < deadline):
        world = next(it, None)
        if world is None:
            break
        n += 1
        for i, a in enumerate(cands):
            x = world.clone()
            x.apply(a)
            while not x.is_over:
                x.apply(rollout(x))
            scores[i].append(value(x, seat))
    return scores


def mean_se(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the mean (0 for fewer than two values).

    >>> mean_se([1.0, 1.0, 1.0, 0.0])
    (0.75, 0.25)
    """
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, (var / n) ** 0.5


def _lower_bound(gains: Sequence[float], z: float) -> float:
    """Mean less ``z`` standard errors of the paired gains, with one prior world added in
    which the candidate gains nothing: three worlds that all say +1 are not certainty.

    >>> _lower_bound([1.0, 1.0, 1.0], 0.0)
    0.75
    >>> _lower_bound([1.0, 1.0, 1.0], 1.0)
    0.5
    """
    mean, se = mean_se([*gains, 0.0])
    return mean - z * se


# ---------------------------------------------------------------------- Baohuang


def _guard_odds(view: Mapping[str, Any]) -> dict[int, float]:
    """Odds per seat of holding the hidden guard card, from its public behaviour."""
    from paiju.bots.heuristic_baohuang import guard_evidence

    return {s: 2.0 ** max(-20.0, min(8.0, e)) for s, e in guard_evidence(view).items()}


_BAOHUANG_PLAYER = HeuristicBot()


def _baohuang_heuristic(x: Game) -> Any:
    """The heuristic's play for the seat to act in a world, every role of the world known
    to its players (:func:`paiju.baohuang.worlds.rollout_view`)."""
    from paiju.baohuang.worlds import rollout_view

    legal = x.legal_actions()
    if len(legal) == 1:
        return legal[0]
    return _BAOHUANG_PLAYER.act(rollout_view(x), legal)  # type: ignore[arg-type]


def _baohuang_candidates(view: Mapping[str, Any], legal: Sequence[Any], base: Any, k: int) -> list[Any]:
    """The heuristic's choice, pass, and per rank the plainest play: all copies of the
    rank without jokers when leading, the fewest jokers when following."""
    from paiju.baohuang.plays import Play

    out = [base]
    out += [a for a in legal if isinstance(a, Pass) and a != base][:1]
    plays = [a for a in legal if isinstance(a, Play) and a.reveal is None]
    plays.sort(key=lambda p: (p.big + p.small, -p.n if view.get("leading") else p.n, p.rank))
    seen = {base.rank} if isinstance(base, Play) else set()
    for p in plays:
        if len(out) >= k:
            break
        if p.rank not in seen:
            seen.add(p.rank)
            out.append(p)
    return out


# ---------------------------------------------------------------------- Shuangkou


def _shuangkou_candidates(view: Mapping[str, Any], legal: Sequence[Any], base: Any, k: int) -> list[Any]:
    """Every legal action when there are few; else the heuristic's choice, pass, and the
    lowest play of each kind (bombs last)."""
    from paiju.shuangkou.combos import Play

    if len(legal) <= k:
        return [base] + [a for a in legal if a != base]
    out = [base]
    out += [a for a in legal if isinstance(a, Pass) and a != base][:1]
    kinds: set[Any] = {(base.width, base.length, base.is_bomb)} if isinstance(base, Play) else set()
    plays = legal if len(legal) <= 400 else [legal[i] for i in range(0, len(legal), len(legal) // 400 + 1)]
    for p in sorted((a for a in plays if isinstance(a, Play)), key=lambda p: (p.is_bomb, p.high, -p.size)):
        if len(out) >= k:
            break
        key = (p.width, p.length, p.is_bomb)
        if key not in kinds:
            kinds.add(key)
            out.append(p)
    return out


# ---------------------------------------------------------------------- Shengji


def _shengji_candidates(view: Mapping[str, Any], legal: Sequence[Any], base: Any, k: int) -> list[Any]:
    """The heuristic's own preference order: the plays it valued best (leading: units and
    throws that stand; following: its few sensible answers)."""
    ranked = _SHENGJI_PLAYER.ranked(view, legal, k)
    return [base] + [a for a in ranked if a != base][: k - 1]


_SHENGJI_PLAYER = ShengjiHeuristic()


# ---------------------------------------------------------------------- tables


def _hint_of(game: str) -> Policy:
    return spec(game).hint


def _heuristic_rollout(game: str) -> Policy:
    """The heuristic bot's play through the seat's view of the world (slower: views)."""
    players: dict[int, Any] = {}

    def policy(x: Game) -> Any:
        seat = x.to_act
        assert seat is not None
        if seat not in players:
            players[seat] = make_bot("heuristic", game=game)
        return players[seat].act(LazyView(x, seat), x.legal_actions())

    return policy


ROLLOUTS: dict[str, dict[str, Policy]] = {
    "baohuang": {"heuristic": _baohuang_heuristic, "greedy": _hint_of("baohuang")},
    "shuangkou": {"heuristic": _heuristic_rollout("shuangkou"), "greedy": _hint_of("shuangkou")},
    "shengji": {"heuristic": _heuristic_rollout("shengji"), "greedy": _hint_of("shengji")},
}
"""Rollout policies per game: ``heuristic`` (the default) and ``greedy`` (the 提示 hint)."""

CANDIDATE_MAKERS: dict[str, Callable[[Mapping[str, Any], Sequence[Any], Any, int], list[Any]]] = {
    "baohuang": _baohuang_candidates,
    "shuangkou": _shuangkou_candidates,
    "shengji": _shengji_candidates,
}
