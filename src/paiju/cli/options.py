"""The arguments that set a game up, as ``play``, ``simulate`` and ``tournament`` take them:
the game, ``--variant``, ``--seed``, ``-o key=value`` room options and ``--bots``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Annotated, Any

import typer

import paiju
from paiju.bots import Bot, make_bot
from paiju.cli.common import _fail
from paiju.errors import IllegalAction
from paiju.game import Game


def _option_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    if "," in text:  # a list, e.g. Shengji's team_levels=5,3 or levels=2,5,T,J,Q,K,A
        return [_option_value(x.strip()) for x in text.split(",")]
    try:
        return int(text)
    except ValueError:
        return text


def parse_options(pairs: Sequence[str] | None, variant: str | None = None) -> dict[str, Any]:
    """``["kao=true", "hold-sixes=yes"]`` → ``{"kao": True, "hold_sixes": True}`` (plus the
    variant when given). Values true/false/yes/no/on/off are booleans, digits integers,
    comma-separated values lists."""
    opts: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            _fail(f"--option {pair!r} is not key=value (e.g. --option kao=true)")
        opts[key] = _option_value(value.strip())
    if variant is not None:
        opts["variant"] = variant
    return opts


def _new_game(name: str, seed: int | None, options: dict[str, Any]) -> Game:
    try:
        return paiju.new_game(name, seed=seed, **options)
    except IllegalAction as e:
        _fail(str(e))
    except TypeError as e:  # a game that takes no such keyword
        _fail(f"bad option for {name}: {e}")


def _make_bots(spec: str, game: Game, skip: int | None, seed: int | None) -> dict[int, Bot]:
    """Bots for every seat but ``skip``: one name for all, or one per seat in seat order
    (either for the bot seats only, or for every seat with the human's entry ignored)."""
    names = [x.strip() for x in spec.split(",") if x.strip()]
    seats = [s for s in range(game.num_players) if s != skip]
    if len(names) == 1:
        names *= len(seats)
    elif skip is not None and len(names) == game.num_players:
        names = [nm for s, nm in enumerate(names) if s != skip]
    if len(names) != len(seats):
        _fail(f"--bots needs one bot name or {len(seats)} (one per bot seat), not {len(names)}")
    rng = random.Random(seed)
    try:
        return {s: make_bot(nm, game=game.name, seed=rng.randrange(2**62)) for s, nm in zip(seats, names)}
    except IllegalAction as e:
        _fail(str(e))


GameArg = Annotated[str, typer.Argument(help=f"The game: {', '.join(paiju.GAMES)}.", show_default=False)]
VariantOpt = Annotated[str | None, typer.Option("--variant", "-v", help="Rule preset (e.g. standard, classic).")]
SeedOpt = Annotated[int | None, typer.Option("--seed", "-s", help="Seed of the deal (and of the bots).")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help="A room option as key=value (repeatable), e.g. -o kao=true, -o decks=3, -o min_triple_run=2.",
    ),
]
