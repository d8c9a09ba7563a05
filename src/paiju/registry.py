"""Games by name, and the three entry points every caller uses: ``new_game``,
``replay`` and ``new_match`` (each game's parts are in :mod:`paiju.specs`)."""

from __future__ import annotations

from typing import Any

from paiju.errors import IllegalAction
from paiju.game import Game
from paiju.match import Match
from paiju.specs import GAMES, spec
from paiju.versions import RECORD_VERSION, upgrade_options

__all__ = ["GAMES", "game_class", "new_game", "new_match", "replay"]


def game_class(name: str) -> type[Game]:
    """The class implementing game ``name`` (the package ``paiju.<name>``)."""
    return spec(name).game_class


def new_game(name: str, seed: int | None = None, deal: Any = None, **options: Any) -> Game:
    """A new hand of game ``name``. Options are the snake_case names of the game's spec
    (e.g. ``variant="classic", kao=True``); ``deal`` gives each seat's cards explicitly.

    >>> g = new_game("baohuang", seed=1, variant="classic")
    >>> g.options["guard"]
    'call'
    """
    return spec(name).new(seed=seed, deal=deal, **options)


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
    spec(name)
    return Match(name, seed=seed, **options)
