"""Shengji room options (``docs/rules/shengji.md``), their defaults and validation.

Options a match carries from hand to hand: ``team_levels`` (the level of team 0+2 and of
team 1+3) and ``declarer`` (the next declarer 庄家; ``None`` in the first hand, when the
declaration decides it).

>>> o = resolve_options(decks=1)
>>> o["decks"], o["team_levels"], o["no_bid"]
(1, ['2', '2'], 'kitty_card:3')
"""

from __future__ import annotations

from typing import Any

from paiju.errors import IllegalAction
from paiju.shengji.trump import rank_of_text, rank_text

DEFAULTS: dict[str, Any] = dict(
    decks=2,
    start_level="2",
    twos_trump=False,
    no_bid="kitty_card:3",
    self_overturn=True,  # 自反 (revised: the QQ pages allow it; competition play does not)
    overturn_changes_declarer=True,
    throw_penalty=0,
    throw_evaluation="largest_unit",
    kitty_multiplier="pairs_power",
    level_table="default",
    levels="all",
    win_at="A",
    jack_reset=False,
    declare_with_joker=False,
    two_colours=False,
    kitty_steal=False,
    triples=False,
    # carried by a match
    team_levels=None,
    declarer=None,
)

CHOICES: dict[str, tuple[Any, ...]] = {
    "decks": (1, 2, 3),
    "no_bid": ("kitty_card:3", "kitty_card:1", "kitty_card:4", "no_trump"),
    "throw_evaluation": ("largest_unit", "all", "highest"),
    # pairs_power_lead: what pairs_power meant in records of version 1 (see paiju.versions)
    "kitty_multiplier": ("pairs_power", "unit_size", "competition", "pairs_power_lead"),
    "level_table": ("default", "competition"),
}
BOOLEANS = (
    "twos_trump",
    "self_overturn",
    "overturn_changes_declarer",
    "jack_reset",
    "declare_with_joker",
    "two_colours",
    "kitty_steal",
    "triples",
)
NOT_YET: tuple[str, ...] = ()
"""Options of the spec not implemented yet: only their default is accepted."""

PACK_SIZES = {1: (12, 6), 2: (25, 8), 3: (39, 6)}
"""Cards per seat and kitty 底牌 size per number of packs."""

COMPETITION_LEVELS = "2,5,T,J,Q,K,A"


def ladder(levels: Any) -> list[int]:
    """The ranks a team climbs through: ``all`` is 2 … A; a list (or ``"2,5,T,J,Q,K,A"``)
    gives the rungs. **[decision]** A level change of n climbs n rungs and never passes
    the last rung (A): the listed levels are the only levels played (seed 003 rule 四)."""
    if levels == "all":
        return list(range(2, 15))
    if levels == "competition":
        levels = COMPETITION_LEVELS
    items = levels.replace(" ", "").split(",") if isinstance(levels, str) else list(levels)
    ranks = [rank_of_text(x) for x in items]
    if not ranks or ranks != sorted(set(ranks)):
        raise IllegalAction(
            f"levels must be rising ranks without repeats, e.g. {COMPETITION_LEVELS}",
            code="bad_option",
            option="levels",
        )
    return ranks


def resolve_options(**overrides: Any) -> dict[str, Any]:
    """All options of a room: defaults, then the overrides, validated (JSON-friendly)."""
    unknown = set(overrides) - set(DEFAULTS)
    if unknown:
        raise IllegalAction(
            f"unknown Shengji option(s) {', '.join(sorted(unknown))}; options are {', '.join(DEFAULTS)}",
            code="bad_option",
            option=", ".join(sorted(unknown)),
        )
    o: dict[str, Any] = {**DEFAULTS, **overrides}
    if isinstance(o["decks"], str) and o["decks"].isdigit():
        o["decks"] = int(o["decks"])
    for name, allowed in CHOICES.items():
        if o[name] not in allowed:
            raise IllegalAction(
                f"option {name}={o[name]!r} is not one of {', '.join(map(str, allowed))}",
                code="bad_option",
                option=name,
            )
    for name in BOOLEANS:
        if not isinstance(o[name], bool):
            raise IllegalAction(f"option {name} must be true or false, not {o[name]!r}", code="bad_option", option=name)
    for name in NOT_YET:
        if o[name] is not False:
            raise IllegalAction(f"option {name} is not supported by this engine yet", code="bad_option", option=name)
    if o["two_colours"] and o["decks"] != 1:
        raise IllegalAction(
            "two_colours (black and red suits) is played with one pack: set decks to 1",
            code="bad_option",
            option="two_colours",
        )
    if o["triples"] and o["decks"] != 3:
        raise IllegalAction(
            "triples (三同张 and 泰坦尼克) are played with three packs: set decks to 3",
            code="bad_option",
            option="triples",
        )
    if not isinstance(o["throw_penalty"], int) or isinstance(o["throw_penalty"], bool) or o["throw_penalty"] < 0:
        raise IllegalAction(
            "throw_penalty must be a non-negative number of points", code="bad_option", option="throw_penalty"
        )
    rungs = ladder(o["levels"])
    if not isinstance(o["levels"], str):
        o["levels"] = ",".join(rank_text(r) for r in rungs)
    o["start_level"] = rank_text(rank_of_text(o["start_level"]))
    o["win_at"] = rank_text(rank_of_text(o["win_at"]))
    if rank_of_text(o["start_level"]) not in rungs:
        raise IllegalAction(
            f"start_level {o['start_level']} is not one of the levels", code="bad_option", option="start_level"
        )
    if o["team_levels"] is None:
        o["team_levels"] = [o["start_level"], o["start_level"]]
    else:
        tl = list(o["team_levels"])
        if len(tl) != 2:
            raise IllegalAction(
                "team_levels gives two levels: team 0+2, team 1+3", code="bad_option", option="team_levels"
            )
        o["team_levels"] = [rank_text(rank_of_text(x)) for x in tl]
    d = o["declarer"]
    if d is not None and (not isinstance(d, int) or isinstance(d, bool) or not 0 <= d < 4):
        raise IllegalAction(
            "declarer must be a seat 0-3 (or None: decided by the declarations)", code="bad_option", option="declarer"
        )
    if d is None and o["team_levels"][0] != o["team_levels"][1]:
        raise IllegalAction(
            "without a declarer the teams must be at one level (the hand's level is not known)",
            code="bad_option",
            option="team_levels",
        )
    return o


OPTION_HELP: dict[str, str] = {
    "decks": "packs of 54: 1 (12 each, kitty 6), 2 (25 each, kitty 8) or 3 (39 each, kitty 6)",
    "start_level": "the level both teams start at",
    "twos_trump": "2 常主: the 2s are permanent trumps just below the level cards",
    "no_bid": "trump when nobody declares: suit of the 3rd, 1st or 4th kitty card, or no-trump",
    "self_overturn": "自反: the standing declarer may overturn his own declaration with another suit",
    "overturn_changes_declarer": (
        "first hand: an overturn makes the overturner declarer (else the first to declare stays)"
    ),
    "throw_penalty": "points per failed throw, to the other team",
    "throw_evaluation": "how two trump plays over a throw compare",
    "kitty_multiplier": "kitty bonus 抠底: pairs_power, unit_size or competition (pairs_power_lead: old records)",
    "level_table": "level changes by the defenders' points: default or competition (max 3 levels)",
    "levels": "the levels climbed: all, or a list such as 2,5,T,J,Q,K,A",
    "win_at": "the level at which a winning declarer team wins the match",
    "jack_reset": "declarers at J fall back to 2 when the defenders win the last trick with a J",
    "declare_with_joker": "a declaration shows a joker plus level cards (overturn: a joker plus two of one suit)",
    "two_colours": "one pack: black suits count as one suit, red as another (♥K♦K is a pair)",
    "kitty_steal": "抢底: after the burial a stronger declaration takes the kitty and buries in turn",
    "triples": "three packs: triples and 泰坦尼克 (two adjacent triples) are units of play",
}

MATCH_CARRIED = ("team_levels", "declarer")
ROOM_OPTIONS = tuple(name for name in DEFAULTS if name not in NOT_YET and name not in MATCH_CARRIED)
"""The options a room form offers: every option of the spec the engine supports, without
the ones not implemented yet (only their default is accepted) and without the ones a
match carries (``team_levels``, ``declarer``)."""


def describe_options() -> dict[str, Any]:
    """Every room option with its type, choices and default (for the hall's room form).
    Shengji has no presets."""
    kinds = {"start_level": "rank", "win_at": "rank", "throw_penalty": "int", "levels": "choice"}
    out: list[dict[str, Any]] = []
    for name in ROOM_OPTIONS:
        fallback = "int" if isinstance(DEFAULTS[name], int) else "text"
        kind = "bool" if name in BOOLEANS else "choice" if name in CHOICES else kinds.get(name, fallback)
        entry: dict[str, Any] = {"name": name, "type": kind, "default": DEFAULTS[name]}
        entry["help"] = OPTION_HELP.get(name, "")
        if name in CHOICES:  # pairs_power_lead is for old records: not offered to new rooms
            entry["choices"] = [c for c in CHOICES[name] if c != "pairs_power_lead"]
        elif name == "levels":
            entry["choices"] = ["all", "competition"]
        elif kind == "rank":
            entry["choices"] = [rank_text(r) for r in range(2, 15)]
        out.append(entry)
    return {"presets": {}, "preset_option": None, "default_preset": None, "options": out, "seats": 4}
