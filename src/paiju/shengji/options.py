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


PRESETS: dict[str, dict[str, Any]] = {
    # the QQ-style game of seeds 000 and 003 (3.1 两副牌): every option at its default
    "standard": {},
    # the competition rulebook of seed 003 (比赛规则), rule by rule
    "competition": {
        "levels": "competition",  # 四、比赛级牌为：2、5、10、J、Q、K、A七个级别。其中逢2、A级必须打
        "jack_reset": True,  # 四、庄家打J级时，对家用J牌抠底，庄家重新从2级开始
        "self_overturn": False,  # 六、(自已叫主后本人不能再翻主)
        "overturn_changes_declarer": True,  # 六、第一局翻主翻庄，第二局以后翻主不翻庄
        "no_bid": "kitty_card:1",  # 七、仍无人叫主时，则由庄家翻底牌第一张牌花色为主
        "throw_penalty": 10,  # 九、4. 否则将以出错牌论处，罚10分给对方
        "kitty_multiplier": "competition",  # 十、单抠加倍，双抠两倍，拖拉机抠底四倍。甩牌抠底按单抠计
        "level_table": "competition",  # 十一、比赛中每局最高升级为三级
    },
}
"""The presets 玩法 (the room form's preset list; ``variant`` names one). A preset sets
options; any option given explicitly overrides it. Seed 003's other competition rules are
the hall's (competition mode: seats drawn by lot and kept, no 提示, no looking back) or
cannot happen online (a mis-follow 九、5 or a wrong number of cards 九、6: the engine refuses
both)."""


SCHEMA = OptionSchema(
    "Shengji",
    (
        Option(
            "variant",
            "choice",
            "standard",
            "the preset (the room form's preset option): standard or competition (seed 003 比赛规则)",
            choices=tuple(PRESETS),
            in_form=False,
        ),
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


def resolve_options(variant: str = "standard", **overrides: Any) -> dict[str, Any]:
    """All options of a room: defaults, the preset's, then the overrides, validated (JSON-friendly).

    >>> o = resolve_options(variant="competition")
    >>> o["levels"], o["throw_penalty"], o["no_bid"]
    ('competition', 10, 'kitty_card:1')
    """
    if variant not in PRESETS:
        raise IllegalAction(
            f"unknown Shengji variant {variant!r}; choose one of {', '.join(PRESETS)}",
            code="bad_option",
            option="variant",
        )
    SCHEMA.refuse_unknown(overrides)
    o: dict[str, Any] = {**DEFAULTS, **PRESETS[variant], **overrides, "variant": variant}
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
    """The presets and every room option with its type, choices and default (for the hall's room form)."""
    options = [o.describe(o.default) for o in SCHEMA.form if o.name not in NOT_YET]
    return {
        "presets": {k: dict(v) for k, v in PRESETS.items()},
        "preset_option": "variant",
        "default_preset": "standard",
        "options": options,
        "seats": 4,
    }
