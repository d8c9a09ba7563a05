"""Baohuang room options: the four presets and every toggle of the spec (§3 table).

A preset (``variant``) sets the toggles; any toggle given explicitly overrides it.

>>> resolve_options(variant="qingdao")["tribute"], resolve_options(kao=True)["kao"]
(True, True)
"""

from __future__ import annotations

from typing import Any

from paiju.errors import IllegalAction
from paiju.options import Option, OptionSchema

PRESETS: dict[str, dict[str, Any]] = {
    # 普通玩法 / 简明玩法 (固定保)
    "standard": dict(
        deck="full",
        guard="card",
        abdication="standard",
        solo_grab=False,
        grab_needs_four=False,
        guard_choice="auto",
        rebellion=True,
        kick=False,
        yield_turn=False,
        tribute=False,
        forced_four_exempts=False,
    ),
    # 经典玩法 (叫侍卫)
    "classic": dict(
        deck="full",
        guard="call",
        abdication="classic",
        solo_grab=True,
        grab_needs_four=False,
        guard_choice="auto",
        rebellion=True,
        kick=False,
        yield_turn=False,
        tribute=False,
        forced_four_exempts=True,
    ),
    # 威海玩法
    "weihai": dict(
        deck="weihai",
        guard="card",
        abdication="weihai",
        solo_grab=True,
        grab_needs_four=False,
        guard_choice="auto",
        rebellion=True,
        kick=True,
        yield_turn=False,
        tribute=False,
        forced_four_exempts=False,
    ),
    # 青岛玩法
    "qingdao": dict(
        deck="full",
        guard="call",
        abdication="qingdao",
        solo_grab=True,
        grab_needs_four=True,
        guard_choice="choose",
        rebellion=True,
        kick=True,
        yield_turn=True,
        tribute=True,
        forced_four_exempts=False,
    ),
}


def _choice(name: str, choices: tuple[str, ...], help: str, term: str = "", **more: Any) -> Option:
    return Option(name, "choice", PRESETS["standard"].get(name), help, term, choices=choices, **more)


def _toggle(name: str, help: str, term: str = "", default: bool | None = None) -> Option:
    return Option(name, "bool", PRESETS["standard"][name] if default is None else default, help, term)


SCHEMA = OptionSchema(
    "Baohuang",
    (
        Option(
            "variant",
            "choice",
            "standard",
            "the preset (the room form's preset option)",
            choices=tuple(PRESETS),
            in_form=False,
        ),
        _choice(
            "deck",
            ("full", "no345", "weihai"),
            "cards: full 216, no345 168 (without 3, 4, 5), weihai 165 (no345 minus three 6s)",
        ),
        _choice(
            "guard",
            ("card", "call"),
            "card: the holder of the guard card SJ* is guard; call: the emperor calls a suit+rank",
            "侍卫",
        ),
        _choice(
            "abdication",
            ("standard", "classic", "qingdao", "weihai"),
            "how the emperor card is passed on when declined (让位)",
            "让位",
        ),
        _toggle("solo_grab", "抢独: any player may declare an open solo before play", "抢独"),
        _toggle("grab_needs_four", "抢独 only with a suited four (Qingdao)"),
        _choice(
            "guard_choice",
            ("auto", "choose"),
            "auto: the best triple is called automatically; choose: the emperor chooses",
            "叫侍卫",
        ),
        _toggle("rebellion", "造反: two rebels declaring reveal the guard and double the stake", "造反"),
        _toggle("kick", "踢: after a rebellion or 明保, double again", "踢"),
        _toggle("yield_turn", "让牌: wait instead of passing (Qingdao)", "让牌"),
        _toggle("tribute", "上贡/吃贡 between hands (Qingdao)", "上贡"),
        _toggle(
            "forced_four_exempts",
            "in the forced cycle 逼庄 a holder of a suited four may still decline (经典玩法)",
            "逼庄",
        ),
        # the options no preset sets
        Option(
            "deal_start",
            "choice",
            "first_finisher",  # first_finisher 头客 (seed 002) | previous_emperor (seed 001)
            "who is dealt first in the next hand: the first finisher 头客 or the previous emperor",
            choices=("first_finisher", "previous_emperor"),
        ),
        # off: a player who passed may play again when the turn comes back
        _toggle("pass_is_final", "a player who passed may not play again in the same trick", default=False),
        _toggle("hold_sixes", "憋6: the held rank may be played only in the play that empties the hand", "憋6", False),
        Option("hold_rank", "rank", "6", "the rank held back under hold_sixes"),
        _toggle(
            "kao",
            "烤牌: jokers may be faced by more jokers (BJ BJ over BJ, SJ SJ over SJ, SJ SJ SJ over BJ)",
            "烤牌",
            False,
        ),
        Option(
            "leave_penalty",
            "int",
            40,  # applied by the server
            "points lost by a player who leaves a started hand",
            whole=True,
            bool_is_number=True,
            minimum=0,
            error="leave_penalty must be a non-negative number of points",
        ),
        Option(
            "unfinished_places",
            "choice",
            "cards",  # cards (revised) | seat (records of version 1, paiju.versions)
            "players left holding cards: placed by cards held (fewer first) or, in old records, by seat",
            choices=("cards", "seat"),
            in_form=False,  # for old records
        ),
        Option(
            "first_seat",
            "seat",
            0,  # the first dealt seat (a match sets it from deal_start)
            whole=True,
            bool_is_number=True,
            minimum=0,
            maximum=4,
            in_form=False,
            error="first_seat must be a seat 0-4",
        ),
        # tribute owed from the previous hand (a match sets it)
        Option("tribute_due", "text", None, in_form=False),
    ),
)

COMMON: dict[str, Any] = {
    o.name: o.default for o in SCHEMA if o.name != "variant" and o.name not in PRESETS["standard"]
}
"""The options no preset sets, with their defaults."""
CHOICES: dict[str, tuple[Any, ...]] = {o.name: o.choices for o in SCHEMA if o.choices is not None}
BOOLEANS = tuple(o.name for o in SCHEMA if o.type == "bool")
OPTION_NAMES = SCHEMA.names
OPTION_HELP: dict[str, str] = {o.name: o.help for o in SCHEMA.form}


def resolve_options(variant: str = "standard", **overrides: Any) -> dict[str, Any]:
    """All options of a room: the preset's toggles, then the overrides, validated."""
    if variant not in PRESETS:
        raise IllegalAction(
            f"unknown Baohuang variant {variant!r}; choose one of {', '.join(PRESETS)}",
            code="bad_option",
            option="variant",
        )
    SCHEMA.refuse_unknown(overrides)
    opts: dict[str, Any] = {"variant": variant, **PRESETS[variant], **COMMON}
    opts.update(overrides)
    SCHEMA.check(opts, SCHEMA.checked_first)
    if opts["yield_turn"]:
        opts["pass_is_final"] = True  # 让牌 makes a pass final
    if opts["guard"] == "call" and opts["abdication"] in ("standard", "weihai"):
        raise IllegalAction(
            f"abdication={opts['abdication']} needs guard=card (a fixed guard card)",
            code="bad_option",
            option="abdication",
        )
    if opts["guard"] == "card" and opts["abdication"] in ("classic", "qingdao"):
        raise IllegalAction(
            f"abdication={opts['abdication']} needs guard=call (the emperor calls a guard)",
            code="bad_option",
            option="abdication",
        )
    SCHEMA.check(opts, ("first_seat", "leave_penalty"))
    from paiju.baohuang.plays import strength_of_text

    held = strength_of_text(str(opts["hold_rank"]))
    if held > 12:
        raise IllegalAction("hold_rank must be an ordinary rank, not a joker", code="bad_option", option="hold_rank")
    return opts


def describe_options() -> dict[str, Any]:
    """Presets and every room option with its type, choices and default (for the hall)."""
    return {
        "presets": {k: dict(v) for k, v in PRESETS.items()},
        "preset_option": "variant",
        "default_preset": "standard",
        "options": SCHEMA.describe(),
        "seats": 5,
    }
