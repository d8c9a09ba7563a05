"""The bot interface and the registry of bots by name.

A bot decides for one seat from what that seat may know: it gets the seat's view (the
mapping ``game.view(seat)`` returns) and the legal actions, and returns one of those
actions. It never sees the game object, so it cannot peek at hidden cards or roles.

>>> from paiju.bots import make_bot
>>> make_bot("random", game="baohuang", seed=1).act({}, ["pass", "7"]) in ("pass", "7")
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from paiju.errors import IllegalAction
from paiju.game import Game


@runtime_checkable
class Bot(Protocol):
    """A player program: ``act(view, legal)`` returns one element of ``legal``."""

    name: str

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        """The action to take, chosen from ``legal``, knowing only ``view``."""
        ...


BotFactory = Callable[..., Bot]
"""Makes a bot: ``factory(game=<game name>, seed=<int or None>)``; raises
:class:`paiju.IllegalAction` when the bot cannot play that game."""

_BOTS: dict[str, tuple[BotFactory, str]] = {}


def register(name: str, description: str) -> Callable[[BotFactory], BotFactory]:
    """Class decorator (or factory decorator) adding a bot to the registry under ``name``."""

    def deco(factory: BotFactory) -> BotFactory:
        if name in _BOTS:
            raise ValueError(f"a bot named {name!r} is already registered")
        _BOTS[name] = (factory, description)
        return factory

    return deco


def bot_names() -> list[str]:
    """Names of the registered bots."""
    return list(_BOTS)


def bot_descriptions() -> dict[str, str]:
    """One line per registered bot."""
    return {name: desc for name, (_, desc) in _BOTS.items()}


def make_bot(name: str, *, game: str, seed: int | None = None) -> Bot:
    """A new bot ``name`` for a seat of ``game``; ``seed`` makes a random bot repeatable.

    ``name`` may carry the bot's parameters: ``search:seconds=0.1:worlds=16`` (numbers are
    read as numbers).

    >>> make_bot("search:worlds=8", game="shuangkou").worlds
    8
    >>> make_bot("random:speed=2", game="shuangkou")
    Traceback (most recent call last):
    ...
    paiju.errors.IllegalAction: bot 'random' has no parameter 'speed'
    """
    base, *params = name.split(":")
    try:
        factory, _ = _BOTS[base]
    except KeyError:
        raise IllegalAction(f"unknown bot {base!r}; bots are {', '.join(_BOTS)}") from None
    kwargs: dict[str, Any] = {}
    for p in params:
        key, eq, value = p.partition("=")
        if not eq or not key:
            raise IllegalAction(f"bot parameters are written name:key=value, not {p!r}")
        kwargs[key] = _number(value)
    try:
        return factory(game=game, seed=seed, **kwargs)
    except TypeError as e:
        if kwargs and "unexpected keyword" in str(e):
            bad = str(e).split("'")[-2]
            raise IllegalAction(f"bot {base!r} has no parameter {bad!r}") from None
        raise


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


class LazyView(Mapping[str, Any]):
    """``game.view(seat)``, computed on first use.

    Views are not free (they copy the public event log), and a bot such as ``random``
    never reads its view; handing it a lazy view keeps simulations fast. It reflects the
    game at the moment of the decision: a bot must not keep it for later.
    """

    __slots__ = ("_game", "_seat", "_view")

    def __init__(self, game: Game, seat: int | None) -> None:
        self._game = game
        self._seat = seat
        self._view: dict[str, Any] | None = None

    def _data(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._game.view(self._seat)
        return self._view

    def __getitem__(self, key: str) -> Any:
        return self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())

    def __repr__(self) -> str:
        return f"<LazyView seat={self._seat}{' (computed)' if self._view is not None else ''}>"
