"""Entrants 参赛者 and a tournament's settings, checked before anything is stored.

An entrant is a player in Baohuang and a fixed pair in the partnership games (Shengji,
Shuangkou: partners sit opposite, seats 0+2 or 1+3). A pair registers together and plays
every board of the tournament together.

>>> e = Entrant("east", ("ann", "bob"))
>>> check_entrants("shengji", [e, Entrant("west", ("cid", "dan"))])
>>> check_entrants("shengji", [e])
Traceback (most recent call last):
...
paiju.errors.IllegalAction: a shengji tournament needs at least 2 entrants; it has 1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import paiju.server.reasons  # noqa: F401 - registers the tournament reason codes
from paiju.errors import IllegalAction
from paiju.specs import spec
from paiju.tournament import PARTNERSHIP_GAMES

FORMATS = ("swiss", "knockout")
MIN_ENTRANTS = 2
"""Two pairs make one table; two Baohuang players one table with three computer players."""
MAX_ROUNDS = 15
MAX_BOARDS = 20


@dataclass(frozen=True)
class Entrant:
    """One entrant: its name (a pair's team name, or the player's) and its players."""

    name: str
    members: tuple[str, ...]


def is_pair_game(game: str) -> bool:
    """Whether ``game`` is played by fixed partners sitting opposite."""
    return game in PARTNERSHIP_GAMES


def entrant_size(game: str) -> int:
    """Players per entrant: 2 in a partnership game, else 1."""
    return 2 if is_pair_game(game) else 1


def sides(game: str) -> int:
    """The different sets of cards an entrant can hold at one table: 2 sides (seats 0+2,
    1+3) in a partnership game, each seat in the others."""
    return 2 if is_pair_game(game) else spec(game).seats


def check_entrants(game: str, entrants: Sequence[Entrant]) -> None:
    """Raise IllegalAction (``too_few_entrants``, ``pair_of_one``, ``entrant_twice``) on a
    field that cannot play; return None for a good one."""
    size = entrant_size(game)
    players: set[str] = set()
    names: set[str] = set()
    for e in entrants:
        if len(e.members) != size or len(set(e.members)) != size:
            if size == 1:
                raise IllegalAction(
                    f"{e.name}'s players are not a value the hall takes", code="bad_value", where=e.name
                )
            raise IllegalAction(
                f"a {game} entrant is a pair of two different players: {e.name} has {len(set(e.members))}",
                code="pair_of_one",
                game=game,
                entrant=e.name,
                count=len(set(e.members)),
            )
        twice = [m for m in e.members if m in players] + ([e.name] if e.name in names else [])
        if twice:
            raise IllegalAction(f"{twice[0]} is entered twice", code="entrant_twice", player=twice[0])
        players.update(e.members)
        names.add(e.name)
    if len(entrants) < MIN_ENTRANTS:
        raise IllegalAction(
            f"a {game} tournament needs at least {MIN_ENTRANTS} entrants; it has {len(entrants)}",
            code="too_few_entrants",
            game=game,
            min=MIN_ENTRANTS,
            count=len(entrants),
        )


def board_step(game: str, fmt: str) -> int:
    """Boards in a round come in multiples of this: in a Swiss round each entrant holds each
    side equally only over a whole cycle of the sides; a knockout match plays every board in
    every seating, so any number is fair."""
    return sides(game) if fmt == "swiss" else 1


def check_format(game: str, fmt: str, rounds: int, boards: int) -> None:
    """Raise IllegalAction (``bad_tournament_format``, ``bad_rounds``, ``bad_boards``) on
    settings that cannot be played. ``rounds`` is checked for Swiss only (a knockout's
    rounds follow from the field)."""
    if fmt not in FORMATS:
        raise IllegalAction("a tournament's format is swiss or knockout", code="bad_tournament_format")
    if fmt == "swiss" and not (isinstance(rounds, int) and 1 <= rounds <= MAX_ROUNDS):
        raise IllegalAction(f"a Swiss tournament plays 1 to {MAX_ROUNDS} rounds", code="bad_rounds", max=MAX_ROUNDS)
    step = board_step(game, fmt)
    if not (isinstance(boards, int) and step <= boards <= MAX_BOARDS and boards % step == 0):
        raise IllegalAction(
            f"a round plays {step} to {MAX_BOARDS} boards, a multiple of {step}",
            code="bad_boards",
            min=step,
            max=MAX_BOARDS,
            step=step,
        )
