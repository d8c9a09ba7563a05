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
from paiju.options import Option, OptionSchema
from paiju.shengji.trump import rank_of_text, rank_text

_RANKS = tuple(rank_text(r) for r in range(2, 15))


def _toggle(name: str, help: str, term: str = "", default: bool = False) -> Option:
    return Option(name, "bool", default, help, term)


SCHEMA = OptionSchema(
    "Shengji",
    (
        Option(
            "decks",
            "choice",
            2,
            "packs of 54: 1 (12 each, kitty 6), 2 (25 each, kitty 8) or 3 (39 each, kitty 6)",
            choices=(1, 2, 3),
        ),
        Option("start_level", "rank", "2", "the level both teams start at", offered=_RANKS),
        _toggle("twos_trump", "2 常主: the 2s are permanent trumps just below the level cards", "常主"),
        Option(
            "no_bid",
            "choice",
            "kitty_card:3",
            "trump when nobody declares: suit of the 3rd, 1st or 4th kitty card, or no-trump",
            choices=("kitty_card:3", "kitty_card:1", "kitty_card:4", "no_trump"),
        ),
        # on by default (revised: the QQ pages allow it; competition play does not)
        _toggle(
            "self_overturn",
            "自反: the standing declarer may overturn his own declaration with another suit",
            "自反",
            True,
        ),
        _toggle(
            "overturn_changes_declarer",
            "first hand: an overturn makes the overturner declarer (else the first to declare stays)",
            default=True,
        ),
        Option(
            "throw_penalty",
            "int",
            0,
            "points per failed throw, to the other team",
            whole=True,
            minimum=0,
            error="throw_penalty must be a non-negative number of points",
        ),
        Option(
            "throw_evaluation",
            "choice",
            "largest_unit",
            "how two trump plays over a throw compare",
            choices=("largest_unit", "all", "highest"),
        ),
        Option(
            "kitty_multiplier",
            "choice",
            "pairs_power",
            "kitty bonus 抠底: pairs_power, unit_size or competition (pairs_power_lead: old records)",
            "抠底",
            # pairs_power_lead: what pairs_power meant in records of version 1 (see paiju.versions),
            # accepted but not offered to new rooms
            choices=("pairs_power", "unit_size", "competition", "pairs_power_lead"),
            offered=("pairs_power", "unit_size", "competition"),
        ),
        Option(
            "level_table",
            "choice",
            "default",
            "level changes by the defenders' points: default or competition (max 3 levels)",
            choices=("default", "competition"),
        ),
        # any list of rising ranks is accepted (ladder); the form offers the two named ones
        Option(
            "levels",
            "choice",
            "all",
            "the levels climbed: all, or a list such as 2,5,T,J,Q,K,A",
            offered=("all", "competition"),
        ),
        Option(
            "level_step",
            "choice",
            0,
            "points per level 一级: 0 (by the packs: 20, 40 or 60), 20 or 40; the take-over point stays",
            "一级",
            choices=(0, 20, 40),
            whole=True,
        ),
        _toggle(
            "cannot_declare_passes_deal",
            "亮不起牌: later hands, when neither declarer can declare, the hand is void and the"
            " other team deals at its own level",
            "亮不起牌",
        ),
        Option("win_at", "rank", "A", "the level at which a winning declarer team wins the match", offered=_RANKS),
        _toggle("jack_reset", "declarers at J fall back to 2 when the defenders win the last trick with a J"),
        # True/False as ever; "by_colour" adds the seed's stricter house rule (declare.py)
        Option(
            "declare_with_joker",
            "choice",
            False,
            "a declaration shows a joker plus level cards (overturn: a joker plus two of one suit);"
            " by_colour: the big joker shows a red suit, the small joker a black one",
            choices=(False, True, "by_colour"),
            error="option {name} must be true, false or by_colour, not {value!r}",
        ),
        _toggle("two_colours", "one pack: black suits count as one suit, red as another (♥K♦K is a pair)"),
        _toggle(
            "kitty_steal", "抢底: after the burial a stronger declaration takes the kitty and buries in turn", "抢底"
        ),
        _toggle("triples", "three packs: triples and 泰坦尼克 (two adjacent triples) are units of play", "三同张"),
        # carried by a match
        Option("team_levels", "text", None, "the level of team 0+2 and of team 1+3", in_form=False),
        Option(
            "declarer",
            "seat",
            None,
            "the declarer 庄家 of the hand (None: the declarations decide it)",
            "庄家",
            whole=True,
            minimum=0,
            maximum=3,
            optional=True,
            in_form=False,
            error="declarer must be a seat 0-3 (or None: decided by the declarations)",
        ),
    ),
)

DEFAULTS: dict[str, Any] = SCHEMA.defaults
CHOICES: dict[str, tuple[Any, ...]] = {o.name: o.choices for o in SCHEMA if o.choices is not None}
BOOLEANS = tuple(o.name for o in SCHEMA if o.type == "bool")

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
    SCHEMA.refuse_unknown(overrides)
    o: dict[str, Any] = {**DEFAULTS, **overrides}
    if isinstance(o["decks"], str) and o["decks"].isdigit():
        o["decks"] = int(o["decks"])
    SCHEMA.check(o, SCHEMA.checked_first)
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
    if not isinstance(o["declare_with_joker"], bool) and o["declare_with_joker"] != "by_colour":  # 1 == True
        raise IllegalAction(
            f"option declare_with_joker must be true, false or by_colour, not {o['declare_with_joker']!r}",
            code="bad_option",
            option="declare_with_joker",
        )
    if o["level_step"] and o["level_table"] != "default":
        raise IllegalAction(
            "level_step changes the default level table only: set level_table to default",
            code="bad_option",
            option="level_step",
        )
    SCHEMA.check(o, ("throw_penalty",))
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
    SCHEMA.check(o, ("declarer",))
    if o["declarer"] is None and o["team_levels"][0] != o["team_levels"][1]:
        raise IllegalAction(
            "without a declarer the teams must be at one level (the hand's level is not known)",
            code="bad_option",
            option="team_levels",
        )
    return o


OPTION_HELP: dict[str, str] = {o.name: o.help for o in SCHEMA.form}
MATCH_CARRIED = ("team_levels", "declarer")
ROOM_OPTIONS = tuple(o.name for o in SCHEMA.form if o.name not in NOT_YET)
"""The options a room form offers: every option of the spec the engine supports, without
the ones not implemented yet (only their default is accepted) and without the ones a
match carries (``team_levels``, ``declarer``)."""


def describe_options() -> dict[str, Any]:
    """Every room option with its type, choices and default (for the hall's room form).
    Shengji has no presets."""
    options = [o.describe(o.default) for o in SCHEMA.form if o.name not in NOT_YET]
    return {"presets": {}, "preset_option": None, "default_preset": None, "options": options, "seats": 4}
