"""Games by name, and the three entry points every caller uses: ``new_game``,
``replay`` and ``new_match``."""

from __future__ import annotations

import importlib
from typing import Any

from paiju.errors import IllegalAction, reasons
from paiju.game import Game
from paiju.match import Match
from paiju.versions import RECORD_VERSION, upgrade_options

GAMES: tuple[str, ...] = ("baohuang", "shengji", "shuangkou")


reasons(unknown_game="there is no game {game} here")

_CLASSES = {"baohuang": "Baohuang", "shengji": "Shengji", "shuangkou": "Shuangkou"}


def game_class(name: str) -> type[Game]:
    """The class implementing game ``name`` (the package ``paiju.<name>``)."""
    if name not in GAMES:
        raise IllegalAction(f"unknown game {name!r}; games are {', '.join(GAMES)}", code="unknown_game", game=str(name))
    try:
        module = importlib.import_module(f"paiju.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"paiju.{name}":
            raise
        raise IllegalAction(f"the {name} engine is not written yet", code="unknown_game", game=name) from None
    cls: type[Game] = getattr(module, _CLASSES[name])
    return cls


def new_game(name: str, seed: int | None = None, deal: Any = None, **options: Any) -> Game:
    """A new hand of game ``name``. Options are the snake_case names of the game's spec
    (e.g. ``variant="classic", kao=True``); ``deal`` gives each seat's cards explicitly.

    >>> g = new_game("baohuang", seed=1, variant="classic")
    >>> g.options["guard"]
    'call'
    """
    cls: Any = game_class(name)
    game: Game = cls(seed=seed, deal=deal, **options)
    return game


def replay(record: dict[str, Any]) -> Game:
    """The game a :meth:`Game.record` describes, in exactly the same state (a record of
    an earlier version too: :func:`paiju.versions.upgrade_options`)."""
    try:
        name = record["game"]
        options = dict(record.get("options") or {})
        actions = record["actions"]
    except (KeyError, TypeError) as e:
        raise IllegalAction(f"not a paiju game record: missing {e}", code="bad_record") from e
    # an older record is replayed with the option values that give its rules their old
    # meaning (paiju.versions); a record without a version is read as of today
    options = upgrade_options(name, options, record.get("version", RECORD_VERSION))
    game = new_game(name, seed=record.get("seed"), deal=record.get("deal"), **options)
    for i, text in enumerate(actions):
        try:
            game.apply(text)
        except IllegalAction as e:
            raise IllegalAction(f"record action {i + 1} ({text!r}) is illegal: {e}", code="bad_record") from e
    return game


def new_match(name: str, seed: int | None = None, **options: Any) -> Match:
    """A match: several hands of game ``name``, carrying what passes between hands
    (Baohuang: deal start and Qingdao tribute)."""
    game_class(name)
    return Match(name, seed=seed, **options)
