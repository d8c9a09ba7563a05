"""Each game's parts in one place: a :class:`GameSpec` per game.

Whoever needs a part of a game by its name — the game class, its room options, the
world sampler of the search bot, the card tracker 记牌器, the 托管 and hint policy — asks
:func:`spec` instead of importing ``paiju.<name>`` by a computed module name. A game's
package is imported the first time its spec is asked for, so naming one game never
loads the others.

>>> s = spec("shuangkou")
>>> s.title, s.seats, s.game_class.__name__, s.presets
('双扣', 4, 'Shuangkou', {})
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from paiju.errors import IllegalAction, reasons
from paiju.game import Game

reasons(unknown_game="there is no game {game} here")

Policy = Callable[[Any], Any]
"""A policy function: the game (or a stand-in answering from one seat's view) → an action."""


@dataclass(frozen=True)
class GameSpec:
    """Everything the hall, the bots and the tools use of one game."""

    name: str
    title: str
    """The game's Chinese name: 保皇, 升级, 双扣."""
    seats: int
    game_class: type[Game]
    resolve_options: Callable[..., dict[str, Any]]
    """Room options → every option, validated (raises IllegalAction ``bad_option``)."""
    describe_options: Callable[[], dict[str, Any]]
    """Presets and every room option with its type, choices, default and help (the room form)."""
    presets: Mapping[str, Mapping[str, Any]]
    world_sampler: Callable[[Mapping[str, Any]], Any]
    """``world_sampler(view).sample(rng)``: a whole game consistent with one seat's view."""
    tracker: Callable[..., dict[str, int]]
    """记牌器: ``tracker(view)`` → copies per rank the view's seat has not seen."""
    count_played: Callable[..., dict[str, int]] | None
    """The public part of the tracker (cards played, counted over new events), if the game has it."""
    hosted_action: Policy
    """托管: the action played for a seat on auto-play."""
    hint: Policy
    hints: Callable[[Any], Sequence[Any]]
    """提示: suggestions for the seat to act, best first."""
    bury_hint: Callable[[Any], Any] | None = None
    """Shengji's suggested burial 扣底, where the game has one."""

    def new(self, seed: int | None = None, deal: Any = None, **options: Any) -> Game:
        """A new hand of this game (see :func:`paiju.new_game`)."""
        cls: Any = self.game_class
        game: Game = cls(seed=seed, deal=deal, **options)
        return game

    def sample_world(self, view: Mapping[str, Any], rng: random.Random) -> Game:
        """One world consistent with ``view`` (raises IllegalAction if none can be built)."""
        world: Game = self.world_sampler(view).sample(rng)
        return world


def _baohuang() -> GameSpec:
    from paiju.baohuang.game import Baohuang
    from paiju.baohuang.options import PRESETS, describe_options, resolve_options
    from paiju.baohuang.policy import hint, hints, hosted_action
    from paiju.baohuang.tracker import count_played, tracker
    from paiju.baohuang.worlds import WorldSampler

    return GameSpec(
        name="baohuang",
        title="保皇",
        seats=5,
        game_class=Baohuang,
        resolve_options=resolve_options,
        describe_options=describe_options,
        presets=PRESETS,
        world_sampler=WorldSampler,
        tracker=tracker,
        count_played=count_played,
        hosted_action=hosted_action,
        hint=hint,
        hints=hints,
    )


def _shengji() -> GameSpec:
    from paiju.shengji.game import Shengji
    from paiju.shengji.options import describe_options, resolve_options
    from paiju.shengji.policy import bury_hint, hint, hints, hosted_action
    from paiju.shengji.tracker import tracker
    from paiju.shengji.worlds import world_sampler

    return GameSpec(
        name="shengji",
        title="升级",
        seats=4,
        game_class=Shengji,
        resolve_options=resolve_options,
        describe_options=describe_options,
        presets={},
        world_sampler=world_sampler,
        tracker=tracker,
        count_played=None,
        hosted_action=hosted_action,
        hint=hint,
        hints=hints,
        bury_hint=bury_hint,
    )


def _shuangkou() -> GameSpec:
    from paiju.shuangkou.game import Shuangkou
    from paiju.shuangkou.options import describe_options, resolve_options
    from paiju.shuangkou.policy import hint, hints, hosted_action
    from paiju.shuangkou.tracker import count_played, tracker
    from paiju.shuangkou.worlds import WorldSampler

    return GameSpec(
        name="shuangkou",
        title="双扣",
        seats=4,
        game_class=Shuangkou,
        resolve_options=resolve_options,
        describe_options=describe_options,
        presets={},
        world_sampler=WorldSampler,
        tracker=tracker,
        count_played=count_played,
        hosted_action=hosted_action,
        hint=hint,
        hints=hints,
    )


_LOADERS: dict[str, Callable[[], GameSpec]] = {"baohuang": _baohuang, "shengji": _shengji, "shuangkou": _shuangkou}

GAMES: tuple[str, ...] = tuple(_LOADERS)
"""The games by name."""


def spec(name: str) -> GameSpec:
    """The parts of game ``name``; raises IllegalAction ``unknown_game`` for another name."""
    if name not in GAMES:
        raise IllegalAction(f"unknown game {name!r}; games are {', '.join(GAMES)}", code="unknown_game", game=str(name))
    return _load(name)


@cache
def _load(name: str) -> GameSpec:
    return _LOADERS[name]()
