"""Shuangkou room options (spec §2–§5), validated with messages a player understands.

>>> resolve_options()["min_triple_run"], resolve_options(points_double=4)["points_double"]
(3, 4)

Decisions where the spec leaves room:

- [decision] ``min_triple_run`` is 2 or 3 (the spec names only these two); any other value
  is refused rather than guessed at.
- [decision] points are whole numbers ≥ 0; they need not be ordered (a room may score
  单扣 like 双扣).
- [decision] ``first_lead`` is a match-carried option: the seat that leads the first trick,
  or ``None`` for a seat drawn from the game's seed (spec §2: first hand, 双扣, abnormal end).
"""

from __future__ import annotations

from typing import Any

from paiju.options import Option, OptionSchema

_POINTS = "option {name} must be a whole number of points ≥ 0, not {value!r}"

SCHEMA = OptionSchema(
    "Shuangkou",
    (
        Option(
            "min_triple_run",
            "choice",
            3,  # 连三张: 三个或三个以上 (seed); 2 is common elsewhere
            term="连三张",
            help="连三张: the fewest consecutive triples that make a triple run (3, or 2)",
            choices=(2, 3),
            whole=True,
            error="option min_triple_run must be 2 or 3 (triples in a row), not {value!r}",
        ),
        Option(
            "four_joker_bomb",
            "bool",
            False,  # not in the seed
            term="天王炸",
            help="天王炸: BJ BJ SJ SJ is a bomb above every other bomb",
        ),
        Option(
            "points_double",
            "int",
            3,
            term="双扣",
            help="双扣: points per player when the first finisher's partner is second",
            whole=True,
            minimum=0,
            error=_POINTS,
        ),
        Option(
            "points_single",
            "int",
            2,
            term="单扣",
            help="单扣: points per player when the first finisher's partner is third",
            whole=True,
            minimum=0,
            error=_POINTS,
        ),
        Option(
            "points_level",
            "int",
            1,
            term="平扣",
            help="平扣: points per player when the first finisher's partner is last",
            whole=True,
            minimum=0,
            error=_POINTS,
        ),
        Option(
            "first_lead",
            "seat",
            None,  # set by a match after 单扣 / 平扣
            help="the seat that leads first (a match sets it); empty for a random seat",
            whole=True,
            minimum=0,
            maximum=3,
            optional=True,
            in_form=False,  # carried by a match, not chosen in a room form
            error="option first_lead must be a seat 0-3 (or empty for a random seat), not {value!r}",
        ),
    ),
)

DEFAULTS: dict[str, Any] = SCHEMA.defaults
OPTION_NAMES = SCHEMA.names
MIN_TRIPLE_RUNS = (2, 3)
POINT_OPTIONS = ("points_double", "points_single", "points_level")
OPTION_HELP: dict[str, str] = {o.name: o.help for o in SCHEMA}


def resolve_options(**overrides: Any) -> dict[str, Any]:
    """All options of a room: the defaults, then the overrides, validated."""
    SCHEMA.refuse_unknown(overrides)
    opts = {**DEFAULTS, **overrides}
    SCHEMA.check(opts)
    return opts


def describe_options() -> dict[str, Any]:
    """Every room option with its type and default (for a lobby's room form)."""
    return {"presets": {}, "preset_option": None, "default_preset": None, "options": SCHEMA.describe(), "seats": 4}
