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

from paiju.errors import IllegalAction

DEFAULTS: dict[str, Any] = {
    "min_triple_run": 3,  # 连三张: 三个或三个以上 (seed); 2 is common elsewhere
    "four_joker_bomb": False,  # 天王炸: not in the seed
    "points_double": 3,  # 双扣
    "points_single": 2,  # 单扣
    "points_level": 1,  # 平扣
    "first_lead": None,  # set by a match after 单扣 / 平扣
}
OPTION_NAMES = tuple(DEFAULTS)
MIN_TRIPLE_RUNS = (2, 3)
POINT_OPTIONS = ("points_double", "points_single", "points_level")

OPTION_HELP: dict[str, str] = {
    "min_triple_run": "连三张: the fewest consecutive triples that make a triple run (3, or 2)",
    "four_joker_bomb": "天王炸: BJ BJ SJ SJ is a bomb above every other bomb",
    "points_double": "双扣: points per player when the first finisher's partner is second",
    "points_single": "单扣: points per player when the first finisher's partner is third",
    "points_level": "平扣: points per player when the first finisher's partner is last",
    "first_lead": "the seat that leads first (a match sets it); empty for a random seat",
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def resolve_options(**overrides: Any) -> dict[str, Any]:
    """All options of a room: the defaults, then the overrides, validated."""
    unknown = set(overrides) - set(OPTION_NAMES)
    if unknown:
        raise IllegalAction(
            f"unknown Shuangkou option(s) {', '.join(sorted(unknown))}; options are {', '.join(OPTION_NAMES)}",
            code="bad_option",
            option=", ".join(sorted(unknown)),
        )
    opts = {**DEFAULTS, **overrides}
    if opts["min_triple_run"] not in MIN_TRIPLE_RUNS or not _is_int(opts["min_triple_run"]):
        raise IllegalAction(
            f"option min_triple_run must be 2 or 3 (triples in a row), not {opts['min_triple_run']!r}",
            code="bad_option",
            option="min_triple_run",
        )
    if not isinstance(opts["four_joker_bomb"], bool):
        raise IllegalAction(
            f"option four_joker_bomb must be true or false, not {opts['four_joker_bomb']!r}",
            code="bad_option",
            option="four_joker_bomb",
        )
    for name in POINT_OPTIONS:
        if not _is_int(opts[name]) or opts[name] < 0:
            raise IllegalAction(
                f"option {name} must be a whole number of points ≥ 0, not {opts[name]!r}",
                code="bad_option",
                option=name,
            )
    lead = opts["first_lead"]
    if lead is not None and (not _is_int(lead) or not 0 <= lead < 4):
        raise IllegalAction(
            f"option first_lead must be a seat 0-3 (or empty for a random seat), not {lead!r}",
            code="bad_option",
            option="first_lead",
        )
    return opts


def describe_options() -> dict[str, Any]:
    """Every room option with its type and default (for a lobby's room form)."""
    kinds = {"min_triple_run": "choice", "four_joker_bomb": "bool", "first_lead": "seat"}
    out = []
    for name in OPTION_NAMES:
        if name == "first_lead":
            continue  # carried by a match, not chosen in a room form
        entry: dict[str, Any] = {
            "name": name,
            "type": kinds.get(name, "int"),
            "default": DEFAULTS[name],
            "help": OPTION_HELP[name],
        }
        if name == "min_triple_run":
            entry["choices"] = list(MIN_TRIPLE_RUNS)
        out.append(entry)
    return {"presets": {}, "preset_option": None, "default_preset": None, "options": out, "seats": 4}
