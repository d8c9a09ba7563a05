"""paiju's games as Python OpenSpiel games: one generic :class:`PaijuGame` / :class:`PaijuState`
pair over the engines, with the PettingZoo environments' action tables and encodings.

The deal is **explicit chance, over seeds**: the first :data:`SEED_BYTES` moves of every
game are chance nodes, each a uniform byte; together they are the hand's seed, and the
engine deals from it (``paiju.new_game(name, seed=…)``) — so does a Baohuang redeal
(重新发牌) in the middle of the declarations, which a card-by-card chance deal could not
show without reaching into the engine. A history (chance bytes, then the players' action
ids) therefore fixes the state exactly: serialization, replay and ``random_sim_test``
work from it. What a chance node cannot give is a distribution over *cards* at each
step; an algorithm that needs one (exact CFR over the deal) is hopeless on decks of
108–216 cards anyway. Algorithms that sample worlds (ISMCTS) use
:meth:`PaijuState.resample_from_infostate`, which deals the hidden cards consistently
with one seat's view (``paiju.<game>.worlds``).

Everything a seat is told comes from ``engine.view(seat)``:

- the **information state string** is that view as canonical JSON (the game's options
  left out: they are the game's parameters), plus the seat's pending picks in Shengji.
  The view holds the seat's hand and the whole public log of the hand, so it is
  perfect-recall. In 双扣 suits never matter and the engine chooses the copies a play
  takes, so card texts are reduced to ranks there (a world dealt from a view then shows
  the same string);
- the **observation string** is the same without the logs (the current trick stays);
- both **tensors** are the PettingZoo environment's observation (``paiju.env``,
  ``docs/env.md``) — a summary of the log, not the log itself.

Action ids are exactly the environments' ``Discrete`` actions (``env.action_table``);
in Shengji a play is picked card by card and closed with ``done``, as in ``shengji_v0``.
Rewards come at the end: the engine's scores.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import numpy as np
import pyspiel

import paiju
from paiju.baohuang.options import BOOLEANS as BAOHUANG_BOOLEANS
from paiju.baohuang.options import PRESETS as BAOHUANG_PRESETS
from paiju.cards import RANKS
from paiju.env.baohuang_v0 import BaohuangEnv
from paiju.env.shengji_v0 import ShengjiEnv
from paiju.env.shuangkou_v0 import ShuangkouEnv
from paiju.game import Game

SEED_BYTES = 4
"""Chance nodes at the start of every game: the hand's seed, one uniform byte each."""

ENVS = {"baohuang": BaohuangEnv, "shengji": ShengjiEnv, "shuangkou": ShuangkouEnv}

LOGS = ("events", "tricks")
"""View entries that are the hand's history (left out of the observation string)."""

NAMES = {
    "baohuang": "paiju 保皇 Baohuang",
    "shengji": "paiju 升级 Shengji",
    "shuangkou": "paiju 双扣 Shuangkou",
}

# -- parameters -----------------------------------------------------------------------------
# OpenSpiel parameters are ints, floats, bools or strings with a default, always given to
# the game, and a game string (``python_paiju_shengji(decks=3,start_level=5)``) is read
# back with each value's type guessed from its text. So the room options map onto them
# with a few changes, each written in docs/env.md:
#
# - a rank is an int 2 … 14 (10 = T, 11 = J … 14 = A): ``start_level``, ``win_at``,
#   ``hold_rank`` ("2" would come back as an int, and "T" must not be a string elsewhere);
# - Shengji's ``levels`` lists ranks with ``/`` (a comma ends the parameter): "2/5/T/A";
# - an option whose default hangs on another (Baohuang's preset options on ``variant``)
#   or is None says "not given" by its default: "" for a choice, -1 for a yes/no (else
#   0 or 1), -1 for Shuangkou's ``first_lead`` (drawn from the seed).

# Baohuang's options a variant presets: yes/no ones, and choices
_BAOHUANG_SWITCHES = tuple(k for k in BAOHUANG_PRESETS["standard"] if k in BAOHUANG_BOOLEANS)
_BAOHUANG_CHOICES = tuple(k for k in BAOHUANG_PRESETS["standard"] if k not in BAOHUANG_BOOLEANS)
_RANKS = {"baohuang": ("hold_rank",), "shengji": ("start_level", "win_at"), "shuangkou": ()}
_NOT_PARAMETERS = {
    "baohuang": ("leave_penalty", "tribute_due"),  # the server's; carried by a match
    "shengji": ("team_levels", "declarer"),  # carried by a match
    "shuangkou": (),
}


def parameter_specification(name: str) -> dict[str, Any]:
    """The game parameters of ``python_paiju_<name>`` and their defaults."""
    if name == "baohuang":
        from paiju.baohuang.options import COMMON as defaults

        spec: dict[str, Any] = {"variant": "standard"}
        spec.update({k: "" for k in _BAOHUANG_CHOICES})
        spec.update({k: -1 for k in _BAOHUANG_SWITCHES})
    elif name == "shengji":
        from paiju.shengji.options import DEFAULTS as defaults

        spec = {}
    else:
        from paiju.shuangkou.options import DEFAULTS as defaults

        spec = {}
    for key, value in defaults.items():
        if key in _NOT_PARAMETERS[name]:
            continue
        if key in _RANKS[name]:
            value = RANKS.index(value) + 2
        spec[key] = -1 if value is None else value
    return spec


def options_from_parameters(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """The room options of OpenSpiel game parameters (the "not given" defaults dropped)."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key in _RANKS[name]:
            if not isinstance(value, int) or not 2 <= value <= 14:
                raise ValueError(f"{key} is a rank as a number 2 … 14 (11 J, 12 Q, 13 K, 14 A), not {value!r}")
            value = RANKS[value - 2]
        elif name == "baohuang" and key in _BAOHUANG_CHOICES and value == "":
            continue
        elif name == "baohuang" and key in _BAOHUANG_SWITCHES:
            if value not in (-1, 0, 1):
                raise ValueError(f"{key} is -1 (the variant's), 0 or 1, not {value!r}")
            if value == -1:
                continue
            value = bool(value)
        elif name == "shengji" and key == "levels":
            value = str(value).replace("/", ",")
        elif name == "shuangkou" and key == "first_lead" and value == -1:
            value = None
        out[key] = value
    return out


def parameters_from_options(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """The game parameters of a game's options (``game.options``, ``view["options"]``):
    the inverse of :func:`options_from_parameters`, for the options that are parameters."""
    spec = parameter_specification(name)
    out: dict[str, Any] = {}
    for key, value in options.items():
        if key not in spec:
            continue
        if key in _RANKS[name]:
            value = RANKS.index(str(value)) + 2
        elif name == "baohuang" and key in _BAOHUANG_SWITCHES:
            value = int(bool(value))
        elif name == "shengji" and key == "levels":
            value = str(value).replace(",", "/")
        elif value is None:
            value = -1
        out[key] = value
    return out


# -- bounds ---------------------------------------------------------------------------------


def utility_bound(name: str, options: dict[str, Any]) -> float:
    """A bound no seat's score in one hand can pass (safe, far from tight: OpenSpiel
    checks every return against it; typical scores are in docs/env.md)."""
    if name == "baohuang":
        # 明独: ±24 for the emperor, × 2 造反, × 2 per kick (at most four), × 2 × 6 tribute cards
        return 24.0 * 2 * 2**4 * 2 * 6
    if name == "shengji":
        from paiju.shengji.options import PACK_SIZES
        from paiju.shengji.scoring import step_points

        decks = options["decks"]
        hand, kitty = PACK_SIZES[decks]
        # the largest kitty multiplier: a tractor of every pair (or triple) of a hand, or
        # 2 × the cards of a unit; throw penalties at most one per trick
        mult = max(2 ** (hand // 2 + 1), 2 * hand, 8)
        points = 100 * decks + 10 * kitty * mult + abs(options["throw_penalty"]) * hand
        return float(3 + points // step_points(decks, options.get("level_step", 0)))
    return float(max(options["points_double"], options["points_single"], options["points_level"]))


MAX_GAME_LENGTH = {"baohuang": 4000, "shengji": 2000, "shuangkou": 1200}
"""Decisions (chance moves not counted) a hand stays under; random play's longest hands
are in docs/env.md. Baohuang's redeals are unbounded by the rules: its bound holds for
fewer than about 350 redeals in a row."""


# -- the game -------------------------------------------------------------------------------


def game_type(name: str) -> pyspiel.GameType:
    players = paiju.new_game(name, seed=0).num_players
    return pyspiel.GameType(
        short_name=f"python_paiju_{name}",
        long_name=NAMES[name],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(name),
    )


class PaijuGame(pyspiel.Game):
    """One of paiju's games for OpenSpiel (a subclass per game gives :attr:`name`)."""

    name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**parameter_specification(self.name), **(params or {})}
        self.options = options_from_parameters(self.name, params)
        self.env = ENVS[self.name](**self.options)  # validates the options; the action table
        self.attached: tuple[Any, int] | None = None  # (engine holder, moves) the env looks at
        bound = utility_bound(self.name, self.env.game.options)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.env.action_table),
            max_chance_outcomes=256,
            num_players=self.env.num_players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH[self.name],
        )
        super().__init__(GAME_TYPES[self.name], info, params)

    def new_initial_state(self) -> PaijuState:
        return PaijuState(self)

    def max_chance_nodes_in_history(self) -> int:
        return SEED_BYTES

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PaijuObserver:
        return PaijuObserver(self, iig_obs_type, params)

    def deal(self, seed: int) -> Game:
        """The engine's hand for ``seed``."""
        return paiju.new_game(self.name, seed=seed, **self.options)


class Engine:
    """The engine's game inside a state: copied with ``clone()`` (OpenSpiel deep-copies a
    state's attributes) and pickled as its record (OpenSpiel pickles them to serialize)."""

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> Engine:
        return Engine(self.game.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replayed, (self.game.record(),))


def _replayed(record: dict[str, Any]) -> Engine:
    return Engine(paiju.replay(record))


class PaijuState(pyspiel.State):
    """A hand of a paiju game: the seed's chance bytes, then the engine's hand."""

    def __init__(self, game: PaijuGame) -> None:
        super().__init__(game)
        self._seed: list[int] = []  # chance bytes drawn so far
        self._engine: Engine | None = None  # the hand, once the seed is whole
        self._pending: Counter[int] = Counter()  # Shengji: picks of the play being built
        self._moves = 0  # actions applied to this state (with the engine: what the env saw)

    # -- the engine, through the game's environment ---------------------------------------
    @property
    def engine(self) -> Game | None:
        """The engine's game (None while the seed is drawn): read it, never change it."""
        return None if self._engine is None else self._engine.game

    def _env(self) -> Any:
        """The game's environment looking at this state (its legal actions kept between
        ``legal_actions`` and ``apply_action`` of the same state: they cost the most)."""
        game = self.get_game()
        if game.attached != (self._engine, self._moves):
            game.env.attach(self.engine, self._pending)
            game.attached = (self._engine, self._moves)
        return game.env

    # -- OpenSpiel ------------------------------------------------------------------------
    def current_player(self) -> int:
        g = self.engine
        if g is None:
            return int(pyspiel.PlayerId.CHANCE)
        if g.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(g.to_act)  # type: ignore[arg-type]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._env().legal_map())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(b, 1.0 / 256) for b in range(256)]

    def _apply_action(self, action: int) -> None:
        if self._engine is None:
            self._seed.append(int(action))
            if len(self._seed) == SEED_BYTES:
                self._engine = Engine(self.get_game().deal(int.from_bytes(bytes(self._seed), "big")))
            return
        env = self._env()
        env._act(int(action))
        self._moves += 1
        picks: Counter[int] | None = getattr(env, "_pending", None)  # Shengji's env keeps the picks
        if picks is not None:
            self._pending = picks

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return str(self.get_game().env.action_text(int(action)))

    def is_terminal(self) -> bool:
        g = self.engine
        return g is not None and g.is_over

    def returns(self) -> list[float]:
        g = self.engine
        if g is None or not g.is_over:
            return [0.0] * self.get_game().num_players()
        return [float(s) for s in g.scores]

    def __str__(self) -> str:
        g = self.engine
        if g is None:
            return f"seed bytes {self._seed}"
        picks = f"\npicks {sorted(self._pending.elements())}" if self._pending else ""
        return json.dumps(g.record(), sort_keys=True, ensure_ascii=False) + picks

    # -- worlds ---------------------------------------------------------------------------
    def resample_from_infostate(self, player: int, probability_sampler: Any = None) -> PaijuState:
        """A state ``player`` cannot tell from this one: the hidden cards dealt at random,
        consistently with the seat's view (``paiju.<game>.worlds``), at any decision — the
        deal with its declarations, the burial, Baohuang's calls, the card play. The world
        has no chance history. Raises ValueError before the deal (the seed's chance nodes)
        and at the end, and when no world can be dealt (the sampler's reason)."""
        g = self.engine
        if g is None or g.is_over:
            raise ValueError("worlds are sampled at the decisions of a dealt hand, not before the deal or at its end")
        from paiju.bots.search import sampled_worlds
        from paiju.errors import IllegalAction

        seed = int(probability_sampler() * 2**32) if callable(probability_sampler) else None
        try:
            world = next(sampled_worlds(self.get_game().name, g.view(player), random.Random(seed)))
        except IllegalAction as e:
            raise ValueError(f"no world can be sampled from seat {player}'s view: {e}") from e
        return self.wrap(self.get_game(), world, self._pending if player == g.to_act else None)

    @staticmethod
    def wrap(game: PaijuGame, engine: Game, pending: Counter[int] | None = None) -> PaijuState:
        """A state holding ``engine`` (a world, or any game of these options) with no history."""
        state = game.new_initial_state()
        state._engine = Engine(engine)
        state._pending = Counter(pending or ())
        return state


# -- what a seat is told --------------------------------------------------------------------

_SUITED = re.compile(r"\b([2-9TJQKA])[shdc]\b")


def view_text(name: str, view: dict[str, Any], pending: Counter[int] | None, logs: bool) -> str:
    """A seat's view as canonical JSON (its options left out; without the logs unless
    ``logs``), and its pending picks (Shengji)."""
    shown = {k: v for k, v in view.items() if k != "options" and (logs or k not in LOGS)}
    text = json.dumps(shown, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    if name == "shuangkou":  # suits never matter; the engine picks the copies a play takes
        text = _SUITED.sub(r"\1", text)
    if pending:
        text += " picks " + " ".join(map(str, sorted(pending.elements())))
    return text


class PaijuObserver:
    """OpenSpiel's Python observer: strings and tensors from ``engine.view(seat)`` only."""

    def __init__(self, game: PaijuGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not obs_type.public_info or obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("paiju games observe public and single-player private information together only")
        self.game = game
        self.perfect_recall = bool(obs_type.perfect_recall)
        self.tensor = np.zeros(game.env.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PaijuState, player: int) -> None:
        g = state.engine
        if g is None:
            self.tensor.fill(0)
            return
        env = state._env()
        self.tensor[:] = env.encode(g.view(player), player)

    def string_from(self, state: PaijuState, player: int) -> str:
        g = state.engine
        if g is None:
            return f"seat {player}: not dealt"
        pending = state._pending if player == g.to_act else None
        return view_text(self.game.name, g.view(player), pending, self.perfect_recall)


class BaohuangGame(PaijuGame):
    """保皇 Baohuang for OpenSpiel: ``python_paiju_baohuang``."""

    name = "baohuang"


class ShengjiGame(PaijuGame):
    """升级 Shengji for OpenSpiel: ``python_paiju_shengji``."""

    name = "shengji"


class ShuangkouGame(PaijuGame):
    """双扣 Shuangkou for OpenSpiel: ``python_paiju_shuangkou``."""

    name = "shuangkou"


GAME_TYPES = {name: game_type(name) for name in ENVS}
GAME_CLASSES: dict[str, type[PaijuGame]] = {
    "baohuang": BaohuangGame,
    "shengji": ShengjiGame,
    "shuangkou": ShuangkouGame,
}
for _name, _cls in GAME_CLASSES.items():
    pyspiel.register_game(GAME_TYPES[_name], _cls)
