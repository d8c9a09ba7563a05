"""OpenSpiel's ISMCTS (information set Monte Carlo tree search, Cowling, Powley and
Whitehouse 2012; ``open_spiel.python.algorithms.ismcts``) as a paiju bot:
``openspiel-ismcts``.

OpenSpiel's own search, unchanged but for a clock: :class:`TimedISMCTS` runs its
simulations until ``seconds`` have passed (at least two; ``simulations`` caps them), so
that it can be measured against paiju's ``search`` bot at equal time per decision. Each
simulation starts from a world sampled from the seat's view — the hidden cards dealt
consistently with everything the seat has seen (:meth:`PaijuState.resample_from_infostate`,
``paiju.<game>.worlds``) — and the tree's nodes are the seats' information states (their
views). A new leaf is valued by OpenSpiel's ``RandomRolloutEvaluator`` (``rollout=random``,
the algorithm as published) or by playing the hand out with paiju's heuristic bot
(``rollout=heuristic``).

As with ``search``, only card-play decisions with a choice, once the hand is down to
``cards`` cards (default 6), are searched; the others are the ``heuristic`` bot's. With
``before=1`` (random rollouts only) the decisions before the play are searched too —
Shengji's declarations and burial, Baohuang's tribute picks and calls — over worlds of
those phases; with ``cards=99`` as well, the bot searches every decision of a hand. In
Shengji a play is searched pick by pick (the environment's action ids), the decision's
time shared between the picks (a follow: equally among the lead's number of cards; a
lead: half of what is left at each pick).

The C++ ISMCTS of OpenSpiel (``pyspiel.ISMCTSBot``) cannot be used: it resamples through
the state's C++ ``ResampleFromInfostate``, which a Python game cannot override.

>>> from paiju.bots import make_bot
>>> bot = make_bot("openspiel-ismcts:seconds=0.05", game="shuangkou", seed=1)
>>> bot.seconds, bot.rollout
(0.05, 'random')
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts
from open_spiel.python.algorithms.mcts import Evaluator, RandomRolloutEvaluator

from paiju.bots.base import make_bot
from paiju.bots.search import ENDGAME_CARDS, ROLLOUTS, sampled_worlds
from paiju.env.shengji_v0 import DONE
from paiju.errors import IllegalAction
from paiju.openspiel.game import GAME_CLASSES, PaijuState, parameters_from_options

SECONDS = 1.0
"""Default time per searched decision (the ``search`` bot's default)."""
UCT_C = 2.0
"""Default exploration constant (scores are raw points: ±1–3 in Shengji and Shuangkou,
±2–24 in Baohuang)."""


class TimedISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTS bot with a clock: :meth:`run_search` is OpenSpiel's, simulating
    until ``seconds`` have passed or ``max_simulations`` are done (two at least)."""

    def __init__(self, game: pyspiel.Game, evaluator: Any, seconds: float, **kwargs: Any) -> None:
        super().__init__(game, evaluator, **kwargs)
        self.seconds = seconds
        self.simulations = 0  # simulations of the last search

    def run_search(self, state: pyspiel.State) -> list[tuple[int, float]]:
        self.reset()
        self.simulations = 0
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        deadline = time.perf_counter() + self.seconds
        n = 0
        # the first simulation only expands the root: two at least, so that a child is visited
        while n < 2 or (n < self._max_simulations and time.perf_counter() < deadline):
            sampled = self.sample_root_state(state)
            if self.get_state_key(sampled) != root_key:
                raise AssertionError("a sampled world is not in the root's information state")
            self.run_simulation(sampled)
            n += 1
        self.simulations = n
        return self.get_final_policy(state, self._root_node)


class HeuristicRolloutEvaluator(Evaluator):
    """Values a state by playing the hand out with paiju's heuristic (every seat), once;
    a Shengji play half picked is finished first with random picks. Uniform prior."""

    def __init__(self, game_name: str, rng: np.random.RandomState) -> None:
        self._policy = ROLLOUTS[game_name]["heuristic"]
        self._rng = rng

    def evaluate(self, state: PaijuState) -> np.ndarray:
        working = state.clone()  # its engine is a copy of its own, played out here
        while working._pending and not working.is_terminal():
            legal = working.legal_actions()
            working.apply_action(legal[self._rng.randint(len(legal))])
        g = working.engine
        assert g is not None
        while not g.is_over:
            g.apply(self._policy(g))
        return np.array([float(s) for s in g.scores])

    def prior(self, state: PaijuState) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class OpenSpielISMCTS:
    """The ``openspiel-ismcts`` bot (module doc): parameters ``seconds``, ``simulations``
    (a cap), ``uct_c``, ``rollout`` (random or heuristic), ``rollouts`` (random rollouts
    per leaf), ``cards`` and ``before``."""

    name = "openspiel-ismcts"

    def __init__(
        self,
        game: str = "baohuang",
        seed: int | None = None,
        seconds: float = SECONDS,
        simulations: int = 100_000,
        uct_c: float = UCT_C,
        rollout: str = "random",
        rollouts: int = 1,
        cards: int = ENDGAME_CARDS,
        before: int = 0,
    ) -> None:
        if game not in GAME_CLASSES:
            raise IllegalAction(f"openspiel-ismcts does not know {game}")
        if rollout not in ("random", "heuristic"):
            raise IllegalAction(f"unknown rollout {rollout!r}; rollouts are random, heuristic")
        if seconds <= 0 or simulations < 2 or rollouts < 1:
            raise IllegalAction("openspiel-ismcts needs seconds > 0, simulations ≥ 2 and rollouts ≥ 1")
        self.game = game
        self.seconds = float(seconds)
        self.simulations = int(simulations)
        self.uct_c = float(uct_c)
        self.rollout = rollout
        self.rollouts = int(rollouts)
        self.cards = int(cards)
        if before not in (0, 1) or (before and rollout != "random"):
            raise IllegalAction("openspiel-ismcts: before is 0 or 1, and 1 needs rollout=random")
        self.before = bool(before)
        self._rng = random.Random(seed)
        self._np_rng = np.random.RandomState(self._rng.randrange(2**32))
        self._heuristic = make_bot("heuristic", game=game, seed=seed)
        self._games: dict[str, Any] = {}  # the OpenSpiel game per options
        self.stats: Counter[str] = Counter()
        """``searched`` decisions, ``searches`` (Shengji: one per pick), ``simulations``,
        ``changed`` (not the heuristic's choice), ``fallback`` (no world could be built)."""

    def _spiel_game(self, options: Mapping[str, Any]) -> Any:
        params = parameters_from_options(self.game, dict(options))
        key = repr(sorted(params.items()))
        if key not in self._games:
            self._games[key] = GAME_CLASSES[self.game](params)
        return self._games[key]

    def _searcher(self, game: Any, seconds: float) -> TimedISMCTS:
        evaluator: Any
        if self.rollout == "heuristic":
            evaluator = HeuristicRolloutEvaluator(self.game, self._np_rng)
        else:
            evaluator = RandomRolloutEvaluator(self.rollouts, self._np_rng)
        return TimedISMCTS(
            game,
            evaluator,
            seconds,
            uct_c=self.uct_c,
            max_simulations=self.simulations,
            random_state=self._np_rng,
        )

    def _search(self, game: Any, view: Mapping[str, Any]) -> Any:
        """The engine action ISMCTS chooses from ``view`` (Shengji: pick by pick); raises
        IllegalAction when a world cannot be sampled, at the root or in a simulation."""
        worlds = sampled_worlds(self.game, view, self._rng)  # the view read once for every world
        root = PaijuState.wrap(game, next(worlds))
        deadline = time.perf_counter() + self.seconds
        while True:
            left = deadline - time.perf_counter()
            share = left / self._picks_left(view, root) if self.game == "shengji" and view["phase"] == "play" else left
            searcher = self._searcher(game, max(share, 1e-3))
            searcher.set_resampler(lambda state, player: PaijuState.wrap(game, next(worlds), root._pending))
            action = int(searcher.step(root))  # OpenSpiel's choice: the most visited (ties at random)
            if searcher.simulations:  # (a forced pick is no search)
                self.stats["searches"] += 1
                self.stats["simulations"] += searcher.simulations
            if self.game == "shengji" and view["phase"] == "play" and action != DONE:
                root.apply_action(action)  # a pick: the play is not whole yet
                continue
            return root._env().legal_map()[action]

    @staticmethod
    def _picks_left(view: Mapping[str, Any], root: PaijuState) -> int:
        """The searches a Shengji play still needs, to share the decision's time: a follow
        has the lead's number of cards (the last pick's ``done`` is forced); a lead's size
        is the search's to choose, so it gets half of what is left at each pick."""
        trick = view.get("trick") or []
        if not trick:
            return 2
        return max(1, len(trick[0]["cards"].split()) - sum(root._pending.values()))

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        base = self._heuristic.act(view, legal)
        if len(legal) < 2 or (view["phase"] == "play" and len(view["hand"]) > self.cards):
            return base
        if view["phase"] != "play" and not self.before:
            return base
        game = self._spiel_game(view["options"])
        try:
            chosen = self._search(game, view)
        except IllegalAction:  # the sampler found no world (it gives up after some tries)
            self.stats["fallback"] += 1
            return base
        self.stats["searched"] += 1
        if chosen not in legal:  # the world's engine action, as the real game holds it
            raise AssertionError(f"ISMCTS chose {chosen!r}, which is not legal in the real game")
        if chosen != base:
            self.stats["changed"] += 1
        return chosen
